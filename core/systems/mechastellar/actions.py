"""The actions that roll nothing: Focus (L117-L130), Full Throttle (L76-L80), Disengage (L255-L258),
and the actions list the system declares."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource, Dist
from core.game import Game
from core.pool import table
from core.systems.base import (
    ActionOdds,
    ActionResult,
    ActionSpec,
    Choice,
    Closed,
    NeedChoice,
    needs,
    own_unit,
)
from core.systems.mechastellar.commands import command
from core.systems.mechastellar.events import event
from core.systems.mechastellar.fleet import (
    board,
    captain_focus,
    captain_influence,
    launch,
    order,
    ready_picks,
    ready_weapons,
    reload,
    reload_picks,
    steadfast,
    target_lock,
    volley,
)
from core.systems.mechastellar.impacts import (
    MOBILITY_FIELD,
    crash_odds,
    crash_through,
    fall,
    fall_odds,
    get_up,
    get_up_odds,
    knockback,
    mobility_refusal,
    rally_ally,
    rally_ally_odds,
    reverse,
    ship_crash,
    ship_crash_odds,
    trample,
    trample_odds,
)
from core.systems.mechastellar.melee import clash_picks
from core.systems.mechastellar.modules import (
    battle_damage,
    battle_damage_odds,
    terrain_hit,
    terrain_odds,
    terrain_picks,
)
from core.systems.mechastellar.reactions import (
    charge,
    command_picks,
    counterattack,
    counterattack_odds,
    last_picks,
    last_shooting,
    last_shooting_odds,
    overwatch,
    overwatch_command,
    overwatch_command_odds,
    overwatch_odds,
    overwatch_picks,
)
from core.systems.mechastellar.shooting import shoot, shoot_odds, shoot_picks
from core.systems.mechastellar.skills import (
    accelerate_cost,
    accelerate_refusal,
    all_out_cost,
    all_out_refusal,
    note_skill,
    skill_blocked,
    used_skills,
)
from core.systems.mechastellar.space import outmaneuver, outmaneuver_odds
from core.systems.mechastellar.splits import melee, melee_odds, secret_clash, split
from core.systems.mechastellar.state import MsUnitState, gain
from core.systems.mechastellar.traits import (
    expert_refusal,
    fearless_refusal,
    lone_wolf_refusal,
    note_choice,
    rally_refusal,
    spirit_refusal,
    untouchable_refusal,
)
from core.systems.mechastellar.turns import (
    add_focus,
    begin_turn,
    end_turn,
    power_item,
    roll_off,
    spend_action,
)
from core.systems.mechastellar.units import Unit, tier_rank


class Focus(Closed):
    """Focus: this turn its shooting weapons gain a shot, or a hit within 16" (PEN 0: two) (L123-L125);
    or a Skilled or Ace pilot's one weapon that may fire in engagement range, +1 PEN (L127-L128); or a
    Super Titan's +3 Power until its next turn (L129-L130).  One benefit a Focus (L122)."""

    unit: str = own_unit("Who focuses.")
    power: bool = Field(
        default=False,
        description="A Super Titan takes +3 Power until its next turn instead (L129-L130).",
        json_schema_extra={"flow": "common", **needs("super_titan")},
    )
    in_melee: bool = Field(
        default=False,
        description="A Skilled or Ace pilot readies one shooting weapon to fire in engagement range this "
        "turn, with +1 PEN, instead of the extra shot (L127-L128, L155).",
        json_schema_extra={"flow": "common", **needs("exceptional")},
    )
    weapon: int | None = Field(
        default=None,
        ge=0,
        le=11,
        description="The weapon that may fire in melee; asked.",
        json_schema_extra={"ui": "hidden"},
    )


