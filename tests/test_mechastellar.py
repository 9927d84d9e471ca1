"""MechaStellar, checked rule by rule (lines are in 003_9a8631fd8c2279be.txt).

The book prints no units, so the games use units of the app's own making with the numbers the
worked examples give.  Each worked example the engine covers is a test here, with its line; the
odds are checked against every face sequence the resolving code can read.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from fractions import Fraction
from typing import Any

import pytest

from core.dice import NeedMoreDice, TypedDice
from core.game import Game, act, gated_actions, gates, new_game, next_round, odds, undo
from core.squad import Squad, SquadUnit
from core.systems import implementation
from core.systems.base import NeedChoice
from core.systems.mechastellar.melee import Clash, pools
from core.systems.mechastellar.samples import FORCES, SAMPLES
from core.systems.mechastellar.shooting import Shoot, evade_values, plan, shot_dist
from core.systems.mechastellar.turns import starting_momentum

SYSTEM = implementation("mechastellar")


def unit(key: str, **changes: Any) -> dict[str, Any]:
    return {**SAMPLES[key].model_dump(mode="json"), **changes}


def game_of(
    a: list[dict[str, Any]], b: list[dict[str, Any]], momentum: tuple[int, int] | None = None
) -> Game:
    """A game of two sides (keys a0, a1... and b0, b1...), rolled off with side 1 first."""
    squads = [
        Squad(
            id=f"s{n}",
            name=name,
            system="mechastellar",
            units=[SquadUnit(key=f"{p}{i}", profile=u) for i, u in enumerate(units)],
        )
        for n, (name, p, units) in enumerate((("Red", "a", a), ("Blue", "b", b)))
    ]
    g = new_game("g", "Test", [(s.name, s) for s in squads])
    g = act(g, "roll_off", {}, TypedDice([9, 2]))
    if momentum is not None:
        for s, m in enumerate(momentum):
            g.sides[s].resources["momentum"] = m
    return g


def hp(g: Game, ref: str) -> int:
    _, _, u = g.unit(ref)
    return u.state.max_damage - u.state.damage


def round_over(g: Game) -> Game:
    """The round as if played out (every unit activated, no turn under way, roll-off made): for a test that
    jumps to the next round, which the engine refuses while units have yet to act (L26)."""
    g = g.model_copy(deep=True)
    for side in g.sides:
        for u in side.units:
            u.state.activated = True
    g.state.active_side = None
    done = {"rolled_off": True, "turn_unit": "", "return_fire": [], "coordinated": []}
    g.state.extra = {**g.state.extra, **done}
    return g


def momentum(g: Game, side: int) -> int:
    return g.sides[side].resources["momentum"]


# --- shooting: the d10 evade (L132-L149) --------------------------------------------------------


def test_evade_target_number_and_faces_l139_l146() -> None:
    """ACC 9 vs Evade +5: evade on 4+; a 1 is a critical (2 hits), a 10 always misses (L140-L146)."""
    assert evade_values(4) == (2, 1, 1, 0, 0, 0, 0, 0, 0, 0)
    assert evade_values(11) == (2, 1, 1, 1, 1, 1, 1, 1, 1, 0)
    assert evade_values(0) == (2, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    assert evade_values(0, natural_one_evades=True)[0] == 0  # digest ambiguity 6, the option


def test_argonaut_shoots_dervish_l146_l149() -> None:
    """Cannon, 3 shots, [5,7,10]: all evaded.  Machine gun, 6 shots, [1,1,3,4,7,10]: 1 hit and 2
    critical hits = 5 hits, 200 x 5 = 1000 damage (L146-L149)."""
    g = game_of([unit("argonaut")], [unit("dervish")], momentum=(3, 0))
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, TypedDice([5, 7, 10]))
    assert hp(g, "1/b0") == 2500
    assert g.log[-1].detail["hits"] == 0
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 1}, TypedDice([1, 1, 3, 4, 7, 10]))
    assert g.log[-1].detail["hits"] == 5
    assert hp(g, "1/b0") == 2500 - 1000
    # Two actions, two weapons (L146): a third shot is refused, and each weapon fires once (L153).
    with pytest.raises(ValueError, match="fired this turn"):
        act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 1}, TypedDice([5] * 6))


def test_a_weapon_fires_once_a_turn_l153() -> None:
    g = game_of([unit("argonaut")], [unit("dervish")], momentum=(3, 0))
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 1}, TypedDice([9] * 6))
    with pytest.raises(ValueError, match="once a turn"):
        act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 1}, TypedDice([9] * 6))


def test_actions_run_out_l26() -> None:
    g = game_of([unit("white_asura")], [unit("dervish")], momentum=(3, 0))
    g = act(g, "focus", {"unit": "0/a0"}, TypedDice([]))
    with pytest.raises(ValueError, match="used its 1 action"):
        act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, TypedDice([9] * 3))


def test_henry_machine_gun_into_kara_great_shield_l509_l512() -> None:
    """ACC 10 vs Evade +3: Kara needs 7+.  [1,1,3,4,5,7]: 2 criticals and 3 hits = 7; the Great
    Shield blocks 4 against a PEN 0 weapon; 3 hits of 200 leave her at 2400/3000 (L509-L512)."""
    g = game_of([unit("jet_black_lancer")], [unit("kara")], momentum=(3, 3))
    inp = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}  # no RF: its range band changes nothing
    p = plan(g, Shoot.model_validate(inp))
    assert (p.tn, p.shots, p.blocks) == (7, 6, 4)
    with pytest.raises(NeedChoice) as asked:  # Skill Defense is offered after the roll (L253)
        act(g, "shoot", inp, TypedDice([1, 1, 3, 4, 5, 7]))
    assert asked.value.field == "defense" and asked.value.options[0].assumed
    g = act(g, "shoot", {**inp, "defense": 0}, TypedDice([1, 1, 3, 4, 5, 7]))  # saving her Momentum
    assert g.log[-1].detail["hits"] == 7
    assert hp(g, "1/b0") == 2400
    assert momentum(g, 1) == 3


def test_kara_sniper_and_henry_skill_defense_l532_l533() -> None:
    """ACC 10 vs Evade +4: 6+ to dodge; [2,3,8,9]: 2 hits; Henry spends 2 Momentum (L532-L533)."""
    g = game_of([unit("kara")], [unit("jet_black_lancer")], momentum=(0, 2))
    inp = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    with pytest.raises(NeedChoice) as asked:
        act(g, "shoot", inp, TypedDice([2, 3, 8, 9]))
    assert [o.value for o in asked.value.options] == [0, 1, 2]
    g = act(g, "shoot", {**inp, "defense": 2}, TypedDice([2, 3, 8, 9]))
    assert hp(g, "1/b0") == 3000
    assert momentum(g, 1) == 0


def test_skill_defense_three_of_four_l266() -> None:
    """Shot 4 times, 1 evade success: 3 Momentum dodge the other 3 shots (L266)."""
    beam = {"name": "Beam gun", "range": 24, "shots": 4, "damage": 500, "pen": 6}
    g = game_of([unit("argonaut", weapons=[beam], accuracy=10)], [unit("dervish", evade=0)], momentum=(0, 3))
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "defense": 3}, TypedDice([2, 3, 4, 10]))
    assert g.log[-1].detail["hits"] == 3
    assert hp(g, "1/b0") == 2500 and momentum(g, 1) == 0


def test_flawless_evasion_costs_the_round_l290_l293() -> None:
    """Round 2: Flawless Evasion negates the machine gun's hits for 2 Momentum (L293); Aces only (L291)."""
    g = game_of([unit("argonaut")], [unit("blue_djinn")], momentum=(3, 4))
    g = g.model_copy(update={"round": 2})
    inp = {"attacker": "0/a0", "target": "1/b0", "weapon": 1}
    with pytest.raises(NeedChoice) as asked:
        act(g, "shoot", inp, TypedDice([1, 1, 1, 9, 9, 9]))
    flawless = [o for o in asked.value.options if o.also.get("flawless")]
    assert flawless and "2 Momentum" in flawless[0].label
    g2 = act(g, "shoot", {**inp, "defense": 0, "flawless": True}, TypedDice([1, 1, 1, 9, 9, 9]))
    assert hp(g2, "1/b0") == 3000 and momentum(g2, 1) == 2
    h = game_of([unit("blue_djinn")], [unit("argonaut")], momentum=(3, 4))
    with pytest.raises(ValueError, match="Ace"):
        act(
            h,
            "shoot",
            {"attacker": "0/a0", "target": "1/b0", "weapon": 1, "flawless": True, "defense": 0},
            TypedDice([1, 1]),
        )


