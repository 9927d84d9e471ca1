"""The GUNFRAME turn (L670-750): Focus Points, initiative, and the small actions of a turn.

* :func:`start_round`: a new turn's Focus Point pools (L692-694, L756-766,
  L2320, L2727) and the per-turn flags cleared (L740, L776-782, L1358, L1385).
* ``initiative``: the Initiative phase as one action: start-of-turn effects
  (the Doomsday clock, L1863), the Focus Point pools, then each side's D6 with
  its bonuses (L1520, L2348, L2380) and the tie rule (L704-706).
* ``well_read``: the once-a-battle initiative reroll (L92).
* ``target_lock``, ``evade`` (L1354-1400), ``reboot`` (L960, L2406) and
  ``spend_fp`` (L770-782) for the Focus Point uses no other action pays.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from core.dice import DiceSource, Dist
from core.pool import table
from core.systems.base import (
    ActionOdds,
    ActionResult,
    Change,
    Closed,
    action_texts,
    enemy_unit,
    needs,
    own_unit,
    side_field,
)
from core.systems.gunframe.effects import (
    Ambush,
    Effect,
    EvadeAfterShakingLock,
    FocusPerTurn,
    FreeDarkEvade,
    FreeFastMove,
    HaloDrop,
    IgnoresCrippled,
    InitiativeBonus,
    InitiativeReroll,
    Jumps,
    LockAfterStrippingEvade,
    LockNeedsPilotRoll,
    RebootActions,
    SpecialAction,
    SpecialActionId,
)
from core.systems.gunframe.environment import dark, environment_of
from core.systems.gunframe.options import GunframeOptions, options_of
from core.systems.gunframe.reactions import ReactionTrigger, check_trigger, off_log_field, trigger_field
from core.systems.gunframe.state import (
    TURN_FLAGS,
    Edits,
    Pos,
    can_act,
    check_lucky,
    halve,
    is_conventional,
    is_convoy,
    is_structure,
    lucky_pass_dist,
    lucky_pilot_roll,
    profile_of,
    react,
    skill_of,
    spend_fp,
    upgrades_of,
)
from core.systems.gunframe.upgrades import effects_by, effects_of, has_effect
from core.systems.gunframe.wide import game_value

if TYPE_CHECKING:
    from core.game import Game, GameUnit

_TEXTS = action_texts(__package__)


# --- Focus Points (L692-694, L756-766) -----------------------------------------------------


def on_table(unit: GameUnit) -> bool:
    """Deployed and not destroyed: reserves (L1542) and combiner parts not in play (L2537) are off it."""
    conditions = unit.state.conditions
    return not unit.state.destroyed and "in_reserve" not in conditions and "off_table" not in conditions


def counts_for_fp(unit: GameUnit, opts: GunframeOptions) -> bool:
    """A unit that adds to its side's Focus Points: on the table, running (L694, L758), a gunframe (L764)
    or an Escort convoy vehicle (L1890, unless the option leaves it out), not crippled (L2727) unless the
    option lets Anger Issues or Reinforced units count (digest 11.36)."""
    state = unit.state
    if not on_table(unit) or "shut_down" in state.conditions:
        return False
    if is_convoy(unit):  # operates as a unit (L1890)
        return not opts.convoy_adds_no_fp and "crippled" not in state.conditions
    if is_conventional(unit):
        return False
    if "crippled" in state.conditions:
        return opts.crippled_immune_counts_for_fp and has_effect(upgrades_of(unit), IgnoresCrippled)
    return True


def focus_points(game: Game, side: int) -> tuple[int, str]:
    """A side's pool for the turn: half its counting units, rounded up (L758), +1 per Hero on the table
    and running (L2320; a crippled Hero still adds its point, digest 11.18)."""
    opts = options_of(game)
    units = game.sides[side].units
    count = sum(counts_for_fp(u, opts) for u in units)
    heroes = sum(
        sum(e.n for e in effects_of(upgrades_of(u), FocusPerTurn))
        for u in units
        if on_table(u) and "shut_down" not in u.state.conditions
    )
    total = math.ceil(count / 2) + heroes
    why = f"{count} unit(s) count" + (f", +{heroes} Hero" if heroes else "")
    return total, why


def start_round(game: Game) -> list[Change]:
    """A new turn: fresh Focus Point pools (unused ones are gone, L740), every unit ready (L798), the
    per-turn flags and any unspent power points cleared, suppression tokens gone (L1318)."""
    edits = Edits(game)
    for s, side in enumerate(game.sides):
        edits.set_resource(s, "focus_points", focus_points(game, s)[0])
        edits.set_resource(s, "initiative", 0)
        for u, unit in enumerate(side.units):
            pos = (s, u)
            edits.set(pos, "activated", False)
            extra = {k: v for k, v in unit.state.extra.items() if k not in TURN_FLAGS and k != "power"}
            if extra != unit.state.extra:
                edits.set(pos, "extra", extra)
    if game_value(game, "suppression"):
        edits.set_option("suppression", [])
    return edits.changes()


# --- initiative (L700-706) ------------------------------------------------------------------


def initiative_bonus(game: Game, side: int, attacker: int | None = None) -> tuple[int, list[str]]:
    """+1 for the mission's attacker on turn 1 (L1520), +1 for a Tactician (L2348), +1 for one Command
    Module (L2380), each while its unit is on the table; they add up (digest 11.19)."""
    opts = options_of(game)
    parts: list[str] = []
    if attacker is None:
        attacker = game_value(game, "attacker_side")
    if game.round == 1 and attacker == side:
        parts.append("attacker +1")
    values = [1] if parts else []
    held = {uid for u in game.sides[side].units if on_table(u) for uid in upgrades_of(u)}
    for up, bonus in effects_by(held, InitiativeBonus):  # each upgrade counts once (L2380, digest 11.19)
        parts.append(f"{up.name} +{bonus.n}")
        values.append(bonus.n)
    if opts.initiative_best_bonus_only:
        best = max(values, default=0)
        return best, parts[values.index(best) : values.index(best) + 1] if values else []
    return sum(values), parts


def settle(totals: dict[int, int], fp: dict[int, int]) -> tuple[int | None, list[int]]:
    """The winner of the initiative, or None and the sides that must reroll: highest total; a tie goes
    to the fewest Focus Points; still level, those sides roll again (L702-706)."""
    top = max(totals.values())
    tied = [s for s, t in totals.items() if t == top]
    if len(tied) == 1:
        return tied[0], []
    least = min(fp[s] for s in tied)
    fewest = [s for s in tied if fp[s] == least]
    if len(fewest) == 1:
        return fewest[0], []
    return None, fewest


class InitiativeInput(Closed):
    """The Initiative phase: nothing to choose but who is the attacker, if not set up yet."""

    attacker_side: int | None = side_field(
        "Side that is the mission's attacker (+1 on turn 1, L1520); empty: as set up.", default=None
    )


def _roll_off(
    game: Game,
    edits: Edits,
    dice: DiceSource,
    totals: dict[int, int],
    sides: list[int],
    attacker: int | None,
    first: dict[int, int] | None = None,
) -> tuple[int, list[str]]:
    """Roll for ``sides`` and settle, rerolling ties of equal Focus Points (L706); ``first`` gets the
    faces of the first roll."""
    lines: list[str] = []
    fp = {s: edits.resource(s, "focus_points") for s in range(len(game.sides))}
    while True:
        for s in sides:
            face = dice.roll(1, 6, f"initiative: {game.sides[s].name}")[0]
            if first is not None and s not in first:
                first[s] = face
            bonus, parts = initiative_bonus(game, s, attacker)
            totals[s] = face + bonus
            lines.append(
                f"{game.sides[s].name} {face}" + (f" ({', '.join(parts)}) = {totals[s]}" if bonus else "")
            )
        winner, sides = settle(totals, fp)
        if winner is not None:
            return winner, lines
        lines.append("level on Focus Points too: roll again")


def resolve_initiative(game: Game, inp: InitiativeInput, dice: DiceSource) -> ActionResult:
    edits = Edits(game)
    attacker = game_value(game, "attacker_side")
    if inp.attacker_side is not None:
        if inp.attacker_side >= len(game.sides):
            raise ValueError(f"there is no side {inp.attacker_side}")
        attacker = inp.attacker_side
        edits.set_option("attacker_side", attacker)
    lines: list[str] = []
    if game_value(game, "mission") == "doomsday" and not game_value(game, "ended"):
        d3 = math.ceil(dice.roll(1, 6, "Doomsday clock (D3)")[0] / 2)  # D3 is a halved D6 (L351)
        clock = int(game_value(game, "clock", 0)) + d3
        edits.set_option("clock", clock)
        lines.append(
            f"Doomsday clock +{d3} = {clock}" + (": the device goes off this turn" if clock >= 12 else "")
        )
    pools = []
    for s in range(len(game.sides)):
        fp, why = focus_points(game, s)
        edits.set_resource(s, "focus_points", fp)
        pools.append(f"{game.sides[s].name} {fp} FP ({why})")
    totals: dict[int, int] = {}
    faces: dict[int, int] = {}
    winner, rolls = _roll_off(game, edits, dice, totals, list(range(len(game.sides))), attacker, faces)
    if (
        environment_of(game) == "storm"
        and game_value(game, "eye_of_the_storm")
        and len(set(faces.values())) == 1
    ):
        calm = not game_value(game, "storm_calm")  # matching dice before bonuses (L2027)
        edits.set_option("storm_calm", calm)
        rolls.append("the eye of the storm: " + ("the storm dies down" if calm else "the storm breaks again"))
    for s, total in totals.items():
        edits.set_resource(s, "initiative", total)
    edits.set_option("initiative_side", winner)
    text = f"Turn {game.round}: " + "; ".join([*lines, *pools, "initiative " + ", ".join(rolls)])
    text += f"; {game.sides[winner].name} chooses who activates first"
    detail = {
        "totals": totals,
        "winner": winner,
        "focus_points": [edits.resource(s, "focus_points") for s in totals],
    }
    return ActionResult(changes=edits.changes(), text=text, detail=detail)


def initiative_odds(game: Game, inp: InitiativeInput) -> ActionOdds:
    """Exact chance of each side taking the initiative, ties and rerolls included (two sides)."""
    attacker = inp.attacker_side if inp.attacker_side is not None else game_value(game, "attacker_side")
    bonus = [initiative_bonus(game, s, attacker)[0] for s in range(len(game.sides))]
    g = game
    fp = {s: focus_points(g, s)[0] for s in range(len(g.sides))}
    if len(g.sides) != 2:
        return ActionOdds(tables={}, summary="odds are shown for two sides")
    wins = [0, 0]
    rerolls = 0
    for a in range(1, 7):
        for b in range(1, 7):
            winner, _again = settle({0: a + bonus[0], 1: b + bonus[1]}, fp)
            if winner is None:
                rerolls += 1
            else:
                wins[winner] += 1
    decided = 36 - rerolls  # a reroll starts over, so each side's chance is its share of decided rolls
    facts = {f"{g.sides[s].name} wins": wins[s] / decided for s in (0, 1)}
    return ActionOdds(tables={}, facts=facts, summary=f"bonuses {bonus[0]} and {bonus[1]}")


INITIATIVE = _TEXTS.spec("initiative", resolve_initiative, odds=initiative_odds)


class WellReadInput(Closed):
    side: int = side_field("The side rerolling its initiative die (L92).")


def resolve_well_read(game: Game, inp: WellReadInput, dice: DiceSource) -> ActionResult:
    """Once a battle, with the Well Read unit on the table, reroll the side's initiative die and keep it."""
    if inp.side >= len(game.sides):
        raise ValueError(f"there is no side {inp.side}")
    edits = Edits(game)
    if game_value(game, "initiative_side") is None or not game.sides[inp.side].resources.get("initiative"):
        raise ValueError("roll the initiative first")
    readers = [
        (inp.side, u)
        for u, unit in enumerate(game.sides[inp.side].units)
        if on_table(unit)
        and has_effect(upgrades_of(unit), InitiativeReroll)
        and "well_read" not in unit.state.extra.get("used", [])
    ]
    if not readers:
        raise ValueError("that side has no unused Well Read pilot on the table (L92)")
    pos = readers[0]
    edits.set_extra(pos, "used", [*edits.extra(pos, "used", []), "well_read"])
    totals = {s: int(side.resources.get("initiative", 0)) for s, side in enumerate(game.sides)}
    face = dice.roll(1, 6, f"initiative reroll: {game.sides[inp.side].name}")[0]
    totals[inp.side] = face + initiative_bonus(game, inp.side)[0]
    fp = {s: edits.resource(s, "focus_points") for s in totals}
    winner, again = settle(totals, fp)
    lines = [f"{game.sides[inp.side].name} rerolls with Well Read: {face}, total {totals[inp.side]}"]
    if winner is None:
        lines.append("level on Focus Points: roll again")
        winner, more = _roll_off(game, edits, dice, totals, again, None)
        lines += more
    for s, total in totals.items():
        edits.set_resource(s, "initiative", total)
    edits.set_option("initiative_side", winner)
    text = "; ".join(lines) + f"; {game.sides[winner].name} has the initiative"
    return ActionResult(changes=edits.changes(), text=text, detail={"totals": totals, "winner": winner})


