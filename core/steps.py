"""Dice steps the rule systems share, each with exact odds from the code that resolves it.

:mod:`core.pool` is one pool (N dice, success on X+, rerolls, an opposed pool).  These are the
steps beside it that a system uses; for each, the odds and the roll call the same per-die
function, so they cannot disagree (tests/test_steps.py enumerates every face to check):

* :class:`FacePool`: N dice where each face is worth a number of its own (MechaStellar's
  roll-under evade die whose lowest face counts double and whose highest never counts,
  L136-L141; its clash die where 5+ counts 1 and 10 counts 2, L190-L191), with chosen faces
  rolled again once;
* :class:`DiceSum`: the total of N dice plus a modifier (a 2D6 check against a target
  number, as a system's attacks, control and morale checks roll it).

A step stays here only while a system uses it (issue 27: the chained steps no system used went).

>>> from core.dice import TypedDice
>>> check = DiceSum(dice=2, modifier=0)
>>> check.at_least(12)
Fraction(1, 36)
>>> check.roll(TypedDice([6, 6]), "check").total
12
"""

from __future__ import annotations

from fractions import Fraction

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.dice import DiceSource, Dist
from core.pool import MAX_DICE

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
    reroll_limit: int | None = Field(
        default=None,
        ge=0,
        le=MAX_DICE,
        description="At most this many dice rolled again: dice showing the faces listed first go first "
        "(a defender rerolling its worst dice).",
    )

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
        """The pool's total, exactly (0 dice: always 0); remembered by the pool (an odds call meets
        the same few pools many times: each split of a clash, each save pool).

        >>> capped = FacePool(dice=2, sides=2, values=(1, 0), reroll_faces=(1,), reroll_limit=1)
        >>> capped.dist().probability(2)  # both show 1 (1/4), the one rolled again shows 1 (1/2)
        Fraction(1, 8)
        """
        out = _FACE_DISTS.get(self)
        if out is None:
            if len(_FACE_DISTS) >= _FACE_DISTS_MOST:
                _FACE_DISTS.clear()
            if self.dice == 0:
                out = Dist.constant(0)
            elif self.reroll_limit is not None and self.reroll_faces:
                out = self._limited_dist()
            else:
                out = self.die_dist().repeat(self.dice)
            _FACE_DISTS[self] = out
        return out

    def _limited_dist(self) -> Dist[int]:
        """The total when at most ``reroll_limit`` dice are rolled again, the faces listed first first.

        Die by die, the state is the total of the dice kept and the reroll faces still waiting (at most
        the limit, best first); a face pushed past the limit is kept.  Then the waiting dice roll anew.
        """
        limit = min(self.reroll_limit or 0, self.dice)
        order = {f: n for n, f in enumerate(self.reroll_faces)}
        states: dict[tuple[int, tuple[int, ...]], int] = {(0, ()): 1}
        for _ in range(self.dice):
            nxt: dict[tuple[int, tuple[int, ...]], int] = {}
            for (kept, waiting), w in states.items():
                for f in range(1, self.sides + 1):
                    if f in order:
                        new, more = tuple(sorted((*waiting, order[f]))), 0
                        if len(new) > limit:
                            new, more = new[:-1], self.value(self.reroll_faces[new[-1]])
                    else:
                        new, more = waiting, self.value(f)
                    key = (kept + more, new)
                    nxt[key] = nxt.get(key, 0) + w
            states = nxt
        plain = Dist.die(self.sides).map(self.value)
        out: dict[int, int] = {}
        for (kept, waiting), w in states.items():
            k = len(waiting)
            again = (plain.repeat(k) if k else Dist.constant(0)).scale(self.sides ** (limit - k))
            for v, w2 in again.weights.items():
                out[kept + v] = out.get(kept + v, 0) + w * w2
        return Dist(out, self.sides ** (self.dice + limit))

    def again(self, first: list[int]) -> list[int]:
        """Which dice of a first roll are rolled again (by position): every die showing a reroll face, or
        with a limit the ones whose faces are listed first (the earlier die on a tie)."""
        idx = [i for i, f in enumerate(first) if f in self.reroll_faces]
        if self.reroll_limit is not None:
            order = {f: n for n, f in enumerate(self.reroll_faces)}
            idx = sorted(sorted(idx, key=lambda i: (order[first[i]], i))[: self.reroll_limit])
        return idx

    def roll(self, source: DiceSource, purpose: str) -> FaceRoll:
        """Roll the dice, then the faces to roll again (in one further request), each die once."""
        first = source.roll(self.dice, self.sides, purpose) if self.dice else []
        again = self.again(first)
        new = source.roll(len(again), self.sides, f"{purpose} rerolls") if again else []
        final = list(first)
        for i, f in zip(again, new, strict=True):
            final[i] = f
        return FaceRoll(first=first, final=final, total=sum(self.value(f) for f in final))


#: FacePool.dist by pool (a frozen model: its fields are its key); never changed in place.
_FACE_DISTS: dict[FacePool, Dist[int]] = {}
_FACE_DISTS_MOST = 512


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
