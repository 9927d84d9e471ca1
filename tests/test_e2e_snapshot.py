"""Engine start-up from a memory snapshot (web/snapshot.js), in headless Chromium.

The first start in a browser is a normal one and stores a snapshot once the engine is
idle; later starts restore it. A restored engine answers exactly as a normal one; a
damaged snapshot, or one of another build, is dropped and the engine starts normally.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from benchmark import STORED_JS
from conftest import BOOT_MS, PHONE, Phones, Server
from playwright.sync_api import BrowserContext, Page, expect
from test_e2e_dice import open_dice, set_pool
from test_pyodide import CORPUS, strip_timing

from core import api

#: Every request in turn through the page's engine client, as the app sends them.
CALL_ALL_JS = """async (requests) => {
  const out = [];
  for (const r of requests) out.push(await window.tc.engine.call(r.op, r.args ?? {}));
  return out;
}"""

#: IndexedDB helpers for the tests. A record is always written back with Blobs made anew:
#: Chromium may drop the file of a Blob read from IndexedDB once its page is closed.
IDB_JS = """
const idb = () => new Promise((resolve, reject) => {
  const open = indexedDB.open("tc-engine", 1);
  open.onsuccess = () => resolve(open.result);
  open.onerror = () => reject(open.error);
});
const readRecord = async (name) => {
  const db = await idb();
  const record = await new Promise((resolve, reject) => {
    const get = db.transaction("snapshot").objectStore("snapshot").get(name);
    get.onsuccess = () => resolve(get.result);
    get.onerror = () => reject(get.error);
  });
  db.close();
  const copy = async (blob) => new Blob([await blob.arrayBuffer()]);
  record.snapshot = await copy(record.snapshot);
  for (const lib of record.libs) lib.code = await copy(lib.code);
  return record;
};
const writeRecord = async (name, record) => {
  const db = await idb();
  await new Promise((resolve, reject) => {
    const tx = db.transaction("snapshot", "readwrite");
    tx.objectStore("snapshot").put(record, name);
    tx.oncomplete = resolve;
    tx.onabort = tx.onerror = () => reject(tx.error);
  });
  db.close();
};
"""

#: Damage the stored snapshot as storage can: cut its end off, or overwrite a megabyte in it.
DAMAGE_JS = (
    "async (how) => {"
    + IDB_JS
    + """
  const record = await readRecord("current");
  const bytes = new Uint8Array(await record.snapshot.arrayBuffer());
  if (how === "truncated") record.snapshot = new Blob([bytes.subarray(0, bytes.length - 65536)]);
  else { bytes.fill(0xa5, 8 << 20, 9 << 20); record.snapshot = new Blob([bytes]); }
  await writeRecord("current", record);
  // Read back whole before the page may close: Chromium can still be writing the file.
  await readRecord("current");
}"""
)

#: Copy the stored record from one IndexedDB key to another, optionally relabelled.
COPY_JS = (
    "async ([from, to, key]) => {"
    + IDB_JS
    + """
  const record = await readRecord(from);
  if (key) record.key = key;
  await writeRecord(to, record);
  await readRecord(to);
}"""
)

THREE_DICE = {"attack": {"dice": 3, "success_on": 4, "crit_on": 6}}


def boot(context: BrowserContext, url: str) -> Page:
    page = context.new_page()
    page.goto(url + "#/dice")
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    return page


def marks(page: Page) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("window.tc.engine.marks")
    return result


#: Polls the stored record (summarised as STORED_JS does) in the page until TEST holds for it.
WAIT_STORED_JS = """async (ms) => {
  const stored = STORED;
  const test = TEST;
  const end = performance.now() + ms;
  for (;;) {
    const s = await stored();
    if (s && test(s)) return { s };
    if (performance.now() > end) return { timeout: s };
    await new Promise((ok) => setTimeout(ok, 200));
  }
}"""


def wait_for(page: Page, done: str, timeout_s: float = 120) -> dict[str, Any]:
    """The stored record (summarised) once ``done`` (a JavaScript predicate) holds for it."""
    script = WAIT_STORED_JS.replace("STORED", STORED_JS).replace("TEST", done)
    got: dict[str, Any] = page.evaluate(script, timeout_s * 1000)
    assert "s" in got, f"the stored snapshot is still {got['timeout']}"
    return dict(got["s"])


def stored_snapshot(page: Page) -> dict[str, Any]:
    """The stored record once the engine has made its snapshot (or failed to)."""
    return wait_for(page, "(s) => s.bytes || s.failed")


def expected_reply(op: str, args: dict[str, Any]) -> dict[str, Any]:
    return strip_timing(json.loads(api.handle(json.dumps({"op": op, "args": args}))))


def assert_engine_works(page: Page) -> None:
    reply = page.evaluate("(args) => window.tc.engine.call('dice.odds', args)", THREE_DICE)
    assert strip_timing(reply) == expected_reply("dice.odds", THREE_DICE)


def build_id(page: Page) -> str:
    content = page.locator('meta[name="tc-build"]').get_attribute("content")
    assert content
    return content


def test_a_first_visit_starts_normally_and_stores_a_snapshot(browser: Phones) -> None:
    """What every returning phone of the tests holds, checked on the first visit that made it:
    tests/conftest.py's Phones makes its template profile by a first visit (a profile that never
    opened the app, on this worker's server) and keeps what that visit did; a returning phone (a
    copy of the template) then starts from the stored snapshot. The template's first visit is the
    one checked here, so this test pays no first visit of its own (it did until 2026-11-27)."""
    made = browser.template_made()
    assert made["marks"]["start"] == "normal"
    assert made["told"]["stored"] is True, made["told"]
    stored = made["stored"]
    assert stored["failed"] is None
    assert stored["key"].startswith(made["build"] + " | Mozilla/")
    # The whole wasm memory (38 MB here), of which about a third is zero pages, not stored;
    # and pydantic_core's library code.
    assert stored["bytes"] > 30e6
    assert 0.4 * stored["bytes"] < stored["stored"] < 0.9 * stored["bytes"]
    assert stored["code"] > 1e6
    # Every module of the core is in it, imported one at a time (each step once the engine has
    # been quiet, so that a tap waits behind one step at most, not the whole making).
    making = stored["making"]
    assert making["modules"] > 100, making
    assert making["longest_step"] and making["longest_step_ms"] < making["total_ms"], making
    # That a phone returning to the app then starts from it, and works, is checked by the first
    # restored session of test_rolls_differ_between_two_restored_sessions (it was checked here too,
    # with a restore of its own).


@pytest.fixture
def snapshotted(phone: BrowserContext) -> BrowserContext:
    """A phone whose first visit started normally and stored its snapshot (a returning phone)."""
    return phone


def test_rolls_differ_between_two_restored_sessions(
    browser: Phones, snapshotted: BrowserContext, server: Server
) -> None:
    """A returning phone starts from the snapshot its first visit stored, and works; two restored
    sessions of it roll differently (the dice are not restored with the memory)."""
    rolls = []
    for offline in (False, True):
        # The second in airplane mode: a restore needs nothing from the network either.
        snapshotted.set_offline(offline)
        page = boot(snapshotted, server.url)
        assert marks(page)["start"] == "snapshot"
        reply = page.evaluate("window.tc.engine.call('dice.roll', {attack: {dice: 40, success_on: 4}})")
        rolls.append([d["first"] for d in reply["result"]["roll"]["attack"]["dice"]])
        if not offline:  # the snapshot of this build that the template's first visit made
            assert build_id(page) == browser.template_made()["build"]
            assert_engine_works(page)  # after the roll: both sessions' rolls are their first calls
        page.close()
    assert len(rolls[0]) == 40
    # 40 dice alike by chance: 1 in 6**40.
    assert rolls[0] != rolls[1]


#: The damages storage can do to a stored snapshot, and what the engine then says of it.
DAMAGES = [("truncated", "bytes, not"), ("corrupted", "damaged")]


def test_a_damaged_snapshot_falls_back_to_a_normal_start_that_answers_the_corpus_alike(
    snapshotted: BrowserContext, server: Server
) -> None:
    """A damaged snapshot is dropped and the engine starts normally, twice, then this build makes
    no more snapshots in this browser; and a restored engine answers the Pyodide corpus exactly as a
    normal one and as the core outside the browser.

    Until 2026-11-27 these were three tests, each paying engine starts of its own: the corpus on a
    restore and on a normal start forced by refusing the snapshot, and one test per damage (each
    damaged twice). Now the corpus is answered by the first restore below (before its snapshot is
    damaged) and by the normal start that falls back from it; and the two damages come one after
    the other on one phone, a cut-off end the first failure and overwritten bytes the second: each
    damage is still detected with its own words and falls back to a working engine, and the
    counting (made again after the first failure, none after the second) is checked once."""
    expected = [expected_reply(r["op"], r.get("args", {})) for r in CORPUS]
    for failures, (how, error) in enumerate(DAMAGES, start=1):
        # Damaged only once this page's engine has read it: a reader of a replaced record fails too.
        page = boot(snapshotted, server.url)
        assert marks(page)["start"] == "snapshot"
        key = stored_snapshot(page)["key"]
        if failures == 1:
            from_snapshot = page.evaluate(CALL_ALL_JS, CORPUS)
        page.evaluate(DAMAGE_JS, how)
        page.close()
        page = boot(snapshotted, server.url)
        shown = marks(page)
        assert (shown["start"], shown["snapshot_failures"]) == ("normal", failures), shown
        assert error in shown["snapshot_error"], shown
        assert_engine_works(page)
        if failures == 1:
            normal = page.evaluate(CALL_ALL_JS, CORPUS)
            assert len(from_snapshot) == len(normal) == len(CORPUS) > 50
            for request, a, b, c in zip(CORPUS, from_snapshot, normal, expected, strict=True):
                assert strip_timing(a) == strip_timing(b) == c, request
            # Dropped and made again, once.
            stored = wait_for(page, "(s) => s.bytes !== null")
            assert (stored["key"], stored["failures"], stored["failed"]) == (key, 1, None)
        page.close()
    # After a second failure this build makes no more snapshots in this browser.
    page = boot(snapshotted, server.url)
    assert marks(page)["start"] == "normal"
    assert_engine_works(page)
    # Once it has been idle as long as it waits before making one, the engine says it made none.
    told = page.wait_for_function("() => window.tc.engine.snapshot", timeout=BOOT_MS).json_value()
    assert (told["stored"], told["message"]) == (False, "none made: it failed 2 times here"), told
    stored = page.evaluate(STORED_JS)
    assert (stored["key"], stored["failures"], stored["bytes"], stored["stored"]) == (key, 2, None, 0)
    assert error in stored["failed"]


def test_a_new_build_replaces_the_old_keeps_saved_data_and_never_restores_the_old_snapshot(
    browser: Phones, dist: Path, tmp_path: Path
) -> None:
    """A new build of the site: the app offers the update, the page then runs the new build from
    a cache of its own, the dice tool's saved settings are kept, and the old build's snapshot is
    dropped (never restored, even labelled as the new one's) and a new one made.

    Until 2026-11-27 this was two tests, each paying a first visit of a copy of the site and the
    new build's normal start: "a new build replaces the old and keeps saved data" (the dice tool's
    settings and the caches, tests/test_e2e_dice.py) and this file's "a new build replaces the
    snapshot". One update is checked for both now, every assertion of each kept."""
    site = tmp_path / "site"
    shutil.copytree(dist, site)
    server = Server(site)
    context = browser.new_context(**PHONE, first_visit=True)
    errors: list[str] = []
    try:
        page = context.new_page()
        open_dice(page, server.url)
        page.on("pageerror", lambda e: errors.append(str(e)))
        set_pool(page, "attack", dice=9)
        expect(page.locator("#odds-table tbody tr")).to_have_count(10)
        old = build_id(page)
        old_key = stored_snapshot(page)["key"]
        assert old_key.startswith(old + " | ")
        page.evaluate(COPY_JS, ["current", "kept-for-the-test", None])

        # A new build: every file that names the build changes.
        new = old + "-next"
        for name in ("index.html", "sw.js", "build-info.js"):
            path = site / name
            path.write_text(path.read_text().replace(old, new))
        page.reload()
        expect(page.locator("#update")).to_be_visible(timeout=30_000)
        page.click("#update-now")
        expect(page.locator('meta[name="tc-build"]')).to_have_attribute("content", new, timeout=30_000)
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        # The dice tool's settings survive the update, and only the new build's cache is left.
        expect(page.locator("#dice")).to_be_visible()
        expect(page.locator('[data-pool="attack"] [name="dice"]')).to_have_value("9")
        assert page.evaluate("caches.keys()") == [f"tc-{new}"]
        assert marks(page)["start"] == "normal"
        assert marks(page)["snapshot_dropped"] == "another build or browser"
        assert_engine_works(page)
        new_key = stored_snapshot(page)["key"]
        assert new_key == old_key.replace(old, new)
        page.close()

        page = boot(context, server.url)
        assert marks(page)["start"] == "snapshot"
        assert_engine_works(page)
        # The old build's snapshot labelled as the new one's: its own memory tells.
        page.evaluate(COPY_JS, ["kept-for-the-test", "current", new_key])
        page.close()
        page = boot(context, server.url)
        assert marks(page)["start"] == "normal"
        assert marks(page)["snapshot_error"] == "the snapshot was made by another build"
        assert_engine_works(page)
        assert errors == []
    finally:
        context.close()
        server.stop()