def test_rapid_fire_beam_rifle_l92_l93() -> None:
    """Beam Rifle: 3 shots, 4 within half its 32" range (RF+1, L92-L93)."""
    g = game_of([unit("white_asura")], [unit("argonaut")])
    far = plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=0))
    near = plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=0, band="rapid"))
    assert (far.shots, near.shots) == (3, 4)


def test_ten_dice_cap_and_evade_bonus_cap_l134_l138() -> None:
    gun = {"name": "Gatling", "range": 24, "shots": 9, "rapid_fire": 4, "damage": 100}
    g = game_of([unit("argonaut", weapons=[gun])], [unit("dervish")])
    p = plan(g, Shoot(attacker="0/a0", target="1/b0", band="rapid", evade_bonus=5))
    assert p.shots == 10  # L134
    assert p.tn == 9 - (5 + 3)  # bonus capped at +3 (L138)


def test_focus_adds_a_shot_or_a_hit_l123_l125() -> None:
    g = game_of([unit("argonaut")], [unit("dervish")])
    g = act(g, "focus", {"unit": "0/a0"}, TypedDice([]))
    cannon = plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=0))
    mg_far = plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=1))
    mg_near = plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=1, within_16=True))
    assert cannon.shots == 4  # +1 shot
    assert mg_far.shots == 8  # PEN 0: +2 shots
    assert (mg_near.shots, mg_near.flat) == (6, 2)  # within 16": +2 hits instead


def test_cover_and_shield_do_not_stack_l228_l634_l635() -> None:
    g = game_of([unit("argonaut")], [unit("white_asura")])
    assert plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=0, cover=True)).blocks == 1
    assert plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=1, cover=True)).blocks == 2  # PEN 0: 2
    assert plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=1, advantage="blindside")).blocks == 0  # L543
    bare = game_of([unit("argonaut")], [unit("dervish")])
    assert plan(bare, Shoot(attacker="0/a0", target="1/b0", weapon=0, cover=True)).blocks == 1  # L634


def test_tactical_advantage_adds_a_critical_l540() -> None:
    g = game_of([unit("argonaut")], [unit("dervish")], momentum=(3, 0))
    g = act(
        g,
        "shoot",
        {"attacker": "0/a0", "target": "1/b0", "weapon": 0, "advantage": "advantage"},
        TypedDice([9, 9, 9, 9, 9]),
    )
    assert g.log[-1].detail["hits"] == 2  # a critical worth 2 hits even with every shot evaded (ambiguity 4)
    g2 = game_of([unit("argonaut")], [unit("dervish")], momentum=(3, 0))
    g2.options["bonus_crit_needs_a_hit"] = True
    g2 = act(
        g2,
        "shoot",
        {"attacker": "0/a0", "target": "1/b0", "weapon": 0, "advantage": "advantage"},
        TypedDice([9, 9, 9]),
    )
    assert g2.log[-1].detail["hits"] == 0


def test_make_it_count_skilled_only_and_dogfight_l280_l284() -> None:
    g = game_of([unit("argonaut")], [unit("dervish")])
    with pytest.raises(ValueError, match="Skilled or Ace"):
        act(
            g, "shoot", {"attacker": "0/a0", "target": "1/b0", "skill": "make_it_count"}, TypedDice([9, 9, 9])
        )
    picks = SYSTEM.actions["shoot"].picks
    assert picks is not None
    skill = {p.value: p for p in picks(g, "0/a0")["skill"]}
    assert skill["make_it_count"].unavailable  # greyed with the reason for a Basic pilot
    # A Skilled pilot pays 1 (L284); against a Skilled or Ace pilot it is free (Dogfight, L281).
    h = game_of([unit("jet_black_lancer")], [unit("dervish")], momentum=(3, 0))
    h = act(h, "shoot", {"attacker": "0/a0", "target": "1/b0", "skill": "make_it_count"}, TypedDice([9] * 6))
    assert momentum(h, 0) == 2 and h.log[-1].detail["hits"] == 2
    k = game_of([unit("jet_black_lancer")], [unit("kara")], momentum=(3, 0))
    k = act(k, "shoot", {"attacker": "0/a0", "target": "1/b0", "skill": "make_it_count"}, TypedDice([9] * 6))
    assert momentum(k, 0) == 3


