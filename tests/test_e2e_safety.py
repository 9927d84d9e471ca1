"""Never lose a player's data, round 2 (issue 19), where the player meets it: real Chromium, real Pyodide.

Two tabs changing one game in the same instant (20 times: no change shown as saved is lost without a
word); a record saved under a key other than its id leaves no stale copy; damaged bytes are said to
be damaged on the recover screen; links and saves of games this app cannot play are refused in plain
words and never saved as playable; a first visit with too little storage works online and says so
once; long names without spaces never widen the page on a 390 px phone.
"""

from __future__ import annotations

import json
import os
from typing import Any

from conftest import BOOT_MS, OUTSIDE_THE_APP, Server
from gunframe_table import mech, start
from playwright.sync_api import BrowserContext, Page, expect
from test_e2e_storage import OPEN_DB, READ_DB, WRITE_DB

from core import share
from core.game import GAME_SCHEMA
from core.storage import STORE_SCHEMA

TRIES = int(os.environ.get("TC_SAME_INSTANT_TRIES", 20))


def boot(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    if "#/game/" in url:  # the first game screen imports its system: slow on a loaded machine
        expect(page.locator("#round, #game-newer").first).to_be_visible(timeout=BOOT_MS)


def saved(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate(READ_DB)
    return data


def put_records(page: Page, store: str, records: list[dict[str, Any]]) -> None:
    page.evaluate(WRITE_DB, [store, records])


def a_game(game_id: str = "g-safe", **names: str) -> dict[str, Any]:
    red = [mech(names.get("unit", "Ann")), mech("Bea")]
    g = start(red).model_copy(update={"id": game_id}).model_dump(mode="json")
    if "side" in names:
        g["sides"][0]["name"] = names["side"]
    if "game" in names:
        g["name"] = names["game"]
    return g


def on_first_visit(page: Page, server: Server, records: list[dict[str, Any]]) -> None:
    """The app's database holding ``records`` (games) before the app first starts."""
    page.goto(server.url + OUTSIDE_THE_APP)
    page.evaluate(
        f"""async () => {{
          const db = await new Promise((ok, no) => {{
            const r = indexedDB.open('tc', 1);
            r.onupgradeneeded = () => {{
              for (const k of ['squads', 'units', 'games']) {{
                r.result.createObjectStore(k, {{ keyPath: 'id' }});
              }}
              r.result.createObjectStore('aside', {{ keyPath: 'n', autoIncrement: true }});
              r.result.createObjectStore('meta', {{ keyPath: 'key' }});
            }};
            r.onsuccess = () => ok(r.result);
            r.onerror = () => no(r.error);
          }});
          db.close();
          await {OPEN_DB}.then((d) => d.close());
        }}"""
    )
    put_records(page, "games", records)


# --- two tabs, changes in the same instant ------------------------------------------------------------

#: Tap "Next round" in this tab at the instant ``at``; once the store has answered the screen's save,
#: say whether the screen was told it is saved (it then shows the change as applied) or refused.
TAP = """async (at) => {
  const store = window.tc.store;
  while (!document.getElementById('next-round')) await new Promise((r) => setTimeout(r, 5));
  await new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));  // both tabs at one instant
  const notice = document.getElementById('notice');
  notice.hidden = true;
  const put = store.putGame;
  let answer;
  store.putGame = (...args) => {
    const p = put.apply(store, args);
    p.then((ok) => { answer = ok; });
    return p;
  };
  document.getElementById('next-round').click();
  const started = performance.now();
  while (answer === undefined && performance.now() - started < 30000) {
    await new Promise((r) => setTimeout(r, 10));
  }
  store.putGame = put;
  await store.queue;
  const said = !notice.hidden && /changed in another tab or window/.test(notice.textContent);
  return { saved: answer ?? null, refused_with_a_message: said };
}"""


def test_two_tabs_changing_a_game_in_the_same_instant_lose_nothing_shown_as_saved(
    phone: BrowserContext, server: Server
) -> None:
    a, b = phone.new_page(), phone.new_page()
    on_first_visit(a, server, [{"id": "g-safe", "v": 1, "format": STORE_SCHEMA, "data": a_game()}])
    boot(a, server.url + "#/game/g-safe")
    boot(b, server.url + "#/game/g-safe")
    silent_losses, refusals, applied = 0, 0, 0
    for n in range(TRIES):
        for page in (a, b):
            expect(page.locator("#next-round")).to_be_visible()
        expect(a.locator("#round")).to_have_text(b.locator("#round").inner_text())
        before = saved(a)
        rounds_before = len([e for e in _game(before)["log"] if e["kind"] == "round"])
        # Both taps are dispatched before either tab has heard of the other's change: the instant
        # is set far enough ahead for both tabs to be told it (two calls that return at once, a
        # few ms; a tab told late taps at once, and the try is then one of two taps in quick
        # succession, which must lose nothing either).
        at = a.evaluate("Date.now() + 150")
        for page in (a, b):
            page.evaluate("(at) => { window.__tap = (" + TAP + ")(at); }", at)
        outcome = [page.evaluate("window.__tap") for page in (a, b)]
        assert None not in [o["saved"] for o in outcome], outcome
        # a change not saved is always said so
        assert all(o["saved"] or o["refused_with_a_message"] for o in outcome), outcome
        shown_saved = sum(1 for o in outcome if o["saved"])
        refusals += 2 - shown_saved
        after = _game(saved(a))
        rounds_after = len([e for e in after["log"] if e["kind"] == "round"])
        # every change a screen showed as saved is in the saved game, once
        if rounds_after - rounds_before != shown_saved:
            silent_losses += 1
        applied += shown_saved
        # both screens end showing what is saved
        expect(a.locator("#round")).to_have_text(f"Round {after['round']}")
        expect(b.locator("#round")).to_have_text(f"Round {after['round']}")
        print(f"try {n + 1}: {outcome}, rounds {rounds_before} -> {rounds_after}")
    print(
        f"\n{TRIES} tries: {applied} changes saved, {refusals} refused with a message, {silent_losses} lost"
    )
    assert silent_losses == 0
    assert applied >= TRIES  # at least one of the two each time
    the_store_refuses_a_change_computed_from_an_older_copy(a, b)


def the_store_refuses_a_change_computed_from_an_older_copy(a: Page, b: Page) -> None:
    """The mechanism under the same-instant test, deterministic: the screen's copy read at one
    version, another tab's next version already heard of; the change computed from the older copy
    is refused, and said so. (Until 2026-11-27 a test of its own, which started the engine in two
    tabs for it; now checked on the same-instant test's two tabs, once their tries are done.)"""
    for page in (a, b):
        page.evaluate("tc.store.queue")
    # The notice hidden again, so that the one checked below is this refusal's.
    a.evaluate("document.getElementById('notice').hidden = true")
    read_at = a.evaluate("tc.store.versionOf('games', 'g-safe')")
    assert b.evaluate("tc.store.versionOf('games', 'g-safe')") == read_at
    stale = a.evaluate("tc.store.game('g-safe')")
    assert b.evaluate(
        "async () => { const g = tc.store.game('g-safe'); g.name = 'Renamed in B';"
        " return tc.store.putGame(g); }"
    )
    a.wait_for_function(f"() => tc.store.versionOf('games', 'g-safe') === {read_at + 1}")  # A heard of it
    stale["name"] = "Renamed in A from the old copy"
    ok = a.evaluate("([g, v]) => tc.store.putGame(g, v)", [stale, read_at])
    assert ok is False
    expect(a.locator("#notice")).to_be_visible()
    expect(a.locator("#notice")).to_contain_text("changed in another tab or window")
    assert _game(saved(a))["name"] == "Renamed in B"
    assert json.dumps(_game(saved(a))).count("Renamed in A") == 0


def _game(db: dict[str, Any]) -> dict[str, Any]:
    game: dict[str, Any] = next(r for r in db["games"] if r["id"] == "g-safe")["data"]
    return game


# --- records: another key, damaged bytes, systems and formats this app cannot play ---------------------


def test_a_record_whose_key_is_not_its_id_leaves_no_stale_copy_after_its_next_save(
    phone: BrowserContext, server: Server
) -> None:
    page = phone.new_page()
    on_first_visit(
        page, server, [{"id": "old-key", "v": 3, "format": STORE_SCHEMA, "data": a_game("g-safe")}]
    )
    boot(page, server.url + "#/game/g-safe")
    expect(page.locator("#round")).to_have_text("Round 1")
    page.click("#next-round")
    expect(page.locator("#round")).to_have_text("Round 2")
    page.evaluate("tc.store.queue")
    games = saved(page)["games"]
    assert [(r["id"], r["data"]["id"], r["data"]["round"]) for r in games] == [("g-safe", "g-safe", 2)]
    page.reload()
    expect(page.locator("#round")).to_have_text("Round 2", timeout=BOOT_MS)
    page.evaluate("tc.store.ready")
    page.goto(server.url + "#/games")
    expect(page.locator("#app-view li.card")).to_have_count(1)


def test_the_recover_screen_says_what_is_wrong_with_damaged_bytes(
    phone: BrowserContext, server: Server
) -> None:
    page = phone.new_page()
    on_first_visit(
        page, server, [{"id": "g-bad", "v": 1, "format": STORE_SCHEMA, "z": [255, 7, 1, 2], "n": 99}]
    )
    page.evaluate(
        f"""async () => {{
          const db = await {OPEN_DB};
          await new Promise((ok) => {{
            const t = db.transaction('games', 'readwrite');
            const z = new Uint8Array([255, 7, 1, 2]);
            t.objectStore('games').put({{ id: 'g-bad', v: 1, format: {STORE_SCHEMA}, z, n: 99 }});
            t.oncomplete = ok;
          }});
          db.close();
        }}"""
    )
    boot(page, server.url + "#/recover")
    item = page.locator("#recover-list .recover-item")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("its saved bytes are damaged: they cannot be unpacked")
    expect(item).to_contain_text("It is left where it was.")
    expect(item).not_to_contain_text("Storage is full")
    expect(item).not_to_contain_text("Failed to fetch")


def test_a_saved_game_of_a_system_this_app_cannot_play_is_set_aside_not_shown_as_a_game(
    phone: BrowserContext, server: Server
) -> None:
    page = phone.new_page()
    odd = {**a_game("g-nope"), "system": "nope", "name": "Not ours"}
    newer = {**a_game("g-newer"), "schema_version": GAME_SCHEMA + 1, "name": "From the future"}
    on_first_visit(
        page,
        server,
        [
            {"id": "g-nope", "v": 1, "format": STORE_SCHEMA, "data": odd},
            {"id": "g-newer", "v": 1, "format": STORE_SCHEMA, "data": newer},
            {"id": "g-safe", "v": 1, "format": STORE_SCHEMA, "data": a_game()},
        ],
    )
    boot(page, server.url + "#/games")
    page.evaluate("tc.store.ready")
    expect(page.locator("#notice")).to_contain_text("1 saved item(s) could not be read and were set aside")
    expect(page.locator("#app-view")).not_to_contain_text("Not ours")
    page.goto(server.url + "#/recover")
    listed = page.locator("#recover-list")
    expect(listed).to_contain_text("this game cannot be played here. It is for a rule system this version")
    expect(listed).to_contain_text("From the future")
    expect(listed).to_contain_text("Saved by a newer version of the app")
    db = saved(page)
    assert [a["raw"]["system"] for a in db["aside"]] == ["nope"]  # kept as it was, for export
    assert sorted(r["id"] for r in db["games"]) == ["g-newer", "g-safe"]  # the newer one untouched
    # the newer game is read-only: opened, a change is refused and nothing is written
    page.goto(server.url + "#/game/g-newer")
    expect(page.locator("#app-view")).to_contain_text("newer version of the app")


def test_links_to_games_this_app_cannot_play_are_refused_in_plain_words(
    phone: BrowserContext, server: Server
) -> None:
    page = phone.new_page()
    boot(page, server.url)
    cases = [
        (
            share._wrap({"k": "game", "s": "nope", "d": {**a_game(), "system": "nope"}}),
            "This game cannot be opened. It is for a rule system this version of the app does not know.",
        ),
        (
            share._wrap({"k": "game", "s": "__init__", "d": {**a_game(), "system": "__init__"}}),
            "This game cannot be opened.",
        ),
        (
            share._wrap({"k": "game", "s": "gunframe", "d": {**a_game(), "schema_version": 99}}),
            "made by a newer version of the app: update the app",
        ),
        (
            share._wrap(
                {"k": "game", "s": "gunframe", "d": {**a_game(), "schema_version": GAME_SCHEMA + 1, "new": 1}}
            ),
            "made by a newer version of the app: update the app",
        ),
    ]
    for token, message in cases:
        page.goto(server.url + "#/open/" + token)
        expect(page.locator("#open-error")).to_contain_text(message)
        expect(page.locator("#open-error")).not_to_contain_text("damaged")
    page.evaluate("tc.store.queue")
    assert saved(page)["games"] == []


# --- too little storage on a first visit -----------------------------------------------------------------


def test_a_first_visit_with_too_little_storage_works_online_and_says_so_once(
    first_visit_phone: BrowserContext, server: Server
) -> None:
    phone = first_visit_phone
    page = phone.new_page()
    cdp = phone.new_cdp_session(page)
    origin = server.url.rstrip("/").rsplit("/", 0)[0]
    origin = "/".join(server.url.split("/")[:3])
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": 2_000_000})
    boot(page, server.url + "#/dice")
    notice = page.locator("#notice")
    expect(notice).to_contain_text("did not give the app room to work offline", timeout=BOOT_MS)
    expect(notice).to_contain_text("needs a connection to open")
    # The service worker takes the page at once (issue 26) but could not keep the site: it is not
    # ready offline, and says so on the page's root.
    assert page.evaluate("document.documentElement.dataset.offline") != "ready"
    reply = page.evaluate("window.tc.engine.call('dice.odds', {attack: {dice: 2, success_on: 4}})")
    assert reply["ok"]  # the app works
    page.reload()
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    # once this visit has found again that the site cannot be kept, the notice is not shown again
    expect(page.locator("html")).to_have_attribute("data-offline", "no-room", timeout=BOOT_MS)
    expect(notice).to_be_hidden()  # said once


# --- long names on a phone -------------------------------------------------------------------------------


def test_long_names_without_spaces_never_widen_the_game_page_at_390_px(
    phone: BrowserContext, server: Server
) -> None:
    page = phone.new_page()
    assert page.viewport_size is not None and page.viewport_size["width"] == 390
    records = []
    for n in (30, 80):
        word = "W" * n
        g = a_game(f"g-{n}", unit=word[:60], side=word[:80], game=word[:80])
        records.append({"id": f"g-{n}", "v": 1, "format": STORE_SCHEMA, "data": g})
    on_first_visit(page, server, records)
    for n in (30, 80):
        boot(page, server.url + f"#/game/g-{n}")
        expect(page.locator("#game-title")).to_contain_text("W" * 10)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"a {n}-character name widens the page to {width} px"
    page.goto(server.url + "#/games")
    expect(page.locator("#app-view li.card")).to_have_count(2)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


# "The store refuses a change computed from an older copy and says so" is checked at the end of
# test_two_tabs_changing_a_game_in_the_same_instant_lose_nothing_shown_as_saved, on its two tabs.
