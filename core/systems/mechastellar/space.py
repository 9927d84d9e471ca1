"""Outmaneuver and the Bridge Attack (L906-L940), in a battle in space (the reading ``space``).

Before an attack on a target within 10" (the players measure, and spend the 10" of Move, L908), both
sides roll 5d10 (L909): +1 die for the Battler, Interceptor or Melee role (L910), +1 for a Move 5" above
the other's, +2 for 10" above (from the profiles, L911-L912), +1 for the defender with an allied warship
within 16" (the players say so, L913), -2 for an attacker making a melee attack on a warship (L914).  A
die of 5+ is a success and a 10 two; 4+ and 9-10 for a Skilled pilot or captain; 3+ and 8-10 for an Ace
or a Battle Hardened captain (L915-L917).  A Three Times as Fast! Commander rolls up to three failed
dice again, as its evade dice (L918, L486).  A tie ends it (L919; digest ambiguity 29: the attack goes
on without advantage).

Outmaneuver (the target is not a warship): the attacker who wins has Tactical Advantage on its attacks on
the target this turn, a Blindside by 3 or more (L923-L924); the defender who wins fires an Overwatch
attack at the attacker with 3 more shots, 3 shots with a weapon without Overwatch (L925-L926).  Bridge
Attack (a warship): the attacker who wins Blindsides it with +3 ARM PEN this turn, and the ship keeps
Accuracy -2 (its Blindside from attacks within 16": the players' choice on the attack) (L930-L931); the
defender who wins deals 500 damage to the attacker for each AA DEF die (L932).  The roll itself needs no
action.  Space movement, hangars, launch, repairs and the warship phase: not yet.
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource, Dist
from core.game import Game
from core.pool import table
from core.steps import FacePool
from core.systems.base import ActionOdds, ActionResult, Closed, enemy_unit, own_unit, read_options
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.state import MsState, dice_words
from core.systems.mechastellar.traits import on_kill
from core.systems.mechastellar.turns import begin_turn, check_turn, note_attack
from core.systems.mechastellar.units import Unit, tier_rank

#: Dice each side starts with (L909).
BASE_DICE = 5
#: Roles worth a die (L910).
AGILE_ROLES = ("battler", "interceptor", "melee")
#: Damage a Bridge Attack's defender deals for each AA DEF die (L932).
AA_DAMAGE = 500


def space_module(game: Game, ref: str) -> str:
    """The requirement ``space``: the battle is in space ("" when it is)."""
    return "" if read_options(MsOptions, game.options).space else "the battle is not in space"


class Outmaneuver(Closed):
    """Outmaneuver a unit, or make an attack run on a warship's bridge, before an attack (L906-L932)."""

    attacker: str = own_unit("Who tries it.")
    target: str = enemy_unit("Whom it tries it on.")
    escort: bool = Field(
        default=False,
        description='The target has an allied warship within 16": +1 die (L913).',
        json_schema_extra={"flow": "common"},
    )
    melee: bool = Field(
        default=False,
        description="The attack to follow is a melee attack on a warship: -2 dice (L914).",
        json_schema_extra={"flow": "common"},
    )


def _pool(unit: Unit, other: Unit, dice: int) -> FacePool:
    """One side's dice: its number, the faces by tier (L915-L917), a Three Times as Fast! reroll."""
    rank = tier_rank(unit)
    hit, double = (5, 10) if rank == 0 else (4, 9) if rank == 1 else (3, 8)
    values = tuple(2 if f >= double else int(f >= hit) for f in range(1, 11))
    if unit.commander == "three_times_as_fast" and unit.kind != "warship":
        misses = tuple(f for f in range(1, 11) if not values[f - 1])
        return FacePool(dice=dice, sides=10, values=values, reroll_faces=misses, reroll_limit=3)
    return FacePool(dice=dice, sides=10, values=values)


def pools(game: Game, inp: Outmaneuver) -> tuple[FacePool, FacePool, Unit, Unit]:
    a_side, _, a_g = game.unit(inp.attacker)
    t_side, _, t_g = game.unit(inp.target)
    if a_side == t_side:
        raise ValueError("pick an enemy unit")
    if t_g.state.destroyed:
        raise ValueError(f"{t_g.name} is already destroyed")
    att, tgt = Unit.model_validate(a_g.profile), Unit.model_validate(t_g.profile)
    if inp.melee and tgt.kind != "warship":
        raise ValueError("the -2 dice are for a melee attack on a warship (L914)")

    def dice(me: Unit, foe: Unit) -> int:
        faster = me.move - foe.move
        return BASE_DICE + any(r in AGILE_ROLES for r in me.roles) + (2 if faster >= 10 else faster >= 5)

    a_dice = max(0, dice(att, tgt) - 2 * inp.melee)
    t_dice = dice(tgt, att) + inp.escort
    return _pool(att, tgt, a_dice), _pool(tgt, att, t_dice), att, tgt


