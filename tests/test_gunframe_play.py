"""GUNFRAME in play: power attacks, Focus Points, the turn and missions, through the real game layer.

Line numbers are in 001_c60598db3e91d492.txt.  Dice are typed (TypedDice) so every roll is the book's.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from gunframe_table import mech, start, state, with_values

from core.dice import NeedMoreDice, TypedDice
from core.game import Game, act, next_round, odds, undo
from core.systems.gunframe import SYSTEM
from core.systems.gunframe.missions import MISSIONS, continues, length_dist
from core.systems.gunframe.options import GunframeOptions
from core.systems.gunframe.state import Edits, fall
from core.systems.gunframe.turn import focus_points, settle


def dice(*faces: int) -> TypedDice:
    return TypedDice(faces)


def attack(g: Game, faces: list[int], weapon: str = "short", **mods: Any) -> Game:
    raw = {"attacker": "0/a", "target": "1/t", "weapon": weapon, **mods}
    typed = TypedDice(faces)
    out = act(g, "attack", raw, typed)
    assert typed.left == 0
    return out


def power(g: Game, *spend: dict[str, Any], faces: tuple[int, ...] = (), **fields: Any) -> Game:
    typed = TypedDice(faces)
    out = act(g, "power", {"attacker": "0/a", "spend": list(spend), **fields}, typed)
    assert typed.left == 0, "every typed face is used"
    return out


# --- power points held after an attack (L1188-1196) -----------------------------------------


def test_owl_bear_keeps_all_three_points() -> None:
    """Five hits with three 6s, four blocked: 1 damage, and all three points can be spent (L1192)."""
    g = start([mech("Owl Bear", close=5, short=5, medium=2, long=0)], [mech("Target", defense=5)])
    g = attack(g, [6, 6, 6, 4, 5, 4, 4, 4, 5, 1], weapon="close")
    held = state(g, "0/a").extra["power"]
    assert held == {
        "points": 3,
        "target": "1/t",
        "weapon": "close",
        "close": True,
        "damage": 1,
        "destroyed": False,
    }
    assert state(g, "1/t").damage == 1


def test_three_points_shut_down_or_recoil_and_knock_down() -> None:
    """Three points buy a Shut Down, or a Recoil and a Knock Down (L1198)."""
    g = attack(start([mech("A")], [mech("B")]), [6, 6, 6, 1, 1, 1])
    shut = power(g, {"power": "shut_down"})
    assert "shut_down" in state(shut, "1/t").conditions
    assert "power" not in state(shut, "0/a").extra
    both = power(g, {"power": "recoil"}, {"power": "knock_down"})
    assert "knocked_down" in state(both, "1/t").conditions
    assert 'move B 3" straight away from the attacker' in both.log[-1].text
    with pytest.raises(ValueError, match="4 points declared"):
        power(g, {"power": "shut_down"}, {"power": "distract"})


def test_power_is_undone_with_the_game_layer() -> None:
    """The power action is one event: undo puts back the target, the held points and the counters."""
    g = attack(start([mech("A", ("target_painting", "short"))], [mech("B")]), [6, 6, 6, 1, 1, 1])
    after = power(
        g, {"power": "distract"}, {"power": "target_painting"}, {"power": "suppression", "points": 1}
    )
    assert state(after, "1/t").conditions == ["distracted"]
    assert state(after, "1/t").counters["target_lock"] == 1
    assert after.state.extra["suppression"] == [{"near": "B", "inches": 1, "round": 1}]
    back = undo(after)
    assert back.sides == g.sides and back.options == g.options
    assert undo(back).sides[0].units[0].state.extra == {}  # before the attack, nothing was held


def test_points_cannot_be_spent_twice_or_without_damage() -> None:
    g = start([mech("A")], [mech("B")])
    with pytest.raises(ValueError, match="holds no power points"):
        power(g, {"power": "distract"})
    spent = power(attack(g, [6, 1, 1, 1, 1, 1]), {"power": "distract"})
    with pytest.raises(ValueError, match="holds no power points"):
        power(spent, {"power": "distract"})
    missed = attack(attack(g, [6, 1, 1, 1, 1, 1]), [1, 1, 1, 1, 1, 1], "medium")
    assert "power" not in state(missed, "0/a").extra  # the next attack's points replace unspent ones
    let_go = power(attack(g, [6, 1, 1, 1, 1, 1]))
    assert let_go.log[-1].text == "A lets 1 power point(s) go"


def test_chain_attack_example() -> None:
    """A hits B for 3 points and chains C, D and E: 2 hits each, bare Defense dice (L1254-1260)."""
    red = [mech("A", ("chain_attack", "short"))]
    blue = [mech("B"), mech("C"), mech("D"), mech("E", defense=2)]
    g = attack(start(red, blue), [6, 6, 6, 1, 1, 1])
    chain = {"power": "chain_attack", "points": 3, "units": ["1/u", "1/v", "1/w"]}
    g = power(g, chain, faces=(4, 1, 1, 1, 1, 1, 4, 4))
    assert [state(g, r).damage for r in ("1/t", "1/u", "1/v", "1/w")] == [3, 1, 2, 0]
    with pytest.raises(ValueError, match="own target"):
        power(attack(start(red, blue), [6, 6, 1, 1, 1, 1]), {**chain, "points": 1, "units": ["1/t"]})
    with pytest.raises(ValueError, match="exactly X"):
        power(attack(start(red, blue), [6, 6, 1, 1, 1, 1]), {**chain, "points": 2, "units": ["1/u"]})
    with pytest.raises(ValueError, match="carry that upgrade"):
        power(attack(start(red, blue), [6, 6, 1, 1, 1, 1], weapon="medium"), {**chain, "points": 1})


def test_close_only_effects_and_reach() -> None:
    """Swing and Throw need a Close attack (L1324, L1344); Reach throws from Short and pulls (L2460)."""
    g = attack(start([mech("A")], [mech("B")]), [6, 6, 6, 1, 1, 1])
    with pytest.raises(ValueError, match="Close"):
        power(g, {"power": "swing"})
    with pytest.raises(ValueError, match="Close"):
        power(g, {"power": "throw"})
    reach = attack(start([mech("A", ("reach", "short"))], [mech("B")]), [6, 6, 6, 1, 1, 1])
    thrown = power(reach, {"power": "throw"})
    assert 'move B 3" in a direction the attacker picks' in thrown.log[-1].text
    assert "knocked_down" in state(thrown, "1/t").conditions
    pulled = power(reach, {"power": "recoil", "pull": True})
    assert 'move B 3" toward the attacker' in pulled.log[-1].text
    close = attack(start([mech("A")], [mech("B")]), [6, 4, 1, 1, 1, 1], weapon="close")
    swung = power(close, {"power": "swing"})
    assert "Swing" in swung.log[-1].text
    followed = power(close, {"power": "recoil"})
    assert "may follow" in followed.log[-1].text


def test_knock_back_distances() -> None:
    """Heavy halves, rounding up (L2402, L357); high gravity halves (L2057), low +1" (L2067), space +2"
    (L2809)."""
    heavy = attack(start([mech("A")], [mech("B", "heavy")]), [6, 6, 6, 1, 1, 1])
    assert 'move B 2"' in power(heavy, {"power": "recoil"}).log[-1].text
    g = attack(start([mech("A")], [mech("B")]), [6, 6, 6, 1, 1, 1])
    expected = {"high_gravity": 2, "low_gravity": 4, "space": 5, "normal": 3}
    for env, inches in expected.items():
        assert f'move B {inches}"' in power(g, {"power": "recoil"}, environment=env).log[-1].text


def test_special_power_attacks_need_their_upgrade() -> None:
    """Special power attacks only with the upgrade (L1194, L1202): on the weapon used, or the pilot's
    Run and Gun (L2344)."""
    g = attack(start([mech("A", ("blast", "medium"))], [mech("B")]), [6, 6, 6, 1, 1, 1])
    for spend in ({"power": "blast", "points": 1}, {"power": "burn"}, {"power": "target_painting"}):
        with pytest.raises(ValueError, match="carry that upgrade"):
            power(g, spend)
    with pytest.raises(ValueError, match="Run and Gun"):
        power(g, {"power": "run_and_gun", "points": 2})
    runner = attack(start([mech("A", "run_and_gun")], [mech("B")]), [6, 6, 6, 1, 1, 1])
    assert 'may move up to 3"' in power(runner, {"power": "run_and_gun", "points": 3}).log[-1].text


def test_immunities() -> None:
    """Co-Pilot is immune to Distract (L2306); Bracketed and infantry to Explode (L2374, L2607); the
    down cannot be recoiled (L1296), nor the shut down distracted (L1270)."""
    g = attack(start([mech("A")], [mech("B", "co_pilot")]), [6, 6, 6, 1, 1, 1])
    with pytest.raises(ValueError, match="Co-Pilot"):
        power(g, {"power": "distract"})
    down = start([mech("A")], [mech("B")])
    down = act(down, "attack", {"attacker": "0/a", "target": "1/t"}, dice(6, 6, 6, 1, 1, 1, 1))
    down = power(down, {"power": "knock_down"})
    again = attack(down, [6, 6, 6, 6, 1, 1, 1], "medium")  # +1D from behind (L950)
    with pytest.raises(ValueError, match="cannot be recoiled"):
        power(again, {"power": "recoil"})
    shut = power(attack(start([mech("A")], [mech("B")]), [6, 6, 6, 1, 1, 1]), {"power": "shut_down"})
    again = attack(shut, [6, 6, 6, 6, 1, 1], "medium")  # +1D shut down (L1088), Defense halved to 2 (L958)
    with pytest.raises(ValueError, match="cannot be distracted"):
        power(again, {"power": "distract"})


def test_explode_needs_a_kill() -> None:
    """Explode only when the attack destroys the target: 1 damage to each unit within X" (L1276-1278)."""
    red = [mech("A"), mech("Friend")]
    blue = [mech("B", armour=2), mech("C"), mech("D", "bracketed")]
    g = attack(start(red, blue), [6, 6, 1, 1, 1, 1])
    assert state(g, "1/t").destroyed
    boom = {"power": "explode", "points": 2, "units": ["1/u", "1/v", "0/b"]}
    out = power(g, boom)
    assert [state(out, r).damage for r in ("1/u", "1/v", "0/b")] == [1, 0, 1]
    assert "immune" in out.log[-1].text
    lenient = g.model_copy(update={"options": {"explode_hits_immune_bystanders": True}})
    assert state(power(lenient, boom), "1/v").damage == 1
    with pytest.raises(ValueError, match="destroyed"):
        power(g, {"power": "knock_down"})
    alive = attack(start(red, [mech("B")]), [6, 6, 6, 1, 1, 1])
    with pytest.raises(ValueError, match="destroyed by this attack"):
        power(alive, boom)
    bracketed = attack(start(red, [mech("B", "bracketed", armour=2)]), [6, 6, 1, 1, 1, 1])
    with pytest.raises(ValueError, match="immune to Explode"):
        power(bracketed, {"power": "explode", "points": 1})


