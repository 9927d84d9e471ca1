"""core.steps: every step's odds equal brute-force enumeration of every face its roll can use."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from core.dice import Dist, NeedMoreDice, TypedDice
from core.steps import DiceSum, FacePool


def enumerate_rolls(roll: Callable[[TypedDice], Any], limit: int = 200_000) -> Counter[Any]:
    """Every face sequence the roll asks for (typed dice, one NeedMoreDice at a time), with its chance."""
    out: Counter[Any] = Counter()
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        faces, chance = stack.pop()
        try:
            source = TypedDice(faces)
            result = roll(source)
        except NeedMoreDice as need:
            stack.extend(([*faces, f], chance / need.sides) for f in range(1, need.sides + 1))
            continue
        assert source.left == 0
        out[result] += chance  # type: ignore[assignment]
        assert len(out) < limit
    return out


def as_fractions(d: Dist[Any]) -> dict[Any, Fraction]:
    return dict(d.probabilities())


@pytest.mark.parametrize(
    "spec",
    [
        DiceSum(dice=2),
        DiceSum(dice=1, modifier=3),
        DiceSum(dice=3, sides=6, modifier=-2),
        DiceSum(dice=2, sides=10),
    ],
)
def test_a_sum_has_the_odds_of_every_roll(spec: DiceSum) -> None:
    brute = Counter()  # type: Counter[int]
    faces_all = itertools.product(range(1, spec.sides + 1), repeat=spec.dice)
    for faces in faces_all:
        brute[spec.roll(TypedDice(list(faces)), "check").total] += Fraction(1, spec.sides**spec.dice)  # type: ignore[assignment]
    assert as_fractions(spec.dist()) == dict(brute)


def test_two_d6_checks() -> None:
    two = DiceSum(dice=2)
    assert two.at_least(2) == 1
    assert two.at_least(7) == Fraction(21, 36)
    assert two.at_least(12) == Fraction(1, 36)
    assert two.at_least(13) == 0


FACE_POOLS = [
    FacePool(dice=2, sides=10, values=(2, 1, 1, 0, 0, 0, 0, 0, 0, 0)),  # evade vs T 4 (MechaStellar L146)
    FacePool(dice=2, sides=10, values=(0, 0, 0, 0, 1, 1, 1, 1, 1, 2), reroll_faces=(1, 2)),  # L517
    FacePool(dice=3, sides=6, values=(0, 0, 1, 1, 1, 3)),
    FacePool(dice=0, sides=10, values=(1,) * 10),
]


@pytest.mark.parametrize("pool", FACE_POOLS)
def test_face_pool_odds_match_every_roll(pool: FacePool) -> None:
    rolled = enumerate_rolls(lambda src: pool.roll(src, "p").total)
    assert as_fractions(pool.dist()) == {k: v for k, v in rolled.items() if v}


def test_face_pool_refuses_a_wrong_die() -> None:
    with pytest.raises(ValueError, match="needs 10 face values"):
        FacePool(dice=1, sides=10, values=(1, 2))
    with pytest.raises(ValueError, match="no such face"):
        FacePool(dice=1, sides=6, values=(0,) * 6, reroll_faces=(7,))
