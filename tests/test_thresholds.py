"""Thresholds at their boundaries, for every system: exactly at, one below, one above (issue 27).

A rule that says "2 or more", "at 0", "4 or more dead", "a quarter rounded up" is where a slip of one
(``>`` for ``>=``) hides: each threshold here is checked on both sides of its edge and on it, through
``core.game`` (the same calls ``core.api`` makes) or ``core.api`` itself, with typed dice.  Line numbers
are those of each system's rulebook in ../shared/seeds.  Pure Python, a few seconds in all.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from core import api
from core.dice import NeedMoreDice, TypedDice
from core.game import Game, act, odds
from core.systems import SYSTEMS, implementation

# --- every registered system: the points limit (a squad may come in at the limit, not over) -------------

PLAYABLE = [s.id for s in SYSTEMS if s.status == "playable"]


def ask(op: str, args: Any) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(api.handle(json.dumps({"op": op, "args": args})))
    assert reply["ok"], reply
    result: dict[str, Any] = reply["result"]
    return result


@pytest.mark.parametrize("system", PLAYABLE)
def test_the_points_limit_at_its_edge_for_every_system(system: str) -> None:
    """Two catalogue units: a limit of exactly their total is met, one less is broken, one more met
    (e.g. GUNFRAME L654-L656, Gundam Skirmish L2339-L2342).  Read from the registry, so a system is
    covered the day it is registered."""
    units = implementation(system).catalogue()[:2]
    assert units, f"{system} has no catalogue to build a squad from"
    squad = {
        "id": "s",
        "name": "S",
        "system": system,
        "units": [{"key": f"u{i}", "profile": u.profile} for i, u in enumerate(units)],
    }
    total = ask("squad.check", {"squad": squad})["total"]
    if total == 0:  # a system whose units cost no points (Mobile Suit Battles: decks): no limit can bite
        report = ask("squad.check", {"squad": {**squad, "limit": 1}})
        assert "points-limit" not in {v["rule"] for v in report["violations"]}
        return
    for limit, over in ((total - 1, True), (total, False), (total + 1, False)):
        report = ask("squad.check", {"squad": {**squad, "limit": limit}})
        rules = {v["rule"] for v in report["violations"]}
        assert ("points-limit" in rules) is over, (system, limit, total, rules)


# --- Mobile Suit Gundam: Skirmish --------------------------------------------------------------------

from test_gundam_skirmish import game as gundam_game  # noqa: E402
from test_gundam_skirmish import sample as gundam_sample  # noqa: E402

from core.systems.gundam_skirmish import units as U  # noqa: E402

BEAM = {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle", "cover": "unobstructed"}


def gundam_hurt(g: Game, ref: str, damage: int) -> Game:
    g = g.model_copy(deep=True)
    g.unit(ref)[2].state.damage = damage
    return g


@pytest.mark.parametrize(
    ("before", "left", "destroyed", "morale_due"),
    [(1, 2, False, False), (2, 1, False, True), (3, 0, True, False), (4, -1, True, False)],
)
def test_gundam_integrity_one_left_and_zero(
    before: int, left: int, destroyed: bool, morale_due: bool
) -> None:
    """The Beam rifle's 3 damage to a Trooper (Integrity 6) that had lost ``before``: destroyed at 0 or
    less (L1094-L1098); at exactly 1 left its morale is due (L1599), at 2 left not."""
    g = gundam_hurt(gundam_game(b=[("t1", gundam_sample("trooper", shield="none"))]), "1/t1", before)
    # a 4 hits (3+) without a critical (5+); the one armour die (2 - 1 Unobstructed) fails; a 6 on the
    # Destruction Table if it is destroyed
    dice = TypedDice([4, 1, 6] if destroyed else [4, 1])
    after = act(g, "shoot", BEAM, dice)
    assert dice.left == 0
    t = after.unit("1/t1")[2].state
    assert (t.damage, t.max_damage - t.damage, t.destroyed) == (before + 3, left, destroyed)
    assert ("morale_due" in t.conditions) is morale_due


@pytest.mark.parametrize(("faces", "passed"), [((3, 3), False), ((3, 4), True), ((4, 4), True)])
def test_gundam_morale_target_at_its_edge(faces: tuple[int, int], passed: bool) -> None:
    """2D6 against 12 - Integrity left (L1570): 5 left needs 7; 6 fails, 7 passes, 8 passes.  A fail
    puts a Steady unit at Wavering (L1574-L1579)."""
    g = gundam_hurt(gundam_game(), "1/t1", 1)
    assert odds(g, "morale", {"unit": "1/t1"}).facts["pass"] == pytest.approx(21 / 36)
    after = act(g, "morale", {"unit": "1/t1"}, TypedDice(list(faces)))
    assert (after.unit("1/t1")[2].state.conditions == []) is passed
    assert f"against 7: {'pass' if passed else 'fail'}" in after.log[-1].text


@pytest.mark.parametrize(("lost_before", "halved"), [(0, False), (1, True), (2, True)])
def test_gundam_half_the_force_at_its_edge(lost_before: int, halved: bool) -> None:
    """When a force is down to half its units or fewer, those left check morale (L1602; A34): of four,
    a loss that leaves 3 does nothing, one that leaves exactly 2 does, one that leaves 1 does."""
    trooper = gundam_sample("trooper", shield="none")
    b = [("t1", trooper), ("t2", trooper), ("t3", trooper), ("t4", trooper)]
    g = gundam_hurt(gundam_game(b=b), "1/t1", 3)
    g = g.model_copy(deep=True)
    for i in range(lost_before):
        g.sides[1].units[3 - i].state.destroyed = True
    after = act(g, "shoot", BEAM, TypedDice([4, 1, 6]))
    assert after.unit("1/t1")[2].state.destroyed
    assert bool(after.sides[1].resources.get("halved", 0)) is halved


@pytest.mark.parametrize(
    ("category", "level", "faces", "result"),
    [
        ("arm", 1, [3], "Arm Level 2"),  # room left (Arm has a Level 2): the 3 counts
        ("arm", 2, [3, 1], "Leg Level 1"),  # at its top: the 3 is rolled again, a 1 (L1113-L1119)
        ("head", 0, [5], "Head Level 1"),
        ("head", 1, [5, 4], "Arm Level 1"),  # the Head has only a Level 1: the 5 is rolled again
    ],
)
def test_gundam_chart_rolls_again_only_at_a_categorys_top(
    category: str, level: int, faces: list[int], result: str
) -> None:
    """A critical's Damage Chart roll (MS chart 1-2 Leg, 3-4 Arm, 5 Head, 6 Torso) on a category one
    below its top counts; on one at its top it is rolled again (L1108-L1119)."""
    g = gundam_game(b=[("t1", gundam_sample("trooper", shield="none"))]).model_copy(deep=True)
    g.unit("1/t1")[2].state.counters[category] = level
    dice = TypedDice([6, 1, *faces])  # a 6: a critical hit (5+); the armour die fails
    after = act(g, "shoot", BEAM, dice)
    assert dice.left == 0
    assert f"Damage Chart {'/'.join(map(str, faces))}: {result}" in after.log[-1].text


@pytest.mark.parametrize(
    ("face", "result", "health", "mind"),
    [
        (1, "Instant Death", 0, 0),
        (2, "Major Injuries", 6, 7),
        (3, "Major Injuries", 6, 7),
        (4, "Minor Injuries", 8, 8),
        (5, "Minor Injuries", 8, 8),
        (6, "Lucky Escape", 10, 9),
    ],
)
def test_gundam_destruction_table_at_each_edge(face: int, result: str, health: int, mind: int) -> None:
    """The Destruction Table (L1137-L1145): 1 Instant Death (Health and Mind to 0), 2-3 Major Injuries
    (-4 Health, -3 Mind), 4-5 Minor (-2, -2), 6 Lucky Escape (-1 Mind), on a campaign pilot of 10/10."""
    g = gundam_hurt(gundam_game(b=[("t1", gundam_sample("trooper", shield="none"))]), "1/t1", 3)
    g.unit("1/t1")[2].state.extra["pilot"] = {"health": 10, "mind": 10}
    after = act(g, "shoot", BEAM, TypedDice([4, 1, face]))
    assert f"Destruction Table {face}: {result}" in after.log[-1].text
    pilot = after.unit("1/t1")[2].state.extra["pilot"]
    assert (pilot["health"], pilot["mind"]) == (health, mind)


@pytest.mark.parametrize(
    ("ability", "faces", "destroyed", "text"),
    [
        ("exam", [4, 6], True, "EXAM System 4: no effect"),  # 1-4: the Destruction Table as normal
        ("exam", [5], False, "comes back at half Integrity"),  # 5+: back to half (L3261-L3263)
        ("core_block", [3, 6], True, "Destruction Table 6"),  # 3 or less: the table as normal
        ("core_block", [4], True, "Core Block System 4: the pilot escapes"),  # 4+: no table (L2836-L2838)
        ("fortunate", [3, 6], True, "Destruction Table 3, re-rolled (Fortunate)"),  # 1-3: spent (L1968)
        ("fortunate", [4], True, "Destruction Table 4: Minor Injuries"),  # 4: kept
    ],
)
def test_gundam_rolls_before_the_destruction_table_at_their_edges(
    ability: str, faces: list[int], destroyed: bool, text: str
) -> None:
    """EXAM System comes back on 5+, Core Block escapes on 4+, and the app spends Fortunate's re-roll of
    the Destruction Table on a 1-3 (its reading): one below each edge and at it."""
    if ability == "exam":
        changes: dict[str, Any] = {
            "pilot": [U.Pilot(name="Ace", rank=10, heroic_levels=1, heroic_mods=["exam"])]
        }
    elif ability == "fortunate":
        changes = {"pilot": [U.Pilot(name="Lucky", traits=["fortunate"])]}
    else:
        changes = {"abilities": [U.Ability(key=ability)]}
    target = gundam_sample("trooper", shield="none", **changes)
    g = gundam_hurt(gundam_game(b=[("t1", target)]), "1/t1", 3)
    dice = TypedDice([4, 1, *faces])
    after = act(g, "shoot", BEAM, dice)
    assert dice.left == 0
    t = after.unit("1/t1")[2].state
    assert t.destroyed is destroyed
    assert text in after.log[-1].text
    if not destroyed:  # half of 6, rounded down
        assert t.max_damage - t.damage == 3
    else:  # a kill scores the unit's points for the shooter's side (L179-L190), the pilot escaping or not
        cost = implementation("gundam_skirmish").unit_cost(U.Unit.model_validate(target))
        assert after.sides[0].resources.get("destroyed", 0) == cost


def exam_trooper(integrity: int = 6) -> dict[str, Any]:
    ace = U.Pilot(name="Ace", rank=10, heroic_levels=1, heroic_mods=["exam"])
    return gundam_sample("trooper", shield="none", integrity=integrity, pilot=[ace])


@pytest.mark.parametrize(("integrity", "back_to"), [(2, 1), (3, 1), (5, 2), (6, 3)])
def test_gundam_exam_half_integrity_rounded_down_at_least_one(integrity: int, back_to: int) -> None:
    """EXAM's 5+ brings the unit back at half its Integrity (L3261-L3263), rounded down and at least 1
    (digest A40): 2 and 3 give 1, 5 gives 2, 6 gives 3."""
    g = gundam_hurt(gundam_game(b=[("t1", exam_trooper(integrity))]), "1/t1", integrity - 1)
    after = act(g, "shoot", BEAM, TypedDice([4, 1, 5]))
    t = after.unit("1/t1")[2].state
    assert (t.destroyed, t.max_damage - t.damage) == (False, back_to)


@pytest.mark.parametrize(
    ("target", "faces", "asked"),
    [
        ("exam", [4, 1], "roll 1 more d6 for EXAM System"),
        ("core_block", [4, 1], "roll 1 more d6 for Core Block System"),
        ("fortunate", [4, 1, 2], "roll 1 more d6 for Destruction Table (Fortunate)"),
    ],
)
def test_gundam_the_app_asks_for_a_d6_before_the_table(target: str, faces: list[int], asked: str) -> None:
    """With typed dice the player is asked for each roll by its name and die (a D6 each, L2836-L3263,
    L1968)."""
    if target == "exam":
        unit = exam_trooper()
    elif target == "fortunate":
        unit = gundam_sample("trooper", shield="none", pilot=[U.Pilot(name="Lucky", traits=["fortunate"])])
    else:
        unit = gundam_sample("trooper", shield="none", abilities=[U.Ability(key=target)])
    g = gundam_hurt(gundam_game(b=[("t1", unit)]), "1/t1", 3)
    with pytest.raises(NeedMoreDice, match=re.escape(asked)):
        act(g, "shoot", BEAM, TypedDice(faces))


@pytest.mark.parametrize("lost_before", [0, 1])
def test_gundam_a_kill_marks_the_friends_morale(lost_before: int) -> None:
    """A friend destroyed in sight is a morale trigger (L1590-L1591): every friend left on the table is
    marked (the players clear those that did not see it, A52), and the text says so; the destroyed
    ones are not.  Of four, a kill that leaves 3 is only that trigger (no half-force check, L1602)."""
    trooper = gundam_sample("trooper", shield="none")
    b = [("t1", trooper), ("t2", trooper), ("t3", trooper), ("t4", trooper)]
    g = gundam_hurt(gundam_game(b=b), "1/t1", 3).model_copy(deep=True)
    for i in range(lost_before):
        g.sides[1].units[3 - i].state.destroyed = True
    after = act(g, "shoot", BEAM, TypedDice([4, 1, 6]))
    friends = [u.state for u in after.sides[1].units[1:]]
    left = [f for f in friends if not f.destroyed]
    assert len(left) == 3 - lost_before and all("morale_due" in f.conditions for f in left)
    assert all("morale_due" not in f.conditions for f in friends if f.destroyed)
    assert "its friends that saw it check morale (L1590-L1591)" in after.log[-1].text
    assert bool(after.sides[1].resources.get("halved", 0)) is (lost_before == 1)


def gundam_with(g: Game, ref: str, conditions: list[str]) -> Game:
    g = g.model_copy(deep=True)
    g.unit(ref)[2].state.conditions = conditions
    return g


@pytest.mark.parametrize(
    ("before", "faces", "after", "text"),
    [
        ([], (3, 4), [], "3+4=7 against 6: pass; now Steady"),  # the bottom of the ladder: stays Steady
        ([], (2, 3), ["wavering"], "2+3=5 against 6: fail; now Wavering"),
        (["wavering"], (1, 6), [], "1+6=7 against 6: pass; now Steady"),
        (["wavering"], (1, 4), ["routed"], "1+4=5 against 6: fail; now Routed"),
        (["routed"], (6, 1), ["wavering"], "6+1=7 against 6: pass; now Wavering"),
        (["routed"], (1, 1), ["routed"], "1+1=2 against 6: fail; now Routed"),  # the top: stays Routed
    ],
)
def test_gundam_morale_ladder_at_both_ends(
    before: list[str], faces: tuple[int, int], after: list[str], text: str
) -> None:
    """A pass moves one step up, a fail one step down, between Steady and Routed (L1561-L1579); the mark
    of a morale check due is cleared by the check (L1590-L1602)."""
    g = gundam_with(gundam_game(), "1/t1", [*before, "morale_due"])
    out = act(g, "morale", {"unit": "1/t1"}, TypedDice(list(faces)))
    assert out.unit("1/t1")[2].state.conditions == after
    assert out.log[-1].text == f"Trooper checks morale: {text}"


def test_gundam_morale_refusals_and_the_automatic_pass() -> None:
    """A destroyed unit checks nothing; a Wavering unit in sight of a Command unit passes without a roll
    (L1544-L1546) and steps up; the check asks for two D6 (L1570); the Routed roll is refused to a unit
    that is not Routed, and to a Routed one outside its side's turn (L294-L297, L1554-L1558)."""
    g = gundam_game()
    dead = g.model_copy(deep=True)
    dead.unit("1/t1")[2].state.destroyed = True
    with pytest.raises(ValueError, match="Trooper is destroyed"):
        act(dead, "morale", {"unit": "1/t1"}, TypedDice([6, 6]))
    calm = act(
        gundam_with(g, "1/t1", ["wavering"]), "morale", {"unit": "1/t1", "near_command": True}, TypedDice([])
    )
    assert calm.unit("1/t1")[2].state.conditions == []
    assert calm.log[-1].text == "Trooper checks morale: passes automatically; now Steady"
    with pytest.raises(NeedMoreDice, match=re.escape("roll 2 more d6 for Morale check")):
        act(g, "morale", {"unit": "1/t1"}, TypedDice([]))
    with pytest.raises(ValueError, match="Lancer is not Routed"):
        act(g, "rout", {"unit": "0/l1"}, TypedDice([6]))
    with pytest.raises(ValueError, match="Feds's turn"):
        act(gundam_with(g, "1/t1", ["routed"]), "rout", {"unit": "1/t1"}, TypedDice([6]))


