"""Gundam Skirmish: the Aimed Shot (L875-L899) at its edges, through ``core.game`` with typed dice.

One die at ACC - 1 (2+ at best) for a Damage Chart result the shooter picks; what refuses it, what
changes the number, the re-rolls on both sides, and what the player reads.  Pure Python, about a second.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from test_gundam_mega import casual, mega
from test_gundam_skirmish import game, sample, state

from core.dice import NeedMoreDice, TypedDice
from core.game import Game, act, odds
from core.systems.base import NeedChoice
from core.systems.gundam_skirmish import units as U

AIM = {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle", "shield_break": "no"}


def edit(
    g: Game, ref: str, counters: dict[str, int] | None = None, conditions: list[str] | None = None
) -> Game:
    g = g.model_copy(deep=True)
    st = g.unit(ref)[2].state
    st.counters.update(counters or {})
    st.conditions = [*st.conditions, *(conditions or [])]
    return g


def plain() -> Game:
    """The Lancer (Beam rifle, ACC 3+: the Aimed Shot needs 2+) against a Trooper with no shield."""
    return game(b=[("t1", sample("trooper", shield="none")), ("h1", sample("heavy_gunner"))])


def summary(g: Game, **raw: Any) -> str:
    return odds(g, "aimed_shot", {**AIM, **raw}).summary


# --- who and what may take it -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ("own side", "Gun Tank cannot be the target"),
        ("destroyed", "Trooper cannot be the target"),
        ("reserve", "Trooper cannot be the target"),
        ("dig_in", "Trooper cannot be the target"),
        ("reloading", "'Beam rifle' must be reloaded first (L894)"),
        ("explosive", "no Aimed Shot with an Explosive or Blast weapon (L879)"),
        ("beyond", "the target must be in range (L880)"),
        ("i_field", "no Aimed Shot with a Beam weapon against an I-field or beam shield (L896-L897)"),
        ("mega, not casual", "Mega Unit, for casual games"),
    ],
)
def test_an_aimed_shot_is_refused(change: str, message: str) -> None:
    """L875-L899: an enemy on the table, a loaded weapon that is neither Explosive nor Blast, in range,
    no Beam weapon against an I-field; a Mega Unit only in a casual game (L1309-L1311)."""
    g, raw = plain(), dict(AIM)
    if change == "own side":
        raw["target"] = "0/g1"
    elif change == "destroyed":
        g = g.model_copy(deep=True)
        g.unit("1/t1")[2].state.destroyed = True
    elif change in ("reserve", "dig_in"):
        g = edit(g, "1/t1", conditions=[change])
    elif change == "reloading":
        g = g.model_copy(deep=True)
        g.unit("0/l1")[2].state.extra["reload"] = {"Beam rifle": True}
    elif change == "explosive":
        g = game(a=[("l1", sample("trooper", factions=["EFF"]))]).model_copy(deep=True)
        g.unit("0/l1")[2].state.extra["equipped"] = "Bazooka"
        raw["weapon"] = "Bazooka"
    elif change == "beyond":
        raw["range"] = "beyond"
    elif change == "i_field":
        g = game(b=[("t1", sample("trooper", beam_defence="medium"))])
    else:
        g = game(a=[("l1", mega(factions=["EFF"], weapons=sample("lancer")["weapons"]))])
    with pytest.raises(ValueError, match=re.escape(message)):
        odds(g, "aimed_shot", raw)


# --- the number needed ----------------------------------------------------------------------------------


def test_the_number_needed_at_its_edges() -> None:
    """ACC - 1, never better than 2+ (L886-L888): the Beam rifle's 3+ gives 2+; Arm Damage makes the
    ACC 5+ (L1184-L1199): 4+; an SD target adds 1 (L1362-L1363): 3+, and a Mega Unit shooting adds 2:
    4+; with Arm Damage as well, 5 + 2 = 7 is held at 6+ (a 6 always hits): 5+."""
    sd = [("t1", sample("trooper", sd=True, shield="none"))]
    assert summary(plain()) == "2+ on one die"
    assert summary(edit(plain(), "0/l1", counters={"arm": 1})) == "4+ on one die"
    assert summary(game(b=sd)) == "3+ on one die"
    big = mega(factions=["EFF"], weapons=sample("lancer")["weapons"])
    g = casual(game(a=[("l1", big)], b=sd))
    assert summary(g) == "4+ on one die"
    assert summary(edit(g, "0/l1", counters={"arm": 1})) == "5+ on one die"


def test_the_odds_and_their_table() -> None:
    """One die at 4+ (Arm Damage): 1/2; Concentrate Fire re-rolls a miss: 1/2 + 1/2 x 1/2 = 3/4; the
    shooter's Head Damage lets the target force a re-roll of a success (A28): 1/2 x 1/2 = 1/4."""
    g = edit(plain(), "0/l1", counters={"arm": 1})
    o = odds(g, "aimed_shot", AIM)
    assert o.facts["success"] == pytest.approx(0.5)
    assert {r.value: Fraction(r.exactly) for r in o.tables["chart results"].rows} == {
        0: Fraction(1, 2),
        1: Fraction(1, 2),
    }
    fire = g.model_copy(deep=True)
    fire.sides[0].resources["concentrate_fire"] = 1
    shown = odds(fire, "aimed_shot", AIM)
    assert shown.facts["success"] == pytest.approx(0.75)
    assert {r.value: Fraction(r.exactly) for r in shown.tables["chart results"].rows} == {
        0: Fraction(1, 4),
        1: Fraction(3, 4),
    }
    assert odds(edit(g, "0/l1", counters={"head": 1}), "aimed_shot", AIM).facts["success"] == pytest.approx(
        0.25
    )


