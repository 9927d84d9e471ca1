"""Mobile Suit Gundam: Skirmish: campaign rules played inside a campaign battle, through ``core.api``.

Rulebook 000_3e12d4cbd0c8f6da.txt: the voluntary withdrawal after 4 turns (L2139-L2140, digest A51),
the battle effects of the traits Fierce (L1964-L1966), Merciful (L1981-L1983), Responsive
(L1992-L1994) and Terrifying (L2002-L2003, with Stoic L1996-L1997), a Mobile Fighter's techniques as
the only attacks it may make (L1837-L1844) and the map tiles' terrain names (L1717-L1718).  Every
case goes through the seam as the app does (JSON in, JSON out) with typed dice.
"""

from __future__ import annotations

import json
import re
from typing import Any

from test_gundam_campaign import fighter_profile, setup

from core import api
from core.systems.gundam_skirmish.samples import SAMPLES


def call(op: str, **args: Any) -> Any:
    reply: Any = json.loads(api.handle(json.dumps({"op": op, "args": args})))
    return reply


def ok(op: str, **args: Any) -> Any:
    reply = call(op, **args)
    assert reply["ok"], reply
    return reply["result"]


def played(game: Any, action: str, raw: dict[str, Any], faces: list[int]) -> Any:
    """An action resolved to the end with these faces: the game after it and its logged event."""
    done = ok("game.act", game=game, action=action, input=raw, faces=faces)
    assert done["complete"], done
    return done


def refused(op: str, **args: Any) -> str:
    reply = call(op, **args)
    assert not reply["ok"], reply
    message: str = reply["error"]["message"]
    return message


def campaign(**options: str) -> Any:
    """Blue 1 (Amuro's Lancer, a Gun Tank) next to Red 1 (Char's Trooper, a Heavy Gunner), Blue's turn
    with its three actions; ``options`` are the campaign's readings."""
    c = ok("campaign.new", id="c1", system="gundam_skirmish", name="Down Under", setup=setup(), seed=1)[
        "campaign"
    ]
    changes = [{"path": ["options", k], "value": v} for k, v in options.items()]
    red = [t["key"] for t in c["state"]["teams"]].index("t10")
    changes += [
        {"path": ["state", "teams", red, "x"], "value": 2},
        {"path": ["state", "teams", red, "y"], "value": 1},
    ]
    c = ok("campaign.adjust", campaign=c, changes=changes)
    c = ok("campaign.act", campaign=c, action="begin_turn")["campaign"]
    for team in ("t1", "t4", "t6", "t8"):
        c = ok("campaign.act", campaign=c, action="event_die", input={"team": team}, faces=[3])["campaign"]
    return c


def battle(c: Any) -> Any:
    """Blue 1 starts a Battle; priority 5-2, the Feds first: the game as the app receives it."""
    g = ok("campaign.battle", campaign=c, input={"team": "t1"}, game_id="g1")["game"]
    return ok("game.act", game=g, action="priority", input={"places": [1]}, faces=[5, 2])["game"]


def ref(g: Any, side: int, n: int) -> str:
    return f"{side}/{g['sides'][side]['units'][n]['key']}"


def at_round(g: Any, n: int) -> Any:
    return ok("game.adjust", game=g, changes=[{"path": ["round"], "value": n}])


# --- voluntary withdrawal (L2139-L2140, A51) ----------------------------------------------------