def margin(a: FacePool, d: FacePool) -> Dist[int]:
    """The attacker's successes less the defender's, exactly."""
    return a.dist().combine(d.dist(), lambda x, y: x - y)


def outmaneuver_odds(game: Game, inp: Outmaneuver) -> ActionOdds:
    a, d, _, tgt = pools(game, inp)
    m = margin(a, d)
    win = sum((p for k, p in m.probabilities() if k > 0), Fraction(0))
    lose = sum((p for k, p in m.probabilities() if k < 0), Fraction(0))
    big = sum((p for k, p in m.probabilities() if k >= 3), Fraction(0))
    name = "Bridge Attack" if tgt.kind == "warship" else "Outmaneuver"
    return ActionOdds(
        tables={"lead": table(m.map(lambda k: max(0, k)))},
        facts={"attacker wins": float(win), "by 3 or more": float(big), "defender wins": float(lose)},
        summary=f"{name}: {a.dice} dice against {d.dice}",
    )


def outmaneuver(game: Game, inp: Outmaneuver, dice: DiceSource) -> ActionResult:
    why = space_module(game, inp.attacker)
    if why:
        raise ValueError(why)
    check_turn(game, inp.attacker)
    a, d, _, tgt = pools(game, inp)
    a_side, a_i, a_g = game.unit(inp.attacker)
    t_side, t_i, t_g = game.unit(inp.target)
    st0 = MsState.model_validate(game.state.extra)
    if st0.turn_unit == inp.attacker and st0.maneuver:
        raise ValueError(f"{a_g.name} has tried it this turn")
    a_roll = a.roll(dice, "attacker's maneuver")
    d_roll = d.roll(dice, "defender's maneuver")
    lead = a_roll.total - d_roll.total
    work = Working(game)
    begin_turn(game, work, inp.attacker)
    st = work.extra_as(MsState)
    bridge = tgt.kind == "warship"
    text = (
        f"{'Bridge Attack' if bridge else 'Outmaneuver'}: "
        f"{a_g.name} {dice_words(a_roll.final)} = {a_roll.total}, "
        f"{t_g.name} {dice_words(d_roll.final)} = {d_roll.total}"
    )
    if lead > 0:
        st.maneuver = f"{inp.target}|{'bridge' if bridge else 'blindside' if lead >= 3 else 'advantage'}"
        if bridge:
            t_state = work.state(t_side, t_i)
            if "bridge_hit" not in t_state.conditions:
                t_state.conditions = [*t_state.conditions, "bridge_hit"]
            text += (
                f": {a_g.name} Blindsides it with +3 ARM PEN this turn; the ship has Accuracy -2 (L930-L931)"
            )
        else:
            kind = "a Blindside" if lead >= 3 else "Tactical Advantage"
            text += f": {a_g.name} has {kind} on its attacks on {t_g.name} this turn (L923-L924)"
    elif lead < 0:
        st.maneuver = f"{inp.target}|lost"
        if bridge:
            hurt = AA_DAMAGE * tgt.aa_def
            a_state = work.state(a_side, a_i)
            a_state.damage = min(a_state.max_damage, a_state.damage + hurt)
            killed = a_state.damage >= a_state.max_damage
            a_state.destroyed = a_state.destroyed or killed
            text += f": the ship's AA DEF deals {hurt} to {a_g.name} (L932)"
            if killed:
                on_kill(game, work, inp.target, inp.attacker)
                text += f", {a_g.name} is destroyed"
                work.put_extra(st)
                note_attack(game, work, t_side, inp.attacker, True)
                return ActionResult(changes=work.changes(), text=text, detail={"lead": lead})
        else:
            st.charge, st.charge_blindside, st.overwatch, st.overwatch_bonus = inp.target, False, [], 3
            text += f": {t_g.name} fires an Overwatch attack with 3 more shots (L925-L926)"
    else:
        st.maneuver = f"{inp.target}|tie"
        text += ": a tie, no advantage (L919)"
    work.put_extra(st)
    return ActionResult(changes=work.changes(), text=text, detail={"lead": lead})


def maneuver_gain(game: Game, attacker: str, target: str) -> str:
    """What this turn's Outmaneuver or Bridge Attack gives the attacker against the target: 'advantage',
    'blindside', 'bridge' or ''."""
    st = MsState.model_validate(game.state.extra)
    if st.turn_unit != attacker or not st.maneuver.startswith(f"{target}|"):
        return ""
    result = st.maneuver.split("|", 1)[1]
    return result if result in ("advantage", "blindside", "bridge") else ""


__all__ = ["Outmaneuver", "maneuver_gain", "outmaneuver", "outmaneuver_odds", "space_module"]
