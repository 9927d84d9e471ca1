"""Gundam Skirmish: the Shoot action's decisions pinned one by one (lines are in 000_3e12d4cbd0c8f6da.txt).

Each test names the rule it pins and checks the direction and the size of its effect, at its boundary
where it has one: what the odds show through ``core.api`` and what a resolved shot leaves on the
cards.  Written against the survivors of ``tests/mutation.py`` on ``shoot.py`` (issue #27): every one
of these failed on a deliberate slip that the other tests let through.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from test_gundam_effects import HEAD_GUNS, RIFLE, api_odds, edit, pilot, sample, side_resource, tables
from test_gundam_skirmish import game, state

from core.dice import NeedMoreDice, TypedDice
from core.game import Game, act, odds
from core.systems.base import NeedChoice
from core.systems.gundam_skirmish import units as U
from core.systems.gundam_skirmish.shoot import ShootInput, build_shot

NO_SHIELD = [("t1", sample("trooper", shield="none"))]


def shot_of(g: Game, raw: dict[str, Any]) -> Any:
    return build_shot(g, ShootInput.model_validate(raw))[0]


def groups(g: Game, raw: dict[str, Any]) -> list[tuple[str, int, int]]:
    """The defence groups a shot rolls: (name, dice, success)."""
    return [(x.name, x.dice, x.success) for x in shot_of(g, raw).groups]


def seen_cover(g: Game, raw: dict[str, Any]) -> str:
    """The cover the odds tell the player ("target in cover")."""
    summary = odds(g, "shoot", raw).summary
    return summary.split("target ", 1)[1].split(",", 1)[0]


def in_space(g: Game) -> Game:
    return act(g, "setup", {"space": True}, TypedDice([]))


def with_options(g: Game, **readings: Any) -> Game:
    return g.model_copy(update={"options": {**g.options, **readings}})


# --- cover: <P>, space, Get to cover! (L1342-L1344, L1398-L1399, L1478-L1483; A22) ----------------------

SPACE_SIDE = [("l1", sample("lancer"))]


@pytest.mark.parametrize(
    ("where", "weapon", "stack", "cover", "seen"),
    [
        # on the ground, no <P>: the cover as the players said it
        ("ground", "Head guns", True, "unobstructed", "unobstructed"),
        ("ground", "Head guns", True, "in_cover", "in cover"),
        ("ground", "Head guns", True, "obstructed", "obstructed"),
        # <P>: one step better for the shooter, never past Unobstructed (L1342-L1344)
        ("ground", "Beam rifle", True, "obstructed", "in cover"),
        ("ground", "Beam rifle", True, "in_cover", "unobstructed"),
        ("ground", "Beam rifle", True, "unobstructed", "unobstructed"),
        # space: one step too (L1398-L1399)
        ("space", "Head guns", True, "obstructed", "in cover"),
        ("space", "Head guns", True, "in_cover", "unobstructed"),
        # <P> in space: two steps with the default reading (A22), one with the other
        ("space", "Beam rifle", True, "obstructed", "unobstructed"),
        ("space", "Beam rifle", False, "obstructed", "in cover"),
        ("ground", "Beam rifle", False, "obstructed", "in cover"),
    ],
)
def test_cover_after_penetration_and_space(
    where: str, weapon: str, stack: bool, cover: str, seen: str
) -> None:
    g = game(a=SPACE_SIDE, b=NO_SHIELD)
    if where == "space":
        g = in_space(g)
    g = with_options(g, space_p_stack=stack)
    raw = {**RIFLE, "weapon": weapon, "cover": cover}
    assert seen_cover(g, raw) == seen
    # the size of the effect: Unobstructed rolls one armour die fewer than In cover (L676-L703)
    armour = next(d for n, d, _ in groups(g, raw) if n == "armour")
    assert armour == 2 - (seen == "unobstructed")


@pytest.mark.parametrize(
    ("ordered", "weapon", "seen"),
    [(1, "Head guns", "in cover"), (0, "Head guns", "unobstructed"), (1, "Beam rifle", "unobstructed")],
)
def test_get_to_cover_counts_an_open_target_in_cover(ordered: int, weapon: str, seen: str) -> None:
    """L1478-L1483: the order turns Unobstructed into In cover, before <P> shifts it back (L1342-L1344)."""
    g = side_resource(game(b=NO_SHIELD), 1, "get_to_cover", ordered)
    assert seen_cover(g, {**RIFLE, "weapon": weapon, "cover": "unobstructed"}) == seen


def test_armour_dice_never_go_below_zero() -> None:
    """L676-L703: an Unobstructed target with 1 armour die rolls none, never fewer."""
    thin = [("t1", sample("trooper", shield="none", armour={"dice": 1, "success": 5}))]
    assert groups(game(b=thin), {**HEAD_GUNS, "cover": "unobstructed"}) == [("armour", 0, 5)]
    assert groups(game(b=thin), {**HEAD_GUNS, "cover": "unobstructed", "range": "beyond"}) == [
        ("armour", 1, 5)
    ]


@pytest.mark.parametrize(("rng", "extra"), [("in_band", 0), ("beyond", 1), ("closer", 1)])
def test_out_of_band_adds_one_armour_die(rng: str, extra: int) -> None:
    """L790-L795 (beyond the band) and A23 (closer than its lower end): one more armour die, no more."""
    assert groups(game(b=NO_SHIELD), {**HEAD_GUNS, "range": rng}) == [("armour", 2 + extra, 5)]


# --- beam defence: the heroic I-Field follows the Armour value (L3226-L3230, L666-L674) -----------------


@pytest.mark.parametrize(
    ("armour", "dice", "success"), [(1, 1, 6), (2, 2, 5), (3, 2, 5), (4, 3, 4), (5, 4, 4)]
)
def test_heroic_i_field_grade_is_the_armour_value(armour: int, dice: int, success: int) -> None:
    t = sample(
        "trooper",
        shield="none",
        armour={"dice": armour, "success": 5},
        pilot=pilot(heroic_mods=["i_field"]),
    )
    g = game(b=[("t1", t)])
    beam = groups(g, RIFLE)
    assert beam[0] == ("beam", dice, success)  # rolled against a beam weapon
    assert [n for n, _, _ in groups(g, HEAD_GUNS)] == ["armour"]  # and only against one


# --- the Shield Bonus (L649-L654) and the shield's check against <P> (L660-L663) ----------------------


def test_no_shield_bonus_at_shield_integrity_zero_or_in_flight_mode() -> None:
    """L649-L654: no Shield Bonus at Shield Integrity 0; none in Flight Mode either."""
    g = game()  # the Trooper's light shield: 1 die on 6
    assert groups(g, HEAD_GUNS)[-1] == ("shield", 1, 6)
    assert [n for n, _, _ in groups(edit(g, "1/t1", counters={"shield": 0}), HEAD_GUNS)] == ["armour"]
    assert [n for n, _, _ in groups(edit(g, "1/t1", counters={"shield": 1}), HEAD_GUNS)] == [
        "armour",
        "shield",
    ]
    assert [n for n, _, _ in groups(edit(g, "1/t1", conditions=["flight_mode"]), HEAD_GUNS)] == ["armour"]


@pytest.mark.parametrize(("check", "left"), [(3, 2), (4, 1)])
def test_a_shield_check_of_four_or_more_costs_one_shield_integrity(check: int, left: int) -> None:
    """L660-L663: against <P> the shield rolls a check; 4+ and it blocks at the cost of 1 integrity."""
    g = game()
    shot = shot_of(g, RIFLE)
    assert shot.shield_check and shot.penetration
    # attack 1: a miss; armour 1 die; the check; the shield die (only on 4+)
    faces = [1, 1, check] + ([1] if check >= 4 else [])
    after = act(g, "shoot", {**RIFLE, "shield_break": "no"}, TypedDice(faces))
    assert state(after, "1/t1").counters["shield"] == left
    # no <P>, no check: the shield rolls its die as it is and keeps its integrity
    assert not shot_of(g, HEAD_GUNS).shield_check
    plain = act(g, "shoot", {**HEAD_GUNS, "shield_break": "no"}, TypedDice([1, 1, 1, 1, 1, 6]))
    assert state(plain, "1/t1").counters["shield"] == 2


def test_shield_ignored_against_p_is_a_reading() -> None:
    """L1342-L1344 against L660-L663 (A3): with the reading "ignored" no shield is rolled against <P>."""
    g = with_options(game(), shield_against_p="ignored")
    assert [n for n, _, _ in groups(g, RIFLE)] == ["armour"]
    assert not shot_of(g, RIFLE).shield_check
    assert [n for n, _, _ in groups(g, HEAD_GUNS)] == ["armour", "shield"]  # no <P>: the shield as usual


# --- the defender's re-roll is the shooter's Head Damage (L783-L788) --------------------------------------


def test_the_defender_rerolls_for_the_shooters_head_damage_not_its_own() -> None:
    """L783-L788: a shooter with Head Damage lets the DEFENDER re-roll one failed block; the target's own
    Head Damage gives it nothing.  Through the odds: the re-roll lowers the damage expected."""
    g = game(b=NO_SHIELD)
    hurt_shooter = edit(g, "0/l1", counters={"head": 1})
    hurt_target = edit(g, "1/t1", counters={"head": 1})
    assert shot_of(hurt_shooter, HEAD_GUNS).defend_rerolls == 1
    assert shot_of(hurt_target, HEAD_GUNS).defend_rerolls == 0
    plain = tables(api_odds(g, "shoot", HEAD_GUNS))["damage"]
    helped = tables(api_odds(hurt_shooter, "shoot", HEAD_GUNS))["damage"]
    mean = lambda d: sum((Fraction(k) * p for k, p in d.items()), Fraction(0))  # noqa: E731
    assert mean(helped) < mean(plain)
    assert tables(api_odds(hurt_target, "shoot", HEAD_GUNS))["damage"] == plain
    # through a resolved shot: 3 hits (5, 5, 5), armour 1 and 1 fail, the re-roll blocks with a 5
    raw = {**HEAD_GUNS, "shield_break": "no"}
    after = act(hurt_shooter, "shoot", raw, TypedDice([5, 5, 5, 1, 1, 5]))
    assert state(after, "1/t1").damage == 2
    assert state(act(hurt_target, "shoot", raw, TypedDice([5, 5, 5, 1, 1])), "1/t1").damage == 3


# --- the resolved shot: what it leaves on the cards ---------------------------------------------------


def test_a_reload_weapon_is_marked_and_a_free_shot_spends_no_action() -> None:
    """L415-L422, L730-L731: a weapon with a reload tag must be reloaded after firing; a free Shoot (Fierce,
    Blitzkrieg, Responsive) costs no action."""
    g = act(game(), "next_turn", {}, TypedDice([]))
    fire = {"attacker": "1/t1", "target": "0/l1", "weapon": "Machine gun", "shield_break": "no"}
    after = act(g, "shoot", fire, TypedDice([1, 1, 1, 1, 1, 1, 1, 1]))
    assert state(after, "1/t1").extra["reload"] == {} and state(after, "1/t1").counters["actions"] == 1
    # a Responsive pilot's free Shoot in the enemy's (the Feds') turn (L1992-L1994)
    responsive = game(
        b=[("t1", sample("trooper", pilot=pilot("responsive"))), ("h1", sample("heavy_gunner"))]
    )
    free = act(responsive, "shoot", {**fire, "free": True}, TypedDice([1, 1, 1, 1, 1, 1, 1, 1]))
    assert state(free, "1/t1").counters["actions"] == 0
    gun = act(g, "shoot", {**fire, "attacker": "1/h1", "weapon": "Missile rack"}, TypedDice([1] * 8))
    assert state(gun, "1/h1").extra["reload"] == {"Missile rack": True}


def test_heat_radiation_costs_one_damage_a_die() -> None:
    """L2889-L2894: each added die costs the shooter 1 damage, and the shot rolls that many more dice."""
    hot = [
        (
            "l1",
            sample(
                "lancer",
                abilities=[{"key": "heat_radiation", "x": "Head guns"}],
            ),
        )
    ]
    g = game(a=hot, b=NO_SHIELD)
    raw = {**HEAD_GUNS, "heat_radiation": 2, "shield_break": "no"}
    assert shot_of(g, raw).extra_shots == 2
    # 3 + 2 attack dice: 5, 5, 5, 1, 1 (3 hits); the 2 armour dice 6, 6 block two: 1 damage through
    after = act(g, "shoot", raw, TypedDice([5, 5, 5, 1, 1, 6, 6]))
    assert state(after, "0/l1").damage == 2
    assert state(after, "1/t1").damage == 1
    assert after.log[-1].detail["attack"] == [5, 5, 5, 1, 1]


@pytest.mark.parametrize(
    ("x", "weapon", "face", "hurt"),
    [
        ("", "Head guns", 5, 1),
        ("", "Head guns", 4, 0),
        ("Head guns", "Head guns", 6, 1),
        ("Beam rifle", "Head guns", None, 0),
    ],
)
def test_poor_balance_hurts_the_shooter_on_five_or_more(
    x: str, weapon: str, face: int | None, hurt: int
) -> None:
    """L2976-L2979: firing its X weapon, the unit rolls a D6 first; 5+ and it takes 1 damage."""
    wobbly = [("l1", sample("lancer", abilities=[{"key": "poor_balance", "x": x}]))]
    g = game(a=wobbly, b=NO_SHIELD)
    raw = {**HEAD_GUNS, "weapon": weapon, "shield_break": "no"}
    faces = ([face] if face is not None else []) + [1, 1, 1, 1, 1]
    after = act(g, "shoot", raw, TypedDice(faces))
    assert state(after, "0/l1").damage == hurt
    assert ("Poor Balance" in after.log[-1].text) is (face is not None)


@pytest.mark.parametrize(("gate", "goes"), [(3, False), (4, True)])
def test_a_volley_fails_on_three_or_less(gate: int, goes: bool) -> None:
    """L1613: a Volley's D6 of 3 or less misses; 4 or more, the shot is made as normal."""
    mortar = {**sample("gun_tank")["weapons"][0], "name": "Mortar", "tags": ["V"]}
    g = game(a=[("l1", sample("gun_tank", weapons=[mortar]))], b=NO_SHIELD)
    raw = {"attacker": "0/l1", "target": "1/t1", "weapon": "Mortar", "volley": True, "shield_break": "no"}
    # the turret's 2 shots hit on 4+: two 6s (crit 6), armour 2 dice fail, 2 chart rolls
    after = act(g, "shoot", raw, TypedDice([gate, 6, 6, 1, 1, 1, 1]))
    assert after.log[-1].detail["volley"] == gate
    assert state(after, "1/t1").damage == (4 if goes else 0)


