"""Each system's typical attack counted in taps and scrolls on a 390x844 phone (tests/table_flow.py).

The table bar: from the game screen to the result on the target's card. GUNFRAME: an attack in at
most 5 taps, no scrolling. Mobile Suit Battles: from a new game to the first resolved card in at
most 8 taps, each later card in at most 2, no scrolling. A change that adds a tap or a scroll fails
here, with the trail of what the player tapped.
"""

from __future__ import annotations

from typing import Any

from conftest import Server, open_with_store, saved_game, seeded_dice, unit_state
from playwright.sync_api import Browser, expect
from table_flow import Player, phone_page

from core import api


def two_sides(
    system: str, picks: list[list[int]], names: tuple[str, str] = ("Red", "Blue")
) -> dict[str, Any]:
    """Two squads of the system's catalogue units (by index) and a new game between them."""
    catalogue = api.call("system.describe", {"system": system})["result"]["catalogue"]
    squads = []
    for n, chosen in enumerate(picks):
        units = [{"key": f"u{k + 1}", "profile": catalogue[i]["profile"]} for k, i in enumerate(chosen)]
        squads.append({"id": f"s{n}", "name": f"{names[n]} squad", "system": system, "units": units})
    sides = [{"name": names[n], "squad": q} for n, q in enumerate(squads)]
    game = api.call("game.new", {"id": "g1", "name": "Red vs Blue", "sides": sides})["result"]
    return {"schema_version": 1, "squads": squads, "units": [], "games": [game]}


def test_gunframe_attack_within_five_taps(browser: Browser, server: Server) -> None:
    context, page = phone_page(browser)
    try:
        open_with_store(
            page, server.url + "#/game/g1", two_sides("gunframe", [[0, 3, 5, 7, 9], [1, 2, 4, 6, 8]])
        )
        expect(page.locator(".unit-card")).to_have_count(10, timeout=30000)
        player = Player(page)
        player.tap(page.locator('[data-unit="0/u1"] [data-act="attack"]'))
        player.tap(page.locator('#targets [data-target="1/u2"]'))
        player.tap(page.locator("#action-roll"))
        player.tap(page.locator("#apply-result"))
        player.within(taps=5, scrolls=0)
        game = saved_game(page)
        state = unit_state(game, "1/u2")
        card = page.locator('[data-unit="1/u2"]')
        expect(card.locator(".dmg")).to_have_text(f"{state['damage']}/{state['max_damage']}")
        player.sees(page.locator("#toast"))
        if state["damage"]:
            player.sees(card)
    finally:
        context.close()


#: The page's dice for the Mobile Suit Battles game: its Setup shuffles both decks at random (no
#: sheet, no typed dice), and about 1 deal in 60 (CPython, 400 seeds) makes the first card ask two
#: questions (whom it attacks, then which card the target blocks with), one tap over the budget.
MSB_SEED = 1


def card_questions(game: dict[str, Any]) -> int:
    """How many questions the next card asks, each answered with its first choice as
    :func:`resolve_one` answers it (the engine's own count, from the game as saved)."""
    given: dict[str, Any] = {}
    for asked in range(6):
        args = {"game": game, "action": "resolve_card", "input": given, "seed": 1}
        reply = api.call("game.act", args)
        assert reply["ok"], reply
        ask = reply["result"]["ask"]
        if not ask:
            return asked
        first = ask["options"][0]
        given = {**given, ask["field"]: first["value"], **(first.get("also") or {})}
    raise AssertionError("the card kept asking")


