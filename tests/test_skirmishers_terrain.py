"""Skirmishers advanced terrain (L462-L492), structures (L524-L545) and melee from a vehicle
(L788-L797); pure Python."""

from __future__ import annotations

from fractions import Fraction

import pytest

from core.dice import TypedDice
from core.game import Game, act, odds
from core.systems.skirmishers.state import SkGame, SkUnit
from core.systems.skirmishers.tracks import TRACKS
from core.systems.skirmishers.walk import Card, Hit, burst_dist
from tests.test_skirmishers import sample_game
from tests.test_skirmishers_vehicles import elite, mounted

T = TRACKS["trooper"]


def blue_first() -> Game:
    return sample_game(["red_rifle"], ["blue_gyro"], first="second")  # Blue's marksman wears no armor


def test_barbed_wire_bludgeons_and_entangles_on_4_to_6_L479() -> None:
    g = blue_first()
    # 1D6 of 3 bludgeoning from first cell 8 (4+4): 8, 7 and 6 half-crossed; then a 5: entangled
    g = act(g, "terrain", {"unit": "1/u1", "what": "wire"}, TypedDice([3, 4, 4, 5]))
    unit = g.sides[1].units[0]
    assert SkUnit.of(unit).cells == [0, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0] and SkUnit.of(unit).ap_spent == 6
    assert "entangled" in unit.state.conditions
    with pytest.raises(ValueError, match="entangled"):
        act(g, "move", {"unit": "1/u1"}, TypedDice([]))
    o = odds(g, "fire", {"shooter": "1/u1", "target": "0/u1"})
    assert "shooter entangled +1" in o.summary  # L489
    g = act(act(g, "end_turn", {}, TypedDice([])), "end_turn", {}, TypedDice([]))
    offers = g.log[-1].detail["offers"]
    assert offers[-1]["input"] == {"unit": "1/u1", "what": "wire_again"}
    # the next turn: 2 more from cell 8: 8 and 7 crossed (HP 6); a 2: free (0 AP)
    g = act(g, "terrain", {"unit": "1/u1", "what": "wire_again"}, TypedDice([2, 4, 4, 2]))
    unit = g.sides[1].units[0]
    assert unit.state.damage == 4 and "entangled" not in unit.state.conditions
    assert SkUnit.of(unit).ap_spent == 0


def test_wire_odds_are_the_six_faces_of_the_die_averaged() -> None:
    g = blue_first()
    o = odds(g, "terrain", {"unit": "1/u1", "what": "wire"})
    want: dict[int, Fraction] = {}
    for b in range(1, 7):
        d = burst_dist(T, Card((0,) * 11, 0), 2, Hit(0, b), 1)
        for c, w in d.weights.items():
            lost = T.column(c.cells)
            want[lost] = want.get(lost, Fraction(0)) + Fraction(w, d.total * 6)
    got = {int(r.value): Fraction(r.exactly) for r in o.tables["damage"].rows if Fraction(r.exactly)}
    assert got == {k: v for k, v in want.items() if v} and o.facts["entangled"] == 0.5


def test_power_armor_walks_through_wire_for_1_ap_L885() -> None:
    g = sample_game(["red_rifle"], ["blue_armor"], first="second")
    g = act(g, "terrain", {"unit": "1/u1", "what": "wire"}, TypedDice([]))
    assert SkUnit.of(g.sides[1].units[0]).ap_spent == 1 and not g.sides[1].units[0].state.conditions


def test_a_swimmer_carries_one_weapon_and_fires_nothing_L483_L485() -> None:
    g = blue_first()
    with pytest.raises(ValueError, match="carries two weapons"):
        act(g, "terrain", {"unit": "1/u1", "what": "swim"}, TypedDice([]))
    g = g.model_copy(deep=True)
    g.sides[1].units[0].profile["secondary"] = ""
    g = act(g, "terrain", {"unit": "1/u1", "what": "swim"}, TypedDice([]))
    assert "swimming" in g.sides[1].units[0].state.conditions
    with pytest.raises(ValueError, match="a swimmer fires no weapon"):
        act(g, "fire", {"shooter": "1/u1", "target": "0/u1"}, TypedDice([6, 6]))
    g = act(g, "end_turn", {}, TypedDice([]))
    assert "target swimming +1" in odds(g, "fire", {"shooter": "0/u1", "target": "1/u1"}).summary  # L491


