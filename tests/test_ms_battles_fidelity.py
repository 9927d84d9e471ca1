"""Mobile Suit Battles: the rules gaps of issues #12 and #15 (lines are in 002_c5caa4b4fc3fd928.txt).

Hidden cards stay hidden from other players (L71), the game ends and says who
won (L9, L44-L46, L97), the turn runs in its order (L50, L67, L103-L105), a
game starts only with equal forces and legal decks (L9, L107-L125), a spent
deck does not stop play ([Q-7]), range decides which marks count (L40, L91),
guard break takes damage off the blocked zone first (L139, [Q-12]), and every
action undoes and redoes exactly.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from test_ms_battles import act, card, game, hurt, ids, last, planned, set_deck, swap

from core import api, share
from core.dice import RandomDice
from core.game import Game, new_game, redo, step_back
from core.squad import Squad, SquadUnit
from core.systems.base import NeedChoice
from core.systems.ms_battles import SYSTEM
from core.systems.ms_battles.board import SuitPlay
from core.systems.ms_battles.cards import MARKER
from core.systems.ms_battles.planning import unseen_hand_dist
from core.systems.ms_battles.play import DrawInput
from core.systems.ms_battles.sample import DECK_A, DECK_B

# --- helpers ---------------------------------------------------------------------------------------


def odds(g: Game, viewer: int | None, unit: str = "0/u", **watch: Any) -> Any:
    spec = SYSTEM.actions["draw"]
    assert spec.odds is not None and spec.odds_by_viewer
    return spec.odds(g, DrawInput(unit=unit, **watch), viewer)


def p_card(g: Game, viewer: int | None, cid: str, unit: str = "0/u") -> float:
    return float(odds(g, viewer, unit, watch_card=cid).facts[f"draws {cid}"])


def call(op: str, **args: Any) -> Any:
    reply = api.call(op, json.loads(json.dumps(args, default=lambda m: m.model_dump(mode="json"))))
    assert reply["ok"], reply
    return reply["result"]


def side0_planned() -> Game:
    """Setup; side 0 draws Tamsin's four cards and Rising Cut, keeps Killing Blow and Rising Cut."""
    g = act(game(DECK_A, DECK_B), "setup", priority_side=0)
    g = set_deck(g, 0, ["TR-1", "TR-2", "TR-3", "TR-4", "SB-1"])
    g = act(g, "draw", unit="0/u")
    return act(g, "plan", unit="0/u", keep=["TR-3", "SB-1"])


def state(g: Game) -> tuple[Any, int, dict[str, Any]]:
    return [s.model_dump() for s in g.sides], g.round, g.options


# --- hidden cards stay hidden (L71) ----------------------------------------------------------------


def test_an_opponents_odds_do_not_reveal_the_hand_or_the_cards_put_back() -> None:
    """L71: the 3 cards put back and the 2 kept are unknown to others; the owner knows where they are."""
    fresh = act(game(DECK_A, DECK_B), "setup", priority_side=0)
    g = side0_planned()
    for viewer in (1, None):  # the other player, and the shared table phone
        for cid in ("TR-1", "TR-4", "TR-3", "SB-1", "GN-1", "BO-5"):
            assert p_card(g, viewer, cid) == pytest.approx(1 / 4)  # 5 of the 20 unseen cards
        # what the other player sees is exactly what they saw before side 0 drew
        assert odds(g, viewer, watch_card="TR-3") == odds(fresh, viewer, watch_card="TR-3")
        assert "232/323" in odds(g, viewer).summary
    # the owner knows: returned and kept cards cannot come up, the 15 above the marker share the hand
    assert [p_card(g, 0, cid) for cid in ("TR-1", "TR-4", "TR-3", "SB-1")] == [0, 0, 0, 0]
    assert p_card(g, 0, "GN-1") == pytest.approx(1 / 3)


def test_cards_seen_going_under_the_deck_at_cleanup_are_known_to_all() -> None:
    """L105: the revealed cards go to the bottom face up; the secret returns stay unknown to others."""
    g = side0_planned()
    g = set_deck(g, 1, ["BO-1", "GN-2"])
    g = act(g, "draw", unit="1/u")
    g = act(g, "plan", unit="1/u", keep=["BO-1", "GN-2"])
    g = act(g, "reveal")
    g = act(g, "cleanup", force=True)
    assert p_card(g, 1, "TR-3") == 0 and p_card(g, 1, "SB-1") == 0  # seen going under (L105)
    assert p_card(g, 1, "TR-1") == pytest.approx(5 / 18)  # 18 cards nobody else can place
    assert p_card(g, 1, "GN-1") == pytest.approx(5 / 18)
    assert p_card(g, 0, "TR-1") == 0 and p_card(g, 0, "GN-1") == pytest.approx(1 / 3)


