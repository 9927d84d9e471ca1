"""How far a card's attack marks reach, and which of them can reach one target (L40, L57, L91).

A target may be attacked by a mark only along a path of steps no longer than the mark's range
(L40).  So a target within a short reach is within every longer one: the marks in range are always
those reaching at least as far as the target stands.  The range question therefore offers one
answer per distance the card's reaches mark out, never "the short mark only" (the issue #20 check:
"within melee 1 step only" for a card that also has a ranged mark cannot happen).  A ranged mark
with no printed range is read as reaching any target in sight.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from core.systems.base import Choice

if TYPE_CHECKING:
    from core.systems.ms_battles.board import Seat
    from core.systems.ms_battles.cards import AttackMark
    from core.systems.ms_battles.options import MsbOptions


def steps_of(seat: Seat, pos: int, mark: AttackMark, opts: MsbOptions) -> float:
    """How many steps a mark reaches: ranged, its range after effects (L57, [Q-21]); melee, the house
    reach ([Q-10]); a ranged mark with no range printed, any distance."""
    if mark.form == "ranged":
        return math.inf if mark.range is None else mark.range + seat.mod(pos, "range")
    return opts.melee_reach


def reach_of(seat: Seat, pos: int, mark: AttackMark, opts: MsbOptions) -> str:
    """How far a mark reaches, in words."""
    if mark.form == "ranged" and mark.range is not None:
        return f"ranged {mark.range + seat.mod(pos, 'range')} steps"
    if mark.form == "ranged":
        return "ranged, no range printed"
    steps = opts.melee_reach
    return f"melee {steps} step{'s' if steps != 1 else ''}"


def reaches(seat: Seat, pos: int, opts: MsbOptions) -> dict[str, list[int]]:
    """The card's attack entries grouped by how far they reach, in card order."""
    out: dict[str, list[int]] = {}
    for i, mark in enumerate(seat.card(pos).attacks):
        out.setdefault(reach_of(seat, pos, mark, opts), []).append(i)
    return out


def range_choices(seat: Seat, pos: int, opts: MsbOptions) -> list[Choice]:
    """The answers that can happen (L40): for each distance the reaches mark out, from the nearest, the
    marks reaching that far are in range and the shorter ones are not; the value lists those out of
    range."""
    marks = seat.card(pos).attacks
    groups = reaches(seat, pos, opts)
    far = {name: steps_of(seat, pos, marks[idx[0]], opts) for name, idx in groups.items()}
    out = []
    for limit in sorted(set(far.values())):
        inside = [name for name in groups if far[name] >= limit]
        outside = sorted(i for name in groups if far[name] < limit for i in groups[name])
        label = "within " + " and ".join(inside) + (" only" if outside else " (every mark)")
        out.append(Choice(value=outside, label=label))
    return out


def check_in_range(seat: Seat, pos: int, out_of_range: list[int], opts: MsbOptions) -> None:
    """Refuse a set of marks out of range that cannot happen (L40): one reaching at least as far as a
    mark in range is in range too."""
    marks = seat.card(pos).attacks
    inside = [i for i in range(len(marks)) if i not in out_of_range]
    for i in out_of_range:
        for j in inside:
            if steps_of(seat, pos, marks[i], opts) >= steps_of(seat, pos, marks[j], opts):
                far, near = reach_of(seat, pos, marks[i], opts), reach_of(seat, pos, marks[j], opts)
                raise ValueError(
                    f"a target within {near} is within {far} too: the {far} mark cannot be out of range (L40)"
                )