def test_bad_weather_counts_each_removal() -> None:
    """L3321-L3327: each hit removed counts toward the player's 3 a game; a shot with no hit uses none."""
    g = act(game(b=NO_SHIELD), "setup", {"environment": "bad_weather"}, TypedDice([]))
    raw = {**HEAD_GUNS, "weather": True, "shield_break": "no"}
    after = act(g, "shoot", raw, TypedDice([5, 5, 1, 1, 1]))
    assert after.sides[1].resources["weather"] == 1
    assert state(after, "1/t1").damage == 1  # two hits, one removed
    missed = act(g, "shoot", raw, TypedDice([1, 1, 1, 1, 1]))
    assert missed.sides[1].resources["weather"] == 0


@pytest.mark.parametrize(("face", "damage"), [(6, 0), (5, 3)])
def test_elusive_ignores_the_shot_on_a_six(face: int, damage: int) -> None:
    """L3277-L3283: the target's pilot rolls a D6 once hit; on a 6 it ignores the attack."""
    t = [("t1", sample("trooper", shield="none", pilot=pilot(heroic_traits=["elusive"])))]
    g = game(b=t)
    raw = {**HEAD_GUNS, "shield_break": "no"}
    after = act(g, "shoot", raw, TypedDice([5, 5, 5, face, 1, 1]))
    assert state(after, "1/t1").damage == damage
    assert ("Elusive 6" in after.log[-1].text) is (face == 6)


