"""A Mobile Suit Gundam: Skirmish campaign on two phones (two browser contexts), end to end in Chromium.

Phone A starts a campaign from a ready-made set-up on the Australia map (L1773; our layout), plays
both players' first campaign turns by tapping (begin, the Event Die for each team, end: L2037-L2066),
undoes and redoes a step, then a Battle (L2132) starts a real game.  Two steps are sent to the engine
directly, not tapped, because the screen has no way for them yet: moving an enemy team next to one of
ours (a manual change) and ending the battle's game (players end it by hand).  Phone B receives the
whole campaign by link; A sends the battle's result by link; B applies it once (a second time is
refused with a message and changes nothing) and reloads offline.  The test reads what the players see:
the map's marks, the sheets, the status line, the log.
"""

from __future__ import annotations

from typing import Any

from conftest import BOOT_MS, PHONE, Server
from playwright.sync_api import Browser, Page, expect

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


def test_a_campaign_on_two_phones_a_battle_result_by_link_offline(browser: Browser, server: Server) -> None:
    a_ctx = browser.new_context(**PHONE)
    b_ctx = browser.new_context(**PHONE)
    a, b = a_ctx.new_page(), b_ctx.new_page()
    ready(a, server.url + "#/campaigns")
    a.get_by_role("button", name="Australia: One Year War, ready-made teams").click()
    expect(a.locator("#campaign-map .cell")).to_have_count(64, timeout=30_000)
    # the map fits the phone: no sideways scrolling at 390 px, the tiles about 45 px
    assert a.evaluate("document.documentElement.scrollWidth") <= 390
    tile = a.locator("#campaign-map .cell").first.bounding_box()
    assert tile is not None and tile["width"] >= 40
    first = str(a.locator("#campaign-status").inner_text())
    assert "Turn:" in first and "round 1" in first
    # the teams and bases are tappable: a team's sheet
    mark = a.locator('#campaign-map [data-mark="t1"]')
    name = next(t["name"] for t in campaigns(a)[0]["state"]["teams"] if t["key"] == "t1")
    assert mark.inner_text() == name[0] + "1"  # the tile shows "E1" or "Z1", its colour the rest
    mark.click()
    expect(a.locator("#campaign-sheet h2").first).to_have_text(name)
    tile = a.locator("#campaign-map .cell").first.bounding_box()
    assert tile is not None and tile["height"] >= 40  # the whole tile is the tap target
    expect(a.locator("#campaign-sheet")).to_contain_text(" ace, ")  # its named character, rank and all
    a.screenshot(path="/tmp/cmp/map.png", full_page=True)
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

    # put two enemy teams side by side (a manual change, as players may), then a Battle
    # (the engine is asked directly: the screen has no editor of team positions yet)
    c = saved[0]
    teams = c["state"]["teams"]
    mover = next(i for i, t in enumerate(teams) if t["faction"] != c["state"]["players"][0]["faction"])
    target = next(t for t in teams if t["faction"] == c["state"]["players"][0]["faction"])
    spot = {"x": target["x"], "y": target["y"] + 1}
    reply = a.evaluate(
        """async ([c, i, spot]) => {
          const r = await window.tc.engine.call('campaign.adjust', { campaign: c, changes: [
            { path: ['state', 'teams', i, 'x'], value: spot.x },
            { path: ['state', 'teams', i, 'y'], value: spot.y }] });
          if (r.ok) await window.tc.store.putCampaign(r.result);
          return r;
        }""",
        [c, mover, spot],
    )
    assert reply["ok"], reply
    a.reload()
    expect(a.locator("#campaign-map .cell")).to_have_count(64, timeout=BOOT_MS)
    step(a, "Begin the turn")
    event_dice(a)
    a.locator(f'#campaign-map [data-mark="{target["key"]}"]').click()
    a.locator('#team-steps [data-step="battle"]').click()
    a.wait_for_url("**#/game/*", timeout=30_000)
    expect(a.locator("body")).to_contain_text(target["name"].split(" team")[0])

    # phone B gets the whole campaign (with the battle pending) by link and saves it
    a.goto(server.url + "#/campaign/" + c["id"])
    expect(a.locator("#campaign-battle")).to_contain_text("A battle is being played")
    a.locator("#campaign-share-button").click()
    link = a.locator("#campaign-link-url").input_value()
    ready(b, link)
    b.locator("#open-campaign").click()
    expect(b.locator("#campaign-map .cell")).to_have_count(64, timeout=30_000)
    expect(b.locator("#campaign-battle")).to_contain_text("Its game is on another phone")

    # the battle ends (the players end it by hand: the first side wins), A sends the result
    game_id = next(x for x in campaigns(a) if x["id"] == c["id"])["battle"]["game_id"]
    ended = a.evaluate(
        """async (id) => {
          const g = window.tc.store.game(id);
          const r = await window.tc.engine.call('game.adjust', { game: g, changes: [
            { path: ['state', 'ended'], value: true }, { path: ['state', 'winners'], value: [0] }] });
          if (r.ok) await window.tc.store.putGame(r.result);
          return r.ok;
        }""",
        game_id,
    )
    assert ended
    a.reload()
    expect(a.locator("#send-result")).to_be_visible(timeout=BOOT_MS)
    a.locator("#send-result").click()
    result_link = a.locator("#result-link-url").input_value()
    ready(b, result_link)
    b.locator("#apply-shared-result").click()
    b.wait_for_url("**#/campaign/*", timeout=30_000)
    expect(b.locator("#campaign-log")).to_contain_text("Battle result:")
    applied = next(x for x in campaigns(b) if x["id"] == c["id"])
    assert applied["battle"] is None
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
    b.locator(f'#campaign-map [data-mark="{target["key"]}"]').click()
    expect(b.locator("#campaign-sheet h2").first).to_have_text(target["name"])
    a_ctx.close()
    b_ctx.close()
