"""Gundam Skirmish: the game types, the game length, the weather, victory and the turn's upkeeps pinned at
their edges (L163-L308, L1283-L1288, L3306-L3362; lines are in 000_3e12d4cbd0c8f6da.txt).  Written
against the survivors of ``tests/mutation.py`` on ``game_types.py`` and ``turns.py`` (issue #27).
"""

from __future__ import annotations

from typing import Any

import pytest
from test_gundam_effects import edit, pilot, sample
from test_gundam_skirmish import SYSTEM, game, squad, state

from core.dice import NeedMoreDice, TypedDice
from core.game import Game, act, new_game
from core.systems.base import NeedChoice

SPACE_READY = [("l1", sample("lancer"))]  # no <S> unit: the Gun Tank stays home in space (L1372)


def with_mission(kind: str, limit: int = 0, **more: Any) -> Game:
    g = act(game(**more), "setup", {"mission": kind}, TypedDice([]))
    if limit:
        g = g.model_copy(update={"state": g.state.model_copy(update={"clocks": {"turn_limit": limit}})})
    return g


def status(g: Game) -> dict[str, str]:
    return {line.label: line.value for line in SYSTEM.status(g)}


# --- the game length and the weather --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "face", "limit", "what"),
    [
        ("skirmish", 1, 5, "rounds"),  # D6 + 4 rounds (L181)
        ("territory", 6, 10, "rounds"),  # D6 + 4 (L207)
        ("objective", 1, 3, "turns to hold the objective"),  # D6 + 2 turns (L197)
        ("objective", 6, 8, "turns to hold the objective"),
    ],
)
def test_game_length(kind: str, face: int, limit: int, what: str) -> None:
    after = act(with_mission(kind), "game_length", {}, TypedDice([face]))
    assert after.state.clocks["turn_limit"] == limit
    assert after.log[-1].text == f"Game length {face}: {limit} {what}"


@pytest.mark.parametrize("kind", ["deathmatch", "battle_royale"])
def test_a_last_player_standing_game_has_no_length(kind: str) -> None:
    with pytest.raises(ValueError, match="until one player is left"):
        act(with_mission(kind), "game_length", {}, TypedDice([3]))


@pytest.mark.parametrize(
    ("face", "weather"),
    [(1, "dense_minovsky"), (2, "dense_minovsky"), (3, "bad_weather"), (4, "bad_weather"), (5, "")],
)
def test_the_weather_roll_at_its_edges(face: int, weather: str) -> None:
    """L3306-L3333: 1-2 Dense Minovsky Particles, 3-4 Bad Weather, 5-6 normal."""
    assert act(game(), "environment", {}, TypedDice([face])).state.environment == weather


@pytest.mark.parametrize(
    ("face", "told"),
    [(2, "Debris Showers"), (3, "Atmospheric Danger"), (4, "Atmospheric Danger"), (5, "nothing special")],
)
def test_the_space_environment_is_told_not_applied(face: int, told: str) -> None:
    """L3337-L3362: in space the table's result is told; the Earth weather is left alone."""
    g = act(game(a=SPACE_READY), "setup", {"space": True}, TypedDice([]))
    after = act(g, "environment", {}, TypedDice([face]))
    assert after.log[-1].text == f"Space environment {face}: {told} (L3337-L3362, on the table)"
    assert after.state.environment == ""


def test_setup_names_the_game_and_teams_only_before_priority() -> None:
    """L163-L229, L113-L118."""
    g = act(game(a=SPACE_READY), "setup", {"mission": "battle_royale", "space": True}, TypedDice([]))
    assert g.log[-1].text == "Battle royale in space"
    assert status(g)["Game type"] == "Battle royale in space"
    with pytest.raises(ValueError, match="before the priority roll"):
        act(game(), "setup", {"teams": [1, 2]}, TypedDice([]))


# --- the Objective Zone (L192-L203; A33) and the quarters (L205-L218) ------------------------------


