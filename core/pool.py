"""The generic dice pool: N dice, success on X+, criticals, rerolls, opposed pools.

This is the procedure the rulebooks share, written once so that every rule
system's attack can reuse it:

* GUNFRAME (001, L343-353, L1090-1102, L1154-1160): a firepower pool of d6,
  4+ is a hit, each 6 is also a power point; the defense pool's 4+ cancel hits
  and its 6s give dodges.  A die is rerolled at most once, and the reroll
  stands (L353).
* Mobile Suit Gundam: Skirmish (000): attack dice against armour dice, each
  block cancels a hit.
* MechaStellar (003): d10 pools.

A pool is read die by die (GUNFRAME L343-349): each die becomes a vector
``(successes, criticals)``; the pool is the sum.  An opposed pool's successes
cancel the attacker's one for one, never below zero.

>>> attack = PoolSpec(dice=3, success_on=4, crit_on=6)
>>> odds = contest_odds(attack, None)
>>> odds.probability((3, 0, 0))  # three hits, none of them a six
Fraction(1, 27)

The book's own example (GUNFRAME L1090-1102): a roll of 4, 4 and 6 is three
hits and one power point.

>>> from core.dice import TypedDice
>>> roll = roll_contest(PoolSpec(dice=3, success_on=4, crit_on=6), None, TypedDice([4, 4, 6]))
>>> roll.net, roll.attack.crits
(3, 1)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.dice import DiceSource, Dist, mean
from core.memo import remembered

#: The most dice one pool may hold.  No rulebook here builds a pool near this;
#: it keeps a typo (200 dice) from freezing a phone.
MAX_DICE = 60
#: Dice the tool offers.  d6 and d10 are what the five rulebooks use.
SIDES = (3, 6, 8, 10, 12, 20)


class PoolSpec(BaseModel):
    """One pool as a rulebook describes it: N dice of S sides, success on X+."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dice: int = Field(ge=1, le=MAX_DICE, description="How many dice are rolled.")
    sides: int = Field(default=6, description="Faces of each die (d6, d10, ...).")
    success_on: int = Field(ge=1, description="A die showing this or more is a success.")
    crit_on: int | None = Field(
        default=None,
        description="A die showing this or more is also a critical (counted apart).",
    )
    crit_extra: int = Field(default=0, ge=0, le=3, description="Extra successes each critical is worth.")
    reroll: Literal["none", "failures", "faces"] = Field(
        default="none",
        description="Reroll nothing, every failed die, or dice showing chosen faces "
        "(each die at most once; the new face stands).",
    )
    reroll_faces: tuple[int, ...] = Field(default=(), description="Faces rerolled when reroll is 'faces'.")

    @model_validator(mode="after")
    def _check(self) -> PoolSpec:
        if self.sides not in SIDES:
            raise ValueError(f"dice must be one of {', '.join(f'd{s}' for s in SIDES)}")
        if not 1 <= self.success_on <= self.sides:
            raise ValueError(
                f"a d{self.sides} cannot succeed on {self.success_on}+: choose 1+ to {self.sides}+"
            )
        if self.crit_on is not None and not self.success_on <= self.crit_on <= self.sides:
            raise ValueError(
                f"a critical on a d{self.sides} must be from {self.success_on}+ "
                f"(the success number) to {self.sides}+"
            )
        bad = [f for f in self.reroll_faces if not 1 <= f <= self.sides]
        if bad:
            raise ValueError(f"a d{self.sides} has no face {bad[0]} to reroll")
        if self.reroll == "faces" and not self.reroll_faces:
            raise ValueError("choose which faces to reroll")
        return self

    # -- the per-die procedure, shared by odds and by rolling ---------------------

    def rerolls(self, face: int) -> bool:
        """Whether a die first showing ``face`` is rolled again (at most once, L353)."""
        if self.reroll == "failures":
            return face < self.success_on
        if self.reroll == "faces":
            return face in self.reroll_faces
        return False

    def classify(self, face: int) -> tuple[int, int]:
        """A die's final face as ``(successes, criticals)``.

        >>> PoolSpec(dice=1, success_on=4, crit_on=6, crit_extra=1).classify(6)
        (2, 1)
        """
        crit = self.crit_on is not None and face >= self.crit_on
        success = face >= self.success_on
        return (int(success) + (self.crit_extra if crit else 0), int(crit))

    def die_dist(self) -> Dist[tuple[int, int]]:
        """One die of this pool, rerolls included, as an exact distribution.

        >>> PoolSpec(dice=1, success_on=4, reroll="failures").die_dist().probability((0, 0))
        Fraction(1, 4)
        """
        die = Dist.die(self.sides)
        if self.reroll == "none":
            return die.map(self.classify)
        again = die.map(self.classify)
        return die.bind(
            lambda f: again if self.rerolls(f) else Dist.constant(self.classify(f)).scale(self.sides)
        )

    def dist(self) -> Dist[tuple[int, int]]:
        """The whole pool: ``(successes, criticals)`` summed over its dice (cached)."""
        return _pool_dist(self)