def _brute(unseen: list[bool], above: int, secret: int, seen: list[bool], size: int) -> Counter[int]:
    """Every set above the marker, every set of secret returns, every hand: counted one by one."""
    assert above < size  # the marker comes up during the draw
    out: Counter[int] = Counter()
    n = len(unseen)
    for top in itertools.combinations(range(n), above):
        rest = [i for i in range(n) if i not in top]
        for under in itertools.combinations(rest, secret):
            pile = list(seen) + [unseen[i] for i in under]
            for more in itertools.combinations(range(len(pile)), min(size - above, len(pile))):
                out[sum(unseen[i] for i in top) + sum(pile[i] for i in more)] += 1
    return out


@pytest.mark.parametrize(
    ("unseen", "above", "secret", "seen", "size"),
    [
        ([True, False, True, False, False, False], 3, 2, [True, False], 5),
        ([True, False, False, True, False], 2, 3, [False, True], 4),
        ([False, True, True, False], 0, 3, [True], 4),
        ([True, True, False, False, False], 1, 4, [], 5),
    ],
)
def test_unseen_odds_when_the_marker_comes_up_match_a_count(
    unseen: list[bool], above: int, secret: int, seen: list[bool], size: int
) -> None:
    """[Q-7]: the hand takes what is above, then the reshuffled pile under the marker gives the rest."""
    counts = _brute(unseen, above, secret, seen, size)
    total = sum(counts.values())
    dist = unseen_hand_dist(unseen, above, secret, seen, size)
    assert {k: dist.probability(k) for k in counts} == {k: Fraction(v, total) for k, v in counts.items()}
    assert sum(dist.probability(k) for k in counts) == 1


def test_the_odds_call_takes_the_viewer() -> None:
    g = side0_planned()
    base = {"game": g, "action": "draw", "input": {"unit": "0/u", "watch_card": "TR-1"}}
    assert call("game.odds", **base, viewer=0)["facts"]["draws TR-1"] == 0
    assert call("game.odds", **base, viewer=1)["facts"]["draws TR-1"] == pytest.approx(0.25)
    assert call("game.odds", **base)["facts"]["draws TR-1"] == pytest.approx(0.25)


def test_another_players_view_shows_how_many_cards_never_which() -> None:
    g = act(game(DECK_A, DECK_B), "setup", priority_side=0)
    g = set_deck(g, 0, ["TR-1", "TR-2", "TR-3", "TR-4", "SB-1"])
    g = act(g, "draw")
    theirs = call("game.views", game=g, viewer=1)["views"]["0/u"]["sections"]
    assert theirs[0] == {"title": "Hand: 5 cards, hidden", "items": [], "private": False, "bind": None}
    assert "TR-1" not in json.dumps(theirs) and "Ace Instinct" not in json.dumps(theirs)
    own = call("game.views", game=g, viewer=0)["views"]["0/u"]["sections"][0]
    assert [i["id"] for i in own["items"]] == ["TR-1", "TR-2", "TR-3", "TR-4", "SB-1"]
    table = call("game.views", game=g)["views"]["0/u"]["sections"][0]
    assert table["title"] == "Hand" and table["private"] and table["bind"]["action"] == "plan"
    g = act(g, "plan", unit="0/u", keep=["TR-3", "SB-1"])
    theirs = call("game.views", game=g, viewer=1)["views"]["0/u"]["sections"]
    assert theirs[0]["title"] == "Face down: 2 cards, hidden" and theirs[0]["items"] == []


