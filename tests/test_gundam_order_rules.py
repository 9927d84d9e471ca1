"""Gundam Skirmish: orders pinned by their cost and effect (L1283-L1293, the Order List L1415-L1534; lines are
in 000_3e12d4cbd0c8f6da.txt).  Written against the survivors of ``tests/mutation.py`` on ``orders.py``
(issue #27).
"""

from __future__ import annotations

from typing import Any

import pytest
from test_gundam_effects import edit, sample
from test_gundam_skirmish import game, state

from core.dice import TypedDice
from core.game import Game, act


def commanded(cp: int, **more: Any) -> Game:
    """The Feds with a Command unit (the Captain), a Lancer and a Gun Tank, ``cp`` Command Points, in
    their Initial Upkeep."""
    a = [("c1", sample("captain")), ("l1", sample("lancer", **more)), ("g1", sample("gun_tank"))]
    g = game(a=a).model_copy(deep=True)
    g.sides[0].resources["cp"] = cp
    return g


def order(g: Game, key: str, unit: str = "", **raw: Any) -> Game:
    return act(g, "order", {"order": key, "unit": unit, **raw}, TypedDice([]))


#: (order, its cost, the unit it needs): the Order List, L1415-L1534
COSTS = [
    ("bring_them_down", 1, "0/l1"),
    ("concentrate_fire", 3, ""),
    ("double_time", 1, "0/l1"),
    ("field_repair", 2, "0/l1"),
    ("get_to_cover", 3, ""),
    ("resupply", 2, "0/l1"),
]


@pytest.mark.parametrize(("key", "cost", "unit"), COSTS, ids=[c[0] for c in COSTS])
def test_an_order_costs_its_points_exactly(key: str, cost: int, unit: str) -> None:
    after = order(commanded(cost), key, unit)
    assert after.sides[0].resources["cp"] == 0
    assert f"({cost} CP)" in after.log[-1].text
    with pytest.raises(ValueError, match=f"costs {cost} Command Points; {cost - 1} left"):
        order(commanded(cost - 1), key, unit)


@pytest.mark.parametrize(("unit", "integrity", "cost"), [("0/l1", 6, 3), ("0/l1", 7, 4), ("0/c1", 8, 4)])
def test_withdraw_costs_half_the_base_integrity_rounded_up(unit: str, integrity: int, cost: int) -> None:
    """L1524-L1529; A40: half the base Integrity, rounded up; the unit leaves the battle."""
    g = commanded(cost, integrity=integrity) if unit == "0/l1" else commanded(cost)
    after = order(g, "withdraw", unit)
    assert after.sides[0].resources["cp"] == 0
    assert "withdrawn" in state(after, unit).conditions
    if unit == "0/l1":
        with pytest.raises(ValueError, match=f"costs {cost} Command Points"):
            order(commanded(cost - 1, integrity=integrity), "withdraw", unit)


@pytest.mark.parametrize(("damage", "left"), [(3, 1), (2, 0), (1, 0)])
def test_field_repair_restores_up_to_two_and_ends_the_units_turn(damage: int, left: int) -> None:
    """L1469-L1473: up to 2 Integrity back; the unit does not act for the rest of the turn."""
    g = commanded(2).model_copy(deep=True)
    g.sides[0].units[1].state.damage = damage
    after = order(g, "field_repair", "0/l1")
    t = state(after, "0/l1")
    assert (t.damage, t.activated, "no_actions" in t.conditions) == (left, True, True)


def test_bring_them_down_resupply_and_the_side_wide_orders() -> None:
    """L1419-L1426 (<P> for the unit), L1501-L1506 (every weapon reloaded), L1428-L1440 and L1478-L1483
    (the side's Concentrate Fire and Get to cover! for the turn)."""
    g = edit(commanded(10), "0/l1", extra={"reload": {"Beam rifle": True}})
    assert "bring_them_down" in state(order(g, "bring_them_down", "0/l1"), "0/l1").conditions
    assert state(order(g, "resupply", "0/l1"), "0/l1").extra["reload"] == {}
    assert order(g, "concentrate_fire").sides[0].resources["concentrate_fire"] == 1
    assert order(g, "get_to_cover").sides[0].resources["get_to_cover"] == 1
    assert order(g, "bring_them_down", "0/l1").sides[0].resources["concentrate_fire"] == 0


def test_infiltrate_brings_a_reserve_unit_in_without_a_roll() -> None:
    """L1491-L1500: a unit waiting to Ambush arrives where its player chose, no roll."""
    para = sample("lancer", abilities=[{"key": "parachute_pack"}], ambush=True)
    g = game(a=[("c1", sample("captain")), ("l1", para)]).model_copy(deep=True)
    g.sides[0].resources["cp"] = 2
    after = order(g, "infiltrate", "0/l1")
    assert "reserve" not in state(after, "0/l1").conditions
    with pytest.raises(ValueError, match="not waiting to Ambush"):
        order(after.model_copy(update={"sides": g.sides}), "infiltrate", "0/c1")


