"""The round (L23-L43): the roll-off, alternating unit turns, Return Fire, actions, Momentum.

Before each round both sides roll a d10, the higher goes first, ties roll again (L32).  The sides
then activate one unit each in turn (L40); a unit activates once a round (L26).  A unit that attacked
enemy units that have not had their turn makes the other side activate one of them next (Return
Fire, L41).  When one side has no unit left to activate, the other activates the rest in turn
(digest ambiguity 33).  Warships take their turns in a phase of their own once every other unit has had
its turn, the roll-off's winner first (L949-L951); Return Fire is owed by a warship only in that phase
(digest ambiguity 40).  A Sharp Witted Captain's warship may instead take its turn in the first phase, on
its side's turn, in place of another unit (L1081).  Each side gains 1 Momentum at the end of every round, 1
when one of its units attacks in melee on its own turn and 1 on a turn it destroys any enemy (L244-L247),
never above 10 (L243).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from pydantic import BaseModel, Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game, GameUnit
from core.systems.base import ActionResult, Change, Choice, Closed, NeedChoice, own_unit, read_options
from core.systems.mechastellar.commands import round_end_influence
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.state import MsState, MsUnitState, gain, ms_state
from core.systems.mechastellar.units import Unit, captain, total_actions

#: Conditions that last the unit's turn: Focus (L123), Full Throttle (L80), a Disengage whose second
#: Momentum an attack afterwards pays (L258), a Warning's immunity (L809: any unit's, for the turn).
#: A warship's All Weapons Fire! (L981), a Determined or Fearless Captain's +1 Accuracy (L1057) and a turn
#: about against space inertia (L883) too.
TURN_CONDITIONS = (
    "focus",
    "throttle",
    "disengaged",
    "warned",
    "expert_evasion",
    "volley",
    "steady",
    "reversed",
)
#: Conditions that last until the round ends: a warship's Target Lock (L975).
ROUND_CONDITIONS = ("target_lock",)


def check_disengage(game: Game, ref: str) -> bool:
    """Whether an attack now pays a Disengage's second Momentum (L68, L258); refused without it."""
    s, _, g = game.unit(ref)
    if "disengaged" not in g.state.conditions:
        return False
    if game.sides[s].resources.get("momentum", 0) < 1:
        raise ValueError(f"{g.name} disengaged this turn: attacking now costs 1 Momentum (L258)")
    return True


def pay_disengage(game: Game, work: Working, ref: str) -> None:
    """An attack after a Disengage this turn costs 1 more Momentum, once (L68, L258); refused without it."""
    if not check_disengage(game, ref):
        return
    s, u, _ = game.unit(ref)
    gain(work, s, "momentum", -1)
    state = work.state(s, u)
    state.conditions = [c for c in state.conditions if c != "disengaged"]


def focus_level(game: Game, g: GameUnit) -> int:
    """How many Focus actions' shot-or-hit benefit the unit has this turn (L123-L125): its own Focus and
    those a trait gives (Lone Wolf, Fighting Spirit, Heroic Spirit's two, L390, L424, L465).  They add up
    (digest ambiguity 19); the reading ``focus_once`` counts one at most.  A Focus condition the players
    set by hand counts one."""
    n = max(g.state.counters.get("focus", 0), int("focus" in g.state.conditions))
    return min(n, 1) if read_options(MsOptions, game.options).focus_once else n


def add_focus(work: Working, s: int, u: int, n: int = 1) -> None:
    """The unit gains ``n`` Focus benefits this turn (L123-L125)."""
    state = work.state(s, u)
    state.counters = {**state.counters, "focus": state.counters.get("focus", 0) + n}
    if "focus" not in state.conditions:
        state.conditions = [*state.conditions, "focus"]


def decimator_again(game: Game, side: int, g: GameUnit) -> bool:
    """A Decimator Commander activates a second time this round while its force has fewer than 10 units
    and the enemy 10 or more (L497; units not destroyed, counted as its first turn ends)."""
    if g.profile.get("commander") != "decimator" or MsUnitState.model_validate(g.state.extra).second_turn:
        return False
    enemies = [len(_live(game, o)) for o in range(len(game.sides)) if o != side]
    return len(_live(game, side)) < 10 and any(n >= 10 for n in enemies)


def _live(game: Game, side: int) -> list[GameUnit]:
    return [g for g in game.sides[side].units if not g.state.destroyed]