def test_the_log_never_names_a_hidden_card() -> None:
    """L71: drawing and planning log how many cards, not which; the reveal names them (L75)."""
    g = act(game(DECK_A, DECK_B), "setup", priority_side=0)
    g = set_deck(g, 0, ["TR-1", "TR-2", "TR-3", "TR-4", "SB-1"])
    g = api.games.act(g, "draw", {}, RandomDice(3))
    g = api.games.act(g, "plan", {"unit": "0/u", "keep": ["TR-3", "SB-1"]}, RandomDice(3))
    shown = json.dumps([[e.text, e.detail] for e in g.log])
    for secret in ("TR-1", "TR-2", "TR-3", "TR-4", "SB-1", "Killing Blow", "Rising Cut", "Ace Instinct"):
        assert secret not in shown
    assert g.log[-1].detail["input"] == {"unit": "0/u", "keep": 2, "bottom": None, "reveal": False}
    assert g.log[-2].detail["drawn"] == {"0/u": 5, "1/u": 5}


def test_a_game_link_leaves_hidden_cards_on_the_phone() -> None:
    """A link made during planning carries the game as it stood before the draws, without undone steps."""
    before = set_deck(act(game(DECK_A, DECK_B), "setup", priority_side=0), 0, ["TR-1", "TR-2", "TR-3"])
    g = act(act(before, "draw", unit="0/u"), "plan", unit="0/u", keep=["TR-3", "SB-1"])
    undone = step_back(g)  # an undone plan in the log holds a secret pick too
    opened = share.decode(call("share.encode", game=undone)["token"]).game
    assert opened is not None
    assert state(opened) == state(before) and len(opened.log) == opened.cursor == len(before.log) == 1
    assert not any(
        u.state.extra.get("hand") or u.state.extra.get("planned") for s in opened.sides for u in s.units
    )
    # after the reveal nothing is hidden: the link carries the game as it is
    g = set_deck(g, 1, ["BO-1", "GN-2"])
    g = act(act(act(g, "draw", unit="1/u"), "plan", unit="1/u", keep=["BO-1", "GN-2"]), "reveal")
    opened = share.decode(call("share.encode", game=g)["token"]).game
    assert opened is not None and state(opened) == state(g) and opened.cursor == g.cursor


# --- the end of the game (L9, L44-L46, L97) --------------------------------------------------------


def status(g: Game) -> dict[str, str]:
    return {line.label: line.value for line in SYSTEM.status(g)}


def test_the_last_side_standing_wins_and_nothing_is_drawn_after() -> None:
    """L9, L97: with every suit of one side destroyed the other side has won; play stops."""
    g = planned(game(DECK_A, DECK_B), {0: ["SB-1", "GN-2"], 1: ["RM-1", "BO-1"]})
    assert status(g)["Phase"] == "action" and "Result" not in status(g)
    g = hurt(g, 1, high=3)
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    assert "game is over" not in g.log[-1].text
    g = act(g, "resolve_card", unit="0/u", card="SB-1", target="1/u")
    won = "P0 wins: every other side's suits are destroyed (L9, L97)"
    assert status(g)["Result"] == won
    assert g.log[-1].text.endswith(f"; the game is over: {won}")  # the card's own line says so
    for name, raw in (("draw", {"unit": "0/u"}), ("resolve_card", {}), ("reveal", {}), ("setup", {})):
        with pytest.raises(ValueError, match="the game is over: P0 wins"):
            act(g, name, **raw)
    g = act(g, "cleanup")  # the last turn may still be tidied up
    assert g.round == 2 and status(g)["Result"] == won
    with pytest.raises(ValueError, match="the game is over"):
        act(g, "draw")
    with pytest.raises(ValueError, match="the game is over"):
        act(g, "plan", unit="0/u", keep=["GN-1", "GN-2"])


def test_with_a_turn_limit_the_most_objectives_win() -> None:
    """L44-L46 and [Q-2]: after the last turn the side holding the most objectives wins; level is a draw."""
    for held, result in (
        ((1, 2), "P1 wins with 2 objectives held after turn 1 (L44-L46)"),
        ((1, 1), "turn 1 is over and the lead on objectives is shared (1 each): a draw (L44-L46)"),
    ):
        g = planned(game(DECK_A, DECK_B, turn_limit=1), {0: ["GN-2", "SB-3"], 1: ["PS-1", "RM-1"]})
        sides = [
            s.model_copy(update={"resources": {**s.resources, "objectives": n}})
            for s, n in zip(g.sides, held, strict=True)
        ]
        g = g.model_copy(update={"sides": sides})
        assert "Result" not in status(g) and status(g)["Turn limit"] == "1"
        g = act(g, "cleanup", force=True)
        assert g.round == 2 and status(g)["Result"] == result
        assert last(g).endswith(f"turn 1 ends; the game is over: {result}")
        with pytest.raises(ValueError, match="the game is over"):
            act(g, "draw")