def test_burn_blast_and_their_odds() -> None:
    """Burn: X more hits against bare Defense (L1246), nothing underwater (L2095).  Blast: X hits on each
    unit within 3", with cover as if the target had fired (L1236)."""
    red = [mech("A", ("burn", "short"), ("blast", "medium"))]
    blue = [mech("B", "deflect"), mech("C"), mech("D")]
    g = attack(start(red, blue), [6, 6, 1, 1, 1, 1, 1])  # Deflect adds a die to the attack's defense
    burn = {"power": "burn", "points": 2}
    out = power(g, burn, faces=(4, 1, 1))  # bare Defense 3: no Deflect die
    assert state(out, "1/t").damage == 2 + 1
    table = odds(g, "power", {"attacker": "0/a", "spend": [burn]}).tables["burn"]
    assert [r.exactly for r in table.rows] == ["1/2", "3/8", "1/8"]  # 3 dice against 2 hits
    with pytest.raises(ValueError, match="underwater"):
        power(g, burn, environment="underwater")
    g = attack(start(red, blue), [6, 6, 6, 1, 1, 1, 1], weapon="medium")
    blast = {"power": "blast", "points": 2, "units": ["1/u", "1/v"], "hard_cover": ["1/v"]}
    out = power(g, blast, faces=(1, 1, 1, 4, 4, 1, 1, 1))
    assert [state(out, r).damage for r in ("1/u", "1/v")] == [2, 0]
    p = odds(g, "power", {"attacker": "0/a", "spend": [blast]})
    assert p.tables["blast: D"].rows[0].exactly == "13/16"  # 5 dice against 2 hits: 1 - (1 + 5)/32
    with pytest.raises(ValueError, match="around the target"):
        power(g, {**blast, "units": ["1/t"]})
    hit_all = g.model_copy(update={"options": {"blast_hits_target": True}})
    power(hit_all, {**blast, "units": ["1/t"], "hard_cover": []}, faces=(1, 1, 1))


