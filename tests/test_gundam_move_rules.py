"""Gundam Skirmish: Move, Boost, Reload, Switch Weapon and Idle pinned at their edges (lines are in
000_3e12d4cbd0c8f6da.txt).  The distance allowed is what the log tells the player ('moves up to 4"').
Written against the survivors of ``tests/mutation.py`` on ``movement.py`` (issue #27).
"""

from __future__ import annotations

from typing import Any

import pytest
from test_gundam_effects import edit, pilot, sample
from test_gundam_skirmish import game, state

from core.dice import NeedMoreDice, TypedDice
from core.game import Game, act
from core.systems.base import NeedChoice


def allowed(g: Game, ref: str = "0/l1", **raw: Any) -> str:
    """The distance the log says the unit may go ('up to 4"')."""
    text = act(g, "move", {"unit": ref, **raw}, TypedDice([])).log[-1].text
    return text.split(" up to ", 1)[1].split('"', 1)[0]


def mover(**changes: Any) -> Game:
    """A Lancer with Move 8, Boost 9 (side 0), against the usual Zeon pair."""
    return game(a=[("l1", sample("lancer", move=8, **changes)), ("g1", sample("gun_tank"))])


@pytest.mark.parametrize(
    ("raw", "leg", "want"),
    [
        ({}, 0, "8"),
        ({"terrain": "difficult"}, 0, "4"),  # halved (L521-L537)
        ({"terrain": "dangerous"}, 0, "4"),
        ({}, 1, "4"),  # Leg Damage 1: Normal counts as Difficult (L1161-L1164)
        ({"terrain": "difficult"}, 1, "4"),
        ({"terrain": "difficult"}, 2, "2"),  # Leg Damage 2: Difficult cuts 3/4 (L1165-L1170; A26)
        ({}, 2, "2"),
        ({"turn": "up_to_90"}, 0, "6"),  # 2" to turn up to 90 degrees (L465-L474)
        ({"turn": "over_90"}, 0, "4"),  # 4" over 90
        ({"terrain": "difficult", "turn": "over_90"}, 0, "1"),  # never under 1" (L516-L518)
    ],
)
def test_a_moves_distance(raw: dict[str, Any], leg: int, want: str) -> None:
    g = edit(mover(), "0/l1", counters={"leg": leg})
    assert allowed(g, **raw) == want


def test_turning_costs_a_vehicle_more_and_an_unwieldly_suit_double() -> None:
    """L465-L474: a vehicle pays 3" or 6"; Unwieldly doubles a suit's cost."""
    tank = game(a=[("l1", sample("lancer")), ("g1", sample("gun_tank", move=8))])
    assert allowed(tank, "0/g1", turn="up_to_90") == "5"
    assert allowed(tank, "0/g1", turn="over_90") == "2"
    clumsy = mover(abilities=[{"key": "unwieldly"}])
    assert allowed(clumsy, turn="up_to_90") == "4"
    # a turn that eats the whole Move leaves only the turn (L475-L478)
    g = act(clumsy, "move", {"unit": "0/l1", "turn": "over_90"}, TypedDice([]))
    assert "it only turns" in g.log[-1].text and 'up to 0"' in g.log[-1].text


def test_a_turn_of_exactly_the_whole_move_only_turns() -> None:
    """L475-L478: Move 4 and a turn over 90 degrees (4"): it only turns; Move 5 keeps 1"."""
    four = game(a=[("l1", sample("lancer", move=4)), ("g1", sample("gun_tank"))])
    assert allowed(four, turn="over_90") == "0"
    five = game(a=[("l1", sample("lancer", move=5)), ("g1", sample("gun_tank"))])
    assert allowed(five, turn="over_90") == "1"


def test_space_ignores_leg_damage_and_turning() -> None:
    """L1393 (no Leg Damage effect on Movement in space) and no turning cost in space (L1367-L1405)."""
    g = edit(mover(), "0/l1", counters={"leg": 2}).model_copy(deep=True)
    g.state.extra["space"] = True
    assert allowed(g) == "8"
    assert allowed(g, turn="over_90") == "8"


