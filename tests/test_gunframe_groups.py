"""GUNFRAME group attacks (L2635-2665), Terrifying (L2350), Split Fire shares (L2462) and the crippled
condition after manual adjustments (L2700-2733).

Line numbers are in 001_c60598db3e91d492.txt.  Every action goes through core.game.act with typed dice.
"""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from gunframe_table import hurt, mech, run, set_state, start, state

from core.dice import TypedDice
from core.game import Game, adjust, odds, undo
from core.systems.base import Change
from core.systems.gunframe import SYSTEM
from core.systems.gunframe.attack import AttackInput, outcome_dist, plan, resolve

TANK = {
    "frame": "tank",
    "speed": 5,
    "defense": 2,
    "armour": 3,
    "close": 0,
    "short": 1,
    "medium": 2,
    "long": 0,
}


def tank(name: str, **fields: Any) -> dict[str, Any]:
    return {**TANK, "name": name, "upgrades": [{"id": "turreted"}], **fields}


# --- groups (L2635-2665) -------------------------------------------------------------------------------


def test_three_tanks_roll_six_dice_at_medium() -> None:
    """The book's example: three tanks with Medium 2 attack at Medium range, 6D6 (L2661)."""
    g = start([tank("T1"), tank("T2"), tank("T3")], [mech("X", defense=0)])
    raw = {"attacker": "0/a", "target": "1/t", "weapon": "medium", "followers": ["0/b", "0/c"]}
    out = run(g, "attack", [4, 4, 4, 4, 1, 1], **raw)
    detail = out.log[-1].detail
    assert detail["attack_pool"]["dice"] == 6 and detail["damage"] == 4
    assert detail["attack_pool"]["from"] == ["Medium 2", "T2 +2", "T3 +2"]
    assert [state(out, r).activated for r in ("0/a", "0/b", "0/c")] == [True, True, True]
    assert not any(state(undo(out), r).activated for r in ("0/a", "0/b", "0/c"))
    assert odds(g, "attack", raw).summary.startswith("6 firepower dice")


def test_group_checks() -> None:
    """Followers are conventional units of the side that have not activated (L2637-2639), using the
    leader's weapon system (L2657); gunframes neither lead nor follow; a free action is made alone (L2665)."""
    g = start([tank("T1"), tank("T2"), mech("M"), tank("T4", medium=0, short=3)], [mech("X"), tank("E")])
    with pytest.raises(ValueError, match="not a conventional unit"):
        run(g, "attack", [], attacker="0/a", target="1/t", weapon="medium", followers=["0/c"])
    with pytest.raises(ValueError, match="only they act in groups"):
        run(g, "attack", [], attacker="0/c", target="1/t", weapon="medium", followers=["0/a"])
    with pytest.raises(ValueError, match="not on T1's side"):
        run(g, "attack", [], attacker="0/a", target="1/t", weapon="medium", followers=["1/u"])
    with pytest.raises(ValueError, match="leader's system"):
        run(g, "attack", [], attacker="0/a", target="1/t", weapon="medium", followers=["0/d"])
    done = set_state(g, "0/b", "activated", True)
    with pytest.raises(ValueError, match="already activated"):
        run(done, "attack", [], attacker="0/a", target="1/t", weapon="medium", followers=["0/b"])
    with pytest.raises(ValueError, match="alone"):
        run(
            g,
            "attack",
            [],
            attacker="0/a",
            target="1/t",
            weapon="medium",
            followers=["0/b"],
            trigger="wingman",
        )


def test_a_crippled_follower_adds_half() -> None:
    g = start([tank("T1"), tank("T2", medium=3)], [mech("X", defense=0)], crippled_rules=True)
    g = set_state(g, "0/b", "conditions", ["crippled"])
    p = plan(g, AttackInput(attacker="0/a", target="1/t", weapon="medium", followers=["0/b"]))
    assert p.attack.dice == 2 + 2  # 3 halved, rounding up (L2733, L357)


def test_reaction_groups_and_the_leader_option() -> None:
    """Every member counts as activated after the group attack; the option spares a reacting leader."""
    g = start([tank("T1"), tank("T2")], [mech("X", defense=0)])
    g = g.model_copy(
        update={"sides": [g.sides[0].model_copy(update={"resources": {"focus_points": 1}}), g.sides[1]]}
    )
    raw = {
        "attacker": "0/a",
        "target": "1/t",
        "weapon": "medium",
        "followers": ["0/b"],
        "reaction": True,
        "reaction_trigger": "attacked",
        "trigger_off_log": True,  # the attack on it happened off the app
    }
    out = run(g, "attack", [1, 1, 1, 1], **raw)
    assert state(out, "0/a").activated and state(out, "0/b").activated
    kept = run(
        g.model_copy(update={"options": {**g.options, "group_reaction_spares_leader": True}}),
        "attack",
        [1, 1, 1, 1],
        **raw,
    )
    assert not state(kept, "0/a").activated and state(kept, "0/b").activated


def test_group_odds_match_brute_force() -> None:
    """A leader with Medium 1 and a follower with Medium 1 against 1 defense die: the exact odds equal
    resolving every sequence of faces."""
    g = start([tank("T1", medium=1), tank("T2", medium=1)], [mech("X", defense=1, armour=2)])
    inp = AttackInput(attacker="0/a", target="1/t", weapon="medium", followers=["0/b"])
    counts: Counter[tuple[int, int]] = Counter()
    for faces in itertools.product(range(1, 7), repeat=3):
        detail = resolve(g, inp, TypedDice(faces)).detail
        counts[(detail["damage"], detail["power_points"])] += 1
    exact = {k: p for k, p in outcome_dist(plan(g, inp)).probabilities()}
    assert exact == {k: Fraction(v, 216) for k, v in counts.items()}


