"""Accessibility of every screen, in the light and the dark theme, as axe-core sees it:
no serious or critical violation (contrast, names, roles...). Also: no sideways scrolling
at 320 px wide or at 150% text, and tap targets of at least 44 px on the game screen."""

from __future__ import annotations

from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from conftest import BOOT_MS, PHONE, Server, open_with_store
from playwright.sync_api import Browser, Page, expect
from test_e2e_flow import gunframe_store

from core import api

AXE = Axe()


def serious(page: Page) -> list[str]:
    found = AXE.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


def shared_link(store: dict[str, Any]) -> str:
    return str(api.call("share.encode", {"squad": store["squads"][0]})["result"]["token"])


def screens(page: Page, server: Server) -> list[tuple[str, Any]]:
    """Each screen: its name and how to get there from a loaded game store."""
    token = shared_link(gunframe_store())

    def go(route: str, ready: str) -> Any:
        def visit() -> None:
            page.goto(server.url + "#/nowhere")  # then the route anew, even if it is shown already
            page.goto(server.url + route)
            expect(page.locator(ready).first).to_be_visible(timeout=BOOT_MS)

        return visit

    def sheet() -> None:
        go("#/game/g1", ".unit-card")()
        page.locator('[data-unit="0/u1"] [data-act="attack"]').click()
        page.locator('#targets [data-target="1/u2"]').click()
        expect(page.locator("#odds-headline")).to_be_visible()

    def result() -> None:
        sheet()
        page.click("#action-roll")
        expect(page.locator("#action-text")).to_be_visible()

    def applied() -> None:
        result()
        page.click("#apply-result")
        expect(page.locator("#toast")).to_be_visible()
        page.locator('[data-unit="1/u2"] .card-toggle').click()

    return [
        ("home", go("#/", "#open-squads")),
        ("dice", go("#/dice", "#roll-app")),
        ("squads", go("#/squads", "#new-squad")),
        ("squad", go("#/squad/s1", "#catalogue-search")),
        ("games", go("#/games", "#start-game")),
        ("game", go("#/game/g1", ".unit-card")),
        ("attack sheet", sheet),
        ("attack result", result),
        ("after apply", applied),
        ("shared link", go(f"#/open/{token}", "#play-shared")),
    ]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_serious_violations_on_any_screen(browser: Browser, server: Server, scheme: str) -> None:
    context = browser.new_context(**PHONE, color_scheme=scheme)
    try:
        page = context.new_page()
        open_with_store(page, server.url + "#/game/g1", gunframe_store())
        problems = {}
        for name, visit in screens(page, server):
            visit()
            found = serious(page)
            if found:
                problems[name] = found
        assert problems == {}
    finally:
        context.close()


@pytest.mark.parametrize("width,zoom", [(320, 1.0), (390, 1.5)])
def test_nothing_scrolls_sideways(browser: Browser, server: Server, width: int, zoom: float) -> None:
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 700}})
    try:
        page = context.new_page()
        open_with_store(page, server.url + "#/game/g1", gunframe_store())
        # 150% text: the phone's larger text setting scales the root font size.
        for name, visit in screens(page, server):
            visit()
            if zoom != 1.0:
                page.evaluate(f"document.documentElement.style.fontSize = '{zoom * 100}%'")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= width, f"{name}: {wide}px wide at {width}px"
    finally:
        context.close()


def test_tap_targets_are_44px(browser: Browser, server: Server) -> None:
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        open_with_store(page, server.url + "#/game/g1", gunframe_store())
        page.locator('[data-unit="0/u1"] .card-toggle').click()
        page.locator('[data-unit="0/u1"] [data-act="attack"]').click()
        page.locator('#targets [data-target="1/u2"]').click()
        small = page.evaluate(
            """() => [...document.querySelectorAll('button, select, input, summary, a')]
              .filter((e) => e.offsetParent !== null && !e.closest('.foot'))
              .map((e) => (e.closest('label') ?? e))
              .map((e) => [e.id || e.className || e.textContent.trim().slice(0, 20),
                           e.getBoundingClientRect()])
              .filter(([, r]) => r.width > 0 && (r.height < 44 || r.width < 44))
              .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
        )
        assert small == []
    finally:
        context.close()