def test_mighty_shield_keeps_the_shield_once_when_a_critical_is_cancelled() -> None:
    """L2946-L2950: a Shield Break against a chart roll keeps the shield, once a battle; a second one, or
    one with no chart roll to cancel, loses it as usual (L1121-L1128)."""
    mighty = [("t1", sample("trooper", abilities=[{"key": "mighty_shield"}]))]
    g = game(b=mighty)
    crit = {**RIFLE, "shield_break": "yes"}  # attack 6: a hit and a critical; armour 1, check 1
    once = act(g, "shoot", crit, TypedDice([6, 1, 1]))
    t = state(once, "1/t1")
    assert (t.damage, "shield_broken" in t.conditions, t.extra["once"]) == (2, False, ["mighty_shield"])
    assert "Mighty Shield keeps the shield" in once.log[-1].text
    again = edit(once, "0/l1", counters={"actions": 0})  # the Lancer's next turn, as play would leave it
    twice = act(again, "shoot", crit, TypedDice([6, 1, 1]))
    assert "shield_broken" in state(twice, "1/t1").conditions
    # no critical: nothing for Mighty Shield to save, the shield goes
    plain = act(g, "shoot", {**HEAD_GUNS, "shield_break": "yes"}, TypedDice([5, 5, 1, 1, 1, 1]))
    t = state(plain, "1/t1")
    assert "shield_broken" in t.conditions and t.extra["once"] == []
    assert t.damage == 1  # 2 damage, half (1) prevented


