"""GUNFRAME games kept by the build before game schema 3, opened and played in the browser.

The link and the saved record come from tests/golden/v0.1.0-store2-gf (made by that build, with the
mission, environment, clock and end among the options): the app opens them with those values in the
game's state, shows them, plays on and saves the game in today's format.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from conftest import BOOT_MS, Server, apply_result, saved_game, saved_store
from playwright.sync_api import BrowserContext, Page, expect

from core.systems.gunframe.options import GunframeOptions

FOLDER = Path(__file__).resolve().parent / "golden" / "v0.1.0-store2-gf"
READINGS = set(GunframeOptions.model_fields)

#: Puts records straight into the app's database, as the build of store format 2 wrote them.
WRITE_GAMES = """async (records) => {
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open('tc');
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  await new Promise((ok, no) => {
    const t = db.transaction('games', 'readwrite');
    for (const r of records) t.objectStore('games').put(r);
    t.oncomplete = ok;
    t.onerror = () => no(t.error);
  });
  db.close();
}"""


def golden(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((FOLDER / f"{name}.json").read_text())
    return data


def boot(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)


def test_a_link_of_schema_2_opens_shows_its_state_and_plays_on(phone: BrowserContext, server: Server) -> None:
    page = phone.new_page()
    boot(page, server.url + "#/open/" + golden("token-game-gf-doom")["token"])
    page.click("#open-game")
    status = page.locator("#game-status")
    expect(status).to_contain_text("Doomsday")
    expect(status).to_contain_text("Storm (lightning)")
    expect(page.locator('#game-status dt:text-is("Doomsday clock") + dd')).to_have_text("2")
    game = saved_game(page)
    assert game["schema_version"] == 3 and set(game["options"]) == READINGS
    assert game["state"]["extra"]["suppression"] == [{"inches": 1, "near": "Cy", "round": 1}]
    # The End phase lifts the suppression token (L1318): a value that sat among the options.
    page.select_option("#action-pick", "end_phase")
    page.click("#action-typed")
    expect(page.locator("#action-text")).to_contain_text("suppression tokens removed")
    apply_result(page)
    after = saved_game(page)
    assert after["state"]["extra"]["suppression"] == []
    assert after["state"]["clocks"] == {"doomsday_clock": 2} and set(after["options"]) == READINGS


def test_a_saved_game_of_store_format_2_opens_over_and_undoes_its_old_steps(
    phone: BrowserContext, server: Server
) -> None:
    page = phone.new_page()
    boot(page, server.url + "#/squads")
    (breach,) = [g for g in golden("store-gunframe-options")["saved"]["games"] if g["id"] == "gf-breach"]
    page.evaluate(WRITE_GAMES, [{"id": breach["id"], "v": 1, "format": 2, "data": breach}])
    page.goto(server.url + "#/game/gf-breach")
    page.reload()  # the app reads its database as it starts
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    status = page.locator("#game-status")
    expect(status).to_contain_text("Red wins: the space structure gives way")  # no line number: setting off
    expect(page.locator('#game-status dt:text-is("Hull breaches") + dd')).to_have_text("2")
    # The last step, made by the older build, is taken back: the game is not over any more.
    page.click("#undo")
    expect(status).not_to_contain_text("Red wins")
    game = saved_game(page)
    assert game["schema_version"] == 3 and game["cursor"] == len(breach["log"]) - 1
    state = game["state"]
    assert (state["ended"], state["winners"], state["extra"]["result"]) == (False, [], "")
    assert game["state"]["extra"]["last_turn"] == 2 and set(game["options"]) == READINGS
    assert saved_store(page)["versions"]["games/gf-breach"] == 2  # written again, in today's format
