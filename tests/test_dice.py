"""The dice core: exact, composable, and in agreement with three independent checks.

1. brute-force enumeration of every face of every die (small pools),
2. icepool, a separate exact dice library, as an oracle,
3. a seeded simulation of the rolling procedure, within a tolerance.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.dice import Dist, NeedMoreDice, RandomDice, TypedDice
from core.pool import (
    PoolSpec,
    cancel,
    contest_odds,
    contest_summary,
    roll_contest,
    roll_pool,
    table,
)


@st.composite
def pools(draw: st.DrawFn, max_dice: int = 8, sides: tuple[int, ...] = (3, 6, 10)) -> PoolSpec:
    s = draw(st.sampled_from(sides))
    success_on = draw(st.integers(1, s))
    crit_on = draw(st.one_of(st.none(), st.integers(success_on, s)))
    reroll = draw(st.sampled_from(["none", "failures", "faces"]))
    faces: tuple[int, ...] = ()
    if reroll == "faces":
        faces = tuple(sorted(draw(st.sets(st.integers(1, s), min_size=1, max_size=s))))
    return PoolSpec(
        dice=draw(st.integers(1, max_dice)),
        sides=s,
        success_on=success_on,
        crit_on=crit_on,
        crit_extra=draw(st.integers(0, 2)),
        reroll=reroll,
        reroll_faces=faces,
    )


# --- Dist -----------------------------------------------------------------------


def test_two_d6_sum_has_the_triangle() -> None:
    two = Dist.die(6).repeat(2)
    assert [two.weights[k] for k in range(2, 13)] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    assert two.total == 36


def test_repeat_matches_repeated_addition() -> None:
    d = Dist.die(4)
    assert d.repeat(5).weights == (d + d + d + d + d).weights


@given(pools())
@settings(max_examples=150, deadline=None)
def test_every_pool_distribution_sums_to_exactly_one(spec: PoolSpec) -> None:
    dist = spec.dist()
    assert sum(p for _, p in dist.probabilities()) == 1
    assert all(w >= 0 for w in dist.weights.values())


# --- brute force ------------------------------------------------------------------


def brute_force(spec: PoolSpec) -> dict[tuple[int, int], Fraction]:
    """Every first face and every possible reroll face of every die, counted.

    Written from the rule, not from PoolSpec's helpers: a die below the
    success number (or showing a chosen face) is rolled once more.
    """
    s, n = spec.sides, spec.dice
    counts: Counter[tuple[int, int]] = Counter()
    for faces in itertools.product(range(1, s + 1), repeat=2 * n):
        succ = crit = 0
        for first, second in zip(faces[:n], faces[n:], strict=True):
            if spec.reroll == "failures":
                again = first < spec.success_on
            else:
                again = spec.reroll == "faces" and first in spec.reroll_faces
            face = second if again else first
            is_crit = spec.crit_on is not None and face >= spec.crit_on
            succ += (face >= spec.success_on) + (spec.crit_extra if is_crit else 0)
            crit += is_crit
        counts[(succ, crit)] += 1
    total = s ** (2 * n)
    return {k: Fraction(v, total) for k, v in counts.items()}


@given(pools(max_dice=3, sides=(3, 6)))
@settings(max_examples=60, deadline=None)
def test_pool_agrees_with_brute_force(spec: PoolSpec) -> None:
    exact = dict(spec.dist().probabilities())
    assert exact == brute_force(spec)


@given(pools(max_dice=2, sides=(3, 6)), pools(max_dice=2, sides=(3, 6)))
@settings(max_examples=40, deadline=None)
def test_contest_agrees_with_brute_force(attack: PoolSpec, defense: PoolSpec) -> None:
    a, d = brute_force(attack), brute_force(defense)
    expected: Counter[tuple[int, int, int]] = Counter()
    for (a_s, a_c), pa in a.items():
        for (d_s, d_c), pd in d.items():
            expected[(max(0, a_s - d_s), a_c, d_c)] += pa * pd  # type: ignore[assignment]
    assert dict(contest_odds(attack, defense).probabilities()) == dict(expected)


@given(pools(max_dice=6), st.one_of(st.none(), pools(max_dice=5)))
@settings(max_examples=80, deadline=None)
def test_summary_is_the_marginals_of_the_joint(attack: PoolSpec, defense: PoolSpec | None) -> None:
    joint = contest_odds(attack, defense)
    summary = contest_summary(attack, defense)
    assert dict(summary.net.probabilities()) == dict(joint.map(lambda k: k[0]).probabilities())
    assert dict(summary.attack_crits.probabilities()) == dict(joint.map(lambda k: k[1]).probabilities())
    if defense is not None:
        assert summary.defense_crits is not None
        assert dict(summary.defense_crits.probabilities()) == dict(joint.map(lambda k: k[2]).probabilities())
    both = sum(p for (net, c, _), p in joint.probabilities() if net >= 1 and c >= 1)
    assert summary.net_and_crit == both


# --- icepool as an oracle -------------------------------------------------------------


def icepool_successes(spec: PoolSpec) -> dict[int, Fraction]:
    die = icepool.d(spec.sides)
    again = [f for f in range(1, spec.sides + 1) if spec.rerolls(f)]
    # Rerolling every face once leaves a fair die (icepool 2.1.3 divides by zero there).
    if again and len(again) < spec.sides:
        die = die.reroll(again, depth=1)

    def value(face: int) -> int:
        crit = spec.crit_on is not None and face >= spec.crit_on
        return int(face >= spec.success_on) + (spec.crit_extra if crit else 0)

    pool = spec.dice @ die.map(value)
    return {int(k): Fraction(q, pool.denominator()) for k, q in pool.items() if q}


@given(pools(max_dice=12))
@settings(max_examples=60, deadline=None)
def test_successes_agree_with_icepool(spec: PoolSpec) -> None:
    ours = dict(spec.dist().map(lambda k: k[0]).probabilities())
    assert ours == icepool_successes(spec)


# --- seeded simulation of the rolling procedure ----------------------------------------


@pytest.mark.parametrize(
    "attack, defense",
    [
        (PoolSpec(dice=6, success_on=4, crit_on=6, reroll="failures"), PoolSpec(dice=4, success_on=4)),
        (PoolSpec(dice=5, sides=10, success_on=7, crit_on=10, crit_extra=1), None),
        (PoolSpec(dice=4, success_on=3, reroll="faces", reroll_faces=(1,)), PoolSpec(dice=3, success_on=5)),
    ],
)
def test_rolling_matches_the_odds_within_tolerance(attack: PoolSpec, defense: PoolSpec | None) -> None:
    trials = 20000
    dice = RandomDice(seed=20261122)
    seen = Counter(roll_contest(attack, defense, dice).outcome for _ in range(trials))
    for outcome, p in contest_odds(attack, defense).probabilities():
        sigma = math.sqrt(float(p) * (1 - float(p)) / trials)
        assert abs(seen[outcome] / trials - float(p)) <= 5 * sigma + 1e-9, outcome


# --- rolling with typed dice --------------------------------------------------------------


def test_gunframe_example_three_hits_and_one_power_point() -> None:
    """GUNFRAME L1090-1102: the Firefly rolls 4, 4 and 6: three hits, one power point."""
    roll = roll_pool(PoolSpec(dice=3, success_on=4, crit_on=6), TypedDice([4, 4, 6]), "attack")
    assert (roll.successes, roll.crits) == (3, 1)


def test_rerolled_die_keeps_its_new_face_even_if_worse() -> None:
    """GUNFRAME L353: the new result stands; a die is rerolled once only."""
    spec = PoolSpec(dice=2, success_on=4, reroll="faces", reroll_faces=(1, 5))
    roll = roll_pool(spec, TypedDice([5, 6, 1]), "attack")
    assert [(d.first, d.rerolled) for d in roll.dice] == [(5, 1), (6, None)]
    assert roll.successes == 1


def test_typed_dice_ask_for_exactly_the_missing_rerolls() -> None:
    spec = PoolSpec(dice=4, success_on=4, reroll="failures")
    with pytest.raises(NeedMoreDice) as need:
        roll_pool(spec, TypedDice([1, 2, 6, 4]), "attack")
    assert (need.value.needed, need.value.purpose) == (2, "attack rerolls")


def test_typed_faces_outside_the_die_are_refused() -> None:
    with pytest.raises(ValueError, match="no face 7"):
        roll_pool(PoolSpec(dice=1, success_on=4), TypedDice([7]), "attack")


def test_cancel_never_goes_below_zero() -> None:
    assert cancel(2, 5) == 0
    assert cancel(5, 2) == 3


# --- what a pool accepts, at its boundaries ----------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"sides": 7}, "dice must be one of d3, d6, d8, d10, d12, d20"),
        ({"sides": 4}, "dice must be one of d3, d6, d8, d10, d12, d20"),
        ({"success_on": 7}, r"a d6 cannot succeed on 7\+: choose 1\+ to 6\+"),
        ({"crit_on": 3}, r"a critical on a d6 must be from 4\+ \(the success number\) to 6\+"),
        ({"crit_on": 7}, r"a critical on a d6 must be from 4\+ \(the success number\) to 6\+"),
        ({"reroll": "faces", "reroll_faces": (0,)}, "a d6 has no face 0 to reroll"),
        ({"reroll": "faces", "reroll_faces": (2, 7)}, "a d6 has no face 7 to reroll"),
        ({"reroll": "faces"}, "choose which faces to reroll"),
        ({"dice": 61}, "less than or equal to 60"),
    ],
)
def test_impossible_pools_are_refused_with_a_reason(fields: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        PoolSpec.model_validate({"dice": 2, "success_on": 4, **fields})


@pytest.mark.parametrize(
    "fields",
    [
        {"sides": s, "success_on": s, "crit_on": s}
        for s in (3, 6, 8, 10, 12, 20)  # every die the rulebooks use, success and critical on its top face
    ]
    + [
        {"success_on": 1, "crit_on": 1},
        {"dice": 60},
        {"reroll": "faces", "reroll_faces": (1, 6)},
    ],
)
def test_pools_at_the_edge_of_the_rules_are_accepted(fields: dict[str, object]) -> None:
    spec = PoolSpec.model_validate({"dice": 2, "success_on": 4, **fields})
    assert spec.classify(spec.sides)[0] >= 1


def test_rerolled_dice_keep_their_last_face() -> None:
    """Each die at most once (L353): the reroll stands, and the first face is kept for the record."""
    spec = PoolSpec(dice=3, success_on=4, reroll="faces", reroll_faces=(1, 2))
    roll = roll_pool(spec, TypedDice([1, 5, 2, 6, 1]), "attack")
    assert [(d.first, d.rerolled, d.final, d.successes) for d in roll.dice] == [
        (1, 6, 6, 1),
        (5, None, 5, 1),
        (2, 1, 1, 0),
    ]
    assert (roll.successes, roll.crits) == (2, 0)


def test_odds_table_of_two_dice() -> None:
    """2d6 hitting on 5+: exactly 0, 1, 2 hits 4/9, 4/9, 1/9; at least 1/1, 5/9, 1/9; mean 2/3."""
    t = table(PoolSpec(dice=2, success_on=5).dist().map(lambda k: k[0]))
    assert [(r.value, r.exactly, r.at_least) for r in t.rows] == [
        (0, "4/9", "1/1"),
        (1, "4/9", "5/9"),
        (2, "1/9", "1/9"),
    ]
    assert [r.p_exactly for r in t.rows] == [4 / 9, 4 / 9, 1 / 9]
    assert [r.p_at_least for r in t.rows] == [1.0, 5 / 9, 1 / 9]
    assert (t.mean, t.p_mean) == ("2/3", 2 / 3)


def test_odds_table_keeps_impossible_counts_below_the_top() -> None:
    """Criticals worth 2 extra on a d3 hitting on 3+: 0 or 3 successes per die, so 1 and 2 show as 0/1."""
    t = table(PoolSpec(dice=1, sides=3, success_on=3, crit_on=3, crit_extra=2).dist().map(lambda k: k[0]))
    assert [(r.value, r.exactly, r.at_least) for r in t.rows] == [
        (0, "2/3", "1/1"),
        (1, "0/1", "1/3"),
        (2, "0/1", "1/3"),
        (3, "1/3", "1/3"),
    ]


def test_odds_table_beyond_sixty_lists_only_the_possible_values() -> None:
    """Damage in hundreds (MechaStellar, 003 L183-L214): a row for each value that can happen, not one
    for each of 0..top; each row's exact and at-least figures are those the dense table had for it."""
    dist = Dist.die(10).repeat(2).map(lambda total: 100 * total if total > 3 else 0)
    sparse = table(dist)
    dense = {k: (Fraction(w, dist.total)) for k, w in dist.weights.items()}
    assert [r.value for r in sparse.rows] == sorted(dense) == [0, *range(400, 2001, 100)]
    for row in sparse.rows:
        assert Fraction(row.exactly) == dense[row.value]
        assert Fraction(row.at_least) == sum((p for k, p in dense.items() if k >= row.value), Fraction(0))
    assert sum(Fraction(r.exactly) for r in sparse.rows) == 1
    # "At least 1" is the first row from 1: 100, 200 and 300 cannot happen.
    assert next(r for r in sparse.rows if r.value >= 1).at_least == "97/100"
    # Up to 60 every value has its row, the impossible ones at 0/1 (the chart's empty columns).
    assert [r.value for r in table(Dist.die(2).map(lambda f: 60 * (f - 1))).rows] == list(range(61))