@lru_cache(maxsize=64)
def _pool_dist(spec: PoolSpec) -> Dist[tuple[int, int]]:
    return spec.die_dist().repeat(spec.dice)


def cancel(attack_successes: int, defense_successes: int) -> int:
    """Net successes: each opposed success cancels one, never below zero (GUNFRAME L1170)."""
    return max(0, attack_successes - defense_successes)


# --- odds -----------------------------------------------------------------------------

#: A contest outcome: (net successes, attacker's criticals, defender's criticals).
Outcome = tuple[int, int, int]


def _contest(a: tuple[int, int], d: tuple[int, int]) -> Outcome:
    return (cancel(a[0], d[0]), a[1], d[1])


def contest_odds(attack: PoolSpec, defense: PoolSpec | None) -> Dist[Outcome]:
    """Exact distribution of (net successes, attack criticals, defense criticals).

    Without a defense pool the net is simply the attacker's successes.

    >>> d = contest_odds(PoolSpec(dice=1, success_on=4), PoolSpec(dice=1, success_on=4))
    >>> d.probability((1, 0, 0))
    Fraction(1, 4)
    """
    a = attack.dist()
    if defense is None:
        return a.map(lambda k: (k[0], k[1], 0))
    return a.combine(defense.dist(), _contest)


@dataclass(frozen=True)
class ContestSummary:
    """What the odds table shows of a contest, without building the whole joint."""

    net: Dist[int]
    attack_crits: Dist[int]
    defense_crits: Dist[int] | None
    #: P(at least one net success and at least one attack critical).
    net_and_crit: Fraction


def contest_summary(attack: PoolSpec, defense: PoolSpec | None) -> ContestSummary:
    """The marginals of :func:`contest_odds`, computed from the pools' marginals.

    Equal to mapping the joint (the tests check it), but works on a dozen
    outcomes a side instead of thousands, which matters at 3x slower in Pyodide.

    >>> s = contest_summary(PoolSpec(dice=2, success_on=4, crit_on=6), PoolSpec(dice=1, success_on=4))
    >>> s.net.probability(2), s.net_and_crit
    (Fraction(1, 8), Fraction(2, 9))
    """
    a = attack.dist()
    attack_succ = a.map(lambda k: k[0])
    attack_crits = a.map(lambda k: k[1])
    if defense is None:
        hit_and_crit = sum(w for (s, c), w in a.weights.items() if s >= 1 and c >= 1)
        return ContestSummary(attack_succ, attack_crits, None, Fraction(hit_and_crit, a.total))
    d = defense.dist()
    defense_succ = d.map(lambda k: k[0])
    net = attack_succ.combine(defense_succ, cancel)
    # Weight of defense rolls with fewer than s successes, for every s.
    below = [0] * (max(a_s for a_s, _ in a.weights) + 1)
    for d_s, w in defense_succ.weights.items():
        for s in range(d_s + 1, len(below)):
            below[s] += w
    both = sum(w * below[s] for (s, c), w in a.weights.items() if c >= 1)
    return ContestSummary(net, attack_crits, d.map(lambda k: k[1]), Fraction(both, a.total * d.total))


class Row(BaseModel):
    """One line of an odds table."""

    value: int
    exactly: str = Field(description="Exact probability as 'numerator/denominator'.")
    at_least: str
    p_exactly: float
    p_at_least: float


class Table(BaseModel):
    """A distribution of one count, ready for a bar chart and a table."""

    rows: list[Row] = Field(
        description="In order of value: every value from 0 when the highest is at most 60, else only the "
        "values that can happen (a value without a row has the next row's 'at least')."
    )
    mean: str
    p_mean: float


def _ratio(weight: int, total: int) -> str:
    g = math.gcd(weight, total)
    return f"{weight // g}/{total // g}"


#: A table whose highest value is at most this lists every value from 0 (a chart of a few columns
#: shows the impossible ones as empty); beyond it, only the values that can happen: a damage table
#: counted in hundreds would otherwise send thousands of rows of 0, on every tap.
DENSE_UP_TO = 60


def table(dist: Dist[int]) -> Table:
    """Summarise a distribution of counts: P(exactly k), P(at least k), mean.

    Integer arithmetic throughout (Fractions are slow in Pyodide).  Up to :data:`DENSE_UP_TO` every
    value from 0 has a row; a longer table has rows for the possible values only, in order, so a
    missing value's P(at least) is that of the next row (read "at least 1" as the first row from 1).

    >>> t = table(Dist.die(2).map(lambda f: f - 1))
    >>> [(r.value, r.exactly, r.at_least) for r in t.rows]
    [(0, '1/2', '1/1'), (1, '1/2', '1/2')]
    >>> t = table(Dist.die(4).map(lambda f: 0 if f == 1 else 100 * f))
    >>> [(r.value, r.exactly, r.at_least) for r in t.rows]
    [(0, '1/4', '1/1'), (200, '1/4', '3/4'), (300, '1/4', '1/2'), (400, '1/4', '1/4')]
    """
    key = (tuple(dist.weights.items()), dist.total)
    return remembered(_TABLES, key, lambda: _table(dist), _TABLES_MOST)


