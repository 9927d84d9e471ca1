"""Issue #20 on the screen (real site, Chromium, Pyodide): a GUNFRAME reaction the log does not support
refused with its reason and accepted once the players confirm it (L1424-1426, L1432); a Gundam Skirmish
Routed unit asked for its D6 when it acts (L1554-L1558), the Routed roll greyed for a unit that is not
Routed, and Massed Fire greyed for a unit without it (L2937-L2941)."""

from __future__ import annotations

import sys
from pathlib import Path

from conftest import BOOT_MS, PHONE, Server, apply_result, saved_game, unit_state
from playwright.sync_api import Browser, Page, expect

sys.path.insert(0, str(Path(__file__).parent))
from gunframe_table import mech, run, set_fp, start
from test_gundam_skirmish import game as gundam_game

from core.game import Game, adjust
from core.systems.base import Change

MISS = [1, 1, 1, 1, 1, 1]


def put(page: Page, g: Game, game_id: str) -> None:
    """Save a game built by the engine the app's way, then open it."""
    g = g.model_copy(update={"id": game_id, "name": game_id})
    page.evaluate("(g) => window.tc.store.putGame(g)", g.model_dump(mode="json"))
    page.evaluate("(id) => { location.hash = '#/game/' + id; }", game_id)
    expect(page.locator("#game-title")).to_have_text(game_id, timeout=BOOT_MS)


def open_card(page: Page, ref: str) -> None:
    toggle = page.locator(f'[data-unit="{ref}"] .card-toggle')
    if toggle.get_attribute("aria-expanded") != "true":
        toggle.click()


def test_reactions_refused_with_the_reason_and_the_routed_roll_asked(
    browser: Browser, server: Server
) -> None:
    context = browser.new_context(**PHONE)
    page = context.new_page()
    try:
        page.goto(server.url + "#/games")
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        page.evaluate("window.tc.store.ready")

        # GUNFRAME: Tom attacked A; B (not attacked) tries to react at Tom.
        gf = run(
            set_fp(start([mech("A"), mech("B")], [mech("Tom"), mech("Uli")]), 0, 3),
            "attack",
            MISS,
            attacker="1/t",
            target="0/a",
        )
        put(page, gf, "reactions")
        page.locator('[data-unit="0/b"] [data-act="attack"]').click()
        page.locator('#targets [data-target="1/t"]').click()
        page.locator("#more-mods summary").click()
        page.locator('[data-field="reaction"] input').check()
        page.click("#action-roll")
        page.locator('#action-ask [data-choice="\\"attacked\\""]').click()
        error = page.locator("#action-result .error")
        expect(error).to_have_text(
            "No enemy has attacked B this turn; if it happened off the app, confirm the trigger the log does "
            "not show."
        )
        # The players confirm it: accepted, and the log says so.
        page.locator('[data-field="trigger_off_log"] input').check()
        page.click("#action-roll")
        page.locator('#action-ask [data-choice="\\"attacked\\""]').click()
        expect(page.locator("#action-text")).to_contain_text("after being attacked, confirmed by the players")
        apply_result(page)
        expect(page.locator("#game-log li").first).to_contain_text("confirmed by the players")

        # Gundam Skirmish: the Lancer is Routed, the Gun Tank is not.
        gs = gundam_game()
        s, u, _ = gs.unit("0/l1")
        gs = adjust(gs, [Change(path=["sides", s, "units", u, "state", "conditions"], value=["routed"])])
        put(page, gs, "routed")
        open_card(page, "0/g1")
        rout = page.locator('[data-unit="0/g1"] select.more-actions option[value="rout"]')
        expect(rout).to_be_disabled()
        expect(rout).to_have_text("Routed roll (Gun Tank is not Routed)")
        open_card(page, "0/l1")
        expect(page.locator('[data-unit="0/l1"] select.more-actions option[value="rout"]')).to_be_enabled()
        # Massed Fire greyed with the reason in the Lancer's shot.
        page.locator('[data-unit="0/l1"] [data-act="shoot"]').click()
        page.locator('#targets [data-target="1/t1"]').click()
        expect(page.locator('[data-field="massed_fire"] .gated-why')).to_have_text(
            "Lancer has no Massed Fire"
        )
        expect(page.locator('[data-field="massed_fire"] input')).to_be_disabled()
        page.click("#sheet-close")
        # Selected to act, the Routed unit is asked for its D6 first; a 2 sends it running.
        page.locator('[data-unit="0/l1"] [data-act="move"]').click()
        page.click("#action-typed")
        expect(page.locator("#action-prompt")).to_have_text("Roll 1 d6 for Routed roll, then tap each face.")
        page.locator('#action-result [data-face="2"]').click()
        expect(page.locator("#action-text")).to_contain_text(
            "is Routed and rolls 2: it runs toward its deployment zone"
        )
        apply_result(page)
        assert unit_state(saved_game(page), "0/l1")["activated"] is True
    finally:
        context.close()
