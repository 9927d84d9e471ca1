"""GUNFRAME's game-wide values in ``Game.state`` (game schema 3), and games saved before the move.

The saves and links of tests/golden/v0.1.0-store2-gf were made by the build that kept these values
among the options (schema 2): they open with the values in the state, the options keeping only the
readings, and they play on, undo and redo included.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from gunframe_table import mech, run, start

from core import api, share, storage
from core.dice import TypedDice
from core.game import Game, act, next_round, redo, undo
from core.systems.gunframe.options import GunframeOptions
from core.systems.gunframe.wide import GunframeState

FOLDER = Path(__file__).parent / "golden" / "v0.1.0-store2-gf"
READINGS = set(GunframeOptions.model_fields)


def saved() -> dict[str, Game]:
    data = json.loads((FOLDER / "store-gunframe-options.json").read_text())
    loaded = storage.load(data["saved"])
    assert loaded.set_aside == [] and not loaded.readonly
    return {g.id: g for g in loaded.store.games}


def linked(name: str) -> Game:
    token = json.loads((FOLDER / f"token-game-{name}.json").read_text())["token"]
    game = share.decode(token).game
    assert game is not None
    return game


def status(g: Game) -> list[tuple[str, str]]:
    lines = api.call("game.views", {"game": g.model_dump(mode="json")})["result"]["status"]
    return [(line["label"], line["value"]) for line in lines]


def test_a_new_game_keeps_its_game_wide_values_in_the_state_and_only_readings_in_the_options() -> None:
    g = start([mech("A")])
    assert set(g.options) == READINGS
    assert g.state.extra == GunframeState().model_dump(mode="json")
    assert g.state.mission == "" and g.state.clocks == {} and not g.state.ended
    g = run(g, "mission", [], mission="doomsday", attacker_side=1)
    g = run(g, "environment", [], environment="darkness", darkness_variant="nightfall")
    assert (g.state.mission, g.state.environment) == ("doomsday", "darkness")
    assert g.state.extra["attacker_side"] == 1 and g.state.extra["darkness_variant"] == "nightfall"
    assert set(g.options) == READINGS
    back = undo(undo(g))
    assert back.state == start([mech("A")]).state


def test_the_end_of_a_game_names_its_winner_in_the_shared_state() -> None:
    """Five turns without a mission (L1600), most VP wins (L1637): the shared winners follow."""
    g = start([mech("A"), mech("B")], [mech("X")]).model_copy(update={"round": 5})
    out = act(g, "end_phase", {}, TypedDice([]))
    assert out.state.ended and out.state.winners == [0]
    assert out.state.extra["result"] == "Red wins: turn 5 was the last (L1600)"
    assert ("Game over", "Red wins: turn 5 was the last (L1600)") in status(out)
    assert ("Game over", "won by Red") not in status(out)  # the system's own line says it, once
    assert undo(out).state == g.state


def test_a_saved_doomsday_storm_of_schema_2_opens_with_its_values_in_the_state() -> None:
    doom = saved()["gf-doom"]
    assert doom.schema_version == 3 and set(doom.options) == READINGS
    assert (doom.state.mission, doom.state.environment) == ("doomsday", "storm")
    assert doom.state.clocks == {"doomsday_clock": 2}
    extra = doom.state.extra
    assert (extra["storm_type"], extra["eye_of_the_storm"], extra["storm_calm"]) == ("lightning", True, True)
    assert extra["suppression"] == [{"inches": 1, "near": "Cy", "round": 1}]
    assert (extra["attacker_side"], extra["initiative_side"]) == (0, 0)
    assert status(doom)[:4] == [
        ("Mission", "Doomsday"),
        ("Attacker", "Red"),
        ("Initiative", "Red"),
        ("Environment", "Storm (lightning)"),
    ]
    assert ("Doomsday clock", "2") in status(doom)


def test_a_saved_game_of_schema_2_plays_on() -> None:
    """The End phase lifts the suppression (L1318); the next Initiative ticks the clock by a D3 (L1863)
    and matching dice break the calm again (L2027); switching the device off wins (L1876)."""
    doom = saved()["gf-doom"]
    ended_turn = act(doom, "end_phase", {}, TypedDice([]))
    assert ended_turn.state.extra["suppression"] == [] and not ended_turn.state.ended
    turn_2 = act(next_round(ended_turn), "initiative", {}, TypedDice([5, 4, 4, 6, 2]))  # level: rolled again
    assert turn_2.state.clocks == {"doomsday_clock": 5}
    assert turn_2.state.extra["storm_calm"] is False  # matching dice: the storm breaks again
    assert turn_2.state.extra["initiative_side"] == 0
    off = act(turn_2, "deactivate", {"unit": "0/a"}, TypedDice([6]))
    assert off.state.ended and off.state.winners == [0]
    assert off.state.extra["result"] == "Red wins: the device is switched off (L1876)"
    assert set(off.options) == READINGS
    assert undo(undo(undo(undo(off)))).state == doom.state


def test_a_saved_game_undoes_steps_made_before_the_move_exactly() -> None:
    games = saved()
    for g in games.values():
        first = g
        while first.cursor > 1:
            first = undo(first)
        assert first.state.extra == GunframeState().model_dump(mode="json"), g.id
        assert (first.state.mission, first.state.environment, first.state.clocks) == ("", "", {})
        assert not first.state.ended and first.state.winners == []
        assert set(first.options) == READINGS
        again = first
        while again.cursor < len(again.log):
            again = redo(again)
        assert again == g, g.id
    dawn = games["gf-dawn"]
    assert dawn.log[-1].text == "the sun is up"
    assert (dawn.state.extra["dark_over"], undo(dawn).state.extra["dark_over"]) == (True, False)
    assert undo(dawn).options == dawn.options and dawn.options["crippled_rules"] is True
    (breach,) = [games["gf-breach"]]
    assert (breach.state.ended, breach.state.winners) == (True, [0])
    assert (undo(breach).state.ended, undo(breach).state.winners, undo(breach).state.extra["result"]) == (
        False,
        [],
        "",
    )


def test_a_saved_game_that_ended_stays_over() -> None:
    breach = saved()["gf-breach"]
    assert (breach.state.mission, breach.state.environment) == ("carnage", "space_structure")
    extra = breach.state.extra
    assert (extra["hull_breaches"], extra["last_turn"], extra["flying_allowed"]) == (2, 2, False)
    assert ("Game over", "Red wins: the space structure gives way (L2085)") in status(breach)
    with pytest.raises(ValueError, match="over"):
        act(breach, "end_phase", {}, TypedDice([]))


def test_a_saved_investigation_keeps_its_prize_found() -> None:
    dawn = saved()["gf-dawn"]
    assert dawn.state.extra["variant"] is True
    assert (dawn.state.extra["interest_left"], dawn.state.extra["prize_found"]) == (5, True)
    assert (dawn.state.extra["darkness_variant"], dawn.state.extra["dark_over"]) == ("sunrise", True)
    assert ("Environment", "Darkness, now over") in status(dawn)
    with pytest.raises(ValueError, match="no point of interest"):
        act(dawn, "investigate", {"unit": "0/b"}, TypedDice([3]))


@pytest.mark.parametrize("name", ["gf-doom", "gf-breach"])
def test_a_link_of_schema_2_opens_as_the_save_does(name: str) -> None:
    game = linked(name)
    kept = saved()[name]
    same: dict[str, Any] = {"state", "options", "round", "cursor"}
    assert game.model_dump(include=same) == kept.model_dump(include=same)
    assert game.sides == kept.sides
