"""The screen walk's checks (test_e2e_every_screen.Walk) find what they look for.

A walk that reports nothing proves little unless its checks can fail: here one page, broken on
purpose and without the app or its engine (a few CPU seconds), is met at three stops (a screen, an
action sheet, a game screen's cards), with the walk starting in either theme, and each planted
fault must be reported: a raw id and a key in the words, a page wider than a 320 px phone, a
button's word broken mid-word, a refusal that is not a sentence, text too faint in the light theme
and other text too faint in the dark one; on the sheet a control running off it, a label cut, two
controls overlapping, the odds line below the fold; on a unit card a name broken mid-word, a name
too small to tap, a button covering the name and the damage box's words where there is no room.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from conftest import PHONE, Server
from playwright.sync_api import Browser, Page
from test_e2e_every_screen import Theme, Walk

BROKEN = """<!doctype html>
<html lang="en"><head><meta name="viewport" content="width=device-width">
<title>Broken on purpose</title><style>
  body { margin: 0; font: 16px sans-serif; background: #fff; color: #111; }
  .faint { color: #c8c8c8; }
  .dim { color: #222; }
  .wide { width: 400px; }
  .narrow { width: 64px; word-break: break-all; }
  @media (prefers-color-scheme: dark) {
    body { background: #111; color: #eee; }
    .faint { color: #eee; }
    .dim { color: #333; }
  }
  #action-panel { width: 300px; border: 1px solid; }
  .sheet-body { max-height: 200px; overflow: auto; }
  .spacer { height: 900px; }
  .cut { width: 60px; white-space: nowrap; overflow: hidden; }
  .long { width: 420px; }
  .first, .over { display: block; }
  .over { margin-top: -30px; }
  .card-row { display: flex; }
  .card-toggle { width: 100px; }
  .unit-name { display: inline-block; width: 40px; word-break: break-all; }
  .act { margin-left: -40px; }
</style></head><body><main>
  <h1>Broken on purpose</h1>
  <p>Saved as 3f2a9c1e-7b4d-4e2a-9c1d-2b3e4f5a6b7c with its move_speed.</p>
  <p class="faint">Faint in the light theme only.</p>
  <p class="dim">Dim in the dark theme only.</p>
  <div class="wide">Wider than a small phone.</div>
  <button type="button" class="narrow">Requisition</button>
  <section id="action-panel" aria-label="Sheet">
    <header class="sheet-head"><button type="button">Close</button></header>
    <div class="sheet-body">
      <p class="error">no sentence here</p>
      <button type="button" class="cut">A label much longer than its button</button>
      <button type="button" class="long">Runs off</button>
      <button type="button" class="first">First</button>
      <button type="button" class="over">Second</button>
      <div class="spacer"></div>
      <p id="odds-headline">Hits on 4+</p>
    </div>
    <footer class="sheet-foot"><button type="button">Roll</button></footer>
  </section>
  <div class="unit-card" data-unit="0/u1">
    <div class="card-row">
      <button type="button" class="card-toggle" aria-expanded="false">
        <span class="unit-name">Supercalifragilistic</span>
        <span class="dmg-box"><small class="dmg-label">damage </small><span class="dmg">0/6</span></span>
      </button>
      <button type="button" class="act">Shoot</button>
    </div>
  </div>
</main></body></html>"""

#: What each stop must report, each as a piece of one finding.
FOUND = {
    "screen": [
        "an id '3f2a9c1e-7b4d-4e2a-9c1d-2b3e4f5a6b7c'",
        "a key 'move_speed'",
        "320px, 100% text: the page is",
        'breaks "Requisition" mid-word',
        "a refusal that is not a sentence: 'no sentence here'",
        "light: color-contrast (serious)",
        "dark: color-contrast (serious)",
    ],
    "sheet": [
        '"Runs off" runs off the sheet',
        '"A label much longer than its b" is cut',
        '"First" overlaps "Second"',
        "the odds line needs scrolling",
    ],
    "game": [
        '0/u1: "Supercalifragilistic" is broken mid-word',
        "0/u1: name 100x",
        "0/u1: Shoot covers the name",
        "320px, 100% text: the damage box reads 'damage 0/6'",
    ],
}


@pytest.fixture
def page(chromium: Browser) -> Iterator[Page]:
    context = chromium.new_context(**PHONE)  # type: ignore[arg-type]
    try:
        yield context.new_page()
    finally:
        context.close()


def test_the_walk_reports_every_planted_fault(page: Page, server: Server) -> None:
    """The three stops on one page (one load, axe-core put on it once), each by a walk of its own
    (every look new to it); the game screen's walk starts in the dark theme, the others in the
    light one: each theme's contrast fault is found whichever theme a stop starts in."""
    page.set_content(BROKEN)
    stops: list[tuple[str, str | None, bool, Theme]] = [
        ("screen", None, False, "light"),
        ("sheet", "#action-panel", True, "light"),
        ("game", None, False, "dark"),
    ]
    for where, scope, sheet, first in stops:
        walk = Walk(page, server)
        walk.theme = first
        page.emulate_media(color_scheme=first)
        walk.stop(where, scope, sheet=sheet)
        said = walk.problems.get(where, [])
        missing = [
            x
            for x in FOUND[where] + (FOUND["screen"] if where == "game" else [])
            if not any(x in f for f in said)
        ]
        assert not missing, f"{where}, {first} first: {missing} not in {said}"
        if where == "sheet":  # the sheet's text is read alone: the faults under it are not its own
            assert not any("color-contrast" in f or "move_speed" in f for f in said), said