def test_a_blast_never_hits_the_shooter_or_the_target_twice() -> None:
    """L1271-L1275: the blast's damage goes to every OTHER unit within 6"."""
    g = act(game(), "next_turn", {}, TypedDice([]))
    g = g.model_copy(deep=True)
    g.sides[1].units[1].profile["weapons"][1]["tags"] = ["RQ", "P", "B"]
    fire = {
        "attacker": "1/h1",
        "target": "0/l1",
        "weapon": "Missile rack",
        "blast": ["0/l1", "1/h1", "0/g1"],
        "shield_break": "no",
    }
    after = act(g, "shoot", fire, TypedDice([4, 1, 1, 1, 2]))
    assert state(after, "0/l1").damage == 3 and state(after, "0/g1").damage == 3
    assert state(after, "1/h1").damage == 0


def test_a_routed_shooter_fires_half_the_time_unless_free() -> None:
    """L1554-L1558: a Routed unit's first action waits on a D6 (4+): the odds halve; a free Shoot does not."""
    g = game(b=NO_SHIELD)
    routed = edit(g, "0/l1", conditions=["routed"])
    plain = tables(api_odds(g, "shoot", HEAD_GUNS))
    halved = tables(api_odds(routed, "shoot", HEAD_GUNS))
    want = {k: p / 2 for k, p in plain["damage"].items()}
    want[0] += Fraction(1, 2)
    assert halved["damage"] == want
    assert halved["facts"]["destroyed"] == plain["facts"]["destroyed"] / 2
    # a free Shoot (here a Responsive pilot's, in the enemy's turn: L1992-L1994) waits on no roll
    responsive = game(a=[("l1", sample("lancer", pilot=pilot("responsive")))], b=NO_SHIELD)
    responsive = act(responsive, "next_turn", {}, TypedDice([]))  # Zeon's turn
    routed_responsive = edit(responsive, "0/l1", conditions=["routed"])
    assert tables(api_odds(routed_responsive, "shoot", {**HEAD_GUNS, "free": True})) == tables(
        api_odds(responsive, "shoot", {**HEAD_GUNS, "free": True})
    )


