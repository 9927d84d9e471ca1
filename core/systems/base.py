"""What every rule system supplies to the shared squad and game layer.

The layer (squads, share links, games, undo, the interface) is the same for
all five rulebooks; a system plugs in by subclassing :class:`RuleSystem`:

* a **profile model**: the pydantic model of one unit in the book's own stat
  format.  Own units are entered in it (the interface draws the form from its
  JSON Schema) and validated by it;
* a **catalogue** of ready-made units, where the book prints some;
* **costs and violations** of a unit and of a squad, each violation naming the
  unit it concerns and the rulebook line it comes from;
* the **tracked state** of a unit in a game and the **resources** of a side; what a unit
  keeps of its own (``UnitState.extra``) is typed by its ``unit_state_model``, and its
  game-wide values (``GameState.extra``) by its ``state_model``;
* **actions**: an input model (its JSON Schema becomes the modifier form) and
  a pure function ``(game, input, dice) -> ActionResult``, with the exact odds
  computed by the same procedure;
* optionally a compact **packing** of profiles for share links;
* optionally **tools**: operations of its own beyond the shared ones (e.g. a deck
  builder's), each an input model, a pure function and a result model, reached
  through the one generic operation ``system.tool``;
* the **editor kind** its own units are entered with: ``schema-form`` (a form drawn
  from the profile's JSON Schema) unless it names another editor of the shell.
"""

from __future__ import annotations

import inspect
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, RootModel, TypeAdapter, ValidationError

from core.dice import DiceSource
from core.limits import short
from core.pool import Table
from core.systems import info as listing

# A unit's card and its view in play (every system builds them): core/systems/cards.py.
from core.systems.cards import CardLine as CardLine
from core.systems.cards import CellGrid as CellGrid
from core.systems.cards import GridCell as GridCell
from core.systems.cards import GridRow as GridRow
from core.systems.cards import UnitCard as UnitCard
from core.systems.cards import UnitView as UnitView
from core.systems.cards import ViewBinding as ViewBinding
from core.systems.cards import ViewItem as ViewItem
from core.systems.cards import ViewSection as ViewSection
from core.systems.data import load

if TYPE_CHECKING:
    from core.campaign import CampaignRules
    from core.game import Game
    from core.systems import SystemInfo


class Closed(BaseModel):
    """A model that refuses fields it does not declare: the base of inputs, profiles and records."""

    model_config = ConfigDict(extra="forbid")


class Violation(BaseModel):
    """A broken building rule, shown next to the unit it concerns."""

    unit: str | None = Field(default=None, description="Key of the squad entry; None for the squad.")
    rule: str = Field(description="Short identifier of the rule, e.g. 'loadout-max'.")
    message: str = Field(description="What is wrong, in plain words.")
    ref: str = Field(default="", description="Rulebook line reference, e.g. 'L2146'.")


class CatalogueUnit(BaseModel):
    """A ready-made unit: printed in the rulebook, or one of the app's samples (``sample``)."""

    id: str
    name: str
    profile: dict[str, Any]
    note: str = Field(default="", description="E.g. where the printed cost disagrees with the rules.")
    ref: str = ""
    sample: bool = Field(default=False, description="Made by the app for a book that prints no units.")


class SampleForce(BaseModel):
    """A ready-made force of catalogue units: two of them start a sample battle in one tap."""

    name: str = Field(description="The force's name, which its side takes.")
    units: list[str] = Field(description="Catalogue ids of its units, in order.")


class UnitState(BaseModel):
    """What a tracker keeps of one unit during a game (the same shape for every system)."""

    model_config = ConfigDict(extra="forbid")

    damage: int = 0
    max_damage: int = Field(description="Damage that destroys the unit (e.g. GUNFRAME's Armour).")
    destroyed: bool = False
    activated: bool = False
    conditions: list[str] = Field(default_factory=list, description="Conditions in force, by key.")
    counters: dict[str, int] = Field(default_factory=dict)
    extra: dict[str, Any] = Field(
        default_factory=dict, description="The system's own values, typed by its unit_state_model."
    )


@cache
def _units_of(model: type[BaseModel]) -> TypeAdapter[list[list[BaseModel]]]:
    """Every unit of a game, side by side, in one validation (a third faster than unit by unit)."""
    return TypeAdapter(list[list[model]])  # type: ignore[valid-type]


