"""The campaign operations of the seam (``campaign.*`` in :data:`core.api.OPERATIONS`); no system named.

Each is an input model, a function and an output model, as every operation of :mod:`core.api`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from core import campaign as campaigns
from core import share
from core.campaign import BattleResult, Campaign, CampaignView, SetupDraft, SetupForm
from core.dice import DiceSource, NeedMoreDice, RandomDice, TypedDice
from core.game import Event, Game
from core.squad import Squad
from core.systems import implementation
from core.systems.base import ActionOdds, Change

MAX_FACES = 200
MAX_SQUADS = 40


class Need(BaseModel):
    """More physical dice are wanted before the step can be resolved."""

    count: int
    sides: int
    purpose: str


class CampaignSystemArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    system: str = Field(max_length=40)


class StepInfo(BaseModel):
    name: str
    label: str
    help: str
    rolls: bool
    has_odds: bool
    input_schema: dict[str, Any]


class CampaignDescription(BaseModel):
    """What the set-up and campaign screens need of a system's campaign."""

    system: str
    setup_schema: dict[str, Any]
    battle_schema: dict[str, Any]
    options_schema: dict[str, Any] | None
    steps: list[StepInfo]
    data: dict[str, Any] = Field(description="The system's own set-up data (eras, maps, units...).")


def describe(args: CampaignSystemArgs) -> CampaignDescription:
    rules = campaigns.rules_of(args.system)
    return CampaignDescription(
        system=args.system,
        setup_schema=rules.setup_model.model_json_schema(),
        battle_schema=rules.battle_model.model_json_schema(),
        options_schema=rules.options_model.model_json_schema() if rules.options_model else None,
        steps=[
            StepInfo(
                name=a.name,
                label=a.label,
                help=a.help,
                rolls=a.rolls,
                has_odds=a.odds is not None,
                input_schema=a.input.model_json_schema(),
            )
            for a in rules.actions.values()
        ],
        data=rules.setup_data(),
    )


class NewArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=40)
    system: str = Field(max_length=40)
    name: str = Field(default="Campaign", min_length=1, max_length=80)
    setup: dict[str, Any] | None = Field(default=None, description="The system's set-up, or a draft:")
    draft: SetupDraft | None = Field(default=None, description="The set-up screen's draft.")
    squads: list[Squad] = Field(default_factory=list, max_length=MAX_SQUADS, description="Squads it names.")
    seed: int | None = None
    faces: list[int] | None = Field(default=None, max_length=MAX_FACES)


def _dice(seed: int | None, faces: list[int] | None) -> DiceSource:
    return RandomDice(seed) if faces is None else TypedDice(faces)


class StepResult(BaseModel):
    complete: bool
    campaign: Campaign | None = None
    event: Event | None = None
    need: Need | None = None


def _finish(run: Any, source: DiceSource) -> StepResult:
    try:
        campaign: Campaign = run(source)
    except NeedMoreDice as need:
        return StepResult(
            complete=False, need=Need(count=need.needed, sides=need.sides, purpose=need.purpose)
        )
    if isinstance(source, TypedDice) and source.left:
        raise ValueError(f"{source.used + source.left} faces were entered but this step uses {source.used}")
    return StepResult(complete=True, campaign=campaign, event=campaign.log[campaign.cursor - 1])


def new(args: NewArgs) -> StepResult:
    """A campaign from its set-up or the set-up screen's draft (the priority roll is the app's unless
    given)."""
    if args.draft is not None:
        rules = campaigns.rules_of(args.system)
        setup = rules.setup_from(args.draft, args.squads).model_dump(mode="json")
    elif args.setup is not None:
        setup = args.setup
    else:
        raise ValueError("a campaign needs its set-up")
    return _finish(
        lambda d: campaigns.new_campaign(args.id, args.system, args.name, setup, d),
        _dice(args.seed, args.faces),
    )


class FormArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    system: str = Field(max_length=40)
    draft: SetupDraft = Field(default_factory=SetupDraft)
    squads: list[Squad] = Field(default_factory=list, max_length=MAX_SQUADS)


def setup_form(args: FormArgs) -> SetupForm:
    """The set-up screen for a draft: every value filled in, the players' squads offered."""
    return campaigns.rules_of(args.system).setup_form(args.draft, args.squads)


class ActArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    campaign: Campaign
    action: str = Field(max_length=40)
    input: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = None
    faces: list[int] | None = Field(default=None, max_length=MAX_FACES)


