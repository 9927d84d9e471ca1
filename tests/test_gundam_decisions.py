"""Gundam Skirmish: the target's player decides after the roll (rulebook 000_3e12d4cbd0c8f6da.txt).

Which hits its blocks cancel (L713-L719; digest A6) and whether it breaks its shield
(L1121-L1128; A12, A37) are asked once the dice are down, in one question; the odds
before the roll assume the fewest criticals and no Shield Break, and say so.
"""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import pytest
from test_gundam_skirmish import game, sample, state

from core.dice import NeedMoreDice, TypedDice
from core.game import Game, act, odds, undo
from core.systems.base import NeedChoice
from core.systems.gundam_skirmish.shooting import KINDS, cancel_choices, cancel_hits, hit_count

TANK_SHOT = {"attacker": "0/g1", "target": "1/t1"}


def tank_vs(trooper: dict[str, Any]) -> Game:
    """The Gun Tank (Turret cannon: 2 shots on 4+, critical on 6, 2 DAM, L2533-L2537) against a Trooper."""
    return game(a=[("g1", sample("gun_tank"))], b=[("t1", trooper)])


def asked(g: Game, raw: dict[str, Any], faces: list[int]) -> NeedChoice:
    with pytest.raises(NeedChoice) as question:
        act(g, "shoot", raw, TypedDice(faces))
    return question.value


# --- which hits the blocks cancel (L713-L719; A6) ----------------------------------------------------


def every_assignment(hits: tuple[int, ...], blocks: tuple[int, int, int]) -> set[tuple[int, int]]:
    """(hits left, criticals left) of every way to give each block one hit it can take, or none, keeping
    those that cancel the most hits: brute force over the dice one by one."""
    dice = [k for k, n in enumerate(hits) for _ in range(n)]
    strengths = [s + 1 for s, n in enumerate(blocks) for _ in range(n)]
    outcomes: dict[int, set[tuple[int, int]]] = {}
    for pick in itertools.product(range(-1, len(dice)), repeat=len(strengths)):
        taken = [p for p in pick if p >= 0]
        if len(set(taken)) < len(taken):
            continue
        if any(p >= 0 and KINDS[dice[p]][0] > s for p, s in zip(pick, strengths, strict=True)):
            continue
        left = [k for i, k in enumerate(dice) if i not in taken]
        outcomes.setdefault(len(taken), set()).add((len(left), sum(KINDS[k][1] for k in left)))
    return outcomes[max(outcomes)]


@pytest.mark.parametrize("seed", range(60))
def test_cancel_choices_are_every_assignment_that_cancels_the_most(seed: int) -> None:
    """The choices offered are exactly what the defender can reach by hand, and the first is A6's default."""
    rng = random.Random(seed)
    hits = tuple(rng.choice((0, 0, 1, 1, 2)) for _ in range(6))
    blocks = (rng.randint(0, 2), rng.randint(0, 2), rng.randint(0, 1))
    choices = cancel_choices(hits, blocks)  # type: ignore[arg-type]
    assert {hit_count(left) for left in choices.values()} == every_assignment(hits, blocks)
    assert choices[min(choices)] == cancel_hits(hits, blocks)  # type: ignore[arg-type]


def test_defender_picks_which_hit_its_one_block_cancels() -> None:
    """A 6 (critical) and a 4 get through to one armour block: the defender keeps either standing."""
    g = tank_vs(sample("trooper", shield="none"))
    # attack 6, 4; the Trooper in cover rolls 2 armour dice on 5+: 5 (a block), 1
    question = asked(g, TANK_SHOT, [6, 4, 5, 1])
    assert question.field == "cancel_criticals"
    assert str(question) == (
        "Trooper's player decides. Attack 6, 4, defence 5, 1: 1 hit through for 2 damage; "
        "the blocks may leave 0 to 1 of its criticals."
    )
    assert [(o.value, o.label, o.assumed) for o in question.options] == [
        (0, "0 criticals left, 2 damage, no chart roll", True),
        (1, "1 critical left, 2 damage, 1 chart roll", False),
    ]
    kept = act(g, "shoot", {**TANK_SHOT, "cancel_criticals": 0}, TypedDice([6, 4, 5, 1]))
    t = state(kept, "1/t1")
    assert (t.damage, t.counters.get("arm", 0), t.conditions) == (2, 0, [])
    # the other pick: the 6 stays, a chart roll of 3 is an Arm Level 1 (L1147-L1239)
    left = act(g, "shoot", {**TANK_SHOT, "cancel_criticals": 1}, TypedDice([6, 4, 5, 1, 3]))
    t = state(left, "1/t1")
    assert (t.damage, t.counters["arm"], t.conditions) == (2, 1, ["morale_due"])
    assert "blocks left 1 critical standing by its player's choice" in left.log[-1].text
    with pytest.raises(ValueError, match="can leave 0 or 1 critical"):
        act(g, "shoot", {**TANK_SHOT, "cancel_criticals": 2}, TypedDice([6, 4, 5, 1]))