def test_withdrawal_refused_before_4_turns_have_passed_offered_after_l2139_l2140() -> None:
    """A unit of a campaign battle may move back into its deployment zone and leave once 4 or more
    turns have passed: by the digest's reading (A51) from round 5; the option 'from_4' from round 4.
    Before, the action is greyed with the reason and refused if sent; in a battle outside a campaign it
    is never offered.  A unit that withdrew counts as withdrawn in the campaign's result."""
    g = battle(campaign())
    lancer = ref(g, 0, 0)
    for n in (1, 4):
        g = at_round(g, n)
        why = ok("game.views", game=g)["gated"][lancer]["withdraw"]
        assert why == (
            f"a team may withdraw once 4 turns have passed: from round 5, this is round {n} (L2139-L2140)"
        )
        assert refused("game.act", game=g, action="withdraw", input={"unit": lancer}) == why
    g = at_round(g, 5)
    assert "withdraw" not in ok("game.views", game=g)["gated"].get(lancer, {})
    done = ok("game.act", game=g, action="withdraw", input={"unit": lancer})
    unit = done["game"]["sides"][0]["units"][0]["state"]
    assert "withdrawn" in unit["conditions"] and unit["counters"]["actions"] == 1  # the Move back (Fast)
    assert done["event"]["text"].endswith("withdraws from the battle")
    again = refused("game.act", game=done["game"], action="withdraw", input={"unit": lancer})
    assert "out of the battle" in again
    # the named option: from round 4
    early = at_round(battle(campaign(withdrawal="from_4")), 4)
    assert ok("game.act", game=early, action="withdraw", input={"unit": ref(early, 0, 0)})["complete"]
    # outside a campaign the rule does not exist
    plain = at_round({**g, "state": {**g["state"], "extra": {}}}, 9)
    why = ok("game.views", game=plain)["gated"][lancer]["withdraw"]
    assert why.startswith("only in a campaign battle")


# --- traits in battle (L1956-L2003) -------------------------------------------------------------


def unit(key: str, *traits: str, **more: Any) -> dict[str, Any]:
    """A sample unit; with traits, flown by a character of the rank that allows them (L1821-L1826)."""
    data = {**SAMPLES[key].model_dump(mode="json"), **more}
    if traits:
        data["pilot"] = [{"name": f"Ace {key}", "rank": 2 * len(traits), "traits": list(traits)}]
    return data


def duel(feds: list[dict[str, Any]], zeon: list[dict[str, Any]]) -> Any:
    """A plain battle (not a campaign's): Feds then Zeon, the Feds' turn begun (priority 5-2)."""
    sides = [
        {"name": name, "squad": {"id": sid, "name": name, "system": "gundam_skirmish", "units": units}}
        for sid, name, units in (
            ("a", "Feds", [{"key": f"f{n}", "profile": p} for n, p in enumerate(feds)]),
            ("b", "Zeon", [{"key": f"z{n}", "profile": p} for n, p in enumerate(zeon)]),
        )
    ]
    g = ok("game.new", id="g", name="Duel", sides=sides)
    return ok("game.act", game=g, action="priority", input={"places": [1]}, faces=[5, 2])["game"]


def damaged(g: Any, side: int, n: int, damage: int) -> Any:
    return ok(
        "game.adjust",
        game=g,
        changes=[{"path": ["sides", side, "units", n, "state", "damage"], "value": damage}],
    )


def gate(g: Any, action: str, raw: dict[str, Any], field: str) -> str:
    reason: str = ok("game.gates", game=g, action=action, input=raw)["fields"].get(field, "")
    return reason


#: A Beam rifle shot (1 die 3+, crit 5+, 3 DAM, <P>) at a Trooper that hits without a critical: the
#: attack die 4, then 1s for its one Armour die (2 less one: <P> takes its cover, L1342-L1344) and its
#: shield's <P> check (L660-L663), which block nothing; ``HIT_LANCER`` at a Lancer (2 Armour dice).
#: The target keeps its shield (no Shield Break).
HIT = [4, 1, 1]
HIT_LANCER = [4, 1, 1, 1]
KEEP = {"shield_break": "no"}


