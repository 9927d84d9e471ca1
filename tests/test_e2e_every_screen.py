"""Every screen and sheet of every registered system, in one walk per system (issue 22).

The systems are read from the registry (core.systems.IMPLEMENTATIONS); nothing below names one.
Each walk boots the engine once, on a 390x844 phone, with two squads of the system's own
catalogue units and a game between them, and visits: home, the squads list, the squad editor
(everything folded open), a unit's editor, the roster, the squad's share link, the new-game
screen, the game screen (every card open), the sheet of every action of the game's list (over
the game screen with its cards folded; a target picked, every fold of the sheet open, a
modifier's explanation shown), the core action rolled and its
result, the game after Apply (the log, the readings, the settings), and units in every state
(acted, destroyed, every condition on, damaged).

At every stop:

* raw text: what a player can read (the text, every choice of every list, labels read out or
  shown on hover) holds no id (uuid-like, snake_case), no "0 = first", no dotted field path, no
  rulebook line number (the setting is off), no "None", "null", "undefined", "NaN" or
  "[object Object]";
* axe-core: no serious or critical violation, in the light and in the dark theme (the dark one
  changes only colours: there, the contrast rule alone). Contrast is judged by colours, size and
  weight, so at each stop the contrast rule judges only the text whose look (:data:`LOOKS`) no
  earlier stop of the walk had checked in that theme (a stop with none skips the rule, and the
  walk's summary counts them); every other rule runs at every stop;
* at 320 px wide and at 150% text: the page does not scroll sideways; on the game screen, each
  unit's one-line row keeps its name readable and its buttons apart and on the screen, nothing
  sticks out of an open card, and the damage says what it counts where there is room; on every
  action sheet, nothing runs off the sheet, no label spills out of its button, no two controls
  overlap, and the odds line is on the glass without scrolling the sheet.

The home and dice screens are the same for every system: they are read in the first walk.

All the problems of a walk are gathered and reported together. test_e2e_walk_checks.py plants
each kind of fault on a page and shows the walk reports it.

What a walk costs (CPU seconds, Chromium included, TC_CPU_SECONDS): each relayout of a big page
(a size, a text size) is some 0.1 s, a colour-scheme change with its restyle some 40 ms, an axe run
0.2-0.5 s and the contrast rule on every text of the game screen 2 s; so each size's checks are one
call, the theme is changed once a stop, and the contrast rule judges new looks only.
"""

from __future__ import annotations

import os
import re
import time
from typing import Any, Literal

import pytest
from axe_playwright_python.sync_playwright import Axe
from conftest import BOOT_MS, PHONE, Server, _tree_cpu, open_with_store, seeded_dice
from playwright.sync_api import Browser, Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from table_flow import settle

from core import api
from core.systems import IMPLEMENTATIONS

AXE = Axe()
Theme = Literal["light", "dark"]