def test_recoil_distance_counts_an_earlier_burn() -> None:
    """Knock-back is the damage suffered; Burn first adds its damage (digest 11.10), unless the option says
    only the attack's own damage counts."""
    g = attack(start([mech("A", ("burn", "short"))], [mech("B")]), [6, 6, 1, 1, 1, 1])
    out = power(g, {"power": "burn", "points": 1}, {"power": "recoil"}, faces=(1, 1, 1))
    assert 'move B 3"' in out.log[-1].text
    strict = g.model_copy(update={"options": {"knockback_main_damage_only": True}})
    out = power(strict, {"power": "burn", "points": 1}, {"power": "recoil"}, faces=(1, 1, 1))
    assert 'move B 2"' in out.log[-1].text


def test_one_of_each_effect_unless_the_option_allows() -> None:
    """Each effect once per attack (digest 11.9); the option allows repeats."""
    g = attack(start([mech("A")], [mech("B")]), [6, 6, 1, 1, 1, 1])
    with pytest.raises(ValueError, match="once per attack"):
        power(g, {"power": "distract"}, {"power": "distract"})
    loose = g.model_copy(update={"options": {"repeat_power_attacks": True}})
    power(loose, {"power": "distract"}, {"power": "distract"})


def test_stabilised_ablative_and_flyers() -> None:
    """Stabilised resists on a Pilot Skill pass (L2418); Ablative Armour cancels every point once
    (L2366); a flyer knocked down falls 8" (L926, L900)."""
    g = attack(start([mech("A")], [mech("B", "stabilised")]), [6, 6, 1, 1, 1, 1])
    stays = power(g, {"power": "knock_down"}, faces=(4,))
    assert "knocked_down" not in state(stays, "1/t").conditions
    falls = power(g, {"power": "knock_down"}, faces=(3,))
    assert "knocked_down" in state(falls, "1/t").conditions
    chance = odds(g, "power", {"attacker": "0/a", "spend": [{"power": "knock_down"}]})
    assert chance.facts["stays standing (Stabilised)"] == pytest.approx(1 / 2)
    armoured = attack(start([mech("A")], [mech("B", "ablative_armour")]), [6, 6, 6, 1, 1, 1])
    saved = power(armoured, ablative_armour=True)
    assert saved.log[-1].text == "B's Ablative Armour cancels all 3 points"
    assert state(saved, "1/t").extra["used"] == ["ablative_armour"]
    again = attack(saved, [6, 6, 6, 1, 1, 1], "medium")
    with pytest.raises(ValueError, match="used its Ablative Armour"):
        power(again, ablative_armour=True)
    flyer = attack(start([mech("A")], [mech("B", "fly", armour=10)]), [6, 6, 1, 1, 1, 1])
    down = power(flyer, {"power": "knock_down"}, faces=(4, 4, 1))  # 8 hits, 2 saved
    assert state(down, "1/t").damage == 2 + 6 and "flying" not in state(down, "1/t").conditions


def test_fall_example() -> None:
    """Pushed off a ledge, 3" down: 3 hits, met with the unit's Defense dice (L902)."""
    g = start([mech("A")], [mech("B")])
    edits = Edits(g)
    text = fall(edits, (1, 0), TypedDice([4, 1, 1]), inches=3)
    assert text == "B falls from the sky: 3 hits, 2 damage"
    assert edits.get((1, 0), "conditions") == ["knocked_down"]


def test_shut_down_ends_distraction() -> None:
    """A distracted unit that is shut down loses the condition (L1270)."""
    g = attack(start([mech("A")], [mech("B")]), [6, 6, 6, 1, 1, 1])
    g = power(g, {"power": "distract"})
    g = attack(g, [6, 6, 6, 1, 1, 1], "medium")
    g = power(g, {"power": "shut_down"})
    assert state(g, "1/t").conditions == ["shut_down"]


def test_power_input_schema_cites_the_book() -> None:
    schema = SYSTEM.actions["power"].input.model_json_schema()
    assert schema["properties"]["attacker"]["ui"] == "own-unit"
    assert set(schema["$defs"]["PowerBuy"]["properties"]["power"]["enum"]) == {
        "distract",
        "recoil",
        "swing",
        "knock_down",
        "throw",
        "shut_down",
        "explode",
        "suppression",
        "target_painting",
        "blast",
        "burn",
        "chain_attack",
        "run_and_gun",
    }


# --- Focus Points (L692-694, L756-766) ------------------------------------------------------


def test_focus_point_examples() -> None:
    """Five gunframes: 3 FP (L760); seven units, one shut down: 3 FP (L762); four gunframes and six
    conventional units: 2 FP (L766)."""
    g = start([mech(f"G{i}") for i in range(5)], [mech(f"H{i}") for i in range(7)])
    assert focus_points(g, 0)[0] == 3
    shut = g.model_copy(deep=True)
    shut.sides[1].units[0].state.conditions.append("shut_down")
    assert focus_points(shut, 1)[0] == 3
    tank = {"frame": "tank", "speed": 5, "defense": 2, "armour": 3, "close": 0, "short": 3, "medium": 0}
    mixed = start(
        [mech(f"G{i}") for i in range(4)] + [{**tank, "name": f"T{i}", "long": 0} for i in range(6)], []
    )
    assert focus_points(mixed, 0)[0] == 2