def _waiting(game: Game, side: int) -> list[GameUnit]:
    """Units yet to take their turn this round; not those aboard a warship (L869, L997)."""
    return [g for g in _live(game, side) if not g.state.activated and "aboard" not in g.state.conditions]


def is_ship(g: GameUnit) -> bool:
    return g.profile.get("kind") == "warship"


def mech_phase(game: Game, acted: str = "") -> bool:
    """Some unit that is not a warship has yet to take its turn this round (``acted`` aside): warships wait
    for their own phase at the round's end (L949)."""
    return any(
        not is_ship(g) and f"{s}/{g.key}" != acted for s in range(len(game.sides)) for g in _waiting(game, s)
    )


def _waiting_now(game: Game, side: int, acted: str = "") -> list[GameUnit]:
    """The side's units that may take their turn in the phase under way (``acted`` aside)."""
    ships = not mech_phase(game, acted)
    return [g for g in _waiting(game, side) if f"{side}/{g.key}" != acted and is_ship(g) == ships]


def actions_now(game: Game, g: GameUnit) -> int:
    """Actions this turn: the profile's and its bonuses (L26, L493, L504; Prodigy and Legendary +1 in
    Rounds 1, 3 and 5, L470, L475), less stun tokens (L575-L577)."""
    unit = Unit.model_validate(g.profile)
    bonus = int(game.round in (1, 3, 5) and any(t in ("prodigy", "legendary") for t in unit.pilot.traits))
    bonus += int(game.round in (1, 3, 5) and captain(unit, "legendary_captain"))  # L1072
    bonus += g.state.counters.get("bonus", 0)  # Make it Count!'s bonus action this turn (L279)
    bonus += g.state.counters.get("allout", 0)  # All-Out Attack's 3, for shooting or Power only (L348)
    return max(0, total_actions(unit) + bonus - g.state.counters.get("stun", 0))


def begin_turn(game: Game, work: Working, ref: str, influence: bool = False) -> None:
    """The unit ``ref`` acts: its turn begins now unless it is already under way.  With ``influence``, a
    Renowned or Legendary Captain's activation bonus goes to Influence instead of Momentum (L1045, L1071).

    Refused (ValueError) when the round's roll-off is not made, another unit is mid-turn, the unit
    has had its turn, it is the other side's turn, or the other side must Return Fire first.
    """
    if not check_turn(game, ref):
        return
    st = work.extra_as(MsState)
    s, u, g = game.unit(ref)
    state = work.state(s, u)
    if "shut_down" in state.conditions and not state.counters.get("stun", 0):
        state.conditions = [c for c in state.conditions if c != "shut_down"]  # reactivates (L577, L579)
    st.avenging = st.aggressor if ref in st.return_fire else ""  # Return Fire at the aggressor (L41)
    st.turn_unit, st.attacked, st.return_fire, st.kill_momentum, st.aggressor = ref, [], [], False, ""
    st.charge, st.charge_blindside, st.overwatch, st.galvanized = "", False, [], False
    st.maneuver, st.overwatch_bonus, st.secret_clash, st.shot_at = "", 0, "", []
    work.put_extra(st)
    unit = Unit.model_validate(g.profile)
    if unit.power:  # its Power may be put elsewhere now (L161): every item is free to power again
        mine = MsUnitState.model_validate(state.extra)
        mine.powered, mine.power_bonus, mine.surge = [], 0, False
        state.extra = mine.model_dump(mode="json")
    boost = sum({"renowned": 1, "legendary": 2}.get(t, 0) for t in unit.pilot.traits)  # L374, L474
    captained = captain(unit, "renowned_captain") + 2 * captain(unit, "legendary_captain")  # L1045, L1071
    if influence:
        gain(work, s, "influence", captained)
    else:
        boost += captained
    if "immortal" in unit.pilot.traits and game.round >= 2 and state.damage * 2 <= state.max_damage:
        boost += 1  # Round 2 on, at 50% HP or more (L398)
    if boost:
        gain(work, s, "momentum", boost)