WELL_READ = _TEXTS.spec("well_read", resolve_well_read)


# --- Target Lock and Evade (L1354-1400) -----------------------------------------------------


def _cancel_or_place(
    edits: Edits, at: Pos, cancelled: str, placed: str, holder: Pos, also: type[Effect]
) -> tuple[bool, bool]:
    """Target Lock and Evade cancel each other (L1364-1365, L1391-1392).

    A ``cancelled`` counter on the unit at ``at`` is removed instead of a ``placed`` one being put
    there, unless the ``holder`` has an upgrade with the effect ``also`` (Target Tracking L2424,
    Veteran L2352), which places it as well.  Whether a counter was cancelled, and whether the
    upgrade placed one after all.
    """
    if not edits.counter(at, cancelled):
        edits.set_counter(at, placed, 1)
        return False, False
    edits.set_counter(at, cancelled, 0)
    extra = has_effect(upgrades_of(edits.unit(holder)), also)
    if extra:
        edits.set_counter(at, placed, 1)
    return True, extra


class LockInput(Closed):
    unit: str = own_unit("The unit locking on, as 'side/key'.")
    target: str = enemy_unit("The enemy it can see (L1362).")
    lucky: bool = Field(
        default=False,
        description="A Lucky locker rolls its Pilot Skill roll against Defense Matrix again if it fails, "
        "once per battle (L2330).",
        json_schema_extra=needs("lucky"),
    )


