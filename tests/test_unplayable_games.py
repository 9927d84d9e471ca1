"""Games this app cannot play are refused in plain words, never saved as if playable (issue 19).

A game link naming a system this build does not play ("nope", "__init__", one still planned) used to
open and be saved, and then showed a blank screen; a link or a save of a newer game format opened
without a word (schema 99) or was called damaged (schema 4 with a new field).  Through ``core.api``,
as the page calls it.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

import core.systems
from core import api, share
from core.game import GAME_SCHEMA, new_game
from core.squad import Squad, SquadUnit
from core.storage import STORE_SCHEMA
from core.systems import implementation


def call(op: str, **args: Any) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(api.handle(json.dumps({"op": op, "args": args})))
    return reply


def a_game() -> dict[str, Any]:
    unit = implementation("gunframe").catalogue()[0]
    sides = [
        (n, Squad(id=n, name=n, system="gunframe", units=[SquadUnit(key="u1", profile=unit.profile)]))
        for n in "AB"
    ]
    return new_game("g1", "Shared", sides).model_dump(mode="json")


@pytest.fixture(autouse=True)
def _listed_but_not_built(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every listed system is built now: MechaStellar and Skirmishers stand for a system that is
    listed but not built in this build (as they were in the build before this one)."""
    monkeypatch.delitem(core.systems.IMPLEMENTATIONS, "mechastellar")
    monkeypatch.delitem(core.systems.IMPLEMENTATIONS, "skirmishers")


def link(game: dict[str, Any], system: str | None = None) -> str:
    return share._wrap({"k": "game", "s": system or game["system"], "d": game})


@pytest.mark.parametrize("system", ["nope", "__init__", "mechastellar", "skirmishers", ""])
def test_a_game_link_of_a_system_this_app_cannot_play_is_refused_in_plain_words(system: str) -> None:
    game = {**a_game(), "system": system}
    reply = call("share.decode", token=link(game, system))
    assert not reply["ok"]
    message = reply["error"]["message"]
    assert message.startswith("This game cannot be opened.")
    assert "damaged" not in message and "nope" not in message and "__" not in message  # no ids


@pytest.mark.parametrize(
    "change",
    [{"schema_version": 99}, {"schema_version": GAME_SCHEMA + 1, "new_field": 1}],
    ids=["schema-99", "next-schema-with-a-new-field"],
)
def test_a_game_link_from_a_newer_app_says_it_needs_a_newer_version(change: dict[str, Any]) -> None:
    reply = call("share.decode", token=link({**a_game(), **change}))
    assert not reply["ok"]
    assert (
        reply["error"]["message"]
        == "This game was made by a newer version of the app: update the app to open it."
    )


def test_no_game_operation_runs_on_a_game_of_a_newer_format() -> None:
    reply = call("game.views", game={**a_game(), "schema_version": 99})
    assert not reply["ok"] and "newer version of the app" in reply["error"]["message"]


def test_a_saved_game_of_a_system_this_app_cannot_play_is_set_aside_with_the_reason() -> None:
    records = [
        {"kind": "games", "id": "g1", "format": STORE_SCHEMA, "data": {**a_game(), "system": "nope"}},
        {"kind": "games", "id": "g1", "format": STORE_SCHEMA, "data": {**a_game(), "system": "mechastellar"}},
        {"kind": "games", "id": "g1", "format": STORE_SCHEMA, "data": a_game()},
    ]
    out = call("store.check", records=records)["result"]
    assert [r["data"]["system"] for r in out["kept"]] == ["gunframe"]
    reasons = [a["reason"] for a in out["set_aside"]]
    assert reasons == [
        "this game cannot be played here. It is for a rule system this version of the app does not know.",
        "this game cannot be played here. MechaStellar cannot be played in this version of the app yet.",
    ]
    assert [a["raw"]["system"] for a in out["set_aside"]] == ["nope", "mechastellar"]  # kept as it was


def test_a_saved_game_of_a_newer_game_format_is_read_only_not_damaged() -> None:
    newer = {**a_game(), "schema_version": GAME_SCHEMA + 1, "new_field": [1]}
    out = call("store.check", records=[{"kind": "games", "id": "g1", "format": STORE_SCHEMA, "data": newer}])[
        "result"
    ]
    assert out["newer"] == ["games/g1"] and out["kept"] == [] and out["set_aside"] == []
