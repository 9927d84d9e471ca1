"""GUNFRAME rules closed in issue #12 and the boundaries of issue #15, through the real game layer.

Line numbers are in /work/shared/seeds/001_c60598db3e91d492.txt.  Every action goes through
core.game.act with typed dice; the odds are checked against independent enumeration.
"""

from __future__ import annotations

import math
from fractions import Fraction
from itertools import product
from typing import Any

import pytest
from gunframe_table import hurt, mech, run, set_fp, set_state, start, state

from core.dice import NeedMoreDice, TypedDice
from core.game import Game, act, new_game, next_round, odds, undo
from core.squad import Squad, SquadUnit
from core.systems.base import NeedChoice
from core.systems.gunframe import SYSTEM, GunframeUnit
from core.systems.gunframe.state import Edits, fall


def attack(g: Game, faces: list[int], **mods: Any) -> Game:
    return run(g, "attack", faces, **{"attacker": "0/a", "target": "1/t", **mods})


def chance(g: Game, **mods: Any) -> float:
    return odds(g, "attack", {"attacker": "0/a", "target": "1/t", **mods}).facts["destroyed"]


def binomial(n: int, k: int) -> Fraction:
    """P(exactly k of n dice show 4+)."""
    return Fraction(math.comb(n, k), 2**n)


def p_damage_at_least(attack_dice: int, defense_dice: int, left: int) -> Fraction:
    """P(hits - saves >= left), hits and saves each a 4+ on a d6 (L1092, L1156)."""
    return sum(
        (
            binomial(attack_dice, h) * binomial(defense_dice, s)
            for h in range(attack_dice + 1)
            for s in range(defense_dice + 1)
            if h - s >= left
        ),
        Fraction(0),
    )


# --- crippled Close defense (L2733, L1144-1152, L2300) ------------------------------------------------


def crippled_close_defender(*upgrades: str) -> Game:
    """Close 4 attacks a crippled Close-6 defender with 2 Armour left (Armour 8, crippled at 2, L2706)."""
    g = start([mech("A", close=4)], [mech("T", *upgrades, close=6)], crippled_rules=True)
    g = hurt(g, "1/t", 6)
    assert "crippled" in state(g, "1/t").conditions
    return g


def test_crippled_defender_halves_its_close_value_when_defending_with_it() -> None:
    """Crippled halves every weapon system (L2733), the Close system defending too (L1146): 6 -> 3 dice.
    By enumeration of all 6^7 faces: P(2+ damage) = 29/128 = 0.227 (the full 6 would give 7/128 = 0.055)."""
    g = crippled_close_defender()
    hits = 0
    for faces in product(range(1, 7), repeat=7):
        damage = sum(f >= 4 for f in faces[:4]) - sum(f >= 4 for f in faces[4:])
        hits += damage >= 2
    assert Fraction(hits, 6**7) == Fraction(29, 128)
    assert chance(g, weapon="close", defend_with_close=True) == pytest.approx(29 / 128)
    assert chance(g, weapon="close", defend_with_close=True) != pytest.approx(7 / 128)
    # Resolution rolls 3 defense dice: 4 hits, one save, 3 damage: destroyed.
    out = attack(g, [4, 4, 4, 4, 4, 1, 1], weapon="close", defend_with_close=True)
    assert state(out, "1/t").destroyed
    assert out.log[-1].detail["defense_pool"] == {"dice": 3, "from": ["Close 6", "crippled: halved to 3"]}


def test_anger_issues_adds_two_close_when_defending_and_reinforced_keeps_the_full_value() -> None:
    """Anger Issues: no halving, +2 Close while crippled (L2300), defending included: 8 dice.
    Reinforced: never halved (L2410): 6 dice."""
    angry = crippled_close_defender("anger_issues")
    assert chance(angry, weapon="close", defend_with_close=True) == pytest.approx(
        float(p_damage_at_least(4, 8, 2))
    )
    out = attack(angry, [4, 4, 4, 4, 4, 4, 1, 1, 1, 1, 1, 1], weapon="close", defend_with_close=True)
    assert out.log[-1].detail["defense_pool"] == {"dice": 8, "from": ["Close 6", "Anger Issues +2"]}
    assert state(out, "1/t").damage == 8 - 2 + 2  # 4 hits, 2 saved: 2 damage, destroyed
    reinforced = crippled_close_defender("reinforced")
    assert chance(reinforced, weapon="close", defend_with_close=True) == pytest.approx(7 / 128)


