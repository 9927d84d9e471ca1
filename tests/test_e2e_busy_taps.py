"""Taps that land while the engine is busy (issue 26): none is lost, and they are answered in the
order they were made. Behaviour, not time: the engine is kept busy by queued odds calls, and the
taps are dispatched before any of them is answered.

Background calls (the choice buttons' odds, the views worked out before Apply or Undo:
web/engine-client.js) never make a tap wait behind a queue of them: a tap is sent at once, they
only when the engine has nothing else, and a newer tap drops those not started."""

from __future__ import annotations

from typing import Any

from conftest import BOOT_MS, PHONE, Server, open_with_store, saved_game
from playwright.sync_api import Browser, expect
from test_e2e_flow import gunframe_store

from core import api

#: Keeps the engine busy: ``n`` odds calls for the biggest attack on screen, sent and not awaited.
BUSY_JS = """([n, game, input]) => {
  for (let i = 0; i < n; i++) window.tc.engine.call('game.odds', { game, action: 'attack', input });
  return window.tc.engine.pending.size;
}"""


def adjusted(store: dict[str, Any], steps: int) -> dict[str, Any]:
    game = store["games"][0]
    for i in range(steps):
        change = {"path": ["sides", 1, "units", i, "state", "damage"], "value": 1}
        game = api.call("game.adjust", {"game": game, "changes": [change], "text": f"hit {i + 1}"})["result"]
    store["games"] = [game]
    return store


def test_two_undos_while_the_engine_is_busy_undo_two_steps_in_order(browser: Browser, server: Server) -> None:
    store = adjusted(gunframe_store(), 3)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        open_with_store(page, server.url + "#/game/g1", store)
        expect(page.locator(".unit-card")).to_have_count(10, timeout=BOOT_MS)
        expect(page.locator("#game-log li:not(.undone)")).to_have_count(4)  # the start and 3 hits
        game = saved_game(page)
        attack = {"attacker": "0/u1", "target": "1/u2", "weapon": "short", "rear": True, "charge": True}
        page.wait_for_function("() => window.tc.engine.pending.size === 0")
        busy = page.evaluate(
            """([n, game, input]) => {
              const engine = window.tc.engine;
              // Every reply in the order it comes: a background call's as "bg", a tap's by its name.
              const order = [];
              window.replies = order;
              const call = engine.call.bind(engine);
              engine.call = (op, args, how) => call(op, args, how).then((reply) => {
                order.push(reply.skipped ? "skipped" : how?.background ? "bg" : op);
                return reply;
              });
              // 30 background calls first (distinct pools: none answered from memory)...
              for (let i = 0; i < 30; i++) {
                engine.call('dice.odds', { attack: { dice: 4 + i, success_on: 4, crit_on: 6 },
                  defense: { dice: 8, success_on: 4, reroll: 'failures' } }, { background: 'test' });
              }
              // ... then the player's calls.
              for (let i = 0; i < n; i++) {
                engine.call('game.odds', { game, action: 'attack', input });
              }
              // Two taps on Undo before the engine has answered anything.
              const undo = document.querySelector('#undo');
              undo.click();
              undo.click();
              return window.tc.engine.pending.size;
            }""",
            [6, game, attack],
        )
        assert busy >= 36, busy  # the taps were made while the engine still had calls to answer
        # Both taps answered: two steps undone, the newest first, and saved so.
        log = page.locator("#game-log li")
        expect(log).to_have_text(["hit 3", "hit 2", "hit 1", game["log"][0]["text"]])
        expect(page.locator("#game-log li.undone")).to_have_count(2)
        expect(page.locator("#toast")).to_contain_text("Undone: hit 2")
        assert saved_game(page)["cursor"] == game["cursor"] - 2
        # The saved game is exactly the engine's two undos.
        once = api.call("game.undo", {"game": game})["result"]
        twice = api.call("game.undo", {"game": once})["result"]
        assert saved_game(page) == twice
        # The player's calls went first: the first Undo was answered before any of the 30 background
        # calls made before it (at most the one the engine had started), not after all of them.
        replies = page.evaluate("() => window.replies")
        first_undo = replies.index("game.undo")
        assert replies[:first_undo].count("bg") <= 1, replies
        assert replies[:first_undo].count("game.odds") == 6, replies
        # Those not started yet are dropped on demand, answered "skipped": none waits for ever.
        page.evaluate("() => window.tc.engine.drop('test')")
        page.wait_for_function("() => window.tc.engine.pending.size === 0")
        replies = page.evaluate("() => window.replies")
        assert replies.count("game.undo") == 2, replies
        assert replies.count("bg") + replies.count("skipped") >= 30, replies
    finally:
        context.close()


def test_modifier_taps_while_the_engine_is_busy_end_on_the_odds_of_the_last(
    browser: Browser, server: Server
) -> None:
    store = gunframe_store()
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        open_with_store(page, server.url + "#/game/g1", store)
        expect(page.locator(".unit-card")).to_have_count(10, timeout=BOOT_MS)
        game = saved_game(page)
        page.click('[data-unit="0/u1"] [data-act="attack"]')
        page.click('#targets [data-target="1/u2"]')
        expect(page.locator("#odds-headline")).to_be_visible()
        busy = page.evaluate(
            BUSY_JS.replace(
                "return window.tc.engine.pending.size;",
                """document.querySelector('[data-mod="rear"]').click();
                   document.querySelector('[data-mod="charge"]').click();
                   document.querySelector('[data-mod="rear"]').click();
                   return window.tc.engine.pending.size;""",
            ),
            [6, game, {"attacker": "0/u1", "target": "1/u2", "weapon": "short", "rear": True}],
        )
        assert busy >= 7, busy
        # Every tap shows as made at once; the odds shown at the end are those of the last state
        # (charge on, rear off), not of an earlier tap answered late.
        expect(page.locator('[data-mod="rear"]')).to_have_attribute("aria-pressed", "false")
        expect(page.locator('[data-mod="charge"]')).to_have_attribute("aria-pressed", "true")
        page.wait_for_function("() => window.tc.engine.pending.size === 0")
        attack = {"attacker": "0/u1", "target": "1/u2", "weapon": "short", "charge": True, "rear": False}
        odds = api.call("game.odds", {"game": game, "action": "attack", "input": attack})["result"]
        mean = odds["tables"]["damage"]["p_mean"]
        expect(page.locator('#odds-headline [data-key="mean"] b')).to_have_text(f"{mean:.2f}")
        rear = api.call("game.odds", {"game": game, "action": "attack", "input": {**attack, "rear": True}})[
            "result"
        ]
        assert f"{rear['tables']['damage']['p_mean']:.2f}" != f"{mean:.2f}", "the taps must change the odds"
    finally:
        context.close()
