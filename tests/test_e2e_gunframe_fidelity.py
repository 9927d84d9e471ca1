"""GUNFRAME's Lucky reroll at the table (L2330), in Chromium with the built site and real Pyodide.

A saved game (a Lucky gunframe against a target with no Defense) is opened from the store; the
player types the attack dice, the app asks which of them Lucky rolls again, the player ticks one,
types its new face, and applies the result; then reload offline: it is all still there.
"""

from __future__ import annotations

import re

from conftest import BOOT_MS, Server, apply_result, open_with_store
from gunframe_table import mech, start
from playwright.sync_api import BrowserContext, expect


def test_lucky_asks_which_dice_to_roll_again(phone: BrowserContext, server: Server) -> None:
    game = start([mech("Lucky Lu", "lucky")], [mech("Target", defense=0)])
    store = {"schema_version": 1, "squads": [], "units": [], "games": [game.model_dump(mode="json")]}
    page = phone.new_page()
    open_with_store(page, server.url + f"#/game/{game.id}", store)

    # The unit's Attack opens the action sheet; Lucky is among its further modifiers.
    page.locator('[data-unit="0/a"] [data-act="attack"]').click()
    expect(page.locator("#sheet-title")).to_have_text("Attack: Lucky Lu")
    page.locator('#targets [data-target="1/t"]').click()
    page.locator('[data-choice-field="weapon"] [data-value="short"]').click()
    page.click("#more-mods summary")
    page.locator('#action-panel select[name="lucky"]').select_option('"attacker"')
    page.click("#action-typed")
    for face in ("1", "5", "4"):  # Short 3: three attack dice
        expect(page.locator("#action-prompt")).to_contain_text("attack")
        page.locator(f'#action-result [data-face="{face}"]').first.click()
    ask = page.locator("#action-ask")
    expect(ask).to_contain_text("Lucky Lu rolled 1, 5, 4. Which dice does its Lucky roll again?")
    expect(ask.locator("li")).to_have_text(
        [" Die 1: 1", " Die 2: 5", " Die 3: 4", " None: keep Lucky for later"], use_inner_text=True
    )
    ask.locator('input[data-choice="2"]').check()  # the 5, hoping for a 6
    page.click("#ask-confirm")
    expect(page.locator("#action-prompt")).to_contain_text("Roll 1 d6 for attack rerolls")
    page.locator('#action-result [data-face="6"]').first.click()
    expect(page.locator("#action-text")).to_have_text(
        "Lucky Lu hits Target with Short: 2 damage, 1 power point (Lucky: Lucky Lu rolls 1 attack die again)"
    )
    apply_result(page)
    target = page.locator('[data-unit="1/t"]')
    expect(target.locator(".stepper output").first).to_have_text(re.compile(r"^2 /"))

    phone.set_offline(True)
    page.reload()
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    expect(page.locator('[data-unit="1/t"] .stepper output').first).to_have_text(re.compile(r"^2 /"))
    expect(page.locator("#game-log li").first).to_contain_text("Lucky")