def test_no_question_when_the_pick_cannot_matter() -> None:
    """Two blocks take both hits: nothing to decide, the shot resolves at once."""
    g = tank_vs(sample("trooper", shield="none"))
    after = act(g, "shoot", TANK_SHOT, TypedDice([6, 4, 5, 6]))
    assert state(after, "1/t1").damage == 0


# --- Shield Break, decided after the result (L1121-L1128; A12, A37) --------------------------------


def test_one_question_for_both_decisions_then_shield_break() -> None:
    g = tank_vs(sample("trooper"))
    before = g.model_dump()
    # attack 6, 4; armour 5, 1; the light shield's die (6+) 1: one block, the Trooper has a shield
    question = asked(g, TANK_SHOT, [6, 4, 5, 1, 1])
    assert question.field == "shield_break"
    assert [(o.value, o.also, o.label, o.assumed) for o in question.options] == [
        ("no", {"cancel_criticals": 0}, "Keep the shield, 0 criticals left, 2 damage, no chart roll", True),
        ("no", {"cancel_criticals": 1}, "Keep the shield, 1 critical left, 2 damage, 1 chart roll", False),
        ("yes", {"cancel_criticals": 0}, "Break the shield: 1 damage, no chart roll", False),
    ]
    pick = question.options[2]
    g = act(g, "shoot", {**TANK_SHOT, **pick.also, question.field: pick.value}, TypedDice([6, 4, 5, 1, 1]))
    t = state(g, "1/t1")
    # 2 damage, 1 prevented (half rounded down, L1123-L1125); no chart roll; the shield is gone (L1126)
    assert (t.damage, t.counters.get("arm", 0), t.counters["shield"]) == (1, 0, 0)
    assert t.conditions == ["shield_broken"]
    assert g.log[-1].text.endswith("Shield Break: 1 damage, no chart roll, the shield is gone (L1123-L1128)")
    back = undo(g)
    assert back.sides == Game.model_validate(before).sides


def test_shield_question_names_only_break_or_keep_when_hits_are_fixed() -> None:
    """A lone critical gets through (no pick of hits): keep the shield and roll the chart, or break it."""
    g = tank_vs(sample("trooper"))
    question = asked(g, TANK_SHOT, [6, 1, 1, 1, 1])
    assert [(o.value, o.also, o.label) for o in question.options] == [
        ("no", {}, "Keep the shield, 2 damage, 1 chart roll"),
        ("yes", {}, "Break the shield: 1 damage, no chart roll"),
    ]
    kept = act(g, "shoot", {**TANK_SHOT, "shield_break": "no"}, TypedDice([6, 1, 1, 1, 1, 5]))
    t = state(kept, "1/t1")
    assert (t.damage, t.counters["head"], "shield_broken" in t.conditions) == (2, 1, False)


def test_no_shield_question_when_nothing_gets_through() -> None:
    g = tank_vs(sample("trooper"))
    after = act(g, "shoot", TANK_SHOT, TypedDice([1, 2, 1, 1, 1]))
    assert state(after, "1/t1").damage == 0


