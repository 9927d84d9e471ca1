"""The table flow on a 390x844 phone, counted in taps: a GUNFRAME attack from the game
screen with one modifier, rolled by the app (or with real dice) and applied, without
the player scrolling; the odds on screen are the engine's; the bar stays at the bottom."""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import PHONE, Server, open_with_store, saved_game, typed_outcome, unit_state
from playwright.sync_api import Browser, Locator, Page, expect
from qr_scan import decode_png, qr_shot

from core import api

VIEW_W, VIEW_H = PHONE["viewport"]["width"], PHONE["viewport"]["height"]


def gunframe_store() -> dict[str, Any]:
    """Two squads of five of the book's units, and a game between them (ten cards)."""
    catalogue = api.call("system.describe", {"system": "gunframe"})["result"]["catalogue"]

    def squad(n: int, picks: list[int]) -> dict[str, Any]:
        units = [{"key": f"u{k + 1}", "profile": catalogue[i]["profile"]} for k, i in enumerate(picks)]
        return {"id": f"s{n}", "name": f"Squad {n}", "system": "gunframe", "units": units}

    red, blue = squad(1, [0, 3, 5, 7, 9]), squad(2, [1, 2, 4, 6, 8])
    sides = [{"name": "Red", "squad": red}, {"name": "Blue", "squad": blue}]
    game = api.call("game.new", {"id": "g1", "name": "Red vs Blue", "sides": sides})["result"]
    return {"schema_version": 1, "squads": [red, blue], "units": [], "games": [game]}


class Taps:
    """Taps as a player makes them: each on something already on screen (no scrolling), at its
    place on the glass."""

    def __init__(self, page: Page) -> None:
        self.page, self.count, self.faces = page, 0, 0

    def __call__(self, target: Locator, face: bool = False) -> None:
        expect(target).to_be_visible()
        assert_on_screen(target)
        # Tapped where it is: a player's tap does not scroll (the app may bring a result into view).
        box = target.bounding_box()
        assert box is not None
        self.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        if face:
            self.faces += 1
        else:
            self.count += 1


def assert_on_screen(target: Locator) -> None:
    box = target.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= VIEW_H, (box, "not within the viewport")
    assert box["x"] >= 0 and box["x"] + box["width"] <= VIEW_W, (box, "not within the viewport")


def pct(p: float) -> str:
    return "<0.1%" if 0 < p < 0.001 else f"{p * 100:.1f}%"


def start(browser: Browser, server: Server) -> tuple[Any, Page]:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    open_with_store(page, server.url + "#/game/g1", gunframe_store())
    expect(page.locator(".unit-card")).to_have_count(10)
    return context, page


def test_an_attack_rolled_by_the_app_in_five_taps(browser: Browser, server: Server) -> None:
    context, page = start(browser, server)
    try:
        before = saved_game(page)
        tap = Taps(page)
        tap(page.locator('[data-unit="0/u1"] [data-act="attack"]'))
        # Only the other side's units are offered, each under its side's name.
        targets = page.locator("#targets [data-target]")
        expect(targets).to_have_count(5)
        assert all(
            ref.startswith("1/") for ref in targets.evaluate_all("bs => bs.map(b => b.dataset.target)")
        )
        expect(page.locator("#targets .target-side > small")).to_have_text(["Blue"])
        tap(page.locator('#targets [data-target="1/u2"]'))
        tap(page.locator('[data-mod="rear"]'))
        expect(page.locator('[data-mod="rear"]')).to_have_attribute("aria-pressed", "true")

        # The headline odds are the engine's, exactly; the chart's bars stand in their proportions.
        attack = {"attacker": "0/u1", "target": "1/u2", "weapon": "short", "rear": True}
        odds = api.call("game.odds", {"game": before, "action": "attack", "input": attack})["result"]
        damage = odds["tables"]["damage"]
        any_damage = next(r["p_at_least"] for r in damage["rows"] if r["value"] == 1)
        headline = page.locator("#odds-headline")
        expect(headline.locator('[data-key="any"] b')).to_have_text(pct(any_damage))
        expect(headline.locator('[data-key="mean"] b')).to_have_text(f"{damage['p_mean']:.2f}")
        expect(headline.locator('[data-key="destroyed"] b')).to_have_text(pct(odds["facts"]["destroyed"]))
        expect(headline.locator('[data-key="power"] b')).to_have_text(
            f"{odds['tables']['power']['p_mean']:.2f}"
        )
        assert not re.search(r"\d+/\d+", headline.inner_text()), "no fractions next to the mean"
        bars = page.locator("#odds-chart .fill")
        expect(bars).to_have_count(len(damage["rows"]))
        heights = bars.evaluate_all("fs => fs.map(f => f.getBoundingClientRect().height)")
        top = max(r["p_exactly"] for r in damage["rows"])
        tallest = max(heights)
        for row, height in zip(damage["rows"], heights, strict=True):
            assert height == pytest.approx(row["p_exactly"] / top * tallest, abs=1.5), (row, height)
        # The weapon buttons carry their own odds.
        short = page.locator('[data-choice-field="weapon"] [data-value="short"] .choice-odds')
        expect(short).to_have_text(f"{round(any_damage * 100)}% · avg {damage['p_mean']:.1f}")

        tap(page.locator("#action-roll"))
        expect(page.locator("#action-text")).to_be_visible()
        tap(page.locator("#apply-result"))
        assert tap.count <= 5, tap.count
        assert tap.count == 5

        # What happened stays on screen, next to the card it changed, both in view.
        after = saved_game(page)
        state = unit_state(after, "1/u2")
        expected = f"{state['damage']}/{state['max_damage']}"
        card = page.locator('[data-unit="1/u2"]')
        expect(card.locator(".dmg")).to_have_text(expected)
        toast = page.locator("#toast")
        expect(toast).to_contain_text(after["log"][after["cursor"] - 1]["text"])
        if state["damage"]:
            expect(toast).to_contain_text(expected)
        assert_on_screen(toast)
        # The app rolls at random: hit or miss, the target's card is the one brought into view and
        # marked (a miss changes only the attacker, yet the result is read on the target's card).
        expect(card).to_have_class(re.compile(r"\bchanged\b"))
        assert_on_screen(card)
        assert_on_screen(page.locator("#toast-undo"))
        page.locator("#toast-undo").click()
        expect(card.locator(".dmg")).to_have_text(f"0/{state['max_damage']}")
    finally:
        context.close()