def act(args: ActArgs) -> StepResult:
    """A step of the campaign turn, with the app's dice or typed faces."""
    return _finish(
        lambda d: campaigns.act(args.campaign, args.action, args.input, d), _dice(args.seed, args.faces)
    )


class OddsArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    campaign: Campaign
    action: str = Field(max_length=40)
    input: dict[str, Any] = Field(default_factory=dict)


def odds(args: OddsArgs) -> ActionOdds:
    return campaigns.odds(args.campaign, args.action, args.input)


class CampaignArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    campaign: Campaign


def undo(args: CampaignArgs) -> Campaign:
    return campaigns.undo(args.campaign)


def redo(args: CampaignArgs) -> Campaign:
    return campaigns.redo(args.campaign)


def view(args: CampaignArgs) -> CampaignView:
    return campaigns.rules_of(args.campaign.system).view(args.campaign)


class AdjustArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    campaign: Campaign
    changes: list[Change] = Field(min_length=1, max_length=50)
    text: str = Field(default="", max_length=200)


def adjust(args: AdjustArgs) -> Campaign:
    return campaigns.adjust(args.campaign, args.changes, args.text)


class BattleArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    campaign: Campaign
    input: dict[str, Any]
    game_id: str = Field(min_length=1, max_length=40)


class BattleStarted(BaseModel):
    campaign: Campaign
    game: Game


def battle(args: BattleArgs) -> BattleStarted:
    """A Battle: the campaign records it and the game that plays it starts."""
    campaign, game = campaigns.start_battle(args.campaign, args.input, args.game_id)
    return BattleStarted(campaign=campaign, game=game)


class ResultArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    campaign: Campaign
    game: Game


def result(args: ResultArgs) -> Campaign:
    """The finished game of the pending battle, taken back into the campaign."""
    return campaigns.battle_result(args.campaign, args.game)


class CampaignToken(BaseModel):
    token: str
    length: int


def share_campaign(args: CampaignArgs) -> CampaignToken:
    """The whole campaign as a link."""
    token = share.encode_campaign(args.campaign)
    return CampaignToken(token=token, length=len(token))


def share_result(args: ResultArgs) -> CampaignToken:
    """One battle's result as a link, for the same campaign at the same point on another phone."""
    token = share.encode_result(campaigns.result_of(args.campaign, args.game))
    return CampaignToken(token=token, length=len(token))


class ApplyArgs(BaseModel):
    model_config = ConfigDict(extra="forbid")

    campaign: Campaign
    result: BattleResult


def apply_result(args: ApplyArgs) -> Campaign:
    """A battle result received by link: refused with a message unless this campaign waits for it."""
    return campaigns.apply_result(args.campaign, args.result)


def has_campaign(system: str) -> bool:
    return implementation(system).campaign is not None


#: name: (input model, function, result model, summary), registered in core.api.OPERATIONS.
ENTRIES: dict[str, tuple[type[BaseModel], Any, type[BaseModel], str]] = {
    "campaign.describe": (
        CampaignSystemArgs,
        describe,
        CampaignDescription,
        "A system's campaign: set-up, steps.",
    ),
    "campaign.new": (NewArgs, new, StepResult, "Start a campaign from its set-up."),
    "campaign.setup_form": (FormArgs, setup_form, SetupForm, "The set-up screen for a draft."),
    "campaign.act": (ActArgs, act, StepResult, "Take a step of the campaign turn."),
    "campaign.odds": (OddsArgs, odds, ActionOdds, "Exact odds of a campaign step."),
    "campaign.view": (CampaignArgs, view, CampaignView, "What the campaign screen shows."),
    "campaign.adjust": (AdjustArgs, adjust, Campaign, "Change the campaign by hand."),
    "campaign.undo": (CampaignArgs, undo, Campaign, "Undo the last campaign step."),
    "campaign.redo": (CampaignArgs, redo, Campaign, "Redo the next undone campaign step."),
    "campaign.battle": (BattleArgs, battle, BattleStarted, "Start a battle: the campaign and its game."),
    "campaign.result": (ResultArgs, result, Campaign, "Take a finished battle's game back."),
    "campaign.share": (CampaignArgs, share_campaign, CampaignToken, "The whole campaign as a link."),
    "campaign.share_result": (ResultArgs, share_result, CampaignToken, "One battle's result as a link."),
    "campaign.apply_result": (ApplyArgs, apply_result, Campaign, "Apply a battle result received by link."),
}