# --- which weapon fires (L424-L444) --------------------------------------------------------------------


def test_the_default_weapon_is_the_carried_one_then_a_ready_mounted_one() -> None:
    """L426-L444: the equipped carried weapon first; while it waits for a reload, a mounted one."""
    g = game(b=NO_SHIELD)
    assert odds(g, "shoot", {"attacker": "0/l1", "target": "1/t1"}).summary.startswith("Beam rifle:")
    waiting = edit(g, "0/l1", extra={"reload": {"Beam rifle": True}})
    assert odds(waiting, "shoot", {"attacker": "0/l1", "target": "1/t1"}).summary.startswith("Head guns:")
    none = edit(g, "0/l1", extra={"reload": {"Beam rifle": True, "Head guns": True}})
    with pytest.raises(ValueError, match="no equipped weapon ready"):
        odds(none, "shoot", {"attacker": "0/l1", "target": "1/t1"})
    with pytest.raises(ValueError, match="must be reloaded"):
        odds(waiting, "shoot", RIFLE)
    # no carried weapon in hand (no_carried): only the mounted ones are equipped
    bare = edit(g, "0/l1", conditions=["no_carried"])
    assert odds(bare, "shoot", {"attacker": "0/l1", "target": "1/t1"}).summary.startswith("Head guns:")
    with pytest.raises(ValueError, match="not equipped"):
        odds(bare, "shoot", RIFLE)


def test_a_named_weapon_must_be_the_shooters_and_equipped() -> None:
    g = game(b=NO_SHIELD)
    with pytest.raises(ValueError, match="has no weapon 'Bazooka'"):
        odds(g, "shoot", {**RIFLE, "weapon": "Bazooka"})
    t = act(game(), "next_turn", {}, TypedDice([]))
    with pytest.raises(ValueError, match="not equipped"):  # the Trooper holds its machine gun (L424-L444)
        odds(t, "shoot", {"attacker": "1/t1", "target": "0/l1", "weapon": "Bazooka"})


# --- what a shot refuses (L595-L614, L1606-L1619, L2851, L3312-L3313) -----------------------------------


def test_a_shot_is_refused_at_a_friend_or_a_target_off_the_table() -> None:
    g = game(a=[("l1", sample("lancer")), ("g1", sample("gun_tank"))], b=NO_SHIELD)
    with pytest.raises(ValueError, match="a unit shoots at an enemy"):
        odds(g, "shoot", {**HEAD_GUNS, "target": "0/g1"})
    for why in ("destroyed", "withdrawn", "reserve"):
        h = g.model_copy(deep=True)
        if why == "destroyed":
            h.sides[1].units[0].state.destroyed = True
        else:
            h.sides[1].units[0].state.conditions.append(why)
        with pytest.raises(ValueError, match="Trooper is not on the table"):
            odds(h, "shoot", HEAD_GUNS)
    with pytest.raises(ValueError, match=r"dug in and cannot be shot \(L2851\)"):
        odds(edit(g, "1/t1", conditions=["dig_in"]), "shoot", HEAD_GUNS)


def test_a_shot_is_refused_with_a_weapon_left_home_or_out_of_its_rules() -> None:
    """L431-L434 (carried weapons taken), L611-L614 (Explosive never closer), L2937-L2941 (Massed Fire's
    unit and X weapon), L3312-L3313 (no Volley in Dense Minovsky Particles)."""
    left_home = game(b=[("t1", sample("trooper", carried=["Machine gun"]))])
    left_home = act(left_home, "next_turn", {}, TypedDice([]))
    with pytest.raises(ValueError, match="'Bazooka' was not taken into this battle"):
        odds(left_home, "shoot", {"attacker": "1/t1", "target": "0/l1", "weapon": "Bazooka"})
    zeon = act(game(), "next_turn", {}, TypedDice([]))
    with pytest.raises(ValueError, match="cannot fire closer"):
        odds(
            zeon, "shoot", {"attacker": "1/h1", "target": "0/l1", "weapon": "Missile rack", "range": "closer"}
        )
    closer = odds(
        zeon, "shoot", {"attacker": "1/h1", "target": "0/l1", "weapon": "Rotary cannon", "range": "closer"}
    )
    assert closer.summary.startswith("Rotary cannon:")
    with pytest.raises(ValueError, match="Massed Fire"):
        odds(game(b=NO_SHIELD), "shoot", {**HEAD_GUNS, "massed_fire": 1})
    mortar = {**sample("gun_tank")["weapons"][0], "name": "Mortar", "tags": ["V"]}
    g = game(a=[("l1", sample("gun_tank", weapons=[mortar]))], b=NO_SHIELD)
    dense = act(g, "setup", {"environment": "dense_minovsky"}, TypedDice([]))
    volley = {"attacker": "0/l1", "target": "1/t1", "weapon": "Mortar", "volley": True}
    with pytest.raises(ValueError, match=r"no Volley in Dense Minovsky Particles \(L3312-L3313\)"):
        odds(dense, "shoot", volley)