# --- the roll -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("faces", "concentrate", "rolled", "hit"),
    [
        ([3], False, "3 against 4+", False),  # one below: no result
        ([4], False, "4 against 4+", True),  # exactly: a hit
        ([4], True, "4 against 4+", True),  # a hit is not re-rolled by Concentrate Fire
        ([3, 4], True, "3/4 against 4+", True),  # a miss is, once
        ([3, 3], True, "3/3 against 4+", False),
    ],
)
def test_the_die_and_concentrate_fire(faces: list[int], concentrate: bool, rolled: str, hit: bool) -> None:
    g = edit(plain(), "0/l1", counters={"arm": 1})  # 4+
    if concentrate:
        g.sides[0].resources["concentrate_fire"] = 1
    dice = TypedDice(faces)
    after = act(g, "aimed_shot", {**AIM, "result": "leg"}, dice)
    assert dice.left == 0
    text = after.log[-1].text
    assert text.startswith(f"Lancer aims at Trooper with Beam rifle: {rolled}")
    assert text.endswith("; Leg Level 1" if hit else "; no result")
    t = state(after, "1/t1")
    assert (t.counters["leg"], "morale_due" in t.conditions) == ((1, True) if hit else (0, False))
    assert state(after, "0/l1").counters["actions"] == 2  # a Slow action (L875)
    if concentrate and len(faces) == 2:  # the player is asked for the re-roll by its name, a D6
        with pytest.raises(
            NeedMoreDice, match=re.escape("roll 1 more d6 for Aimed Shot re-roll (Concentrate")
        ):
            act(g, "aimed_shot", {**AIM, "result": "leg"}, TypedDice(faces[:1]))


@pytest.mark.parametrize(("faces", "hit"), [([2, 2], True), ([2, 1], False), ([1], False)])
def test_the_target_forces_a_re_roll_of_a_success(faces: list[int], hit: bool) -> None:
    """Against a shooter with Head Damage the target re-rolls a successful die (A28, L1221-L1223); a
    miss is not re-rolled.  The player is asked for each die by its name."""
    g = edit(plain(), "0/l1", counters={"head": 1})  # 2+
    after = act(g, "aimed_shot", {**AIM, "result": "arm"}, TypedDice(faces))
    assert state(after, "1/t1").counters["arm"] == int(hit)
    with pytest.raises(
        NeedMoreDice, match=re.escape("roll 1 more d6 for Aimed Shot re-roll forced by the target")
    ):
        act(g, "aimed_shot", {**AIM, "result": "arm"}, TypedDice([2]))
    with pytest.raises(NeedMoreDice, match=re.escape("roll 1 more d6 for Aimed Shot")):
        act(plain(), "aimed_shot", AIM, TypedDice([]))