# --- Armor Saves (L216-L225) ------------------------------------------------------------------


def test_laughing_joker_saves_l225() -> None:
    """Sv +2 hit twice by PEN 5: 2 saves needing 3+; four times by PEN 4: 3 saves needing 2+ (L225)."""
    g = game_of([unit("argonaut")], [unit("dervish", save=2, hp=10000)])
    pen5 = {"name": "PEN 5 gun", "range": 24, "shots": 2, "damage": 100, "pen": 5}
    pen4 = {"name": "PEN 4 gun", "range": 24, "shots": 4, "damage": 100, "pen": 4}
    g.sides[0].units[0].profile["weapons"] = [pen5, pen4]
    g.sides[0].units[0].profile["accuracy"] = 15
    p5 = plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=0))
    p4 = plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=1))
    assert p5.saves_at == 3 and p5.save_pool(2).dice == 2
    assert p4.saves_at == 2 and p4.save_pool(4).dice == 3  # at most three per weapon (L218)
    assert p5.save_pool(2).values == (1, 1, 0, 0, 0, 0, 0, 0, 0, 0)
    # A PEN 0 weapon causes no save; a target number of 1 or less passes without a roll (L223).
    assert plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=0, accuracy_bonus=0)).weapon.pen == 5
    g.sides[1].units[0].profile["save"] = 5
    assert plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=1)).save_pool(3).dice == 0


def test_failed_save_adds_a_flat_1000_l218() -> None:
    g = game_of([unit("dervish", accuracy=15)], [unit("argonaut", evade=0, save=0, hp=5000)], momentum=(3, 0))
    # Beam Rifle 3 shots, all hit; saves vs PEN 6 - Sv 0 = 6+: [2, 7, 5] fails two.
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, TypedDice([2, 2, 2, 2, 7, 5]))
    assert g.log[-1].detail["failed"] == 2
    assert hp(g, "1/b0") == 5000 - (3 * 500 + 2000)


def test_musarl_warship_saves_every_hit_l1009_l1011() -> None:
    """Hit 3 times by a PEN 6 Beam Rifle, Sv 0: three saves, failing on 1-5 (L1011); a warship has
    no limit of three (L1009): 9 hits make 9 saves (L940)."""
    g = game_of([unit("dervish", accuracy=15)], [unit("musarl")])
    p = plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=0))
    assert p.save_pool(3).values == (1, 1, 1, 1, 1, 0, 0, 0, 0, 0)
    assert p.save_pool(9).dice == 9


def test_save_options_l223_ambiguities_7_and_9() -> None:
    g = game_of([unit("dervish")], [unit("argonaut", save=0)])
    g.sides[0].units[0].profile["weapons"][0]["pen"] = 12
    p = plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=0))
    assert p.save_pool(1).values[-1] == 1  # target 12: even a 10 fails (recommended)
    g.options["save_ten_passes"] = True
    assert plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=0)).save_pool(1).values[-1] == 0
    assert p.damage(2, 1) == 2 * 500 + 1000
    g.options["save_replaces_damage"] = True
    assert plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=0)).damage(2, 1) == 500 + 1000


# --- exact odds = every roll -------------------------------------------------------------------


def brute(run: Any) -> dict[Hashable, Fraction]:
    out: dict[Hashable, Fraction] = {}
    stack: list[list[int]] = [[]]
    while stack:
        faces = stack.pop()
        try:
            result = run(TypedDice(faces))
        except NeedMoreDice as need:
            stack.extend([*faces, f] for f in range(1, need.sides + 1))
            continue
        out[result] = out.get(result, Fraction(0)) + Fraction(1, 10 ** len(faces))
    return out


@pytest.mark.parametrize(
    ("shots", "pen", "shield", "advantage", "save"),
    [
        (1, 6, "none", "none", 1),
        (2, 0, "great_shield", "none", 0),
        (1, 5, "great_shield", "advantage", 2),
        (2, 0, "great_shield", "blindside", 0),
    ],
)
def test_shot_odds_match_every_roll(shots: int, pen: int, shield: str, advantage: str, save: int) -> None:
    gun = {"name": "Gun", "range": 24, "shots": shots, "damage": 300, "pen": pen}
    g = game_of(
        [unit("argonaut", weapons=[gun])],
        [unit("dervish", shield=shield, save=save, hp=1500)],
        momentum=(3, 0),
    )
    inp = {"attacker": "0/a0", "target": "1/b0", "weapon": 0, "advantage": advantage}

    def run(dice: TypedDice) -> int:
        after = act(g, "shoot", inp, dice)
        return int(after.log[-1].detail["damage"])

    rolled = brute(run)
    o = odds(g, "shoot", inp)
    shown = {int(r.value): Fraction(r.exactly) for r in o.tables["damage"].rows if Fraction(r.exactly)}
    assert shown == rolled
    p = plan(g, Shoot.model_validate(inp))
    assert Fraction(o.facts["destroyed"]).limit_denominator(10**9) == sum(
        (c for v, c in rolled.items() if v >= p.left), Fraction(0)
    )
    assert sum(shot_dist(p).weights.values()) == shot_dist(p).total


# --- the Melee Clash (L183-L214) ---------------------------------------------------------------


def test_blue_djinn_clashes_with_white_asura_l199_l214() -> None:
    """Blue Djinn 9 + 2 dice: ATK 8, DEF 3; White Asura 7: ATK 3, DEF 4 (L199-L206).
    ATK [2,2,3,5,7,7,8,10] = 6 hits; DEF [2,5,8,10] = 3 blocks + Shield = 4; 2 Heat Sword hits = 1000,
    saves passed (L204-L208).  Counter [2,8,9] = 2 hits; DEF [2,4,4] = 0 + Shield = 1; out of Momentum,
    Blue Djinn takes the last hit (L210-L212).  Both took damage: no Finishing Blow (L213)."""
    g = game_of([unit("blue_djinn")], [unit("white_asura")], momentum=(0, 0))
    inp = {
        "attacker": "0/a0",
        "target": "1/b0",
        "weapon": 0,
        "attack_dice": 8,
        "defender_attack": 3,
        "defender_weapon": 1,
    }
    faces = [2, 2, 3, 5, 7, 7, 8, 10, 2, 5, 8, 10, 2, 8, 9, 2, 4, 4]
    with pytest.raises(NeedChoice) as asked:  # the attacker gained 1 Momentum for the melee (L246)
        act(g, "melee", inp, TypedDice(faces))
    assert asked.value.field == "counter_defense"
    g2 = act(g, "melee", {**inp, "counter_defense": 0}, TypedDice([*faces, 8]))
    d = g2.log[-1].detail
    assert d["through"] == [2, 1]
    assert d["damage"][0] == 1000  # White Asura's saves pass: Heat Sword PEN 3 - Sv 2 is 1 (L223)
    assert d["damage"][1] == 500  # the Beam Saber's hit; its save (8 on 5+) passed
    assert "Finishing Blow" not in g2.log[-1].text
    assert momentum(g2, 0) == 1


