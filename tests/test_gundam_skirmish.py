"""Mobile Suit Gundam: Skirmish, checked rule by rule (lines are in 000_3e12d4cbd0c8f6da.txt).

The book prints no unit roster (digest A1), so the games use the app's own sample
units, built from the book's guideline tables.  Odds are checked against a
brute-force enumeration of every face sequence the resolving code can read.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Hashable
from fractions import Fraction
from typing import Any

import pytest

from core.dice import Dist, NeedMoreDice, TypedDice
from core.game import Game, act, gated_actions, new_game, odds, undo
from core.squad import Squad, SquadUnit, check
from core.systems import implementation
from core.systems.base import NeedChoice
from core.systems.gundam_skirmish import catalogue as cat
from core.systems.gundam_skirmish import units as U
from core.systems.gundam_skirmish.close_combat import (
    Striker,
    advantage_p,
    roll_strike,
    strike_dist,
)
from core.systems.gundam_skirmish.samples import SAMPLES
from core.systems.gundam_skirmish.shooting import (
    MS_CHART,
    DefendGroup,
    Shot,
    after_pool,
    chart_dist,
    hit_count,
    roll_chart,
    roll_shot,
    shot_outcome,
)

SYSTEM = implementation("gundam_skirmish")


def brute(run: Callable[[TypedDice], Hashable]) -> dict[Hashable, Fraction]:
    """Every face sequence ``run`` can read, each with its probability, summed by result."""
    out: dict[Hashable, Fraction] = {}
    stack: list[list[int]] = [[]]
    while stack:
        faces = stack.pop()
        try:
            result = run(TypedDice(faces))
        except NeedMoreDice:
            stack.extend([*faces, f] for f in range(1, 7))
            continue
        out[result] = out.get(result, Fraction(0)) + Fraction(1, 6 ** len(faces))
    return out


def as_dict(d: Dist[Any]) -> dict[Any, Fraction]:
    return dict(d.probabilities())


def sample(key: str, **changes: Any) -> dict[str, Any]:
    return SAMPLES[key].model_copy(update=changes).model_dump(mode="json")


def squad(sid: str, name: str, *entries: tuple[str, dict[str, Any]]) -> Squad:
    units = [SquadUnit(key=k, profile=p) for k, p in entries]
    return Squad(id=sid, name=name, system="gundam_skirmish", units=units)


def game(
    a: list[tuple[str, dict[str, Any]]] | None = None, b: list[tuple[str, dict[str, Any]]] | None = None
) -> Game:
    """Feds (side 0) against Zeon (side 1), priority rolled 5-2, the Feds take the first turn and begin it."""
    a = a or [("l1", sample("lancer")), ("g1", sample("gun_tank"))]
    b = b or [("t1", sample("trooper")), ("h1", sample("heavy_gunner"))]
    g = new_game("g", "Test", [("Feds", squad("a", "Feds", *a)), ("Zeon", squad("b", "Zeon", *b))])
    return act(g, "priority", {"places": [1]}, TypedDice([5, 2]))


def state(g: Game, ref: str) -> Any:
    return g.unit(ref)[2].state


# --- 1. the unit sheet and the guideline tables (L2321-L2765) ---------------------------------------


def test_guideline_rows_are_the_books_numbers() -> None:
    rows = {r.key: r for r in cat.RANGED}
    # L2528 vulcans 3 dice 5+ no crit 1 DAM 0-12"; L2568-L2569 beam rifles 1 die 3+ 5+ 3 DAM 12-36" <P> 50 pts
    assert (rows["vulcan"].shots, rows["vulcan"].acc, rows["vulcan"].crit, rows["vulcan"].dam) == (
        3,
        5,
        None,
        1,
    )
    r = rows["beam_rifle"]
    assert (r.shots, r.acc, r.crit, r.dam, r.range_min, r.range_max, r.penetration, r.points) == (
        1,
        3,
        5,
        3,
        12,
        36,
        True,
        50,
    )
    # L2571-L2577: Gatling guns roll a D6 for their shots and need a Quick Reload
    assert rows["gatling"].shots is None and rows["gatling"].reload == "RQ"
    close = {c.key: c for c in cat.CLOSE}
    # L2657-L2658 beam sabres +2 DEX, 2D6, 3+, 4+, 4 DAM, 50 pts; L2645-L2646 claws <PS>
    b = close["beam_saber"]
    assert (b.dex, b.attack, b.acc, b.crit, b.dam, b.points) == (2, 2, 3, 4, 4, 50)
    assert close["claws"].piercing_strike
    # L804-L853: shield grades; L666-L674: beam defence (Super Heavy 4+ as printed, A4)
    assert [(g.dice, g.success, g.integrity, g.points) for g in cat.SHIELDS.values()] == [
        (1, 6, 2, 20),
        (2, 5, 3, 40),
        (3, 4, 4, 60),
        (4, 3, 5, 80),
    ]
    assert cat.BEAM_DEFENCE == {"light": (1, 6), "medium": (2, 5), "heavy": (3, 4), "super_heavy": (4, 4)}
    # L2452-L2497: three eras, values 1-5 succeed on 6, 5+, 4+, 3+, 3+
    assert len(cat.ARMOUR) == 15
    assert [(r.dice, r.success) for r in cat.ARMOUR if r.era == "cosmic_era"] == [
        (1, 6),
        (2, 5),
        (3, 4),
        (4, 3),
        (5, 3),
    ]


def test_every_entry_is_selectable_and_says_who_applies_it() -> None:
    for kind, model_field in (("ability", U.Ability.model_fields["key"]),):
        assert set(typing.get_args(model_field.annotation)) == set(cat.ALL_ENTRIES[kind])
    assert set(typing.get_args(U.TraitKey)) == set(cat.ALL_ENTRIES["trait"])
    assert set(typing.get_args(U.ModKey)) == set(cat.ALL_ENTRIES["mod"])
    assert set(typing.get_args(U.HeroicModKey)) == set(cat.ALL_ENTRIES["heroic_mod"])
    assert set(typing.get_args(U.HeroicTraitKey)) == set(cat.ALL_ENTRIES["heroic_trait"])
    assert len(cat.ABILITIES) == 39 and len(cat.TRAITS) == 14 and len(cat.ORDERS) == 10
    for group in cat.ALL_ENTRIES.values():
        for e in group.values():
            assert e.ref.startswith("L") and e.help
            assert e.engine == (not e.by_hand)


def test_schema_describes_every_field() -> None:
    schema = U.Unit.model_json_schema()
    for name, model in [("Unit", schema), *schema["$defs"].items()]:
        for prop, spec in model.get("properties", {}).items():
            assert spec.get("description"), f"{name}.{prop} has no description"


def test_custom_unit_formula() -> None:
    # L2758-L2765: (Movement + Integrity + Armour) x 10, +20/40/60/80 by shield
    u = U.Unit.model_validate(sample("lancer"))
    assert U.formula_cost(u) == (4 + 6 + 3) * 10 + 40 == 170
    assert SYSTEM.unit_cost(u) == 170
    priced = u.model_copy(update={"points": 221})
    assert [v.rule for v in U.unit_violations(priced)] == ["points-formula"]  # at most 50 over the formula
    assert U.unit_violations(u.model_copy(update={"points": 220})) == []
    # A character pilot adds 10 per rank (L1797), each heroic level 100 (L3211)
    piloted = u.model_copy(update={"pilot": [U.Pilot(name="Ace", rank=3)]})
    assert SYSTEM.unit_cost(piloted) == 200


def test_samples_are_legal_and_named_as_ours() -> None:
    for c in SYSTEM.catalogue():
        p = SYSTEM.profile_model.model_validate(c.profile)
        # named as a player would name them (issue 22); the note says they are the app's own
        assert not c.name.startswith("Sample") and "own making" in c.note
        assert SYSTEM.unit_violations(p) == []
    costs = {k: SYSTEM.unit_cost(u) for k, u in SAMPLES.items()}
    assert costs == {"trooper": 140, "lancer": 170, "captain": 230, "gun_tank": 90, "heavy_gunner": 170}


def test_sample_forces_are_two_armies_of_one_faction_that_start_at_once_l2339() -> None:
    """Two ready-made armies, one faction each (L2339-L2342), legal and ready: a game starts from them."""
    forces = SYSTEM.sample_forces()
    assert [f.name for f in forces] == ["Federation patrol", "Zeon raiders"]
    by_id = {c.id: c for c in SYSTEM.catalogue()}
    squads = [
        Squad(
            id=f"s{n}",
            name=f.name,
            system="gundam_skirmish",
            units=[
                SquadUnit(key=f"u{i}", profile=by_id[k].profile, origin=f"catalogue:{k}")
                for i, k in enumerate(f.units)
            ],
        )
        for n, f in enumerate(forces)
    ]
    for squad, faction in zip(squads, ("EFF", "ZEON"), strict=True):
        profiles = [SYSTEM.profile_model.model_validate(u.profile) for u in squad.units]
        assert all(faction in p.factions for p in profiles)
        assert check(squad).violations == []
    assert [sum(SYSTEM.unit_cost(SAMPLES[k]) for k in f.units) for f in forces] == [260, 260]
    g = new_game("g", "Sample battle", [(s.name, s) for s in squads])
    assert [side.name for side in g.sides] == ["Federation patrol", "Zeon raiders"]


# --- 2. army building (L431-L451, L1277-L1281, L2339-L2342, L2727-L2755) ------------------------------


def test_carried_weapon_allowance_and_weapon_pack() -> None:
    u = U.Unit.model_validate(sample("trooper"))
    three = u.model_copy(update={"weapons": [*u.weapons, U.archetype_weapon("rockets", "Rocket pod")]})
    assert [v.rule for v in U.unit_violations(three)] == ["carried-max"]
    picked = three.model_copy(update={"carried": ["Machine gun", "Rocket pod"], "equipped": "Rocket pod"})
    assert U.unit_violations(picked) == []
    assert U.starting_weapon(picked) == "Rocket pod"
    # L2035-L2036: a Weapon Pack allows three
    packed = three.model_copy(update={"pilot": [U.Pilot(name="P", rank=3, mods=["weapon_pack"])]})
    assert U.unit_violations(packed) == []
    bad = picked.model_copy(update={"equipped": "Bazooka"})
    assert [v.rule for v in U.unit_violations(bad)] == ["equipped"]


def test_command_rule_needs_the_tag_and_500_points_each() -> None:
    u = U.Unit.model_validate(sample("lancer"))
    assert [v.ref for v in U.unit_violations(u.model_copy(update={"command": True}))] == [
        "L1277-L1279, L2332-L2335"
    ]
    captain = sample("captain")
    small = squad("s", "S", ("c", captain), ("l", sample("lancer")))
    report = check(small)
    assert [v.rule for v in report.violations] == ["command-count"]
    assert report.violations[0].message == "1 Command units; 170 points of other units allow 0"
    big = squad("s", "S", ("c", captain), *[(f"l{i}", sample("lancer")) for i in range(3)])
    assert check(big).violations == [] and check(big).total == 230 + 3 * 170


def test_one_faction_per_army() -> None:
    mixed = squad("s", "S", ("l", sample("lancer")), ("t", sample("trooper")))
    assert [v.rule for v in check(mixed).violations] == ["one-faction"]
    tank_with_either = squad("s", "S", ("l", sample("lancer")), ("g", sample("gun_tank")))
    assert check(tank_with_either).violations == []


def test_characters_pilot_mobile_suits_only_and_traits_once() -> None:
    tank = U.Unit.model_validate(sample("gun_tank", pilot=[U.Pilot(name="P", traits=["stoic", "stoic"])]))
    assert [v.rule for v in U.unit_violations(tank)] == ["pilot-kind", "trait-twice", "trait-count"]
    # A31: rank 4 gives two traits and one modification; a ZEON pilot cannot fly an EFF suit (L1802-L1803)
    ace = U.Pilot(name="Ace", faction="ZEON", rank=4, traits=["stoic", "swift"], mods=["heavy_plating"])
    lancer = U.Unit.model_validate(sample("lancer", pilot=[ace]))
    assert [v.rule for v in U.unit_violations(lancer)] == ["pilot-faction"]
    fits = lancer.model_copy(update={"pilot": [ace.model_copy(update={"faction": "EFF"})]})
    assert U.unit_violations(fits) == []


# --- 3. shooting (L595-L801) -----------------------------------------------------------------------


def test_book_damage_example_two_dam_two_hits() -> None:
    """L1102-L1105: a 2 DAM weapon with 2 dice left in the pool deals 4 damage."""
    g = game()
    # Turret cannon: 2 shots 4+, 2 DAM (L2537) rolls 4, 5; the Trooper in cover: 2 armour dice on 5+
    # roll 1, 2, its light shield 1 die on 6 rolls 1.
    g = act(
        g, "shoot", {"attacker": "0/g1", "target": "1/t1", "shield_break": "no"}, TypedDice([4, 5, 1, 2, 1])
    )
    assert state(g, "1/t1").damage == 4
    assert "2 hits through, 4 damage" in g.log[-1].text


def test_penetration_shot_through_the_layer_with_undo() -> None:
    g = game()
    before = g.model_dump()
    # Beam rifle <P> on a Trooper in cover: cover shifts to Unobstructed (L1342-L1344), 1 armour die on 5+.
    # Attack 6 (a level-3 hit and a critical); armour 6 cannot block a 6 (L857-L872); the shield's
    # 4+ check passes (L660-L663) and costs 1 shield integrity; its die 6 cannot block it either.
    with pytest.raises(NeedChoice) as asked:
        act(
            g,
            "shoot",
            {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle", "shield_break": "ask"},
            TypedDice([6, 6, 4, 6]),
        )
    assert asked.value.field == "shield_break"  # asked once the damage is known (A12)
    g = act(
        g,
        "shoot",
        {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle", "shield_break": "no"},
        TypedDice([6, 6, 4, 6, 3]),
    )
    t = state(g, "1/t1")
    assert (t.damage, t.counters["arm"], t.counters["shield"], t.conditions) == (3, 1, 1, ["morale_due"])
    assert state(g, "0/l1").counters["actions"] == 1
    assert "Arm Level 1" in g.log[-1].text
    assert undo(g).model_dump() == {**before, "log": undo(g).model_dump()["log"], "cursor": before["cursor"]}


def test_shield_break_halves_and_cancels_charts() -> None:
    g = game()
    g = act(
        g,
        "shoot",
        {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle", "shield_break": "yes"},
        TypedDice([6, 1, 1]),
    )
    t = state(g, "1/t1")
    # 3 damage, half (1) prevented (L1123-L1125), no chart roll, the shield is gone (L1126)
    assert (t.damage, t.counters["arm"], t.counters["shield"]) == (2, 0, 0)
    assert "shield_broken" in t.conditions


def test_reload_and_action_economy() -> None:
    g = game()
    # Rotary cannon (Gatling) <RQ> needs a reload after firing (L730-L731); the Zeon side plays next.
    g = act(g, "next_turn", {}, TypedDice([]))
    fire = {"attacker": "1/h1", "target": "0/l1", "weapon": "Rotary cannon", "shield_break": "no"}
    # a D6 of 1 for the number of shots, the shot misses; the Lancer's 3 armour and 2 shield dice
    g = act(g, "shoot", fire, TypedDice([1, 1, 1, 1, 1, 1, 1]))
    with pytest.raises(ValueError, match="reloaded"):
        act(g, "shoot", fire, TypedDice([1, 1]))
    g = act(g, "reload", {"unit": "1/h1"}, TypedDice([]))
    assert g.log[-1].text == "Heavy Gunner: Quick Reload of Rotary cannon"
    with pytest.raises(ValueError, match="no Fast action left"):
        act(g, "idle", {"unit": "1/h1"}, TypedDice([]))
    assert state(g, "1/h1").activated
    with pytest.raises(ValueError, match="moves at most 8"):
        act(g, "move", {"unit": "1/t1", "boost": True, "distance": 9}, TypedDice([]))  # Boost 8" at most
    g = act(g, "move", {"unit": "1/t1", "boost": True, "distance": 8}, TypedDice([]))
    assert state(g, "1/t1").activated and state(g, "1/t1").counters["actions"] == 2


def test_shoot_is_offered_only_to_a_unit_that_may_act_now_L294_L297_L1992() -> None:
    """In Zeon's turn the Feds' Lancer (no Responsive pilot) is offered Shoot greyed with the reason and the
    engine refuses it (L294-L297) (a Responsive pilot's shot: test_gundam_campaign_rules); once the game is
    over nothing is offered."""
    g = act(game(), "next_turn", {}, TypedDice([]))
    why = gated_actions(g)["0/l1"]["shoot"]
    assert why == (
        "it is Zeon's turn: Feds's units act in their own turn; when Zeon is done, tap Next turn (L294-L297)"
    )
    assert gated_actions(g)["0/l1"]["idle"] == why
    assert "shoot" not in gated_actions(g).get("1/h1", {})
    with pytest.raises(ValueError, match="Zeon's turn"):
        act(g, "shoot", {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle"}, TypedDice([6] * 20))
    over = g.model_copy(deep=True)
    over.state.ended = True
    assert gated_actions(over)["1/h1"]["shoot"] == "the game is over"
    with pytest.raises(ValueError, match="the game is over"):
        act(over, "idle", {"unit": "1/h1"}, TypedDice([]))


def test_explosive_weapons_never_fire_inside_minimum_range() -> None:
    g = game()
    g = act(g, "next_turn", {}, TypedDice([]))
    with pytest.raises(ValueError, match="L611-L614"):
        odds(g, "shoot", {"attacker": "1/h1", "target": "0/l1", "weapon": "Missile rack", "range": "closer"})


def test_arm_damage_sets_accuracy_five() -> None:
    g = game()
    g = g.model_copy(deep=True)
    g.sides[0].units[0].state.counters["arm"] = 1
    o = odds(g, "shoot", {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle"})
    assert o.summary.startswith("Beam rifle: hits on 5+")  # L743, L1184-L1199 (A7: max(ACC, 5))


SMALL_SHOTS = [
    Shot(
        shots=2,
        acc=4,
        crit=6,
        dam=2,
        attack_rerolls=1,
        groups=(DefendGroup("armour", 2, 4),),
        defend_rerolls=1,
    ),
    Shot(
        shots=1,
        acc=3,
        crit=5,
        dam=3,
        penetration=True,
        shield_check=True,
        movable_frame=True,
        groups=(
            DefendGroup("beam", 1, 5, beam=True),
            DefendGroup("armour", 1, 5),
            DefendGroup("shield", 1, 5),
        ),
    ),
    Shot(shots=5, acc=3, crit=4, dam=1, groups=(DefendGroup("armour", 1, 4),)),
    Shot(shots=None, acc=5, crit=6, dam=1, groups=(), coating=1),
    Shot(
        shots=1,
        acc=4,
        crit=5,
        dam=2,
        groups=(DefendGroup("shield", 2, 5, own_reroll=True),),
        defend_rerolls=1,
    ),
    Shot(shots=2, acc=3, crit=5, dam=2, groups=(DefendGroup("armour", 1, 5),), elusive=True),
    Shot(shots=3, acc=4, crit=6, dam=1, groups=(DefendGroup("armour", 1, 4),), remove_hit=True),
]


@pytest.mark.parametrize("shot", SMALL_SHOTS)
def test_shot_odds_equal_brute_force(shot: Shot) -> None:
    """The exact odds come from the same per-die rules that resolve the dice (every face sequence)."""

    def run(d: TypedDice) -> tuple[int, int]:
        r = roll_shot(shot, d)
        return r.damage, hit_count(r.left)[1]

    expected: dict[tuple[int, int], Fraction] = {}
    for (h, c), p in shot_outcome(shot).probabilities():
        pool = h * shot.dam
        faces = list(range(1, 7)) if shot.movable_frame and pool >= 3 else [None]
        for f in faces:
            key = (after_pool(pool, shot.coating, f), c)
            expected[key] = expected.get(key, Fraction(0)) + p / len(faces)
    assert brute(run) == expected


def test_fourth_fifth_sixth_die_shifts() -> None:
    """L628-L638: 6 dice at 3+/crit 4+: dice 4-5 need 4+/5+ and 5+/6, the 6th 6 and no critical."""
    shot = Shot(shots=6, acc=3, crit=4, dam=1)
    hits = shot_outcome(shot)
    p_all = Fraction(4, 6) ** 3 * Fraction(3, 6) * Fraction(2, 6) * Fraction(1, 6)
    assert sum(p for (h, _), p in hits.probabilities() if h == 6) == p_all
    # criticals: 3 dice on 4+ (1/2), the 4th on 5+ (1/3), the 5th on 6 (1/6), the 6th never
    crits = hits.map(lambda k: k[1])
    assert crits.probability(6) == 0 and crits.probability(5) == Fraction(1, 8) * Fraction(1, 3) * Fraction(
        1, 6
    )


def test_damage_chart_repeat_rule() -> None:
    """L1113-L1119: a category at its top rolls again; Head has no Level 2."""
    levels, faces = roll_chart(MS_CHART, (0, 0, 1, 0), TypedDice([5, 5, 2]), "chart")
    assert (levels, faces) == ((1, 0, 1, 0), [5, 5, 2])
    d = chart_dist(MS_CHART, (2, 2, 1, 0), 1)
    assert as_dict(d) == {(2, 2, 1, 1): Fraction(1)}  # only Torso is left


def test_shot_destroy_odds_include_torso() -> None:
    g = game()
    o = odds(g, "shoot", {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle"})
    # The Trooper has 6 Integrity: a 3-damage hit never destroys it; a critical does on a Torso (1 in 6).
    crit = Fraction(o.tables["critical hits"].rows[1].exactly)
    assert o.facts["destroyed"] == pytest.approx(float(crit / 6))


# --- 4. game state: turns, command points, morale, orders -------------------------------------------


def test_command_points_accumulate() -> None:
    """L1283-L1288: each Command unit in play gives 1 CP at the start of its turn; they carry over."""
    a = [("c1", sample("captain")), *[(f"l{i}", sample("lancer")) for i in range(3)]]
    g = game(a=a)
    assert g.sides[0].resources["cp"] == 1
    g = act(g, "next_turn", {}, TypedDice([]))
    g = act(g, "next_turn", {}, TypedDice([]))
    assert g.sides[0].resources["cp"] == 2 and g.round == 2
    g = act(g, "order", {"side": 0, "order": "resupply", "unit": "0/l0"}, TypedDice([]))
    assert g.sides[0].resources["cp"] == 0
    with pytest.raises(ValueError, match="costs 1 Command Points; 0 left"):
        act(g, "order", {"side": 0, "order": "bring_them_down", "unit": "0/l0"}, TypedDice([]))


def test_morale_examples() -> None:
    """L1570-L1579: 2D6 >= 12 - Integrity; Steady fails to Wavering, Wavering passes to Steady."""
    g = game()
    assert odds(g, "morale", {"unit": "1/t1"}).facts["pass"] == pytest.approx(26 / 36)  # Integrity 6: 6+
    g = act(g, "morale", {"unit": "1/t1"}, TypedDice([2, 3]))
    assert state(g, "1/t1").conditions == ["wavering"]
    g = act(g, "morale", {"unit": "1/t1"}, TypedDice([4, 2]))
    assert state(g, "1/t1").conditions == []
    g = act(g, "morale", {"unit": "1/t1", "near_command": True}, TypedDice([]))
    assert "passes automatically" in g.log[-1].text


def test_grapple_hook_lasts_the_targets_next_turn() -> None:
    a = [("l1", sample("lancer", abilities=[U.Ability(key="grapple_hook")]))]
    g = game(a=a)
    assert odds(g, "ability", {"unit": "0/l1", "ability": "grapple_hook", "target": "1/t1"}).facts[
        "success"
    ] == (pytest.approx(1 / 3))
    g = act(g, "ability", {"unit": "0/l1", "ability": "grapple_hook", "target": "1/t1"}, TypedDice([5]))
    g = act(g, "next_turn", {}, TypedDice([]))
    with pytest.raises(ValueError, match="no actions"):
        act(g, "idle", {"unit": "1/t1"}, TypedDice([]))
    g = act(g, "next_turn", {}, TypedDice([]))
    assert "no_actions" not in state(g, "1/t1").conditions


# --- 5. close combat (L945-L1070) ------------------------------------------------------------------


def test_advantage_examples() -> None:
    """Digest 5.3: 1D6+2 against 1D6+3 wins 10/31; a charging 2D6+2 wins 32/39 (ties rolled again, L977)."""
    d6 = Dist.die(6)
    assert advantage_p(d6.map(lambda v: v + 2), d6.map(lambda v: v + 3)) == Fraction(10, 31)
    assert advantage_p(d6.repeat(2).map(lambda v: v + 2), d6.map(lambda v: v + 3)) == Fraction(32, 39)


def strike(**given: Any) -> Striker:
    """A striker with no re-rolls, no Beam Flayer, no shield and a weapon in hand, unless ``given`` says."""
    base: dict[str, Any] = {
        "rerolls": 0,
        "flayer": False,
        "shield_dice": 0,
        "shield_success": 0,
        "shield_rerolls": 0,
        "unarmed": False,
    }
    return Striker(**(base | given))


def brute_strike(st: Striker) -> dict[Hashable, Fraction]:
    """(damage, critical hits) of a strike, by brute force over the dice."""

    def run(d: TypedDice) -> tuple[int, int]:
        damage, crits, _ = roll_strike(st, d, "x")
        return damage, crits

    return brute(run)


@pytest.mark.parametrize(
    "st",
    [
        strike(
            dice=2,
            acc=3,
            crit=4,
            dam=4,
            rerolls=1,
            armour=3,
            shield_dice=2,
            shield_success=5,
            shield_rerolls=1,
        ),
        strike(dice=2, acc=4, crit=6, dam=3, flayer=True, armour=2),
        strike(dice=2, acc=3, crit=5, dam=2, armour=1, movable_frame=True),
    ],
)
def test_strike_odds_equal_brute_force(st: Striker) -> None:
    assert brute_strike(st) == as_dict(strike_dist(st))


def test_close_combat_through_the_layer() -> None:
    g = game()
    # Advantage (L970-L977): the charging Lancer 2D6 + 2 = 5 + 4 + 2 = 11, the Trooper 1D6 + 3 = 2 + 3 = 5.
    # Lancer's beam blade: 2 dice 3+ (crit 4+), the Charge re-rolls one failed hit (L1042-L1044):
    # 3 and 2, the 2 re-rolled to 1: one hit showing 3.  The Trooper's Armour 2 cannot strip a 3
    # (L984-L986), its light shield rolls 6: it strips the hit.  Counter-attack (L997-L998): heat axe
    # 2 dice 4+ (crit 6) roll 4 and 6; the Lancer's Armour 3 strips neither, its shield (2 dice 5+)
    # rolls 5 and 1 and strips the critical 6.  The 4 stays: 3 damage.  The Trooper dealt more: the
    # Lancer falls back (L1001-L1009).
    fight = {"attacker": "0/l1", "defender": "1/t1", "shield_break": "no", "defender_shield_break": "no"}
    g = act(g, "close_combat", fight, TypedDice([5, 4, 2, 3, 2, 1, 6, 4, 6, 5, 1]))
    assert state(g, "1/t1").damage == 0 and state(g, "0/l1").damage == 3
    assert state(g, "0/l1").counters["arm"] == 0  # the critical was the hit stripped
    assert g.log[-1].text.endswith("Lancer falls back (L1006-L1009)")
    assert state(g, "0/l1").extra["equipped"] == "cc" and state(g, "1/t1").extra["equipped"] == "cc"


def test_elusive_strike_odds_equal_brute_force() -> None:
    st = strike(dice=1, acc=3, crit=5, dam=2, armour=2, shield_dice=1, shield_success=6, elusive=True)
    assert brute_strike(st) == as_dict(strike_dist(st))


# --- more of the book's procedures through the game ---------------------------------------------------


def test_aimed_shot_odds_and_result() -> None:
    """L875-L899: one die at ACC - 1 (min 2+): 5/6 with ACC 3+; with Arm Damage (ACC 5+) 1/2 (digest 5.2)."""
    g = game()
    aim = {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle", "cover": "in_cover"}
    assert odds(g, "aimed_shot", aim).facts["success"] == pytest.approx(5 / 6)  # in cover, but <P> shifts it
    hurt = g.model_copy(deep=True)
    hurt.sides[0].units[0].state.counters["arm"] = 1
    assert odds(hurt, "aimed_shot", aim).facts["success"] == pytest.approx(1 / 2)
    with pytest.raises(ValueError, match="Unobstructed"):
        odds(g, "aimed_shot", {**aim, "weapon": "Head guns"})  # no <P>: In Cover stays In Cover
    with pytest.raises(NeedChoice) as asked:
        act(g, "aimed_shot", aim, TypedDice([2]))
    assert [c.value for c in asked.value.options] == ["leg", "arm", "head"]  # never Torso (L882-L884)
    g = act(g, "aimed_shot", {**aim, "result": "head", "shield_break": "no"}, TypedDice([2]))
    t = state(g, "1/t1")
    assert (t.damage, t.counters["head"]) == (0, 1) and state(g, "0/l1").activated


def test_volley_goes_through_half_the_time() -> None:
    """L1606-L1619: 1-3 the Volley fails, 4+ a normal Shoot."""
    a = [("g1", sample("gun_tank", weapons=[U.archetype_weapon("medium_calibre", "Howitzer", "M")]))]
    a[0][1]["weapons"][0]["tags"] = ["V"]
    g = game(a=a)
    plain = odds(g, "shoot", {"attacker": "0/g1", "target": "1/t1", "target_sees_shooter": False})
    # the target out of sight, as the players say (L1615; tests/test_gundam_round3.py for the readings)
    volley = odds(
        g, "shoot", {"attacker": "0/g1", "target": "1/t1", "volley": True, "target_sees_shooter": False}
    )
    assert volley.facts["destroyed"] == pytest.approx(plain.facts["destroyed"] / 2)
    assert (
        Fraction(volley.tables["damage"].rows[0].exactly)
        == (1 + Fraction(plain.tables["damage"].rows[0].exactly)) / 2
    )
    g = act(g, "shoot", {"attacker": "0/g1", "target": "1/t1", "volley": True}, TypedDice([3]))
    assert g.log[-1].text.endswith("Volley 3: the shot fails (L1613)") and state(g, "1/t1").damage == 0


def test_blast_hits_everything_within_six_inches() -> None:
    """L1271-L1275: the same final damage to every other unit within 6\", no criticals."""
    g = game()
    g = act(g, "next_turn", {}, TypedDice([]))
    # Missile rack: 2 shots 4+ crit 5+ 3 DAM <P>, given <B>.  The Lancer is the target, the Gun Tank near.
    g = g.model_copy(deep=True)
    g.sides[1].units[1].profile["weapons"][1]["tags"] = ["RQ", "P", "B"]
    fire = {
        "attacker": "1/h1",
        "target": "0/l1",
        "weapon": "Missile rack",
        "blast": ["0/g1"],
        "shield_break": "no",
    }
    # attack 4, 1: one hit (level 2, no crit); cover shifts to Unobstructed: 2 armour dice 1, 1;
    # the shield's <P> check 2 fails.
    g = act(g, "shoot", fire, TypedDice([4, 1, 1, 1, 2]))
    assert state(g, "0/l1").damage == 3 and state(g, "0/g1").damage == 3
    assert "Blast: Gun Tank takes 3" in g.log[-1].text


def test_a_blast_asks_which_units_are_near_once_it_deals_damage() -> None:
    """L1271-L1275: who stands within 6" is for the players to say: asked after the roll, by name, the
    shooter and its target left out; none ticked is an answer too."""
    g = game()
    g = act(g, "next_turn", {}, TypedDice([]))
    g = g.model_copy(deep=True)
    g.sides[1].units[1].profile["weapons"][1]["tags"] = ["RQ", "P", "B"]
    fire = {"attacker": "1/h1", "target": "0/l1", "weapon": "Missile rack", "shield_break": "no"}
    missed = act(g, "shoot", fire, TypedDice([1, 1, 1, 1, 2]))  # no hit, no blast: nothing asked
    assert "Blast" not in missed.log[-1].text and state(missed, "0/l1").damage == 0
    with pytest.raises(NeedChoice) as asked:
        act(g, "shoot", fire, TypedDice([4, 1, 1, 1, 2]))
    assert asked.value.field == "blast" and asked.value.many
    assert asked.value.prompt == (
        'Missile rack blasts 3 damage: which other units are within 6" of Lancer? (L1271-L1275)'
    )
    assert [c.label for c in asked.value.options] == ["Feds: Gun Tank", "Zeon: Trooper"]
    g = act(g, "shoot", {**fire, "blast": []}, TypedDice([4, 1, 1, 1, 2]))
    assert state(g, "0/l1").damage == 3 and state(g, "0/g1").damage == 0


def test_shield_against_penetration_reading() -> None:
    """A3: by default the shield rolls after a 4+ check (L660-L663); the other reading drops it (L1344)."""
    g = game()
    shot = {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle"}
    assert "1 shield on 6+" in odds(g, "shoot", shot).summary
    other = g.model_copy(update={"options": {**g.options, "shield_against_p": "ignored"}})
    assert "shield on" not in odds(other, "shoot", shot).summary


def test_get_to_cover_and_concentrate_fire() -> None:
    a = [("c1", sample("captain")), *[(f"l{i}", sample("lancer")) for i in range(3)]]
    g = game(a=a)
    g = g.model_copy(deep=True)
    g.sides[0].resources["cp"] = 3
    g = act(g, "order", {"side": 0, "order": "concentrate_fire"}, TypedDice([]))
    assert g.sides[0].resources["concentrate_fire"] == 1
    # Head guns, no <P>: in cover; the target sees the shooter but Concentrate Fire flanks (L1428-L1440)
    o = odds(g, "shoot", {"attacker": "0/l0", "target": "1/t1", "weapon": "Head guns", "cover": "obstructed"})
    assert o.summary.startswith("Head guns: hits on 5+, target obstructed")
    g = act(g, "next_turn", {}, TypedDice([]))
    assert g.sides[0].resources["concentrate_fire"] == 0


#: The Trooper's machine gun at the Lancer in the open (used once the Lancer has 1 Integrity left).
LAST_SHOT = {
    "attacker": "1/t1",
    "target": "0/l1",
    "weapon": "Machine gun",
    "shield_break": "no",
    "cover": "obstructed",
}


def zeon_turn_lancer_on_one(a: list[tuple[str, dict[str, Any]]]) -> Game:
    """Side ``a`` (the Lancer first) against the default Zeon side, Zeon to play, the Lancer on 1 left."""
    g = game(a=a)
    g = act(g, "next_turn", {}, TypedDice([]))
    g = g.model_copy(deep=True)
    g.sides[0].units[0].state.damage = 5  # 1 Integrity left
    return g


def test_destruction_table_and_kill_points() -> None:
    """L1132-L1145: at 0 Integrity the unit is removed; the pilot's Health and Mind follow the roll."""
    a = [("l1", sample("lancer", pilot=[U.Pilot(name="Ace", health=6, mind=6)])), ("g1", sample("gun_tank"))]
    g = zeon_turn_lancer_on_one(a)
    # 3 shots 4+: 4, 1, 1; 3 armour dice 1, 1, 1; 2 shield dice 1, 1; Destruction Table 2: Major Injuries
    g = act(g, "shoot", LAST_SHOT, TypedDice([4, 1, 1, 1, 1, 1, 1, 1, 2]))
    t = state(g, "0/l1")
    assert t.destroyed and t.extra["pilot"] == {"health": 2, "mind": 3}
    assert g.sides[1].resources["destroyed"] == SYSTEM.unit_cost(SYSTEM.profile_model.model_validate(a[0][1]))
    assert "Destruction Table 2: Major Injuries" in g.log[-1].text
    # One of the Feds' two units is gone: half their force, so the other checks morale (L1602; A34)
    assert state(g, "0/g1").conditions == ["morale_due"] and g.sides[0].resources["halved"] == 1


def test_with_three_players_a_kill_scores_for_the_side_that_made_it() -> None:
    """L179-L190: the Skirmish winner destroyed the most points of enemy units; with three players only
    the side whose attack destroyed the unit counts its points, not every other side."""
    a = [("l1", sample("lancer")), ("g1", sample("gun_tank"))]
    b = [("t1", sample("trooper")), ("h1", sample("heavy_gunner"))]
    sides = [("Feds", squad("a", "Feds", *a)), ("Zeon", squad("b", "Zeon", *b))]
    g = new_game("g", "Test", [*sides, ("Zeon 2", squad("c", "Zeon", ("t2", sample("trooper"))))])
    # priority 2, 5, 1: Zeon picks first (the first turn), Feds, second highest, pick next (L278-L282)
    g = act(g, "priority", {"places": [1, 2]}, TypedDice([2, 5, 1]))
    assert [side.resources["order"] for side in g.sides] == [2, 1, 3]
    assert g.state.active_side == 1
    g = g.model_copy(deep=True)
    g.sides[0].units[0].state.damage = 5  # the Lancer on 1 Integrity
    g = act(g, "shoot", LAST_SHOT, TypedDice([4, 1, 1, 1, 1, 1, 1, 1, 2]))
    assert state(g, "0/l1").destroyed
    cost = SYSTEM.unit_cost(SYSTEM.profile_model.model_validate(a[0][1]))
    assert [side.resources["destroyed"] for side in g.sides] == [0, cost, 0]


def test_exam_brings_the_unit_back() -> None:
    pilot = U.Pilot(name="Ace", rank=10, heroic_levels=1, heroic_mods=["exam"])
    g = zeon_turn_lancer_on_one([("l1", sample("lancer", pilot=[pilot]))])
    g = act(g, "shoot", LAST_SHOT, TypedDice([4, 1, 1, 1, 1, 1, 1, 1, 5]))  # EXAM 5: back to half (3 of 6)
    t = state(g, "0/l1")
    assert not t.destroyed and t.damage == 3


def test_trans_am_adds_two_damage_in_the_first_three_turns() -> None:
    pilot = U.Pilot(name="Ace", rank=10, heroic_levels=1, heroic_mods=["trans_am"])
    g = game(a=[("l1", sample("lancer", pilot=[pilot]))])
    shot = {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle"}
    assert [r.value for r in odds(g, "shoot", shot).tables["damage"].rows][-1] == 5
    for _ in range(6):
        g = act(g, "next_turn", {}, TypedDice([]))
    assert g.sides[0].resources["turns"] == 4
    assert [r.value for r in odds(g, "shoot", shot).tables["damage"].rows][-1] == 3


def test_obsolete_units_lose_an_action_on_a_six() -> None:
    g = game(a=[("l1", sample("lancer", abilities=[U.Ability(key="obsolete")]))])
    g = act(g, "idle", {"unit": "0/l1"}, TypedDice([6]))
    assert g.log[-1].text == "Lancer is Obsolete: a 6, the action fails (L2958-L2962)"
    assert state(g, "0/l1").counters["actions"] == 1


def test_ambush_roll() -> None:
    """L1258-L1264: 1 fails, 2-3 the opponent places it within 12\", 4+ exactly."""
    para = sample("trooper", abilities=[U.Ability(key="parachute_pack")], ambush=True)
    g = game(b=[("t1", para)])
    assert state(g, "1/t1").conditions == ["reserve"]
    g = act(g, "ambush", {"unit": "1/t1"}, TypedDice([1]))
    assert state(g, "1/t1").conditions == ["reserve"]
    g = act(g, "ambush", {"unit": "1/t1"}, TypedDice([2]))
    assert state(g, "1/t1").conditions == [] and "the opponent places it" in g.log[-1].text
    bad = U.Unit.model_validate(sample("trooper", ambush=True))
    assert [v.rule for v in U.unit_violations(bad)] == ["ambush-means"]


def test_missions_and_status_line() -> None:
    g = game()
    g = act(g, "setup", {"mission": "skirmish"}, TypedDice([]))
    assert g.state.mission == "skirmish"
    g = act(g, "game_length", {}, TypedDice([3]))
    assert g.state.clocks["turn_limit"] == 7  # D6 + 4 (L181)
    lines = {line.label: line.value for line in SYSTEM.status(g)}
    assert lines == {"Game type": "Skirmish", "Round": "1 of 7", "Enemy points destroyed": "Feds 0, Zeon 0"}
    obj = act(g, "setup", {"mission": "objective"}, TypedDice([]))
    obj = obj.model_copy(update={"state": obj.state.model_copy(update={"clocks": {"turn_limit": 2}})})
    # The zone is counted as each turn ends (A33): the Final Upkeep asks who stands in it.
    obj = act(obj, "next_turn", {"zone": ["0/l1", "1/t1", "1/h1"]}, TypedDice([]))
    assert obj.log[-1].text == (
        "Feds ends the turn; Objective: Feds 170 pts, Zeon 310 pts; Zeon holds it (1); "
        "Zeon's turn: +0 Command Points (L1283-L1288)"
    )
    obj = act(obj, "next_turn", {"zone": ["1/t1"]}, TypedDice([]))
    assert obj.log[-1].text.endswith("Zeon holds it (2): Zeon wins (L192-L203)")
    assert (obj.state.ended, obj.state.winners) == (True, [1])


def test_deathmatch_ends_in_the_final_upkeep() -> None:
    """L171-L177, L304-L306: the last player with units wins, checked as a turn ends."""
    g = game(a=[("l1", sample("lancer"))], b=[("t1", sample("trooper"))])
    g = g.model_copy(deep=True)
    g.sides[1].units[0].state.destroyed = True
    g = act(g, "next_turn", {}, TypedDice([]))
    assert (g.state.ended, g.state.winners) == (True, [0])
    assert g.log[-1].text.endswith("game over: Feds wins (L171-L190)")
    with pytest.raises(ValueError, match="over"):
        act(g, "next_turn", {}, TypedDice([]))


def test_space_keeps_s_units_home() -> None:
    g = game()
    with pytest.raises(ValueError, match="<S> units cannot fight in space"):
        act(g, "setup", {"space": True}, TypedDice([]))  # the Gun Tank is <S> (L1372)
    g = game(a=[("l1", sample("lancer"))])
    g = act(g, "setup", {"space": True}, TypedDice([]))
    assert g.state.extra["space"] is True and not g.state.extra.get("teams")
    # in space there is no height bonus and cover is one step worse (L1395-L1399)
    o = odds(g, "shoot", {"attacker": "0/l1", "target": "1/t1", "weapon": "Head guns", "higher": True})
    assert "target unobstructed" in o.summary


def test_next_round_is_the_next_turn() -> None:
    g = game()
    from core.game import next_round

    with pytest.raises(ValueError, match="Next turn"):
        next_round(g)


def damage_each(
    got: dict[tuple[int, int, bool, bool], Fraction],
) -> tuple[dict[int, Fraction], dict[int, Fraction]]:
    """The enumerated outcomes of a close combat as the two damage distributions (attacker, target)."""
    to_x: dict[int, Fraction] = {}
    to_y: dict[int, Fraction] = {}
    for (dx, dy, _, _), p in got.items():
        to_x[dx] = to_x.get(dx, Fraction(0)) + p
        to_y[dy] = to_y.get(dy, Fraction(0)) + p
    return to_x, to_y


def _enumerate_act(g: Game, action: str, raw: dict[str, Any]) -> dict[tuple[int, int, bool, bool], Fraction]:
    """(damage to 0/l1, damage to 1/t1, destroyed, destroyed) over every face sequence the action reads."""
    out: dict[tuple[int, int, bool, bool], Fraction] = {}
    stack: list[list[int]] = [[]]
    while stack:
        faces = stack.pop()
        try:
            after = act(g, action, raw, TypedDice(faces))
        except NeedMoreDice:
            stack.extend([*faces, f] for f in range(1, 7))
            continue
        x, y = state(after, "0/l1"), state(after, "1/t1")
        key = (
            x.damage - state(g, "0/l1").damage,
            y.damage - state(g, "1/t1").damage,
            x.destroyed,
            y.destroyed,
        )
        out[key] = out.get(key, Fraction(0)) + Fraction(1, 6 ** len(faces))
    return out


@pytest.mark.parametrize("setup", ["plain", "hurt", "unarmed"])
def test_close_combat_odds_equal_every_face_sequence(setup: str) -> None:
    """The combat's odds (both strikes, charts between them, destruction) against its own resolution."""
    swift = [U.Pilot(name="Quick", traits=["swift"])]  # Advantage without a roll (L1999-L2000)
    lancer = sample(
        "lancer", pilot=swift, shield="none", close_combat=[U.archetype_close("heat_hawk", "Axe")]
    )
    trooper = sample("trooper", shield="none", close_combat=[U.archetype_close("claws", "Claws")])
    if setup == "unarmed":
        trooper = sample("trooper", shield="none", close_combat=[])
    g = game(a=[("l1", lancer)], b=[("t1", trooper)])
    if setup == "hurt":
        g = g.model_copy(deep=True)
        g.sides[1].units[0].state.damage = 3  # 3 Integrity left: the first strike may destroy it
    fight = {"attacker": "0/l1", "defender": "1/t1", "charged": False}
    o = odds(g, "close_combat", fight)
    got = _enumerate_act(g, "close_combat", fight)
    to_x, to_y = damage_each(got)
    assert {
        r.value: Fraction(r.exactly) for r in o.tables["damage to the target"].rows if r.exactly != "0/1"
    } == to_y
    assert {
        r.value: Fraction(r.exactly) for r in o.tables["damage to the attacker"].rows if r.exactly != "0/1"
    } == to_x
    assert o.facts["destroyed"] == pytest.approx(float(sum(p for k, p in got.items() if k[3])))
    assert o.facts["attacker destroyed"] == pytest.approx(float(sum(p for k, p in got.items() if k[2])))


def test_dense_minovsky_particles() -> None:
    """L3310-L3313: Ambush fails on 1-3 and lands within 12\\" on 4-5; no Panoramic Cockpit; no Volley."""
    para = sample("trooper", abilities=[U.Ability(key="parachute_pack")], ambush=True)
    g = game(b=[("t1", para)])
    g = act(g, "setup", {"environment": "dense_minovsky"}, TypedDice([]))
    assert odds(g, "ambush", {"unit": "1/t1"}).facts["arrives"] == pytest.approx(1 / 2)
    g = act(g, "ambush", {"unit": "1/t1"}, TypedDice([3]))
    assert state(g, "1/t1").conditions == ["reserve"]
    g = act(g, "ambush", {"unit": "1/t1"}, TypedDice([5]))
    assert "the opponent places it" in g.log[-1].text


def test_bad_weather_removes_the_worst_hit() -> None:
    """L3321-L3327: the target's player removes one hit, at most 3 times a game."""
    g = game()
    g = act(g, "setup", {"environment": "bad_weather"}, TypedDice([]))
    shot = {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle", "weather": True}
    assert odds(g, "shoot", shot).facts["destroyed"] == 0  # the rifle's one hit is always removed
    g = act(g, "shoot", shot, TypedDice([6, 1, 1]))
    assert state(g, "1/t1").damage == 0 and g.sides[1].resources["weather"] == 1
    g = g.model_copy(deep=True)
    g.sides[1].resources["weather"] = 3
    with pytest.raises(ValueError, match="3 times a game"):
        odds(g, "shoot", shot)


def test_book_rotation_example() -> None:
    """L480-L486: a Move 4 suit turning out of sight up to 90 degrees moves 2"; beyond 90 it only turns."""
    g = game(a=[("l1", sample("lancer"))])  # Move 4, like the book's example
    g1 = act(g, "move", {"unit": "0/l1", "turn": "up_to_90"}, TypedDice([]))
    assert g1.log[-1].text.startswith('Lancer moves up to 2"')
    with pytest.raises(ValueError, match='at most 0"'):
        act(g, "move", {"unit": "0/l1", "turn": "over_90", "distance": 1}, TypedDice([]))
    g2 = act(g, "move", {"unit": "0/l1", "turn": "over_90"}, TypedDice([]))
    assert "it only turns (L475-L478)" in g2.log[-1].text


def test_terrain_leg_damage_and_the_one_inch_floor() -> None:
    """L516-L518, L529-L540: Difficult halves a Move; Leg Damage 2 cuts 3/4 (A26); never under 1"."""
    g = game(a=[("g1", sample("gun_tank"))])  # a vehicle, Move 3
    assert (
        act(g, "move", {"unit": "0/g1", "terrain": "difficult"}, TypedDice([]))
        .log[-1]
        .text.startswith('Gun Tank moves up to 1.5"')
    )
    hurt = g.model_copy(deep=True)
    hurt.sides[0].units[0].state.counters["leg"] = 2
    # Normal counts as Difficult (Level 1), cut by 3/4: 3 - 2.25 = 0.75, but never under 1"
    assert (
        act(hurt, "move", {"unit": "0/g1"}, TypedDice([])).log[-1].text.startswith('Gun Tank moves up to 1"')
    )
    # a vehicle turning up to 90 degrees pays 3": its whole Move
    assert "it only turns" in act(g, "move", {"unit": "0/g1", "turn": "up_to_90"}, TypedDice([])).log[-1].text
    after = act(g, "move", {"unit": "0/g1", "terrain": "dangerous", "ends_in_dangerous": True}, TypedDice([]))
    assert state(after, "0/g1").damage == 1
    with pytest.raises(ValueError, match="Boost only"):
        act(g, "move", {"unit": "0/g1", "terrain": "sheer"}, TypedDice([]))


def test_environment_roll() -> None:
    """L3306-L3333: 1-2 Dense Minovsky Particles, 3-4 Bad Weather, 5-6 normal."""
    g = game()
    assert act(g, "environment", {}, TypedDice([2])).state.environment == "dense_minovsky"
    assert act(g, "environment", {}, TypedDice([4])).state.environment == "bad_weather"
    assert act(g, "environment", {}, TypedDice([6])).state.environment == ""


def test_adjusting_damage_to_zero_integrity_destroys() -> None:
    from core.game import adjust
    from core.systems.base import Change

    g = game()
    g = adjust(g, [Change(path=["sides", 1, "units", 0, "state", "damage"], value=6)])
    assert state(g, "1/t1").destroyed
    assert not state(undo(g), "1/t1").destroyed


def test_sd_units() -> None:
    """L1352-L1364: half Move, Boost, Armour, Integrity; +1 to hit and crit against it; Aimed Shot re-roll."""
    sd = U.Unit.model_validate(sample("trooper", sd=True))  # Move 4, Boost 8, Armour 2, Integrity 6
    assert (U.movement_of(sd), U.armour_of(sd), U.integrity_of(sd)) == ((2, 4), (1, 5), 3)
    g = game(b=[("t1", sample("trooper", sd=True))])
    o = odds(g, "shoot", {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle"})
    assert o.summary.startswith("Beam rifle: hits on 4+")
    aim = {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle"}
    # ACC 3+ becomes 4+ against SD, the Aimed Shot needs one less: 3+ (4/6); the target forces a
    # re-roll of the success, which must succeed again: 4/6 x 4/6 = 4/9
    assert odds(g, "aimed_shot", aim).facts["success"] == pytest.approx(4 / 9)


def test_gallant_never_falls_back_and_piercing_needs_ps() -> None:
    """L1971-L1973: the Gallant pilot's opponent falls back instead; L931-L934: a <PS> weapon equipped."""
    gallant = [U.Pilot(name="Brave", traits=["gallant"])]
    g = game(a=[("l1", sample("lancer", pilot=gallant))], b=[("t1", sample("trooper"))])
    # Same dice as test_close_combat_through_the_layer: the Trooper deals more, yet it falls back.
    fight = {"attacker": "0/l1", "defender": "1/t1", "shield_break": "no", "defender_shield_break": "no"}
    g2 = act(g, "close_combat", fight, TypedDice([5, 4, 2, 3, 2, 1, 6, 4, 6, 5, 1]))
    assert g2.log[-1].text.endswith("Trooper falls back (L1006-L1009)")
    with pytest.raises(ValueError, match="<PS>"):
        odds(g, "close_combat", {**fight, "piercing_strike": True})
    claws = sample("heavy_gunner", factions=["EFF"])
    g3 = game(a=[("h1", claws)])
    g3 = act(g3, "switch_weapon", {"unit": "0/h1", "weapon": "cc"}, TypedDice([]))
    assert odds(g3, "close_combat", {"attacker": "0/h1", "defender": "1/t1", "piercing_strike": True}).facts


def test_tools_give_the_guidelines_and_weapon_lines() -> None:
    from core import api

    reply = api.call(
        "system.tool", {"system": "gundam_skirmish", "tool": "weapon", "args": {"row": "beam_rifle"}}
    )
    w = reply["result"]["ranged"]
    assert (w["name"], w["shots"], w["acc"], w["crit"], w["dam"], w["tags"]) == (
        "Beam guns, beam rifles",
        1,
        3,
        5,
        3,
        ["P"],
    )
    close = api.call("system.tool", {"system": "gundam_skirmish", "tool": "weapon", "args": {"row": "claws"}})
    assert close["result"]["close"]["piercing_strike"] is True
    bad = api.call("system.tool", {"system": "gundam_skirmish", "tool": "weapon", "args": {"row": "laser"}})
    assert bad["ok"] is False
    g = api.call(
        "system.tool",
        {"system": "gundam_skirmish", "tool": "guidelines", "args": {"profile": sample("lancer")}},
    )
    assert g["result"]["formula"] == 170 and len(g["result"]["ranged"]) == 16


def test_the_designer_presets_are_the_guideline_rows_as_valid_weapon_lines() -> None:
    """The unit form's "ready-made" rows: one per guideline row (ranged L2519-L2634, close L2640-L2658)."""
    schema = U.Unit.model_json_schema()
    ranged = schema["$defs"]["RangedWeapon"]["presets"]
    close = schema["$defs"]["CloseCombatWeapon"]["presets"]
    assert [p["title"] for p in ranged] == [r.label for r in cat.RANGED]
    assert [p["title"] for p in close] == [c.label for c in cat.CLOSE]
    rifle = U.RangedWeapon.model_validate(
        next(p["value"] for p in ranged if p["title"] == "Beam guns, beam rifles")
    )
    assert (rifle.weapon_class, rifle.shots, rifle.acc, rifle.crit, rifle.dam, rifle.tags) == (
        "beam",
        1,
        3,
        5,
        3,
        ["P"],
    )
    assert (rifle.range_min, rifle.range_max, rifle.equip) == (12, 36, "C")
    hawk = U.CloseCombatWeapon.model_validate(
        next(p["value"] for p in close if p["title"].startswith("Heat hawks"))
    )
    assert (hawk.dex, hawk.attack, hawk.acc, hawk.crit, hawk.dam) == (3, 2, 4, 6, 3)  # L2651-L2652
    for p in ranged:
        U.RangedWeapon.model_validate(p["value"])
    for p in close:
        U.CloseCombatWeapon.model_validate(p["value"])


def test_every_shooting_modifier_is_a_chip_or_a_choice_on_the_sheet() -> None:
    from core.systems.base import action_flow

    flow = action_flow(implementation("gundam_skirmish").actions["shoot"])
    assert (flow.actor, flow.target) == ("attacker", "target")
    assert flow.choices == ["cover", "range"]
    assert flow.common == ["higher", "target_sees_shooter", "volley", "weather"]
    assert flow.picks == ["weapon"]  # the shooter's own weapons (game.picks)


def test_the_cover_buttons_say_which_carries_a_modifier_l677_l693() -> None:
    """In Cover, the default, carries no modifier (L685-L693) and only Unobstructed costs the defender a
    die (L677-L684): the choice buttons say so (finding 20), and the odds agree (Head guns, no <P>)."""
    shoot = implementation("gundam_skirmish").actions["shoot"].input.model_json_schema()
    cover = shoot["properties"]["cover"]
    assert cover["default"] == "in_cover"
    assert cover["x-labels"] == {
        "unobstructed": "Unobstructed (defender -1 die)",
        "in_cover": "In cover (no modifier)",
        "obstructed": "Obstructed (no modifier)",
    }
    g = game(a=[("l0", sample("lancer"))])
    shot = {"attacker": "0/l0", "target": "1/t1", "weapon": "Head guns"}
    means = {c: odds(g, "shoot", {**shot, "cover": c}).tables["damage"].p_mean for c in cover["x-labels"]}
    assert means["in_cover"] == means["obstructed"] < means["unobstructed"]
