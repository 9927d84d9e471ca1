"""The one seam between the browser and the rules: JSON in, JSON out, errors as data.

The engine worker calls :func:`handle` with a request such as
``{"op": "dice.odds", "args": {...}}`` and gets back
``{"ok": true, "result": {...}, "ms": 1.2}`` or
``{"ok": false, "error": {"code": ..., "message": ..., "problems": [...]}}``.
Nothing a request contains can make it raise.

>>> import json
>>> reply = json.loads(handle('{"op": "dice.odds", "args": {"attack": {"dice": 2, "success_on": 4}}}'))
>>> reply["ok"], reply["result"]["net"]["mean"]
(True, '1/1')
>>> reply = json.loads(handle('{"op": "dice.odds", "args": {"attack": {"dice": 2, "success_on": 7}}}'))
>>> reply["error"]["problems"][0]["message"]
'a d6 cannot succeed on 7+: choose 1+ to 6+'

Every operation is an entry of :data:`OPERATIONS`: an input model, a function
and an output model.  The build writes their JSON Schemas to the site, and
the interface builds forms from them.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from core import __version__, answered, campaign_api, limits, remote, share, storage
from core import game as games
from core.dice import DiceSource, NeedMoreDice, RandomDice, TypedDice
from core.game import Event, Game
from core.pool import (
    MAX_DICE,
    SIDES,
    ContestRoll,
    PoolSpec,
    Table,
    contest_summary,
    roll_contest,
    table,
)
from core.squad import Squad, SquadReport, SquadUnit
from core.squad import check as squad_check
from core.systems import SYSTEMS, SystemInfo, implementation
from core.systems.base import (
    ActionFlow,
    ActionOdds,
    CardLine,
    CatalogueUnit,
    Change,
    Choice,
    EditorInfo,
    FieldPick,
    Gates,
    NeedChoice,
    PhaseView,
    ResourceDef,
    RuleSystem,
    SampleForce,
    ToolError,
    TrackedDef,
    UnitCard,
    UnitView,
    Violation,
    action_flow,
)

#: The most faces a player may type for one roll (every die plus its reroll).
MAX_FACES = 2 * 2 * MAX_DICE


class Problem(BaseModel):
    """One thing wrong with a request, with where it is."""

    field: str
    message: str


class ApiError(BaseModel):
    """Why a request was not carried out: shown to the player as it is."""

    code: Literal["bad_request", "unknown_op", "invalid", "internal"]
    message: str
    problems: list[Problem] = []


class RequestError(Exception):
    """Raised by an operation for a request that is well-formed but cannot be met."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


# --- operations ---------------------------------------------------------------------


class MetaArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MetaResult(BaseModel):
    version: str
    systems: list[SystemInfo]
    operations: list[str]
    max_dice: int
    sides: list[int]


def meta(_: MetaArgs) -> MetaResult:
    """What this engine is and can do."""
    return MetaResult(
        version=__version__,
        systems=list(SYSTEMS),
        operations=sorted(OPERATIONS),
        max_dice=MAX_DICE,
        sides=list(SIDES),
    )


class ContestArgs(BaseModel):
    """An attack pool and, optionally, an opposed pool whose successes cancel it."""

    model_config = ConfigDict(extra="forbid")

    attack: PoolSpec
    defense: PoolSpec | None = None


class OddsResult(BaseModel):
    net: Table = Field(description="Net successes (attack successes left after cancelling).")
    attack_crits: Table
    defense_crits: Table | None
    p_net_and_crit: float = Field(
        description="Chance of at least one net success and at least one attack critical."
    )


def odds(args: ContestArgs) -> OddsResult:
    """Exact odds of a contest, from the same procedure that rolls it."""
    summary = contest_summary(args.attack, args.defense)
    return OddsResult(
        net=table(summary.net),
        attack_crits=table(summary.attack_crits),
        defense_crits=table(summary.defense_crits) if summary.defense_crits else None,
        p_net_and_crit=float(summary.net_and_crit),
    )


class RollArgs(ContestArgs):
    """Roll a contest with the app's dice (optionally seeded) or with typed faces."""

    seed: int | None = Field(default=None, description="Seed for a reproducible roll.")
    faces: list[int] | None = Field(
        default=None,
        max_length=MAX_FACES,
        description="Faces of physical dice, in the order asked: attack, its rerolls, defense, its rerolls.",
    )