def test_mobile_suit_battles_first_card_within_eight_taps(browser: Browser, server: Server) -> None:
    """A new game of the two sample suits: setup and the first hands (one tap), each player looks at
    their hand alone and taps the two cards to keep (the cards turn face up once both have chosen,
    L71, L75), then the first card by initiative asks whom it attacks: one tap. Later cards: one or
    two taps each (whom it attacks; who picks in a tie). The shuffle is seeded (MSB_SEED): a deal
    whose first card asks two questions would need 9 taps."""
    context, page = phone_page(browser)
    seeded_dice(context, MSB_SEED)
    try:
        open_with_store(page, server.url + "#/game/g1", two_sides("ms_battles", [[0], [1]]))
        expect(page.locator(".unit-card")).to_have_count(2, timeout=30000)
        player = Player(page)
        expect(page.locator("#phase-next")).to_have_text("Setup")
        player.tap(page.locator("#phase-next"))
        expect(page.locator("#phase-strip li.now")).to_have_text("Plan", timeout=15000)
        for ref in ("0/u1", "1/u1"):
            hand = page.locator(f'[data-unit="{ref}"] .holding[data-section="Hand"]')
            player.tap(hand.locator(".peek"))
            ticks = hand.locator("input[type=checkbox]")
            expect(ticks).to_have_count(5)
            player.tap(hand.locator("li label").nth(0))
            player.tap(hand.locator("li label").nth(1))
            expect(page.locator(f'[data-unit="{ref}"] .holding[data-section="Hand"]')).to_have_count(0)
        expect(page.locator("#phase-strip li.now")).to_have_text("Resolve", timeout=30000)
        expect(page.locator("#game-log li").first).to_contain_text("face up")
        asks = card_questions(saved_game(page))
        assert asks <= 1, f"MSB_SEED {MSB_SEED} now deals a first card that asks {asks} questions"
        # the first card: its question (whom it attacks, who picks in a tie) is on screen at once;
        # a card with nothing to ask resolves from the bar's button
        resolve_one(page, player)
        player.within(taps=8, scrolls=0)
        player.sees(page.locator("#toast"))
        # each later card of the turn in at most 2 taps
        while page.locator("#phase-strip li.now").inner_text() == "Resolve":
            mark = player.mark()
            resolve_one(page, player)
            player.within(taps=2, scrolls=0, since=mark)
        expect(page.locator("#phase-strip li.now")).to_have_text("Cleanup")
    finally:
        context.close()


def resolve_one(page: Any, player: Player) -> None:
    """Resolve the next card as a player does: answer the question on screen, or tap the step."""
    before = len(saved_game(page)["log"])
    for _ in range(4):
        ask = page.locator("#phase-ask [data-choice]")
        if ask.count():
            player.tap(ask.first)
        else:
            player.tap(page.locator("#phase-next"))
        # The tap waited for the page to finish (settle): the change is saved by now, or the step
        # asks a question or needs one more tap, which the next turn of the loop makes.
        log = saved_game(page)["log"]
        if len(log) > before:
            # the screen drawn after the change (with the next step's question, if any)
            expect(page.locator("#game-log li")).to_have_count(len(log), timeout=30000)
            expect(page.locator("#toast")).to_be_visible()
            return
    raise AssertionError(f"the card did not resolve: {player.trail}")


def test_gundam_skirmish_shot_within_five_taps(browser: Browser, server: Server) -> None:
    """A shot from the game screen to the result on the target's card: Shoot on the acting unit's card,
    the target, the app's roll, Apply, and the target's decision after the roll when the rules leave
    it one (which hits its blocks cancel, whether its shield breaks)."""
    from test_e2e_gundam_skirmish_table import gs_store

    context, page = phone_page(browser)
    try:
        open_with_store(page, server.url + "#/game/g1", gs_store())
        expect(page.locator(".unit-card")).to_have_count(5, timeout=30000)
        player = Player(page)
        player.tap(page.locator('[data-unit="0/u1"] [data-act="shoot"]'))
        player.tap(page.locator('#targets [data-target="1/u1"]'))
        player.tap(page.locator("#action-roll"))
        for _ in range(3):  # the target's decisions after the roll, each one tap
            if not player.tap_if(page.locator("#action-ask [data-choice]")):
                break
        player.tap(page.locator("#apply-result"))
        player.within(taps=5, scrolls=0)
        game = saved_game(page)
        state = unit_state(game, "1/u1")
        card = page.locator('[data-unit="1/u1"]')
        expect(card.locator(".dmg")).to_have_text(f"{state['damage']}/{state['max_damage']}")
        player.sees(page.locator("#toast"))
        if state["damage"]:
            player.sees(card)
    finally:
        context.close()


def test_the_first_step_is_offered_never_refused(browser: Browser, server: Server) -> None:
    """A new Gundam Skirmish battle offers its priority roll (L278-L282) as the bar's button, and its
    units' Shoot buttons are greyed with the reason until it is rolled: never met as a refusal."""
    store = two_sides("gundam_skirmish", [[0, 1], [3, 4]])
    context, page = phone_page(browser)
    try:
        open_with_store(page, server.url + "#/game/g1", store)
        expect(page.locator(".unit-card")).to_have_count(4, timeout=30000)
        expect(page.locator("#phase-next")).to_have_text("Priority roll")
        shoot = page.locator('[data-unit="0/u1"] [data-act="shoot"]')
        expect(shoot).to_be_disabled()
        expect(shoot).to_have_attribute("title", "Priority roll first")
        player = Player(page)
        player.tap(page.locator("#phase-next"))
        player.sees(page.locator("#action-roll"))
    finally:
        context.close()
