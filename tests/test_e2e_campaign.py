"""A Mobile Suit Gundam: Skirmish campaign on two phones (two browser contexts), end to end in Chromium.

One walk through every campaign screen.  Phone A sets the campaign up on the set-up screen (the
Australia map, L1773, our layout; a team renamed; four teams per player on their zone's bases,
L1723-L1729), plays both players' first campaign turns by tapping (begin, the Event Die for each team,
end: L2037-L2066), undoes and redoes a step, moves a team (L2127-L2128), places an enemy team by hand
next to one of ours, names its tile's terrain in the map editor (L1717-L1718), then a Battle (L2132)
with its game type chosen (L2136-L2137) starts a real game.
The game links back to its campaign; phone B receives the whole campaign by link; the players end the
battle on the game screen (who won); A sends the result by link and records it on its own phone from the
game screen; B applies it once (a second time is refused with a message and changes nothing) and
reloads offline.  The test reads what the players see: the map's marks, the sheets, the status line,
the log.
"""

from __future__ import annotations

import re
from typing import Any

from conftest import BOOT_MS, PHONE, Server
from playwright.sync_api import Browser, Page, expect
from test_e2e_every_screen import AXE, AXE_RUN, AXE_SETUP, BROKEN_BUTTONS, LAYOUTS

READ_CAMPAIGNS = """async () => {
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open('tc'); r.onsuccess = () => ok(r.result); r.onerror = () => no(r.error); });
  const recs = db.objectStoreNames.contains('campaigns') ? await new Promise((ok) => {
    const r = db.transaction('campaigns').objectStore('campaigns').getAll();
    r.onsuccess = () => ok(r.result); }) : [];
  const out = [];
  for (const rec of recs) {
    if (!rec.z) { out.push(rec.data); continue; }
    const stream = new Blob([rec.z]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
    out.push(JSON.parse(await new Response(stream).text()));
  }
  db.close();
  return out;
}"""


def campaigns(page: Page) -> list[dict[str, Any]]:
    return list(page.evaluate(READ_CAMPAIGNS))


def ready(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)


def step(page: Page, label: str) -> None:
    """Tap a step of the turn and wait until the campaign has taken one more step."""
    before = int(page.locator("#campaign-log").get_attribute("data-cursor") or 0)
    page.get_by_role("button", name=label, exact=False).first.click()
    expect(page.locator("#campaign-log")).to_have_attribute("data-cursor", str(before + 1), timeout=30_000)


def event_dice(page: Page) -> None:
    while page.locator('#campaign-steps [data-step="event_die"]').count():
        step(page, "Event Die")


def status(page: Page) -> str:
    return str(page.locator("#campaign-status").inner_text())


def on_screen(page: Page, selector: str) -> None:
    """The control is within the phone's screen as it stands: no scrolling to reach it."""
    box = page.locator(selector).bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844, (selector, box)


def axe_in_both_themes(page: Page) -> list[str]:
    """axe-core's serious and critical findings on the screen as it stands, light then dark."""
    page.evaluate(AXE.axe_script)
    page.evaluate(AXE_SETUP)
    found = []
    for theme in ("light", "dark"):  # the dark theme changes colours only: contrast alone there
        page.emulate_media(color_scheme=theme)
        options: dict[str, Any] = {"resultTypes": ["violations"]}
        if theme == "dark":
            options["runOnly"] = {"type": "rule", "values": ["color-contrast"]}
        for v in page.evaluate(AXE_RUN, ["main", options, theme == "dark"]):
            found.append(f"{theme}: {v['id']} at {[n['target'] for n in v['nodes']][:4]}")
    page.emulate_media(color_scheme="no-preference")
    return found


def map_and_bar_in_view(page: Page) -> None:
    """The whole map and the bar of steps at the bottom on the phone's screen together, as it stands
    (no scrolling): the bar covers no tile."""
    whole, bar = page.locator("#campaign-map").bounding_box(), page.locator(".campaign-bar").bounding_box()
    assert whole is not None and bar is not None, (whole, bar)
    assert whole["y"] >= 0 and whole["y"] + whole["height"] <= bar["y"] + 1, (whole, bar)
    assert bar["y"] + bar["height"] <= 844 + 1, bar


FIND_TILE = """([x, y]) => {
  // the tile a player finds by the labels: under the column label, level with the row label
  const centre = (n) => {
    const r = n.getBoundingClientRect();
    return [r.left + r.width / 2, r.top + r.height / 2];
  };
  const label = (axis, text) => [...document.querySelectorAll(`#campaign-map .axis-${axis}`)]
    .find((n) => n.innerText.replace(/\\s/g, '') === text);
  const col = label('x', 'x' + x), row = label('y', 'y' + y);
  if (!col || !row) return null;
  const [cx] = centre(col), [, cy] = centre(row);
  const cell = [...document.querySelectorAll('#campaign-map .cell')].find((c) => {
    const r = c.getBoundingClientRect();
    return r.left <= cx && cx <= r.right && r.top <= cy && cy <= r.bottom;
  });
  return cell ? [...cell.querySelectorAll('[data-mark]')].map((m) => m.dataset.mark) : null;
}"""

