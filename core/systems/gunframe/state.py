"""Reading and changing a GUNFRAME game's tracked state.

Every action builds its changes with an :class:`Edits`: it reads the current
values (with the edits made so far), and emits one :class:`Change` per value it
touched.  Lists and dicts (conditions, counters, ``extra``) are replaced whole,
so undoing the event restores them exactly.

What a unit keeps in ``state.extra`` (runtime state of digest 2.4: power points held, Focus Points
spent, this turn's flags, once-a-battle uses, its form...) is typed by
:class:`~core.systems.gunframe.unit_state.GfUnitState`, which describes every key.
"""

from __future__ import annotations

import copy
import math
from typing import TYPE_CHECKING, Any

from core.changes import Working, working_copy
from core.dice import DiceSource, Dist
from core.pool import PoolSpec, cancel, roll_pool
from core.systems.base import Change
from core.systems.gunframe.building import GunframeUnit, all_forms, form_upgrades, weapon_upgrades
from core.systems.gunframe.catalogue import FRAMES
from core.systems.gunframe.effects import FocusCapPerRank, FreeReactionOnce, HalvesFallingHits, LuckyReroll
from core.systems.gunframe.unit_state import GfUnitState
from core.systems.gunframe.upgrades import has_effect
from core.systems.gunframe.wide import GAME_KEYS, end_game, read, write

if TYPE_CHECKING:
    from core.game import Game, GameUnit

Pos = tuple[int, int]

#: Per-turn values cleared at the start of every turn (L740, L776-782, L1358, L1385, L3339), and a Split
#: Fire still being shared out (L2462).
TURN_FLAGS: dict[str, Any] = {
    "fp_spent": 0,
    "reacted": False,
    "locked": False,
    "evaded": False,
    "split": None,
    "systems_used": None,
}


def profile_of(unit: GameUnit) -> GunframeUnit:
    return GunframeUnit.model_validate(unit.profile)


def form_of(unit: GameUnit) -> int:
    form = GfUnitState.of(unit).form
    return form if form < len(all_forms(profile_of(unit))) else 0


def upgrades_of(unit: GameUnit) -> set[str]:
    """Upgrade ids the unit has in its current form (pilot ones included)."""
    return set(form_upgrades(profile_of(unit), form_of(unit)))


def weapon_ups(unit: GameUnit, weapon: str) -> set[str]:
    return weapon_upgrades(profile_of(unit), form_of(unit))[weapon]


def upgrade_n(unit: GameUnit, uid: str) -> int:
    """How many times an (N) upgrade was bought (0 if the unit lacks it)."""
    return sum(r.n for r in profile_of(unit).upgrades if r.id == uid)


def defense_value(unit: GameUnit) -> int:
    return all_forms(profile_of(unit))[form_of(unit)].defense


def is_conventional(unit: GameUnit) -> bool:
    """Infantry, tanks and flyers (L2597); they never make Focus Points (L764)."""
    return FRAMES[profile_of(unit).frame].conventional


def is_convoy(unit: GameUnit) -> bool:
    """An Escort convoy vehicle the mission brought into the game (L1886-1895), marked in its state
    (``extra["mission_unit"]``) since it belongs to no squad."""
    return GfUnitState.of(unit).mission_unit == "convoy"


def is_structure(unit: GameUnit) -> bool:
    """A structure placed in the game (L2884-2955): a terrain feature kept as a unit of a side so it can
    be attacked, never a unit for Focus Points, attrition, panic or groups."""
    return bool(unit.profile.get("structure"))