def resolve_lock(game: Game, inp: LockInput, dice: DiceSource) -> ActionResult:
    """Strip the target's Evade, or lock it (L1364-1367); once a turn (L1358); Defense Matrix asks a
    Pilot Skill pass first (L2386); Target Tracking locks even after stripping (L2424)."""
    edits = Edits(game)
    pos, t_pos = edits.find(inp.unit), edits.find(inp.target)
    if pos[0] == t_pos[0]:
        raise ValueError("a Target Lock goes on an enemy unit")
    can_act(edits, pos, "lock on")
    name, target = edits.name(pos), edits.name(t_pos)
    if edits.get(t_pos, "destroyed"):
        raise ValueError(f"{target} is destroyed")
    if edits.extra(pos, "locked", False):
        raise ValueError(f"{name} has made its Target Lock action this turn (L1358)")
    edits.set_extra(pos, "locked", True)
    detail: dict[str, Any] = {}
    matrix = has_effect(upgrades_of(edits.unit(t_pos)), LockNeedsPilotRoll)
    luck = ""
    if inp.lucky and not matrix:
        raise ValueError(f"{target} has no Defense Matrix: there is no roll for Lucky to repeat (L2330)")
    if inp.lucky:
        check_lucky(edits, pos)
    if matrix:
        ok, face, luck = lucky_pilot_roll(edits, pos, dice, f"{name} against Defense Matrix", inp.lucky)
        detail["pilot_roll"] = face
        if not ok:
            text = f"{name} fails to lock {target}: Defense Matrix holds (rolled {face}){luck}"
            return ActionResult(changes=edits.changes(), text=text, detail=detail)
    stripped, tracked = _cancel_or_place(edits, t_pos, "evade", "target_lock", pos, LockAfterStrippingEvade)
    text = f"{name} strips {target}'s Evade" if stripped else f"{name} locks {target}"
    text += " and locks it (Target Tracking)" if tracked else ""
    text += f"{luck}; {target} may react (L1425)"
    return ActionResult(changes=edits.changes(), text=text, detail=detail)