CLIPPED_BASES = """() => [...document.querySelectorAll('#campaign-map .mark-base')].filter((m) => {
  const cell = m.closest('.cell').getBoundingClientRect(), r = m.getBoundingClientRect();
  return m.scrollWidth > m.clientWidth || m.scrollHeight > m.clientHeight
    || r.left < cell.left - 0.5 || r.right > cell.right + 0.5
    || r.top < cell.top - 0.5 || r.bottom > cell.bottom + 0.5;
}).map((m) => m.textContent)"""


def test_a_campaign_on_two_phones_a_battle_result_by_link_offline(browser: Browser, server: Server) -> None:
    a_ctx = browser.new_context(**PHONE)
    b_ctx = browser.new_context(**PHONE)
    a, b = a_ctx.new_page(), b_ctx.new_page()
    ready(a, server.url + "#/campaigns")
    # the set-up screen: every value filled in, Start offered at once and on screen
    a.get_by_role("button", name="Set up a campaign with your teams").click()
    expect(a.locator("#setup-start")).to_be_enabled(timeout=30_000)
    on_screen(a, "#setup-start")
    expect(a.locator('#setup-choices [data-choice="map"]')).to_have_value("australia")
    expect(a.locator(".setup-team")).to_have_count(8)
    drawn = a.locator("#setup-choices").get_attribute("data-drawn")
    name = a.locator('[data-side="EFF"] [data-team-name="0"]')
    name.fill("White Base")
    name.press("Tab")
    expect(a.locator("#setup-choices")).not_to_have_attribute("data-drawn", drawn or "", timeout=30_000)
    expect(a.locator('[data-side="EFF"] [data-team-name="0"]')).to_have_value("White Base")
    a.locator("#setup-start").click()
    expect(a.locator("#campaign-map .cell")).to_have_count(64, timeout=30_000)
    # the map fits the phone: no sideways scrolling at 390 px, the tiles about 45 px
    assert a.evaluate("document.documentElement.scrollWidth") <= 390
    tile = a.locator("#campaign-map .cell").first.bounding_box()
    assert (
        tile is not None and tile["width"] >= 40 and tile["height"] >= 40
    )  # the whole tile is the tap target
    # the columns are labelled x1-x8 along the top, the rows y8-y1 (north at the top) down the side
    assert [t.replace("\n", "") for t in a.locator("#campaign-map .axis-x").all_inner_texts()] == [
        f"x{n}" for n in range(1, 9)
    ]
    assert [t.replace("\n", "") for t in a.locator("#campaign-map .axis-y").all_inner_texts()] == [
        f"y{n}" for n in range(8, 0, -1)
    ]
    # every base by its whole name, nothing of it cut or spilling out of its tile; the key under the
    # map names each with its tile, at the text's own size
    bases = campaigns(a)[0]["state"]["bases"]
    shown = a.locator("#campaign-map .mark-base").all_text_contents()
    assert sorted(shown) == sorted(base["name"] for base in bases), shown
    assert a.evaluate(CLIPPED_BASES) == []
    key = a.locator("#map-key li").all_inner_texts()
    for base in bases:
        tile = f"x {base['x']}, y {base['y']}"
        assert any(base["name"] in line and tile in line for line in key), (base, key)
    first = str(a.locator("#campaign-status").inner_text())
    assert "Turn:" in first and "round 1" in first
    # the teams and bases are tappable: a team's sheet
    c = campaigns(a)[0]
    white = next(t for t in c["state"]["teams"] if t["name"] == "White Base")
    mark = a.locator(f'#campaign-map [data-mark="{white["key"]}"]')
    assert mark.inner_text() == "E1"  # its faction's letter and number, its colour the rest
    mark.click()
    expect(a.locator("#campaign-sheet h2").first).to_have_text("White Base")
    expect(a.locator("#campaign-sheet")).to_contain_text(" ace, ")  # its named character, rank and all
    # the sheet names its tile as the map's labels do, and that tile (found by the labels) holds it
    where = a.locator("#campaign-sheet li").filter(has_text="Tile:").first.inner_text()
    assert f"Tile: x {white['x']}, y {white['y']}" in where, where
    assert white["key"] in a.evaluate(FIND_TILE, [white["x"], white["y"]])
    map_and_bar_in_view(a)
    # the labels, the key, the sheet and the bar read in both themes (contrast and all)
    assert axe_in_both_themes(a) == []
    # whoever won priority plays: begin, the Event Die for each team, end the turn
    step(a, "Begin the turn")
    event_dice(a)
    expect(a.locator("#campaign-status")).to_contain_text("Actions left: 3")
    step(a, "End the turn")
    # undo and redo one step
    a.locator("#campaign-undo").click()
    expect(a.locator("#campaign-status")).to_contain_text("Actions left: 3")
    a.locator("#campaign-redo").click()
    expect(a.locator("#campaign-status")).to_contain_text("begin the turn")
    # the second player's turn
    step(a, "Begin the turn")
    event_dice(a)
    step(a, "End the turn")
    saved = campaigns(a)
    assert len(saved) == 1 and saved[0]["state"]["round"] == 2

    # round 2: the first player moves a team one tile (its steps at the bottom, on screen)
    c = saved[0]
    st = c["state"]
    mine = st["players"][0]["faction"]
    step(a, "Begin the turn")
    event_dice(a)
    # an Event Die of 1 then 1-2 (1 in 18 a team) is Provisions Shortage: that team may not move
    # this turn (L2085-L2086), so the mover is one the dice left free to move
    rolled = campaigns(a)[0]["state"]
    free = {t["key"] for t in rolled["teams"] if not t.get("no_move")}
    ours = [t for t in st["teams"] if t["faction"] == mine]
    mover = next(t for t in reversed(ours) if t["key"] in free)
    a.locator(f'#campaign-map [data-mark="{mover["key"]}"]').click()
    on_screen(a, "#team-steps")
    map_and_bar_in_view(a)  # the team's steps cover none of the map
    # the team's steps keep their words whole on a small phone and in large text ("Requisitio/n")
    for size, zoom in LAYOUTS:
        a.set_viewport_size(size)
        a.evaluate(f"document.documentElement.style.fontSize = '{zoom * 100}%'")
        assert a.evaluate(BROKEN_BUTTONS, ".campaign-bar") == [], (size, zoom)
    a.evaluate("document.documentElement.style.fontSize = ''")
    a.set_viewport_size(PHONE["viewport"])
    moves = a.locator('#team-steps [data-step="move"]:not([disabled])')
    label = moves.first.inner_text()
    step(a, label)
    expect(a.locator("#campaign-status")).to_contain_text("Actions left: 2")
    expect(a.locator("#campaign-said")).to_contain_text(mover["name"] + " moves")
    # after the step, the map, the team's steps and what it did are on the screen as they stand
    on_screen(a, "#team-steps")
    on_screen(a, "#campaign-said")
    map_and_bar_in_view(a)
    moved = next(t for t in campaigns(a)[0]["state"]["teams"] if t["key"] == mover["key"])
    expect(a.locator("#campaign-said")).to_contain_text(f"tile x {moved['x']}, y {moved['y']}")
    assert mover["key"] in a.evaluate(FIND_TILE, [moved["x"], moved["y"]])
    # an enemy team placed by hand next to one of ours (the players' correction of the map)
    target = next(t for t in ours if t["key"] != mover["key"])
    enemy = next(t for t in st["teams"] if t["faction"] != mine)
    spot = (target["x"], target["y"] + 1) if target["y"] < 8 else (target["x"], target["y"] - 1)
    a.locator(f'#campaign-map [data-mark="{enemy["key"]}"]').click()
    a.locator('#team-steps [data-step="place"]').click()
    expect(a.locator("#campaign-pick")).to_contain_text("Tap the tile for " + enemy["name"])
    before = int(a.locator("#campaign-log").get_attribute("data-cursor") or 0)
    a.locator(f'#campaign-map .cell[data-x="{spot[0]}"][data-y="{spot[1]}"]').click()
    expect(a.locator("#campaign-log")).to_have_attribute("data-cursor", str(before + 1), timeout=30_000)
    expect(
        a.locator(f'#campaign-map .cell[data-x="{spot[0]}"][data-y="{spot[1]}"] [data-mark="{enemy["key"]}"]')
    ).to_have_count(1)
    # the map editor names the target's tile (L1717-L1718): the name written, then the tile tapped;
    # the map shows it inside the tile, readable on the phone
    tx, ty = target["x"], target["y"]
    a.locator('#campaign-steps [data-step="name_tile"]').click()
    a.locator('#campaign-ask [data-choice="terrain"]').fill("Red desert")
    a.locator("#ask-go").click()
    expect(a.locator("#campaign-pick")).to_contain_text("tap the tile")
    before = int(a.locator("#campaign-log").get_attribute("data-cursor") or 0)
    a.locator(f'#campaign-map .cell[data-x="{tx}"][data-y="{ty}"]').click()
    expect(a.locator("#campaign-log")).to_have_attribute("data-cursor", str(before + 1), timeout=30_000)
    named = a.locator(f'#campaign-map .cell[data-x="{tx}"][data-y="{ty}"] .terrain')
    expect(named).to_have_text("Red desert")
    inner, outer = (
        named.bounding_box(),
        a.locator(f'#campaign-map .cell[data-x="{tx}"][data-y="{ty}"]').bounding_box(),
    )
    assert (
        inner
        and outer
        and inner["height"] >= 8
        and outer["x"] <= inner["x"] <= inner["x"] + inner["width"] <= outer["x"] + outer["width"] + 1
    )
    # a Battle in three taps: the team, Battle, its game type chosen, Start
    a.locator(f'#campaign-map [data-mark="{target["key"]}"]').click()
    a.locator('#team-steps [data-step="battle"]').click()
    on_screen(a, "#ask-go")
    a.locator('#campaign-ask [data-choice="game_type"]').select_option("skirmish")
    a.locator("#ask-go").click()
    a.wait_for_url("**#/game/*", timeout=30_000)
    expect(a.locator("body")).to_contain_text(target["name"])
    game_id = a.url.rsplit("/", 1)[1]
    stored = a.evaluate("(id) => window.tc.store.game(id)", game_id)
    assert stored["state"]["mission"] == "skirmish"
    # the game links back to its campaign
    expect(a.locator("#campaign-banner")).to_contain_text("A battle of the campaign")
    a.locator("#back-to-campaign").click()
    expect(a.locator("#campaign-battle")).to_contain_text("A battle is being played")

    # phone B gets the whole campaign (with the battle pending) by link and saves it
    a.locator("#campaign-share-button").click()
    link = a.locator("#campaign-link-url").input_value()
    ready(b, link)
    b.locator("#open-campaign").click()
    expect(b.locator("#campaign-map .cell")).to_have_count(64, timeout=30_000)
    expect(b.locator("#campaign-battle")).to_contain_text("Its game is on another phone")

    # the players end the battle on its game screen (the first side won), A sends the result
    a.locator("#open-battle").click()
    a.locator("#end-battle summary").click()
    a.locator('#end-battle [data-winner="0"]').click()
    expect(a.locator("#record-result")).to_be_visible(timeout=30_000)
    a.locator("#back-to-campaign").click()
    a.locator("#send-result").click()
    result_link = a.locator("#result-link-url").input_value()
    # A records it on its own phone from the game screen: saved before the campaign shows it
    a.locator("#open-battle").click()
    a.locator("#record-result").click()
    a.wait_for_url("**#/campaign/*", timeout=30_000)
    expect(a.locator("#campaign-log")).to_contain_text("Battle result:")
    expect(a.locator("#campaign-battle")).to_be_empty()
    assert next(x for x in campaigns(a) if x["id"] == c["id"])["battle"] is None
    # the result and the log say no rulebook line: the setting that shows them is off
    said = a.locator("#campaign-said").inner_text() + "\n" + a.locator("#campaign-log").inner_text()
    assert not re.search(r"\bL\d{2,4}\b", said), said

    ready(b, result_link)
    b.locator("#apply-shared-result").click()
    b.wait_for_url("**#/campaign/*", timeout=30_000)
    expect(b.locator("#campaign-log")).to_contain_text("Battle result:")
    applied = next(x for x in campaigns(b) if x["id"] == c["id"])
    assert applied["battle"] is None
    # the two phones agree on the campaign after the battle
    assert applied["state"] == next(x for x in campaigns(a) if x["id"] == c["id"])["state"]
    # the same result again is refused with a message, and nothing changes
    ready(b, result_link)
    b.locator("#apply-shared-result").click()
    expect(b.locator("#open-error")).to_contain_text("not waiting for this battle")
    assert next(x for x in campaigns(b) if x["id"] == c["id"]) == applied

    # B reloads offline: the campaign and the battle's result are still on its map and sheets
    b_ctx.set_offline(True)
    b.goto(server.url + "#/campaign/" + c["id"])
    b.reload()
    expect(b.locator("#campaign-map .cell")).to_have_count(64, timeout=BOOT_MS)
    expect(b.locator("#campaign-log")).to_contain_text("Battle result:")
    expect(b.locator(f'#campaign-map .cell[data-x="{tx}"][data-y="{ty}"] .terrain')).to_have_text(
        "Red desert"
    )
    b.locator(f'#campaign-map [data-mark="{target["key"]}"]').click()
    expect(b.locator("#campaign-sheet h2").first).to_have_text(target["name"])
    a_ctx.close()
    b_ctx.close()