def test_the_turn_counter_advances_at_cleanup_and_undoes() -> None:
    """L67, L103-L105: a turn is planning, action, cleanup; the counter moves on at cleanup."""
    g = planned(game(DECK_A, DECK_B), {0: ["GN-2", "SB-3"], 1: ["PS-1", "RM-1"]})
    assert (g.round, status(g)["Turn"]) == (1, "1")
    after = act(g, "cleanup", force=True)
    assert (after.round, status(after)["Turn"], status(after)["Phase"]) == (2, "2", "planning")
    assert step_back(after).round == 1


# --- the order of play (L50, L67, L103-L105) --------------------------------------------------------


def test_no_cleanup_before_the_cards_are_revealed() -> None:
    assert status(game(DECK_A, DECK_B))["Phase"] == "setup"  # L50
    g = act(game(DECK_A, DECK_B), "setup", priority_side=0)
    assert status(g)["Phase"] == "planning"
    with pytest.raises(ValueError, match="reveal the cards first"):
        act(g, "cleanup", force=True)
    g = act(g, "draw")
    with pytest.raises(ValueError, match="reveal the cards first"):
        act(g, "cleanup")
    for name, raw in (("resolve_card", {}), ("resolve_turn", {"steps": [{}]})):
        with pytest.raises(ValueError, match="still face down: reveal them first"):
            act(g, name, **raw)


def test_setup_happens_once_and_set_aside_cards_stay_out() -> None:
    """L50, L59, L105: a second setup would rebuild the decks and bring single-use cards back."""
    g = planned(game(DECK_A, DECK_B), {0: ["BO-5", "GN-2"], 1: ["PS-1", "RM-1"]})
    g = act(g, "cleanup", force=True)
    assert ids(g, 0, "set_aside") == ["BO-5"]
    with pytest.raises(ValueError, match="setup happens once"):
        act(g, "setup")
    fresh = act(game(DECK_A, DECK_B), "draw", unit="0/u")  # drawing first shuffles: play has begun
    with pytest.raises(ValueError, match="setup happens once"):
        act(fresh, "setup")
    assert ids(g, 0, "set_aside") == ["BO-5"] and "BO-5" not in ids(g, 0, "deck")


def test_draw_all_draws_for_the_suits_that_have_not_drawn() -> None:
    g = act(game(DECK_A, DECK_B), "setup", priority_side=0)
    g = act(g, "draw", unit="0/u")
    hand = ids(g, 0, "hand")
    g = act(g, "draw")
    assert ids(g, 0, "hand") == hand and len(ids(g, 1, "hand")) == 5
    assert last(g).startswith("Oruun / Hollis Brack draws 5")
    with pytest.raises(ValueError, match="every suit has drawn"):
        act(g, "draw")
    g = act(act(g, "plan", unit="0/u", keep=hand[:2]), "plan", unit="1/u", keep=ids(g, 1, "hand")[:2])
    g = act(g, "reveal")
    with pytest.raises(ValueError, match="face up"):
        act(g, "draw", unit="0/u")


# --- starting a game: equal forces, legal decks (L9, L107-L125) ----------------------------------------


def squad(name: str, *suits: Any) -> Squad:
    return Squad(
        id=name,
        name=name,
        system="ms_battles",
        units=[SquadUnit(key=f"u{i + 1}", profile=s.model_dump(mode="json")) for i, s in enumerate(suits)],
    )


def test_a_game_starts_only_with_equal_numbers_of_suits_and_legal_decks() -> None:
    ok = new_game("g", "Duel", [("Ann", squad("a", DECK_A)), ("Bo", squad("b", DECK_B))])
    assert [len(s.units) for s in ok.sides] == [1, 1]
    with pytest.raises(ValueError) as bad:
        new_game("g", "Duel", [("Ann", squad("a", DECK_A, DECK_B)), ("Bo", squad("b", DECK_B))])
    assert str(bad.value) == (
        "this game cannot start: every player brings the same number of suits, at least one (L9): Ann 2, Bo 1"
    )
    short = DECK_A.model_copy(update={"cards": DECK_A.cards[:19]})
    reply = api.call(
        "game.new",
        {
            "id": "g",
            "sides": [
                {"name": "Ann", "squad": squad("a", short).model_dump(mode="json")},
                {"name": "Bo", "squad": squad("b", DECK_B).model_dump(mode="json")},
            ],
        },
    )
    assert not reply["ok"]
    message = reply["error"]["message"]
    assert message.startswith("this game cannot start: Ann, Vessik / Tamsin Reyl: ") and "20" in message


