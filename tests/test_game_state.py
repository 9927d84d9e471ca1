"""The typed game-wide state (core.game.GameState): apart from the readings, undoable, migrated."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from toy_system import INFO

import core.systems
from core import api, share, storage
from core.dice import TypedDice
from core.game import GAME_SCHEMA, Game, GameState, act, adjust, new_game, undo, upgrade
from core.squad import Squad, SquadUnit
from core.systems.base import Change


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(core.systems, "SYSTEMS", (*core.systems.SYSTEMS, INFO))
    monkeypatch.setitem(core.systems.IMPLEMENTATIONS, "toy", "toy_system")
    yield


def start() -> Game:
    units = [SquadUnit(key="u1", profile={"name": "Grunt", "hp": 3, "dice": 2})]
    sq = Squad(id="s", name="S", system="toy", units=units)
    return new_game("g", "Duel", [("Red", sq), ("Blue", sq)])


def test_a_new_game_starts_with_the_state_at_its_defaults_and_the_system_values() -> None:
    g = start()
    assert g.state == GameState(extra={"volleys": 0})
    assert g.options == {}  # the toy has no readings: nothing of the state leaks into them
    assert g.schema_version == GAME_SCHEMA == 3


def test_the_system_keeps_its_own_game_values_in_the_state_and_undo_takes_them_back() -> None:
    g = act(start(), "shoot", {"attacker": "0/u1", "target": "1/u1"}, TypedDice([6, 1]))
    assert g.state.extra == {"volleys": 1}
    assert undo(g).state.extra == {"volleys": 0}


def test_the_end_and_winner_are_adjusted_by_hand_shown_and_undone() -> None:
    g = start()
    g = adjust(g, [Change(path=["state", "ended"], value=True), Change(path=["state", "winners"], value=[1])])
    views = api.call("game.views", {"game": g.model_dump(mode="json")})["result"]
    assert views["status"] == [{"label": "Game over", "value": "won by Blue", "note": ""}]
    g = adjust(
        g, [Change(path=["state", "active_side"], value=0), Change(path=["state", "ended"], value=False)]
    )
    g = adjust(
        g,
        [
            Change(path=["state", "clocks"], value={"doomsday": 3}),
            Change(path=["state", "mission"], value="raid"),
        ],
    )
    views = api.call("game.views", {"game": g.model_dump(mode="json")})["result"]
    assert [(line["label"], line["value"]) for line in views["status"]] == [
        ("Mission", "Raid"),  # in words, not the stored id
        ("Doomsday", "3"),
        ("Turn of", "Red"),
    ]
    assert undo(undo(undo(g))).state == GameState(extra={"volleys": 0})
    with pytest.raises(ValueError, match="only sides, round, options and state"):
        adjust(g, [Change(path=["log"], value=[])])


def _schema_1(g: Game, **options: Any) -> dict[str, Any]:
    """A game as build 0.1.0 saved it: no state, schema 1."""
    data = g.model_dump(mode="json")
    del data["state"]
    return {**data, "schema_version": 1, "options": {**data["options"], **options}}


def test_a_schema_1_game_is_upgraded_with_its_system_moving_its_values() -> None:
    old = _schema_1(start(), volleys=4, strict=True)
    new = upgrade(old)
    assert new["schema_version"] == 3  # 1 -> 2 moved the volleys; 2 -> 3 has nothing to move for the toy
    assert new["state"] == {**GameState().model_dump(mode="json"), "extra": {"volleys": 4}}
    assert new["options"] == {"strict": True}
    assert old["options"] == {"volleys": 4, "strict": True}  # the saved data itself is not touched
    assert upgrade(new) == new


def test_todays_saves_load_through_the_migration_step() -> None:
    old = _schema_1(start(), volleys=2)
    loaded = storage.load({"schema_version": 1, "squads": [], "units": [], "games": [old]})
    assert loaded.set_aside == []
    assert loaded.notes == ["Saved data was updated to format 2.", "Saved data was updated to format 3."]
    (g,) = loaded.store.games
    assert g.state.extra == {"volleys": 2} and g.options == {}
    assert g.sides == start().sides and g.log == start().log
    # a game of a system this build does not know gets the shared step only: its values stay put
    unknown = {**old, "system": "nope"}
    (kept,) = storage.load({"schema_version": 1, "games": [unknown]}).store.games
    assert kept.options == {"volleys": 2} and kept.state == GameState()


def test_a_game_shared_by_an_older_build_opens_upgraded() -> None:
    old = _schema_1(start(), volleys=5)
    token = share._wrap({"k": "game", "s": "toy", "d": old})
    game = share.decode(token).game
    assert game is not None and game.state.extra == {"volleys": 5} and game.schema_version == 3