# --- one attack per weapon system (L1046-1058, L1434) -------------------------------------------------


MISS = [1, 1, 1, 1, 1, 1]


def test_a_second_short_attack_in_one_activation_is_refused() -> None:
    """L1048-1050: Short then Medium is fine, Short twice is not."""
    g = act(start([mech("A"), mech("B")], [mech("X")]), "initiative", {}, TypedDice([6, 1]))
    g = run(g, "activate", [], unit="0/a")
    g = attack(g, MISS)
    assert state(g, "0/a").extra["systems_used"] == ["short"]
    with pytest.raises(ValueError, match=r"attacked with its Short system this activation.*rapid fire"):
        attack(g, MISS)
    g2 = attack(g, MISS, weapon="medium")
    assert state(g2, "0/a").extra["systems_used"] == ["short", "medium"]
    # Undo gives the system back.
    assert "systems_used" not in state(undo(g), "0/a").extra


def test_rapid_fire_pays_for_the_second_use_and_reactions_do_not_count() -> None:
    """Rapid fire: 1 FP for a second use (L1052-1058); a reaction attack does not count against the
    system (L1434); the next turn gives every system back."""
    g = act(start([mech("A"), mech("B")], [mech("X")]), "initiative", {}, TypedDice([6, 1]))
    g = set_fp(attack(g, MISS), 0, 2)
    fp = g.sides[0].resources["focus_points"]
    g = attack(g, MISS, rapid_fire=True)
    assert g.sides[0].resources["focus_points"] == fp - 1
    assert state(g, "0/a").extra["systems_used"] == ["short", "short"]
    # B reacts with Short after being attacked (off the app: the players confirm it), then still has its
    # Short for its own activation.
    confirmed = {"reaction": True, "reaction_trigger": "attacked", "trigger_off_log": True}
    b = run(g, "attack", MISS, attacker="0/b", target="1/t", **confirmed)
    assert "systems_used" not in state(b, "0/b").extra
    fresh = next_round(g)
    assert "systems_used" not in state(fresh, "0/a").extra
    assert state(attack(fresh, MISS), "0/a").extra["systems_used"] == ["short"]


# --- engagement (L990-992) and flyers (L924) ---------------------------------------------------------


def test_engaged_units_attack_and_are_attacked_only_at_close_range() -> None:
    """L990: an engaged unit makes close attacks only; L992: an enemy engaged with a friend is attacked
    only at close range.  The Engaged condition is set by the players (tracked state)."""
    g = start([mech("A"), mech("B")], [mech("T")])
    engaged = set_state(g, "0/a", "conditions", ["engaged"])
    with pytest.raises(ValueError, match="A is engaged: it can only make close attacks"):
        attack(engaged, MISS)
    assert state(attack(engaged, MISS, weapon="close"), "1/t").damage == 0
    target_engaged = set_state(g, "1/t", "conditions", ["engaged"])
    with pytest.raises(ValueError, match=r"T is engaged with a unit of your side.*only be attacked at Close"):
        run(target_engaged, "attack", MISS, attacker="0/b", target="1/t", weapon="long")
    out = run(target_engaged, "attack", [4, 4, 4, 1, 1, 1], attacker="0/b", target="1/t", weapon="close")
    assert state(out, "1/t").damage == 3