# --- a spent deck ([Q-7]) ----------------------------------------------------------------------------------


def spent(g: Game, side: int) -> Game:
    """Every card of a suit set aside: its deck holds the marker only."""
    n = len(g.sides[side].units[0].profile["cards"])
    play = SuitPlay(deck=[MARKER], shuffled=True, set_aside=list(range(n)))
    sides = list(g.sides)
    u = sides[side].units[0]
    u = u.model_copy(update={"state": u.state.model_copy(update={"extra": play.model_dump(mode="json")})})
    sides[side] = sides[side].model_copy(update={"units": [u]})
    return g.model_copy(update={"sides": sides})


def test_a_suit_with_no_card_left_sits_the_turn_out_and_play_goes_on() -> None:
    """[Q-7]: draw what there is; with nothing the suit places nothing, and the turn still runs."""
    g = spent(act(game(DECK_A, DECK_B), "setup", priority_side=0), 0)
    g = set_deck(g, 1, ["BO-1", "GN-2"])
    g = act(g, "draw")
    assert "Vessik / Tamsin Reyl has no card to play this turn ([Q-7])" in last(g)
    g = act(g, "plan", unit="1/u", keep=["BO-1", "GN-2"])
    g = act(g, "reveal")
    g = act(act(g, "resolve_card"), "resolve_card")
    g = act(g, "cleanup")
    assert g.round == 2 and not g.sides[0].units[0].state.destroyed
    g = act(g, "draw")  # and the next turn too
    assert ids(g, 0, "hand") == [] and len(ids(g, 1, "hand")) == 5


def test_house_rule_a_suit_with_no_card_left_leaves_the_fight() -> None:
    g = spent(act(game(DECK_A, DECK_B, spent_deck="withdraw"), "setup", priority_side=0), 0)
    g = act(g, "draw")
    assert g.sides[0].units[0].state.destroyed
    assert status(g)["Result"] == "P1 wins: every other side's suits are destroyed (L9, L97)"


# --- range (L40, L57, L91) ------------------------------------------------------------------------


def ask(g: Game, name: str, **raw: Any) -> NeedChoice:
    spec = SYSTEM.actions[name]
    with pytest.raises(NeedChoice) as asked:
        spec.resolve(g, spec.input.model_validate(raw), RandomDice(7))
    return asked.value


MIXED = card("T-1", initiative=9, attacks=[{"zone": "high"}, {"zone": "mid", "form": "ranged", "range": 6}])


def test_marks_that_reach_differently_ask_which_are_in_range() -> None:
    """L91: only marks in range count; with a melee and a ranged mark the app asks how far the target is."""
    s = swap(DECK_A, "BO-1", MIXED)
    g = planned(game(s, DECK_B, melee_reach=2), {0: ["T-1", "GN-2"], 1: ["HC-1", "BO-1"]})
    q = ask(g, "resolve_card", unit="0/u", card="T-1", target="1/u")
    assert q.field == "out_of_range"
    # L40: a target within the melee reach is within the ranged mark's 6 steps too, so "the melee mark
    # only" cannot happen and is not offered (issue #20).
    assert [(c.value, c.label) for c in q.options] == [
        ([], "within melee 2 steps and ranged 6 steps (every mark)"),
        ([0], "within ranged 6 steps only"),
    ]
    g2 = act(g, "resolve_card", unit="0/u", card="T-1", target="1/u", out_of_range=[0])
    c = g2.sides[1].units[0].state.counters
    assert (c["high"], c["mid"]) == (0, 1)
    # The answer that cannot happen is refused when sent anyway, in plain words, through the seam.
    reply = api.call(
        "game.act",
        {
            "game": g.model_dump(mode="json"),
            "action": "resolve_card",
            "input": {"unit": "0/u", "card": "T-1", "target": "1/u", "out_of_range": [1]},
            "seed": 1,
        },
    )
    assert reply["ok"] is False
    assert reply["error"]["message"] == (
        "a target within melee 2 steps is within ranged 6 steps too: the ranged 6 steps mark cannot be out "
        "of range (L40)"
    )


