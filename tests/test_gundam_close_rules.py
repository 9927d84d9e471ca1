"""Gundam Skirmish: close combat's decisions pinned one by one (lines are in 000_3e12d4cbd0c8f6da.txt).

Each test names its rule and checks the direction and size of its effect, at its boundary where it has
one, through the odds ``core.api`` gives the app and the cards after a resolved combat.  Written against
the survivors of ``tests/mutation.py`` on ``close_combat.py`` (issue #27).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from test_gundam_effects import FIGHT, _strike, api_odds, edit, pilot, sample, tables
from test_gundam_skirmish import game, state

from core import api
from core.dice import Dist, NeedMoreDice, TypedDice
from core.game import Game, act
from core.systems.base import NeedChoice
from core.systems.gundam_skirmish.close_combat import Striker, roll_strike, strike_dist, strip

#: The Lancer's beam blade: DEX 2, 2 dice 3+ (crit 4+), 4 DAM; the Trooper's heat axe: DEX 3, 2 dice 4+
#: (crit 6), 3 DAM (the app's sample units).
BOTH_ANSWER = {"shield_break": "no", "defender_shield_break": "no"}


def advantage(g: Game, raw: dict[str, Any]) -> Fraction:
    return Fraction(api_odds(g, "close_combat", raw)["facts"]["advantage"]).limit_denominator(10**6)


def wins(x: Dist[int], y: Dist[int]) -> Fraction:
    """P(x beats y), ties rolled again (L977), counted by hand."""
    win = tie = Fraction(0)
    for a, p in x.probabilities():
        for b, q in y.probabilities():
            if a > b:
                win += p * q
            elif a == b:
                tie += p * q
    return win / (1 - tie)


D6 = Dist.die(6)


def plus(d: Dist[int], n: int) -> Dist[int]:
    return d.map(lambda v: v + n)


# --- Advantage (L970-L977, L1036-L1040) and what changes it -----------------------------------------------


def test_advantage_is_d6_plus_dex_and_2d6_after_a_charge() -> None:
    """L970-L977: each side 1D6 + its weapon's DEX, 2D6 + DEX for the side that charged."""
    g = game()
    assert advantage(g, FIGHT) == wins(plus(D6, 2), plus(D6, 3))
    assert advantage(g, {**FIGHT, "charged": True}) == wins(plus(D6.repeat(2), 2), plus(D6, 3))
    both = {**FIGHT, "charged": True, "defender_charged": True}
    assert advantage(g, both) == wins(plus(D6.repeat(2), 2), plus(D6.repeat(2), 3))


def test_beam_jitte_zeroes_the_opponents_dex_and_cuts_its_attack_to_one_die() -> None:
    """L2808-L2814: against a Beam Jitte the opponent has DEX +0 for Advantage and 1 Attack die."""
    jitte = game(b=[("t1", sample("trooper", abilities=[{"key": "beam_jitte"}]))])
    assert advantage(jitte, FIGHT) == wins(D6, plus(D6, 3))
    assert _strike(jitte, FIGHT).dice == 1
    assert _strike(game(), FIGHT).dice == 2
    # the Jitte's own strike and DEX are untouched
    assert _strike(jitte, FIGHT, first=False).dice == 2
    mine = game(a=[("l1", sample("lancer", abilities=[{"key": "beam_jitte"}]))])
    assert advantage(mine, FIGHT) == wins(plus(D6, 2), D6)


@pytest.mark.parametrize(("damage", "outright"), [(2, False), (3, True), (4, True)])
def test_exam_charges_like_rash_from_half_integrity(damage: int, outright: bool) -> None:
    """L1988-L1990 with EXAM (digest A43): at half its Integrity or less a charging EXAM unit wins
    Advantage outright; above half it rolls.  The Lancer has Integrity 6: 3 left is half."""
    g = game(a=[("l1", sample("lancer", pilot=pilot(heroic_mods=["exam"])))])
    g = g.model_copy(deep=True)
    g.sides[0].units[0].state.damage = damage
    p = advantage(g, {**FIGHT, "charged": True})
    assert (p == 1) is outright
    assert 0 < advantage(g, FIGHT) < 1  # no Charge: rolled


def test_advantage_ties_are_rolled_again() -> None:
    """L977: a tie is rolled again until one side is higher."""
    g = game(a=[("l1", sample("lancer", shield="none"))], b=[("t1", sample("trooper", shield="none"))])
    # 5 + 2 = 7 against 4 + 3 = 7: again; 6 + 2 = 8 against 1 + 3 = 4: the Lancer strikes first
    faces = [5, 4, 6, 1, 1, 1, 1, 1]
    after = act(g, "close_combat", {**FIGHT, **BOTH_ANSWER}, TypedDice(faces))
    assert "Advantage 7-7, 8-4" in after.log[-1].text
    assert [tuple(r) for r in after.log[-1].detail["advantage"]] == [(7, 7), (8, 4)]


# --- the strike's numbers ----------------------------------------------------------------------------------


def test_panoramic_cockpit_cancels_the_flank_die_except_in_dense_minovsky() -> None:
    """L1028-L1034: +1 die against a defender that did not see it; Panoramic Cockpit cancels it
    (L2964-L2965) but not in Dense Minovsky Particles (L3311-L3312)."""
    pano = game(b=[("t1", sample("trooper", abilities=[{"key": "panoramic_cockpit"}]))])
    flank = {**FIGHT, "flank": True}
    assert _strike(pano, flank).dice == 2
    assert _strike(game(), flank).dice == 3
    dense = act(pano, "setup", {"environment": "dense_minovsky"}, TypedDice([]))
    assert _strike(dense, flank).dice == 3
    # the defender's own flank die (it did not see the attacker)
    assert _strike(game(), {**FIGHT, "defender_flank": True}, first=False).dice == 3


def test_head_damage_and_solid_defence_add_their_shield_rerolls() -> None:
    """L1044-L1048 (the striker's Head Damage) and L3001-L3005 (Solid Defence): one re-roll each, two
    together; Impenetrable only when there is none (L3288-L3289)."""
    solid = game(b=[("t1", sample("trooper", abilities=[{"key": "solid_defence"}]))])
    assert _strike(edit(solid, "0/l1", counters={"head": 1}), FIGHT).shield_rerolls == 2
    brave = game(
        b=[
            (
                "t1",
                sample(
                    "trooper",
                    abilities=[{"key": "solid_defence"}],
                    pilot=pilot(heroic_traits=["impenetrable"]),
                ),
            )
        ]
    )
    assert _strike(brave, FIGHT).shield_rerolls == 1