def unit_state_problem(game: Game) -> str | None:
    """Why a unit's ``state.extra`` does not fit its system's ``unit_state_model``, in a few words
    (None when every unit's fits, or when the game's system is not one this build plays).

    The message names where (side, unit and the value's place), never the value itself.

    >>> from core.game import Game, GameUnit, Side
    >>> unit = GameUnit(key="u1", name="A", profile={}, state=UnitState(max_damage=3, extra={"form": 1}))
    >>> g = Game(id="g", system="gunframe", sides=[Side(name="Red", units=[unit])])
    >>> unit_state_problem(g) is None
    True
    >>> g.sides[0].units[0].state.extra["form"] = "second"
    >>> print(unit_state_problem(g))  # doctest: +ELLIPSIS
    side 1, unit 1 has a state GUNFRAME cannot read (form: Input should be a valid integer, ...)
    """
    from core.systems import implementation

    try:
        system = implementation(game.system)
    except ValueError:
        return None  # a system this build does not play: its units' values stay as they are
    model = system.unit_state_model
    if model is None:
        return None
    try:
        _units_of(model).validate_python([[u.state.extra for u in side.units] for side in game.sides])
    except ValidationError as bad:
        first = bad.errors(include_url=False)[0]
        side, unit, *loc = first["loc"]
        msg = str(first["msg"])
        if first["type"] == "extra_forbidden":  # the key is the input's: not repeated
            loc, msg = loc[:-1], "a key it does not know"
        where = short(".".join(str(p) for p in loc), 60)
        what = short(f"{where}: {msg}" if where else msg, 120)
        return (
            f"side {int(side) + 1}, unit {int(unit) + 1} has a state {system.info.name} cannot read ({what})"
        )
    return None


class TrackedDef(BaseModel):
    """A condition or counter a system's unit cards show."""

    key: str
    label: str
    kind: Literal["condition", "counter"]
    max: int | None = None
    help: str = ""


class ResourceDef(BaseModel):
    """A side-level value (points pool, initiative, victory points...)."""

    key: str
    label: str
    initial: int = 0
    min: int | None = 0
    max: int | None = None
    help: str = ""


class Sheet(BaseModel):
    """What a system's unit cards track and its sides keep: the package's ``sheet.json``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tracked_ref: str = Field(default="", description="Where the rulebook lists the unit's conditions.")
    tracked: tuple[TrackedDef, ...] = ()
    resources_ref: str = Field(default="", description="Where the rulebook lists the side's values.")
    resources: tuple[ResourceDef, ...] = ()


class Change(BaseModel):
    """One value of a game set to a new value; the game layer records the old one for undo."""

    path: list[str | int]
    value: Any


class Offer(BaseModel):
    """A follow-up a player may take at once, offered on the result of an action (reaction fire as a unit
    moves into an arc): the action, its input already filled, and its button's words."""

    action: str = Field(max_length=40)
    input: dict[str, Any] = Field(default_factory=dict)
    label: str = Field(max_length=120)


class ActionResult(BaseModel):
    """What resolving an action does to the game, and how it reads in the log."""

    changes: list[Change]
    text: str
    detail: dict[str, Any] = Field(default_factory=dict, description="Dice and numbers, for display.")
    offers: list[Offer] = Field(
        default_factory=list,
        max_length=12,
        description="Follow-ups offered at once (kept in the event's detail as 'offers').",
    )


class Choice(BaseModel):
    """One option of a :class:`NeedChoice` prompt: the value to put in the field, and how it reads."""

    value: Any
    label: str
    also: dict[str, Any] = Field(default_factory=dict, description="Other input fields this pick sets.")
    assumed: bool = Field(
        default=False,
        description="The pick the odds shown before the roll assume (a rule's recommended reading); at most "
        "one option of a prompt has it.",
    )


class NeedChoice(Exception):
    """An action cannot go on until a player picks: a tie, a blocker, a target...

    Like :class:`core.dice.NeedMoreDice` for dice, it stops the resolution
    without changing anything; the interface asks ``prompt`` of the player,
    puts the chosen value in the input ``field`` and runs the action again.
    """

    def __init__(self, field: str, prompt: str, options: Sequence[Choice], many: bool = False) -> None:
        super().__init__(prompt)
        self.field, self.prompt, self.options, self.many = field, prompt, list(options), many


class FieldPick(BaseModel):
    """One value the acting unit itself offers for an input field (one of its weapons...).

    The sheet shows it as a button; one that cannot be picked now stays on screen, greyed,
    with ``unavailable`` saying why (it needs a reload, it is not equipped...).
    """

    value: Any
    label: str
    detail: str = Field(default="", description="Its key numbers, in a few words.")
    unavailable: str = Field(default="", description="Why it cannot be picked now; empty when it can.")


