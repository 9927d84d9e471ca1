"""A rule system that lives wholly under tests/ works end to end in Chromium.

The test-only system of ``tests/toy_system`` (its own editor kind, its own state of a unit in
play, its own tool) is built into a separate test site with ``TC_TEST_SYSTEMS``; nothing of it
is outside its folder but the registration line the build adds.  The shipped site holds none of it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import BOOT_MS, PHONE, ROOT, Server, apply_result, saved_game, type_dice, unit_state
from playwright.sync_api import Browser, Page, expect


@pytest.fixture(scope="module")
def toy_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    out = tmp_path_factory.mktemp("toy-site")
    env = {**os.environ, "TC_DIST": str(out), "TC_TEST_SYSTEMS": "tests/toy_system"}
    done = subprocess.run(
        [sys.executable, str(ROOT / "build.py")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    server = Server(out)
    yield server, out
    server.stop()


def _wheel_names(site: Path) -> list[str]:
    wheel = next((site / "pyodide").glob("tablecompanion_core-*.whl"))
    with zipfile.ZipFile(wheel) as zf:
        return zf.namelist()


def test_the_shipped_site_holds_no_test_system(dist: Path) -> None:
    assert not (dist / "editor-toy-dial.js").exists()
    assert not [n for n in _wheel_names(dist) if n.startswith("core/systems/toy")]
    assert "toy" not in (dist / "index.html").read_text().lower()


def boot(page: Page, url: str) -> None:
    page.goto(url)
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)


def test_a_system_under_tests_builds_squads_with_its_own_editor_and_plays(
    browser: Browser, toy_site: tuple[Server, Path]
) -> None:
    server, site = toy_site
    assert [n for n in _wheel_names(site) if n.startswith("core/systems/toy/")]
    assert (site / "editor-toy-dial.js").exists()
    context = browser.new_context(**PHONE, first_visit=True)
    page = context.new_page()
    try:
        boot(page, server.url + "#/squads")
        page.select_option("#new-squad-system", "toy")
        page.click("#new-squad")
        expect(page.locator("#squad-name")).to_be_visible()
        expect(page.locator('[data-catalogue-id="grunt"] .cost')).to_have_text("7 pts")
        page.click('#catalogue [data-add="grunt"]')
        expect(page.locator("#squad-units .unit-row")).to_have_count(1)
        expect(page.locator("#squad-total")).to_contain_text("7 points")

        # The system's own editor kind, drawn by its own module, asking its own tool.
        page.click("#new-unit")
        expect(page.locator("#toy-unit")).to_have_text("Dialled: 4 hit points, 4 dice, 12 points")
        page.fill("#toy-points", "2")
        expect(page.locator("#toy-unit")).to_contain_text("greater than or equal to 3")
        page.fill("#toy-points", "15")
        page.fill("#toy-name", "Ace")
        expect(page.locator("#toy-unit")).to_have_text("Ace: 5 hit points, 5 dice, 15 points")
        page.click("#toy-save")
        expect(page.locator("#squad-units .unit-row")).to_have_count(2)
        expect(page.locator("#squad-units")).to_contain_text("Ace")
        expect(page.locator("#squad-total")).to_contain_text("22 points")

        # A game of the squad against itself: Ace shoots the other side's Grunt with five sixes.
        page.goto(server.url + "#/games")
        page.click("#start-game")
        expect(page.locator(".unit-card")).to_have_count(4)
        # Ace is Pinned (a chip on its open card): its own firing modes will show Burst greyed.
        if page.locator('[data-unit="0/u2"] .card-toggle').get_attribute("aria-expanded") != "true":
            page.locator('[data-unit="0/u2"] .card-toggle').click()
        page.locator('[data-unit="0/u2"] [data-flag="pinned"]').click()
        expect(page.locator('[data-unit="0/u2"] [data-flag="pinned"]')).to_have_attribute(
            "aria-pressed", "true"
        )
        # Shoot is among the unit's further actions; the sheet offers the other side's units.
        page.locator('[data-unit="0/u2"] select.more-actions').select_option("shoot")
        expect(page.locator("#sheet-title")).to_have_text("Shoot: Ace")
        expect(page.locator("#targets [data-target]")).to_have_count(2)
        page.locator('#targets [data-target="1/u1"]').click()
        # What the shooter itself offers (game.picks): its numbers, the one it cannot use greyed with why.
        modes = page.locator('#action-panel [data-pick-field="mode"] button')
        expect(modes.locator(".choice-name")).to_have_text(["Aimed", "Burst"])
        expect(modes.locator(".pick-detail")).to_have_text(["5 dice", "6 dice"])
        expect(modes.first).to_have_attribute("aria-pressed", "true")
        expect(modes.nth(1)).to_be_disabled()
        expect(modes.nth(1).locator(".pick-why")).to_have_text("no burst while Pinned")
        # The usable one carries its headline odds: 5 dice on 4+, at least one hit 31/32.
        expect(modes.first.locator(".choice-odds")).to_have_text("97% · avg 2.5")
        page.locator("#action-odds .odds-full summary").click()  # the full tables, drawn when opened
        expect(page.locator("#action-odds table")).not_to_have_count(0)
        page.click("#action-typed")
        type_dice(page, {"attack": "6"})
        expect(page.locator("#action-text")).to_have_text(re.compile(r"Ace shoots Grunt: 3 damage"))
        apply_result(page)
        target = page.locator('[data-unit="1/u1"]')
        shooter = page.locator('[data-unit="0/u2"]')
        expect(target.locator(".stepper output").first).to_have_text(re.compile(r"^3 / 3"))
        expect(shooter.locator('[data-section="Shots"]')).to_contain_text("1")
        # The system's track of cells (UnitView.grids) is drawn on the card, its marks in view.
        expect(target.locator('table.cell-grid td[data-mark="full"]')).to_have_count(3)

        page.click("#undo")
        expect(target.locator(".stepper output").first).to_have_text(re.compile(r"^0 / 3"))
        expect(target.locator('table.cell-grid td[data-mark="full"]')).to_have_count(0)
        expect(shooter.locator('[data-section="Shots"]')).to_contain_text("0")
        page.reload()
        expect(shooter.locator('[data-section="Shots"]')).to_contain_text("0", timeout=BOOT_MS)
    finally:
        context.close()


def test_an_action_that_rolls_nothing_is_applied_in_one_tap(
    browser: Browser, toy_site: tuple[Server, Path]
) -> None:
    """An action a system marks as rolling nothing (``ActionSpec.rolls=False``) with nothing to fill in
    is applied by the tap on the card (no sheet), saved before the toast says so; the bottom bar's
    Undo names it; the toast goes on the next tap elsewhere; Undo takes it back."""
    server, _ = toy_site
    context = browser.new_context(**PHONE, first_visit=True)
    page = context.new_page()
    try:
        boot(page, server.url + "#/squads")
        page.select_option("#new-squad-system", "toy")
        page.click("#new-squad")
        page.click('#catalogue [data-add="grunt"]')
        expect(page.locator("#squad-units .unit-row")).to_have_count(1)
        page.goto(server.url + "#/games")
        page.click("#start-game")
        expect(page.locator(".unit-card")).to_have_count(2)

        # Aim rolls nothing and asks nothing (the unit is the card's): applied in the one tap.
        page.locator('[data-unit="0/u1"] [data-act="aim"]').click()
        expect(page.locator("#toast")).to_contain_text("Grunt takes aim (1)")
        expect(page.locator("#action-panel")).to_have_count(0)
        assert unit_state(saved_game(page), "0/u1")["counters"]["aim"] == 1
        expect(page.locator("#game-log li").first).to_have_text("Grunt takes aim (1)")
        undo = page.locator("#undo")
        expect(undo).to_have_attribute("aria-label", "Undo: Grunt takes aim (1)")
        expect(undo.locator(".undo-what")).to_have_text("Grunt takes aim (1)")
        page.locator("#game-title").click()  # any other tap: the toast goes
        expect(page.locator("#toast")).to_have_count(0)

        page.click("#undo")
        expect(page.locator("#game-log li.undone")).to_have_count(1)
        assert unit_state(saved_game(page), "0/u1")["counters"]["aim"] == 0
    finally:
        context.close()


def test_what_a_unit_lacks_is_offered_greyed_with_the_reason(
    browser: Browser, toy_site: tuple[Server, Path]
) -> None:
    """The shared gate (core.systems.base.needs, game.gates): a Grunt (2 dice) sees Overcharge greyed with
    the engine's reason and the bonus of 3 dice not offered; Rally, which needs a Pinned unit, is greyed
    among its actions until it is Pinned; a Brute (3 dice) gets both modifiers."""
    server, _ = toy_site
    context = browser.new_context(**PHONE, first_visit=True)
    page = context.new_page()
    try:
        boot(page, server.url + "#/squads")
        page.select_option("#new-squad-system", "toy")
        page.click("#new-squad")
        page.click('#catalogue [data-add="grunt"]')
        page.click('#catalogue [data-add="brute"]')
        expect(page.locator("#squad-units .unit-row")).to_have_count(2)
        page.goto(server.url + "#/games")
        page.click("#start-game")
        expect(page.locator(".unit-card")).to_have_count(4)

        grunt = page.locator('[data-unit="0/u1"]')
        if grunt.locator(".card-toggle").get_attribute("aria-expanded") != "true":
            grunt.locator(".card-toggle").click()
        rally = grunt.locator('select.more-actions option[value="rally"]')
        expect(rally).to_be_disabled()
        expect(rally).to_have_text("Rally (Grunt is not Pinned)")
        grunt.locator('[data-flag="pinned"]').click()
        expect(grunt.locator('select.more-actions option[value="rally"]')).to_be_enabled()

        grunt.locator("select.more-actions").select_option("shoot")
        expect(page.locator("#sheet-title")).to_have_text("Shoot: Grunt")
        page.locator('#targets [data-target="1/u1"]').click()
        chip = page.locator('#action-panel [data-mod="overcharge"]')
        expect(chip).to_be_disabled()
        expect(chip).to_have_attribute("aria-pressed", "false")
        expect(page.locator("#gated-list")).to_be_visible()
        expect(page.locator('#gated-list [data-gated="Overcharge"]')).to_have_text(
            "Overcharge Grunt has fewer than 3 dice"
        )
        # A field of the form behind "More modifiers" carries its reason in place.
        expect(page.locator('[data-field="bonus"] .gated-why')).to_have_text("3: Grunt has fewer than 3 dice")
        expect(page.locator("#gated-list li")).to_have_count(1)
        page.click("#sheet-close")

        brute = page.locator('[data-unit="0/u2"]')
        if brute.locator(".card-toggle").get_attribute("aria-expanded") != "true":
            brute.locator(".card-toggle").click()
        brute.locator("select.more-actions").select_option("shoot")
        expect(page.locator("#sheet-title")).to_have_text("Shoot: Brute")
        page.locator('#targets [data-target="1/u1"]').click()
        expect(page.locator('#action-panel [data-mod="overcharge"]')).to_be_enabled()
        expect(page.locator("#gated-list")).to_be_hidden()
        page.locator('#action-panel [data-mod="overcharge"]').click()
        expect(page.locator('#action-panel [data-mod="overcharge"]')).to_have_attribute(
            "aria-pressed", "true"
        )
    finally:
        context.close()
