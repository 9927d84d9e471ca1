"""Gundam Skirmish: the Shoot's dice procedure, table by table (lines are in 000_3e12d4cbd0c8f6da.txt).

The book's tables (the 4th-6th die shifts, hit levels, the Penetration table, the Damage Chart with its
repeat rule, coatings and Movable Frame, Shield Break) pinned at every row, and small shots whose exact
odds are counted here by hand.  Until now only doctests held several of these, and the mutation tool
runs the test files only (issue #27).
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from core.dice import NeedMoreDice, TypedDice
from core.systems.gundam_skirmish.shooting import (
    MS_CHART,
    OTHER_CHART,
    DefendGroup,
    Shot,
    after_pool,
    attack_dist,
    block_dist,
    block_strength,
    cancel_choices,
    cancel_hits,
    chart_dist,
    chart_faces,
    defend_dist,
    die_needs,
    hit_count,
    hit_type,
    pool_hits,
    remove_one,
    roll_attack,
    roll_chart,
    roll_defence,
    shield_break,
    shot_odds,
    shot_outcome,
)

ARMOUR = DefendGroup("armour", 1, 4)
BEAM = DefendGroup("beam", 1, 4, beam=True)


@pytest.mark.parametrize(
    ("acc", "crit", "position", "want"),
    [
        (4, 6, 1, (4, 6)),
        (4, 6, 3, (4, 6)),
        (3, 5, 4, (4, 6)),  # 4th die: +1 and +1 (L632)
        (3, 5, 5, (5, 6)),  # 5th die: +2 and +2, capped at 6 (L633, L636-L637)
        (3, 4, 5, (5, 6)),
        (2, 4, 5, (4, 6)),
        (2, 3, 5, (4, 5)),
        (2, 3, 6, (5, None)),  # 6th die and later: +3, no critical (L634)
        (2, 3, 9, (5, None)),
        (5, None, 4, (6, None)),
        (5, 6, 4, (6, 6)),
        (4, 6, 5, (6, 6)),
        (4, 6, 6, (6, None)),
    ],
)
def test_the_fourth_fifth_and_sixth_die_need_more(
    acc: int, crit: int | None, position: int, want: tuple[int, int | None]
) -> None:
    """L628-L638."""
    assert die_needs(acc, crit, position) == want


@pytest.mark.parametrize(
    ("face", "acc", "crit", "kind"),
    [
        (2, 3, None, None),  # below ACC: a miss (L619-L623)
        (3, 3, None, 0),  # 2-3: level 1 (L857-L872)
        (3, 3, 3, 1),
        (4, 3, 5, 2),  # 4-5: level 2
        (5, 3, 5, 3),
        (5, 3, 6, 2),
        (6, 3, None, 4),  # 6: level 3
        (6, 3, 6, 5),
    ],
)
def test_hit_levels_and_criticals(face: int, acc: int, crit: int | None, kind: int | None) -> None:
    """L619-L623, L721-L723, L857-L872: level by face, critical at the weapon's CRIT or more."""
    assert hit_type(face, acc, crit) == kind


@pytest.mark.parametrize(
    ("face", "group", "pen", "strength"),
    [
        (3, ARMOUR, False, 0),  # below its success: no block
        (4, ARMOUR, False, 3),  # no <P>: a block takes any hit
        (4, ARMOUR, True, 0),  # <P> (L857-L872): 5+ blocks a level 1, 6 a level 2, a 6 never
        (5, ARMOUR, True, 1),
        (6, ARMOUR, True, 2),
        (4, BEAM, True, 1),  # beam defence: 4+ a level 1, 5+ a level 2, 6 a 6 (the third column)
        (5, BEAM, True, 2),
        (6, BEAM, True, 3),
        (3, BEAM, True, 0),
    ],
)
def test_the_penetration_table(face: int, group: DefendGroup, pen: bool, strength: int) -> None:
    assert block_strength(face, group, pen) == strength


