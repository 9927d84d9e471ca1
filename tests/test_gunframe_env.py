"""GUNFRAME environments (L1985-2097) and space battles (L2796-2882) through the real game layer.

Line numbers are in 001_c60598db3e91d492.txt.  Dice are typed, so every roll is known.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from gunframe_table import environment, mech, run, set_fp, set_state, start, state

from core.dice import TypedDice
from core.game import Game, next_round, odds, undo
from core.systems.gunframe import ENVIRONMENTS
from core.systems.gunframe.environment import EnvironmentInput, environment_odds, resolve_environment
from core.systems.gunframe.state import Edits, fall


def attack(g: Game, faces: list[int], weapon: str = "short", **mods: Any) -> Game:
    return run(g, "attack", faces, **{"attacker": "0/a", "target": "1/t", "weapon": weapon, **mods})


def power(g: Game, faces: list[int], *spend: dict[str, Any], **fields: Any) -> Game:
    return run(g, "power", faces, attacker="0/a", spend=list(spend), **fields)


# --- the table (L1985-1997) ---------------------------------------------------------------------------


def test_the_table_and_its_sub_rolls_are_data() -> None:
    """Six entries on the D6, storm and gravity rolled again (L1989-1997); every entry cites its lines."""
    on_table = sorted((e.roll, e.id) for e in ENVIRONMENTS.values() if e.roll)
    assert on_table == [
        (1, "bombardment"),
        (2, "darkness"),
        (3, "storm"),
        (4, "high_gravity"),
        (4, "low_gravity"),
        (5, "space_structure"),
        (6, "underwater"),
    ]
    assert all(e.ref.startswith("L") and e.summary for e in ENVIRONMENTS.values())


def test_rolling_the_environment_with_its_sub_rolls() -> None:
    """A 4 is gravity: 1-3 high, 4-6 low (L1995); a 3 is a storm: 5-6 lightning (L1993)."""
    g = start([mech("A")])
    high = run(g, "environment", [4, 2])
    assert high.state.environment == "high_gravity"
    assert high.log[-1].text.startswith("Environment: rolled 4: High gravity (sub-roll 2).")
    low = run(g, "environment", [4, 4])
    assert low.state.environment == "low_gravity"
    storm = run(g, "environment", [3, 5])
    assert (storm.state.environment, storm.state.extra["storm_type"]) == ("storm", "lightning")
    calm = run(g, "environment", [3], storm_type="none")
    assert calm.state.extra["storm_type"] == "none"
    assert run(g, "environment", [6]).state.environment == "underwater"
    assert "environment" not in undo(high).options  # one undoable event


def test_environment_odds_match_every_roll() -> None:
    """The odds come from the same reading as the roll: every pair of faces, resolved one by one."""
    g = start([mech("A")])
    inp = EnvironmentInput()
    counts: Counter[str] = Counter()
    for faces in itertools.product(range(1, 7), repeat=2):
        typed = TypedDice(faces)
        detail = resolve_environment(g, inp, typed).detail
        name = ENVIRONMENTS[detail["environment"]].name
        storm = detail["storm_type"]
        counts[f"{name} ({storm})" if storm else name] += 1
    exact = {k: Fraction(v, 36) for k, v in counts.items()}
    facts = environment_odds(g, inp).facts
    assert facts == {k: float(p) for k, p in exact.items()}
    assert facts["High gravity"] == pytest.approx(1 / 12) and facts["Storm (snow)"] == pytest.approx(1 / 18)


# --- gravity (L2049-2069) ---------------------------------------------------------------------------------


def test_high_gravity_fast_and_jump_cost_a_focus_point() -> None:
    """Only Fast units move fast, and they pay (L2053-2055); Jump units pay to jump (L2055)."""
    g = set_fp(environment(start([mech("A"), mech("F", "fast"), mech("J", "jump")]), "high_gravity"), 0, 5)
    with pytest.raises(ValueError, match="only units with Fast"):
        run(g, "spend_fp", [], unit="0/a", use="fast_move")
    g = run(g, "spend_fp", [], unit="0/b", use="fast_move")
    assert g.sides[0].resources["focus_points"] == 4
    with pytest.raises(ValueError, match="no Jump"):
        run(g, "spend_fp", [], unit="0/a", use="jump")
    g = run(g, "spend_fp", [], unit="0/c", use="jump")
    assert g.sides[0].resources["focus_points"] == 3
    with pytest.raises(ValueError, match="limit is 1"):  # the jump charge's FP counts on the unit too
        run(g, "jump_charge", [4], unit="0/c", target="1/t")
    charge = run(set_fp(next_round(g), 0, 5), "jump_charge", [4], unit="0/c", target="1/t")
    assert charge.sides[0].resources["focus_points"] == 4


def test_without_a_recorded_environment_the_old_rules_stand() -> None:
    """No environment recorded: Fast moves free (L2392) and a jump's FP is the players' call."""
    g = set_fp(start([mech("A"), mech("F", "fast")]), 0, 3)
    with pytest.raises(ValueError, match="costs it nothing"):
        run(g, "spend_fp", [], unit="0/b", use="fast_move")
    run(g, "spend_fp", [], unit="0/a", use="jump")
    with pytest.raises(ValueError, match="only in high or low gravity"):
        run(environment(g, "underwater"), "spend_fp", [], unit="0/a", use="jump")


def test_low_gravity_jump_for_units_without_jump() -> None:
    """Any unit without Jump may jump for 1 FP (L2069), a jump charge too (L940)."""
    g = set_fp(environment(start([mech("A"), mech("J", "jump")]), "low_gravity"), 0, 2)
    g = run(g, "spend_fp", [], unit="0/a", use="jump")
    assert g.sides[0].resources["focus_points"] == 1
    with pytest.raises(ValueError, match="only units without it"):
        run(g, "spend_fp", [], unit="0/b", use="jump")
    charge = run(g, "jump_charge", [4], unit="0/b", target="1/t")  # Jump: free in low gravity
    assert charge.sides[0].resources["focus_points"] == 1 and state(charge, "1/t").damage == 1
    fresh = set_fp(environment(start([mech("A")]), "low_gravity"), 0, 1)
    hop = run(fresh, "jump_charge", [5], unit="0/a", target="1/t")
    assert hop.sides[0].resources["focus_points"] == 0
    with pytest.raises(ValueError, match="no Jump"):
        run(set_fp(start([mech("A")]), 0, 1), "jump_charge", [5], unit="0/a", target="1/t")


def test_knock_back_follows_the_games_environment() -> None:
    """Recoil after 3 damage: high gravity halves to 2" (L2057), low gravity 4" (L2067), space 5" (L2809);
    an explicit input still wins."""
    for env, inches in {"high_gravity": 2, "low_gravity": 4, "space": 5, "bombardment": 3}.items():
        g = attack(environment(start([mech("A")], [mech("B")]), env), [6, 6, 6, 1, 1, 1])
        assert f'move B {inches}"' in power(g, [], {"power": "recoil"}).log[-1].text
        assert 'move B 3"' in power(g, [], {"power": "recoil"}, environment="normal").log[-1].text


def test_falling_in_odd_gravity_and_in_space() -> None:
    """A 3" fall is 3 hits (L900); 6 in high gravity (L2059), 2 in low (L2065), none in space (L2808)."""
    for env, hits, faces in (("high_gravity", 6, [4, 4, 4]), ("low_gravity", 2, [4, 1, 1])):
        g = environment(start([mech("A")], [mech("B")]), env)
        edits = Edits(g)
        text = fall(edits, (1, 0), TypedDice(faces), inches=3)
        assert text.startswith(f"B falls from the sky: {hits} hits")
    space = environment(start([mech("A")], [mech("B")]), "space")
    edits = Edits(space)
    assert "unharmed" in fall(edits, (1, 0), TypedDice([]), inches=8)
    assert edits.get((1, 0), "damage") == 0


