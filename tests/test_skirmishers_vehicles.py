"""Skirmishers vehicles in play (004_63417322d25a2f10.txt L609-L807): riders, movement modes and
segments, control checks, wipe-outs, rams, mounted weapons and their free arc; pure Python."""

from __future__ import annotations

import pytest

from core.changes import Working
from core.dice import TypedDice
from core.game import Game, act, odds
from core.systems import implementation
from core.systems.skirmishers.state import SkUnit
from core.systems.skirmishers.vehicles import segment_offers, skid_dots, wipe_out
from tests.test_skirmishers import sample_game

SK = implementation("skirmishers")


def st(g: Game, s: int, u: int) -> SkUnit:
    return SkUnit.of(g.sides[s].units[u])


def elite(g: Game, s: int = 0, u: int = 0) -> Game:
    """The trooper made Elite without body armor: 10 AP (L559)."""
    g = g.model_copy(deep=True)
    g.sides[s].units[u].profile.update(experience="elite", body_armor="none")
    st = SkUnit.of(g.sides[s].units[u])
    st.armor = 0
    g.sides[s].units[u].state.extra = st.model_dump(mode="json")
    return g


def mounted(red: list[str], blue: list[str], bike: str = "0/u2", fast: bool = False) -> Game:
    """Red's first trooper (Elite if ``fast``) mounts and switches on Red's vehicle (2 + 1 AP, L679-L680)."""
    g = sample_game(red, blue)
    g = elite(g) if fast else g
    g = act(g, "ride", {"unit": "0/u1", "what": "mount", "vehicle": bike}, TypedDice([]))
    return act(g, "ride", {"unit": "0/u1", "what": "switch_on"}, TypedDice([]))


def test_mounting_and_switching_on_cost_2_and_1_ap_L679_L680() -> None:
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"])
    assert st(g, 0, 0).riding == "0/u2" and st(g, 0, 0).driver and st(g, 0, 0).ap_spent == 3
    assert st(g, 0, 1).engine
    with pytest.raises(ValueError, match="one trooper"):
        g2 = sample_game(["red_rifle", "red_scout", "red_smg"], ["blue_gyro"])
        g2 = act(g2, "ride", {"unit": "0/u1", "what": "mount", "vehicle": "0/u2"}, TypedDice([]))
        act(g2, "ride", {"unit": "0/u3", "what": "mount", "vehicle": "0/u2"}, TypedDice([]))


def test_drive_segments_pay_the_drivers_ap_and_the_mode_bounds_them_L684_L700() -> None:
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"])
    g = act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "cruise"}, TypedDice([]))
    assert "3 dots" in g.log[-1].text  # a start moves the speed multiplier too (L693)
    g = act(g, "drive", {"vehicle": "0/u2", "step": "move", "mode": "cruise"}, TypedDice([]))
    assert st(g, 0, 1).vap == 2 and st(g, 0, 0).ap_spent == 5 and st(g, 0, 0).ap_moved == 2
    g4 = act(g, "drive", {"vehicle": "0/u2", "step": "move", "mode": "max"}, TypedDice([]))
    assert st(g4, 0, 1).mode == "cruise"  # the first segment fixed the mode for the turn (L684)
    # cruise spends 2-4 AP (L689): a stop's 2 AP would make 4, one more segment then the stop is 5
    g3 = act(g, "drive", {"vehicle": "0/u2", "step": "move", "mode": "cruise"}, TypedDice([]))
    with pytest.raises(ValueError, match="at most 4 AP"):
        act(g3, "drive", {"vehicle": "0/u2", "step": "stop", "mode": "cruise"}, TypedDice([6, 6]))
    # stopping from cruise is a control check at 4 (L723); the check passes on 4
    g = act(g, "drive", {"vehicle": "0/u2", "step": "stop", "mode": "cruise"}, TypedDice([2, 2]))
    assert "TN 4" in g.log[-1].text and not st(g, 0, 1).moving and st(g, 0, 1).vap == 4


def test_eight_ap_of_movement_a_turn_vehicle_and_trooper_together_L684() -> None:
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"], fast=True)
    g = act(act(g, "end_turn", {}, TypedDice([])), "end_turn", {}, TypedDice([]))
    g = act(g, "move", {"unit": "0/u1", "ap": 3}, TypedDice([]))  # it walked first (3 AP of movement)
    g = act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "max"}, TypedDice([]))
    for _ in range(4):
        g = act(g, "drive", {"vehicle": "0/u2", "step": "move", "mode": "max"}, TypedDice([]))
    assert st(g, 0, 0).ap_spent == 8 and st(g, 0, 0).ap_moved == 8 and st(g, 0, 1).vap == 5
    with pytest.raises(ValueError, match="at most 8 AP a turn go on movement"):
        act(g, "drive", {"vehicle": "0/u2", "step": "move", "mode": "max"}, TypedDice([]))


