"""Gundam Skirmish: abilities used as actions, the Mechanic trait and Ambush, pinned at their boundaries
(lines are in 000_3e12d4cbd0c8f6da.txt).  Written against the survivors of ``tests/mutation.py`` on
``abilities.py`` and ``ambush.py`` (issue #27).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from test_gundam_effects import api_odds, edit, pilot, sample
from test_gundam_skirmish import game, squad, state

from core.dice import NeedMoreDice, TypedDice
from core.game import Game, act, new_game, odds
from core.systems.base import NeedChoice


def with_ability(key: str, **more: Any) -> Game:
    return game(a=[("l1", sample("lancer", abilities=[{"key": key, **more}])), ("g1", sample("gun_tank"))])


def use(g: Game, key: str, faces: list[int], **more: Any) -> Game:
    return act(g, "ability", {"unit": "0/l1", "ability": key, **more}, TypedDice(faces))


# --- the rolled abilities: the D6 and what a success does to the target ------------------------------------

ROLLED = [
    # (ability, need, condition on the target): Grapple Hook L2883-L2887, Heat Rod L2896-L2900,
    # Heat Wire L2902-L2906, Scatter Beam / Smoke Launcher L2987-L2993
    ("grapple_hook", 5, "no_actions"),
    ("heat_rod", 5, "no_carried"),
    ("heat_wire", 5, "no_actions"),
    ("scatter_beam", 4, "acc5"),
]


@pytest.mark.parametrize(("key", "need", "effect"), ROLLED, ids=[r[0] for r in ROLLED])
def test_a_rolled_ability_works_on_its_number_and_not_one_below(key: str, need: int, effect: str) -> None:
    g = with_ability(key)
    raw = {"unit": "0/l1", "ability": key, "target": "1/t1"}
    assert api_odds(g, "ability", raw)["facts"]["success"] == pytest.approx(float(Fraction(7 - need, 6)))
    hit = use(g, key, [need], target="1/t1")
    assert effect in state(hit, "1/t1").conditions
    assert f"{need} ({need}+): it works" in hit.log[-1].text
    assert state(hit, "0/l1").counters["actions"] == 1  # a Fast action (L402-L407)
    miss = use(g, key, [need - 1], target="1/t1")
    assert effect not in state(miss, "1/t1").conditions
    assert "no effect" in miss.log[-1].text
    with pytest.raises(ValueError, match="needs an enemy target"):
        use(g, key, [6])
    with pytest.raises(ValueError, match="needs an enemy target"):
        use(g, key, [6], target="0/g1")


def test_an_ability_the_unit_lacks_or_a_passive_one_is_refused() -> None:
    """L402-L407: only the unit's own Active abilities are actions."""
    with pytest.raises(ValueError, match="has no ability 'grapple_hook'"):
        use(game(), "grapple_hook", [6], target="1/t1")
    with pytest.raises(ValueError, match="passive"):
        use(with_ability("movable_frame"), "movable_frame", [])
    with pytest.raises(ValueError, match="rolls no dice"):
        odds(with_ability("afterburner"), "ability", {"unit": "0/l1", "ability": "afterburner"})


def test_dig_in_and_flight_mode_switch_on_and_off() -> None:
    """L2848-L2854: Dig in! is switched off by the same ability, at no cost (the only action allowed);
    Flight Mode switches both ways as a Fast action."""
    g = with_ability("dig_in")
    dug = use(g, "dig_in", [])
    assert "dig_in" in state(dug, "0/l1").conditions and state(dug, "0/l1").counters["actions"] == 1
    out = use(dug, "dig_in", [])
    assert "dig_in" not in state(out, "0/l1").conditions and state(out, "0/l1").counters["actions"] == 1
    assert out.log[-1].text.endswith("off")
    fly = use(with_ability("flight_mode"), "flight_mode", [])
    assert "flight_mode" in state(fly, "0/l1").conditions and fly.log[-1].text.endswith("on")
    assert state(fly, "0/l1").counters["actions"] == 1


def test_extra_tank_once_a_battle_afterburner_again() -> None:
    """L2866-L2868: Extra Tank once per battle; Afterburner (L2770-L2775) has no such limit."""
    tank = use(with_ability("extra_tank"), "extra_tank", [])
    assert state(tank, "0/l1").extra["once"] == ["extra_tank"]
    with pytest.raises(ValueError, match="once per battle"):
        use(tank, "extra_tank", [])
    burn = use(with_ability("afterburner", x="12"), "afterburner", [])
    again = use(burn, "afterburner", [])
    assert state(again, "0/l1").counters["actions"] == 2