class Edits:
    """Changes to a game under construction; reads see the edits made so far.

    The edits are made on the shared working copy (:class:`core.changes.Working`) and come out as
    changes by the shared diff; :attr:`game` and :meth:`unit` stay the game as it was.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.work = Working(game)
        self.notes: list[str] = []

    # -- units ------------------------------------------------------------------------
    def find(self, ref: str) -> Pos:
        s, u, _ = self.game.unit(ref)
        return s, u

    def unit(self, pos: Pos) -> GameUnit:
        return self.game.sides[pos[0]].units[pos[1]]

    def name(self, pos: Pos) -> str:
        return self.unit(pos).name

    def get(self, pos: Pos, field: str) -> Any:
        return getattr(self.work.state(*pos), field)

    def set(self, pos: Pos, field: str, value: Any) -> None:
        setattr(self.work.state(*pos), field, value)

    def has(self, pos: Pos, condition: str) -> bool:
        return condition in self.get(pos, "conditions")

    def add_condition(self, pos: Pos, condition: str) -> None:
        conditions = list(self.get(pos, "conditions"))
        if condition not in conditions:
            self.set(pos, "conditions", [*conditions, condition])

    def remove_condition(self, pos: Pos, condition: str) -> None:
        conditions = list(self.get(pos, "conditions"))
        if condition in conditions:
            self.set(pos, "conditions", [c for c in conditions if c != condition])

    def counter(self, pos: Pos, key: str) -> int:
        return int(self.get(pos, "counters").get(key, 0))

    def set_counter(self, pos: Pos, key: str, value: int) -> None:
        self.set(pos, "counters", {**self.get(pos, "counters"), key: value})

    def extra(self, pos: Pos, key: str, default: Any = None) -> Any:
        return self.get(pos, "extra").get(key, default)

    def set_extra(self, pos: Pos, key: str, value: Any) -> None:
        self.set(pos, "extra", {**self.get(pos, "extra"), key: copy.deepcopy(value)})

    def drop_extra(self, pos: Pos, key: str) -> None:
        extra = dict(self.get(pos, "extra"))
        if key in extra:
            del extra[key]
            self.set(pos, "extra", extra)

    def armour_left(self, pos: Pos) -> int:
        return int(self.get(pos, "max_damage")) - int(self.get(pos, "damage"))

    def damage(self, pos: Pos, amount: int) -> bool:
        """Take ``amount`` damage (L1176); True if it destroys the unit at Armour 0 (L1182)."""
        if amount <= 0 or self.get(pos, "destroyed"):
            return False
        top = int(self.get(pos, "max_damage"))
        new = min(top, int(self.get(pos, "damage")) + amount)
        self.set(pos, "damage", new)
        if new >= top:
            self.set(pos, "destroyed", True)
            return True
        return False

    # -- sides and game -----------------------------------------------------------------
    def resource(self, side: int, key: str) -> int:
        return int(self.work.resources(side).get(key, 0))

    def set_resource(self, side: int, key: str, value: int) -> None:
        self.work.resources(side)[key] = value

    def option(self, key: str, default: Any = None) -> Any:
        """A reading of :mod:`.options`, or a game-wide value by name (in ``Game.state``, :mod:`.wide`)."""
        if key in GAME_KEYS:
            return read(self.work.gstate, key, default)
        return self.work.options.get(key, default)

    def set_option(self, key: str, value: Any) -> None:
        if key in GAME_KEYS:
            write(self.work.gstate, key, value)
        else:
            self.work.options[key] = copy.deepcopy(value)

    def end_game(self, winner: int | None, result: str) -> None:
        """The game is over: its winner (None for a draw) and how it ended (:func:`.wide.end_game`)."""
        end_game(self.work.gstate, winner, result)

    def preview(self) -> Game:
        """The game as it will be once these edits are applied (a copy, free to change)."""
        return working_copy(self.work.game)

    def changes(self) -> list[Change]:
        return self.work.changes()


# --- Focus Points on a unit (L776-782, L2298) ---------------------------------------------


def fp_cap(unit: GameUnit) -> int:
    """Focus Points that may be spent on it in one turn: 1 (L778), +N for Ace (N) (L2298)."""
    return 1 + sum(r.n for r in profile_of(unit).upgrades if has_effect([r.id], FocusCapPerRank))


def spend_fp(edits: Edits, pos: Pos, amount: int = 1, outside_cap: bool = False) -> None:
    """Pay Focus Points from the unit's side for it; ValueError when the pool or its cap is short."""
    side = pos[0]
    pool = edits.resource(side, "focus_points")
    if pool < amount:
        raise ValueError(
            f"{edits.game.sides[side].name} has {pool} Focus Point(s) left, {amount} needed (L774)"
        )
    spent = int(edits.extra(pos, "fp_spent", 0))
    if not outside_cap and spent + amount > fp_cap(edits.unit(pos)):
        raise ValueError(
            f"{edits.name(pos)} already had {spent} Focus Point(s) spent on it this turn; "
            f"its limit is {fp_cap(edits.unit(pos))} (L778, L2298)"
        )
    edits.set_resource(side, "focus_points", pool - amount)
    if not outside_cap:
        edits.set_extra(pos, "fp_spent", spent + amount)


