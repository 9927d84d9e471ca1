"""Squads, share links and games in headless Chromium, end to end.

Build a squad from the book's units, share it, open the link in a fresh browser,
start a game with it, resolve an attack with typed dice, undo it, reload, go
offline, and find everything still there.
"""

from __future__ import annotations

import re

import pytest
from conftest import BOOT_MS, PHONE, Server, apply_result, type_dice
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_e2e_storage import READ_DB


def boot(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)


def build_squad(page: Page, server: Server, picks: int = 3) -> str:
    boot(page, server.url + "#/squads")
    page.select_option("#new-squad-system", "gunframe")
    page.click("#new-squad")
    expect(page.locator("#squad-name")).to_be_visible()
    page.fill("#squad-name", "Red Lancers")
    page.locator("#squad-name").dispatch_event("change")
    page.fill("#squad-limit", "100")
    page.locator("#squad-limit").dispatch_event("change")
    options = page.locator("#catalogue-pick option").all()
    for option in options[1 : picks + 1]:
        page.select_option("#catalogue-pick", option.get_attribute("value"))
        page.locator("#notice-close").click() if page.locator("#notice").is_visible() else None
    expect(page.locator("#squad-units .unit-row")).to_have_count(picks)
    expect(page.locator("#squad-total")).to_contain_text("/ 100 points")
    return page.url


def test_squad_share_open_play_undo_reload_offline(browser: Browser, server: Server) -> None:
    home = browser.new_context(**PHONE)
    page = home.new_page()
    build_squad(page, server)
    page.click("#share-squad")
    link = page.locator("#share-url").input_value()
    assert link.startswith(server.url + "#/open/")
    assert len(link) < 600, f"share link of {len(link)} characters"
    expect(page.locator("#share-qr")).to_be_visible()
    home.close()

    # Another phone: a fresh browser opens the link.
    other = browser.new_context(**PHONE)
    outside: list[str] = []
    other.on("request", lambda r: None if r.url.startswith(server.url) else outside.append(r.url))
    try:
        page = other.new_page()
        boot(page, link)
        expect(page.locator("#shared-name")).to_have_text("Red Lancers")
        expect(page.locator("#shared-units > li")).to_have_count(3)
        page.click("#play-shared")
        expect(page.locator("#start-game")).to_be_visible()
        page.click("#start-game")
        expect(page.locator(".unit-card")).to_have_count(6)

        # Attack with typed dice: every attack die a 6, every defense die a 1.
        page.select_option("#action-pick", "attack")
        page.select_option("#pick-attacker", "0/u1")
        page.select_option("#pick-target", "1/u2")
        expect(page.locator("#action-odds table")).not_to_have_count(0)
        page.click("#action-typed")
        type_dice(page, {"attack": "6"})
        expect(page.locator("#action-text")).to_contain_text(re.compile(r"\d+ damage"))
        apply_result(page)
        target = page.locator('[data-unit="1/u2"]')
        damage = target.locator(".stepper output").first.inner_text()
        assert not damage.startswith("0 /"), damage
        expect(page.locator("#game-log li").first).to_contain_text("damage")

        page.click("#undo")
        expect(target.locator(".stepper output").first).to_have_text(re.compile(r"^0 /"))
        expect(page.locator("#game-log li.undone")).to_have_count(1)

        # A manual adjustment, then reload and airplane mode: all still there.
        page.locator('[data-unit="0/u1"] [aria-label="Damage up"]').click()
        expect(page.locator('[data-unit="0/u1"] .stepper output').first).to_have_text(re.compile(r"^1 /"))
        page.reload()
        expect(page.locator('[data-unit="0/u1"] .stepper output').first).to_have_text(
            re.compile(r"^1 /"), timeout=BOOT_MS
        )
        other.set_offline(True)
        page.reload()
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        expect(page.locator('[data-unit="0/u1"] .stepper output').first).to_have_text(re.compile(r"^1 /"))
        page.click("#undo")
        expect(page.locator('[data-unit="0/u1"] .stepper output').first).to_have_text(re.compile(r"^0 /"))
        assert outside == []
    finally:
        other.close()


@pytest.mark.parametrize("damage", ["truncate", "tamper", "future", "garbage"])
def test_a_damaged_link_explains_and_changes_nothing(
    phone: BrowserContext, server: Server, damage: str
) -> None:
    page = phone.new_page()
    build_squad(page, server, picks=1)
    page.click("#share-squad")
    token = page.locator("#share-url").input_value().split("#/open/")[1]
    bad = {
        "truncate": token[: len(token) // 2],
        "tamper": token[:10] + ("A" if token[10] != "A" else "B") + token[11:],
        "future": "CQ" + token[2:],
        "garbage": "<script>alert(1)</script>",
    }[damage]
    saved = page.evaluate(READ_DB)
    page.goto(server.url + "#/open/" + bad)
    expect(page.locator("#open-error")).to_be_visible(timeout=BOOT_MS)
    assert page.evaluate(READ_DB) == saved


def test_own_unit_entered_in_the_system_format(phone: BrowserContext, server: Server) -> None:
    page = phone.new_page()
    build_squad(page, server, picks=0)
    page.click("#new-unit")
    expect(page.locator("#unit-status")).to_contain_text("points")
    page.locator('.schema-form [name="name"]').first.fill("Homebrew")
    page.click("#save-unit-library")
    expect(page.locator("#squad-units .unit-row")).to_have_count(1)
    expect(page.locator("#squad-units")).to_contain_text("Homebrew")
    page.goto(server.url + "#/squads")
    expect(page.locator("#library")).to_contain_text("Homebrew")


def test_a_hand_edited_save_keeps_what_it_can_and_sets_the_rest_aside(
    phone: BrowserContext, server: Server
) -> None:
    good = {"id": "s1", "name": "Kept squad", "system": "gunframe", "units": []}
    broken = {"id": "s2", "name": "Broken", "system": "gunframe", "units": "not a list"}
    store = {"schema_version": 1, "squads": [good, broken], "units": [], "games": []}
    page = phone.new_page()
    page.goto(server.url + "#/squads")
    expect(page.locator("#new-squad")).to_be_visible(timeout=BOOT_MS)  # the first store is saved
    page.evaluate("(s) => localStorage.setItem('tc.store', JSON.stringify(s))", store)
    page.reload()
    expect(page.locator(".squad-link")).to_have_count(1, timeout=BOOT_MS)
    expect(page.locator(".squad-link")).to_have_text("Kept squad")
    expect(page.locator("#notice")).to_contain_text("set aside")
    aside = page.evaluate(READ_DB)["aside"]
    assert aside[0]["raw"] == broken