@pytest.mark.parametrize(
    ("hits", "blocks", "left"),
    [
        # strength 1 takes level 1, 2 up to level 2, 3 any; criticals first (L713-L719; A6)
        ((0, 1, 1, 0, 0, 0), (0, 1, 0), (0, 0, 1, 0, 0, 0)),
        ((0, 0, 0, 0, 1, 1), (0, 5, 0), (0, 0, 0, 0, 1, 1)),
        ((0, 0, 0, 0, 1, 1), (0, 0, 1), (0, 0, 0, 0, 1, 0)),
        ((1, 0, 1, 0, 0, 0), (1, 0, 0), (0, 0, 1, 0, 0, 0)),
        ((0, 0, 1, 1, 0, 0), (1, 1, 0), (0, 0, 1, 0, 0, 0)),
        ((2, 0, 0, 0, 0, 0), (0, 0, 3), (0, 0, 0, 0, 0, 0)),
        ((1, 1, 1, 1, 1, 1), (1, 1, 1), (1, 0, 1, 0, 1, 0)),
        ((0, 0, 2, 0, 0, 0), (1, 0, 0), (0, 0, 2, 0, 0, 0)),
    ],
)
def test_blocks_cancel_the_most_hits_then_the_most_criticals(
    hits: tuple[int, ...], blocks: tuple[int, int, int], left: tuple[int, ...]
) -> None:
    assert cancel_hits(hits, blocks) == left  # type: ignore[arg-type]


def test_the_defenders_choices_differ_only_in_criticals_left() -> None:
    """L713-L719; A6: every way to cancel the most hits, keyed by the criticals left."""
    assert cancel_choices((0, 1, 1, 0, 0, 0), (0, 0, 1)) == {0: (0, 0, 1, 0, 0, 0), 1: (0, 1, 0, 0, 0, 0)}
    assert cancel_choices((0, 1, 1, 0, 0, 0), (0, 0, 2)) == {0: (0, 0, 0, 0, 0, 0)}
    # a level-1 block cannot take the level-2 critical: one way only
    assert cancel_choices((0, 1, 0, 1, 0, 0), (1, 0, 0)) == {1: (0, 0, 0, 1, 0, 0)}
    assert cancel_choices((0, 0, 0, 0, 0, 0), (1, 0, 0)) == {0: (0, 0, 0, 0, 0, 0)}


@pytest.mark.parametrize(
    ("hits", "left"),
    [
        ((1, 0, 0, 1, 0, 0), (1, 0, 0, 0, 0, 0)),
        ((1, 1, 1, 1, 1, 1), (1, 1, 1, 1, 1, 0)),  # a critical 6 first
        ((0, 1, 0, 0, 1, 0), (0, 0, 0, 0, 1, 0)),  # then a critical 2-3 before a plain 6
        ((0, 0, 1, 0, 1, 0), (0, 0, 1, 0, 0, 0)),
        ((1, 0, 1, 0, 0, 0), (1, 0, 0, 0, 0, 0)),
        ((1, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0)),
        ((0, 0, 0, 0, 0, 0), (0, 0, 0, 0, 0, 0)),
    ],
)
def test_bad_weather_takes_the_worst_hit_for_the_target(hits: tuple[int, ...], left: tuple[int, ...]) -> None:
    """L3321-L3327: the target's player removes one hit; the app takes the one that would hurt most."""
    assert remove_one(hits) == left  # type: ignore[arg-type]


def test_hit_count_counts_criticals_of_every_level() -> None:
    assert hit_count((1, 2, 3, 4, 5, 6)) == (21, 12)


# --- the Damage Chart (L1108-L1119, L1147-L1239) --------------------------------------------------------


def test_the_charts_faces_and_the_repeat_rule() -> None:
    """Mobile suits 1-2 Leg, 3-4 Arm, 5 Head, 6 Torso; other units 1-3 Engine, 4-5 Weapons, 6 Cockpit
    (A45); a category at its top is rolled again: Leg and Arm have 2 levels, Head 1 (L1113-L1119)."""
    assert MS_CHART == {1: "leg", 2: "leg", 3: "arm", 4: "arm", 5: "head", 6: "torso"}
    assert OTHER_CHART == {1: "leg", 2: "leg", 3: "leg", 4: "arm", 5: "arm", 6: "torso"}
    assert chart_faces(MS_CHART, (0, 0, 0, 0)) == [1, 2, 3, 4, 5, 6]
    assert chart_faces(MS_CHART, (1, 1, 0, 0)) == [1, 2, 3, 4, 5, 6]
    assert chart_faces(MS_CHART, (2, 1, 1, 0)) == [3, 4, 6]
    assert chart_faces(MS_CHART, (2, 2, 1, 0)) == [6]