def test_gundam_half_the_force_counts_a_unit_waiting_in_reserve() -> None:
    """Every unit left in a force down to half checks morale (L1602; A34), one waiting to Ambush too
    (L1267): it saw no kill, so only the half-force check marks it."""
    trooper = gundam_sample("trooper", shield="none")
    b = [("t1", trooper), ("t2", trooper), ("t3", trooper), ("t4", trooper)]
    g = gundam_hurt(gundam_game(b=b), "1/t1", 3).model_copy(deep=True)
    g.sides[1].units[3].state.destroyed = True
    g.sides[1].units[2].state.conditions = ["reserve"]
    after = act(g, "shoot", BEAM, TypedDice([4, 1, 6]))
    assert after.sides[1].resources["halved"] == 1
    assert after.sides[1].units[2].state.conditions == ["reserve", "morale_due"]


# --- GUNFRAME ----------------------------------------------------------------------------------------

from gunframe_table import hurt as gf_hurt  # noqa: E402
from gunframe_table import mech, start  # noqa: E402
from gunframe_table import with_values as gf_values  # noqa: E402


@pytest.mark.parametrize(
    ("armour", "frame", "damage", "crippled"),
    [
        (8, "medium", 5, False),
        (8, "medium", 6, True),
        (8, "medium", 7, True),  # 8: crippled at 2 left
        (4, "scout", 2, False),
        (4, "scout", 3, True),  # 4: at 1 left (ceil(4/4), L2706)
        (3, "scout", 2, False),  # 3 or less at the start: never (L2719)
        (10, "heavy", 6, False),
        (10, "heavy", 7, True),  # 10: ceil(10/4) = 3 left
    ],
)
def test_gunframe_crippled_at_a_quarter_rounded_up(
    armour: int, frame: str, damage: int, crippled: bool
) -> None:
    """The optional crippled rule (L2700-L2733): Armour left at or below a quarter of the start, rounded
    up; one point above it the unit is whole.  Damage set by hand, as a player adjusting the card would."""
    g = start([mech("A")], [mech("T", frame=frame, armour=armour)], crippled_rules=True)
    g = gf_hurt(g, "1/t", damage)
    assert ("crippled" in g.unit("1/t")[2].state.conditions) is crippled
    if crippled:  # repaired to one above the edge: whole again (L2723)
        back = gf_hurt(g, "1/t", damage - 1)
        still = armour - (damage - 1) <= -(-armour // 4)
        assert ("crippled" in back.unit("1/t")[2].state.conditions) is still


@pytest.mark.parametrize(("clock", "ended"), [(11, False), (12, True), (13, True)])
def test_gunframe_doomsday_device_fires_at_twelve(clock: int, ended: bool) -> None:
    """Doomsday: once the clock reaches 12 or more the device fires at the end of that turn and the
    defender wins (L1863, L1878); at 11 the game goes on (no turn limit)."""
    g = act(start([mech("A")], [mech("X")]), "mission", {"mission": "doomsday"}, TypedDice([]))
    out = act(gf_values(g, clock=clock), "end_phase", {}, TypedDice([]))
    assert out.state.ended is ended
    if ended:
        assert "the device goes off (L1878)" in out.state.extra["result"]


# --- Mobile Suit Battles -----------------------------------------------------------------------------

from test_ms_battles import act as msb_act  # noqa: E402
from test_ms_battles import game as msb_game  # noqa: E402
from test_ms_battles import hurt as msb_hurt  # noqa: E402
from test_ms_battles import planned  # noqa: E402

from core.systems.ms_battles.sample import DECK_A, DECK_B  # noqa: E402


@pytest.mark.parametrize(
    ("high_before", "past_armor", "destroyed", "penalty"),
    [
        (0, False, False, False),  # 1 high: under the penalty's 2 (L97)
        (1, False, False, True),  # exactly 2: the penalty
        (2, False, False, True),  # 3: still standing (high armour 4)
        (3, False, True, None),  # exactly 4: destroyed on reaching the armour (L97, Q-13)
        (3, True, False, True),  # the house rule: reaching it is not enough
        (4, True, True, None),  # past it
    ],
)
def test_ms_battles_zone_penalty_and_destruction_at_their_edges(
    high_before: int, past_armor: bool, destroyed: bool, penalty: bool | None
) -> None:
    """Rising Cut's one high hit on a suit that had taken ``high_before`` there."""
    g = planned(
        msb_game(DECK_A, DECK_B, destroyed_past_armor=past_armor), {0: ["SB-1", "GN-2"], 1: ["RM-1", "BO-1"]}
    )
    g = msb_hurt(g, 1, high=high_before)
    g = msb_act(g, "resolve_card", unit="0/u", card="GN-2")
    g = msb_act(g, "resolve_card", unit="0/u", card="SB-1", target="1/u")
    st = g.sides[1].units[0].state
    assert st.destroyed is destroyed
    if penalty is not None:
        assert st.counters["high"] == high_before + 1
        assert ("high_penalty" in st.conditions) is penalty


# --- MechaStellar ------------------------------------------------------------------------------------

from test_mechastellar import game_of, unit  # noqa: E402

from core.game import UnitState  # noqa: E402
from core.systems.mechastellar.samples import SAMPLES  # noqa: E402
from core.systems.mechastellar.shooting import Shoot, evade_values, plan, stun_target  # noqa: E402


@pytest.mark.parametrize(("tn", "face", "through"), [(4, 3, 1), (4, 4, 0), (4, 5, 0), (2, 2, 0), (2, 1, 2)])
def test_mechastellar_evade_face_at_the_target_number(tn: int, face: int, through: int) -> None:
    """An evade die under the target number lets the hit through, at it or above evades (L139-L146);
    a natural 1 is a critical (2) whatever the number."""
    assert evade_values(tn)[face - 1] == through


@pytest.mark.parametrize(("shots", "rapid", "expected"), [(8, 1, 9), (9, 1, 10), (9, 2, 10)])
def test_mechastellar_ten_dice_cap_at_its_edge(shots: int, rapid: int, expected: int) -> None:
    """At most 10 shooting dice (L134): 9 stays 9 + 1 = 10, 10 is 10, 11 is cut to 10."""
    gun = {"name": "Gatling", "range": 24, "shots": shots, "rapid_fire": rapid, "damage": 100}
    g = game_of([unit("argonaut", weapons=[gun])], [unit("dervish")])
    assert plan(g, Shoot(attacker="0/a0", target="1/b0", band="rapid")).shots == expected


@pytest.mark.parametrize(("bonus", "added"), [(2, 2), (3, 3), (4, 3)])
def test_mechastellar_evade_bonus_cap_at_its_edge(bonus: int, added: int) -> None:
    """The evade bonus a target claims counts up to +3 (L138): +2 is +2, +3 is +3, +4 is +3."""
    g = game_of([unit("argonaut")], [unit("dervish")])
    none = plan(g, Shoot(attacker="0/a0", target="1/b0", evade_bonus=0)).tn
    assert plan(g, Shoot(attacker="0/a0", target="1/b0", evade_bonus=bonus)).tn == none - added


@pytest.mark.parametrize(("hits", "saves"), [(2, 2), (3, 3), (4, 3)])
def test_mechastellar_three_saves_a_weapon_at_most(hits: int, saves: int) -> None:
    """One Armor Save a hit, at most three a weapon (L218): 2 hits 2 saves, 3 hits 3, 4 hits still 3.
    The Argonaut's Cannon (PEN 5) into the Dervish: saves on 5+; a 4 fails, a 5 passes (L218-L223)."""
    g = game_of([unit("argonaut")], [unit("dervish")])
    p = plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=0))
    pool = p.save_pool(hits)
    assert pool.dice == saves
    assert (p.saves_at, pool.values[3], pool.values[4]) == (5, 1, 0)