def test_fierce_earns_one_free_shoot_with_the_same_weapon_after_a_kill_l1964_l1966() -> None:
    """Offered only to a unit whose pilot is Fierce, only after it destroyed an enemy unit with a Shoot,
    with that weapon, that turn; it spends no action.  A pilot without the trait is never offered it."""
    g = duel([unit("lancer", "fierce"), unit("lancer")], [unit("trooper"), unit("trooper")])
    fierce, plain, trooper, other = "0/f0", "0/f1", "1/z0", "1/z1"
    assert gate(g, "shoot", {"attacker": plain, "target": other}, "free") == (
        "Lancer 2 has no free Shoot: only Fierce, Responsive, Blitzkrieg or Fire Support give one"
    )
    before = gate(g, "shoot", {"attacker": fierce, "target": other}, "free")
    assert before.startswith("Lancer 1 has no free Shoot due: Fierce and Blitzkrieg earn one by destroying")
    assert (
        refused("game.act", game=g, action="shoot", input={"attacker": fierce, "target": other, "free": True})
        == before
    )
    g = damaged(g, 1, 0, 3)  # 3 Integrity left: the Beam rifle's 3 DAM destroys
    shot = played(
        g,
        "shoot",
        {"attacker": fierce, "target": trooper, "weapon": "Beam rifle", **KEEP},
        [4, 1, 1, 6],  # the hit, then the Destruction Table
    )
    g = shot["game"]
    assert g["sides"][1]["units"][0]["state"]["destroyed"]
    assert shot["event"]["text"].endswith("Fierce: one free Shoot with Beam rifle")
    assert shot["event"]["detail"]["offers"] == [  # the game screen offers it on the result
        {
            "action": "shoot",
            "input": {"attacker": fierce, "weapon": "Beam rifle", "free": True},
            "label": "Free Shoot with Beam rifle (Fierce)",
        }
    ]
    assert gate(g, "shoot", {"attacker": fierce, "target": other}, "free") == ""
    wrong = {"attacker": fierce, "target": other, "free": True, "weapon": "Head guns"}
    assert refused("game.act", game=g, action="shoot", input=wrong) == (
        "Lancer 1's free Shoot is with Beam rifle, the weapon that earned it (L1964-L1966)"
    )
    free = played(
        g,
        "shoot",
        {"attacker": fierce, "target": other, "free": True, **KEEP},
        faces=HIT,
    )
    g = free["game"]
    assert "shoots Trooper 2 with Beam rifle" in free["event"]["text"]
    assert g["sides"][0]["units"][0]["state"]["counters"]["actions"] == 1  # the free one spent nothing
    assert g["sides"][1]["units"][1]["state"]["damage"] == 3
    # one free Shoot per kill: it is spent
    assert gate(g, "shoot", {"attacker": fierce, "target": other}, "free").startswith(
        "Lancer 1 has no free Shoot due"
    )


def test_fire_support_second_shoot_is_free_at_another_target_l2868_l2873() -> None:
    """Fire Support (L2868-L2873): after a Shoot with its X weapon, a second Shoot with it, free, at
    another target; offered on the result."""
    support = unit("lancer", abilities=[{"key": "fire_support", "x": "Beam rifle"}])
    g = duel([support], [unit("trooper"), unit("trooper")])
    first = played(g, "shoot", {"attacker": "0/f0", "target": "1/z0", "weapon": "Beam rifle", **KEEP}, HIT)
    assert first["event"]["text"].endswith("Fire Support: one free Shoot with Beam rifle")
    assert [o["label"] for o in first["event"]["detail"]["offers"]] == [
        "Free Shoot with Beam rifle (Fire Support)"
    ]
    g = first["game"]
    same = {"attacker": "0/f0", "target": "1/z0", "free": True, **KEEP}
    assert refused("game.act", game=g, action="shoot", input=same) == (
        "Fire Support's second Shoot is at another target (L2871-L2873)"
    )
    second = played(g, "shoot", {**same, "target": "1/z1"}, HIT)
    assert "offers" not in second["event"]["detail"]  # the free one earns no third
    assert second["game"]["sides"][0]["units"][0]["state"]["counters"]["actions"] == 1


def test_responsive_shoots_free_once_in_each_enemy_turn_l1992_l1994() -> None:
    """A Responsive pilot shoots in the enemy's turn, free, once that turn; another unit cannot."""
    g = duel([unit("lancer")], [unit("lancer", "responsive", factions=["ZEON"]), unit("trooper")])
    shot = {"attacker": "1/z0", "target": "0/f0", "free": True, **KEEP}
    assert gate(g, "shoot", {"attacker": "1/z1", "target": "0/f0"}, "free").startswith(
        "Trooper has no free Shoot"
    )
    allies = ok("game.adjust", game=g, changes=[{"path": ["state", "extra", "teams"], "value": [1, 1]}])
    assert gate(allies, "shoot", {"attacker": "1/z0", "target": "0/f0"}, "free") == (
        "Lancer shoots free only in an opposing player's turn, not its team's (L1992-L1994)"
    )
    own_turn = ok("game.act", game=g, action="next_turn", input={})["game"]
    assert gate(own_turn, "shoot", {"attacker": "1/z0", "target": "0/f0"}, "free") == (
        "Lancer's Responsive shot is taken in an enemy's turn (L1992-L1994)"
    )
    not_free = refused("game.act", game=g, action="shoot", input={**shot, "free": False})
    assert not_free.startswith("it is Feds's turn")
    g = played(g, "shoot", shot, HIT_LANCER)["game"]
    assert g["sides"][0]["units"][0]["state"]["damage"] == 3
    assert refused("game.act", game=g, action="shoot", input=shot) == (
        "Lancer has taken its Responsive shot in this turn already (L1992-L1994)"
    )