def test_a_damaged_shield_gives_no_shield_bonus_in_close_combat() -> None:
    """L649-L654, L984-L986: no Shield Bonus at Shield Integrity 0, nor with Arm Damage."""
    assert _strike(game(), FIGHT).shield_dice == 1
    assert _strike(edit(game(), "1/t1", counters={"shield": 0}), FIGHT).shield_dice == 0
    assert _strike(edit(game(), "1/t1", counters={"arm": 1}), FIGHT).shield_dice == 0


def st(**given: Any) -> Striker:
    base: dict[str, Any] = {
        "dice": 2,
        "acc": 3,
        "crit": 5,
        "dam": 3,
        "rerolls": 0,
        "flayer": False,
        "armour": 3,
        "shield_dice": 0,
        "shield_success": 0,
        "shield_rerolls": 0,
        "unarmed": False,
    }
    return Striker(**(base | given))


@pytest.mark.parametrize(
    ("hits", "shield", "left"),
    [
        # hits by face 2..6; Armour 3 strips one hit showing 3 or less, criticals (5+) first (L984-L986)
        ((0, 1, 0, 1, 0), True, (0, 0)),  # a 3 by armour, the 5 by the shield
        ((0, 0, 0, 1, 1), False, (2, 2)),  # 5 and 6 above Armour 3: both stay
        ((0, 1, 0, 0, 1), False, (1, 1)),  # the 3 goes, the 6 stays
        ((1, 1, 0, 0, 0), False, (1, 0)),  # one hit at most by armour: the 3 (the higher) goes
        ((0, 0, 1, 1, 0), True, (1, 0)),  # the shield takes the critical 5 before the 4
        ((0, 0, 0, 0, 0), True, (0, 0)),
    ],
)
def test_strip_one_by_armour_one_by_shield_criticals_first(
    hits: tuple[int, int, int, int, int], shield: bool, left: tuple[int, int]
) -> None:
    """L984-L986: the defender strips one hit of its Armour number or less, one more with a Shield Bonus,
    and takes criticals first."""
    assert strip(hits, st(), shield) == left


def test_a_shield_bonus_rolls_its_dice_and_rerolls() -> None:
    """L984-L986 with L1044-L1048: the shield's dice strip a hit on a success; a re-roll of failed dice
    raises the chance exactly as two tries."""
    one = st(dice=1, acc=2, crit=None, dam=1, armour=1, shield_dice=1, shield_success=5)
    # a 1-die strike hitting on 2+ with faces 2..6 above Armour 1: 5/6 a hit; the shield strips on 5+
    d = dict(strike_dist(one).probabilities())
    assert d[(1, 0)] == Fraction(5, 6) * Fraction(4, 6)
    again = dict(strike_dist(one.model_copy(update={"shield_rerolls": 1})).probabilities())
    assert again[(1, 0)] == Fraction(5, 6) * Fraction(4, 6) ** 2
    two = dict(strike_dist(one.model_copy(update={"shield_dice": 2})).probabilities())
    assert two[(1, 0)] == Fraction(5, 6) * Fraction(4, 6) ** 2


# --- the resolved combat --------------------------------------------------------------------------------


@pytest.mark.parametrize(("gate", "charges"), [(3, False), (4, True)])
def test_a_wavering_unit_charges_only_on_four_or_more(gate: int, charges: bool) -> None:
    """L1545-L1550: a Wavering (or Routed) unit rolls a D6 before a Charge; 3 or less and it may not."""
    g = edit(game(), "0/l1", conditions=["wavering"])
    charge = {**FIGHT, "charged": True, **BOTH_ANSWER}
    after = act(g, "close_combat", charge, TypedDice([gate, 6, 6, 1, *[1] * 12]))
    assert ("wavers" in after.log[-1].text) is not charges
    assert ("Advantage" in after.log[-1].text) is charges
    # the odds: the whole combat half the time, nothing the other half
    plain = tables(api_odds(game(), "close_combat", charge))["damage to the target"]
    shown = tables(api_odds(g, "close_combat", charge))["damage to the target"]
    want = {k: p / 2 for k, p in plain.items()}
    want[0] = want.get(0, Fraction(0)) + Fraction(1, 2)
    assert shown == want
    # no Charge, no roll
    assert tables(api_odds(g, "close_combat", FIGHT)) == tables(api_odds(game(), "close_combat", FIGHT))


def test_a_piercing_strike_costs_two_actions() -> None:
    """L931-L934: a Piercing Strike is a Slow action (2 actions); a combat entered by a Charge costs none
    of its own."""
    gunner = [("l1", sample("heavy_gunner"))]
    g = act(game(a=gunner), "switch_weapon", {"unit": "0/l1", "weapon": "cc"}, TypedDice([]))
    g = edit(g, "0/l1", counters={"actions": 0})
    raw = {**FIGHT, **BOTH_ANSWER}
    after = act(g, "close_combat", {**raw, "piercing_strike": True}, TypedDice([6, 1, *[1] * 12]))
    assert state(after, "0/l1").counters["actions"] == 2
    plain = act(g, "close_combat", raw, TypedDice([6, 1, *[1] * 12]))
    assert state(plain, "0/l1").counters["actions"] == 0


def _no_damage_fight(g: Game) -> Game:
    """Both strikes miss: Advantage 6 + DEX against 1 + DEX, every strike die a 1."""
    return act(g, "close_combat", {**FIGHT, **BOTH_ANSWER}, TypedDice([6, 1, *[1] * 12]))


def test_equal_damage_both_fall_back_and_gallant_holds() -> None:
    """L1000-L1003: equal damage, both fall back; a Gallant pilot never does (L1971-L1973), and two
    Gallant pilots both do."""
    text = _no_damage_fight(game()).log[-1].text
    assert text.endswith("Lancer and Trooper fall back (L1006-L1009)")
    brave = [("l1", sample("lancer", pilot=pilot("gallant")))]
    text = _no_damage_fight(game(a=brave)).log[-1].text
    assert text.endswith("Trooper falls back (L1006-L1009)")
    both = _no_damage_fight(game(a=brave, b=[("t1", sample("trooper", pilot=pilot("gallant")))]))
    assert both.log[-1].text.endswith("Lancer and Trooper fall back (L1006-L1009)")


