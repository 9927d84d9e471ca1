"""Skirmishers advanced body armor (004_63417322d25a2f10.txt L382-L393; digest 5.4, AMB-66, AMB-71):
the card walk, the book's example, a game with the rule on, and exact odds against brute force."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from core.dice import TypedDice
from core.game import act
from core.systems import implementation
from core.systems.skirmishers.state import SkUnit
from core.systems.skirmishers.tracks import TRACKS, walk
from core.systems.skirmishers.units import Soldier, ap_bonus, guard_row, violations
from core.systems.skirmishers.walk import Card, Hit, burst_dist
from tests.test_skirmishers import sample_game

SK = implementation("skirmishers")
T = TRACKS["trooper"]
FRESH = (0,) * 11


def test_standard_armor_marks_4_contiguous_columns_and_takes_2_ap_L393() -> None:
    u = Soldier(name="A", body_armor="standard", armor_from=8)
    assert guard_row(u) == [-1, -1, 0, 0, 0, 0, -1, -1, -1, -1, -1]  # HP 8, 7, 6 and 5
    assert [T.max_ap(c, ap_bonus(u)) for c in range(12)] == [6, 6, 6, 6, 5, 5, 4, 4, 3, 2, 0, 0]
    assert violations(Soldier(name="B", body_armor="heavy", armor_from=3))[0].rule == "armor-columns"


def test_the_first_lethal_hit_half_crosses_the_armor_cell_the_second_crosses_it_L384() -> None:
    guard = tuple(guard_row(Soldier(name="A", body_armor="basic", armor_from=7)))  # HP 7 and 6
    m = walk(T, FRESH, 0, 1, 0, 7, guard)
    assert m.cells == FRESH and m.guard[3] == 1
    m = walk(T, m.cells, 0, 1, 0, 7, m.guard)
    assert m.cells == FRESH and m.guard[3] == 2
    m = walk(T, m.cells, 0, 1, 0, 7, m.guard)  # crossed armor protects no more (AMB-71)
    assert m.cells[3] == 2


def test_bludgeoning_is_ignored_only_on_protected_columns_L384_AMB71() -> None:
    guard = tuple(guard_row(Soldier(name="A", body_armor="basic", armor_from=7)))
    m = walk(T, FRESH, 0, 0, 4, 8, guard)  # a blackjack's 4 from cell 8: 8 half, 7 and 6 ignored, 5 half
    assert m.cells == (0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0) and m.blunt_ignored == 2


def brute(guard: list[int], lethal: int, blunt: int, tn: int) -> Counter[tuple[Any, ...]]:
    """An independent reading of L384 with AMB-66/71, over 2D6 totals, for one shot on a fresh card."""
    out: Counter[tuple[Any, ...]] = Counter()
    totals = Counter(a + b for a in range(1, 7) for b in range(1, 7))
    for h, wh in totals.items():
        if h < tn:
            out[(FRESH, tuple(guard))] += wh * 36
            continue
        for r, wr in totals.items():
            c, gd = [0] * 11, list(guard)
            i, touched = 10 - min(r, 10), None
            for _ in range(lethal):
                while i < 11 and c[i] == 2:
                    i += 1
                if i >= 11:
                    break
                if gd[i] in (0, 1):
                    gd[i] += 1
                else:
                    c[i] = 2
                touched, i = i, i + 1
            j = touched + 1 if touched is not None else 10 - min(r, 10)
            for _ in range(blunt):
                while j < 11 and c[j] == 2:
                    j += 1
                if j >= 11:
                    break
                if gd[j] not in (0, 1):
                    c[j] += 1
                j += 1
            out[(tuple(c), tuple(gd))] += wh * wr
    return out


@pytest.mark.parametrize(("lethal", "blunt", "tn"), [(4, 0, 6), (1, 4, 5), (0, 8, 4)])
def test_odds_under_advanced_armor_agree_with_brute_force(lethal: int, blunt: int, tn: int) -> None:
    guard = guard_row(Soldier(name="A", body_armor="standard", armor_from=8))
    d = burst_dist(T, Card(FRESH, 0, 0, tuple(guard)), tn, Hit(lethal, blunt), 1)
    got = {(c.cells, c.guard): Fraction(w, d.total) for c, w in d.weights.items()}
    b = brute(guard, lethal, blunt, tn)
    total = sum(b.values())
    assert got == {k: Fraction(w, total) for k, w in b.items()}


def test_a_game_with_the_rule_on_marks_the_armor_row_on_the_card() -> None:
    g = sample_game(["red_rifle"], ["blue_gyro"])  # Red's rifleman wears basic armor, columns 10 and 9
    assert SkUnit.of(g.sides[0].units[0]).guard == [] and SkUnit.of(g.sides[0].units[0]).armor == 2
    g = sample_game(["red_rifle"], ["blue_gyro"], first="second")
    g = g.model_copy(update={"options": {"advanced_armor": True}, "log": []})
    g.state.active_side = None
    g = act(g, "first_side", {"first": "second"}, TypedDice([]))
    st = SkUnit.of(g.sides[0].units[0])
    assert st.armor == 0 and st.guard == [0, 0] + [-1] * 9
    # Blue's gyrojet (6X) on the move: to hit 6, 6; first cell 10: armor 10 and 9 half-crossed, 8-5 crossed
    g = act(g, "fire", {"shooter": "1/u1", "target": "0/u1"}, TypedDice([6, 6, 6, 6]))
    st = SkUnit.of(g.sides[0].units[0])
    assert st.guard[:2] == [1, 1] and st.cells == [0, 0, 2, 2, 2, 2, 0, 0, 0, 0, 0]
    view = SK.unit_view(g, 0, 0)
    armor = next(r for r in view.grids[0].rows if r.label == "Armor")
    assert [c.mark for c in armor.cells[:3]] == ["half", "half", "off"]
    assert "armor over 2 columns" in (view.grids[0].note or "")
