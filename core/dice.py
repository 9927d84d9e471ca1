"""Exact dice: small immutable distributions that compose, and dice sources.

Every rulebook this app implements reads a pool die by die: each die is
classified (a miss, a success, a critical...) and the pool's result is the sum
of those classifications.  A :class:`Dist` is an exact probability
distribution over such outcome vectors, kept as integer weights over a common
denominator so nothing is ever rounded.

>>> d6 = Dist.die(6)
>>> d6.probability(6)
Fraction(1, 6)

Classify a die (4+ is one success) and add three of them together:

>>> hit = d6.map(lambda face: (1 if face >= 4 else 0,))
>>> three = hit.repeat(3)
>>> three.probability((2,))
Fraction(3, 8)

A dice source gives the faces a procedure needs: a seeded random one, or the
faces a player typed in after rolling real dice.  The same procedure runs on
either, so "the app rolls" and "I rolled these" can never disagree.

>>> TypedDice([3, 5]).roll(2, 6, "attack")
[3, 5]
"""

from __future__ import annotations

import math
import operator
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Generic, Protocol, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V", bound=Hashable)
W = TypeVar("W", bound=Hashable)

#: Outcome vectors are tuples of ints that add element-wise.
Vector = tuple[int, ...]


def _add(a: Hashable, b: Hashable) -> Hashable:
    """Element-wise sum of two outcome vectors (or two ints)."""
    if isinstance(a, tuple) and isinstance(b, tuple):
        return tuple(map(operator.add, a, b))
    if isinstance(a, int) and isinstance(b, int):
        return a + b
    raise TypeError(f"cannot add outcomes {a!r} and {b!r}")


def _times(a: Hashable, n: int) -> Hashable:
    """An outcome added to itself ``n`` times."""
    if isinstance(a, tuple):
        return tuple(n * x for x in a)
    if isinstance(a, int):
        return n * a
    raise TypeError(f"cannot multiply outcome {a!r}")


@dataclass(frozen=True)
class Dist(Generic[K]):
    """An exact distribution: outcome -> integer weight, out of ``total``.

    Weights are not reduced, so a distribution built from ``n`` rolls of a
    ``s``-sided die has ``total == s ** n``: handy for brute-force checks.
    """

    weights: Mapping[K, int]
    total: int

    @staticmethod
    def die(sides: int) -> Dist[int]:
        """A fair die numbered 1..sides.

        >>> Dist.die(3).weights
        {1: 1, 2: 1, 3: 1}
        """
        if sides < 1:
            raise ValueError("a die needs at least one face")
        return Dist({face: 1 for face in range(1, sides + 1)}, sides)

    @staticmethod
    def constant(outcome: K) -> Dist[K]:
        """The distribution that is always ``outcome``.

        >>> Dist.constant((0, 0)).probability((0, 0))
        Fraction(1, 1)
        """
        return Dist({outcome: 1}, 1)

    def map(self, f: Callable[[K], V]) -> Dist[V]:
        """Relabel every outcome with ``f`` (outcomes that meet are merged)."""
        out: dict[V, int] = {}
        for k, w in self.weights.items():
            key = f(k)
            out[key] = out.get(key, 0) + w
        return Dist(out, self.total)

    def bind(self, f: Callable[[K], Dist[V]]) -> Dist[V]:
        """Follow each outcome with a further random step (e.g. a reroll).

        The new total is ``self.total`` times the steps' common total, so
        every step must have the same total (it does for dice of one size).

        >>> d6 = Dist.die(6)
        >>> reroll_ones = d6.bind(lambda f: d6 if f == 1 else Dist.constant(f).scale(6))
        >>> reroll_ones.probability(1)
        Fraction(1, 36)
        """
        steps = {k: f(k) for k in self.weights}
        totals = {d.total for d in steps.values()}
        if len(totals) != 1:
            raise ValueError("every branch of bind() must share one denominator")
        step_total = totals.pop()
        out: dict[V, int] = {}
        for k, w in self.weights.items():
            for k2, w2 in steps[k].weights.items():
                out[k2] = out.get(k2, 0) + w * w2
        return Dist(out, self.total * step_total)

    def scale(self, factor: int) -> Dist[K]:
        """The same distribution over a denominator ``factor`` times larger."""
        return Dist({k: w * factor for k, w in self.weights.items()}, self.total * factor)

    def combine(self, other: Dist[V], f: Callable[[K, V], W]) -> Dist[W]:
        """The distribution of ``f(a, b)`` for independent ``a`` and ``b``."""
        out: dict[W, int] = {}
        for a, wa in self.weights.items():
            for b, wb in other.weights.items():
                key = f(a, b)
                out[key] = out.get(key, 0) + wa * wb
        return Dist(out, self.total * other.total)

    def __add__(self, other: Dist[K]) -> Dist[K]:
        """Convolution: the sum of two independent outcomes, element-wise."""
        return self.combine(other, _add)  # type: ignore[arg-type]

    def repeat(self, n: int) -> Dist[K]:
        """The sum of ``n`` independent copies.

        A die with at most three outcomes (miss, success, critical: every pool
        here) is summed by counting how many dice show each outcome, weighted
        by the multinomial coefficient: O(n^2) terms.  Anything else is summed
        by repeated squaring.

        >>> Dist.die(6).repeat(2).probability(7)
        Fraction(1, 6)
        >>> Dist.die(3).repeat(4).weights == (Dist.die(3) + Dist.die(3)).repeat(2).weights
        True
        """
        if n < 1:
            raise ValueError("repeat() needs at least one copy")
        items = [(k, w) for k, w in self.weights.items() if w]
        if len(items) <= 3:
            return self._multinomial(items, n)
        result: Dist[K] | None = None
        base: Dist[K] = self
        while n:
            if n & 1:
                result = base if result is None else result + base
            n >>= 1
            if n:
                base = base + base
        assert result is not None
        return result

    def _multinomial(self, items: list[tuple[K, int]], n: int) -> Dist[K]:
        while len(items) < 3:  # pad with impossible outcomes so one loop serves
            items.append((items[0][0], 0))
        (a, wa), (b, wb), (c, wc) = items
        pa = [wa**i for i in range(n + 1)]
        pb = [wb**i for i in range(n + 1)]
        pc = [wc**i for i in range(n + 1)]
        out: dict[K, int] = {}
        plain = type(a) is int and type(b) is int and type(c) is int  # a number a die: keys summed directly
        for i in range(n + 1):
            ways_i = math.comb(n, i) * pa[i]
            if not ways_i:
                continue
            for j in range(n - i + 1):
                k = n - i - j
                weight = ways_i * math.comb(n - i, j) * pb[j] * pc[k]
                if weight:
                    if plain:
                        key: K = a * i + b * j + c * k  # type: ignore[operator, assignment]
                    else:
                        key = _add(_add(_times(a, i), _times(b, j)), _times(c, k))  # type: ignore[assignment]
                    out[key] = out.get(key, 0) + weight
        return Dist(out, self.total**n)

    def probability(self, outcome: K) -> Fraction:
        """Exact probability of one outcome."""
        return Fraction(self.weights.get(outcome, 0), self.total)

    def probabilities(self) -> Iterator[tuple[K, Fraction]]:
        """Every outcome with its exact probability (zero weights skipped)."""
        for k, w in self.weights.items():
            if w:
                yield k, Fraction(w, self.total)