def test_air_and_flight_mode_ignore_terrain() -> None:
    """L1245: Air Units (and a unit in Flight Mode) ignore terrain; only they Move through sheer."""
    flying = edit(mover(), "0/l1", conditions=["flight_mode"])
    assert allowed(flying, terrain="difficult") == "8"
    with pytest.raises(ValueError, match="sheer terrain is crossed by Boost only"):
        allowed(mover(), terrain="sheer")


def test_a_boost_ignores_terrain_and_turning_and_costs_two_actions() -> None:
    """L902-L922: a Boost (Slow) goes its full Boost value; a unit without one cannot."""
    g = edit(mover(), "0/l1", counters={"leg": 2})
    after = act(
        g, "move", {"unit": "0/l1", "boost": True, "terrain": "difficult", "turn": "over_90"}, TypedDice([])
    )
    assert 'up to 9"' in after.log[-1].text
    assert state(after, "0/l1").counters["actions"] == 2
    moved = act(mover(), "move", {"unit": "0/l1"}, TypedDice([]))
    assert state(moved, "0/l1").counters["actions"] == 1
    free = act(mover(), "move", {"unit": "0/l1", "boost": True, "free": True}, TypedDice([]))
    assert state(free, "0/l1").counters["actions"] == 0
    with pytest.raises(ValueError, match="cannot Boost"):
        act(mover(), "move", {"unit": "0/g1", "boost": True}, TypedDice([]))
    with pytest.raises(ValueError, match="vehicles cannot enter sheer"):
        tank = game(a=[("l1", sample("lancer")), ("g1", sample("gun_tank", boost=6))])
        act(tank, "move", {"unit": "0/g1", "boost": True, "terrain": "sheer"}, TypedDice([]))
    with pytest.raises(ValueError, match='moves at most 9"'):
        act(mover(), "move", {"unit": "0/l1", "boost": True, "distance": 10}, TypedDice([]))


def test_trans_am_doubles_move_and_boost() -> None:
    """L3218-L3224: Trans-Am doubles Move and Boost in its player's first 3 turns."""
    g = mover(pilot=pilot(heroic_mods=["trans_am"]))
    assert allowed(g) == "16"
    boosted = act(g, "move", {"unit": "0/l1", "boost": True}, TypedDice([]))
    assert 'up to 18"' in boosted.log[-1].text


@pytest.mark.parametrize(("face", "hurt"), [(2, 0), (3, 2)])
def test_afterburner_once_used_costs_two_damage_on_three_or_more(face: int, hurt: int) -> None:
    """L2770-L2775: after the Afterburner is used, each Move or Boost rolls a D6 first; 3+: 2 damage."""
    g = mover(abilities=[{"key": "afterburner", "x": "12"}])
    assert state(act(g, "move", {"unit": "0/l1"}, TypedDice([])), "0/l1").damage == 0  # not used yet
    used = edit(g, "0/l1", extra={"once": ["afterburner"]})
    after = act(used, "move", {"unit": "0/l1"}, TypedDice([face]))
    assert state(after, "0/l1").damage == hurt


def test_ending_in_dangerous_terrain_costs_one_damage() -> None:
    """L538-L540."""
    after = act(mover(), "move", {"unit": "0/l1", "ends_in_dangerous": True}, TypedDice([]))
    assert state(after, "0/l1").damage == 1


@pytest.mark.parametrize(("face", "again"), [(4, False), (5, True)])
def test_red_comet_a_free_boost_on_five_or_more(face: int, again: bool) -> None:
    """L2981-L2985: after a Boost, a D6; 5+ and one more Boost, free."""
    g = mover(abilities=[{"key": "red_comet"}])
    after = act(g, "move", {"unit": "0/l1", "boost": True}, TypedDice([face]))
    assert ("one more Boost" in after.log[-1].text) is again


# --- Reload (L415-L422, L925-L929), Switch Weapon (L424-L451), Idle (L409-L413) ---------------------------


