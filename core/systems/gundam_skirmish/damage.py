"""Damage (L1094-L1145): Integrity lost, Damage Chart rolls (L1108-L1119), Shield Break (L1121-L1128),
destruction and the Destruction Table (L1132-L1145), the kill scored and the morale it triggers, and
the parts of a Mega Unit (L1312-L1318).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

from core.dice import DiceSource
from core.game import GameUnit
from core.systems.base import Choice, NeedChoice
from core.systems.gundam_skirmish.battle import Changes, chart_for, has, levels_of, profile, unit_path
from core.systems.gundam_skirmish.mega import (
    LEVEL_COUNTER,
    LOCATION,
    PARTS,
    MegaParts,
    Part,
    counter,
    lost,
    part_level,
)
from core.systems.gundam_skirmish.shooting import CATEGORIES, OTHER_CHART, FacesRoll, Levels, chart_chain
from core.systems.gundam_skirmish.units import unit_cost


def mega_damage(gu: GameUnit) -> dict[Part, int]:
    """A Mega Unit's damage, part by part, as the game keeps it (``state.counters['mega_<part>']``)."""
    return {p: gu.state.counters.get(counter(p), 0) for p in PARTS}


def destroy(ch: Changes, s: int, u: int, dice: DiceSource, texts: list[str]) -> None:
    """A unit at 0 Integrity or hit in the Torso: Core Block, then the Destruction Table (L1132-L1145)."""
    gu = ch.unit(s, u)
    unit = profile(gu)
    if unit.has("exam"):
        face = dice.roll(1, 6, "EXAM System")[0]
        if face >= 5:  # back to half Integrity, rounded down, at least 1 (L3261-L3263; A40)
            ch.set(unit_path(s, u, "damage"), gu.state.max_damage - max(1, gu.state.max_damage // 2))
            texts.append(f"EXAM System {face}: {gu.name} comes back at half Integrity (L3261-L3263)")
            return
        texts.append(f"EXAM System {face}: no effect")
    ch.set(unit_path(s, u, "destroyed"), True)
    if unit.has("core_block"):
        face = dice.roll(1, 6, "Core Block System")[0]
        if face >= 4:
            texts.append(f"{gu.name} is destroyed; Core Block System {face}: the pilot escapes (L2836-L2838)")
            score_kill(ch, s, u, texts)
            return
    face = dice.roll(1, 6, "Destruction Table")[0]
    if face <= 3 and unit.pilot_has("fortunate"):
        # Fortunate re-rolls the Destruction roll once (L1968-L1969); the app spends it on 1-3.
        texts.append(f"Destruction Table {face}, re-rolled (Fortunate)")
        face = dice.roll(1, 6, "Destruction Table (Fortunate)")[0]
    result = {1: "Instant Death", 2: "Major Injuries", 3: "Major Injuries", 4: "Minor Injuries"}.get(
        face, "Minor Injuries" if face == 5 else "Lucky Escape"
    )
    texts.append(f"{gu.name} is destroyed; Destruction Table {face}: {result} (L1137-L1145)")
    pilot = dict(gu.state.extra.get("pilot") or {})
    if pilot:
        if face == 1:
            pilot = {**pilot, "health": 0, "mind": 0}
        elif face <= 3:
            pilot = {**pilot, "health": pilot["health"] - 4, "mind": pilot["mind"] - 3}
        elif face <= 5:
            pilot = {**pilot, "health": pilot["health"] - 2, "mind": pilot["mind"] - 2}
        else:
            pilot = {**pilot, "mind": pilot["mind"] - 1}
        ch.extra(s, u, "pilot", pilot)
    score_kill(ch, s, u, texts)


def score_kill(ch: Changes, s: int, u: int, texts: list[str]) -> None:
    """Points destroyed go to the tally of the side whose attack destroyed the unit (Skirmish counts
    them, L179-L190); a unit lost to no enemy's attack (its own Heat Radiation, terrain) counts for every
    other side, as with two players it is the opponent's gain.

    A friend killed in sight is a morale trigger (L1590-L1591): the killed unit checks nothing any more,
    and its friends on the table are marked as due, for their players to clear on those that did not
    have it in sight (the app does not know the table's sight lines; digest A52).
    When a force is down to half its units or fewer, every unit left in it checks morale, once (L1602; A34).
    """
    ch.condition(s, u, "morale_due", False)
    friends = [
        i
        for i, g in enumerate(ch.game.sides[s].units)
        if i != u and not g.state.destroyed and not has(g, "withdrawn") and not has(g, "reserve")
    ]
    for i in friends:
        ch.condition(s, i, "morale_due", True)
    if friends:
        texts.append(
            "its friends that saw it check morale (L1590-L1591): marked on all of them, clear the mark "
            "on those out of sight"
        )
    points = unit_cost(profile(ch.unit(s, u)))
    for other, side in enumerate(ch.game.sides):
        if other != s and ch.by in (None, other):
            ch.resource(other, "destroyed", side.resources.get("destroyed", 0) + points)
    units = ch.game.sides[s].units
    left = [i for i, g in enumerate(units) if not g.state.destroyed and not has(g, "withdrawn")]
    if 2 * len(left) <= len(units) and not ch.game.sides[s].resources.get("halved", 0):
        ch.resource(s, "halved", 1)
        for i in left:
            ch.condition(s, i, "morale_due", True)


def striker_side(order: Sequence[tuple[Any, ...]], s: int, u: int) -> int | None:
    """In a close combat, the side of the unit fighting the one at ``(s, u)`` (None if the same side)."""
    other = order[0] if (s, u) == (order[1][0], order[1][1]) else order[1]
    return other[0] if other[0] != s else None


def take_damage(ch: Changes, s: int, u: int, amount: int, dice: DiceSource, texts: list[str]) -> bool:
    """Integrity loss; destroyed at 0 or less (L1094-L1098).  Morale is due at 1 Integrity (L1599)."""
    gu = ch.unit(s, u)
    if amount <= 0 or gu.state.destroyed:
        return False
    parts = profile(gu).parts
    if parts is not None:
        return mega_hit(ch, s, u, parts, amount, dice, texts)
    left = gu.state.max_damage - gu.state.damage - amount
    ch.set(unit_path(s, u, "damage"), gu.state.damage + amount)
    if left <= 0:
        destroy(ch, s, u, dice, texts)
        return True
    if left == 1:
        ch.condition(s, u, "morale_due", True)
    return False


def mega_hit(
    ch: Changes, s: int, u: int, parts: MegaParts, amount: int, dice: DiceSource, texts: list[str]
) -> bool:
    """Damage to a Mega Unit (L1312-L1318): a D6 picks the part; a third of the part's Integrity or more
    lost gives its Level 1 effect, two thirds its Level 2; the Torso at 0 destroys the unit.  Morale is
    due when the Torso is down to 1 (the app's reading of L1599 for a unit with parts)."""
    gu = ch.unit(s, u)
    face = dice.roll(1, 6, "Mega Unit hit location")[0]
    part = LOCATION[face]
    damage = mega_damage(gu)
    damage[part] += amount
    ch.counter(s, u, counter(part), damage[part])
    ch.set(unit_path(s, u, "damage"), lost(damage))
    texts.append(
        f"Hit location {face}: {part.capitalize()} takes {amount} ({damage[part]} of {parts.of(part)})"
    )
    if part == "torso":
        if damage["torso"] >= parts.torso:
            destroy(ch, s, u, dice, texts)
            return True
        if parts.torso - damage["torso"] == 1:
            ch.condition(s, u, "morale_due", True)
        return False
    level = part_level(damage[part], parts.of(part), part)
    key = LEVEL_COUNTER[part]
    if level > gu.state.counters.get(key, 0):
        ch.counter(s, u, key, level)
        texts.append(f"{part.capitalize()} at Level {level} (L1314-L1317)")
    return False


def apply_chart(ch: Changes, s: int, u: int, rolls: int, dice: DiceSource, texts: list[str]) -> None:
    """Damage Chart rolls, each rolled again onto a category with room (L1108-L1119); morale (L1595)."""
    gu = ch.unit(s, u)
    chart = chart_for(profile(gu))
    levels = levels_of(gu)
    names = {"leg": "Leg", "arm": "Arm", "head": "Head", "torso": "Torso"}
    if chart is OTHER_CHART:
        names = {"leg": "Engine", "arm": "Weapons", "head": "Head", "torso": "Cockpit"}
    fortunate = profile(gu).pilot_has("fortunate")
    # the chain of chart rolls (the same the odds weigh), then each roll as the log tells it; Fortunate:
    # the pilot re-rolls a chart roll once (L1968); it is used against a Torso result.
    rolled = chart_chain(chart, levels, rolls, fortunate).roll(dice)
    each: list[tuple[list[int], Levels]] = []
    for purpose, r in rolled.rolls:
        assert isinstance(r, FacesRoll)
        if purpose == "Damage Chart (Fortunate)":
            each[-1] = ([*each[-1][0], *r.faces], r.value)
        else:
            each.append((r.faces, r.value))
    for faces, after in each:
        before, levels = levels, after
        changed = next(c for c, a, b in zip(CATEGORIES, before, levels, strict=True) if a != b)
        texts.append(
            f"Damage Chart {'/'.join(map(str, faces))}: {names[changed]} "
            f"Level {levels[CATEGORIES.index(changed)]}"
        )
        if changed == "torso":
            destroy(ch, s, u, dice, texts)
            return
        ch.counter(s, u, changed, levels[CATEGORIES.index(changed)])
    if rolls:
        ch.condition(s, u, "morale_due", True)


def ask_shield_break(field: str, question: str) -> NoReturn:
    """Ask the target's player whether it breaks its shield (Shield Break, L1121-L1128; A12)."""
    raise NeedChoice(
        field,
        question,
        [Choice(value="yes", label="Break the shield"), Choice(value="no", label="Keep it", assumed=True)],
    )


def mark_shield_broken(ch: Changes, s: int, u: int) -> None:
    """A broken shield is gone for the rest of the battle (L1126)."""
    ch.condition(s, u, "shield_broken", True)
    ch.counter(s, u, "shield", 0)