class Need(BaseModel):
    """More physical dice are wanted before the roll can be resolved."""

    count: int
    sides: int
    purpose: str


class RollResult(BaseModel):
    complete: bool
    need: Need | None = None
    roll: ContestRoll | None = None


def roll(args: RollArgs) -> RollResult:
    """Resolve a contest; with typed faces, say which dice to roll next if any are missing."""
    if args.faces is None:
        return RollResult(complete=True, roll=roll_contest(args.attack, args.defense, RandomDice(args.seed)))
    source = TypedDice(args.faces)
    try:
        result = roll_contest(args.attack, args.defense, source)
    except NeedMoreDice as need:
        return RollResult(
            complete=False, need=Need(count=need.needed, sides=need.sides, purpose=need.purpose)
        )
    except ValueError as bad:
        raise RequestError(str(bad), "faces") from bad
    if source.left:
        raise RequestError(
            f"{len(args.faces)} faces were entered but this roll uses {source.used}: remove {source.left}",
            "faces",
        )
    return RollResult(complete=True, roll=result)


# --- systems, squads, share links ------------------------------------------------------


class SystemArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    system: str


class ActionInfo(BaseModel):
    name: str
    label: str
    help: str
    input_schema: dict[str, Any]
    has_odds: bool
    rolls: bool = Field(
        default=True, description="It rolls dice (or draws cards); False: it only records what players did."
    )
    roll_label: str = Field(default="Roll for me", description="Its button for the app's roll.")
    typed_label: str = Field(default="I rolled real dice", description="Its button for real dice.")
    flow: ActionFlow


class SystemDescription(BaseModel):
    """Everything the interface needs to build a system's screens."""

    info: SystemInfo
    profile_schema: dict[str, Any]
    catalogue: list[CatalogueUnit]
    tracked: list[TrackedDef]
    resources: list[ResourceDef]
    actions: list[ActionInfo]
    options_schema: dict[str, Any] | None
    editor: EditorInfo = Field(description="The editor the shell opens for an own unit of this system.")
    tools: list[str] = Field(default_factory=list, description="Names of its own tools (system.tool).")
    sample_forces: list[SampleForce] = Field(
        default_factory=list, description="Ready-made forces of catalogue units, for a sample battle."
    )
    campaign: bool = Field(default=False, description="It has a campaign mode (campaign.* operations).")


def describe(args: SystemArgs) -> SystemDescription:
    """A system's profile format, catalogue, tracked values and actions (with schemas)."""
    system = _system(args.system)
    catalogue = system.catalogue()
    return SystemDescription(
        info=system.info,
        profile_schema=system.profile_model.model_json_schema(),
        catalogue=catalogue,
        tracked=list(system.tracked),
        resources=list(system.resources),
        actions=[
            ActionInfo(
                name=a.name,
                label=a.label,
                help=a.help,
                input_schema=a.input.model_json_schema(),
                has_odds=a.odds is not None,
                rolls=a.rolls,
                roll_label=a.roll_label,
                typed_label=a.typed_label,
                flow=action_flow(a),
            )
            for a in system.actions.values()
        ],
        options_schema=system.options.model_json_schema() if system.options else None,
        editor=_editor(system.editor, catalogue),
        tools=list(system.tools),
        sample_forces=system.sample_forces(),
        campaign=system.campaign is not None,
    )


def _editor(editor: EditorInfo, catalogue: list[CatalogueUnit]) -> EditorInfo:
    """The editor's words with the heading of the ready-made list named for what it holds: the
    app's own samples (:meth:`RuleSystem.samples_catalogue`) where the book prints no units, each
    called by the system's word for a unit; else the shell's "The book's units"."""
    if "catalogue_title" in editor.data or not catalogue or not all(c.sample for c in catalogue):
        return editor
    noun = str(editor.data.get("unit_label", "unit"))
    return editor.model_copy(
        update={"data": {**editor.data, "catalogue_title": f"Sample {noun}s made by this app"}}
    )


def _system(system_id: str) -> RuleSystem:
    try:
        return implementation(system_id)
    except ValueError as bad:
        raise RequestError(str(bad), "system") from bad


class UnitArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    system: str
    profile: dict[str, Any]


