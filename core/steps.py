"""Dice steps the coming rule systems share, each with exact odds from the code that resolves it.

:mod:`core.pool` is one pool (N dice, success on X+, rerolls, an opposed pool).  These are the
steps built on top of it or beside it; for each, the odds and the roll call the same per-die
function, so they cannot disagree (tests/test_steps.py enumerates every face to check):

* :class:`ShotChain`: roll to hit, then one save per hit (MechaStellar, 003: an Armor Save for
  each unblocked hit, L218-L225);
* :class:`Chart`: a roll looked up in a table of ranges (Gundam Skirmish, 000: the Damage Charts,
  one die per critical hit, L1110-L1111; the Penetration table, L857-L872);
* :class:`DiceSum`: the total of N dice plus a modifier (2D6 checks, 1D6 or 2D6 Advantage),
  with :func:`opposed_sums` for two totals where ties are rolled again;
* :class:`FacePool`: N dice where each face is worth a number of its own (a roll-under evade
  die whose lowest face counts double and whose highest never counts, MechaStellar L136-L141;
  a clash die where 5+ counts 1 and 10 counts 2, L190-L191), with chosen faces rolled again once.

>>> from core.dice import TypedDice
>>> check = DiceSum(dice=2, modifier=0)
>>> check.at_least(12)  # Skirmish's morale check at Integrity 0: 2D6 >= 12 (digest, L574)
Fraction(1, 36)
>>> check.roll(TypedDice([6, 6]), "check").total
12
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.dice import DiceSource, Dist
from core.pool import MAX_DICE, PoolRoll, PoolSpec, roll_pool

# --- a chain: to hit, then a save per hit ---------------------------------------------------


class ShotChain(BaseModel):
    """Roll ``to_hit``; every success is a hit; the target then rolls one save die per hit.

    ``save`` describes one save die (its ``dice`` is ignored: it is rolled once per hit, up to
    ``max_saves``); each of its successes is a passed save.  What a hit does then is the system's:
    a passed save may stop the hit (:meth:`through`) or a failed one add damage (:meth:`failed`,
    MechaStellar's Armor Saves, at most three per weapon, L218-L225).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    to_hit: PoolSpec
    save: PoolSpec | None = Field(default=None, description="One save die, rolled for each hit.")
    max_saves: int | None = Field(default=None, ge=1, le=MAX_DICE, description="Most saves one attack rolls.")

    def saves_for(self, hits: int) -> PoolSpec | None:
        """The save pool for this many hits (None when there is nothing to save)."""
        rolled = hits if self.max_saves is None else min(hits, self.max_saves)
        if self.save is None or rolled == 0:
            return None
        return self.save.model_copy(update={"dice": rolled})

    @staticmethod
    def through(hits: int, saved: int) -> int:
        """Hits not stopped by a passed save."""
        return hits - saved

    def failed(self, hits: int, saved: int) -> int:
        """Saves rolled and failed."""
        pool = self.saves_for(hits)
        return (pool.dice if pool else 0) - saved

    def dist(self) -> Dist[tuple[int, int]]:
        """Exact ``(hits, saves passed)``, from the same pools the roll uses.

        >>> chain = ShotChain(to_hit=PoolSpec(dice=1, success_on=4), save=PoolSpec(dice=1, success_on=5))
        >>> chain.dist().probability((1, 0))  # a hit (1/2) whose save fails (2/3)
        Fraction(1, 3)
        """
        hits = self.to_hit.dist().map(lambda k: k[0])
        if self.save is None:
            return hits.map(lambda h: (h, 0))
        die_total = self.save.die_dist().total
        top = max(hits.weights)
        out: dict[tuple[int, int], int] = {}
        for h, w in hits.weights.items():
            pool = self.saves_for(h)
            saved = pool.dist().map(lambda k: k[0]) if pool else Dist.constant(0)
            scale = die_total**top // saved.total  # every branch over one denominator
            for s, w2 in saved.weights.items():
                out[(h, s)] = out.get((h, s), 0) + w * w2 * scale
        return Dist(out, hits.total * die_total**top)

    def through_dist(self) -> Dist[int]:
        """Hits not stopped by a save, alone."""
        return self.dist().map(lambda k: self.through(*k))

    def failed_dist(self) -> Dist[int]:
        """Failed saves, alone."""
        return self.dist().map(lambda k: self.failed(*k))

    def roll(self, source: DiceSource) -> ChainRoll:
        """Roll to hit, then the saves for the hits (the order a player rolls them)."""
        hit = roll_pool(self.to_hit, source, "to hit")
        pool = self.saves_for(hit.successes)
        saves = roll_pool(pool, source, "saves") if pool else None
        saved = saves.successes if saves else 0
        return ChainRoll(
            hit=hit,
            saves=saves,
            hits=hit.successes,
            saved=saved,
            through=self.through(hit.successes, saved),
            failed=self.failed(hit.successes, saved),
        )


class ChainRoll(BaseModel):
    hit: PoolRoll
    saves: PoolRoll | None
    hits: int
    saved: int
    through: int
    failed: int


# --- a pool whose faces are each worth a number of their own ----------------------------------


class FacePool(BaseModel):
    """N dice of S sides; a die showing face ``f`` counts ``values[f - 1]``; the pool counts their sum.

    This covers the pools a success number cannot describe: a defender's evade die that lets a
    shot through below a target number, counts a 1 as two and never lets a 10 through.  Faces in
    ``reroll_faces`` are rolled again once and the new face stands.

    >>> from core.dice import TypedDice
    >>> evade = FacePool(dice=1, sides=10, values=(2, 1, 1, 0, 0, 0, 0, 0, 0, 0))
    >>> evade.dist().probability(1)  # ACC 9 vs Evade +5: a plain hit on 2 or 3 (L146)
    Fraction(1, 5)
    >>> evade.roll(TypedDice([1]), "evade").total
    2
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    dice: int = Field(ge=0, le=MAX_DICE)
    sides: int = Field(default=10, ge=2, le=20)
    values: tuple[int, ...] = Field(description="What each face counts, face 1 first.")
    reroll_faces: tuple[int, ...] = Field(default=(), description="Faces rolled again once.")

    @model_validator(mode="after")
    def _check(self) -> FacePool:
        if len(self.values) != self.sides:
            raise ValueError(f"a d{self.sides} needs {self.sides} face values")
        if any(not 1 <= f <= self.sides for f in self.reroll_faces):
            raise ValueError(f"a d{self.sides} has no such face to roll again")
        return self

    def value(self, face: int) -> int:
        """What one final face counts: the one rule odds and rolls share."""
        return self.values[face - 1]

    def die_dist(self) -> Dist[int]:
        """One die, its reroll included."""
        die = Dist.die(self.sides)
        if not self.reroll_faces:
            return die.map(self.value)
        again = die.map(self.value)
        return die.bind(
            lambda f: again if f in self.reroll_faces else Dist.constant(self.value(f)).scale(self.sides)
        )

    def dist(self) -> Dist[int]:
        """The pool's total, exactly (0 dice: always 0)."""
        if self.dice == 0:
            return Dist.constant(0)
        return self.die_dist().repeat(self.dice)

    def roll(self, source: DiceSource, purpose: str) -> FaceRoll:
        """Roll the dice, then the faces to roll again (in one further request), each die once."""
        first = source.roll(self.dice, self.sides, purpose) if self.dice else []
        again = [i for i, f in enumerate(first) if f in self.reroll_faces]
        new = source.roll(len(again), self.sides, f"{purpose} rerolls") if again else []
        final = list(first)
        for i, f in zip(again, new, strict=True):
            final[i] = f
        return FaceRoll(first=first, final=final, total=sum(self.value(f) for f in final))


class FaceRoll(BaseModel):
    first: list[int] = Field(description="The faces as first rolled.")
    final: list[int] = Field(description="The faces after rerolls.")
    total: int


# --- sums of dice --------------------------------------------------------------------------


class DiceSum(BaseModel):
    """N dice of S sides added up, plus a modifier (2D6 + 1, 1D6 + DEX...)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    dice: int = Field(default=2, ge=1, le=MAX_DICE)
    sides: int = Field(default=6, ge=2, le=100)
    modifier: int = Field(default=0, ge=-100, le=100)

    def total(self, faces: list[int]) -> int:
        """The total of rolled faces: the one rule both the odds and the roll apply."""
        return sum(faces) + self.modifier

    def dist(self) -> Dist[int]:
        """Exact distribution of the total.

        >>> DiceSum(dice=2).dist().probability(7)
        Fraction(1, 6)
        """
        return Dist.die(self.sides).repeat(self.dice).map(lambda s: self.total([s]))

    def at_least(self, target: int) -> Fraction:
        """Chance the total reaches ``target`` (a check: 2D6 >= N)."""
        d = self.dist()
        return Fraction(sum(w for t, w in d.weights.items() if t >= target), d.total)

    def roll(self, source: DiceSource, purpose: str) -> SumRoll:
        faces = source.roll(self.dice, self.sides, purpose)
        return SumRoll(faces=faces, total=self.total(faces))


class SumRoll(BaseModel):
    faces: list[int]
    total: int


def opposed_sums(a: DiceSum, b: DiceSum) -> tuple[Fraction, Fraction]:
    """Chances that A's total beats B's and that B's beats A's, ties rolled again until they differ.

    Gundam Skirmish's Advantage (000, L975-L977): 1D6 (2D6 after a charge) plus the weapon's DEX,
    the higher total wins, a tie is rolled again.  Worked in the digest: 1D6+2 against 1D6+3 is
    10/31 for A; 2D6+2 against 1D6+3 is 32/39.

    >>> opposed_sums(DiceSum(dice=1, modifier=2), DiceSum(dice=1, modifier=3))
    (Fraction(10, 31), Fraction(21, 31))
    """
    da, db = a.dist(), b.dist()
    total = da.total * db.total
    wins = sum(wa * wb for ta, wa in da.weights.items() for tb, wb in db.weights.items() if ta > tb)
    ties = sum(wa * db.weights.get(ta, 0) for ta, wa in da.weights.items())
    p_a = Fraction(wins, total - ties)
    return p_a, 1 - p_a


def roll_opposed(a: DiceSum, b: DiceSum, source: DiceSource, limit: int = 100) -> tuple[int, list[SumRoll]]:
    """Roll A then B until the totals differ; the winner (0 for A, 1 for B) and every roll made."""
    rolls: list[SumRoll] = []
    for _ in range(limit):
        ra, rb = a.roll(source, "first side"), b.roll(source, "second side")
        rolls += [ra, rb]
        if ra.total != rb.total:
            return (0 if ra.total > rb.total else 1), rolls
    raise ValueError(f"still tied after {limit} rolls")


# --- a chart looked up by a roll -----------------------------------------------------------


class ChartRow(BaseModel):
    """A result of the chart, for totals from ``low`` up (to the next row's ``low``)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    low: int
    result: str = Field(min_length=1, max_length=80)


class Chart(BaseModel):
    """A table read by a roll: the row whose range holds the total (damage charts, penetration).

    Rows are given from the lowest ``low`` up; a total under the first row reads the first row,
    and a total over the last reads the last.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    roll: DiceSum = Field(default_factory=lambda: DiceSum(dice=1))
    rows: tuple[ChartRow, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _ordered(self) -> Chart:
        lows = [r.low for r in self.rows]
        if lows != sorted(set(lows)):
            raise ValueError("chart rows must go up, one row per starting total")
        return self

    def lookup(self, total: int) -> str:
        """The result a total reads (the one rule both the odds and the roll apply).

        >>> Chart(rows=(ChartRow(low=1, result="graze"), ChartRow(low=5, result="hit"))).lookup(5)
        'hit'
        """
        found = self.rows[0].result
        for row in self.rows:
            if total >= row.low:
                found = row.result
        return found

    def dist(self) -> Dist[str]:
        """Exact chance of each result.

        >>> chart = Chart(rows=(ChartRow(low=1, result="graze"), ChartRow(low=5, result="hit")))
        >>> chart.dist().probability("hit")
        Fraction(1, 3)
        """
        return self.roll.dist().map(self.lookup)

    def read(self, source: DiceSource, purpose: str) -> ChartRoll:
        rolled = self.roll.roll(source, purpose)
        return ChartRoll(faces=rolled.faces, total=rolled.total, result=self.lookup(rolled.total))


class ChartRoll(BaseModel):
    faces: list[int]
    total: int
    result: str
