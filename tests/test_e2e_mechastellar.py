"""MechaStellar at the table, in headless Chromium on a 390x844 phone: a sample battle starts from
the home screen in one tap, the round's roll-off is the first step offered, and a shot from the game
screen to the damage on the target's card takes at most 5 taps with no scrolling (counted)."""

from __future__ import annotations

import re

from conftest import BOOT_MS, PHONE, Server, saved_game, unit_state
from playwright.sync_api import Browser, expect
from test_e2e_flow import Taps, assert_on_screen
from test_e2e_plain import every_sheet_reads_plain


def test_sample_battle_roll_off_and_a_shot_in_five_taps(browser: Browser, server: Server) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(server.url)
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        page.locator('[data-sample="mechastellar"]').click()
        expect(page.locator(".unit-card")).to_have_count(6, timeout=30_000)
        assert "Sample: Argonaut" in page.locator(".unit-card").first.inner_text()
        # The first step is offered: the round's roll-off, one button.
        step = page.locator("#phase-next")
        expect(step).to_have_attribute("data-step", "roll_off")
        step.click()
        # Real dice, so the first side is known: Lancer Team 9, Asura Team 2.  (On a 390x844 phone
        # the second side's cards of this six-unit battle sit below the fold: its player scrolls.)
        page.click("#action-typed")
        for face in ("9", "2"):
            page.locator(f'#action-result [data-face="{face}"]').first.click(timeout=30_000)
        expect(page.locator("#action-text")).to_contain_text("Lancer Team goes first", timeout=30_000)
        page.click("#apply-result")
        expect(page.locator("#game-log li").first).to_contain_text("Roll-off", timeout=30_000)
        game = saved_game(page)
        assert game["state"]["active_side"] == 0
        shooter, target = "0/u1", "1/u1"

        tap = Taps(page)
        tap(page.locator(f'[data-unit="{shooter}"] [data-act="shoot"]'))
        tap(page.locator(f'#targets [data-target="{target}"]'))
        expect(page.locator("#odds-headline")).to_be_visible(timeout=30_000)
        tap(page.locator("#action-roll"))
        shown = page.wait_for_selector("#action-text, [data-choice]", timeout=30_000)
        if shown.get_attribute("id") != "action-text":
            # Hits landed: the target's player decides on Skill Defense after the roll (L253).
            tap(page.locator("[data-choice]").first)
        expect(page.locator("#action-text")).to_be_visible(timeout=30_000)
        tap(page.locator("#apply-result"))
        assert tap.count <= 5, tap.count

        after = saved_game(page)
        state = unit_state(after, target)
        card = page.locator(f'[data-unit="{target}"]')
        expect(card.locator(".dmg")).to_have_text(f"{state['damage']}/{state['max_damage']}")
        expect(page.locator("#toast")).to_contain_text(re.compile(r"evade dice \["))
        assert_on_screen(page.locator("#toast"))
        # Plain words: no sheet of the game shows a raw id.
        assert every_sheet_reads_plain(page) >= 7
    finally:
        context.close()


def test_a_melee_clash_with_both_splits_in_at_most_eight_taps(browser: Browser, server: Server) -> None:
    """The Melee Clash from the game screen (L183-L214): Melee on the attacker's card, the target, the
    attacker's split of its dice as one button of its sheet (with its odds), Roll; the defender's
    player is asked its split (each answer with its odds), then any Skill Defense (L253); Apply.  At
    most 8 taps, none needing a scroll, on a 390x844 phone; the target's card shows the damage kept."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(server.url)
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        page.locator('[data-sample="mechastellar"]').click()
        expect(page.locator(".unit-card")).to_have_count(6, timeout=30_000)
        # Before the roll-off the cards' actions are greyed with the reason: the roll-off is offered.
        melee = page.locator('[data-unit="0/u2"] [data-act="melee"]')
        expect(melee).to_be_disabled()
        expect(melee).to_have_attribute("title", re.compile("roll off for the round first"))
        page.locator("#phase-next").click()
        page.click("#action-typed")
        for face in ("9", "2"):
            page.locator(f'#action-result [data-face="{face}"]').first.click(timeout=30_000)
        page.click("#apply-result")
        expect(page.locator("#game-log li").first).to_contain_text("Roll-off", timeout=30_000)
        attacker, target = "0/u2", "1/u2"  # Blue Djinn (Melee 9, +2 charging) and White Asura (Melee 7)
        # The Argonaut has no melee weapon: its Melee is greyed with the reason.
        expect(page.locator('[data-unit="0/u1"] [data-act="melee"]')).to_have_attribute(
            "title", "Sample: Argonaut has no melee weapon"
        )

        tap = Taps(page)
        tap(page.locator(f'[data-unit="{attacker}"] [data-act="melee"]'))
        tap(page.locator(f'#targets [data-target="{target}"]'))
        expect(page.locator("#odds-headline")).to_be_visible(timeout=30_000)
        split = page.locator('[data-pick-field="attack_dice"] [data-value="6"]')
        expect(split).to_contain_text("6 attack / 5 defense")
        tap(split)
        expect(split).to_have_attribute("aria-pressed", "true")
        expect(page.locator("#odds-headline")).to_be_visible(timeout=30_000)
        tap(page.locator("#action-roll"))
        ask = page.locator('#action-ask [data-choice="3"]')
        expect(ask).to_contain_text("3 attack / 4 defense", timeout=30_000)
        expect(ask).to_contain_text("as in the odds")
        asked = page.locator("#action-ask").element_handle()
        tap(ask)
        while True:  # Skill Defense for the side(s) hit, if any (L253): take the hits
            asked.wait_for_element_state("hidden", timeout=30_000)  # the question answered is gone
            shown = page.wait_for_selector("#action-text, #action-ask [data-choice]", timeout=30_000)
            if shown.get_attribute("id") == "action-text":
                break
            asked = page.locator("#action-ask").element_handle()
            tap(page.locator('#action-ask [data-choice="0"]'))
        tap(page.locator("#apply-result"))
        assert tap.count <= 8, tap.count

        after = saved_game(page)
        entry = after["log"][after["cursor"] - 1]
        assert entry["detail"]["input"]["attack_dice"] == 6
        assert entry["detail"]["input"]["defender_attack"] == 3
        state = unit_state(after, target)
        card = page.locator(f'[data-unit="{target}"]')
        expect(card.locator(".dmg")).to_have_text(f"{state['damage']}/{state['max_damage']}")
    finally:
        context.close()
