"""Mobile Suit Gundam: Skirmish rules of issue #20, through the real game layer and core.api.

Line numbers are in /work/shared/seeds/000_3e12d4cbd0c8f6da.txt.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest
from test_gundam_skirmish import as_dict, brute, game, sample, squad, state, strike

from core import api
from core.dice import TypedDice
from core.game import Game, act, adjust, new_game, odds
from core.systems.base import Change, NeedChoice
from core.systems.gundam_skirmish import SYSTEM
from core.systems.gundam_skirmish.close_combat import Striker, roll_strike, strike_dist
from core.systems.gundam_skirmish.units import Ability


def call(op: str, g: Game, action: str, raw: dict[str, Any], **more: Any) -> dict[str, Any]:
    return api.call(op, {"game": g.model_dump(mode="json"), "action": action, "input": raw, **more})


def with_conditions(g: Game, ref: str, *conditions: str) -> Game:
    s, u, _ = g.unit(ref)
    return adjust(g, [Change(path=["sides", s, "units", u, "state", "conditions"], value=list(conditions))])


# --- Massed Fire and Heat Radiation need the ability (L2937-L2941, L2889-L2894) -----------------------


def test_massed_fire_and_heat_radiation_are_refused_for_a_unit_without_them() -> None:
    """The issue's case: a unit with no abilities sent massed_fire 2 raised the mean damage and rolled the
    extra dice. Now the sheet's gates name the reason and both odds and act refuse it in those words."""
    g = game()
    shot = {"attacker": "0/l1", "target": "1/t1"}
    gates = call("game.gates", g, "shoot", shot)["result"]
    assert gates["fields"] == {
        "massed_fire": "Lancer has no Massed Fire",
        "heat_radiation": "Lancer has no Heat Radiation",
        # the traits' and abilities' free Shoot and Merciful (L1964-L1994) are gated the same way
        "free": "Lancer has no free Shoot: only Fierce, Responsive, Blitzkrieg or Fire Support give one",
        "merciful": "Lancer's pilot is not Merciful",
        # a Volley needs a <V> weapon (L1606): the Lancer carries none
        "volley": "Lancer has no weapon that can fire a Volley (<V>)",
    }
    for field, why in gates["fields"].items():
        for op in ("game.odds", "game.act"):
            reply = call(op, g, "shoot", {**shot, field: 1}, **({"seed": 3} if op == "game.act" else {}))
            assert reply["ok"] is False and reply["error"]["message"] == why


def test_massed_fire_adds_dice_with_its_x_weapon_only() -> None:
    """L2937-L2941: with the X WEAPON, one Shot die per same-named unit within 6", two at most."""
    trooper = sample("trooper", abilities=[Ability(key="massed_fire", x="Machine gun")])
    g = game(b=[("t1", trooper), ("t2", trooper)])
    g = act(g, "next_turn", {}, TypedDice([]))  # the Zeon turn
    shot = {"attacker": "1/t1", "target": "0/l1", "weapon": "Machine gun"}
    assert call("game.gates", g, "shoot", shot)["result"]["fields"] == {
        "heat_radiation": "Trooper 1 has no Heat Radiation",
        "free": "Trooper 1 has no free Shoot: only Fierce, Responsive, Blitzkrieg or Fire Support give one",
        "merciful": "Trooper 1's pilot is not Merciful",
        "volley": "Trooper 1 has no weapon that can fire a Volley (<V>)",
    }
    plain = odds(g, "shoot", shot).tables["damage"].p_mean
    massed = odds(g, "shoot", {**shot, "massed_fire": 2}).tables["damage"].p_mean
    assert massed > plain
    g2 = act(g, "switch_weapon", {"unit": "1/t1", "weapon": "Bazooka"}, TypedDice([]))
    reply = call("game.odds", g2, "shoot", {**shot, "weapon": "Bazooka", "massed_fire": 1})
    assert reply["error"]["message"] == "Trooper 1's Massed Fire is for its Machine gun"


# --- the Routed roll when a Routed unit is selected to act (L1554-L1558) --------------------------------


def test_a_routed_unit_rolls_when_selected_and_runs_on_three_or_less() -> None:
    g = with_conditions(game(), "0/l1", "routed")
    move = {"unit": "0/l1", "distance": 2}
    ran = act(g, "move", move, TypedDice([3]))
    assert ran.log[-1].text == (
        "Lancer is Routed and rolls 3: it runs toward its deployment zone at its full Movement and "
        "does nothing more this turn (L1554-L1558)"
    )
    assert state(ran, "0/l1").activated and state(ran, "0/l1").counters["actions"] == 2
    held = act(g, "move", move, TypedDice([4]))
    assert "moves" in held.log[-1].text.lower() and state(held, "0/l1").counters["actions"] == 1
    again = act(held, "move", move, TypedDice([]))  # its second action: no second roll
    assert state(again, "0/l1").counters["actions"] == 2
    # The Routed roll as an action of its own (then the unit acts as normal), once a turn.
    rolled = act(g, "rout", {"unit": "0/l1"}, TypedDice([6]))
    assert rolled.log[-1].text == "Lancer is Routed but holds: it acts as normal"
    assert state(act(rolled, "move", move, TypedDice([])), "0/l1").counters["actions"] == 1
    with pytest.raises(ValueError, match="has made its Routed roll this turn"):
        act(rolled, "rout", {"unit": "0/l1"}, TypedDice([6]))