class UnitCheck(BaseModel):
    valid: bool
    name: str
    cost: int | None
    violations: list[Violation]
    card: UnitCard | None = None
    profile: dict[str, Any] | None = Field(description="The profile as the system normalises it.")
    unfit: dict[str, dict[str, str]] = Field(
        default_factory=dict,
        description="Checklist choices that would not fit the unit now: field path -> choice -> reason.",
    )


def check_unit(args: UnitArgs) -> UnitCheck:
    """Validate one unit (an own unit being entered): its cost and every rule it breaks."""
    report = check_squad(
        SquadArgs(
            squad=Squad(
                id="check",
                name="check",
                system=args.system,
                units=[SquadUnit(key="u1", profile=args.profile)],
            )
        )
    )
    unit = report.units[0]
    profile = None
    unfit: dict[str, dict[str, str]] = {}
    if unit.cost is not None:
        system = _system(args.system)
        model = system.profile_model.model_validate(args.profile)
        profile = model.model_dump(mode="json")
        unfit = system.unfit_choices(model)
    return UnitCheck(
        valid=unit.cost is not None,
        name=unit.name,
        cost=unit.cost,
        violations=unit.violations,
        card=unit.card,
        profile=profile,
        unfit=unfit,
    )


class SquadArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    squad: Squad


def check_squad(args: SquadArgs) -> SquadReport:
    """Points and every violation of a squad, unit by unit."""
    _system(args.squad.system)
    return squad_check(args.squad)


class ShareArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    squad: Squad | None = None
    game: Game | None = None
    history: bool = Field(
        default=True, description="A game's log goes with it; False: the game as it stands (a shorter link)."
    )


class Token(BaseModel):
    token: str
    length: int


def share_encode(args: ShareArgs) -> Token:
    """A share token for a squad or a game."""
    if (args.squad is None) == (args.game is None):
        raise RequestError("share either a squad or a game")
    if args.squad is not None:
        token = share.encode_squad(args.squad)
    else:
        assert args.game is not None
        # hidden holdings stay on the phone that holds the game (RuleSystem.shareable)
        game = args.game if args.history else args.game.model_copy(update={"log": [], "cursor": 0})
        token = share.encode_game(games.shareable(game))
    return Token(token=token, length=len(token))


class DecodeArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    token: str = Field(max_length=share.MAX_TOKEN * 2)


def share_decode(args: DecodeArgs) -> share.Shared:
    """Open a share token; a damaged one is an error with a message for the player."""
    try:
        return share.decode(args.token)
    except share.ShareError as bad:
        raise RequestError(str(bad), "token") from bad


class RemoteRequestArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Game
    side: int = Field(ge=0)


class RemoteRequest(BaseModel):
    request: remote.Request
    token: str
    length: int


def remote_request(args: RemoteRequestArgs) -> RemoteRequest:
    """One side's secret choices as a link for another phone (see core.remote)."""
    req = remote.request(args.game, args.side)
    if not req.picks:
        raise RequestError(f"{req.side_name} has nothing secret to choose just now", "side")
    token = share.encode_request(req)
    return RemoteRequest(request=req, token=token, length=len(token))


class RemoteAnswerArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    request: remote.Request
    chosen: list[remote.Chosen] = Field(max_length=20)


def remote_answer(args: RemoteAnswerArgs) -> Token:
    """The picks made on this phone as a link back to the host."""
    token = share.encode_answer(remote.answer(args.request, args.chosen), args.request.system)
    return Token(token=token, length=len(token))


class RemoteApplyArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Game
    answer: remote.Answer
    seed: int | None = None


def remote_apply(args: RemoteApplyArgs) -> Game:
    """The host's game with the other phone's choices resolved (all or none)."""
    return remote.apply(args.game, args.answer, RandomDice(args.seed))


class QrArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(max_length=20_000, description="Longer than a QR code holds: answered in words.")


class Qr(BaseModel):
    svg: str
    version: int


#: The most bytes a QR code holds (version 40, lowest error correction).
QR_MAX_BYTES = 2953