def test_merciful_spares_the_target_and_restores_2_integrity_once_a_battle_l1981_l1983() -> None:
    g = duel([unit("lancer", "merciful"), unit("lancer")], [unit("trooper")])
    assert (
        gate(g, "shoot", {"attacker": "0/f1", "target": "1/z0"}, "merciful")
        == "Lancer 2's pilot is not Merciful"
    )
    g = damaged(g, 0, 0, 3)
    spare = {"attacker": "0/f0", "target": "1/z0", "weapon": "Beam rifle", "merciful": True, **KEEP}
    odds = ok("game.odds", game=g, action="shoot", input=spare)
    assert "Merciful: whatever damage it would deal, Lancer 1 regains 2 Integrity instead" in odds["summary"]
    done = played(g, "shoot", spare, HIT)
    g = done["game"]
    assert g["sides"][1]["units"][0]["state"]["damage"] == 0  # the 3 damage is not dealt
    assert g["sides"][0]["units"][0]["state"]["damage"] == 1  # 3 lost, 2 regained
    assert "Merciful: Trooper is spared" in done["event"]["text"]
    assert gate(g, "shoot", {"attacker": "0/f0", "target": "1/z0"}, "merciful") == (
        "Lancer 1 has used Merciful once this battle already (L1981-L1983)"
    )
    # a shot that deals nothing does not spend it
    g = duel([unit("lancer", "merciful")], [unit("trooper")])
    miss = played(g, "shoot", spare, [1, 1, 1])["game"]  # the attack die misses
    assert gate(miss, "shoot", {"attacker": "0/f0", "target": "1/z0"}, "merciful") == ""


def test_merciful_in_close_combat_deals_nothing_and_restores_2_integrity_l1981_l1983() -> None:
    """The same in close combat: the Merciful attacker's strike deals nothing (and so counts as no damage
    when the fall-back is decided), 2 Integrity come back; the defender's strike is dealt as usual."""
    g = damaged(duel([unit("lancer", "merciful")], [unit("trooper")]), 0, 0, 3)
    fight = {"attacker": "0/f0", "defender": "1/z0", "merciful": True, **KEEP, "defender_shield_break": "no"}
    odds = ok("game.odds", game=g, action="close_combat", input=fight)
    assert "Merciful: whatever Lancer's strike would deal, it regains 2 Integrity instead" in odds["summary"]
    for seed in range(1, 40):  # the first seed whose Lancer strike hits
        done = ok("game.act", game=g, action="close_combat", input=fight, seed=seed)
        if "Merciful" in done["event"]["text"]:
            break
    text = done["event"]["text"]
    assert "Merciful: Trooper is spared, Lancer regains 2 Integrity (L1981-L1983)" in text
    after = done["game"]["sides"]
    assert after[1]["units"][0]["state"]["damage"] == 0
    struck = re.search(r"Trooper strikes: (\d+) damage", text)
    back = int(struck.group(1)) if struck and "Trooper is destroyed" not in text else 0
    assert after[0]["units"][0]["state"]["damage"] == 3 - 2 + back
    assert gate(done["game"], "close_combat", {"attacker": "0/f0", "defender": "1/z0"}, "merciful") == (
        "Lancer has used Merciful once this battle already (L1981-L1983)"
    )


