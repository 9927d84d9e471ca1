"""The action economy (L384-L387, L1323-L1325): the Fast and Slow actions a unit has in a turn.

Every action spends its cost through :func:`spend` before it resolves, which also refuses a unit that
cannot act now: before the first turn (L278-L282), out of its player's turn (L294-L297), waiting to
Ambush, dug in; a Routed unit's D6 when it is selected to act (L1554-L1558); an Obsolete unit's
failure die (L2958-L2962); Mega Units in casual games only (L1309-L1311).
"""

from __future__ import annotations

from core.dice import DiceSource
from core.game import Game, GameUnit
from core.systems.gundam_skirmish.battle import Changes, has, opts, profile, unit_path
from core.systems.gundam_skirmish.unit_state import GsUnitState
from core.systems.gundam_skirmish.units import Unit


def budget(unit: Unit) -> int:
    """Action points a turn: 2 (two Fast or one Slow); a mobile fighter 3 (L1323-L1325)."""
    return 3 if unit.kind == "mobile_fighter" else 2


#: Why nothing is done before the first turn (L278-L282).
NOT_BEGUN = (
    "the battle has not begun: roll for priority first; the player placed first takes the first turn "
    "(L278-L282)"
)


def in_upkeep(game: Game) -> bool:
    """The player in turn is still in its Initial Upkeep: none of its units has acted yet (L286-L297)."""
    s = game.state.active_side
    return s is not None and not any(g.state.counters.get("actions", 0) for g in game.sides[s].units)


def mega_allowed(game: Game, *units: GameUnit) -> None:
    """Mega Units play in casual games only: the game's reading ``mega_units`` lets them (L1309-L1311)."""
    for gu in units:
        if profile(gu).parts is not None and not opts(game).mega_units:
            raise ValueError(
                f"{gu.name} is a Mega Unit, for casual games: allow Mega Units in the game's readings "
                "(L1309-L1311)"
            )


def rout_due(gu: GameUnit) -> bool:
    """A Routed unit that has not acted this turn rolls its D6 when selected to act (L1554-L1558)."""
    return (
        has(gu, "routed") and not gu.state.counters.get("actions", 0) and not GsUnitState.of(gu).rout_rolled
    )


def rout_die(ch: Changes, s: int, u: int, dice: DiceSource) -> str:
    """The Routed unit's D6 (L1554-L1558): on 1-3 it runs for its deployment zone at its full Movement and
    does nothing more this turn (its actions are spent); the text says so, else ""."""
    gu = ch.unit(s, u)
    face = dice.roll(1, 6, "Routed roll")[0]
    ch.extra(s, u, "rout_rolled", True)
    if face > 3:
        return ""
    ch.counter(s, u, "actions", budget(profile(gu)))
    ch.set(unit_path(s, u, "activated"), True)
    return (
        f"{gu.name} is Routed and rolls {face}: it runs toward its deployment zone at its full Movement "
        "and does nothing more this turn (L1554-L1558)"
    )


def spend(ch: Changes, s: int, u: int, cost: int, what: str, dice: DiceSource | None = None) -> str:
    """Spend a Fast (1) or Slow (2) action; the unit is Used when its actions are done (L384-L387).

    Returns why the action fails when it does (Obsolete: a 6 before any action, L2958-L2962), else "".
    """
    gu = ch.unit(s, u)
    if gu.state.destroyed or has(gu, "withdrawn"):
        raise ValueError(f"{gu.name} is out of the battle")
    mega_allowed(ch.game, gu)
    if has(gu, "reserve"):
        raise ValueError(f"{gu.name} is waiting to Ambush; it acts once it has arrived (L1267)")
    active = ch.game.state.active_side
    if active is None:
        raise ValueError(NOT_BEGUN)
    if cost and active != s:
        raise ValueError(
            f"it is {ch.game.sides[active].name}'s turn: {ch.game.sides[s].name}'s units act in their own "
            f"turn; when {ch.game.sides[active].name} is done, tap Next turn (L294-L297)"
        )
    if has(gu, "no_actions"):
        raise ValueError(f"{gu.name} can take no actions this turn")
    if has(gu, "dig_in") and what != "dig_in":
        raise ValueError(f"{gu.name} is dug in: it can only switch Dig in! off (L2851-L2854)")
    used = gu.state.counters.get("actions", 0)
    if cost == 0:
        return ""
    if dice is not None and rout_due(gu) and (fled := rout_die(ch, s, u, dice)):
        return fled
    if used + cost > budget(profile(gu)):
        raise ValueError(
            f"{gu.name} has no {'Slow' if cost == 2 else 'Fast'} action left this turn (L384-L387)"
        )
    ch.counter(s, u, "actions", used + cost)
    if used + cost >= budget(profile(gu)):
        ch.set(unit_path(s, u, "activated"), True)
    if dice is not None and profile(gu).has("obsolete"):
        face = dice.roll(1, 6, "Obsolete")[0]
        if face == 6:
            return f"{gu.name} is Obsolete: a 6, the action fails (L2958-L2962)"
    return ""