def test_the_zone_goes_to_the_most_points_and_a_tie_holds_nothing() -> None:
    g = with_mission("objective", 3)
    # Lancer 170 against Trooper 140: the Feds hold it
    one = act(g, "next_turn", {"zone": ["0/l1", "1/t1"]}, TypedDice([]))
    assert [s.resources["held"] for s in one.sides] == [1, 0]
    # Lancer 170 against Heavy Gunner 170: a tie, nobody holds it
    tie = act(g, "next_turn", {"zone": ["0/l1", "1/h1"]}, TypedDice([]))
    assert [s.resources["held"] for s in tie.sides] == [0, 0]
    # a destroyed unit counts nothing: the Trooper alone holds it
    dead = g.model_copy(deep=True)
    dead.sides[0].units[0].state.destroyed = True
    after = act(dead, "next_turn", {"zone": ["0/l1", "1/t1"]}, TypedDice([]))
    assert [s.resources["held"] for s in after.sides] == [0, 1]
    empty = act(g, "next_turn", {"zone": []}, TypedDice([]))
    assert "Objective: empty" in empty.log[-1].text
    with pytest.raises(NeedChoice):
        act(g, "next_turn", {}, TypedDice([]))


@pytest.mark.parametrize(("held", "ends"), [(1, False), (2, True)])
def test_the_objective_is_won_on_the_rolled_number_of_turns(held: int, ends: bool) -> None:
    """L192-L203: the first to hold it the rolled number of turns (here 3) wins."""
    g = with_mission("objective", 3).model_copy(deep=True)
    g.sides[0].resources["held"] = held
    after = act(g, "next_turn", {"zone": ["0/l1"]}, TypedDice([]))
    assert after.state.ended is ends
    assert after.state.winners == ([0] if ends else [])
    assert status(after)["Turns holding"] == f"Feds {held + 1}, Zeon 0 of 3"


@pytest.mark.parametrize(("consecutive", "left"), [(False, 2), (True, 0)])
def test_holding_turns_reset_only_with_the_consecutive_reading(consecutive: bool, left: int) -> None:
    """A33: turns held add up; with the reading ``objective_consecutive`` a turn not held resets them."""
    g = with_mission("objective", 5).model_copy(deep=True)
    g.options["objective_consecutive"] = consecutive
    g.sides[0].resources["held"] = 2
    after = act(g, "next_turn", {"zone": ["1/t1"]}, TypedDice([]))
    assert [s.resources["held"] for s in after.sides] == [left, 1]


def test_territory_counts_the_quarters_after_the_last_round() -> None:
    """L205-L218: each quarter to the most points in it; the most quarters wins, a tie shares the win."""
    g = with_mission("territory", 1)
    g = act(g, "next_turn", {}, TypedDice([]))  # the Feds end their turn: Zeon's turn of round 1
    assert status(g)["Quarters held"] == "counted when round 1 ends"
    quarters = {
        "quarter_1": ["0/l1", "1/t1"],  # Feds 170 - Zeon 140
        "quarter_2": ["1/h1"],  # Zeon
        "quarter_3": ["0/g1", "1/t1"],  # Feds 90 - Zeon 140: Zeon
        "quarter_4": [],
    }
    after = act(g, "next_turn", quarters, TypedDice([]))
    assert (after.state.ended, after.state.winners) == (True, [1])
    assert [s.resources["quarters"] for s in after.sides] == [1, 2]
    assert after.log[-1].text.endswith(
        "Territory: quarter 1: Feds, quarter 2: Zeon, quarter 3: Zeon, quarter 4: nobody; "
        "game over: Zeon wins (L214-L218)"
    )
    assert status(after)["Round"] == "1 of 1"
    shared = act(g, "next_turn", {**quarters, "quarter_3": []}, TypedDice([]))  # one quarter each
    assert shared.state.winners == [0, 1] and "Feds and Zeon win" in shared.log[-1].text


@pytest.mark.parametrize(("limit", "ended"), [(2, False), (1, True)])
def test_skirmish_ends_after_the_last_round_with_the_most_points_destroyed(limit: int, ended: bool) -> None:
    """L181-L190: after the rolled number of rounds, the most enemy points destroyed wins; checked as a
    turn ends (L304-L306)."""
    g = with_mission("skirmish", limit).model_copy(deep=True)
    g.sides[0].resources["destroyed"] = 140
    g.sides[1].resources["destroyed"] = 90
    g = act(g, "next_turn", {}, TypedDice([]))
    after = act(g, "next_turn", {}, TypedDice([]))  # round 1 ends
    assert after.state.ended is ended
    if ended:
        assert after.state.winners == [0]
        tie = g.model_copy(deep=True)
        tie.sides[1].resources["destroyed"] = 140
        assert act(tie, "next_turn", {}, TypedDice([])).state.winners == [0, 1]