def check_turn(game: Game, ref: str, spends: bool = False) -> bool:
    """Whether ``ref``'s turn begins now (False: it is under way); ValueError when it may not act.

    With ``spends``, also refused when the unit has no action left to spend (L26, L577).
    """
    st = ms_state(game)
    s, _, g = game.unit(ref)
    if spends:
        have = actions_now(game, g)
        if ("shut_down" in g.state.conditions and g.state.counters.get("stun", 0)) or have == 0:
            raise ValueError(f"{g.name} is stunned or shut down: it has no actions this turn (L577)")
        used = g.state.counters.get("actions", 0) if st.turn_unit == ref else 0
        if used >= have:
            raise ValueError(f"{g.name} has used its {have} action{'s' * (have != 1)} this turn (L26)")
    if st.turn_unit == ref:
        return False
    if not st.rolled_off:
        raise ValueError("roll off for the round first: both sides roll a d10 (L32)")
    if st.turn_unit:
        raise ValueError(f"{game.unit(st.turn_unit)[2].name} is taking its turn: end it first")
    if g.state.activated:
        raise ValueError(f"{g.name} has had its turn this round (L26)")
    if "aboard" in g.state.conditions:
        raise ValueError(f"{g.name} is aboard a warship: it acts once launched, as a round begins (L997)")
    if is_ship(g) and mech_phase(game) and not captain(Unit.model_validate(g.profile), "sharp_witted"):
        raise ValueError(
            f"{g.name} is a warship: warships act in their own phase, after every other unit (L949)"
        )
    if game.state.active_side is not None and s != game.state.active_side:
        raise ValueError(f"it is {game.sides[game.state.active_side].name}'s turn to activate a unit (L40)")
    if st.return_fire and ref not in st.return_fire:
        names = " or ".join(game.unit(r)[2].name for r in st.return_fire)
        raise ValueError(f"Return Fire: {names} must take its turn now (L41)")
    if st.coordinated and ref not in st.coordinated:
        names = " or ".join(game.unit(r)[2].name for r in st.coordinated)
        raise ValueError(f"Coordinated Attack!: {names} takes its turn now (L827)")
    return True


def round_refusal(game: Game) -> str:
    """Why the round may not end yet ("" when it may): a round is over once every unit has activated
    (L26), after the round's roll-off (L32); a unit mid-turn ends it first, Return Fire owed is a turn
    still to take (L41).  Units aboard a warship wait for their launch (L997)."""
    st = ms_state(game)
    if st.turn_unit:
        return f"{game.unit(st.turn_unit)[2].name} is taking its turn: end it first (L26)"
    if not st.rolled_off:
        return "the round has not begun: roll off, then every unit takes its turn (L26, L32)"
    if st.return_fire:
        names = " or ".join(game.unit(r)[2].name for r in st.return_fire)
        return f"Return Fire is owed: {names} takes its turn next (L41)"
    waiting = [g.name for s in range(len(game.sides)) for g in _waiting(game, s)]
    if not waiting:
        return ""
    many = len(waiting) > 1
    names = ", ".join(waiting[:-1]) + " and " + waiting[-1] if many else waiting[0]
    return (
        f"{names} {'have' if many else 'has'} not had {'their' if many else 'its'} turn: "
        "the round ends when every unit has activated (L26)"
    )


def spend_action(game: Game, work: Working, ref: str, shooting: bool = False) -> None:
    """One of the unit's actions is used; refused when it has none left (L26, L577).  All-Out Attack's
    actions go to shooting or Power only (``shooting``, L348)."""
    s, u, g = game.unit(ref)
    state = work.state(s, u)
    have = actions_now(game, g)
    if "shut_down" in state.conditions or have == 0:
        raise ValueError(f"{g.name} is stunned or shut down: it has no actions this turn (L577)")
    used = state.counters.get("actions", 0)
    allout = 0 if shooting else state.counters.get("allout", 0)
    if allout and used >= have - allout:
        raise ValueError(f"{g.name}'s All-Out Attack actions are for shooting or Power only (L348)")
    if used >= have:
        raise ValueError(f"{g.name} has used its {have} action{'s' * (have != 1)} this turn (L26)")
    state.counters = {**state.counters, "actions": used + 1}


def power_cost(unit: Unit, item: str) -> int:
    """What powering an item costs: a weapon's Power, the shield's (L159, L230), or 'move:N' N Power into a
    Full Throttle (L79)."""
    if item.startswith("move:"):
        return int(item[5:])
    return unit.shield_power if item == "shield" else unit.weapons[int(item)].power


def power_item(game: Game, work: Working, ref: str, item: str) -> None:
    """Assign a Super Titan's Power to an item until its next turn; refused beyond its Power (L159-L163)."""
    s, u, g = game.unit(ref)
    unit = Unit.model_validate(g.profile)
    state = work.state(s, u)
    mine = MsUnitState.model_validate(state.extra)
    if item in mine.powered:
        return
    used = sum(power_cost(unit, i) for i in mine.powered)
    have = max(0, unit.power - mine.power_lost) + mine.power_bonus  # an explosion's lost Power (L681)
    have += 5 * mine.surge  # All-Out Attack's +5 (L350)
    cost = power_cost(unit, item)
    if used + cost > have:
        raise ValueError(
            f"{g.name} has {have - used} Power free until its next turn; this needs {cost} (L159-L163)"
        )
    mine.powered = [*mine.powered, item]
    state.extra = mine.model_dump(mode="json")


