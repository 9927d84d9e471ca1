"""Skirmishers at the table on a 390x844 phone, counted in taps: the first step offered (who goes
first), a shot from the game screen to the marks on the target's card in at most 5 taps with no
scrolling, and reaction fire offered as a unit moves (Move on its card, its AP one tap), in at most
3 taps; a power-armor card and a vehicle card filled in, shared by QR, driven into a failed control
check, fired at with a modifier, still there after an offline reload."""

from __future__ import annotations

from typing import Any

from conftest import BOOT_MS, PHONE, Server, open_with_store, saved_game, type_dice, unit_state
from playwright.sync_api import Browser, Page, expect
from qr_scan import decode_png, qr_shot
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


def test_the_sample_battle_starts_at_once_and_offers_who_goes_first(browser: Browser, server: Server) -> None:
    """From the home screen: the sample battle's one tap starts a game of the two sample squads
    (L910-L996 prints blank cards), whose first step, who goes first (L73), is offered; a throw's
    distance is asked up front and the End of turn step names the explosive that goes off next."""
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(server.url)
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        page.locator('[data-sample="skirmishers"]').click()
        expect(page.locator(".unit-card")).to_have_count(10, timeout=30_000)
        expect(page.locator(".unit-card").first).to_contain_text("Sample: Red Sergeant")
        step = page.locator("#phase-next")
        expect(step).to_have_text("Who goes first")
        tap = Taps(page)
        tap(step)
        second = page.locator('[data-choice-field="first"] [data-value="second"]')
        expect(second).to_have_text("Blue squad")  # the side's name, not "second side"
        # Picking a side rolls nothing: applied by that tap (no "Roll for me" for a pick, finding 11).
        tap(second)
        expect(page.locator("#toast-text")).to_contain_text("Blue squad goes first", timeout=30_000)
        expect(page.locator("#action-panel")).to_have_count(0)
        assert tap.count == 2
        expect(page.locator("#phase-strip [aria-current=step]")).to_have_text("Activations")
        assert saved_game(page)["state"]["active_side"] == 1
        # Blue's trooper takes its satchel charge (3 AP) and throws it 2 dots (2 AP a dot, L192).
        more_action(page, "1/u2", "change_weapon")
        page.locator('#action-panel [data-pick-field="weapon"] button', has_text="Satchel").click()
        page.click("#action-apply")
        expect(page.locator("#game-log li").first).to_contain_text("switches to Satchel Charge")
        more_action(page, "1/u2", "throw")
        expect(page.locator("#more-mods")).to_have_count(1)
        dots = page.locator('#action-panel [data-field="dots"] input')
        assert_on_screen(dots)  # how far is asked up front, not behind More modifiers
        dots.fill("2")
        dots.dispatch_event("change")
        page.click("#action-apply")
        expect(page.locator("#game-log li").first).to_contain_text("(4 AP, TN 4")
        expect(page.locator("#phase-hint, .phase-hint").first).to_contain_text(
            "Next: Sample: Blue Trooper's Satchel Charge at the aimed dot, TN 4."
        )
        expect(step).to_have_text("Resolve explosive")
        step.click()  # its chance of landing, alone: a yes-or-no has no mean to show
        expect(page.locator("#sheet-title")).to_have_text("Resolve explosive: Sample: Blue Trooper")
        expect(page.locator("#odds-headline")).to_have_text("On target 91.7%", timeout=30_000)  # 4+ on 2D6
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
        # Blue's marksman moves across an obstruction (2 AP) from its card's Move, the AP one of
        # the buttons 1 to 8 (at most 8 AP on movement, L215): 3 taps, no keyboard; the result
        # offers the fire of Red's arc.
        page.locator('[data-unit="1/u3"]').scroll_into_view_if_needed()  # Blue's cards are below Red's
        tap = Taps(page)
        tap(page.locator('[data-unit="1/u3"] [data-act="move"]'))
        expect(page.locator("#sheet-title")).to_contain_text("Move")
        ap = page.locator('[data-pick-field="ap"] button')
        expect(ap).to_have_count(8)
        expect(ap.nth(7)).to_contain_text("8 AP")
        expect(page.locator("#action-panel input")).to_have_count(0)
        two = page.locator('[data-pick-field="ap"] [data-value="2"]')
        tap(two)
        expect(two).to_have_attribute("aria-pressed", "true")
        tap(page.locator("#action-apply"))
        assert tap.count == 3
        offer = page.locator("#toast-offers [data-offer]")
        expect(offer).to_have_count(1, timeout=30_000)
        expect(offer).to_contain_text("Sample: Red Rifleman fires (Rifle)")
        mover = unit_state(saved_game(page), "1/u3")
        assert mover["extra"]["ap_spent"] == 2 and mover["extra"]["ap_moved"] == 2
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
        # The list says what it holds (our samples: the book prints blank cards), values in the
        # book's PV (its weapon tables' column, AMB-1), a weaponless bike's 0 PV explained.
        expect(page.locator("#book summary")).to_have_text("Sample units made by this app (10)")
        expect(page.locator("#squad-total")).to_contain_text(" PV")
        bike = page.locator('[data-catalogue-id="red_scout"] .cost')
        expect(bike).to_contain_text("0 PV")
        expect(bike.locator(".cost-why")).to_have_text("no weapons: the book gives PV to weapons only")
        assert bike.bounding_box()["x"] + bike.bounding_box()["width"] <= 390  # type: ignore[index]
        # rifle 159 + pistol 13 + four grenades 44 (L143, L157, L187)
        expect(page.locator('[data-catalogue-id="red_rifle"] .cost')).to_have_text("216 PV")
        for key in ("u4", "u5"):  # the power-armor card and the vehicle card
            page.goto(page.url.split("#")[0] + f"#/unit/s2/{key}")
            expect(page.locator("#unit-status .total")).to_contain_text(" PV")
            found = raw_ids(page)
            assert found == set(), (key, found)
    finally:
        context.close()