@pytest.mark.exhaustive
def test_odds_say_what_they_assume_and_match_the_assumed_answers() -> None:
    """The odds before the roll equal every face sequence resolved with the assumed answers."""
    g = tank_vs(sample("trooper"))
    shown = odds(g, "shoot", TANK_SHOT)
    assert shown.summary.endswith(
        "Assumes the target's blocks cancel the most hits, then the most criticals, and it keeps its "
        "shield: its player decides both after the roll"
    )
    want = {r.value: Fraction(r.exactly) for r in shown.tables["damage"].rows if Fraction(r.exactly)}
    got: dict[int, Fraction] = {}
    # faces so far, of which how many are forced chart dice (they weigh nothing), and the answers
    stack: list[tuple[list[int], int, dict[str, Any]]] = [([], 0, TANK_SHOT)]
    while stack:
        faces, forced, raw = stack.pop()
        try:
            after = act(g, "shoot", raw, TypedDice(faces))
        except NeedMoreDice as need:
            if need.purpose == "Damage Chart":  # the chart changes no Integrity here: a Leg result each time
                stack.append(([*faces, 1], forced + 1, raw))
            else:
                stack.extend(([*faces, f], forced, raw) for f in range(1, 7))
            continue
        except NeedChoice as q:
            pick = next(o for o in q.options if o.assumed)
            stack.append((faces, forced, {**raw, **pick.also, q.field: pick.value}))
            continue
        damage = state(after, "1/t1").damage
        got[damage] = got.get(damage, Fraction(0)) + Fraction(1, 6 ** (len(faces) - forced))
    assert got == want
    # By hand: 0, 1 or 2 hits (1/4, 1/2, 1/4) against blocks from 2 armour dice on 5+ and a shield die on
    # 6, every block taking any hit (no <P>): P(0 blocks) = 10/27, P(1) = 12/27, P(2 or more) = 5/27,
    # so P(no damage) = 1/4 + 1/2 * 17/27 + 1/4 * 5/27 = 11/18.
    assert want[0] == Fraction(11, 18)


# --- a friend killed (L1590-L1591) -----------------------------------------------------------------


def test_a_kill_marks_the_friends_not_the_dead() -> None:
    """The killed unit checks no morale any more; its friends on the table are marked for their check."""
    plain = sample("trooper", shield="none")
    g = game(a=[("g1", sample("gun_tank"))], b=[("t1", plain), ("t2", plain), ("h1", sample("heavy_gunner"))])
    g = g.model_copy(deep=True)
    g.sides[1].units[0].state.damage = 5  # 1 Integrity left: already due a check (L1599)
    g.sides[1].units[0].state.conditions = ["morale_due"]
    g.sides[1].units[1].state.conditions = ["reserve"]  # waiting to Ambush: not on the table
    # attack 6, 6; armour 1, 1: 4 damage, the Trooper is destroyed; Destruction Table 6
    after = act(g, "shoot", TANK_SHOT, TypedDice([6, 6, 1, 1, 6]))
    assert [state(after, ref).conditions for ref in ("1/t1", "1/t2", "1/h1")] == [
        [],
        ["reserve"],
        ["morale_due"],
    ]
    assert after.log[-1].text.endswith(
        "its friends that saw it check morale (L1590-L1591): marked on all of them, clear the mark on those "
        "out of sight"
    )


# --- Aimed Shot: both questions come with the die (L880-L884, L1121-L1128) ----------------------------


def test_aimed_shot_asks_after_showing_the_die() -> None:
    g = game()
    aim = {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle", "cover": "in_cover"}
    first = asked_action(g, "aimed_shot", aim, [5])
    assert (first.field, str(first)) == (
        "result",
        "The Aimed Shot hits (5 against 2+). Lancer's player picks the Damage Chart result:",
    )
    assert [(o.value, o.label) for o in first.options] == [
        ("leg", "Leg Level 1"),
        ("arm", "Arm Level 1"),
        ("head", "Head Level 1"),
    ]
    second = asked_action(g, "aimed_shot", {**aim, "result": "arm"}, [5])
    assert str(second) == (
        "The Aimed Shot hits (5 against 2+) for Arm Level 1. Trooper's player decides: break its "
        "shield to cancel it?"
    )
    kept = act(g, "aimed_shot", {**aim, "result": "arm", "shield_break": "no"}, TypedDice([5]))
    assert state(kept, "1/t1").counters["arm"] == 1


def asked_action(g: Game, action: str, raw: dict[str, Any], faces: list[int]) -> NeedChoice:
    with pytest.raises(NeedChoice) as question:
        act(g, action, raw, TypedDice(faces))
    return question.value