# --- the turn: Command Points, timed effects, the order of play (L278-L308) --------------------------


@pytest.mark.parametrize(
    ("change", "gain"),
    [
        ({}, 1),
        ({"pilot": pilot("leader")}, 2),  # Leader: 2 (L1283-L1288 with the trait)
    ],
)
def test_command_points_a_turn(change: dict[str, Any], gain: int) -> None:
    """L1283-L1288: 1 Command Point per Command unit in play at the start of the turn."""
    g = game(a=[("c1", sample("captain", **change)), ("l1", sample("lancer"))])
    assert g.sides[0].resources["cp"] == gain
    assert f"+{gain} Command Point{'s' if gain != 1 else ''}" in g.log[-1].text


@pytest.mark.parametrize("why", ["routed", "reserve", "withdrawn", "destroyed"])
def test_a_command_unit_out_of_play_or_routed_gives_nothing(why: str) -> None:
    g = game(a=[("c1", sample("captain")), ("l1", sample("lancer"))])
    g = g.model_copy(deep=True)
    if why == "destroyed":
        g.sides[0].units[0].state.destroyed = True
    else:
        g.sides[0].units[0].state.conditions.append(why)
    g = act(act(g, "next_turn", {}, TypedDice([])), "next_turn", {}, TypedDice([]))
    assert g.sides[0].resources["cp"] == 1  # the first turn's point only


def test_the_end_of_a_turn_clears_its_timed_effects_and_counts_turns() -> None:
    """A46: effects "in its next turn" end with that turn; the side's Concentrate Fire ends (L1428-L1440);
    Get to cover! lasts until the side's own next turn begins (L1478-L1483)."""
    g = edit(game(), "0/l1", conditions=["no_actions", "acc5", "bring_them_down", "no_carried", "routed"])
    g = edit(g, "0/l1", counters={"actions": 2}, extra={"rout_rolled": True}).model_copy(deep=True)
    g.sides[0].resources["concentrate_fire"] = 1
    g.sides[0].resources["get_to_cover"] = 1
    g.sides[0].units[0].state.activated = True
    after = act(g, "next_turn", {}, TypedDice([]))
    t = state(after, "0/l1")
    assert t.conditions == ["routed"] and t.counters["actions"] == 0 and not t.activated
    assert not t.extra["rout_rolled"]
    assert after.sides[0].resources["concentrate_fire"] == 0
    assert after.sides[0].resources["get_to_cover"] == 1  # through Zeon's turn
    back = act(after, "next_turn", {}, TypedDice([]))
    assert back.sides[0].resources["get_to_cover"] == 0 and back.sides[0].resources["turns"] == 2
    assert back.round == 2 and "round 2" in back.log[-1].text


def test_priority_ties_roll_again_among_the_tied() -> None:
    """L278-L281: the tied players roll again; the highest picks its place."""
    three = new_game(
        "g",
        "Test",
        [
            ("A", squad("a", "A", ("l1", sample("lancer")))),
            ("B", squad("b", "B", ("t1", sample("trooper")))),
            ("C", squad("c", "C", ("t2", sample("trooper")))),
        ],
    )
    # A 4, B 4, C 2: A and B roll again, 5 and 3: A first pick, then B, C last
    after = act(three, "priority", {"places": [2, 1]}, TypedDice([4, 4, 2, 5, 3]))
    assert [s.resources["order"] for s in after.sides] == [2, 1, 3]
    assert after.state.active_side == 1
    with pytest.raises(NeedChoice) as asked:
        act(three, "priority", {"places": [2]}, TypedDice([4, 4, 2, 5, 3]))
    assert "B rolled next highest" in asked.value.prompt
    assert [c.label for c in asked.value.options] == ["First turn", "Third turn"]
    with pytest.raises(ValueError, match="turn 2 is not free"):
        act(three, "priority", {"places": [2, 2]}, TypedDice([4, 4, 2, 5, 3]))
    with pytest.raises(ValueError, match="once"):
        act(after, "priority", {"places": [1, 2]}, TypedDice([1, 2, 3]))