def note_attack(game: Game, work: Working, side: int, target: str, killed: bool) -> None:
    """An attack was made: the target may owe Return Fire (L41); a kill earns Momentum once a turn (L247)."""
    st = work.extra_as(MsState)
    _, _, t = game.unit(target)
    if not t.state.activated and target not in st.attacked:
        st.attacked = [*st.attacked, target]
    if killed and not st.kill_momentum:
        st.kill_momentum = True
        gain(work, side, "momentum", 1)
    if t.profile.get("commander") == "galvanizing_display" and not st.galvanized:
        st.galvanized = True  # +1 on any turn the Commander is attacked (L494)
        gain(work, game.unit(target)[0], "momentum", 1)
    work.put_extra(st)


class RollOff(Closed):
    """Both sides roll a d10; the higher goes first; ties roll again (L32)."""


def roll_off(game: Game, inp: RollOff, dice: DiceSource) -> ActionResult:
    st = ms_state(game)
    if st.rolled_off:
        raise ValueError("the roll-off for this round is made; next round rolls again (L32)")
    sides = [i for i in range(len(game.sides)) if _live(game, i)] or list(range(len(game.sides)))
    shown: list[str] = []
    contenders = sides
    while len(contenders) > 1:
        faces = dice.roll(len(contenders), 10, "roll-off")
        shown.append(", ".join(f"{game.sides[i].name} {f}" for i, f in zip(contenders, faces, strict=True)))
        top = max(faces)
        contenders = [i for i, f in zip(contenders, faces, strict=True) if f == top]
    winner = contenders[0]
    work = Working(game)
    st.rolled_off, st.initiative, st.turn_unit, st.return_fire = True, winner, "", []
    work.put_extra(st)
    work.gstate.active_side = winner if _waiting_now(game, winner) else _next_side(game, winner)
    return ActionResult(
        changes=work.changes(),
        text=f"Roll-off: {'; then '.join(shown)}. {game.sides[winner].name} goes first",
        detail={"rolls": shown, "winner": winner},
    )


def _next_side(game: Game, side: int, acted: str = "") -> int | None:
    """Who activates next: the next side with a unit waiting in the phase under way; else this side again;
    else nobody.  When the last unit that is not a warship has had its turn, the warship phase begins with
    the side that won the roll-off (L949-L951)."""
    n = len(game.sides)
    first = ms_state(game).initiative
    starts = acted and not is_ship(game.unit(acted)[2]) and not mech_phase(game, acted)
    if starts and first is not None and _waiting_now(game, first, acted):
        return first
    for step in range(1, n + 1):
        other = (side + step) % n
        if _waiting_now(game, other, acted):
            return other
    return None


class EndTurn(Closed):
    """The unit ends its turn (or passes it): play goes to the other side (L40-L41)."""

    unit: str = own_unit("Whose turn ends.")
    penalty: Literal["momentum", "shutdown"] | None = Field(
        default=None,
        description="All-Out Attack's +5 Power: a d10 of 1-4 as the turn ends costs 3 Momentum or shuts the "
        "Titan down until its next turn (L350-L351); asked then.",
        json_schema_extra={"ui": "hidden"},
    )


def surge_check(game: Game, work: Working, inp: EndTurn, dice: DiceSource) -> str:
    """A Titan that took All-Out Attack's +5 Power rolls a d10 as its turn ends: on 1-4 its player picks
    3 Momentum lost or a shutdown until its next turn (L350-L351).  The log's words."""
    s, u, g = game.unit(inp.unit)
    if not MsUnitState.model_validate(g.state.extra).surge:
        return ""
    face = dice.roll(1, 10, "All-Out Attack")[0]
    if face > 4:
        return f"; All-Out Attack's roll {face}: no harm (L351)"
    if inp.penalty is None:
        options = [Choice(value="shutdown", label="Shut down until its next turn")]
        if game.sides[s].resources.get("momentum", 0) >= 3:
            options.insert(0, Choice(value="momentum", label="Lose 3 Momentum"))
        raise NeedChoice("penalty", f"{g.name} rolls {face} after its All-Out Attack: which price?", options)
    if inp.penalty == "momentum":
        if game.sides[s].resources.get("momentum", 0) < 3:
            raise ValueError("3 Momentum are needed to pay: the Titan shuts down (L351)")
        gain(work, s, "momentum", -3)
        return f"; All-Out Attack's roll {face}: 3 Momentum lost (L351)"
    state = work.state(s, u)
    state.conditions = (
        [*state.conditions, "shut_down"] if "shut_down" not in state.conditions else state.conditions
    )
    return f"; All-Out Attack's roll {face}: {g.name} shuts down until its next turn (L351)"


