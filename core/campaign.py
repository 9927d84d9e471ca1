"""Campaigns: a long-lived record that starts games and takes their results back.

A campaign belongs to one rule system, which declares it has one (``RuleSystem.campaign``, a
:class:`CampaignRules`).  Its state is the system's own (``Campaign.state``, checked against the
system's ``state_model`` whenever a campaign is read), and every step is an :class:`core.game.Event`
of its log, recorded, undone and redone by the very functions games use (:func:`core.game.record`,
:func:`core.game.undo`, :func:`core.game.redo`).

A battle is the seam with games: :func:`start_battle` records which teams fight (a
:class:`PendingBattle`, with a fresh id) and returns a new :class:`core.game.Game` built by the system
from them; :func:`battle_result` takes the finished game back, only while that very battle is pending
in the campaign (a result of a battle undone, already applied or of another campaign is refused).
"""

from __future__ import annotations

import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from core import game as games
from core.changes import dict_changes
from core.dice import DiceSource
from core.game import Event, Game
from core.squad import Name, Squad
from core.systems import implementation
from core.systems.base import ActionOdds, ActionSpec, CardLine, Change

#: Version of the saved campaign format.
CAMPAIGN_SCHEMA = 1
MAX_LOG = 5000


class PendingBattle(BaseModel):
    """A battle the campaign started and waits for: the game that plays it and who takes part."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(max_length=80, description="This battle's own id: a result names it.")
    game_id: str = Field(max_length=80, description="The game that plays it.")
    plan: dict[str, Any] = Field(default_factory=dict, description="The system's record of who fights.")


class Campaign(BaseModel):
    """A whole campaign: what is saved, shared and passed to every engine call."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = CAMPAIGN_SCHEMA
    id: str = Field(min_length=1, max_length=40)
    system: str
    name: Name = Field(default="Campaign", max_length=80)
    state: dict[str, Any] = Field(description="The system's campaign state, typed by its state_model.")
    options: dict[str, Any] = Field(default_factory=dict, max_length=64, description="Readings, by key.")
    battle: PendingBattle | None = Field(default=None, description="The battle being played, if any.")
    battles: int = Field(default=0, ge=0, description="Battles started so far (numbers their ids).")
    log: list[Event] = Field(default_factory=list, max_length=MAX_LOG)
    cursor: int = Field(default=0, description="Events applied; later ones can be redone.")

    @model_validator(mode="after")
    def _consistent(self) -> Campaign:
        if not 0 <= self.cursor <= len(self.log):
            raise ValueError(f"the log has {len(self.log)} steps, so its cursor cannot be {self.cursor}")
        rules = rules_of(self.system)
        try:
            rules.state_model.model_validate(self.state)
            if rules.options_model is not None:
                rules.options_model.model_validate(self.options)
        except ValidationError as bad:
            first = bad.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise ValueError(f"campaign state {where}: {first['msg']}") from None
        return self


@dataclass(frozen=True)
class Step:
    """What a campaign action did: the new state (the system's model), and how the log reads it."""

    state: BaseModel
    text: str
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class CampaignAction:
    """One step of a campaign turn a player can take, with its input model and exact odds if it rolls."""

    name: str
    label: str
    input: type[BaseModel]
    resolve: Callable[[Campaign, Any, DiceSource], Step]
    help: str = ""
    rolls: bool = True
    odds: Callable[[Campaign, Any], ActionOdds] | None = None

    @classmethod
    def of(
        cls,
        name: str,
        label: str,
        resolve: Callable[[Campaign, Any, DiceSource], Step],
        help: str,
        **more: Any,
    ) -> CampaignAction:
        """The step ``resolve`` carries out, its input model read from ``resolve``'s second parameter
        (as :meth:`core.systems.base.ActionSpec.of` does for game actions)."""
        spec = ActionSpec.of(name, label, resolve, help)  # type: ignore[arg-type]
        return cls(name=name, label=label, input=spec.input, resolve=resolve, help=help, **more)


@dataclass(frozen=True)
class BattlePlan:
    """A battle about to start: the armies as squads, and what the campaign keeps of it."""

    name: str
    sides: list[tuple[str, Squad]]
    plan: dict[str, Any]
    #: The game made from the squads, as the campaign leaves its units (damage carried over...).
    prepare: Callable[[Game], list[Change]]
    #: The campaign's state while the battle is played (e.g. an action spent).
    state: BaseModel
    text: str


