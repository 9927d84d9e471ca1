"""Mobile Suit Gundam: Skirmish at the table in headless Chromium on a phone: no raw id (snake_case)
anywhere a player can read on its game screen (every action's sheet), squad editor and unit form;
and each game type's score line on the game screen, word for word (L169-L229)."""

from __future__ import annotations

from typing import Any

from conftest import PHONE, Server, open_with_store
from playwright.sync_api import Browser, Page, expect
from test_e2e_plain import raw_ids

from core import api
from core.systems.gundam_skirmish.samples import SAMPLES


def profile(key: str, **changes: Any) -> dict[str, Any]:
    return SAMPLES[key].model_copy(update=changes).model_dump(mode="json")


def act(game: dict[str, Any], action: str, given: dict[str, Any], faces: list[int]) -> dict[str, Any]:
    reply = api.call("game.act", {"game": game, "action": action, "input": given, "faces": faces})
    assert reply["ok"], reply
    return dict(reply["result"]["game"])


def gs_store(mission: str = "deathmatch") -> dict[str, Any]:
    """Feds (Lancer, Captain with a pilot, Gun Tank) and Zeon (Trooper, Heavy Gunner): a game whose
    priority is rolled (Feds 5, Zeon 2, Feds first), its game type set."""
    captain = profile("captain")
    captain["pilot"] = [{"name": "Ace", "rank": 3, "traits": ["mechanic", "leader"]}]
    captain["abilities"] = [{"key": "panoramic_cockpit"}, {"key": "extra_tank"}, {"key": "grapple_hook"}]
    feds = {
        "id": "s1",
        "name": "Feds",
        "system": "gundam_skirmish",
        "units": [
            {"key": "u1", "profile": profile("lancer")},
            {"key": "u2", "profile": captain},
            {"key": "u3", "profile": profile("gun_tank")},
        ],
    }
    zeon = {
        "id": "s2",
        "name": "Zeon",
        "system": "gundam_skirmish",
        "units": [
            {"key": "u1", "profile": profile("trooper")},
            {"key": "u2", "profile": profile("heavy_gunner")},
        ],
    }
    sides = [{"name": "Feds", "squad": feds}, {"name": "Zeon", "squad": zeon}]
    game = api.call("game.new", {"id": "g1", "name": "Feds vs Zeon", "sides": sides})["result"]
    game = act(game, "setup", {"mission": mission}, [])
    game = act(game, "priority", {"places": [1]}, [5, 2])
    return {"schema_version": 1, "squads": [feds, zeon], "units": [], "games": [game]}


def open_game(browser: Browser, server: Server, store: dict[str, Any]) -> tuple[Any, Page]:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    open_with_store(page, server.url + "#/game/g1", store)
    expect(page.locator(".unit-card")).to_have_count(5)
    return context, page


def test_no_raw_ids_on_the_gundam_skirmish_screens(browser: Browser, server: Server) -> None:
    context, page = open_game(browser, server, gs_store())
    try:
        assert raw_ids(page) == set()
        actions = page.locator("#action-pick option").evaluate_all(
            "os => os.map(o => o.value).filter(Boolean)"
        )
        assert len(actions) >= 15
        for name in actions:
            page.select_option("#action-pick", name)
            expect(page.locator("#action-panel")).to_be_visible()
            found = raw_ids(page)
            assert found == set(), (name, found)
            page.click("#sheet-close")
        # The Captain's own sheets: its weapons and abilities as picks, a target picked.
        for action in ("shoot", "ability", "switch_weapon", "reload", "aimed_shot"):
            page.locator(
                '[data-unit="0/u2"] select.more-actions, [data-unit="0/u2"] [data-act]'
            ).first.wait_for()
            page.select_option("#action-pick", action)
            page.locator("#pick-attacker, #pick-unit").first.select_option("0/u2")
            targets = page.locator('#targets [data-target="1/u2"]')
            if targets.count():
                targets.click()
            expect(page.locator("#action-panel [data-pick-field]").first).to_be_visible()
            found = raw_ids(page)
            assert found == set(), (action, found)
            page.click("#sheet-close")
        page.goto(page.url.split("#")[0] + "#/squad/s1")
        expect(page.locator("#squad-units .unit-row")).to_have_count(3)
        assert raw_ids(page) == set()
        for key in ("u1", "u2", "u3"):
            page.goto(page.url.split("#")[0] + f"#/unit/s1/{key}")
            expect(page.locator("#unit-status .total")).to_contain_text("points")
            found = raw_ids(page)
            assert found == set(), (key, found)
    finally:
        context.close()