def test_the_routed_roll_is_offered_only_to_a_routed_unit() -> None:
    g = game()
    views = api.call("game.views", {"game": g.model_dump(mode="json")})["result"]
    assert views["gated"]["0/l1"]["rout"] == "Lancer is not Routed"
    reply = call("game.act", g, "rout", {"unit": "0/l1"}, seed=1)
    assert reply["error"]["message"] == "Lancer is not Routed"
    routed = with_conditions(g, "0/l1", "routed")
    views = api.call("game.views", {"game": routed.model_dump(mode="json")})["result"]
    assert "rout" not in views["gated"].get("0/l1", {})


def test_a_routed_units_first_shot_goes_through_half_the_time_in_the_odds() -> None:
    g = game()
    shot = {"attacker": "0/l1", "target": "1/t1"}
    steady = odds(g, "shoot", shot)
    routed = odds(with_conditions(g, "0/l1", "routed"), "shoot", shot)
    assert routed.facts["destroyed"] == pytest.approx(steady.facts["destroyed"] / 2)
    assert "Routed: a D6 first" in routed.summary


# --- Beam Flayer as the text reads (L2804-L2805) ------------------------------------------------------


def flayer(chain: bool) -> Striker:
    return strike(dice=1, acc=4, crit=6, dam=1, flayer=True, flayer_chain=chain, armour=1)


def test_a_six_on_an_added_die_earns_the_second_when_the_text_is_read_as_written() -> None:
    """One attack die shows 6: one added die; it shows 6 too, and as part of the Attack Pool it is a Hit of
    6 that earns a second added die (2 at most). Under the old reading the chain stops at the first."""
    damage, _, detail = roll_strike(flayer(True), TypedDice([6, 6, 5]), "x")
    assert (damage, detail["flayer"]) == (3, [6, 5])
    damage, _, detail = roll_strike(flayer(False), TypedDice([6, 6]), "x")
    assert (damage, detail["flayer"]) == (2, [6])


@pytest.mark.parametrize("chain", [True, False])
def test_beam_flayer_odds_equal_brute_force(chain: bool) -> None:
    def run(d: TypedDice) -> Hashable:
        damage, crits, _ = roll_strike(flayer(chain), d, "x")
        return damage, crits

    assert brute(run) == as_dict(strike_dist(flayer(chain)))


def test_the_chain_reading_is_the_default_and_the_old_one_a_named_reading() -> None:
    readings = SYSTEM.options.model_json_schema()["properties"]  # type: ignore[union-attr]
    assert readings["beam_flayer_chain"]["default"] is True
    assert "L2804-L2805" in readings["beam_flayer_chain"]["description"]
    # dice 1 on 4+: chain adds P(6)*P(6)*E[one more die] to the mean hits
    chain = strike_dist(flayer(True))
    plain = strike_dist(flayer(False))
    mean = lambda d: sum(k[0] * p for k, p in d.probabilities())  # noqa: E731
    assert mean(chain) - mean(plain) == Fraction(1, 6) * Fraction(1, 6) * Fraction(1, 2)


# --- Volley: does the target see the shooter? (L1606-L1619, L1615) ----------------------------------------


def test_volley_target_sight_is_the_players_answer_or_a_named_reading() -> None:
    a = [("g1", sample("gun_tank"))]
    a[0][1]["weapons"][0]["tags"] = ["V"]
    g = game(a=a)
    base = {"attacker": "0/g1", "target": "1/t1"}
    seen = odds(g, "shoot", base)
    unseen = odds(g, "shoot", {**base, "target_sees_shooter": False})
    assert seen.facts["destroyed"] != pytest.approx(unseen.facts["destroyed"])
    # default reading 'ask': the Volley keeps the players' answer, then goes through half the time
    volley = odds(g, "shoot", {**base, "volley": True})
    assert volley.facts["destroyed"] == pytest.approx(seen.facts["destroyed"] / 2)
    volley_unseen = odds(g, "shoot", {**base, "volley": True, "target_sees_shooter": False})
    assert volley_unseen.facts["destroyed"] == pytest.approx(unseen.facts["destroyed"] / 2)
    # the named reading 'never': the target of a Volley never sees the shooter (the app's old reading)
    never = g.model_copy(deep=True)
    never.options["volley_target_sees"] = "never"
    assert odds(never, "shoot", {**base, "volley": True}).facts["destroyed"] == pytest.approx(
        unseen.facts["destroyed"] / 2
    )


