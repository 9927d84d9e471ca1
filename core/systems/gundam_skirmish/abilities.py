"""Abilities used as actions (L402-L407, L2766-L3030) and the pilot's Mechanic trait (L1978-L1979)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from core.dice import DiceSource, Dist
from core.game import Game
from core.pool import table
from core.systems.base import ActionOdds, ActionResult, Choice, NeedChoice
from core.systems.gundam_skirmish.battle import ENEMY, PICK, Changes, UnitInput, has, profile
from core.systems.gundam_skirmish.catalogue import ALL_ENTRIES
from core.systems.gundam_skirmish.economy import spend

ROLLED = {
    "grapple_hook": (5, "no_actions"),
    "heat_wire": (5, "no_actions"),
    "heat_rod": (5, "no_carried"),
    "scatter_beam": (4, "acc5"),
}


class AbilityInput(UnitInput):
    ability: str = Field(
        description="One of the unit's active abilities, or its pilot's Mechanic trait.",
        json_schema_extra=PICK,
    )
    target: str = Field(default="", description="Its target, where it has one.", json_schema_extra=ENEMY)
    category: Literal["", "leg", "arm", "head"] = Field(
        default="",
        description="Mechanic: the level removed.",
        json_schema_extra={"same_odds": "which level Mechanic repairs; it rolls no dice (L1978-L1979)"},
    )


def ability(game: Game, inp: AbilityInput, dice: DiceSource) -> ActionResult:
    """An Active ability as a Fast action, or the Mechanic trait (Slow, once per battle)."""
    s, u, g = game.unit(inp.unit)
    unit = profile(g)
    ch = Changes(game)
    once = list(g.state.extra.get("once", []))
    key = inp.ability
    if key == "mechanic":
        if not unit.pilot_has("mechanic") or "mechanic" in once:
            raise ValueError("Mechanic: a pilot with the trait, once per battle (L1978-L1979)")
        if fail := spend(ch, s, u, 2, key, dice):
            return ActionResult(changes=ch.list, text=fail)
        levels = [c for c in ("leg", "arm", "head") if g.state.counters.get(c, 0)]
        cat = inp.category or (levels[0] if len(levels) == 1 else "")
        if not cat:
            raise NeedChoice(
                "category", "Remove which damage level?", [Choice(value=c, label=c) for c in levels]
            )
        ch.counter(s, u, cat, max(0, g.state.counters.get(cat, 0) - 1))
        ch.extra(s, u, "once", [*once, "mechanic"])
        return ActionResult(changes=ch.list, text=f"{g.name}'s pilot repairs one level of {cat} damage")
    entry = ALL_ENTRIES["ability"].get(key)
    if entry is None or not unit.has(key):
        raise ValueError(f"{g.name} has no ability '{key}'")
    if entry.kind != "active" and key not in ("deploy_funnels",):
        raise ValueError(f"{entry.name} is passive: it works by itself (L402-L407)")
    if fail := spend(ch, s, u, 0 if key == "dig_in" and has(g, "dig_in") else 1, key, dice):
        return ActionResult(changes=ch.list, text=fail)
    if key in ("dig_in", "flight_mode"):
        on = not has(g, key)
        ch.condition(s, u, key, on)
        return ActionResult(changes=ch.list, text=f"{g.name}: {entry.name} {'on' if on else 'off'}")
    if key in ("extra_tank", "afterburner"):
        if key == "extra_tank" and "extra_tank" in once:
            raise ValueError("Extra Tank is used once per battle (L2866)")
        ch.extra(s, u, "once", [*once, key])
        return ActionResult(changes=ch.list, text=f"{g.name}: {entry.name} ({entry.help})")
    if key in ROLLED:
        need, effect = ROLLED[key]
        ts, tu, t = game.unit(inp.target) if inp.target else (-1, -1, None)
        if t is None or ts == s:
            raise ValueError(f'{entry.name} needs an enemy target within 12"')
        face = dice.roll(1, 6, entry.name)[0]
        if face >= need:
            ch.condition(ts, tu, effect, True)
        return ActionResult(
            changes=ch.list,
            text=f"{g.name}: {entry.name} on {t.name}, {face} ({need}+): "
            + ("it works" if face >= need else "no effect"),
        )
    return ActionResult(changes=ch.list, text=f"{g.name} uses {entry.name}: {entry.by_hand or entry.help}")


def ability_odds(game: Game, inp: AbilityInput) -> ActionOdds:
    need = ROLLED.get(inp.ability, (0, ""))[0]
    if not need:
        raise ValueError("this ability rolls no dice")
    d = Dist.die(6).map(lambda f: int(f >= need))
    return ActionOdds(tables={"works": table(d)}, facts={"success": float(d.probability(1))})
