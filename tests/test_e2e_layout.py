"""The game screen of every playable system laid out on a phone: nothing runs off the glass.

For each registered system, two sides of its own ready-made units (five each where it has
them, so the cards start folded into one-line rows); at 320 px and at 390 px with 150% text:
the page does not scroll sideways, each unit's row keeps its name readable and tappable (at
least 110 px wide, 44 px high), and the row's action buttons overlap neither the name nor
each other, all inside the screen; nothing in an open card sticks out of it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from conftest import BOOT_MS, PHONE, Server, open_with_store
from playwright.sync_api import Browser, expect

from core import api
from core.systems import IMPLEMENTATIONS


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
            return {"schema_version": 1, "squads": squads, "units": [], "games": [reply["result"]]}
    raise AssertionError(reply)


ROWS = """() => {
  const out = [];
  const inside = (r) => r.left >= 0 && r.right <= document.documentElement.clientWidth + 0.5;
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const size = (r) => `${Math.round(r.width)}x${Math.round(r.height)}`;
  for (const row of document.querySelectorAll('.unit-card .card-row')) {
    const unit = row.closest('.unit-card').dataset.unit;
    const name = row.querySelector('.card-toggle').getBoundingClientRect();
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


@pytest.mark.parametrize("system", sorted(IMPLEMENTATIONS))
@pytest.mark.parametrize("width,zoom", [(320, 1.0), (390, 1.5)])
def test_unit_rows_fit_the_phone(
    browser: Browser, server: Server, system: str, width: int, zoom: float
) -> None:
    context = browser.new_context(**{**PHONE, "viewport": {"width": width, "height": 700}})
    try:
        page = context.new_page()
        store = sample_store(system)
        open_with_store(page, server.url + "#/game/g1", store)
        expect(page.locator(".unit-card")).to_have_count(
            sum(len(s["units"]) for s in store["games"][0]["sides"]), timeout=BOOT_MS
        )
        if zoom != 1.0:
            page.evaluate(f"document.documentElement.style.fontSize = '{zoom * 100}%'")
        assert page.evaluate(ROWS) == []
        # the damage says what it counts where there is room ("damage 0/6", not 6 left)
        shown = page.locator(".unit-card .dmg-box").first.inner_text()
        assert re.fullmatch(r"damage 0/\d+" if width > 360 else r"0/\d+", shown.strip()), shown
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"{wide}px wide at {width}px"
        # the new-game screen with these squads, too
        page.goto(server.url + "#/games")
        expect(page.locator("#start-game")).to_be_visible(timeout=BOOT_MS)
        if zoom != 1.0:
            page.evaluate(f"document.documentElement.style.fontSize = '{zoom * 100}%'")
        wide = page.evaluate("document.documentElement.scrollWidth")
        assert wide <= width, f"new game: {wide}px wide at {width}px"
    finally:
        context.close()