def test_a_defender_with_no_melee_weapon_is_offered_only_all_dice_on_defense_l188_l208() -> None:
    """Its counterattack is its weapon's (L188; damage is hits x the weapon's DMG, L208): the Argonaut,
    with no melee weapon, is asked no split that could deal nothing, only its dice all on defense,
    which the odds assume; a split sent anyway is refused; and a one-sided clash's result promises
    no Finishing Blow the app does not offer (its rules are lost, L213, digest ambiguity 3)."""
    g = game_of([unit("blue_djinn")], [unit("argonaut")], momentum=(0, 0))
    inp = {"attacker": "0/a0", "target": "1/b0", "attack_dice": 6}
    with pytest.raises(NeedChoice) as asked:
        act(g, "melee", inp, TypedDice([]))
    pool = SAMPLES["argonaut"].melee
    [only] = asked.value.options
    assert only.value == 0 and only.assumed
    assert only.label.startswith(f"All {pool} dice defend (no melee weapon to strike back with) · ")
    assumed, told = odds(g, "melee", inp), odds(g, "melee", {**inp, "defender_attack": 0})
    assert (assumed.tables, assumed.facts) == (told.tables, told.facts)
    with pytest.raises(ValueError, match="no melee weapon to strike back with"):
        act(g, "melee", {**inp, "defender_attack": 1}, TypedDice([5] * 40))
    done = act(g, "melee", {**inp, "defender_attack": 0, "counter_defense": 0}, TypedDice([10] * 40))
    assert done.log[-1].detail["damage"][1] == 0 and "Finishing Blow" not in done.log[-1].text


def test_henry_clashes_with_kara_l514_l534() -> None:
    """Henry: 5 + 2 dice all on ATK + Heat Lancer 2 = 9; Kara ATK 1, DEF 4 (L516-L520).  [1,2,3,3,4,6,7,9,10]
    = 5, 1 and 2 rerolled to 3 and 8 = 6, Focus +1 = 7 (L521-L523).  DEF [5,7,10,10] = 4 + Great Shield 2
    = 6, 1 Momentum = 7 (L525-L527).  Kara's [10] = 2 hits; Henry spends 2 (L528-L529).  Momentum:
    Henry 3 +1 -2 = 2, Kara 3 -1 = 2 (L516, L527, L529)."""
    g = game_of([unit("jet_black_lancer")], [unit("kara")], momentum=(3, 3))
    g = act(
        g,
        "shoot",
        {"attacker": "0/a0", "target": "1/b0", "weapon": 0, "defense": 0},
        TypedDice([1, 1, 3, 4, 5, 7]),
    )
    assert hp(g, "1/b0") == 2400
    g = act(g, "focus", {"unit": "0/a0"}, TypedDice([]))
    inp = {
        "attacker": "0/a0",
        "target": "1/b0",
        "weapon": 1,
        "attack_dice": 7,
        "defender_attack": 1,
        "defender_weapon": 1,
    }
    faces = [1, 2, 3, 3, 4, 6, 7, 9, 10, 3, 8, 5, 7, 10, 10, 10]
    o = odds(g, "melee", inp)
    assert o.tables["damage dealt"].rows
    with pytest.raises(NeedChoice) as asked:
        act(g, "melee", inp, TypedDice(faces))
    assert asked.value.field == "defense" and len(asked.value.options) == 2  # 1 hit through, 3 Momentum
    with pytest.raises(NeedChoice) as asked2:
        act(g, "melee", {**inp, "defense": 1}, TypedDice(faces))
    assert asked2.value.field == "counter_defense"
    g = act(g, "melee", {**inp, "defense": 1, "counter_defense": 2}, TypedDice(faces))
    d = g.log[-1].detail
    assert d["through"] == [1, 2] and d["damage"] == [0, 0]
    assert (momentum(g, 0), momentum(g, 1)) == (2, 2)
    assert hp(g, "1/b0") == 2400 and hp(g, "0/a0") == 3000
    # L530: on her turn Kara disengages (L68): 1 Momentum, and 1 more to attack afterwards (L258): [M-2].
    g = act(g, "end_turn", {"unit": "0/a0"}, TypedDice([]))
    g = act(g, "disengage", {"unit": "1/b0"}, TypedDice([]))
    assert momentum(g, 1) == 1
    # L531-L533: an Assault type, she goes full throttle, then fires her sniper: the second Momentum (M:0)
    g = act(g, "throttle", {"unit": "1/b0"}, TypedDice([]))
    # Henry needs 6s: [2,3,8,9] is 2 hits, and he loses 2 Momentum to avoid them (L532-L533)
    g = act(g, "shoot", {"attacker": "1/b0", "target": "0/a0", "defense": 2}, TypedDice([2, 3, 8, 9]))
    assert g.log[-1].detail["hits"] == 2 and hp(g, "0/a0") == 3000
    assert (momentum(g, 0), momentum(g, 1)) == (0, 0)
    # L534: both finish with 0 and gain 1 at the end of the round: 1 each.
    g = act(g, "end_turn", {"unit": "1/b0"}, TypedDice([]))
    g = next_round(g)
    assert (momentum(g, 0), momentum(g, 1)) == (1, 1)