def mean(dist: Dist[int]) -> Fraction:
    """Exact mean of a distribution of counts.

    >>> mean(Dist.die(6))
    Fraction(7, 2)
    """
    return Fraction(sum(k * w for k, w in dist.weights.items()), dist.total)


# --- dice sources -----------------------------------------------------------------


class NeedMoreDice(Exception):
    """Raised by :class:`TypedDice` when the player has not typed enough faces yet.

    ``needed`` more faces of a ``sides``-sided die are wanted for ``purpose``;
    the interface asks the player to roll exactly those.
    """

    def __init__(self, needed: int, sides: int, purpose: str, given: int) -> None:
        super().__init__(f"roll {needed} more d{sides} for {purpose}")
        self.needed = needed
        self.sides = sides
        self.purpose = purpose
        self.given = given


class DiceSource(Protocol):
    """Where the faces of a procedure come from."""

    def roll(self, count: int, sides: int, purpose: str) -> list[int]:
        """Return ``count`` faces of a ``sides``-sided die, rolled for ``purpose``."""
        ...


class RandomDice:
    """Faces from a pseudo-random generator (seeded for reproducible tests).

    >>> RandomDice(seed=1).roll(3, 6, "test") == RandomDice(seed=1).roll(3, 6, "test")
    True
    """

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def roll(self, count: int, sides: int, purpose: str) -> list[int]:
        return [self._rng.randint(1, sides) for _ in range(count)]


class TypedDice:
    """Faces the player typed in from physical dice, consumed in order.

    >>> dice = TypedDice([6, 2])
    >>> dice.roll(1, 6, "attack")
    [6]
    >>> dice.roll(2, 6, "defense")
    Traceback (most recent call last):
    ...
    core.dice.NeedMoreDice: roll 1 more d6 for defense
    """

    def __init__(self, faces: Iterable[int]) -> None:
        self._faces = list(faces)
        self._used = 0

    @property
    def used(self) -> int:
        """How many faces have been consumed so far."""
        return self._used

    @property
    def left(self) -> int:
        """How many typed faces have not been used."""
        return len(self._faces) - self._used

    def roll(self, count: int, sides: int, purpose: str) -> list[int]:
        if self.left < count:
            raise NeedMoreDice(count - self.left, sides, purpose, self.left)
        faces = self._faces[self._used : self._used + count]
        for face in faces:
            if not 1 <= face <= sides:
                raise ValueError(f"a d{sides} has no face {face} ({purpose})")
        self._used += count
        return faces
