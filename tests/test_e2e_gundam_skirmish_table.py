"""Mobile Suit Gundam: Skirmish at the table in headless Chromium on a phone: no raw id (snake_case)
anywhere a player can read on its game screen (every action's sheet), squad editor and unit form;
and each game type's score line on the game screen, word for word (L169-L229)."""

from __future__ import annotations

from typing import Any

from conftest import PHONE, Server, open_with_store
from playwright.sync_api import Browser, Page, expect
from test_e2e_a11y import serious
from test_e2e_plain import every_sheet_reads_plain, raw_ids

from core import api
from core.systems.gundam_skirmish.samples import SAMPLES


def profile(key: str, **changes: Any) -> dict[str, Any]:
    return SAMPLES[key].model_copy(update=changes).model_dump(mode="json")


def act(game: dict[str, Any], action: str, given: dict[str, Any], faces: list[int]) -> dict[str, Any]:
    reply = api.call("game.act", {"game": game, "action": action, "input": given, "faces": faces})
    assert reply["ok"], reply
    return dict(reply["result"]["game"])


def gs_store(mission: str = "deathmatch") -> dict[str, Any]:
    """Feds (Lancer, Captain with a pilot, Gun Tank) and Zeon (Trooper, Heavy Gunner): a game whose
    priority is rolled (Feds 5, Zeon 2, Feds first), its game type set."""
    captain = profile("captain")
    captain["pilot"] = [{"name": "Ace", "rank": 3, "traits": ["mechanic", "leader"]}]
    captain["abilities"] = [{"key": "panoramic_cockpit"}, {"key": "extra_tank"}, {"key": "grapple_hook"}]
    feds = {
        "id": "s1",
        "name": "Feds",
        "system": "gundam_skirmish",
        "units": [
            {"key": "u1", "profile": profile("lancer")},
            {"key": "u2", "profile": captain},
            {"key": "u3", "profile": profile("gun_tank")},
        ],
    }
    zeon = {
        "id": "s2",
        "name": "Zeon",
        "system": "gundam_skirmish",
        "units": [
            {"key": "u1", "profile": profile("trooper")},
            {"key": "u2", "profile": profile("heavy_gunner")},
        ],
    }
    sides = [{"name": "Feds", "squad": feds}, {"name": "Zeon", "squad": zeon}]
    game = api.call("game.new", {"id": "g1", "name": "Feds vs Zeon", "sides": sides})["result"]
    game = act(game, "setup", {"mission": mission}, [])
    game = act(game, "priority", {"places": [1]}, [5, 2])
    return {"schema_version": 1, "squads": [feds, zeon], "units": [], "games": [game]}


def open_game(browser: Browser, server: Server, store: dict[str, Any]) -> tuple[Any, Page]:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    open_with_store(page, server.url + "#/game/g1", store)
    # the first screen after the engine's start: its first answers take longest on a busy machine
    expect(page.locator(".unit-card")).to_have_count(5, timeout=30_000)
    return context, page


def test_no_raw_ids_on_the_gundam_skirmish_screens(browser: Browser, server: Server) -> None:
    context, page = open_game(browser, server, gs_store())
    try:
        # Rulebook lines only when asked for, "L278-L282" ranges included; the digest's ids never.
        said = page.evaluate(
            """async () => { const { plain } = await import('./plain.js');
              return ["Feds's turn: +1 Command Point (L1283-L1288)", "it cannot strike back (A14)",
                      "Objective (L192-L203; A33)", "no roll (digest A47)"].map(plain); }"""
        )
        # and a plural name's possessive is a bare apostrophe ("Feds' turn", "Forces' turn")
        assert said == ["Feds' turn: +1 Command Point", "it cannot strike back", "Objective", "no roll"]
        # Play passes by Next turn in the bar: no bare Next round for this system.
        expect(page.locator("#phase-next")).to_have_text("Next turn")
        expect(page.locator("#next-round")).to_have_count(0)
        assert raw_ids(page) == set()
        assert every_sheet_reads_plain(page) >= 15
        # The Captain's own sheets: its weapons and abilities as picks, a target picked.
        for action in ("shoot", "ability", "switch_weapon", "reload", "aimed_shot"):
            page.locator(
                '[data-unit="0/u2"] select.more-actions, [data-unit="0/u2"] [data-act]'
            ).first.wait_for()
            page.select_option("#action-pick", action)
            page.locator("#pick-attacker, #pick-unit").first.select_option("0/u2")
            targets = page.locator('#targets [data-target="1/u2"]')
            if targets.count():
                targets.click()
            expect(page.locator("#action-panel [data-pick-field]").first).to_be_visible()
            found = raw_ids(page)
            assert found == set(), (action, found)
            if action == "shoot":  # the picks, picked and greyed, read well (axe-core)
                expect(page.locator("#odds-headline")).to_be_visible()
                assert serious(page) == []
            page.click("#sheet-close")
        page.goto(page.url.split("#")[0] + "#/squad/s1")
        expect(page.locator("#squad-units .unit-row")).to_have_count(3)
        assert raw_ids(page) == set()
        for key in ("u1", "u2", "u3"):
            page.goto(page.url.split("#")[0] + f"#/unit/s1/{key}")
            expect(page.locator("#unit-status .total")).to_contain_text("points")
            found = raw_ids(page)
            assert found == set(), (key, found)
    finally:
        context.close()