def test_clash_odds_match_every_roll() -> None:
    """A small clash through the whole action: attack 1 die, defense 1; the defender 1 attack die."""
    small = unit("jet_black_lancer", melee=0)
    small["weapons"][1].update(atk_dice=0, reroll=[], damage=300, pen=0)
    other = unit("dervish", melee=1, hp=600)
    other["weapons"][1].update(pen=0, damage=400)
    g = game_of([small], [other], momentum=(0, 0))
    inp = {
        "attacker": "0/a0",
        "target": "1/b0",
        "weapon": 1,
        "attack_dice": 1,
        "defender_attack": 1,
        "counter_defense": 0,
    }

    def run(dice: TypedDice) -> tuple[int, int]:
        dmg = act(g, "melee", inp, dice).log[-1].detail["damage"]
        return int(dmg[0]), int(dmg[1])

    rolled = brute(run)
    o = odds(g, "melee", inp)
    for n, name in enumerate(("damage dealt", "damage taken")):
        side: dict[int, Fraction] = {}
        for key, c in rolled.items():
            side[key[n]] = side.get(key[n], Fraction(0)) + c  # type: ignore[index]
        assert {int(r.value): Fraction(r.exactly) for r in o.tables[name].rows if Fraction(r.exactly)} == side


@pytest.mark.parametrize(("a_atk", "d_atk", "reroll", "pen"), [(1, 1, [1], 5), (2, 1, [], 0)])
def test_strike_odds_match_every_roll(a_atk: int, d_atk: int, reroll: list[int], pen: int) -> None:
    """Bigger pools, with rerolls and saves: each strike's odds against every roll of its own steps
    (the functions the clash composes: FacePool.roll, landed, save_pool, damage)."""
    lancer = unit("jet_black_lancer", melee=1)
    lancer["weapons"][1].update(atk_dice=0, reroll=reroll, damage=300, pen=pen)
    g = game_of([lancer], [unit("dervish", melee=2, save=1)])
    strike, _, _, _, options = pools(
        g, Clash(attacker="0/a0", target="1/b0", weapon=1, attack_dice=a_atk, defender_attack=d_atk)
    )

    def run(dice: TypedDice) -> int:
        landed = strike.landed(strike.attack.roll(dice, "a").total, strike.defense.roll(dice, "d").total)
        return strike.damage(landed, strike.save_pool(landed).roll(dice, "s").total, options)

    rolled = brute(run)
    assert dict(strike.dist(options).map(lambda k: strike.damage(*k, options)).probabilities()) == rolled


def test_clash_split_refused_beyond_the_pool_l201() -> None:
    g = game_of([unit("blue_djinn")], [unit("white_asura")])
    with pytest.raises(ValueError, match="11 dice"):
        odds(g, "melee", {"attacker": "0/a0", "target": "1/b0", "attack_dice": 12})
    g.options["attacker_one_each"] = True  # ambiguity 2's other reading: +1 ATK and +1 DEF, fixed
    with pytest.raises(ValueError, match="9 dice"):
        odds(g, "melee", {"attacker": "0/a0", "target": "1/b0", "attack_dice": 10})


def test_melee_once_a_turn_l28() -> None:
    g = game_of([unit("blue_djinn")], [unit("white_asura")], momentum=(5, 0))
    inp = {
        "attacker": "0/a0",
        "target": "1/b0",
        "attack_dice": 11,
        "defender_attack": 0,
        "counter_defense": 0,
        "defense": 0,
    }
    g = act(g, "melee", inp, TypedDice([4] * 11 + [4] * 7))
    with pytest.raises(ValueError, match="once a turn"):
        act(g, "melee", inp, TypedDice([4] * 18))


# --- stun (L573-L579) ---------------------------------------------------------------------------


def test_arc_whip_stuns_white_asura_l579() -> None:
    """Two stun hits on a 1-action unit: it skips its next turn, shut down until the one after (L579)."""
    g = game_of([unit("blue_djinn", accuracy=15)], [unit("white_asura", shield="none")], momentum=(0, 0))
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 1}, TypedDice([2, 2]))
    w = g.unit("1/b0")[2].state
    assert w.counters["stun"] == 2 and "shut_down" in w.conditions
    g = act(g, "end_turn", {"unit": "0/a0"}, TypedDice([]))
    with pytest.raises(ValueError, match="no actions"):
        act(g, "focus", {"unit": "1/b0"}, TypedDice([]))
    g = act(g, "end_turn", {"unit": "1/b0"}, TypedDice([]))  # the skipped turn
    assert "shut_down" in g.unit("1/b0")[2].state.conditions
    g = next_round(g)
    g = act(g, "roll_off", {}, TypedDice([1, 8]))
    g = act(g, "focus", {"unit": "1/b0"}, TypedDice([]))  # it reactivates
    assert "shut_down" not in g.unit("1/b0")[2].state.conditions


# --- the round (L30-L43) and Momentum (L237-L247) ------------------------------------------------


def test_starting_momentum_by_game_size_l240_l243() -> None:
    assert [starting_momentum(p) for p in (500, 1000, 1500, 2000)] == [3, 5, 7, 9]
    forces = list(FORCES.values())
    g = game_of([unit(k) for k in forces[0]], [unit(k) for k in forces[1]])
    assert (momentum(g, 0), momentum(g, 1)) == (3, 3)  # 500-point forces: 3 (L506)
    for _ in range(10):
        g = next_round(round_over(g))
    assert momentum(g, 0) == 10  # never above 10 (L243)


def test_roll_off_ties_roll_again_l32() -> None:
    squads = [
        Squad(
            id=f"s{n}",
            name=f"S{n}",
            system="mechastellar",
            units=[SquadUnit(key="u", profile=unit("argonaut"))],
        )
        for n in range(2)
    ]
    g = new_game("g", "T", [(s.name, s) for s in squads])
    with pytest.raises(ValueError, match="roll off"):
        act(g, "focus", {"unit": "0/u"}, TypedDice([]))
    g = act(g, "roll_off", {}, TypedDice([4, 4, 2, 7]))
    assert g.state.active_side == 1
    assert "then" in g.log[-1].text
    with pytest.raises(ValueError, match="made"):
        act(g, "roll_off", {}, TypedDice([1, 2]))


def test_alternating_activations_and_return_fire_l40_l42() -> None:
    g = game_of([unit("argonaut"), unit("dervish")], [unit("white_asura"), unit("kara")], momentum=(3, 0))
    with pytest.raises(ValueError, match="Red's turn"):
        act(g, "focus", {"unit": "1/b0"}, TypedDice([]))
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b1", "weapon": 0}, TypedDice([9, 9, 9]))
    with pytest.raises(ValueError, match="taking its turn"):
        act(g, "focus", {"unit": "0/a1"}, TypedDice([]))
    g = act(g, "end_turn", {"unit": "0/a0"}, TypedDice([]))
    assert g.state.active_side == 1
    with pytest.raises(ValueError, match="Return Fire"):
        act(g, "focus", {"unit": "1/b0"}, TypedDice([]))
    g = act(g, "focus", {"unit": "1/b1"}, TypedDice([]))
    g = undo(g)
    assert g.state.active_side == 1


