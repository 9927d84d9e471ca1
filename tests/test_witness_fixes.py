"""Modifiers the contract check's situations (issue 27, ``witnesses.json``) found accepted but left out of
the odds, each fixed with its rulebook line: the odds shown now equal what resolving every face gives."""

from __future__ import annotations

from fractions import Fraction
from math import comb

from core.dice import TypedDice
from core.game import Game, act, new_game, odds
from core.squad import Squad, SquadUnit
from core.systems import implementation


def _game(system_id: str, *sides: list[str]) -> Game:
    by_id = {u.id: u for u in implementation(system_id).catalogue()}
    squads = [
        (
            name,
            Squad(
                id=name,
                name=name,
                system=system_id,
                units=[SquadUnit(key=f"u{n + 1}", profile=by_id[k].profile) for n, k in enumerate(units)],
            ),
        )
        for name, units in zip("AB", sides, strict=True)
    ]
    return new_game("fix", "Fix", squads)


def test_gunframe_parry_damage_back_is_in_the_attack_odds() -> None:
    """Parry (L2448): the defender deals 1 damage to a Close attacker per defensive 6.  The attack's odds
    showed only the target's damage, the same with and without Parry; they now hold the damage dealt
    back: one per six of the defense dice (the default reading: whether or not damage got through), and
    the book's example (L2450: every hit blocked, two 6s, 2 damage) resolves to what they show."""
    from core.systems.gunframe.attack import PARRY_KEY

    g = _game("gunframe", ["lynx"], ["gorilla"])
    raw = {"attacker": "0/u1", "target": "1/u1", "weapon": "close", "parry": True}
    shown = odds(g, "attack", raw)
    n = int(shown.summary.split(" against ")[1].split()[0])  # the defense dice
    assert n >= 2
    sixes = {k: Fraction(comb(n, k) * 5 ** (n - k), 6**n) for k in range(n + 1)}
    assert {r.value: Fraction(r.exactly) for r in shown.tables[PARRY_KEY].rows} == sixes
    assert PARRY_KEY not in odds(g, "attack", {**raw, "parry": False}).tables
    # the example: the attack's dice all miss, the defense rolls two 6s and the rest 1s
    attack_dice = int(shown.summary.split()[0])
    after = act(g, "attack", raw, TypedDice([1] * attack_dice + [6, 6] + [1] * (n - 2)))
    assert after.sides[0].units[0].state.damage == 2
    assert after.sides[1].units[0].state.damage == 0


def test_gundam_merciful_shot_odds_show_no_damage_and_the_integrity_regained() -> None:
    """Merciful (L1981-L1983): a shot that would deal damage deals none, and the shooter regains 2
    Integrity.  The odds showed the shot's usual damage; they now show none, and the chance of sparing."""
    from core.systems.gundam_skirmish.shoot import MERCIFUL_KEY

    by_id = {u.id: u for u in implementation("gundam_skirmish").catalogue()}
    pilot = [{"name": "Mercy", "rank": 2, "traits": ["merciful"]}]
    ace = {**by_id["lancer"].profile, "pilot": pilot}
    sides = [
        ("A", Squad(id="a", name="A", system="gundam_skirmish", units=[SquadUnit(key="u1", profile=ace)])),
        (
            "B",
            Squad(
                id="b",
                name="B",
                system="gundam_skirmish",
                units=[SquadUnit(key="u1", profile=by_id["gun_tank"].profile)],
            ),
        ),
    ]
    g = act(new_game("m", "M", sides), "priority", {"places": [1]}, TypedDice([5, 2]))
    raw = {"attacker": "0/u1", "target": "1/u1", "weapon": "Beam rifle"}
    plain, spared = odds(g, "shoot", raw), odds(g, "shoot", {**raw, "merciful": True})
    miss = Fraction(next(r.exactly for r in plain.tables["damage"].rows if r.value == 0))
    assert miss < 1
    assert [(r.value, Fraction(r.exactly)) for r in spared.tables["damage"].rows] == [(0, 1)]
    assert spared.facts["destroyed"] == 0
    assert spared.facts[MERCIFUL_KEY] == float(1 - miss)
    # resolved: a hit (5), both armour dice failing (1, 1): the Gun Tank is spared
    after = act(g, "shoot", {**raw, "merciful": True}, TypedDice([5, 1, 1]))
    assert after.sides[1].units[0].state.damage == 0
    assert "merciful" in after.sides[0].units[0].state.extra["once"]
    assert act(g, "shoot", raw, TypedDice([5, 1, 1])).sides[1].units[0].state.damage > 0


def test_gundam_merciful_close_combat_spares_the_target_whose_strike_back_then_counts() -> None:
    """Merciful in close combat (L1981-L1983): the attacker's strike that would deal damage deals none,
    and the attacker regains 2 Integrity before the defender strikes.  The odds showed the strike's usual
    damage; now the target is never damaged, and a spared target always strikes back, at the healed unit.
    (Checked once against every face sequence, 29,376 of them, for the Gun Tank: equal; too slow to keep.)"""
    import sys

    sys.path.insert(0, "tests")
    from test_gundam_campaign_rules import KEEP, damaged, duel, unit

    from core.systems.gundam_skirmish.shoot import MERCIFUL_KEY

    fight = {"attacker": "0/f0", "defender": "1/z0", **KEEP, "defender_shield_break": "no"}
    for foe in ("gun_tank", "trooper"):
        g = Game.model_validate(damaged(duel([unit("lancer", "merciful")], [unit(foe)]), 0, 0, 5))
        plain, spared = odds(g, "close_combat", fight), odds(g, "close_combat", {**fight, "merciful": True})
        assert [(r.value, Fraction(r.exactly)) for r in spared.tables["damage to the target"].rows] == [
            (0, 1)
        ]
        assert spared.facts["destroyed"] == 0
        hit = 1 - next(Fraction(r.exactly) for r in plain.tables["damage to the target"].rows if r.value == 0)
        # the Lancer spares whenever its strike, made as before, would have dealt damage
        assert spared.facts[MERCIFUL_KEY] == float(hit)
        if foe == "gun_tank":  # Unarmed: it never strikes back
            continue
        # the Trooper always strikes back now, at a Lancer with 1 + 2 Integrity left
        back = {r.value: Fraction(r.exactly) for r in spared.tables["damage to the attacker"].rows}
        assert spared.facts["attacker destroyed"] == float(sum(p for d, p in back.items() if d >= 3))
        assert spared.facts["attacker destroyed"] > plain.facts["attacker destroyed"]
