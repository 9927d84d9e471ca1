"""GUNFRAME, checked against the rulebook's own examples (line numbers are in 001_c60598db3e91d492.txt)."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from typing import Any

import gunframe_table as table
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import api
from core.dice import TypedDice
from core.game import Game, GameUnit, Side, adjust, record, redo, undo
from core.game import odds as game_odds
from core.systems import implementation
from core.systems.base import Change
from core.systems.gunframe import SYSTEM, AttackInput, GunframeUnit, build_cost, game_size, resolve
from core.systems.gunframe.attack import attack_odds, outcome_dist, plan
from core.systems.gunframe.building import pack, unpack
from core.systems.gunframe.catalogue import FRAMES
from core.systems.gunframe.examples import PRINTED_POINTS
from core.systems.gunframe.power_attacks import POWER_ATTACKS
from core.systems.gunframe.upgrades import UPGRADES

CATALOGUE = {u.id: u for u in SYSTEM.catalogue()}


def unit(uid: str, **changes: Any) -> GunframeUnit:
    return GunframeUnit.model_validate({**CATALOGUE[uid].profile, **changes})


def make(**fields: Any) -> GunframeUnit:
    base: dict[str, Any] = {"name": "Test", "frame": "medium", "speed": 5, "defense": 3, "armour": 8}
    base.update({"close": 3, "short": 3, "medium": 3, "long": 3})
    return GunframeUnit.model_validate({**base, **fields})


def rules(profile: GunframeUnit) -> set[str]:
    return {v.rule for v in SYSTEM.unit_violations(profile)}


def game(attacker: GunframeUnit, target: GunframeUnit, **state: Any) -> Game:
    """Side 0 holds the attacker as '0/a', side 1 the target as '1/t'; ``state`` sets the target's state."""
    a_state = SYSTEM.initial_state(attacker)
    t_state = SYSTEM.initial_state(target).model_copy(update=state)
    return Game(
        id="g",
        system="gunframe",
        sides=[
            Side(
                name="A",
                units=[GameUnit(key="a", name=attacker.name, profile=attacker.model_dump(), state=a_state)],
            ),
            Side(
                name="B",
                units=[GameUnit(key="t", name=target.name, profile=target.model_dump(), state=t_state)],
            ),
        ],
    )


def attack(g: Game, weapon: str, faces: list[int], **mods: Any) -> dict[str, Any]:
    inp = AttackInput(attacker="0/a", target="1/t", weapon=weapon, **mods)  # type: ignore[arg-type]
    dice = TypedDice(faces)
    result = resolve(g, inp, dice)
    assert dice.left == 0, "every typed face is used"
    return {"text": result.text, "changes": result.changes, **result.detail}


# --- the system plugs in --------------------------------------------------------------


def test_registered_system() -> None:
    assert implementation("gunframe") is SYSTEM
    assert SYSTEM.info.id == "gunframe"
    assert SYSTEM.options is not None and SYSTEM.options().powerful_needs_six is False


def test_catalogue_counts() -> None:
    """Five frames and three conventional ones (L2137-2142, L2687-2692); 31 pilot upgrades + Well Read,
    29 frame, 15 loadout (L2296-2466); 8 basic + 5 special power attacks (L1208-1222); 58 example units."""
    assert len(FRAMES) == 8
    cats = Counter(u.category for u in UPGRADES.values())
    assert cats == {"pilot": 32, "frame": 29, "loadout": 15}
    assert Counter(p.kind for p in POWER_ATTACKS.values()) == {"basic": 8, "special": 5}
    assert len(CATALOGUE) == 58
    assert UPGRADES["extreme_range"].slots == ("long",) and UPGRADES["extreme_range"].restricted
    assert UPGRADES["ace"].unique and UPGRADES["ace"].stackable
    assert UPGRADES["lovers"].linked and UPGRADES["reinforced"].optional


# --- costs ---------------------------------------------------------------------------------

RULE_BREAKERS = {"alpha_guardian": 27, "terror_bot": 25, "criminal_mastermind": 14, "military_droid": 16}


@pytest.mark.parametrize("uid", sorted(CATALOGUE))
def test_example_unit_cost(uid: str) -> None:
    """Every printed example unit costs what the book prints, except four the notes explain (L3075-3193)."""
    profile = unit(uid)
    cost = build_cost(profile)
    if uid in RULE_BREAKERS:
        assert cost == RULE_BREAKERS[uid] != PRINTED_POINTS[uid]
        assert str(cost) in CATALOGUE[uid].note
    else:
        assert cost == PRINTED_POINTS[uid]
    assert unpack(SYSTEM.pack_profile(profile)) == profile


def test_eagle_vf_transform_cost() -> None:
    """Fighter form 13, mecha form 14, unit 15 (L2254-2256)."""
    eagle = unit("eagle_vf")
    fighter = eagle.model_copy(update={"forms": []})
    mecha_form = eagle.forms[0]
    mecha = eagle.model_copy(update={"forms": [], "upgrades": mecha_form.upgrades})
    assert build_cost(fighter) == 13
    assert build_cost(mecha) == 14
    assert build_cost(eagle) == 15
    assert rules(eagle) == set()


def test_pilot_and_stackable_costs() -> None:
    """3+ costs 1 (L2172); Leader (3) costs 3 (L2290); dropping to 4+ refunds 1 (L3043)."""
    assert build_cost(make()) == 12
    assert build_cost(make(skill=3)) == 13
    assert build_cost(make(upgrades=[{"id": "leader", "n": 3}])) == 15
    assert build_cost(unit("goro", skill=4)) == 15


def test_conventional_free_upgrade() -> None:
    """A tank gets one of its four upgrades free, and it still fills the slot (L2618, L2685)."""
    assert build_cost(unit("wombat")) == 5
    assert build_cost(unit("power_trooper")) == 6
    flyer = make(frame="flyer", speed=6, defense=2, armour=2, close=0, short=3, medium=0, long=0)
    two = GunframeUnit.model_validate(
        {**flyer.model_dump(), "upgrades": [{"id": "fly"}, {"id": "fast_flyer"}]}
    )
    assert build_cost(two) == 5
    assert "slot-limit" in rules(two)


# --- construction rules --------------------------------------------------------------------


def test_customise_limits() -> None:
    """One point Speed<->Defense, up to two Armour<->Loadout (L2133), loadout shared out exactly (L2148)."""
    assert rules(make(speed=4, defense=4)) == set()
    assert rules(make(speed=6, defense=2)) == set()
    assert "speed-defense" in rules(make(speed=3, defense=5))
    assert "speed-defense" in rules(make(speed=6, defense=3))
    assert rules(make(armour=10, close=1)) == set()
    assert rules(make(armour=6, close=5)) == set()
    assert "armour-loadout" in rules(make(armour=11, close=1, short=2))
    assert "loadout-total" in rules(make(close=4))


def test_weapon_range() -> None:
    """Each system holds 0-6 points (L2150); Lewis's medium frame splits 12 as 6/2/2/2 (L2152-2154)."""
    assert rules(make(close=2, short=2, medium=2, long=6)) == set()
    assert "weapon-range" in rules(make(close=0, short=0, medium=5, long=7))


def test_conventional_customise() -> None:
    """One point between any two values (L2673): heavy infantry and a light tank (L2675)."""
    infantry = {"frame": "infantry", "speed": 4, "defense": 2, "armour": 1, "close": 1, "short": 1}
    assert rules(make(**{**infantry, "medium": 0, "long": 0})) == set()
    heavy = make(**{**infantry, "speed": 3, "close": 2, "medium": 0, "long": 0})
    assert rules(heavy) == set()
    light_tank = make(frame="tank", speed=6, defense=2, armour=2, close=0, short=3, medium=0, long=0)
    assert rules(light_tank) == set()
    assert "conventional-customise" in rules(light_tank.model_copy(update={"defense": 3}))


