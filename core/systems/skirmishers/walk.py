"""One shot and a burst of shots on a card, and their exact odds, from one procedure.

A shot is a 2D6 check against the target number (L290); a hit rolls 2D6 more for the cell the
damage starts in (L306), when the card walk needs one (:func:`tracks.needs_roll`).  The odds
enumerate the very faces :func:`shot` reads, through the same function, so the odds and the
roll cannot disagree (tests/test_skirmishers.py also checks them against brute force).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from core.dice import DiceSource, Dist
from core.systems.skirmishers.tracks import Marked, Track, needs_roll, walk

TWO_D6 = [(a, b) for a in range(1, 7) for b in range(1, 7)]


class Card(NamedTuple):
    """The marks a hit can change: the HP row, armor cells left, bludgeoning this turn (power armor)."""

    cells: tuple[int, ...]
    armor: int
    blunt: int = 0
    #: Advanced body armor (L382-L393): the armor row's mark under each HP column, -1 where it
    #: does not protect, else 0 clear, 1 half-crossed, 2 crossed; empty under the standard rule.
    guard: tuple[int, ...] = ()


@dataclass(frozen=True)
class Hit:
    """A weapon's damage as one hit deals it."""

    lethal: int
    blunt: int
    armor_stops_blunt: bool = True


@dataclass(frozen=True)
class ShotResult:
    hit_faces: tuple[int, int]
    hit: bool
    cell_faces: tuple[int, int] | None
    card: Card
    marked: Marked | None


def shot(
    track: Track, card: Card, tn: int, dmg: Hit, hit_faces: Sequence[int], cell_faces: Sequence[int] | None
) -> ShotResult:
    """One shot with its faces given: the check (total >= TN hits, no automatic results, AMB-69),
    then the card walk from the cell the second roll names."""
    hit = sum(hit_faces) >= tn
    hf = (hit_faces[0], hit_faces[1])
    if not hit:
        return ShotResult(hf, False, None, card, None)
    if not needs_roll(track, card.armor, dmg.lethal, dmg.blunt):
        absorbed = min(card.armor, dmg.lethal)
        blunt = card.blunt + (dmg.blunt if track.kind == "power_armor" else 0)
        m = Marked(cells=card.cells, armor=card.armor - absorbed, absorbed=absorbed, blunt_ignored=dmg.blunt)
        return ShotResult(hf, True, None, Card(card.cells, m.armor, blunt, card.guard), m)
    assert cell_faces is not None
    m = walk(track, card.cells, card.armor, dmg.lethal, dmg.blunt, sum(cell_faces), card.guard)
    blunt = card.blunt + (dmg.blunt if track.kind == "power_armor" else 0)
    return ShotResult(hf, True, (cell_faces[0], cell_faces[1]), Card(m.cells, m.armor, blunt, m.guard), m)


def roll_shot(track: Track, card: Card, tn: int, dmg: Hit, dice: DiceSource) -> ShotResult:
    """One shot, its faces taken from ``dice``: 2D6 to hit, then 2D6 for the cell if it needs one."""
    hit_faces = dice.roll(2, 6, "to hit")
    if sum(hit_faces) >= tn and needs_roll(track, card.armor, dmg.lethal, dmg.blunt):
        return shot(track, card, tn, dmg, hit_faces, dice.roll(2, 6, "first cell"))
    return shot(track, card, tn, dmg, hit_faces, None)


def roll_marks(track: Track, card: Card, dmg: Hit, dice: DiceSource) -> ShotResult:
    """Damage with no roll to hit (a blast's ring, a ram): :func:`shot` with a check that passes,
    its 2D6 first cell from ``dice`` when the walk needs one."""
    if needs_roll(track, card.armor, dmg.lethal, dmg.blunt):
        return shot(track, card, 2, dmg, (1, 1), dice.roll(2, 6, "first cell"))
    return shot(track, card, 2, dmg, (1, 1), None)


#: The 2D6 totals with their ways out of 36, each with a pair of faces that makes it: :func:`shot`
#: reads only the totals, so the odds call it once per total instead of once per pair of faces.
TOTALS = [
    (t, sum(1 for a, b in TWO_D6 if a + b == t), (min(6, t - 1), t - min(6, t - 1))) for t in range(2, 13)
]


def shot_dist(track: Track, card: Card, tn: int, dmg: Hit) -> Dist[Card]:
    """Every outcome of one shot, weighted out of 36 x 36, by :func:`shot` itself."""
    out: dict[Card, int] = {}
    for h, hw, hf in TOTALS:
        if h >= tn and needs_roll(track, card.armor, dmg.lethal, dmg.blunt):
            for _, cw, cf in TOTALS:
                c = shot(track, card, tn, dmg, hf, cf).card
                out[c] = out.get(c, 0) + hw * cw
        else:
            c = shot(track, card, tn, dmg, hf, None).card
            out[c] = out.get(c, 0) + hw * 36
    return Dist(out, 36 * 36)


def burst_dist(track: Track, card: Card, tn: int, dmg: Hit, shots: int) -> Dist[Card]:
    """The card after ``shots`` shots, each against the card the earlier ones left."""
    d: Dist[Card] = Dist.constant(card)
    cache: dict[Card, Dist[Card]] = {}

    def step(c: Card) -> Dist[Card]:
        if c not in cache:
            cache[c] = shot_dist(track, c, tn, dmg)
        return cache[c]

    for _ in range(shots):
        d = d.bind(step)
    return d


def p_hit(tn: int) -> tuple[int, int]:
    """Chance a 2D6 check meets ``tn``, as (ways, 36)."""
    return sum(1 for hf in TWO_D6 if sum(hf) >= tn), 36