def test_heroes_reserves_and_crippled_units() -> None:
    """Hero +1 while on the table and running (L2320); reserves and wrecks do not count; a crippled unit
    does not count (L2727) but a crippled Hero still adds its point (digest 11.18)."""
    g = start([mech("Hero", "hero"), mech("B"), mech("C")], [mech("X")])
    assert focus_points(g, 0)[0] == 2 + 1
    g.sides[0].units[1].state.conditions.append("in_reserve")
    g.sides[0].units[2].state.destroyed = True
    assert focus_points(g, 0)[0] == 1 + 1
    g.sides[0].units[0].state.conditions.append("crippled")
    assert focus_points(g, 0)[0] == 0 + 1
    g.sides[0].units[0].state.conditions.append("shut_down")
    assert focus_points(g, 0)[0] == 0
    angry = start([mech("A", "anger_issues"), mech("B")], [mech("X")])
    angry.sides[0].units[0].state.conditions.append("crippled")
    assert focus_points(angry, 0)[0] == 1
    lenient = angry.model_copy(update={"options": {"crippled_immune_counts_for_fp": True}})
    assert focus_points(lenient, 0)[0] == 1  # ceil(2/2)
    three = start([mech("A", "anger_issues"), mech("B"), mech("C")], [mech("X")])
    three.sides[0].units[0].state.conditions.append("crippled")
    assert focus_points(three, 0)[0] == 1
    assert (
        focus_points(three.model_copy(update={"options": {"crippled_immune_counts_for_fp": True}}), 0)[0] == 2
    )


def test_new_round_resets_the_turn() -> None:
    """A new turn: fresh pools (L740), units ready (L798), per-turn flags and unspent points gone."""
    g = start([mech("A"), mech("B")], [mech("X")])
    g = act(g, "initiative", {}, dice(5, 2))
    assert [s.resources["focus_points"] for s in g.sides] == [1, 1]
    g = act(g, "target_lock", {"unit": "0/a", "target": "1/t"}, dice())
    g = attack(g, [6, 6, 1, 1, 1, 1], reaction=False)
    g = act(
        g,
        "evade",
        {"unit": "1/t", "reaction": True, "reaction_trigger": "attacked", "trigger_off_log": True},
        dice(),
    )
    assert g.sides[1].resources["focus_points"] == 0
    g = next_round(g)
    a, t = state(g, "0/a"), state(g, "1/t")
    assert a.extra == {} and t.extra == {} and not a.activated
    assert [s.resources["focus_points"] for s in g.sides] == [1, 1]
    assert [s.resources["initiative"] for s in g.sides] == [0, 0]
    assert undo(g).sides[1].units[0].state.extra == {"fp_spent": 1, "reacted": True, "evaded": True}


# --- initiative (L700-706) ------------------------------------------------------------------


def test_initiative_bonuses() -> None:
    """Attacker +1 on turn 1 (L1520), Tactician +1 (L2348), one Command Module +1 (L2380)."""
    red = [mech("A", "tactician"), mech("B", "command_module"), mech("C", "command_module")]
    g = act(start(red, [mech("X")]), "initiative", {"attacker_side": 0}, dice(1, 5))
    assert [s.resources["initiative"] for s in g.sides] == [1 + 3, 5]
    assert g.state.extra["initiative_side"] == 1 and g.state.extra["attacker_side"] == 0
    best = start(red, [mech("X")], initiative_best_bonus_only=True)
    best = act(best, "initiative", {"attacker_side": 0}, dice(1, 5))
    assert best.sides[0].resources["initiative"] == 2


def test_initiative_ties() -> None:
    """A tie goes to the side with fewer Focus Points (L704); with equal points both roll again (L706)."""
    g = start([mech("A"), mech("B"), mech("C")], [mech("X")])  # 2 FP against 1 FP
    out = act(g, "initiative", {}, dice(4, 4))
    assert out.state.extra["initiative_side"] == 1
    even = start([mech("A")], [mech("X")])
    with pytest.raises(NeedMoreDice):
        act(even, "initiative", {}, dice(4, 4))
    out = act(even, "initiative", {}, dice(4, 4, 2, 6))
    assert out.state.extra["initiative_side"] == 1 and "roll again" in out.log[-1].text
    assert settle({0: 3, 1: 3, 2: 3}, {0: 2, 1: 1, 2: 1}) == (None, [1, 2])


def test_initiative_odds_are_exact() -> None:
    """Equal sides: even chances.  +1 for one side: it wins 21 of the 31 decided rolls (ties reroll)."""
    g = start([mech("A")], [mech("X")])
    assert odds(g, "initiative", {}).facts["Red wins"] == pytest.approx(0.5)
    assert odds(g, "initiative", {"attacker_side": 0}).facts["Red wins"] == pytest.approx(21 / 31)


def test_well_read_reroll() -> None:
    """Once a battle, the Well Read side rerolls its initiative die and keeps it (L92)."""
    g = act(start([mech("A", "well_read")], [mech("X"), mech("Y")]), "initiative", {}, dice(2, 5))
    assert g.state.extra["initiative_side"] == 1
    g = act(g, "well_read", {"side": 0}, dice(6))
    assert g.state.extra["initiative_side"] == 0 and g.sides[0].resources["initiative"] == 6
    with pytest.raises(ValueError, match="Well Read"):
        act(g, "well_read", {"side": 0}, dice(6))
    with pytest.raises(ValueError, match="Well Read"):
        act(g, "well_read", {"side": 1}, dice(6))


# --- Target Lock, Evade, reactions and Focus Points ---------------------------------------------


def test_target_lock_and_evade() -> None:
    """Lock strips an Evade or places a lock (L1364-1365); Evade sheds a lock or takes an Evade
    (L1391-1392); each once a turn (L1358, L1385)."""
    g = start([mech("A"), mech("B")], [mech("X"), mech("Y", "veteran")])
    g = act(g, "evade", {"unit": "1/t"}, dice())
    assert state(g, "1/t").counters["evade"] == 1
    g = act(g, "target_lock", {"unit": "0/a", "target": "1/t"}, dice())
    assert state(g, "1/t").counters == {"target_lock": 0, "evade": 0}
    g = act(g, "target_lock", {"unit": "0/b", "target": "1/t"}, dice())
    assert state(g, "1/t").counters["target_lock"] == 1
    with pytest.raises(ValueError, match="this turn"):
        act(g, "target_lock", {"unit": "0/a", "target": "1/u"}, dice())
    with pytest.raises(ValueError, match="this turn"):
        act(g, "evade", {"unit": "1/t"}, dice())
    vet = act(
        start([mech("A")], [mech("Y", "veteran")]), "target_lock", {"unit": "0/a", "target": "1/t"}, dice()
    )
    vet = act(vet, "evade", {"unit": "1/t"}, dice())
    assert state(vet, "1/t").counters == {"target_lock": 0, "evade": 1}  # Veteran (L2352)


