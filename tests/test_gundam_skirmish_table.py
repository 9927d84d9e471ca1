"""Mobile Suit Gundam: Skirmish at the table: what the acting unit offers (its own weapons and
abilities), whose turn it is, and the game types' score lines (000_3e12d4cbd0c8f6da.txt lines)."""

from __future__ import annotations

from typing import Any

import pytest
from test_gundam_skirmish import game, sample, squad

from core.dice import TypedDice
from core.game import Game, act, new_game, picks
from core.systems.base import NeedChoice
from core.systems.gundam_skirmish.turns import phase_view


def offered(g: Game, action: str, actor: str) -> list[tuple[str, str, str]]:
    field = "ability" if action == "ability" else "weapon"
    return [(p.label, p.detail, p.unavailable) for p in picks(g, action, actor)[field]]


RIFLE = ("Beam rifle", 'Beam, Carried, Penetration; 1 shot, 12-36", ACC 3+, CRIT 5+, 3 DAM')
HEAD_GUNS = ("Head guns", 'Low Calibre, Mounted; 3 shots, 0-12", ACC 5+, no CRIT, 1 DAM')
ROTARY = ("Rotary cannon", 'Low Calibre, Carried, Quick Reload; 1D6 shots, 12-36", ACC 4+, CRIT 6+, 1 DAM')
MISSILES = (
    "Missile rack",
    'Explosive, Mounted, Quick Reload, Penetration; 2 shots, 12-36", ACC 4+, CRIT 5+, 3 DAM',
)


def test_a_shot_offers_the_shooters_own_weapons_with_their_numbers() -> None:
    """The sheet's weapons in the book's words (L2366-L2403): equipped carried first, then mounted."""
    g = game()
    assert offered(g, "shoot", "0/l1") == [(*RIFLE, ""), (*HEAD_GUNS, "")]
    # The Trooper's Bazooka is carried but not equipped: greyed until a Switch Weapon (L424-L444).
    assert offered(g, "shoot", "1/t1") == [
        ("Machine gun", 'Low Calibre, Carried; 3 shots, 6-24", ACC 4+, no CRIT, 1 DAM', ""),
        (
            "Bazooka",
            'Explosive, Carried, Quick Reload, Penetration; 1 shot, 12-36", ACC 3+, CRIT 5+, 4 DAM',
            "not equipped: Switch Weapon first (L424-L444)",
        ),
    ]
    # No Aimed Shot with an Explosive weapon (L879).
    assert offered(g, "aimed_shot", "1/h1") == [
        (*ROTARY, ""),
        (*MISSILES, "no Aimed Shot with an Explosive or Blast weapon (L879)"),
    ]


def test_a_fired_weapon_waits_for_its_reload_and_the_reload_offers_it() -> None:
    g = act(game(), "next_turn", {}, TypedDice([]))  # the Zeon turn
    assert offered(g, "reload", "1/h1") == [
        ("Rotary cannon", "Quick Reload (a Fast action)", "loaded"),
        ("Missile rack", "Quick Reload (a Fast action)", "loaded"),
    ]
    fire = {"attacker": "1/h1", "target": "0/l1", "weapon": "Rotary cannon", "shield_break": "no"}
    g = act(g, "shoot", fire, TypedDice([1, 1, 1, 1, 1, 1, 1]))
    assert offered(g, "shoot", "1/h1") == [
        (*ROTARY, "needs a Quick Reload first (L415-L422)"),
        (*MISSILES, ""),
    ]
    assert offered(g, "reload", "1/h1") == [
        ("Rotary cannon", "Quick Reload (a Fast action)", ""),
        ("Missile rack", "Quick Reload (a Fast action)", "loaded"),
    ]
    # Arm Damage 2 makes every reload Slow (L925-L929).
    hurt = g.model_copy(deep=True)
    hurt.sides[1].units[1].state.counters["arm"] = 2
    assert offered(hurt, "reload", "1/h1")[0] == ("Rotary cannon", "Slow Reload (a Slow action)", "")
    assert offered(hurt, "shoot", "1/h1")[0][2] == "needs a Slow Reload first (L415-L422)"


def test_switch_weapon_offers_the_carried_weapons_and_the_close_combat_one() -> None:
    g = game()
    assert offered(g, "switch_weapon", "0/l1") == [
        ("Beam rifle", '1 shot, 12-36", ACC 3+, CRIT 5+, 3 DAM', "equipped now"),
        ("Beam blade", "close combat, 2D6, ACC 3+, 4 DAM", ""),
    ]
    g = act(g, "switch_weapon", {"unit": "0/l1", "weapon": "cc"}, TypedDice([]))
    assert [p[2] for p in offered(g, "switch_weapon", "0/l1")] == ["", "equipped now"]
    # With the blade in hand the rifle is not equipped; the head guns (mounted) still fire.
    assert [p[2] for p in offered(g, "shoot", "0/l1")] == [
        "",
        "not equipped: Switch Weapon first (L424-L444)",
    ]
    assert [p[0] for p in offered(g, "shoot", "0/l1")] == ["Head guns", "Beam rifle"]