def test_we_have_reserves_returns_a_destroyed_unit_of_200_points_or_less() -> None:
    """L1515-L1523: a destroyed unit worth 200 points or less returns, repaired."""
    g = commanded(4).model_copy(deep=True)
    lancer = g.sides[0].units[1].state  # 170 points
    lancer.destroyed, lancer.damage = True, 6
    lancer.counters.update(arm=2, leg=1, head=1)
    after = order(g, "we_have_reserves", "0/l1")
    t = state(after, "0/l1")
    assert (t.destroyed, t.damage, t.counters["arm"], t.counters["leg"], t.counters["head"]) == (
        False,
        0,
        0,
        0,
        0,
    )
    with pytest.raises(ValueError, match="200 points or less"):
        order(commanded(4), "we_have_reserves", "0/l1")  # not destroyed
    # a second Captain (230 points) destroyed, the first still commanding: too dear to return
    big = game(a=[("c1", sample("captain")), ("c2", sample("captain"))]).model_copy(deep=True)
    big.sides[0].resources["cp"] = 4
    big.sides[0].units[1].state.destroyed = True
    with pytest.raises(ValueError, match="200 points or less"):
        order(big, "we_have_reserves", "0/c2")


def test_orders_need_a_command_unit_in_the_players_own_upkeep() -> None:
    """L1283-L1293: orders are given in the player's Initial Upkeep while a Command unit is under its
    control; for its own units only."""
    g = commanded(5)
    with pytest.raises(ValueError, match="one of your own units"):
        order(g, "bring_them_down", "1/t1")
    with pytest.raises(ValueError, match="own turn"):
        order(g, "concentrate_fire", side=1)
    with pytest.raises(ValueError, match="there is no side 3"):
        order(g, "concentrate_fire", side=2)
    acted = act(g, "idle", {"unit": "0/l1"}, TypedDice([]))
    with pytest.raises(ValueError, match="Initial Upkeep"):
        order(acted, "concentrate_fire")
    for gone in ("destroyed", "withdrawn"):
        h = g.model_copy(deep=True)
        if gone == "destroyed":
            h.sides[0].units[0].state.destroyed = True
        else:
            h.sides[0].units[0].state.conditions.append("withdrawn")
        with pytest.raises(ValueError, match="need a Command unit"):
            order(h, "concentrate_fire")


def test_the_colony_laser_is_for_the_titans_and_zeon_only() -> None:
    """L1441-L1447: 10 Command Points; only the Titans or the Principality of Zeon."""
    feds = game(a=[("c1", sample("captain")), ("l1", sample("lancer"))]).model_copy(deep=True)
    feds.sides[0].resources["cp"] = 10
    with pytest.raises(ValueError, match="Colony Laser"):
        order(feds, "colony_laser")
    zeon_cmd = sample("captain", factions=["ZEON"])
    g = act(game(b=[("t1", zeon_cmd)]), "next_turn", {}, TypedDice([])).model_copy(deep=True)
    g.sides[1].resources["cp"] = 10
    after = order(g, "colony_laser")
    assert after.sides[1].resources["cp"] == 0 and "roll for each unit" in after.log[-1].text


def test_a_unit_of_exactly_200_points_returns() -> None:
    """L1515-L1523: "200 points or below": a destroyed 200-point unit returns."""
    lancer = sample("lancer", integrity=4, move=7, shield="heavy")  # 200 points
    g = game(a=[("c1", sample("captain")), ("l1", lancer)]).model_copy(deep=True)
    g.sides[0].resources["cp"] = 4
    g.sides[0].units[1].state.destroyed = True
    after = order(g, "we_have_reserves", "0/l1")
    assert not state(after, "0/l1").destroyed
    assert after.log[-1].text.endswith(": Lancer returns in the deployment zone")


def test_the_log_names_the_unit_an_order_concerns() -> None:
    g = edit(commanded(10), "0/l1", extra={"reload": {"Beam rifle": True}})
    for key in ("bring_them_down", "field_repair", "resupply", "double_time"):
        assert " for Lancer" in order(g, key, "0/l1").log[-1].text, key
    assert order(g, "withdraw", "0/l1").log[-1].text.endswith(": Lancer leaves the battle")
    assert order(g, "concentrate_fire").log[-1].text == "Feds orders Concentrate Fire (3 CP)"
    para = sample("lancer", abilities=[{"key": "parachute_pack"}], ambush=True)
    h = game(a=[("c1", sample("captain")), ("l1", para)]).model_copy(deep=True)
    h.sides[0].resources["cp"] = 2
    assert (
        order(h, "infiltrate", "0/l1")
        .log[-1]
        .text.endswith(": Lancer arrives where its player chose, no roll (L1491-L1500)")
    )


def test_no_orders_before_the_first_turn_or_for_a_side_out_of_its_turn() -> None:
    """L286-L291: orders are the player in turn's, in its Initial Upkeep."""
    from test_gundam_skirmish import squad

    from core.game import new_game

    a = squad("a", "Feds", ("c1", sample("captain")))
    b = squad("b", "Zeon", ("t1", sample("trooper")))
    fresh = new_game("g", "Test", [("Feds", a), ("Zeon", b)])
    with pytest.raises(ValueError, match="roll for priority first"):
        order(fresh, "concentrate_fire")
    zeon_turn = act(commanded(5), "next_turn", {}, TypedDice([]))
    with pytest.raises(ValueError, match="in Feds's own turn"):
        order(zeon_turn, "concentrate_fire", side=0)


@pytest.mark.parametrize(("points", "returns"), [(200, True), (201, False)])
def test_we_have_reserves_at_200_points_printed(points: int, returns: bool) -> None:
    """L1515-L1523: a unit with its points printed (not the formula): 200 returns, 201 does not."""
    g = game(a=[("c1", sample("captain")), ("l1", sample("lancer", points=points))]).model_copy(deep=True)
    g.sides[0].resources["cp"] = 4
    g.sides[0].units[1].state.destroyed = True
    if returns:
        assert not state(order(g, "we_have_reserves", "0/l1"), "0/l1").destroyed
    else:
        with pytest.raises(ValueError, match="200 points or less"):
            order(g, "we_have_reserves", "0/l1")