def reloading(**counters: int) -> Game:
    g = act(game(), "next_turn", {}, TypedDice([]))
    return edit(g, "1/h1", extra={"reload": {"Rotary cannon": True}}, counters=counters)


@pytest.mark.parametrize(("arm", "cost", "kind"), [(0, 1, "Quick"), (1, 1, "Quick"), (2, 2, "Slow")])
def test_a_quick_reload_is_slow_from_arm_damage_two(arm: int, cost: int, kind: str) -> None:
    """L415-L422: <RQ> is a Fast action; Arm Damage 2 makes every Quick Reload Slow (L420-L422)."""
    after = act(reloading(arm=arm), "reload", {"unit": "1/h1"}, TypedDice([]))
    assert state(after, "1/h1").counters["actions"] == cost
    assert after.log[-1].text == f"Heavy Gunner: {kind} Reload of Rotary cannon"
    assert state(after, "1/h1").extra["reload"] == {"Rotary cannon": False}


def test_reload_asks_which_when_two_wait_and_refuses_a_loaded_weapon() -> None:
    two = edit(reloading(), "1/h1", extra={"reload": {"Rotary cannon": True, "Missile rack": True}})
    with pytest.raises(NeedChoice) as asked:
        act(two, "reload", {"unit": "1/h1"}, TypedDice([]))
    assert [c.value for c in asked.value.options] == ["Rotary cannon", "Missile rack"]
    with pytest.raises(ValueError, match="does not need a reload"):
        act(reloading(), "reload", {"unit": "1/h1", "weapon": "Missile rack"}, TypedDice([]))
    with pytest.raises(ValueError, match="no weapon to reload"):
        act(game(), "reload", {"unit": "0/l1"}, TypedDice([]))


def test_switch_weapon_equips_the_other_one_for_one_action() -> None:
    """L424-L451: a Fast action; with one other choice it needs no question; the one in hand is refused."""
    g = game()
    after = act(g, "switch_weapon", {"unit": "0/l1"}, TypedDice([]))  # the Lancer: rifle -> beam blade
    assert state(after, "0/l1").extra["equipped"] == "cc"
    assert state(after, "0/l1").counters["actions"] == 1
    assert after.log[-1].text == "Lancer equips Beam blade"
    with pytest.raises(ValueError, match="has Beam rifle equipped already"):
        act(g, "switch_weapon", {"unit": "0/l1", "weapon": "Beam rifle"}, TypedDice([]))
    with pytest.raises(ValueError, match="cannot equip 'Head guns'"):
        act(g, "switch_weapon", {"unit": "0/l1", "weapon": "Head guns"}, TypedDice([]))
    with pytest.raises(ValueError, match="no other weapon"):
        act(g, "switch_weapon", {"unit": "0/g1"}, TypedDice([]))


def test_idle_spends_one_action() -> None:
    after = act(game(), "idle", {"unit": "0/l1"}, TypedDice([]))
    assert state(after, "0/l1").counters["actions"] == 1 and after.log[-1].text == "Lancer waits"


def test_boost_and_sheer_terrain_for_vehicles_and_suits() -> None:
    """L545-L550: sheer terrain is crossed by Boost only, and never by a vehicle unless amphibious."""
    tank = game(a=[("l1", sample("lancer")), ("g1", sample("gun_tank", boost=6))])
    after = act(tank, "move", {"unit": "0/g1", "boost": True}, TypedDice([]))
    assert 'up to 6"' in after.log[-1].text
    wet = game(
        a=[("l1", sample("lancer")), ("g1", sample("gun_tank", boost=6, abilities=[{"key": "amphibious"}]))]
    )
    act(wet, "move", {"unit": "0/g1", "boost": True, "terrain": "sheer"}, TypedDice([]))
    act(mover(), "move", {"unit": "0/l1", "boost": True, "terrain": "sheer"}, TypedDice([]))