def test_abilities_offered_are_the_units_active_ones_and_mechanic() -> None:
    """Active abilities are actions, passive ones are not offered (L402-L407); Extra Tank and the
    Mechanic trait once per battle (L2866, L1978-L1979)."""
    lancer: dict[str, Any] = sample("lancer")
    lancer["abilities"] = [{"key": "extra_tank"}, {"key": "movable_frame"}, {"key": "grapple_hook"}]
    lancer["pilot"] = [{"name": "Ace", "rank": 2, "traits": ["mechanic"]}]
    g = game(a=[("l1", lancer)])
    labels = [(p[0], p[2]) for p in offered(g, "ability", "0/l1")]
    assert labels == [("Extra Tank", ""), ("Grapple Hook", ""), ("Mechanic", "")]
    g = act(g, "ability", {"unit": "0/l1", "ability": "extra_tank"}, TypedDice([]))
    assert offered(g, "ability", "0/l1")[0] == (
        "Extra Tank",
        "Once per battle: the next Boost is followed by a free Boost.",
        "used once already this battle (L2866)",
    )
    assert offered(game(), "ability", "0/l1") == []


@pytest.mark.parametrize("action", ["close_combat", "move", "idle", "morale"])
def test_actions_without_a_pick_offer_nothing(action: str) -> None:
    assert picks(game(), action, "0/l1") == {}


# --- whose turn it is (L276-L308) ------------------------------------------------------------------


def fresh(*extra: tuple[str, str, dict[str, Any]]) -> Game:
    """Feds (a Captain, Command) against Zeon (a Trooper), nothing rolled yet; more sides from ``extra``."""
    sides = [
        ("Feds", squad("a", "Feds", ("c1", sample("captain")))),
        ("Zeon", squad("b", "Zeon", ("t1", sample("trooper")))),
        *((name, squad(sid, name, ("u1", prof))) for name, sid, prof in extra),
    ]
    return new_game("g", "Test", sides)


def test_nothing_is_done_before_the_priority_roll() -> None:
    g = fresh()
    assert [s.label for s in phase_view(g).steps] == [
        "Priority roll",
        "Initial Upkeep",
        "Actions",
        "Final Upkeep",
    ]
    assert phase_view(g).current == 0
    for action, raw in [
        ("idle", {"unit": "0/c1"}),
        ("move", {"unit": "1/t1"}),
        ("close_combat", {"attacker": "0/c1", "defender": "1/t1"}),
        ("order", {"side": 0, "order": "bring_them_down", "unit": "0/c1"}),
        ("next_turn", {}),
    ]:
        with pytest.raises(ValueError, match=r"^the battle has not begun: roll for priority first"):
            act(g, action, raw, TypedDice([6] * 12))


def test_the_priority_winner_picks_a_place_and_the_first_turn_begins() -> None:
    """L278-L282: the highest roller chooses; here Feds roll 5, Zeon 2 and Feds take the second turn."""
    g = fresh()
    with pytest.raises(NeedChoice) as asked:
        act(g, "priority", {}, TypedDice([5, 2]))
    assert asked.value.prompt == "Feds won the priority roll: which turn does Feds take? (L280-L281)"
    assert [(c.value, c.label) for c in asked.value.options] == [([1], "First turn"), ([2], "Second turn")]
    g = act(g, "priority", {"places": [2]}, TypedDice([5, 2]))
    assert g.log[-1].text == (
        "Priority: Feds 5, Zeon 2. Order: Zeon, Feds; Zeon's turn: +0 Command Points (L1283-L1288)"
    )
    assert (g.state.active_side, g.sides[0].resources["order"], g.sides[1].resources["order"]) == (1, 2, 1)
    assert phase_view(g).current == 1  # Zeon's Initial Upkeep
    with pytest.raises(ValueError, match="made once"):
        act(g, "priority", {"places": [1]}, TypedDice([5, 2]))
    # The Feds wait: a plain refusal naming whose turn it is.
    with pytest.raises(ValueError) as refused:
        act(g, "idle", {"unit": "0/c1"}, TypedDice([]))
    assert str(refused.value) == (
        "it is Zeon's turn: Feds's units act in their own turn; when Zeon is done, tap Next turn (L294-L297)"
    )
    # Close combat is fought whenever units meet, in any player's turn (L299-L301).
    fight = {"attacker": "0/c1", "defender": "1/t1", "charged": False}
    act(
        g, "close_combat", {**fight, "shield_break": "no", "defender_shield_break": "no"}, TypedDice([6] * 40)
    )
    # Zeon acts: the Actions step; once its only unit is used, the Final Upkeep.
    g = act(g, "idle", {"unit": "1/t1"}, TypedDice([]))
    assert phase_view(g).current == 2
    g = act(g, "idle", {"unit": "1/t1"}, TypedDice([]))
    view = phase_view(g)
    assert (view.current, view.steps[3].action) == (3, "next_turn")
    # Next turn passes play on: the Feds' Upkeep, their Captain's Command Point in (L1283-L1288).
    g = act(g, "next_turn", {}, TypedDice([]))
    assert g.log[-1].text == "Zeon ends the turn; Feds's turn: +1 Command Point (L1283-L1288)"
    assert (g.state.active_side, g.round, phase_view(g).current) == (0, 1, 1)
    g = act(g, "next_turn", {}, TypedDice([]))
    assert (g.state.active_side, g.round) == (1, 2)  # the order never changes (L281-L282)