#: Tables by their distribution's weights (a few dozen, where the table may run to thousands of
#: rows): a sheet asks the same odds again for each of its choice buttons. Never changed in place.
_TABLES: dict[tuple[object, ...], Table] = {}
_TABLES_MOST = 128


def _table(dist: Dist[int]) -> Table:
    total = dist.total
    top = max(k for k, w in dist.weights.items() if w)
    if top <= DENSE_UP_TO:
        values: list[int] = list(range(top + 1))
    else:
        values = sorted(k for k, w in dist.weights.items() if w)
    exact = [dist.weights.get(k, 0) for k in values]
    rows: list[dict[str, object]] = []
    tail = sum(exact)
    # A row of weight 0 says "0/1" and keeps the row before's "at least"; the rows are checked in
    # one call (not one model each).
    at_least, before = "", -1
    for k, weight in zip(values, exact, strict=True):
        if tail != before:
            at_least, before = _ratio(tail, total), tail
        rows.append(
            {
                "value": k,
                "exactly": _ratio(weight, total) if weight else "0/1",
                "at_least": at_least,
                "p_exactly": weight / total,
                "p_at_least": tail / total,
            }
        )
        tail -= weight
    average = mean(dist)
    return Table.model_validate(
        {"rows": rows, "mean": f"{average.numerator}/{average.denominator}", "p_mean": float(average)}
    )


# --- rolling ---------------------------------------------------------------------------


class DieRoll(BaseModel):
    """One die of a rolled pool: its first face, its reroll if any, and what it counts."""

    first: int
    rerolled: int | None = None
    successes: int
    crit: bool

    @property
    def final(self) -> int:
        return self.first if self.rerolled is None else self.rerolled


class PoolRoll(BaseModel):
    """A rolled pool, die by die."""

    dice: list[DieRoll]
    successes: int
    crits: int


def roll_pool(spec: PoolSpec, source: DiceSource, purpose: str) -> PoolRoll:
    """Roll a pool, then reroll the dice its spec names, each at most once (L353)."""
    faces = source.roll(spec.dice, spec.sides, purpose)
    again = [i for i, f in enumerate(faces) if spec.rerolls(f)]
    new = source.roll(len(again), spec.sides, f"{purpose} rerolls") if again else []
    rerolled: dict[int, int] = dict(zip(again, new, strict=True))
    dice: list[DieRoll] = []
    for i, first in enumerate(faces):
        final = rerolled.get(i, first)
        succ, crit = spec.classify(final)
        dice.append(DieRoll(first=first, rerolled=rerolled.get(i), successes=succ, crit=bool(crit)))
    return PoolRoll(
        dice=dice,
        successes=sum(d.successes for d in dice),
        crits=sum(d.crit for d in dice),
    )


class ContestRoll(BaseModel):
    """Both pools of a rolled contest and its result."""

    attack: PoolRoll
    defense: PoolRoll | None
    net: int

    @property
    def outcome(self) -> Outcome:
        return (self.net, self.attack.crits, self.defense.crits if self.defense else 0)


def roll_contest(attack: PoolSpec, defense: PoolSpec | None, source: DiceSource) -> ContestRoll:
    """Roll the attack (and its rerolls), then the defense (and its rerolls)."""
    a = roll_pool(attack, source, "attack")
    d = roll_pool(defense, source, "defense") if defense else None
    return ContestRoll(attack=a, defense=d, net=cancel(a.successes, d.successes if d else 0))


def reroll_chosen(
    spec: PoolSpec, roll: PoolRoll, chosen: list[int], source: DiceSource, purpose: str
) -> PoolRoll:
    """Reroll the dice a player picked after seeing ``roll`` (positions from 0), each die at most once
    (GUNFRAME L353: a die rerolled already keeps its face); the new face stands.

    >>> from core.dice import TypedDice
    >>> spec = PoolSpec(dice=3, success_on=4, crit_on=6)
    >>> first = roll_pool(spec, TypedDice([1, 5, 2]), "attack")
    >>> again = reroll_chosen(spec, first, [0, 2], TypedDice([6, 3]), "attack")
    >>> [d.final for d in again.dice], again.successes, again.crits
    ([6, 5, 3], 2, 1)
    """
    picked = sorted({i for i in chosen if 0 <= i < len(roll.dice) and roll.dice[i].rerolled is None})
    new = source.roll(len(picked), spec.sides, f"{purpose} rerolls") if picked else []
    faces = dict(zip(picked, new, strict=True))
    dice: list[DieRoll] = []
    for i, die in enumerate(roll.dice):
        if i not in faces:
            dice.append(die)
            continue
        succ, crit = spec.classify(faces[i])
        dice.append(DieRoll(first=die.first, rerolled=faces[i], successes=succ, crit=bool(crit)))
    return PoolRoll(dice=dice, successes=sum(d.successes for d in dice), crits=sum(d.crit for d in dice))
