"""How the golden saves of the localStorage release were made (run once, at commit f570976).

The app of that commit kept everything in localStorage under "tc.store" (format:
core/storage.py, schema 1), set unreadable items aside under "tc.store.aside" and moved
a store it could not parse to "tc.store.unreadable.<ms>". This script plays that release
in Chromium and writes what it left in localStorage to tests/golden/v1_*.json, so the
migration to IndexedDB is tested against real saves, not hand-made ones. It is kept as
a record: run against today's app it would no longer produce these files.

    python3 build.py && .venv/bin/python tests/golden/make_v1_saves.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from conftest import BOOT_MS, CHROMIUM_ARGS, PHONE, Server, apply_result, type_dice  # noqa: E402
from playwright.sync_api import Page, expect, sync_playwright  # noqa: E402

import build  # noqa: E402


def boot(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)


def dump(page: Page) -> dict[str, str]:
    return page.evaluate("() => Object.fromEntries(Object.entries(localStorage))")


def gunframe_squad(page: Page, server: Server, name: str, picks: list[int]) -> None:
    page.goto(server.url + "#/squads")
    page.select_option("#new-squad-system", "gunframe")
    page.click("#new-squad")
    expect(page.locator("#squad-name")).to_be_visible()
    page.fill("#squad-name", name)
    page.locator("#squad-name").dispatch_event("change")
    page.fill("#squad-limit", "100")
    page.locator("#squad-limit").dispatch_event("change")
    for n, pick in enumerate(picks):
        page.select_option("#catalogue-pick", index=pick)
        expect(page.locator("#squad-units .unit-row")).to_have_count(n + 1)
        if page.locator("#notice").is_visible():
            page.locator("#notice-close").click()


def msb_squad(page: Page, server: Server, sample: int) -> None:
    page.goto(server.url + "#/squads")
    page.select_option("#new-squad-system", "ms_battles")
    page.click("#new-squad")
    expect(page.locator("#squad-name")).to_be_visible()
    page.select_option("#catalogue-pick", index=sample)
    expect(page.locator("#squad-units .unit-row")).to_have_count(1)


def main() -> None:
    server = Server()
    out: dict[str, dict[str, str]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(build.CHROMIUM), args=CHROMIUM_ARGS)
        ctx = browser.new_context(**PHONE)
        page = ctx.new_page()
        boot(page, server.url)
        gunframe_squad(page, server, "Red Lancers", [1, 2, 3])
        # An own unit, kept in the library too.
        page.click("#new-unit")
        page.click("#save-unit-library")
        expect(page.locator("#squad-units .unit-row")).to_have_count(4)
        gunframe_squad(page, server, "Blue Hammers", [4, 5])
        msb_squad(page, server, 1)
        msb_squad(page, server, 2)

        # A GUNFRAME game: an attack with typed dice, two rounds, a manual adjustment.
        page.goto(server.url + "#/games")
        page.select_option("#side-0-squad", index=0)
        page.select_option("#side-1-squad", index=1)
        page.click("#start-game")
        expect(page.locator(".unit-card")).to_have_count(6)
        page.select_option("#action-pick", "attack")
        page.select_option("#pick-attacker", "0/u1")
        page.select_option("#pick-target", "1/u2")
        page.click("#action-typed")
        type_dice(page, {"attack": "6"})
        apply_result(page)
        for _ in range(2):
            logged = page.locator("#game-log li").count()
            page.click("#next-round")
            expect(page.locator("#game-log li")).to_have_count(logged + 1)
        expect(page.locator("#round")).to_have_text("Round 3")

        # A Mobile Suit Battles game, set up with typed dice and drawn.
        page.goto(server.url + "#/games")
        page.select_option("#side-0-squad", index=2)
        page.select_option("#side-1-squad", index=3)
        page.click("#start-game")
        expect(page.locator(".unit-card")).to_have_count(2)
        page.select_option("#action-pick", "setup")
        page.click("#action-typed")
        type_dice(page)
        apply_result(page)
        page.select_option("#action-pick", "draw")
        page.click("#action-roll")
        apply_result(page)

        # The GUNFRAME game shared and opened again: a second copy of it.
        page.goto(server.url + "#/games")
        page.locator("#app-view a[href^='#/game/']").first.click()
        page.click("#share-game")
        link = page.locator("#share-url").input_value()
        page.goto(link)
        page.click("#open-game")
        expect(page.locator(".unit-card")).to_have_count(6)
        page.wait_for_timeout(500)
        out["v1_store"] = dump(page)
        print("game link", len(link), "store", len(out["v1_store"]["tc.store"]))
        full = out["v1_store"]["tc.store"]
        ctx.close()

        def after_boot(setup: dict[str, str]) -> dict[str, str]:
            c = browser.new_context(**PHONE)
            pg = c.new_page()
            pg.goto(server.url + "no-such-page")
            pg.evaluate("(s) => Object.entries(s).forEach(([k, v]) => localStorage.setItem(k, v))", setup)
            boot(pg, server.url + "#/squads")
            pg.wait_for_timeout(1000)
            left = dump(pg)
            c.close()
            return left

        # Truncated JSON: the release moved it under a hidden key and opened empty.
        out["v1_truncated"] = after_boot({"tc.store": full[: len(full) // 2]})
        # Broken items: set aside under tc.store.aside by the release.
        data = json.loads(full)
        data["squads"].append({"id": "s-broken", "name": "Half a squad"})
        data["games"].append({"id": "g-broken", "system": "gunframe", "sides": []})
        data["units"].append({"id": "u-broken", "system": "gunframe", "profile": "not a profile"})
        out["v1_broken_items"] = after_boot({"tc.store": json.dumps(data)})
        # Data from a newer version: left alone by the release.
        newer = {**json.loads(full), "schema_version": 99, "future_field": {"kept": True}}
        out["v1_newer"] = after_boot({"tc.store": json.dumps(newer)})
        browser.close()
    server.stop()
    for name, keys in out.items():
        (HERE / f"{name}.json").write_text(json.dumps(keys, indent=1, sort_keys=True) + "\n")
        print(name, {k: len(v) for k, v in keys.items()})


if __name__ == "__main__":
    main()