def test_a_volley_target_never_sees_the_shooter_with_that_reading() -> None:
    """L1615 (A-reading volley_target_sees): with "never", a Volley's target counts as not seeing the
    shooter whatever the players said: Flanking for the shooter."""
    mortar = {**sample("gun_tank")["weapons"][0], "name": "Mortar", "tags": ["V"]}
    g = with_options(
        game(a=[("l1", sample("gun_tank", weapons=[mortar]))], b=NO_SHIELD), volley_target_sees="never"
    )
    raw = {"attacker": "0/l1", "target": "1/t1", "weapon": "Mortar", "volley": True}
    assert shot_of(g, raw).attack_rerolls == 1
    assert shot_of(with_options(g, volley_target_sees="ask"), raw).attack_rerolls == 0
    assert shot_of(g, {**raw, "volley": False}).attack_rerolls == 0


@pytest.mark.parametrize(("shooter", "acc", "crit"), [("lancer", 4, 6), ("mega", 5, None)])
def test_an_sd_target_is_harder_to_hit_and_crit(shooter: str, acc: int, crit: int | None) -> None:
    """L1360-L1363: +1 to the Accuracy and Critical needed against an SD unit, +2 for a Mega Unit
    shooting; never beyond 6."""
    from test_gundam_mega import casual, mega

    if shooter == "lancer":
        g = game(b=[("t1", sample("trooper", shield="none", sd=True))])
        raw = RIFLE  # ACC 3+, CRIT 5+
    else:
        big = mega(factions=["EFF"], weapons=sample("lancer")["weapons"])
        g = casual(game(a=[("l1", big)], b=[("t1", sample("trooper", shield="none", sd=True))]))
        raw = RIFLE
    shot = shot_of(g, raw)
    assert (shot.acc, shot.crit) == (acc, crit if shooter == "lancer" else 6)
    heavy = shot_of(g, {**raw, "weapon": "Head guns"})  # ACC 5+: capped at 6, no CRIT stays none
    assert (heavy.acc, heavy.crit) == (6, None)


def test_a_mega_unit_is_shot_only_in_a_casual_game() -> None:
    """L1309-L1311: Mega Units play in casual games only (the reading mega_units)."""
    from test_gundam_mega import casual, mega

    g = game(b=[("t1", mega())])
    with pytest.raises(ValueError, match="Mega Unit"):
        odds(g, "shoot", RIFLE)
    assert odds(casual(g), "shoot", RIFLE).summary.startswith("Beam rifle:")


def test_reactive_armour_takes_one_off_explosive_weapons_only() -> None:
    """L2028-L2030: Reactive Armour: 1 less damage from Explosive weapons."""
    armoured = [("t1", sample("trooper", shield="none", pilot=pilot(mods=["reactive_armour"])))]
    g = game(a=[("l1", sample("lancer")), ("h1", sample("heavy_gunner", factions=["EFF"]))], b=armoured)
    missiles = {"attacker": "0/h1", "target": "1/t1", "weapon": "Missile rack"}
    assert shot_of(g, missiles).coating == 1
    assert shot_of(g, RIFLE).coating == 0


# --- what the resolved shot tells and leaves ---------------------------------------------------------------


def test_the_shot_log_tells_hits_damage_and_criticals() -> None:
    """L1102-L1105: hits through times DAM; the criticals' chart rolls follow (L1108-L1119)."""
    g = game(b=NO_SHIELD)
    after = act(g, "shoot", {**HEAD_GUNS, "shield_break": "no"}, TypedDice([5, 5, 1, 1, 1]))
    assert after.log[-1].text == "Lancer shoots Trooper with Head guns; 2 hits through, 2 damage, 0 critical"
    one = act(g, "shoot", {**HEAD_GUNS, "shield_break": "no"}, TypedDice([5, 1, 1, 1, 1]))
    assert "; 1 hit through, 1 damage, 0 critical" in one.log[-1].text
    # the rifle's 6: a hit and a critical; 3 damage, then one chart roll: 3 is the Arm
    crit = act(g, "shoot", {**RIFLE, "shield_break": "no"}, TypedDice([6, 1, 3]))
    t = state(crit, "1/t1")
    assert (t.damage, t.counters["arm"]) == (3, 1)
    assert "1 hit through, 3 damage, 1 critical" in crit.log[-1].text


def test_controlled_aim_rolls_the_chart_twice_for_a_critical() -> None:
    """L1962: two chart rolls a critical."""
    g = game(a=[("l1", sample("lancer", pilot=pilot("controlled_aim")))], b=NO_SHIELD)
    after = act(g, "shoot", {**RIFLE, "shield_break": "no"}, TypedDice([6, 1, 3, 1]))
    t = state(after, "1/t1")
    assert (t.damage, t.counters["arm"], t.counters["leg"]) == (3, 1, 1)


