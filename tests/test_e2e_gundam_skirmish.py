"""Mobile Suit Gundam: Skirmish at the table, on one phone, in headless Chromium.

Two armies of the app's sample units; the priority roll and a beam rifle shot with
real dice typed in (the <P> shot gets through the armour and the shield, the app
asks whether the target breaks its shield, a critical hit lands on the Arm); undo
and redo; reload in airplane mode: all still there.
"""

from __future__ import annotations

import re

from conftest import BOOT_MS, PHONE, Server, apply_result
from playwright.sync_api import Browser, Page, expect


def new_army(page: Page, server: Server, name: str, sample: str) -> None:
    page.goto(server.url + "#/squads")
    page.select_option("#new-squad-system", "gundam_skirmish")
    page.click("#new-squad")
    expect(page.locator("#squad-name")).to_be_visible()
    page.fill("#squad-name", name)
    page.locator("#squad-name").dispatch_event("change")
    page.locator(f'#catalogue [data-add="{sample}"]').click()
    expect(page.locator("#squad-units .unit-row")).to_have_count(1)
    expect(page.locator("#squad-total")).to_contain_text("legal")


def answer(page: Page, faces: dict[str, list[str]], choices: dict[str, str]) -> None:
    """Tap the faces the app asks for (by a word of its prompt, in turn) and answer its questions."""
    for _ in range(40):
        shown = page.wait_for_selector("#action-prompt, #action-text, #action-ask")
        kind = shown.get_attribute("id")
        if kind == "action-text":
            return
        prompt = shown.inner_text()
        if kind == "action-ask":
            value = next(v for word, v in choices.items() if word in prompt)
            shown.query_selector(f"[data-choice='\"{value}\"']").click()  # type: ignore[union-attr]
        else:
            word = next((w for w in faces if w in prompt), "")
            face = faces[word].pop(0) if word and len(faces[word]) > 1 else faces[word][0] if word else "1"
            page.locator(f'#action-result [data-face="{face}"]').first.click()
        shown.wait_for_element_state("hidden")
    raise AssertionError("the action kept asking")


def test_a_shot_with_real_dice_undo_offline(browser: Browser, server: Server) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(server.url)
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    new_army(page, server, "Feds", "lancer")
    new_army(page, server, "Zeon", "trooper")
    page.goto(server.url + "#/games")
    page.select_option("#side-0-squad", index=0)
    page.select_option("#side-1-squad", index=1)
    page.click("#start-game")
    expect(page.locator(".unit-card")).to_have_count(2)

    page.select_option("#action-pick", "priority")
    page.click("#action-typed")
    answer(page, {"priority": ["5", "2"]}, {})
    apply_result(page)
    page.select_option("#action-pick", "next_turn")
    page.click("#action-roll")
    apply_result(page)
    expect(page.locator("#game-status")).to_contain_text("Deathmatch")

    page.locator('[data-unit="0/u1"] [data-act="shoot"]').click()
    page.locator('#targets [data-target="1/u1"]').click()
    page.locator("#more-mods summary").click()
    page.locator('#action-panel [name="weapon"]').fill("Beam rifle")
    page.locator('#action-panel select[name="shield_break"]').select_option('"ask"')
    expect(page.locator("#action-odds")).to_contain_text("hits on 3+")
    page.click("#action-typed")
    answer(
        page,
        {"attack": ["6"], "armour": ["6"], "shield check": ["4"], "shield": ["6"], "Chart": ["3"]},
        {"shield": "no"},
    )
    expect(page.locator("#action-text")).to_contain_text("Arm Level 1")
    apply_result(page)
    target = page.locator('[data-unit="1/u1"]')
    expect(target).to_contain_text("3")
    expect(page.locator("#game-log li").first).to_contain_text("1 hit through, 3 damage, 1 critical")

    page.click("#undo")
    expect(page.locator("#game-log li.undone")).to_have_count(1)
    page.click("#redo")
    expect(page.locator("#game-log li.undone")).to_have_count(0)

    context.set_offline(True)
    page.reload()
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    expect(page.locator("#game-log li").first).to_contain_text(re.compile(r"Arm Level 1"))
    context.close()