def test_with_three_sides_the_app_asks_whom_the_target_is_engaged_with() -> None:
    squads = [
        (
            name,
            Squad(id=name, name=name, system="gunframe", units=[SquadUnit(key=k, profile=mech(k.upper()))]),
        )
        for name, k in (("Red", "a"), ("Blue", "t"), ("Green", "g"))
    ]
    g = new_game("g", "Three", squads)
    g = set_state(g, "1/t", "conditions", ["engaged"])
    with pytest.raises(NeedChoice) as asked:
        attack(g, MISS)
    assert asked.value.field == "target_engaged_with"
    shown = odds(g, "attack", {"attacker": "0/a", "target": "1/t"})  # the odds show before the question
    assert shown.summary == "3 firepower dice against 3 defense dice"
    assert [c.value for c in asked.value.options] == ["attacker_side", "another_side"]
    with pytest.raises(ValueError, match="only be attacked at Close"):
        attack(g, MISS, target_engaged_with="attacker_side")
    assert state(attack(g, [4, 4, 4, 1, 1, 1], target_engaged_with="another_side"), "1/t").damage == 3


def test_flyers_and_ground_units_do_not_fight_at_close_range() -> None:
    """L924: close attacks only flyer against flyer, and a ground unit in contact uses Short."""
    g = start([mech("A")], [mech("T", "fly")])
    assert "flying" in state(g, "1/t").conditions
    with pytest.raises(ValueError, match="T is flying: close attacks pass only between two flyers"):
        attack(g, MISS, weapon="close")
    both = set_state(g, "0/a", "conditions", ["engaged"])
    both = set_state(both, "1/t", "conditions", ["flying", "engaged"])
    assert state(attack(both, [4, 4, 4, 1, 1, 1]), "1/t").damage == 3  # Short on the flyer it touches
    flyers = set_state(g, "0/a", "conditions", ["flying"])
    assert state(attack(flyers, [4, 4, 4, 1, 1, 1], weapon="close"), "1/t").damage == 3
    with pytest.raises(ValueError, match="A is flying"):
        attack(start([mech("A", "fly")], [mech("T")]), MISS, weapon="close")


# --- Lucky (L2330) -------------------------------------------------------------------------------------


def test_lucky_asks_which_dice_after_the_roll_and_rerolls_only_those() -> None:
    """The player sees the pool and picks any of its dice (L2330); here it rerolls a 5 hoping for a 6."""
    g = start([mech("L", "lucky")], [mech("T", defense=0)])
    with pytest.raises(NeedChoice) as asked:
        attack(g, [1, 5, 4], lucky="attacker")
    assert asked.value.field == "lucky_dice" and asked.value.many
    assert asked.value.prompt == "L rolled 1, 5, 4. Which dice does its Lucky roll again?"
    assert [(c.value, c.label) for c in asked.value.options] == [
        (1, "Die 1: 1"),
        (2, "Die 2: 5"),
        (3, "Die 3: 4"),
        (0, "None: keep Lucky for later"),
    ]
    out = attack(g, [1, 5, 4, 6], lucky="attacker", lucky_dice=[2])
    assert state(out, "1/t").damage == 2  # the 1 stays a miss; 6 and 4 hit
    assert out.log[-1].detail["power_points"] == 1
    assert state(out, "0/a").extra["used"] == ["lucky"]
    kept = attack(g, [1, 5, 4], lucky="attacker", lucky_dice=[0])
    assert "used" not in state(kept, "0/a").extra  # nothing picked: Lucky kept for later
    with pytest.raises(ValueError, match="no die 4"):
        attack(g, [1, 5, 4], lucky="attacker", lucky_dice=[4])


def test_lucky_never_rerolls_a_die_twice() -> None:
    """Warrior rerolls a Close 1 first (L2344); Lucky cannot touch that die again (L353)."""
    g = start([mech("L", "lucky", "warrior")], [mech("T", defense=0)])
    with pytest.raises(NeedChoice) as asked:
        attack(g, [1, 2, 5, 3], weapon="close", lucky="attacker")
    assert [c.label for c in asked.value.options][:2] == ["Die 2: 2", "Die 3: 5"]  # die 1 became a 3
    with pytest.raises(ValueError, match="rerolled once"):
        attack(g, [1, 2, 5, 3], weapon="close", lucky="attacker", lucky_dice=[1])