def test_the_mode_is_greyed_by_damage_and_by_the_drivers_ap_L644_L684() -> None:
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"])  # 7 AP, 3 spent mounting
    gates = SK.gates(g, SK.actions["drive"], {"vehicle": "0/u2"})
    assert gates.action == "" and gates.values["mode"] == {
        "max": "Max needs 5 AP; Sample: Red Rifleman has 4 (L684)"
    }
    with pytest.raises(ValueError, match="Max needs 5 AP"):
        act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "max"}, TypedDice([]))
    g2 = elite(g).model_copy(deep=True)
    bike = g2.sides[0].units[1]
    cells = SkUnit.of(bike)
    cells.cells = [2] * 8 + [0] * 5  # crossed through 5: HP 4, cruise at best (L644)
    bike.state.extra = cells.model_dump(mode="json")
    gates = SK.gates(g2, SK.actions["drive"], {"vehicle": "0/u2"})
    assert "Cruise at best" in gates.values["mode"]["max"]
    with pytest.raises(ValueError, match="Cruise at best"):
        act(g2, "drive", {"vehicle": "0/u2", "step": "start", "mode": "max"}, TypedDice([]))


def test_a_vehicle_is_greyed_when_no_one_drives_it_or_its_driver_has_no_ap() -> None:
    g = sample_game(["red_rifle", "red_scout"], ["blue_gyro"])
    assert "no one drives" in SK.gates(g, SK.actions["drive"], {"vehicle": "0/u2"}).action
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"])
    g = act(g, "move", {"unit": "0/u1", "ap": 4}, TypedDice([]))
    why = SK.gates(g, SK.actions["drive"], {"vehicle": "0/u2"}).action
    assert why == "its driver Sample: Red Rifleman has no AP left"
    with pytest.raises(ValueError, match="no AP left"):
        act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "min"}, TypedDice([]))


def test_a_failed_turn_check_wipes_out_and_skids_6_dots_in_max_at_3x_L748_L750() -> None:
    assert [skid_dots("scout", "max"), skid_dots("scout", "cruise"), skid_dots("assault", "max")] == [6, 3, 4]
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"], fast=True)
    g = act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "max"}, TypedDice([]))
    o = odds(g, "drive", {"vehicle": "0/u2", "step": "turn120", "mode": "max"})
    assert o.summary == "TN 6 (120° turn 6)" and o.facts["pass"] == pytest.approx(26 / 36)
    g = act(g, "drive", {"vehicle": "0/u2", "step": "turn120", "mode": "max"}, TypedDice([2, 3]))
    text = g.log[-1].text
    assert "wipes out: set its rear as for a turn 60° shallower" in text and "skids 6 dots" in text
    assert "prone" in g.sides[0].units[1].state.conditions and not st(g, 0, 1).moving
    assert "under_vehicle" in g.sides[0].units[0].state.conditions
    # the offers carry the wipe-out damage by mode (L757); the text the ram's if the skid hits (L759)
    _, offers = wipe_out(g, Working(g), "0/u2", "max", False)
    assert [(o.action, o.input) for o in offers] == [("wipe_damage", {"vehicle": "0/u2"})]
    # marked at once on the bike and its rider: 2X in max when the skid ends clear (L757), 5X into
    # an obstacle (L759); the scout's 4 armor takes the 2X, the rider's first cell 8 (4+4): 8 and 7
    g2 = act(g, "wipe_damage", {"vehicle": "0/u2"}, TypedDice([4, 4]))
    assert st(g2, 0, 1).armor == 2 and st(g2, 0, 0).cells[2:4] == [2, 2] and st(g2, 0, 1).skid == ""
    with pytest.raises(ValueError, match="no wipe-out to mark"):
        act(g2, "wipe_damage", {"vehicle": "0/u2"}, TypedDice([]))
    g2 = act(g, "wipe_damage", {"vehicle": "0/u2", "skid": "obstacle"}, TypedDice([3, 3, 4, 4]))
    assert st(g2, 0, 1).armor == 0 and g2.sides[0].units[1].state.damage == 7  # 4 armor, 1X on 6: HP 5
    # climbing out 3 AP, lifting 3 AP standing (L765-L771)
    with pytest.raises(ValueError, match="crawl out"):
        act(g, "move", {"unit": "0/u1"}, TypedDice([]))
    g = act(g, "end_turn", {}, TypedDice([]))
    g = act(g, "end_turn", {}, TypedDice([]))
    g = act(g, "ride", {"unit": "0/u1", "what": "crawl_out"}, TypedDice([]))
    g = act(g, "ride", {"unit": "0/u1", "what": "lift", "vehicle": "0/u2"}, TypedDice([]))
    assert st(g, 0, 0).ap_spent == 6 and "prone" not in g.sides[0].units[1].state.conditions


