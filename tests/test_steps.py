"""core.steps: every step's odds equal brute-force enumeration of every face its roll can use."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from core.dice import Dist, NeedMoreDice, RandomDice, TypedDice
from core.pool import PoolSpec
from core.steps import Chart, ChartRow, DiceSum, FacePool, ShotChain, opposed_sums, roll_opposed


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


CHAINS = [
    ShotChain(to_hit=PoolSpec(dice=3, success_on=4)),
    ShotChain(to_hit=PoolSpec(dice=3, success_on=4), save=PoolSpec(dice=1, success_on=5)),
    ShotChain(
        to_hit=PoolSpec(dice=2, success_on=3, crit_on=6, crit_extra=1), save=PoolSpec(dice=1, success_on=4)
    ),
    ShotChain(
        to_hit=PoolSpec(dice=2, success_on=4, reroll="failures"),
        save=PoolSpec(dice=1, success_on=5, reroll="faces", reroll_faces=(1,)),
    ),
    ShotChain(to_hit=PoolSpec(dice=2, sides=10, success_on=7), save=PoolSpec(dice=1, sides=10, success_on=9)),
    ShotChain(to_hit=PoolSpec(dice=3, success_on=3), save=PoolSpec(dice=1, success_on=4), max_saves=2),
]


@pytest.mark.parametrize("chain", CHAINS, ids=range(len(CHAINS)))
def test_a_shot_chain_has_the_odds_of_every_roll(chain: ShotChain) -> None:
    brute = enumerate_rolls(lambda dice: (lambda r: (r.hits, r.saved))(chain.roll(dice)))
    assert as_fractions(chain.dist()) == dict(brute)
    assert sum(brute.values()) == 1


def test_a_shot_chain_by_hand() -> None:
    chain = ShotChain(to_hit=PoolSpec(dice=2, success_on=4), save=PoolSpec(dice=1, success_on=4))
    # two hits (1/4), both saves fail (1/4): 1/16 that two get through
    assert chain.through_dist().probability(2) == Fraction(1, 16)
    rolled = chain.roll(TypedDice([5, 6, 1, 4]))
    assert (rolled.hits, rolled.through) == (2, 1)
    assert rolled.saves is not None and [d.first for d in rolled.saves.dice] == [1, 4]
    # no hit, no save asked for
    assert chain.roll(TypedDice([1, 2])).saves is None


def test_the_armor_save_example_of_mechastellar() -> None:
    """003, L218-L225: four hits of a PEN 4 weapon on ARM Sv+2: at most three saves, each 2+ on a d10."""
    four_hits = PoolSpec(dice=4, sides=10, success_on=1)  # the hits are given
    chain = ShotChain(to_hit=four_hits, save=PoolSpec(dice=1, sides=10, success_on=4 - 2), max_saves=3)
    with pytest.raises(NeedMoreDice) as asked:
        chain.roll(TypedDice([5, 5, 5, 5]))
    assert (asked.value.needed, asked.value.sides, asked.value.purpose) == (3, 10, "saves")
    rolled = chain.roll(TypedDice([5, 5, 5, 5, 1, 7, 2]))
    assert (rolled.hits, rolled.saved, rolled.failed) == (4, 2, 1)
    assert chain.failed_dist().probability(0) == Fraction(9, 10) ** 3
    # two hits of a PEN 5 weapon: two saves at 3+
    two = ShotChain(
        to_hit=PoolSpec(dice=2, sides=10, success_on=1), save=PoolSpec(dice=1, sides=10, success_on=3)
    )
    assert two.failed_dist().probability(2) == Fraction(1, 25)


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


def test_the_advantage_examples_of_the_digest() -> None:
    """Gundam Skirmish Advantage (000, L975-L977): worked odds of the digest."""
    assert opposed_sums(DiceSum(dice=1, modifier=2), DiceSum(dice=1, modifier=3))[0] == Fraction(10, 31)
    assert opposed_sums(DiceSum(dice=2, modifier=2), DiceSum(dice=1, modifier=3))[0] == Fraction(32, 39)


def test_an_opposed_roll_rerolls_ties_and_agrees_with_its_odds() -> None:
    a, b = DiceSum(dice=1, modifier=2), DiceSum(dice=1, modifier=3)
    winner, rolls = roll_opposed(a, b, TypedDice([3, 2, 6, 1]))  # 5 v 5 tie, then 8 v 4
    assert winner == 0 and [r.total for r in rolls] == [5, 5, 8, 4]
    with pytest.raises(ValueError, match="still tied"):
        roll_opposed(a, b, TypedDice([3, 2]), limit=1)
    # one round by brute force: A's chance is its wins over the rounds that are not ties
    wins = ties = 0
    for fa, fb in itertools.product(range(1, 7), repeat=2):
        ta, tb = a.total([fa]), b.total([fb])
        wins += ta > tb
        ties += ta == tb
    assert opposed_sums(a, b) == (Fraction(wins, 36 - ties), Fraction(36 - ties - wins, 36 - ties))
    # and many seeded rolls land on both sides
    assert {roll_opposed(a, b, RandomDice(seed))[0] for seed in range(40)} == {0, 1}


DAMAGE = Chart(
    roll=DiceSum(dice=2),
    rows=(
        ChartRow(low=2, result="scratch"),
        ChartRow(low=6, result="arm"),
        ChartRow(low=9, result="leg"),
        ChartRow(low=12, result="cockpit"),
    ),
)


def test_a_chart_has_the_odds_of_every_roll() -> None:
    brute = enumerate_rolls(lambda dice: DAMAGE.read(dice, "damage chart").result)
    assert as_fractions(DAMAGE.dist()) == dict(brute)
    assert DAMAGE.dist().probability("cockpit") == Fraction(1, 36)
    assert DAMAGE.dist().probability("leg") == Fraction(9, 36)  # 9, 10, 11: 4 + 3 + 2 ways


def test_a_chart_reads_totals_outside_its_rows_at_its_ends() -> None:
    penetration = Chart(
        roll=DiceSum(dice=1, modifier=-2), rows=(ChartRow(low=1, result="no"), ChartRow(low=3, result="yes"))
    )
    assert penetration.read(TypedDice([1]), "pen").result == "no"  # total -1, under the first row
    assert penetration.read(TypedDice([6]), "pen").total == 4
    assert penetration.dist().probability("yes") == Fraction(2, 6)
    with pytest.raises(ValueError, match="must go up"):
        Chart(rows=(ChartRow(low=3, result="a"), ChartRow(low=3, result="b")))


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