def test_the_range_question_offers_one_answer_per_distance_the_marks_mark_out() -> None:
    """L40 with three reaches (melee 2, ranged 4, ranged 6): three answers, nearest first, each leaving
    out only the marks that reach less far; marks that reach alike are always in or out together."""
    three = card(
        "T-1",
        initiative=9,
        attacks=[
            {"zone": "mid", "form": "ranged", "range": 6},
            {"zone": "high"},
            {"zone": "low", "form": "ranged", "range": 4},
        ],
    )
    g = planned(
        game(swap(DECK_A, "BO-1", three), DECK_B, melee_reach=2), {0: ["T-1", "GN-2"], 1: ["HC-1", "BO-1"]}
    )
    q = ask(g, "resolve_card", unit="0/u", card="T-1", target="1/u")
    assert [(c.value, c.label) for c in q.options] == [
        ([], "within ranged 6 steps and melee 2 steps and ranged 4 steps (every mark)"),
        ([1], "within ranged 6 steps and ranged 4 steps only"),
        ([1, 2], "within ranged 6 steps only"),
    ]


def test_a_card_whose_marks_reach_alike_takes_the_target_as_in_range() -> None:
    """L91: a target may only be chosen within range, so naming it says the marks reach."""
    g = planned(game(DECK_A, DECK_B, melee_reach=3), {0: ["SB-2", "GN-2"], 1: ["RM-1", "BO-1"]})
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    g = act(g, "resolve_card", unit="1/u", card="BO-1")
    q = ask(g, "resolve_card", unit="0/u", card="SB-2")
    assert q.field == "target" and q.prompt == (
        "Whom does Vessik / Tamsin Reyl attack with Low Sweep? It reaches melee 3 steps (L40, L91)."
    )
    g = act(g, "resolve_card", unit="0/u", card="SB-2", target="1/u")
    assert g.sides[1].units[0].state.counters["low"] == 2


def test_the_face_up_card_shows_its_range_after_a_pilots_bonus() -> None:
    """Steady Hands gives the other card +2 range (sample HB-1): Suppressing Fire reaches 8, not 6."""
    g = planned(game(DECK_A, DECK_B), {0: ["GN-2", "GN-1"], 1: ["HB-1", "HB-2"]})
    g = act(g, "resolve_card", unit="0/u", card="GN-2")
    before = call("game.views", game=g)["views"]["1/u"]["sections"][0]["items"]
    assert [i["detail"] for i in before if i["id"] == "HB-2"] == [
        "initiative 8; moves up to 2 steps; attack 1x mid ranged 6 steps"
    ]
    g = act(g, "resolve_card", unit="1/u", card="HB-1")
    items = call("game.views", game=g)["views"]["1/u"]["sections"][0]["items"]
    assert [i["detail"] for i in items if i["id"] == "HB-2"] == [
        "initiative 8; moves up to 2 steps; attack 1x mid ranged 8 steps; range +2 this turn"
    ]
    q = ask(g, "resolve_card", unit="1/u", card="HB-2")
    assert "It reaches ranged 8 steps" in q.prompt


# --- guard break (L139, [Q-12]) --------------------------------------------------------------------------


GUARD = card(
    "G-1", initiative=9, attacks=[{"zone": "high"}, {"zone": "mid", "count": 2}], keywords=["guard_break"]
)


@pytest.mark.parametrize(
    ("blocker", "left"),
    [
        ("PS-1", (1, 1)),  # blocks mid: the point comes off mid
        ("PS-3", (1, 2)),  # no block mark: all 3 marks land
    ],
)
def test_guard_break_takes_damage_off_the_blocked_zone_first(blocker: str, left: tuple[int, int]) -> None:
    """L139 and [Q-12]: a high x1 + mid x2 guard-break attack, blocked by a mid block, deals high 1, mid 1."""
    s = swap(DECK_A, "BO-1", GUARD)
    g = planned(game(s, DECK_B), {0: ["G-1", "GN-2"], 1: [blocker, "BO-1"]})
    g = act(g, "resolve_card", unit="0/u", card="G-1", target="1/u")
    c = g.sides[1].units[0].state.counters
    assert (c["high"], c["mid"]) == left


