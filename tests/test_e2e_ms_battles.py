"""Mobile Suit Battles at the table, on one shared phone, in headless Chromium.

Two decks from the app's sample set; the decks are shuffled with typed dice so
the hands are known (every die shows 1); each player looks at their own hand
only after tapping to show it, keeps two cards face down; the cards are
revealed and resolved by initiative: a ranged hit on the middle zone, a melee
hit high, then a guard-breaking blow that the defender must block with its
face-down Dig In. Then reload and airplane mode: all still there.
"""

from __future__ import annotations

import re

from conftest import BOOT_MS, PHONE, Server, apply_result, type_dice
from playwright.sync_api import Browser, BrowserContext, Page, expect
from qr_scan import decode_png, qr_shot


def new_squad(page: Page, server: Server, sample: int) -> None:
    page.goto(server.url + "#/squads")
    page.select_option("#new-squad-system", "ms_battles")
    page.click("#new-squad")
    expect(page.locator("#squad-name")).to_be_visible()
    page.locator("#catalogue [data-add]").nth(sample - 1).click()
    expect(page.locator("#squad-units .unit-row")).to_have_count(1)
    expect(page.locator("#squad-total")).to_contain_text(re.compile(r"· legal$"))


def act(page: Page, action: str, **fields: str) -> None:
    page.select_option("#action-pick", action)
    for name, value in fields.items():
        page.locator(f'#action-panel [name="{name}"]').first.select_option(value) if name in {
            "unit",
            "target",
        } else page.locator(f'#action-panel [name="{name}"]').fill(value)
    page.click("#action-roll")
    apply_result(page)


def resolve_next(page: Page, target: str) -> None:
    """Resolve the next card without naming it; answer the engine's question for a target."""
    page.select_option("#action-pick", "resolve_card")
    page.click("#action-roll")
    asked = page.locator("#action-ask")
    expect(asked).to_contain_text("attack")
    expect(asked.locator("[data-choice]")).to_have_count(2)  # the other suit, or no attack
    asked.locator(f"[data-choice='\"{target}\"']").click()
    apply_result(page)


def expect_zones(page: Page, ref: str, high: int, mid: int, low: int) -> None:
    """The unit card's damage by zone (high, mid, low)."""
    zones = page.locator(f'[data-unit="{ref}"] .counters output')
    expect(zones).to_have_text([str(high), str(mid), str(low)], timeout=BOOT_MS)


def plan(page: Page, ref: str, keep: list[str]) -> None:
    """The owner looks, taps two cards: they go face down at once (no button to confirm)."""
    card = page.locator(f'[data-unit="{ref}"]')
    hand = card.locator('.holding[data-section="Hand"]')
    expect(hand.locator(".items")).to_have_count(0)  # hidden until its owner looks
    hand.locator(".peek").click()
    expect(hand.locator('[data-bind="plan"]')).to_have_count(0)
    for card_id in keep[:-1]:
        hand.locator(f'input[value="{card_id}"]').check()
    # The last tap commits the plan and the hand goes away at once, so there is no box left whose
    # tick could be checked (check() would wait for it to come back); what it did is checked below.
    hand.locator(f'input[value="{keep[-1]}"]').click()
    expect(card.locator('.holding[data-section="Hand"]')).to_have_count(0)
    expect(card.locator('.holding[data-section^="Face"]').first).to_be_attached()  # down, or up if last


def drawn_game(page: Page, server: Server) -> None:
    """Two sample suits in a new game, set up with real dice (every die a 1, so the hands are
    known: the priority roll and both shuffles), and both hands drawn."""
    page.goto(server.url)
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    new_squad(page, server, 1)
    new_squad(page, server, 2)
    page.goto(server.url + "#/games")
    page.select_option("#side-0-squad", index=0)
    page.select_option("#side-1-squad", index=1)
    page.click("#start-game")
    expect(page.locator(".unit-card")).to_have_count(2)
    page.select_option("#action-pick", "setup")
    expect(page.locator("#action-panel")).not_to_contain_text("0 = first")
    expect(page.locator("#action-typed")).to_have_text("I shuffle with real dice")
    page.click("#action-typed")
    type_dice(page)
    apply_result(page)
    act(page, "draw")


