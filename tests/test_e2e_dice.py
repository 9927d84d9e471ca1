"""The built site in headless Chromium on a phone-sized screen: the dice tool end to end.

Boot, odds, a roll by the app, a roll typed in from real dice, bad input, then
airplane mode: reload, close and reopen, all without a request leaving 127.0.0.1.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path
from typing import Any

from conftest import BOOT_MS, OUTSIDE_THE_APP, PHONE, Server
from playwright.sync_api import Browser, BrowserContext, Page, expect


def open_dice(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#engine-status")).to_be_visible()
    page.click("#open-dice")
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    expect(page.locator("#odds-table")).to_be_visible()


def set_pool(page: Page, pool: str, **fields: Any) -> None:
    for name, value in fields.items():
        field = page.locator(f'[data-pool="{pool}"] [name="{name}"]')
        if name in {"sides", "reroll"}:
            field.select_option(str(value))
        else:
            field.fill(str(value))


def odds_rows(page: Page) -> list[list[str]]:
    rows = page.locator("#odds-table tbody tr")
    return [[c.strip() for c in rows.nth(i).locator("td").all_inner_texts()] for i in range(rows.count())]


def tap_faces(page: Page, *faces: int) -> None:
    for face in faces:
        page.locator(f'#keypad [data-face="{face}"]').click()


def test_boot_odds_roll_typed_dice_then_offline(first_visit_phone: BrowserContext, server: Server) -> None:
    """A first visit, from its first screen to airplane mode. (It also holds, since 2026-11-27,
    tests/test_e2e_squads.py's "a first visit to the squads says the engine is loading", which
    paid a first visit of its own for that one check.)"""
    phone = first_visit_phone
    outside: list[str] = []
    phone.on("request", lambda r: None if r.url.startswith(server.url) else outside.append(r.url))
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    first = len(server.served)

    # Issue 22: the first screen, the squads, says the engine is loading, with its progress (the
    # stage and seconds of the status line), rather than showing a bare heading.
    page.goto(server.url + "#/squads")
    wait = page.locator("#squads-loading")
    expect(wait).to_contain_text("Loading the rules engine")
    expect(wait).to_contain_text(re.compile(r"\d+s"))
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    expect(page.locator("#new-squad")).to_be_visible()
    expect(wait).to_have_count(0)

    # Then the dice tool, from the home screen (a route of the same page: no second start).
    open_dice(page, server.url + "#/")
    # A first visit downloads the 10 MB runtime once: the engine waits for the service worker.
    assert server.served[first:].count("/pyodide/pyodide.asm.wasm") == 1

    # Exact odds of 3 dice, success on 4+: 1/8, 3/8, 3/8, 1/8.
    set_pool(page, "attack", dice=3, success_on=4, crit_on=6, reroll="none")
    expect(page.locator("#odds-table tbody tr")).to_have_count(4)
    assert odds_rows(page) == [
        ["0", "12.5%", "100.0%"],
        ["1", "37.5%", "87.5%"],
        ["2", "37.5%", "50.0%"],
        ["3", "12.5%", "12.5%"],
    ]
    expect(page.locator("#odds-mean")).to_contain_text("mean 1.50 (3/2)")
    assert page.locator("#chart .col").count() == 4

    # The app rolls.
    page.click("#roll-app")
    expect(page.locator("#roll-result .verdict")).to_have_text(re.compile(r"^\d net success"))
    assert page.locator("#roll-result .die").count() == 3

    # Real dice typed in: GUNFRAME's example roll 4, 4, 6 is three hits and a power point.
    page.click("#roll-typed")
    expect(page.locator("#typed-prompt")).to_have_text("Roll 3 d6 for attack, then tap each face.")
    tap_faces(page, 4, 4, 6)
    expect(page.locator("#roll-result .verdict")).to_have_text("3 net successes, 1 critical")

    # With rerolls of failures the app asks for exactly the rerolled dice.
    set_pool(page, "attack", reroll="failures")
    page.click("#roll-typed")
    tap_faces(page, 1, 5, 2)
    expect(page.locator("#typed-prompt")).to_have_text("Roll 2 d6 for attack rerolls, then tap each face.")
    tap_faces(page, 6, 3)
    expect(page.locator("#roll-result .verdict")).to_have_text("2 net successes, 1 critical")
    expect(page.locator("#roll-result .die").first).to_have_text("1→6")

    # An opposed pool cancels successes.
    page.check("#opposed")
    set_pool(page, "defense", dice=2, success_on=4, crit_on="")
    expect(page.locator("#crit-line")).to_contain_text("Opposed criticals")

    # Airplane mode: reload, then close and reopen; everything still works.
    # The service worker holds every file once the page says so (a first visit fills it after
    # the engine starts: issue 26).
    expect(page.locator("html")).to_have_attribute("data-offline", "ready", timeout=BOOT_MS)
    phone.set_offline(True)
    page.reload()
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    expect(page.locator("#odds-table")).to_be_visible()
    assert page.locator("#opposed").is_checked(), "the saved settings survive a reload"
    page.close()
    again = phone.new_page()
    open_dice(again, server.url)
    set_pool(again, "attack", dice=12, reroll="failures")
    set_pool(again, "defense", dice=8)
    expect(again.locator("#odds-table tbody tr")).to_have_count(13)
    again.click("#roll-app")
    expect(again.locator("#roll-result .verdict")).to_be_visible()

    assert outside == [], f"requests left 127.0.0.1: {outside}"
    assert errors == []


#: Impossible pools and what the app says of each.
IMPOSSIBLE_POOLS = [
    ({"success_on": 7}, "a d6 cannot succeed on 7+: choose 1+ to 6+"),
    ({"dice": 0}, "greater than or equal to 1"),
    ({"dice": 200}, "less than or equal to 60"),
]


def test_bad_input_is_refused_and_keeps_the_last_odds(phone: BrowserContext, server: Server) -> None:
    """Each impossible pool gets a message and keeps the last odds, one after the other on one
    page; a typed face outside the die cannot be given. (Until 2026-11-27 four tests, one per
    impossible pool and one for the faces, each starting an engine of its own for one check.)"""
    page = phone.new_page()
    open_dice(page, server.url)
    for fields, message in IMPOSSIBLE_POOLS:
        set_pool(page, "attack", dice=2, success_on=4)
        expect(page.locator("#form-error")).to_be_hidden()  # a possible pool: the last message gone
        expect(page.locator("#odds-table tbody tr")).to_have_count(3)
        set_pool(page, "attack", **fields)
        expect(page.locator("#form-error")).to_contain_text(message)
        expect(page.locator("#odds-table tbody tr")).to_have_count(3)
        page.click("#roll-app")
        expect(page.locator("#roll-result .error")).to_contain_text(message)

    # A typed face outside the die: the keypad only offers the die's faces.
    set_pool(page, "attack", dice=1, sides=6, reroll="none")
    expect(page.locator("#form-error")).to_be_hidden()
    page.click("#roll-typed")
    expect(page.locator("#keypad .key")).to_have_text(["1", "2", "3", "4", "5", "6"])  # once drawn


def test_damaged_saved_settings_are_kept_aside_with_a_message(phone: BrowserContext, server: Server) -> None:
    page = phone.new_page()
    # Written from a page of the origin that is not the app (the app's own page would start the
    # engine once more, for nothing).
    page.goto(server.url + OUTSIDE_THE_APP)
    page.evaluate("localStorage.setItem('tc.dice', '{not json')")
    open_dice(page, server.url)
    expect(page.locator("#notice")).to_contain_text("could not be read")
    assert page.evaluate("localStorage.getItem('tc.dice.unreadable')") == "{not json"


def test_installable_manifest_and_service_worker(phone: BrowserContext, server: Server) -> None:
    page = phone.new_page()
    open_dice(page, server.url)
    manifest = page.evaluate("fetch('manifest.webmanifest').then(r => r.json())")
    assert manifest["display"] == "standalone"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert page.evaluate(f"fetch('{icon['src']}').then(r => r.status)") == 200
    assert page.evaluate("navigator.serviceWorker.controller !== null")


# A new build replacing the old and keeping the dice tool's saved settings is checked with the
# snapshot's replacement, on one update: tests/test_e2e_snapshot.py,
# test_a_new_build_replaces_the_old_keeps_saved_data_and_never_restores_the_old_snapshot.


def test_a_broken_download_is_reported_not_hung(browser: Browser, dist: Path, tmp_path: Path) -> None:
    """A wheel that fails its hash makes Pyodide skip it silently: the app must say so."""
    site = tmp_path / "site"
    shutil.copytree(dist, site)
    (core_wheel,) = (site / "pyodide").glob("tablecompanion_core-*.whl")
    core_wheel.write_bytes(core_wheel.read_bytes() + b"tampered")
    server = Server(site)
    # A first visit of that site (a context of the shared Chromium: no Chromium of its own to start).
    context = browser.new_context(**PHONE, first_visit=True)
    try:
        page = context.new_page()
        page.goto(server.url + "#/squads")
        status = page.locator("#engine-status")
        expect(status).to_have_attribute("data-state", "failed", timeout=BOOT_MS)
        expect(status).to_contain_text("tablecompanion-core")
    finally:
        context.close()
        server.stop()