def test_the_winner_deals_more_and_the_loser_falls_back() -> None:
    """L1000-L1003: the unit that dealt more damage wins; the other falls back."""
    g = game(a=[("l1", sample("lancer", shield="none"))], b=[("t1", sample("trooper", shield="none"))])
    # Advantage 6+2 against 1+3: the Lancer strikes 6, 6 (two criticals of 4 DAM each: 8 damage, the
    # Trooper's Integrity 6: destroyed)
    after = act(g, "close_combat", {**FIGHT, **BOTH_ANSWER}, TypedDice([6, 1, 6, 6, *[1] * 12]))
    assert state(after, "1/t1").destroyed
    assert "Trooper is destroyed and cannot strike back (A14)" in after.log[-1].text
    assert "falls back" not in after.log[-1].text  # the loser is gone: nobody is placed


def test_an_unarmed_winner_deals_no_damage() -> None:
    """L1066-L1070: a unit fighting Unarmed that wins deals no damage; its opponent falls back.  An
    Unarmed unit counts as having its weapon drawn: against a unit holding a ranged weapon it has
    Advantage outright (L1036-L1040)."""
    g = game(b=[("t1", sample("trooper", close_combat=[]))])
    after = act(g, "close_combat", {**FIGHT, **BOTH_ANSWER}, TypedDice([6, 1, 1, 1, 1, 4, 1, 1]))
    assert after.log[-1].text == (
        "Lancer and Trooper fight: Trooper has Advantage outright; Trooper strikes: 2 damage, 1 critical; "
        "Lancer strikes: 0 damage, 0 critical; Trooper fought unarmed and won: no damage is dealt "
        "(L1069-L1070); Lancer falls back (L1006-L1009)"
    )
    assert state(after, "0/l1").damage == 0 and state(after, "1/t1").damage == 0
    # the unit with a close combat weapon has it equipped after the combat (L1058-L1060); Unarmed has none
    assert state(after, "0/l1").extra["equipped"] == "cc"
    assert state(after, "1/t1").extra["equipped"] == "Machine gun"


def test_a_shield_break_in_close_combat_is_asked_then_halves_and_cancels() -> None:
    """L1121-L1128 (A12): the struck unit's player decides once the damage is known; a break halves the
    damage, cancels the chart rolls and removes the shield."""
    g = game()
    faces = [6, 1, 6, 6, 1, *[1] * 8]  # Advantage 8-4; the blade's 6, 6: two criticals of 4
    with pytest.raises(NeedChoice) as asked:
        act(g, "close_combat", FIGHT, TypedDice(faces))
    assert asked.value.field == "defender_shield_break"
    assert asked.value.prompt == (
        "Trooper takes 8 damage and 2 chart roll(s): break its shield to halve the damage and cancel the "
        "rolls?"
    )
    after = act(
        g, "close_combat", {**FIGHT, "defender_shield_break": "yes", "shield_break": "no"}, TypedDice(faces)
    )
    assert after.log[-1].text == (
        "Lancer and Trooper fight: Advantage 8-4; Lancer strikes: 8 damage, 2 critical; "
        "Shield Break: 4 damage; Trooper strikes: 0 damage, 0 critical; Trooper falls back (L1006-L1009)"
    )
    t = state(after, "1/t1")
    assert (t.damage, t.conditions, t.counters["arm"], t.counters["head"], t.counters["leg"]) == (
        4,
        ["shield_broken"],
        0,
        0,
        0,
    )


def test_the_defender_with_advantage_strikes_first_after_a_charge_check() -> None:
    """L1545-L1550, L970-L977: the charge check told; the side with the higher Advantage strikes first."""
    g = edit(game(), "0/l1", conditions=["wavering"])
    faces = [4, 1, 1, 6, *[1] * 10]  # check 4; Advantage 1+1+2 = 4 against 6+3 = 9
    after = act(g, "close_combat", {**FIGHT, "charged": True, **BOTH_ANSWER}, TypedDice(faces))
    assert after.log[-1].text == (
        "Lancer and Trooper fight: charge check 4: it charges; Advantage 4-9; Trooper strikes: 0 damage, "
        "0 critical; Lancer strikes: 0 damage, 0 critical; Trooper and Lancer fall back (L1006-L1009)"
    )
    with pytest.raises(NeedMoreDice, match=r"^roll 1 more d6 for charge check \(morale\)$"):
        act(g, "close_combat", {**FIGHT, "charged": True}, TypedDice([]))
    with pytest.raises(NeedMoreDice, match=r"^roll 2 more d6 for Lancer: Advantage$"):
        act(game(), "close_combat", {**FIGHT, "charged": True}, TypedDice([]))


def test_controlled_aim_doubles_the_chart_rolls_of_a_strike() -> None:
    """L1962: two Damage Chart rolls for each critical, in close combat too."""
    g = game(
        a=[("l1", sample("lancer", pilot=pilot("controlled_aim")))],
        b=[("t1", sample("trooper", shield="none"))],
    )
    with pytest.raises(NeedMoreDice) as short:
        act(g, "close_combat", {**FIGHT, **BOTH_ANSWER}, TypedDice([6, 1, 4, 1]))
    assert "chart" in short.value.purpose.lower() or "damage" in short.value.purpose.lower()
    # one critical (the 4), 4 damage: 2 chart rolls (leg, arm), the Trooper keeps 2 Integrity
    after = act(g, "close_combat", {**FIGHT, **BOTH_ANSWER}, TypedDice([6, 1, 4, 1, 1, 3, 1, 1, *[1] * 6]))
    t = state(after, "1/t1")
    assert (t.damage, t.counters["leg"], t.counters["arm"]) == (4, 1, 1)


# --- a strike's exact odds, counted by hand and against its own dice ----------------------------------------


def test_a_strikes_hits_with_a_reroll() -> None:
    """L978-L994, L1040-L1044: one die at 4+ hits half the time; a Charge's re-roll of a failed die
    makes it 3/4.  Armour 1 strips nothing above 1 (every hit shows 4 or more)."""
    one = st(dice=1, acc=4, crit=None, dam=2, armour=1)
    assert dict(strike_dist(one).probabilities()) == {(0, 0): Fraction(1, 2), (2, 0): Fraction(1, 2)}
    again = dict(strike_dist(one.model_copy(update={"rerolls": 1})).probabilities())
    assert again == {(0, 0): Fraction(1, 4), (2, 0): Fraction(3, 4)}
    two = dict(strike_dist(st(dice=2, acc=4, crit=6, dam=1, armour=1)).probabilities())
    assert two[(2, 2)] == Fraction(1, 36) and two[(0, 0)] == Fraction(1, 4)