def test_a_chart_roll_with_dice_rolls_again_off_a_full_category() -> None:
    levels, faces = roll_chart(MS_CHART, (0, 0, 1, 0), TypedDice([5, 5, 3]), "chart")
    assert (levels, faces) == ((0, 1, 1, 0), [5, 5, 3])
    assert roll_chart(MS_CHART, (0, 0, 0, 0), TypedDice([6]), "chart") == ((0, 0, 0, 1), [6])
    assert roll_chart(MS_CHART, (0, 0, 0, 1), TypedDice([]), "chart") == ((0, 0, 0, 1), [])  # destroyed


def test_chart_odds_with_the_repeat_rule_and_fortunate() -> None:
    """One roll: each face with room equally likely; the Torso stops the rolling (L1236-L1239); a
    Fortunate pilot rolls a Torso result again once (L1968-L1969)."""
    one = dict(chart_dist(MS_CHART, (0, 0, 0, 0), 1).probabilities())
    assert one == {
        (1, 0, 0, 0): Fraction(1, 3),
        (0, 1, 0, 0): Fraction(1, 3),
        (0, 0, 1, 0): Fraction(1, 6),
        (0, 0, 0, 1): Fraction(1, 6),
    }
    assert chart_dist(MS_CHART, (0, 0, 1, 0), 1).probability((0, 0, 1, 1)) == Fraction(1, 5)
    lucky = chart_dist(MS_CHART, (0, 0, 0, 0), 1, fortunate=True)
    assert lucky.probability((0, 0, 0, 1)) == Fraction(1, 36)
    assert lucky.probability((0, 0, 1, 0)) == Fraction(1, 6) + Fraction(1, 36)
    two = chart_dist(MS_CHART, (0, 0, 0, 0), 2)
    # a Torso in either roll: 1/6 + 5/6 * (1/6, or 1/5 after a Head)
    want = Fraction(1, 6) + Fraction(4, 6) * Fraction(1, 6) + Fraction(1, 6) * Fraction(1, 5)
    assert sum((p for lv, p in two.probabilities() if lv[3]), Fraction(0)) == want
    full = chart_dist(MS_CHART, (2, 2, 1, 0), 1)
    assert dict(full.probabilities()) == {(2, 2, 1, 1): Fraction(1)}


# --- after the pool: coatings, Movable Frame (A12; L2014-L2030, L2952-L2956), Shield Break (L1121-L1125) ---


@pytest.mark.parametrize(
    ("pool", "coating", "frame", "damage"),
    [
        (6, 1, None, 5),
        (6, 0, 4, 4),  # 4+: 2 negated
        (6, 0, 3, 5),  # else 1
        (6, 1, 5, 3),
        (1, 1, None, 0),
        (0, 1, None, 0),
        (3, 0, 6, 1),
        (1, 0, 4, 0),
    ],
)
def test_after_the_pool(pool: int, coating: int, frame: int | None, damage: int) -> None:
    assert after_pool(pool, coating, frame) == damage


@pytest.mark.parametrize(("damage", "left"), [(0, 0), (1, 1), (2, 1), (3, 2), (5, 3), (6, 3)])
def test_a_shield_break_prevents_half_rounded_down(damage: int, left: int) -> None:
    assert shield_break(damage) == left


# --- small shots counted by hand ---------------------------------------------------------------------------


def test_one_die_attack_odds() -> None:
    """One die at 4+ (crit 6): 3/6 a miss, 4 and 5 a level-2 hit, 6 a level-3 critical (L857-L872)."""
    shot = Shot(shots=1, acc=4, crit=6, dam=1)
    d = dict(attack_dist(shot, 1).probabilities())
    assert d == {
        (0, 0, 0, 0, 0, 0): Fraction(1, 2),
        (0, 0, 1, 0, 0, 0): Fraction(1, 3),
        (0, 0, 0, 0, 0, 1): Fraction(1, 6),
    }
    # one re-roll of the failed die: a miss only when both fail (L745-L781)
    again = dict(attack_dist(Shot(shots=1, acc=4, crit=6, dam=1, attack_rerolls=1), 1).probabilities())
    assert again[(0, 0, 0, 0, 0, 0)] == Fraction(1, 4)


