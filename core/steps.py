"""Dice steps the rule systems share, and the chains that carry a system's procedure through them.

Every step here has its exact odds and its roll from the same per-die code, so they cannot disagree
(tests/test_steps.py enumerates every face to check):

* :class:`FacePool`: N dice where each face is worth a number of its own (MechaStellar's
  roll-under evade die whose lowest face counts double and whose highest never counts,
  L136-L141; its clash die where 5+ counts 1 and 10 counts 2, L190-L191), with chosen faces
  rolled again once;
* :class:`DiceSum`: the total of N dice plus a modifier (a 2D6 check against a target
  number, as a system's attacks, control and morale checks roll it).

A system's procedure chains them (issue 27): a shot rolls to hit, and what the dice show decides
what is rolled next, then what the unit keeps.  A :class:`Chain` is that procedure as one immutable
value: :class:`Link` rolls a step and hands its outcome to a function that says what comes next,
:class:`Last` rolls a step whose outcome gives the result (:class:`Both`: two steps, neither changing
the other), :class:`End` is a result, and :meth:`Chain.then` runs a chain to its end and goes on from
its result.  The functions a chain calls must be pure: :meth:`Chain.dist` calls each once per outcome
(and may share what one made), :meth:`Chain.roll` once for the outcome rolled.  :meth:`Chain.dist`
is the exact mixture over every outcome of every step; :meth:`Chain.roll` walks the very same links
with dice from a source, so the odds and the roll call the same code and cannot disagree.  A
player's decision between two steps is either an input of the chain (the function after a step reads
the answer the form already gave, or the reading the odds assume), or the chain ends where the
decision is asked and the next chain starts from the answer: each system's package says which, and
why.

A 2D6 check at 7+, then 1D6 for the damage of a hit (0 for a miss):

>>> from core.dice import TypedDice
>>> shot = Link(DiceSum(dice=2), "to hit",
...             lambda total: Link(DiceSum(dice=1), "damage", End) if total >= 7 else End(0))
>>> shot.dist().probability(0)  # a miss: 15 totals in 36
Fraction(5, 12)
>>> rolled = shot.roll(TypedDice([4, 5, 6]))
>>> rolled.value, [(purpose, r.value) for purpose, r in rolled.rolls]
(6, [('to hit', 9), ('damage', 6)])

Two shots, the second from what the first left (a chain's results are merged before the next):

>>> two = shot.then(lambda first: shot.then(lambda second: End(first + second)))
>>> two.dist().probability(12)
Fraction(49, 5184)
>>> two.roll(TypedDice([1, 1, 6, 6, 3])).value
3

An attack pool against a defence die, neither changing the other, read together:

>>> contest = Both(FacePool(dice=2, sides=6, values=(0, 0, 0, 1, 1, 1)), "attack",
...                DiceSum(dice=1), "defence", lambda hits, block: max(0, hits - (block >= 5)))
>>> contest.dist().probability(2), contest.roll(TypedDice([4, 6, 5])).value
(Fraction(1, 6), 1)

A step stays here only while a system uses it (issue 27: the chained steps no system used went).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from math import gcd, lcm
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.dice import DiceSource, Dist
from core.memo import remembered
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
        """One die, its reroll included; remembered by the die (every pool of it meets the same die)."""
        key = (self.sides, self.values, self.reroll_faces)
        return remembered(_DIE_DISTS, key, self._die_dist, _FACE_DISTS_MOST)

    def _die_dist(self) -> Dist[int]:
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
        return remembered(_FACE_DISTS, self, self._dist, _FACE_DISTS_MOST)

    def _dist(self) -> Dist[int]:
        if self.dice == 0:
            return Dist.constant(0)
        if self.reroll_limit is not None and self.reroll_faces:
            return self._limited_dist()
        return self.die_dist().repeat(self.dice)

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
#: FacePool.die_dist by (sides, face values, faces rolled again); never changed in place.
_DIE_DISTS: dict[tuple[int, tuple[int, ...], tuple[int, ...]], Dist[int]] = {}


class FaceRoll(BaseModel):
    first: list[int] = Field(description="The faces as first rolled.")
    final: list[int] = Field(description="The faces after rerolls.")
    total: int

    @property
    def value(self) -> int:
        """The outcome a chain reads: the pool's total."""
        return self.total


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
        return remembered(_SUM_DISTS, self, self._dist, _FACE_DISTS_MOST)

    def _dist(self) -> Dist[int]:
        return Dist.die(self.sides).repeat(self.dice).map(lambda s: self.total([s]))

    def at_least(self, target: int) -> Fraction:
        """Chance the total reaches ``target`` (a check: 2D6 >= N)."""
        d = self.dist()
        return Fraction(sum(w for t, w in d.weights.items() if t >= target), d.total)

    def roll(self, source: DiceSource, purpose: str) -> SumRoll:
        faces = source.roll(self.dice, self.sides, purpose)
        return SumRoll(faces=faces, total=self.total(faces))