# --- darkness (L2005-2019) --------------------------------------------------------------------------------


def test_darkness_evade_only_while_it_is_dark() -> None:
    """The free evade is for the dark (L2009); Sunrise ends it on a 4+ in an End phase (L2013)."""
    g = set_fp(
        environment(start([mech("A"), mech("S", "stealth")]), "darkness", darkness_variant="sunrise"), 0, 2
    )
    g = run(g, "evade", [], unit="0/a", darkness=True)
    assert g.sides[0].resources["focus_points"] == 1 and state(g, "0/a").counters["evade"] == 1
    g = run(g, "evade", [], unit="0/b", darkness=True)
    assert g.sides[0].resources["focus_points"] == 1  # Stealth: free
    still = run(g, "end_phase", [3])
    assert not still.state.extra["dark_over"] and "still dark" in still.log[-1].text
    dawn = run(g, "end_phase", [4])
    assert dawn.state.extra["dark_over"]
    with pytest.raises(ValueError, match="darkness"):
        run(next_round(dawn), "evade", [], unit="0/b", darkness=True)
    with pytest.raises(ValueError, match="darkness"):
        run(environment(start([mech("S", "stealth")]), "underwater"), "evade", [], unit="0/a", darkness=True)
    assert odds(g, "end_phase", {}).facts["the sun comes up"] == 0.5