def test_ties_roll_again_and_each_player_in_turn_picks_a_place() -> None:
    g = fresh(("Axis", "c", sample("trooper")))
    # Feds 4, Zeon 4, Axis 1: Feds and Zeon tie, so they two roll again (L279-L280): Feds 3, Zeon 6.
    # Zeon chooses first, Feds (second highest) next, Axis (the 1) takes the turn left (L280-L281).
    dice = [4, 4, 1, 3, 6]
    with pytest.raises(NeedChoice) as asked:
        act(g, "priority", {}, TypedDice(dice))
    assert asked.value.prompt.startswith("Zeon won the priority roll")
    with pytest.raises(NeedChoice) as asked:
        act(g, "priority", {"places": [3]}, TypedDice(dice))
    assert asked.value.prompt == "Feds rolled next highest: which turn does Feds take? (L280-L281)"
    assert [c.label for c in asked.value.options] == ["First turn", "Second turn"]
    g = act(g, "priority", {"places": [3, 2]}, TypedDice(dice))
    assert g.log[-1].text.startswith(
        "Priority: Feds 4, Zeon 4, Axis 1; Feds 3, Zeon 6. Order: Axis, Feds, Zeon"
    )
    assert g.state.active_side == 2
    with pytest.raises(ValueError, match="not free"):
        act(fresh(("Axis", "c", sample("trooper"))), "priority", {"places": [3, 3]}, TypedDice(dice))


def test_orders_and_ambush_belong_to_an_initial_upkeep() -> None:
    """Orders in the player's own Initial Upkeep (L1290-L1291); Ambush in either player's (L1258; A29)."""
    trooper = sample("trooper", ambush=True)
    g = new_game(
        "g",
        "Test",
        [
            ("Feds", squad("a", "Feds", ("c1", sample("captain")))),
            ("Zeon", squad("b", "Zeon", ("t1", trooper))),
        ],
    )
    g = act(g, "priority", {"places": [1]}, TypedDice([5, 2]))
    with pytest.raises(ValueError, match="orders are given in Zeon's own turn"):
        act(g, "order", {"side": 1, "order": "bring_them_down", "unit": "1/t1"}, TypedDice([]))
    # Zeon's unit waiting in reserve may arrive in the Feds' Upkeep (A29).
    arrived = act(g, "ambush", {"unit": "1/t1"}, TypedDice([5]))
    assert arrived.log[-1].text == "Trooper ambushes (5): it arrives exactly on the spot"
    ordered = act(g, "order", {"side": 0, "order": "bring_them_down", "unit": "0/c1"}, TypedDice([]))
    assert ordered.sides[0].resources["cp"] == 0
    # Once a Feds unit has acted, the Upkeep is over for orders and ambushes alike.
    g = act(g, "idle", {"unit": "0/c1"}, TypedDice([]))
    with pytest.raises(ValueError, match="before any unit of yours acts"):
        act(g, "order", {"side": 0, "order": "bring_them_down", "unit": "0/c1"}, TypedDice([]))
    with pytest.raises(ValueError, match="before the player in turn acts"):
        act(g, "ambush", {"unit": "1/t1"}, TypedDice([5]))


# --- game types (L169-L229) --------------------------------------------------------------------------