class Mark(BaseModel):
    """Something shown on a map cell: a base or a team, in its side's colour, opening a sheet on a tap."""

    kind: Literal["base", "team"]
    key: str = Field(description="The team's key, or the base's name.")
    label: str = Field(description="Its name (a base's or team's), read out and shown on its sheet.")
    short: str = Field(default="", description="What the cell shows when the name is too long for it.")
    side: str = Field(default="", description="Whose it is ('' for nobody), a key of CampaignView.sides.")
    flag: str = Field(default="", description="A short note (a victory base, an exhausted team).")


class Cell(BaseModel):
    x: int
    y: int
    zone: str = Field(default="", description="Whose starting territory (a side key), '' for none.")
    closed: bool = Field(default=False, description="No team may enter (a neutral zone).")
    terrain: str = Field(
        default="", max_length=40, description="The tile's terrain or place, as the players named it."
    )
    marks: list[Mark] = Field(default_factory=list)


class SideView(BaseModel):
    key: str
    name: str
    colour: str = Field(description="A colour name the page maps to its palette.")
    lines: list[CardLine] = Field(default_factory=list)


class SheetView(BaseModel):
    """A team's or base's sheet: a title and lines of plain words."""

    key: str
    title: str
    side: str = ""
    lines: list[CardLine] = Field(default_factory=list)


class Option(BaseModel):
    value: str
    label: str
    note: str = ""


class Choice(BaseModel):
    """Something the players choose before a step is sent (a battle's game type, who joins it) or in
    the set-up form (the map); its value goes into the step's input under ``field``."""

    field: str
    label: str
    options: list[Option] = Field(description="What may be chosen; none: the players write it (a name).")
    multiple: bool = Field(default=False, description="Several options may be chosen (a list is sent).")
    value: str | list[str] = Field(default="", description="What is chosen unless the players change it.")


class StepView(BaseModel):
    """A step of the campaign turn the page offers as a button, greyed with the reason when not now."""

    action: str
    label: str
    enabled: bool
    reason: str = ""
    team: str = Field(default="", description="The team or base (a mark's key) it is for, if any.")
    input: dict[str, Any] = Field(default_factory=dict, description="The input it sends as it is.")
    choices: list[Choice] = Field(default_factory=list, description="Asked before it is sent.")
    note: str = Field(default="", description="A short line under it: e.g. the exact odds of its roll.")
    minor: bool = Field(default=False, description="A correction by hand or a note: drawn plainly.")
    pick: Literal["", "tile"] = Field(
        default="", description="'tile': the players tap a tile of the map; its x and y join the input."
    )


class CampaignView(BaseModel):
    """What a campaign's screen shows, from the system: the map, the sides, the sheets, the steps."""

    title: str
    note: str = Field(default="", description="E.g. that the map's layout is the app's own.")
    width: int
    height: int
    cells: list[Cell]
    sides: list[SideView]
    sheets: list[SheetView]
    status: list[CardLine]
    steps: list[StepView]
    log: list[str]


