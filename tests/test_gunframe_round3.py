"""GUNFRAME rules of issue #20, through the real game layer (core.game.act, core.api).

Line numbers are in /work/shared/seeds/001_c60598db3e91d492.txt.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from gunframe_table import hurt, mech, run, set_fp, set_state, start, state

from core import api
from core.game import Game, next_round, odds, undo

MISS = [1, 1, 1, 1, 1, 1]  # three firepower dice and three defense dice, all missing


# --- who may react, and at whom: the log (L1424-1426, L1432, the example at L1452) ------------------


def attacked_a() -> Game:
    """Tom (Blue) attacks A; A and B (Red) have not activated and Red has Focus Points."""
    g = set_fp(start([mech("A"), mech("B")], [mech("Tom"), mech("Uli")]), 0, 3)
    return run(g, "attack", MISS, attacker="1/t", target="0/a")


def test_the_unit_attacked_may_react_its_neighbour_may_not() -> None:
    """L1452: an enemy attacks unit A; A can react as the target of the attack, unit B cannot."""
    g = attacked_a()
    out = run(g, "attack", MISS, attacker="0/a", target="1/t", reaction=True, reaction_trigger="attacked")
    assert out.log[-1].text == "A attacks Tom with Short: no damage (after being attacked)"
    with pytest.raises(ValueError, match=r"no enemy has attacked B this turn \(L1424-1426, L1432\)"):
        run(g, "attack", MISS, attacker="0/b", target="1/t", reaction=True, reaction_trigger="attacked")
    with pytest.raises(ValueError, match="no enemy has attacked B this turn"):
        run(g, "evade", [], unit="0/b", reaction=True, reaction_trigger="attacked")
    assert (
        run(g, "evade", [], unit="0/a", reaction=True, reaction_trigger="attacked")
        .log[-1]
        .text.endswith("after being attacked)")
    )


def test_a_reaction_attack_goes_only_at_the_enemy_that_set_it_off() -> None:
    """L1432: the attack of a reaction may only target the enemy that triggered it."""
    g = attacked_a()
    with pytest.raises(
        ValueError, match="Uli has not attacked A this turn: a reaction attack goes only at Tom"
    ):
        run(g, "attack", MISS, attacker="0/a", target="1/u", reaction=True, reaction_trigger="attacked")


def test_a_target_lock_lets_the_locked_unit_react_and_no_other() -> None:
    """L1425: after an enemy places a Target Lock on it."""
    g = set_fp(start([mech("A"), mech("B")], [mech("Tom")]), 0, 3)
    locked = run(g, "target_lock", [], unit="1/t", target="0/a")
    assert state(locked, "0/a").counters.get("target_lock") == 1
    out = run(locked, "evade", [], unit="0/a", reaction=True, reaction_trigger="target_lock")
    assert "after a Target Lock" in out.log[-1].text
    with pytest.raises(ValueError, match="no enemy has put a Target Lock on B this turn"):
        run(locked, "evade", [], unit="0/b", reaction=True, reaction_trigger="target_lock")


def test_only_this_turns_live_log_counts() -> None:
    """A trigger of the turn before, or one undone, lets no one react now."""
    g = attacked_a()
    for later in (next_round(g), undo(g)):
        later = set_fp(later, 0, 3)
        with pytest.raises(ValueError, match="no enemy has attacked A this turn"):
            run(
                later,
                "attack",
                MISS,
                attacker="0/a",
                target="1/t",
                reaction=True,
                reaction_trigger="attacked",
            )


def test_the_players_may_confirm_a_trigger_the_log_does_not_show_and_the_log_says_so() -> None:
    """What the app cannot know (an attack made off the app, sight, distances): a logged override."""
    g = attacked_a()
    out = run(
        g,
        "attack",
        MISS,
        attacker="0/b",
        target="1/u",
        reaction=True,
        reaction_trigger="attacked",
        trigger_off_log=True,
    )
    assert (
        out.log[-1].text
        == "B attacks Uli with Short: no damage (after being attacked, confirmed by the players)"
    )
    assert out.log[-1].detail["input"]["trigger_off_log"] is True
    # a move in sight is the table's to judge: taken on the player's word, as before
    moved = run(g, "spend_fp", [], unit="0/b", use="reaction_move", reaction_trigger="enemy_moved")
    assert moved.log[-1].text == "B reacts for 1 FP with a move, after an enemy's move"


def test_the_refusal_reaches_the_seam_as_a_plain_message() -> None:
    g = attacked_a()
    reply = api.call(
        "game.act",
        {
            "game": g.model_dump(mode="json"),
            "action": "attack",
            "input": {"attacker": "0/b", "target": "1/t", "reaction": True, "reaction_trigger": "attacked"},
            "seed": 1,
        },
    )
    assert reply["ok"] is False
    assert reply["error"]["message"].startswith("no enemy has attacked B this turn")


# --- falls from ledges and knock-back off high ground (L898-902, L946) --------------------------------


def test_the_books_fall_three_hits_a_defense_roll_knocked_down() -> None:
    """L902: pushed off a ledge, a unit falls 3" and suffers 3 hits, then rolls its Defense (3 dice here)
    against them (L900); any damage knocks it down."""
    g = start([mech("A")], [mech("Tom")])
    out = run(g, "fall", [4, 1, 1], unit="0/a", inches=3)
    assert out.log[-1].text == "A falls off a ledge: 3 hits, 2 damage"
    assert state(out, "0/a").damage == 2
    assert "knocked_down" in state(out, "0/a").conditions
    saved = run(g, "fall", [4, 5, 6], unit="0/a", inches=3)
    assert state(saved, "0/a").damage == 0 and "knocked_down" not in state(saved, "0/a").conditions
    pushed = run(g, "fall", [1, 1, 1], unit="0/a", inches=2, cause="knocked_back")
    assert pushed.log[-1].text == "A falls off high ground, knocked back: 2 hits, 2 damage"


def test_fall_odds_are_exact() -> None:
    """3 hits against 3 dice saving on 4+, with 2 Armour left: destroyed on 0 or 1 save (4/8), knocked
    down on 2 saves (3/8)."""
    g = hurt(start([mech("A")], [mech("Tom")]), "0/a", 6)
    got = odds(g, "fall", {"unit": "0/a", "inches": 3})
    assert got.facts["destroyed"] == pytest.approx(4 / 8)
    assert got.facts["knocked down"] == pytest.approx(3 / 8)


def test_a_flyer_does_not_fall_off_a_ledge() -> None:
    g = set_state(start([mech("A")], [mech("Tom")]), "0/a", "conditions", ["flying"])
    with pytest.raises(ValueError, match="A is flying: it does not fall off a ledge"):
        run(g, "fall", [], unit="0/a", inches=3)


# --- the attack's odds through a Burn spend (L1186-1190, L1240-1246) ------------------------------------


def burn_reference(left: int) -> Fraction:
    """3 firepower dice against 3 defense dice, all on 4+; each 6 a power point once damage is done; the
    points all spent on Burn: that many hits against 3 bare defense dice. By enumeration of the faces."""
    saves = [sum(f >= 4 for f in faces) for faces in product(range(1, 7), repeat=3)]

    def burn_kills(points: int, need: int) -> Fraction:
        return Fraction(sum(points - s >= need for s in saves), len(saves))

    total = Fraction(0)
    for attack in product(range(1, 7), repeat=3):
        hits, sixes = sum(f >= 4 for f in attack), sum(f == 6 for f in attack)
        for s in saves:
            damage = max(0, hits - s)
            if damage >= left:
                total += 1
            elif damage and sixes:
                total += burn_kills(sixes, left - damage)
    return total / 6**6


def test_attack_odds_count_a_burn_after_the_roll() -> None:
    """With 3 Armour left the roll alone destroys only on 3 hits and no save; Burn, spending every power
    point, adds its hits: the headline says both, each exact."""
    g = hurt(start([mech("A", ("burn", "short"))], [mech("Tom")]), "1/t", 5)
    got = odds(g, "attack", {"attacker": "0/a", "target": "1/t"})
    assert got.facts["destroyed with burn"] == pytest.approx(float(burn_reference(3)))
    assert got.facts["destroyed with burn"] > got.facts["destroyed"]
    assert "spends every power point on Burn" in got.summary
    plain = odds(start([mech("A")], [mech("Tom")]), "attack", {"attacker": "0/a", "target": "1/t"})
    assert "destroyed with burn" not in plain.facts