def test_objective_is_counted_as_each_turn_ends_and_the_consecutive_reading() -> None:
    """A33: the turns at the end of which a side has the most points in the zone; the first to the rolled
    number wins; with ``objective_consecutive`` a turn another side holds resets the count."""
    g = act(game(), "setup", {"mission": "objective"}, TypedDice([]))
    g = act(g, "game_length", {}, TypedDice([1]))  # D6+2 = 3 turns (L197)
    with pytest.raises(NeedChoice) as asked:
        act(g, "next_turn", {}, TypedDice([]))
    assert asked.value.many and asked.value.field == "zone"
    assert [c.label for c in asked.value.options] == [
        "Feds: Lancer",
        "Feds: Gun Tank",
        "Zeon: Trooper",
        "Zeon: Heavy Gunner",
    ]
    g = act(g, "next_turn", {"zone": ["0/l1"]}, TypedDice([]))
    g = act(g, "next_turn", {"zone": ["1/t1"]}, TypedDice([]))
    assert [s.resources["held"] for s in g.sides] == [1, 1]
    g = act(g, "next_turn", {"zone": []}, TypedDice([]))  # empty: nobody holds it
    assert [s.resources["held"] for s in g.sides] == [1, 1]
    # A tie holds nothing either (L200-L203: the highest value).
    tie = act(g, "next_turn", {"zone": ["0/l1", "1/h1"]}, TypedDice([]))
    assert tie.log[-1].text.startswith("Zeon ends the turn; Objective: Feds 170 pts, Zeon 170 pts; round 3")
    strict = g.model_copy(update={"options": {"objective_consecutive": True}})
    strict = act(strict, "next_turn", {"zone": ["1/t1"]}, TypedDice([]))
    assert [s.resources["held"] for s in strict.sides] == [0, 2]
    g = act(g, "next_turn", {"zone": ["1/t1"]}, TypedDice([]))
    g = act(g, "next_turn", {"zone": ["0/l1"]}, TypedDice([]))
    g = act(g, "next_turn", {"zone": ["1/h1"]}, TypedDice([]))
    assert (g.state.ended, g.state.winners) == (True, [1])
    assert (
        g.log[-1].text
        == "Zeon ends the turn; Objective: Zeon 170 pts; Zeon holds it (3): Zeon wins (L192-L203)"
    )


def test_territory_quarters_after_the_last_round_and_a_shared_win() -> None:
    g = act(game(), "setup", {"mission": "territory"}, TypedDice([]))
    g = act(g, "game_length", {}, TypedDice([1]))  # 5 rounds (L207)
    g = g.model_copy(update={"state": g.state.model_copy(update={"clocks": {"turn_limit": 1}})})
    g = act(g, "next_turn", {}, TypedDice([]))  # Feds end: nothing asked before the last round ends
    with pytest.raises(NeedChoice) as asked:
        act(g, "next_turn", {}, TypedDice([]))
    assert (asked.value.field, asked.value.prompt) == (
        "quarter_1",
        "All rounds are played: which units stand in quarter 1 of 4?",
    )
    with pytest.raises(NeedChoice) as asked:
        act(g, "next_turn", {"quarter_1": ["0/l1"]}, TypedDice([]))
    assert asked.value.field == "quarter_2"
    quarters = {"quarter_1": ["0/l1"], "quarter_2": ["1/t1"], "quarter_3": [], "quarter_4": ["0/l1", "1/h1"]}
    done = act(g, "next_turn", quarters, TypedDice([]))
    # Quarter 4 is a tie (170 each): one quarter each, both win.
    assert done.log[-1].text == (
        "Zeon ends the turn; round 2; Territory: quarter 1: Feds, quarter 2: Zeon, quarter 3: nobody, "
        "quarter 4: nobody; game over: Feds and Zeon win (L214-L218)"
    )
    assert (done.state.ended, done.state.winners) == (True, [0, 1])


def test_an_order_is_given_by_the_player_in_turn_by_default() -> None:
    g = fresh()
    g = act(g, "priority", {"places": [1]}, TypedDice([5, 2]))
    g = act(g, "order", {"order": "bring_them_down", "unit": "0/c1"}, TypedDice([]))
    assert g.log[-1].text.startswith("Feds orders Bring Them Down! (1 CP)")
    assert g.sides[0].resources["cp"] == 0


def test_the_round_button_is_the_turn_and_an_order_names_its_unit() -> None:
    g = fresh()
    assert not phase_view(g).round_button  # play passes by Next turn (L308), never a bare new round
    g = act(g, "priority", {"places": [1]}, TypedDice([5, 2]))
    g = act(g, "order", {"order": "bring_them_down", "unit": "0/c1"}, TypedDice([]))
    assert g.log[-1].text == "Feds orders Bring Them Down! (1 CP) for Captain"
