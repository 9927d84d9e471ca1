"""GUNFRAME linked pilot upgrades, Nemesis and the optional panic rule.

Line numbers are in 001_c60598db3e91d492.txt.  Every action goes through core.game.act with typed dice.
"""

from __future__ import annotations

from typing import Any

import pytest
from gunframe_table import hurt, mech, run, state
from gunframe_table import start as table_start

from core.game import Game, adjust, odds, undo
from core.systems.base import Change

MISS = [1, 1, 1, 1, 1, 1]  # three firepower dice and three defense dice, all misses
KILL = [4, 4, 4, 1, 1, 1]  # three hits, none cancelled


def start(red: list[dict[str, Any]], blue: list[dict[str, Any]] | None = None, red_fp: int = 2) -> Game:
    """Red (keys a, b, ...) against Blue (t, u), Red holding 2 Focus Points."""
    return table_start(red, blue, red_fp=red_fp)


def pair(link: str, *extra: str) -> list[dict[str, Any]]:
    return [mech("Ann", link, *extra, partner="Bea"), mech("Bea", link, partner="Ann")]


def fp(g: Game) -> int:
    return g.sides[0].resources["focus_points"]


def test_rivals_attack_after_the_partner_destroys_an_enemy_and_undo() -> None:
    g = hurt(start(pair("rivals")), "1/t", 7)
    with pytest.raises(ValueError, match="Rivals needs"):
        run(g, "attack", [], attacker="0/a", target="1/u", trigger="rivals")
    g = run(g, "attack", KILL, attacker="0/b", target="1/t")
    assert state(g, "1/t").destroyed
    before = g
    g = run(g, "attack", MISS, attacker="0/a", target="1/u", trigger="rivals")  # L2342
    assert fp(g) == 1 and state(g, "0/a").extra["fp_spent"] == 1
    assert not state(g, "0/a").activated  # a triggered attack is not an activation
    assert "Rivals, 1 FP" in g.log[-1].text
    with pytest.raises(ValueError, match="already answered"):
        run(g, "attack", [], attacker="0/a", target="1/u", trigger="rivals")
    back = undo(g)
    assert back.sides == before.sides


def test_a_triggered_attack_is_not_a_reaction_and_needs_the_link() -> None:
    g = run(start(pair("rivals")), "attack", MISS, attacker="0/b", target="1/t")
    with pytest.raises(ValueError, match="not a reaction"):
        run(
            g,
            "attack",
            [],
            attacker="0/a",
            target="1/t",
            trigger="rivals",
            reaction=True,
            reaction_trigger="attacked",
            trigger_off_log=True,
        )
    lone = start([mech("Ann", "wingman", partner="Bea"), mech("Bea")])
    with pytest.raises(ValueError, match="does not share Wingman"):
        run(lone, "attack", [], attacker="0/a", target="1/t", trigger="wingman")


def test_well_oiled_attacks_the_target_the_partner_just_locked() -> None:
    g = run(start(pair("well_oiled")), "target_lock", [], unit="0/b", target="1/t")
    with pytest.raises(ValueError, match="Well-Oiled needs"):
        run(g, "attack", [], attacker="0/a", target="1/u", trigger="well_oiled")
    g = run(g, "attack", MISS, attacker="0/a", target="1/t", trigger="well_oiled")  # L2356
    assert fp(g) == 1
    assert state(g, "1/t").counters["target_lock"] == 1  # it need not use the lock


def test_wingman_copies_an_attack_or_a_move_for_a_focus_point() -> None:
    g = start(pair("wingman"))
    with pytest.raises(ValueError, match="Wingman needs"):
        run(g, "attack", [], attacker="0/a", target="1/t", trigger="wingman")
    g = run(g, "attack", MISS, attacker="0/b", target="1/t")
    g = run(g, "attack", MISS, attacker="0/a", target="1/u", trigger="wingman")  # L2358
    assert fp(g) == 1
    g = run(g, "wingman_move", [], unit="0/b")
    assert fp(g) == 0 and "Wingman" in g.log[-1].text


def test_buddies_react_when_the_partner_is_attacked() -> None:
    g = start(pair("buddies"))
    g = run(g, "attack", MISS, attacker="1/t", target="0/b")
    with pytest.raises(ValueError, match="is a reaction"):
        run(g, "attack", [], attacker="0/a", target="1/t", trigger="buddies")
    with pytest.raises(ValueError, match="Buddies needs"):
        run(
            g,
            "attack",
            [],
            attacker="0/a",
            target="1/u",
            trigger="buddies",
            reaction=True,
            reaction_trigger="attacked",
        )
    g = run(
        g,
        "attack",
        MISS,
        attacker="0/a",
        target="1/t",
        trigger="buddies",
        reaction=True,
        reaction_trigger="attacked",
    )  # L2302
    assert fp(g) == 1 and state(g, "0/a").extra["reacted"]
    g = run(
        g, "attack", MISS, attacker="0/b", target="1/t", reaction=True, reaction_trigger="attacked"
    )  # both may react
    assert fp(g) == 0