def test_the_phase_shown_follows_the_turn() -> None:
    """L276-L308: Initial Upkeep until a unit acts, Actions, Final Upkeep once every unit has acted."""
    g = game(a=[("l1", sample("lancer"))], b=[("t1", sample("trooper"))])
    assert SYSTEM.phase(g).current == 1
    one = act(g, "idle", {"unit": "0/l1"}, TypedDice([]))
    assert SYSTEM.phase(one).current == 2
    done = act(one, "idle", {"unit": "0/l1"}, TypedDice([]))
    assert state(done, "0/l1").activated and SYSTEM.phase(done).current == 3


def test_setup_keeps_s_units_home_and_sets_the_weather() -> None:
    """L1372: no <S> unit in space (named); the weather as chosen (L3306-L3333)."""
    with pytest.raises(ValueError, match=r"^<S> units cannot fight in space \(L1372\): Gun Tank$"):
        act(game(), "setup", {"space": True}, TypedDice([]))
    bad = act(game(), "setup", {"environment": "bad_weather", "mission": "skirmish"}, TypedDice([]))
    assert (bad.state.environment, bad.state.mission, bad.state.extra["space"]) == (
        "bad_weather",
        "skirmish",
        False,
    )
    assert act(bad, "setup", {"environment": "normal"}, TypedDice([])).state.environment == ""


def test_the_game_length_and_weather_ask_for_one_d6() -> None:
    with pytest.raises(NeedMoreDice, match=r"^roll 1 more d6 for game length$"):
        act(with_mission("skirmish"), "game_length", {}, TypedDice([]))
    with pytest.raises(NeedMoreDice, match=r"^roll 1 more d6 for environment$"):
        act(game(), "environment", {}, TypedDice([]))
    g = act(game(a=SPACE_READY), "setup", {"space": True}, TypedDice([]))
    assert "Debris Showers" in act(g, "environment", {}, TypedDice([1])).log[-1].text


def test_the_zone_log_shows_each_sides_points_and_the_win() -> None:
    """L192-L203: what the player reads as the turn ends."""
    g = with_mission("objective", 2).model_copy(deep=True)
    g.sides[0].resources["held"] = 1
    after = act(g, "next_turn", {"zone": ["0/l1", "1/t1"]}, TypedDice([]))
    assert after.log[-1].text == (
        "Feds ends the turn; Objective: Feds 170 pts, Zeon 140 pts; Feds holds it (2): Feds wins (L192-L203)"
    )


def test_territory_with_every_quarter_empty_has_no_winner() -> None:
    g = act(with_mission("territory", 1), "next_turn", {}, TypedDice([]))
    empty = {f"quarter_{n}": [] for n in range(1, 5)}
    after = act(g, "next_turn", empty, TypedDice([]))
    assert (after.state.ended, after.state.winners) == (True, [])
    assert after.log[-1].text.endswith("quarter 4: nobody; game over: nobody wins (L214-L218)")


@pytest.mark.parametrize("gone", ["destroyed", "withdrawn"])
def test_deathmatch_ends_when_one_side_has_units_left(gone: str) -> None:
    """L171-L177: the last player with units on the table wins (a withdrawn unit has left it)."""
    g = game().model_copy(deep=True)
    for unit in g.sides[1].units:
        if gone == "destroyed":
            unit.state.destroyed = True
        else:
            unit.state.conditions.append("withdrawn")
    after = act(g, "next_turn", {}, TypedDice([]))
    assert (after.state.ended, after.state.winners) == (True, [0])
    assert after.log[-1].text.endswith("game over: Feds wins (L171-L190)")
    assert status(after)["Players with units"] == "1"
    both = g.model_copy(deep=True)
    for unit in both.sides[0].units:
        unit.state.destroyed = True
    wiped = act(both, "next_turn", {}, TypedDice([]))
    assert wiped.state.winners == [] and "game over: nobody" in wiped.log[-1].text
    # a skirmish is not over when a side is wiped out: it runs its rounds (L181-L190)
    assert not act(
        with_mission("skirmish", 3).model_copy(update={"sides": g.sides}), "next_turn", {}, TypedDice([])
    ).state.ended