def every_outcome(g: Game, raw: dict[str, Any]) -> dict[int, Fraction]:
    """Damage distribution by playing every sequence of typed faces; Lucky picks every missed die."""
    out: dict[int, Fraction] = {}
    stack: list[tuple[list[int], list[int] | None]] = [([], None)]
    while stack:
        faces, pick = stack.pop()
        given = {**raw} if pick is None else {**raw, "lucky_dice": pick}
        try:
            done = act(g, "attack", given, TypedDice(faces))
        except NeedMoreDice as need:
            stack += [([*faces, *more], pick) for more in product(range(1, 7), repeat=need.needed)]
            continue
        except NeedChoice as asked:
            misses = [c.value for c in asked.options if c.value and int(c.label.split(": ")[1]) < 4]
            stack.append((faces, misses or [0]))
            continue
        damage = state(done, raw["target"]).damage
        out[damage] = out.get(damage, Fraction(0)) + Fraction(1, 6 ** len(faces))
    return out


@pytest.mark.exhaustive
def test_lucky_odds_equal_resolution_when_every_miss_is_rerolled() -> None:
    """The odds assume Lucky rolls every missed die again; playing every face through the game with that
    pick gives exactly the odds' table (attacker with Warrior, defender plain, and a Lucky defender)."""
    g = start([mech("L", "lucky", "warrior", close=2)], [mech("T", "lucky", defense=1)])
    for raw in (
        {"attacker": "0/a", "target": "1/t", "weapon": "close", "lucky": "attacker"},
        {"attacker": "0/a", "target": "1/t", "weapon": "close", "lucky": "defender"},
    ):
        played = every_outcome(g, raw)
        assert sum(played.values()) == 1
        shown = odds(g, "attack", raw).tables["damage"].rows
        assert {r.value: Fraction(r.exactly) for r in shown if r.p_exactly} == played


def test_lucky_pilot_skill_rolls_reserves_defense_matrix_and_stabilised() -> None:
    """Lucky rolls a failed Pilot Skill roll again (L2330): reserves (L1548), Defense Matrix (L2386),
    Stabilised (L2418); odds 1/2 + 1/2 * 1/2 = 3/4 for a 4+ pilot."""
    g = start([mech("L", "lucky"), mech("B")], [mech("T", "defense_matrix")])
    g = set_state(g, "0/a", "conditions", ["in_reserve"])
    raw = {"units": ["0/a"], "lucky": ["0/a"]}
    table = odds(g, "reserves", raw).tables["arrive"]
    assert [r.exactly for r in table.rows] == ["1/4", "3/4"]
    out = run(g, "reserves", [2, 5], **raw)
    assert "in_reserve" not in state(out, "0/a").conditions
    assert out.log[-1].text == "L arrives (rolled 5 (Lucky: 2 rolled again)) touching an edge of its own half"
    assert state(out, "0/a").extra["used"] == ["lucky"]
    passed = run(g, "reserves", [4], **raw)
    assert "used" not in state(passed, "0/a").extra  # a pass needs no Lucky
    locker = start([mech("L", "lucky")], [mech("T", "defense_matrix")])
    assert odds(locker, "target_lock", {"unit": "0/a", "target": "1/t", "lucky": True}).facts[
        "lock goes on"
    ] == pytest.approx(3 / 4)
    locked = run(locker, "target_lock", [1, 6], unit="0/a", target="1/t", lucky=True)
    assert state(locked, "1/t").counters["target_lock"] == 1
    with pytest.raises(ValueError, match="used its Lucky"):
        run(next_round(locked), "target_lock", [1], unit="0/a", target="1/t", lucky=True)
    steady = attack(start([mech("A")], [mech("T", "stabilised", "lucky")]), [6, 6, 1, 1, 1, 1])
    spend = {"attacker": "0/a", "spend": [{"power": "knock_down"}], "stabilised_lucky": True}
    assert odds(steady, "power", spend).facts["stays standing (Stabilised)"] == pytest.approx(3 / 4)
    stood = run(steady, "power", [3, 4], **spend)
    assert "knocked_down" not in state(stood, "1/t").conditions
    down = run(steady, "power", [3, 2], **spend)
    assert "knocked_down" in state(down, "1/t").conditions