def qr(args: QrArgs) -> Qr:
    """The text as a QR code in SVG, drawn here (no network)."""
    import segno

    try:
        code = segno.make(args.text, error="l", micro=False)
    except segno.DataOverflowError as bad:
        raise RequestError(
            f"This link is too long for a QR code ({len(args.text):,} characters; a code holds "
            f"{QR_MAX_BYTES:,}): copy it or use Share instead.",
            "text",
        ) from bad
    # A standalone SVG document: without its namespace a browser will not draw it as an
    # <img> (data: URL), so every share box showed a broken image. The viewBox lets the
    # page scale it; the 4-module quiet zone is kept so a phone camera finds it.
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        scale=1,
        dark="#000",
        light="#fff",
        border=4,
        xmldecl=False,
        svgns=True,
        nl=False,
        svgclass=None,
        lineclass=None,
        omitsize=True,
    )
    size = code.symbol_size(scale=1, border=4)[0]
    svg = out.getvalue().decode("ascii").replace("<svg ", f'<svg width="{size * 4}" height="{size * 4}" ', 1)
    return Qr(svg=svg, version=int(code.version))


# --- games ----------------------------------------------------------------------------


def _fit_name(value: Any) -> Any:
    """A game's or side's name longer than a game keeps (80) is shortened, never refused:
    the interface names a game after its squads, and two long squad names must not block it."""
    if isinstance(value, str) and len(value) > share.MAX_NAME:
        return value[: share.MAX_NAME - 1].rstrip() + "…"
    return value


FitName = Annotated[str, BeforeValidator(_fit_name)]


class NewSide(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: FitName = Field(min_length=1, max_length=80)
    squad: Squad


class NewGameArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=40)
    name: FitName = Field(default="Game", max_length=80)
    sides: list[NewSide] = Field(min_length=2, max_length=8)


def game_new(args: NewGameArgs) -> Game:
    """A game from two or more squads of one system, every unit fresh."""
    return games.new_game(args.id, args.name, [(s.name, s.squad) for s in args.sides])


class GameArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Game


class ActArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Game
    action: str
    input: dict[str, Any]
    seed: int | None = None
    faces: list[int] | None = Field(default=None, max_length=MAX_FACES)


class Ask(BaseModel):
    """A player must pick before the action can go on (a tie, a blocker...): see NeedChoice."""

    field: str
    prompt: str
    options: list[Choice]
    many: bool = False


class ActResult(BaseModel):
    complete: bool
    need: Need | None = None
    ask: Ask | None = None
    game: Game | None = None
    event: Event | None = None


class OddsArgs(ActArgs):
    viewer: int | None = Field(
        default=None, ge=0, description="Who is looking: a side, or none for the shared table phone."
    )


def game_odds(args: OddsArgs) -> ActionOdds:
    """Exact odds of an action before it is rolled, from what the viewer may know."""
    return games.odds(args.game, args.action, args.input, args.viewer)


class PicksArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Game
    action: str
    actor: str = Field(max_length=80, description="The acting unit, as 'side/key'.")


class Picks(BaseModel):
    fields: dict[str, list[FieldPick]] = Field(
        description="By input field: the values the acting unit offers (its weapons...), greyed ones "
        "with the reason."
    )


def game_picks(args: PicksArgs) -> Picks:
    """What the acting unit offers for an action's pick fields (ActionSpec.picks)."""
    return Picks(fields=games.picks(args.game, args.action, args.actor))


class GatesArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Game
    action: str
    input: dict[str, Any] = Field(
        default_factory=dict,
        description="The action's input as far as it is known: its acting unit, its target.",
    )


def game_gates(args: GatesArgs) -> Gates:
    """What the units named in the input lack for the action's gated inputs (an ability, a weapon,
    a condition), with the reasons: the sheet greys those, and game.act refuses them."""
    return games.gates(args.game, args.action, args.input)


def game_act(args: ActArgs) -> ActResult:
    """Resolve an action with the app's dice or typed faces, and log it."""
    source: DiceSource = RandomDice(args.seed) if args.faces is None else TypedDice(args.faces)
    try:
        game = games.act(args.game, args.action, args.input, source)
    except NeedMoreDice as need:
        return ActResult(complete=False, need=Need(count=need.needed, sides=need.sides, purpose=need.purpose))
    except NeedChoice as pick:
        ask = Ask(field=pick.field, prompt=pick.prompt, options=pick.options, many=pick.many)
        return ActResult(complete=False, ask=ask)
    if isinstance(source, TypedDice) and source.left:
        raise RequestError(
            f"{source.used + source.left} faces were entered but this roll uses {source.used}: "
            f"remove {source.left}",
            "faces",
        )
    return ActResult(complete=True, game=game, event=game.log[game.cursor - 1])


class AdjustArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: Game
    changes: list[Change] = Field(min_length=1, max_length=50)
    text: str = Field(default="", max_length=200)


def game_adjust(args: AdjustArgs) -> Game:
    """A manual change of any tracked value, logged like any other step."""
    return games.adjust(args.game, args.changes, args.text)


class Views(BaseModel):
    views: dict[str, UnitView] = Field(description="By unit reference 'side/key'.")
    status: list[CardLine] = Field(default_factory=list, description="The game as a whole (mission...).")
    phase: PhaseView | None = Field(default=None, description="Where the game is in its turn.")
    gated: dict[str, dict[str, str]] = Field(
        default_factory=dict,
        description="By unit reference: the actions it cannot take for lack of what they need, with why.",
    )


class ViewsArgs(GameArgs):
    viewer: int | None = Field(
        default=None, ge=0, description="Who is looking: a side, or none for the shared table phone."
    )


def game_views(args: ViewsArgs) -> Views:
    """What each unit holds beyond its tracked values (hands, piles), as the viewer may see it.

    On the shared phone (no viewer) private parts are marked, for their owner to open; a side
    sees its own and never another side's.
    """
    system = _system(args.game.system)
    views = {
        f"{s}/{args.game.sides[s].units[u].key}": view
        for (s, u), view in system.unit_views(args.game, args.viewer).items()
    }
    return Views(
        views=views,
        status=_status(system.status(args.game), args.game),
        phase=system.phase(args.game),
        gated=games.gated_actions(args.game),
    )


def _status(own: list[CardLine], game: Game) -> list[CardLine]:
    """The system's own lines, then the shared state's where the system has no line of that label
    (a system that names its mission or tells how the game ended says it better)."""
    labels = {line.label for line in own}
    # Nor a line whose value the system's lines already say (its game type, shown as "Mission").
    said = {line.value.casefold() for line in own}
    return [
        *own,
        *(
            line
            for line in _state_lines(game)
            if line.label not in labels and line.value.casefold() not in said
        ),
    ]


def _state_lines(game: Game) -> list[CardLine]:
    """The shared game-wide state (core.game.GameState), where it says anything."""
    st, names = game.state, [side.name for side in game.sides]
    lines = [
        CardLine(label=k.capitalize(), value=v.replace("_", " ").capitalize())  # words, not ids
        for k, v in (("mission", st.mission), ("environment", st.environment))
        if v
    ]
    lines += [
        CardLine(label=key.replace("_", " ").capitalize(), value=str(n)) for key, n in st.clocks.items()
    ]
    if st.active_side is not None and st.active_side < len(names) and not st.ended:
        lines.append(CardLine(label="Turn of", value=names[st.active_side]))
    if st.ended:
        won = ", ".join(names[i] for i in st.winners if i < len(names))
        lines.append(CardLine(label="Game over", value=f"won by {won}" if won else "a draw"))
    return lines


def game_undo(args: GameArgs) -> Game:
    return games.step_back(args.game)


def game_redo(args: GameArgs) -> Game:
    return games.step_forward(args.game)


def game_round(args: GameArgs) -> Game:
    """Advance to the next round, with the system's start-of-round effects."""
    return games.next_round(args.game)


class StoreArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    data: Any


def store_load(args: StoreArgs) -> storage.Loaded:
    """Bring saved data up to the current format; unreadable items are set aside, never dropped."""
    return storage.load(args.data)


class StoreCheckArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    records: list[storage.Record]


def store_check(args: StoreCheckArgs) -> storage.Checked:
    """Saved records read back: each validated and migrated; unreadable ones set aside."""
    return storage.check(args.records)


# --- a system's own tools ---------------------------------------------------------------


class ToolArgs(BaseModel):
    """One of a system's own operations (RuleSystem.tools), e.g. a step of its unit editor."""

    model_config = ConfigDict(extra="forbid")

    system: str
    tool: str = Field(description="The tool's name, as system.describe lists it.")
    args: dict[str, Any] = Field(default_factory=dict, description="The tool's input (see its schema).")


class ToolAnswer(BaseModel):
    """A tool's result, shaped by its own result model (schemas()['system.tool']['tools'])."""

    model_config = ConfigDict(extra="allow")