def test_nightfall_is_not_dark_on_turn_one() -> None:
    g = environment(start([mech("S", "stealth")]), "darkness", darkness_variant="nightfall")
    with pytest.raises(ValueError, match="darkness"):
        run(g, "evade", [], unit="0/a", darkness=True)
    run(g.model_copy(update={"round": 2}), "evade", [], unit="0/a", darkness=True)


# --- storms (L2021-2047) ----------------------------------------------------------------------------------


def test_storm_obscures_medium_and_long_targets() -> None:
    """Targets at Medium or Long are obscured (L2025): +1 defense die; not at Short."""
    g = environment(start([mech("A")], [mech("T")]), "storm", storm_type="none")
    medium = attack(g, [1, 1, 1, 1, 1, 1, 1], weapon="medium")
    assert medium.log[-1].detail["defense_pool"]["dice"] == 4
    assert "obscured +1 (storm)" in medium.log[-1].detail["defense_pool"]["from"]
    short = attack(g, [1, 1, 1, 1, 1, 1])
    assert short.log[-1].detail["defense_pool"]["dice"] == 3
    eagle = start([mech("A", "eagle_eyes")], [mech("T")])
    assert (
        attack(environment(eagle, "storm", storm_type="none"), [1] * 6, weapon="long")
        .log[-1]
        .detail["defense_pool"]["dice"]
        == 3
    )


def test_the_eye_of_the_storm() -> None:
    """Matching initiative dice before bonuses still the storm, the next match starts it (L2027)."""
    g = environment(start([mech("A")], [mech("T")]), "storm", storm_type="none", eye_of_the_storm=True)
    g = run(g, "initiative", [3, 3, 5, 2])  # level on FP too: a second roll decides
    assert g.state.extra["storm_calm"] and "dies down" in g.log[-1].text
    assert attack(g, [1] * 6, weapon="medium").log[-1].detail["defense_pool"]["dice"] == 3
    g = run(next_round(g), "initiative", [4, 6])
    assert g.state.extra["storm_calm"]
    g = run(next_round(g), "initiative", [2, 2, 1, 6])
    assert not g.state.extra["storm_calm"]


def test_lightning_strikes_fliers_and_wipes_counters() -> None:
    """Units on water, high ground or flying lose 1 (L2047), not Environment Enhancement ones (L2390);
    each Target Lock and Evade counter goes on a 4+."""
    flyer = mech("F", "fly")
    g = environment(start([mech("A"), flyer, mech("E", "environment_enhancement")]), "storm", [6])
    assert g.state.extra["storm_type"] == "lightning"
    g = set_state(g, "1/t", "counters", {"target_lock": 1, "evade": 1})
    out = run(g, "end_phase", [4, 3], storm_struck=["0/a", "0/c"])
    assert [state(out, r).damage for r in ("0/a", "0/b", "0/c")] == [1, 1, 0]
    assert state(out, "1/t").counters == {"target_lock": 0, "evade": 1}
    assert "shrugs off" in out.log[-1].text
    with pytest.raises(ValueError, match="only count in a bombardment or a storm"):
        run(start([mech("A")]), "end_phase", [], storm_struck=["0/a"])


def test_dust_storm_hurts_units_in_the_open() -> None:
    g = environment(start([mech("A"), mech("B")]), "storm", storm_type="dust")
    out = run(g, "end_phase", [], storm_struck=["0/b"])
    assert [state(out, r).damage for r in ("0/a", "0/b")] == [0, 1]


# --- bombardment (L2003) ------------------------------------------------------------------------------------