def status(page: Page) -> list[tuple[str, str]]:
    box = page.locator("#game-status")
    return list(zip(box.locator("dt").all_inner_texts(), box.locator("dd").all_inner_texts(), strict=True))


def expect_status(page: Page, lines: list[tuple[str, str]]) -> None:
    box = page.locator("#game-status")
    expect(box.locator("dt")).to_have_text([label for label, _ in lines])
    expect(box.locator("dd")).to_have_text([value for _, value in lines])


def tick_units(page: Page, refs: list[str]) -> None:
    """Answer the Final Upkeep's question (which units stand there) by ticking them and confirming."""
    ask = page.locator("#phase-ask #action-ask")
    expect(ask).to_be_visible()
    for ref in refs:
        ask.locator(f"input[data-choice='\"{ref}\"']").check()
    page.click("#ask-confirm")


def adjust(game: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    reply = api.call(
        "game.adjust", {"game": game, "changes": [{"path": path, "value": value}], "text": "set"}
    )
    return dict(reply["result"])


def test_deathmatch_and_battle_royale_end_with_the_last_player_standing(
    browser: Browser, server: Server
) -> None:
    """L171-L177, L220-L229: the sole player with units left wins, checked in the Final Upkeep (L304-L306)."""
    for mission, shown in (("deathmatch", "Deathmatch"), ("battle_royale", "Battle royale")):
        store = gs_store(mission)
        game = store["games"][0]
        game = adjust(game, ["sides", 1, "units", 0, "state", "destroyed"], True)
        store["games"] = [game]
        context, page = open_game(browser, server, store)
        try:
            expect_status(
                page, [("Game type", shown), ("Round", "1"), ("Players with units", "2"), ("Turn of", "Feds")]
            )
            page.locator('[data-unit="1/u2"] .card-toggle').click()
            page.locator('[data-unit="1/u2"] .card-more button', has_text="Mark destroyed").click()
            expect_status(
                page, [("Game type", shown), ("Round", "1"), ("Players with units", "1"), ("Turn of", "Feds")]
            )
            page.click("#phase-next")
            expect_status(
                page,
                [
                    ("Game type", shown),
                    ("Round", "1"),
                    ("Players with units", "1"),
                    ("Game over", "won by Feds"),
                ],
            )
            expect(page.locator("#game-log li").first).to_have_text(
                "Feds ends the turn; game over: Feds wins"
            )
        finally:
            context.close()


def test_skirmish_counts_enemy_points_destroyed(browser: Browser, server: Server) -> None:
    """L179-L190: D6+4 rounds (a 3: 7); the Lancer's rifle finishes the Trooper (140 points)."""
    store = gs_store("skirmish")
    game = act(store["games"][0], "game_length", {}, [3])
    game = adjust(game, ["sides", 1, "units", 0, "state", "damage"], 5)
    shot = {
        "attacker": "0/u1",
        "target": "1/u1",
        "weapon": "Beam rifle",
        "cover": "unobstructed",
        "shield_break": "no",
    }
    store["games"] = [act(game, "shoot", shot, [4, 1, 1, 3])]
    context, page = open_game(browser, server, store)
    try:
        expect_status(
            page,
            [
                ("Game type", "Skirmish"),
                ("Round", "1 of 7"),
                ("Enemy points destroyed", "Feds 140, Zeon 0"),
                ("Turn limit", "7"),
                ("Turn of", "Feds"),
            ],
        )
    finally:
        context.close()


def test_objective_counts_the_zone_as_each_turn_ends(browser: Browser, server: Server) -> None:
    """L192-L203 (A33): the game length roll of 1 means 3 turns to hold; Next turn asks who is in the zone."""
    store = gs_store("objective")
    store["games"] = [act(store["games"][0], "game_length", {}, [1])]
    context, page = open_game(browser, server, store)
    try:
        head = [("Game type", "Objective"), ("Round", "1")]
        expect_status(
            page, [*head, ("Turns holding", "Feds 0, Zeon 0 of 3"), ("Turn limit", "3"), ("Turn of", "Feds")]
        )
        # Switch Weapon in one tap: the Lancer's own weapons, the equipped rifle greyed with why.
        page.locator('[data-unit="0/u1"] .card-toggle').click()
        page.locator('[data-unit="0/u1"] select.more-actions').select_option("switch_weapon")
        weapons = page.locator('#action-panel [data-pick-field="weapon"] button')
        expect(weapons.locator(".choice-name")).to_have_text(["Beam rifle", "Beam blade"])
        expect(weapons.first.locator(".pick-why")).to_have_text("equipped now")
        expect(weapons.nth(1)).to_have_attribute("aria-pressed", "true")
        page.click("#action-apply")
        expect(page.locator("#game-log li").first).to_have_text("Lancer equips Beam blade")
        # Now the rifle waits for a Switch Weapon; the mounted head guns are picked for a shot.
        page.locator('[data-unit="0/u1"] [data-act="shoot"]').click()
        weapons = page.locator('#action-panel [data-pick-field="weapon"] button')
        expect(weapons.locator(".choice-name")).to_have_text(["Head guns", "Beam rifle"])
        expect(weapons.first).to_have_attribute("aria-pressed", "true")
        expect(weapons.nth(1)).to_be_disabled()
        expect(weapons.nth(1).locator(".pick-why")).to_have_text("not equipped: Switch Weapon first")
        page.click("#sheet-close")
        # Feds' Lancer (170) and Zeon's Trooper (140) in the zone: the Feds hold it.
        page.click("#phase-next")
        tick_units(page, ["0/u1", "1/u1"])
        expect_status(
            page, [*head, ("Turns holding", "Feds 1, Zeon 0 of 3"), ("Turn limit", "3"), ("Turn of", "Zeon")]
        )
        expect(page.locator("#game-log li").first).to_have_text(
            "Feds ends the turn; Objective: Feds 170 pts, Zeon 140 pts; Feds holds it (1); "
            "Zeon's turn: +0 Command Points"
        )
        # An action picked from the list starts with a unit of the side in turn.
        page.select_option("#action-pick", "idle")
        expect(page.locator("#pick-unit")).to_have_value("1/u1")
        page.click("#sheet-close")
        # Nobody in it as Zeon's turn ends: nothing changes hands.
        page.click("#phase-next")
        tick_units(page, [])
        expect_status(
            page,
            [
                ("Game type", "Objective"),
                ("Round", "2"),
                ("Turns holding", "Feds 1, Zeon 0 of 3"),
                ("Turn limit", "3"),
                ("Turn of", "Feds"),
            ],
        )
    finally:
        context.close()


def test_territory_counts_the_quarters_after_the_last_round(browser: Browser, server: Server) -> None:
    """L205-L218: each quarter goes to the highest points value in it; the most quarters wins."""
    store = gs_store("territory")
    game = act(store["games"][0], "game_length", {}, [1])
    store["games"] = [adjust(game, ["state", "clocks", "turn_limit"], 1)]
    context, page = open_game(browser, server, store)
    try:
        expect_status(
            page,
            [
                ("Game type", "Territory"),
                ("Round", "1 of 1"),
                ("Quarters held", "counted when round 1 ends"),
                ("Turn limit", "1"),
                ("Turn of", "Feds"),
            ],
        )
        page.click("#phase-next")  # Feds end their turn
        expect(page.locator("#game-status")).to_contain_text("Zeon")
        page.click("#phase-next")  # Zeon end theirs: the last round is over, the quarters are asked
        tick_units(page, ["0/u1", "1/u1"])  # Lancer 170 against Trooper 140: Feds
        tick_units(page, ["1/u2"])  # Heavy Gunner: Zeon
        tick_units(page, ["0/u3"])  # Gun Tank: Feds
        tick_units(page, [])  # empty
        expect_status(
            page,
            [
                ("Game type", "Territory"),
                ("Round", "1 of 1"),
                ("Quarters held", "Feds 2, Zeon 1"),
                ("Turn limit", "1"),
                ("Game over", "won by Feds"),
            ],
        )
        expect(page.locator("#game-log li").first).to_have_text(
            "Zeon ends the turn; round 2; Territory: quarter 1: Feds, quarter 2: Zeon, quarter 3: Feds, "
            "quarter 4: nobody; game over: Feds wins"
        )
    finally:
        context.close()


def test_sample_battle_starts_at_once_with_two_armies_named_as_players_would(
    browser: Browser, server: Server
) -> None:
    """The home screen's sample battle of Gundam Skirmish: two ready-made armies, one faction each
    (L2339-L2342), start a game in one tap; the units read "Lancer", not "Sample: Lan..." (issue 22)."""
    from conftest import BOOT_MS

    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(server.url)
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        page.locator('[data-sample="gundam_skirmish"]').click()
        expect(page.locator(".unit-card")).to_have_count(4, timeout=30_000)
        cards = page.locator(".unit-card").all_inner_texts()
        assert not any("Sample" in c for c in cards), cards
        assert "Lancer" in " ".join(cards) and "Heavy Gunner" in " ".join(cards)
        body = page.locator("body").inner_text()
        assert "Federation patrol" in body and "Zeon raiders" in body
        # The first step is offered, not refused: the priority roll (L278-L282).
        expect(page.locator("#phase-next")).to_have_text("Priority roll")
    finally:
        context.close()