def test_beam_flayer_adds_a_die_for_a_six() -> None:
    """L2801-L2805: a die added to the Attack Pool for each Hit of 6, two at most; read as written, an
    added die showing 6 earns the second (beam_flayer_chain)."""
    base = st(dice=1, acc=6, crit=None, dam=1, armour=1, flayer=True)
    d = dict(strike_dist(base).probabilities())
    # a 6 (1/6), then the added die: a 6 again (1/6) earns one more (1/6 a third hit)
    assert d[(0, 0)] == Fraction(5, 6)
    assert d[(1, 0)] == Fraction(1, 6) * Fraction(5, 6)
    assert d[(2, 0)] == Fraction(1, 6) * Fraction(1, 6) * Fraction(5, 6)
    assert d[(3, 0)] == Fraction(1, 6) ** 3
    plain = dict(strike_dist(base.model_copy(update={"flayer_chain": False})).probabilities())
    assert plain == {(0, 0): Fraction(5, 6), (1, 0): Fraction(5, 36), (2, 0): Fraction(1, 36)}


def test_movable_frame_and_elusive_in_a_strike() -> None:
    """L2952-L2956: 3 or more damage: a D6, 4+ takes 2 off, else 1; L3277-L3283: 1 in 6 ignored."""
    sure = st(dice=1, acc=2, crit=None, dam=3, armour=1)
    framed = dict(strike_dist(sure.model_copy(update={"movable_frame": True})).probabilities())
    assert framed == {(0, 0): Fraction(1, 6), (1, 0): Fraction(5, 12), (2, 0): Fraction(5, 12)}
    small = dict(
        strike_dist(st(dice=1, acc=2, crit=None, dam=2, armour=1, movable_frame=True)).probabilities()
    )
    assert small == {(0, 0): Fraction(1, 6), (2, 0): Fraction(5, 6)}  # under 3: no roll
    slippery = dict(strike_dist(sure.model_copy(update={"elusive": True})).probabilities())
    assert slippery == {(0, 0): Fraction(1, 6) + Fraction(5, 36), (3, 0): Fraction(25, 36)}


STRIKES = [
    st(dice=2, acc=3, crit=5, dam=2, rerolls=1, armour=3, shield_dice=1, shield_success=5, shield_rerolls=1),
    st(dice=1, acc=5, crit=6, dam=3, armour=2, flayer=True),
    st(dice=1, acc=4, crit=5, dam=3, armour=4, movable_frame=True, elusive=True),
    st(dice=2, acc=2, crit=6, dam=1, armour=1, shield_dice=2, shield_success=6),
]


@pytest.mark.parametrize("strike", STRIKES)
def test_a_strikes_odds_are_its_dice(strike: Striker) -> None:
    """The odds the app shows are exactly what rolling the dice by the same rules gives, face by face."""
    from test_gundam_skirmish import brute

    from core.systems.gundam_skirmish.close_combat import roll_strike

    def run(d: TypedDice) -> tuple[int, int]:
        damage, crits, _ = roll_strike(strike, d, "x")
        return damage, crits

    assert brute(run) == dict(strike_dist(strike).probabilities())


@pytest.mark.parametrize(("armed", "hurt"), [(False, 0), (False, 4), (True, 4), (True, 3)])
def test_close_combat_odds_are_its_resolution(armed: bool, hurt: int) -> None:
    """The whole combat's odds (both strikes in order, an Unarmed winner dealing nothing L1066-L1070,
    destruction between the strikes A14) against every face sequence its resolution reads.  Small
    fights (one Unarmed die against one or two dice, ~1.5 s each) to stay cheap."""
    from test_gundam_skirmish import _enumerate_act, damage_each

    from core.game import odds
    from core.systems.gundam_skirmish import units as U

    weapon = [U.archetype_close("heat_hawk", "Axe").model_dump()] if armed else []
    lancer = sample("lancer", pilot=pilot("swift"), shield="none", close_combat=weapon)
    g = game(a=[("l1", lancer)], b=[("t1", sample("trooper", shield="none", close_combat=[]))])
    g = g.model_copy(deep=True)
    g.sides[1].units[0].state.damage = hurt
    raw = {"attacker": "0/l1", "defender": "1/t1", "charged": False}
    got = _enumerate_act(g, "close_combat", raw)
    to_x, to_y = damage_each(got)
    o = odds(g, "close_combat", raw)
    shown = {
        k: {r.value: Fraction(r.exactly) for r in t.rows if r.exactly != "0/1"} for k, t in o.tables.items()
    }
    assert shown["damage to the target"] == to_y and shown["damage to the attacker"] == to_x
    both: dict[int, Fraction] = {}
    for k, p in got.items():
        both[k[0] + k[1]] = both.get(k[0] + k[1], Fraction(0)) + p
    assert shown["damage"] == both
    assert o.facts["destroyed"] == pytest.approx(float(sum(p for k, p in got.items() if k[3])))
    assert o.facts["attacker destroyed"] == pytest.approx(float(sum(p for k, p in got.items() if k[2])))


# --- issue 27, round 2: the survivors of close_combat.py's mutation run ---------------------------------


class Asked:
    """A dice source that keeps each request the resolution makes (dice, sides, what for) and answers it
    with typed faces: what the app would ask a player at the table."""

    def __init__(self, faces: list[int]) -> None:
        self.typed = TypedDice(faces)
        self.asked: list[tuple[int, int, str]] = []

    def roll(self, count: int, sides: int, purpose: str) -> list[int]:
        self.asked.append((count, sides, purpose.split(": ")[-1]))
        return self.typed.roll(count, sides, purpose)


#: Every part of a strike that rolls: three dice hitting on 6 only, Beam Flayer, Elusive, a two-die
#: Shield Bonus with one re-roll and a Movable Frame.
FULL = st(
    dice=3, acc=6, crit=None, dam=3, armour=1, flayer=True, flayer_chain=False, elusive=True,
    shield_dice=2, shield_success=5, shield_rerolls=1, movable_frame=True,
)  # fmt: skip