class SetupTeam(BaseModel):
    """One team of the set-up form: its name, where it starts and what it fields (options' values)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60)
    place: str = Field(max_length=80)
    units: str = Field(max_length=80)


class SetupDraft(BaseModel):
    """The set-up form as the players left it: the choices' values and each side's teams."""

    model_config = ConfigDict(extra="forbid")

    choices: dict[str, str] = Field(default_factory=dict, max_length=16)
    teams: dict[str, list[SetupTeam]] = Field(default_factory=dict, max_length=8)


class SetupSide(BaseModel):
    key: str
    name: str
    colour: str
    places: list[Option] = Field(description="Where a team may start.")
    units: list[Option] = Field(description="What a team may field: ready-made or the players' squads.")
    teams: list[SetupTeam]


class SetupForm(BaseModel):
    """The set-up screen, as the system describes it for a draft: choices, sides, teams, problems."""

    choices: list[Choice]
    sides: list[SetupSide]
    note: str = ""
    problems: list[str] = Field(default_factory=list, description="What stops the start, in words.")
    draft: SetupDraft = Field(description="The draft with every value filled in.")


class CampaignRules(ABC):
    """What a rule system supplies to have a campaign."""

    state_model: type[BaseModel]
    setup_model: type[BaseModel]
    battle_model: type[BaseModel]
    options_model: type[BaseModel] | None = None
    actions: dict[str, CampaignAction]

    @abstractmethod
    def start(self, setup: Any, dice: DiceSource) -> Step:
        """The campaign's first state from the players' set-up."""

    @abstractmethod
    def battle(self, campaign: Campaign, args: Any) -> BattlePlan:
        """The armies of a battle the campaign starts (refused with ValueError when it cannot)."""

    @abstractmethod
    def result(self, campaign: Campaign, plan: dict[str, Any], game: Game) -> Step:
        """The campaign after the battle ``game`` (finished) played the battle of ``plan``."""

    @abstractmethod
    def view(self, campaign: Campaign) -> CampaignView:
        """What the campaign's screen shows."""

    def setup_form(self, draft: SetupDraft, squads: list[Squad]) -> SetupForm:
        """The set-up screen for ``draft`` (defaults filled in), offering the players' ``squads``."""
        raise ValueError("this campaign has no set-up screen: start it from a ready-made set-up")

    def setup_from(self, draft: SetupDraft, squads: list[Squad]) -> BaseModel:
        """The set-up (``setup_model``) the players' draft describes; refused in words if it cannot."""
        raise ValueError("this campaign has no set-up screen: start it from a ready-made set-up")

    def setup_data(self) -> dict[str, Any]:
        """What the set-up screen offers (eras, maps, ready-made units), as the system describes it."""
        return {}


def rules_of(system: str) -> CampaignRules:
    """The campaign rules of ``system``; a system with none is refused in words."""
    impl = implementation(system)
    rules = impl.campaign
    if rules is None:
        raise ValueError(f"{impl.info.name} has no campaign")
    return rules


def _changes(campaign: Campaign, state: BaseModel, **fields: Any) -> list[Change]:
    old = campaign.state
    new = state.model_dump(mode="json")
    out = dict_changes(["state"], old, new)
    for name, value in fields.items():
        if getattr(campaign, name) != value:
            out.append(Change(path=[name], value=value))
    return out


def new_campaign(
    campaign_id: str, system: str, name: str, setup: dict[str, Any], dice: DiceSource
) -> Campaign:
    """A campaign from the players' set-up (factions, map, teams), its first step logged."""
    rules = rules_of(system)
    step = rules.start(rules.setup_model.model_validate(setup), dice)
    options = rules.options_model().model_dump(mode="json") if rules.options_model else {}
    campaign = Campaign(
        id=campaign_id, system=system, name=name, state=step.state.model_dump(mode="json"), options=options
    )
    return games.record(campaign, "start", step.text, [], step.detail)


def _action(campaign: Campaign, action: str, raw: dict[str, Any]) -> tuple[CampaignAction, BaseModel]:
    spec = rules_of(campaign.system).actions.get(action)
    if spec is None:
        raise ValueError(f"this campaign has no step {action!r}")
    return spec, spec.input.model_validate(raw)


def act(campaign: Campaign, action: str, raw: dict[str, Any], dice: DiceSource) -> Campaign:
    """A step of the campaign turn, resolved with ``dice`` and logged as one event."""
    if campaign.battle is not None:
        raise ValueError("a battle is being played: apply its result first (or undo the battle)")
    spec, parsed = _action(campaign, action, raw)
    step = spec.resolve(campaign, parsed, dice)
    detail = {**step.detail, "action": action, "input": parsed.model_dump(mode="json")}
    return games.record(campaign, "action", step.text, _changes(campaign, step.state), detail)


def odds(campaign: Campaign, action: str, raw: dict[str, Any]) -> ActionOdds:
    """Exact odds of a campaign step that rolls dice."""
    spec, parsed = _action(campaign, action, raw)
    if spec.odds is None:
        raise ValueError(f"{spec.label} rolls no dice")
    return spec.odds(campaign, parsed)


def adjust(campaign: Campaign, changes: list[Change], text: str = "") -> Campaign:
    """A manual change of the campaign's state or of a reading, logged (players settle what the app
    cannot know); the result is checked against the system's models like any campaign."""
    for change in changes:
        if not change.path or change.path[0] not in {"state", "options"}:
            raise ValueError("only the campaign's state and readings can be adjusted")
    label = text or "Manual change: " + ", ".join(".".join(str(p) for p in c.path) for c in changes)
    return games.record(campaign, "adjust", label, changes)


