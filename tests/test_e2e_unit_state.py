"""Games in play saved by the current release, their units holding their systems' own values
(tests/golden/v0.1.0-unit-states), open in real Chromium and play on: nothing set aside."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import Server, open_with_store, saved_game, saved_store, unit_state
from playwright.sync_api import BrowserContext, expect

STORE = Path(__file__).resolve().parent / "golden" / "v0.1.0-unit-states" / "store.json"


def test_saved_games_in_play_open_and_undo_in_chromium(phone: BrowserContext, server: Server) -> None:
    kept: dict[str, Any] = json.loads(STORE.read_text())["saved"]
    page = phone.new_page()
    open_with_store(page, server.url + "#/games", kept)
    expect(page.locator("#app-view li.card")).to_have_count(3)
    assert sorted(g["id"] for g in saved_store(page)["games"]) == ["gf-units", "gs-units", "msb-units"]
    for game in kept["games"]:
        page.goto(f"{server.url}#/game/{game['id']}")
        first = game["sides"][1]["units"][0]["key"]
        expect(page.locator(f'[data-unit="1/{first}"]')).to_be_visible()
        assert saved_game(page)["sides"] == game["sides"]  # opened as saved, every unit's values whole
    # GUNFRAME: the last step (Tom's Evade, L1385) is undone; Tom keeps its Target Lock (L1358)
    page.goto(f"{server.url}#/game/gf-units")
    expect(page.locator('[data-unit="1/t"]')).to_be_visible()
    page.locator("#undo").click()
    expect(page.locator("#toast")).to_contain_text("Undone")
    after = saved_game(page)
    assert after["cursor"] == kept["games"][0]["cursor"] - 1
    assert unit_state(after, "1/t")["extra"] == {"locked": True}