class ActionOdds(BaseModel):
    """Exact odds of an action's outcomes, from the procedure that resolves it."""

    tables: dict[str, Table] = Field(description="E.g. 'damage' and 'power' distributions.")
    facts: dict[str, float] = Field(default_factory=dict, description="E.g. {'destroyed': 0.23}.")
    summary: str = ""


OptionsT = TypeVar("OptionsT", bound=BaseModel)

#: Who is looking at a game: a side (0 = first), or ``None`` for the table's shared phone, which
#: everyone sees (it marks private holdings for their owner to open, and odds use what all know).
Viewer = int | None


def read_options(model: type[OptionsT], stored: Mapping[str, Any]) -> OptionsT:
    """A system's named readings as a game stores them (``Game.options``), keys of other uses ignored.

    >>> class Readings(BaseModel):
    ...     strict: bool = False
    >>> read_options(Readings, {"strict": True, "mission": "raid"})
    Readings(strict=True)
    """
    known = model.model_fields
    return model.model_validate({k: v for k, v in stored.items() if k in known})


class Readings(Closed):
    """The base of a system's options model: the readings of unclear rules players may choose.

    A subclass declares each reading as a typed field with its default (the digest's recommended
    reading); what each one means, with its rulebook lines, is text in the package's
    ``options.json`` (field name to description), attached here when the subclass is made.  A
    reading without a text, or a text without a reading, stops the import.
    """

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        texts = load(cls.__module__.rpartition(".")[0], "options.json", Texts).root
        if texts.keys() != cls.model_fields.keys():
            raise ValueError(f"{cls.__name__}: options.json does not describe exactly its fields")
        for name, declared in cls.model_fields.items():
            declared.description = texts[name]
        cls.model_rebuild(force=True)


class Texts(RootModel[dict[str, str]]):
    """Texts by key (a data file of descriptions)."""


ProfileT = TypeVar("ProfileT", bound=BaseModel)


def as_profile(model: type[ProfileT], profile: BaseModel) -> ProfileT:
    """A unit profile as a system's own model: itself when it already is one, else a validated copy.

    >>> class Mech(BaseModel):
    ...     name: str
    >>> class Other(BaseModel):
    ...     name: str
    >>> as_profile(Mech, Other(name="Pike"))
    Mech(name='Pike')
    """
    return profile if isinstance(profile, model) else model.model_validate(profile.model_dump())


def own_unit(description: str, **more: Any) -> Any:
    """An input field naming a unit of the acting side: first and required, the acting unit.

    >>> class Move(Closed):
    ...     unit: str = own_unit("Who moves.")
    >>> Move.model_json_schema()["properties"]["unit"]["ui"]
    'own-unit'
    """
    return Field(description=description, json_schema_extra={"ui": "own-unit"}, **more)


def enemy_unit(description: str, **more: Any) -> Any:
    """An input field naming a unit of another side: first and required, the unit acted on."""
    return Field(description=description, json_schema_extra={"ui": "enemy-unit"}, **more)


def side_field(description: str, **more: Any) -> Any:
    """An input field naming a side of the game by number, 0 for the first (at most eight sides).

    >>> class Pass(Closed):
    ...     side: int | None = side_field("Who passes.", default=None)
    >>> schema = Pass.model_json_schema()["properties"]["side"]["anyOf"][0]
    >>> schema["minimum"], schema["maximum"]
    (0, 7)
    """
    return Field(ge=0, le=7, description=description, **more)


#: Whose a requirement is: the acting unit's (``own-unit``) or the unit acted on's (``enemy-unit``).
Whose = Literal["actor", "target"]

#: A requirement's check: ``(game, unit_ref)`` -> "" when the unit ('side/key') has what it needs,
#: else why not, in plain words (it names the unit and what it lacks: "Zaku has no Massed Fire").
Requirement = Callable[["Game", str], str]


def needs(key: str, of: Whose = "actor", values: Sequence[Any] | None = None) -> dict[str, Any]:
    """A UI hint (for ``json_schema_extra``) gating an input field on what a unit has.

    ``key`` names one of the system's :attr:`RuleSystem.requirements` (an ability, trait,
    weapon, upgrade or condition); ``of`` says whose (the acting unit or its target).  Without
    ``values`` the field is gated as a whole: any value but its default needs it (a modifier
    switched on, a count above 0); with ``values``, only those values of the field do (one
    answer of a choice).  The shell greys what a unit lacks with the engine's reason
    (``game.gates``), and the engine refuses it when sent anyway, before anything is resolved.

    >>> class Shot(Closed):
    ...     shooter: str = own_unit("Who shoots.")
    ...     massed: bool = Field(default=False, json_schema_extra={"flow": "common", **needs("massed")})
    >>> Shot.model_json_schema()["properties"]["massed"]["needs"]
    [{'key': 'massed', 'of': 'actor'}]
    """
    need: dict[str, Any] = {"key": key, "of": of}
    if values is not None:
        need["values"] = list(values)
    return {"needs": [need]}


