"""Morale (L1536-L1602): the 2D6 check, Wavering and Routed, and the roll of a Routed unit that acts."""

from __future__ import annotations

from pydantic import Field

from core.dice import DiceSource, Dist
from core.game import Game
from core.pool import table
from core.systems.base import ActionOdds, ActionResult
from core.systems.gundam_skirmish.battle import OWN, Changes, UnitInput, has, integrity_left, profile
from core.systems.gundam_skirmish.economy import budget, spend
from core.systems.gundam_skirmish.units import is_command


class MoraleInput(UnitInput):
    unit: str = Field(description="The unit checking morale.", json_schema_extra=OWN)
    near_command: bool = Field(
        default=False, description="In sight of a friendly Command unit that is not Routed (L1544-L1546)."
    )


def morale_need(game: Game, inp: MoraleInput) -> int | None:
    """2D6 needed (12 - Integrity, L1570), or None for an automatic pass (Stoic, the Command aura)."""
    _, _, g = game.unit(inp.unit)
    unit = profile(g)
    if g.state.destroyed:
        raise ValueError(f"{g.name} is destroyed")
    if unit.pilot_has("stoic") or (inp.near_command and not is_command(unit)):
        return None
    return 12 - integrity_left(g)


def morale(game: Game, inp: MoraleInput, dice: DiceSource) -> ActionResult:
    """A Morale check: pass one step up, fail one step down (L1561-L1579)."""
    s, u, g = game.unit(inp.unit)
    need = morale_need(game, inp)
    ch = Changes(game)
    state = 2 if has(g, "routed") else 1 if has(g, "wavering") else 0
    if need is None:
        passed, text = True, "passes automatically"
    else:
        faces = dice.roll(2, 6, "Morale check")
        passed = sum(faces) >= need
        text = f"{faces[0]}+{faces[1]}={sum(faces)} against {need}: {'pass' if passed else 'fail'}"
    new = max(0, state - 1) if passed else min(2, state + 1)
    ch.condition(s, u, "wavering", new == 1)
    ch.condition(s, u, "routed", new == 2)
    ch.condition(s, u, "morale_due", False)
    label = ("Steady", "Wavering", "Routed")[new]
    return ActionResult(changes=ch.list, text=f"{g.name} checks morale: {text}; now {label}")


def morale_odds(game: Game, inp: MoraleInput) -> ActionOdds:
    """P(pass) = P(2D6 >= 12 - Integrity): Integrity 5 needs 7, 21/36."""
    need = morale_need(game, inp)
    d = Dist.die(6).repeat(2).map(lambda v: int(need is None or v >= need))
    return ActionOdds(tables={"pass": table(d)}, facts={"pass": float(d.probability(1))})


def rout_roll(game: Game, inp: UnitInput, dice: DiceSource) -> ActionResult:
    """A Routed unit selected to act rolls a D6: on 1-3 it runs home and does nothing else (L1554-L1558)."""
    s, u, g = game.unit(inp.unit)
    if not has(g, "routed"):
        raise ValueError(f"{g.name} is not Routed")
    ch = Changes(game)
    face = dice.roll(1, 6, "Routed")[0]
    if face <= 3:
        spend(ch, s, u, budget(profile(g)) - g.state.counters.get("actions", 0), "rout")
        return ActionResult(
            changes=ch.list, text=f"{g.name} is Routed ({face}): it runs toward its deployment zone"
        )
    return ActionResult(changes=ch.list, text=f"{g.name} is Routed but holds ({face}): it acts as normal")