def test_a_d6_of_shots() -> None:
    """L2571-L2577: a D6 gives the number of shots; every die hits on 2+ here, shifted after the 3rd."""
    shot = Shot(shots=None, acc=2, crit=None, dam=1)
    d = pool_hits(shot)
    hits = {n: Fraction(0) for n in range(7)}
    for h, p in d.probabilities():
        hits[sum(h)] += p
    # no hit: every die of the 1 to 6 rolled misses (1 at 2+, 1-2 at 3+, 1-3 at 4+, 1-4 at 5+)
    miss = [Fraction(1, 6)] * 3 + [Fraction(2, 6), Fraction(3, 6), Fraction(4, 6)]
    none = Fraction(0)
    for n in range(1, 7):
        p = Fraction(1, 6)
        for m in miss[:n]:
            p *= m
        none += p
    assert hits[0] == none
    # six shots: the first three hit on 2+, the 4th needs 3+, the 5th 4+, the 6th 5+ (L628-L638)
    every = Fraction(1, 6) * Fraction(5, 6) ** 3 * Fraction(4, 6) * Fraction(3, 6) * Fraction(2, 6)
    assert hits[6] == every


def test_defence_dice_and_rerolls() -> None:
    """One armour die at 4+: half the time a block; a re-roll makes it 3/4; a second group rolls too."""
    assert defend_dist((ARMOUR,), 0, False).probability((0, 0, 1)) == Fraction(1, 2)
    assert defend_dist((ARMOUR,), 1, False).probability((0, 0, 1)) == Fraction(3, 4)
    both = defend_dist((ARMOUR, DefendGroup("shield", 1, 6)), 0, False)
    assert both.probability((0, 0, 2)) == Fraction(1, 12)
    own = defend_dist((DefendGroup("shield", 1, 6, own_reroll=True),), 0, False)
    assert own.probability((0, 0, 1)) == 1 - Fraction(25, 36)
    # the defender's re-roll goes to the group with the lowest success number (the 4+ armour)
    mixed = defend_dist((DefendGroup("shield", 1, 6), ARMOUR), 1, False)
    assert mixed.probability((0, 0, 0)) == Fraction(1, 4) * Fraction(5, 6)


def test_a_shield_against_p_needs_a_check_of_four() -> None:
    """L660-L663: half the time the shield's dice join the pool (and cost 1 integrity)."""
    shield = DefendGroup("shield", 1, 4)
    shot = Shot(shots=1, acc=2, crit=None, dam=1, penetration=True, groups=(shield,), shield_check=True)
    d = dict(block_dist(shot).probabilities())
    # check failed: nothing; check passed: 5 blocks a level 1 (1/6), 6 a level 2 (1/6)
    assert d[((0, 0, 0), False)] == Fraction(1, 2)
    assert d[((1, 0, 0), True)] == Fraction(1, 12)
    assert d[((0, 1, 0), True)] == Fraction(1, 12)


def test_elusive_and_bad_weather_in_the_odds() -> None:
    """L3277-L3283: 1 in 6 the attack is ignored; L3321-L3327: one hit removed."""
    sure = Shot(shots=1, acc=2, crit=None, dam=2)  # hits 5/6, no defence
    assert shot_outcome(sure).probability((1, 0)) == Fraction(5, 6)
    assert shot_outcome(Shot(shots=1, acc=2, crit=None, dam=2, elusive=True)).probability((1, 0)) == Fraction(
        25, 36
    )
    assert shot_outcome(Shot(shots=1, acc=2, crit=None, dam=2, remove_hit=True)).probability((0, 0)) == 1


def test_shot_odds_damage_criticals_and_destruction() -> None:
    """One die 2+, crit 6, 3 DAM, no defence: 2/3 a plain hit, 1/6 a critical (L1102-L1105); Controlled
    Aim doubles the chart rolls (L1962); the target with 3 left is destroyed by any hit (L1094-L1098)."""
    shot = Shot(shots=1, acc=2, crit=6, dam=3, integrity_left=4)
    o = shot_odds(shot)
    assert dict(o.damage.probabilities()) == {0: Fraction(1, 6), 3: Fraction(5, 6)}
    assert dict(o.crits.probabilities()) == {0: Fraction(5, 6), 1: Fraction(1, 6)}
    assert o.destroyed == Fraction(1, 6) * Fraction(1, 6)  # the critical's chart roll shows a Torso
    assert o.hit_any == Fraction(5, 6)
    aimed = shot_odds(Shot(shots=1, acc=2, crit=6, dam=3, integrity_left=4, chart_per_crit=2))
    assert dict(aimed.crits.probabilities()) == {0: Fraction(5, 6), 2: Fraction(1, 6)}
    assert shot_odds(Shot(shots=1, acc=2, crit=6, dam=3, integrity_left=3)).destroyed == Fraction(5, 6)
    framed = shot_odds(Shot(shots=1, acc=2, crit=None, dam=3, movable_frame=True, coating=1))
    # 3 in the pool: the coating takes 1, then the frame 2 (4+) or 1: 0 or 1 damage, evenly
    assert dict(framed.damage.probabilities()) == {0: Fraction(1, 6) + Fraction(5, 12), 1: Fraction(5, 12)}