def lock_odds(game: Game, inp: LockInput) -> ActionOdds:
    _, _, unit = game.unit(inp.unit)
    _, _, target = game.unit(inp.target)
    p = (
        float(lucky_pass_dist(skill_of(unit), inp.lucky).probability(1))
        if has_effect(upgrades_of(target), LockNeedsPilotRoll)
        else 1.0
    )
    return ActionOdds(tables={}, facts={"lock goes on": p}, summary="Defense Matrix needs a Pilot Skill pass")


TARGET_LOCK = _TEXTS.spec("target_lock", resolve_lock, odds=lock_odds)


class EvadeInput(Closed):
    unit: str = own_unit("The unit evading, as 'side/key'.")
    reaction: bool = Field(default=False, description="Made as a reaction: 1 FP (L1428, L1442).")
    quick_reflexes: bool = Field(
        default=False,
        description="The reaction is free, once a game (L2338).",
        json_schema_extra=needs("quick_reflexes"),
    )
    reaction_trigger: ReactionTrigger | None = trigger_field()
    trigger_off_log: bool = off_log_field()
    darkness: bool = Field(
        default=False,
        description="The Darkness free evade after a move in obscuring terrain far from enemies: 1 FP, none "
        "with Stealth or Cloaking (L2009).",
    )