@dataclass(frozen=True)
class Need:
    """One requirement an input field declares (see :func:`needs`)."""

    field: str
    key: str
    of: Whose = "actor"
    values: tuple[Any, ...] | None = None


def field_needs(model: type[BaseModel]) -> list[Need]:
    """The requirements an action's input model declares on its fields, in field order."""
    out = []
    for name, info in model.model_fields.items():
        hints: dict[str, Any] = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        for raw in hints.get("needs") or ():
            values = raw.get("values")
            whose: Whose = "target" if raw.get("of") == "target" else "actor"
            out.append(Need(name, str(raw["key"]), whose, None if values is None else tuple(values)))
    return out


def value_key(value: Any) -> str:
    """How a field's value is named among a gate's values: a string as itself, else its JSON.

    >>> value_key("flank"), value_key(2), value_key(True)
    ('flank', '2', 'true')
    """
    return value if isinstance(value, str) else json.dumps(value)


def role_fields(model: type[BaseModel]) -> dict[Whose, str | None]:
    """The input fields naming the acting unit and the unit acted on: the first ``own-unit`` and
    ``enemy-unit`` fields, required or not (an action may take the next unit when none is named)."""
    out: dict[Whose, str | None] = {"actor": None, "target": None}
    for name, info in model.model_fields.items():
        hints = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        ui = hints.get("ui")
        role: Whose | None = "actor" if ui == "own-unit" else "target" if ui == "enemy-unit" else None
        if role is not None and out[role] is None:
            out[role] = name
    return out


class Gates(BaseModel):
    """What an action's gated inputs need that the units named in its input lack, with the reasons."""

    action: str = Field(
        default="", description="Why the acting unit cannot take the action at all; empty when it can."
    )
    fields: dict[str, str] = Field(
        default_factory=dict, description="By input field: why it must stay at its default for these units."
    )
    values: dict[str, dict[str, str]] = Field(
        default_factory=dict,
        description="By input field, then by value (a string as itself, else its JSON): why that value "
        "cannot be picked for these units.",
    )


@dataclass(frozen=True)
class ActionSpec:
    """An action a unit can take: its input model and its resolution.

    How the game screen lays the action out (its *flow*) is declared, not coded per
    system: on the input model's fields as UI hints (``json_schema_extra``):

    * ``{"ui": "own-unit"}`` on the first required field: the acting unit (the action is a
      button on that unit's card);
    * ``{"ui": "enemy-unit"}`` on the first required field: the unit acted on, picked from
      the other sides' units only;
    * ``{"flow": "choice"}``: a choice that changes the dice (a range band): one button per
      value, each with its headline odds; with ``"x-sides": {value: side index}`` a value that
      stands for a side reads as that side's name (who goes first);
    * ``{"flow": "common"}``: a modifier players use often, shown first (a number as its input
      above the rest); the others sit behind "more";
    * ``{"flow": "pick"}``: a value the acting unit offers from its own sheet (its weapons):
      ``picks(game, actor)`` lists them per field as :class:`FieldPick` (greyed with the
      reason when one cannot be used now), one button each;

    and here: ``headline``, the keys of :class:`ActionOdds` tables and facts the headline
    line of odds shows (the first table's chance of at least 1 and mean come first), and
    ``primary``, an action offered on every unit's one-line card.
    """

    name: str
    label: str
    input: type[BaseModel]
    resolve: Callable[[Game, Any, DiceSource], ActionResult]
    odds: Callable[..., ActionOdds] | None = None
    help: str = ""
    #: The odds depend on who is looking (hidden cards): ``odds(game, input, viewer)`` is called.
    odds_by_viewer: bool = False
    #: Input fields holding a secret pick: the log keeps their count, never their value.
    secret_fields: tuple[str, ...] = ()
    headline: tuple[str, ...] = ()
    primary: bool = False
    #: The acting unit's own values for the ``{"flow": "pick"}`` fields: ``picks(game, actor_ref)``
    #: answers ``{field: [FieldPick, ...]}``.
    picks: Callable[[Game, str], dict[str, list[FieldPick]]] | None = None
    #: False for an action that rolls nothing (a move, an order, passing the turn): the game screen
    #: applies it in one tap, with Undo, instead of offering an app roll or real dice.  A rare die
    #: such an action may still need (an unreliable machine's failure die) is rolled by the app.
    rolls: bool = True
    #: What the acting unit must have to take the action at all (keys of the system's
    #: ``requirements``): offered greyed with the reason to a unit that lacks one, refused if sent.
    needs: tuple[str, ...] = ()
    #: The sheet's two buttons, when the chance is not a roll (shuffling, drawing): the app does
    #: it, or the players did it with real dice.
    roll_label: str = "Roll for me"
    typed_label: str = "I rolled real dice"

    @classmethod
    def of(
        cls,
        name: str,
        label: str,
        resolve: Callable[[Game, Any, DiceSource], ActionResult],
        help: str,
        **more: Any,
    ) -> ActionSpec:
        """The action ``resolve`` carries out, its input model read from ``resolve``'s second parameter.

        >>> class Aim(Closed):
        ...     unit: str = own_unit("Who aims.")
        >>> def resolve_aim(game: Game, inp: Aim, dice: DiceSource) -> ActionResult:
        ...     return ActionResult(changes=[], text="aims")
        >>> ActionSpec.of("aim", "Aim", resolve_aim, "Take aim.").input is Aim
        True
        """
        param = list(inspect.signature(resolve).parameters.values())[1]
        model = param.annotation
        if isinstance(model, str):  # postponed annotations: the name in the resolving module
            model = resolve.__globals__[model]
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise TypeError(f"{resolve.__name__}: its input parameter is not annotated with a model")
        return cls(name=name, label=label, input=model, resolve=resolve, help=help, **more)