def _melee_gun(game: Game, inp: Focus) -> tuple[int, str]:
    """The weapon a Skilled or Ace pilot's Focus lets fire in engagement range (L127-L128): asked when
    not given; a Basic pilot, a melee weapon or a second benefit refused."""
    _, _, g = game.unit(inp.unit)
    unit = Unit.model_validate(g.profile)
    if inp.power:
        raise ValueError("a Focus gives one benefit: +3 Power or a weapon for melee, not both (L122)")
    if not tier_rank(unit):
        raise ValueError(f"{g.name}'s pilot is not Skilled or Ace: only they fire in engagement range (L127)")
    guns = [(i, w.name) for i, w in enumerate(unit.weapons) if w.kind == "shooting"]
    if not guns:
        raise ValueError(f"{g.name} has no shooting weapon")
    if inp.weapon is None:
        raise NeedChoice(
            "weapon",
            f"Which of {g.name}'s weapons may fire in melee this turn, with +1 PEN?",
            [Choice(value=i, label=name) for i, name in guns],
        )
    name = dict(guns).get(inp.weapon)
    if name is None:
        raise ValueError(f"{g.name} has no shooting weapon of that number")
    return inp.weapon, name


def focus(game: Game, inp: Focus, dice: DiceSource) -> ActionResult:
    s, u, g = game.unit(inp.unit)
    if Unit.model_validate(g.profile).kind == "warship":
        raise ValueError(f"{g.name} is a Stellar Warship: it has its own actions, not Focus (L946)")
    if inp.power and Unit.model_validate(g.profile).kind != "super_titan":
        raise ValueError("only a Super Titan focuses for Power (L129)")
    if inp.power and MsUnitState.model_validate(g.state.extra).power_bonus:
        raise ValueError(f"{g.name} has its +3 Power: it cannot be doubled (L130)")
    gun = _melee_gun(game, inp) if inp.in_melee else None  # refused or asked before anything changes
    work = Working(game)
    begin_turn(game, work, inp.unit)
    spend_action(game, work, inp.unit, shooting=inp.power)  # All-Out Attack's actions may boost Power (L348)
    state = work.state(s, u)
    if inp.power:
        mine = MsUnitState.model_validate(state.extra)
        mine.power_bonus = 3
        state.extra = mine.model_dump(mode="json")
        return ActionResult(changes=work.changes(), text=f"{g.name} focuses: +3 Power until its next turn")
    if gun is not None:  # that weapon fires in melee this turn, +1 PEN (L127-L128, L155)
        mine = MsUnitState.model_validate(state.extra)
        mine.melee_gun = gun[0]
        state.extra = mine.model_dump(mode="json")
        return ActionResult(
            changes=work.changes(), text=f"{g.name} focuses: its {gun[1]} may fire in melee this turn, +1 PEN"
        )
    add_focus(work, s, u)  # a second Focus adds its bonus again (digest ambiguity 19)
    return ActionResult(changes=work.changes(), text=f'{g.name} focuses: +1 shot, or +1 hit within 16"')


class Spirit(Closed):
    """Fighting Spirit (L388-L390) or Heroic Spirit (L463-L465): as the unit activates, below half HP or with
    its side out of Momentum, +1 Momentum or a Focus (Heroic Spirit: +2 or two Focus)."""

    unit: str = own_unit("Whose pilot.")
    take: Literal["momentum", "focus"] = Field(
        default="momentum",
        description="Momentum for the side, or Focus for this turn (free: no action spent).",
        json_schema_extra={"flow": "choice", "x-labels": {"momentum": "Momentum", "focus": "Focus"}},
    )


def spirit(game: Game, inp: Spirit, dice: DiceSource) -> ActionResult:
    why = spirit_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g = game.unit(inp.unit)
    n = 2 if "heroic_spirit" in Unit.model_validate(g.profile).pilot.traits else 1  # L465 / L390
    work = Working(game)
    begin_turn(game, work, inp.unit)
    note_choice(work, s, u, "spirit")
    if inp.take == "momentum":
        gain(work, s, "momentum", n)
        text = f"{g.name}'s pilot fights on: +{n} Momentum"
    else:
        add_focus(work, s, u, n)
        text = f"{g.name}'s pilot fights on: {'two Focus' if n == 2 else 'Focus'} this turn, no action spent"
    return ActionResult(changes=work.changes(), text=text)


class LoneWolf(Closed):
    """Lone Wolf: as the unit activates, a Focus; +1 Momentum too if every ally is 16" or more away
    (L422-L424)."""

    unit: str = own_unit("Whose pilot.")
    alone: bool = Field(
        default=False,
        description='Every ally is 16" or more away: +1 Momentum (L424).',
        json_schema_extra={"flow": "common"},
    )


