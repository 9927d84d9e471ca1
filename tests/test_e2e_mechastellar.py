"""MechaStellar at the table, in headless Chromium on a 390x844 phone: a sample battle starts from
the home screen in one tap, the round's roll-off is the first step offered, and a shot from the game
screen to the damage on the target's card takes at most 5 taps with no scrolling (counted)."""

from __future__ import annotations

import json
import re
from typing import Any

from conftest import BOOT_MS, PHONE, Server, apply_result, saved_game, seeded_dice, unit_state
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
        # No unit has activated yet: Next round is greyed with the reason (L26), not refused on a tap.
        expect(page.locator("#next-round")).to_be_disabled()
        expect(page.locator("#next-round")).to_have_attribute("title", re.compile(r"\S"))
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
        expect(page.locator("#toast")).to_contain_text(re.compile(r"evade dice \d+(, \d+)*( and \d+)?,"))
        assert_on_screen(page.locator("#toast"))
        # Plain words: no sheet of the game shows a raw id.
        assert every_sheet_reads_plain(page) >= 7
    finally:
        context.close()


MELEE_SEED = 1


def test_a_melee_clash_with_both_splits_in_at_most_eight_taps(browser: Browser, server: Server) -> None:
    """The Melee Clash from the game screen (L183-L214): Melee on the attacker's card, the target, the
    attacker's split of its dice as one button of its sheet (with its odds), Roll; the defender's
    player is asked its split (each answer with its odds), then any Skill Defense (L253); Apply.  At
    most 8 taps, none needing a scroll, on a 390x844 phone; the target's card shows the damage kept.
    Then a clash whose two splits are entered unseen, one of them on the player's own phone (L519).
    The dice are seeded: the second clash needs the White Asura alive after the first (3000 damage
    destroys it, and a destroyed unit owes no Return Fire)."""
    context = browser.new_context(**PHONE)
    seeded_dice(context, MELEE_SEED)
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
        # Finding 12: each split's odds say their second number is the average damage, an average in
        # the thousands without decimals; the chart's axis numbers ("1000") each whole on one line.
        expect(split.locator(".choice-odds")).to_have_text(re.compile(r"^\d+% · avg \d+$"), timeout=30_000)
        labels = page.locator("#odds-chart small")
        shown = [t for t in labels.all_inner_texts() if t]
        assert shown and any(len(t) >= 4 for t in shown), shown
        assert all("\n" not in t for t in shown), shown
        tall = labels.evaluate_all(
            "ls => ls.filter((l) => l.textContent && l.getBoundingClientRect().height"
            " > 1.6 * parseFloat(getComputedStyle(l).fontSize)).map((l) => l.textContent)"
        )
        assert tall == [], tall
        # Damage counts in hundreds: the full table lists only the results that can happen (issue 26),
        # and the headline's "any damage" is the chance of all but the first row (no damage).
        page.locator("#action-odds .odds-full summary").click()
        dealt = page.locator('#action-odds table[data-table="damage dealt"]')
        expect(dealt.locator("caption")).to_contain_text("only the results that can happen")
        first = dealt.locator("tbody tr").first.locator("td")
        assert first.nth(0).inner_text() == "0"
        no_damage = float(first.nth(1).inner_text().rstrip("%"))
        any_damage = page.locator('#odds-headline [data-key="any"] b').inner_text()
        assert abs(float(any_damage.rstrip("%")) + no_damage - 100) < 0.15, (any_damage, no_damage)
        assert 1 < dealt.locator("tbody tr").count() < 200
        page.locator("#action-odds .odds-full summary").click()
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
        assert not state["destroyed"], f"MELEE_SEED {MELEE_SEED} no longer leaves the White Asura standing"

        # The clash with both splits entered unseen (L519; digest ambiguity 37), in the same game: the
        # White Asura, owing Return Fire, declares it on the Blue Djinn; Asura Team's player splits on
        # their own phone through the secret-choice link (its QR scanned), Lancer Team's on this phone
        # behind "Show"; Melee then reveals both.
        # End turn asks nothing and rolls nothing: one tap, no sheet (finding 11).
        page.locator(f'[data-unit="{attacker}"] [data-act="end_turn"]').click()
        expect(page.locator("#game-log li").first).to_contain_text("Return Fire by Sample: White Asura")
        expect(page.locator("#action-panel")).to_have_count(0)
        page.locator(f'[data-unit="{target}"] .card-toggle').click()
        page.locator(f'[data-unit="{target}"] select.more-actions').select_option("secret_clash")
        page.locator(f'#targets [data-target="{attacker}"]').click()
        page.click("#action-apply")
        expect(page.locator("#game-log li").first).to_contain_text("splits its dice unseen", timeout=30_000)
        page.click("#remote-ask-1")
        request = page.locator("#remote-1-url").input_value()
        assert decode_png(qr_shot(page.locator("#remote-1-qr"))) == [request]
        guest = browser.new_context(**PHONE)
        phone = guest.new_page()
        phone.goto(request)
        expect(phone.locator("#remote-title")).to_contain_text("Asura Team", timeout=BOOT_MS)
        expect(phone.locator("[data-pick]")).to_have_count(10)  # 7 + 2 dice: 9 attack down to 0
        expect(phone.locator("body")).not_to_contain_text("Blue Djinn")  # only its own split travels
        phone.locator('[data-pick="0"][value="5"]').check()
        phone.click("#make-answer")
        reply = phone.locator("#answer-url").input_value()
        assert decode_png(qr_shot(phone.locator("#answer-qr"))) == [reply]
        guest.close()
        page.goto(reply)
        page.click("#apply-answer", timeout=BOOT_MS)
        expect(page.locator("#game-log li").first).to_have_text(
            "Sample: White Asura's player enters its split, unseen until the clash", timeout=BOOT_MS
        )
        expect(page.locator("#remote-ask-1")).to_have_count(0)
        holding = page.locator(f'[data-unit="{attacker}"] .holding')
        holding.locator("button.peek").click()  # Lancer Team's player looks, alone
        holding.locator('input[value="4"]').check()  # one tap keeps it
        expect(page.locator("#game-log li").first).to_have_text(
            "Sample: Blue Djinn's player enters its split, unseen until the clash", timeout=30_000
        )
        expect(page.locator("#game-log")).not_to_contain_text("5 attack")
        page.locator(f'[data-unit="{target}"] [data-act="melee"]').click()
        page.locator(f'#targets [data-target="{attacker}"]').click()
        page.click("#action-roll")
        while True:  # Skill Defense for the side(s) hit, if any (L253): take the hits
            shown = page.wait_for_selector("#action-text, #action-ask [data-choice]", timeout=30_000)
            if shown.get_attribute("id") == "action-text":
                break
            asked = page.locator("#action-ask").element_handle()
            page.locator('#action-ask [data-choice="0"]').click()
            asked.wait_for_element_state("hidden", timeout=30_000)
        expect(page.locator("#action-text")).to_contain_text(
            "Splits revealed: Sample: White Asura 5 attack / 4 defense, "
            "Sample: Blue Djinn 4 attack / 5 defense."
        )
        apply_result(page)
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
                {"name": "Rail rifle", "kind": "shooting", "shots": "3", "damage": "500", "pen": "6"},
                {"name": "Beam saber", "kind": "melee", "shots": "0", "damage": "500", "pen": "6"},
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
            [{"name": "Titan fist", "kind": "melee", "shots": "0", "damage": "500", "pen": "4"}],
        )
        page.locator('#catalogue [data-add="white_asura"]').click()
        expect(page.locator("#squad-units .unit-row")).to_have_count(2)
        expect(page.locator("#squad-total")).to_contain_text("legal")
        page.click("#share-squad")
        link = page.locator("#share-url").input_value()
        qr = page.locator("#share-qr")
        expect(qr).to_be_visible()
        assert decode_png(qr_shot(qr)) == [link]
        # The link the QR holds opens the force, as a friend's phone would.
        page.goto(link)
        expect(page.locator("#shared-name")).to_have_text("Titan Guard", timeout=30_000)

        # The game: Rook Squadron against Titan Guard; the roll-off first (typed: 9 against 2).
        page.goto(server.url + "#/games")
        for n, force in enumerate(("Rook Squadron", "Titan Guard")):
            squad = page.locator(f"#side-{n}-squad")
            squad.select_option(squad.locator("option", has_text=force).get_attribute("value"))
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
        # The Super Titan's card, as designed: its HP and save, its Power (L157-L167).
        profile = card.locator("details.profile")
        expect(profile.locator('dt:text-is("HP / ARM Sv") + dd')).to_have_text("5000 / +2")
        expect(profile.locator('dt:text-is("Power") + dd')).to_have_text("3")
        page.locator(f'[data-unit="{rook}"] [data-act="shoot"]').click()
        page.locator(f'#targets [data-target="{colossus}"]').click()
        odds = page.locator("#odds-headline")
        expect(odds).to_be_visible(timeout=30_000)
        # Enumerated by hand over the 1000 evade rolls and the saves: a die shows 1 (2 hits), 2-6
        # (1 hit) or 7+ (evaded), so any damage 1 - 0.4^3 = 93.6%; each hit 500 and up to 3 saves
        # failing on 1-3 (1000 each): mean 1644; 5000 or more 0.297% (L136-L144, L218-L223).
        expect(odds).to_have_text("Any damage 93.6% · mean 1644.00 · Destroyed 0.3%", timeout=30_000)
        page.click("#action-typed")
        # Evade dice 1 (a critical: 2 hits), 4 (a hit), 9 (evaded): 3 hits; 1 Momentum of Skill
        # Defense stops one; 2 Armor Saves at PEN 6 - ARM 2 = 4+: a 2 fails, a 5 passes.
        asked = answer(page, {"vade": ["1", "4", "9"], "rmo": ["2", "5"]}, {"Momentum": 1, "Skill": 1})
        assert asked == [
            "Colossus is hit 3 times: Skill Defense?\n\nTake 3 hits (as in the odds)\n"
            "Spend 1 Momentum: 2 hits left\nSpend 2 Momentum: 1 hit left\nSpend 3 Momentum: 0 hits left"
        ]
        expect(page.locator("#action-text")).to_have_text(
            "Rook fires Rail rifle at Colossus: evade dice 1, 4 and 9, 3 hits, 1 Momentum on Skill Defense; "
            "Armor Saves 2 and 5, 1 failed; 2000 damage"
        )
        apply_result(page)
        # 2 hits x 500 + 1 failed save x 1000 = 2000 of 5000 on the Colossus's card.
        expect(card.locator(".dmg")).to_have_text("2000/5000")
        expect(momentum).to_have_text(str(start - 1))
        game = saved_game(page)
        assert unit_state(game, colossus)["damage"] == 2000

        # The Melee Clash: Rook's 6 + 2 dice (L518) split 4 attack / 4 defense on its sheet; the
        # Colossus's player, asked after Roll, splits its 8 dice 4 / 4 too.
        page.locator(f'[data-unit="{rook}"] [data-act="melee"]').click()
        page.locator(f'#targets [data-target="{colossus}"]').click()
        split = page.locator('[data-pick-field="attack_dice"] [data-value="4"]')
        split.click()
        expect(split).to_have_attribute("aria-pressed", "true")
        clash_odds = re.compile(r"^Any damage dealt [\d.]+% · mean [\d.]+ · target destroyed [\d.]+%$")
        expect(odds).to_have_text(clash_odds, timeout=30_000)
        page.click("#action-typed")
        # Rook's attack 10 (a critical: 2 hits), 6, 3, 2: 3 hits, against blocks 5, 1, 1, 1: 1 block;
        # the Colossus's counterattack 5, 1, 1, 1: 1 hit, Rook's defense all 1s: none blocked (L190-L191,
        # L207).  No Skill Defense either way; the Colossus saves at PEN 6 - ARM 2 = 4+: 3 fails, 8
        # passes; Rook at 4 - 2 = 2+: 6 passes.
        faces = {
            "attacker's saves": ["6"],
            "defender's saves": ["3", "8"],
            "attacker's defense": ["1"],
            "counterattack": ["5", "1", "1", "1"],
            "defense": ["5", "1", "1", "1"],
            "attack": ["10", "6", "3", "2"],
        }
        asked = answer(page, faces, {"split": 4, "Skill": 0, "Momentum": 0})
        assert asked[0].startswith("Colossus's player splits its 8 dice"), asked
        split = "4 attack / 4 defense · deals ~502 back · 5% chance it is destroyed (as in the odds)"
        assert split in asked[0]
        assert asked[1:] == [
            "Colossus takes 2 hits in the clash: Skill Defense?\n\nTake 2 hits (as in the odds)\n"
            "Spend 1 Momentum: 1 left\nSpend 2 Momentum: 0 left",
            "Rook takes 1 hit in the clash: Skill Defense?\n\nTake 1 hit (as in the odds)\n"
            "Spend 1 Momentum: 0 left",
        ]
        expect(page.locator("#action-text")).to_have_text(
            "Rook clashes with Colossus: attack 10, 6, 3 and 2 vs defense 5, 1, 1 and 1, 2 through; "
            "counterattack 5, 1, 1 and 1 vs defense 1, 1, 1 and 1, 1 through. "
            "Colossus takes 2000, Rook takes 500"
        )
        apply_result(page)
        after = saved_game(page)
        entry = after["log"][after["cursor"] - 1]
        assert entry["detail"]["input"]["attack_dice"] == 4
        assert entry["detail"]["input"]["defender_attack"] == 4
        # 2 hits x 500 + 1 failed save x 1000 more on the Colossus; 1 hit x 500 on Rook.
        expect(card.locator(".dmg")).to_have_text("4000/5000")
        expect(page.locator(f'[data-unit="{rook}"] .dmg')).to_have_text("500/3000")
        # The attacker's side gains 1 Momentum for the melee (L246).
        expect(page.locator("#res-0-momentum output")).to_have_text(str(start + 1))
        shown = {ref: unit_state(after, ref) for ref in (rook, colossus)}
        momenta = [page.locator(f"#res-{s}-momentum output").text_content() or "" for s in (0, 1)]
        log_top = page.locator("#game-log li").first.inner_text()

        context.set_offline(True)
        page.reload()
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        for ref, state in shown.items():
            dmg = page.locator(f'[data-unit="{ref}"] .dmg')
            expect(dmg).to_have_text(f"{state['damage']}/{state['max_damage']}")
        expect(page.locator("#game-log li").first).to_have_text(log_top)
        for s in (0, 1):
            expect(page.locator(f"#res-{s}-momentum output")).to_have_text(momenta[s])
    finally:
        context.close()