def test_a_destroyed_target_rolls_no_chart_and_the_kill_counts_for_the_shooter() -> None:
    """L1094-L1098: damage to 0 Integrity destroys; no chart roll after; the points count for the
    shooter's side (L187-L190)."""
    g = game(b=NO_SHIELD).model_copy(deep=True)
    g.sides[1].units[0].state.damage = 3  # 3 left: the rifle's 3 destroys it
    after = act(g, "shoot", {**RIFLE, "shield_break": "no"}, TypedDice([6, 1, 1, 1, 1, 1, 1, 1]))
    t = state(after, "1/t1")
    assert t.destroyed and t.counters["arm"] == 0 and t.counters["leg"] == 0
    points = U.unit_cost(U.Unit.model_validate(sample("trooper", shield="none")))
    assert after.sides[0].resources["destroyed"] == points > 0


def test_the_shield_break_and_weather_are_told() -> None:
    g = act(game(), "setup", {"environment": "bad_weather"}, TypedDice([]))
    broke = act(g, "shoot", {**RIFLE, "shield_break": "yes"}, TypedDice([6, 1, 1]))
    assert broke.log[-1].text.endswith(
        "Shield Break: 2 damage, no chart roll, the shield is gone (L1123-L1128)"
    )
    rain = act(
        g, "shoot", {**HEAD_GUNS, "weather": True, "shield_break": "no"}, TypedDice([5, 5, 1, 1, 1, 1])
    )
    assert "Bad Weather: one hit removed (L3321-L3327)" in rain.log[-1].text


def test_the_blast_is_asked_then_told_and_its_kill_counts() -> None:
    """L1271-L1275: the units near are asked once the shot deals damage; each takes the damage."""
    g = act(game(), "next_turn", {}, TypedDice([])).model_copy(deep=True)
    g.sides[1].units[1].profile["weapons"][1]["tags"] = ["RQ", "P", "B"]
    g.sides[0].units[1].state.damage = 1  # the Gun Tank (Integrity 4, 90 points): 3 more destroy it
    fire = {"attacker": "1/h1", "target": "0/l1", "weapon": "Missile rack", "shield_break": "no"}
    with pytest.raises(NeedChoice) as asked:
        act(g, "shoot", fire, TypedDice([4, 1, 1, 1, 2]))
    assert asked.value.field == "blast"
    after = act(g, "shoot", {**fire, "blast": ["0/g1"]}, TypedDice([4, 1, 1, 1, 2, 1, 1, 1]))
    assert "Blast: Gun Tank takes 3" in after.log[-1].text
    assert state(after, "0/g1").destroyed and after.sides[1].resources["destroyed"] == 90


def test_the_dice_a_shot_asks_for() -> None:
    """Poor Balance's D6 (L2976-L2979) and the Volley's D6 (L1613) are asked as one d6 each."""
    wobbly = game(a=[("l1", sample("lancer", abilities=[{"key": "poor_balance", "x": ""}]))], b=NO_SHIELD)
    with pytest.raises(NeedMoreDice, match=r"^roll 1 more d6 for Poor Balance$"):
        act(wobbly, "shoot", HEAD_GUNS, TypedDice([]))
    assert (
        "Poor Balance 5: 1 damage to itself (L2978-L2979)"
        in act(wobbly, "shoot", {**HEAD_GUNS, "shield_break": "no"}, TypedDice([5, 1, 1, 1, 1, 1]))
        .log[-1]
        .text
    )
    assert (
        "Poor Balance 4;"
        in act(wobbly, "shoot", {**HEAD_GUNS, "shield_break": "no"}, TypedDice([4, 1, 1, 1, 1, 1]))
        .log[-1]
        .text
    )
    mortar = {**sample("gun_tank")["weapons"][0], "name": "Mortar", "tags": ["V"]}
    g = game(a=[("l1", sample("gun_tank", weapons=[mortar]))], b=NO_SHIELD)
    raw = {"attacker": "0/l1", "target": "1/t1", "weapon": "Mortar", "volley": True}
    with pytest.raises(NeedMoreDice, match=r"^roll 1 more d6 for Volley$"):
        act(g, "shoot", raw, TypedDice([]))
    assert act(g, "shoot", raw, TypedDice([3])).log[-1].text.endswith("Volley 3: the shot fails (L1613)")