def system_tool(args: ToolArgs) -> ToolAnswer:
    """Run a system's tool on its validated input; problems name fields of that input."""
    system = _system(args.system)
    spec = system.tools.get(args.tool)
    if spec is None:
        raise RequestError(f"{system.info.name} has no tool {args.tool!r}", "tool")
    try:
        result = spec.run(spec.input.model_validate(args.args))
    except ToolError as bad:
        raise RequestError(str(bad), bad.field) from bad
    return ToolAnswer.model_validate(result.model_dump(mode="json"))


@dataclass(frozen=True)
class Operation:
    """An entry of the API: its input model, its function and its output model."""

    args: type[BaseModel]
    run: Callable[[Any], BaseModel]
    result: type[BaseModel]
    summary: str


OPERATIONS: dict[str, Operation] = {
    "meta": Operation(MetaArgs, meta, MetaResult, "What the engine is and can do."),
    "dice.odds": Operation(ContestArgs, odds, OddsResult, "Exact odds of a dice contest."),
    "dice.roll": Operation(RollArgs, roll, RollResult, "Roll a dice contest."),
    "system.describe": Operation(SystemArgs, describe, SystemDescription, "A system's formats and actions."),
    "unit.check": Operation(UnitArgs, check_unit, UnitCheck, "Cost and violations of one unit."),
    "squad.check": Operation(SquadArgs, check_squad, SquadReport, "Points and violations of a squad."),
    "share.encode": Operation(ShareArgs, share_encode, Token, "A share token for a squad or game."),
    "share.decode": Operation(DecodeArgs, share_decode, share.Shared, "Open a share token."),
    "remote.request": Operation(
        RemoteRequestArgs, remote_request, RemoteRequest, "A side's secret choices as a link."
    ),
    "remote.answer": Operation(RemoteAnswerArgs, remote_answer, Token, "Picks made here, as a link back."),
    "remote.apply": Operation(RemoteApplyArgs, remote_apply, Game, "Apply choices made on another phone."),
    "share.qr": Operation(QrArgs, qr, Qr, "A QR code as SVG."),
    "game.new": Operation(NewGameArgs, game_new, Game, "Start a game from squads."),
    "game.odds": Operation(OddsArgs, game_odds, ActionOdds, "Exact odds of an action."),
    "game.act": Operation(ActArgs, game_act, ActResult, "Resolve and log an action."),
    "game.picks": Operation(PicksArgs, game_picks, Picks, "The acting unit's own choices for an action."),
    "game.gates": Operation(
        GatesArgs, game_gates, Gates, "What the units named lack for an action's inputs."
    ),
    "game.adjust": Operation(AdjustArgs, game_adjust, Game, "Change tracked values by hand."),
    "game.views": Operation(ViewsArgs, game_views, Views, "What each unit holds (hands, piles)."),
    "game.undo": Operation(GameArgs, game_undo, Game, "Undo the last step."),
    "game.redo": Operation(GameArgs, game_redo, Game, "Redo the next undone step."),
    "game.round": Operation(GameArgs, game_round, Game, "Start the next round."),
    "store.load": Operation(StoreArgs, store_load, storage.Loaded, "Migrate saved data forward."),
    "store.check": Operation(StoreCheckArgs, store_check, storage.Checked, "Check saved records."),
    "system.tool": Operation(ToolArgs, system_tool, ToolAnswer, "Run one of a system's own tools."),
}
OPERATIONS.update({name: Operation(*entry) for name, entry in campaign_api.ENTRIES.items()})


# --- the seam -------------------------------------------------------------------------


#: Limits on a request string, checked before it is parsed (core.limits): the saved store
#: (the largest request, sent once at start) fits well within them.
REQUEST_LIMITS = limits.Limits()
#: At most this many problems are listed in an error (the first ones), each message short.
MAX_PROBLEMS = 5
_OP_NAME = re.compile(r"[a-z][a-z.]{0,39}")


def _problems(error: ValidationError) -> list[Problem]:
    out = []
    for item in error.errors(include_url=False, include_input=False, include_context=False)[:MAX_PROBLEMS]:
        where = ".".join(str(p) for p in item["loc"])
        message = str(item["msg"]).removeprefix("Value error, ")
        out.append(Problem(field=limits.short(where, 80), message=limits.short(message)))
    return out