def test_upgrade_slots() -> None:
    """One frame upgrade per value, one loadout upgrade per system, restricted ones (L2210-2216, L2272)."""
    assert "slot-limit" in rules(make(upgrades=[{"id": "deflect"}, {"id": "cloaking"}]))
    assert rules(make(upgrades=[{"id": "heavy"}, {"id": "stabilised"}])) == set()  # Heavy moves to Speed
    assert "slot-limit" in rules(
        make(upgrades=[{"id": "blast", "slot": "long"}, {"id": "burn", "slot": "long"}])
    )
    assert "upgrade-slot" in rules(make(upgrades=[{"id": "extreme_range", "slot": "short"}]))
    assert "upgrade-slot" in rules(make(upgrades=[{"id": "blast"}]))  # which system?
    assert "upgrade-slot" in rules(make(upgrades=[{"id": "fly", "slot": "defense"}]))
    assert (
        rules(make(upgrades=[{"id": "piercing", "slot": "medium"}, {"id": "piercing", "slot": "long"}]))
        == set()
    )
    assert "unknown-upgrade" in rules(make(upgrades=[{"id": "laser_sword"}]))
    assert "not-stackable" in rules(make(upgrades=[{"id": "hero", "n": 2}]))
    assert "repeat-upgrade" in rules(make(upgrades=[{"id": "hero"}, {"id": "hero"}]))


def test_conventional_pilot_upgrades() -> None:
    """Conventional units take no pilot upgrades (L2683)."""
    cops = unit("cops", upgrades=[{"id": "hero"}])
    assert "conventional-pilot" in rules(cops)


def test_book_slot_breaches_are_flagged() -> None:
    """Bison form 1 has two Defense upgrades (L3081); Jordan + Rhino four frame upgrades (L3143)."""
    assert "slot-limit" in rules(unit("bison"))
    assert "slot-limit" in rules(unit("rhino"))


def test_squad_rules() -> None:
    """Points limit (L1494), unique (L2284), linked pairs (L2278-2280)."""
    sasha, michiko, izumi, goro = unit("sasha"), unit("michiko"), unit("izumi"), unit("goro")
    ok = [("s", sasha), ("m", michiko), ("i", izumi), ("g", goro)]
    assert SYSTEM.squad_violations(ok, 100) == []
    assert {v.rule for v in SYSTEM.squad_violations(ok, 50)} == {"points-limit"}
    assert {v.rule for v in SYSTEM.squad_violations(ok[:3], None)} == {"linked"}
    three = [*ok, ("r", unit("rogue_robot", upgrades=[{"id": "rivals"}]))]
    assert {v.rule for v in SYSTEM.squad_violations(three, None)} == {"linked"}
    two_tacticians = [("s", sasha), ("c", unit("criminal_mastermind"))]
    found = SYSTEM.squad_violations(two_tacticians, None)
    assert any(v.rule == "unique" and "Tactician" in v.message for v in found)
    partner = [("s", sasha.model_copy(update={"partner": "Michiko"})), ("m", michiko)]
    assert SYSTEM.squad_violations(partner, None) == []
    wrong = [("s", sasha.model_copy(update={"partner": "Izumi"})), ("m", michiko), ("i", izumi), ("g", goro)]
    assert {v.rule for v in SYSTEM.squad_violations(wrong, None)} == {"linked-partner"}


def test_combined_form() -> None:
    """The Centurions' combined form is not paid for (L2531) but is capped (L2527)."""
    team = [(uid, unit(uid)) for uid in ("eagle", "gorilla", "wolf", "tiger", "rhino", "alpha_guardian")]
    assert SYSTEM.unit_cost(unit("alpha_guardian")) == 0
    assert sum(SYSTEM.unit_cost(p) for _, p in team) == 20 + 21 + 19 + 19 + 21
    assert "combiner-cap" in {v.rule for v in SYSTEM.squad_violations(team, None)}
    assert rules(unit("alpha_guardian")) == set()  # two upgrades per system are allowed (L2512)


def test_game_sizes() -> None:
    """Skirmish 50-75, Clash 100, Battle 200 (L1482-1490)."""
    assert [game_size(p) for p in (50, 75, 100, 200, 150)] == [
        "Skirmish",
        "Skirmish",
        "Clash",
        "Battle",
        None,
    ]


def test_profile_accepts_rule_breaches_but_not_garbage() -> None:
    make(speed=20, close=9, upgrades=[{"id": "whatever"}])
    with pytest.raises(ValueError, match=r"frame\n  Input should be 'scout'"):
        make(frame="colossal")
    with pytest.raises(ValueError, match=r"skill\n  Input should be 3 or 4"):
        make(skill=5)
    with pytest.raises(ValueError, match=r"colour\n  Extra inputs are not permitted"):
        make(colour="red")
    schema = GunframeUnit.model_json_schema()
    assert "description" in schema["properties"]["armour"]


# --- packing --------------------------------------------------------------------------------


def test_pack_round_trip_and_size() -> None:
    """Every example unit round-trips; a five-unit squad packs into a short JSON text."""
    for uid in CATALOGUE:
        profile = unit(uid)
        packed = SYSTEM.pack_profile(profile)
        assert SYSTEM.unpack_profile(json.loads(json.dumps(packed))) == profile
    squad = [
        SYSTEM.pack_profile(unit(uid)) for uid in ("the_centurion", "carrus", "eagle_vf", "owl_bear", "cops")
    ]
    assert len(json.dumps(squad, separators=(",", ":"))) < 400


