"""One shot and a burst of shots on a card, and their exact odds, from one chain of steps.

A shot is a :class:`~core.steps.Chain` (:func:`shot_chain`): a 2D6 check against the target number
(L290); a hit rolls 2D6 more for the cell the damage starts in (L306), when the card walk needs one
(:func:`tracks.needs_roll`), and the walk marks the card (L308-L310).  A burst (:func:`burst_chain`)
is that chain again from the card each shot left.  The odds (:func:`burst_dist`) and the roll
(:func:`roll_shot`, :func:`roll_marks`) walk the same chain, so they cannot disagree
(tests/test_skirmishers.py also checks them against brute force).  No player decides anything between
the steps: the card walk is the book's procedure, not a choice (L308-L310).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from core.dice import DiceSource, Dist
from core.steps import Chain, ChainRoll, DiceSum, End, Link, Rolled, SumRoll
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


#: The 2D6 of a check and of a first cell (L290, L306).
CHECK = DiceSum(dice=2, sides=6)


@dataclass(frozen=True)
class ShotResult:
    hit_faces: tuple[int, int]
    hit: bool
    cell_faces: tuple[int, int] | None
    card: Card


def hits(total: int, tn: int) -> bool:
    """A check's total against its target number: at least it hits, no automatic results (L290, AMB-69)."""
    return total >= tn


def marked(track: Track, card: Card, dmg: Hit, cell: int | None) -> Card:
    """The card after a hit: armor takes what it can, and the walk from ``cell`` marks the rest (L306-L310,
    L843, L650); ``cell`` is None when the walk needs no first cell (:func:`tracks.needs_roll`)."""
    blunt = card.blunt + (dmg.blunt if track.kind == "power_armor" else 0)
    if cell is None:
        m = Marked(cells=card.cells, armor=card.armor - min(card.armor, dmg.lethal))
        return Card(card.cells, m.armor, blunt, card.guard)
    m = walk(track, card.cells, card.armor, dmg.lethal, dmg.blunt, cell, card.guard)
    return Card(m.cells, m.armor, blunt, m.guard)


def hit_chain(track: Track, card: Card, dmg: Hit) -> Chain[Card]:
    """A hit's damage: 2D6 for the first cell when the walk needs one (L306), then the walk."""
    if not needs_roll(track, card.armor, dmg.lethal, dmg.blunt):
        return End(marked(track, card, dmg, None))
    return Link(CHECK, "first cell", lambda cell: End(marked(track, card, dmg, cell)))


def shot_chain(track: Track, card: Card, tn: int, dmg: Hit) -> Chain[Card]:
    """One shot: 2D6 against ``tn`` (L290), and a hit's damage (:func:`hit_chain`); a miss leaves the card."""
    hit = hit_chain(track, card, dmg)  # one chain for every total that hits: its walks are weighed once
    return Link(CHECK, "to hit", lambda total: hit if hits(total, tn) else End(card))


def burst_chain(track: Track, card: Card, tn: int, dmg: Hit, shots: int) -> Chain[Card]:
    """``shots`` shots, each against the card the earlier ones left."""

    def shot(c: Card) -> Chain[Card]:
        return shot_chain(track, c, tn, dmg)

    chain: Chain[Card] = End(card)
    for _ in range(shots):
        chain = chain.then(shot)
    return chain


def _pair(rolled: Rolled) -> tuple[int, int]:
    assert isinstance(rolled, SumRoll)
    return (rolled.faces[0], rolled.faces[1])


def result(rolled: ChainRoll[Card], tn: int) -> ShotResult:
    """One rolled shot as the log keeps it: its to-hit faces, hit or not, its first-cell faces, the card.
    A hit with no roll to hit (:func:`roll_marks`) shows (1, 1) and hits."""
    check = rolled.of("to hit")
    cell = rolled.of("first cell")
    return ShotResult(
        _pair(check[0]) if check else (1, 1),
        hits(check[0].value, tn) if check else True,
        _pair(cell[0]) if cell else None,
        rolled.value,
    )


def roll_shot(track: Track, card: Card, tn: int, dmg: Hit, dice: DiceSource) -> ShotResult:
    """One shot, its faces taken from ``dice``: :func:`shot_chain` rolled (a burst rolls it again from the
    card it left, as :func:`burst_chain` chains it)."""
    return result(shot_chain(track, card, tn, dmg).roll(dice), tn)


def roll_marks(track: Track, card: Card, dmg: Hit, dice: DiceSource) -> ShotResult:
    """Damage with no roll to hit (a blast's ring, a ram): :func:`hit_chain` rolled, its 2D6 first cell
    from ``dice`` when the walk needs one."""
    return result(hit_chain(track, card, dmg).roll(dice), 2)


def burst_dist(track: Track, card: Card, tn: int, dmg: Hit, shots: int) -> Dist[Card]:
    """The card after ``shots`` shots, each against the card the earlier ones left: :func:`burst_chain`'s
    distribution (over 1296 ** shots, as each shot's two 2D6)."""
    return burst_chain(track, card, tn, dmg, shots).dist()


def p_hit(tn: int) -> tuple[int, int]:
    """Chance a 2D6 check meets ``tn``, as (ways, 36)."""
    return sum(1 for hf in TWO_D6 if sum(hf) >= tn), 36