# --- Dist at its edges ---------------------------------------------------------------------------


def test_a_die_has_at_least_one_face() -> None:
    assert Dist.die(1).weights == {1: 1}
    with pytest.raises(ValueError, match="a die needs at least one face"):
        Dist.die(0)


def test_outcomes_that_cannot_be_added_are_refused() -> None:
    with pytest.raises(TypeError, match="cannot add outcomes 'a' and 'b'"):
        Dist({"a": 1}, 1) + Dist({"b": 1}, 1)
    with pytest.raises(TypeError, match=r"cannot add outcomes \(1,\) and 2"):
        Dist({(1,): 1}, 1) + Dist({2: 1}, 1)
    with pytest.raises(TypeError, match=r"cannot add outcomes 1 and \(2,\)"):
        Dist({1: 1}, 1) + Dist({(2,): 1}, 1)
    with pytest.raises(TypeError, match="cannot multiply outcome 'a'"):
        Dist({"a": 1, "b": 1}, 2).repeat(2)


def test_repeat_of_plain_numbers() -> None:
    """Two-outcome dice summed by the multinomial route: 0 or 1 three times."""
    coin = Dist({0: 1, 1: 1}, 2)
    assert coin.repeat(3).weights == {0: 1, 1: 3, 2: 3, 3: 1} and coin.repeat(3).total == 8
    assert coin.repeat(1).weights == {0: 1, 1: 1}
    with pytest.raises(ValueError, match="repeat\\(\\) needs at least one copy"):
        coin.repeat(0)


def test_bind_needs_one_denominator_and_absent_outcomes_have_no_chance() -> None:
    d2 = Dist.die(2)
    with pytest.raises(ValueError, match="every branch of bind\\(\\) must share one denominator"):
        d2.bind(lambda f: Dist.die(3) if f == 1 else Dist.die(2))
    assert Dist.die(6).probability(7) == 0


def test_typed_dice_ask_for_exactly_the_missing_faces() -> None:
    typed = TypedDice([3])
    with pytest.raises(NeedMoreDice) as need:
        typed.roll(4, 6, "attack")
    assert (need.value.needed, need.value.sides, need.value.purpose) == (3, 6, "attack")
    assert str(need.value) == "roll 3 more d6 for attack"
    assert typed.roll(1, 6, "attack") == [3] and typed.left == 0
