"""Saved data in real Chromium: IndexedDB records that survive kills, tabs, a full disk and damage.

The saves of the first release (localStorage, tests/golden/v1_*.json, made by that release in
Chromium) are brought over with nothing lost; two tabs editing the same and different records
lose no update; the browser process killed (SIGKILL) right after actions shown as applied
loses none of them; a full store stops play and offers an export, and the app still starts;
damaged and newer data are set aside or read-only and shown on the recover screen.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import BOOT_MS, CHROMIUM_ARGS, OUTSIDE_THE_APP, PHONE, Server
from gunframe_table import hurt, mech, set_state, start
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import build
from core import game as games
from core import share
from core.dice import RandomDice
from core.game import Game

GOLDEN = Path(__file__).resolve().parent / "golden"

OPEN_DB = """new Promise((ok, no) => {
    const r = indexedDB.open('tc');
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  })"""

#: Every object store of the app's database, read the way the app wrote it.
READ_DB = f"""async () => {{
  const db = await {OPEN_DB};
  const out = {{ version: db.version }};
  for (const name of db.objectStoreNames) {{
    out[name] = await new Promise((ok) => {{
      const r = db.transaction(name).objectStore(name).getAll();
      r.onsuccess = () => ok(r.result);
    }});
  }}
  db.close();
  for (const name of ['squads', 'units', 'games']) {{
    for (const rec of out[name] ?? []) {{
      if (!rec.z) continue;
      const stream = new Blob([rec.z]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
      rec.data = await new Response(stream).text().then(JSON.parse, () => 'damaged');
      rec.z = rec.z.length;  // saved size in bytes
    }}
  }}
  return out;
}}"""

#: Writes records straight into the app's database (as a bug or a newer app could have).
WRITE_DB = f"""async ([store, records]) => {{
  const db = await {OPEN_DB};
  await new Promise((ok, no) => {{
    const t = db.transaction(store, 'readwrite');
    for (const r of records) t.objectStore(store).put(r);
    t.oncomplete = ok;
    t.onerror = () => no(t.error);
  }});
  db.close();
}}"""


def golden(name: str) -> dict[str, str]:
    data: dict[str, str] = json.loads((GOLDEN / f"{name}.json").read_text())
    return data


def legacy(name: str = "v1_store") -> dict[str, Any]:
    data: dict[str, Any] = json.loads(golden(name)["tc.store"])
    return data


def boot(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)


def with_local_storage(page: Page, server: Server, keys: dict[str, str]) -> None:
    """localStorage as the first release left it, before the app first starts on this profile."""
    page.goto(server.url + OUTSIDE_THE_APP)
    page.evaluate("(s) => Object.entries(s).forEach(([k, v]) => localStorage.setItem(k, v))", keys)


def saved(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate(READ_DB)
    return data


def download_json(page: Page, selector: str) -> Any:
    with page.expect_download() as info:
        page.locator(selector).first.click()
    path = info.value.path()
    assert path is not None
    return json.loads(Path(path).read_text())


# --- the first release's saves --------------------------------------------------------------


def test_the_first_releases_save_comes_over_whole(phone: BrowserContext, server: Server) -> None:
    page = phone.new_page()
    keys = golden("v1_store")
    with_local_storage(page, server, keys)
    boot(page, server.url + "#/games")
    games = legacy()["games"]
    expect(page.locator("#app-view li.card")).to_have_count(3)
    expect(page.locator("#app-view li.card").first).to_contain_text("round 3")
    db = saved(page)
    for kind in ("squads", "units", "games"):
        assert [r["id"] for r in db[kind]] == sorted(x["id"] for x in legacy()[kind])
        by_id = {x["id"]: x for x in legacy()[kind]}
        assert all(r["v"] == 1 and r["format"] == 1 and r["data"] == by_id[r["id"]] for r in db[kind])
    assert db["aside"] == []
    # The old keys stay as they were; a second start does not bring them over again.
    assert page.evaluate("localStorage.getItem('tc.store')") == keys["tc.store"]
    page.reload()
    expect(page.locator("#app-view li.card")).to_have_count(3, timeout=BOOT_MS)
    assert len(saved(page)["games"]) == len(games)
    page.goto(server.url + "#/recover")
    expect(page.locator("#recover-none")).to_be_visible()
    expect(page.locator("#recover-summary")).to_contain_text("4 squads, 1 own unit, 3 games")


def test_truncated_json_the_release_hid_is_on_the_recover_screen(
    phone: BrowserContext, server: Server
) -> None:
    page = phone.new_page()
    keys = golden("v1_truncated")
    hidden = next(v for k, v in keys.items() if k.startswith("tc.store.unreadable."))
    with_local_storage(page, server, keys)
    boot(page, server.url)
    expect(page.locator("#recover-hint")).to_contain_text("1 saved item(s) could not be used")
    page.click("#open-recover")
    item = page.locator("#recover-list .recover-item")
    expect(item).to_have_count(1)
    expect(item).to_contain_text("whole saved store")
    item.locator("[data-do=view]").click()
    assert item.locator("pre").inner_text() == hidden
    exported = download_json(page, "#recover-list [data-do=export]")
    assert exported == hidden
    everything = download_json(page, "#export-all")
    assert everything["set_aside"][0]["raw"] == hidden
    page.once("dialog", lambda d: d.accept())
    item.locator("[data-do=delete]").click()
    expect(page.locator("#recover-none")).to_be_visible()
    assert saved(page)["aside"] == []


def test_broken_items_the_release_set_aside_are_listed(phone: BrowserContext, server: Server) -> None:
    page = phone.new_page()
    with_local_storage(page, server, golden("v1_broken_items"))
    boot(page, server.url + "#/recover")
    items = page.locator("#recover-list .recover-item")
    expect(items).to_have_count(3)
    expect(items.nth(0)).to_contain_text("Half a squad")
    page.goto(server.url + "#/squads")
    expect(page.locator(".squad-link")).to_have_count(4)
    assert sorted(a["raw"]["id"] for a in saved(page)["aside"]) == ["g-broken", "s-broken", "u-broken"]


def test_a_newer_versions_save_is_read_only_and_says_so(phone: BrowserContext, server: Server) -> None:
    page = phone.new_page()
    with_local_storage(page, server, golden("v1_newer"))
    boot(page, server.url + "#/squads")
    expect(page.locator(".squad-link")).to_have_count(4)
    before = saved(page)
    page.locator(".squad-link").first.click()
    name = page.locator("#squad-name").input_value()
    page.fill("#squad-name", "Renamed")
    page.locator("#squad-name").dispatch_event("change")
    expect(page.locator("#notice")).to_contain_text("newer version of the app")
    expect(page.locator("#notice")).to_contain_text("Nothing was changed")
    expect(page.locator("#squad-name")).to_have_value(name)  # the screen shows what is saved
    assert saved(page)["squads"] == before["squads"]
    page.goto(server.url + "#/recover")
    expect(page.locator("#recover-list .recover-item")).to_have_count(8)
    expect(page.locator("#recover-list")).to_contain_text("read-only until the app is updated")


# --- two tabs -----------------------------------------------------------------------------------


def round_shown(page: Page) -> int:
    return int(page.locator("#round").inner_text().split()[-1])


def next_round(page: Page) -> None:
    """Tap "Next round" and wait until the screen shows it (it is saved before it shows)."""
    now = round_shown(page)
    page.click("#next-round")
    # The engine may be making its memory snapshot just then (once, after the first idle second).
    expect(page.locator("#round")).to_have_text(f"Round {now + 1}", timeout=BOOT_MS)


def rename(page: Page, name: str) -> None:
    page.fill("#squad-name", name)
    page.locator("#squad-name").dispatch_event("change")


def test_two_tabs_lose_no_update(phone: BrowserContext, server: Server) -> None:
    game_id = legacy()["games"][0]["id"]
    squad_id = legacy()["squads"][0]["id"]
    a = phone.new_page()
    with_local_storage(a, server, golden("v1_store"))
    boot(a, server.url + f"#/game/{game_id}")
    expect(a.locator("#round")).to_have_text("Round 3")
    b = phone.new_page()
    boot(b, server.url + f"#/squad/{squad_id}")

    # The tester's case: rounds played in one tab, a squad renamed in the other, stale one.
    next_round(a)
    next_round(a)
    rename(b, "Renamed in B")
    expect(b.locator("#squad-total")).to_be_visible()
    b.evaluate("tc.store.queue")  # its writes are all done
    a.reload()
    expect(a.locator("#round")).to_have_text("Round 5", timeout=BOOT_MS)
    db = saved(a)
    assert next(r for r in db["games"] if r["id"] == game_id)["data"]["round"] == 5
    assert next(r for r in db["squads"] if r["id"] == squad_id)["data"]["name"] == "Renamed in B"

    # The same game in both: a change in one shows in the other.
    b.goto(server.url + f"#/game/{game_id}")
    expect(b.locator("#round")).to_have_text("Round 5")
    next_round(a)
    expect(b.locator("#round")).to_have_text("Round 6")
    next_round(b)
    expect(a.locator("#round")).to_have_text("Round 7")

    # B does not hear of A's change (its channel closed): its stale write is refused, not
    # saved over A's, and it shows the latest; the next tap works.
    b.evaluate("tc.store.channel.close()")
    next_round(a)
    expect(b.locator("#round")).to_have_text("Round 7")
    b.click("#next-round")
    expect(b.locator("#notice")).to_contain_text("changed in another tab or window")
    expect(b.locator("#round")).to_have_text("Round 8")
    next_round(b)
    a.click("#next-round")  # A never heard of round 9 either
    expect(a.locator("#notice")).to_contain_text("changed in another tab or window")
    expect(a.locator("#round")).to_have_text("Round 9")

    # Different records at the same moment, in quick succession, nothing waited for.
    a.click("#next-round")
    b.goto(server.url + f"#/squad/{squad_id}")
    for n in range(5):
        rename(b, f"Name {n}")
    expect(a.locator("#round")).to_have_text("Round 10")
    b.evaluate("tc.store.queue")  # its writes are all done
    db = saved(a)
    game = next(r for r in db["games"] if r["id"] == game_id)
    assert game["data"]["round"] == 10 and game["v"] == 8
    rounds = [e["text"] for e in game["data"]["log"] if e["kind"] == "round"]
    assert rounds == [f"Round {n} begins" for n in range(2, 11)]  # each once: none lost, none twice
    assert next(r for r in db["squads"] if r["id"] == squad_id)["data"]["name"] == "Name 4"


def test_a_tab_starting_while_another_saves_keeps_the_newer_game(
    phone: BrowserContext, server: Server
) -> None:
    """A tab reads the records, then waits for its engine to check them; rounds another tab
    saves meanwhile reach it through the channel and must not be replaced by the (older)
    checked copy, else its next tap would save over them."""
    game_id = legacy()["games"][0]["id"]
    a = phone.new_page()
    with_local_storage(a, server, golden("v1_store"))
    boot(a, server.url + f"#/game/{game_id}")
    expect(a.locator("#round")).to_have_text("Round 3")
    b = phone.new_page()
    b.goto(server.url + "#/games")
    b.wait_for_function("() => window.tc && window.tc.store")
    b.evaluate("tc.store.opened")  # B has read the records; its engine may still be starting
    next_round(a)
    next_round(a)
    b.evaluate("tc.store.ready")  # its check is done
    expect(b.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    b.evaluate(f"location.hash = '#/game/{game_id}'")
    expect(b.locator("#round")).to_have_text("Round 5")
    next_round(b)
    expect(a.locator("#round")).to_have_text("Round 6")
    game = next(r for r in saved(a)["games"] if r["id"] == game_id)
    rounds = [e["text"] for e in game["data"]["log"] if e["kind"] == "round"]
    assert rounds == [f"Round {n} begins" for n in range(2, 7)]  # each once: none lost


# --- the browser killed ---------------------------------------------------------------------------

#: Browser kills a run makes, each at a random moment (``TC_KILLS`` for more; the seed it prints,
#: in ``TC_KILL_SEED``, repeats a run's moments). Each costs a Chromium start and an engine start.
KILLS = int(os.environ.get("TC_KILLS", 12))


def browser_pid(profile: Path) -> int:
    """The main Chromium process of this profile (its children carry --type=)."""
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit():
            continue
        try:
            args = (proc / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if f"--user-data-dir={profile}".encode() in args and not any(a.startswith(b"--type=") for a in args):
            return int(proc.name)
    raise AssertionError("no browser process for this profile")


def test_killing_the_browser_loses_no_action_shown_as_applied(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    seed = int(os.environ.get("TC_KILL_SEED", time.time_ns() % 100_000))
    rng = random.Random(seed)
    # A returning phone, as a player's is: every restart starts the engine from its snapshot (from a
    # fresh profile each restart was a normal start, the snapshot never made in time: 4 CPU s more).
    profile = browser.returning_profile(tmp_path / "profile")  # type: ignore[attr-defined]
    game_id = legacy()["games"][0]["id"]
    url = server.url + f"#/game/{game_id}"

    def launch() -> tuple[BrowserContext, Page]:
        context = browser.browser_type.launch_persistent_context(
            profile, executable_path=str(build.CHROMIUM), args=CHROMIUM_ARGS, **PHONE
        )
        return context, context.pages[0] if context.pages else context.new_page()

    context, page = launch()
    with_local_storage(page, server, golden("v1_store"))
    boot(page, url)
    shown = 3
    lost = kept = 0
    started = time.monotonic()
    for kill in range(KILLS):
        for _ in range(rng.randint(1, 3)):
            next_round(page)
            shown += 1
        in_flight = rng.random() < 0.5  # one more tap, not yet shown when the browser dies
        if in_flight:
            page.click("#next-round", no_wait_after=True)
        time.sleep(rng.uniform(0, 0.25))  # the kill's random moment, not a wait for the page
        pid = browser_pid(profile)
        os.kill(pid, signal.SIGKILL)
        t0 = time.monotonic()
        with contextlib.suppress(Exception):
            context.close()
        t1 = time.monotonic()
        context, page = launch()
        t2 = time.monotonic()
        boot(page, url)
        if os.environ.get("TC_KILL_TIMES"):
            start = page.evaluate("window.tc.engine.marks?.start")
            boot_s = time.monotonic() - t2
            print(f"close {t1 - t0:.2f} launch {t2 - t1:.2f} boot {boot_s:.2f} ({start} start)")
        after = round_shown(page)
        lost += max(0, shown - after)
        kept += after - shown if after > shown else 0
        assert shown <= after <= shown + int(in_flight), (
            f"kill {kill + 1} (seed {seed}): shown {shown}, now {after}"
        )
        shown = after
        rounds = [
            e["text"] for e in next(r for r in saved(page)["games"] if r["id"] == game_id)["data"]["log"]
        ]
        assert [t for t in rounds if t.startswith("Round ")] == [
            f"Round {n} begins" for n in range(2, shown + 1)
        ]
    context.close()
    took = time.monotonic() - started
    print(
        f"{KILLS} kills in {took:.0f} s (seed {seed}): {lost} lost, {kept} taps in flight kept, round {shown}"
    )
    assert lost == 0


# --- a full store ---------------------------------------------------------------------------------

#: Fills the origin's storage with incompressible data in another database, until it is full.
FILL = """async () => {
  const db = await new Promise((ok) => {
    const r = indexedDB.open('filler');
    r.onupgradeneeded = () => r.result.createObjectStore('x', { autoIncrement: true });
    r.onsuccess = () => ok(r.result);
  });
  const chunk = () => {
    const a = new Uint8Array(256 * 1024);
    for (let i = 0; i < a.length; i += 65536) crypto.getRandomValues(a.subarray(i, i + 65536));
    return a;
  };
  let n = 0;
  for (let size = 8; size >= 1; size /= 2) {
    for (;;) {
      const ok = await new Promise((done) => {
        const t = db.transaction('x', 'readwrite');
        for (let i = 0; i < size; i++) t.objectStore('x').add(chunk());
        t.oncomplete = () => done(true);
        t.onabort = () => done(false);
      });
      if (!ok) break;
      n += size;
    }
  }
  db.close();
  return n;
}"""


def test_a_full_store_stops_play_offers_export_and_the_app_still_starts(
    phone: BrowserContext, server: Server
) -> None:
    game_id = legacy()["games"][0]["id"]
    page = phone.new_page()
    with_local_storage(page, server, golden("v1_store"))
    boot(page, server.url + f"#/game/{game_id}")
    expect(page.locator("#round")).to_have_text("Round 3")
    next_round(page)
    # A broken record too: at the next start it must be set aside while storage is full.
    bad = {"id": "s-bad", "v": 1, "format": 1, "data": {"id": "s-bad", "name": "Half a squad"}}
    page.evaluate(WRITE_DB, ["squads", [bad]])
    usage = page.evaluate("navigator.storage.estimate().then((e) => e.usage)")
    cdp = phone.new_cdp_session(page)
    origin = server.url.rstrip("/")
    cdp.send("Storage.overrideQuotaForOrigin", {"origin": origin, "quotaSize": usage + 2_000_000})
    assert page.evaluate(FILL) > 0

    # The next action cannot be saved: play stops, the screen keeps what is saved, export works.
    page.click("#next-round")
    failed = page.locator("#store-failed")
    expect(failed).to_be_visible()
    expect(failed).to_contain_text("the storage on this device is full")
    expect(page.locator("#round")).to_have_text("Round 4")
    everything = download_json(page, "#store-failed-export")
    game = next(g for g in everything["games"] if g["id"] == game_id)
    assert game["round"] == 4
    assert everything["unsaved"][0]["data"]["round"] == 5  # the change that could not be saved
    assert len(everything["squads"]) == 4 and len(everything["units"]) == 1 and len(everything["games"]) == 3
    with pytest.raises(PlaywrightTimeout, match="intercepts pointer events"):  # no more play
        page.locator("#next-round").click(timeout=1000)

    # Started again, still full, with a broken record it cannot move aside: the app starts,
    # shows everything saved, says saving is stopped and offers the export.
    page.reload()
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    expect(failed).to_be_visible(timeout=BOOT_MS)
    expect(failed).to_contain_text("full")
    everything = download_json(page, "#store-failed-export")
    assert len(everything["squads"]) == 4 and everything["set_aside"][0]["raw"] == bad["data"]
    page.click("#store-failed-recover")
    expect(failed).to_be_hidden()  # the recover screen stays usable: export, delete
    expect(page.locator("#recover-failed")).to_contain_text("full")
    expect(page.locator("#recover-list .recover-item")).to_contain_text("Storage is full")
    assert len(download_json(page, "#export-all")["games"]) == 3
    assert [r["id"] for r in saved(page)["squads"]].count("s-bad") == 1  # still in its place


# --- the saved form of a game ----------------------------------------------------------------------


def long_game() -> Game:
    """A GUNFRAME game played until its link is about 6.8 kB: attack, repair by hand, next round
    (some 370 steps, about 190 kB of JSON)."""
    g = start([mech("A"), mech("B")])
    n = 0
    while len(share.encode_game(g)) < 6_800:
        g = games.act(g, "attack", {"attacker": "0/a", "target": "1/t"}, RandomDice(n))
        g = games.next_round(set_state(hurt(g, "1/t", 0), "1/t", "destroyed", False))
        n += 1
    return g


def test_a_long_game_is_saved_no_bigger_than_its_link(phone: BrowserContext, server: Server) -> None:
    game = long_game()
    token = share.encode_game(game)
    text = json.dumps(game.model_dump(mode="json"), separators=(",", ":"))
    assert len(token) < 7_000 and len(text) > 150_000
    page = phone.new_page()
    boot(page, server.url + "#/open/" + token)
    page.click("#open-game")
    expect(page.locator("#round")).to_have_text(f"Round {game.round}")
    (rec,) = saved(page)["games"]
    assert rec["data"] == game.model_dump(mode="json")
    assert rec["n"] == len(text) and rec["z"] < len(token), (rec["z"], len(token))
    page.reload()
    expect(page.locator("#round")).to_have_text(f"Round {game.round}", timeout=BOOT_MS)
    expect(page.locator("#game-log li")).to_have_count(len(game.log))


# --- damaged and newer records ---------------------------------------------------------------------

#: A squad no version of the app could read, and a game whose compressed bytes are damaged.
DAMAGE = f"""async () => {{
  const db = await {OPEN_DB};
  await new Promise((ok, no) => {{
    const t = db.transaction(['squads', 'games'], 'readwrite');
    const half = {{ id: 's-bad', name: 'Half a squad' }};
    t.objectStore('squads').put({{ id: 's-bad', v: 1, format: 1, data: half }});
    t.objectStore('games').put({{ id: 'g-bad', v: 1, format: 1, z: new Uint8Array([255, 7, 1, 2]), n: 99 }});
    t.oncomplete = ok;
    t.onerror = () => no(t.error);
  }});
  db.close();
}}"""

#: What a newer app would do: a new database version, with a store of its own.
NEWER = f"""async () => {{
  const old = await {OPEN_DB};
  const version = old.version;
  old.close();
  const db = await new Promise((ok, no) => {{
    const r = indexedDB.open('tc', version + 1);
    r.onupgradeneeded = () => r.result.createObjectStore('future', {{ keyPath: 'id' }});
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  }});
  db.close();
}}"""


def test_damaged_records_are_set_aside_and_a_newer_database_is_read_only(
    phone: BrowserContext, server: Server
) -> None:
    game_id = legacy()["games"][0]["id"]
    page = phone.new_page()
    with_local_storage(page, server, golden("v1_store"))
    boot(page, server.url + "#/squads")
    expect(page.locator(".squad-link")).to_have_count(4)
    page.evaluate(DAMAGE)
    page.reload()
    expect(page.locator("#notice")).to_contain_text("1 saved item(s) could not be read", timeout=BOOT_MS)
    expect(page.locator(".squad-link")).to_have_count(4)
    db = saved(page)
    assert "s-bad" not in [r["id"] for r in db["squads"]]
    assert [(a["id"], a["raw"]) for a in db["aside"]] == [("s-bad", {"id": "s-bad", "name": "Half a squad"})]
    page.goto(server.url + "#/recover")
    items = page.locator("#recover-list .recover-item")
    expect(items).to_have_count(2)
    expect(page.locator("#recover-list")).to_contain_text("Half a squad")
    expect(page.locator("#recover-list")).to_contain_text("saved bytes are damaged")
    page.once("dialog", lambda d: d.accept())
    items.filter(has_text="saved bytes are damaged").locator("[data-do=delete]").click()
    expect(items).to_have_count(1)
    assert "g-bad" not in [r["id"] for r in saved(page)["games"]]

    # A newer version of the app upgraded the database: this one reads it but changes nothing.
    page.goto(server.url + OUTSIDE_THE_APP)
    page.evaluate(NEWER)
    boot(page, server.url + f"#/game/{game_id}")
    expect(page.locator("#notice")).to_contain_text("newer version of the app")
    expect(page.locator("#round")).to_have_text("Round 3")
    before = saved(page)
    page.click("#next-round")
    expect(page.locator("#notice")).to_contain_text("Nothing was changed")
    expect(page.locator("#round")).to_have_text("Round 3")
    assert saved(page) == before
    page.goto(server.url + "#/recover")
    expect(page.locator("#recover-readonly")).to_contain_text("read-only")

    # A newer app that dropped a store this one needs: the app still starts, says saving is
    # stopped, and leaves that database as it is.
    page.goto(server.url + OUTSIDE_THE_APP)
    dropped = NEWER.replace("createObjectStore('future', { keyPath: 'id' })", "deleteObjectStore('games')")
    page.evaluate(dropped)
    before = saved(page)
    boot(page, server.url + "#/squads")
    failed = page.locator("#store-failed")
    expect(failed).to_contain_text("a newer version of the app keeps it in another shape")
    expect(page.locator("#open-recover")).to_be_attached()
    assert saved(page) == before and "games" not in before