#: DiceSum.dist by sum (a frozen model: its fields are its key): a burst's chain weighs the same 2D6 for
#: each shot and each first cell.  Never changed in place.
_SUM_DISTS: dict[DiceSum, Dist[int]] = {}


class SumRoll(BaseModel):
    faces: list[int]
    total: int

    @property
    def value(self) -> int:
        """The outcome a chain reads: the sum."""
        return self.total


# --- chains of steps ---------------------------------------------------------------------

S = TypeVar("S", bound=Hashable)
E = TypeVar("E", bound=Hashable)
F = TypeVar("F", bound=Hashable)


class Rolled(Protocol):
    """A rolled step, as a system keeps it for its log (:class:`FaceRoll`, :class:`SumRoll`...)."""

    @property
    def value(self) -> Any:
        """The outcome the chain goes on from: the same value the step's :meth:`Step.dist` counts."""
        ...


class Step(Protocol[S]):
    """One random step: its exact distribution and its roll, from the same per-die code."""

    def dist(self) -> Dist[S]: ...

    def roll(self, source: DiceSource, purpose: str) -> Rolled: ...


@dataclass(frozen=True)
class ChainRoll(Generic[E]):
    """A walked chain: its result and each step as rolled, in order, with the purpose it was rolled for."""

    value: E
    rolls: tuple[tuple[str, Rolled], ...] = ()

    def of(self, purpose: str) -> list[Rolled]:
        """The steps rolled for ``purpose``, in order."""
        return [r for p, r in self.rolls if p == purpose]


@dataclass
class _Memo:
    """Sub-distributions met in one :meth:`Chain.dist` call: by the function that makes the next chain and
    the outcome it was given (a burst's next shot from a card an earlier shot already left is weighed
    once), and by the chain handed on (one chain for several outcomes, a hit's walk whatever the total,
    is weighed once; the chain is kept with it, so its id stays its own)."""

    by_outcome: dict[tuple[Callable[[Any], Chain[Any]], Hashable], Dist[Any]] = field(default_factory=dict)
    by_chain: dict[int, tuple[Chain[Any], Dist[Any]]] = field(default_factory=dict)


class Chain(Generic[E]):
    """A procedure of dice steps, each step's outcome leading to the next step or to a result."""

    def dist(self) -> Dist[E]:
        """The exact distribution of the result: every outcome of every step, weighted."""
        return self._dist(_Memo())

    def roll(self, source: DiceSource) -> ChainRoll[E]:
        """The same walk with dice from ``source``: each step rolled, its outcome followed."""
        rolls: list[tuple[str, Rolled]] = []
        value = self._roll(source, rolls)
        return ChainRoll(value, tuple(rolls))

    def then(self, after: Callable[[E], Chain[F]]) -> Chain[F]:
        """This chain to its result, then the chain ``after`` makes from it (the odds merge equal results
        first, so a long run of steps stays as small as its distinct results)."""
        return Then(self, after)

    def _dist(self, memo: _Memo) -> Dist[E]:
        raise NotImplementedError

    def _roll(self, source: DiceSource, rolls: list[tuple[str, Rolled]]) -> E:
        raise NotImplementedError


@dataclass(frozen=True)
class End(Chain[E]):
    """A result: nothing more is rolled."""

    value: E

    def _dist(self, memo: _Memo) -> Dist[E]:
        return Dist.constant(self.value)

    def _roll(self, source: DiceSource, rolls: list[tuple[str, Rolled]]) -> E:
        return self.value


@dataclass(frozen=True)
class Link(Chain[E]):
    """Roll ``step`` (for ``purpose``: the words a player asked for the dice reads), then go on with the
    chain ``after`` makes from its outcome."""

    step: Step[Any]
    purpose: str
    after: Callable[[Any], Chain[E]] = field(repr=False)

    def _dist(self, memo: _Memo) -> Dist[E]:
        return _mix(self.step.dist(), self.after, memo)

    def _roll(self, source: DiceSource, rolls: list[tuple[str, Rolled]]) -> E:
        rolled = self.step.roll(source, self.purpose)
        rolls.append((self.purpose, rolled))
        return self.after(rolled.value)._roll(source, rolls)