# --- reaction triggers (L1424-1426) ------------------------------------------------------------------


def test_a_reaction_asks_for_its_trigger_from_the_books_list() -> None:
    g = set_fp(start([mech("A")], [mech("T")]), 0, 2)
    reaction = {"attacker": "0/a", "target": "1/t", "reaction": True}
    with pytest.raises(NeedChoice) as asked:
        run(g, "attack", MISS, **reaction)
    assert asked.value.field == "reaction_trigger"
    assert [c.value for c in asked.value.options] == ["attacked", "target_lock", "enemy_moved"]
    out = run(g, "attack", MISS, **reaction, reaction_trigger="target_lock", trigger_off_log=True)
    assert (
        out.log[-1].text
        == "A attacks T with Short: no damage (after a Target Lock, confirmed by the players)"
    )
    assert g.sides[0].resources["focus_points"] - out.sides[0].resources["focus_points"] == 1
    for action, raw in (
        ("evade", {"unit": "0/a", "reaction": True}),
        ("spend_fp", {"unit": "0/a", "use": "reaction_move"}),
    ):
        with pytest.raises(NeedChoice):
            run(g, action, [], **raw)
    moved = run(g, "spend_fp", [], unit="0/a", use="reaction_move", reaction_trigger="enemy_moved")
    assert moved.log[-1].text == "A reacts for 1 FP with a move, after an enemy's move"
    with pytest.raises(ValueError, match="only for an attack made as a reaction"):
        run(g, "attack", MISS, attacker="0/a", target="1/t", reaction_trigger="attacked")


def test_no_reaction_to_movement_in_the_dark_or_to_a_cloaked_unit() -> None:
    """Darkness: no reactions to enemy moves (L2009); Cloaking: none to that unit's moves (L2384)."""
    dark = set_fp(start([mech("A")], [mech("T")], environment="darkness"), 0, 2)
    with pytest.raises(ValueError, match="in the dark nobody may react to an enemy's move"):
        run(dark, "attack", MISS, attacker="0/a", target="1/t", reaction=True, reaction_trigger="enemy_moved")
    assert (
        run(
            dark,
            "attack",
            MISS,
            attacker="0/a",
            target="1/t",
            reaction=True,
            reaction_trigger="attacked",
            trigger_off_log=True,
        )
        .sides[0]
        .resources["focus_points"]
        == 1
    )
    cloaked = set_fp(start([mech("A")], [mech("T", "cloaking")]), 0, 2)
    with pytest.raises(ValueError, match="T has Cloaking"):
        run(
            cloaked,
            "attack",
            MISS,
            attacker="0/a",
            target="1/t",
            reaction=True,
            reaction_trigger="enemy_moved",
        )


# --- Escort convoy vehicles (L1886-1899) ----------------------------------------------------------------


def test_escort_brings_three_convoy_vehicles_to_the_defender() -> None:
    g = start([mech("A")], [mech("X")])
    escort = run(g, "mission", [], mission="escort")
    blue = escort.sides[1].units
    assert [(u.key, u.name) for u in blue] == [
        ("t", "X"),
        ("cv1", "Convoy vehicle 1"),
        ("cv2", "Convoy vehicle 2"),
        ("cv3", "Convoy vehicle 3"),
    ]
    profile = GunframeUnit.model_validate(blue[1].profile)
    assert (profile.speed, profile.defense, profile.armour, profile.skill) == (6, 3, 5, 4)  # L1893-1895
    assert (profile.close, profile.short, profile.medium, profile.long, profile.upgrades) == (0, 0, 0, 0, [])
    assert blue[1].state.max_damage == 5
    assert blue[1].state.extra == {"mission_unit": "convoy"}  # in the game only, never in a squad
    # It activates and reacts like a unit (L1890), but has no weapon to attack with.
    assert run(escort, "activate", [], unit="1/cv1").log[-1].text == "Convoy vehicle 1 activates: two actions"
    with pytest.raises(ValueError, match="no short weapon system"):
        run(escort, "attack", [], attacker="1/cv1", target="0/a")
    # Picking the mission again adds none; undo removes them.
    assert len(run(escort, "mission", [], mission="escort").sides[1].units) == 4
    assert len(undo(escort).sides[1].units) == 1
    assert len(run(g, "mission", [], mission="escort", variant=True).sides[1].units) == 1


