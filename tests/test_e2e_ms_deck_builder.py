"""The Mobile Suit Battles deck builder on a phone, against the built site and the real engine.

A player builds a mobile suit from the sample parts (frame, pilot, a weapon per slot,
boosters, generic cards), watching the counters; copies a sample booster into the card
editor, makes it their own (a bad initiative is refused with a message and loses
nothing), adds it and sees the deck go over twenty with its violations; unticks a
sample booster and the deck is legal again; saves it to the squad, whose unit card
shows the own card; reopens it in the builder, and hands it to the data form.
"""

from __future__ import annotations

import re

from conftest import BOOT_MS, Server
from playwright.sync_api import BrowserContext, Page, expect


def counter(page: Page, key: str) -> str:
    return f'#deck-counters li[data-key="{key}"] strong'


def test_build_a_deck_with_an_own_card_and_save_it(phone: BrowserContext, server: Server) -> None:
    page = phone.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + "#/squads")
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    page.select_option("#new-squad-system", "ms_battles")
    page.click("#new-squad")
    expect(page.locator("#squad-name")).to_be_visible()
    page.click("#new-unit")

    # The builder, not the generic form; an empty deck counts 0 of 20.
    expect(page.locator(counter(page, "total"))).to_have_text("0/20")
    expect(page.locator(".schema-form")).to_have_count(0)
    page.fill("#deck-name", "Glint / Tamsin Reyl")
    page.select_option("#deck-frame", "vessik")
    expect(page.locator("#frame-room")).to_contain_text("at most 20 cards")

    page.select_option("#deck-pilot", "Tamsin Reyl")
    expect(page.locator(counter(page, "pilot"))).to_have_text("4/4")
    page.select_option("#weapon-slot-0", "Shear Blade")
    page.select_option("#weapon-slot-1", "Harl Carbine")
    expect(page.locator(counter(page, "weapons"))).to_have_text("2/2 · 8 cards")
    for n in range(1, 7):
        page.check(f'#booster-picks input[value="BO-{n}"]')
    expect(page.locator(counter(page, "boosters"))).to_have_text("6/6")
    expect(page.locator('#deck-violations li[data-rule="deck-size"]')).to_contain_text("18 cards")
    page.check('#generic-picks input[value="GN-1"]')
    page.check('#generic-picks input[value="GN-2"]')
    expect(page.locator(counter(page, "total"))).to_have_text("20/20")
    expect(page.locator("#deck-status")).to_have_attribute("data-legal", "true")
    expect(page.locator("#deck-violations li")).to_have_count(0)

    # A frame value out of bounds: the engine's message, and the picks stay as they were.
    page.locator("#deck-frame + p + details > summary").click()
    page.fill('[name="frame-weapons"]', "11")
    expect(page.locator("#deck-status")).to_contain_text("frame weapon_slots")
    expect(page.locator("#deck-status")).not_to_have_attribute("data-legal", "true")
    expect(page.locator(counter(page, "total"))).to_have_text("20/20")
    page.fill('[name="frame-weapons"]', "2")
    expect(page.locator("#deck-status")).to_have_attribute("data-legal", "true")
    expect(page.locator("#weapon-slot-1")).to_have_value("Harl Carbine")

    # An own card: a copy of a sample booster, edited one field at a time.
    page.select_option("#copy-sample", "BO-1")
    editor = page.locator("#card-editor")
    expect(editor).to_be_visible()
    editor.locator('[name="card-name"]').fill("Flare Burst")
    editor.locator('[name="card-initiative"]').fill("99")
    editor.locator("#card-save").click()
    expect(page.locator("#card-error")).to_contain_text("initiative")
    expect(editor.locator('[name="card-name"]')).to_have_value("Flare Burst")  # nothing lost
    editor.locator('[name="card-initiative"]').fill("8")
    editor.locator('[name="card-movement"]').fill("1")
    editor.locator("#card-add-mark").click()
    editor.locator('[name="mark-zone"]').select_option("high")
    editor.locator('[name="mark-form"]').select_option("ranged")
    editor.locator('[name="mark-range"]').fill("4")
    editor.locator('[name="card-block"][value="low"]').check()
    editor.locator('[name="card-guard-break"]').check()
    editor.locator('[name="card-ability"]').fill("Blinds the target's sensors for a moment.")
    editor.locator("#card-add-effect").click()  # an effect the app applies by itself
    editor.locator('[name="effect-kind"]').select_option("partner_movement")
    editor.locator('[name="effect-amount"]').fill("2")
    editor.locator('[name="card-timing"]').select_option("on_reveal")
    editor.locator("#card-save").click()
    expect(page.locator("#card-editor")).to_have_count(0)
    own = page.locator("#own-cards .own-card")
    expect(own).to_have_count(1)
    expect(own).to_contain_text("ranged 4 high\u00d71")
    expect(own).to_contain_text("guard break")

    # 21 cards and 7 boosters: the counters and the violations say so...
    expect(page.locator(counter(page, "total"))).to_have_text("21/20")
    expect(page.locator('#deck-counters li[data-key="total"]')).to_have_attribute("data-state", "over")
    expect(page.locator(counter(page, "boosters"))).to_have_text("7/6")
    expect(page.locator('#deck-violations li[data-rule="deck-size"]')).to_contain_text("21 cards")
    booster_max = page.locator('#deck-violations li[data-rule="booster-max"]')
    expect(booster_max).to_contain_text("7 booster cards, but Vessik has 6 booster slots")
    expect(booster_max).not_to_contain_text("(L121)")  # rulebook lines only with the setting on
    # ...until a sample booster makes room.
    page.uncheck('#booster-picks input[value="BO-1"]')
    expect(page.locator(counter(page, "total"))).to_have_text("20/20")
    expect(page.locator("#deck-violations li")).to_have_count(0)
    expect(page.locator("#deck-status")).to_have_attribute("data-legal", "true")

    page.click("#deck-save")
    row = page.locator("#squad-units .unit-row")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("Glint / Tamsin Reyl")
    expect(row).to_contain_text("Flare Burst")
    expect(row.locator(".violations li")).to_have_count(0)
    expect(page.locator("#squad-total")).to_contain_text(re.compile(r"· legal$"))

    # Reopened, it is the same deck in the builder; "Edit as data" opens the generic form.
    row.get_by_text("Edit").click()
    expect(page.locator(counter(page, "total"))).to_have_text("20/20")
    expect(page.locator("#own-cards .own-card")).to_have_count(1)
    page.locator("#own-cards .own-card").get_by_text("Edit").click()
    expect(page.locator('#card-editor [name="effect-kind"]')).to_have_value("partner_movement")
    expect(page.locator('#card-editor [name="effect-amount"]')).to_have_value("2")
    expect(page.locator('#card-editor [name="card-timing"]')).to_have_value("on_reveal")
    page.click("#card-cancel")
    expect(page.locator('#booster-picks input[value="BO-1"]')).not_to_be_checked()
    expect(page.locator("#deck-frame")).to_have_value("vessik")
    page.click("#deck-as-data")
    expect(page.locator(".schema-form").first).to_be_visible()
    expect(page.locator("#unit-status")).to_contain_text("points")
    assert not errors, errors
