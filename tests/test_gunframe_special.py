"""GUNFRAME upgrade actions, transforming, Lucky, Guardian and the optional crippled rule.

Line numbers are in 001_c60598db3e91d492.txt.  Every action goes through core.game.act with typed dice.
"""

from __future__ import annotations

from typing import Any

import pytest
from gunframe_table import hurt, mech, run, set_fp, start, state

from core.game import Game, adjust, undo
from core.systems.base import Change
from core.systems.gunframe import SYSTEM, UPGRADE_ACTIONS
from core.systems.gunframe.special import crippled_at


def test_the_special_actions_are_registered() -> None:
    assert set(UPGRADE_ACTIONS) <= set(SYSTEM.actions)


def attack(g: Game, faces: list[int], **mods: Any) -> Game:
    return run(g, "attack", faces, **{"attacker": "0/a", "target": "1/t", **mods})


# --- crippled (L2700-2733) ---------------------------------------------------------------------


def test_critical_points_match_the_books_table() -> None:
    """Scout 4 -> 1, light 6 -> 2, medium 8 -> 2, heavy 10 -> 3, super heavy 12 -> 3 (L2710-2715);
    a start of 3 or less never cripples (L2719)."""
    assert [crippled_at(a) for a in (4, 6, 8, 10, 12)] == [1, 2, 2, 3, 3]
    assert crippled_at(3) is None and crippled_at(1) is None


def test_attack_cripples_and_mechanic_repair_clears_it() -> None:
    """Armour 8 reduced to 2 is crippled (L2706); repaired back to 3 it is not (L2723)."""
    g = start([mech("A")], [mech("T", "mechanic")], crippled_rules=True)
    g = hurt(g, "1/t", 3)
    g = attack(g, [4, 4, 4, 1, 1, 1])  # three hits, no saves: Armour 8 - 6 = 2
    assert state(g, "1/t").damage == 6
    assert "crippled" in state(g, "1/t").conditions
    g = run(g, "mechanic", [], unit="1/t")
    assert state(g, "1/t").damage == 5
    assert "crippled" not in state(g, "1/t").conditions
    back = undo(g)
    assert "crippled" in state(back, "1/t").conditions and state(back, "1/t").damage == 6


def test_crippled_is_off_without_the_option_and_for_weak_units() -> None:
    g = start([mech("A")], [mech("T")])
    g = attack(hurt(g, "1/t", 3), [4, 4, 4, 1, 1, 1])
    assert "crippled" not in state(g, "1/t").conditions
    weak = start([mech("A")], [mech("Scout", frame="scout", armour=3)], crippled_rules=True)
    weak = attack(weak, [4, 4, 1, 1, 1, 1])
    assert state(weak, "1/t").damage == 2 and "crippled" not in state(weak, "1/t").conditions


def test_crippled_attacker_halves_its_weapon_but_reinforced_does_not() -> None:
    """Crippled halves weapon values, rounding up (L2733, L357); Reinforced ignores it (L2410)."""
    base = start([mech("A"), mech("R", "reinforced")], [mech("T", defense=0)], crippled_rules=True)
    base = adjust(
        base,
        [Change(path=["sides", 0, "units", i, "state", "conditions"], value=["crippled"]) for i in (0, 1)],
    )
    g = attack(base, [4, 4])  # short 3 halved to 2 dice
    assert state(g, "1/t").damage == 2
    g = run(base, "attack", [4, 4, 4], attacker="0/b", target="1/t")
    assert state(g, "1/t").damage == 3


# --- special actions (L2334, L2346, L2412) -------------------------------------------------------


def test_mechanic_repairs_a_friend_not_an_enemy() -> None:
    g = start([mech("M", "mechanic"), mech("F")], [mech("T")])
    g = hurt(hurt(g, "0/b", 2), "1/t", 2)
    g = run(g, "mechanic", [], unit="0/a", target="0/b")
    assert state(g, "0/b").damage == 1
    assert g.log[-1].text == "M repairs 1 damage on F (Armour 7)"
    with pytest.raises(ValueError, match="not a friendly unit"):
        run(g, "mechanic", [], unit="0/a", target="1/t")
    with pytest.raises(ValueError, match="no Mechanic"):
        run(g, "mechanic", [], unit="0/b")
    with pytest.raises(ValueError, match="no damage"):
        run(g, "mechanic", [], unit="0/a")


def test_repair_systems_regains_d3_but_not_past_full() -> None:
    """D3 is a halved D6 (L351): a 5 is 3, but only the 2 lost points come back (L2412)."""
    g = hurt(start([mech("R", "repair_systems")], [mech("T")]), "0/a", 2)
    g = run(g, "repair_systems", [5], unit="0/a")
    assert state(g, "0/a").damage == 0
    assert g.log[-1].detail["d3"] == 3 and g.log[-1].detail["regained"] == 2
    g = hurt(g, "0/a", 4)
    g = run(g, "repair_systems", [1], unit="0/a")
    assert state(g, "0/a").damage == 3


def test_spiteful_only_hits_a_downed_enemy() -> None:
    g = start([mech("S", "spiteful")], [mech("T")])
    with pytest.raises(ValueError, match="neither knocked down nor shut down"):
        run(g, "spiteful", [], unit="0/a", target="1/t")
    g = adjust(g, [Change(path=["sides", 1, "units", 0, "state", "conditions"], value=["knocked_down"])])
    g = run(g, "spiteful", [], unit="0/a", target="1/t")
    assert state(g, "1/t").damage == 1
    assert state(undo(g), "1/t").damage == 0