def end_turn(game: Game, inp: EndTurn, dice: DiceSource) -> ActionResult:
    """Mark the unit activated; the units it attacked that have not acted owe Return Fire (L41)."""
    work = Working(game)
    begin_turn(game, work, inp.unit)
    surged = surge_check(game, work, inp, dice)
    st = work.extra_as(MsState)
    s, u, g = game.unit(inp.unit)
    state = work.state(s, u)
    again = decimator_again(game, s, g)  # a second turn this round (L497)
    state.activated = not again
    state.conditions = [c for c in state.conditions if c not in TURN_CONDITIONS]
    # stun tokens last through this turn (L575)
    state.counters = {**state.counters, "actions": 0, "stun": 0, "focus": 0, "bonus": 0, "allout": 0}
    fresh = MsUnitState.model_validate(state.extra)
    fresh.fired, fresh.meleed, fresh.skills, fresh.choices, fresh.clashed = [], False, [], [], []
    fresh.kills, fresh.tears, fresh.fusillade, fresh.melee_gun = [], 0, [], None
    fresh.second_turn = fresh.second_turn or again
    state.extra = fresh.model_dump(mode="json")
    for os_, side in enumerate(game.sides):  # the unit turn is over: skills used in it are spent (L253)
        for ou, other in enumerate(side.units):
            mark_gone(work, os_, ou, other)
            if {"warned", "expert_evasion"} & set(other.state.conditions):  # for the turn (L710, L809)
                w_state = work.state(os_, ou)
                w_state.conditions = [c for c in w_state.conditions if c not in ("warned", "expert_evasion")]
            if MsUnitState.model_validate(other.state.extra).untouchable > 0:  # its blocks were this turn's
                u_state = work.state(os_, ou)
                spent = MsUnitState.model_validate(u_state.extra)
                spent.untouchable = 0
                u_state.extra = spent.model_dump(mode="json")
            if MsUnitState.model_validate(other.state.extra).split is not None:  # the turn's clash (L519)
                x_state = work.state(os_, ou)
                unsplit = MsUnitState.model_validate(x_state.extra)
                unsplit.split = None
                x_state.extra = unsplit.model_dump(mode="json")
            if (os_, ou) != (s, u) and MsUnitState.model_validate(other.state.extra).skills:
                o_state = work.state(os_, ou)
                mine = MsUnitState.model_validate(o_state.extra)
                mine.skills = []
                o_state.extra = mine.model_dump(mode="json")
    acted = "" if again else inp.unit
    ships_next = not mech_phase(
        game, acted
    )  # a warship owes Return Fire in its own phase only (ambiguity 40)
    owed = [
        r
        for r in st.attacked
        if not game.unit(r)[2].state.destroyed
        and not game.unit(r)[2].state.activated
        and is_ship(game.unit(r)[2]) == ships_next
    ]
    nxt = _next_side(game, s, acted)
    owed, nxt = coordinated_next(game, st, inp.unit, owed, nxt)
    st.turn_unit, st.attacked, st.kill_momentum, st.avenging = "", [], False, ""
    st.charge, st.charge_blindside, st.overwatch, st.galvanized = "", False, [], False
    st.maneuver, st.overwatch_bonus, st.secret_clash, st.shot_at = "", 0, "", []
    st.return_fire = owed if owed and nxt is not None and game.unit(owed[0])[0] == nxt else []
    st.aggressor = inp.unit if st.return_fire else ""
    work.put_extra(st)
    work.gstate.active_side = nxt
    text = f"{g.name} ends its turn" + (": as a Decimator it acts once more this round" if again else "")
    text += surged
    if st.coordinated:
        text += (
            ": Coordinated Attack!, " + " or ".join(game.unit(r)[2].name for r in st.coordinated) + " next"
        )
    elif st.return_fire:
        text += ": Return Fire by " + " or ".join(game.unit(r)[2].name for r in st.return_fire)
    elif nxt is None:
        text += "; every unit has had its turn: next round"
    else:
        text += f"; {game.sides[nxt].name} activates a unit"
    return ActionResult(changes=work.changes(), text=text)