def lone_wolf(game: Game, inp: LoneWolf, dice: DiceSource) -> ActionResult:
    why = lone_wolf_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g = game.unit(inp.unit)
    work = Working(game)
    begin_turn(game, work, inp.unit)
    note_choice(work, s, u, "lone_wolf")
    add_focus(work, s, u)
    text = f"{g.name} goes it alone: Focus this turn, no action spent"
    if inp.alone:
        gain(work, s, "momentum", 1)
        text += ", +1 Momentum"
    return ActionResult(changes=work.changes(), text=text)


class BonusAction(Closed):
    """Make it Count!: 1 Momentum for a bonus action this turn; Skilled and Ace pilots (L276-L282)."""

    unit: str = own_unit("Whose pilot.")


def bonus_action(game: Game, inp: BonusAction, dice: DiceSource) -> ActionResult:
    s, u, g = game.unit(inp.unit)
    unit = Unit.model_validate(g.profile)
    if unit.kind == "warship":
        raise ValueError(f"{g.name}'s captain gives Orders instead of using skills (L1019)")
    if tier_rank(unit) == 0:
        raise ValueError(f"{g.name}'s pilot is not Skilled or Ace (L282)")
    if game.sides[s].resources.get("momentum", 0) < 1:
        raise ValueError("Make it Count! costs 1 Momentum (L276)")
    why = skill_blocked(unit, used_skills(g), "make_it_count")
    if why:
        raise ValueError(f"{g.name} cannot use Make it Count!: {why} (L253)")
    work = Working(game)
    begin_turn(game, work, inp.unit)
    gain(work, s, "momentum", -1)
    note_skill(game, work, inp.unit, "make_it_count")
    state = work.state(s, u)
    state.counters = {**state.counters, "bonus": state.counters.get("bonus", 0) + 1}
    return ActionResult(
        changes=work.changes(), text=f"{g.name} makes it count: a bonus action this turn (1 Momentum)"
    )


class AllOut(Closed):
    """All-Out Attack: 3 more actions this turn, for shooting or Power only (L347-L354)."""

    unit: str = own_unit("Who goes all out.")
    surge: bool = Field(
        default=False,
        description="A Super Titan also takes +5 Power, and rolls a d10 as its turn ends: 1-4, 3 Momentum "
        "lost or a shutdown until its next turn (L350-L351).",
        json_schema_extra={"flow": "common", **needs("super_titan")},
    )


def all_out(game: Game, inp: AllOut, dice: DiceSource) -> ActionResult:
    why = all_out_refusal(game, inp.unit)
    if why:
        raise ValueError(f"All-Out Attack: {why}")
    s, u, g = game.unit(inp.unit)
    unit = Unit.model_validate(g.profile)
    if inp.surge and unit.kind != "super_titan":
        raise ValueError(f"{g.name} is not a Super Titan (L350)")
    work = Working(game)
    begin_turn(game, work, inp.unit)
    gain(work, s, "momentum", -all_out_cost(unit))
    note_skill(game, work, inp.unit, "all_out")
    state = work.state(s, u)
    state.counters = {**state.counters, "allout": state.counters.get("allout", 0) + 3}
    text = f"{g.name} goes all out ({all_out_cost(unit)} Momentum): 3 more actions, to shoot or for Power"
    if inp.surge:
        mine = MsUnitState.model_validate(state.extra)
        mine.surge = True
        state.extra = mine.model_dump(mode="json")
        text += "; +5 Power, and a d10 as its turn ends (L350)"
    return ActionResult(changes=work.changes(), text=text)


class Untouchable(Closed):
    """Untouchable: once a game, a d10 of extra blocks this turn (L403)."""

    unit: str = own_unit("Whose pilot.")


def untouchable(game: Game, inp: Untouchable, dice: DiceSource) -> ActionResult:
    why = untouchable_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g = game.unit(inp.unit)
    face = dice.roll(1, 10, "Untouchable")[0]
    work = Working(game)
    state = work.state(s, u)
    mine = MsUnitState.model_validate(state.extra)
    mine.untouchable = face
    state.extra = mine.model_dump(mode="json")
    return ActionResult(
        changes=work.changes(),
        text=f"{g.name} is Untouchable: {face} extra block{'s' * (face != 1)} this turn (L403)",
        detail={"blocks": face},
    )


