"""Skirmishers smoke and fire on the table, tracked turn by turn (004_63417322d25a2f10.txt L439,
L447; digest AMB-26, AMB-28); pure Python."""

from __future__ import annotations

import pytest

from core.dice import TypedDice
from core.game import Game, act, odds
from core.systems import implementation
from core.systems.skirmishers.state import SkGame
from tests.test_skirmishers import sample_game

SK = implementation("skirmishers")


def clouds(g: Game) -> list[tuple[str, int]]:
    return [(c.kind, c.radius) for c in SkGame.model_validate(g.state.extra).clouds]


def smoke_thrown(options: dict[str, object] | None = None) -> Game:
    """Red's rifleman (2 smoke grenades) throws one 3 dots at the door; it lands (2D6 of 12)."""
    g = sample_game(["red_rifle"], ["blue_gyro"])
    if options:
        g = g.model_copy(update={"options": options})
    g = act(g, "change_weapon", {"unit": "0/u1", "weapon": "smoke_grenade"}, TypedDice([]))
    g = act(
        g, "throw", {"unit": "0/u1", "weapon": "smoke_grenade", "dots": 3, "at": "the door"}, TypedDice([])
    )
    return act(g, "explode", {"unit": "0/u1"}, TypedDice([6, 6]))


def ends(g: Game, n: int) -> Game:
    for _ in range(n):
        g = act(g, "end_turn", {}, TypedDice([]))
    return g


def test_smoke_fills_1_dot_around_then_2_at_the_end_of_the_sides_next_movement_L447() -> None:
    g = smoke_thrown()
    assert clouds(g) == [("smoke", 1)]
    g = ends(g, 2)  # Red's turn ends, Blue's turn ends: still 1 dot around
    assert clouds(g) == [("smoke", 1)]
    g = ends(g, 1)  # the end of Red's next turn: it spreads to every dot within 2
    assert clouds(g) == [("smoke", 2)] and "spreads to 2 dots" in g.log[-1].text
    phase = SK.phase(g)
    assert phase is not None and "smoke at the door (2 dots around, 11 turns left)" in phase.steps[1].hint


def test_smoke_lifts_after_12_turns_of_the_side_that_threw_it_AMB28() -> None:
    g = ends(smoke_thrown(), 25)  # Red's turn 1, then 12 more of Red's turns with Blue's between
    assert clouds(g) == [] and "the smoke at the door lifts" in g.log[-1].text
    g = ends(smoke_thrown(), 24)
    assert clouds(g) == [("smoke", 2)]


def test_smoke_counted_in_both_sides_turns_is_an_option_AMB28() -> None:
    g = ends(smoke_thrown({"smoke_lasts": "half_turns"}), 13)  # its own turn, then 12 side turns
    assert clouds(g) == [] and "lifts" in g.log[-1].text
    assert clouds(ends(smoke_thrown({"smoke_lasts": "half_turns"}), 12)) == [("smoke", 2)]


def test_a_missed_smoke_grenade_still_smokes_where_it_scatters_L445_L447() -> None:
    g = sample_game(["red_rifle"], ["blue_gyro"])
    g = act(g, "change_weapon", {"unit": "0/u1", "weapon": "smoke_grenade"}, TypedDice([]))
    g = act(
        g, "throw", {"unit": "0/u1", "weapon": "smoke_grenade", "dots": 3, "at": "the door"}, TypedDice([])
    )
    g = act(g, "explode", {"unit": "0/u1"}, TypedDice([1, 1, 5]))
    assert SkGame.model_validate(g.state.extra).clouds[0].label == "1 dot from the door, direction 5"