def resolve_evade(game: Game, inp: EvadeInput, dice: DiceSource) -> ActionResult:
    """Shake off a Target Lock, or take an Evade (L1389-1394); once a turn (L1385); Veteran takes an
    Evade after shaking off a lock (L2352)."""
    edits = Edits(game)
    opts = options_of(game)
    pos = edits.find(inp.unit)
    can_act(edits, pos, "evade")
    name = edits.name(pos)
    how = ""
    if inp.darkness:
        if inp.reaction or inp.quick_reflexes:
            raise ValueError("the Darkness evade is a free action, not a reaction (L2009)")
        if environment_of(game) is not None and not dark(game):
            raise ValueError("the free evade needs the battle to be in darkness (L2009, L2013, L2019)")
        if has_effect(upgrades_of(edits.unit(pos)), FreeDarkEvade):
            how = " (free in the dark)"
        else:
            spend_fp(edits, pos)
            how = " (1 FP in the dark)"
    elif edits.extra(pos, "evaded", False):
        raise ValueError(f"{name} has made its evade action this turn (L1385)")
    elif inp.reaction:
        why = check_trigger(
            game, edits.unit(pos), inp.reaction_trigger, ref=inp.unit, off_log=inp.trigger_off_log
        )
        how = " (" + react(edits, pos, inp.quick_reflexes, opts.react_more_than_once) + f", {why})"
    elif inp.quick_reflexes:
        raise ValueError("Quick Reflexes pays for a reaction (L2338)")
    if not inp.darkness:  # a free action does not use up the one evade a turn (L802)
        edits.set_extra(pos, "evaded", True)
    shaken, veteran = _cancel_or_place(edits, pos, "target_lock", "evade", pos, EvadeAfterShakingLock)
    text = f"{name} shakes off the Target Lock" if shaken else f"{name} takes an Evade"
    text += " and takes an Evade (Veteran)" if veteran else ""
    return ActionResult(changes=edits.changes(), text=text + how)


EVADE = _TEXTS.spec("evade", resolve_evade)


# --- rebooting (L954-960, L2406) -----------------------------------------------------------


class RebootInput(Closed):
    unit: str = own_unit("The shut-down unit, as 'side/key'.")
    actions: Literal[1, 2] = Field(
        default=1, description="Special actions it spends on rebooting now (L960)."
    )


def resolve_reboot(game: Game, inp: RebootInput, dice: DiceSource) -> ActionResult:
    """Two special actions in a row reboot a shut-down unit, across two turns if need be (L960); one with
    Rapid Reboot (L2406).  Progress is kept in ``extra["reboot"]``."""
    edits = Edits(game)
    pos = edits.find(inp.unit)
    name = edits.name(pos)
    if not edits.has(pos, "shut_down"):
        raise ValueError(f"{name} is not shut down")
    needed = min([2, *(e.actions for e in effects_of(upgrades_of(edits.unit(pos)), RebootActions))])
    done = int(edits.extra(pos, "reboot", 0) or 0) + inp.actions
    if done >= needed:
        edits.remove_condition(pos, "shut_down")
        edits.set_extra(pos, "reboot", 0)
        text = f"{name} reboots and is running again"
    else:
        edits.set_extra(pos, "reboot", done)
        text = f"{name} starts rebooting: one more special action in a row finishes it"
    return ActionResult(changes=edits.changes(), text=text)