def test_a_strike_asks_for_d6_in_each_of_its_steps_and_no_more() -> None:
    """L978-L994 and the abilities' rolls (Beam Flayer L2801-L2805, Elusive L3277-L3283, Movable Frame
    L2952-L2956): every die asked is a D6, in the rulebook's count; a Shield Bonus that already succeeded
    re-rolls nothing (L1044-L1048)."""
    # three 6s: two Beam Flayer dice (never three); Elusive fails on 2; the shield's 6 succeeds, its 1 is
    # not re-rolled; two hits through (the shield strips one): 6 damage, the frame's 4 takes 2 off
    dice = Asked([6, 6, 6, 1, 1, 2, 1, 6, 4])
    damage, crits, detail = roll_strike(FULL, dice, "x")
    assert (damage, crits) == (4, 0)
    assert dice.asked == [
        (3, 6, "attack"),
        (2, 6, "Beam Flayer"),
        (1, 6, "Elusive"),
        (2, 6, "Shield Bonus"),
        (1, 6, "Movable Frame"),
    ]
    assert dice.typed.left == 0
    # both shield dice fail: one is rolled again (one re-roll), a 5 succeeds; the log keeps all three
    dice = Asked([6, 6, 6, 1, 1, 3, 1, 2, 5, 1])
    damage, crits, detail = roll_strike(FULL, dice, "x")
    assert (damage, detail["shield"]) == (5, [1, 2, 5])  # the frame's 1 takes 1 off
    assert dice.asked[3:] == [(2, 6, "Shield Bonus"), (1, 6, "Shield Bonus re-roll"), (1, 6, "Movable Frame")]
    # read as written (beam_flayer_chain), an added die showing 6 earns the second
    chain = st(dice=1, acc=6, crit=None, dam=1, armour=1, flayer=True)
    dice = Asked([6, 6, 1])
    assert roll_strike(chain, dice, "x")[0] == 2
    assert dice.asked == [(1, 6, "attack"), (1, 6, "Beam Flayer"), (1, 6, "Beam Flayer")]
    # Elusive on a 6: the strike is ignored before any defence is rolled
    dice = Asked([6, 6, 6, 1, 1, 6])
    assert roll_strike(FULL, dice, "x")[:2] == (0, 0)
    assert dice.asked[-1] == (1, 6, "Elusive")


def test_the_advantage_dice_are_d6_and_two_for_the_side_that_charged() -> None:
    """L970-L977: 1D6 + DEX each, 2D6 + DEX for a side that charged, the defender's too."""
    g = game(a=[("l1", sample("lancer", shield="none"))], b=[("t1", sample("trooper", shield="none"))])
    dice = Asked([1, 2, 3, *[1] * 8])  # 1 + 2 = 3 against 2 + 3 + 3 = 8: the Trooper strikes first
    raw = {**FIGHT, "defender_charged": True, **BOTH_ANSWER}
    from core.game import act as play

    after = play(g, "close_combat", raw, dice)
    assert dice.asked[:2] == [(1, 6, "Advantage"), (2, 6, "Advantage")]
    assert "Advantage 3-8; Trooper strikes" in after.log[-1].text


def test_the_attackers_dex_counts_in_advantage() -> None:
    """L970-L977: the attacker adds its own weapon's DEX (the Trooper's heat axe: DEX 3, 2 dice)."""
    g = game()
    raw = {"attacker": "1/t1", "defender": "0/l1", "charged": False}
    assert advantage(g, raw) == wins(plus(D6, 3), plus(D6, 2))


def test_a_hit_of_two_is_stripped_by_armour_too() -> None:
    """L984-L986: any hit showing the Armour number or less may be stripped, a 2 included."""
    assert strip((1, 0, 0, 0, 0), st(), False) == (0, 0)


def test_beam_flayer_adds_two_dice_at_most() -> None:
    """L2801-L2805: a die for each Hit of 6, at most 2: three sixes add two dice, as two sixes do."""
    from core.systems.gundam_skirmish.close_combat import flayer_dice

    for sixes in (2, 3):
        d = dict(flayer_dice((0, 0, 0, 0, sixes), 6, False).probabilities())
        assert d == {
            (0, 0, 0, 0, sixes): Fraction(25, 36),
            (0, 0, 0, 0, sixes + 1): Fraction(10, 36),
            (0, 0, 0, 0, sixes + 2): Fraction(1, 36),
        }


def test_a_mobile_fighters_accuracy_is_one_better_down_to_two() -> None:
    """L1328-L1330: ACC and CRIT one better for a mobile fighter: a 4+ axe hits on 3+, crits on 5+."""
    from core.systems.gundam_skirmish import units as U

    axe = [U.archetype_close("heat_hawk", "Axe").model_dump()]
    fighter = sample("lancer", kind="mobile_fighter", weapons=[], equipped="", close_combat=axe)
    plain = _strike(game(a=[("l1", sample("lancer", close_combat=axe))]), FIGHT)
    s = _strike(game(a=[("l1", fighter)]), FIGHT)
    assert (plain.acc, plain.crit) == (4, 6)
    assert (s.acc, s.crit) == (3, 5)
    # an own weapon critical on 3+: the fighter's on 2+, the best there is
    keen = [U.archetype_close("claws", "Keen").model_copy(update={"crit": 3}).model_dump()]
    s = _strike(game(a=[("l1", {**fighter, "close_combat": keen})]), FIGHT)
    assert (s.acc, s.crit) == (2, 2)


@pytest.mark.parametrize(
    ("change", "raw", "said"),
    [
        ({"conditions": ["reserve"]}, {}, "Trooper is not on the table"),
        ({"conditions": ["withdrawn"]}, {}, "Trooper is not on the table"),
        ({"conditions": ["dig_in"]}, {}, "Trooper is never within close combat range (L1245, L2852)"),
        ({"conditions": ["flight_mode"]}, {}, "Trooper is never within close combat range (L1245, L2852)"),
        ({}, {"defender": "0/g1"}, "close combat is fought against an enemy"),
        ({}, {"pursuit": True}, "only a mobile fighter makes a Pursuit (L1331-L1339)"),
        ({}, {"technique": "Nope"}, "Lancer has no technique 'Nope'"),
        ({}, {"piercing_strike": True}, "a Piercing Strike needs a <PS> weapon equipped (L931-L934)"),
    ],
)
def test_a_combat_the_rules_do_not_allow_is_refused_in_words(
    change: dict[str, Any], raw: dict[str, Any], said: str
) -> None:
    """L1245, L2852 (dug in, in flight), reserves and withdrawn units are not on the table, Pursuit is a
    mobile fighter's (L1331-L1339), a technique must be the unit's own (L1837-L1840), a Piercing Strike
    needs a <PS> weapon equipped (L931-L934): refused before any die, the odds too."""
    g = edit(game(), "1/t1", **change)
    for call in ("game.act", "game.odds"):
        args: dict[str, Any] = {
            "game": g.model_dump(mode="json"),
            "action": "close_combat",
            "input": {**FIGHT, **raw},
        }
        if call == "game.act":
            args["seed"] = 1
        reply = api.call(call, args)
        assert not reply["ok"] and reply["error"]["message"] == said, reply