def test_skirmish_win_is_told() -> None:
    g = with_mission("skirmish", 1).model_copy(deep=True)
    g.sides[0].resources["destroyed"] = 140
    g.sides[1].resources["destroyed"] = 90
    g = act(g, "next_turn", {}, TypedDice([]))
    after = act(g, "next_turn", {}, TypedDice([]))
    assert after.log[-1].text.endswith("game over: Feds wins (L171-L190)")
    assert status(after) == {
        "Game type": "Skirmish",
        "Round": "1 of 1",
        "Enemy points destroyed": "Feds 140, Zeon 90",
    }


def _three() -> Game:
    return new_game(
        "g",
        "Test",
        [
            ("A", squad("a", "A", ("l1", sample("lancer")))),
            ("B", squad("b", "B", ("t1", sample("trooper")))),
            ("C", squad("c", "C", ("t2", sample("trooper")))),
        ],
    )


def test_the_priority_roll_is_told_and_asks_the_winner_first() -> None:
    """L278-L282: every roll shown, the order, the first turn begun; the winner picks first."""
    three = _three()
    assert status(three)["Turn"] == "not started: roll for priority"
    assert SYSTEM.phase(three).current == 0
    first = SYSTEM.phase(three).steps[0]
    assert (first.gate, first.sheet, SYSTEM.phase(three).round_button) == (True, True, False)
    with pytest.raises(NeedMoreDice, match=r"^roll 3 more d6 for priority$"):
        act(three, "priority", {}, TypedDice([]))
    with pytest.raises(NeedChoice) as asked:
        act(three, "priority", {}, TypedDice([4, 4, 2, 5, 3]))
    assert asked.value.prompt == "A won the priority roll: which turn does A take? (L280-L281)"
    assert [c.label for c in asked.value.options] == ["First turn", "Second turn", "Third turn"]
    after = act(three, "priority", {"places": [2, 1]}, TypedDice([4, 4, 2, 5, 3]))
    assert after.log[-1].text == (
        "Priority: A 4, B 4, C 2; A 5, B 3. Order: B, A, C; B's turn: +0 Command Points (L1283-L1288)"
    )
    assert "Turn" not in status(after)
    # play goes round in that order: B, A, C, then B again in round 2
    g = after
    for side in (0, 2, 1):
        g = act(g, "next_turn", {}, TypedDice([]))
        assert g.state.active_side == side
    assert g.round == 2 and [s.resources["turns"] for s in g.sides] == [1, 2, 1]


def test_no_turn_ends_before_the_first_or_after_the_last() -> None:
    with pytest.raises(ValueError, match="roll for priority first"):
        act(_three(), "next_turn", {}, TypedDice([]))
    over = game().model_copy(deep=True)
    over.state.ended = True
    with pytest.raises(ValueError, match="the game is over"):
        act(over, "next_turn", {}, TypedDice([]))
    assert SYSTEM.phase(over).current == 3


def test_status_lines_before_the_length_is_rolled() -> None:
    """L192-L218: the score lines of Objective and Territory before the game length is known."""
    assert status(with_mission("objective"))["Turns holding"] == "Feds 0, Zeon 0"
    assert (
        status(with_mission("territory"))["Quarters held"]
        == "counted after the last round: roll the game length"
    )
    assert status(with_mission("skirmish"))["Round"] == "1"


def test_territory_asks_each_quarter_and_shows_the_quarters_held() -> None:
    """L205-L218: after the last round the players say which units stand in each quarter; the card then
    shows the quarters each side holds."""
    g = act(with_mission("territory", 1), "next_turn", {}, TypedDice([]))
    with pytest.raises(NeedChoice) as asked:
        act(g, "next_turn", {}, TypedDice([]))
    assert asked.value.field == "quarter_1"
    assert asked.value.prompt == "All rounds are played: which units stand in quarter 1 of 4?"
    quarters = {"quarter_1": ["0/l1"], "quarter_2": ["1/h1"], "quarter_3": ["1/t1"], "quarter_4": []}
    after = act(g, "next_turn", quarters, TypedDice([]))
    assert status(after)["Quarters held"] == "Feds 1, Zeon 2"


def test_a_finished_deathmatch_shows_its_round() -> None:
    g = game().model_copy(deep=True)
    for unit in g.sides[1].units:
        unit.state.destroyed = True
    after = act(g, "next_turn", {}, TypedDice([]))
    assert status(after)["Round"] == "1"