def test_lovers_free_activation_comes_before_panic() -> None:
    g = hurt(start(pair("lovers")), "0/b", 7)
    with pytest.raises(ValueError, match="Lovers needs"):
        run(g, "lovers", [], unit="0/a")
    g = run(g, "attack", KILL, attacker="1/t", target="0/b")
    assert state(g, "0/b").destroyed
    with pytest.raises(ValueError, match="Lovers free activation before any panic"):
        run(g, "panic", [], unit="0/a", fallen="0/b")
    g = run(g, "lovers", [], unit="0/a")  # L2328
    assert "two actions" in g.log[-1].text and not state(g, "0/a").activated
    g = run(g, "panic", [5], unit="0/a", fallen="0/b")  # L2776: then the panic roll
    assert "keeps control" in g.log[-1].text


def test_nemesis_scores_on_the_kill() -> None:
    g = start([mech("Ann", "nemesis"), mech("Bea")])
    with pytest.raises(ValueError, match="enemy"):
        run(g, "nemesis", [], unit="0/a", target="0/b")
    g = run(g, "nemesis", [], unit="0/a", target="1/t")
    with pytest.raises(ValueError, match="already"):
        run(g, "nemesis", [], unit="0/a", target="1/u")
    g = hurt(g, "1/t", 7)
    g = run(g, "attack", KILL, attacker="0/a", target="1/t")  # L2336
    assert g.sides[0].resources["victory_points"] == 1 and "nemesis destroyed" in g.log[-1].text


def test_a_surviving_nemesis_scores_for_its_side_at_the_end() -> None:
    g = run(start([mech("Ann", "nemesis")]), "nemesis", [], unit="0/a", target="1/t")
    g = hurt(g, "0/a", 8)
    g = adjust(g, [Change(path=["sides", 0, "units", 0, "state", "destroyed"], value=True)])
    g = run(g, "end_phase", [])
    assert "Tom survived its nemesis Ann" in g.log[-1].text
    assert g.log[-1].detail["vp"][1] >= 1


def test_panic_roll_inspiring_reroll_dramatic_cry_and_run() -> None:
    red = [mech("Ann"), mech("Bea"), mech("Cat", "inspiring")]
    g = hurt(start(red), "0/b", 7)
    g = run(g, "attack", KILL, attacker="1/t", target="0/b")
    with pytest.raises(ValueError, match="not destroyed"):
        run(g, "panic", [], unit="0/b", fallen="0/c")
    chance = odds(g, "panic", {"unit": "0/a", "fallen": "0/b", "inspiring": "0/c"})
    assert chance.facts["keeps control"] == pytest.approx(0.75)
    kept = run(g, "panic", [2, 4], unit="0/a", fallen="0/b", inspiring="0/c")  # L2324
    assert "re-rolled 4 (Inspiring)" in kept.log[-1].text
    cry = run(g, "panic", [3], unit="0/a", fallen="0/b")  # L2786
    assert fp(cry) == 1 and "dramatic cry" in cry.log[-1].text
    ran = run(g, "panic", [3, 5], unit="0/a", fallen="0/b", response="run_for_cover")  # L2790
    assert fp(ran) == 2 and ran.log[-1].detail["run_inches"] == 5


def test_fearless_never_panics() -> None:
    g = hurt(start([mech("Ann", "fearless"), mech("Bea")]), "0/b", 7)
    g = run(g, "attack", KILL, attacker="1/t", target="0/b")
    assert odds(g, "panic", {"unit": "0/a", "fallen": "0/b"}).facts["panics"] == 0
    g = run(g, "panic", [], unit="0/a", fallen="0/b")  # L2314
    assert "Fearless" in g.log[-1].text


def test_nemesis_finished_by_a_power_attack_scores_too() -> None:
    ann = mech("Ann", "nemesis")
    ann["upgrades"].append({"id": "burn", "slot": "short"})
    g = run(start([ann]), "nemesis", [], unit="0/a", target="1/t")
    g = hurt(g, "1/t", 6)
    g = run(g, "attack", [6, 1, 1, 1, 1, 1], attacker="0/a", target="1/t")
    assert not state(g, "1/t").destroyed and g.sides[0].resources["victory_points"] == 0
    g = run(g, "power", [1, 1, 1], attacker="0/a", spend=[{"power": "burn", "points": 1}])
    assert state(g, "1/t").destroyed and g.sides[0].resources["victory_points"] == 1