def untouchable_odds(game: Game, inp: Untouchable) -> ActionOdds:
    return ActionOdds(tables={"blocks": table(Dist.die(10))}, summary="A d10 of blocks this turn")


class Fearless(Closed):
    """Fearless (the small-scale mode): +1 Momentum as a Frame 3+ unit not behind cover activates (L706)."""

    unit: str = own_unit("Which unit, out of cover.")


def fearless(game: Game, inp: Fearless, dice: DiceSource) -> ActionResult:
    why = fearless_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g = game.unit(inp.unit)
    work = Working(game)
    begin_turn(game, work, inp.unit)
    note_choice(work, s, u, "fearless")
    gain(work, s, "momentum", 1)
    return ActionResult(changes=work.changes(), text=f"{g.name} steps out fearless: +1 Momentum (L706)")


class Rally(Closed):
    """Rally (the small-scale mode): a Super Titan recovers d10 x 100 HP as its turn starts (L721)."""

    unit: str = own_unit("Which Super Titan.")


def rally(game: Game, inp: Rally, dice: DiceSource) -> ActionResult:
    why = rally_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g = game.unit(inp.unit)
    face = dice.roll(1, 10, "rally")[0]
    work = Working(game)
    begin_turn(game, work, inp.unit)
    note_choice(work, s, u, "rally")
    state = work.state(s, u)
    healed = min(state.damage, 100 * face)
    state.damage -= healed
    return ActionResult(
        changes=work.changes(), text=f"{g.name} rallies: {face} x 100, {healed} HP recovered (L721)"
    )


def rally_odds(game: Game, inp: Rally) -> ActionOdds:
    _, _, g = game.unit(inp.unit)
    return ActionOdds(
        tables={"recovered": table(Dist.die(10).map(lambda f: min(g.state.damage, 100 * f)))},
        summary="d10 x 100 HP",
    )


class ExpertEvasion(Closed):
    """Expert Evasion (the small-scale mode, an Ace's): 1 Momentum, +3 Evade bonus this turn; Skill Defense
    still allowed (L709-L711)."""

    unit: str = own_unit("Whose Ace.")


def expert_evasion(game: Game, inp: ExpertEvasion, dice: DiceSource) -> ActionResult:
    why = expert_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g = game.unit(inp.unit)
    work = Working(game)
    gain(work, s, "momentum", -1)
    state = work.state(s, u)
    state.conditions = [*state.conditions, "expert_evasion"]
    return ActionResult(changes=work.changes(), text=f"{g.name}'s Expert Evasion: +3 Evade this turn (L710)")


class Throttle(Closed):
    """Full Throttle: Move +5" and over terrain up to 12" tall, once a turn (L76-L80)."""

    unit: str = own_unit("Who goes full throttle.")
    mobility: bool = MOBILITY_FIELD
    power: int = Field(
        default=0,
        ge=0,
        le=5,
        description='A Super Titan puts Power into it: +1" of Move a Power, at most +5", out of the Power it '
        "has until its next turn (L79).",
        json_schema_extra={"flow": "common", **needs("super_titan")},
    )
    accelerate: bool = Field(
        default=False,
        description="Accelerate (Expanded Pilot Skills): no action spent, for 1 Momentum, none from Round 4 "
        "(L301-L303).",
        json_schema_extra={"flow": "common", **needs("accelerate")},
    )