def test_an_attack_with_real_dice_in_five_taps_and_the_faces(browser: Browser, server: Server) -> None:
    context, page = start(browser, server)
    try:
        before = saved_game(page)
        tap = Taps(page)
        tap(page.locator('[data-unit="0/u1"] [data-act="attack"]'))
        tap(page.locator('#targets [data-target="1/u3"]'))
        tap(page.locator('[data-mod="charge"]'))
        tap(page.locator("#action-typed"))
        for _ in range(40):
            shown = page.wait_for_selector("#action-prompt, #action-text")
            if shown.get_attribute("id") == "action-text":
                break
            face = "6" if "attack" in shown.inner_text() else "2"
            tap(page.locator(f'#action-result [data-face="{face}"]').first, face=True)
            shown.wait_for_element_state("hidden")
        tap(page.locator("#apply-result"))
        assert tap.count == 5
        attack = {"attacker": "0/u1", "target": "1/u3", "weapon": "short", "charge": True}
        after = typed_outcome(before, "attack", attack, {"attack": "6"}, default="2")
        state = unit_state(after, "1/u3")
        assert tap.faces > 0
        card = page.locator('[data-unit="1/u3"]')
        expect(card.locator(".dmg")).to_have_text(f"{state['damage']}/{state['max_damage']}")
        assert_on_screen(card)
        assert_on_screen(page.locator("#toast"))
    finally:
        context.close()


def test_the_bar_stays_at_the_bottom(browser: Browser, server: Server) -> None:
    context, page = start(browser, server)
    try:
        for y in (0, 2000, 100000):
            page.evaluate(f"window.scrollTo(0, {y})")
            bar = page.locator("#game-bar").bounding_box()
            assert bar is not None and bar["y"] + bar["height"] == pytest.approx(VIEW_H, abs=1)
            for name in ("#undo", "#redo", "#next-round"):
                assert_on_screen(page.locator(name))
        # Nothing scrolls sideways.
        assert page.evaluate("document.documentElement.scrollWidth") <= VIEW_W
        # The game's share link, and its QR code scanning back to it.
        page.click("#share-game")
        link = page.locator("#share-url").input_value()
        assert link.startswith(server.url + "#/open/")
        expect(page.locator("#share-qr")).to_be_visible()
        assert decode_png(qr_shot(page.locator("#share-qr"))) == [link]
    finally:
        context.close()


def test_the_phase_strip_leads_through_the_turn(browser: Browser, server: Server) -> None:
    context, page = start(browser, server)
    try:
        expect(page.locator("#phase-strip li")).to_have_text(["Initiative", "Activation", "End phase"])
        expect(page.locator("#phase-strip li.now")).to_have_text("Initiative")
        expect(page.locator("#phase-next")).to_have_text("Initiative phase")
        assert_on_screen(page.locator("#phase-next"))
        page.click("#phase-next")
        expect(page.locator("#sheet-title")).to_have_text("Initiative phase")
        page.click("#action-roll")
        page.click("#apply-result")
        expect(page.locator("#phase-strip li.now")).to_have_text("Activation")
        expect(page.locator("#phase-hint")).to_be_visible()
        expect(page.locator("#phase-next")).to_have_count(0)
        # Every unit activated: the End phase is next.
        game = saved_game(page)
        for side in game["sides"]:
            for unit in side["units"]:
                unit["state"]["activated"] = True
        store = gunframe_store()
        store["games"] = [game]
        open_with_store(page, server.url + "#/game/g1", store)
        expect(page.locator("#phase-strip li.now")).to_have_text("End phase")
        expect(page.locator("#phase-next")).to_have_text("End phase")
    finally:
        context.close()


def test_a_game_too_long_for_a_qr_code_is_shared_without_its_log(browser: Browser, server: Server) -> None:
    """A long game's link holds more than a QR code can (2,953 bytes): the box says so in words and
    offers the game as it stands, whose code scans back to a link that opens that game."""
    store = gunframe_store()
    game = store["games"][0]
    for i in range(200):  # a long log of hand adjustments, texts that do not compress away
        change = {"path": ["sides", 1, "units", i % 5, "state", "damage"], "value": i % 3}
        game = api.call(
            "game.adjust", {"game": game, "changes": [change], "text": f"hit {i * 7919 % 10**6}"}
        )["result"]
    store["games"] = [game]
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        open_with_store(page, server.url + "#/game/g1", store)
        page.click("#share-game")
        expect(page.locator("#share-box")).to_contain_text(
            re.compile(r"too long for a QR code \(3,\d{3} characters")
        )
        expect(page.locator("#share-qr")).to_have_count(0)
        page.click("#share-short")
        expect(page.locator("#share-box")).to_contain_text("as it stands, without its log")
        link = page.locator("#share-url").input_value()
        assert decode_png(qr_shot(page.locator("#share-qr"))) == [link]
        opened = api.call("share.decode", {"token": link.split("#/open/")[1]})["result"]["game"]
        assert opened["sides"] == game["sides"] and opened["log"] == [] and opened["cursor"] == 0
    finally:
        context.close()