def test_a_piercing_strike_needs_its_weapon_equipped_and_the_game_begun() -> None:
    """L931-L934: a <PS> weapon not in hand is refused like none; L278-L282: no combat before the first
    turn."""
    gunner = game(a=[("l1", sample("heavy_gunner"))])
    with pytest.raises(ValueError, match="needs a <PS> weapon equipped"):
        act(gunner, "close_combat", {**FIGHT, "piercing_strike": True}, TypedDice([]))
    from test_gundam_skirmish import squad

    from core.game import new_game

    fresh = new_game(
        "g",
        "Test",
        [
            ("Feds", squad("a", "Feds", ("l1", sample("lancer")))),
            ("Zeon", squad("b", "Zeon", ("t1", sample("trooper")))),
        ],
    )
    with pytest.raises(ValueError):
        act(fresh, "close_combat", FIGHT, TypedDice([]))


def test_merciful_spares_the_target_and_heals_the_attacker() -> None:
    """L1981-L1983: once a battle, when its strike would deal damage, a Merciful pilot deals none and its
    unit regains 2 Integrity; the defender's strike back is not spared."""
    kind = sample("lancer", shield="none", pilot=pilot("merciful"))
    g = game(a=[("l1", kind)], b=[("t1", sample("trooper", shield="none"))])
    g = g.model_copy(deep=True)
    g.sides[0].units[0].state.damage = 3
    # Advantage 8-4: the Lancer's 3 would deal 4 (a hit, no critical); the Trooper's 5 (not its crit 6)
    # deals 3
    raw = {**FIGHT, "merciful": True, **BOTH_ANSWER}
    after = act(g, "close_combat", raw, TypedDice([6, 1, 3, 1, 5, 1]))
    text = after.log[-1].text
    assert "Merciful: Trooper is spared, Lancer regains 2 Integrity (L1981-L1983)" in text
    assert state(after, "1/t1").damage == 0
    assert state(after, "0/l1").damage == 3 - 2 + 3
    assert "merciful" in state(after, "0/l1").extra["once"]
    assert text.endswith("Lancer falls back (L1006-L1009)")  # it dealt nothing, the Trooper 3


def test_the_shield_break_is_asked_for_damage_without_a_critical() -> None:
    """L1121-L1128 (A12): damage alone is enough to ask whether the struck unit breaks its shield."""
    # Advantage 8-4; the blade's 3 and 1: one hit, not a critical (4+), 4 damage; the Trooper's light
    # shield rolls 1 (no bonus)
    with pytest.raises(NeedChoice) as asked:
        act(game(), "close_combat", FIGHT, TypedDice([6, 1, 3, 1, 1]))
    assert asked.value.field == "defender_shield_break"


def _fight(a: dict[str, Any], b: dict[str, Any], faces: list[int]) -> str:
    g = game(a=[("l1", a)], b=[("t1", b)])
    return str(act(g, "close_combat", {**FIGHT, **BOTH_ANSWER}, TypedDice(faces)).log[-1].text)


def test_the_unit_that_dealt_less_falls_back_and_a_gallant_loser_holds() -> None:
    """L1000-L1003: the unit that dealt less damage falls back; a Gallant pilot never does, the winner
    falls back instead (L1971-L1973)."""
    lancer, trooper = sample("lancer", shield="none"), sample("trooper", shield="none")
    # Advantage 8-4: the Lancer strikes first and misses (1, 1); the Trooper's 5 deals 3
    faces = [6, 1, 1, 1, 5, 1]
    assert _fight(lancer, trooper, faces).endswith("Lancer falls back (L1006-L1009)")
    brave = sample("lancer", shield="none", pilot=pilot("gallant"))
    assert _fight(brave, trooper, faces).endswith("Trooper falls back (L1006-L1009)")
    # the Lancer wins (its 3 deals 4: above the Trooper's Armour 2, below its critical 4+), the Trooper misses
    assert _fight(brave, trooper, [6, 1, 3, 1, 1, 1]).endswith("Trooper falls back (L1006-L1009)")


def test_a_unit_destroyed_by_exactly_its_integrity_left_does_not_fall_back_alive() -> None:
    """L1094-L1098: damage equal to the Integrity left destroys; the winner stays, nobody falls back."""
    g = game(a=[("l1", sample("lancer", shield="none"))], b=[("t1", sample("trooper", shield="none"))])
    g = g.model_copy(deep=True)
    g.sides[1].units[0].state.damage = 2  # 4 left: the blade's one hit of 4 (a 3: no critical)
    # the last 1: the Destruction Table's roll for the unit destroyed
    after = act(g, "close_combat", {**FIGHT, **BOTH_ANSWER}, TypedDice([6, 1, 3, 1, 1]))
    assert state(after, "1/t1").destroyed
    assert "falls back" not in after.log[-1].text


def _mix(p: Fraction, a: dict[Any, Fraction], b: dict[Any, Fraction]) -> dict[Any, Fraction]:
    out = {k: p * v for k, v in a.items()}
    for k, v in b.items():
        out[k] = out.get(k, Fraction(0)) + (1 - p) * v
    return {k: v for k, v in out.items() if v}


def test_the_odds_weigh_both_orders_by_the_chance_of_advantage() -> None:
    """L970-L977: the combat's odds are the attacker-first fight with the chance it wins Advantage, the
    defender-first fight with the rest; a Swift pilot (L1999-L2000) fixes the order without changing
    the strikes, so each order is read from the same fight with one side Swift."""
    base = {"shield": "none"}
    lancer, trooper = sample("lancer", **base), sample("trooper", **base)
    swift = pilot("swift")
    plain = tables(api_odds(game(a=[("l1", lancer)], b=[("t1", trooper)]), "close_combat", FIGHT))
    first = tables(
        api_odds(
            game(a=[("l1", sample("lancer", pilot=swift, **base))], b=[("t1", trooper)]),
            "close_combat",
            FIGHT,
        )
    )
    second = tables(
        api_odds(
            game(a=[("l1", lancer)], b=[("t1", sample("trooper", pilot=swift, **base))]),
            "close_combat",
            FIGHT,
        )
    )
    p = Fraction(plain["facts"]["advantage"]).limit_denominator(10**6)
    assert 0 < p < 1
    for key in ("damage to the target", "damage to the attacker", "damage"):
        assert plain[key] == _mix(p, first[key], second[key]), key


