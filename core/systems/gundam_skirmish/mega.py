"""Mega Units (L1309-L1319): large-scale suits for casual games, their parts and hit location.

A Mega Unit's Integrity is split between four parts: Head, Arms, Torso and Legs
(about 15-20 in all, L1310-L1312).  Its Armour is 5 by default (L1310).  When it
is attacked, a D6 picks the part that takes the damage: 1 Head, 2 Arms, 3-5 Torso,
6 Legs (L1312-L1314).  Damage to a part adds up; a third of that part's Integrity or
more gives the part's Damage Chart Level 1 effect, two thirds or more its Level 2
(L1314-L1317); the Torso at 0 Integrity or less destroys the unit (L1317-L1318).
No Critical Hits, no Damage Chart rolls, no Aimed Shots against it (L1318-L1319).
A Mega Unit shooting an SD unit needs 2 more to hit and to crit, not 1 (L1362-L1363).

Mega Units are for casual play: a game allows them with the reading ``mega_units``
(off by default).  In play, each part's damage is kept in the unit's counters
``mega_head``, ``mega_arms``, ``mega_torso`` and ``mega_legs``; the unit's ``damage``
is their sum (like any unit's, it may run past a part's Integrity) and its
``max_damage`` the parts' total.  The Torso has no Level
effects of its own (on a suit's chart a Torso result is the unit's end, L1236-L1239):
only its reaching 0 matters.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Part = Literal["head", "arms", "torso", "legs"]
PARTS: tuple[Part, ...] = ("head", "arms", "torso", "legs")
#: The hit location die (L1312-L1314).
LOCATION: dict[int, Part] = {1: "head", 2: "arms", 3: "torso", 4: "torso", 5: "torso", 6: "legs"}
#: The chart counter each part's Level effects go to (Leg, Arm, Head; the Torso has none).
LEVEL_COUNTER: dict[Part, str] = {"head": "head", "arms": "arm", "legs": "leg"}
#: Highest level per part: Legs and Arms have a Level 2, the Head only a Level 1 (L1159-L1223).
LEVEL_MAX: dict[Part, int] = {"head": 1, "arms": 2, "legs": 2}
#: Armour of a Mega Unit unless its player sets another (L1310).
MEGA_ARMOUR = 5
#: The book's rough total of the parts' Integrity (L1310-L1312).
MEGA_TOTAL = (15, 20)


#: Splits the designer offers (our own, within the book's 15-20): (head, arms, torso, legs).
SPLITS: tuple[tuple[int, int, int, int], ...] = ((3, 3, 6, 3), (3, 4, 8, 3), (4, 4, 8, 4))


def _presets(schema: dict[str, Any]) -> None:
    """The designer's ready-made splits of 15, 18 and 20 Integrity."""
    schema["presets"] = [
        {
            "title": f"{sum(split)} Integrity: "
            + ", ".join(f"{p.capitalize()} {n}" for p, n in zip(PARTS, split, strict=True)),
            "value": dict(zip(PARTS, split, strict=True)),
        }
        for split in SPLITS
    ]


class MegaParts(BaseModel):
    """A Mega Unit's Integrity, part by part (L1309-L1319); e.g. Head 3, Arms 4, Torso 8, Legs 3."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_presets)

    head: int = Field(default=3, ge=1, le=20, description="Head Integrity (hit on a 1).")
    arms: int = Field(default=4, ge=1, le=20, description="Arms Integrity (hit on a 2).")
    torso: int = Field(
        default=8, ge=1, le=20, description="Torso Integrity (hit on 3-5); at 0 the unit is destroyed."
    )
    legs: int = Field(default=3, ge=1, le=20, description="Legs Integrity (hit on a 6).")

    def of(self, part: Part) -> int:
        return int(getattr(self, part))

    @property
    def total(self) -> int:
        return self.head + self.arms + self.torso + self.legs


def counter(part: Part) -> str:
    """The counter holding a part's damage in play."""
    return f"mega_{part}"


def part_level(damage: int, integrity: int, part: Part) -> int:
    """The Damage Chart level a part's cumulative damage gives (L1314-L1317): a third or more: 1, two
    thirds or more: 2 (Head: 1 at most); the Torso: none.

    >>> [part_level(d, 6, "arms") for d in (1, 2, 3, 4, 9)]
    [0, 1, 1, 2, 2]
    >>> [part_level(d, 4, "head") for d in (1, 2, 3)], part_level(5, 7, "torso")
    ([0, 1, 1], 0)
    """
    if part == "torso":
        return 0
    level = 2 if 3 * damage >= 2 * integrity else 1 if 3 * damage >= integrity else 0
    return min(level, LEVEL_MAX[part])


def location_odds() -> dict[Part, Fraction]:
    """The chance of each part on the location die: Head, Arms, Legs 1/6 each, Torso 1/2.

    >>> location_odds()["torso"]
    Fraction(1, 2)
    """
    out: dict[Part, Fraction] = {}
    for part in LOCATION.values():
        out[part] = out.get(part, Fraction(0)) + Fraction(1, 6)
    return out


def lost(damage: dict[Part, int]) -> int:
    """Damage taken in all, the parts added up (as any unit's damage, not capped at its Integrity)."""
    return sum(damage.get(p, 0) for p in PARTS)


def destroyed_chance(parts: MegaParts, torso_damage: int, amount: int) -> Fraction:
    """Chance that ``amount`` damage (after the location die) destroys the unit: the Torso is hit and
    reaches 0 Integrity or less (L1312-L1318).

    >>> destroyed_chance(MegaParts(head=3, arms=4, torso=7, legs=4), 2, 5)
    Fraction(1, 2)
    >>> destroyed_chance(MegaParts(head=3, arms=4, torso=7, legs=4), 2, 4)
    Fraction(0, 1)
    """
    if amount > 0 and torso_damage + amount >= parts.torso:
        return location_odds()["torso"]
    return Fraction(0)
