"""MechaStellar at the table, in headless Chromium on a 390x844 phone: a sample battle starts from
the home screen in one tap, the round's roll-off is the first step offered, and a shot from the game
screen to the damage on the target's card takes at most 5 taps with no scrolling (counted)."""

from __future__ import annotations

import json
import re
from typing import Any

from conftest import BOOT_MS, PHONE, Server, apply_result, saved_game, unit_state
from playwright.sync_api import Browser, Page, expect
from qr_scan import decode_png, qr_shot
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


def design(page: Page, name: str, kind: str, stats: dict[str, str], weapons: list[dict[str, str]]) -> None:
    """The squad editor's unit designer: the form the system describes, filled as a player fills it."""
    page.click("#new-unit")
    form = page.locator(".schema-form").first
    expect(form).to_be_visible(timeout=30_000)
    form.locator('[data-field="name"] input').first.fill(name)
    form.locator('select[name="kind"]').first.select_option(f'"{kind}"')
    for field, value in stats.items():
        form.locator(f'[data-field="{field}"] input[name="{field}"]').first.fill(value)
    rows = form.locator('fieldset[data-field="weapons"] > div > .rows > .row-item')
    while rows.count():
        rows.first.locator('> button[aria-label^="Remove"]').click()
    for n, weapon in enumerate(weapons):
        form.locator('fieldset[data-field="weapons"] > div > .row-adders > button').click()
        row = rows.nth(n)
        for field, value in weapon.items():
            if field == "kind":
                row.locator('select[name="kind"]').select_option(f'"{value}"')
            else:
                row.locator(f'input[name="{field}"]').first.fill(value)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.click("#save-unit")
    expect(page.locator("#squad-units .unit-row .card-head", has_text=name)).to_be_visible(timeout=30_000)


def new_force(page: Page, server: Server, name: str) -> None:
    page.goto(server.url + "#/squads")
    page.select_option("#new-squad-system", "mechastellar")
    page.click("#new-squad")
    page.fill("#squad-name", name)
    page.locator("#squad-name").dispatch_event("change")


def answer(page: Page, faces: dict[str, list[str]], choices: dict[str, Any], default: str = "5") -> list[str]:
    """Tap the faces the app asks for (by a word of its prompt, in turn) and answer its questions
    (by a word of the question); returns the questions asked."""
    asked: list[str] = []
    for _ in range(60):
        shown = page.wait_for_selector("#action-prompt, #action-text, #action-ask", timeout=30_000)
        kind = shown.get_attribute("id")
        if kind == "action-text":
            return asked
        prompt = shown.inner_text()
        if kind == "action-ask":
            asked.append(prompt)
            value = next(v for word, v in choices.items() if word in prompt)
            shown.query_selector(f"[data-choice='{json.dumps(value)}']").click()  # type: ignore[union-attr]
        else:
            word = next((w for w in faces if w in prompt), "")
            face = (faces[word].pop(0) if len(faces[word]) > 1 else faces[word][0]) if word else default
            page.locator(f'#action-result [data-face="{face}"]').first.click()
        shown.wait_for_element_state("hidden", timeout=30_000)
    raise AssertionError("the action kept asking")