def test_target_tracking_and_defense_matrix() -> None:
    """Target Tracking locks after stripping (L2424); Defense Matrix needs a Pilot Skill pass (L2386)."""
    g = start([mech("A", "target_tracking")], [mech("X")])
    g = act(g, "evade", {"unit": "1/t"}, dice())
    g = act(g, "target_lock", {"unit": "0/a", "target": "1/t"}, dice())
    assert state(g, "1/t").counters == {"target_lock": 1, "evade": 0}
    matrix = start([mech("A")], [mech("X", "defense_matrix")])
    lost = act(matrix, "target_lock", {"unit": "0/a", "target": "1/t"}, dice(3))
    assert state(lost, "1/t").counters["target_lock"] == 0 and state(lost, "0/a").extra["locked"]
    won = act(matrix, "target_lock", {"unit": "0/a", "target": "1/t"}, dice(4))
    assert state(won, "1/t").counters["target_lock"] == 1
    assert odds(matrix, "target_lock", {"unit": "0/a", "target": "1/t"}).facts["lock goes on"] == 0.5
    ace = start([mech("A", skill=3)], [mech("X", "defense_matrix")])
    assert odds(ace, "target_lock", {"unit": "0/a", "target": "1/t"}).facts["lock goes on"] == pytest.approx(
        2 / 3
    )


def test_reactions_and_the_focus_point_cap() -> None:
    """A reaction costs 1 FP (L1416), only before activating (L1422), once a turn (L3339); one FP a unit a
    turn (L778), more with Ace (L2298); Quick Reflexes is free once (L2338)."""
    g = act(start([mech("A"), mech("B"), mech("C")], [mech("X")]), "initiative", {}, dice(6, 1))
    assert g.sides[0].resources["focus_points"] == 2
    g = act(g, "spend_fp", {"unit": "0/a", "use": "fast_move"}, dice())
    with pytest.raises(ValueError, match="limit is 1"):
        act(
            g,
            "evade",
            {"unit": "0/a", "reaction": True, "reaction_trigger": "attacked", "trigger_off_log": True},
            dice(),
        )
    g = act(
        g,
        "evade",
        {"unit": "0/b", "reaction": True, "reaction_trigger": "attacked", "trigger_off_log": True},
        dice(),
    )
    with pytest.raises(ValueError, match="0 Focus Point"):
        act(g, "spend_fp", {"unit": "0/c", "use": "fast_move"}, dice())
    done = g.model_copy(deep=True)
    done.sides[0].units[2].state.activated = True
    # Quick Reflexes for a unit without it is refused by the shared gate (core.systems.base.needs).
    with pytest.raises(ValueError, match=r"C has no Quick Reflexes \(L2338\)"):
        act(
            done,
            "evade",
            {
                "unit": "0/c",
                "reaction": True,
                "quick_reflexes": True,
                "reaction_trigger": "attacked",
                "trigger_off_log": True,
            },
            dice(),
        )
    with pytest.raises(ValueError, match="already activated"):
        act(
            done,
            "evade",
            {"unit": "0/c", "reaction": True, "reaction_trigger": "attacked", "trigger_off_log": True},
            dice(),
        )
    ace = act(
        start([mech("A", "ace", "quick_reflexes"), mech("B"), mech("C")], [mech("X")]),
        "initiative",
        {},
        dice(6, 1),
    )
    ace = act(ace, "spend_fp", {"unit": "0/a", "use": "fast_move"}, dice())
    ace = act(ace, "attack", {"attacker": "0/a", "target": "1/t", "rapid_fire": True}, dice(1, 1, 1, 1, 1, 1))
    assert ace.sides[0].resources["focus_points"] == 0 and state(ace, "0/a").extra["fp_spent"] == 2
    free = act(
        ace,
        "evade",
        {
            "unit": "0/a",
            "reaction": True,
            "quick_reflexes": True,
            "reaction_trigger": "attacked",
            "trigger_off_log": True,
        },
        dice(),
    )
    with pytest.raises(ValueError, match="already reacted"):
        act(
            free,
            "attack",
            {
                "attacker": "0/a",
                "target": "1/t",
                "reaction": True,
                "reaction_trigger": "attacked",
                "trigger_off_log": True,
            },
            dice(1, 1, 1, 1, 1, 1),
        )
    again = free.model_copy(update={"options": {"react_more_than_once": True}})
    with pytest.raises(ValueError, match="Quick Reflexes already"):
        act(
            again,
            "attack",
            {
                "attacker": "0/a",
                "target": "1/t",
                "reaction": True,
                "quick_reflexes": True,
                "reaction_trigger": "attacked",
                "trigger_off_log": True,
            },
            dice(),
        )


def test_free_uses_and_combining() -> None:
    """Rapid Reload fires again for free (L2458); Fast moves for free (L2392); combining is outside the
    cap (L2537); Stealth takes the Darkness evade free (L2009)."""
    g = act(
        start([mech("A", ("rapid_reload", "short"), "fast"), mech("B")], [mech("X")]),
        "initiative",
        {},
        dice(6, 1),
    )
    g = act(g, "attack", {"attacker": "0/a", "target": "1/t", "rapid_fire": True}, dice(1, 1, 1, 1, 1, 1))
    assert g.sides[0].resources["focus_points"] == 1
    with pytest.raises(ValueError, match="Fast"):
        act(g, "spend_fp", {"unit": "0/a", "use": "fast_move"}, dice())
    with pytest.raises(ValueError, match="combining"):
        act(g, "spend_fp", {"unit": "0/a", "points": 2}, dice())
    combined = g.model_copy(deep=True)
    combined.sides[0].resources["focus_points"] = 3
    combined = act(combined, "spend_fp", {"unit": "0/a", "use": "combine", "points": 2}, dice())
    assert combined.sides[0].resources["focus_points"] == 1 and "fp_spent" not in state(combined, "0/a").extra
    sneaky = act(
        start([mech("A", "stealth")], [mech("X")]), "evade", {"unit": "0/a", "darkness": True}, dice()
    )
    assert state(sneaky, "0/a").counters["evade"] == 1 and "evaded" not in state(sneaky, "0/a").extra