def react(edits: Edits, pos: Pos, free: bool, more_than_once: bool) -> str:
    """A reaction (L1414-1428): unactivated, not down, not yet reacted, and 1 FP unless Quick Reflexes."""
    name = edits.name(pos)
    if edits.get(pos, "activated"):
        raise ValueError(f"{name} has already activated this turn and cannot react (L1422)")
    if edits.extra(pos, "reacted", False) and not more_than_once:
        raise ValueError(f"{name} has already reacted this turn (L3339)")
    if edits.has(pos, "knocked_down"):
        raise ValueError(f"{name} is knocked down and cannot react (L950)")
    if edits.has(pos, "shut_down"):
        raise ValueError(f"{name} is shut down and can do nothing until it reboots (L956)")
    edits.set_extra(pos, "reacted", True)
    if free:
        used = list(edits.extra(pos, "used", []))
        if not has_effect(upgrades_of(edits.unit(pos)), FreeReactionOnce):
            raise ValueError(f"{name} has no Quick Reflexes (L2338)")
        if "quick_reflexes" in used:
            raise ValueError(f"{name} has used its Quick Reflexes already (L2338)")
        edits.set_extra(pos, "used", [*used, "quick_reflexes"])
        return "reacts for free (Quick Reflexes)"
    spend_fp(edits, pos)
    return "reacts for 1 FP"


def can_act(edits: Edits, pos: Pos, what: str) -> None:
    """An ordinary action: not by a wreck, a shut-down unit (L956) or one lying down (L952)."""
    name = edits.name(pos)
    if edits.get(pos, "destroyed"):
        raise ValueError(f"{name} is destroyed")
    if edits.has(pos, "shut_down"):
        raise ValueError(f"{name} is shut down: it can only reboot (L956)")
    if edits.has(pos, "knocked_down"):
        raise ValueError(f"{name} must stand up with a move action before it can {what} (L952)")


# --- small dice procedures -----------------------------------------------------------------


def skill_of(unit: GameUnit) -> int:
    return profile_of(unit).skill


def pilot_roll(unit: GameUnit, dice: DiceSource, purpose: str) -> tuple[bool, int]:
    """A Pilot Skill roll: one die, passed on the skill number or more (L555-563)."""
    face = dice.roll(1, 6, purpose)[0]
    return face >= skill_of(unit), face


def pass_chance(skill: int) -> float:
    return (7 - skill) / 6


def check_lucky(edits: Edits, pos: Pos) -> None:
    """A unit may use Lucky (L2330): it has the upgrade and has not spent it this battle."""
    name = edits.name(pos)
    if not has_effect(upgrades_of(edits.unit(pos)), LuckyReroll):
        raise ValueError(f"{name} is not Lucky (L2330)")
    if "lucky" in (edits.extra(pos, "used", []) or []):
        raise ValueError(f"{name} has used its Lucky reroll already (L2330)")


def lucky_pilot_roll(
    edits: Edits, pos: Pos, dice: DiceSource, purpose: str, lucky: bool
) -> tuple[bool, int, str]:
    """A Pilot Skill roll (L555-563) that a Lucky unit rolls again when it fails, once per battle (L2330):
    its one die is the dice it picks, and a player rerolls only a failure.  Lucky is spent only when
    used.  Returns the result, the face that stands and a note for the log."""
    unit = edits.unit(pos)
    ok, face = pilot_roll(unit, dice, purpose)
    if ok or not lucky:
        return ok, face, ""
    edits.set_extra(pos, "used", [*(edits.extra(pos, "used", []) or []), "lucky"])
    again = dice.roll(1, 6, f"{purpose} (Lucky)")[0]
    return again >= skill_of(unit), again, f" (Lucky: {face} rolled again)"