def test_the_round_ends_only_when_every_unit_has_activated_l26_l41() -> None:
    """Next round is greyed with the reason (the phase view) and refused by the engine while a unit is
    mid-turn, Return Fire is owed or a unit has not activated (L26, L41); once all have, it is offered."""
    system = implementation("mechastellar")
    g = game_of([unit("argonaut"), unit("dervish")], [unit("white_asura"), unit("kara")])
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b1", "weapon": 0}, TypedDice([9, 9, 9]))
    with pytest.raises(ValueError, match="Argonaut is taking its turn: end it first"):
        next_round(g)
    g = act(g, "end_turn", {"unit": "0/a0"}, TypedDice([]))
    owed = system.phase(g)
    assert owed is not None and owed.round_refusal.startswith("Return Fire is owed: Sample: Crimson Custom")
    with pytest.raises(ValueError, match="Return Fire is owed"):
        next_round(g)
    for ref in ("1/b1", "0/a1"):
        g = act(g, "end_turn", {"unit": ref}, TypedDice([]))
    with pytest.raises(ValueError, match=r"Sample: White Asura has not had its turn: .* every unit"):
        next_round(g)
    g = act(g, "end_turn", {"unit": "1/b0"}, TypedDice([]))
    done = system.phase(g)
    assert done is not None and done.round_refusal == "" and done.steps[done.current].key == "round_end"
    assert next_round(g).round == 2
    fresh = system.phase(next_round(g))
    assert fresh is not None and "roll off" in fresh.round_refusal  # the new round has not begun


def test_shoot_is_greyed_once_no_shot_is_left_l26_l153() -> None:
    """Shoot is offered greyed with the reason (the gate its card button reads) once every weapon has fired
    (L153) or the actions are spent (L26), and refused by the engine if sent anyway."""
    g = game_of([unit("argonaut"), unit("dervish")], [unit("white_asura")])
    assert "shoot" not in gated_actions(g).get("0/a0", {})
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, TypedDice([9, 9, 9]))
    assert "shoot" not in gated_actions(g).get("0/a0", {})  # the machine gun is left, and an action
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 1}, TypedDice([9] * 10))
    assert ": evade dice 9, 9, 9" in g.log[-1].text and " and 9, 0 hits" in g.log[-1].text  # plain words
    why = gated_actions(g)["0/a0"]["shoot"]
    assert why == (
        "Sample: Argonaut has no weapon to fire now: Cannon fired this turn; "
        "Machine gun fired this turn (L153)"
    )
    with pytest.raises(ValueError, match="no weapon to fire now"):
        act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, TypedDice([9, 9, 9]))
    # one weapon left but both actions spent (Full Throttle, then a shot): greyed for the actions
    h = game_of([unit("argonaut"), unit("dervish")], [unit("white_asura")])
    h = act(h, "throttle", {"unit": "0/a0"}, TypedDice([]))
    h = act(h, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, TypedDice([9, 9, 9]))
    assert gated_actions(h)["0/a0"]["shoot"] == "Sample: Argonaut has used its 2 actions this turn (L26)"


def test_rapid_fire_range_is_offered_only_for_a_weapon_with_rf_l91_l93() -> None:
    """ "Rapid fire range" adds the weapon's RF+X shots (L91-L93): for the Argonaut's Cannon (no RF) it is
    greyed with the reason and refused; for a weapon with RF+1 it is offered and adds the shot."""
    g = game_of([unit("argonaut")], [unit("white_asura")])
    cannon = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    assert gates(g, "shoot", cannon).values["band"]["rapid"] == (
        "Cannon has no Rapid Fire bonus (RF+X, L91-L93)"
    )
    assert "long" not in gates(g, "shoot", cannon).values["band"]
    with pytest.raises(ValueError, match="Cannon has no Rapid Fire bonus"):
        act(g, "shoot", {**cannon, "band": "rapid"}, TypedDice([9] * 6))
    rifle = {"name": "Beam Rifle", "range": 32, "shots": 3, "rapid_fire": 1, "damage": 500}
    h = game_of([unit("argonaut", weapons=[rifle])], [unit("white_asura")])
    assert "band" not in gates(h, "shoot", cannon).values
    assert plan(h, Shoot(**{**cannon, "band": "rapid"})).shots == 4  # 3 shots, RF+1 within 16" (L93)


def test_kill_momentum_once_a_turn_l247() -> None:
    gun = {"name": "Gun", "range": 24, "shots": 2, "damage": 5000}
    g = game_of(
        [unit("argonaut", weapons=[gun, gun], accuracy=15)],
        [unit("dervish"), unit("white_asura")],
        momentum=(3, 0),
    )
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, TypedDice([2, 2]))
    assert g.unit("1/b0")[2].state.destroyed and momentum(g, 0) == 4
    g = act(
        g,
        "shoot",
        {"attacker": "0/a0", "target": "1/b1", "weapon": 1, "advantage": "blindside"},
        TypedDice([2, 2]),
    )
    assert g.unit("1/b1")[2].state.destroyed and momentum(g, 0) == 4


def test_sample_forces_are_legal_and_labelled() -> None:
    for keys in FORCES.values():
        for k in keys:
            assert SAMPLES[k].name.startswith("Sample: ")
            assert not SYSTEM.unit_violations(SAMPLES[k])
    assert sum(SAMPLES[k].points for k in next(iter(FORCES.values()))) == 500
    assert all(c.note for c in SYSTEM.catalogue())


def test_pilot_traits_by_tier_l368() -> None:
    bad = SAMPLES["argonaut"].model_copy(
        update={"pilot": SAMPLES["argonaut"].pilot.model_copy(update={"traits": ["renowned"]})}
    )
    assert [v.rule for v in SYSTEM.unit_violations(bad)] == ["pilot-traits"]
    ace = SAMPLES["blue_djinn"].model_copy(
        update={"pilot": SAMPLES["blue_djinn"].pilot.model_copy(update={"traits": ["renowned", "noble"]})}
    )
    assert not SYSTEM.unit_violations(ace)


# --- Super Titan Power (L157-L167) ----------------------------------------------------------------