def test_terrifying_forces_one_morale_check_per_enemy_unless_stoic_or_terrifying_l2002_l2003() -> None:
    """Offered on the card of a unit whose pilot is Terrifying (greyed with the reason on any other):
    the enemy it has in sight for the first time checks morale, 2D6 against 12 - Integrity (L1570): at
    6 Integrity 26/36 pass; a fail makes it Wavering.  Once per Terrifying unit and enemy; a Stoic
    (L1996-L1997) or Terrifying enemy never checks."""
    g = duel(
        [unit("lancer"), unit("lancer", "stoic"), unit("lancer", "terrifying")],
        [unit("trooper", "terrifying"), unit("trooper")],
    )
    check = {"unit": "1/z0", "target": "0/f0"}
    odds = ok("game.odds", game=g, action="terror", input=check)
    assert odds["facts"]["pass"] == 26 / 36
    failed = played(g, "terror", check, [2, 3])
    assert "wavering" in failed["game"]["sides"][0]["units"][0]["state"]["conditions"]
    assert failed["event"]["text"] == (
        "Trooper 1 is Terrifying (L2002-L2003): Lancer 1 checks morale: 2+3=5 against 6: fail; now Wavering"
    )
    assert refused("game.act", game=failed["game"], action="terror", input=check) == (
        "Lancer 1 has checked for Trooper 1 once this battle already (L2002-L2003)"
    )
    for target, why in (
        ("0/f1", "Lancer 2's pilot is Stoic: Terrifying enemies do not shake it (L1996-L1997)"),
        ("0/f2", "Lancer 3's pilot is Terrifying itself (L2002-L2003)"),
    ):
        assert refused("game.act", game=g, action="terror", input={**check, "target": target}, seed=1) == why
    gated = ok("game.views", game=g)["gated"]
    assert gated["1/z1"]["terror"] == "Trooper 2's pilot is not Terrifying"
    assert "terror" not in gated.get("1/z0", {}) and "terror" not in gated.get("0/f2", {})
    assert refused("game.act", game=g, action="terror", input={"unit": "1/z1", "target": "0/f0"}, seed=1) == (
        "Trooper 2's pilot is not Terrifying"
    )


# --- a Mobile Fighter's techniques (L1834-L1844) --------------------------------------------------


def test_a_mobile_fighters_techniques_are_the_only_attacks_it_makes_l1837_l1844() -> None:
    """A Mobile Fighter's techniques are the close combat weapons its sheet lists (they take the place of
    weapons, L1837-L1840); its character chooses them by rank (L1841-L1844) and strikes in battle only
    with those: one learnt, it is used; several, the player is asked; one not learnt is refused."""
    c = campaign()
    blue = [t["key"] for t in c["state"]["teams"]].index("t1")
    unit0 = ["state", "teams", blue, "units", 0]
    c = ok(
        "campaign.adjust",
        campaign=c,
        changes=[
            {"path": [*unit0, "profile"], "value": {**fighter_profile(), "pilot": []}},
            {"path": [*unit0, "pilot", "rank"], "value": 2},  # two techniques and one ability (L1842)
        ],
    )
    learn = {"team": "t1", "unit": c["state"]["teams"][blue]["units"][0]["key"]}
    step = next(s for s in ok("campaign.view", campaign=c)["steps"] if s["action"] == "fighter_reward")
    offered = next(ch for ch in step["choices"] if ch["field"] == "technique")
    assert [o["value"] for o in offered["options"]] == ["", "Palm Strike", "Kick", "Whirlwind"]
    assert refused(
        "campaign.act", campaign=c, action="fighter_reward", input={**learn, "technique": "Laser"}
    ) == ("a technique is one of Fighter's attacks (Palm Strike, Kick, Whirlwind; L1837-L1840)")
    c = ok("campaign.act", campaign=c, action="fighter_reward", input={**learn, "technique": "Kick"})[
        "campaign"
    ]
    g = battle(c)
    fighter, trooper = ref(g, 0, 0), ref(g, 1, 0)
    strike = {"attacker": fighter, "defender": trooper}
    why = refused(
        "game.act", game=g, action="close_combat", input={**strike, "technique": "Palm Strike"}, seed=1
    )
    assert why == (
        "Fighter's pilot has not learnt Palm Strike: a Mobile Fighter attacks only with the techniques its "
        "character chose (Kick; L1837-L1844)"
    )
    assert refused(
        "game.odds", game=g, action="close_combat", input={**strike, "technique": "Whirlwind"}
    ) == (why.replace("Palm Strike", "Whirlwind"))
    one = ok("game.act", game=g, action="close_combat", input=strike, seed=1)
    assert one["complete"] or one["ask"]["field"] != "technique"  # the one learnt is used, nothing asked
    # a second technique learnt: the player says which one strikes
    c = ok("campaign.act", campaign=c, action="fighter_reward", input={**learn, "technique": "Whirlwind"})[
        "campaign"
    ]
    g = battle(c)
    asked = ok("game.act", game=g, action="close_combat", input=strike, seed=1)["ask"]
    assert asked["field"] == "technique" and [o["value"] for o in asked["options"]] == ["Kick", "Whirlwind"]
    assert ok("game.act", game=g, action="close_combat", input={**strike, "technique": "Whirlwind"}, seed=1)
    # at rank 10 every technique is the fighter's (L1843-L1844)
    top = ok("campaign.adjust", campaign=c, changes=[{"path": [*unit0, "pilot", "rank"], "value": 10}])
    g = battle(top)
    asked = ok("game.act", game=g, action="close_combat", input=strike, seed=1)["ask"]
    assert [o["value"] for o in asked["options"]] == ["Palm Strike", "Kick", "Whirlwind"]