def test_escort_scores_the_convoys_wrecks_and_counts_it_for_focus_points() -> None:
    """Attacker 2VP a wreck, defender 2VP in the enemy zone and 1VP another survivor (L1899); the vehicles
    cost nothing for attrition; as units on the table they add Focus Points (L758) unless the option."""
    escort = run(start([mech("A")], [mech("X")]), "mission", [], mission="escort")
    wreck = set_state(hurt(escort, "1/cv2", 5), "1/cv2", "destroyed", True)
    ended = run(wreck.model_copy(update={"round": 5}), "end_phase", [], targets_in_zone=1)
    assert [s.resources["victory_points"] for s in ended.sides] == [2, 2 + 1]
    from core.systems.gunframe.turn import focus_points

    assert focus_points(escort, 1)[0] == 2  # X and three vehicles: ceil(4/2)
    no_fp = escort.model_copy(update={"options": {**escort.options, "convoy_adds_no_fp": True}})
    assert focus_points(no_fp, 1)[0] == 1


# --- a shut-down flyer's fall (L900, L926, L958) ----------------------------------------------------------


def test_a_shut_down_flyer_falls_with_its_full_defense() -> None:
    """A fall is met with an unmodified defense roll (L900); the shut-down halving is for attacks (L958).
    Defense 4: four dice against 8 hits; the option halves them to 2."""
    g = start([mech("A")], [mech("B", "fly", defense=4, armour=12)])
    g = set_state(g, "1/t", "conditions", ["flying", "shut_down"])
    edits = Edits(g)
    assert fall(edits, (1, 0), TypedDice([4, 4, 4, 4])) == "B falls from the sky: 8 hits, 4 damage"
    halved = g.model_copy(update={"options": {**g.options, "fall_defense_halved_when_shut_down": True}})
    edits = Edits(halved)
    assert fall(edits, (1, 0), TypedDice([4, 4])) == "B falls from the sky: 8 hits, 6 damage"


# --- the damage track (issue #15: L1176-1184, L2448, L2706) ---------------------------------------------


@pytest.mark.parametrize(
    ("hits", "damage", "destroyed"),
    [(2, 7, False), (3, 8, True), (4, 8, True)],
)
def test_damage_one_below_at_and_above_the_armour_left(hits: int, damage: int, destroyed: bool) -> None:
    """Armour 8 with 3 left: 2 damage leaves 1; 3 reach 0, destroyed (L1182); 4 are capped at the Armour."""
    g = hurt(start([mech("A", short=4)], [mech("T", defense=0)]), "1/t", 5)
    out = attack(g, [4] * hits + [1] * (4 - hits))
    assert (state(out, "1/t").damage, state(out, "1/t").destroyed) == (damage, destroyed)
    assert out.log[-1].detail["damage"] == hits
    assert chance(g) == pytest.approx(float(p_damage_at_least(4, 0, 3)))


@pytest.mark.parametrize(("left", "crippled"), [(3, False), (2, True), (1, True)])
def test_crippled_threshold_boundaries(left: int, crippled: bool) -> None:
    """Armour 8 is crippled at 2 left (L2706-2708): 3 left is not, 2 and 1 are."""
    g = start([mech("A")], [mech("T", defense=0)], crippled_rules=True)
    out = attack(hurt(g, "1/t", 8 - left - 1), [4, 1, 1])
    assert ("crippled" in state(out, "1/t").conditions) == crippled