def test_a_volley_is_offered_only_to_a_unit_with_a_v_weapon_and_not_in_space() -> None:
    """L1606: a Volley needs a <V> weapon; L1401: none in space. The sheet offers the Volley box to such a
    unit only (greyed with the reason otherwise), and the engine refuses it in the same words."""
    a = [("g1", sample("gun_tank")), ("l1", sample("lancer"))]
    a[0][1]["weapons"][0]["tags"] = ["V"]
    g = game(a=a)
    with_v = {"attacker": "0/g1", "target": "1/t1"}
    assert "volley" not in call("game.gates", g, "shoot", with_v)["result"]["fields"]
    assert call("game.odds", g, "shoot", {**with_v, "volley": True})["ok"] is True
    without = {"attacker": "0/l1", "target": "1/t1"}
    why = call("game.gates", g, "shoot", without)["result"]["fields"]["volley"]
    assert why == "Lancer has no weapon that can fire a Volley (<V>)"
    reply = call("game.act", g, "shoot", {**without, "volley": True}, seed=1)
    assert reply["ok"] is False and reply["error"]["message"] == why
    space = g.model_copy(deep=True)
    space.state.extra["space"] = True
    assert (
        call("game.gates", space, "shoot", with_v)["result"]["fields"]["volley"]
        == "No Volley can be made in space"
    )


# --- the range question (L611-L613) -------------------------------------------------------------------


def test_the_range_question_says_beyond_goes_to_double_the_top_and_no_farther() -> None:
    field = SYSTEM.actions["shoot"].input.model_json_schema()["properties"]["range"]
    assert field["x-labels"] == {
        "in_band": "In range",
        "beyond": "Beyond, to 2x top",
        "closer": "Closer than range",
    }
    assert "never farther (L611-L613)" in field["description"]


# --- team play with more than two players (L113-L118) -------------------------------------------------


def team_game() -> Game:
    """Four players in two teams: Feds 1 and Feds 2 (team 1), Zeon 1 and Zeon 2 (team 2)."""
    sides = [
        ("Feds 1", squad("a", "A", ("l1", sample("lancer")))),
        ("Zeon 1", squad("b", "B", ("t1", sample("trooper")))),
        ("Feds 2", squad("c", "C", ("g1", sample("gun_tank")))),
        ("Zeon 2", squad("d", "D", ("h1", sample("heavy_gunner")))),
    ]
    g = new_game("g", "Teams", sides)
    return act(g, "setup", {"teams": [1, 2, 1, 2]}, TypedDice([]))


def test_teams_roll_one_die_each_and_alternate_each_choosing_its_next_player() -> None:
    """L114-L118: a die per team; the team with priority picks who goes first; then the other team picks one
    of its players; and so on until everyone has had a turn; the next round begins with the same team."""
    g = team_game()
    assert g.log[-1].text == "Deathmatch; teams: 1: Feds 1, Feds 2; 2: Zeon 1, Zeon 2"
    with pytest.raises(NeedChoice) as asked:
        act(g, "priority", {}, TypedDice([2, 5]))
    assert asked.value.field == "first"
    assert [(c.value, c.label) for c in asked.value.options] == [(1, "Zeon 1"), (3, "Zeon 2")]
    g = act(g, "priority", {"first": 3}, TypedDice([2, 5]))
    assert g.log[-1].text.startswith("Priority: team 1 2, team 2 5. Teams: 2, 1; Zeon 2's turn")
    assert g.state.active_side == 3
    with pytest.raises(NeedChoice) as asked:
        act(g, "next_turn", {}, TypedDice([]))
    assert [c.value for c in asked.value.options] == [0, 2]  # team 1 chooses
    g = act(g, "next_turn", {"next_side": 2}, TypedDice([]))
    assert g.state.active_side == 2
    g = act(g, "next_turn", {}, TypedDice([]))  # team 2 has only Zeon 1 left
    assert g.state.active_side == 1
    g = act(g, "next_turn", {}, TypedDice([]))  # team 1: Feds 1
    assert (g.state.active_side, g.round) == (0, 1)
    with pytest.raises(NeedChoice) as asked:  # everyone has played: round 2, team 2 picks first
        act(g, "next_turn", {}, TypedDice([]))
    assert [c.value for c in asked.value.options] == [1, 3]
    g = act(g, "next_turn", {"next_side": 1}, TypedDice([]))
    assert (g.state.active_side, g.round) == (1, 2)


def test_a_team_setting_the_table_cannot_play_is_refused() -> None:
    g = new_game(
        "g",
        "T",
        [("A", squad("a", "A", ("l1", sample("lancer")))), ("B", squad("b", "B", ("t1", sample("trooper"))))],
    )
    reply = call("game.act", g, "setup", {"teams": [1, 2]}, seed=1)
    assert reply["error"]["message"] == "every team has one player: that is the ordinary game, with no teams"
    reply = call("game.act", g, "setup", {"teams": [1]}, seed=1)
    assert reply["error"]["message"] == "name a team for each of the 2 players"