def test_down_units_cannot_lock_or_evade() -> None:
    """A knocked-down unit stands up first (L952); a shut-down one only reboots (L956)."""
    g = start([mech("A")], [mech("X")])
    g.sides[0].units[0].state.conditions.append("knocked_down")
    with pytest.raises(ValueError, match="stand up"):
        act(g, "target_lock", {"unit": "0/a", "target": "1/t"}, dice())
    g.sides[0].units[0].state.conditions = ["shut_down"]
    with pytest.raises(ValueError, match="reboot"):
        act(g, "evade", {"unit": "0/a"}, dice())


def test_reboot() -> None:
    """Two special actions in a row, across turns if need be (L960); one with Rapid Reboot (L2406)."""
    g = start([mech("A"), mech("R", "rapid_reboot")], [mech("X")])
    for u in g.sides[0].units:
        u.state.conditions.append("shut_down")
    g = act(g, "reboot", {"unit": "0/a"}, dice())
    assert "shut_down" in state(g, "0/a").conditions and state(g, "0/a").extra["reboot"] == 1
    g = next_round(g)
    assert state(g, "0/a").extra["reboot"] == 1  # kept into the next turn
    g = act(g, "reboot", {"unit": "0/a"}, dice())
    assert state(g, "0/a").conditions == []
    g = act(g, "reboot", {"unit": "0/b"}, dice())
    assert state(g, "0/b").conditions == []
    with pytest.raises(ValueError, match="not shut down"):
        act(g, "reboot", {"unit": "0/b"}, dice())


# --- missions and the End phase -------------------------------------------------------------


def test_random_game_length_table() -> None:
    """From turn 4's End phase: another turn on 4+, then 5+, then 6; always over after turn 7
    (L1604-1610).  The exact odds come from the dice engine."""
    assert [[continues(t, f) for f in range(1, 7)].count(True) for t in (4, 5, 6, 7)] == [3, 2, 1, 0]
    dist = length_dist()
    assert {t: p for t, p in dist.probabilities()} == {
        4: Fraction(1, 2),
        5: Fraction(1, 3),
        6: Fraction(5, 36),
        7: Fraction(1, 36),
    }
    counted: dict[int, int] = {}
    for faces in itertools.product(range(1, 7), repeat=3):
        turn = 4
        for face in faces:
            if not continues(turn, face):
                break
            turn += 1
        counted[turn] = counted.get(turn, 0) + 1
    assert {t: Fraction(n, 216) for t, n in counted.items()} == dict(dist.probabilities())
    assert dict(length_dist(6).probabilities()) == {6: Fraction(5, 6), 7: Fraction(1, 6)}


def at_turn(g: Game, turn: int) -> Game:
    return g.model_copy(update={"round": turn})


def test_end_phase_game_length() -> None:
    """Take and Hold has a random length (L1782); the roll comes at the End phase of turn 4 on."""
    g = act(start([mech("A")], [mech("X")]), "mission", {"mission": "take_and_hold"}, dice())
    for turn in (4, 5, 6):
        for face in range(1, 7):
            out = act(at_turn(g, turn), "end_phase", {}, dice(face))
            assert bool(out.state.ended) == (face < turn)
    assert act(at_turn(g, 7), "end_phase", {}, dice()).state.ended
    assert not act(at_turn(g, 3), "end_phase", {}, dice()).state.ended
    p = odds(at_turn(g, 5), "end_phase", {})
    assert p.facts["another turn"] == pytest.approx(1 / 3)
    fixed = act(start([mech("A")], [mech("X")]), "mission", {"mission": "carnage"}, dice())
    assert not act(at_turn(fixed, 4), "end_phase", {}, dice()).state.ended
    assert act(at_turn(fixed, 5), "end_phase", {}, dice()).state.ended  # five turns (L1600)


def test_take_and_hold_scores_the_turn_number() -> None:
    """The holder scores the turn number: 1VP in turn 1, 2VP in turn 2... (L1786)."""
    g = act(start([mech("A")], [mech("X")]), "mission", {"mission": "take_and_hold"}, dice())
    g = act(g, "end_phase", {"held": [1, 0]}, dice())
    g = next_round(g)
    g = act(g, "end_phase", {"held": [1, 0]}, dice())
    g = next_round(g)
    g = act(g, "end_phase", {"held": [0, 1]}, dice())
    assert [s.resources["victory_points"] for s in g.sides] == [3, 3]


def test_objective_missions() -> None:
    """Carnage 1VP an objective (L1679); Engagement 1VP own and 2VP enemy (L1713); Loot 1VP a counter at
    the HQ, nothing while the HQ is lost (L1764-1766)."""
    g = start([mech("A")], [mech("X")])
    carnage = act(act(g, "mission", {"mission": "carnage"}, dice()), "end_phase", {"held": [2, 1]}, dice())
    assert [s.resources["victory_points"] for s in carnage.sides] == [2, 1]
    eng = act(g, "mission", {"mission": "engagement"}, dice())
    eng = act(eng, "end_phase", {"held": [1, 2], "held_enemy": [1, 0]}, dice())
    assert [s.resources["victory_points"] for s in eng.sides] == [3, 2]
    loot = act(g, "mission", {"mission": "loot"}, dice())
    loot = act(loot, "end_phase", {"loot_at_hq": [2, 3], "hq_lost": [False, True]}, dice())
    assert [s.resources["victory_points"] for s in loot.sides] == [2, 0]


def test_end_phase_discards_focus_points_and_suppression() -> None:
    """Unused Focus Points are discarded (L740); suppression tokens come off (L1318)."""
    g = act(start([mech("A")], [mech("X")]), "mission", {"mission": "carnage"}, dice())
    g = act(g, "initiative", {}, dice(6, 1))
    g = power(attack(g, [6, 1, 1, 1, 1, 1]), {"power": "suppression", "points": 1})
    assert g.state.extra["suppression"]
    g = act(g, "end_phase", {}, dice())
    assert g.state.extra["suppression"] == [] and [s.resources["focus_points"] for s in g.sides] == [0, 0]


def test_game_end_attrition_and_winner() -> None:
    """At the end, surviving points on the table score attrition: +1 more, +2 double, +3 triple
    (L1628-1633); most VP wins (L1637)."""
    g = act(start([mech("A"), mech("B"), mech("C")], [mech("X")]), "mission", {"mission": "carnage"}, dice())
    out = act(at_turn(g, 5), "end_phase", {"held": [0, 2]}, dice())
    assert [s.resources["victory_points"] for s in out.sides] == [3, 2]
    assert out.state.extra["result"].startswith("Red wins")
    even = act(start([mech("A"), mech("B")], [mech("X")]), "mission", {"mission": "carnage"}, dice())
    assert act(at_turn(even, 5), "end_phase", {}, dice()).sides[0].resources["victory_points"] == 2
    with pytest.raises(ValueError, match="over"):
        act(out, "end_phase", {}, dice())


