"""Saved squads and games are readable before the engine is ready (issue #13: a first start
on a slow phone takes seconds, and the lists of what the player saved must not wait for it)."""

from __future__ import annotations

from typing import Any

from conftest import BOOT_MS, PHONE, Server
from playwright.sync_api import Browser, Route, expect

from core import api


def shared_squad() -> dict[str, Any]:
    catalogue = api.call("system.describe", {"system": "gunframe"})["result"]["catalogue"]
    units = [{"key": f"u{i + 1}", "profile": c["profile"]} for i, c in enumerate(catalogue[:3])]
    return {"id": "s9", "name": "Friends' <Squad>", "system": "gunframe", "units": units}


def test_saved_squads_and_games_show_before_the_engine_is_ready(browser: Browser, server: Server) -> None:
    # No service worker, so that the test can hold back the engine's worker script.
    context = browser.new_context(**PHONE, service_workers="block", first_visit=True)
    try:
        page = context.new_page()
        page.goto(server.url + "#/squads")
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        page.select_option("#new-squad-system", "gunframe")
        page.click("#new-squad")
        expect(page.locator("#squad-name")).to_have_value("GUNFRAME squad 1")
        page.fill("#squad-name", "Early Birds")
        page.locator("#squad-name").dispatch_event("change")
        page.goto(server.url + "#/squads")
        expect(page.locator(".squad-link")).to_have_text(["Early Birds"])
        page.close()

        held: list[Route] = []
        context.route("**/engine.js", lambda route: held.append(route))  # never answered
        page = context.new_page()
        page.goto(server.url + "#/squads")
        expect(page.locator(".squad-link")).to_have_text(["Early Birds"])
        assert page.locator("#engine-status").get_attribute("data-state") != "ready"
        expect(page.locator("#new-squad")).to_have_count(0)  # creating waits for the engine
        page.goto(server.url + "#/games")
        expect(page.locator("#app-view h1")).to_have_text("Games")
        assert held, "the engine's worker script was held back"

        # A shared squad's link (issue 26): while the engine starts, its name, system and size
        # show from the link, and nothing is offered yet; a link edited in transit shows nothing.
        squad = shared_squad()
        token = api.call("share.encode", {"squad": squad})["result"]["token"]
        page.goto(server.url + "#/open/" + token)
        preview = page.locator("#shared-preview")
        expect(preview.locator("h2")).to_have_text("Friends' <Squad>")
        expect(preview).to_contain_text("GUNFRAME · 3 units")
        expect(page.locator("#save-shared, #play-shared")).to_have_count(0)
        edited = token[:20] + ("A" if token[20] != "A" else "B") + token[21:]
        page.goto(server.url + "#/open/" + edited)
        expect(page.locator("#app-view")).to_contain_text("Opening…")
        expect(preview).to_have_count(0)
        # The engine starts: it refuses the edited link and opens the real one.
        for route in held:
            route.continue_()
        expect(page.locator("#open-error")).to_be_visible(timeout=BOOT_MS)
        page.goto(server.url + "#/open/" + token)
        expect(page.locator("#shared-units > li")).to_have_count(3)
        expect(page.locator("#shared-name")).to_have_text("Friends' <Squad>")
        expect(preview).to_have_count(0)
    finally:
        context.close()