def test_designed_forces_shared_by_qr_shot_clash_momentum_offline(browser: Browser, server: Server) -> None:
    """A player's own walk: a mobile suit and a Super Titan designed in the squad editor, two forces,
    one shared by QR (decoded from the screen), a game: a shot whose evade dice give a critical
    (natural 1, two hits, L140) and whose Armor Saves fail one (1000 flat, L218-L223), Skill Defense
    paid in Momentum after the roll (L260-L264), a Melee Clash with both splits entered (L183-L214),
    then a reload in airplane mode: the game is all there."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(server.url + "#/squads")
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        # Force 1: a designed mobile suit (a rifle and a beam saber) and a sample of ours.
        new_force(page, server, "Rook Squadron")
        design(
            page,
            "Rook",
            "mobile_suit",
            {"accuracy": "8", "evade": "2", "melee": "6", "hp": "3000", "save": "2", "actions": "2"},
            [
                {"name": "Rail rifle", "kind": "shooting", "range": "30", "shots": "3", "damage": "500", "pen": "6"},
                {"name": "Beam saber", "kind": "melee", "range": "0", "shots": "0", "damage": "500", "pen": "6"},
            ],
        )
        page.locator('#catalogue [data-add="dervish"]').click()
        expect(page.locator("#squad-units .unit-row")).to_have_count(2)
        expect(page.locator("#squad-total")).to_contain_text("legal")
        # Force 2: a designed Super Titan (Power, a great fist) and a sample; shared by QR.
        new_force(page, server, "Titan Guard")
        design(
            page,
            "Colossus",
            "super_titan",
            {"evade": "1", "melee": "8", "hp": "5000", "save": "2", "power": "3", "size": "2"},
            [{"name": "Titan fist", "kind": "melee", "range": "0", "shots": "0", "damage": "500", "pen": "4"}],
        )
        page.locator('#catalogue [data-add="white_asura"]').click()
        expect(page.locator("#squad-units .unit-row")).to_have_count(2)
        expect(page.locator("#squad-total")).to_contain_text("legal")
        page.click("#share-squad")
        link = page.locator("#share-url").input_value()
        qr = page.locator("#share-qr")
        expect(qr).to_be_visible()
        assert decode_png(qr_shot(qr)) == [link]

        # The game: Rook Squadron against Titan Guard; the roll-off first (typed: 9 against 2).
        page.goto(server.url + "#/games")
        page.select_option("#side-0-squad", page.locator("#side-0-squad option", has_text="Rook Squadron").get_attribute("value"))
        page.select_option("#side-1-squad", page.locator("#side-1-squad option", has_text="Titan Guard").get_attribute("value"))
        page.click("#start-game")
        expect(page.locator(".unit-card")).to_have_count(4, timeout=30_000)
        step = page.locator("#phase-next")
        expect(step).to_have_attribute("data-step", "roll_off")
        step.click()
        page.click("#action-typed")
        for face in ("9", "2"):
            page.locator(f'#action-result [data-face="{face}"]').first.click(timeout=30_000)
        apply_result(page)
        momentum = page.locator("#res-1-momentum output")
        start = int(momentum.text_content() or "")

        # The shot: Rook's rail rifle at the Colossus, 3 evade dice against 8 - 1 = 7 (L136-L144).
        rook, colossus = "0/u1", "1/u1"
        card = page.locator(f'[data-unit="{colossus}"]')
        expect(card.locator(".dmg")).to_have_text("0/5000")
        page.locator(f'[data-unit="{rook}"] [data-act="shoot"]').click()
        page.locator(f'#targets [data-target="{colossus}"]').click()
        odds = page.locator("#odds-headline")
        expect(odds).to_be_visible(timeout=30_000)
        print("odds:", odds.inner_text())
        page.click("#action-typed")
        # Evade dice 1 (a critical: 2 hits), 4 (a hit), 9 (evaded): 3 hits; 1 Momentum of Skill
        # Defense stops one; 2 Armor Saves at PEN 6 - ARM 2 = 4+: a 2 fails, a 5 passes.
        asked = answer(page, {"vade": ["1", "4", "9"], "rmo": ["2", "5"]}, {"Momentum": 1, "Skill": 1})
        print("asked:", asked, page.locator("#action-text").inner_text())
        apply_result(page)
        # 2 hits x 500 + 1 failed save x 1000 = 2000 of 5000 on the Colossus's card.
        expect(card.locator(".dmg")).to_have_text("2000/5000")
        expect(momentum).to_have_text(str(start - 1))
        game = saved_game(page)
        assert unit_state(game, colossus)["damage"] == 2000

        # The Melee Clash: Rook's 6 dice split 4 attack / 2 defense, the Colossus's 8 asked: 4 / 4.
        page.locator(f'[data-unit="{rook}"] [data-act="melee"]').click()
        page.locator(f'#targets [data-target="{colossus}"]').click()
        split = page.locator('[data-pick-field="attack_dice"] [data-value="4"]')
        split.click()
        expect(split).to_have_attribute("aria-pressed", "true")
        expect(odds).to_be_visible(timeout=30_000)
        print("clash odds:", odds.inner_text())
        page.click("#action-typed")
        asked = answer(page, {}, {"split": 4, "plit": 4, "Momentum": 0, "Skill": 0, "": 0}, default="7")
        print("asked:", asked, page.locator("#action-text").inner_text())
        apply_result(page)
        after = saved_game(page)
        entry = after["log"][after["cursor"] - 1]
        assert entry["detail"]["input"]["attack_dice"] == 4
        assert entry["detail"]["input"]["defender_attack"] == 4
        shown = {ref: unit_state(after, ref) for ref in (rook, colossus)}
        for ref, state in shown.items():
            expect(page.locator(f'[data-unit="{ref}"] .dmg')).to_have_text(f"{state['damage']}/{state['max_damage']}")
        momenta = [page.locator(f"#res-{s}-momentum output").text_content() or "" for s in (0, 1)]
        log_top = page.locator("#game-log li").first.inner_text()

        context.set_offline(True)
        page.reload()
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        for ref, state in shown.items():
            expect(page.locator(f'[data-unit="{ref}"] .dmg')).to_have_text(f"{state['damage']}/{state['max_damage']}")
        expect(page.locator("#game-log li").first).to_have_text(log_top)
        for s in (0, 1):
            expect(page.locator(f"#res-{s}-momentum output")).to_have_text(momenta[s])
    finally:
        context.close()
