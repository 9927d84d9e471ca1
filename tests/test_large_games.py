"""A game as large as the limits allow is drawn in time linear in its units (issue 19).

Mobile Suit Battles' views read the whole board for every face-up suit (who resolves next, each
mark's reach): read once per unit, 200 suits took 87 s of CPU here, past the engine's 30 s watchdog.
``RuleSystem.unit_views`` reads the game once for all of them.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from core import api
from core.dice import RandomDice
from core.game import MAX_SIDE_UNITS, Game, act, new_game
from core.squad import Squad, SquadUnit
from core.systems.ms_battles import play
from core.systems.ms_battles.sample import DECK_A, DECK_B


def revealed_game(per_side: int) -> dict[str, Any]:
    """Two suits drawn, planned and revealed, then copied to ``per_side`` suits a side, face up."""
    sides = [
        (
            f"S{i}",
            Squad(
                id=f"s{i}",
                name=f"S{i}",
                system="ms_battles",
                units=[SquadUnit(key="u1", profile=d.model_dump(mode="json"))],
            ),
        )
        for i, d in enumerate([DECK_A, DECK_B])
    ]
    g = new_game("g", "Big", sides)
    g = act(g, "setup", {"priority_side": 0}, RandomDice(1))
    for ref in ["0/u1", "1/u1"]:
        g = act(g, "draw", {"unit": ref}, RandomDice(2))
        unit = g.unit(ref)[2]
        cards = unit.profile["cards"]
        keep = [cards[p]["id"] for p in unit.state.extra["hand"][:2]]
        g = act(g, "plan", {"unit": ref, "keep": keep}, RandomDice(3))
    g = act(g, "reveal", {}, RandomDice(4))
    data = g.model_dump(mode="json")
    for side in data["sides"]:
        u = side["units"][0]
        side["units"] = [{**u, "key": f"u{i}", "name": f"{u['name']} {i}"} for i in range(per_side)]
    data["log"], data["cursor"] = data["log"][:1], 1
    return Game.model_validate(data).model_dump(mode="json")


def views(game: dict[str, Any]) -> dict[str, Any]:
    reply = json.loads(api.handle(json.dumps({"op": "game.views", "args": {"game": game}})))
    assert reply["ok"], reply
    result: dict[str, Any] = reply["result"]
    return result


def test_the_board_is_read_as_often_for_two_hundred_suits_as_for_four(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reads = []
    real = play.load
    monkeypatch.setattr(play, "load", lambda game: reads.append(1) or real(game))
    import core.systems.ms_battles.view as view

    monkeypatch.setattr(view, "load", play.load)
    counts = []
    for per_side in (2, MAX_SIDE_UNITS // 2):
        reads.clear()
        shown = views(revealed_game(per_side))
        assert len(shown["views"]) == 2 * per_side
        assert any("Face up" in s["title"] for v in shown["views"].values() for s in v["sections"])
        counts.append(len(reads))
    assert counts[0] == counts[1]  # once per part of the screen, never once per suit


def test_two_hundred_face_up_suits_are_drawn_well_within_the_watchdog() -> None:
    game = revealed_game(MAX_SIDE_UNITS // 2)
    started = time.process_time()
    shown = views(game)
    seconds = time.process_time() - started
    assert len(shown["views"]) == MAX_SIDE_UNITS
    assert seconds < 8, f"{seconds:.1f} s of CPU to draw 200 suits"  # 87 s before; Pyodide is ~2x slower
