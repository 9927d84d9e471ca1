"""Gundam Skirmish: Mega Units (L1309-L1319), for casual games, and the +2 against SD units (L1362-L1363).

Checked against the rulebook line by line; the odds against every face sequence the game reads
(the location die included).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from test_gundam_skirmish import _enumerate_act, damage_each, game, sample, state

from core.dice import NeedMoreDice, TypedDice
from core.game import Game, act, odds
from core.systems import implementation
from core.systems.gundam_skirmish import units as U
from core.systems.gundam_skirmish.mega import MegaParts, destroyed_chance, location_odds, lost, part_level

SYSTEM = implementation("gundam_skirmish")
PARTS = MegaParts(head=3, arms=3, torso=6, legs=3)  # 15 in all (L1310-L1312)


def mega(**changes: Any) -> dict[str, Any]:
    """A Mega Unit of our own: the Trooper built big, Armour 5 (L1310), no shield."""
    base: dict[str, Any] = {
        **sample("trooper"),
        "name": "Big Trooper",
        "mega": [PARTS.model_dump()],
        "integrity": PARTS.total,
        "armour": {"dice": 5, "success": 5},
        "shield": "none",
    }
    return U.Unit.model_validate({**base, **changes}).model_dump(mode="json")


def casual(g: Game) -> Game:
    return g.model_copy(update={"options": {**g.options, "mega_units": True}})


SHOT = {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle", "cover": "unobstructed"}


# --- the sheet ------------------------------------------------------------------------------------


def test_a_mega_unit_on_the_sheet() -> None:
    unit = U.Unit.model_validate(mega())
    assert U.unit_violations(unit) == []
    assert U.integrity_of(unit) == 15
    # the formula with the parts' total: (4 Move + 15 Integrity + 5 Armour) x 10 (L2758-L2765)
    assert SYSTEM.unit_cost(unit) == 240
    card = SYSTEM.card(unit)
    line = next(x for x in card.lines if x.label == "Integrity")
    assert (line.value, line.note) == ("15", "Mega Unit: Head 3, Arms 3, Torso 6, Legs 3")
    wrong = U.Unit.model_validate(
        mega(integrity=12, armour={"dice": 4, "success": 5}, sd=True, kind="mobile_armour")
    )
    assert [(v.rule, v.ref) for v in U.unit_violations(wrong)] == [
        ("mega-kind", "L1309-L1311"),
        ("mega-sd", "L1309, L1352"),
        ("mega-armour", "L1310"),
        ("mega-integrity", "L1310-L1312"),
    ]
    # the designer's form is drawn from the schema: the parts are a row of four numbers
    schema = U.Unit.model_json_schema()
    row = schema["$defs"]["MegaParts"]
    assert schema["properties"]["mega"]["maxItems"] == 1
    assert list(row["properties"]) == ["head", "arms", "torso", "legs"]


def test_mega_units_only_when_the_game_allows_them() -> None:
    """Casual play only (L1309-L1311): a named reading, off by default."""
    g = game(b=[("t1", mega())])
    with pytest.raises(ValueError, match="Mega Unit, for casual games"):
        act(g, "shoot", SHOT, TypedDice([6]))
    with pytest.raises(ValueError, match="Mega Unit, for casual games"):
        odds(g, "close_combat", {"attacker": "0/l1", "defender": "1/t1"})
    assert casual(g).options["mega_units"] is True
    odds(casual(g), "shoot", SHOT)


# --- hit location, parts, levels, destruction (L1312-L1318) ----------------------------------------


@pytest.mark.parametrize(
    ("face", "part", "counter"),
    [(1, "head", "head"), (2, "arms", "arm"), (3, "torso", None), (5, "torso", None), (6, "legs", "leg")],
)
def test_the_location_die_picks_the_part(face: int, part: str, counter: str | None) -> None:
    g = casual(game(b=[("t1", mega())]))
    # Beam rifle (1 shot 3+, crit 5+, 3 DAM, <P>): a 6 hits; 4 armour dice (5 - 1 Unobstructed) all fail
    after = act(g, "shoot", SHOT, TypedDice([6, 1, 1, 1, 1, face]))
    t = state(after, "1/t1")
    assert t.counters[f"mega_{part}"] == 3
    assert t.damage == 3
    text = after.log[-1].text
    assert f"Hit location {face}: {part.capitalize()} takes 3 (3 of {PARTS.model_dump()[part]})" in text
    # a 6 on a crit-5+ weapon: no Critical Hit, no chart roll against a Mega Unit (L1318-L1319)
    assert "Damage Chart" not in text and "1 critical" not in text
    if counter is not None:  # 3 of 3 lost: two thirds or more, Level 2 (the Head has only a Level 1)
        assert t.counters[counter] == (1 if part == "head" else 2)
    else:  # the Torso has no Level: 3 of 6 lost, the unit stands
        assert (t.counters.get("leg", 0), t.counters.get("arm", 0), t.destroyed) == (0, 0, False)


def test_a_third_gives_level_one_and_the_torso_at_zero_destroys() -> None:
    big = mega(mega=[MegaParts(head=3, arms=6, torso=6, legs=3).model_dump()], integrity=18)
    g = casual(game(b=[("t1", big)]))
    # 3 damage to Arms of 6: a half, at least a third, under two thirds: Level 1 (L1314-L1316)
    g = act(g, "shoot", SHOT, TypedDice([6, 1, 1, 1, 1, 2]))
    assert (state(g, "1/t1").counters["arm"], state(g, "1/t1").counters["mega_arms"]) == (1, 3)
    assert "Arms at Level 1" in g.log[-1].text
    g = g.model_copy(deep=True)
    g.sides[0].units[0].state.counters["actions"] = 0  # a fresh turn for the shooter
    g.sides[0].units[0].state.activated = False
    # 3 more to the Torso twice: 6 of 6, the Mega Unit is destroyed (L1317-L1318), Destruction Table 6
    g = act(g, "shoot", SHOT, TypedDice([6, 1, 1, 1, 1, 4]))
    assert "morale_due" not in state(g, "1/t1").conditions  # 3 of the Torso's 6 left
    g = g.model_copy(deep=True)
    g.sides[0].units[0].state.counters["actions"] = 0
    g.sides[0].units[0].state.activated = False
    g = act(g, "shoot", SHOT, TypedDice([6, 1, 1, 1, 1, 3, 6]))
    t = state(g, "1/t1")
    assert (t.destroyed, t.counters["mega_torso"], t.damage) == (True, 6, 9)
    assert "Big Trooper is destroyed" in g.log[-1].text


def test_no_aimed_shot_at_a_mega_unit() -> None:
    g = casual(game(b=[("t1", mega())]))
    with pytest.raises(ValueError, match=r"no Aimed Shot at a Mega Unit \(L1318\)"):
        act(g, "aimed_shot", {**SHOT, "result": "head"}, TypedDice([6]))


def test_a_mega_unit_needs_two_more_against_an_sd_unit() -> None:
    """L1362-L1363: +1 to hit and to crit against SD units, +2 for a Mega Unit shooting."""
    sd = sample("trooper", sd=True, shield="none")
    shooter = mega(factions=["EFF"], weapons=sample("lancer")["weapons"])
    g = casual(game(a=[("l1", shooter)], b=[("t1", sd)]))
    assert "hits on 5+" in odds(g, "shoot", SHOT).summary  # Beam rifle 3+, +2
    plain = game(a=[("l1", sample("lancer"))], b=[("t1", sd)])
    assert "hits on 4+" in odds(plain, "shoot", SHOT).summary  # +1 for any other shooter


# --- exact odds against every face sequence ----------------------------------------------------------


def every_shot(g: Game, raw: dict[str, Any]) -> dict[tuple[int, bool], Fraction]:
    """(damage, destroyed) of the target over every face sequence the shot reads."""
    out: dict[tuple[int, bool], Fraction] = {}
    stack: list[list[int]] = [[]]
    while stack:
        faces = stack.pop()
        try:
            after = act(g, "shoot", raw, TypedDice(faces))
        except NeedMoreDice:
            stack.extend([*faces, f] for f in range(1, 7))
            continue
        t = state(after, "1/t1")
        key = (t.damage - state(g, "1/t1").damage, t.destroyed)
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 6 ** len(faces))
    return out


def test_shot_odds_at_a_hurt_mega_unit_equal_every_face_sequence() -> None:
    """A Torso with 1 left: destroyed only when damage gets through and the die says Torso (1/2)."""
    # Armour 2 (not the book's 5) keeps the enumeration small: 1 die once Unobstructed
    small = mega(armour={"dice": 2, "success": 6})
    g = casual(game(b=[("t1", small)]))
    g = g.model_copy(deep=True)
    g.sides[1].units[0].state.counters["mega_torso"] = 5
    g.sides[1].units[0].state.damage = 5
    raw = {**SHOT, "cover": "unobstructed", "range": "in_band"}
    shown = odds(g, "shoot", raw)
    got = every_shot(g, raw)
    damage: dict[int, Fraction] = {}
    for (d, _), p in got.items():
        damage[d] = damage.get(d, Fraction(0)) + p
    assert {r.value: Fraction(r.exactly) for r in shown.tables["damage"].rows if r.exactly != "0/1"} == damage
    dead = sum((p for (_, k), p in got.items() if k), Fraction(0))
    assert shown.facts["destroyed"] == pytest.approx(float(dead))
    # by hand: the one die hits on 3+; 1 armour die on 6, a block of strength 2 against <P> (L857-L872):
    # a 3-5 hit is blocked by a 6, a 6 hit by nothing; P(through) = 1/6 + 3/6 * 5/6
    through = Fraction(1, 6) + Fraction(3, 6) * Fraction(5, 6)
    assert dead == through / 2
    assert "no criticals" in shown.summary


def test_close_combat_odds_with_a_mega_defender_equal_every_face_sequence() -> None:
    """The first strike's location can put the Mega Unit's Arms at Level 1 before it strikes back
    (accuracy 5+, L1184-L1199): the odds follow every branch."""
    swift = [U.Pilot(name="Quick", traits=["swift"])]  # Advantage without a roll (L1999-L2000)
    axe = U.CloseCombatWeapon(name="Axe", dex=0, attack=1, acc=3, crit=5, dam=2)  # one die each side
    lancer = sample("lancer", pilot=swift, shield="none", close_combat=[axe])
    big = mega(close_combat=[{**axe.model_dump(), "name": "Claws"}])
    g = casual(game(a=[("l1", lancer)], b=[("t1", big)]))
    g = g.model_copy(deep=True)
    g.sides[1].units[0].state.counters["mega_torso"] = 4  # 2 left: one strike may end it
    g.sides[1].units[0].state.damage = 4
    fight = {"attacker": "0/l1", "defender": "1/t1", "charged": False}
    o = odds(g, "close_combat", fight)
    got = _enumerate_act(g, "close_combat", fight)
    to_x, to_y = damage_each(got)
    rows_y = o.tables["damage to the target"].rows
    rows_x = o.tables["damage to the attacker"].rows
    assert {r.value: Fraction(r.exactly) for r in rows_y if r.exactly != "0/1"} == to_y
    assert {r.value: Fraction(r.exactly) for r in rows_x if r.exactly != "0/1"} == to_x
    assert o.facts["destroyed"] == pytest.approx(float(sum(p for k, p in got.items() if k[3])))
    assert o.facts["attacker destroyed"] == pytest.approx(float(sum(p for k, p in got.items() if k[2])))


# --- thresholds at their boundaries (L1314-L1318) ----------------------------------------------------
# The book says "33% (1/3) or more" and "66% (2/3) or more" (L1314-L1317).  With a part's Integrity at
# most 20 (the designer's bound) no whole number of damage falls between 66% and 2/3, or between 33% and
# 1/3 (the nearest fractions with a denominator up to 20 are 13/20 and 6/19), so the two readings agree.


@pytest.mark.parametrize(
    ("integrity", "damage", "level"),
    [
        (6, 1, 0),
        (6, 2, 1),
        (6, 3, 1),
        (6, 4, 2),
        (6, 5, 2),  # 1/3 = 2 and 2/3 = 4 exactly
        (7, 2, 0),
        (7, 3, 1),
        (7, 4, 1),
        (7, 5, 2),  # 7/3 = 2.33: 3 is the first; 14/3 = 4.67: 5 is
        (3, 0, 0),
        (3, 1, 1),
        (3, 2, 2),
        (3, 9, 2),  # small parts: 1 is a third, 2 two thirds
        (20, 6, 0),
        (20, 7, 1),
        (20, 13, 1),
        (20, 14, 2),  # the largest part the designer allows
    ],
)
def test_a_part_level_at_one_third_and_two_thirds_exactly(integrity: int, damage: int, level: int) -> None:
    """Level 1 from a third lost (one below: none), Level 2 from two thirds (one below: Level 1), L1314-L1317.
    Arms and Legs have both levels; the Head only a Level 1 (L1159-L1223); the Torso none (L1317)."""
    assert part_level(damage, integrity, "arms") == level
    assert part_level(damage, integrity, "legs") == level
    assert part_level(damage, integrity, "head") == min(level, 1)
    assert part_level(damage, integrity, "torso") == 0


@pytest.mark.parametrize(
    ("arms", "before", "level"),
    [(10, 0, 0), (9, 0, 1), (6, 0, 1), (6, 1, 2), (6, 2, 2)],
)
def test_the_arms_level_through_a_shot_at_each_boundary(arms: int, before: int, level: int) -> None:
    """As the player sees it: the Beam rifle's 3 damage to Arms that had lost ``before``: 3 of 10 is
    under a third (none), 3 of 9 exactly a third (Level 1), 3 of 6 under two thirds (Level 1), 4 of 6
    exactly two thirds (Level 2), 5 of 6 past it (L1314-L1317)."""
    split = MegaParts(head=2, arms=arms, torso=4, legs=2)
    big = mega(mega=[split.model_dump()], integrity=split.total)
    g = casual(game(b=[("t1", big)])).model_copy(deep=True)
    t = g.sides[1].units[0].state
    t.counters["mega_arms"] = before
    t.damage = before
    after = act(g, "shoot", SHOT, TypedDice([6, 1, 1, 1, 1, 2]))
    s = state(after, "1/t1")
    assert (s.counters["mega_arms"], s.counters.get("arm", 0)) == (before + 3, level)
    assert (f"Arms at Level {level}" in after.log[-1].text) is (level > 0)


@pytest.mark.parametrize(
    ("torso_lost", "destroyed", "morale_due"),
    [(2, False, False), (3, False, True), (4, True, False)],  # 5 of 6 lost: 1 left; 6 of 6: gone
)
def test_the_torso_at_one_left_and_at_zero(torso_lost: int, destroyed: bool, morale_due: bool) -> None:
    """3 damage to the Torso (6): at 0 or less the unit is destroyed (L1317-L1318); at 1 left its
    morale is due (the app's reading of L1599 for a unit with parts); at 2 left neither."""
    g = casual(game(b=[("t1", mega())])).model_copy(deep=True)
    t = g.sides[1].units[0].state
    t.counters["mega_torso"] = torso_lost - 1
    t.damage = torso_lost - 1
    # Beam rifle: 3 damage, location 3 (Torso); a 6 on the Destruction Table when it is destroyed
    after = act(g, "shoot", SHOT, TypedDice([6, 1, 1, 1, 1, 3, 6]))
    s = state(after, "1/t1")
    assert s.counters["mega_torso"] == torso_lost + 2
    assert s.destroyed is destroyed
    assert ("morale_due" in s.conditions) is morale_due


def test_the_location_odds_and_the_torso_odds_at_the_boundary() -> None:
    """The die: Head, Arms, Legs on one face each, the Torso on three (L1312-L1314); destroyed only when
    the Torso is picked and reaches 0 (L1317-L1318), exactly at its Integrity or past it."""
    assert location_odds() == {
        "head": Fraction(1, 6),
        "arms": Fraction(1, 6),
        "torso": Fraction(1, 2),
        "legs": Fraction(1, 6),
    }
    parts = MegaParts(head=3, arms=4, torso=7, legs=4)
    assert destroyed_chance(parts, 2, 4) == 0  # one short
    assert destroyed_chance(parts, 2, 5) == Fraction(1, 2)  # exactly 0 left
    assert destroyed_chance(parts, 2, 6) == Fraction(1, 2)  # past it
    assert destroyed_chance(parts, 0, 7) == Fraction(1, 2)
    assert destroyed_chance(parts, 7, 0) == 0  # no damage through, no location roll matters
    assert destroyed_chance(parts, 6, 1) == Fraction(1, 2)


def test_the_parts_add_up() -> None:
    """A Mega Unit's damage is its parts' sum, a part not yet hit counting 0; its Integrity the parts'
    total (L1310-L1312)."""
    assert lost({"head": 2}) == 2
    assert lost({"head": 1, "arms": 2, "torso": 3, "legs": 4}) == 10
    p = MegaParts(head=2, arms=3, torso=5, legs=7)
    assert (p.total, p.of("legs"), p.of("torso")) == (17, 7, 5)


def test_the_designer_offers_splits_within_the_books_15_to_20() -> None:
    """The ready-made splits: 15, 18 and 20 Integrity (the book: about 15-20, L1310-L1312), each titled
    with its parts in plain words."""
    presets = MegaParts.model_json_schema()["presets"]
    assert [p["title"] for p in presets] == [
        "15 Integrity: Head 3, Arms 3, Torso 6, Legs 3",
        "18 Integrity: Head 3, Arms 4, Torso 8, Legs 3",
        "20 Integrity: Head 4, Arms 4, Torso 8, Legs 4",
    ]
    assert presets[1]["value"] == {"head": 3, "arms": 4, "torso": 8, "legs": 3}
    for p in presets:
        assert 15 <= sum(p["value"].values()) <= 20
        assert MegaParts.model_validate(p["value"]).total == int(p["title"].split()[0])


def test_the_location_is_asked_for_as_a_d6() -> None:
    """Once damage gets through, the player is asked for the location die, a D6 (L1312-L1314)."""
    g = casual(game(b=[("t1", mega())]))
    with pytest.raises(NeedMoreDice, match=r"roll 1 more d6 for Mega Unit hit location"):
        act(g, "shoot", SHOT, TypedDice([6, 1, 1, 1, 1]))


@pytest.mark.parametrize(
    ("torso_lost", "location", "fires"),
    [(0, 3, True), (0, 2, True), (5, 3, False)],  # Torso 1 of 6, Arms 1 of 3: it fires; Torso 6 of 6: gone
)
def test_poor_balance_on_a_mega_unit_stops_the_shot_only_when_it_destroys_it(
    torso_lost: int, location: int, fires: bool
) -> None:
    """Poor Balance: on a 5+ the shooter takes 1 damage (L2978-L2979), located on a Mega Unit like any
    damage (L1312-L1314); the shot goes on unless that destroyed it (the Torso at 0, L1317-L1318)."""
    shooter = mega(
        factions=["EFF"], weapons=sample("lancer")["weapons"], abilities=[U.Ability(key="poor_balance")]
    )
    g = casual(game(a=[("l1", shooter)], b=[("t1", sample("trooper", shield="none"))])).model_copy(deep=True)
    g.sides[0].units[0].state.counters["mega_torso"] = torso_lost
    g.sides[0].units[0].state.damage = torso_lost
    # Poor Balance 5, the location, then the shot: a 4 hits, the armour die fails (or the Destruction
    # Table's 4 when the shooter is destroyed)
    after = act(g, "shoot", SHOT, TypedDice([5, location, 4, 1]))
    assert state(after, "1/t1").damage == (3 if fires else 0)
    assert state(after, "0/l1").destroyed is not fires
