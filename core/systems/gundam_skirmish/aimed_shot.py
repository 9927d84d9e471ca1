"""Aimed Shot (L875-L899), a Slow action: one die for a Damage Chart result the shooter picks, and its
exact odds.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Literal

from pydantic import Field

from core.dice import DiceSource, Dist
from core.game import Game, GameUnit
from core.pool import table
from core.systems.base import ActionOdds, ActionResult, Choice, NeedChoice
from core.systems.gundam_skirmish.battle import PICK, Changes, has, levels_of, opts, profile
from core.systems.gundam_skirmish.damage import ask_shield_break, mark_shield_broken
from core.systems.gundam_skirmish.economy import mega_allowed, spend
from core.systems.gundam_skirmish.shoot import (
    Ask,
    Cover,
    ShotBase,
    beam_defence,
    can_shield_break,
    cover_after,
    pick_weapon,
)
from core.systems.gundam_skirmish.shooting import CATEGORIES, CHART_MAX
from core.systems.gundam_skirmish.units import RangedWeapon


class AimedInput(ShotBase):
    """An Aimed Shot (Slow): one die for a Damage Chart result the shooter picks, no damage."""

    weapon: str = Field(
        default="",
        max_length=60,
        description="One of the shooter's weapons; empty: the equipped carried weapon, else a mounted one.",
        json_schema_extra=PICK,
    )
    cover: Cover = Field(
        default="unobstructed",
        description="Must be Unobstructed after <P> and space (L890-L892).",
        # any other answer is refused, or left Unobstructed by <P> or space: the same shot
        json_schema_extra={"same_odds": "a check: only an Unobstructed target may be aimed at"},
    )
    range: Literal["in_band", "beyond"] = Field(
        default="in_band",
        description="The target must be in range (L880).",
        json_schema_extra={"same_odds": "beyond range is refused: an Aimed Shot needs its target in range"},
    )
    result: Literal["ask", "leg", "arm", "head"] = Field(
        default="ask",
        description="The chart result the shooter picks once the die has hit (L882-L884).",
        json_schema_extra={"ui": "hidden"},  # answered through the question after the roll
    )
    shield_break: Ask = Field(
        default="ask",
        description="The target breaks its shield to cancel the result (L1121-L1128; A12).",
        json_schema_extra={"ui": "hidden"},  # answered through the question after the roll
    )


def aimed_need(game: Game, inp: AimedInput) -> tuple[int, RangedWeapon, bool]:
    s, _, a = game.unit(inp.attacker)
    ts, _, t = game.unit(inp.target)
    if s == ts or t.state.destroyed or has(t, "reserve") or has(t, "dig_in"):
        raise ValueError(f"{t.name} cannot be the target")
    mega_allowed(game, a, t)
    if profile(t).parts is not None:
        raise ValueError("no Aimed Shot at a Mega Unit (L1318)")
    w = pick_weapon(a, inp.weapon)
    if a.state.extra.get("reload", {}).get(w.name):
        raise ValueError(f"'{w.name}' must be reloaded first (L894)")
    if w.weapon_class == "explosive" or "B" in w.tags:
        raise ValueError("no Aimed Shot with an Explosive or Blast weapon (L879)")
    if inp.range != "in_band":
        raise ValueError("the target must be in range (L880)")
    if w.weapon_class == "beam" and beam_defence(profile(t)) is not None:
        raise ValueError("no Aimed Shot with a Beam weapon against an I-field or beam shield (L896-L897)")
    penetration = "P" in w.tags or has(a, "bring_them_down")
    if cover_after(game, ts, inp.cover, penetration) != "unobstructed":
        raise ValueError("the target must count as Unobstructed (L890-L892)")
    acc = w.acc
    if a.state.counters.get("arm", 0) or has(a, "acc5"):
        acc = max(acc, 5)
    if profile(t).sd:
        acc = min(6, acc + (2 if profile(a).parts is not None else 1))  # +2 for a Mega Unit (L1362-L1363)
    reroll = bool(game.sides[s].resources.get("concentrate_fire", 0))
    return max(2, acc - 1), w, reroll


def aimed_forced(game: Game, a: GameUnit, t: GameUnit) -> int:
    """Re-rolls of a successful Aimed Shot the target may force: Head Damage (A28), an SD target (L1363)."""
    head = bool(a.state.counters.get("head", 0)) and opts(game).head_damage_aimed
    return int(head) + int(profile(t).sd)


def aimed_success(need: int, reroll_fail: bool, forced: int) -> Fraction:
    """P(success): one die at ``need``+; a failure re-rolled (Concentrate Fire), then forced re-rolls."""
    p = Fraction(7 - need, 6)
    if reroll_fail:
        p = p + (1 - p) * p
    return p * Fraction(7 - need, 6) ** forced


def aimed(game: Game, inp: AimedInput, dice: DiceSource) -> ActionResult:
    need, w, reroll = aimed_need(game, inp)
    s, u, a = game.unit(inp.attacker)
    ts, tu, t = game.unit(inp.target)
    ch = Changes(game)
    if fail := spend(ch, s, u, 2, "aimed", dice):
        return ActionResult(changes=ch.list, text=fail)
    if w.reload:
        ch.extra(s, u, "reload", {**a.state.extra.get("reload", {}), w.name: True})
    faces = dice.roll(1, 6, "Aimed Shot")
    if faces[-1] < need and reroll:
        faces += dice.roll(1, 6, "Aimed Shot re-roll (Concentrate Fire)")
    for _ in range(aimed_forced(game, a, t)):
        if faces[-1] >= need:
            faces += dice.roll(1, 6, "Aimed Shot re-roll forced by the target")
    texts = [f"{a.name} aims at {t.name} with {w.name}: {'/'.join(map(str, faces))} against {need}+"]
    if faces[-1] < need:
        texts.append("no result")
        return ActionResult(changes=ch.list, text="; ".join(texts), detail={"faces": faces})
    levels = levels_of(t)
    room = [c for c in ("leg", "arm", "head") if levels[CATEGORIES.index(c)] < CHART_MAX[c]]
    if not room:
        texts.append("no chart result is left to apply")
        return ActionResult(changes=ch.list, text="; ".join(texts), detail={"faces": faces})
    rolled = f"{'/'.join(map(str, faces))} against {need}+"
    if inp.result == "ask" or inp.result not in room:
        raise NeedChoice(
            "result",
            f"The Aimed Shot hits ({rolled}). {a.name}'s player picks the Damage Chart result:",
            [
                Choice(value=c, label=f"{c.capitalize()} Level {levels[CATEGORIES.index(c)] + 1}")
                for c in room
            ],
        )
    if can_shield_break(t):
        if inp.shield_break == "ask":
            level = levels[CATEGORIES.index(inp.result)] + 1
            ask_shield_break(
                "shield_break",
                f"The Aimed Shot hits ({rolled}) for {inp.result.capitalize()} Level {level}. "
                f"{t.name}'s player decides: break its shield to cancel it?",
            )
        if inp.shield_break == "yes":
            mark_shield_broken(ch, ts, tu)
            texts.append("Shield Break cancels it")
            return ActionResult(changes=ch.list, text="; ".join(texts), detail={"faces": faces})
    i = CATEGORIES.index(inp.result)
    ch.counter(ts, tu, inp.result, levels[i] + 1)
    ch.condition(ts, tu, "morale_due", True)
    texts.append(f"{inp.result.capitalize()} Level {levels[i] + 1}")
    return ActionResult(changes=ch.list, text="; ".join(texts), detail={"faces": faces})


def aimed_odds(game: Game, inp: AimedInput) -> ActionOdds:
    need, _, reroll = aimed_need(game, inp)
    _, _, a = game.unit(inp.attacker)
    _, _, t = game.unit(inp.target)
    p = aimed_success(need, reroll, aimed_forced(game, a, t))
    d = Dist({0: p.denominator - p.numerator, 1: p.numerator}, p.denominator)
    return ActionOdds(
        tables={"chart results": table(d)}, facts={"success": float(p)}, summary=f"{need}+ on one die"
    )