def test_control_checks_add_both_damage_mods_and_handling_AMB49() -> None:
    g = mounted(["red_rifle", "blue_assault"], ["blue_gyro"], fast=True)
    g = act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "max"}, TypedDice([]))
    o = odds(g, "drive", {"vehicle": "0/u2", "step": "turn180", "mode": "max"})
    assert o.summary == "TN 10 (180° turn 9, handling +1)"  # L716, assault handling +1 (L654)


def test_only_a_60_degree_turn_in_minimum_mode_L706() -> None:
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"])
    g = act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "min"}, TypedDice([]))
    g = act(g, "drive", {"vehicle": "0/u2", "step": "turn60", "mode": "min"}, TypedDice([]))
    with pytest.raises(ValueError, match="60° turn"):
        act(g, "drive", {"vehicle": "0/u2", "step": "turn120", "mode": "min"}, TypedDice([]))


def test_a_turn_ends_only_when_the_mode_has_its_least_ap_L684() -> None:
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"])
    g = act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "cruise"}, TypedDice([]))
    with pytest.raises(ValueError, match="1 more AP in Cruise"):
        act(g, "end_turn", {}, TypedDice([]))


def test_reaction_fire_is_offered_once_a_segment_at_the_vehicle_or_its_rider_L730_L734() -> None:
    g = sample_game(["red_rifle", "red_scout"], ["blue_gyro"], first="second")
    g = act(g, "set_arc", {"unit": "1/u1", "size": "60"}, TypedDice([]))
    g = act(g, "end_turn", {}, TypedDice([]))
    g = act(g, "ride", {"unit": "0/u1", "what": "mount", "vehicle": "0/u2"}, TypedDice([]))
    g = act(g, "ride", {"unit": "0/u1", "what": "switch_on"}, TypedDice([]))
    g = act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "cruise"}, TypedDice([]))
    got = segment_offers(g, "0/u2")
    assert [o.input["target"] for o in got] == ["0/u2", "0/u1"]
    assert got[0].label.startswith("Segment starts or ends in Sample: Blue Marksman's arc?")
    # the shot at the bike takes its signature (-1, L656); at the rider, none
    o = odds(g, "fire", got[0].input)
    assert "vehicle's signature -1" in o.summary


def test_a_ram_deals_3x_in_cruise_and_the_rammer_checks_at_6_L775_L786() -> None:
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"])
    g = act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "cruise"}, TypedDice([]))
    o = odds(g, "ram", {"vehicle": "0/u2", "target": "1/u1"})
    assert o.summary == "3X, no roll to hit; then TN 6 (after a ram 6)"
    # first cell 8 (4+4): 3X crosses 8, 7, 6: HP 5; the scout keeps its armor so takes nothing
    g = act(g, "ram", {"vehicle": "0/u2", "target": "1/u1"}, TypedDice([4, 4, 3, 3]))
    assert g.sides[1].units[0].state.damage == 5 and st(g, 0, 1).cells == [0] * 13
    assert "in control" in g.log[-1].text


def test_a_rammer_without_armor_takes_the_same_and_a_failed_check_wipes_out_L779() -> None:
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"], fast=True)
    g = g.model_copy(deep=True)
    bike = SkUnit.of(g.sides[0].units[1])
    bike.armor = 0
    g.sides[0].units[1].state.extra = bike.model_dump(mode="json")
    g = act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "max"}, TypedDice([]))
    g = act(g, "ram", {"vehicle": "0/u2", "target": "1/u1"}, TypedDice([5, 5, 6, 6, 1, 1]))
    # 5X: the marksman from 10 (a roll of 10) to 6 -> HP 5; the bike from its 12 (a 12) -> HP 7
    assert g.sides[1].units[0].state.damage == 5 and g.sides[0].units[1].state.damage == 5
    assert "wipes out" in g.log[-1].text and "skids 6 dots" in g.log[-1].text