FORM = "a form is \\[speed, defense"


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (None, "a list of 4 to 10 items"),
        ([], "a list of 4 to 10 items"),
        ("x", "a list of 4 to 10 items"),
        (["A", 99, 8, [5, 3, [3, 3, 3, 3], []]], "no frame number 99"),
        (["A", 2, 8, [5, 3, [3, 3], []]], FORM),
        (["A", 2, 8, [5, 3, [3, 3, 3, 3], [9999]]], "no upgrade number"),
        (["A", 2, 8, [5, 3, [3, 3, 3, 3], []], "p", 5], r"skill\n  Input should be 3 or 4"),
        (["A", 2, "8", [5, 3, [3, 3, 3, 3], []]], r"armour\n  Input should be a valid integer"),
        (["A", 2, 8, [5, 3, [3, 3, 3, 3], [[1, 99, 1]]]], "bad slot in"),
        (["A", True, 8, [5, 3, [3, 3, 3, 3], []]], "no frame number True"),
        (["A", 2, 8, [5, 3, [3, 3, 3, 3], []], "", 4, "", [1]], FORM),
    ],
)
def test_unpack_rejects(bad: Any, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        unpack(bad)


@settings(max_examples=60, deadline=None)
@given(
    st.builds(
        dict,
        name=st.text(min_size=1, max_size=12),
        frame=st.sampled_from(sorted(FRAMES)),
        speed=st.integers(0, 20),
        defense=st.integers(0, 20),
        armour=st.integers(1, 40),
        close=st.integers(0, 20),
        long=st.integers(0, 20),
        skill=st.sampled_from([3, 4]),
        pilot=st.text(max_size=8),
        upgrades=st.lists(
            st.builds(
                dict,
                id=st.sampled_from([*sorted(UPGRADES), "homebrew"]),
                slot=st.sampled_from([None, "speed", "close", "long"]),
                n=st.integers(1, 3),
            ),
            max_size=4,
        ),
        combined_members=st.integers(0, 3),
    )
)
def test_pack_round_trip_any_profile(fields: dict[str, Any]) -> None:
    profile = GunframeUnit.model_validate(fields)
    assert unpack(json.loads(json.dumps(pack(profile)))) == profile


# --- game state -----------------------------------------------------------------------------


def test_initial_state() -> None:
    state = SYSTEM.initial_state(unit("carrus"))
    assert state.max_damage == 10 and state.damage == 0
    assert state.counters == {"target_lock": 0, "evade": 0}
    assert SYSTEM.initial_state(unit("orca")).conditions == ["flying"]
    tracked = {t.key: t for t in SYSTEM.tracked}
    assert tracked["target_lock"].max == 1 and tracked["evade"].max == 1  # L1367, L1394
    assert {"knocked_down", "shut_down", "distracted", "engaged", "flying", "crippled"} <= set(tracked)
    assert {r.key for r in SYSTEM.resources} == {"focus_points", "victory_points", "initiative"}


# --- the attack -----------------------------------------------------------------------------

DUMMY = make(name="Dummy", defense=1, armour=10, close=3, short=3, medium=3, long=3)


def test_firefly_example() -> None:
    """Firefly: Medium 5 gives 5D6 (L1066-1070); 4, 4 and 6 make 3 hits and 1 power point (L1102)."""
    g = game(unit("firefly"), DUMMY)
    out = attack(g, "medium", [4, 4, 6, 1, 2, 3])
    assert out["attack_pool"]["dice"] == 5
    assert (out["hits"], out["sixes"], out["damage"], out["power_points"]) == (3, 1, 3, 1)
    assert out["text"] == "Firefly hits Dummy with Medium: 3 damage, 1 power point"


def test_jackhammer_and_owl_bear_defense_pools() -> None:
    """Jackhammer defends with 4D6 (L1123); Owl Bear may use Close 6 against close attacks (L1148)."""
    assert plan(
        game(DUMMY, unit("jackhammer")), AttackInput(attacker="0/a", target="1/t", weapon="short")
    ).defense
    p = plan(game(DUMMY, unit("jackhammer")), AttackInput(attacker="0/a", target="1/t", weapon="short"))
    assert p.defense is not None and p.defense.dice == 4
    inp = AttackInput(attacker="0/a", target="1/t", weapon="close", defend_with_close=True)
    p = plan(game(DUMMY, unit("owl_bear")), inp)
    assert p.defense is not None and p.defense.dice == 6
    with pytest.raises(ValueError, match=r"defends only against Close attacks \(L1146\)"):
        plan(game(DUMMY, unit("owl_bear")), inp.model_copy(update={"weapon": "short"}))


def test_owl_bear_power_example() -> None:
    """Five hits with three 6s, four blocked: 1 damage and all three power points (L1192)."""
    attacker = make(name="Owl Bear", close=5, short=5, medium=2, long=0)
    target = make(name="Target", defense=5)
    out = attack(game(attacker, target), "close", [6, 6, 6, 4, 5, 4, 4, 4, 5, 1])
    assert (out["hits"], out["damage"], out["power_points"]) == (5, 1, 3)


def test_dodge_example() -> None:
    """Three hits all cancelled by five defense dice with a 6: the target may dodge 1" (L1158)."""
    attacker = make(name="A", short=3, close=3, medium=3, long=3)
    target = make(name="B", defense=5)
    out = attack(game(attacker, target), "short", [4, 5, 4, 6, 4, 5, 1, 2])
    assert (out["damage"], out["power_points"], out["dodge_inches"]) == (0, 0, 1)
    assert out["text"].endswith('no damage, dodge 1"')
    agile = GunframeUnit.model_validate({**target.model_dump(), "upgrades": [{"id": "agile"}]})
    assert attack(game(attacker, agile), "short", [4, 5, 4, 6, 4, 5, 1, 2])["dodge_inches"] == 2


def test_legionnaire_damage_and_destruction() -> None:
    """Armour 10 taking 2 damage is left with 8 (L1178); Armour 0 destroys (L1182)."""
    g = game(unit("legionnaire"), make(name="Legionnaire", armour=10, close=1))
    out = attack(g, "close", [4, 4, 1, 1, 1, 1, 1])
    g2 = record(g, "action", out["text"], out["changes"])
    state = g2.sides[1].units[0].state
    assert state.max_damage - state.damage == 8 and not state.destroyed
    g3 = game(unit("legionnaire"), make(name="Legionnaire", armour=10, close=1), damage=9)
    out = attack(g3, "close", [4, 1, 1, 1, 1, 1, 1])
    assert out["destroyed"] and out["text"].endswith("1 damage, destroyed")


def test_parry_example() -> None:
    """Owl Bear blocks all hits with two 6s and Parries: 2 damage to the attacker, no dodge (L2450)."""
    attacker = make(name="Brawler", close=2, short=4)
    g = game(attacker, unit("owl_bear"))
    out = attack(g, "close", [4, 4, 6, 6, 1], defend_with_close=False, parry=True)
    assert (out["damage"], out["parry_damage"], out["dodge_inches"]) == (0, 2, 0)
    assert out["changes"][0].path == ["sides", 0, "units", 0, "state", "damage"]
    with pytest.raises(ValueError, match=r"Dummy has no Parry to use against this attack \(L2448\)"):
        attack(game(attacker, DUMMY), "close", [4, 4, 1], parry=True)


def test_powerful_example() -> None:
    """Powerful: two 6s make 3 points, no 6s still 1 point, once damage is done (L2454-2456)."""
    gun = make(name="Gun", upgrades=[{"id": "powerful", "slot": "short"}])
    g = game(gun, DUMMY)
    assert attack(g, "short", [6, 6, 1, 1])["power_points"] == 3
    assert attack(g, "short", [4, 1, 1, 1])["power_points"] == 1
    assert attack(g, "short", [4, 1, 1, 4])["power_points"] == 0  # no damage, no power attack (L1188)
    strict = g.model_copy(update={"options": {"powerful_needs_six": True}})
    assert attack(strict, "short", [4, 1, 1, 1])["power_points"] == 0


def test_target_lock_uses() -> None:
    """Focus Fire +2D (L1375), +3D with Extra Ammo (L2436); Precise Strike rerolls 1-3 (L1377); spent."""
    g = game(make(name="A"), DUMMY, counters={"target_lock": 1, "evade": 0})
    out = attack(g, "short", [4, 4, 4, 4, 4, 1], focus_fire=True)
    assert out["attack_pool"]["dice"] == 5 and out["spent"] == ["target_lock"]
    assert any(c.path[-1] == "target_lock" and c.value == 0 for c in out["changes"])
    ammo = make(name="A", upgrades=[{"id": "extra_ammo", "slot": "short"}])
    g2 = game(ammo, DUMMY, counters={"target_lock": 1, "evade": 0})
    assert attack(g2, "short", [1] * 7, focus_fire=True)["attack_pool"]["dice"] == 6
    out = attack(g, "short", [1, 2, 6, 5, 6, 1], precise_strike=True)
    assert out["hits"] == 3 and out["attack"]["dice"][0]["rerolled"] == 5
    with pytest.raises(ValueError, match=r"Dummy has no Target Lock to spend \(L1373\)"):
        attack(game(make(name="A"), DUMMY), "short", [4, 4, 4], focus_fire=True)
    with pytest.raises(ValueError, match="a Target Lock is spent once"):
        AttackInput(attacker="0/a", target="1/t", weapon="short", focus_fire=True, precise_strike=True)


def test_warrior_and_evade() -> None:
    """Warrior rerolls 1s up close (L2354); Evade rerolls defense 1-3 and is spent (L1400)."""
    warrior = make(name="W", upgrades=[{"id": "warrior"}])
    g = game(warrior, DUMMY, counters={"target_lock": 0, "evade": 1})
    out = attack(g, "close", [1, 2, 3, 4, 2, 6], evade=True)
    assert out["attack"]["dice"][0]["rerolled"] == 4 and out["hits"] == 1
    assert out["defense"]["dice"][0]["rerolled"] == 6 and out["damage"] == 0
    assert attack(g, "short", [1, 2, 3, 1])["hits"] == 0  # Warrior is for Close attacks only
    with pytest.raises(ValueError, match=r"Dummy has no Evade counter to spend \(L1400\)"):
        attack(game(warrior, DUMMY), "close", [1, 1, 1], evade=True)


def test_automatic_modifiers() -> None:
    """Shut down (L958, L1088), knocked down (L950), flying (L920, L1084, L2428), upgrades."""
    inp = AttackInput(attacker="0/a", target="1/t", weapon="short", cover=True)
    shut = plan(game(make(name="A"), make(name="T", defense=3), conditions=["shut_down"]), inp)
    assert shut.attack.dice == 4 and shut.defense is not None and shut.defense.dice == 3  # ceil(3/2) + cover
    deflect = make(name="T", upgrades=[{"id": "deflect"}])
    p = plan(game(make(name="A"), deflect), inp)
    assert p.defense is not None and p.defense.dice == 5
    p = plan(game(make(name="A"), deflect, conditions=["knocked_down"]), inp)
    assert p.attack.dice == 4 and p.defense is not None and p.defense.dice == 4
    aa = make(
        name="A", upgrades=[{"id": "anti_aircraft", "slot": "short"}, {"id": "piercing", "slot": "medium"}]
    )
    p = plan(game(aa, make(name="T"), conditions=["flying"]), inp)
    assert p.attack.dice == 5 and p.defense is not None and p.defense.dice == 3  # flyers get no cover
    p = plan(game(aa, make(name="T")), inp.model_copy(update={"weapon": "medium"}))
    assert p.defense is not None and p.defense.dice == 3  # Piercing ignores cover
    stealth = make(name="T", upgrades=[{"id": "stealth"}])
    p = plan(game(make(name="A"), stealth), inp.model_copy(update={"weapon": "long", "cover": False}))
    assert p.defense is not None and p.defense.dice == 4
    eyes = make(name="A", upgrades=[{"id": "eagle_eyes"}])
    p = plan(game(eyes, stealth), inp.model_copy(update={"weapon": "long", "cover": False}))
    assert p.defense is not None and p.defense.dice == 3
    cautious = make(name="T", upgrades=[{"id": "cautious"}])
    p = plan(game(make(name="A"), cautious), inp)
    assert p.defense is not None and p.defense.dice == 5  # cover counts as hard cover (L2304)
    with pytest.raises(ValueError, match=r"Firefly has no close weapon system to attack with \(L1064\)"):
        plan(game(unit("firefly"), DUMMY), inp.model_copy(update={"weapon": "close"}))  # Close 0 (L1064)


def test_attack_input_schema() -> None:
    schema = AttackInput.model_json_schema()
    props = schema["properties"]
    assert props["attacker"]["ui"] == "own-unit" and props["target"]["ui"] == "enemy-unit"
    assert all("(L" in p["description"] for k, p in props.items() if k not in ("attacker", "target"))


# --- odds -----------------------------------------------------------------------------------


def brute_force(g: Game, inp: AttackInput, length: int) -> dict[tuple[int, int], Fraction]:
    """Every face sequence long enough for the most dice the attack could need, resolved one by one."""
    counts: Counter[tuple[int, int]] = Counter()
    for faces in itertools.product(range(1, 7), repeat=length):
        detail = resolve(g, inp, TypedDice(faces)).detail
        counts[(detail["damage"], detail["power_points"])] += 1
    return {k: Fraction(v, 6**length) for k, v in counts.items()}


@pytest.mark.parametrize(
    ("weapon", "attacker_fields", "mods", "defense", "length"),
    [
        ("short", {"short": 3}, {}, 2, 5),  # 3 attack dice, 2 defense dice
        ("short", {"short": 2}, {"precise_strike": True}, 1, 5),  # up to 2 attack rerolls
        ("close", {"close": 2, "upgrades": [{"id": "warrior"}]}, {}, 1, 5),  # up to 2 rerolls of 1s
        ("short", {"short": 2, "upgrades": [{"id": "powerful", "slot": "short"}]}, {"evade": True}, 1, 4),
    ],
)
def test_odds_match_brute_force(
    weapon: str, attacker_fields: dict[str, Any], mods: dict[str, Any], defense: int, length: int
) -> None:
    """The exact odds equal resolving every possible sequence of faces with the same procedure."""
    attacker = make(name="A", **attacker_fields)
    target = make(name="T", defense=defense, armour=2)
    g = game(attacker, target, counters={"target_lock": 1, "evade": 1})
    inp = AttackInput(attacker="0/a", target="1/t", weapon=weapon, **mods)  # type: ignore[arg-type]
    exact = {k: p for k, p in outcome_dist(plan(g, inp)).probabilities()}
    assert exact == brute_force(g, inp, length)
    odds = attack_odds(g, inp)
    destroyed = sum(p for (damage, _), p in exact.items() if damage >= 2)
    assert odds.facts["destroyed"] == pytest.approx(float(destroyed))
    assert {r.value for r in odds.tables["damage"].rows} == {d for d, _ in exact} | set(
        range(max(d for d, _ in exact))
    )


def test_odds_no_damage_no_power() -> None:
    """Power points are zero whenever damage is zero (L1188)."""
    g = game(make(name="A"), make(name="T", defense=6))
    joint = outcome_dist(plan(g, AttackInput(attacker="0/a", target="1/t", weapon="long")))
    assert all(power == 0 for (damage, power), _ in joint.probabilities() if damage == 0)
    odds = attack_odds(g, AttackInput(attacker="0/a", target="1/t", weapon="long"))
    assert odds.tables["damage"].rows[0].at_least == "1/1"


def test_example_units_follow_the_rules() -> None:
    """Printed units follow the construction rules, bar two slot breaches the notes name (L3081, L3143)."""
    breaking = {uid for uid in CATALOGUE if rules(unit(uid))}
    assert breaking == {"bison", "rhino"}
    assert all(CATALOGUE[uid].note for uid in breaking)


# --- the damage track at its boundaries (L1174-1182, L2448) ------------------------------------------


def hurt_attacker(g: Game, damage: int) -> Game:
    """The attacker ('0/a') with ``damage`` already taken."""
    return record(
        g, "adjust", "set up", [Change(path=["sides", 0, "units", 0, "state", "damage"], value=damage)]
    )


@pytest.mark.parametrize(
    ("before", "after", "destroyed"),
    [(6, 9, False), (7, 10, True), (8, 10, True)],
    ids=["one-below-armour", "exactly-armour", "one-above-armour"],
)
def test_attack_damage_at_the_armour_boundary(before: int, after: int, destroyed: bool) -> None:
    """3 damage against Armour 10: one short of it leaves 1, reaching it destroys (L1182), and damage
    beyond it is not kept (the track stops at the Armour, L1174)."""
    g = game(make(name="A"), DUMMY, damage=before)
    out = attack(g, "close", [4, 4, 4, 1])
    assert out["damage"] == 3 and out["destroyed"] is destroyed
    state = record(g, "action", out["text"], out["changes"]).sides[1].units[0].state
    assert (state.damage, state.destroyed) == (after, destroyed)
    assert out["text"] == "A hits Dummy with Close: 3 damage" + (", destroyed" if destroyed else "")


@pytest.mark.parametrize(
    ("before", "after", "destroyed"),
    [(5, 7, False), (6, 8, True), (7, 8, True)],
    ids=["one-below-armour", "exactly-armour", "one-above-armour"],
)
def test_parry_damage_at_the_attackers_armour_boundary(before: int, after: int, destroyed: bool) -> None:
    """Parry's 2 damage back (L2448) to an Armour 8 attacker: reaching its Armour destroys it (L1182),
    and the track stops there."""
    g = hurt_attacker(game(make(name="Brawler", close=2, short=4), unit("owl_bear")), before)
    out = attack(g, "close", [4, 4, 6, 6, 1], parry=True)
    assert out["parry_damage"] == 2 and out["destroyed"] is False  # "destroyed" is about the target
    state = record(g, "action", out["text"], out["changes"]).sides[0].units[0].state
    assert (state.damage, state.destroyed) == (after, destroyed)
    assert out["text"] == "Brawler attacks Owl Bear with Close: no damage; Parry deals 2 back"


def test_points_limit_is_met_exactly() -> None:
    """The total may equal the limit but not exceed it (L1494): 55 points fit 55, not 54."""
    team = [(k, unit(uid)) for k, uid in (("s", "sasha"), ("m", "michiko"), ("i", "izumi"), ("g", "goro"))]
    assert sum(SYSTEM.unit_cost(p) for _, p in team) == 55
    assert SYSTEM.squad_violations(team, 55) == []
    over = SYSTEM.squad_violations(team, 54)
    assert [(v.rule, v.message, v.ref) for v in over] == [
        ("points-limit", "55 points is over the 54-point limit", "L1494")
    ]


def _member(name: str, frame: str, armour: int) -> GunframeUnit:
    weapons = {"close": 2, "short": 2, "medium": 2, "long": 2}
    speed, defense = FRAMES[frame].speed, FRAMES[frame].defense
    combiner = [{"id": "combiner", "slot": "armour"}]
    return make(
        name=name, frame=frame, speed=speed, defense=defense, armour=armour, upgrades=combiner, **weapons
    )


@pytest.mark.parametrize(
    ("frame", "broken"),
    [("scout", True), ("light", True), ("medium", False), ("heavy", False)],
)
def test_combined_form_is_at_least_as_big_as_the_largest_member(frame: str, broken: bool) -> None:
    """L2508-2510: two scouts and a medium gunframe combine into at least a medium form."""
    team = [
        ("a", _member("S1", "scout", 4)),
        ("b", _member("S2", "scout", 4)),
        ("c", _member("M", "medium", 8)),
    ]
    f = FRAMES[frame]
    form = make(
        name="Giant", frame=frame, speed=f.speed, defense=f.defense, armour=f.armour + 3, combined_members=3
    )
    found = [v for v in SYSTEM.squad_violations([*team, ("g", form)], None) if v.rule == "combiner-frame"]
    if broken:
        assert [(v.unit, v.message, v.ref) for v in found] == [
            ("g", "The combined form must be at least as big as M", "L2508")
        ]
    else:
        assert found == []


def test_combined_form_needs_no_combiner_upgrade_and_takes_two_per_system() -> None:
    """L2512-2513: a combined form holds two frame upgrades on one system and does not buy Combiner."""
    f = FRAMES["medium"]
    two = [{"id": "fast", "slot": "speed"}, {"id": "jump", "slot": "speed"}]
    fields = {"name": "G", "frame": "medium", "speed": f.speed, "defense": f.defense, "armour": f.armour + 3}
    assert rules(make(**fields, upgrades=two, combined_members=3)) == set()
    assert "slot-limit" in rules(make(**fields, upgrades=two))
    three = [*two, {"id": "fly", "slot": "speed"}]
    assert "slot-limit" in rules(make(**fields, upgrades=three, combined_members=3))


def test_undo_of_a_damage_edit_that_also_cripples_restores_the_conditions() -> None:
    """A manual edit of damage and conditions, plus the crippled condition that follows from it
    (L2706), changes the conditions twice in one event; undo gives back the conditions before both."""
    g = table.start([table.mech("Ann")], crippled_rules=True)
    base = ["sides", 0, "units", 0, "state"]
    edit = [Change(path=[*base, "damage"], value=6), Change(path=[*base, "conditions"], value=["shut_down"])]
    hurt = adjust(g, edit)
    assert table.state(hurt, "0/a").conditions == ["shut_down", "crippled"]
    assert [c.path[-1] for c in hurt.log[-1].changes] == ["damage", "conditions", "conditions"]
    back = undo(hurt)
    assert (table.state(back, "0/a").damage, table.state(back, "0/a").conditions) == (0, [])
    assert back.sides == g.sides
    assert redo(back).sides == hurt.sides


def test_status_line_shows_mission_roles_environment_and_counts() -> None:
    """What the game screen shows under the title (api game.views): each line as the player reads it."""
    g = table.start([table.mech("Ann")])
    assert api.call("game.views", {"game": g.model_dump(mode="json")})["result"]["status"] == []
    g = table.run(g, "mission", [], mission="doomsday", attacker_side=1)
    g = table.environment(g, "storm", storm_type="lightning")
    values = {"initiative_side": 0, "hull_breaches": 2, "last_turn": 5}
    by_hand = [Change(path=["state", "extra", k], value=v) for k, v in values.items()]
    by_hand += [
        Change(path=["state", "clocks", "doomsday_clock"], value=3),
        Change(path=["state", "ended"], value=True),
    ]
    g = adjust(g, by_hand)
    status = api.call("game.views", {"game": g.model_dump(mode="json")})["result"]["status"]
    assert [(line["label"], line["value"]) for line in status] == [
        ("Mission", "Doomsday"),
        ("Attacker", "Blue"),
        ("Initiative", "Red"),
        ("Environment", "Storm (lightning)"),
        ("Hull breaches", "2"),
        ("Doomsday clock", "3"),
        ("Last turn", "5"),
        ("Game over", "yes"),
    ]
    assert (status[0]["note"], status[4]["note"], status[5]["note"]) == ("L1847", "L2085", "L1853-1872")
    dark = table.environment(table.start([table.mech("Ann")]), "darkness")
    dark = adjust(
        dark,
        [
            Change(path=["state", "extra", "dark_over"], value=True),
            Change(path=["state", "extra", "attacker_side"], value=7),
        ],
    )
    status = SYSTEM.status(dark)
    assert [(line.label, line.value) for line in status] == [("Environment", "Darkness, now over")]


@pytest.mark.parametrize(
    ("armour", "close", "broken"),
    [(11, 3, False), (10, 4, False), (8, 6, False), (10, 3, True), (11, 4, True), (7, 7, True)],
    ids=["all-armour", "two-and-one", "all-loadout", "two-only", "four", "armour-down"],
)
def test_combined_form_adds_one_per_member_to_armour_and_loadout(
    armour: int, close: int, broken: bool
) -> None:
    """L2517-2521: three members give 3 bonus points, split between Armour and Loadout as the player
    likes (medium frame: Armour 8, Loadout 12); no other customising."""
    form = make(name="G", armour=armour, close=close, combined_members=3)
    found = [v.message for v in SYSTEM.unit_violations(form) if v.rule == "combiner-customise"]
    if broken:
        assert found == [
            f"a combined form of 3 units adds exactly 3 to Armour and Loadout together "
            f"(here {armour - 8:+d} and {close - 3:+d})"
        ]
    else:
        assert found == []
    faster = make(name="G", armour=11, speed=6, combined_members=3)
    assert [v.message for v in SYSTEM.unit_violations(faster) if v.rule == "combiner-customise"] == [
        "a combined form keeps the frame's Speed and Defense (5 and 3)"
    ]


def test_a_pilot_upgrade_belongs_to_the_first_form() -> None:
    """L2258: pilot upgrades are listed once, with the first form, not on another form."""
    eagle = CATALOGUE["eagle_vf"].profile
    forms = [{**eagle["forms"][0], "upgrades": [*eagle["forms"][0]["upgrades"], {"id": "ace"}]}]
    found = [v for v in SYSTEM.unit_violations(GunframeUnit.model_validate({**eagle, "forms": forms}))]
    assert [(v.rule, v.ref) for v in found if v.rule == "form-pilot-upgrade"] == [
        ("form-pilot-upgrade", "L2258")
    ]
    assert rules(unit("eagle_vf")) == set()


# --- the pools as the action panel lists them, modifier by modifier (L1062-1152) -------------------------


def duel_plan(
    a_fields: dict[str, Any],
    t_fields: dict[str, Any],
    a_state: dict[str, Any] | None = None,
    t_state: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    **inp: Any,
) -> tuple[int, list[str], int, list[str]]:
    """Attack dice and their sources, defense dice and theirs, for A (medium, 3s) attacking T."""
    g = game(make(name="A", **a_fields), make(name="T", **t_fields), **(t_state or {}))
    if a_state:
        g = g.model_copy(deep=True)
        g.sides[0].units[0].state = g.sides[0].units[0].state.model_copy(update=a_state)
    if options:
        g = table.with_values(g.model_copy(update={"options": {}}), **options)
    p = plan(g, AttackInput(attacker="0/a", target="1/t", **inp))
    return (p.attack.dice, p.attack_notes, p.defense.dice if p.defense else 0, p.defense_notes)


CRIPPLED = {"conditions": ["crippled"]}
FLYING = {"conditions": ["flying"]}
LOCK = {"counters": {"target_lock": 1, "evade": 0}}
EVADE = {"counters": {"target_lock": 0, "evade": 1}}
D3 = ["Defense 3"]


@pytest.mark.parametrize(
    ("a_fields", "t_fields", "a_state", "t_state", "options", "inp", "expected"),
    [
        # crippled halves weapons rounding up (L2733); Anger Issues +2 up close instead (L2300)
        ({}, {}, CRIPPLED, None, None, {"weapon": "short"}, (2, ["Short 3", "crippled: halved to 2"], 3, D3)),
        (
            {"upgrades": [{"id": "anger_issues"}]},
            {},
            CRIPPLED,
            None,
            None,
            {"weapon": "close"},
            (5, ["Close 3", "Anger Issues +2"], 3, D3),
        ),
        # +1 each (L1076-1088); a shut-down target's Defense is halved (L958)
        (
            {},
            {},
            None,
            {"conditions": ["shut_down"]},
            None,
            {"weapon": "short", "charge": True, "crossfire": True, "elevated": True, "rear": True},
            (
                8,
                ["Short 3", "charge +1", "crossfire +1", "elevated +1", "rear +1", "target shut down +1"],
                2,
                ["Defense 3", "shut down: halved to 2"],
            ),
        ),
        (
            {},
            {},
            None,
            LOCK,
            None,
            {"weapon": "short", "focus_fire": True, "bonus_attack_dice": 2},
            (7, ["Short 3", "focus fire +2", "other +2"], 3, D3),
        ),
        (
            {"upgrades": [{"id": "anti_aircraft", "slot": "short"}]},
            {},
            None,
            FLYING,
            None,
            {"weapon": "short"},
            (5, ["Short 3", "anti-aircraft +2"], 3, D3),
        ),
        (
            {"upgrades": [{"id": "lucky"}]},
            {},
            None,
            None,
            None,
            {"weapon": "short", "lucky": "attacker"},
            # L2330: any of the dice; the player picks them, the odds assume every miss rerolled
            (3, ["Short 3", "Lucky: picks dice to reroll (odds: every miss)"], 3, D3),
        ),
        (
            {"upgrades": [{"id": "warrior"}]},
            {},
            None,
            None,
            None,
            {"weapon": "close"},
            (3, ["Close 3", "Warrior: reroll 1s"], 3, D3),
        ),
        # defending with Close (L1146), Shield Wall, infantry in a building (L2948)
        (
            {},
            {"close": 5, "upgrades": [{"id": "shield_wall"}]},
            None,
            None,
            None,
            {"weapon": "close", "defend_with_close": True, "shield_wall": True, "in_building": True},
            (3, ["Close 3"], 7, ["Close 5", "shield wall +1", "in a building +1"]),
        ),
        (
            {},
            {"defense": 5},
            None,
            None,
            None,
            {"weapon": "short", "climbing": True, "obscured": True, "cover": True},
            (3, ["Short 3"], 5, ["Defense 5", "climbing: halved to 3", "obscured +1", "cover +1"]),
        ),
        (
            {"upgrades": [{"id": "eagle_eyes"}]},
            {},
            None,
            None,
            None,
            {"weapon": "short", "obscured": True, "hard_cover": True},
            (3, ["Short 3"], 5, ["Defense 3", "obscured ignored (Eagle Eyes)", "hard cover +2"]),
        ),
        (
            {},
            {},
            None,
            None,
            {"hard_cover_adds_to_cover": True},
            {"weapon": "short", "hard_cover": True},
            (3, ["Short 3"], 5, ["Defense 3", "hard cover +2"]),
        ),
        (
            {"upgrades": [{"id": "piercing", "slot": "short"}]},
            {},
            None,
            None,
            None,
            {"weapon": "short", "cover": True},
            (3, ["Short 3"], 3, ["Defense 3", "cover ignored (Piercing)"]),
        ),
        (
            {},
            {"upgrades": [{"id": "dogfighter"}, {"id": "chaff"}]},
            FLYING,
            FLYING,
            None,
            {"weapon": "long", "underwater": True, "bonus_defense_dice": 1},
            (3, ["Long 3"], 7, ["Defense 3", "dogfighter +1", "chaff +1", "underwater +1", "other +1"]),
        ),
        (
            {},
            {"upgrades": [{"id": "chaff"}]},
            None,
            FLYING,
            None,
            {"weapon": "short"},
            (3, ["Short 3"], 3, D3),
        ),
        (
            {},
            {},
            None,
            EVADE,
            None,
            {"weapon": "short", "evade": True},
            (3, ["Short 3"], 3, ["Defense 3", "evade: reroll 1-3"]),
        ),
        (
            {},
            {"upgrades": [{"id": "lucky"}]},
            None,
            None,
            None,
            {"weapon": "short", "lucky": "defender"},
            (3, ["Short 3"], 3, ["Defense 3", "Lucky: picks dice to reroll (odds: every miss)"]),
        ),
        (
            {},
            {},
            None,
            None,
            {"environment": "storm"},
            {"weapon": "medium"},
            (3, ["Medium 3"], 4, ["Defense 3", "obscured +1 (storm)"]),
        ),
    ],
    ids=[
        "crippled",
        "anger-issues",
        "flat-bonuses",
        "focus-fire",
        "anti-aircraft",
        "lucky-attacker",
        "warrior",
        "close-defense",
        "climbing",
        "eagle-eyes",
        "hard-cover-option-without-cover",
        "piercing",
        "flyers",
        "chaff-only-long",
        "evade",
        "lucky-defender",
        "storm",
    ],
)
def test_pools_list_every_modifier(
    a_fields: dict[str, Any],
    t_fields: dict[str, Any],
    a_state: dict[str, Any] | None,
    t_state: dict[str, Any] | None,
    options: dict[str, Any] | None,
    inp: dict[str, Any],
    expected: tuple[int, list[str], int, list[str]],
) -> None:
    assert duel_plan(a_fields, t_fields, a_state, t_state, options, **inp) == expected


def test_hard_cover_on_top_of_cover_lists_what_it_adds() -> None:
    _, _, d_dice, d_notes = duel_plan(
        {}, {}, options={"hard_cover_adds_to_cover": True}, weapon="short", hard_cover=True, cover=True
    )
    assert d_dice == 6
    assert sum(int(n.rsplit("+", 1)[1]) for n in d_notes if "+" in n) == d_dice - 3


@pytest.mark.parametrize(
    ("a_state", "t_state", "inp", "message"),
    [
        ({"destroyed": True}, None, {}, "A is destroyed"),
        (None, {"destroyed": True}, {}, "T is destroyed"),
        ({"conditions": ["shut_down"]}, None, {}, r"A is shut down: it can only reboot \(L956\)"),
        (
            {"conditions": ["knocked_down"]},
            None,
            {},
            r"A must stand up with a move action before attacking \(L952\)",
        ),
        (
            None,
            {"conditions": ["shut_down"], **EVADE},
            {"evade": True},
            r"T is shut down and cannot use its Evade",
        ),
        (
            None,
            LOCK,
            {"weapon": "long", "indirect_fire": True},
            r"A's long system has no Indirect Fire \(L2440\)",
        ),
    ],
)
def test_attacks_the_rules_forbid(
    a_state: dict[str, Any] | None, t_state: dict[str, Any] | None, inp: dict[str, Any], message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        duel_plan({}, {}, a_state, t_state, **{"weapon": "short", **inp})


def test_a_unit_cannot_attack_itself_and_reactions_are_checked() -> None:
    g = game(make(name="A"), DUMMY)
    with pytest.raises(ValueError, match="a unit cannot attack itself"):
        plan(g, AttackInput(attacker="0/a", target="0/a", weapon="short"))
    with pytest.raises(ValueError, match=r"a reaction attack never counts against its system"):
        AttackInput(attacker="0/a", target="1/t", reaction=True, rapid_fire=True)
    with pytest.raises(ValueError, match=r"Quick Reflexes pays for a reaction \(L2338\)"):
        AttackInput(attacker="0/a", target="1/t", quick_reflexes=True)
    with pytest.raises(ValueError, match="a Target Lock is spent once"):
        AttackInput(attacker="0/a", target="1/t", precise_strike=True, indirect_fire=True)


# --- power attacks: what the log says each one does (L1196-1344, L2366, L2460) -------------------------


def _spent(
    red: list[dict[str, Any]], blue: list[dict[str, Any]], *spend: dict[str, Any], **more: Any
) -> Game:
    """Red's A attacks Blue's first unit at Short with three 6s unanswered, then spends the 3 power points."""
    g = table.run(table.start(red, blue), "attack", [6, 6, 6, 1, 1, 1], attacker="0/a", target="1/t")
    faces = more.pop("faces", [])
    return table.run(g, "power", faces, attacker="0/a", spend=list(spend), **more)


M = table.mech


@pytest.mark.parametrize(
    ("red", "blue", "spend", "more", "text"),
    [
        (
            [M("A")],
            [M("B")],
            [{"power": "distract"}],
            {},
            "B is distracted: a single action at its next activation",
        ),
        (
            [M("A")],
            [M("B")],
            [{"power": "shut_down"}],
            {},
            "B is shut down until it reboots (drops any loot)",
        ),
        (
            [M("A")],
            [M("B", "heavy")],
            [{"power": "recoil"}],
            {},
            'Recoil: move B 2" straight away from the attacker (Heavy halves it)',
        ),
        (
            [M("A")],
            [M("B")],
            [{"power": "recoil"}],
            {"environment": "high_gravity"},
            'Recoil: move B 2" straight away from the attacker (high gravity halves it)',
        ),
        (
            [M("A")],
            [M("B")],
            [{"power": "recoil"}],
            {"environment": "low_gravity"},
            'Recoil: move B 4" straight away from the attacker (low gravity +1")',
        ),
        (
            [M("A")],
            [M("B")],
            [{"power": "recoil"}],
            {"environment": "space"},
            'Recoil: move B 5" straight away from the attacker (space +2")',
        ),
        (
            [M("A", ("target_painting", "short"))],
            [M("B")],
            [{"power": "target_painting"}],
            {},
            "Target Painting locks B",
        ),
        (
            [M("A", ("blast", "short"))],
            [M("B"), M("C")],
            [{"power": "blast", "points": 1, "units": ["1/u"]}],
            {"faces": [1, 1, 1]},
            'Blast: 1 hits on every unit within 3" of B; C takes 1 of 1 hits, defense [1, 1, 1]',
        ),
        (
            [M("A", ("chain_attack", "short"))],
            [M("B"), M("C")],
            [{"power": "chain_attack", "points": 1, "units": ["1/u"]}],
            {"faces": [1, 1, 1]},
            "Chain: C takes 2 of 2 hits, defense [1, 1, 1]",
        ),
        (
            [M("A")],
            [M("B")],
            [{"power": "suppression", "points": 2}],
            {},
            'Suppression: put a token touching B; within 2" of it the ground is dangerous'
            " until the End phase",
        ),
    ],
    ids=[
        "distract",
        "shut-down",
        "heavy",
        "high-gravity",
        "low-gravity",
        "space",
        "painting",
        "blast",
        "chain",
        "suppression",
    ],
)
def test_power_attack_results_read_in_the_log(
    red: list[dict[str, Any]],
    blue: list[dict[str, Any]],
    spend: list[dict[str, Any]],
    more: dict[str, Any],
    text: str,
) -> None:
    g = _spent(red, blue, *spend, **more)
    assert g.log[-1].text.endswith("; " + text), g.log[-1].text


def test_target_painting_strips_an_evade_first() -> None:
    g = table.run(
        table.start([M("A", ("target_painting", "short"))], [M("B")]),
        "attack",
        [6, 6, 6, 1, 1, 1],
        attacker="0/a",
        target="1/t",
    )
    g = table.set_state(g, "1/t", "counters", {"target_lock": 0, "evade": 1})
    g = table.run(g, "power", [], attacker="0/a", spend=[{"power": "target_painting"}])
    assert g.log[-1].text.endswith("Target Painting strips B's Evade")
    assert table.state(g, "1/t").counters == {"target_lock": 0, "evade": 0}


def test_explode_after_a_kill() -> None:
    g = table.run(
        table.start([M("A")], [M("B", armour=2)]), "attack", [6, 6, 6, 1, 1, 1], attacker="0/a", target="1/t"
    )
    g = table.run(g, "power", [], attacker="0/a", spend=[{"power": "explode", "points": 1}])
    assert (
        g.log[-1].text
        == 'A spends power on Explode 1; B explodes: 1 damage to every unit within 1" of its centre'
    )


@pytest.mark.parametrize(
    ("red", "blue", "spend", "more", "message"),
    [
        ([M("A")], [M("B")], [], {"ablative_armour": True}, r"B has no Ablative Armour \(L2366\)"),
        (
            [M("A")],
            [M("B", "ablative_armour")],
            [{"power": "distract"}],
            {"ablative_armour": True},
            "Ablative Armour cancels every point before any is spent",
        ),
        (
            [M("A")],
            [M("B")],
            [{"power": "recoil", "pull": True}],
            {},
            r"only a Recoil from a Short system with Reach may pull",
        ),
        (
            [M("A")],
            [M("B")],
            [{"power": "explode"}],
            {},
            r"Explode needs the target destroyed by this attack \(L1276\)",
        ),
        (
            [M("A", ("chain_attack", "short")), M("D")],
            [M("B"), M("C")],
            [{"power": "chain_attack", "points": 1, "units": ["0/b"]}],
            {},
            r"D is not an enemy: Chain Attack picks enemies \(L1254\)",
        ),
    ],
    ids=["no-ablative", "ablative-and-spend", "pull-without-reach", "explode-alive", "chain-own-unit"],
)
def test_power_spending_the_rules_forbid(
    red: list[dict[str, Any]],
    blue: list[dict[str, Any]],
    spend: list[dict[str, Any]],
    more: dict[str, Any],
    message: str,
) -> None:
    with pytest.raises(ValueError, match=message):
        _spent(red, blue, *spend, **more)


def test_a_guardian_takes_the_damage_and_the_power_points_follow_it() -> None:
    """L2316: the friendly Guardian pays 1 Focus Point and takes the damage; power attacks go at it."""
    g = table.set_fp(table.start([M("A")], [M("B"), M("G", "guardian")]), 1, 2)
    raw = {"attacker": "0/a", "target": "1/t", "weapon": "short", "guardian": "1/u"}
    g = act_typed(g, "attack", raw, [6, 4, 4, 1, 1, 1])
    assert g.log[-1].text == "A hits B with Short: 3 damage, taken by G (Guardian, 1 FP), 1 power point"
    assert (table.state(g, "1/u").damage, table.state(g, "1/t").damage) == (3, 0)
    assert g.sides[1].resources["focus_points"] == 1
    assert table.state(g, "0/a").extra["power"]["target"] == "1/u"


def act_typed(g: Game, action: str, raw: dict[str, Any], faces: list[int]) -> Game:
    typed = TypedDice(faces)
    out = table.act(g, action, raw, typed)
    assert typed.left == 0
    return out


def test_attack_detail_with_no_defense_dice_and_more_cancels_than_hits() -> None:
    """Defense 0 rolls nothing (L1111); cancels beyond the hits cancel nothing more (L1160)."""
    g = act_typed(
        table.start([M("A")], [M("B", defense=0)]), "attack", {"attacker": "0/a", "target": "1/t"}, [4, 1, 1]
    )
    detail = g.log[-1].detail
    assert (detail["defense_pool"], detail["cancelled"], detail["damage"]) == (
        {"dice": 0, "from": ["Defense 0"]},
        0,
        1,
    )
    g = act_typed(
        table.start([M("A")], [M("B", defense=5)]),
        "attack",
        {"attacker": "0/a", "target": "1/t"},
        [4, 1, 1, 4, 4, 4, 4, 1],
    )
    assert (g.log[-1].detail["hits"], g.log[-1].detail["cancelled"]) == (1, 1)
    assert g.log[-1].text == "A attacks B with Short: no damage"


def test_odds_of_destroying_a_damaged_target() -> None:
    """Armour 8 with 7 damage: any hit of 3 dice on 4+ destroys it, 7/8."""
    g = table.hurt(table.start([M("A")], [M("B", defense=0)]), "1/t", 7)
    o = game_odds(g, "attack", {"attacker": "0/a", "target": "1/t", "weapon": "short"})
    assert o.summary == "3 firepower dice against 0 defense dice"
    assert o.facts["destroyed"] == 7 / 8


@pytest.mark.parametrize(("only_when_cancelled", "back"), [(False, 1), (True, 0)])
def test_parry_when_some_hits_get_through(only_when_cancelled: bool, back: int) -> None:
    """L2448-2450: by default a defensive 6 parries even when damage gets through; the named reading
    allows Parry only when every hit was cancelled."""
    g = game(make(name="Brawler", close=3, short=4), unit("owl_bear"))
    g = g.model_copy(update={"options": {"parry_only_when_all_cancelled": only_when_cancelled}})
    out = attack(g, "close", [4, 4, 4, 6, 1, 1], parry=True)
    assert (out["damage"], out["parry_damage"]) == (2, back)


def test_close_recoil_swing_and_a_target_already_down() -> None:
    """Up close the attacker may follow a Recoil (L1292); Swing (L1324); a target knocked down first stays
    put when recoiled (L1296)."""
    close = table.run(
        table.start([M("A")], [M("B")]),
        "attack",
        [6, 6, 6, 1, 1, 1],
        attacker="0/a",
        target="1/t",
        weapon="close",
    )
    out = table.run(close, "power", [], attacker="0/a", spend=[{"power": "recoil"}])
    assert out.log[-1].text.endswith(
        'Recoil: move B 3" straight away from the attacker; the attacker may follow, staying in contact'
    )
    out = table.run(close, "power", [], attacker="0/a", spend=[{"power": "swing"}])
    assert out.log[-1].text == (
        "A spends power on Swing; Swing: A turns as it likes and B swings round it at the same contact "
        "point; anything in the way stops it and knocks it down"
    )
    out = _spent([M("A")], [M("B")], {"power": "knock_down"}, {"power": "recoil"})
    assert out.log[-1].text.endswith(
        "B is knocked down (drops anything it carries); Recoil: B is down by now and stays put (L1296)"
    )


def test_shut_down_starts_the_reboot_count_and_a_flyer_falls() -> None:
    """L1266-1270: shut down, reboot count from 0; a flying target falls (L920)."""
    out = _spent([M("A")], [M("B")], {"power": "shut_down"})
    assert table.state(out, "1/t").extra == {"reboot": 0} and table.state(out, "1/t").conditions == [
        "shut_down"
    ]
    g = table.run(table.start([M("A")], [M("B")]), "attack", [6, 6, 6, 1, 1, 1], attacker="0/a", target="1/t")
    g = table.set_state(g, "1/t", "conditions", ["flying"])
    # the fall is met with B's full Defense 3, not halved (L900, L958; option for the halved reading)
    out = table.run(g, "power", [3, 3, 3], attacker="0/a", spend=[{"power": "shut_down"}])
    assert out.log[-1].text == (
        "A spends power on Shut Down; B is shut down until it reboots (drops any loot); "
        "B falls from the sky: 8 hits, 8 damage, destroyed"
    )
    assert "flying" not in table.state(out, "1/t").conditions


def test_explode_hurts_the_units_named_around_the_wreck() -> None:
    """L1276: 1 damage to every unit within the distance; one with 1 Armour left is destroyed; a wreck
    already destroyed takes nothing more."""
    g = table.start([M("A")], [M("B", armour=2), M("C", armour=1), M("D")])
    g = table.run(g, "attack", [6, 6, 6, 1, 1, 1], attacker="0/a", target="1/t")
    boom = 'A spends power on Explode 1; B explodes: 1 damage to every unit within 1" of its centre; '
    out = table.run(
        g, "power", [], attacker="0/a", spend=[{"power": "explode", "points": 1, "units": ["1/u", "1/v"]}]
    )
    assert out.log[-1].text == boom + "C takes 1 damage, destroyed; D takes 1 damage"
    assert (table.state(out, "1/u").destroyed, table.state(out, "1/v").damage) == (True, 1)
    gone = table.set_state(g, "1/u", "destroyed", True)
    out = table.run(
        gone, "power", [], attacker="0/a", spend=[{"power": "explode", "points": 1, "units": ["1/u"]}]
    )
    assert out.log[-1].text == boom + "C is already destroyed"