class ActionText(Closed):
    """How an action reads on the game screen: its button and its one-line help (with rulebook lines)."""

    label: str
    help: str = ""


class ActionTexts(RootModel[dict[str, ActionText]]):
    """The texts of a system's actions by action name: the package's ``actions.json``.

    >>> texts = ActionTexts.model_validate({"aim": {"label": "Aim", "help": "Take aim."}})
    >>> class Aim(Closed):
    ...     unit: str = own_unit("Who aims.")
    >>> def resolve_aim(game: Game, inp: Aim, dice: DiceSource) -> ActionResult:
    ...     return ActionResult(changes=[], text="aims")
    >>> spec = texts.spec("aim", resolve_aim, rolls=False)
    >>> spec.label, spec.help, spec.input is Aim, spec.rolls
    ('Aim', 'Take aim.', True, False)
    """

    def spec(
        self, name: str, resolve: Callable[[Game, Any, DiceSource], ActionResult], **more: Any
    ) -> ActionSpec:
        """The action ``name`` with its texts from the file (KeyError for one the file lacks)."""
        text = self.root[name]
        return ActionSpec.of(name, text.label, resolve, text.help, **more)


@cache
def action_texts(package: str) -> ActionTexts:
    """The ``actions.json`` of a system's package, read once."""
    return load(package, "actions.json", ActionTexts)


