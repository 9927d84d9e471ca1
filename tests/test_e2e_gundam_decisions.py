"""Gundam Skirmish in Chromium: the target's player decides after the roll (L713-L719, L1121-L1128).

The Gun Tank's turret cannon (2 shots on 4+, critical on 6, 2 DAM) fires at a Trooper with a light
shield; real dice typed in: a 6 and a 4 hit, one armour die blocks. The sheet then shows the
target's question, one button per outcome (which hit the block takes; keep or break the shield),
the option the odds assumed marked. The player breaks the shield: the card shows half the damage,
the shield gone and no Damage Chart result.
"""

from __future__ import annotations

from conftest import BOOT_MS, PHONE, Server, apply_result
from playwright.sync_api import Browser, expect
from test_e2e_gundam_skirmish import answer, two_armies


def test_defender_breaks_its_shield_after_seeing_the_roll(browser: Browser, server: Server) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    two_armies(page, server, "gun_tank", "trooper")
    page.select_option("#action-pick", "priority")
    page.click("#action-typed")
    # Feds win priority and take the first turn, which begins at once (L278-L282)
    answer(page, {"priority": ["5", "2"]}, {"priority roll": [1]})
    apply_result(page)

    page.locator('[data-unit="0/u1"] [data-act="shoot"]').click()
    page.locator('#targets [data-target="1/u1"]').click()
    # The decisions are not asked before the roll; the odds say what they assume.
    expect(page.locator('#action-panel [name="shield_break"]')).to_have_count(0)
    page.locator("#action-odds .odds-full summary").click()
    expect(page.locator("#action-odds .summary")).to_contain_text("keeps its shield")
    page.click("#action-typed")
    faces = {"attack": ["6", "4"], "armour": ["5", "1"], "shield": ["1"]}
    for _ in range(12):  # the faces the app asks for, in turn, until the target's question shows
        shown = page.wait_for_selector("#action-prompt, #action-ask")
        if shown.get_attribute("id") == "action-ask":
            break
        word = next(w for w in faces if w in shown.inner_text())
        page.locator(f'#action-result [data-face="{faces[word].pop(0)}"]').first.click()
        if not faces[word]:
            del faces[word]
        shown.wait_for_element_state("hidden")
    assert not faces, f"faces not asked for: {faces}"

    ask = page.locator("#action-ask")
    expect(ask.locator(".prompt")).to_have_text(
        "Trooper's player decides. Attack 6, 4, defence 5, 1, 1: 1 hit through for 2 damage; "
        "the blocks may leave 0 to 1 of its criticals."
    )
    expect(ask.locator("button")).to_have_text(
        [
            "Keep the shield, 0 criticals left, 2 damage, no chart roll (as in the odds)",
            "Keep the shield, 1 critical left, 2 damage, 1 chart roll",
            "Break the shield: 1 damage, no chart roll",
        ]
    )
    ask.locator("button", has_text="Break the shield").click()
    expect(page.locator("#action-text")).to_contain_text(
        "Shield Break: 1 damage, no chart roll, the shield is gone"
    )
    apply_result(page)

    target = page.locator('[data-unit="1/u1"]')
    expect(target.locator(".dmg")).to_have_text("1/6")
    expect(target.locator(".badges")).to_contain_text("Shield broken")
    target.locator(".card-toggle").click()
    for counter in ("leg", "arm", "head", "shield"):
        expect(target.locator(f"#ctr-1-u1-{counter} output")).to_have_text("0")
    expect(target.locator(".badges")).not_to_contain_text("Morale check due")
    context.close()


def test_designer_builds_a_mega_unit(browser: Browser, server: Server) -> None:
    """The unit form drawn from the profile's schema lets a player make a Mega Unit (L1309-L1319): a row of
    parts from a ready-made split, the sheet's Integrity and Armour set to match, the cost by the formula."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(server.url + "#/squads")
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    page.select_option("#new-squad-system", "gundam_skirmish")
    page.click("#new-squad")
    page.fill("#squad-name", "Casual")
    page.locator("#squad-name").dispatch_event("change")
    page.click("#new-unit")
    form = page.locator(".schema-form").first
    form.locator('[data-field="name"] input').first.fill("Big Zaku")
    form.locator('select[data-presets="mega"]').select_option(
        label="18 Integrity: Head 3, Arms 4, Torso 8, Legs 3"
    )
    parts = form.locator('fieldset[data-field="mega"] .row-item')
    expect(parts).to_have_count(1)
    for name, value in {"head": "3", "arms": "4", "torso": "8", "legs": "3"}.items():
        expect(parts.locator(f'input[name="{name}"]')).to_have_value(value)
    status = page.locator("#unit-status")
    # The sheet still says Integrity 6 and Armour 3: the engine says what a Mega Unit needs.
    expect(status.locator(".violations")).to_contain_text("a Mega Unit has Armour 5")
    expect(status.locator(".violations")).to_contain_text("set it to 18")
    form.locator('input[name="integrity"]').fill("18")
    form.locator('[data-field="armour"] input[name="dice"]').fill("5")
    form.locator('select[name="shield"]').select_option('"none"')
    expect(status.locator(".violations li")).to_have_count(0)
    # (4 Move + 18 Integrity + 5 Armour) x 10 (L2758-L2765)
    expect(status.locator(".total")).to_have_text("270 points")
    page.click("#save-unit")
    expect(page.locator("#squad-units .unit-row .card-head")).to_contain_text("Big Zaku")
    expect(page.locator("#squad-units .unit-row .cost")).to_have_text("270 pts")
    context.close()