@pytest.mark.parametrize(("sixes", "destroyed"), [(1, False), (2, True), (3, True)])
def test_parry_damage_at_the_attackers_armour_destroys_it(sixes: int, destroyed: bool) -> None:
    """Parry: 1 damage per defensive 6 (L2448). The attacker has 2 Armour left: two 6s destroy it, three
    are capped at its Armour."""
    g = hurt(start([mech("A")], [mech("T", ("parry", "close"))]), "0/a", 6)
    out = attack(
        g, [1, 1, 1] + [6] * sixes + [1] * (3 - sixes), weapon="close", defend_with_close=True, parry=True
    )
    a = state(out, "0/a")
    assert (a.damage, a.destroyed) == (min(8, 6 + sixes), destroyed)
    assert out.log[-1].detail["parry_damage"] == sixes


def test_combined_form_must_be_as_big_as_the_largest_member() -> None:
    """Two scouts and a medium combine into at least a medium (L2508-2510)."""
    scout = {**mech("S", "combiner", frame="scout", speed=7, defense=2, armour=4), "close": 2, "short": 2}
    scout.update({"medium": 2, "long": 2})
    medium = mech("M", "combiner")
    members = [("s1", scout), ("s2", {**scout, "name": "S2"}), ("m", medium)]

    def rules(frame: str, values: dict[str, int]) -> set[str]:
        form = {**mech("Giant", frame=frame, **values), "combined_members": 3}
        team = [(k, GunframeUnit.model_validate(p)) for k, p in [*members, ("g", form)]]
        return {v.rule for v in SYSTEM.squad_violations(team, None)}

    light = {"speed": 6, "defense": 2, "armour": 6 + 3, "close": 3, "short": 3, "medium": 2, "long": 2}
    assert "combiner-frame" in rules("light", light)
    assert "combiner-frame" not in rules("medium", {"armour": 8 + 3})
    heavy = {"armour": 10 + 3, "close": 4, "short": 4, "medium": 3, "long": 3}
    assert "combiner-frame" not in rules("heavy", heavy)


def test_lucky_panic_and_jump_charge_rolls() -> None:
    """Lucky rolls a failed panic roll (L2771) or jump charge roll (L940) again (L2330), not on top of
    Inspiring's re-roll of the same die (L2324, L353)."""
    red = [mech("Ann", "lucky"), mech("Bea"), mech("Cat", "inspiring")]
    g = hurt(start(red), "0/b", 7)
    g = run(g, "attack", [4, 4, 4, 1, 1, 1], attacker="1/t", target="0/b")
    assert state(g, "0/b").destroyed
    assert odds(g, "panic", {"unit": "0/a", "fallen": "0/b", "lucky": True}).facts["keeps control"] == 0.75
    kept = run(g, "panic", [2, 4], unit="0/a", fallen="0/b", lucky=True)
    assert kept.log[-1].text == "Ann keeps control after Bea falls (rolled 2, re-rolled 4 (Lucky))"
    assert state(kept, "0/a").extra["used"] == ["lucky"]
    with pytest.raises(ValueError, match="Lucky would add nothing"):
        run(g, "panic", [2, 4], unit="0/a", fallen="0/b", lucky=True, inspiring="0/c")
    jumper = start([mech("Hop", "jump", "lucky", "death_from_above")], [mech("T"), mech("U")])
    jumper = hurt(jumper, "1/t", 6)  # 2 Armour left
    raw = {"unit": "0/a", "target": "1/t", "lucky": True}
    facts = odds(jumper, "jump_charge", raw).facts
    assert facts["pilot roll passes"] == 0.75
    assert facts["target destroyed"] == pytest.approx(3 / 4 * 2 / 3)  # a pass, then a D3 of 2 or 3
    out = run(jumper, "jump_charge", [1, 6, 5], **raw)  # 1 fails, 6 passes, D3 from 5 = 3
    assert out.log[-1].text == (
        "Hop jump charges T and passes its Pilot Skill roll (6 (Lucky: 1 rolled again)): "
        "T takes 3 damage and is destroyed, Hop takes 1 (Death From Above)"
    )