def test_a_rider_on_a_vehicle_cannot_be_rammed_L777() -> None:
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"])
    g = act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "cruise"}, TypedDice([]))
    g2 = g.model_copy(deep=True)
    tgt = SkUnit.of(g2.sides[1].units[0])
    tgt.riding = "1/u9"
    g2.sides[1].units[0].state.extra = tgt.model_dump(mode="json")
    with pytest.raises(ValueError, match="ram the vehicle"):
        odds(g2, "ram", {"vehicle": "0/u2", "target": "1/u1"})


def test_mounted_weapons_add_the_vehicles_damage_and_get_a_free_30_arc_after_moving_L648_L807() -> None:
    g = mounted(["red_rifle", "blue_assault"], ["blue_gyro"])
    with pytest.raises(ValueError, match="after it moves"):
        act(g, "set_arc", {"unit": "0/u2", "size": "30", "weapon": "lmg"}, TypedDice([]))
    g = act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "cruise"}, TypedDice([]))
    g = act(g, "drive", {"vehicle": "0/u2", "step": "move", "mode": "cruise"}, TypedDice([]))
    spent = st(g, 0, 0).ap_spent
    with pytest.raises(ValueError, match="30°"):
        act(g, "set_arc", {"unit": "0/u2", "size": "60", "weapon": "lmg"}, TypedDice([]))
    g = act(g, "set_arc", {"unit": "0/u2", "size": "30", "weapon": "lmg"}, TypedDice([]))
    assert st(g, 0, 1).arcs[0].size == 30 and st(g, 0, 1).arcs[0].shots == -1  # an LMG never runs out
    assert st(g, 0, 0).ap_spent == spent  # free (L807)
    # a damaged vehicle's mounted weapon adds its modifier (L648): crossed to HP 5, +2
    g2 = g.model_copy(deep=True)
    bike = SkUnit.of(g2.sides[0].units[1])
    bike.cells = [0] * 6 + [2] + [0] * 6
    g2.sides[0].units[1].state.extra = bike.model_dump(mode="json")
    o = odds(g2, "fire", {"shooter": "0/u2", "target": "1/u1", "weapon": "lmg"})
    assert "vehicle's damage +2" in o.summary and "movement fire +2" in o.summary
    # the driver pays movement fire with a mounted weapon: 2 AP (L799, L496)
    g2 = act(g2, "fire", {"shooter": "0/u2", "target": "1/u1", "weapon": "lmg"}, TypedDice([1, 1]))
    assert st(g2, 0, 0).ap_spent == spent + 2


def test_a_driver_fires_only_a_secondary_smg_or_explosive_L799() -> None:
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"])
    picks = SK.actions["fire"].picks
    assert picks is not None
    why = {p.value: p.unavailable for p in picks(g, "0/u1")["weapon"]}
    assert "a driver fires only" in why["rifle"] and "driver" not in why["pistol"]
    with pytest.raises(ValueError, match="a driver fires only"):
        act(g, "fire", {"shooter": "0/u1", "target": "1/u1", "weapon": "rifle"}, TypedDice([6, 6]))


def test_a_passenger_of_a_larger_vehicle_fires_primaries_at_plus_1_L803() -> None:
    g = mounted(["red_rifle", "blue_assault", "red_smg"], ["blue_gyro"])
    g = act(g, "ride", {"unit": "0/u3", "what": "mount", "vehicle": "0/u2"}, TypedDice([]))
    assert not st(g, 0, 2).driver
    o = odds(g, "fire", {"shooter": "0/u3", "target": "1/u1"})
    assert "movement fire +1" in o.summary


def test_a_moving_vehicle_whose_driver_dies_wipes_out_L746() -> None:
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"])
    g = act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "cruise"}, TypedDice([]))
    g = act(g, "take_damage", {"unit": "0/u1", "lethal": 14}, TypedDice([6, 6]))
    assert g.sides[0].units[0].state.destroyed
    assert "wipes out" in g.log[-1].text and "prone" in g.sides[0].units[1].state.conditions


def test_damage_that_rules_out_the_mode_wipes_out_L736() -> None:
    g = mounted(["red_rifle", "red_scout"], ["blue_gyro"], fast=True)
    g = act(g, "drive", {"vehicle": "0/u2", "step": "start", "mode": "max"}, TypedDice([]))
    g = act(g, "take_damage", {"unit": "0/u2", "lethal": 5}, TypedDice([4, 3]))  # 4 armor, 1X on cell 7
    assert "prone" not in g.sides[0].units[1].state.conditions  # HP 6: still max
    g = act(g, "take_damage", {"unit": "0/u2", "lethal": 1}, TypedDice([3, 3]))  # cell 6: HP 5, cruise
    assert "wipes out" in g.log[-1].text