def test_guard_break_against_a_high_block_spares_the_high_zone() -> None:
    """A high-only block (Riposte) takes its point off high: mid gets both marks."""
    s = swap(DECK_B, "BO-1", GUARD)
    g = planned(game(s, DECK_A), {0: ["G-1", "GN-2"], 1: ["SB-4", "BO-1"]})
    g = act(g, "resolve_card", unit="0/u", card="G-1", target="1/u")
    c = g.sides[1].units[0].state.counters
    assert (c["high"], c["mid"]) == (0, 2) and "Riposte" in last(g)


THREE = card(
    "G-2",
    initiative=9,
    attacks=[{"zone": "high"}, {"zone": "mid"}, {"zone": "low"}],
    keywords=["guard_break"],
)


def test_guard_break_with_several_blocks_takes_the_blocked_zones_first() -> None:
    """[Q-12] option: a mid block and a mid/low block against high, mid and low: mid and low lose 1."""
    s = swap(DECK_A, "BO-1", THREE)
    g = planned(game(s, DECK_B, guard_break_many_blocks=True), {0: ["G-2", "GN-2"], 1: ["PS-1", "HB-3"]})
    g = act(g, "resolve_card", unit="0/u", card="G-2", target="1/u", blockers=["PS-1", "HB-3"])
    c = g.sides[1].units[0].state.counters
    assert (c["high"], c["mid"], c["low"]) == (1, 0, 0)


def test_guard_break_points_beyond_the_blocked_zone_come_off_high_then_mid_then_low() -> None:
    """[Q-12] option: two mid-only blocks against high, mid and low: mid first, then high; low lands."""
    s = swap(DECK_A, "BO-1", THREE)
    d = swap(DECK_B, "BO-6", card("M-2", blocks=["mid"]))
    g = planned(game(s, d, guard_break_many_blocks=True), {0: ["G-2", "GN-2"], 1: ["PS-1", "M-2"]})
    g = act(g, "resolve_card", unit="0/u", card="G-2", target="1/u", blockers=["PS-1", "M-2"])
    c = g.sides[1].units[0].state.counters
    assert (c["high"], c["mid"], c["low"]) == (0, 0, 1)


# --- every action undoes and redoes exactly (issue #15) ------------------------------------------


def test_every_action_undoes_and_redoes_exactly() -> None:
    steps: list[tuple[str, dict[str, Any]]] = [
        ("setup", {"priority_side": 0}),
        ("draw", {"unit": "0/u"}),
        ("draw", {}),
        ("plan", {"unit": "0/u", "keep": ["TR-3", "SB-1"]}),
        ("plan", {"unit": "1/u", "keep": ["PS-1", "RM-1"]}),
        ("reveal", {}),
        ("resolve_turn", {"steps": [{"unit": "0/u", "card": "SB-1", "target": "1/u"}]}),
        ("resolve_card", {"unit": "1/u", "card": "PS-1", "target": "0/u"}),
        ("resolve_card", {"unit": "0/u", "card": "TR-3", "target": "1/u"}),
        ("resolve_card", {"unit": "1/u", "card": "RM-1", "target": "0/u"}),
        ("cleanup", {}),
        ("draw", {}),
    ]
    g = game(DECK_A, DECK_B)
    seen = set()
    for name, raw in steps:
        if name == "draw" and g.round == 1 and "unit" in raw:
            g = set_deck(set_deck(g, 0, ["TR-3", "SB-1"]), 1, ["PS-1", "RM-1"])
        after = api.games.act(g, name, raw, RandomDice(11))
        back = step_back(after)
        assert state(back) == state(g) and back.cursor == g.cursor
        again = redo(back)
        assert state(again) == state(after) and again.cursor == after.cursor
        assert again.log[-1] == after.log[-1]
        g = after
        seen.add(name)
    assert seen == set(SYSTEM.actions)
    hit = [{z: s.units[0].state.counters[z] for z in ("high", "mid", "low")} for s in g.sides]
    assert g.round == 2 and hit == [{"high": 0, "mid": 3, "low": 0}, {"high": 1, "mid": 1, "low": 0}]


def test_the_next_round_button_points_to_cleanup() -> None:
    """L67, L103-L105: the turn counter moves on at cleanup only, not by a separate step."""
    g = act(game(DECK_A, DECK_B), "setup", priority_side=0)
    reply = api.call("game.round", {"game": g.model_dump(mode="json")})
    assert not reply["ok"] and reply["error"]["message"] == (
        "a turn ends with the Cleanup action, which starts the next one (L67, L103-L105)"
    )
