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


# --- chains: odds equal every face sequence the walk can use -------------------------------------

from core.steps import Both, Chain, End, Last, Link, Then, reduced  # noqa: E402


def _check_then_damage(tn: int) -> Chain[int]:
    """2D6 to hit at ``tn``, then a D3 sum of damage for a hit (a miss ends with 0)."""
    return Link(
        DiceSum(dice=2),
        "to hit",
        lambda t: Link(DiceSum(dice=1, sides=3), "damage", End) if t >= tn else End(0),
    )


def _evade_then_saves() -> Chain[tuple[int, int]]:
    """An evade pool whose hits each roll a save (a face pool of their number): MechaStellar's shape."""
    evade = FacePool(dice=2, sides=6, values=(2, 1, 1, 0, 0, 0), reroll_faces=(1,), reroll_limit=1)

    def saves(hits: int) -> Chain[tuple[int, int]]:
        pool = FacePool(dice=min(hits, 3), sides=6, values=(1, 1, 0, 0, 0, 0))
        return Link(pool, "saves", lambda failed: End((hits, failed)))

    return Link(evade, "evade", saves)


def _burst(shots: int) -> Chain[int]:
    """Shots each from what the last left: 1D6 to hit at 4+ less what the target took; hits cap at 3."""

    def shot(taken: int) -> Chain[int]:
        return Link(
            DiceSum(dice=1), "to hit", lambda t: End(min(3, taken + 1)) if t - taken >= 4 else End(taken)
        )

    chain: Chain[int] = End(0)
    for _ in range(shots):
        chain = chain.then(shot)
    return chain


def _shared_hit(tn: int) -> Chain[tuple[int, int]]:
    """One chain handed on for every total that hits (weighed once per odds call), read by a last step:
    a D6 to hit, then 2D3 whose total and whose top die both count (Skirmishers' and Gundam's shape)."""
    hit = Last(DiceSum(dice=2, sides=3), "damage", lambda total: (total, min(total, 3)))
    return Link(DiceSum(dice=1), "to hit", lambda t: hit if t >= tn else End((0, 0)))


CHAINS = [
    _check_then_damage(7),
    _check_then_damage(13),  # never hits: the damage is never rolled
    _evade_then_saves(),
    _burst(3),
    Then(_check_then_damage(8), lambda dmg: Link(DiceSum(dice=1), "again", lambda t: End(dmg + (t >= 5)))),
    End(5),
    _shared_hit(3),
    Both(
        FacePool(dice=2, sides=6, values=(0, 0, 0, 1, 1, 2)),
        "attack",
        DiceSum(dice=1),
        "defence",
        lambda a, d: max(0, a - (d >= 5)),
    ),
    Both(DiceSum(dice=1), "a", DiceSum(dice=1), "b", lambda a, b: (a > b, a == b)).then(
        lambda won: (
            End(won) if not won[1] else Last(DiceSum(dice=1, sides=2), "tie", lambda c: (c == 2, False))
        )
    ),
    _shared_hit(3).then(lambda first: _shared_hit(5).then(lambda second: End(first[0] + second[0]))),
]


@pytest.mark.parametrize("chain", CHAINS)
def test_a_chains_odds_are_every_face_sequence_its_walk_can_use(chain: Chain[Any]) -> None:
    rolled = enumerate_rolls(lambda src: chain.roll(src).value)
    assert as_fractions(chain.dist()) == {k: v for k, v in rolled.items() if v}


def test_a_chain_keeps_each_step_as_rolled_in_order() -> None:
    out = _evade_then_saves().roll(TypedDice([1, 5, 3, 1, 6]))  # 1 rerolled to 3: 1 hit, 1 save: failed
    assert out.value == (1, 1)
    assert [p for p, _ in out.rolls] == ["evade", "saves"]
    assert out.of("evade")[0].first == [1, 5] and out.of("evade")[0].final == [3, 5]  # type: ignore[attr-defined]
    assert _burst(3).roll(TypedDice([4, 2, 6])).value == 2  # hit, then 2 < 4 + 1 misses, then 6 >= 5 hits


def test_dice_of_one_size_keep_their_plain_total() -> None:
    """Each outcome's next chain over their least common total: 2D6 then 2D6 is out of 36 x 36, the total
    the systems' own odds had (a card walk's shot)."""
    chain = Link(
        DiceSum(dice=2), "to hit", lambda t: Link(DiceSum(dice=2), "cell", End) if t >= 7 else End(0)
    )
    assert chain.dist().total == 36 * 36
    assert reduced(Dist({0: 2, 1: 4}, 6)) == Dist({0: 1, 1: 2}, 3)