# --- terrain names on the map (L1717-L1718) -------------------------------------------------------


def test_tiles_terrain_names_are_shown_on_the_map_and_edited_by_hand_l1717_l1718() -> None:
    """Each tile has its own geography (L1717-L1718); the book's map images are missing, so the players
    name a tile's terrain in the map editor (a written name, then the tile tapped): the map's cell and
    the sheets of what stands there show it; it is undone like any step; an empty name clears it."""
    c = campaign()
    step = next(s for s in ok("campaign.view", campaign=c)["steps"] if s["action"] == "name_tile")
    assert (step["pick"], step["minor"], step["enabled"]) == ("tile", True, True)
    assert [(ch["field"], ch["options"]) for ch in step["choices"]] == [("terrain", [])]  # written
    blue = next(t for t in c["state"]["teams"] if t["key"] == "t1")
    x, y = blue["x"], blue["y"]
    named = ok(
        "campaign.act", campaign=c, action="name_tile", input={"terrain": "  Red  desert ", "x": x, "y": y}
    )
    view = ok("campaign.view", campaign=named["campaign"])
    cell = next(cell for cell in view["cells"] if (cell["x"], cell["y"]) == (x, y))
    assert cell["terrain"] == "Red desert"
    assert sum(bool(cell["terrain"]) for cell in view["cells"]) == 1
    sheet = next(s for s in view["sheets"] if s["key"] == "t1")
    tile = next(line["value"] for line in sheet["lines"] if line["label"] == "Tile")
    assert tile == f"x {x}, y {y}, Red desert"
    assert named["campaign"]["log"][-1]["text"] == f"Tile x {x}, y {y} named Red desert by hand"
    back = ok("campaign.undo", campaign=named["campaign"])
    assert all(not cell["terrain"] for cell in ok("campaign.view", campaign=back)["cells"])
    cleared = ok(
        "campaign.act", campaign=named["campaign"], action="name_tile", input={"terrain": "", "x": x, "y": y}
    )
    assert cleared["campaign"]["state"]["terrain"] == {}
    assert refused("campaign.act", campaign=c, action="name_tile", input={"terrain": "", "x": x, "y": y}) == (
        f"tile x {x}, y {y} has no terrain name to clear: write one"
    )


def test_leader_gives_two_command_points_and_ambusher_arrives_without_a_roll_l1960_l1975() -> None:
    """Leader (L1975-L1976): a Command unit whose pilot leads gives 2 Command Points at the start of its
    player's turn instead of 1 (L1283-L1288).  Ambusher (L1960): the Ambush succeeds with no die
    (L1258-L1264 otherwise: a D6, 1 fails)."""
    others = [unit("lancer"), unit("lancer"), unit("lancer")]
    for traits, cp in (((), 1), (("leader",), 2)):
        g = duel([unit("captain", *traits), *others], [unit("trooper")])
        assert g["sides"][0]["resources"]["cp"] == cp
    for traits, needs in (((), {"count": 1, "sides": 6, "purpose": "Ambush"}), (("ambusher",), None)):
        g = duel([unit("lancer", *traits, ambush=True)], [unit("trooper")])
        done = ok("game.act", game=g, action="ambush", input={"unit": "0/f0"}, faces=[])
        assert done["need"] == needs
        if needs is None:
            assert done["event"]["text"] == "Lancer arrives exactly where chosen, no roll (L1960, L2917)"
            assert "reserve" not in done["game"]["sides"][0]["units"][0]["state"]["conditions"]