def test_a_reload_weapon_must_be_reloaded_after() -> None:
    """A weapon with a reload (RQ/RS) is spent by the Aimed Shot like by a Shoot (L894)."""
    gun = U.archetype_weapon("low_sniper", "Sniper rifle", "M")
    g = game(a=[("l1", sample("lancer", weapons=[gun]))], b=[("t1", sample("trooper", shield="none"))])
    after = act(g, "aimed_shot", {**AIM, "weapon": "Sniper rifle", "result": "leg"}, TypedDice([6]))
    assert state(after, "0/l1").extra["reload"] == {"Sniper rifle": True}


# --- the result -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("levels", "offered"),
    [
        ({"leg": 1, "arm": 1, "head": 0}, ["leg", "arm", "head"]),  # one below each top: all offered
        ({"leg": 2, "arm": 1, "head": 1}, ["arm"]),
        ({"leg": 2, "arm": 2, "head": 1}, []),  # every one at its top: nothing to apply
    ],
)
def test_the_results_offered_are_those_with_room(levels: dict[str, int], offered: list[str]) -> None:
    """Leg, Arm or Head, never the Torso (L882-L884), each only below its top level (Leg and Arm 2, Head
    1, L1159-L1223); a result sent that has no room is asked again."""
    g = edit(plain(), "1/t1", counters=levels)
    if not offered:
        after = act(g, "aimed_shot", {**AIM, "result": "leg"}, TypedDice([6]))
        assert after.log[-1].text.endswith("; no chart result is left to apply")
        return
    with pytest.raises(NeedChoice) as asked:
        act(g, "aimed_shot", {**AIM, "result": "leg" if "leg" not in offered else "ask"}, TypedDice([6]))
    assert [c.value for c in asked.value.options] == offered
    assert (
        asked.value.prompt
        == "The Aimed Shot hits (6 against 2+). Lancer's player picks the Damage Chart result:"
    )


def test_the_shield_break_cancels_it() -> None:
    """The target may break its shield to cancel the result (L1121-L1128; A12): the shield is gone, no
    level is added."""
    g = game()  # the Trooper has a light shield
    raw = {**AIM, "result": "head", "shield_break": "ask"}
    with pytest.raises(NeedChoice) as asked:
        act(g, "aimed_shot", raw, TypedDice([5]))
    assert asked.value.field == "shield_break"
    # keeping the shield is what the app assumes when the target's player is not asked
    assert [(c.value, c.label, c.assumed) for c in asked.value.options] == [
        ("yes", "Break the shield", False),
        ("no", "Keep it", True),
    ]
    broke = act(g, "aimed_shot", {**raw, "shield_break": "yes"}, TypedDice([5]))
    t = state(broke, "1/t1")
    assert (t.counters["head"], t.counters["shield"], "shield_broken" in t.conditions) == (0, 0, True)
    assert broke.log[-1].text.endswith("; Shield Break cancels it")
    kept = act(g, "aimed_shot", {**raw, "shield_break": "no"}, TypedDice([5]))
    assert (state(kept, "1/t1").counters["head"], kept.log[-1].text.endswith("; Head Level 1")) == (1, True)


def test_a_second_level_reads_as_level_two() -> None:
    g = edit(plain(), "1/t1", counters={"arm": 1})
    after = act(g, "aimed_shot", {**AIM, "result": "arm"}, TypedDice([6]))
    assert after.log[-1].text.endswith("; Arm Level 2")
    assert state(after, "1/t1").counters["arm"] == 2