REBOOT = _TEXTS.spec("reboot", resolve_reboot)


# --- Focus Points spent for other reasons (L770-782) -----------------------------------------

FpUse = Literal[
    "fast_move",
    "reaction_move",
    "upgrade",
    "dramatic_cry",
    "jump",
    "combine",
    "other",
]

_FP_USES: dict[str, str] = {
    "fast_move": "moves fast (L906)",
    "reaction_move": "reacts with a move (L1428-1440)",
    "upgrade": "powers an upgrade (Guardian, Rivals, Well-Oiled, Wingman, Swift Transform)",
    "dramatic_cry": "lets out a dramatic cry instead of running (L2786)",
    "jump": "jumps: 1 FP in high gravity, or without Jump in low gravity (L2055, L2069)",
    "combine": "pays for a team member to combine (L2537, outside the per-unit limit)",
    "other": "spends a Focus Point",
}


def _gravity(game: Game, use: str, ups: set[str], name: str) -> None:
    """Moving fast and jumping as the gravity has it: in high gravity only Fast units move fast, and pay
    for it (L2053-2055); elsewhere Fast moves fast for free (L2392).  Jumping costs a Focus Point in high
    gravity (L2055), and in low gravity for a unit without Jump (L2069); nowhere else.  A game with no
    environment recorded leaves the jump to the players."""
    env = environment_of(game)
    if use == "fast_move":
        fast = has_effect(ups, FreeFastMove)
        if env == "high_gravity" and not fast:
            raise ValueError(f"in high gravity only units with Fast can move fast; {name} has none (L2053)")
        if env != "high_gravity" and fast:
            raise ValueError(f"{name} has Fast: moving fast costs it nothing (L2392)")
    if use == "jump" and env is not None:
        jumps = has_effect(ups, Jumps)
        if env == "high_gravity" and not jumps:
            raise ValueError(f"{name} has no Jump upgrade to jump with (L2404)")
        if env == "low_gravity" and jumps:
            raise ValueError(f"{name} has Jump: in low gravity only units without it pay to jump (L2069)")
        if env not in ("high_gravity", "low_gravity"):
            raise ValueError("jumping costs a Focus Point only in high or low gravity (L2055, L2069)")


class SpendInput(Closed):
    unit: str = own_unit("The unit the points are spent on.")
    use: FpUse = Field(default="other", description="What the points pay for (L770-782).")
    points: int = Field(
        default=1, ge=1, le=8, description="Points spent; more than 1 only to combine (L2537)."
    )
    quick_reflexes: bool = Field(
        default=False,
        description="A free reaction move, once a game (L2338).",
        json_schema_extra=needs("quick_reflexes"),
    )
    reaction_trigger: ReactionTrigger | None = trigger_field()
    trigger_off_log: bool = off_log_field()


def resolve_spend(game: Game, inp: SpendInput, dice: DiceSource) -> ActionResult:
    """Pay Focus Points from the side's pool; at most 1 a turn on a unit (L778), +N with Ace (L2298),
    except for combining (L2537).  A move reaction also uses up the unit's reaction (L3339)."""
    edits = Edits(game)
    pos = edits.find(inp.unit)
    name = edits.name(pos)
    if inp.points > 1 and inp.use != "combine":
        raise ValueError("only combining spends more than one Focus Point at once (L2537)")
    _gravity(game, inp.use, upgrades_of(edits.unit(pos)), name)
    if inp.use == "reaction_move":
        why = check_trigger(
            game, edits.unit(pos), inp.reaction_trigger, ref=inp.unit, off_log=inp.trigger_off_log
        )
        text = f"{name} " + react(edits, pos, inp.quick_reflexes, options_of(game).react_more_than_once)
        return ActionResult(changes=edits.changes(), text=text + f" with a move, {why}")
    if inp.quick_reflexes:
        raise ValueError("Quick Reflexes pays for a reaction (L2338)")
    spend_fp(edits, pos, inp.points, outside_cap=inp.use == "combine")
    side = game.sides[pos[0]].name
    left = edits.resource(pos[0], "focus_points")
    return ActionResult(
        changes=edits.changes(), text=f"{name} {_FP_USES[inp.use]}: {side} has {left} FP left"
    )


SPEND_FP = _TEXTS.spec("spend_fp", resolve_spend)