# --- the Mechanic trait (L1978-L1979) --------------------------------------------------------------------


def test_mechanic_removes_one_level_once_as_a_slow_action() -> None:
    g = game(a=[("l1", sample("lancer", pilot=pilot("mechanic")))])
    hurt = edit(g, "0/l1", counters={"arm": 2})
    fixed = use(hurt, "mechanic", [])
    assert state(fixed, "0/l1").counters["arm"] == 1  # one level, not all
    assert state(fixed, "0/l1").counters["actions"] == 2  # a Slow action
    assert "mechanic" in state(fixed, "0/l1").extra["once"]
    with pytest.raises(ValueError, match="once per battle"):
        use(fixed, "mechanic", [])
    # two damaged categories: the player picks one, then only that one goes down
    two = edit(g, "0/l1", counters={"arm": 1, "head": 1})
    with pytest.raises(NeedChoice) as asked:
        use(two, "mechanic", [])
    assert [c.value for c in asked.value.options] == ["arm", "head"]
    picked = use(two, "mechanic", [], category="head")
    assert (state(picked, "0/l1").counters["head"], state(picked, "0/l1").counters["arm"]) == (0, 1)
    # a pilot without the trait
    with pytest.raises(ValueError, match="Mechanic"):
        use(edit(game(), "0/l1", counters={"arm": 1}), "mechanic", [])


# --- Ambush (L1253-L1269) ----------------------------------------------------------------------------------


def reserve(**more: Any) -> Game:
    para = sample("trooper", abilities=[{"key": "parachute_pack"}], ambush=True, **more)
    return game(b=[("t1", para)])


@pytest.mark.parametrize(
    ("weather", "face", "text"),
    [
        ("", 1, "Trooper's ambush fails (1): try again in a later Upkeep"),
        ("", 2, 'Trooper ambushes (2): the opponent places it within 12" of the spot'),
        ("", 3, 'Trooper ambushes (3): the opponent places it within 12" of the spot'),
        ("", 4, "Trooper ambushes (4): it arrives exactly on the spot"),
        # L3310-L3311: in Dense Minovsky Particles 1-3 fail, 4-5 within 12", 6 exact
        ("dense_minovsky", 1, "Trooper's ambush fails (1): try again in a later Upkeep"),
        ("dense_minovsky", 2, "Trooper's ambush fails (2): try again in a later Upkeep"),
        ("dense_minovsky", 3, "Trooper's ambush fails (3): try again in a later Upkeep"),
        ("dense_minovsky", 4, 'Trooper ambushes (4): the opponent places it within 12" of the spot'),
        ("dense_minovsky", 5, 'Trooper ambushes (5): the opponent places it within 12" of the spot'),
        ("dense_minovsky", 6, "Trooper ambushes (6): it arrives exactly on the spot"),
    ],
)
def test_ambush_faces_at_their_edges(weather: str, face: int, text: str) -> None:
    """L1258-L1264: 1 fails, 2-3 the opponent places it within 12", 4+ exactly where chosen.  (In Dense
    Minovsky Particles the log shows the face as the normal table reads it.)"""
    g = reserve()
    if weather:
        g = act(g, "setup", {"environment": weather}, TypedDice([]))
    after = act(g, "ambush", {"unit": "1/t1"}, TypedDice([face]))
    assert ("reserve" not in state(after, "1/t1").conditions) is ("fails" not in text)
    assert after.log[-1].text == text


def test_the_app_asks_for_one_d6() -> None:
    """The player is asked for exactly the die the rule rolls: one D6 (L1258, L2883-L2887)."""
    with pytest.raises(NeedMoreDice, match=r"^roll 1 more d6 for Ambush$"):
        act(reserve(), "ambush", {"unit": "1/t1"}, TypedDice([]))
    with pytest.raises(NeedMoreDice, match=r"^roll 1 more d6 for Grapple Hook$"):
        use(with_ability("grapple_hook"), "grapple_hook", [], target="1/t1")