def test_bombardment_rolls_for_every_unsheltered_unit() -> None:
    """Every unit on the table rolls and loses 1 on a 1; units in buildings or hard cover do not roll."""
    g = environment(start([mech("A"), mech("B")], [mech("T")]), "bombardment")
    out = run(g, "end_phase", [1, 2], sheltered=["0/b"])
    assert [state(out, r).damage for r in ("0/a", "0/b", "1/t")] == [1, 0, 0]
    assert odds(g, "end_phase", {}).facts["a unit is hit by the bombardment"] == pytest.approx(1 / 6)


# --- space structure (L2071-2085) ------------------------------------------------------------------------


def test_space_structure_forbids_halo_and_indirect_fire() -> None:
    g = environment(start([mech("A", ("indirect_fire", "long")), mech("H", "halo")]), "space_structure")
    g = set_state(g, "1/t", "counters", {"target_lock": 1, "evade": 0})
    with pytest.raises(ValueError, match="L2077"):
        attack(g, [], weapon="long", indirect_fire=True)
    g = set_state(g, "0/b", "conditions", ["in_reserve"])
    with pytest.raises(ValueError, match="L2075"):
        run(g, "reserves", [], units=["0/b"], halo=["0/b"])


def test_hull_breaches_and_catastrophic_decompression() -> None:
    """Blast rolls for a breach, a 1-2 tears the hull (L2081); more breaches than the turn in an End phase
    make the next turn the last (L2085)."""
    g = environment(start([mech("A", ("blast", "short"))], [mech("B"), mech("C")]), "space_structure")
    g = attack(g, [6, 6, 1, 1, 1, 1])
    p = odds(g, "power", {"attacker": "0/a", "spend": [{"power": "blast", "points": 1, "units": ["1/u"]}]})
    assert p.facts["hull breach"] == pytest.approx(1 / 3)
    g = power(g, [1, 1, 1, 2], {"power": "blast", "points": 1, "units": ["1/u"]})  # C's 3 dice, then the hull
    assert state(g, "1/u").damage == 1
    assert g.state.extra["hull_breaches"] == 1 and "hull breach (rolled 2)" in g.log[-1].text
    assert odds(g, "hull_breach", {"unit": "1/u"}).facts["hull breach"] == pytest.approx(1 / 3)
    held = run(g, "hull_breach", [3], unit="1/u")
    assert held.state.extra["hull_breaches"] == 1
    g = run(g, "hull_breach", [1], unit="1/u")
    assert g.state.extra["hull_breaches"] == 2
    g = run(g, "end_phase", [])
    assert g.state.extra["last_turn"] == 2 and "the next turn is the last" in g.log[-1].text
    g = run(next_round(g), "end_phase", [])
    assert g.state.ended and "gives way" in g.state.extra["result"]
    with pytest.raises(ValueError, match="space structure"):
        run(start([mech("A")]), "hull_breach", [1], unit="1/t")


# --- underwater (L2087-2097) ------------------------------------------------------------------------------


def test_underwater_defends_long_attacks_and_stops_burn() -> None:
    """+1D defense against Long (L2093) without ticking the flag; Burn does nothing (L2095)."""
    g = environment(start([mech("A", ("burn", "long"))], [mech("T")]), "underwater")
    out = attack(g, [6, 6, 1, 1, 1, 1, 1], weapon="long")
    assert out.log[-1].detail["defense_pool"]["dice"] == 4
    with pytest.raises(ValueError, match="underwater"):
        power(out, [], {"power": "burn", "points": 1})


# --- space battles (L2796-2882) ---------------------------------------------------------------------------


def test_space_drift_in_the_end_phase() -> None:
    """Each End phase a die sets the drift of debris and downed units (L2849)."""
    g = environment(start([mech("A"), mech("B")]), "space")
    g = set_state(g, "0/b", "conditions", ["knocked_down"])
    out = run(g, "end_phase", [4])
    assert 'drift 4": all debris, B move toward the drift edge' in out.log[-1].text


def test_environment_damage_can_end_the_game_by_sudden_death() -> None:
    """Damage in the End phase comes before the sudden death check (L724-746, L1614)."""
    g = environment(start([mech("A")], [mech("T", armour=1)]), "bombardment")
    out = run(g, "end_phase", [2, 1])
    assert state(out, "1/t").destroyed and out.state.ended
    assert "sudden death" in out.state.extra["result"]