def test_a_shut_down_unit_cannot_make_special_actions() -> None:
    g = hurt(start([mech("R", "repair_systems")], [mech("T")]), "0/a", 2)
    g = adjust(g, [Change(path=["sides", 0, "units", 0, "state", "conditions"], value=["shut_down"])])
    with pytest.raises(ValueError, match="shut down"):
        run(g, "repair_systems", [4], unit="0/a")


# --- transforming (L962-966, L2332, L2422) ---------------------------------------------------------

JET = {"speed": 8, "defense": 3, "close": 0, "short": 5, "medium": 2, "long": 0, "upgrades": [{"id": "fly"}]}


def test_transform_switches_the_form_the_attack_uses() -> None:
    """A move action changes form (L962); the attack then rolls that form's weapon (Short 5)."""
    g = start([mech("Eagle", forms=[JET])], [mech("T", defense=0)])
    assert state(g, "0/a").extra["form"] == 0
    g = run(g, "transform", [], unit="0/a", flight="take_off")
    assert state(g, "0/a").extra["form"] == 1 and "flying" in state(g, "0/a").conditions
    g = attack(g, [4, 4, 4, 4, 1, 1])  # the jet's Short 5, +1 flying over a walker (L1084)
    assert state(g, "1/t").damage == 4
    g = run(g, "transform", [], unit="0/a", form=0, flight="land")
    assert state(g, "0/a").extra["form"] == 0 and "flying" not in state(g, "0/a").conditions


def test_swift_transform_costs_a_focus_point_and_maverick_is_free() -> None:
    swift = {**JET, "upgrades": [{"id": "swift_transform"}]}
    g = set_fp(start([mech("S", "swift_transform", forms=[swift])], [mech("T")]), 0, 1)
    g = run(g, "transform", [], unit="0/a", how="swift_transform")
    assert g.sides[0].resources["focus_points"] == 0 and state(g, "0/a").extra["form"] == 1
    with pytest.raises(ValueError, match="Focus Point"):
        run(g, "transform", [], unit="0/a", how="swift_transform")
    m = run(
        start([mech("M", "maverick", forms=[JET])], [mech("T")]), "transform", [], unit="0/a", how="maverick"
    )
    assert state(m, "0/a").extra["form"] == 1
    with pytest.raises(ValueError, match="not a transforming unit"):
        run(m, "transform", [], unit="1/t")


# --- Lucky (L2330) -----------------------------------------------------------------------------------


def test_lucky_attacker_rerolls_misses_once_per_battle() -> None:
    g = start([mech("L", "lucky")], [mech("T", defense=0)])
    g = attack(g, [1, 2, 4, 5, 6], lucky="attacker", lucky_dice=[1, 2])  # 1 and 2 rerolled into 5 and 6
    assert state(g, "1/t").damage == 3
    assert "lucky" in state(g, "0/a").extra["used"]
    with pytest.raises(ValueError, match="used its Lucky"):
        attack(g, [1, 1, 1], lucky="attacker")
    with pytest.raises(ValueError, match="not Lucky"):
        attack(start([mech("A")], [mech("T")]), [1, 1, 1], lucky="attacker")


def test_lucky_defender_rerolls_failed_saves_but_not_on_top_of_evade() -> None:
    g = start([mech("A")], [mech("L", "lucky")])
    g = attack(g, [4, 4, 4, 1, 2, 3, 4, 5, 6], lucky="defender", lucky_dice=[1, 2, 3])
    assert state(g, "1/t").damage == 0
    g2 = adjust(
        start([mech("A")], [mech("L", "lucky")]),
        [Change(path=["sides", 1, "units", 0, "state", "counters", "evade"], value=1)],
    )
    with pytest.raises(ValueError, match="rerolled already"):
        attack(g2, [4, 4, 4, 1, 1, 1], lucky="defender", evade=True)


# --- Guardian (L2316) --------------------------------------------------------------------------------


def test_guardian_pays_a_focus_point_and_takes_the_damage_and_power() -> None:
    g = set_fp(start([mech("A")], [mech("T"), mech("G", "guardian")]), 1, 1)
    g = attack(g, [6, 4, 4, 1, 1, 1], guardian="1/u")
    assert state(g, "1/t").damage == 0 and state(g, "1/u").damage == 3
    assert g.sides[1].resources["focus_points"] == 0
    assert state(g, "0/a").extra["power"]["target"] == "1/u"
    back = undo(g)
    assert state(back, "1/u").damage == 0 and back.sides[1].resources["focus_points"] == 1


def test_guardian_keeps_its_point_when_nothing_gets_through() -> None:
    g = set_fp(start([mech("A")], [mech("T"), mech("G", "guardian")]), 1, 1)
    g = attack(g, [4, 1, 1, 4, 1, 1], guardian="1/u")
    assert g.sides[1].resources["focus_points"] == 1 and state(g, "1/u").damage == 0


def test_guardian_needs_the_upgrade_a_friend_and_a_focus_point() -> None:
    g = start([mech("A"), mech("B", "guardian")], [mech("T"), mech("G", "guardian"), mech("N")])
    with pytest.raises(ValueError, match="Focus Point"):
        attack(g, [4, 4, 4, 1, 1, 1], guardian="1/u")
    g = set_fp(g, 1, 1)
    with pytest.raises(ValueError, match="no Guardian"):
        attack(g, [4, 4, 4, 1, 1, 1], guardian="1/v")
    with pytest.raises(ValueError, match="not a friend"):
        attack(g, [4, 4, 4, 1, 1, 1], guardian="0/b")