def test_a_trench_counts_as_prone_and_a_tunnel_hides_L481() -> None:
    g = blue_first()
    g = act(g, "terrain", {"unit": "1/u1", "what": "trench"}, TypedDice([]))
    g2 = act(g, "end_turn", {}, TypedDice([]))
    assert "target prone +1" in odds(g2, "fire", {"shooter": "0/u1", "target": "1/u1"}).summary
    g = act(g, "terrain", {"unit": "1/u1", "what": "trench"}, TypedDice([]))  # out again
    g = act(g, "terrain", {"unit": "1/u1", "what": "tunnel"}, TypedDice([]))
    assert SkUnit.of(g.sides[1].units[0]).ap_spent == 8
    g = act(g, "end_turn", {}, TypedDice([]))
    with pytest.raises(ValueError, match="outside the tunnel"):
        odds(g, "fire", {"shooter": "0/u1", "target": "1/u1"})


def test_a_wall_is_breached_once_its_damage_is_above_10_L533_L537() -> None:
    g = blue_first()
    g = act(
        g,
        "structure",
        {"unit": "1/u1", "label": "the north wall", "kind": "wall", "damage": 6},
        TypedDice([]),
    )
    g = act(
        g,
        "structure",
        {"unit": "1/u1", "label": "the north wall", "kind": "wall", "damage": 4},
        TypedDice([]),
    )
    assert "breached" not in g.log[-1].text  # 10 is not above 10 (AMB-64)
    g = act(
        g,
        "structure",
        {"unit": "1/u1", "label": "the north wall", "kind": "wall", "damage": 1},
        TypedDice([]),
    )
    assert "breached, rough terrain" in g.log[-1].text
    assert SkGame.model_validate(g.state.extra).structures[0].damage == 11


def test_melee_from_a_moving_vehicle_adds_2_and_1x_in_cruise_then_a_check_L788_L797() -> None:
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"], fast=True)
    with pytest.raises(ValueError, match="not moving"):
        odds(g, "ride_melee", {"unit": "0/u1", "target": "1/u1"})
    g = act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "cruise"}, TypedDice([]))
    o = odds(g, "ride_melee", {"unit": "0/u1", "target": "1/u1"})
    assert o.summary.startswith("TN 6 (base 4, from a moving vehicle +2)")
    # fists: 10 AP / 2 = 5 bludgeoning, +1X in cruise; first cell 10 crossed, 9-5 half-crossed
    g = act(g, "ride_melee", {"unit": "0/u1", "target": "1/u1"}, TypedDice([3, 3, 5, 5, 6, 6]))
    assert SkUnit.of(g.sides[1].units[0]).cells == [2, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
    assert "in control" in g.log[-1].text and SkUnit.of(g.sides[0].units[0]).ap_spent == 9


def test_a_flyer_drops_a_hand_grenade_at_base_5_L598() -> None:
    g = elite(sample_game(["red_rifle"], ["blue_gyro"]))
    g.sides[0].units[0].profile["jet_pack"] = True  # 10 AP, 8 with the jet pack (L585)
    g = act(g, "change_weapon", {"unit": "0/u1", "weapon": "hand_grenade"}, TypedDice([]))
    drop = {"unit": "0/u1", "weapon": "hand_grenade", "drop": True, "at": "the gun pit"}
    with pytest.raises(ValueError, match="not flying"):
        act(g, "throw", drop, TypedDice([]))
    g = act(g, "jet", {"unit": "0/u1", "dots": 9}, TypedDice([]))
    g = act(g, "throw", drop, TypedDice([]))
    assert "TN 5 (base 5)" in g.log[-1].text and SkUnit.of(g.sides[0].units[0]).ap_spent == 6
    assert SkGame.model_validate(g.state.extra).explosives[0].tn == 5