@dataclass(frozen=True)
class Last(Chain[E]):
    """Roll ``step`` (for ``purpose``) and read its outcome as the result with ``result``: a chain's last
    link (its odds are the step's distribution relabelled, with no chain made for each outcome)."""

    step: Step[Any]
    purpose: str
    result: Callable[[Any], E] = field(repr=False)

    def _dist(self, memo: _Memo) -> Dist[E]:
        return self.step.dist().map(self.result)

    def _roll(self, source: DiceSource, rolls: list[tuple[str, Rolled]]) -> E:
        rolled = self.step.roll(source, self.purpose)
        rolls.append((self.purpose, rolled))
        return self.result(rolled.value)


@dataclass(frozen=True)
class Both(Chain[E]):
    """Roll ``first`` then ``second`` (for their purposes), two steps neither of which changes the other,
    and read their outcomes together as the result with ``result``: a chain's last two links (its odds
    weigh each pair of outcomes once, in one pass: an attack pool against a defend pool)."""

    first: Step[Any]
    first_purpose: str
    second: Step[Any]
    second_purpose: str
    result: Callable[[Any, Any], E] = field(repr=False)

    def _dist(self, memo: _Memo) -> Dist[E]:
        return self.first.dist().combine(self.second.dist(), self.result)

    def _roll(self, source: DiceSource, rolls: list[tuple[str, Rolled]]) -> E:
        a = self.first.roll(source, self.first_purpose)
        rolls.append((self.first_purpose, a))
        b = self.second.roll(source, self.second_purpose)
        rolls.append((self.second_purpose, b))
        return self.result(a.value, b.value)


@dataclass(frozen=True)
class Then(Chain[E]):
    """The chain ``first`` to its result, then the chain ``after`` makes from that result."""

    first: Chain[Any]
    after: Callable[[Any], Chain[E]] = field(repr=False)

    def _dist(self, memo: _Memo) -> Dist[E]:
        return _mix(self.first._dist(memo), self.after, memo, share=True)

    def _roll(self, source: DiceSource, rolls: list[tuple[str, Rolled]]) -> E:
        return self.after(self.first._roll(source, rolls))._roll(source, rolls)


def _mix(outcomes: Dist[Any], after: Callable[[Any], Chain[E]], memo: _Memo, share: bool = False) -> Dist[E]:
    """Each outcome's next chain, weighted by the outcome's chance: over the outcomes' total times the
    least common total of the next chains (dice of one size keep their plain total, 36 x 36 ...).
    ``share``: the next chain of an outcome met before through the same function is not made again (a
    :class:`Then`'s results; a :class:`Link`'s outcomes are each met once)."""
    nexts: list[tuple[int, Dist[E]]] = []
    ends: dict[E, int] = {}
    by_outcome, by_chain = memo.by_outcome, memo.by_chain
    for outcome, weight in outcomes.weights.items():
        if not weight:
            continue
        if share and (sub := by_outcome.get((after, outcome))) is not None:
            nexts.append((weight, sub))
            continue
        nxt = after(outcome)
        if type(nxt) is End:  # a result: weighed here, no distribution built
            value = nxt.value
            ends[value] = ends.get(value, 0) + weight
            continue
        held = by_chain.get(id(nxt))
        if held is None:
            held = by_chain[id(nxt)] = (nxt, nxt._dist(memo))
        if share:
            by_outcome[(after, outcome)] = held[1]
        nexts.append((weight, held[1]))
    totals = {sub.total for _, sub in nexts}
    common = (totals.pop() if len(totals) == 1 else lcm(*totals)) if totals else 1
    out: dict[E, int] = {r: w * common for r, w in ends.items()} if common != 1 else ends
    get = out.get
    for weight, sub in nexts:
        scale = weight * (common // sub.total)
        for result, w in sub.weights.items():
            if w:
                out[result] = get(result, 0) + w * scale
    return Dist(out, outcomes.total * common)


def reduced(dist: Dist[E]) -> Dist[E]:
    """The same distribution over the smallest total its weights allow (the Dist a sum of Fractions gives).

    >>> reduced(Dist({0: 2, 1: 4}, 6)).weights, reduced(Dist({0: 2, 1: 4}, 6)).total
    ({0: 1, 1: 2}, 3)
    """
    g = dist.total
    for w in dist.weights.values():
        g = gcd(g, w)
    if g <= 1:
        return dist
    return Dist({k: w // g for k, w in dist.weights.items()}, dist.total // g)
