"""Undo restores the exact old document, a key a change added included (issue 19).

A change that adds a key (a reading an old game lacks, a resource a player adds by hand) records the
key as absent, not as null: undoing it removes the key, so the game is the very game it was, byte
for byte, and stays playable.  Through ``core.api`` as the page calls it, and as a property over
every registered system with changes that add and remove keys.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toy_system import INFO as TOY_INFO

import core.systems
from core import api
from core.game import Game, adjust, new_game, redo, undo
from core.squad import Squad, SquadUnit
from core.systems import SYSTEMS, implementation
from core.systems.base import Change

IDS = [s.id for s in SYSTEMS if s.status == "playable"] + [TOY_INFO.id]


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(core.systems, "SYSTEMS", (*core.systems.SYSTEMS, TOY_INFO))
    monkeypatch.setitem(core.systems.IMPLEMENTATIONS, TOY_INFO.id, "toy_system")
    yield


def call(op: str, **args: Any) -> Any:
    reply = json.loads(api.handle(json.dumps({"op": op, "args": args})))
    assert reply["ok"], reply
    return reply["result"]


def fresh(system_id: str) -> Game:
    units = implementation(system_id).catalogue()[:2]
    sides = []
    for i in range(2):
        entries = [SquadUnit(key=f"u{j + 1}", profile=u.profile) for j, u in enumerate(units)]
        sides.append((f"Side {i}", Squad(id=f"s{i}", name=f"S{i}", system=system_id, units=entries)))
    return new_game("g", "Exact", sides)


def text(game: Any) -> str:
    """The document as saved, key order included, without its log (which undo keeps)."""
    data = game.model_dump(mode="json") if isinstance(game, Game) else dict(game)
    data.pop("log", None)
    data.pop("cursor", None)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("system_id", "reading", "value"), [("ms_battles", "turn_limit", 3), ("gunframe", "crippled_rules", True)]
)
def test_a_reading_an_old_game_lacks_ticked_then_undone_is_removed_and_the_game_plays(
    system_id: str, reading: str, value: Any
) -> None:
    """The readings form sends every reading a game lacks; games saved by the first release lack some.
    Undo used to write null there ("Input should be a valid integer/boolean" until Redo)."""
    game = fresh(system_id).model_dump(mode="json")
    del game["options"][reading]  # as the first release saved it
    ticked = call("game.adjust", game=game, changes=[{"path": ["options", reading], "value": value}])
    assert ticked["options"][reading] == value
    back = call("game.undo", game=ticked)
    assert reading not in back["options"]
    assert text(back) == text(game)
    # and the game still plays: every view is drawn, the next round is taken
    call("game.views", game=back)
    call("game.redo", game=back)


def test_an_adjust_that_adds_a_resource_is_undone_exactly() -> None:
    game = fresh("gunframe").model_dump(mode="json")
    added = call("game.adjust", game=game, changes=[{"path": ["sides", 0, "resources", "bonus"], "value": 2}])
    assert added["sides"][0]["resources"]["bonus"] == 2
    back = call("game.undo", game=added)
    assert "bonus" not in back["sides"][0]["resources"]
    assert text(back) == text(game)
    again = call("game.redo", game=back)
    assert text(again) == text(added)


def test_an_event_logged_before_absence_was_recorded_is_undone_without_a_null() -> None:
    """Saved games hold events with null as the old value of a reading they added: undo removes it."""
    game = fresh("ms_battles").model_dump(mode="json")
    del game["options"]["melee_reach"]
    added = call("game.adjust", game=game, changes=[{"path": ["options", "melee_reach"], "value": 2}])
    event = added["log"][-1]
    assert event["absent"] == [0]
    del event["absent"]  # as the build before this one logged it
    assert event["before"] == [None]
    back = call("game.undo", game=added)
    assert "melee_reach" not in back["options"]


def test_a_change_of_a_key_that_was_there_records_no_absence() -> None:
    game = fresh("gunframe")
    after = adjust(
        game, [Change(path=["sides", 0, "resources", next(iter(game.sides[0].resources))], value=5)]
    )
    assert "absent" not in after.log[-1].model_dump(mode="json")  # old saves and links stay as they were


PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
KEY = st.sampled_from(["a", "b", "house", "extra_fp"])


def key_change(data: st.DataObject, game: Game) -> Change:
    """A change that adds a key, removes one (the dict set whole without it) or sets one."""
    s = data.draw(st.integers(0, len(game.sides) - 1))
    u = data.draw(st.integers(0, len(game.sides[s].units) - 1))
    where = data.draw(st.sampled_from(["options", "resources", "clocks", "counters"]))
    path: list[str | int]
    current: dict[str, Any]
    if where == "options":
        path, current = ["options"], dict(game.options)
    elif where == "resources":
        path, current = ["sides", s, "resources"], dict(game.sides[s].resources)
    elif where == "clocks":
        path, current = ["state", "clocks"], dict(game.state.clocks)
    else:
        path, current = (
            ["sides", s, "units", u, "state", "counters"],
            dict(game.sides[s].units[u].state.counters),
        )
    how = data.draw(st.sampled_from(["add", "remove", "set"]))
    if how == "remove" and current:
        key = data.draw(st.sampled_from(sorted(current)))
        whole = {k: v for k, v in current.items() if k != key}
        return Change(path=path, value=whole)
    key = data.draw(KEY)
    value: Any = data.draw(st.integers(0, 9))
    if where == "options" and key in current and isinstance(current[key], bool):
        value = not current[key]
    return Change(path=[*path, key], value=value)


@pytest.mark.parametrize("system_id", IDS)
@PROPERTY
@given(data=st.data())
def test_changes_that_add_and_remove_keys_undo_and_redo_exactly(system_id: str, data: st.DataObject) -> None:
    game = fresh(system_id)
    seen = [game]
    for _ in range(data.draw(st.integers(1, 6))):
        changes = [key_change(data, game) for _ in range(data.draw(st.integers(1, 3)))]
        if data.draw(st.booleans()):
            changes.append(changes[0].model_copy())  # the same key twice in one step
        try:
            game = adjust(game, changes)
        except ValueError:
            continue  # a value the system refuses (e.g. a reading out of range): nothing changes
        seen.append(game)
    end = game
    for expected in reversed(seen[:-1]):
        game = undo(game)
        assert text(game) == text(expected)
    for expected in seen[1:]:
        game = redo(game)
        assert text(game) == text(expected)
    assert game == end
    # and the log survives a save: read back, the same steps undo the same way
    reread = Game.model_validate_json(end.model_dump_json())
    assert reread == end


def test_a_game_link_with_cursor_0_over_a_full_log_is_refused() -> None:
    """Its sides hold the game after its last step: Redo re-applied step 1 to a game that had it."""
    game = fresh("gunframe")
    key = next(iter(game.sides[0].resources))
    played = adjust(
        game, [Change(path=["sides", 0, "resources", key], value=game.sides[0].resources[key] + 2)]
    )
    edited = {**played.model_dump(mode="json"), "cursor": 0}
    reply = json.loads(api.handle(json.dumps({"op": "share.decode", "args": {"token": share_game(edited)}})))
    assert not reply["ok"] and reply["error"]["message"] == "This link is damaged: its game cannot be read."
    reply = json.loads(api.handle(json.dumps({"op": "game.redo", "args": {"game": edited}})))
    assert not reply["ok"] and "start" in reply["error"]["message"]


def test_redo_refuses_a_step_whose_old_values_the_game_does_not_hold() -> None:
    """Redo from cursor c applies step c+1 exactly once: a game whose values are not those step c+1
    changed from (a link edited to an earlier cursor) is refused, never changed twice."""
    game = fresh("gunframe")
    key = next(iter(game.sides[0].resources))
    was = game.sides[0].resources[key]
    once = adjust(game, [Change(path=["sides", 0, "resources", key], value=was + 2)])
    twice = adjust(once, [Change(path=["sides", 0, "resources", key], value=was + 5)])
    back = undo(twice)
    assert redo(back) == twice  # the normal case: exactly once
    edited = twice.model_copy(update={"cursor": 1})  # the state after step 2, the cursor before it
    with pytest.raises(ValueError, match="cannot be redone"):
        redo(edited)


def share_game(game: dict[str, Any]) -> str:
    from core import share

    return share._wrap({"k": "game", "s": game["system"], "d": game})