def test_a_game_without_a_mission_lasts_five_turns() -> None:
    """Five turns unless a mission says otherwise (L1600); attrition still decides (L1628-1637)."""
    g = start([mech("A"), mech("B")], [mech("X")])
    assert not act(at_turn(g, 4), "end_phase", {"held": [3, 0]}, dice()).state.ended
    out = act(at_turn(g, 5), "end_phase", {}, dice())
    assert out.state.extra["result"] == "Red wins: turn 5 was the last (L1600)"


def test_sudden_death() -> None:
    """A side with nothing left alive and running ends the game in the End phase (L1614)."""
    g = act(start([mech("A")], [mech("X")]), "mission", {"mission": "domination"}, dice())
    g.sides[1].units[0].state.conditions.append("shut_down")
    out = act(g, "end_phase", {}, dice())
    assert out.state.ended and "sudden death" in out.state.extra["result"]
    assert out.sides[0].resources["victory_points"] == 3  # +3 attrition against nothing (digest 11.35)


def test_advanced_missions() -> None:
    """Breakthrough: the attacker wins on an objective (L1843); Escort 2VP a wreck, 2VP/1VP a survivor
    (L1899); Raid 1VP each way (L1929); Bunker Assault 2VP, 2VP/1VP (L1949); Doomsday clock (L1863)."""
    g = start([mech("A")], [mech("X")])
    brk = act(g, "mission", {"mission": "breakthrough", "attacker_side": 1}, dice())
    won = act(brk, "end_phase", {"held": [0, 1]}, dice())
    assert won.state.extra["result"].startswith("Blue wins")
    held_off = act(at_turn(brk, 5), "end_phase", {}, dice())
    assert held_off.state.extra["result"].startswith("Red wins")
    escort = act(g, "mission", {"mission": "escort"}, dice())
    escort.sides[1].units[1].state.destroyed = True  # one of the three convoy vehicles the mission adds
    out = act(at_turn(escort, 5), "end_phase", {"targets_destroyed": 1, "targets_in_zone": 1}, dice())
    assert [s.resources["victory_points"] for s in out.sides] == [2, 3]
    loose = escort.model_copy(update={"options": {**escort.options, "escort_destroyed_score": True}})
    out = act(at_turn(loose, 5), "end_phase", {"targets_destroyed": 1, "targets_in_zone": 1}, dice())
    assert out.sides[1].resources["victory_points"] == 4
    raid = act(g, "mission", {"mission": "raid"}, dice())
    out = act(at_turn(raid, 7), "end_phase", {"targets_destroyed": 4}, dice())
    assert [s.resources["victory_points"] for s in out.sides] == [4, 2]
    bunker = act(g, "mission", {"mission": "raid", "variant": True}, dice())
    out = act(at_turn(bunker, 7), "end_phase", {"targets_destroyed": 1, "targets_battered": 1}, dice())
    assert [s.resources["victory_points"] for s in out.sides] == [2, 3]
    doom = act(g, "mission", {"mission": "doomsday"}, dice())
    doom = act(doom, "initiative", {}, dice(6, 6, 1))  # clock +3, then the roll
    assert doom.state.clocks["doomsday_clock"] == 3
    assert not act(at_turn(doom, 9), "end_phase", {}, dice()).state.ended  # no turn limit
    off = act(doom, "end_phase", {"device_off": True}, dice())
    assert off.state.extra["result"].startswith("Red wins")
    love = act(g, "mission", {"mission": "remember_love", "basic": "take_and_hold"}, dice())
    out = act(at_turn(love, 7), "end_phase", {"targets_destroyed": 2}, dice())
    assert out.sides[0].resources["victory_points"] == 4


def test_mission_roll_and_data() -> None:
    """Six basic and six advanced missions, each on its D6 face (L1647-1653, L1796-1802)."""
    assert sorted((m.kind, m.roll) for m in MISSIONS.values()) == sorted(
        [(k, r) for k in ("basic", "advanced") for r in range(1, 7)]
    )
    assert {m.id for m in MISSIONS.values() if m.random_length} == {
        "investigate",
        "take_and_hold",
        "ambush",
        "raid",
    }
    g = act(start([mech("A")], [mech("X")]), "mission", {"roll_table": "advanced"}, dice(3))
    assert g.state.mission == "doomsday"
    with pytest.raises(ValueError, match="no variant"):
        act(g, "mission", {"mission": "carnage", "variant": True}, dice())
    assert GunframeOptions().model_dump() == dict.fromkeys(GunframeOptions.model_fields, False)


def test_doomsday_deactivation() -> None:
    """Beat the clock on a D6, +1 Mechanic or Tactician, -1 per engaged defender; a failed 1 adds to the
    clock; 2D6 with both actions, two 1s set it off (L1865-1872; the bonus once on the sum, digest 11.34)."""
    red = [mech("A"), mech("M", "mechanic")]
    g = act(start(red, [mech("X")]), "mission", {"mission": "doomsday"}, dice())
    g = with_values(g, clock=4)
    assert act(g, "deactivate", {"unit": "0/a"}, dice(5)).state.extra["result"].startswith("Red wins")
    assert act(g, "deactivate", {"unit": "0/a"}, dice(4)).state.ended is False
    assert act(g, "deactivate", {"unit": "0/b"}, dice(4)).state.ended
    assert not act(g, "deactivate", {"unit": "0/b", "engaged": 1}, dice(4)).state.ended
    assert act(g, "deactivate", {"unit": "0/a"}, dice(1)).state.clocks["doomsday_clock"] == 5
    assert (
        act(g, "deactivate", {"unit": "0/a", "both_actions": True}, dice(1, 1))
        .state.extra["result"]
        .startswith("Blue wins")
    )
    assert act(g, "deactivate", {"unit": "0/a", "both_actions": True}, dice(2, 3)).state.ended
    one = odds(g, "deactivate", {"unit": "0/a"}).facts
    assert one == pytest.approx({"off": 2 / 6, "fail": 3 / 6, "tick": 1 / 6})
    two = odds(g, "deactivate", {"unit": "0/a", "both_actions": True}).facts
    assert two == pytest.approx({"boom": 1 / 36, "fail": 5 / 36, "off": 30 / 36})  # sums 3, 4 fail
    with pytest.raises(ValueError, match="attacker"):
        act(g, "deactivate", {"unit": "1/t"}, dice(6))


