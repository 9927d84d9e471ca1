"""Plain values on screen (issue #11), in headless Chromium on a phone: one info tap per modifier
chip in the action sheet, and no raw id (snake_case, 'side/key') anywhere a player can read on the
game screen (every action's sheet opened), the squad editor (cards open) or the unit form."""

from __future__ import annotations

import re
from typing import Any

from conftest import PHONE, Server, open_with_store
from playwright.sync_api import Browser, BrowserContext, Page, expect
from test_e2e_flow import Taps, gunframe_store
from test_e2e_ms_battles import drawn_game

from core import api

#: Everything a player can read: the page's text, every choice of every list, and the labels
#: read out or shown on hover.
VISIBLE = """() => {
  const out = [document.body.innerText];
  for (const o of document.querySelectorAll('select option')) out.push(o.textContent);
  for (const e of document.querySelectorAll('[aria-label], [title], [placeholder]')) {
    for (const name of ['aria-label', 'title', 'placeholder']) out.push(e.getAttribute(name) ?? '');
  }
  return out.join('\\n');
}"""

#: Open every fold (cards, full odds, more modifiers, explanations) before reading.
OPEN_ALL = """() => {
  for (const d of document.querySelectorAll('details')) d.open = true;
}"""

RAW_ID = re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b|\bside/key\b")


def raw_ids(page: Page) -> set[str]:
    page.evaluate(OPEN_ALL)
    return set(RAW_ID.findall(page.evaluate(VISIBLE)))


def every_sheet_reads_plain(page: Page) -> int:
    """Open every action of the game's list in turn: no sheet shows a raw id. Returns how many."""
    actions = page.locator("#action-pick option").evaluate_all("os => os.map(o => o.value).filter(Boolean)")
    for name in actions:
        page.select_option("#action-pick", name)
        expect(page.locator("#action-panel")).to_be_visible()
        found = raw_ids(page)
        assert found == set(), (name, found)
        page.click("#sheet-close")
    return len(actions)


def start(browser: Browser, server: Server) -> tuple[Any, Page]:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    open_with_store(page, server.url + "#/game/g1", gunframe_store())
    expect(page.locator(".unit-card")).to_have_count(10)
    return context, page


def test_each_modifier_chip_has_its_own_explanation_one_tap_away(browser: Browser, server: Server) -> None:
    context, page = start(browser, server)
    try:
        schema = next(
            a["input_schema"]
            for a in api.call("system.describe", {"system": "gunframe"})["result"]["actions"]
            if a["name"] == "attack"
        )
        tap = Taps(page)
        tap(page.locator('[data-unit="0/u1"] [data-act="attack"]'))
        tap(page.locator('#targets [data-target="1/u2"]'))
        chips = page.locator("#action-panel [data-mod]")
        expect(chips).to_have_text(["Charge", "Crossfire", "Elevated", "Rear", "Obscured", "Cover"])
        infos = page.locator("#action-panel [data-mod-info]")
        expect(infos).to_have_count(6)
        help_box = page.locator("#mod-help")
        expect(help_box).to_be_hidden()
        # One tap on Rear's info: Rear's explanation alone, without its rulebook line.
        before = tap.count
        tap(page.locator('[data-mod-info="rear"]'))
        assert tap.count - before == 1
        rear = schema["properties"]["rear"]["description"].replace(" (L1086)", "")
        expect(help_box).to_have_text(f"Rear {rear}")
        expect(page.locator('[data-mod-info="rear"]')).to_have_attribute("aria-expanded", "true")
        # The explanation does not toggle the modifier.
        expect(page.locator('[data-mod="rear"]')).to_have_attribute("aria-pressed", "false")
        # Another chip's info: one tap, that explanation replaces the first.
        tap(page.locator('[data-mod-info="cover"]'))
        cover = schema["properties"]["cover"]["description"].replace(" (L1136)", "")
        expect(help_box).to_have_text(f"Cover {cover}")
        expect(page.locator('[data-mod-info="rear"]')).to_have_attribute("aria-expanded", "false")
        # Its info again: closed.
        tap(page.locator('[data-mod-info="cover"]'))
        expect(help_box).to_be_hidden()
        # Ticking a chip keeps the sheet as it was: the chip is on, the explanation still closed.
        tap(page.locator('[data-mod="cover"]'))
        expect(page.locator('[data-mod="cover"]')).to_have_attribute("aria-pressed", "true")
        expect(help_box).to_be_hidden()
    finally:
        context.close()


def test_no_raw_ids_on_the_game_screen_or_in_the_squad_editor(browser: Browser, server: Server) -> None:
    context, page = start(browser, server)
    try:
        assert raw_ids(page) == set()
        assert every_sheet_reads_plain(page) > 20
        # The attack sheet with a target picked: choices, chips, odds, more modifiers.
        page.locator('[data-unit="0/u1"] [data-act="attack"]').click()
        page.locator('#targets [data-target="1/u2"]').click()
        expect(page.locator("#odds-headline")).to_be_visible()
        assert raw_ids(page) == set()
        page.click("#sheet-close")
        # The squad editor with every card open, then each unit's form (upgrade checklist included).
        page.goto(page.url.split("#")[0] + "#/squad/s1")
        expect(page.locator("#squad-units .unit-row")).to_have_count(5)
        assert raw_ids(page) == set()
        for key in ("u1", "u2", "u3", "u4", "u5"):
            page.goto(page.url.split("#")[0] + f"#/unit/s1/{key}")
            expect(page.locator("#unit-status .total")).to_contain_text("points")
            expect(page.locator(".checklist .check-item").first).to_be_visible()
            found = raw_ids(page)
            assert found == set(), (key, found)
    finally:
        context.close()


def test_no_raw_ids_in_a_card_game_either(phone: BrowserContext, server: Server) -> None:
    """The other system (cards, hands, decks): its game, every action's sheet, its squad and editor."""
    page = phone.new_page()
    drawn_game(page, server)
    assert raw_ids(page) == set()
    assert every_sheet_reads_plain(page) >= 5
    page.goto(server.url + "#/squads")
    page.locator('a[href^="#/squad/"]').first.click()
    expect(page.locator("#squad-units .unit-row")).to_have_count(1)
    assert raw_ids(page) == set()
    page.locator("#squad-units .unit-row a", has_text="Edit").click()
    expect(page.locator("#deck-name")).to_be_visible()
    assert raw_ids(page) == set()