def titan(power: int, costs: list[int]) -> dict[str, Any]:
    guns = [{"name": f"Gun {c}", "range": 24, "shots": 1, "damage": 500, "pen": 0, "power": c} for c in costs]
    return unit("joker", power=power, weapons=guns, accuracy=15)


def test_power_5_fires_4_and_1_but_not_3_and_3_l163() -> None:
    g = game_of([titan(5, [4, 1])], [unit("dervish", hp=10000)], momentum=(0, 0))
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, TypedDice([9]))
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 1}, TypedDice([9]))
    h = game_of([titan(5, [3, 3])], [unit("dervish", hp=10000)], momentum=(0, 0))
    h = act(h, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, TypedDice([9]))
    with pytest.raises(ValueError, match="2 Power free"):
        act(h, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 1}, TypedDice([9]))


def test_power_4_focus_then_a_power_7_weapon_l165() -> None:
    g = game_of([titan(4, [7])], [unit("dervish", hp=10000)], momentum=(0, 0))
    with pytest.raises(ValueError, match="needs 7"):
        act(g, "shoot", {"attacker": "0/a0", "target": "1/b0"}, TypedDice([9]))
    g = act(g, "focus", {"unit": "0/a0", "power": True}, TypedDice([]))
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0"}, TypedDice([9]))
    assert "Gun 7" in g.log[-1].text
    g = act(g, "end_turn", {"unit": "0/a0"}, TypedDice([]))
    with pytest.raises(ValueError, match="Super Titan"):
        act(g, "focus", {"unit": "1/b0", "power": True}, TypedDice([]))


def test_power_on_the_great_shield_before_it_acts_l167_l230() -> None:
    """A Titan's Great Shield blocks only with its Power on it, assigned even on the enemy's turn (L160,
    L230); 4 Power there before its turn; on its own turn the Power is free to go elsewhere (L161)."""
    joker = unit("joker", power=4, shield_power=4)
    g = game_of([unit("argonaut")], [joker], momentum=(0, 0))
    shot = Shoot(attacker="0/a0", target="1/b0", weapon=1)
    assert plan(g, shot).blocks == 0
    g = act(g, "power", {"unit": "1/b0"}, TypedDice([]))
    assert plan(g, shot).blocks == 4  # Great Shield vs PEN 0: 2 + 2 (L232)
    g = act(g, "end_turn", {"unit": "0/a0"}, TypedDice([]))
    g = act(g, "throttle", {"unit": "1/b0"}, TypedDice([]))  # its turn: the Power may move (L161)
    assert plan(g, shot).blocks == 0
    g = act(g, "power", {"unit": "1/b0"}, TypedDice([]))  # ... or stay on the shield as it strides on
    assert plan(g, shot).blocks == 4


def test_a_skilled_pilot_buys_a_failed_save_l220() -> None:
    """Tier 1-2 pilots, Kaiju and Captains may spend 1 Momentum to pass a failed Armor Save (L220)."""
    g = game_of([unit("dervish", accuracy=15)], [unit("kara", shield="none", save=0)], momentum=(0, 2))
    inp = {"attacker": "0/a0", "target": "1/b0", "weapon": 0, "defense": 0}
    faces = [5, 5, 5, 2, 3, 9]  # 3 hits; saves vs PEN 6 need 6+: two of three fail
    with pytest.raises(NeedChoice) as asked:
        act(g, "shoot", inp, TypedDice(faces))
    assert asked.value.field == "bought" and [o.value for o in asked.value.options] == [0, 1, 2]
    g = act(g, "shoot", {**inp, "bought": 1}, TypedDice(faces))
    assert g.log[-1].detail["failed"] == 1
    assert hp(g, "1/b0") == 3000 - (3 * 500 + 1000) and momentum(g, 1) == 1
    # A Basic pilot is not asked (L220).
    h = game_of([unit("dervish", accuracy=15)], [unit("argonaut", save=0, hp=9000)], momentum=(0, 2))
    h = act(h, "shoot", {**inp}, TypedDice(faces))
    assert h.log[-1].detail["failed"] == 2


# --- traits the engine applies (L370-L497, L566) ---------------------------------------------------


def test_shut_down_target_evade_0_and_advantage_l566() -> None:
    g = game_of([unit("argonaut")], [unit("dervish")])
    g.sides[1].units[0].state.conditions.append("shut_down")
    p = plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=1))
    assert p.tn == 9 and p.crits == 1


def test_commander_traits_l491_l496() -> None:
    vigilant = unit("dervish", commander="vigilant_leader")
    g = game_of([unit("argonaut"), vigilant], [unit("white_asura")])
    assert plan(g, Shoot(attacker="0/a0", target="1/b0")).tn == 9 + 1 - 3  # L491
    bold = game_of([unit("blue_djinn"), unit("dervish", commander="bold_leader")], [unit("white_asura")])
    strike, *_ = pools(bold, Clash(attacker="0/a0", target="1/b0", attack_dice=2))
    assert strike.attack.values[3] == 1  # a 4 hits (L492)
    impressive = game_of([unit("white_asura", commander="impressive_skill")], [unit("dervish")])
    assert plan(impressive, Shoot(attacker="0/a0", target="1/b0")).flat == 1  # +1 hit (L493)
    impressive = act(impressive, "focus", {"unit": "0/a0"}, TypedDice([]))
    impressive = act(impressive, "throttle", {"unit": "0/a0"}, TypedDice([]))  # +1 action (L493)
    resourceful = game_of([unit("white_asura", commander="resourceful")], [unit("dervish")])
    assert (momentum(resourceful, 0), momentum(resourceful, 1)) == (4, 3)  # +1 at the start (L496)
    resourceful = next_round(round_over(resourceful))
    assert (momentum(resourceful, 0), momentum(resourceful, 1)) == (7, 4)  # +2 more each round end


def test_pilot_traits_on_activation_l374_l474() -> None:
    renowned = unit("jet_black_lancer", pilot={"tier": "skilled", "traits": ["renowned"]})
    g = game_of([renowned], [unit("dervish")], momentum=(3, 3))
    g = act(g, "focus", {"unit": "0/a0"}, TypedDice([]))
    assert momentum(g, 0) == 4  # L374
    legend = unit("white_asura", pilot={"tier": "ace", "traits": ["legendary"]})
    h = game_of([legend], [unit("dervish")], momentum=(3, 3))
    h = act(h, "focus", {"unit": "0/a0"}, TypedDice([]))
    h = act(h, "throttle", {"unit": "0/a0"}, TypedDice([]))  # +1 action in round 1 (L475)
    assert momentum(h, 0) == 5  # +2 on activation (L474)