def test_investigate_points_of_interest() -> None:
    """1-2 nothing, 3-5 intel, 6 the prize (L1730-1739); the last counter is the prize (L1742)."""
    g = act(start([mech("A")], [mech("X")]), "mission", {"mission": "investigate"}, dice())
    assert "finds nothing" in act(g, "investigate", {"unit": "0/a"}, dice(2)).log[-1].text
    assert "intel" in act(g, "investigate", {"unit": "0/a"}, dice(5)).log[-1].text
    found = act(g, "investigate", {"unit": "0/a"}, dice(6))
    assert "other 5 point(s) of interest become objectives" in found.log[-1].text
    with pytest.raises(ValueError, match="no point of interest"):
        act(found, "investigate", {"unit": "1/t"}, dice(3))
    last = with_values(g, interest_left=1)
    assert "the last one left" in act(last, "investigate", {"unit": "0/a"}, dice()).log[-1].text
    trapped = act(g, "mission", {"mission": "investigate", "variant": True}, dice())
    assert 'within 4"' in act(trapped, "investigate", {"unit": "0/a"}, dice(1, 4)).log[-1].text


def test_leader() -> None:
    """Leader (N): Evade counters on up to N friendly units (L2326)."""
    g = start([mech("L"), mech("B"), mech("C")], [mech("X")])
    g.sides[0].units[0].profile["upgrades"] = [{"id": "leader", "slot": None, "n": 2}]
    g = act(g, "leader", {"unit": "0/a", "units": ["0/b", "0/c"]}, dice())
    assert [state(g, r).counters["evade"] for r in ("0/a", "0/b", "0/c")] == [0, 1, 1]
    with pytest.raises(ValueError, match="at most 2"):
        act(g, "leader", {"unit": "0/a", "units": ["0/b", "0/c", "0/a"]}, dice())
    with pytest.raises(ValueError, match="friendly"):
        act(g, "leader", {"unit": "0/a", "units": ["1/t"]}, dice())
    with pytest.raises(ValueError, match="no Leader"):
        act(g, "leader", {"unit": "0/b", "units": []}, dice())


def test_reserves_example() -> None:
    """Three in reserve, two called: each rolls Pilot Skill; one arrives, one stays, the third was never
    called (L1552).  HALO scatters D6", D3" with the HALO upgrade (L1560, L2398)."""
    g = start([mech("A"), mech("B"), mech("C", "jump"), mech("D", "halo")], [mech("X")])
    for u in g.sides[0].units:
        u.state.conditions.append("in_reserve")
    out = act(g, "reserves", {"units": ["0/a", "0/b"]}, dice(5, 2))
    assert [state(out, r).conditions for r in ("0/a", "0/b", "0/c")] == [[], ["in_reserve"], ["in_reserve"]]
    assert odds(g, "reserves", {"units": ["0/a", "0/b"]}).tables["arrive"].rows[2].exactly == "1/4"
    drop = act(g, "reserves", {"units": ["0/c", "0/d"], "halo": ["0/c", "0/d"]}, dice(4, 5, 6, 5))
    assert 'scatters it 5"' in drop.log[-1].text and 'scatters it 3"' in drop.log[-1].text
    with pytest.raises(ValueError, match="Jump, HALO or Reckless"):
        act(g, "reserves", {"units": ["0/a"], "halo": ["0/a"]}, dice(6))
    with pytest.raises(ValueError, match="ambush"):
        act(g, "reserves", {"units": ["0/a"], "ambush": True}, dice(6))
    carnage = act(g, "mission", {"mission": "carnage"}, dice())
    with pytest.raises(ValueError, match="without reserves"):
        act(carnage, "reserves", {"units": ["0/a"]}, dice(6))


def test_ambush() -> None:
    """An ambusher placed during the turn takes one action on a pass, none on a fail (L1570)."""
    g = start([mech("A", "stealth")], [mech("X")])
    g.sides[0].units[0].state.conditions.append("in_reserve")
    failed = act(g, "reserves", {"units": ["0/a"], "ambush": True}, dice(2))
    assert state(failed, "0/a").conditions == [] and state(failed, "0/a").activated
    assert "no action" in failed.log[-1].text
    sprung = act(g, "reserves", {"units": ["0/a"], "ambush": True}, dice(4))
    assert "one action" in sprung.log[-1].text
    investigate = act(g, "mission", {"mission": "investigate"}, dice())
    with pytest.raises(ValueError, match="nobody may ambush"):
        act(investigate, "reserves", {"units": ["0/a"], "ambush": True}, dice(4))


def test_activation_uses_up_a_distraction() -> None:
    """Each unit activates once a turn (L798); a distracted one has a single action, then recovers (L1268)."""
    g = power(attack(start([mech("A")], [mech("B")]), [6, 4, 1, 1, 1, 1]), {"power": "distract"})
    g = act(g, "activate", {"unit": "1/t"}, dice())
    assert g.log[-1].text == "B activates: a single action (distracted)"
    assert state(g, "1/t").activated and state(g, "1/t").conditions == []
    with pytest.raises(ValueError, match="already activated"):
        act(g, "activate", {"unit": "1/t"}, dice())
    g = next_round(g)
    assert act(g, "activate", {"unit": "1/t"}, dice()).log[-1].text == "B activates: two actions"


def test_every_action_is_registered_and_cites_the_book() -> None:
    names = {"mission", "initiative", "well_read", "target_lock", "evade", "attack", "power", "reboot"}
    names |= {"activate", "leader", "spend_fp", "investigate", "deactivate", "reserves", "end_phase"}
    names |= {"mechanic", "repair_systems", "spiteful", "transform"}
    names |= {"lovers", "wingman_move", "nemesis", "panic"}
    names |= {"jump_charge", "combine", "split"}
    names |= {"environment", "hull_breach", "place_structure", "occupy", "terrifying", "fall"}
    assert names == set(SYSTEM.actions)
    for spec in SYSTEM.actions.values():
        assert "(L" in spec.help
