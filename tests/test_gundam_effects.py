"""Gundam Skirmish: every modifier, ability, trait, mod and condition the engine applies, by its size.

Each case asks the odds through ``core.api`` (``game.odds``) with the effect and checks them against
the odds of the same shot or strike with exactly the change its rule names (which number, which side,
how much) made by hand: a modifier that is silently ignored, applied to the wrong side or by the wrong
amount fails.  Lines are in 000_3e12d4cbd0c8f6da.txt.  The boundaries of the thresholds (damage levels,
morale targets, caps) are checked at, one below and one above.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

import pytest
from test_gundam_skirmish import game, state

from core import api
from core.dice import TypedDice
from core.game import Game, act
from core.systems.gundam_skirmish import units as U
from core.systems.gundam_skirmish.close_combat import CloseInput, Striker, striker
from core.systems.gundam_skirmish.mega import MegaParts
from core.systems.gundam_skirmish.samples import SAMPLES
from core.systems.gundam_skirmish.shoot import ShootInput, build_shot, odds_tables
from core.systems.gundam_skirmish.shooting import Shot, shot_odds

Tables = dict[str, dict[Any, Fraction]]


def sample(key: str, **changes: Any) -> dict[str, Any]:
    """One of the app's sample units with some of its values changed, checked by the profile model."""
    return U.Unit.model_validate({**SAMPLES[key].model_dump(mode="json"), **changes}).model_dump(mode="json")


def api_odds(g: Game, action: str, raw: dict[str, Any]) -> dict[str, Any]:
    """The odds as the app receives them through the seam."""
    reply = api.call("game.odds", {"game": g.model_dump(mode="json"), "action": action, "input": raw})
    assert reply["ok"], reply
    result: dict[str, Any] = reply["result"]
    return result


def tables(result: dict[str, Any]) -> Tables:
    """Each table's exact chances by value, and the facts (the chance to destroy...) under "facts"."""
    out: Tables = {
        key: {r["value"]: Fraction(r["exactly"]) for r in t["rows"] if Fraction(r["exactly"])}
        for key, t in result["tables"].items()
    }
    out["facts"] = {k: Fraction(v) for k, v in result["facts"].items()}
    return out


def shot_tables(shot: Shot) -> Tables:
    o = shot_odds(shot)
    return tables(odds_tables(o.damage, o.crits, o.destroyed, "").model_dump(mode="json"))


def mean(dist: dict[Any, Fraction]) -> Fraction:
    return sum((Fraction(v) * p for v, p in dist.items()), Fraction(0))


def edit(g: Game, ref: str, **what: Any) -> Game:
    """The game with a unit's counters, conditions or extra values changed (as play would leave them)."""
    g = g.model_copy(deep=True)
    s, u, _ = g.unit(ref)
    st = g.sides[s].units[u].state
    st.counters.update(what.get("counters", {}))
    st.conditions = [*st.conditions, *what.get("conditions", [])]
    st.extra.update(what.get("extra", {}))
    return g


def side_resource(g: Game, s: int, key: str, value: int) -> Game:
    g = g.model_copy(deep=True)
    g.sides[s].resources[key] = value
    return g


def pilot(*traits: str, **more: Any) -> list[dict[str, Any]]:
    """A character pilot with these traits (rank 2 a trait, L1821-L1826), heroic ones at rank 10 (L3211)."""
    rank = (
        10
        if more.get("heroic_traits") or more.get("heroic_mods")
        else max(1, 2 * len(traits), 3 if more.get("mods") else 1)
    )
    levels = 1 if rank == 10 else 0
    return [U.Pilot(name="Ace", rank=rank, heroic_levels=levels, traits=list(traits), **more).model_dump()]