# --- the mods a campaign pilot earns that change a battle (L2010-L2034) --------------------------------


def _with_mod(key: str, mod: str | None, **changes: Any) -> dict[str, Any]:
    from test_gundam_effects import pilot, sample

    return sample(key, pilot=pilot(mods=[mod]), **changes) if mod else sample(key, **changes)


def test_reactive_armour_takes_one_less_damage_from_explosive_shots_only_l2028_l2030() -> None:
    from test_gundam_effects import api_odds, tables
    from test_gundam_skirmish import game

    from core.dice import TypedDice
    from core.game import act

    def zeon_turn(mod: str | None) -> Any:
        g = act(game(a=[("l1", _with_mod("lancer", mod))]), "next_turn", {}, TypedDice([]))
        return act(g, "switch_weapon", {"unit": "1/t1", "weapon": "Bazooka"}, TypedDice([]))

    bazooka = {"attacker": "1/t1", "target": "0/l1", "weapon": "Bazooka", "shield_break": "no"}
    plain = tables(api_odds(zeon_turn(None), "shoot", bazooka))["damage"]
    armoured = tables(api_odds(zeon_turn("reactive_armour"), "shoot", bazooka))["damage"]
    assert armoured == {(d - 1 if d else 0): p for d, p in plain.items()}  # every hit 1 less: 4 -> 3
    gun = {**bazooka, "weapon": "Machine gun"}  # low calibre: no change
    g_plain = act(game(a=[("l1", _with_mod("lancer", None))]), "next_turn", {}, TypedDice([]))
    g_armour = act(game(a=[("l1", _with_mod("lancer", "reactive_armour"))]), "next_turn", {}, TypedDice([]))
    assert tables(api_odds(g_armour, "shoot", gun)) == tables(api_odds(g_plain, "shoot", gun))


def test_magnetic_coating_thrusters_and_endoskeleton_change_movement_and_integrity_l2024_l2034() -> None:
    from test_gundam_skirmish import game

    from core.systems.gundam_skirmish.movement import MoveInput, move_limit
    from core.systems.gundam_skirmish.units import Unit, integrity_of

    def limit(mod: str | None, **move: Any) -> float:
        g = game(a=[("l1", _with_mod("lancer", mod))])
        s, _, gu = g.unit("0/l1")
        return float(move_limit(g, s, gu, MoveInput(unit="0/l1", **move))[0])

    # Magnetic Coating: no Rotation Penalty (L2024); a plain Lancer loses 2" turning up to 90 degrees
    # out of its sight (L465-L474)
    assert (limit(None), limit(None, turn="up_to_90")) == (4, 2)
    assert limit("magnetic_coating", turn="up_to_90") == 4
    # Optimised Thrusters: base Movement +2", Boost +4" (L2026-L2027)
    assert (limit("optimised_thrusters"), limit("optimised_thrusters", boost=True)) == (6, 13)
    assert limit(None, boost=True) == 9
    # Reinforced Endoskeleton: base Integrity +2 (L2033-L2034)
    plain, tough = (
        integrity_of(Unit.model_validate(_with_mod("lancer", m))) for m in (None, "reinforced_endoskeleton")
    )
    assert (plain, tough) == (6, 8)


def test_amphibious_lets_a_ground_vehicle_boost_into_deep_water_l2010_l2012() -> None:
    """Deep Water is Sheer terrain, closed to vehicles (L545-L550); an Amphibious one may enter it. Its
    freedom from water's penalties and its Ambush from water are the players' (they say the terrain)."""
    from test_gundam_skirmish import game

    from core.systems.gundam_skirmish.movement import MoveInput, move_limit

    for mod, allowed in ((None, False), ("amphibious", True)):
        g = game(a=[("g1", _with_mod("gun_tank", mod, boost=6))])  # a vehicle that can Boost
        s, _, gu = g.unit("0/g1")
        inp = MoveInput(unit="0/g1", boost=True, terrain="sheer")
        if allowed:
            assert move_limit(g, s, gu, inp)[0] > 0
        else:
            try:
                move_limit(g, s, gu, inp)
            except ValueError as refused:
                assert "vehicles cannot enter sheer terrain" in str(refused)
            else:
                raise AssertionError("a vehicle without Amphibious entered sheer terrain")