def test_a_turn_on_a_shared_phone(phone: BrowserContext, server: Server) -> None:
    page = phone.new_page()
    drawn_game(page, server)

    plan(page, "0/u1", ["SB-1", "TR-3"])
    expect(page.locator("#game-log")).not_to_contain_text("Rising Cut")  # the plan stays secret
    plan(page, "1/u1", ["HB-2", "HB-3"])
    # both have chosen: every card turns face up at once (L75)
    expect(page.locator("#game-log li").first).to_contain_text("Rising Cut")

    # "Resolve card" with nothing named takes the next card by initiative and asks for its target.
    resolve_next(page, target="0/u1")
    expect(page.locator("#game-log li").first).to_contain_text("Hollis Brack resolves")
    resolve_next(page, target="1/u1")
    # The last card is picked on the suit's card, which fills the resolve form.
    face_up = page.locator('[data-unit="0/u1"] .holding', has_text="resolves next")
    face_up.locator('input[value="TR-3"]').check()
    face_up.locator('[data-prefill="resolve_card"]').click()
    expect(page.locator('#action-panel [name="card"]')).to_have_count(0)  # no card id to type
    expect(page.locator("#action-panel")).not_to_contain_text("0 = first")
    page.locator('#action-panel [name="target"]').select_option("1/u1")
    # Resolving it rolls nothing here (the engine needs no die for it): Apply alone, applied at once.
    page.click("#action-apply")
    expect(page.locator("#action-panel")).to_have_count(0)
    expect(page.locator("#game-log li").first).to_contain_text("blocks with Dig In")
    expect_zones(page, "0/u1", 0, 1, 0)
    expect_zones(page, "1/u1", 1, 1, 0)

    page.reload()
    expect_zones(page, "1/u1", 1, 1, 0)
    phone.set_offline(True)
    page.reload()
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    expect_zones(page, "1/u1", 1, 1, 0)
    page.click("#undo")
    expect(page.locator("#game-log li.undone")).to_have_count(1)
    expect_zones(page, "1/u1", 1, 0, 0)


def test_planning_on_two_phones(browser: Browser, server: Server) -> None:
    """The guest keeps their cards on their own phone: a request link out, an answer link back."""
    table = browser.new_context(**PHONE)
    guest = browser.new_context(**PHONE)
    page = table.new_page()
    drawn_game(page, server)
    game_url = page.url

    page.click("#remote-ask-1")
    request = page.locator("#remote-1-url").input_value()
    expect(page.locator("#remote-1-qr")).to_be_visible()
    assert decode_png(qr_shot(page.locator("#remote-1-qr"))) == [request]  # the QR scans to the link

    phone = guest.new_page()
    phone.goto(request)
    expect(phone.locator("#remote-title")).to_contain_text("Player 2", timeout=BOOT_MS)
    expect(phone.locator("[data-pick]")).to_have_count(5)  # side 1's hand, and nothing of side 0's
    expect(phone.locator("body")).not_to_contain_text("Rising Cut")
    phone.click("#make-answer")
    expect(phone.locator("#remote-answer .error")).to_contain_text("pick exactly 2")
    phone.locator('[data-pick="0"][value="HB-2"]').check()
    phone.locator('[data-pick="0"][value="HB-3"]').check()
    phone.click("#make-answer")
    answer = phone.locator("#answer-url").input_value()
    expect(phone.locator("#answer-qr")).to_be_visible()
    assert decode_png(qr_shot(phone.locator("#answer-qr"))) == [answer]

    page.goto(answer)
    page.click("#apply-answer", timeout=BOOT_MS)  # an answer changes a saved game: asked first
    # face down, on the folded card's hidden part (nothing to act on there)
    expect(page.locator('[data-unit="1/u1"] .holding[data-section="Face down"]')).to_be_attached(
        timeout=BOOT_MS
    )
    expect(page.locator("#remote-ask-1")).to_have_count(0)  # nothing left for side 1 to choose
    expect(page.locator("#game-log")).not_to_contain_text("Suppressing Fire")  # still secret on the table
    page.goto(answer)  # the same answer again: refused, the game kept as it is
    page.click("#apply-answer")
    expect(page.locator("#open-error")).to_contain_text("earlier moment")
    page.goto(game_url)
    plan(page, "0/u1", ["SB-1", "TR-3"])
    expect(page.locator("#game-log li").first).to_contain_text("Suppressing Fire")
    table.close()
    guest.close()


def test_a_card_resolved_with_a_block_in_four_taps_after_planning(
    phone: BrowserContext, server: Server
) -> None:
    """The phase strip shows where the turn is and offers its next step as the obvious button."""
    page = phone.new_page()
    drawn_game(page, server)
    expect(page.locator("#phase-strip li.now")).to_have_text("Plan")
    plan(page, "0/u1", ["TR-3", "SB-2"])
    plan(page, "1/u1", ["HB-3", "HB-4"])  # both have chosen: face up at once (L75)
    expect(page.locator("#game-log li").first).to_contain_text("Low Sweep")
    expect(page.locator("#phase-strip li.now")).to_have_text("Resolve")

    taps = 0
    # the next card by initiative, Low Sweep, asks whom it attacks at once: no button to find first
    asked = page.locator("#phase-ask")
    expect(asked).to_contain_text("Low Sweep")
    asked.locator("[data-choice='\"1/u1\"']").click()
    taps += 1
    expect(page.locator("#game-log li").first).to_contain_text("blocks with Dig In")
    expect(page.locator("#toast")).to_contain_text("blocks with Dig In")
    assert taps <= 4
    expect_zones(page, "1/u1", 0, 0, 0)  # the block stopped it (L91)
    page.click("#toast-undo")
    expect(page.locator("#game-log li.undone")).to_have_count(1)
    expect(page.locator("#phase-strip li.now")).to_have_text("Resolve")