def test_halved_odds_halve_the_chance_to_destroy_and_say_why() -> None:
    """L1613 (a Volley's 4+) and L1554-L1558 (a Routed unit's D6): the chance to destroy halves too."""
    g = game(b=NO_SHIELD).model_copy(deep=True)
    g.sides[1].units[0].state.damage = 3
    plain = tables(api_odds(g, "shoot", RIFLE))["facts"]["destroyed"]
    assert plain > 0
    routed = api_odds(edit(g, "0/l1", conditions=["routed"]), "shoot", RIFLE)
    assert tables(routed)["facts"]["destroyed"] == plain / 2
    assert "Routed: a D6 first, the unit runs on 1-3" in routed["summary"]
    mortar = {**sample("lancer")["weapons"][0], "name": "Mortar", "tags": ["V", "P"]}
    v = game(
        a=[("l1", sample("lancer", weapons=[mortar, sample("lancer")["weapons"][1]], equipped="Mortar"))],
        b=NO_SHIELD,
    ).model_copy(deep=True)
    v.sides[1].units[0].state.damage = 3
    raw = {"attacker": "0/l1", "target": "1/t1", "weapon": "Mortar", "target_sees_shooter": False}
    full = tables(api_odds(v, "shoot", raw))["facts"]["destroyed"]
    assert full > 0
    assert tables(api_odds(v, "shoot", {**raw, "volley": True}))["facts"]["destroyed"] == full / 2


# --- the defender's question (L713-L719, L1121-L1128; A6, A12) ----------------------------------------------


def _question(g: Game, raw: dict[str, Any], faces: list[int]) -> NeedChoice:
    with pytest.raises(NeedChoice) as asked:
        act(g, "shoot", raw, TypedDice(faces))
    return asked.value


def test_one_damage_is_enough_to_offer_the_shield_break() -> None:
    """L1121-L1128: any damage lets the target break its shield: 1 hit of 1 DAM asks."""
    q = _question(game(), HEAD_GUNS, [5, 1, 1, 1, 1, 1])
    assert q.field == "shield_break"
    assert [o.label for o in q.options] == [
        "Keep the shield, 1 damage, no chart roll",
        "Break the shield: 1 damage, no chart roll",
    ]
    assert "may leave" not in q.prompt  # no pick of hits to make


def test_the_question_counts_controlled_aims_chart_rolls_and_mighty_shield() -> None:
    """L1962: 2 chart rolls for the critical; L2946-L2950: Mighty Shield keeps the shield once."""
    ace = [("l1", sample("lancer", pilot=pilot("controlled_aim")))]
    q = _question(game(a=ace), RIFLE, [6, 1, 1])
    assert [o.label for o in q.options] == [
        "Keep the shield, 3 damage, 2 chart rolls",
        "Break the shield: 2 damage, no chart roll",
    ]
    mighty = [("t1", sample("trooper", abilities=[{"key": "mighty_shield"}]))]
    q = _question(game(a=ace, b=mighty), RIFLE, [6, 1, 1])
    assert q.options[-1].label == "Break the shield (Mighty Shield keeps it once): 2 damage, no chart roll"
    used = edit(game(a=ace, b=mighty), "1/t1", extra={"once": ["mighty_shield"]})
    assert _question(used, RIFLE, [6, 1, 1]).options[-1].label == "Break the shield: 2 damage, no chart roll"


def test_the_fewest_criticals_left_is_not_told_as_a_choice() -> None:
    """A6: leaving the fewest criticals is the default; only the other pick is told in the log."""
    g = game(a=[("g1", sample("gun_tank"))], b=NO_SHIELD)
    shot = {"attacker": "0/g1", "target": "1/t1", "cancel_criticals": 0}
    after = act(g, "shoot", shot, TypedDice([6, 4, 5, 1]))
    assert "by its player's choice" not in after.log[-1].text
    three = _question(g, {"attacker": "0/g1", "target": "1/t1"}, [6, 4, 5, 1])
    assert three.prompt.endswith("the blocks may leave 0 to 1 of its criticals.")


def test_massed_fire_needs_its_x_weapon() -> None:
    """L2937-L2941: Massed Fire adds dice to its X WEAPON only."""
    hot = [("l1", sample("lancer", abilities=[{"key": "massed_fire", "x": "Head guns"}]))]
    g = game(a=hot, b=NO_SHIELD)
    assert shot_of(g, {**HEAD_GUNS, "massed_fire": 2}).extra_shots == 2
    with pytest.raises(ValueError, match="Head guns"):
        odds(g, "shoot", {**RIFLE, "massed_fire": 1})


def test_with_three_players_the_kill_scores_for_the_shooters_side() -> None:
    """L179-L190: only the side whose shot destroyed the unit counts its points."""
    from test_gundam_skirmish import squad

    from core.game import new_game

    sides = [
        ("Feds", squad("a", "Feds", ("l1", sample("lancer")))),
        ("Zeon", squad("b", "Zeon", ("t1", sample("trooper", shield="none")))),
        ("Zeon 2", squad("c", "Zeon", ("t2", sample("trooper")))),
    ]
    g = act(new_game("g", "Test", sides), "priority", {"places": [1, 2]}, TypedDice([5, 2, 1]))
    g = g.model_copy(deep=True)
    g.sides[1].units[0].state.damage = 3
    after = act(g, "shoot", {**RIFLE, "shield_break": "no"}, TypedDice([6, 1, 1, 1, 1, 1, 1, 1]))
    assert state(after, "1/t1").destroyed
    points = U.unit_cost(U.Unit.model_validate(sample("trooper", shield="none")))
    assert [side.resources["destroyed"] for side in after.sides] == [points, 0, 0]