# --- rolled with dice, die by die --------------------------------------------------------------------------


def test_the_shooter_rerolls_its_earliest_failed_dice() -> None:
    """L745-L781; A8: each re-roll takes one failed die, the earliest first (they need the least)."""
    shot = Shot(shots=4, acc=4, crit=6, dam=1, attack_rerolls=1)
    n, faces, rerolled, hits = roll_attack(shot, TypedDice([1, 5, 2, 4, 6]))
    assert (n, faces, rerolled) == (4, [1, 5, 2, 4], {0: 6})
    # the 4th die needs 5+ (L632): its 4 misses; the 6 re-rolled is a critical level 3
    assert hits == (0, 0, 1, 0, 0, 1)
    with pytest.raises(NeedMoreDice):
        roll_attack(Shot(shots=None, acc=4, crit=6, dam=1), TypedDice([]))
    n, faces, _, _ = roll_attack(
        Shot(shots=None, acc=4, crit=6, dam=1, extra_shots=1), TypedDice([2, 1, 1, 1])
    )
    assert n == 3 and faces == [1, 1, 1]


def test_the_defender_rerolls_its_lowest_success_dice_first() -> None:
    shield = DefendGroup("shield", 1, 6)
    faces, rerolled, blocks = roll_defence((shield, ARMOUR), 1, False, TypedDice([1, 1, 4]))
    assert faces == {"shield": [1], "armour": [1]} and rerolled == {"armour#0": 4}
    assert blocks == (0, 0, 1)
    solid = DefendGroup("shield", 2, 6, own_reroll=True)
    faces, rerolled, blocks = roll_defence((solid,), 0, False, TypedDice([6, 2, 6]))
    assert rerolled == {"shield#1": 6} and blocks == (0, 0, 2)


SMALL_SHOTS = [
    # a <P> shot against a beam group and a shield with its check, with a defender's re-roll
    Shot(
        shots=1,
        acc=3,
        crit=5,
        dam=3,
        penetration=True,
        groups=(DefendGroup("beam", 1, 5, beam=True), DefendGroup("shield", 1, 5)),
        shield_check=True,
        defend_rerolls=1,
    ),
    # a re-rolled attack die, Solid Defence's own re-roll, a coating and Movable Frame
    Shot(
        shots=1,
        acc=4,
        crit=6,
        dam=4,
        attack_rerolls=1,
        groups=(DefendGroup("armour", 1, 5), DefendGroup("shield", 1, 6, own_reroll=True)),
        coating=1,
        movable_frame=True,
    ),
    # Elusive and Bad Weather
    Shot(shots=2, acc=3, crit=6, dam=1, groups=(DefendGroup("armour", 1, 5),), elusive=True, remove_hit=True),
]


@pytest.mark.parametrize("shot", SMALL_SHOTS)
def test_a_shots_odds_are_its_dice(shot: Shot) -> None:
    """The odds the app shows are what rolling the same shot die by die gives (every face sequence)."""
    from test_gundam_skirmish import brute

    from core.systems.gundam_skirmish.shooting import roll_shot

    def run(d: TypedDice) -> tuple[int, int]:
        r = roll_shot(shot, d)
        return r.damage, hit_count(r.left)[1] if r.elusive != 6 else 0

    got = brute(run)
    o = shot_odds(shot)
    damage: dict[int, Fraction] = {}
    crits: dict[int, Fraction] = {}
    for (dmg, c), p in got.items():
        damage[dmg] = damage.get(dmg, Fraction(0)) + p
        crits[c] = crits.get(c, Fraction(0)) + p
    assert damage == dict(o.damage.probabilities())
    assert crits == dict(o.crits.probabilities())
