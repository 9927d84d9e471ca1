"""Ambush (L1253-L1269): a unit held in reserve tries to arrive in its player's Upkeep."""

from __future__ import annotations

from core.dice import DiceSource, Dist
from core.game import Game
from core.pool import table
from core.systems.base import ActionOdds, ActionResult
from core.systems.gundam_skirmish.battle import Changes, UnitInput, has, in_space, profile, weather
from core.systems.gundam_skirmish.economy import NOT_BEGUN, in_upkeep


def ambush(game: Game, inp: UnitInput, dice: DiceSource) -> ActionResult:
    """A unit in reserve tries to arrive: 1 fails, 2-3 the opponent places it, 4+ exact (L1258-L1264)."""
    s, u, g = game.unit(inp.unit)
    if not has(g, "reserve"):
        raise ValueError(f"{g.name} is not waiting to Ambush")
    if game.state.active_side is None:
        raise ValueError(NOT_BEGUN)
    if not in_upkeep(game):  # either player's Initial Upkeep (L1258; A29)
        raise ValueError("an Ambush is rolled in an Initial Upkeep, before the player in turn acts (L1258)")
    if in_space(game):
        raise ValueError("no Ambush in space (L1375)")
    unit = profile(g)
    ch = Changes(game)
    if unit.pilot_has("ambusher") or unit.has("hydrojets"):
        ch.condition(s, u, "reserve", False)
        return ActionResult(
            changes=ch.list, text=f"{g.name} arrives exactly where chosen, no roll (L1960, L2917)"
        )
    rolled = face = dice.roll(1, 6, "Ambush")[0]
    if weather(game) == "dense_minovsky":  # 1-3 fail, 4-5 within 12", 6 exact (L3310-L3311)
        face = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 6}[face]
    if face == 1:
        return ActionResult(
            changes=ch.list, text=f"{g.name}'s ambush fails ({rolled}): try again in a later Upkeep"
        )
    ch.condition(s, u, "reserve", False)
    where = 'the opponent places it within 12" of the spot' if face <= 3 else "it arrives exactly on the spot"
    return ActionResult(changes=ch.list, text=f"{g.name} ambushes ({rolled}): {where}")


def ambush_odds(game: Game, inp: UnitInput) -> ActionOdds:
    if weather(game) == "dense_minovsky":
        d = Dist.die(6).map(lambda f: 0 if f <= 3 else 1 if f <= 5 else 2)
    else:
        d = Dist.die(6).map(lambda f: 0 if f == 1 else 1 if f <= 3 else 2)
    return ActionOdds(
        tables={"0 fails, 1 moved by the opponent, 2 exact": table(d)},
        facts={"arrives": float(1 - d.probability(0))},
    )