def test_controlled_aim_doubles_the_chart_rolls_in_the_odds() -> None:
    """L1962: two Damage Chart rolls for each critical in the odds too: the chance to destroy a hurt
    target through its chart rises, the damage dealt does not change."""
    lancer = sample("lancer", shield="none")
    aimed = sample("lancer", shield="none", pilot=pilot("controlled_aim"))
    trooper = sample("trooper", shield="none")
    g = game(a=[("l1", lancer)], b=[("t1", trooper)]).model_copy(deep=True)
    h = game(a=[("l1", aimed)], b=[("t1", trooper)]).model_copy(deep=True)
    for x in (g, h):
        x.sides[1].units[0].state.counters.update({"leg": 1, "arm": 1, "head": 1})
    o, q = tables(api_odds(g, "close_combat", FIGHT)), tables(api_odds(h, "close_combat", FIGHT))
    assert o["damage to the target"] == q["damage to the target"]
    assert q["facts"]["destroyed"] > o["facts"]["destroyed"]
    # and the Trooper's own Controlled Aim on its strike back
    t = game(a=[("l1", lancer)], b=[("t1", sample("trooper", shield="none", pilot=pilot("controlled_aim")))])
    t = t.model_copy(deep=True)
    t.sides[0].units[0].state.counters.update({"leg": 1, "arm": 1, "head": 1})
    u = game(a=[("l1", lancer)], b=[("t1", trooper)]).model_copy(deep=True)
    u.sides[0].units[0].state.counters.update({"leg": 1, "arm": 1, "head": 1})
    r, s = tables(api_odds(u, "close_combat", FIGHT)), tables(api_odds(t, "close_combat", FIGHT))
    assert s["facts"]["attacker destroyed"] > r["facts"]["attacker destroyed"]


def test_a_piercing_strike_pierces_the_attackers_strike_only() -> None:
    """L936-L938: the Piercing Strike lowers the target's Armour by 1 and its Shield Bonus by a die for the
    attacker's strike, not for the defender's strike back (the units' keys alike, their sides not)."""
    gunner = sample("heavy_gunner", shield="heavy")  # the claws: 1 die 3+, crit 4+, 4 DAM, <PS>
    g = game(a=[("u1", gunner)], b=[("u1", sample("trooper", shield="heavy"))])
    g = act(g, "switch_weapon", {"unit": "0/u1", "weapon": "cc"}, TypedDice([]))
    g = edit(g, "0/u1", counters={"actions": 0})  # a fresh turn's actions for the Slow strike
    raw = {"attacker": "0/u1", "defender": "1/u1", "charged": False, "piercing_strike": True, **BOTH_ANSWER}
    # Advantage 7-4; the claws' 3 against Armour 2 - 1: it stays; the heavy shield rolls 2 dice, not 3;
    # the Trooper's axe misses (1, 1) and the Heavy Gunner's heavy shield rolls its 3 dice
    dice = Asked([6, 1, 3, 1, 1, 1, 1, 1, 1, 1])
    after = act(g, "close_combat", raw, dice)
    shields = [n for n, _, what in dice.asked if what == "Shield Bonus"]
    assert shields == [2, 3]
    assert state(after, "1/u1").damage == 4


def test_a_mobile_fighter_is_asked_which_of_its_learnt_techniques() -> None:
    """L1837-L1844: a Mobile Fighter strikes with one of its techniques: asked when it knows several;
    one its character has not learnt is refused."""
    from core.systems.gundam_skirmish import units as U

    fighter = sample(
        "lancer",
        kind="mobile_fighter",
        weapons=[],
        equipped="",
        techniques=[U.archetype_close("heat_hawk", "Kick").model_dump()],
    )
    with pytest.raises(NeedChoice) as asked:
        act(game(a=[("l1", fighter)]), "close_combat", FIGHT, TypedDice([]))
    assert asked.value.field == "technique"
    assert [o.value for o in asked.value.options] == ["Beam blade", "Kick"]
    taught = game(a=[("l1", {**fighter, "pilot": pilot(techniques=["Beam blade"])})])
    with pytest.raises(ValueError) as refused:
        act(taught, "close_combat", {**FIGHT, "technique": "Kick"}, TypedDice([]))
    assert "Kick" in str(refused.value)
    # only one learnt: no question, the Advantage dice are asked at once
    with pytest.raises(NeedMoreDice):
        act(taught, "close_combat", FIGHT, TypedDice([]))


def test_a_piercing_strike_counts_as_a_charge_only_by_the_option() -> None:
    """L931-L939 (option piercing_is_charge): read as a Charge, a Piercing Strike rolls 2D6 for Advantage;
    without one, or by default, 1D6 (the claws' DEX 1 against the axe's DEX 3)."""
    g = act(
        game(a=[("l1", sample("heavy_gunner"))]),
        "switch_weapon",
        {"unit": "0/l1", "weapon": "cc"},
        TypedDice([]),
    )
    g = edit(g, "1/t1", extra={"equipped": "cc"})  # both weapons drawn: Advantage is rolled (L1036-L1040)
    on = g.model_copy(update={"options": {**g.options, "piercing_is_charge": True}})
    pierce = {**FIGHT, "piercing_strike": True}
    assert advantage(g, pierce) == wins(plus(D6, 1), plus(D6, 3))
    assert advantage(on, pierce) == wins(plus(D6.repeat(2), 1), plus(D6, 3))
    assert advantage(on, FIGHT) == wins(plus(D6, 1), plus(D6, 3))
    # resolved: two Advantage dice for the Piercing Strike under the option, one without it
    dice = Asked([])
    with pytest.raises(NeedMoreDice):
        act(edit(on, "0/l1", counters={"actions": 0}), "close_combat", pierce, dice)
    assert dice.asked == [(2, 6, "Advantage")]
    dice = Asked([])
    with pytest.raises(NeedMoreDice):
        act(on, "close_combat", FIGHT, dice)
    assert dice.asked == [(1, 6, "Advantage")]