#: Damage the stored snapshot and write its checksum anew (as a bug of the app's own could): it
#: passes the checksum but is bad.  The checksum is computed as web/snapshot.js computes it.
BAD_WITH_GOOD_CHECKSUM_JS = (
    "async () => {"
    + IDB_JS
    + """
  const checksum = (bytes) => {
    const view = new Uint8Array(bytes);
    const words = new Uint32Array(view.buffer, view.byteOffset, view.byteLength >>> 2);
    let a = 0x811c9dc5, b = view.byteLength | 0;
    for (let i = 0; i < words.length; i++) {
      const w = words[i];
      a = (Math.imul(a, 31) + w) | 0;
      b = Math.imul(b ^ w, 0x9e3779b1);
    }
    for (let i = words.length * 4; i < view.byteLength; i++) a = (Math.imul(a, 31) + view[i]) | 0;
    return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
  };
  const record = await readRecord("current");
  const bytes = new Uint8Array(await record.snapshot.arrayBuffer());
  bytes.fill(0xa5, 8 << 20, 12 << 20);
  record.snapshot = new Blob([bytes]);
  record.checksum = checksum(bytes.buffer);
  await writeRecord("current", record);
  await readRecord("current");
}"""
)


def test_an_engine_that_dies_after_a_restore_blames_the_snapshot_and_starts_normally(
    snapshotted: BrowserContext, server: Server
) -> None:
    """Issue 19: a snapshot that restores but whose engine then dies (a bad snapshot with a good
    checksum) used to be restored by every worker restart and every reload, ending at "Engine failed
    ... Reload to try again" for good.  Now the worker after it starts normally, and so does a reload."""
    page = boot(snapshotted, server.url)
    assert marks(page)["start"] == "snapshot"
    key = stored_snapshot(page)["key"]
    # The engine restored from the snapshot dies (a browser kills a worker that misbehaves).
    page.evaluate("window.tc.engine.patience = 2000; window.tc.engine.worker.terminate();")
    reply = page.evaluate("window.tc.engine.call('meta', {})")
    assert reply["ok"] is False and "restarted" in reply["error"]["message"]
    page.wait_for_function("() => window.tc.engine.marks?.snapshot_blamed", timeout=BOOT_MS)
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    shown = marks(page)
    assert shown["start"] == "normal", shown
    assert "stopped answering" in shown["snapshot_blamed"]
    assert_engine_works(page)
    # dropped and counted; made again once the engine is idle (one more chance for this build)
    stored = wait_for(page, "(s) => s.bytes !== null")
    assert (stored["key"], stored["failures"]) == (key, 1)
    page.close()

    # A bad snapshot with a good checksum: whatever it does, the engine ends in a normal start.
    page = boot(snapshotted, server.url)
    assert marks(page)["start"] == "snapshot"
    page.evaluate(BAD_WITH_GOOD_CHECKSUM_JS)
    page.close()
    page = snapshotted.new_page()
    page.goto(server.url + "#/dice")
    for _ in range(4):  # a dead worker is replaced, at most this often
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        reply = page.evaluate("(args) => window.tc.engine.call('dice.odds', args)", THREE_DICE)
        if reply["ok"] and page.evaluate("window.tc.engine.state") == "ready":
            break
    shown = marks(page)
    assert shown["start"] == "normal", shown
    assert_engine_works(page)
    why = shown.get("snapshot_error") or shown.get("snapshot_blamed")
    print(f"\nbad snapshot with a good checksum: {why}")
    page.close()
    page = boot(snapshotted, server.url)  # and a reload starts normally too: never "Engine failed"
    assert marks(page)["start"] == "normal"
    assert_engine_works(page)