# --- Terrifying (L2350) --------------------------------------------------------------------------------


def test_terrifying_panic_roll() -> None:
    """A unit moving into contact with a Terrifying enemy makes a panic roll; failing, it stops short
    (L2350).  Fearless passes (L2314); Inspiring re-rolls a failure (L2324)."""
    g = start(
        [mech("A"), mech("I", "inspiring"), mech("F", "fearless")], [mech("Horror", "terrifying"), mech("B")]
    )
    stop = run(g, "terrifying", [3], unit="0/a", terrifying="1/t")
    assert "stops just outside close range" in stop.log[-1].text and not stop.log[-1].detail["passed"]
    go = run(g, "terrifying", [4], unit="0/a", terrifying="1/t")
    assert "moves into contact" in go.log[-1].text
    again = run(g, "terrifying", [2, 5], unit="0/a", terrifying="1/t", inspiring="0/b")
    assert (again.log[-1].detail["rolls"], again.log[-1].detail["passed"]) == ([2, 5], True)
    brave = run(g, "terrifying", [], unit="0/c", terrifying="1/t")
    assert brave.log[-1].detail["passed"]
    with pytest.raises(ValueError, match="not Terrifying"):
        run(g, "terrifying", [4], unit="0/a", terrifying="1/u")
    facts = odds(g, "terrifying", {"unit": "0/a", "terrifying": "1/t", "inspiring": "0/b"}).facts
    assert facts["makes contact"] == pytest.approx(1 / 2 + 1 / 4)
    assert odds(g, "terrifying", {"unit": "0/c", "terrifying": "1/t"}).facts["makes contact"] == 1.0


# --- Split Fire shares (L2462) ---------------------------------------------------------------------------


def gunner() -> dict[str, Any]:
    return mech("Gun", ("split_fire", "short"))


def test_split_fire_shares_add_up_to_the_pool() -> None:
    g = start([gunner()], [mech("T"), mech("U"), mech("V")])
    with pytest.raises(ValueError, match="do not split"):
        run(g, "attack", [], attacker="0/a", target="1/t", split_dice=3)
    g = run(g, "attack", [1, 1, 1, 1], attacker="0/a", target="1/t", split_dice=1)
    assert "2 dice still to send" in g.log[-1].text
    with pytest.raises(ValueError, match="still has 2 short dice"):
        run(g, "attack", [], attacker="0/a", target="1/u")
    with pytest.raises(ValueError, match="different target"):
        run(g, "attack", [], attacker="0/a", target="1/t", split_dice=1)
    with pytest.raises(ValueError, match="only 2 of the 3"):
        run(g, "attack", [], attacker="0/a", target="1/u", split_dice=3)
    with pytest.raises(ValueError, match="still has 2 short dice"):
        run(g, "attack", [], attacker="0/a", target="1/u", split_dice=1, weapon="medium")
    g = run(g, "attack", [1, 1, 1, 1], attacker="0/a", target="1/u", split_dice=1)
    g = run(g, "attack", [1, 1, 1, 1], attacker="0/a", target="1/v", split_dice=1)
    assert "split" not in state(g, "0/a").extra


# --- crippled after manual adjustments (L2700-2733) --------------------------------------------------------


def test_settle_marks_and_clears_crippled_after_a_damage_edit() -> None:
    """Armour 8 at 2 left is crippled (L2706); repaired above it, it is not (L2723)."""
    g = start([mech("A")], [mech("T")], crippled_rules=True)
    edited = g.model_copy(deep=True)
    edited.sides[1].units[0].state.damage = 6
    change = SYSTEM.settle(edited)
    assert change == [Change(path=["sides", 1, "units", 0, "state", "conditions"], value=["crippled"])]
    assert SYSTEM.settle(g) == []
    off = g.model_copy(deep=True, update={"options": {**g.options, "crippled_rules": False}})
    off.sides[1].units[0].state.damage = 6
    assert SYSTEM.settle(off) == []


def test_crippled_follows_manual_damage_through_the_game_layer() -> None:
    g = start([mech("A")], [mech("T")], crippled_rules=True)
    g = hurt(g, "1/t", 6)
    assert "crippled" in state(g, "1/t").conditions
    assert len(g.log[-1].changes) == 2  # the damage and the condition, one event
    back = undo(g)
    assert state(back, "1/t").damage == 0 and "crippled" not in state(back, "1/t").conditions
    g = hurt(g, "1/t", 5)
    assert "crippled" not in state(g, "1/t").conditions
    g = adjust(g, [Change(path=["sides", 1, "units", 0, "state", "max_damage"], value=12)])
    g = hurt(g, "1/t", 9)
    assert "crippled" in state(g, "1/t").conditions  # 3 left of 12: a quarter is 3


def test_a_hand_set_condition_stays_when_damage_is_not_touched() -> None:
    """Only units whose damage or Armour were just edited are settled: a condition set by hand stays."""
    g = start([mech("A")], [mech("T")], crippled_rules=True)
    g = set_state(g, "1/t", "conditions", ["crippled"])
    assert "crippled" in state(g, "1/t").conditions
    g = adjust(g, [Change(path=["sides", 0, "resources", "focus_points"], value=2)])
    assert "crippled" in state(g, "1/t").conditions


def game_after_attack(g: Game) -> Game:
    return run(g, "attack", [4, 4, 4, 1, 1, 1], attacker="0/a", target="1/t")


def test_settle_reads_damage_an_action_dealt() -> None:
    """Damage dealt by an action is in the log: a later unrelated edit settles nothing."""
    g = game_after_attack(start([mech("A")], [mech("T")], crippled_rules=True))
    g = set_state(g, "1/t", "conditions", [])
    g = adjust(g, [Change(path=["round"], value=2)])
    assert state(g, "1/t").conditions == []