def burning(options: dict[str, object] | None = None) -> Game:
    """Red's trooper with incendiary grenades sets the hedge on fire (a hit, 2D6 of 12)."""
    g = sample_game(["red_rifle"], ["blue_gyro"])
    g = g.model_copy(deep=True)
    g.sides[0].units[0].profile.update(smoke_grenades=0, incendiary_grenades=2)
    extra = dict(g.sides[0].units[0].state.extra)
    extra["ammo"] = {"hand_grenade": 2, "incendiary_grenade": 2}
    g.sides[0].units[0].state.extra = extra
    if options:
        g.options = dict(options)
    g = act(g, "change_weapon", {"unit": "0/u1", "weapon": "incendiary_grenade"}, TypedDice([]))
    g = act(
        g,
        "throw",
        {"unit": "0/u1", "weapon": "incendiary_grenade", "dots": 2, "at": "the hedge"},
        TypedDice([]),
    )
    return act(g, "explode", {"unit": "0/u1"}, TypedDice([6, 6]))


def test_a_fire_burns_until_the_end_of_the_next_full_round_AMB26() -> None:
    g = burning()
    assert clouds(g) == [("fire", 1)]
    g = ends(g, 1)  # Red's turn it started in ends; Blue moves next to it
    g = act(g, "move", {"unit": "1/u1", "ap": 1}, TypedDice([]))
    offers = g.log[-1].detail["offers"]
    assert [(o["input"]["lethal"], o["label"]) for o in offers] == [
        (1, "Entered fire: 1X"),
        (8, "Ends on fire: 8X"),
    ]
    g = ends(g, 1)  # Blue's turn ends: the next full round (Blue's and Red's) is not over
    assert clouds(g) == [("fire", 1)]
    g = ends(g, 1)  # Red's next turn ends: it burns out
    assert clouds(g) == [] and "the fire at the hedge burns out" in g.log[-1].text


def test_a_fire_kept_until_put_out_is_an_option_AMB26() -> None:
    g = ends(burning({"fire_lasts": "until_put_out"}), 10)
    assert clouds(g) == [("fire", 1)]


def test_scatter_of_1d6_dots_is_an_option_AMB22() -> None:
    g = sample_game(["red_rifle"], ["blue_gyro"])
    g = g.model_copy(update={"options": {"scatter_distance": "d6_dots"}})
    g = act(g, "change_weapon", {"unit": "0/u1", "weapon": "hand_grenade"}, TypedDice([]))
    g = act(
        g, "throw", {"unit": "0/u1", "weapon": "hand_grenade", "dots": 3, "at": "the gate"}, TypedDice([])
    )
    g = act(g, "explode", {"unit": "0/u1"}, TypedDice([1, 1, 2, 4]))  # a miss, direction 2, 4 dots
    assert "scatters 4 dots from the gate in direction 2" in g.log[-1].text


def test_morale_may_count_troopers_out_of_action_AMB4() -> None:
    keys = ["red_leader", "red_rifle", "red_smg", "red_lmg", "red_rifle", "red_rifle"]
    g = sample_game(keys, ["blue_gyro"])
    g = g.model_copy(deep=True)
    for u in (1, 2, 3):
        g.sides[0].units[u].state.destroyed = True
    extra = dict(g.sides[0].units[4].state.extra)
    extra["cells"] = [2] * 10 + [0]  # at HP 0: out of action, not dead (AMB-4)
    g.sides[0].units[4].state.extra = extra
    with pytest.raises(ValueError, match="3 of the squad are dead"):
        odds(g, "morale", {"unit": "0/u6"})
    g.options = {"morale_counts_out": True}
    assert odds(g, "morale", {"unit": "0/u6"}).summary.startswith("TN 5 ")  # Regular 7, leader -2


def test_one_combat_action_a_turn_is_an_option_AMB19() -> None:
    g = sample_game(["red_rifle"], ["blue_gyro"])
    g = act(g, "set_arc", {"unit": "0/u1", "size": "30"}, TypedDice([]))
    act(g, "melee", {"attacker": "0/u1", "target": "1/u1"}, TypedDice([]))  # the default: AP allowing
    strict = g.model_copy(update={"options": {"one_combat_action": True}})
    with pytest.raises(ValueError, match="has taken its combat action this turn"):
        act(strict, "melee", {"attacker": "0/u1", "target": "1/u1"}, TypedDice([]))
    strict = act(act(strict, "end_turn", {}, TypedDice([])), "end_turn", {}, TypedDice([]))
    act(strict, "melee", {"attacker": "0/u1", "target": "1/u1"}, TypedDice([]))  # a new turn