def _error(code: str, message: str, problems: list[Problem] | None = None) -> dict[str, Any]:
    """An error reply of bounded length: a short message and at most MAX_PROBLEMS problems."""
    err = ApiError.model_validate(
        {"code": code, "message": limits.short(message), "problems": (problems or [])[:MAX_PROBLEMS]}
    )
    return {"ok": False, "error": err.model_dump()}


def call(op: str, args: Any) -> dict[str, Any]:
    """Run one operation on already-parsed JSON; the reply as a JSON-ready dict (never raises)."""
    operation = OPERATIONS.get(op) if isinstance(op, str) else None
    if operation is None:
        named = f" {op!r}" if isinstance(op, str) and _OP_NAME.fullmatch(op) else ""
        return _error("unknown_op", f"unknown operation{named}")
    started = time.perf_counter()
    try:
        parsed = operation.args.model_validate(args if args is not None else {})
        # A pure request changes no game: each unit's profile is read as a model once in it.
        with games.profiles_read_once() if op in answered.REPEATABLE else contextlib.nullcontext():
            result = operation.run(parsed).model_dump(mode="json")
    except ValidationError as invalid:
        problems = _problems(invalid)
        return _error("invalid", problems[0].message if problems else "invalid request", problems)
    except RequestError as bad:
        message = limits.short(str(bad))
        return _error("invalid", message, [Problem(field=limits.short(bad.field, 80), message=message)])
    except RecursionError:
        return _error("invalid", "the request nests too deeply")
    except ValueError as bad:  # a rule refusing the request (e.g. no card left to resolve)
        return _error("invalid", str(bad))
    except Exception as crash:  # the seam never lets a traceback reach the page
        return _error(
            "internal", f"the engine failed: {type(crash).__name__}: {limits.short(str(crash), 100)}"
        )
    ms = (time.perf_counter() - started) * 1000
    return {"ok": True, "result": result, "ms": round(ms, 3)}


def _reply(reply: dict[str, Any]) -> str:
    # allow_nan=False: NaN or Infinity would make the reply something the browser cannot parse
    try:
        return json.dumps(reply, allow_nan=False)
    except (ValueError, TypeError, RecursionError):
        return json.dumps(_error("internal", "the engine made a reply that is not JSON"))


def handle(request: str) -> str:
    """The browser's entry point: a JSON request string in, a JSON reply string out (never raises).

    The request is measured before it is parsed (core.limits), so no input can exhaust
    the stack or the memory of the engine: too deep, too long or too many values is an
    error naming the limit, never echoing the input.

    A repeatable request (:data:`core.answered.REPEATABLE`) answered before is answered from memory: the same
    reply, but for its ``ms``.
    """
    try:
        if not isinstance(request, str):
            return _reply(_error("bad_request", "a request is a JSON string"))
        again = answered.again(request)
        if again is not None:
            return again
        try:
            data = limits.loads(request, REQUEST_LIMITS)
        except limits.TooBig as big:
            return _reply(_error("bad_request", f"the request is too large: {big}"))
        except (ValueError, RecursionError):
            return _reply(_error("bad_request", "the request is not JSON"))
        if not isinstance(data, dict) or "op" not in data:
            return _reply(_error("bad_request", "a request is an object with an 'op'"))
        answer = call(data["op"], data.get("args"))
        reply = _reply(answer)
        if answer["ok"] and data["op"] in answered.REPEATABLE:
            answered.remember(request, reply)
        return reply
    except Exception as crash:  # MemoryError and anything else: still an answer
        return json.dumps(_error("internal", f"the engine failed: {type(crash).__name__}"))


def schemas() -> dict[str, dict[str, Any]]:
    """JSON Schemas of every operation's input and output (the build writes them out).

    ``system.tool`` also lists, under ``tools``, each playable system's tools by system and name.
    """
    out: dict[str, dict[str, Any]] = {
        name: {
            "summary": op.summary,
            "args": op.args.model_json_schema(),
            "result": op.result.model_json_schema(),
        }
        for name, op in OPERATIONS.items()
    }
    out["system.tool"]["tools"] = {
        s.id: {
            name: {
                "summary": t.doc,
                "args": t.input.model_json_schema(),
                "result": t.result.model_json_schema(),
            }
            for name, t in implementation(s.id).tools.items()
        }
        for s in SYSTEMS
        if s.status == "playable"
    }
    return out
