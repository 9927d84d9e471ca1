"""Tap targets of at least 44 px on the game screen, and the axe-core check other tests share.

Every screen of every system in the light and the dark theme, and at 320 px and 150% text, is
read in tests/test_e2e_every_screen.py (one walk a system, one engine start each)."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from conftest import PHONE, Server, open_with_store
from playwright.sync_api import Browser, Page
from test_e2e_flow import gunframe_store

AXE = Axe()


def serious(page: Page) -> list[str]:
    found = AXE.run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in found
        if v["impact"] in ("serious", "critical")
    ]


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