def lucky_pass_dist(skill: int, lucky: bool) -> Dist[int]:
    """1 for a pass, 0 for a fail, of a Pilot Skill roll a Lucky unit rolls again on a fail (L2330),
    exactly as :func:`lucky_pilot_roll` resolves it.

    >>> lucky_pass_dist(4, True).probability(1)
    Fraction(3, 4)
    """
    once = Dist.die(6).map(lambda face: int(face >= skill))
    if not lucky:
        return once
    return Dist.die(6).bind(lambda face: Dist.constant(1).scale(6) if face >= skill else once)


def hits_dist(hits: int, defense: int) -> Dist[int]:
    """Damage from ``hits`` automatic hits met by ``defense`` dice saving on 4+ (L1154-1176)."""
    if defense <= 0:
        return Dist.constant(hits)
    saves = PoolSpec(dice=defense, success_on=4).dist().map(lambda k: k[0])
    return saves.map(lambda s: cancel(hits, s))


def roll_hits(hits: int, defense: int, dice: DiceSource, purpose: str) -> tuple[int, list[int]]:
    """Roll ``defense`` dice against ``hits``: the damage, and the faces shown."""
    if defense <= 0 or hits <= 0:
        return max(0, hits), []
    roll = roll_pool(PoolSpec(dice=defense, success_on=4), dice, purpose)
    return cancel(hits, roll.successes), [d.final for d in roll.dice]


def halve(value: int) -> int:
    """Halving always rounds up (L355-357)."""
    return math.ceil(value / 2)


def fall_hits(edits: Edits, pos: Pos, inches: int) -> int:
    """The hits of a fall of ``inches`` (L898-900): one an inch; high gravity doubles them (L2059), low
    gravity halves them (L2065), Reckless halves them too (L2340), each halving rounding up; none in
    space (L2808)."""
    env = edits.option("environment")
    if env == "space":
        return 0
    hits = inches * 2 if env == "high_gravity" else inches
    if env == "low_gravity":
        hits = halve(hits)
    if has_effect(upgrades_of(edits.unit(pos)), HalvesFallingHits):
        hits = halve(hits)
    return hits


def fall_defense(edits: Edits, pos: Pos) -> int:
    """The defense dice against a fall: the full Defense, even when shut down (L900: an unmodified
    roll; a fall is not an attack, L958), halved only under the named option."""
    defense = defense_value(edits.unit(pos))
    if edits.has(pos, "shut_down") and edits.option("fall_defense_halved_when_shut_down"):
        defense = halve(defense)
    return defense


def fall(edits: Edits, pos: Pos, dice: DiceSource, inches: int = 8, how: str = "") -> str:
    """A fall of ``inches`` (L898-900): hits per inch (:func:`fall_hits`), a plain defense roll
    (:func:`fall_defense`), knocked down if hurt (L900).  A flyer knocked down or shut down lands as if
    it fell 8" (L926), the default; ``how`` says where from otherwise (a ledge, L898)."""
    unit = edits.unit(pos)
    if not how:
        edits.remove_condition(pos, "flying")
    if edits.option("environment") == "space":
        return f"{unit.name} drifts down unharmed: no falling damage in space"
    hits = fall_hits(edits, pos, inches)
    damage, _ = roll_hits(hits, fall_defense(edits, pos), dice, f"{unit.name} falls")
    destroyed = edits.damage(pos, damage)
    if damage and not destroyed:
        edits.add_condition(pos, "knocked_down")
    text = f"{unit.name} falls {how or 'from the sky'}: {hits} hits, {damage} damage"
    return text + (", destroyed" if destroyed else "")
