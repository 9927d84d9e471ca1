"""Skirmishers at the table on a 390x844 phone, counted in taps: the first step offered (who goes
first), a shot from the game screen to the marks on the target's card in at most 5 taps with no
scrolling, and reaction fire offered as a unit moves, in at most 3 taps."""

from __future__ import annotations

from typing import Any

from conftest import PHONE, Server, open_with_store, saved_game, type_dice, unit_state
from playwright.sync_api import Browser, Page, expect
from test_e2e_flow import Taps, assert_on_screen
from test_e2e_plain import every_sheet_reads_plain, raw_ids

from core import api
from core.systems.skirmishers import SAMPLES


def act(game: dict[str, Any], action: str, given: dict[str, Any], faces: list[int]) -> dict[str, Any]:
    reply = api.call("game.act", {"game": game, "action": action, "input": given, "faces": faces})
    assert reply["ok"], reply
    return dict(reply["result"]["game"])


def sk_store(first: bool = True) -> dict[str, Any]:
    """The two sample squads, five cards each: Red against Blue; Red goes first when ``first``."""

    def squad(n: int, name: str, keys: list[str]) -> dict[str, Any]:
        units = [
            {"key": f"u{i + 1}", "profile": SAMPLES[k].model_dump(mode="json")} for i, k in enumerate(keys)
        ]
        return {"id": f"s{n}", "name": name, "system": "skirmishers", "units": units}

    red = squad(1, "Red squad", [k for k in SAMPLES if k.startswith("red_")])
    blue = squad(2, "Blue squad", [k for k in SAMPLES if k.startswith("blue_")])
    sides = [{"name": "Red", "squad": red}, {"name": "Blue", "squad": blue}]
    game = api.call("game.new", {"id": "g1", "name": "Red vs Blue", "sides": sides})["result"]
    if first:
        game = act(game, "first_side", {"first": "first"}, [])
    return {"schema_version": 1, "squads": [red, blue], "units": [], "games": [game]}


def start(browser: Browser, server: Server, store: dict[str, Any]) -> tuple[Any, Page]:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    open_with_store(page, server.url + "#/game/g1", store)
    expect(page.locator(".unit-card")).to_have_count(10, timeout=60_000)
    return context, page


def test_the_first_step_is_offered_who_goes_first(browser: Browser, server: Server) -> None:
    context, page = start(browser, server, sk_store(first=False))
    try:
        step = page.locator("#phase-next")
        expect(step).to_have_text("Who goes first")
        tap = Taps(page)
        tap(step)
        tap(page.locator('[data-choice-field="first"] [data-value="second"]'))
        tap(page.locator("#action-roll"))
        expect(page.locator("#action-text")).to_contain_text("Blue goes first", timeout=30_000)
        tap(page.locator("#apply-result"))
        assert tap.count == 4
        expect(page.locator("#phase-strip [aria-current=step]")).to_have_text("Activations")
        assert saved_game(page)["state"]["active_side"] == 1
    finally:
        context.close()


def test_a_shot_marks_the_targets_card_in_four_taps(browser: Browser, server: Server) -> None:
    """Red's rifleman fires on the move at Blue's marksman; real dice 6+6 hit, 4+4 start at cell 8:
    the rifle's 4X crosses 8, 7, 6 and 5 (L306-L308), drawn on the card, in view."""
    context, page = start(browser, server, sk_store())
    try:
        tap = Taps(page)
        tap(page.locator('[data-unit="0/u2"] [data-act="fire"]'))
        targets = page.locator("#targets [data-target]")
        expect(targets).to_have_count(5)
        tap(page.locator('#targets [data-target="1/u3"]'))
        expect(page.locator("#odds-headline")).to_contain_text("Hit per shot", timeout=30_000)
        tap(page.locator("#action-typed"))
        type_dice(page, {"hit": "6", "cell": "4"})  # the faces of real dice, not taps of the app
        expect(page.locator("#action-text")).to_contain_text("1 of 1 hit", timeout=30_000)
        tap(page.locator("#apply-result"))
        assert tap.count == 4, tap.count
        card = page.locator('[data-unit="1/u3"]')
        grid = card.locator("table.cell-grid")
        crossed = grid.locator('td[data-mark="full"]')
        expect(crossed).to_have_count(4)
        expect(crossed.locator(".cell-text")).to_have_text(["8", "7", "6", "5"])
        expect(grid.locator("td.now .cell-text").first).to_have_text("4")
        assert_on_screen(grid)
        state = unit_state(saved_game(page), "1/u3")
        assert state["damage"] == 6 and state["extra"]["cells"] == [0, 0, 2, 2, 2, 2, 0, 0, 0, 0, 0]
        expect(card.locator(".cell-note")).to_contain_text("HP 4")
    finally:
        context.close()


def test_reaction_fire_is_offered_as_a_unit_moves_in_three_taps(browser: Browser, server: Server) -> None:
    store = sk_store()
    game = store["games"][0]
    game = act(game, "set_arc", {"unit": "0/u2", "size": "60"}, [])
    game = act(game, "end_turn", {}, [])
    store["games"] = [game]
    context, page = start(browser, server, store)
    try:
        expect(page.locator('[data-unit="0/u2"] .cell-note')).to_contain_text("60° arc Rifle (2 shots)")
        # Blue's marksman moves a dot (1 AP); the result offers the fire of Red's arc.
        page.locator('[data-unit="1/u3"] .card-toggle').click()
        page.locator('[data-unit="1/u3"] select.more-actions').select_option("move")
        expect(page.locator("#sheet-title")).to_contain_text("Move")
        page.click("#action-apply")
        offer = page.locator("#toast-offers [data-offer]")
        expect(offer).to_have_count(1, timeout=30_000)
        expect(offer).to_contain_text("Sample: Red Rifleman fires (Rifle)")
        tap = Taps(page)
        tap(offer)
        expect(page.locator("#sheet-title")).to_contain_text("Fire")
        tap(page.locator("#action-roll"))
        expect(page.locator("#action-text")).to_contain_text("reaction fire", timeout=30_000)
        tap(page.locator("#apply-result"))
        assert tap.count == 3
        shooter = unit_state(saved_game(page), "0/u2")
        assert shooter["extra"]["arcs"][0]["shots"] == 1
    finally:
        context.close()


def test_plain_words_on_the_skirmishers_screens(browser: Browser, server: Server) -> None:
    """No raw id on the game screen, in any action's sheet, the squad editor or a unit's form; the
    cards' cell grids read as the book prints them."""
    context, page = start(browser, server, sk_store())
    try:
        assert raw_ids(page) == set()
        pa = page.locator('[data-unit="1/u4"] table.cell-grid')
        expect(pa.locator("tr").first.locator("td")).to_have_count(19)  # 18 cells and DEAD (L821)
        expect(pa.locator("td.star")).to_have_count(3)
        assert every_sheet_reads_plain(page) >= 10
        page.goto(page.url.split("#")[0] + "#/squad/s2")
        expect(page.locator("#squad-units .unit-row")).to_have_count(5)
        assert raw_ids(page) == set()
        for key in ("u4", "u5"):  # the power-armor card and the vehicle card
            page.goto(page.url.split("#")[0] + f"#/unit/s2/{key}")
            expect(page.locator("#unit-status .total")).to_contain_text("points")
            found = raw_ids(page)
            assert found == set(), (key, found)
    finally:
        context.close()