# --- Leader (L2326) ---------------------------------------------------------------------------


class LeaderInput(Closed):
    unit: str = own_unit("The unit with Leader (N).")
    units: list[str] = Field(
        default_factory=list,
        max_length=9,
        description="Up to N other friendly units near it (L2326).",
    )


def resolve_leader(game: Game, inp: LeaderInput, dice: DiceSource) -> ActionResult:
    """A special action giving an Evade counter to up to N friendly units within 8" (L2326)."""
    edits = Edits(game)
    pos = edits.find(inp.unit)
    can_act(edits, pos, "lead")
    n = sum(r.n for r in profile_of(edits.unit(pos)).upgrades if _grants_action([r.id], "leader"))
    if not n:
        raise ValueError(f"{edits.name(pos)} has no Leader upgrade (L2326)")
    if len(inp.units) > n or len(set(inp.units)) != len(inp.units):
        raise ValueError(f"Leader ({n}) reaches at most {n} different units (L2326)")
    names = []
    for ref in inp.units:
        other = edits.find(ref)
        if other[0] != pos[0] or other == pos or edits.get(other, "destroyed"):
            raise ValueError(f"{edits.name(other)} is not another friendly unit on the table")
        edits.set_counter(other, "evade", 1)
        names.append(edits.name(other))
    text = f"{edits.name(pos)} leads: Evade for " + (", ".join(names) or "nobody")
    return ActionResult(changes=edits.changes(), text=text)


LEADER = _TEXTS.spec("leader", resolve_leader)


# --- reserves, HALO and ambush (L1538-1570) -----------------------------------------------------


def _grants_action(ids: list[str], action: SpecialActionId) -> bool:
    return any(e.action == action for e in effects_of(ids, SpecialAction))


class ReservesInput(Closed):
    """Reserves called in: every unit nominated at once, a Pilot Skill roll each (L1546-1552)."""

    units: list[str] = Field(
        min_length=1, max_length=12, description="The reserves called, all from one side (L1548)."
    )
    halo: list[str] = Field(
        default_factory=list,
        max_length=12,
        description="Those dropping in anywhere outside the enemy zone, then scattered (L1554-1562).",
    )
    ambush: bool = Field(
        default=False,
        description="One unit arriving from ambush during the turn instead of in the End phase (L1564-1570).",
        json_schema_extra={
            "same_odds": "the same Pilot Skill roll decides; from ambush a failed roll is still placed, with "
            "no action this turn (L1564-1570)"
        },
    )
    lucky: list[str] = Field(
        default_factory=list,
        max_length=12,
        description="Lucky units among them that roll a failed Pilot Skill roll again, once per battle "
        "(L2330).",
    )


def _reserve_rules(game: Game, side: int, ambush: bool) -> None:
    """Missions that limit reserves: none in Carnage (L1675), no ambush in Investigate (L1726) or for
    Ambush's defender (L1819), Breakthrough's defender only ambushes and its attacker never (L1839)."""
    mission = game_value(game, "mission")
    attacking = side == game_value(game, "attacker_side", 0)
    if mission == "carnage":
        raise ValueError("Carnage is played without reserves (L1675)")
    if ambush and (mission == "investigate" or (mission == "ambush" and not attacking)):
        raise ValueError("nobody may ambush in this mission (L1726, L1819)")
    if mission == "breakthrough" and ambush == attacking:
        raise ValueError("Breakthrough: the defender only ambushes, the attacker never does (L1839)")