def undo(campaign: Campaign) -> Campaign:
    """Take back the last step, never the campaign's start."""
    if campaign.cursor <= 1:
        raise ValueError("nothing to undo: the campaign is back at its start")
    return games.undo(campaign)


def redo(campaign: Campaign) -> Campaign:
    return games.redo(campaign)


def start_battle(campaign: Campaign, raw: dict[str, Any], game_id: str) -> tuple[Campaign, Game]:
    """Record the start of a battle and make the game that plays it."""
    if campaign.battle is not None:
        raise ValueError("a battle is already being played: apply its result first (or undo it)")
    rules = rules_of(campaign.system)
    plan = rules.battle(campaign, rules.battle_model.model_validate(raw))
    game = games.new_game(game_id, plan.name, plan.sides)
    prepared = plan.prepare(game)
    if prepared:
        game = games.record(game, "adjust", "Carried over from the campaign", prepared)
    number = campaign.battles + 1
    # The id names this campaign, this battle and where the log stood: a result of another is refused.
    seed = f"{campaign.id}/{number}/{campaign.cursor}/{game_id}"
    pending = PendingBattle(
        id=f"{number}-" + hashlib.sha256(seed.encode()).hexdigest()[:12], game_id=game_id, plan=plan.plan
    )
    changes = _changes(campaign, plan.state, battle=pending.model_dump(mode="json"), battles=number)
    detail = {"battle": pending.id, "game": game_id}
    return games.record(campaign, "action", plan.text, changes, detail), game


def battle_result(campaign: Campaign, game: Game) -> Campaign:
    """The finished ``game`` of the pending battle, flowed back into the campaign as one step."""
    pending = campaign.battle
    if pending is None:
        raise ValueError(
            "this campaign is not waiting for a battle: this result was applied already or undone"
        )
    if game.id != pending.game_id:
        raise ValueError("this result is of another battle than the one this campaign is waiting for")
    if game.system != campaign.system:
        raise ValueError("this result is of another rule system")
    if not game.state.ended:
        raise ValueError("this battle is not over yet: finish it (or end it by hand) first")
    step = rules_of(campaign.system).result(campaign, pending.plan, game)
    changes = _changes(campaign, step.state, battle=None)
    detail = {**step.detail, "battle": pending.id, "game": game.id}
    return games.record(campaign, "action", step.text, changes, detail)


class BattleResult(BaseModel):
    """One battle's result as it travels to another phone: which campaign and battle, and its game."""

    model_config = ConfigDict(extra="forbid")

    campaign_id: str = Field(max_length=40)
    battle_id: str = Field(max_length=80)
    game: Game


def result_of(campaign: Campaign, game: Game) -> BattleResult:
    """The result of the pending battle, to send: only a finished game of that very battle."""
    pending = campaign.battle
    if pending is None or game.id != pending.game_id:
        raise ValueError("this game is not the battle this campaign is waiting for")
    if not game.state.ended:
        raise ValueError("this battle is not over yet: finish it (or end it by hand) first")
    return BattleResult(campaign_id=campaign.id, battle_id=pending.id, game=game)


def apply_result(campaign: Campaign, result: BattleResult) -> Campaign:
    """A result received from another phone, applied only to the same campaign at the same point."""
    if result.campaign_id != campaign.id:
        raise ValueError("this battle result is for another campaign")
    if campaign.battle is None or campaign.battle.id != result.battle_id:
        raise ValueError(
            "this campaign is not waiting for this battle: its result was applied already, the battle "
            "was undone, or this copy of the campaign is at another point"
        )
    return battle_result(campaign, result.game)


def read(data: Any) -> Campaign:
    """A saved or shared campaign, checked (its state against its system's model)."""
    return Campaign.model_validate(data)


__all__ = [
    "BattlePlan",
    "BattleResult",
    "Campaign",
    "CampaignAction",
    "CampaignRules",
    "Choice",
    "Option",
    "PendingBattle",
    "SetupDraft",
    "SetupForm",
    "SetupSide",
    "SetupTeam",
    "Step",
    "act",
    "adjust",
    "apply_result",
    "battle_result",
    "new_campaign",
    "odds",
    "read",
    "redo",
    "result_of",
    "start_battle",
    "undo",
]