def sample_store(system: str) -> dict[str, Any]:
    """Two squads of the system's catalogue units (alternating), equal in number, and a game."""
    catalogue = api.call("system.describe", {"system": system})["result"]["catalogue"]
    per_side = max(1, min(5, len(catalogue) // 2))

    def squad(n: int, mixed: bool) -> dict[str, Any]:
        picks = [catalogue[(2 * k + n if mixed else n) % len(catalogue)] for k in range(per_side)]
        units = [{"key": f"u{k + 1}", "profile": c["profile"]} for k, c in enumerate(picks)]
        return {"id": f"s{n + 1}", "name": f"Squad {n + 1}", "system": system, "units": units}

    # a mix of units per side where the system's army rules allow it (one faction...), else one kind
    for mixed in (True, False):
        squads = [squad(0, mixed), squad(1, mixed)]
        sides = [{"name": name, "squad": q} for name, q in zip(("Red", "Blue"), squads, strict=True)]
        reply = api.call("game.new", {"id": "g1", "name": "Red vs Blue", "sides": sides})
        if reply["ok"]:
            # the last unit of the second side near its end: the widest damage count a card shows
            # ("2499/2500" must fit beside the card's buttons, not run under them)
            game = reply["result"]
            last = game["sides"][1]["units"][-1]
            path = ["sides", 1, "units", len(game["sides"][1]["units"]) - 1, "state", "damage"]
            big = max(0, last["state"]["max_damage"] - 1)
            hurt = api.call(
                "game.adjust", {"game": game, "changes": [{"path": path, "value": big}], "text": "hurt"}
            )
            game = hurt["result"] if hurt["ok"] else game
            return {"schema_version": 1, "squads": squads, "units": [], "games": [game]}
    raise AssertionError(reply)


#: A unit card's one-line row at a phone's width: its name readable and tappable (at least 110 px
#: wide, 44 px high), its action buttons overlapping neither the name nor each other, all inside
#: the screen; nothing inside an open card sticking out of it; and no word of the card's name, of
#: its track's row labels and cells, or of its profile's labels broken across two lines (issue 24:
#: "Mo/ds", "Ar/mo/r", "+/1" at 390 px) nor cut short ("Sample: Red Se...").
ROWS = """() => {
  const out = [];
  const lines = (node, from, to) => {
    const r = document.createRange();
    r.setStart(node, from);
    r.setEnd(node, to);
    return new Set([...r.getClientRects()].filter((q) => q.width > 0).map((q) => Math.round(q.top))).size;
  };
  const words = '.unit-name, .cell-grid th, .cell-grid .cell-text, .card-lines dt';
  for (const e of document.querySelectorAll(`.unit-card :is(${words})`)) {
    if (!e.getClientRects().length) continue;  // in a closed card or fold
    const unit = e.closest('.unit-card').dataset.unit;
    const walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      for (const m of t.data.matchAll(/[^\\s\\/-]+/g)) {
        if (lines(t, m.index, m.index + m[0].length) > 1) out.push(`${unit}: "${m[0]}" is broken mid-word`);
      }
    }
    if (e.matches('.unit-name') && e.scrollWidth > e.clientWidth + 1) out.push(`${unit}: its name is cut`);
  }
  const inside = (r) => r.left >= 0 && r.right <= document.documentElement.clientWidth + 0.5;
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const size = (r) => `${Math.round(r.width)}x${Math.round(r.height)}`;
  for (const row of document.querySelectorAll('.unit-card .card-row')) {
    const unit = row.closest('.unit-card').dataset.unit;
    const toggle = row.querySelector('.card-toggle');
    const name = toggle.getBoundingClientRect();
    // the name and the damage ("1000/2500") inside the card's own line, not under its buttons
    for (const part of toggle.querySelectorAll('.unit-name, .dmg-box, .dmg, .dmg-label')) {
      const r = part.getBoundingClientRect();
      if (!r.width) continue;
      if (r.left < name.left - 0.5 || r.right > name.right + 0.5) {
        out.push(`${unit}: "${part.textContent.trim()}" runs out of its line`);
      }
      for (const b of row.querySelectorAll('button.act')) {
        const said = part.textContent.trim();
        if (meet(r, b.getBoundingClientRect())) out.push(`${unit}: "${said}" runs under ${b.textContent}`);
      }
    }
    if (name.width < 110 || name.height < 44) out.push(`${unit}: name ${size(name)}`);
    const boxes = [...row.querySelectorAll('button.act')]
      .map((b) => [b.textContent, b.getBoundingClientRect()]);
    for (const [label, r] of boxes) {
      if (meet(r, name)) out.push(`${unit}: ${label} covers the name`);
      if (!inside(r)) out.push(`${unit}: ${label} runs off the screen`);
    }
    boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, q]) => {
      if (meet(r, q)) out.push(`${unit}: ${a} overlaps ${b}`);
    }));
  }
  // nothing inside an open card sticks out of it (a card does not clip what it cannot hold)
  for (const card of document.querySelectorAll('.unit-card')) {
    const edge = card.getBoundingClientRect().right;
    for (const e of card.querySelectorAll('button, output, label, strong, input, select')) {
      const r = e.getBoundingClientRect();
      const what = e.textContent.trim().slice(0, 20);
      if (r.width > 0 && r.right > edge + 0.5) out.push(`${card.dataset.unit}: "${what}" sticks out`);
    }
  }
  return out;
}"""

#: What a player can read under ``root``: its text, every choice of every list, and the labels
#: read out or shown on hover.
VISIBLE = """(root) => {
  const at = document.querySelector(root) ?? document.body;
  const out = [at.innerText];
  for (const o of at.querySelectorAll('select option, select optgroup')) {
    out.push(o.textContent, o.label ?? '');
  }
  for (const e of at.querySelectorAll('[aria-label], [title], [placeholder]')) {
    for (const name of ['aria-label', 'title', 'placeholder']) out.push(e.getAttribute(name) ?? '');
  }
  return out.join('\\n');
}"""

#: Open every fold (cards, full odds, more modifiers, readings, profiles) under a scope (the page
#: when none) before reading.
OPEN_ALL = """(root) => {
  const at = (root && document.querySelector(root)) || document;
  for (const d of at.querySelectorAll('details')) d.open = true;
  for (const b of at.querySelectorAll('.card-toggle[aria-expanded="false"]')) b.click();
}"""

#: Fold (``true``) or open (``false``) every unit card of the game screen.
CARDS = """(open) => {
  for (const b of document.querySelectorAll(`.card-toggle[aria-expanded="${open}"]`)) b.click();
}"""


#: What never reaches a player's eyes, each with what it is.
RAW = [
    ("an id", re.compile(r"\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b")),
    ("a key", re.compile(r"\b[a-z0-9]+(?:_[a-z0-9]+)+\b")),
    ("a unit's ref", re.compile(r"(?<![\w/])\d+/u\d+\b|\bside/key\b")),
    ("an index", re.compile(r"\b0 = first\b|\(0 =")),
    ("a field path", re.compile(r"\b[a-z_]+(?:\.(?:[a-z_]+|\d+)){1,}\b(?<!\be\.g)(?<!\bi\.e)")),
    ("a line number", re.compile(r"\bL\d{2,5}\b")),
    ("a programmer's nothing", re.compile(r"\b(?:None|null|undefined|NaN)\b|\[object Object\]")),
]

#: Dotted words that are English, not field paths.
ENGLISH = {"e.g", "i.e", "vs"}


def whole_line(text: str, match: re.Match[str]) -> str:
    start = text.rfind("\n", 0, match.start()) + 1
    end = text.find("\n", match.end())
    return text[start : end if end >= 0 else len(text)].strip()


def raw_words(text: str) -> list[str]:
    found = []
    for what, pattern in RAW:
        for match in pattern.finditer(text):
            if what == "a field path" and match.group(0) in ENGLISH:
                continue
            if match.group(0) == "None" and whole_line(text, match) == "None":
                continue  # a choice named "None" (no cover, no relationship): English
            start = max(text.rfind("\n", 0, match.start()) + 1, match.start() - 40)
            end = text.find("\n", match.end())
            around = text[start : min(end if end >= 0 else len(text), match.end() + 40)]
            found.append(f"{what} {match.group(0)!r} in {around.strip()!r}")
    return found


#: Every word of a button's label under ``root`` broken across two lines (issue: "Spen/d 1
#: Mom/entu/m", "Requisitio/n", "Unobstructe/d"), as a list of what is wrong: a label wraps between
#: its words; a word breaks only where it alone is wider than the screen.
BROKEN_BUTTONS = """(root) => {
  const out = [];
  const W = document.documentElement.clientWidth;
  const at = document.querySelector(root);
  if (!at) return out;
  for (const b of at.querySelectorAll('button, summary, a.button')) {
    if (!b.getClientRects().length || b.closest('details:not([open]) > :not(summary)')) continue;
    const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      for (const m of t.data.matchAll(/[^\\s\\/-]+/g)) {
        const r = document.createRange();
        r.setStart(t, m.index);
        r.setEnd(t, m.index + m[0].length);
        const rects = [...r.getClientRects()].filter((q) => q.width > 0);
        const tops = new Set(rects.map((q) => Math.round(q.top)));
        const wide = rects.reduce((w, q) => w + q.width, 0);
        if (tops.size > 1 && wide < W - 24) {
          const label = b.textContent.trim().replace(/\\s+/g, ' ').slice(0, 30);
          out.push(`"${label}" breaks "${m[0]}" mid-word`);
        }
      }
    }
  }
  return out;
}"""

#: The layout of an open action sheet, as a list of what is wrong.
SHEET_LAYOUT = """() => {
  const out = [];
  const panel = document.getElementById('action-panel');
  if (!panel) return ['no sheet'];
  const body = panel.querySelector('.sheet-body');
  body.scrollTop = 0;
  const W = document.documentElement.clientWidth;
  const wide = document.documentElement.scrollWidth;
  if (wide > W + 0.5) out.push(`the page is ${wide}px wide`);
  const edge = panel.getBoundingClientRect();
  // inside a closed fold (not its summary) nothing shows, though Chromium still gives it a box
  const folded = (e) => {
    for (let d = e.closest('details'); d; d = d.parentElement?.closest('details')) {
      if (!d.open && !d.querySelector(':scope > summary')?.contains(e)) return true;
    }
    return false;
  };
  const seen = (e) => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden' && !folded(e);
  const name = (e) => (e.getAttribute('aria-label') || e.textContent || e.id || e.tagName)
    .trim().replace(/\\s+/g, ' ').slice(0, 30);
  const parts = [body, panel.querySelector('.sheet-foot'), panel.querySelector('.sheet-head')];
  const inBody = (e) => parts.some((part) => part?.contains(e));
  const what = 'button, select, input, summary, label, .target-name, .choice-name';
  const controls = [...panel.querySelectorAll(what)].filter((e) => seen(e) && inBody(e));
  for (const e of controls) {
    const r = e.getBoundingClientRect();
    if (r.width === 0) continue;
    if (r.left < edge.left - 0.5 || r.right > edge.right + 0.5) out.push(`"${name(e)}" runs off the sheet`);
    // a label cut or spilling out of its own box
    if (e.scrollWidth > e.clientWidth + 1) {
      out.push(`"${name(e)}" is cut (${e.scrollWidth} > ${e.clientWidth}px)`);
    }
  }
  // what shows of each control: its box cut to the part of the sheet it scrolls in
  const foot = panel.querySelector('.sheet-foot');
  const shown = (e) => {
    const r = e.getBoundingClientRect();
    const box = [body, foot].find((x) => x && x.contains(e));
    if (!box) return r;
    const c = box.getBoundingClientRect();
    const top = Math.max(r.top, c.top), bottom = Math.min(r.bottom, c.bottom);
    return bottom <= top ? null : { left: r.left, right: r.right, top, bottom };
  };
  const boxes = controls.filter((e) => e.matches('button, select, input, summary'))
    .map((e) => [e, shown(e)]).filter(([, r]) => r);
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  boxes.forEach(([a, r], i) => boxes.slice(i + 1).forEach(([b, q]) => {
    if (!a.contains(b) && !b.contains(a) && meet(r, q)) out.push(`"${name(a)}" overlaps "${name(b)}"`);
  }));
  const odds = document.getElementById('odds-headline');
  if (odds) {
    const r = odds.getBoundingClientRect();
    const b = (foot && foot.contains(odds) ? foot : body).getBoundingClientRect();
    const px = (x) => Math.round(x);
    if (r.top < b.top - 0.5 || r.bottom > Math.min(b.bottom, innerHeight) + 0.5) {
      out.push(`the odds line needs scrolling (at ${px(r.top)}-${px(r.bottom)}, `
        + `its part of the sheet shows ${px(b.top)}-${px(b.bottom)})`);
    }
  }
  return out;
}"""

#: The look of each piece of text under a scope, as the contrast rule judges it: its colour, size,
#: weight, shadow and opacity, and the backgrounds behind it up to the first opaque one (with any
#: image, blend mode, opacity or positioning on the way, since those change what lies behind it).
#: Form controls add their own colours and their placeholder's. Called with the looks the walk has
#: already had checked in this theme (``seen``), it marks each element whose look is not among them
#: (``data-tc-new-look``, the only elements the contrast rule then judges: :data:`AXE_SETUP`) and
#: unmarks every other.
LOOKS = """([scope, seen]) => {
  const root = scope ? document.querySelector(scope) : document.body;
  const looks = new Set();
  const known = new Set(seen);
  for (const e of document.querySelectorAll('[data-tc-new-look]')) e.removeAttribute('data-tc-new-look');
  if (!root) return [];
  const clear = (c) => c === 'transparent' || /rgba\\([^)]*, 0\\)$/.test(c);
  // what an element adds to the look of the text inside it (its image, blend mode, positioning,
  // background), and whether its background is opaque (nothing behind it then shows); the part
  // of each ancestor is read once per pass, not once per piece of text under it
  const own = (a, c) => {
    const parts = [];
    if (c.backgroundImage !== 'none') parts.push('i' + c.backgroundImage);
    if (c.mixBlendMode !== 'normal') parts.push('m' + c.mixBlendMode);
    if (c.position !== 'static' && c.position !== 'relative') parts.push('p' + c.position + c.zIndex);
    let opaque = false;
    if (!clear(c.backgroundColor)) {
      parts.push(c.backgroundColor);
      opaque = !c.backgroundColor.startsWith('rgba');
    }
    return [parts, opaque];
  };
  const behind = new Map();
  const above = (a) => {  // an ancestor's part and all behind it, its opacity first
    if (!a) return [];
    let got = behind.get(a);
    if (got) return got;
    const c = getComputedStyle(a);
    const [parts, opaque] = own(a, c);
    got = (c.opacity !== '1' ? ['o' + c.opacity] : []).concat(parts, opaque ? [] : above(a.parentElement));
    behind.set(a, got);
    return got;
  };
  const look = (e, extra) => {
    const s = getComputedStyle(e);
    if (s.visibility !== 'visible' || !e.getClientRects().length) return;
    const sig = [e.tagName === 'INPUT' || e.tagName === 'SELECT' || e.tagName === 'TEXTAREA' ? e.tagName : '',
      s.color, s.fontSize, s.fontWeight, s.textShadow, s.opacity, extra];
    const [parts, opaque] = own(e, s);
    const said = sig.concat(parts, opaque ? [] : above(e.parentElement)).join('|');
    looks.add(said);
    if (!known.has(said)) e.setAttribute('data-tc-new-look', '');
  };
  const texts = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let t = texts.nextNode(); t; t = texts.nextNode()) {
    if (t.data.trim() && t.parentElement) look(t.parentElement, '');
  }
  for (const e of root.querySelectorAll('input, select, textarea')) {
    look(e, e.placeholder ? getComputedStyle(e, '::placeholder').color : '');
  }
  return [...looks];
}"""

#: The two hard layouts: a 320 px phone (iPhone SE), and 150% text on a 390 px one.
LAYOUTS = [({"width": 320, "height": 568}, 1.0), ({"width": 390, "height": 844}, 1.5)]

#: One pass over the page as it is laid out now: the text size set (``font``), then each check
#: named in ``checks`` run in turn, each with its argument, their answers in a list. A stop's checks
#: at one size are one call and one layout of the page, not one of each per check.
PASS = """([font, checks]) => {
  document.documentElement.style.fontSize = font;
  const run = {
    wide: () => document.documentElement.scrollWidth,
    buttons: BROKEN_BUTTONS,
    rows: ROWS,
    sheet: SHEET_LAYOUT,
    damage: () => document.querySelector('.unit-card .dmg-box')?.innerText.trim() ?? null,
    open: OPEN_ALL,
    errors: () => [...document.querySelectorAll('#action-panel .error')].map((e) => e.innerText),
    visible: VISIBLE,
    looks: LOOKS,
  };
  return checks.map(([name, arg]) => run[name](arg));
}"""
for _name, _js in {
    "BROKEN_BUTTONS": BROKEN_BUTTONS,
    "ROWS": ROWS,
    "SHEET_LAYOUT": SHEET_LAYOUT,
    "OPEN_ALL": OPEN_ALL,
    "VISIBLE": VISIBLE,
    "LOOKS": LOOKS,
}.items():
    PASS = PASS.replace(f": {_name},", f": {_js},")

#: Set once axe-core is on the page: no node's HTML in its answers (the walk never reads it, and
#: writing it out for every node it checked took time), and the contrast rule judging only the
#: elements whose look is new in this theme (:data:`LOOKS`): an element of a look already checked
#: in this theme was judged then, and its look decides its contrast.
AXE_SETUP = """() => axe.configure({
  noHtml: true,
  rules: [{ id: 'color-contrast', selector: '[data-tc-new-look]' }],
})"""

#: axe-core's run under a scope (the page when none) with the options given; null when axe is
#: not on the page (a page load drops it). The style sheets (read by one rule only, orientation
#: lock) are read once per page load: they are the same at every stop, and reading them again took
#: a fifth of a run; a run of the contrast rule alone never reads them.
AXE_RUN = """async ([scope, options, only]) => {
  if (typeof window.axe !== 'object') return null;
  if (only || window.__tcAxeReadStyles === true) options.preload = false;
  const found = await axe.run(scope ? document.querySelector(scope) : document, options);
  if (options.preload !== false) window.__tcAxeReadStyles = true;
  return found.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}"""

#: What a tap that waits saw: the button's box, whether it is drawn and on top where it is, and
#: whether the page still draws frames.
TAP_STUCK = """(el) => new Promise((ok) => {
  const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
  const said = `${el.id || el.textContent.trim().slice(0, 30)} at ${Math.round(r.x)},${Math.round(r.y)} `
    + `${Math.round(r.width)}x${Math.round(r.height)}, visible ${el.checkVisibility()}, on top `
    + `${top === el || el.contains(top)}, ${document.visibilityState}`;
  const t = setTimeout(() => ok(`${said}, no frame in 2 s`), 2000);
  requestAnimationFrame(() => requestAnimationFrame(() => { clearTimeout(t); ok(`${said}, frames drawn`); }));
})"""


class Walk:
    """One player's walk through a system's screens, gathering what each stop finds."""

    def __init__(self, page: Page, server: Server) -> None:
        self.page = page
        self.server = server
        self.problems: dict[str, list[str]] = {}
        self.stops = 0
        self.took: dict[str, float] = {}
        self.looks: dict[str, set[str]] = {"light": set(), "dark": set()}
        self.contrast_runs = self.contrast_skipped = 0
        self.theme: Theme = "light"
        # the laps in the CPU seconds of this process and Chromium's with TC_WALK_CPU set (each
        # reading scans /proc: some 15 ms, 3 s in a walk), else in wall time
        self.clock = _tree_cpu() if os.environ.get("TC_WALK_CPU") else time.perf_counter
        self.last = self.clock()

    def note(self, where: str, found: list[str]) -> None:
        if found:
            self.problems.setdefault(where, []).extend(found)

    def go(self, route: str, ready: str) -> None:
        self.page.goto(self.server.url + route)
        expect(self.page.locator(ready).first).to_be_visible(timeout=BOOT_MS)
        settle(self.page)

    def looks_of(self, scope: str | None) -> list[Any]:
        """The check (:data:`PASS`) that reads the looks under ``scope`` in the theme the page
        shows now and marks the elements of a look new to that theme."""
        return ["looks", [scope, sorted(self.looks[self.theme])]]

    def fresh(self, theme: str, looks: list[str]) -> bool:
        """Whether a piece of text has a look (:data:`LOOKS`) no earlier stop of this walk had in
        ``theme``: only then can the contrast rule find something new."""
        fresh = not set(looks) <= self.looks[theme]
        self.looks[theme] |= set(looks)
        if fresh:
            self.contrast_runs += 1
        else:
            self.contrast_skipped += 1
        return fresh

    def axe(
        self, scope: str | None, only: list[str] | None = None, skip: list[str] | None = None
    ) -> list[str]:
        """axe-core's serious and critical violations under ``scope`` (``only`` these rules, or all
        but those in ``skip``). The run leaves out what the walk never reads: the passes, and each
        node's HTML (``noHtml``)."""
        options: dict[str, Any] = {"resultTypes": ["violations"]}
        if skip:
            options["rules"] = {rule: {"enabled": False} for rule in skip}
        if only:
            options["runOnly"] = {"type": "rule", "values": only}
        found = self.page.evaluate(AXE_RUN, [scope, options, bool(only)])
        if found is None:
            self.page.evaluate(AXE.axe_script)  # once per page load, not once per run
            self.page.evaluate(AXE_SETUP)
            found = self.page.evaluate(AXE_RUN, [scope, options, bool(only)])
        return [
            f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            f" ({(v['nodes'][0].get('any') or v['nodes'][0].get('all') or [{}])[0].get('message', '')})"
            for v in found
        ]

    def check(self, where: str, checks: list[list[Any]], font: str = "") -> list[Any]:
        """The answers of :data:`PASS`'s ``checks`` on the page as it is now, text at ``font``."""
        answers: list[Any] = self.page.evaluate(PASS, [font, checks])
        return answers

    def stop(self, where: str, scope: str | None = None, sheet: bool = False) -> None:
        """Read, check and lay out what is on screen now.

        In turn: the layouts (the folds as they are), every fold opened, the words, then axe in
        each theme. The walk does not go back to the light theme after the dark one: the next stop
        starts in the theme this one ended in and checks it first (the themes change colours only,
        never a size: web/style.css), one change of colour scheme a stop instead of two."""
        self.stops += 1
        clock = [self.clock()]
        self.took[f"{where}: before"] = clock[0] - self.last  # the way here since the last stop

        def lap(what: str) -> None:
            clock.append(self.clock())
            self.took[f"{where}: {what}"] = self.took.get(f"{where}: {what}", 0.0) + clock[-1] - clock[-2]

        if sheet:
            self.layout(where)  # as the sheet opens, its folds closed
        else:
            self.page_layout(where, cards=where == "game")
        lap("layout")
        # what a player reads, and the looks of its text in this theme
        reads = [] if where == "game" else [["visible", scope or "body"], self.looks_of(scope)]
        errors, _, *read = self.check(where, [["errors"], ["open", scope], *reads])
        if not sheet:
            # a refusal on the sheet is a sentence: a capital first, a stop (or a question) last
            for error in errors:
                if not re.fullmatch(r"[A-Z0-9\"'].*[.!?)]", error.strip(), re.S):
                    self.note(where, [f"a refusal that is not a sentence: {error!r}"])
        if where == "game":
            self.page_layout(where, cards=True, opened=True)  # every card open now
            read = self.check(where, [["visible", "body"], self.looks_of(scope)])
        said, looks = read
        self.note(where, raw_words(said))
        lap("text")
        # every rule in the light theme (contrast where a look is new); the dark one changes only
        # colours: contrast alone, where a look is new
        themes: tuple[Theme, Theme] = ("light", "dark") if self.theme == "light" else ("dark", "light")
        for n, theme in enumerate(themes):
            if n:
                self.theme = theme
                self.page.emulate_media(color_scheme=self.theme)
                (looks,) = self.check(where, [self.looks_of(scope)])
            if theme == "light":
                skip = [] if self.fresh("light", looks) else ["color-contrast"]
                self.note(where, [f"light: {x}" for x in self.axe(scope, skip=skip)])
                lap("axe")
            else:
                if self.fresh("dark", looks):
                    self.note(where, [f"dark: {x}" for x in self.axe(scope, only=["color-contrast"])])
                lap("axe dark")
        self.last = self.clock()

    def page_layout(self, where: str, cards: bool = False, opened: bool = False) -> None:
        """The page at 150% text on the phone (its own size: no resize), then at 320 px wide: no
        sideways scrolling; with ``cards``, the unit cards' rows and what is in an open card
        (ROWS), and (cards still folded) the damage box's words. Back at the phone's size after,
        the text size left for the next read to set."""
        at_size = [["wide"], *([] if opened else [["buttons", "body"]]), *([["rows"]] if cards else [])]
        if cards and not opened:
            at_size.append(["damage"])
        for size, zoom in sorted(LAYOUTS, key=lambda layout: layout[0] != PHONE["viewport"]):
            if size != PHONE["viewport"]:
                self.page.set_viewport_size(size)
            at = f"{size['width']}px, {zoom:.0%} text"
            answers = iter(self.check(where, at_size, f"{zoom * 100}%"))
            wide = next(answers)
            if wide > size["width"]:
                self.note(where, [f"{at}: the page is {wide}px wide"])
            if not opened:
                self.note(where, [f"{at}: {x}" for x in next(answers)])
            if cards:
                self.note(where, [f"{at}{', cards open' if opened else ''}: {x}" for x in next(answers)])
            if cards and not opened:
                # "damage 0/6" where there is room, "0/6" on the narrowest phone
                shown = next(answers)
                if not re.fullmatch(r"damage 0/\d+" if size["width"] > 360 else r"0/\d+", shown or ""):
                    self.note(where, [f"{at}: the damage box reads {shown!r}"])
        self.page.set_viewport_size(PHONE["viewport"])

    def layout(self, where: str) -> None:
        """The open sheet at 150% text on the phone, then at 320 px wide (then back to the phone
        as it was)."""
        for size, zoom in sorted(LAYOUTS, key=lambda layout: layout[0] != PHONE["viewport"]):
            if size != PHONE["viewport"]:
                self.page.set_viewport_size(size)
            sheet, buttons = self.check(where, [["sheet"], ["buttons", "#action-panel"]], f"{zoom * 100}%")
            self.note(where, [f"{size['width']}px, {zoom:.0%} text: {x}" for x in sheet + buttons])
        self.page.evaluate("document.documentElement.style.fontSize = ''")
        self.page.set_viewport_size(PHONE["viewport"])

    def tap(self, target: Locator) -> None:
        """Tap ``target``. Twice in some 40 walks (each time right after a stop's size and theme
        changes) Playwright waited 30 s for a button on an open sheet to be "visible, enabled and
        stable" and never saw it so, and the same walk passed alone; the cause is not found. A tap
        that waits 10 s says what the page showed then (is the button on screen, does the page
        still draw frames), sets the phone's size again and is tried once more."""
        try:
            target.click(timeout=10_000)
        except PlaywrightTimeout:
            seen = target.evaluate(TAP_STUCK)
            print(f"walk: a tap waited 10 s on {seen}; the phone's size set again", flush=True)
            self.page.set_viewport_size(PHONE["viewport"])
            target.click(timeout=20_000)

    # --- the game -----------------------------------------------------------------------------

    def sheet_of(self, action: str) -> None:
        """The action's sheet from the list of actions, a target picked if it has one."""
        page = self.page
        page.select_option("#action-pick", action)
        expect(page.locator("#action-panel")).to_be_visible()
        settle(page)
        target = page.locator("#targets [data-target]")
        if target.count():
            self.tap(target.first)
            settle(page)
        info = page.locator("#action-panel [data-mod-info]")
        if info.count():
            info.first.click()
            settle(page)

    def attack(self) -> bool:
        """The system's core action by a unit that can take it now (the game's first steps taken
        where the game is gated behind them): its sheet, the roll and its result; True if rolled."""
        page = self.page
        for _ in range(4):
            ready = page.locator(".unit-card [data-act]:not([disabled])")
            if ready.count():
                break
            if not page.locator("#phase-next").count():
                return False
            page.click("#phase-next")
            settle(page)
            self.answer(apply=True)
        else:
            return False
        ready.first.click()
        settle(page)
        target = page.locator("#targets [data-target]")
        if target.count():
            target.first.click()
            settle(page)
        page.click("#action-roll, #action-apply")
        settle(page)
        self.answer()
        return bool(page.locator("#action-text").count())

    def answer(self, apply: bool = False) -> None:
        """Answer what the game asks (the first choice each time); with ``apply``, roll and apply
        a step's sheet too."""
        page = self.page
        for _ in range(8):
            asked = page.locator("#action-ask button.primary, #phase-ask button.primary")
            if asked.count():
                if page.locator("#action-panel #action-ask").count():
                    self.layout("a question on the sheet")  # its answers as buttons, words whole
                asked.first.click()
            elif apply and page.locator("#apply-result").count():
                page.click("#apply-result")
            elif apply and page.locator("#action-panel #action-roll, #action-panel #action-apply").count():
                page.click("#action-roll, #action-apply")
            else:
                return
            settle(page)

    def states(self) -> None:
        """Units in every state: one acted, one destroyed, one with every condition on and hurt."""
        page = self.page
        cards = page.locator(".unit-card")
        first = page.locator(".unit-card[data-unit^='0/']").first
        flag = first.locator("[data-flag='activated'][aria-pressed='false']")
        if flag.count():
            flag.click()
            settle(page)
        # The enemies still standing: the core action rolled just before may have destroyed its
        # target (1 walk in 30-60 where it could), whose card then offers "Back in play".
        mark = page.get_by_role("button", name="Mark destroyed", exact=True)
        standing = page.locator(".unit-card[data-unit^='1/']").filter(has=mark)
        refs = standing.evaluate_all("cs => cs.map((c) => c.dataset.unit)")
        assert refs, "no enemy left standing to mark destroyed"
        page.locator(f".unit-card[data-unit='{refs[0]}']").get_by_role(
            "button", name="Mark destroyed", exact=True
        ).click()
        settle(page)
        hurt_ref = refs[1] if len(refs) > 1 else cards.nth(1).get_attribute("data-unit")
        hurt = page.locator(f".unit-card[data-unit='{hurt_ref}']")
        page.evaluate(OPEN_ALL)
        for key in hurt.locator(".card-more [data-flag]:not([data-flag='activated'])").evaluate_all(
            "bs => bs.map((b) => b.dataset.flag)"
        ):
            hurt.locator(f"[data-flag='{key}']").click()
            settle(page)
            page.evaluate(OPEN_ALL)
        up = hurt.get_by_role("button", name="Damage up", exact=True)
        if up.is_enabled():
            up.click()
            settle(page)
        # a condition that is on looks unlike every one that is off (its fill, weight and tick),
        # and each keeps its own name whether on or off (Activated never turns into another word)
        looks = page.evaluate(CHIP_LOOKS)
        on = [look[1:] for look in looks if look[0] == "true"]
        off = [look[1:] for look in looks if look[0] == "false"]
        assert on and off, looks
        for part in range(len(on[0])):  # the fill alone tells them apart, and so do the weight, the tick
            assert not {o[part] for o in on} & {o[part] for o in off}, (part, on, off)
        names = set(page.locator(".card-more [data-flag='activated']").all_inner_texts())
        assert names == {"Activated"}, names


#: How each condition toggle on a unit card looks: whether it is on, then its fill, its weight and
#: what is drawn before its name (the tick box).
CHIP_LOOKS = """() => [...document.querySelectorAll('.card-more [data-flag]')].map((b) => {
  const s = getComputedStyle(b), tick = getComputedStyle(b, '::before');
  return [b.getAttribute('aria-pressed'), s.backgroundColor, s.fontWeight, tick.content,
    tick.backgroundColor];
})"""


#: The page's dice for every walk (tests/conftest.py seeded_dice).
WALK_SEED = 1


@pytest.mark.parametrize("system", sorted(IMPLEMENTATIONS))
def test_every_screen_reads_plain_passes_axe_and_fits(browser: Browser, server: Server, system: str) -> None:
    context = browser.new_context(**PHONE)
    # The same dice every walk (the steps it rolls, its core action's result): what it reads, and
    # any problem it finds there, is found again on the next run, not on some runs only.
    seeded_dice(context, WALK_SEED)
    try:
        page = context.new_page()
        store = sample_store(system)
        # a squad of another registered system, to meet the new game screen's refusal
        other = next(s for s in sorted(IMPLEMENTATIONS) if s != system)
        store["squads"].append({**sample_store(other)["squads"][0], "id": "s9", "name": "Elsewhere"})
        token = api.call("share.encode", {"squad": store["squads"][0]})["result"]["token"]
        open_with_store(page, server.url + "#/", store)
        walk = Walk(page, server)
        if system == min(IMPLEMENTATIONS):  # the home and dice screens are every system's: read once
            walk.go("#/", "#open-squads")
            walk.stop("home")
            # each sample battle named by its system, and on the glass without scrolling
            samples = page.locator("[data-sample]")
            titles = samples.locator("strong").all_inner_texts()
            if len(set(titles)) != len(titles):
                walk.note("home", [f"sample battles share a title: {titles}"])
            for i in range(samples.count()):
                box = samples.nth(i).bounding_box()
                if box is None or box["y"] + box["height"] > PHONE["viewport"]["height"]:
                    walk.note("home", [f"the sample battle {titles[i]!r} is below the fold"])
            walk.go("#/dice", "#roll-app")
            walk.stop("dice")
        walk.go("#/squads", "#new-squad")
        walk.stop("squads")
        walk.go("#/squad/s1", "#squad-units .unit-row")
        walk.stop("squad editor")
        walk.go("#/unit/s1/u1", "#unit-status .total, #deck-name")
        walk.stop("unit editor")
        walk.go("#/roster/s1", ".roster-card")
        walk.stop("roster")
        walk.go(f"#/open/{token}", "#play-shared")
        walk.stop("shared squad")
        walk.go("#/games", "#start-game")
        walk.stop("new game")
        # A refusal says what is wrong and what to do, in a sentence.
        page.select_option("#side-1-squad", "s9")
        page.click("#start-game")
        notice = page.locator("#notice-text")
        expect(notice).to_contain_text("must use the same rule system: pick squads of one system")
        expect(notice).to_contain_text("Pick other squads, or fix these in their squad editor, then start")
        page.click("#notice-close")
        walk.go("#/game/g1", ".unit-card")
        walk.stop("game")
        # the top of the game says each thing once: the round, each side's name
        said = page.evaluate(
            """() => [document.querySelectorAll('#round').length
                 + [...document.querySelectorAll('#game-status dt')]
                     .filter((d) => /^round$/i.test(d.textContent.trim())).length,
               [...document.querySelectorAll('.side > h2')].map((h) => h.textContent.trim())]"""
        )
        if said[0] != 1:
            walk.note("game", [f"the round is shown {said[0]} times"])
        for head in said[1]:
            if re.fullmatch(r"(.+?)\s+(?:.*:\s*)?\1", head):
                walk.note("game", [f"a side's name said twice: {head!r}"])
        actions = page.locator("#action-pick option").evaluate_all(
            "os => os.filter((o) => o.value).map((o) => [o.value, o.textContent])"
        )
        # The sheets are read over the game screen as a player opens them, its cards folded (the
        # game stop opened and checked them all; a sheet stop opens the folds of its sheet only):
        # each size and text size lays out the page behind the sheet too, far lighter so.
        page.evaluate(CARDS, True)
        for name, label in actions:
            walk.sheet_of(name)
            walk.stop(f"sheet {label}", "#action-panel", sheet=True)
            walk.tap(page.locator("#sheet-close"))
        page.evaluate(CARDS, False)  # every card open again, as the game stop left them
        # the core action rolled (where a unit's card offers one), its result, then applied: the log
        rolled = walk.attack()
        if rolled:
            walk.stop("core action's result", "#action-panel", sheet=True)
            page.click("#apply-result")
            settle(page)
            # what changed is a line or two over the cards, not half the screen
            toast = page.locator("#toast").bounding_box() if page.locator("#toast").count() else None
            if toast and toast["height"] > 0.2 * PHONE["viewport"]["height"]:
                walk.note("after apply", [f"the toast is {toast['height']:.0f}px high"])
            walk.stop("after apply")
        elif page.locator("#sheet-close").count():
            page.click("#sheet-close")
        walk.states()
        walk.stop("units in every state")
        slowest = sorted(walk.took.items(), key=lambda kv: -kv[1])[:8]
        kinds: dict[str, float] = {}
        for k, v in walk.took.items():
            kinds[k.rsplit(": ", 1)[1]] = kinds.get(k.rsplit(": ", 1)[1], 0.0) + v
        print(
            f"{system}: {walk.stops} stops, core action rolled: {rolled}; contrast checked"
            f" {walk.contrast_runs} times, skipped {walk.contrast_skipped} (no new look); seconds by kind:",
            {k: round(v, 1) for k, v in kinds.items()},
            "slowest:",
            {k: round(v, 1) for k, v in slowest},
        )
        assert walk.problems == {}, "\n".join(f"{k}: {v}" for k, v in walk.problems.items())
    finally:
        context.close()
