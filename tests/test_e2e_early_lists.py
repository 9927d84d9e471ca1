"""Saved squads and games are readable before the engine is ready (issue #13: a first start
on a slow phone takes seconds, and the lists of what the player saved must not wait for it)."""

from __future__ import annotations

from conftest import BOOT_MS, PHONE, Server
from playwright.sync_api import Browser, Route, expect


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
    finally:
        context.close()
