"""Saved data in real Chromium: IndexedDB records that survive kills, tabs, a full disk and damage.

The saves of the first release (localStorage, tests/golden/v1_*.json, made by that release in
Chromium) are brought over with nothing lost; two tabs editing the same and different records
lose no update; the browser process killed (SIGKILL) right after actions shown as applied
loses none of them; a full store stops play and offers an export, and the app still starts;
damaged and newer data are set aside or read-only and shown on the recover screen.
"""

from __future__ import annotations

import json
import os
import random
import signal
import time
from pathlib import Path
from typing import Any

import pytest
from conftest import BOOT_MS, CHROMIUM_ARGS, PHONE, Server
from playwright.sync_api import Browser, BrowserContext, Page, expect, sync_playwright

import build

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
    page.goto(server.url + "no-such-page")
    page.evaluate("(s) => Object.entries(s).forEach(([k, v]) => localStorage.setItem(k, v))", keys)


def saved(page: Page) -> dict[str, Any]:
    data: dict[str, Any] = page.evaluate(READ_DB)
    return data


def kept_whole(loaded: Any, raw: Any) -> bool:
    """Every value ``raw`` held is in ``loaded`` (which may add defaults the release left out)."""
    if isinstance(raw, dict):
        return isinstance(loaded, dict) and all(
            k in loaded and kept_whole(loaded[k], v) for k, v in raw.items()
        )
    if isinstance(raw, list):
        return isinstance(loaded, list) and len(loaded) == len(raw) and all(map(kept_whole, loaded, raw))
    return bool(loaded == raw)


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
    page.fill("#squad-name", "Renamed")
    page.locator("#squad-name").dispatch_event("change")
    expect(page.locator("#notice")).to_contain_text("newer version of the app")
    expect(page.locator("#notice")).to_contain_text("Nothing was changed")
    assert saved(page)["squads"] == before["squads"]
    page.goto(server.url + "#/recover")
    expect(page.locator("#recover-list .recover-item")).to_have_count(8)
    expect(page.locator("#recover-list")).to_contain_text("read-only until the app is updated")