HEAD_GUNS = {"attacker": "0/l1", "target": "1/t1", "weapon": "Head guns"}  # 3 shots 5+, 1 DAM, no <P>
RIFLE = {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle"}  # 1 shot 3+, crit 5+, 3 DAM, <P>
NO_SHIELD = [("t1", sample("trooper", shield="none"))]
#: The Lancer with Massed Fire and Heat Radiation for its head guns: both add dice only for a unit
#: that has the ability, with its X weapon (L2937-L2941, L2889-L2894; otherwise refused).
HOT = [
    (
        "l1",
        sample(
            "lancer",
            abilities=[
                *sample("lancer")["abilities"],
                {"key": "massed_fire", "x": "Head guns"},
                {"key": "heat_radiation", "x": "Head guns"},
            ],
        ),
    )
]


# --- the Shoot: each effect is one number of the shot, changed by its rule ---------------------------
#: (what, its line, the game, the base input, the input with the effect, the shot's numbers it changes)
ShootCase = tuple[
    str, str, Callable[[], Game], dict[str, Any], dict[str, Any], Callable[[Shot], dict[str, Any]]
]


def _group(shot: Shot, name: str, **change: Any) -> dict[str, Any]:
    """The shot's defence groups with one group's numbers changed."""
    return {"groups": tuple(replace(g, **change) if g.name == name else g for g in shot.groups)}


def _armour_dice(shot: Shot, delta: int) -> dict[str, Any]:
    armour = next(g for g in shot.groups if g.name == "armour")
    return _group(shot, "armour", dice=armour.dice + delta)


SHOOT_CASES: list[ShootCase] = [
    # Height: the higher shooter re-rolls one failed hit (table L757-L762)
    (
        "higher",
        "L757-L762",
        lambda: game(b=NO_SHIELD),
        HEAD_GUNS,
        {**HEAD_GUNS, "higher": True},
        lambda s: {"attack_rerolls": s.attack_rerolls + 1},
    ),
    # In space there is no height bonus (L1402): the same shot as in space without height
    (
        "higher in space",
        "L1402",
        lambda: act(game(a=[("l1", sample("lancer"))], b=NO_SHIELD), "setup", {"space": True}, TypedDice([])),
        HEAD_GUNS,
        {**HEAD_GUNS, "higher": True},
        lambda s: {},
    ),
    # Flanking: the target does not see the shooter, one failed hit re-rolled (L774-L781)
    (
        "flanking",
        "L774-L781",
        lambda: game(b=NO_SHIELD),
        HEAD_GUNS,
        {**HEAD_GUNS, "target_sees_shooter": False},
        lambda s: {"attack_rerolls": s.attack_rerolls + 1},
    ),
    # Flanker heroic trait: always the Flanking bonus (L3294-L3298)
    (
        "flanker",
        "L3294-L3298",
        lambda: game(a=[("l1", sample("lancer", pilot=pilot(heroic_traits=["flanker"])))], b=NO_SHIELD),
        HEAD_GUNS,
        HEAD_GUNS,
        lambda s: {"attack_rerolls": s.attack_rerolls + 1},
    ),
    # Panoramic Cockpit: no Flanking bonus against it (L2964-L2965)
    (
        "panoramic cockpit",
        "L2964-L2965",
        lambda: game(b=[("t1", sample("trooper", shield="none", abilities=[{"key": "panoramic_cockpit"}]))]),
        {**HEAD_GUNS, "target_sees_shooter": False},
        {**HEAD_GUNS, "target_sees_shooter": False},
        lambda s: {"attack_rerolls": 0},
    ),
    # Veteran heroic trait: one re-roll of a failed hit when it has no other (L3285-L3286; A42)
    (
        "veteran",
        "L3285-L3286; A42",
        lambda: game(a=[("l1", sample("lancer", pilot=pilot(heroic_traits=["veteran"])))], b=NO_SHIELD),
        HEAD_GUNS,
        HEAD_GUNS,
        lambda s: {"attack_rerolls": 1},
    ),
    # Concentrate Fire order: the side's targets count as Flanked (L1428-L1440)
    (
        "concentrate fire",
        "L1428-L1440",
        lambda: side_resource(game(b=NO_SHIELD), 0, "concentrate_fire", 1),
        HEAD_GUNS,
        HEAD_GUNS,
        lambda s: {"attack_rerolls": s.attack_rerolls + 1},
    ),
    # Cover: an Unobstructed target rolls one armour die less (L676-L703)
    (
        "unobstructed",
        "L676-L703",
        lambda: game(b=NO_SHIELD),
        HEAD_GUNS,
        {**HEAD_GUNS, "cover": "unobstructed"},
        lambda s: _armour_dice(s, -1),
    ),
    # Get to cover! order: an Unobstructed target counts as in cover (L1478-L1483)
    (
        "get to cover",
        "L1478-L1483",
        lambda: side_resource(game(b=NO_SHIELD), 1, "get_to_cover", 1),
        {**HEAD_GUNS, "cover": "unobstructed"},
        {**HEAD_GUNS, "cover": "unobstructed"},
        lambda s: _armour_dice(s, 1),
    ),
    # <P>: cover one step better for the shooter: in cover counts as Unobstructed (L1342-L1344)
    (
        "bring them down",
        "L1419-L1426, L1342-L1344",
        lambda: edit(game(b=NO_SHIELD), "0/l1", conditions=["bring_them_down"]),
        HEAD_GUNS,
        HEAD_GUNS,
        lambda s: {"penetration": True, **_armour_dice(s, -1)},
    ),
    # Range: outside the weapon's range, one more armour die (table L790-L795)
    (
        "beyond range",
        "L790-L795",
        lambda: game(b=NO_SHIELD),
        HEAD_GUNS,
        {**HEAD_GUNS, "range": "beyond"},
        lambda s: _armour_dice(s, 1),
    ),
    # Massed Fire: a die per same-named unit within 6" (L2937-L2941)
    (
        "massed fire",
        "L2937-L2941",
        lambda: game(a=HOT, b=NO_SHIELD),
        HEAD_GUNS,
        {**HEAD_GUNS, "massed_fire": 2},
        lambda s: {"extra_shots": s.extra_shots + 2},
    ),
    # Heat Radiation: a die per point of self-damage (L2889-L2894)
    (
        "heat radiation",
        "L2889-L2894",
        lambda: game(a=HOT, b=NO_SHIELD),
        HEAD_GUNS,
        {**HEAD_GUNS, "heat_radiation": 1},
        lambda s: {"extra_shots": s.extra_shots + 1},
    ),
    # The shooter's Head Damage: the DEFENDER re-rolls one failed block (table L783-L788)
    (
        "shooter's head damage",
        "L783-L788",
        lambda: edit(game(b=NO_SHIELD), "0/l1", counters={"head": 1}),
        HEAD_GUNS,
        HEAD_GUNS,
        lambda s: {"defend_rerolls": 1},
    ),
    # ... the target's own Head Damage gives the defender nothing: only its chart level is higher
    (
        "target's head damage",
        "L783-L788, L1225-L1239",
        lambda: edit(game(b=NO_SHIELD), "1/t1", counters={"head": 1}),
        RIFLE,
        RIFLE,
        lambda s: {"levels": (0, 0, 1, 0)},
    ),
    # Impenetrable heroic trait: the defender re-rolls one failed block (L3288-L3289)
    (
        "impenetrable",
        "L3288-L3289",
        lambda: game(
            b=[("t1", sample("trooper", shield="none", pilot=pilot(heroic_traits=["impenetrable"])))]
        ),
        HEAD_GUNS,
        HEAD_GUNS,
        lambda s: {"defend_rerolls": 1},
    ),
    # Arm Damage: the shooter hits on 5+ at best (L743, L1184-L1199; A7)
    (
        "shooter's arm damage",
        "L743, L1184-L1199",
        lambda: edit(game(b=NO_SHIELD), "0/l1", counters={"arm": 1}),
        RIFLE,
        RIFLE,
        lambda s: {"acc": 5},
    ),
    # Smoke (its timed effect): accuracy 5+ (L2987-L2993)
    (
        "smoke",
        "L2987-L2993",
        lambda: edit(game(b=NO_SHIELD), "0/l1", conditions=["acc5"]),
        RIFLE,
        RIFLE,
        lambda s: {"acc": 5},
    ),
    # Trans-Am: +2 DAM in its player's first 3 turns (L3218-L3224; A39)
    (
        "trans-am",
        "L3218-L3224",
        lambda: game(a=[("l1", sample("lancer", pilot=pilot(heroic_mods=["trans_am"])))], b=NO_SHIELD),
        RIFLE,
        RIFLE,
        lambda s: {"dam": s.dam + 2},
    ),
    # Anti-Beam Coating: 1 less damage from a beam weapon (L2795-L2799, L2014-L2016)
    (
        "anti-beam coating",
        "L2795-L2799",
        lambda: game(b=[("t1", sample("trooper", shield="none", abilities=[{"key": "anti_beam_coating"}]))]),
        RIFLE,
        RIFLE,
        lambda s: {"coating": 1},
    ),
    # ... but nothing against a low calibre weapon
    (
        "anti-beam coating, low calibre",
        "L2795-L2799",
        lambda: game(b=[("t1", sample("trooper", shield="none", abilities=[{"key": "anti_beam_coating"}]))]),
        HEAD_GUNS,
        HEAD_GUNS,
        lambda s: {},
    ),
    # Heavy Plating (a pilot's modification): 1 less damage from low and medium calibre weapons (L2017-L2019)
    (
        "heavy plating",
        "L2017-L2019",
        lambda: game(b=[("t1", sample("trooper", shield="none", pilot=pilot(mods=["heavy_plating"])))]),
        HEAD_GUNS,
        HEAD_GUNS,
        lambda s: {"coating": 1},
    ),
    # Movable Frame: less damage from a big hit (L2952-L2956)
    (
        "movable frame",
        "L2952-L2956",
        lambda: game(b=[("t1", sample("trooper", shield="none", abilities=[{"key": "movable_frame"}]))]),
        RIFLE,
        RIFLE,
        lambda s: {"movable_frame": True},
    ),
    # Controlled Aim: two chart rolls per critical (L1962)
    (
        "controlled aim",
        "L1962",
        lambda: game(a=[("l1", sample("lancer", pilot=pilot("controlled_aim")))], b=NO_SHIELD),
        RIFLE,
        RIFLE,
        lambda s: {"chart_per_crit": 2},
    ),
    # Elusive: the target ignores the shot on a 6 (L3277-L3283)
    (
        "elusive",
        "L3277-L3283",
        lambda: game(b=[("t1", sample("trooper", shield="none", pilot=pilot(heroic_traits=["elusive"])))]),
        RIFLE,
        RIFLE,
        lambda s: {"elusive": True},
    ),
    # Fortunate: a Torso chart result re-rolled (L1968-L1969)
    (
        "fortunate",
        "L1968-L1969",
        lambda: game(b=[("t1", sample("trooper", shield="none", pilot=pilot("fortunate")))]),
        RIFLE,
        RIFLE,
        lambda s: {"fortunate": True},
    ),
    # Bad Weather: the target's player removes one hit (L3321-L3327)
    (
        "bad weather",
        "L3321-L3327",
        lambda: act(game(b=NO_SHIELD), "setup", {"environment": "bad_weather"}, TypedDice([])),
        HEAD_GUNS,
        {**HEAD_GUNS, "weather": True},
        lambda s: {"remove_hit": True},
    ),
]


@pytest.mark.parametrize(
    ("what", "line", "make", "base", "raw", "change"), SHOOT_CASES, ids=[c[0] for c in SHOOT_CASES]
)
def test_each_shoot_effect_changes_exactly_its_number(
    what: str,
    line: str,
    make: Callable[[], Game],
    base: dict[str, Any],
    raw: dict[str, Any],
    change: Callable[[Shot], dict[str, Any]],
) -> None:
    g = make()
    plain = game(b=NO_SHIELD) if what != "higher in space" else g
    shot, _, _ = build_shot(plain, ShootInput.model_validate(base))
    want = shot_tables(replace(shot, **change(shot)))
    got = tables(api_odds(g, "shoot", raw))
    assert got == want, f"{what} ({line})"
    if change(shot):  # the effect is felt: the odds differ from the shot without it
        assert got != shot_tables(shot), f"{what} ({line}) changes nothing"


def test_shield_bonus_needs_the_shooter_in_sight_and_no_arm_damage() -> None:
    """L649-L654: the Shield Bonus group is rolled only with the shooter in sight and no Arm Damage."""
    g = game()  # the Trooper carries a light shield
    seen, _, _ = build_shot(g, ShootInput.model_validate(HEAD_GUNS))
    assert [x.name for x in seen.groups] == ["armour", "shield"]
    no_shield = replace(seen, groups=seen.groups[:1])
    flank = tables(api_odds(g, "shoot", {**HEAD_GUNS, "target_sees_shooter": False}))
    assert flank == shot_tables(replace(no_shield, attack_rerolls=1))  # L649-L654, L775-L778
    hurt = edit(g, "1/t1", counters={"arm": 1})
    assert tables(api_odds(hurt, "shoot", HEAD_GUNS)) == shot_tables(replace(no_shield, levels=(0, 1, 0, 0)))


def test_solid_defence_rerolls_a_failed_shield_die() -> None:
    """L3001-L3005: Solid Defence: the shield group re-rolls one failed die."""
    plain = game()
    solid = game(b=[("t1", sample("trooper", abilities=[{"key": "solid_defence"}]))])
    shot, _, _ = build_shot(plain, ShootInput.model_validate(HEAD_GUNS))
    want = shot_tables(replace(shot, **_group(shot, "shield", own_reroll=True)))
    assert tables(api_odds(solid, "shoot", HEAD_GUNS)) == want != shot_tables(shot)


def test_a_volley_goes_through_half_the_time() -> None:
    """L1606-L1619: a Volley needs a <V> weapon; no Flanking or shield from sight; 4+ or nothing happens."""
    mortar = U.RangedWeapon.model_validate(
        {**sample("gun_tank")["weapons"][0], "name": "Mortar", "tags": ["V"]}
    )
    g = game(a=[("l1", sample("gun_tank", weapons=[mortar.model_dump(mode="json")]))], b=NO_SHIELD)
    raw = {"attacker": "0/l1", "target": "1/t1", "weapon": "Mortar"}
    # The players say whether the target sees the shooter (volley_target_sees, L1615): here it does not.
    volley = tables(api_odds(g, "shoot", {**raw, "volley": True, "target_sees_shooter": False}))
    flank = tables(api_odds(g, "shoot", {**raw, "target_sees_shooter": False}))
    # half the time the flanking shot, half the time nothing (L1613)
    want = {d: p / 2 for d, p in flank["damage"].items()}
    want[0] = want.get(0, Fraction(0)) + Fraction(1, 2)
    assert volley["damage"] == want
    with pytest.raises(ValueError, match="<V>"):
        from core.game import odds

        odds(game(b=NO_SHIELD), "shoot", {**HEAD_GUNS, "volley": True})


# --- close combat: each effect is one number of a strike ------------------------------------------------


def _strike(g: Game, raw: dict[str, Any], first: bool = True) -> Striker:
    """The strike of the attacker (first) or of the defender, as the resolution builds it."""
    inp = CloseInput.model_validate(raw)
    xs, _, x = g.unit(inp.attacker if first else inp.defender)
    _, _, y = g.unit(inp.defender if first else inp.attacker)
    charged = inp.charged if first else inp.defender_charged
    flank = inp.flank if first else inp.defender_flank
    return striker(g, xs, x, y, charged, flank, inp, first)


FIGHT = {"attacker": "0/l1", "defender": "1/t1", "charged": False}


def _target_damage(g: Game, raw: dict[str, Any]) -> dict[Any, Fraction]:
    return tables(api_odds(g, "close_combat", raw))["damage to the target"]


#: (what, line, the game, the input, the strike's numbers it changes, relative to the plain strike)
CloseCase = tuple[str, str, Callable[[], Game], dict[str, Any], Callable[[Striker], dict[str, Any]]]
CLOSE_CASES: list[CloseCase] = [
    ("charge", "L1040-L1042", lambda: game(), {**FIGHT, "charged": True}, lambda s: {"rerolls": 1}),
    ("flank", "L1028-L1034", lambda: game(), {**FIGHT, "flank": True}, lambda s: {"dice": s.dice + 1}),
    (
        "reckless",
        "L3291-L3292",
        lambda: game(a=[("l1", sample("lancer", pilot=pilot(heroic_traits=["reckless"])))]),
        FIGHT,
        lambda s: {"dice": s.dice + 2},
    ),
    (
        "rash, charging",
        "L1988-L1990",
        lambda: game(a=[("l1", sample("lancer", pilot=pilot("rash")))]),
        {**FIGHT, "charged": True},
        lambda s: {"dice": s.dice + 1, "rerolls": 1},
    ),
    (
        "veteran",
        "L3285-L3286",
        lambda: game(a=[("l1", sample("lancer", pilot=pilot(heroic_traits=["veteran"])))]),
        FIGHT,
        lambda s: {"rerolls": 1},
    ),
    (
        "arm damage",
        "L1016-L1020",
        lambda: edit(game(), "0/l1", counters={"arm": 1}),
        FIGHT,
        lambda s: {"acc": 5},
    ),
    (
        "striker's head damage",
        "L1044-L1048",
        lambda: edit(game(), "0/l1", counters={"head": 1}),
        FIGHT,
        lambda s: {"shield_rerolls": 1},
    ),
    (
        "target's head damage",
        "L1044-L1048",
        lambda: edit(game(), "1/t1", counters={"head": 1}),
        FIGHT,
        lambda s: {},
    ),
    (
        "solid defence",
        "L3001-L3005",
        lambda: game(b=[("t1", sample("trooper", abilities=[{"key": "solid_defence"}]))]),
        FIGHT,
        lambda s: {"shield_rerolls": 1},
    ),
    (
        "impenetrable",
        "L3288-L3289",
        lambda: game(b=[("t1", sample("trooper", pilot=pilot(heroic_traits=["impenetrable"])))]),
        FIGHT,
        lambda s: {"shield_rerolls": 1},
    ),
    (
        "beam flayer",
        "L2801-L2805",
        lambda: game(a=[("l1", sample("lancer", abilities=[{"key": "beam_flayer"}]))]),
        FIGHT,
        lambda s: {"flayer": True},
    ),
    (
        "elusive",
        "L3277-L3283",
        lambda: game(b=[("t1", sample("trooper", pilot=pilot(heroic_traits=["elusive"])))]),
        FIGHT,
        lambda s: {"elusive": True},
    ),
    (
        "movable frame",
        "L2952-L2956",
        lambda: game(b=[("t1", sample("trooper", abilities=[{"key": "movable_frame"}]))]),
        FIGHT,
        lambda s: {"movable_frame": True},
    ),
]


@pytest.mark.parametrize(
    ("what", "line", "make", "raw", "change"), CLOSE_CASES, ids=[c[0] for c in CLOSE_CASES]
)
def test_each_close_combat_effect_changes_exactly_its_number(
    what: str,
    line: str,
    make: Callable[[], Game],
    raw: dict[str, Any],
    change: Callable[[Striker], dict[str, Any]],
) -> None:
    plain = _strike(game(), FIGHT)
    g = make()
    assert _strike(g, raw) == plain.model_copy(update=change(plain)), f"{what} ({line})"
    if change(plain):  # and the odds the app shows move
        assert _target_damage(g, raw) != _target_damage(game(), FIGHT), f"{what} ({line})"


def test_piercing_strike_lowers_the_targets_armour_by_one() -> None:
    """L936-L938: the opponent's Armour 1 lower (at least 1) and its Shield Bonus one die fewer (at least 1).

    Through the app: the Heavy Gunner's claws (<PS>) into an unshielded Trooper with a Piercing Strike
    have exactly the odds of a plain charge into the same Trooper built with Armour one lower.
    """
    gunner = [("l1", sample("heavy_gunner"))]
    tough = sample("trooper", shield="none", armour={"dice": 4, "success": 5})
    g = act(
        game(a=gunner, b=[("t1", tough)]), "switch_weapon", {"unit": "0/l1", "weapon": "cc"}, TypedDice([])
    )
    g = edit(g, "0/l1", counters={"actions": 0})
    weaker = sample("trooper", shield="none", armour={"dice": 3, "success": 5})
    ref = act(
        game(a=gunner, b=[("t1", weaker)]), "switch_weapon", {"unit": "0/l1", "weapon": "cc"}, TypedDice([])
    )
    fight = {"attacker": "0/l1", "defender": "1/t1", "charged": True}
    pierced = _target_damage(g, {**fight, "piercing_strike": True})
    assert pierced == _target_damage(ref, fight)
    assert mean(pierced) > mean(_target_damage(g, fight))
    # the numbers: Armour 4 -> 3, and never under 1
    assert _strike(g, {**fight, "piercing_strike": True}).armour == 3
    one = sample("trooper", shield="none", armour={"dice": 1, "success": 6})
    least = act(
        game(a=gunner, b=[("t1", one)]), "switch_weapon", {"unit": "0/l1", "weapon": "cc"}, TypedDice([])
    )
    assert _strike(least, {**fight, "piercing_strike": True}).armour == 1
    # the Shield Bonus: a medium shield rolls 2 dice, 1 with a Piercing Strike; a light one stays at 1
    for grade, dice in (("medium", 1), ("light", 1), ("heavy", 2)):
        shielded = act(
            game(a=gunner, b=[("t1", sample("trooper", shield=grade))]),
            "switch_weapon",
            {"unit": "0/l1", "weapon": "cc"},
            TypedDice([]),
        )
        assert _strike(shielded, {**fight, "piercing_strike": True}).shield_dice == dice, grade
    # the defender's strike back is not pierced
    assert _strike(g, {**fight, "piercing_strike": True}, first=False) == _strike(g, fight, first=False)


def test_a_mobile_fighter_strikes_with_one_more_die_and_one_better() -> None:
    """L1326-L1330: a mobile fighter rolls one more die, ACC and CRIT one better; Pursuit +1 (L1331-L1339)."""
    fighter = sample("lancer", kind="mobile_fighter", weapons=[], equipped="")
    g = game(a=[("l1", fighter)])
    plain = _strike(game(), FIGHT)
    s = _strike(g, FIGHT)
    assert (s.dice, s.acc, s.crit) == (
        plain.dice + 1,
        plain.acc - 1,
        None if plain.crit is None else plain.crit - 1,
    )
    assert _strike(g, {**FIGHT, "pursuit": True}).dice == s.dice + 1  # L1331-L1339


# --- thresholds at their boundaries ------------------------------------------------------------------

SHOT_AT_MEGA = {"attacker": "0/l1", "target": "1/t1", "weapon": "Beam rifle", "cover": "unobstructed"}


def _mega(arms: int) -> dict[str, Any]:
    """A Mega Unit of our own (Armour 5, L1310) with Arms of the given Integrity."""
    small = min(3, (20 - 6 - arms) // 2)  # Integrity 20 at most in all (L1310-L1312)
    parts = MegaParts(head=small, arms=arms, torso=6, legs=small)
    base = {**sample("trooper"), "name": "Big Trooper", "shield": "none", "armour": {"dice": 5, "success": 5}}
    return U.Unit.model_validate({**base, "mega": [parts.model_dump()], "integrity": parts.total}).model_dump(
        mode="json"
    )


@pytest.mark.parametrize(
    ("arms", "before", "level"),
    [
        (6, 0, 1),  # 3 of 6: a half, under two thirds: Level 1
        (6, 1, 2),  # 4 of 6: exactly two thirds: Level 2 (L1316)
        (9, 2, 1),  # 5 of 9: one below two thirds: Level 1
        (9, 3, 2),  # 6 of 9: exactly two thirds: Level 2
        (9, 4, 2),  # 7 of 9: one above: Level 2
        (9, 0, 1),  # 3 of 9: exactly a third: Level 1 (L1315)
        (12, 0, 0),  # 3 of 12: one below a third: nothing
        (12, 1, 1),  # 4 of 12: exactly a third: Level 1
    ],
)
def test_a_mega_units_part_levels_at_their_boundaries(arms: int, before: int, level: int) -> None:
    """L1314-L1317: a third or more of a part's Integrity lost: Level 1; two thirds or more: Level 2.

    The Beam rifle's one hit (a 6; crit 5+, but a Mega Unit takes no criticals, L1318) deals 3 to the
    Arms (location die 2) through 4 failed armour dice.
    """
    g = game(b=[("t1", _mega(arms))])
    g = g.model_copy(update={"options": {**g.options, "mega_units": True}})
    old = 1 if 3 * before >= arms else 0
    g = edit(g, "1/t1", counters={"mega_arms": before, "arm": old})
    after = act(g, "shoot", SHOT_AT_MEGA, TypedDice([6, 1, 1, 1, 1, 2]))
    t = state(after, "1/t1")
    assert t.counters["mega_arms"] == before + 3
    assert t.counters.get("arm", 0) == level, f"{before + 3} of {arms}"


@pytest.mark.parametrize(
    ("left", "destroyed", "due"), [(4, False, False), (3, True, False), (2, True, False)]
)
def test_integrity_at_zero_destroys_and_at_one_calls_morale(left: int, destroyed: bool, due: bool) -> None:
    """L1094-L1098: a unit at 0 Integrity or less is destroyed; L1599: at 1 left its morale is due.

    The Beam rifle deals 3 (a 6 to hit, the Trooper's two armour dice fail, no shield, a 5 on the chart
    die is not rolled: the 6 is a critical, its chart roll a 1, Leg).
    """
    g = edit(game(b=NO_SHIELD), "1/t1")
    g.sides[1].units[0].state.damage = 6 - left
    faces = [6, 1, 1, 1, 6, 6]  # hit, two failed blocks, chart 1 (Leg), Destruction Table 6 if destroyed
    after = act(g, "shoot", {**RIFLE, "cover": "unobstructed"}, TypedDice(faces))
    t = state(after, "1/t1")
    assert t.destroyed is destroyed
    if not destroyed:
        assert ("morale_due" in t.conditions) is True  # a chart roll is a trigger too (L1595)


@pytest.mark.parametrize(("left", "need"), [(1, 11), (5, 7), (6, 6)])
def test_morale_needs_twelve_minus_integrity_exactly(left: int, need: int) -> None:
    """L1570: 2D6 of 12 - Integrity or more passes: the roll at the target passes, one below fails."""
    g = edit(game(), "1/t1")
    g.sides[1].units[0].state.damage = 6 - left
    raw = {"unit": "1/t1"}
    p = sum(Fraction(1, 36) for a in range(1, 7) for b in range(1, 7) if a + b >= need)
    assert api_odds(g, "morale", raw)["facts"]["pass"] == pytest.approx(float(p))
    low = next((a, b) for a in range(1, 7) for b in range(1, 7) if a + b == need - 1)
    at = next((a, b) for a in range(1, 7) for b in range(1, 7) if a + b == need)
    assert "Wavering" in act(g, "morale", raw, TypedDice(list(low))).log[-1].text
    assert "Steady" in act(g, "morale", raw, TypedDice(list(at))).log[-1].text
    above = [a for a in range(1, 7) if 1 <= need + 1 - a <= 6]
    if above:
        assert "Steady" in act(g, "morale", raw, TypedDice([above[0], need + 1 - above[0]])).log[-1].text


def test_stoic_and_a_command_unit_in_sight_pass_morale() -> None:
    """L1544-L1546 (a Command unit in sight), L1996-L1997 (Stoic): an automatic pass."""
    g = edit(game(b=[("t1", sample("trooper", pilot=pilot("stoic")))]), "1/t1")
    assert api_odds(g, "morale", {"unit": "1/t1"})["facts"]["pass"] == 1
    plain = game()
    assert api_odds(plain, "morale", {"unit": "1/t1", "near_command": True})["facts"]["pass"] == 1
    assert api_odds(plain, "morale", {"unit": "1/t1"})["facts"]["pass"] == pytest.approx(26 / 36)  # 6+


@pytest.mark.parametrize(("face", "runs"), [(3, True), (4, False)])
def test_a_routed_unit_runs_on_three_or_less(face: int, runs: bool) -> None:
    """L1554-L1558: a Routed unit selected to act rolls a D6: 1-3 it runs, 4+ it acts."""
    g = edit(game(), "0/l1", conditions=["routed"])
    after = act(g, "rout", {"unit": "0/l1"}, TypedDice([face]))
    assert ("runs toward" in after.log[-1].text) is runs
    assert state(after, "0/l1").activated is runs


@pytest.mark.parametrize(("used", "refused"), [(2, False), (3, True)])
def test_bad_weather_removes_a_hit_three_times_a_game(used: int, refused: bool) -> None:
    """L3321-L3327: at most 3 times a game per player: the 3rd is allowed, a 4th refused."""
    g = act(game(b=NO_SHIELD), "setup", {"environment": "bad_weather"}, TypedDice([]))
    g = side_resource(g, 1, "weather", used)
    reply = api.call(
        "game.odds",
        {"game": g.model_dump(mode="json"), "action": "shoot", "input": {**HEAD_GUNS, "weather": True}},
    )
    assert reply["ok"] is not refused


@pytest.mark.parametrize(("field", "cap"), [("massed_fire", 2), ("heat_radiation", 3)])
def test_extra_dice_caps(field: str, cap: int) -> None:
    """Massed Fire: up to 2 more units (L2937-L2941); Heat Radiation: up to 3 dice (L2889-L2894)."""
    g = game(a=HOT, b=NO_SHIELD)
    ok = api.call(
        "game.odds",
        {"game": g.model_dump(mode="json"), "action": "shoot", "input": {**HEAD_GUNS, field: cap}},
    )
    over = api.call(
        "game.odds",
        {"game": g.model_dump(mode="json"), "action": "shoot", "input": {**HEAD_GUNS, field: cap + 1}},
    )
    assert ok["ok"] and not over["ok"]
    below = tables(api_odds(g, "shoot", {**HEAD_GUNS, field: cap - 1}))
    assert mean(below["damage"]) < mean(tables(ok["result"])["damage"])


@pytest.mark.parametrize(("kind", "points"), [("mobile_fighter", 3), ("mobile_suit", 2)])
def test_action_points_a_turn(kind: str, points: int) -> None:
    """L384-L387: two Fast actions or one Slow; a mobile fighter 3 (L1323-L1325): the last one allowed,
    one more refused."""
    unit = sample("lancer", kind=kind, weapons=[]) if kind == "mobile_fighter" else sample("lancer")
    g = game(a=[("l1", unit)])
    for _ in range(points):
        g = act(g, "idle", {"unit": "0/l1"}, TypedDice([]))
    assert state(g, "0/l1").activated
    with pytest.raises(ValueError, match="no Fast action left"):
        act(g, "idle", {"unit": "0/l1"}, TypedDice([]))


@pytest.mark.parametrize(
    ("attacker", "defender", "raw", "want"),
    [
        # Swift: Advantage without a roll (L1999-L2000); against a Swift defender it is lost
        ({"pilot": pilot("swift")}, {}, FIGHT, 1.0),
        ({}, {"pilot": pilot("swift")}, FIGHT, 0.0),
        # both Swift: rolled as usual (A43)
        ({"pilot": pilot("swift")}, {"pilot": pilot("swift")}, FIGHT, None),
        # Rash: Advantage when it charged (L1988-L1990), a roll when it did not
        ({"pilot": pilot("rash")}, {}, {**FIGHT, "charged": True}, 1.0),
        ({"pilot": pilot("rash")}, {}, FIGHT, None),
    ],
)
def test_advantage_won_outright(
    attacker: dict[str, Any], defender: dict[str, Any], raw: dict[str, Any], want: float | None
) -> None:
    """L1036-L1040 and the traits: who strikes first without a roll, through the app's odds."""
    g = game(a=[("l1", sample("lancer", **attacker))], b=[("t1", sample("trooper", **defender))])
    p = api_odds(g, "close_combat", raw)["facts"]["advantage"]
    if want is None:
        assert 0 < p < 1
    else:
        assert p == want


def test_a_weapon_not_drawn_loses_advantage() -> None:
    """L1036-L1040: a unit that did not enter close combat with its close combat weapon equipped loses
    the Advantage roll automatically; with both drawn it is rolled."""
    g = game()  # both carry a ranged weapon equipped: both lose, so it is rolled
    assert 0 < api_odds(g, "close_combat", FIGHT)["facts"]["advantage"] < 1
    drawn = act(g, "switch_weapon", {"unit": "0/l1", "weapon": "cc"}, TypedDice([]))
    assert api_odds(drawn, "close_combat", FIGHT)["facts"]["advantage"] == 1.0


@pytest.mark.parametrize(("grade", "dice", "success"), [("medium", 2, 5), ("heavy", 3, 4)])
def test_beam_defence_rolls_against_beam_shots_only(grade: str, dice: int, success: int) -> None:
    """L666-L674: an I-field or beam shield adds its own dice against a Beam weapon, not against others."""
    g = game(b=[("t1", sample("trooper", shield="none", beam_defence=grade))])
    shot, _, _ = build_shot(game(b=NO_SHIELD), ShootInput.model_validate(RIFLE))
    beam = replace(shot.groups[0], name="beam", dice=dice, success=success, beam=True)
    assert tables(api_odds(g, "shoot", RIFLE)) == shot_tables(replace(shot, groups=(beam, *shot.groups)))
    plain, _, _ = build_shot(game(b=NO_SHIELD), ShootInput.model_validate(HEAD_GUNS))
    assert tables(api_odds(g, "shoot", HEAD_GUNS)) == shot_tables(plain)


# --- who may act: the action economy's refusals, in words (L384-L387) ----------------------------------


@pytest.mark.parametrize(
    ("what", "message"),
    [
        ({"destroyed": True}, "out of the battle"),
        ({"conditions": ["withdrawn"]}, "out of the battle"),
        ({"conditions": ["reserve"]}, "waiting to Ambush"),  # L1267
        ({"conditions": ["dig_in"]}, "dug in"),  # L2851-L2854
    ],
)
def test_a_unit_that_cannot_act_is_refused(what: dict[str, Any], message: str) -> None:
    g = edit(game(), "0/l1", conditions=what.get("conditions", []))
    if what.get("destroyed"):
        g.sides[0].units[0].state.destroyed = True
    with pytest.raises(ValueError, match=message):
        act(g, "idle", {"unit": "0/l1"}, TypedDice([]))


def test_a_slow_action_after_a_fast_one_is_refused_by_name() -> None:
    """L384-L387: two Fast actions or one Slow: after a Fast one no Slow action is left."""
    g = act(game(), "idle", {"unit": "0/l1"}, TypedDice([]))
    with pytest.raises(ValueError, match="has no Slow action left"):
        act(g, "move", {"unit": "0/l1", "boost": True}, TypedDice([]))


def test_the_obsolete_die_is_a_d6() -> None:
    """L2958-L2962: an Obsolete unit rolls a D6 before each action; the app asks for a six-sided die."""
    from core.dice import NeedMoreDice

    g = game(a=[("l1", sample("lancer", abilities=[{"key": "obsolete"}]))])
    with pytest.raises(NeedMoreDice) as need:
        act(g, "shoot", HEAD_GUNS, TypedDice([]))
    assert need.value.sides == 6 and "Obsolete" in str(need.value)


@pytest.mark.parametrize(("torso", "destroys"), [(2, False), (3, True), (4, True)])
def test_a_mega_unit_is_destroyed_when_its_torso_reaches_zero(torso: int, destroys: bool) -> None:
    """L1317-L1318: the Torso at 0 destroys the unit; the odds: the rifle's 3 damage on a Torso of 6
    with 2 lost leaves 1 (no), with 3 lost exactly 0 (yes), with 4 lost below 0 (yes), the Torso
    picked on 3-5 of the location die (half the time)."""
    g = game(b=[("t1", _mega(3))])
    g = g.model_copy(update={"options": {**g.options, "mega_units": True}})
    g = edit(g, "1/t1", counters={"mega_torso": torso})
    result = api_odds(g, "shoot", SHOT_AT_MEGA)
    hit = tables(result)["damage"].get(3, Fraction(0))
    assert Fraction(result["facts"]["destroyed"]).limit_denominator(10**6) == (hit / 2 if destroys else 0)
