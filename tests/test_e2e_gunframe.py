"""GUNFRAME at the table: a 100-point Clash squadron from the book, shared, played.

Build it from the book's units, share it, open the link in a fresh browser, start a
game against the shared copy, attack with real dice (every firepower die a 6, every
defense die a 1), spend the power points on Knock Down, undo it, reload in airplane
mode: all still there.
"""

from __future__ import annotations

import re
from typing import Any

from conftest import BOOT_MS, PHONE, Server, apply_result, saved_game, type_dice, typed_outcome, unit_state
from playwright.sync_api import Browser, expect

from core import api

#: Ranged systems first: the Terror-Bot flies, and a flyer never makes close attacks on a walker (L924).
WEAPONS = ("short", "medium", "long", "close")


def clash_squadron() -> list[dict[str, Any]]:
    """Five units of the book making a legal squadron, as near 100 points as they go."""
    catalogue = api.call("system.describe", {"system": "gunframe"})["result"]["catalogue"]
    priced = []
    for unit in catalogue:
        check = api.call("unit.check", {"system": "gunframe", "profile": unit["profile"]})["result"]
        if check["valid"] and not check["violations"]:
            priced.append({**unit, "cost": check["cost"]})
    priced.sort(key=lambda u: -u["cost"])

    def legal(units: list[dict[str, Any]]) -> bool:
        entries = [{"key": f"u{i + 1}", "profile": u["profile"]} for i, u in enumerate(units)]
        squad = {"id": "s", "name": "s", "system": "gunframe", "limit": 100, "units": entries}
        return bool(api.call("squad.check", {"squad": squad})["result"]["legal"])

    chosen: list[dict[str, Any]] = []
    for slot in range(5):
        budget = 100 - sum(u["cost"] for u in chosen) - 8 * (4 - slot)
        chosen.append(
            next(u for u in priced if u["cost"] <= budget and u not in chosen and legal([*chosen, u]))
        )
    return chosen


def test_clash_squadron_attack_power_attack_undo_offline(browser: Browser, server: Server) -> None:
    units = clash_squadron()
    total = sum(u["cost"] for u in units)
    home = browser.new_context(**PHONE)
    page = home.new_page()
    page.goto(server.url + "#/squads")
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
    page.select_option("#new-squad-system", "gunframe")
    page.click("#new-squad")
    page.fill("#squad-limit", "100")
    page.locator("#squad-limit").dispatch_event("change")
    for unit in units:
        page.locator(f'#catalogue [data-add="{unit["id"]}"]').click()
    expect(page.locator("#squad-units .unit-row")).to_have_count(5)
    expect(page.locator("#squad-total")).to_have_text(f"{total} / 100 points · legal")
    page.click("#share-squad")
    link = page.locator("#share-url").input_value()
    assert len(link) < 600
    home.close()

    other = browser.new_context(**PHONE)
    try:
        page = other.new_page()
        page.goto(link)
        expect(page.locator("#play-shared")).to_be_visible(timeout=BOOT_MS)
        page.click("#play-shared")
        # No squad of this system here: the new game screen is the player's own choice (issue 22).
        page.click("#play-choose-later")
        page.click("#start-game")
        expect(page.locator(".unit-card")).to_have_count(10)

        # The environment, rolled with real dice: 4 is gravity, then 5 is low (L1989-1995).
        page.select_option("#action-pick", "environment")
        page.click("#action-typed")
        type_dice(page, {"gravity": "5"}, default="4")
        apply_result(page)
        expect(page.locator("#game-status")).to_contain_text("Low gravity")

        attacker = units[0]["profile"]
        weapon = max(WEAPONS, key=lambda w: attacker.get(w, 0))
        before = saved_game(page)
        page.locator('[data-unit="0/u1"] [data-act="attack"]').click()
        page.locator('#targets [data-target="1/u2"]').click()
        page.locator(f'[data-choice-field="weapon"] [data-value="{weapon}"]').click()
        expect(page.locator(f'[data-choice-field="weapon"] [data-value="{weapon}"]')).to_have_attribute(
            "aria-pressed", "true"
        )
        page.click("#action-typed")
        type_dice(page, {"attack": "6"})
        expect(page.locator("#action-text")).to_contain_text("power point")
        apply_result(page)
        # The target's card shows exactly the damage the engine makes of those dice.
        after = typed_outcome(
            before, "attack", {"attacker": "0/u1", "target": "1/u2", "weapon": weapon}, {"attack": "6"}
        )
        hit = unit_state(after, "1/u2")
        assert hit["damage"] > 0
        target = page.locator('[data-unit="1/u2"]')
        expect(target.locator(".dmg")).to_have_text(f"{hit['damage']}/{hit['max_damage']}")

        page.locator('[data-unit="0/u1"] .card-toggle').click()
        page.locator('[data-unit="0/u1"] .more-actions').select_option("power")
        page.locator('#action-panel [data-field="spend"] button', has_text="+ Add").click()
        page.locator('#action-panel [data-field="spend"] select[name="power"]').select_option('"knock_down"')
        page.click("#action-roll")
        type_dice(page, {"attack": "6"})
        apply_result(page)
        expect(target.locator('[data-flag="knocked_down"]')).to_have_class(re.compile(r"\bon\b"))

        page.click("#undo")
        expect(target.locator('[data-flag="knocked_down"]')).not_to_have_class(re.compile(r"\bon\b"))
        page.click("#redo")
        expect(target.locator('[data-flag="knocked_down"]')).to_have_class(re.compile(r"\bon\b"))

        # A named reading of the rules, chosen for this game, is a logged change too.
        page.locator("#rules-options summary").click()
        page.locator('#rules-options input[name="crippled_rules"]').check()
        expect(page.locator("#game-log li").first).to_have_text("Rules reading changed: Crippled Rules")

        other.set_offline(True)
        page.reload()
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        expect(target.locator('[data-flag="knocked_down"]')).to_have_class(re.compile(r"\bon\b"))
        expect(page.locator("#game-log li").nth(1)).to_contain_text("Knock")
        page.locator("#rules-options summary").click()
        expect(page.locator('#rules-options input[name="crippled_rules"]')).to_be_checked()
    finally:
        other.close()