def throttle(game: Game, inp: Throttle, dice: DiceSource) -> ActionResult:
    s, u, g = game.unit(inp.unit)
    if "throttle" in g.state.conditions:
        raise ValueError(f"{g.name} has had Full Throttle's benefit this turn (L80)")
    if inp.mobility and (why := mobility_refusal(game, inp.unit)):
        raise ValueError(why)
    if inp.mobility and game.sides[s].resources.get("momentum", 0) < 1:
        raise ValueError('the extra Move +5" costs 1 Momentum (L716)')
    if inp.power and Unit.model_validate(g.profile).kind != "super_titan":
        raise ValueError(f"{g.name} is not a Super Titan: only Titans put Power into Move (L79)")
    if inp.accelerate and (why := accelerate_refusal(game, inp.unit)):
        raise ValueError(f"Accelerate: {why}")
    both = 1 + accelerate_cost(game)
    if inp.mobility and inp.accelerate and game.sides[s].resources.get("momentum", 0) < both:
        raise ValueError(f'the extra Move +5" and Accelerate need {both} Momentum together (L303, L716)')
    work = Working(game)
    if inp.mobility:
        gain(work, s, "momentum", -1)
    begin_turn(game, work, inp.unit)
    if inp.accelerate:
        gain(work, s, "momentum", -accelerate_cost(game))
        note_skill(game, work, inp.unit, "accelerate")
    else:
        spend_action(game, work, inp.unit)
    if inp.power:
        power_item(game, work, inp.unit, f"move:{inp.power}")  # refused beyond its free Power (L159)
    state = work.state(s, u)
    state.conditions = [*state.conditions, "throttle"]
    if Unit.model_validate(g.profile).kind == "warship":  # All Ahead Full! (L962-L964; ambiguity 30)
        return ActionResult(changes=work.changes(), text=f'{g.name}: All Ahead Full! Move +3" (L964)')
    text = f'{g.name} goes full throttle: Move +{5 + 5 * inp.mobility + inp.power}"'
    text += " (1 Momentum, L716)" * inp.mobility + f" ({inp.power} Power)" * bool(inp.power)
    text += " with Accelerate, no action spent" * inp.accelerate
    return ActionResult(changes=work.changes(), text=text)


class Disengage(Closed):
    """Disengage: 1 Momentum to break away from melee on its turn (L68, L255-L258)."""

    unit: str = own_unit("Who breaks away.")


def disengage(game: Game, inp: Disengage, dice: DiceSource) -> ActionResult:
    s, u, g = game.unit(inp.unit)
    if "engaged" not in g.state.conditions:
        raise ValueError(f"{g.name} is not in melee")
    if Unit.model_validate(g.profile).kind == "warship":  # ships disengage freely (L955)
        work = Working(game)
        begin_turn(game, work, inp.unit)
        state = work.state(s, u)
        state.conditions = [c for c in state.conditions if c != "engaged"]
        return ActionResult(changes=work.changes(), text=f"{g.name} disengages freely, as warships do (L955)")
    if game.sides[s].resources.get("momentum", 0) < 1:
        raise ValueError("Disengage costs 1 Momentum (L255)")
    why = skill_blocked(Unit.model_validate(g.profile), used_skills(g), "disengage")
    if why:
        raise ValueError(f"{g.name} cannot Disengage: {why} (L253)")
    work = Working(game)
    begin_turn(game, work, inp.unit)
    gain(work, s, "momentum", -1)
    note_skill(game, work, inp.unit, "disengage")
    state = work.state(s, u)
    state.conditions = [c for c in state.conditions if c != "engaged"] + ["disengaged"]
    return ActionResult(
        changes=work.changes(),
        text=f"{g.name} disengages (1 Momentum); attacking again this turn costs 1 more (L258)",
    )


class Power(Closed):
    """A Super Titan puts Power on its shield, at any time, until its next turn (L160, L167, L230)."""

    unit: str = own_unit("Which Super Titan.")


def power(game: Game, inp: Power, dice: DiceSource) -> ActionResult:
    _, _, g = game.unit(inp.unit)
    unit = Unit.model_validate(g.profile)
    if unit.kind != "super_titan" or not unit.shield_power:
        raise ValueError(f"{g.name} has no shield that takes Power")
    work = Working(game)
    power_item(game, work, inp.unit, "shield")
    return ActionResult(
        changes=work.changes(),
        text=f"{g.name} powers its shield ({unit.shield_power}) until its next turn",
    )