def test_the_chart_levels_between_the_strikes_land_on_their_own_counters() -> None:
    """L1108-L1119: a Damage Chart result of the first strike (leg, arm, head; then the Torso) is the second
    striker's Leg, Arm and Head Damage when it strikes back (Arm Damage: its ACC is 5, L1016-L1020)."""
    from core.systems.gundam_skirmish.close_combat import _with_levels

    t = game().unit("1/t1")[2]
    after = _with_levels(t, (1, 2, 3, False)).state.counters
    assert (after["leg"], after["arm"], after["head"]) == (1, 2, 3)
    g = game().model_copy(deep=True)
    s, u, _ = g.unit("1/t1")
    g.sides[s].units[u] = _with_levels(t, (0, 1, 0, False))
    assert _strike(g, FIGHT, first=False).acc == 5


def _destroyed_by(strike: Striker, gu: Any, per_crit: int) -> Fraction:
    """The chance a strike destroys ``gu``, from its parts: its damage reaching the Integrity left
    (L1094-L1098), else a Torso result among ``per_crit`` chart rolls a critical (L1108-L1119)."""
    from core.systems.gundam_skirmish.battle import chart_for, integrity_left, levels_of, profile
    from core.systems.gundam_skirmish.shooting import chart_dist

    unit, left = profile(gu), integrity_left(gu)
    out = Fraction(0)
    for (damage, crits), p in strike_dist(strike).probabilities():
        if damage >= left:
            out += p
        elif crits:
            chart = chart_dist(chart_for(unit), levels_of(gu), crits * per_crit, unit.pilot_has("fortunate"))
            out += p * sum((q for lv, q in chart.probabilities() if lv[3]), Fraction(0))
    return out


def test_controlled_aim_rolls_exactly_two_chart_rolls_a_critical_in_the_odds() -> None:
    """L1962: the chance to destroy is the strike's with two chart rolls per critical, for the attacker's
    strike (a Swift attacker strikes first, L1999-L2000) and for the defender's strike back (against an
    Unarmed attacker, whose strike changes nothing before it, L1063-L1066)."""
    aim, swift = pilot("controlled_aim"), pilot("swift", "controlled_aim")
    hurt = {"leg": 1, "arm": 1, "head": 1}
    g = game(a=[("l1", sample("lancer", pilot=swift))], b=[("t1", sample("trooper", shield="none"))])
    g = edit(g, "1/t1", counters=hurt)
    shown = api_odds(g, "close_combat", FIGHT)["facts"]["destroyed"]
    want = _destroyed_by(_strike(g, FIGHT), g.unit("1/t1")[2], 2)
    assert want != _destroyed_by(_strike(g, FIGHT), g.unit("1/t1")[2], 1)
    assert shown == pytest.approx(float(want), rel=1e-12)
    unarmed = sample("lancer", shield="none", close_combat=[], pilot=pilot("swift"))
    h = game(a=[("l1", unarmed)], b=[("t1", sample("trooper", pilot=aim))])
    h = edit(h, "0/l1", counters=hurt)
    shown = api_odds(h, "close_combat", FIGHT)["facts"]["attacker destroyed"]
    want = _destroyed_by(_strike(h, FIGHT, first=False), h.unit("0/l1")[2], 2)
    assert shown == pytest.approx(float(want), rel=1e-12)


def test_merciful_heals_down_to_no_damage_and_its_spared_strike_counts_nothing() -> None:
    """L1981-L1983 with L1000-L1003: a unit with 1 damage regains it all (not below none); the spared
    strike deals nothing, so against a strike back that misses the combat is a tie and both fall back."""
    kind = sample("lancer", shield="none", pilot=pilot("merciful"))
    g = game(a=[("l1", kind)], b=[("t1", sample("trooper", shield="none"))])
    g = edit(g, "0/l1")
    g.sides[0].units[0].state.damage = 1
    raw = {**FIGHT, "merciful": True, **BOTH_ANSWER}
    after = act(g, "close_combat", raw, TypedDice([6, 1, 3, 1, 1, 1]))  # the Trooper misses
    assert state(after, "0/l1").damage == 0
    assert after.log[-1].text.endswith("Lancer and Trooper fall back (L1006-L1009)")


def test_a_gallant_second_striker_that_loses_holds_too() -> None:
    """L1971-L1973: the Gallant loser may strike second: the winner falls back."""
    brave = sample("trooper", shield="none", pilot=pilot("gallant"))
    # Advantage 8-4: the Lancer's 3 deals 4, the Trooper misses
    text = _fight(sample("lancer", shield="none"), brave, [6, 1, 3, 1, 1, 1])
    assert text.endswith("Lancer falls back (L1006-L1009)")


def test_a_mega_unit_struck_back_is_destroyed_only_through_its_torso() -> None:
    """L1312-L1318: the damage of a strike on a Mega Unit goes to the part the location die picks; it is
    destroyed when its Torso reaches 0 (here 4 of 6 already lost), whatever the damage to another part.
    The Mega Unit strikes first, Unarmed (Swift, L1999-L2000), so the Trooper's strike back is its own."""
    from test_gundam_effects import _mega

    from core.systems.gundam_skirmish.mega import MegaParts, destroyed_chance

    big = {**_mega(6), "close_combat": [], "pilot": pilot("swift")}
    g = game(a=[("l1", big)], b=[("t1", sample("trooper", shield="none"))])
    g = g.model_copy(update={"options": {**g.options, "mega_units": True}})
    g = edit(g, "0/l1", counters={"mega_torso": 4})
    shown = api_odds(g, "close_combat", FIGHT)["facts"]["attacker destroyed"]
    parts = MegaParts.model_validate(big["mega"][0])
    back = _strike(g, FIGHT, first=False)
    assert back.crit is None  # a Mega Unit takes no Critical Hits (L1318-L1319)
    want = sum(
        (p * destroyed_chance(parts, 4, d) for (d, _), p in strike_dist(back).probabilities()), Fraction(0)
    )
    assert 0 < want < 1
    assert shown == pytest.approx(float(want), rel=1e-12)
    # the damage it takes is the Trooper's strike's, destroyed or not
    took: dict[int, Fraction] = {}
    for (d, _), p in strike_dist(back).probabilities():
        took[d] = took.get(d, Fraction(0)) + p
    assert tables(api_odds(g, "close_combat", FIGHT))["damage to the attacker"] == took


def test_a_high_armour_number_strips_one_hit_of_any_face() -> None:
    """L984-L986 with an Armour of 7 (a unit may be given up to 8 defend dice, L2381): every face is at or
    under it; one hit still goes, a critical first (the 6), never more."""
    assert strip((1, 1, 1, 1, 1), st(armour=7), False) == (4, 1)