class ToolError(ValueError):
    """A tool's input names something that does not exist (an unknown card...); ``field`` says where."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class ToolSpec:
    """An operation a system offers beyond the shared ones (e.g. its deck builder's steps).

    ``run`` is pure: it takes a validated ``input`` and returns a ``result`` model, raising
    :class:`ToolError` (or ``ValueError``) for a request that cannot be met.  The seam
    validates the arguments against ``input`` and writes both schemas to the site.
    """

    name: str
    input: type[BaseModel]
    run: Callable[[Any], BaseModel]
    result: type[BaseModel]
    doc: str


class EditorInfo(BaseModel):
    """How the shell lets a player enter an own unit of this system."""

    kind: str = Field(
        default="schema-form",
        pattern=r"^[a-z][a-z0-9-]{0,39}$",
        description="The shell's editor module: 'schema-form' draws a form from the profile's JSON "
        "Schema; another kind names a generic editor (e.g. 'card-deck').",
    )
    tools: dict[str, str] = Field(
        default_factory=dict,
        description="Which of the system's tools the editor calls for each of its steps "
        "(e.g. {'assemble': 'assemble'}).",
    )
    data: dict[str, Any] = Field(
        default_factory=dict,
        description="What the editor needs to know that only the engine knows (choices and their labels, "
        "blank values).",
    )


class PhaseStep(BaseModel):
    """One step of a game turn as the phase strip shows it."""

    key: str
    label: str
    action: str | None = Field(default=None, description="The action that carries the step out, if one does.")
    input: dict[str, Any] = Field(default_factory=dict, description="Its input when run from the strip.")
    sheet: bool = Field(
        default=False,
        description="Opened as an action sheet (dice to roll or choices to make), not run at once.",
    )
    hint: str = Field(default="", description="What the players do when it is not one button.")
    gate: bool = Field(
        default=False,
        description="No unit acts before this step is done (the battle's first roll): the units' action "
        "buttons are greyed, the step's button is the one offered.",
    )
    ask_at_once: bool = Field(
        default=False,
        description="When running the step would ask the players something (whom a card attacks), the "
        "question is on screen at once, its answers as buttons, instead of behind the step's button.",
    )


class PhaseView(BaseModel):
    """Where a game is in its turn: the steps, and the one it is at (its next thing to do)."""

    steps: list[PhaseStep]
    current: int = Field(ge=0)
    round_button: bool = Field(
        default=True,
        description="The shell's own Next round button; False when play passes by a step of the strip "
        "(a player's turn ends, the next begins) and a bare new round would skip the rules.",
    )
    round_refusal: str = Field(default="", description="Why a new round is refused now (empty: it may).")


class ActionFlow(BaseModel):
    """An action's layout on the game screen, read from its declaration (see ActionSpec)."""

    actor: str | None = Field(default=None, description="Input field naming the acting unit.")
    target: str | None = Field(default=None, description="Input field naming the (enemy) unit acted on.")
    choices: list[str] = Field(default_factory=list, description="Fields whose values change the dice.")
    common: list[str] = Field(default_factory=list, description="Modifiers shown first.")
    picks: list[str] = Field(
        default_factory=list, description="Fields whose values the acting unit offers (game.picks)."
    )
    headline: list[str] = Field(default_factory=list, description="Odds keys of the headline line.")
    primary: bool = False


def action_flow(spec: ActionSpec) -> ActionFlow:
    """The flow an action declares through its input model's hints and its spec.

    >>> class Shot(BaseModel):
    ...     shooter: str = Field(json_schema_extra={"ui": "own-unit"})
    ...     victim: str = Field(json_schema_extra={"ui": "enemy-unit"})
    ...     band: Literal["near", "far"] = Field(default="near", json_schema_extra={"flow": "choice"})
    ...     aimed: bool = Field(default=False, json_schema_extra={"flow": "common"})
    ...     gun: str = Field(default="", json_schema_extra={"flow": "pick"})
    >>> spec = ActionSpec("shot", "Shot", Shot, lambda g, i, d: ActionResult(changes=[], text=""))
    >>> flow = action_flow(spec)
    >>> flow.actor, flow.target, flow.choices, flow.common, flow.picks
    ('shooter', 'victim', ['band'], ['aimed'], ['gun'])
    """
    flow = ActionFlow(headline=list(spec.headline), primary=spec.primary)
    for name, info in spec.input.model_fields.items():
        hints = info.json_schema_extra if isinstance(info.json_schema_extra, dict) else {}
        ui, role = hints.get("ui"), hints.get("flow")
        if ui == "own-unit" and flow.actor is None and info.is_required():
            flow.actor = name
        elif ui == "enemy-unit" and flow.target is None and info.is_required():
            flow.target = name
        if role == "choice":
            flow.choices.append(name)
        elif role == "common":
            flow.common.append(name)
        elif role == "pick":
            flow.picks.append(name)
    return flow


@dataclass
class RuleSystem(ABC):
    """A rule system's contribution to the shared layer."""

    info: SystemInfo
    profile_model: type[BaseModel]
    tracked: Sequence[TrackedDef] = ()
    resources: Sequence[ResourceDef] = ()
    actions: dict[str, ActionSpec] = field(default_factory=dict)
    #: Named options where players may read an ambiguous rule differently.
    options: type[BaseModel] | None = None
    #: Operations of the system's own, by name (see :class:`ToolSpec`).
    tools: dict[str, ToolSpec] = field(default_factory=dict)
    #: The editor its own units are entered with.
    editor: EditorInfo = field(default_factory=EditorInfo)
    #: The model of its own game-wide values (``Game.state.extra``), read with :func:`read_options`.
    state_model: type[BaseModel] | None = None
    #: The model of a unit's own values in play (``UnitState.extra``), every field described: each
    #: unit's is checked against it whenever a game is read (:func:`unit_state_problem`).
    unit_state_model: type[BaseModel] | None = None
    #: What gated inputs need, by key (see :func:`needs` and ``ActionSpec.needs``): each a check
    #: ``(game, unit_ref) -> reason`` answering "" when the unit has it.
    requirements: dict[str, Requirement] = field(default_factory=dict)

    def lacking(self, game: Game, key: str, ref: str, memo: dict[tuple[str, str], str]) -> str:
        """Why unit ``ref`` lacks requirement ``key`` ("" if it has it or names no unit), once a ``memo``."""
        if (key, ref) not in memo:
            try:
                game.unit(ref)
            except ValueError:
                return memo.setdefault((key, ref), "")
            memo[key, ref] = self.requirements[key](game, ref)
        return memo[key, ref]

    def gates(self, game: Game, spec: ActionSpec, raw: Mapping[str, Any]) -> Gates:
        """Which of ``spec``'s gated inputs the units named in ``raw`` lack, with the reasons.

        ``raw`` is the action's input as far as it is known (its acting unit and target may be all);
        a unit not named yet, or unknown, gates nothing here (the input's own checks refuse it).
        """
        refs: dict[str, Any] = {
            role: raw.get(name) if name else None for role, name in role_fields(spec.input).items()
        }
        reasons: dict[tuple[str, str], str] = {}

        def lacks(key: str, of: str) -> str:
            return self.lacking(game, key, ref, reasons) if isinstance(ref := refs.get(of), str) else ""

        out = Gates()
        for key in spec.needs:
            if not out.action:
                out.action = lacks(key, "actor")
        for need in field_needs(spec.input):
            why = lacks(need.key, need.of)
            if not why:
                continue
            if need.values is None:
                out.fields.setdefault(need.field, why)
            else:
                by_value = out.values.setdefault(need.field, {})
                for value in need.values:
                    by_value.setdefault(value_key(value), why)
        return out

    def refuse_gated(self, game: Game, spec: ActionSpec, parsed: BaseModel) -> None:
        """Refuse (ValueError, with the reason) an input that uses what its units lack."""
        raw = parsed.model_dump(mode="json")
        gates = self.gates(game, spec, raw)
        if gates.action:
            raise ValueError(gates.action)
        for name, why in gates.fields.items():
            declared = spec.input.model_fields[name]
            default = declared.get_default(call_default_factory=True)
            if getattr(parsed, name) != default:
                raise ValueError(why)
        for name, by_value in gates.values.items():
            why = by_value.get(value_key(raw.get(name)), "")
            if why:
                raise ValueError(why)

    #: Its campaign mode, if it has one: a long-lived record that starts games (core.campaign).
    campaign: CampaignRules | None = None

    @classmethod
    def of_package(cls, package: str, profile_model: type[BaseModel], **parts: Any) -> Self:
        """The system of the package ``core.systems.<id>``: its listing, the tracked values and resources
        of the package's ``sheet.json``, its profile model and ``parts`` (the other fields)."""
        sheet = load(package, "sheet.json", Sheet)
        return cls(
            info=listing(package.rpartition(".")[2]),
            profile_model=profile_model,
            tracked=sheet.tracked,
            resources=sheet.resources,
            **parts,
        )

    def catalogue(self) -> list[CatalogueUnit]:
        """Ready-made units (none by default)."""
        return []

    def sample_forces(self) -> list[SampleForce]:
        """Ready-made forces of catalogue units (none by default); two make a sample battle."""
        return []

    def samples_catalogue(
        self, samples: Mapping[str, BaseModel], note: str, ref: str = ""
    ) -> list[CatalogueUnit]:
        """A catalogue of units of the app's own making, for a book that prints none: each with ``note``."""
        return [
            CatalogueUnit(
                id=key,
                name=self.unit_name(unit),
                profile=unit.model_dump(mode="json"),
                note=note,
                ref=ref,
                sample=True,
            )
            for key, unit in samples.items()
        ]

    @abstractmethod
    def unit_cost(self, profile: BaseModel) -> int:
        """Points of one unit."""

    def unit_violations(self, profile: BaseModel) -> list[Violation]:
        """Building rules one unit breaks on its own (none by default)."""
        return []

    def unfit_choices(self, profile: BaseModel) -> dict[str, dict[str, str]]:
        """Why some choices of a checklist field would not fit this unit as it stands (none by default).

        Keyed by the field's path in the profile (``"upgrades"``, ``"forms.0.upgrades"``), then by
        the choice, with the reason in plain words; the form greys those choices with the reason.
        """
        return {}

    def squad_violations(self, units: Sequence[tuple[str, BaseModel]], limit: int | None) -> list[Violation]:
        """Rules the squad as a whole breaks: by default only the points limit."""
        total = sum(self.unit_cost(p) for _, p in units)
        if limit is not None and total > limit:
            return [Violation(rule="points-limit", message=f"{total} points is over the {limit}-point limit")]
        return []

    def card(self, profile: BaseModel) -> UnitCard:
        """The unit as a card: by default each plain field of the profile, in order."""
        lines = []
        for name, value in profile.model_dump(mode="json").items():
            if name != "name" and isinstance(value, str | int | float | bool) and value not in ("", None):
                lines.append(CardLine(label=name.replace("_", " ").capitalize(), value=str(value)))
        return UnitCard(title=self.unit_name(profile), lines=lines)

    def unit_view(self, game: Game, side: int, index: int, viewer: Viewer = None) -> UnitView | None:
        """Piles, hands and other holdings of a unit in play (none by default).

        ``viewer`` is who looks: a private section is left out of what another side sees, and
        marked private (hidden until its owner opens it) on the shared phone.
        """
        return None

    def unit_views(self, game: Game, viewer: Viewer = None) -> dict[tuple[int, int], UnitView]:
        """Every unit's :meth:`unit_view` at once, by (side, index): what ``game.views`` draws.

        A system whose views read the whole game (who resolves next...) overrides this to read it
        once, so drawing a game costs time in proportion to its units, not their square.
        """
        out = {}
        for s, side in enumerate(game.sides):
            for u in range(len(side.units)):
                view = self.unit_view(game, s, u, viewer)
                if view is not None:
                    out[(s, u)] = view
        return out

    def unit_name(self, profile: BaseModel) -> str:
        """The name to show for a unit (its profile's ``name`` by default)."""
        return str(getattr(profile, "name", "Unit"))

    def starting_resources(self, forces: Sequence[Sequence[BaseModel]], side: int) -> dict[str, int]:
        """Side ``side``'s pools when the game starts, given every side's unit profiles (``forces``).

        Each resource's ``initial`` by default; a system whose starting pools follow from the forces
        (a pool set by the game's size in points, a bonus a unit brings) works them out here.
        """
        return {r.key: r.initial for r in self.resources}

    @abstractmethod
    def initial_state(self, profile: BaseModel) -> UnitState:
        """A unit's tracked state at the start of a game."""

    def start_round(self, game: Game) -> list[Change]:
        """Changes made when a new round starts (by default every unit is ready again)."""
        changes: list[Change] = []
        for s, side in enumerate(game.sides):
            for u, unit in enumerate(side.units):
                if unit.state.activated:
                    changes.append(Change(path=["sides", s, "units", u, "state", "activated"], value=False))
        return changes

    def status(self, game: Game) -> list[CardLine]:
        """The state of the game as a whole (mission, environment, clocks), shown under its title."""
        return []

    def game_violations(self, sides: Sequence[tuple[str, Sequence[BaseModel]]]) -> list[Violation]:
        """Why these sides (name, unit profiles) cannot start a game together (none by default)."""
        return []

    def shareable(self, game: Game) -> Game:
        """The game as a share link may carry it: by default all of it.

        A system with hidden holdings returns a copy without them (see its own notes).
        """
        return game

    def phase(self, game: Game) -> PhaseView | None:
        """Where the game is in its turn, for a system whose turn has phases (none by default)."""
        return None

    def round_refusal(self, game: Game) -> str:
        """Why ``next_round`` is refused now, in plain words (units yet to act); "" when it may (default)."""
        return ""

    def settle(self, game: Game) -> list[Change]:
        """Changes that bring derived values up to date after a manual adjustment (none by default).

        E.g. a condition that follows from damage: when players edit the damage by hand, the layer
        records these changes in the same event, so one undo takes back both.
        """
        return []

    def upgrade_game(self, data: dict[str, Any], schema: int) -> dict[str, Any]:
        """A saved game of this system, as JSON, from game schema ``schema`` to the next one.

        The layer has already made the shared change (e.g. 1 -> 2 added ``state`` at its defaults);
        a system moves its own values here (e.g. game-wide values it kept among its options into
        ``state``).  Nothing to do by default.
        """
        return data

    def pack_profile(self, profile: BaseModel) -> Any:
        """A compact JSON form for share links (the plain dump by default)."""
        return profile.model_dump(mode="json", exclude_defaults=True)

    def unpack_profile(self, packed: Any) -> BaseModel:
        """Inverse of :meth:`pack_profile`; raises ValueError on anything invalid."""
        return self.profile_model.model_validate(packed)