ACTIONS: dict[str, ActionSpec] = {
    "roll_off": ActionSpec.of(
        "roll_off",
        "Roll off",
        roll_off,
        "Both sides roll a d10; the higher goes first, ties roll again (L32).",
    ),
    "shoot": ActionSpec.of(
        "shoot",
        "Shoot",
        shoot,
        "Fire one weapon: the target rolls a d10 per shot to evade (L132-L155).",
        odds=shoot_odds,
        picks=shoot_picks,
        headline=("damage", "destroyed"),
        primary=True,
        needs=("shot",),
    ),
    "melee": ActionSpec.of(
        "melee",
        "Melee",
        melee,
        "The Melee Clash: both sides split their dice between attack and defense (L183-L214).",
        odds=melee_odds,
        picks=clash_picks,
        headline=("damage dealt", "target destroyed"),
        primary=True,
        needs=("turn", "melee"),
    ),
    "secret_clash": ActionSpec.of(
        "secret_clash",
        "Melee, splits hidden",
        secret_clash,
        "Declare a melee attack; each player then splits its dice unseen (on this phone or their own), "
        "and Melee reveals both (L183-L214, L519).",
        rolls=False,
        needs=("turn", "melee"),
    ),
    "split": ActionSpec.of(
        "split",
        "Split the dice",
        split,
        "A player's split of its dice for the declared clash, kept hidden until Melee (L519).",
        rolls=False,
        needs=("split",),
        secret_fields=("pick",),
    ),
    "charge": ActionSpec.of(
        "charge",
        "Charge",
        charge,
        "Move into an enemy's engagement range: it may fire Overwatch before the clash (L170-L181).",
        rolls=False,
        needs=("charge",),
    ),
    "overwatch": ActionSpec.of(
        "overwatch",
        "Overwatch",
        overwatch,
        "The charged unit fires a weapon's Overwatch shots at the charger, one weapon per action "
        "(L174-L176).",
        odds=overwatch_odds,
        picks=overwatch_picks,
        headline=("damage", "destroyed"),
        needs=("charged",),
    ),
    "focus": ActionSpec.of(
        "focus",
        "Focus",
        focus,
        "+1 shot, or +1 hit within 16\"; a Skilled or Ace pilot's weapon to fire in melee (L117-L130).",
        rolls=False,
        needs=("mech_turn",),
    ),
    "ready_weapons": ActionSpec.of(
        "ready_weapons",
        "Ready weapons",
        ready_weapons,
        "A warship readies one weapon to fire; missiles and [AA] weapons start readied (L966-L971).",
        rolls=False,
        picks=ready_picks,
        needs=("warship",),
    ),
    "volley": ActionSpec.of(
        "volley",
        "All Weapons Fire!",
        volley,
        "A warship's shooting, once a turn: each readied weapon then fires with no further action "
        "(L979-L984).",
        rolls=False,
        needs=("turn", "warship"),
    ),
    "target_lock": ActionSpec.of(
        "target_lock",
        "Target Lock",
        target_lock,
        "A warship's weapons gain Range +16\" until the round ends (L973-L977).",
        rolls=False,
        needs=("turn", "warship"),
    ),
    "reload": ActionSpec.of(
        "reload",
        "Reload!",
        reload,
        "A warship's weapon that is reloading may fire this turn (L991-L993).",
        rolls=False,
        picks=reload_picks,
        needs=("turn", "warship"),
    ),
    "board": ActionSpec.of(
        "board",
        "Board a warship",
        board,
        'A unit within 6" boards a warship of its side at the end of its turn, or starts the battle aboard; '
        "repaired there at each round's end (L869, L1001-L1005).",
        rolls=False,
        needs=("board",),
    ),
    "launch": ActionSpec.of(
        "launch",
        "Launch",
        launch,
        "As a round begins a warship launches one unit aboard, with no action (L995-L999).",
        rolls=False,
        needs=("launch",),
    ),
    "crash_through": ActionSpec.of(
        "crash_through",
        "Crash through",
        crash_through,
        "A Size 2+ unit at Full Throttle or charging moves through a building, which saves to stand "
        "(L84-L85).",
        odds=crash_odds,
        headline=("destroyed",),
        needs=("big_move",),
    ),
    "trample": ActionSpec.of(
        "trample",
        "Trample",
        trample,
        "A Size 2+ unit at Full Throttle or charging tramples up to 3 smaller targets: each saves against "
        "PEN = its Size, 1000 if it fails (L86-L87).",
        odds=trample_odds,
        headline=("damage",),
        needs=("big_move",),
    ),
    "ship_crash": ActionSpec.of(
        "ship_crash",
        "Crash into terrain",
        ship_crash,
        "A warship that hits terrain makes 2 Armor Saves against PEN 5 (L960).",
        odds=ship_crash_odds,
        headline=("damage",),
        needs=("warship",),
    ),
    "knockback": ActionSpec.of(
        "knockback",
        "Knockback",
        knockback,
        "The small-scale mode: a Super Titan's heavy hit knocks its target back a d10 inches; terrain or "
        "another unit in the way: 1000 damage (L725-L728).",
        needs=("knockback",),
    ),
    "get_up": ActionSpec.of(
        "get_up",
        "Down but not out",
        get_up,
        "The small-scale mode: as the round ends a fallen Super Titan rolls a d10; on 10 it is back with "
        "100 HP (L723-L724).",
        odds=get_up_odds,
        headline=("back",),
        needs=("get_up",),
    ),
    "rally_ally": ActionSpec.of(
        "rally_ally",
        "Rally an ally",
        rally_ally,
        "The small-scale mode: a Super Titan's Focus action rallies itself or an ally, d10 x 100 HP (L722).",
        odds=rally_ally_odds,
        headline=("recovered",),
        needs=("rally_ally",),
    ),
    "reverse": ActionSpec.of(
        "reverse",
        "Turn about",
        reverse,
        "In space: a Basic pilot's unit pays 1 Momentum to move against the way it first moved this turn "
        "(L883-L886).",
        rolls=False,
        needs=("inertia",),
    ),
    "fall": ActionSpec.of(
        "fall",
        "Fall check",
        fall,
        "Low gravity: a unit on high ground that takes damage falls off on a d10 of 1-4, unharmed "
        "(L897-L898).",
        odds=fall_odds,
        headline=("falls",),
        needs=("low_gravity",),
    ),
    "order": ActionSpec.of(
        "order",
        "Captain's Order",
        order,
        "A Skilled or Battle Hardened Captain's Order for this round, given as it begins (L1017-L1035).",
        rolls=False,
        needs=("captain",),
    ),
    "captain_focus": ActionSpec.of(
        "captain_focus",
        "Captain: Focus for an ally",
        captain_focus,
        "A Discerning Captain gives an ally a Focus as the round begins (L1047-L1049).",
        rolls=False,
        needs=("discerning",),
    ),
    "captain_influence": ActionSpec.of(
        "captain_influence",
        "Captain: Influence instead",
        captain_influence,
        "A Renowned or Legendary Captain's ship activates with its bonus as Influence, not Momentum "
        "(L1045, L1071).",
        rolls=False,
        needs=("captain_influence",),
    ),
    "steadfast": ActionSpec.of(
        "steadfast",
        "Steadfast crew",
        steadfast,
        "A Determined or Fearless Captain, as the ship activates under half HP or with no Momentum: "
        "+1 Momentum or +1 Accuracy (L1055-L1057, L1077).",
        rolls=False,
        needs=("steadfast",),
    ),
    "spirit": ActionSpec.of(
        "spirit",
        "Fighting spirit",
        spirit,
        "Fighting Spirit or Heroic Spirit, as the unit activates below half HP or with no Momentum: "
        "Momentum or Focus (L388-L390, L463-L465).",
        rolls=False,
        needs=("spirit",),
    ),
    "lone_wolf": ActionSpec.of(
        "lone_wolf",
        "Lone Wolf",
        lone_wolf,
        'As the unit activates: a Focus, and +1 Momentum if every ally is 16" or more away (L422-L424).',
        rolls=False,
        needs=("lone_wolf",),
    ),
    "bonus_action": ActionSpec.of(
        "bonus_action",
        "Make it Count!: bonus action",
        bonus_action,
        "1 Momentum: a bonus action this turn; Skilled and Ace pilots (L276-L282).",
        rolls=False,
        needs=("turn", "exceptional"),
    ),
    "all_out": ActionSpec.of(
        "all_out",
        "All-Out Attack",
        all_out,
        "Expanded Pilot Skills, 3 Momentum (Heavy Arms 2): 3 more actions this turn, for shooting or Power "
        "only; a Titan may take +5 Power and risk a shutdown (L347-L354).",
        rolls=False,
        needs=("turn", "all_out"),
    ),
    "untouchable": ActionSpec.of(
        "untouchable",
        "Untouchable",
        untouchable,
        "Once a game: a d10 of extra blocks this turn (L403).",
        odds=untouchable_odds,
        headline=("blocks",),
        needs=("untouchable",),
    ),
    "fearless": ActionSpec.of(
        "fearless",
        "Fearless",
        fearless,
        "The small-scale mode: +1 Momentum as a Frame 3+ unit out of cover activates (L706).",
        rolls=False,
        needs=("fearless",),
    ),
    "rally": ActionSpec.of(
        "rally",
        "Rally",
        rally,
        "The small-scale mode: a Super Titan recovers d10 x 100 HP as its turn starts (L721).",
        odds=rally_odds,
        headline=("recovered",),
        needs=("rally",),
    ),
    "expert_evasion": ActionSpec.of(
        "expert_evasion",
        "Expert Evasion",
        expert_evasion,
        "The small-scale mode, an Ace: 1 Momentum, +3 Evade this turn; Skill Defense still allowed "
        "(L709-L711).",
        rolls=False,
        needs=("expert",),
    ),
    "throttle": ActionSpec.of(
        "throttle", "Full Throttle", throttle, 'Move +5" (L76-L80).', rolls=False, needs=("turn",)
    ),
    "disengage": ActionSpec.of(
        "disengage",
        "Disengage",
        disengage,
        "1 Momentum: leave melee (L255-L258).",
        rolls=False,
        needs=("turn", "engaged"),
    ),
    "power": ActionSpec.of(
        "power",
        "Power the shield",
        power,
        "A Super Titan's shield blocks with its Power on it (L160, L230).",
        rolls=False,
        needs=("shield_power",),
    ),
    "battle_damage": ActionSpec.of(
        "battle_damage",
        "Battle damage",
        battle_damage,
        "Battle Damage: after a failed Armor Save, a d10 plus its ARM Sv on the table (L677-L687).",
        odds=battle_damage_odds,
        headline=("destroyed",),
        needs=("battle_damage",),
    ),
    "event": ActionSpec.of(
        "event",
        "Climactic Event",
        event,
        "Climactic Events: one a side, once a game (L734-L788).",
        rolls=False,
        needs=("events",),
    ),
    "outmaneuver": ActionSpec.of(
        "outmaneuver",
        "Outmaneuver",
        outmaneuver,
        "In space, before an attack: both sides roll for the advantage; against a warship, a Bridge "
        "Attack (L906-L932).",
        odds=outmaneuver_odds,
        headline=("attacker wins",),
        needs=("turn", "space"),
    ),
    "terrain": ActionSpec.of(
        "terrain",
        "Hit terrain",
        terrain_hit,
        "Destroying Terrain: cover hit by a weapon saves once or is destroyed (L655-L660).",
        odds=terrain_odds,
        picks=terrain_picks,
        headline=("destroyed",),
        needs=("terrain",),
    ),
    "command": ActionSpec.of(
        "command",
        "Command",
        command,
        "Spend Influence on a Command: one Standard Command a round, at its start; Reactions at any "
        "time (L800-L850).",
        rolls=False,
        needs=("influence",),
    ),
    "overwatch_command": ActionSpec.of(
        "overwatch_command",
        "Overwatch Command",
        overwatch_command,
        "For 1 Influence, one unit fires a weapon's Overwatch at an enemy in range, at any time (L836-L838).",
        odds=overwatch_command_odds,
        picks=command_picks,
        headline=("damage", "destroyed"),
        needs=("overwatch_gun", "influence"),
    ),
    "last_shooting": ActionSpec.of(
        "last_shooting",
        "Last Shooting",
        last_shooting,
        "Climactic Event: a unit just destroyed fires one weapon once more, at a unit not in melee "
        "(L745-L750).",
        odds=last_shooting_odds,
        picks=last_picks,
        headline=("damage", "destroyed"),
        needs=("last_shot",),
    ),
    "counterattack": ActionSpec.of(
        "counterattack",
        "Shooting Counterattack",
        counterattack,
        "Expanded Pilot Skills, 2 Momentum: a unit that survives a shot fires one weapon back at the shooter "
        "at once (L332-L334).",
        odds=counterattack_odds,
        picks=last_picks,
        headline=("damage", "destroyed"),
        needs=("counterattack",),
    ),
    "end_turn": ActionSpec.of(
        "end_turn",
        "End turn",
        end_turn,
        "The unit's turn ends; the other side activates (L40-L41).",
        rolls=False,
        primary=True,
        needs=("turn",),
    ),
}