def test_no_ambush_before_the_first_turn() -> None:
    """L1258: an Ambush is rolled in a player's Initial Upkeep: none before the priority roll."""
    para = sample("trooper", abilities=[{"key": "parachute_pack"}], ambush=True)
    g = new_game(
        "g",
        "Test",
        [("Feds", squad("a", "Feds", ("l1", sample("lancer")))), ("Zeon", squad("b", "Zeon", ("t1", para)))],
    )
    with pytest.raises(ValueError, match="roll for priority first"):
        act(g, "ambush", {"unit": "1/t1"}, TypedDice([4]))


@pytest.mark.parametrize(("weather", "arrives", "exact"), [("", 5, 3), ("dense_minovsky", 3, 1)])
def test_ambush_odds(weather: str, arrives: int, exact: int) -> None:
    g = reserve()
    if weather:
        g = act(g, "setup", {"environment": weather}, TypedDice([]))
    o = api_odds(g, "ambush", {"unit": "1/t1"})
    assert o["facts"]["arrives"] == pytest.approx(arrives / 6)
    rows = next(iter(o["tables"].values()))["rows"]
    assert {r["value"]: Fraction(r["exactly"]) for r in rows}[2] == Fraction(exact, 6)


def test_ambusher_and_hydrojets_arrive_without_a_roll() -> None:
    """L1960 (Ambusher), L2914-L2917 (Hydrojets): no roll, always exact."""
    for g in (
        reserve(pilot=pilot("ambusher")),
        game(b=[("t1", sample("trooper", abilities=[{"key": "hydrojets"}], ambush=True))]),
    ):
        after = act(g, "ambush", {"unit": "1/t1"}, TypedDice([]))
        assert "reserve" not in state(after, "1/t1").conditions
        assert "no roll" in after.log[-1].text


def test_ambush_is_refused_out_of_reserve_after_the_upkeep_and_in_space() -> None:
    g = reserve()
    with pytest.raises(ValueError, match="not waiting"):
        act(g, "ambush", {"unit": "0/l1"}, TypedDice([4]))
    acted = act(g, "idle", {"unit": "0/l1"}, TypedDice([]))
    with pytest.raises(ValueError, match="Initial Upkeep"):
        act(acted, "ambush", {"unit": "1/t1"}, TypedDice([4]))
    with pytest.raises(ValueError, match="no Ambush in space"):
        space = act(reserve(), "next_turn", {}, TypedDice([])).model_copy(deep=True)
        space.state.extra["space"] = True  # no <S> unit here: the Gun Tank would be refused (L1372)
        act(space, "ambush", {"unit": "1/t1"}, TypedDice([4]))


def test_an_ability_played_on_the_table_says_what_the_players_do() -> None:
    """L2766-L3030: an Active ability the app cannot resolve (it depends on positions) is spent as a
    Fast action and tells the players what to do by hand."""
    g = with_ability("troop_carrier", x="Trooper")
    after = use(g, "troop_carrier", [])
    assert after.log[-1].text.startswith("Lancer uses Troop Carrier: it depends on distances or positions")
    assert state(after, "0/l1").counters["actions"] == 1


# --- what the sheet offers (picks.py, L415-L451) ------------------------------------------------------------


def _offered(g: Game, action: str, actor: str) -> list[tuple[str, str]]:
    from core.game import picks

    return [(p.label, p.unavailable) for p in picks(g, action, actor)["weapon"]]


def test_the_weapons_offered_equipped_first_and_greyed_by_heat_rod() -> None:
    """L426-L444: the equipped carried weapon first, then the mounted ones, whatever the sheet's order;
    a Heat Rod's success greys every carried weapon for the turn (L2896-L2900)."""
    lancer = sample("lancer")
    lancer["weapons"] = list(reversed(lancer["weapons"]))  # the head guns listed first
    g = game(a=[("l1", lancer), ("g1", sample("gun_tank"))])
    assert [w for w, _ in _offered(g, "shoot", "0/l1")] == ["Beam rifle", "Head guns"]
    rod = edit(g, "0/l1", conditions=["no_carried"])
    assert _offered(rod, "shoot", "0/l1") == [
        ("Beam rifle", "no carried weapon can be used this turn (Heat Rod)"),
        ("Head guns", ""),
    ]
    # only weapons with a reload tag are offered for a Reload (L415-L422): the Lancer has none
    assert _offered(g, "reload", "0/l1") == []