@pytest.mark.parametrize(
    ("key", "stun", "shut"),
    [("white_asura", 1, False), ("white_asura", 2, True), ("argonaut", 2, False), ("argonaut", 3, True)],
)
def test_mechastellar_stun_past_the_actions_shuts_down(key: str, stun: int, shut: bool) -> None:
    """Stun hits take actions away; more than the unit has shuts it down (L573-L577): a 1-action unit
    with 1 stun acts with none left, with 2 it is shut down; a 2-action unit at 2 and 3."""
    state = UnitState(max_damage=10)
    stun_target(state, SAMPLES[key], stun)
    assert ("shut_down" in state.conditions) is shut


# --- Skirmishers -------------------------------------------------------------------------------------

from test_skirmishers import sample_game  # noqa: E402

SQUAD = ["red_rifle", "red_rifle", "red_smg", "red_lmg", "red_rifle", "red_rifle", "red_rifle"]


def dead(g: Game, n: int) -> Game:
    g = g.model_copy(deep=True)
    for u in range(1, 1 + n):  # u1 is the one checking
        g.sides[0].units[u].state.destroyed = True
    return g


@pytest.mark.parametrize(("killed", "tn"), [(3, None), (4, 7), (5, 8), (6, 9)])
def test_skirmishers_morale_starts_at_four_dead(killed: int, tn: int | None) -> None:
    """Morale checks start once 4 of the squad are dead (L565): 3 dead, none; 4, the Regular's 7; each
    one past 4 adds 1 (L565-L571)."""
    g = dead(sample_game(SQUAD, ["blue_gyro"]), killed)
    if tn is None:
        with pytest.raises(ValueError, match="start at 4"):
            odds(g, "morale", {"unit": "0/u1"})
        return
    o = odds(g, "morale", {"unit": "0/u1"})
    assert o.summary.startswith(f"TN {tn} ")


@pytest.mark.parametrize(("faces", "holds"), [((3, 3), False), ((3, 4), True), ((4, 4), True)])
def test_skirmishers_morale_roll_at_its_target(faces: tuple[int, int], holds: bool) -> None:
    """2D6 at or over the target holds (L565): TN 7 with 4 dead; 6 fails, 7 and 8 hold."""
    g = dead(sample_game(SQUAD, ["blue_gyro"]), 4)
    after = act(g, "morale", {"unit": "0/u1"}, TypedDice(list(faces)))
    assert ("morale_failed" not in after.sides[0].units[0].state.conditions) is holds