def fill_card(page: Page, name: str, fields: dict[str, str]) -> None:
    """A new card in the squad editor: its name and its selects (values as the form sends them)."""
    page.click("#new-unit")
    expect(page.locator("#unit-status")).to_contain_text(" PV")  # the book's word (AMB-1)
    form = page.locator(".schema-form").first
    form.locator('[data-field="name"] input').first.fill(name)
    for field, value in fields.items():
        form.locator(f'select[name="{field}"]').select_option(f'"{value}"')


def more_action(page: Page, ref: str, action: str) -> None:
    card = page.locator(f'[data-unit="{ref}"]')
    if card.locator("select.more-actions").is_hidden():
        card.locator(".card-toggle").click()
    card.locator("select.more-actions").select_option(action)
    expect(page.locator("#action-panel")).to_be_visible()


def test_cards_shared_by_qr_a_vehicle_wipes_out_a_shot_with_cover_offline(
    browser: Browser, server: Server
) -> None:
    home = browser.new_context(**PHONE)
    page = home.new_page()
    page.goto(server.url + "#/squads")
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    page.select_option("#new-squad-system", "skirmishers")
    page.click("#new-squad")
    page.fill("#squad-name", "Strike team")
    page.locator("#squad-name").dispatch_event("change")
    # The power-armor card (L817-L877): heavy suit, machine gun and missile, a pistol; PV 210 + 583 + 13.
    fill_card(page, "Iron Hawk", {"kind": "power_armor", "suit": "heavy", "primary": "pa_mg",
                                  "primary2": "pa_atm", "secondary": "pistol"})  # fmt: skip
    expect(page.locator("#unit-status .total")).to_have_text("806 PV")
    page.click("#save-unit")
    expect(page.locator("#squad-units .unit-row")).to_have_count(1)
    # The vehicle card (L613-L662): the assault profile, two light machine guns forward.
    fill_card(page, "Dust Runner", {"kind": "vehicle", "vehicle": "assault"})
    expect(page.locator("#unit-status .total")).to_have_text("300 PV")
    page.click("#save-unit")
    page.locator('#catalogue [data-add="red_rifle"]').click()
    expect(page.locator("#squad-units .unit-row")).to_have_count(3)
    page.click("#share-squad")
    link = page.locator("#share-url").input_value()
    assert decode_png(qr_shot(page.locator("#share-qr"))) == [link]
    home.close()

    other = browser.new_context(**PHONE)
    try:
        page = other.new_page()
        page.goto(link)
        expect(page.locator("#play-shared")).to_be_visible(timeout=BOOT_MS)
        # the shared squad's values in the book's PV: 806 + 300 + the rifleman's 216
        expect(page.locator('#shared-units [data-key="u1"] .card-head')).to_contain_text("806 PV")
        expect(page.locator("#shared-name + p")).to_contain_text("1322 PV")
        page.click("#play-shared")
        page.click("#play-choose-later")
        page.click("#start-game")
        expect(page.locator(".unit-card")).to_have_count(6)
        page.click("#phase-next")
        page.click('[data-choice-field="first"] [data-value="first"]')
        expect(page.locator("#toast-text")).to_contain_text("goes first", timeout=30_000)
        # The rifleman mounts the bike (2 AP) and switches it on (1 AP) (L679-L680).
        more_action(page, "0/u3", "ride")
        page.locator('#action-panel [data-pick-field="vehicle"] button', has_text="Dust Runner").click()
        page.click("#action-apply")
        expect(page.locator("#game-log li").first).to_contain_text("mounts Dust Runner as its driver")
        more_action(page, "0/u3", "ride")
        page.click('#action-panel [data-choice-field="what"] [data-value="switch_on"]')
        page.click("#action-apply")
        expect(page.locator("#game-log li").first).to_contain_text("switches Dust Runner on")
        # Max mode needs 5 AP; the rifleman has 4 left: greyed with the reason (L684).
        more_action(page, "0/u2", "drive")
        expect(
            page.locator('#action-panel [data-field="mode"] select option[value=\'"max"\']')
        ).to_be_disabled()
        expect(page.locator('#action-panel [data-field="mode"]')).to_contain_text("Max needs 5 AP")
        page.click('#action-panel [data-choice-field="step"] [data-value="start"]')
        page.click("#action-roll")
        expect(page.locator("#action-text")).to_contain_text("start, 2 dots", timeout=30_000)
        page.click("#apply-result")
        # A 120-degree turn: control check at 6 + handling 1; real dice 1 and 1: it wipes out (L711-L748).
        more_action(page, "0/u2", "drive")
        page.click('#action-panel [data-choice-field="step"] [data-value="turn120"]')
        page.click("#action-typed")
        type_dice(page, {}, default="1")
        expect(page.locator("#action-text")).to_contain_text("TN 7 (120° turn 6, handling +1)")
        expect(page.locator("#action-text")).to_contain_text("wipes out")
        page.click("#apply-result")
        offers = page.locator("#toast-offers [data-offer]")
        expect(offers).to_have_count(1, timeout=30_000)
        offers.first.click()  # the skid ends clear: 1X to the bike (its armor) and its rider (L757, L742)
        # The engine needs no die for it here (game.act given none completes): Apply alone, no roll.
        expect(page.locator("#action-roll, #action-typed")).to_have_count(0, timeout=30_000)
        page.click("#action-apply")
        expect(page.locator("#toast-text")).to_contain_text("1 armor cell lost", timeout=30_000)
        # The power armor fires on the move at the other side's rifleman behind one obstruction (+1).
        page.locator('[data-unit="0/u1"] [data-act="fire"]').click()
        page.locator('#targets [data-target="1/u3"]').click()
        more = page.locator("#more-mods")
        if more.count():
            more.locator("summary").click()
        page.locator('#action-panel input[name="cover"]').fill("1")
        page.locator('#action-panel input[name="cover"]').dispatch_event("change")
        expect(page.locator("#action-odds")).to_contain_text("TN 9", timeout=30_000)
        page.click("#action-typed")
        type_dice(page, {"hit": "6", "cell": "5"})
        expect(page.locator("#action-text")).to_contain_text("1 of 1 hit", timeout=30_000)
        page.click("#apply-result")

        def marked() -> None:
            # 6X: 2 armor cells crossed, then 4 from cell 10: 10, 9, 8, 7 crossed (L198, L306-L308)
            grid = page.locator('[data-unit="1/u3"] table.cell-grid')
            hp = grid.locator("tr").first
            expect(hp.locator('td[data-mark="full"] .cell-text')).to_have_text(["10", "9", "8", "7"])
            bike = unit_state(saved_game(page), "0/u2")
            assert bike["extra"]["armor"] == 7 and "prone" in bike["conditions"]

        marked()
        other.set_offline(True)
        page.reload()
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        # the game drawn again from what was saved (on a loaded machine, more than 5 s after "ready")
        expect(page.locator('[data-unit="1/u3"] table.cell-grid')).to_be_visible(timeout=30_000)
        marked()
    finally:
        other.close()