def test_a_move_may_go_exactly_its_limit() -> None:
    after = act(mover(), "move", {"unit": "0/l1", "distance": 8}, TypedDice([]))
    assert after.log[-1].text == 'Lancer moves 8"'
    with pytest.raises(ValueError, match='moves at most 8" with this Move'):
        act(mover(), "move", {"unit": "0/l1", "distance": 9}, TypedDice([]))


def test_the_move_log_says_what_cost_the_distance() -> None:
    """What the player reads: each cut with its size (L521-L537, L465-L474, L1161-L1164)."""
    hurt = edit(mover(), "0/l1", counters={"leg": 1})
    text = act(hurt, "move", {"unit": "0/l1", "turn": "up_to_90"}, TypedDice([])).log[-1].text
    assert text == (
        'Lancer moves up to 2"; Leg Damage: Normal terrain counts as Difficult (L1161-L1164); '
        'difficult terrain: -4"; turning out of sight: -2"'
    )
    after = act(mover(), "move", {"unit": "0/l1", "ends_in_dangerous": True}, TypedDice([]))
    assert after.log[-1].text.startswith(
        'Lancer moves up to 8"; ends in dangerous terrain: 1 damage (L538-L540)'
    )


@pytest.mark.parametrize(("face", "text"), [(2, "Afterburner 2"), (3, "Afterburner 3: 2 damage (L2775)")])
def test_the_afterburner_roll_is_told(face: int, text: str) -> None:
    used = edit(mover(abilities=[{"key": "afterburner", "x": "12"}]), "0/l1", extra={"once": ["afterburner"]})
    assert text in act(used, "move", {"unit": "0/l1"}, TypedDice([face])).log[-1].text
    with pytest.raises(NeedMoreDice, match=r"^roll 1 more d6 for Afterburner$"):
        act(used, "move", {"unit": "0/l1"}, TypedDice([]))


def test_red_comet_rolls_on_a_boost_only() -> None:
    g = mover(abilities=[{"key": "red_comet"}])
    assert "Red Comet" not in act(g, "move", {"unit": "0/l1"}, TypedDice([])).log[-1].text
    with pytest.raises(NeedMoreDice, match=r"^roll 1 more d6 for Red Comet$"):
        act(g, "move", {"unit": "0/l1", "boost": True}, TypedDice([]))


def test_a_slow_reload_weapon_costs_two_actions() -> None:
    """L415-L422, L925-L929: an <RS> weapon needs a Slow Reload even without Arm Damage."""
    heavy = sample("heavy_gunner")
    heavy["weapons"][1]["tags"] = ["RS", "P"]
    g = act(game(b=[("t1", sample("trooper")), ("h1", heavy)]), "next_turn", {}, TypedDice([]))
    g = edit(g, "1/h1", extra={"reload": {"Missile rack": True, "Rotary cannon": False}})
    after = act(g, "reload", {"unit": "1/h1"}, TypedDice([]))
    assert after.log[-1].text == "Heavy Gunner: Slow Reload of Missile rack"
    assert state(after, "1/h1").counters["actions"] == 2


def test_switch_weapon_asks_among_several_and_names_the_weapon() -> None:
    """L424-L451: the Trooper holds its machine gun; the bazooka and the heat axe are the choices."""
    g = act(game(), "next_turn", {}, TypedDice([]))
    with pytest.raises(NeedChoice) as asked:
        act(g, "switch_weapon", {"unit": "1/t1"}, TypedDice([]))
    assert [(c.value, c.label) for c in asked.value.options] == [("Bazooka", "Bazooka"), ("cc", "Heat axe")]
    after = act(g, "switch_weapon", {"unit": "1/t1", "weapon": "Bazooka"}, TypedDice([]))
    assert after.log[-1].text == "Trooper equips Bazooka"
    axe = act(g, "switch_weapon", {"unit": "1/t1", "weapon": "cc"}, TypedDice([]))
    with pytest.raises(ValueError, match="has Heat axe equipped already"):
        act(axe, "switch_weapon", {"unit": "1/t1", "weapon": "cc"}, TypedDice([]))