def coordinated_next(
    game: Game, st: MsState, ended: str, owed: list[str], nxt: int | None
) -> tuple[list[str], int | None]:
    """A Coordinated Attack! under way (L827): while units are queued the side acts again and the Return
    Fire owed waits; when the last has acted, all of it is owed as usual.  The Return Fire owed and the side
    next, as they stand."""
    s = game.unit(ended)[0]
    queue = [
        r
        for r in st.coordinated
        if r != ended and not game.unit(r)[2].state.destroyed and not game.unit(r)[2].state.activated
    ]
    if queue:
        st.coordinated, st.held_fire = queue, [*st.held_fire, *(r for r in owed if r not in st.held_fire)]
        return [], s
    held = [
        r for r in st.held_fire if not game.unit(r)[2].state.destroyed and not game.unit(r)[2].state.activated
    ]
    st.coordinated, st.held_fire = [], []
    return [*held, *(r for r in owed if r not in held)], nxt


def mark_gone(work: Working, s: int, u: int, g: GameUnit) -> None:
    """A unit destroyed before this unit turn ended is gone: too late for its Last Shooting (L747)."""
    if g.state.destroyed and "gone" not in g.state.conditions:
        state = work.state(s, u)
        state.conditions = [*state.conditions, "gone"]


def new_round_changes(
    game: Game, resourceful: Sequence[int], round_end: Callable[[Game, Working], None] | None = None
) -> list[Change]:
    """Round end and the next round's start: +1 Momentum each side (L245; Resourceful +2, L496), every
    unit ready, a new roll-off due (L32); ``round_end`` does the rest of the round's end (repairs)."""
    work = Working(game)
    if round_end is not None:
        round_end(game, work)
    round_end_influence(game, work)  # +1 Influence each side, with the module on (L798)
    if read_options(MsOptions, game.options).small_scale:  # Flagship: the highest-Frame warship lives (L731)
        for s, side in enumerate(game.sides):
            ships = [g for g in side.units if is_ship(g)]
            top = max((int(g.profile.get("frame", 1)) for g in ships), default=0)
            if any(not g.state.destroyed and int(g.profile.get("frame", 1)) == top for g in ships):
                gain(work, s, "momentum", 1)
    for s in range(len(game.sides)):
        gain(work, s, "momentum", 1 + 2 * (s in resourceful))
        for u, g in enumerate(game.sides[s].units):
            mark_gone(work, s, u, g)
            state = work.state(s, u)
            state.activated = False
            state.conditions = [c for c in state.conditions if c not in TURN_CONDITIONS + ROUND_CONDITIONS]
            state.counters = {**state.counters, "actions": 0, "focus": 0, "bonus": 0, "allout": 0}
            fresh = MsUnitState.model_validate(state.extra)
            fresh.fired, fresh.meleed, fresh.skills, fresh.choices, fresh.clashed = [], False, [], [], []
            fresh.kills, fresh.tears, fresh.fusillade, fresh.melee_gun = [], 0, [], None
            fresh.second_turn = False
            fresh.untouchable = min(fresh.untouchable, 0)  # Untouchable's blocks were that turn's (L403)
            state.extra = fresh.model_dump(mode="json")
    old = ms_state(game)  # what holds for the battle stays: Gritty Battles' HP, Influence, once-a-battle
    work.put_extra(MsState(gritty_hp=old.gritty_hp, influence_given=old.influence_given, once=old.once))
    work.gstate.active_side = None
    return work.changes()


def force_points(force: Sequence[BaseModel]) -> int:
    return sum(Unit.model_validate(p.model_dump()).points for p in force)


def starting_momentum(game_size: int) -> int:
    """Momentum at the start by game size: 500 points 3, 1000 5, 1500 7, more 9 (L240-L242).

    The game's size is the standard size the larger force fits in (a 480-point force plays a 500-point
    game: digest ambiguity 15 reads the brackets as levels).

    >>> [starting_momentum(p) for p in (300, 500, 900, 1000, 1500, 1501, 2400)]
    [3, 3, 5, 5, 7, 9, 9]
    """
    for limit, momentum in ((500, 3), (1000, 5), (1500, 7)):
        if game_size <= limit:
            return momentum
    return 9