def resolve_reserves(game: Game, inp: ReservesInput, dice: DiceSource) -> ActionResult:
    edits = Edits(game)
    spots = [edits.find(ref) for ref in inp.units]
    sides = {s for s, _ in spots}
    if len(sides) != 1 or len(set(spots)) != len(spots):
        raise ValueError("call each reserve once, one side at a time (L1546)")
    if inp.ambush and len(spots) != 1:
        raise ValueError("a single unit comes out of ambush at a time (L1568)")
    if not set(inp.halo) <= set(inp.units):
        raise ValueError("a HALO drop is one of the called reserves")
    if not set(inp.lucky) <= set(inp.units):
        raise ValueError("Lucky rerolls the roll of one of the called reserves (L2330)")
    for ref in inp.lucky:
        check_lucky(edits, edits.find(ref))
    _reserve_rules(game, sides.pop(), inp.ambush)
    lines = []
    for ref, pos in zip(inp.units, spots, strict=True):
        unit = edits.unit(pos)
        ups = upgrades_of(unit)
        if not edits.has(pos, "in_reserve"):
            raise ValueError(f"{unit.name} is not in reserve")
        if inp.ambush and not has_effect(ups, Ambush):  # L1566
            raise ValueError(
                f"{unit.name} cannot ambush: it needs Cloaking, Guerrilla, Recon or Stealth (L1566)"
            )
        if ref in inp.halo and environment_of(game) == "space_structure":
            raise ValueError("nobody drops in from reserve inside a space structure (L2075)")
        drops = effects_of(ups, HaloDrop)  # L1556, L2340, L2398, L2404
        if ref in inp.halo and not drops:
            raise ValueError(f"{unit.name} cannot drop in: it needs Jump, HALO or Reckless (L1556, L2340)")
        ok, roll, luck = lucky_pilot_roll(edits, pos, dice, f"{unit.name} from reserve", ref in inp.lucky)
        face = f"{roll}{luck}"
        if not ok:
            if inp.ambush:
                edits.remove_condition(pos, "in_reserve")
                edits.set(pos, "activated", True)
                lines.append(f"{unit.name} is placed from ambush but rolled {face}: no action this turn")
            else:
                lines.append(f"{unit.name} rolled {face} and stays in reserve")
            continue
        edits.remove_condition(pos, "in_reserve")
        if inp.ambush:
            edits.set(pos, "activated", True)
            lines.append(f"{unit.name} springs its ambush (rolled {face}): one action, in obscuring terrain")
        elif ref in inp.halo:
            scatter = dice.roll(1, 6, f"{unit.name} scatter")[0]
            if any(e.scatter == "D3" for e in drops):
                scatter = halve(scatter)  # HALO's D3 (L2398, L351)
            lines.append(f'{unit.name} drops in (rolled {face}); the opponent scatters it {scatter}"')
        else:
            lines.append(f"{unit.name} arrives (rolled {face}) touching an edge of its own half")
    return ActionResult(changes=edits.changes(), text="; ".join(lines))


def reserves_odds(game: Game, inp: ReservesInput) -> ActionOdds:
    """How many of the called reserves arrive: a sum of Pilot Skill passes."""
    dist: Dist[int] = Dist.constant(0)
    for ref in inp.units:
        dist = dist + lucky_pass_dist(skill_of(game.unit(ref)[2]), ref in inp.lucky)
    return ActionOdds(tables={"arrive": table(dist)}, summary="each passes a Pilot Skill roll (L1548)")


RESERVES = _TEXTS.spec("reserves", resolve_reserves, odds=reserves_odds)


# --- activating a unit (L712-718, L784-798) ---------------------------------------------------


class ActivateInput(Closed):
    unit: str = own_unit("The unit whose activation begins.")


def resolve_activate(game: Game, inp: ActivateInput, dice: DiceSource) -> ActionResult:
    """Mark the unit activated (once a turn, L798) and say how many actions it has: two (L786), one if
    distracted, which that activation uses up (L1268, digest 11.15)."""
    edits = Edits(game)
    pos = edits.find(inp.unit)
    name = edits.name(pos)
    if edits.get(pos, "destroyed") or edits.has(pos, "in_reserve"):
        raise ValueError(f"{name} is not on the table")
    if is_structure(edits.unit(pos)):
        raise ValueError(f"{name} is a structure: it never activates (L2892, L1943)")
    if edits.get(pos, "activated"):
        raise ValueError(f"{name} has already activated this turn (L798)")
    edits.set(pos, "activated", True)
    edits.drop_extra(pos, "systems_used")  # a new activation: each weapon system once more (L1046-1050)
    actions = "two actions"
    if edits.has(pos, "distracted"):
        edits.remove_condition(pos, "distracted")
        actions = "a single action (distracted)"
    text = f"{name} activates: {actions}"
    if edits.has(pos, "shut_down"):
        text = f"{name} activates: shut down, it can only take special actions to reboot (L956-960)"
    elif edits.has(pos, "knocked_down"):
        text += "; the first must be a move to stand up (L952)"
    return ActionResult(changes=edits.changes(), text=text)


ACTIVATE = _TEXTS.spec("activate", resolve_activate)
