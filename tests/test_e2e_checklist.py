"""A unit's upgrades as a checklist in headless Chromium (issue #11): names, ticks, greyed choices.

The form is drawn from the profile's JSON Schema (web/schema-form.js, generic); GUNFRAME marks its
upgrade list as a checklist keyed by the upgrade id and names why a choice would not fit.
"""

from __future__ import annotations

import json

from conftest import Server
from playwright.sync_api import BrowserContext, Page, expect
from test_e2e_squads import build_squad
from test_e2e_storage import READ_DB

from core import api


def saved_units(page: Page) -> list[dict]:
    db = page.evaluate(READ_DB)
    return [u for rec in db["squads"] for u in rec["data"]["units"]]


def add_book_unit(page: Page, name: str) -> None:
    page.fill("#catalogue-search", name)
    page.locator(f'#catalogue [aria-label="Add {name}"]').click()


def line(page: Page, choice: str, nth: int = 0):
    return page.locator(f'.checklist[data-checklist="upgrades"] .check-item[data-choice="{choice}"]').nth(nth)


def test_a_book_unit_shows_its_upgrades_ticked_by_name_and_saves_them_unchanged(
    phone: BrowserContext, server: Server
) -> None:
    page = phone.new_page()
    build_squad(page, server, picks=0)
    add_book_unit(page, "Praetorian")
    expect(page.locator("#squad-units .unit-row")).to_have_count(1)
    before = saved_units(page)[0]["profile"]
    page.locator("#squad-units .unit-row a", has_text="Edit").click()
    expect(page.locator("#unit-status")).to_contain_text("points")
    checklist = page.locator('.checklist[data-checklist="upgrades"]').first
    ticked = checklist.locator(".check-item.ticked .check-name")
    # Hero; Deflect and Fly; Piercing on two weapon systems: by name, in their groups, no ids.
    expect(ticked).to_have_text(["Hero", "Deflect", "Fly", "Piercing", "Piercing"], use_inner_text=True)
    expect(checklist.locator('[data-group="Pilot upgrades"] .check-item.ticked')).to_have_count(1)
    expect(checklist.locator('[data-group="Frame upgrades"] .check-item.ticked')).to_have_count(2)
    expect(checklist.locator('[data-group="Loadout upgrades"] .check-item.ticked')).to_have_count(2)
    # Ticked frame and loadout upgrades show where they sit; a pilot upgrade has nothing to set.
    expect(line(page, "deflect").locator('select[name="slot"]')).to_have_value('"defense"')
    expect(line(page, "piercing", 1).locator('select[name="slot"]')).to_have_value('"long"')
    # A ticked upgrade offers only where it may sit, by name: Deflect on Defense, Piercing on a system.
    expect(line(page, "deflect").locator('select[name="slot"] option')).to_have_text(["Defense"])
    expect(line(page, "piercing").locator('select[name="slot"] option')).to_have_text(
        ["Close", "Short", "Medium", "Long"]
    )
    expect(line(page, "hero").locator("select, input[type=number]")).to_have_count(0)
    # Not ticked: no fields. Taken frame values grey what would go there, with the reason.
    expect(line(page, "chaff").locator("select")).to_have_count(0)
    expect(line(page, "chaff")).to_have_class("check-item unfit")
    expect(line(page, "chaff").locator(".unfit-reason")).to_have_text("Defense already has an upgrade")
    expect(line(page, "chaff").locator(".check-label input")).to_be_disabled()
    # Saving without a change keeps the same upgrades, ids and slots (the save is the engine's
    # normalised profile, as for any own unit).
    page.click("#save-unit")
    expect(page.locator("#squad-units .unit-row")).to_have_count(1)
    after = saved_units(page)[0]["profile"]
    assert after == api.call("unit.check", {"system": "gunframe", "profile": before})["result"]["profile"]
    assert [(u["id"], u["slot"]) for u in after["upgrades"]] == [
        ("hero", None),
        ("deflect", "defense"),
        ("fly", "speed"),
        ("piercing", "medium"),
        ("piercing", "long"),
    ]


def test_ticking_an_upgrade_is_one_tap_and_the_points_follow(phone: BrowserContext, server: Server) -> None:
    page = phone.new_page()
    build_squad(page, server, picks=0)
    page.click("#new-unit")  # starts from the book's first unit, Lynx (Stealth on Defense), 9 points
    status = page.locator("#unit-status .total")
    expect(status).to_have_text("9 points")
    expect(line(page, "stealth")).to_have_class("check-item ticked")
    expect(line(page, "ace").locator('input[name="n"]')).to_have_count(0)
    # One tap: Ace is bought, its N appears (1), the cost goes up by one.
    line(page, "ace").locator(".check-label input").click()
    expect(status).to_have_text("10 points")
    expect(line(page, "ace").locator('input[name="n"]')).to_have_value("1")
    line(page, "ace").locator('input[name="n"]').fill("2")
    expect(status).to_have_text("11 points")
    # One tap on a loadout upgrade, then its weapon system: Short fills, so Short-only choices grey.
    line(page, "piercing").locator(".check-label input").click()
    expect(status).to_have_text("12 points")
    expect(page.locator("#unit-status .violations")).to_contain_text("choose the weapon system")
    line(page, "piercing").locator('.optional input[type="checkbox"]').click()
    line(page, "piercing").locator('select[name="slot"]').select_option(json.dumps("short"))
    expect(page.locator("#unit-status .violations li")).to_have_count(0)
    # Untick Stealth (one tap): Defense is free again, so Chaff is no longer greyed.
    expect(line(page, "chaff")).to_have_class("check-item unfit")
    line(page, "stealth").locator(".check-label input").click()
    expect(line(page, "chaff")).to_have_class("check-item")
    expect(status).to_have_text("11 points")
    page.click("#save-unit")
    expect(page.locator("#squad-units .unit-row")).to_have_count(1)
    profile = saved_units(page)[0]["profile"]
    assert profile["upgrades"] == [
        {"id": "ace", "slot": None, "n": 2},
        {"id": "piercing", "slot": "short", "n": 1},
    ]


def test_a_further_form_has_its_own_checklist_without_pilot_upgrades(
    phone: BrowserContext, server: Server
) -> None:
    page = phone.new_page()
    build_squad(page, server, picks=0)
    add_book_unit(page, "Eagle VF")
    page.locator("#squad-units .unit-row a", has_text="Edit").click()
    expect(page.locator("#unit-status .total")).to_contain_text("points")
    second = page.locator('[data-field="forms"] .checklist[data-checklist="upgrades"]')
    expect(second).to_have_count(1)
    # Pilot upgrades go with the first form (L2258): greyed in the second, with the reason.
    ace = second.locator('.check-item[data-choice="ace"]')
    expect(ace).to_have_class("check-item unfit")
    expect(ace.locator(".unfit-reason")).to_have_text("Pilot upgrades go with the first form")
    first_ace = line(page, "ace")
    expect(first_ace).to_have_class("check-item")
    # The second form's own upgrades are ticked by name.
    expect(second.locator(".check-item.ticked .check-name")).to_have_text(["Agile", "Target Tracking"])