def test_close_combat_master_l447() -> None:
    master = unit("white_asura", pilot={"tier": "ace", "traits": ["close_combat_master"]})
    g = game_of([unit("blue_djinn")], [master])
    strike, counter, *_ = pools(g, Clash(attacker="0/a0", target="1/b0", attack_dice=6, defender_attack=3))
    assert strike.defense.values[9] == 2 and strike.blocks == 1 + 1  # DEF 10s two blocks; Shield + trait
    assert counter.flat == 1


# --- gated inputs: offered greyed with the reason, refused if sent (the table bar) ----------------


def test_gated_inputs_name_what_the_unit_lacks_and_are_refused() -> None:
    """Focus for +3 Power is a Super Titan's (L129); powering a shield needs a Super Titan's shield
    (L160, L230); Disengage needs melee (L68, L255); "within 16 inches" changes only a focused shot
    (L123-L124).  game.gates greys each for a unit that lacks it, with the reason, and the engine
    refuses it in those words."""
    from core.game import gated_actions, gates

    g = game_of([unit("argonaut"), unit("joker", power=4, shield_power=4)], [unit("dervish")])
    assert gates(g, "focus", {"unit": "0/a0"}).fields == {
        "power": "Sample: Argonaut is not a Super Titan",
        "in_melee": "Sample: Argonaut's pilot is not Skilled or Ace",  # L127
    }
    joker = gates(g, "focus", {"unit": "0/a1"}).fields
    assert joker == {"in_melee": "Sample: Joker's pilot is not Skilled or Ace"}
    greyed = gated_actions(g)
    assert greyed["0/a0"]["power"] == "Sample: Argonaut has no shield that takes Power"
    assert "power" not in greyed.get("0/a1", {})
    assert greyed["0/a0"]["disengage"] == "Sample: Argonaut is not in melee"
    assert greyed["0/a0"]["melee"] == "Sample: Argonaut has no melee weapon"  # L183-L188
    assert "melee" not in greyed.get("0/a1", {})
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 1}
    assert gates(g, "shoot", shot).fields["within_16"] == "Sample: Argonaut has not taken Focus this turn"
    for action, raw, why in (
        ("focus", {"unit": "0/a0", "power": True}, "not a Super Titan"),
        ("power", {"unit": "0/a0"}, "no shield that takes Power"),
        ("disengage", {"unit": "0/a0"}, "not in melee"),
        ("melee", {"attacker": "0/a0", "target": "1/b0"}, "no melee weapon"),
        ("shoot", {**shot, "within_16": True}, "has not taken Focus"),
    ):
        with pytest.raises(ValueError, match=why):
            act(g, action, raw, TypedDice([5] * 12))
        if action == "shoot":
            with pytest.raises(ValueError, match=why):
                odds(g, action, raw)
    focused = act(g, "focus", {"unit": "0/a0"}, TypedDice([]))
    assert "within_16" not in gates(focused, "shoot", shot).fields
    engaged = g.model_copy(deep=True)
    engaged.sides[0].units[0].state.conditions.append("engaged")
    assert "disengage" not in gated_actions(engaged).get("0/a0", {})


def test_before_the_roll_off_only_the_roll_off_is_offered() -> None:
    """Before the round's roll-off (L32) every unit's Shoot, Melee, Focus, Full Throttle, Disengage and
    End turn are greyed with the reason (the roll-off is the first step, never met as a refusal); after
    it, only the side in turn's units may act (L40), the other side's greyed with whose turn it is."""
    from core.game import gated_actions

    squads = [
        Squad(id=f"s{n}", name=name, system="mechastellar", units=[SquadUnit(key="u", profile=unit(key))])
        for n, (name, key) in enumerate((("Red", "argonaut"), ("Blue", "argonaut")))
    ]
    g = new_game("g", "Test", [(s.name, s) for s in squads])
    greyed = gated_actions(g)
    for ref in ("0/u", "1/u"):
        for action in ("shoot", "melee", "focus", "throttle", "disengage", "end_turn"):
            assert greyed[ref][action].startswith("roll off for the round first")
    with pytest.raises(ValueError, match="roll off for the round first"):
        act(g, "shoot", {"attacker": "0/u", "target": "1/u", "weapon": 0}, TypedDice([5, 5, 5]))
    g = act(g, "roll_off", {}, TypedDice([9, 2]))
    greyed = gated_actions(g)
    assert "shoot" not in greyed.get("0/u", {}) and "end_turn" not in greyed.get("0/u", {})
    assert greyed["1/u"]["shoot"].startswith("it is Red's turn")


def test_the_clash_splits_are_choices_attacker_picks_defender_is_asked_l519() -> None:
    """Both sides split their Melee dice between attack and defense (L519): the attacker's splits are
    buttons of its sheet (its Melee and the charge's 2 dice, L518), all attack first; the defender's
    split is asked of its player before any die is rolled, each answer with its odds; the odds shown
    before assume an even split (the odd die defends)."""
    from core.game import picks

    g = game_of([unit("blue_djinn")], [unit("white_asura")], momentum=(0, 0))
    splits = picks(g, "melee", "0/a0")["attack_dice"]
    assert [p.value for p in splits] == list(range(11, -1, -1))  # Melee 9 + 2 (L518)
    assert splits[0].label == "11 attack / 0 defense"
    inp = {"attacker": "0/a0", "target": "1/b0", "attack_dice": 6}
    with pytest.raises(NeedChoice) as asked:
        act(g, "melee", inp, TypedDice([]))  # no die is read before the defender splits
    d_pool = SAMPLES["white_asura"].melee
    assert asked.value.field == "defender_attack"
    assert [c.value for c in asked.value.options] == list(range(d_pool, -1, -1))
    assert [c.value for c in asked.value.options if c.assumed] == [d_pool // 2]
    assert asked.value.options[0].label.startswith(f"{d_pool} attack / 0 defense · deals ~")
    # what it deals back and whose destruction the chance is: its own
    said = r"\d+ attack / 0 defense · deals ~\d+ back · \d+% chance it is destroyed"
    assert re.fullmatch(said, asked.value.options[0].label)
    assumed = odds(g, "melee", inp)
    told = odds(g, "melee", {**inp, "defender_attack": d_pool // 2})
    assert (assumed.tables, assumed.facts) == (told.tables, told.facts)
    assert "even defense" in assumed.summary
