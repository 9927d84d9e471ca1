"""Shared fixtures: the built site, a local server for it, and headless Chromium."""

from __future__ import annotations

import functools
import http.server
import re
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


@pytest.fixture(scope="session")
def dist() -> Path:
    """dist/ as `python3 build.py test` left it (built here if it is missing)."""
    if not (build.DIST / "sw.js").exists():
        build.build()
    return build.DIST


class Server:
    """dist/ served on 127.0.0.1 in a thread, as `build.py serve` serves it."""

    def __init__(self, directory: Path | None = None) -> None:
        served: list[str] = []
        self.served = served

        class Counting(build.Handler):
            def do_GET(self) -> None:
                served.append(self.path.split("?")[0])
                super().do_GET()

        handler = functools.partial(Counting, directory=str(directory or build.DIST))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="session")
def server(dist: Path) -> Iterator[Server]:
    s = Server()
    yield s
    s.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(build.CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


#: How long a test waits for the engine to boot (first visits precache ~16 MB first).
BOOT_MS = 90_000


@pytest.fixture
def phone(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh browser profile on a phone-sized screen."""
    context = browser.new_context(**PHONE)
    yield context
    context.close()


def apply_result(page: Page) -> None:
    """Tap "Apply" on a resolved action and check that the game screen shows it applied: the result
    the player read is now the newest step of the log, in force (steps undone before are dropped),
    and the pending result is gone from the action panel."""
    verdict = page.locator("#action-text").inner_text()
    applied = page.locator("#game-log li:not(.undone)").count()
    page.click("#apply-result")
    log = page.locator("#game-log li")
    expect(log).to_have_count(applied + 1)
    expect(log.first).to_have_text(verdict)
    expect(log.first).not_to_have_class(re.compile(r"\bundone\b"))
    expect(page.locator("#action-text")).to_have_count(0)


def type_dice(page: Page, face_for: dict[str, str] | None = None, default: str = "1") -> None:
    """Answer every "roll N dice" prompt of the action panel by tapping faces.

    ``face_for`` maps a word of the prompt (e.g. "attack") to the face to tap; any
    other prompt gets ``default``.  Returns once the action's result is shown.
    """
    for _ in range(80):
        shown = page.wait_for_selector("#action-prompt, #action-text")
        if shown.get_attribute("id") == "action-text":
            return
        prompt = shown.inner_text()
        face = next((f for word, f in (face_for or {}).items() if word in prompt), default)
        page.locator(f'#action-result [data-face="{face}"]').first.click()
        shown.wait_for_element_state("hidden")  # the result box is drawn anew
    raise AssertionError("the action kept asking for dice")


def typed_outcome(
    game: dict[str, Any], action: str, input: dict[str, Any], face_for: dict[str, str], default: str = "1"
) -> dict[str, Any]:
    """The game after ``action`` with dice typed as :func:`type_dice` types them, computed by the
    engine outside the browser: what the page must then show, exactly."""
    from core import api

    faces: list[int] = []
    for _ in range(200):
        reply = api.call("game.act", {"game": game, "action": action, "input": input, "faces": faces})
        assert reply["ok"], reply
        if reply["result"]["complete"]:
            return dict(reply["result"]["game"])
        purpose = reply["result"]["need"]["purpose"]
        faces.append(int(next((f for word, f in face_for.items() if word in purpose), default)))
    raise AssertionError("the action kept asking for dice")


#: Every squad, own unit and game as the app saved it in its database (IndexedDB "tc", one
#: record per item, its JSON raw-deflated when that is smaller: web/store.js).
READ_SAVED = """async () => {
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open('tc');
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  const out = { versions: {} };
  for (const kind of ['squads', 'units', 'games']) {
    const recs = db.objectStoreNames.contains(kind) ? await new Promise((ok) => {
      const r = db.transaction(kind).objectStore(kind).getAll();
      r.onsuccess = () => ok(r.result);
    }) : [];
    out[kind] = [];
    for (const rec of recs) {
      out.versions[`${kind}/${rec.id}`] = rec.v;
      if (!rec.z) { out[kind].push(rec.data); continue; }
      const stream = new Blob([rec.z]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
      out[kind].push(JSON.parse(await new Response(stream).text()));
    }
  }
  db.close();
  return out;
}"""


def saved_store(page: Page) -> dict[str, Any]:
    """What the app has saved, read from its database (not from the screen): each kind's items,
    and under "versions" each record's version ("games/<id>": n), which every write raises."""
    data: dict[str, Any] = page.evaluate(READ_SAVED)
    return data


def saved_game(page: Page) -> dict[str, Any]:
    """The game the page shows, as it saved it."""
    game_id = page.url.split("#/game/")[1]
    return dict(next(g for g in saved_store(page)["games"] if g["id"] == game_id))


def unit_state(game: dict[str, Any], ref: str) -> dict[str, Any]:
    side, key = ref.split("/")
    return dict(next(u for u in game["sides"][int(side)]["units"] if u["key"] == key)["state"])


def open_with_store(page: Page, url: str, store: dict[str, Any]) -> None:
    """Open ``url`` (a route of the app) with ``store`` as the saved data, as if built by hand."""
    base = url.split("#")[0]
    page.goto(base + "#/squads")
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    expect(page.locator("#new-squad")).to_be_visible()  # the first store is saved: now replace it
    # The app reads the first release's localStorage store once per database: a new database
    # (the app closes its own when asked) brings ``store`` over as that release had saved it.
    page.evaluate(
        """(s) => new Promise((ok, no) => {
          const r = indexedDB.deleteDatabase('tc');
          r.onsuccess = () => { localStorage.setItem('tc.store', JSON.stringify(s)); ok(); };
          r.onerror = () => no(r.error);
        })""",
        store,
    )
    page.goto(url)
    page.reload()
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
