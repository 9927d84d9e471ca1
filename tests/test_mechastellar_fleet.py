"""MechaStellar's Stellar Warships (L944-L1086): their own actions, weapons readied and reloading, weapon
systems lost to failed saves, M-Particles, captains' traits and Orders.  Each through core.api (game.act,
game.odds, game.gates): offered only to a unit that has it, refused otherwise, its direction and size
checked, and the chapter's worked examples (L877, L986-L989, L1011) with the book's numbers.  Pure Python.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from test_mechastellar import game_of, hp, momentum, round_over, unit
from test_mechastellar_commands import clash_with_fours
from test_mechastellar_traits import act, ask, call, mean, odds, pilot, refused

from core.game import Game, gated_actions, gates, next_round
from core.systems import implementation
from core.systems.mechastellar.fleet import hangar_slots
from core.systems.mechastellar.turns import mech_phase
from core.systems.mechastellar.units import Unit

MPC = {"name": "Mega Particle Cannon", "range": 48, "shots": 2, "damage": 1000, "pen": 6, "energy": True}
AA = {"name": "Anti-air guns", "range": 16, "shots": 4, "damage": 200, "pen": 0, "aa": True}
MISSILES = {"name": "Missile Barrage", "range": 40, "shots": 4, "damage": 500, "pen": 4, "missile": True}


def cruiser(**changes: Any) -> dict[str, Any]:
    """The Saronic Cruiser of L986: two actions, two Mega Particle Cannons, [AA] guns."""
    base = {"name": "Saronic Cruiser", "move": 12, "weapons": [MPC, {**MPC, "name": "Second cannon"}, AA]}
    return unit("musarl", **{**base, **changes})


def to_ships(g: Game) -> Game:
    """End every turn of a unit that is not a warship: the warship phase begins (L951)."""
    while mech_phase(g):
        side = g.state.active_side
        assert side is not None
        waiting = next(
            u for u in g.sides[side].units if not u.state.activated and u.profile["kind"] != "warship"
        )
        g = act(g, "end_turn", {"unit": f"{side}/{waiting.key}"})
    return g


def new_round(g: Game) -> Game:
    return act(next_round(g), "roll_off", {}, [9, 2])


def test_saronic_cruiser_readies_locks_and_fires_l986_l989() -> None:
    """Round 1: its two actions ready its two cannons.  Next round: a Target Lock on a mobile suit, then All
    Weapons Fire! fires both readied cannons, one at a ship and one at the mobile suit, with no more
    action.  Later: one action fires, the other goes All Ahead Full! (+3", L964)."""
    g = game_of([cruiser()], [unit("musarl"), unit("dervish")], momentum=(3, 3))
    g = to_ships(g)
    assert g.state.active_side == 0
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    assert "declare All Weapons Fire! first" in refused(g, "shoot", shot, [9, 9])
    picks = call(
        "game.picks", {"game": g.model_dump(mode="json"), "action": "ready_weapons", "actor": "0/a0"}
    )
    assert [p["unavailable"] for p in picks["fields"]["weapon"]] == [
        "",
        "",
        "readied already",
    ]  # [AA] from the start
    g = act(g, "ready_weapons", {"unit": "0/a0", "weapon": 0})
    g = act(g, "ready_weapons", {"unit": "0/a0", "weapon": 1})
    assert "used its 2 actions" in refused(g, "target_lock", {"unit": "0/a0"})
    g = act(g, "end_turn", {"unit": "0/a0"})
    g = act(g, "end_turn", {"unit": "1/b0"})
    g = to_ships(new_round(g))
    assert g.unit("0/a0")[2].state.extra["readied"] == [0, 1, 2]  # they stay readied (L969)
    g = act(g, "target_lock", {"unit": "0/a0"})
    assert 'Range +16"' in g.log[-1].text
    g = act(g, "volley", {"unit": "0/a0"})
    assert "once a turn" in refused(g, "volley", {"unit": "0/a0"})
    g = act(g, "shoot", shot, [9, 9])
    g = act(g, "shoot", {**shot, "weapon": 1, "target": "1/b1"}, [9, 9])  # locked on: no Sensors asked
    assert "fired this turn" in refused(g, "shoot", shot, [9, 9])
    assert g.unit("0/a0")[2].state.counters["actions"] == 2  # the shots spent no action
    g = act(g, "end_turn", {"unit": "0/a0"})
    g = act(g, "end_turn", {"unit": "1/b0"})
    g = to_ships(new_round(g))
    assert "target_lock" not in g.unit("0/a0")[2].state.conditions  # until the round ends (L975)
    g = act(g, "volley", {"unit": "0/a0"})
    g = act(g, "shoot", shot, [9, 9])
    g = act(g, "throttle", {"unit": "0/a0"})
    assert 'All Ahead Full! Move +3"' in g.log[-1].text


def test_warship_actions_are_a_warships_only_l946() -> None:
    """Ready Weapons and the others are offered to warships only, greyed with the reason otherwise; Focus and
    Make it Count! are not a warship's (L946, L1019)."""
    g = game_of([unit("argonaut", pilot={"tier": "ace"}), cruiser(pilot={"tier": "ace"})], [unit("dervish")])
    gated = gated_actions(g)
    assert gated["0/a0"]["ready_weapons"] == "Sample: Argonaut is not a Stellar Warship"
    assert "not a Stellar Warship" in refused(g, "volley", {"unit": "0/a0"})
    assert "ready_weapons" not in gated.get("0/a1", {})
    g = to_ships(g)
    assert "its own actions" in gated_actions(g)["0/a1"]["focus"]
    assert "its own actions" in refused(g, "focus", {"unit": "0/a1"})
    assert "Orders instead of using skills" in refused(g, "bonus_action", {"unit": "0/a1"})


def test_aa_weapons_and_sensors_are_asked_l976_l982() -> None:
    """An [AA] weapon fires only at a target within 8" of an ally; without a Target Lock a warship shoots a
    unit that is not a warship only within its Sensors: both asked, never assumed."""
    g = to_ships(game_of([cruiser()], [unit("dervish")], momentum=(0, 0)))
    g = act(g, "volley", {"unit": "0/a0"})
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 2}
    asked = ask(g, "shoot", shot, [9] * 4)
    assert asked["field"] == "near_ally" and '8"' in asked["prompt"]
    asked = ask(g, "shoot", {**shot, "near_ally": True}, [9] * 4)
    assert asked["field"] == "in_sensors" and '(32")' in asked["prompt"]
    g = act(g, "shoot", {**shot, "near_ally": True, "in_sensors": True}, [2, 2, 9, 9])
    assert g.log[-1].detail["hits"] == 2


def test_musarl_loses_two_cannons_to_two_failed_saves_l1011() -> None:
    """Hit three times by a Beam Rifle (PEN 6), the Musarl (Sv 0) fails on 1-5: [2, 4, 8] fails two, and
    the attacker destroys two weapon systems: its Twin Linked Mega Particle Cannons.  They cannot be
    readied or fired again."""
    twin = {**MPC, "name": "Twin Linked Mega Particle Cannon"}
    ship = unit("musarl", weapons=[twin, {**twin, "name": "Twin Linked Mega Particle Cannon 2"}, AA])
    g = game_of([unit("dervish", accuracy=15)], [ship], momentum=(0, 0))
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    faces = [2, 2, 2, 2, 4, 8]
    asked = ask(g, "shoot", shot, faces)
    assert asked["field"] == "wrecked" and asked["many"]
    assert "fails 2 Armor Saves" in asked["prompt"] and "destroys 2" in asked["prompt"]
    assert "pick 2" in refused(g, "shoot", {**shot, "wrecked": [0]}, faces)
    g = act(g, "shoot", {**shot, "wrecked": [0, 1]}, faces)
    out = g.log[-1].detail
    assert out["saves"] == [2, 4, 8] and out["failed"] == 2
    assert out["damage"] == 3 * 500 + 2 * 1000
    assert (
        "destroys its Twin Linked Mega Particle Cannon, Twin Linked Mega Particle Cannon 2" in g.log[-1].text
    )
    g = to_ships(act(g, "end_turn", {"unit": "0/a0"}))
    picks = call("game.picks", {"game": g.model_dump(mode="json"), "action": "shoot", "actor": "1/b0"})
    assert [p["unavailable"] for p in picks["fields"]["weapon"]][:2] == [
        "destroyed by a failed Armor Save (L1009)"
    ] * 2
    assert "was destroyed" in refused(g, "ready_weapons", {"unit": "1/b0", "weapon": 0})


def test_m_particles_musarl_at_a_distant_cruiser_l877() -> None:
    """Beyond Sensors + 10": the cruiser rolls [2, 4], rolls them again to [1, 9]: the 1 is a hit, not a
    critical; it fails its save and loses 1000 HP (the failed save's 1000 in place of the cannon's damage:
    the reading save_replaces_damage; by default both), and no Battle Damage follows."""
    g = to_ships(game_of([cruiser()], [cruiser(name="Distant Cruiser")], momentum=(0, 0)))
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 0, "far": True}
    assert (
        gates(g, "shoot", {**shot, "far": False}).fields["far"] == "no M-Particles are spread in this battle"
    )
    g.options.update(m_particles=True, battle_damage=True)
    assert "far" not in gates(g, "shoot", shot).fields
    g = act(g, "ready_weapons", {"unit": "0/a0", "weapon": 0})
    g = act(g, "volley", {"unit": "0/a0"})
    faces = [2, 4, 1, 9, 3]
    out = act(g, "shoot", {**shot, "wrecked": [0]}, faces)
    assert out.log[-1].detail["evade"] == [1, 9] and out.log[-1].detail["hits"] == 1
    assert out.log[-1].detail["damage"] == 1000 + 1000
    assert "no Battle Damage" in out.log[-1].text and "rolls Battle Damage" not in out.log[-1].text
    g.options["save_replaces_damage"] = True
    assert act(g, "shoot", {**shot, "wrecked": [0]}, faces).log[-1].detail["damage"] == 1000
    # the odds: a die lets a hit through on 1-7 (ACC 8, Evade 0), a 1 no longer two, and rolled again
    near = mean(odds(g, "shoot", {**shot, "far": False}), "hits")
    far = mean(odds(g, "shoot", shot), "hits")
    assert near == 2 * Fraction(8, 10) and far == 2 * Fraction(7, 10) ** 2


def test_missiles_reload_and_reload_action_l968_l970_l993() -> None:
    """Missiles start readied; a Missile Barrage (reload 1) cannot fire the round after it fired, unless
    Reload! readies it for this turn; a stun hit un-readies a warship's weapons (L971), or with the reading
    stun_unreadies_one one a hit."""
    ship = cruiser(weapons=[{**MISSILES, "reload": 1}, MPC])
    g = to_ships(game_of([ship], [unit("musarl")], momentum=(0, 0)))
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    g = act(g, "volley", {"unit": "0/a0"})
    g = act(g, "shoot", shot, [9] * 4)
    g = act(g, "end_turn", {"unit": "0/a0"})
    g = act(g, "end_turn", {"unit": "1/b0"})
    g = to_ships(new_round(g))
    g = act(g, "volley", {"unit": "0/a0"})
    assert "reloading until round 3" in refused(g, "shoot", shot, [9] * 4)
    picks = call("game.picks", {"game": g.model_dump(mode="json"), "action": "reload", "actor": "0/a0"})
    assert [p["unavailable"] for p in picks["fields"]["weapon"]] == ["", "not reloading"]
    g = act(g, "reload", {"unit": "0/a0", "weapon": 0})
    g = act(g, "shoot", shot, [9] * 4)
    assert "Missile Barrage" in g.log[-1].text
    # a stun hit: no weapon stays readied
    arc = {"name": "Arc whip", "range": 16, "shots": 1, "damage": 200, "pen": 0, "stun": True}
    h = game_of([unit("dervish", accuracy=15, weapons=[arc])], [ship], momentum=(0, 0))
    stun = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    assert act(h, "shoot", stun, [2]).unit("1/b0")[2].state.extra["readied"] == []
    # the reading stun_unreadies_one: one readied weapon a stun hit, the attacker's pick
    h.sides[1].units[0].state.extra["readied"] = [0, 1]
    h.options["stun_unreadies_one"] = True
    asked = ask(h, "shoot", stun, [2])
    assert asked["field"] == "unreadied" and [o["value"] for o in asked["options"]] == [0, 1]
    assert act(h, "shoot", {**stun, "unreadied": [0]}, [2]).unit("1/b0")[2].state.extra["readied"] == [1]


def test_charged_and_ready_three_free_readies_l732() -> None:
    """The small-scale mode: warships begin with three weapons readied: three Ready Weapons with no action in
    the first round, the fourth costs one."""
    four = [MPC, {**MPC, "name": "B"}, {**MPC, "name": "C"}, {**MPC, "name": "D"}]
    g = to_ships(game_of([cruiser(weapons=four)], [unit("musarl")], momentum=(0, 0)))
    g.options["small_scale"] = True
    for w in range(3):
        g = act(g, "ready_weapons", {"unit": "0/a0", "weapon": w})
        assert "Charged & Ready" in g.log[-1].text
    assert g.unit("0/a0")[2].state.counters.get("actions", 0) == 0
    g = act(g, "ready_weapons", {"unit": "0/a0", "weapon": 3})
    assert g.unit("0/a0")[2].state.counters["actions"] == 1


# --- captains ------------------------------------------------------------------------------------------


def captain(tier: str, *traits: str) -> dict[str, Any]:
    return {"pilot": {"name": "Captain", "tier": tier, "traits": []}, "captain": list(traits)}


def test_captain_traits_by_tier_l1039() -> None:
    """A Skilled Captain one Tier I trait; a Battle Hardened Captain two Tier I or one Tier II; only a
    warship has a captain's traits."""

    def valid(profile: dict[str, Any]) -> bool:
        return not call("unit.check", {"system": "mechastellar", "profile": profile})["violations"]

    assert valid(cruiser(**captain("skilled", "daring")))
    assert not valid(cruiser(**captain("skilled", "daring", "discerning")))
    assert valid(cruiser(**captain("ace", "daring", "discerning")))
    assert valid(cruiser(**captain("ace", "sharp_witted")))
    assert not valid(cruiser(**captain("ace", "sharp_witted", "daring")))
    assert not valid(cruiser(**captain("basic", "daring")))
    assert not valid(unit("dervish", **captain("skilled", "daring")))


def test_captains_orders_once_a_round_as_it_begins_l1019_l1035() -> None:
    """An Order needs a Skilled or Battle Hardened Captain, as the round begins, once a round; Take Evasive
    Action! rolls one evade die again against each weapon fired at the side; Close Range Combat gives a
    block in the clash; Main Battery's +1 Accuracy in the named quadrant, gated without it."""
    g = game_of([unit("argonaut")], [cruiser(**captain("skilled")), unit("dervish")], momentum=(0, 0))
    assert (
        "no Skilled or Battle Hardened Captain"
        in gated_actions(game_of([unit("argonaut")], [cruiser()]))["1/b0"]["order"]
    )
    shot = {"attacker": "0/a0", "target": "1/b1", "weapon": 0}
    before = mean(odds(g, "shoot", shot), "hits")
    g = act(g, "order", {"unit": "1/b0", "order": "evasive"})
    assert "this round's Order" in refused(g, "order", {"unit": "1/b0", "order": "close_range"})
    after = mean(odds(g, "shoot", shot), "hits")
    # ACC 9 vs Evade +5: 1 two hits, 2-3 one; one die of the three rolled again (worst first)
    assert after < before and before == 3 * Fraction(4, 10)
    g = act(g, "shoot", shot, [1, 9, 9, 9])  # the critical is rolled again: an evade
    assert g.log[-1].detail["hits"] == 0
    late = game_of([unit("argonaut")], [cruiser(**captain("skilled"))])
    late = act(late, "end_turn", {"unit": "0/a0"})
    assert "before any unit activates" in refused(late, "order", {"unit": "1/b0", "order": "close_range"})
    # Main Battery: the quadrant's +1 Accuracy, only with the Order in force
    q = {"attacker": "1/b1", "target": "0/a0", "weapon": 0, "quadrant": True}
    h = game_of([unit("argonaut")], [cruiser(**captain("ace")), unit("dervish")], momentum=(0, 0))
    assert gates(h, "shoot", q).fields["quadrant"] == "no Main Battery order is in force this round"
    mid = act(h, "end_turn", {"unit": "0/a0"})
    assert "no Main Battery order" in refused(mid, "shoot", q, [9] * 4)
    h = act(act(h, "order", {"unit": "1/b0", "order": "main_battery"}), "end_turn", {"unit": "0/a0"})
    assert "quadrant" not in gates(h, "shoot", q).fields
    assert odds(h, "shoot", q)["summary"].endswith("evades on 7+")  # ACC 8 + 1 against Evade +2
    assert odds(h, "shoot", {**q, "quadrant": False})["summary"].endswith("evades on 6+")
    # Close Range Combat: +1 block in the Melee Clash for the side's units
    small = unit("dervish", melee=2)  # small pools: the exact odds stay cheap
    c = game_of([unit("blue_djinn", melee=3)], [cruiser(**captain("skilled")), small], momentum=(0, 0))
    clash = {"attacker": "0/a0", "target": "1/b1", "attack_dice": 3, "defender_attack": 1}
    plain = mean(odds(c, "melee", clash), "damage dealt")
    c = act(c, "order", {"unit": "1/b0", "order": "close_range"})
    assert mean(odds(c, "melee", clash), "damage dealt") < plain


def test_battle_hardened_orders_and_sharp_witted_l1030_l1081_l1082() -> None:
    """A Battle Hardened Main Battery makes Target Lock +32"; a Sharp Witted Captain's warship may act in the
    mobile suits' phase, and gives a new Order once a round."""
    ship = cruiser(**captain("ace", "sharp_witted"))
    g = game_of([ship, unit("argonaut")], [unit("dervish")], momentum=(0, 0))
    assert "ready_weapons" not in gated_actions(g).get("0/a0", {})  # not "warships act in their own phase"
    g = act(g, "order", {"unit": "0/a0", "order": "main_battery"})
    g = act(g, "target_lock", {"unit": "0/a0"})
    assert 'Range +32"' in g.log[-1].text
    g = act(g, "order", {"unit": "0/a0", "order": "evasive"})
    assert "withdrawn" in g.log[-1].text and g.state.extra["orders"] == ["0:evasive:0/a0"]
    assert "this round's Order" in refused(g, "order", {"unit": "0/a0", "order": "close_range"})
    plain = game_of([cruiser(), unit("argonaut")], [unit("dervish")])
    assert "own phase" in refused(plain, "target_lock", {"unit": "0/a0"})


def test_captain_traits_on_activation_and_shooting_l1045_l1086() -> None:
    """Renowned +1 and Legendary +2 Momentum as the ship activates, Legendary's action in Round 1; Expert
    Gunnery +1 Accuracy unless it takes the range; Expert Engineering +1 PEN unless +100 damage; Fearsome
    +1 Momentum a kill."""
    g = to_ships(game_of([cruiser(**captain("ace", "legendary_captain"))], [unit("musarl")], momentum=(0, 0)))
    g = act(g, "ready_weapons", {"unit": "0/a0", "weapon": 0})
    assert momentum(g, 0) == 2
    g = act(g, "ready_weapons", {"unit": "0/a0", "weapon": 1})
    g = act(g, "volley", {"unit": "0/a0"})  # its third action in Round 1 (L1072)
    r = to_ships(
        game_of([cruiser(**captain("skilled", "renowned_captain"))], [unit("musarl")], momentum=(0, 0))
    )
    assert momentum(act(r, "target_lock", {"unit": "0/a0"}), 0) == 1
    gunner = game_of([cruiser(**captain("skilled", "expert_gunnery"))], [unit("musarl")], momentum=(0, 0))
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    assert odds(gunner, "shoot", shot)["summary"].endswith("evades on 9+")  # ACC 8 + 1
    assert odds(gunner, "shoot", {**shot, "long_range": True})["summary"].endswith("evades on 8+")
    assert "long_range" not in gates(gunner, "shoot", shot).fields
    engine = game_of([cruiser(**captain("skilled", "expert_engineering"))], [unit("musarl")])
    assert "extra_damage" not in gates(engine, "shoot", shot).fields
    pen7 = mean(odds(engine, "shoot", shot), "failed saves")
    dmg = mean(odds(engine, "shoot", {**shot, "extra_damage": True}), "failed saves")
    assert pen7 > dmg  # PEN 7 vs Sv 0 fails on 1-6, PEN 6 on 1-5
    weak = unit("dervish", hp=200)
    f = to_ships(game_of([cruiser(**captain("ace", "fearsome_captain"))], [weak], momentum=(0, 0)))
    f = act(f, "volley", {"unit": "0/a0"})
    f = act(f, "shoot", {**shot, "weapon": 2, "near_ally": True, "in_sensors": True}, [1, 9, 9, 9])
    assert f.unit("1/b0")[2].state.destroyed and momentum(f, 0) == 2  # the kill's +1 and the captain's


def test_discerning_daring_and_steadfast_captains_l1049_l1053_l1057() -> None:
    """A Discerning Captain gives an ally a Focus as the round begins; a Daring Captain's ship rolls any evade
    die again against an enemy warship within its Sensors (asked); a Determined Captain's ship under half HP
    takes +1 Momentum or +1 Accuracy as it activates."""
    g = game_of([cruiser(**captain("skilled", "discerning")), unit("argonaut")], [unit("dervish")])
    assert "not Discerning" in gated_actions(game_of([cruiser()], [unit("dervish")]))["0/a0"]["captain_focus"]
    g = act(g, "captain_focus", {"unit": "0/a0", "ally": "0/a1"})
    assert g.unit("0/a1")[2].state.counters["focus"] == 1
    assert "this round's Focus" in refused(g, "captain_focus", {"unit": "0/a0", "ally": "0/a1"})
    # Daring
    d = to_ships(
        game_of([cruiser()], [cruiser(name="Brash", **captain("skilled", "daring"))], momentum=(0, 0))
    )
    d = act(d, "volley", {"unit": "0/a0"})
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 2, "near_ally": True}
    asked = ask(d, "shoot", shot, [2, 2, 9, 9])
    assert asked["field"] == "daring" and [o["value"] for o in asked["options"]] == [True, False]
    yes = act(d, "shoot", {**shot, "daring": True}, [2, 2, 9, 9, 9, 9])
    assert yes.log[-1].detail["hits"] == 0
    no = act(d, "shoot", {**shot, "daring": False}, [2, 2, 9, 9])
    assert no.log[-1].detail["hits"] == 2
    # Determined: only under half HP or with no Momentum
    s = to_ships(game_of([cruiser(**captain("skilled", "determined"))], [unit("musarl")], momentum=(2, 0)))
    assert "half HP or more" in gated_actions(s)["0/a0"]["steadfast"]
    s.sides[0].units[0].state.damage = 7000
    s = act(s, "steadfast", {"unit": "0/a0", "take": "accuracy"})
    assert odds(s, "shoot", {"attacker": "0/a0", "target": "1/b0"})["summary"].endswith("evades on 9+")
    assert "used it this turn" in refused(s, "steadfast", {"unit": "0/a0"})


def test_fearless_captain_readies_another_weapon_when_one_is_lost_l1076() -> None:
    """A readied weapon destroyed by a failed save: a Fearless Captain readies another with no action."""
    ship = cruiser(**captain("ace", "fearless_captain"), weapons=[AA, MPC])
    g = game_of([unit("dervish", accuracy=15)], [ship], momentum=(0, 0))
    g = act(
        g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0, "wrecked": [0]}, [2, 2, 2, 1, 9, 9]
    )
    extra = g.unit("1/b0")[2].state.extra
    assert extra["wrecked"] == [0] and extra["free_ready"] == 1
    g = act(g, "ready_weapons", {"unit": "1/b0", "weapon": 1})  # on the enemy's turn, no action
    assert "Fearless Captain" in g.log[-1].text and g.unit("1/b0")[2].state.extra["readied"] == [1]


def test_board_launch_and_repairs_l869_l995_l1005() -> None:
    """A unit starts the battle aboard (L869) and waits for a launch as a round begins (L997); one that boards
    at the end of its turn is repaired at the round's end: 200 HP x the ship's Frame Level and one Battle
    Damage (L1003-L1005); in space, the hangars' room is shown (L860-L861)."""
    g = game_of([cruiser(frame=3, hangar=1), unit("argonaut"), unit("dervish")], [unit("musarl")])
    g.state.extra["rolled_off"] = False  # as the battle begins
    assert "is a warship" in gated_actions(g)["0/a0"]["board"]
    g = act(g, "board", {"unit": "0/a2", "ship": "0/a0"})
    g = act(g, "roll_off", {}, [9, 2])
    assert "aboard a warship" in refused(g, "end_turn", {"unit": "0/a2"})
    g = act(g, "launch", {"unit": "0/a0", "launched": "0/a2"})
    assert "no unit aboard" in refused(g, "launch", {"unit": "0/a0", "launched": "0/a2"})
    assert "aboard" not in g.unit("0/a2")[2].state.conditions
    assert "own turn" in gated_actions(g)["0/a1"]["board"]
    g.sides[0].units[1].state.damage = 1000
    g.sides[0].units[1].state.conditions = ["bd_head"]
    g = act(g, "focus", {"unit": "0/a1"})
    g = act(g, "board", {"unit": "0/a1", "ship": "0/a0"})
    g = act(g, "end_turn", {"unit": "0/a1"})
    g = next_round(round_over(g))
    argonaut = g.unit("0/a1")[2].state
    assert argonaut.damage == 1000 - 200 * 3 and argonaut.conditions == ["aboard"]
    g.options["space"] = True
    lines = {line.label: line.value for line in implementation("mechastellar").status(g)}
    assert lines["Red's hangars"] == "2 hangar slots needed, 1 carried (L860-L861)"
    colossal = Unit.model_validate(unit("joker", size=3))
    assert [hangar_slots(colossal.model_copy(update={"size": n})) for n in (0, 1, 2, 3)] == [
        1,
        1,
        4,
        6,
    ]  # L861
    g.options["small_scale"] = True
    g.sides[0].units = g.sides[0].units * 2
    lines = {line.label: line.value for line in implementation("mechastellar").status(g)}
    assert lines["Red's force"] == "6 units: the small-scale mode allows 5"


# --- the Melee Clash with both splits entered unseen (L519; digest ambiguity 37) ------------------------


def test_blue_djinn_clash_with_splits_entered_unseen_one_on_its_own_phone_l199_l214() -> None:
    """The Blue Djinn example (L199-L214) with both splits hidden: the attacker declares the clash; the
    White Asura's player splits on their own phone (core.remote: request, answer, apply); the Blue Djinn's
    player on the table's phone; neither split is in the log until Melee resolves with both: the book's
    numbers (2 hits through to the Asura, 1 to the Djinn)."""
    g = game_of([unit("blue_djinn")], [unit("white_asura")], momentum=(0, 0))
    assert "in no clash" in gated_actions(g)["0/a0"]["split"]
    g = act(g, "secret_clash", {"attacker": "0/a0", "target": "1/b0"})
    views = call("game.views", {"game": g.model_dump(mode="json"), "viewer": 0})["views"]
    labels = [i["label"] for i in views["0/a0"]["sections"][0]["items"]]
    assert labels[:2] == ["11 attack / 0 defense", "10 attack / 1 defense"]  # 9 + the charge's 2 (L518)
    assert views["1/b0"]["sections"][0] == {
        "title": "Splitting its dice for the clash",
        "items": [],
        "private": False,
        "bind": None,
    }
    melee = {"attacker": "0/a0", "target": "1/b0", "weapon": 0, "defender_weapon": 1}
    picks = call("game.picks", {"game": g.model_dump(mode="json"), "action": "melee", "actor": "0/a0"})
    assert picks["fields"]["attack_dice"] == [
        {"value": None, "label": "Hidden: entered on the card", "detail": "", "unavailable": ""}
    ]  # the Melee sheet shows no split
    assert "both players enter their split first" in refused(g, "melee", melee, [5] * 18)
    # the White Asura's player, on their own phone: only its split travels
    req = call("remote.request", {"game": g.model_dump(mode="json"), "side": 1})["request"]
    assert [p["unit_name"] for p in req["picks"]] == ["Sample: White Asura"]
    answer_token = call("remote.answer", {"request": req, "chosen": [{"pick": 0, "items": ["3"]}]})["token"]
    answer = call("share.decode", {"token": answer_token})
    g = Game.model_validate(
        call("remote.apply", {"game": g.model_dump(mode="json"), "answer": answer["answer"]})
    )
    assert "3" not in g.log[-1].text and "unseen" in g.log[-1].text
    # the Blue Djinn's player, on the table's phone
    g = act(g, "split", {"unit": "0/a0", "pick": ["8"]})
    assert "entered its split" in refused(g, "split", {"unit": "0/a0", "pick": ["7"]})
    faces = [2, 2, 3, 5, 7, 7, 8, 10, 2, 5, 8, 10, 2, 8, 9, 2, 4, 4, 8]
    g = act(g, "melee", {**melee, "counter_defense": 0}, faces)
    d = g.log[-1].detail
    assert d["through"] == [2, 1] and d["damage"] == [1000, 500]
    assert g.log[-1].text.startswith(
        "Splits revealed: Sample: Blue Djinn 8 attack / 3 defense, Sample: White Asura 3"
    )
    assert call("game.views", {"game": g.model_dump(mode="json")})["views"].get("0/a0") is None
    # a unit whose first weapon shoots declares it with its melee weapon, as the Melee sheet offers first
    h = game_of([unit("white_asura")], [unit("blue_djinn")])
    assert (
        "splits its dice unseen"
        in act(h, "secret_clash", {"attacker": "0/a0", "target": "1/b0"}).log[-1].text
    )


def test_a_warship_loses_weapon_systems_to_failed_saves_in_a_clash_too_l954_l1009() -> None:
    """Melee against a warship: its AA DEF defends (L954); each failed save destroys a weapon system, the
    attacker's pick, as against a shot (L1009)."""
    g = game_of([unit("blue_djinn")], [unit("musarl")], momentum=(0, 0))
    clash = {"attacker": "0/a0", "target": "1/b0", "attack_dice": 11}
    faces = [5, 5, 5] + [1] * 8 + [1] * 4 + [1, 2, 9]  # 3 hits, no block; saves at PEN 3: 1 and 2 fail
    asked = ask(g, "melee", clash, faces)
    assert asked["field"] == "wrecked" and "destroys 2" in asked["prompt"]
    g = act(g, "melee", {**clash, "wrecked": [0, 1]}, faces)
    assert g.log[-1].detail["damage"][0] == 3 * 500 + 2 * 1000
    assert g.unit("1/b0")[2].state.extra["wrecked"] == [0, 1] and "destroys its" in g.log[-1].text
    assert "engaged" not in g.unit("1/b0")[2].state.conditions  # ships ignore engagement range (L955)
    g.sides[1].units[0].state.conditions = ["engaged"]  # set by hand: it still leaves for no Momentum
    g = act(act(g, "end_turn", {"unit": "0/a0"}), "disengage", {"unit": "1/b0"})
    assert "freely" in g.log[-1].text and momentum(g, 1) == 0


def test_a_narrow_escape_chosen_as_hidden_as_a_split_l742() -> None:
    """With Climactic Events on, the defender's private choice offers its Narrow Escape beside its splits;
    picked, Melee cancels the clash with no die (L742); without the module it is refused."""
    g = game_of([unit("blue_djinn")], [unit("white_asura")], momentum=(0, 0))
    g = act(g, "secret_clash", {"attacker": "0/a0", "target": "1/b0"})
    assert "Event unused" in refused(g, "split", {"unit": "1/b0", "pick": ["escape"]})
    g.options["climactic_events"] = True
    views = call("game.views", {"game": g.model_dump(mode="json"), "viewer": 1})["views"]
    assert views["1/b0"]["sections"][0]["items"][-1]["id"] == "escape"
    assert views["0/a0"]["sections"][0]["items"] == []  # the other side's split: not shown to this player
    mine = call("game.views", {"game": g.model_dump(mode="json"), "viewer": 0})["views"]
    assert mine["0/a0"]["sections"][0]["items"][-1]["id"] == "0"  # the escape is not the attacker's
    g = act(g, "split", {"unit": "1/b0", "pick": ["escape"]})
    g = act(g, "split", {"unit": "0/a0", "pick": ["8"]})
    g = act(g, "melee", {"attacker": "0/a0", "target": "1/b0"})
    assert "Narrow Escape" in g.log[-1].text and hp(g, "1/b0") == 3000


def test_a_hidden_split_clash_then_merciless_melees_second_at_a_new_target_l443_l519() -> None:
    """The clash declared with hidden splits, once made, leaves the turn's next clash open: a Merciless
    Melee pilot's second, at a new target, takes its split on the sheet (L443), and may itself be declared
    hidden; a third is refused (L28)."""
    djinn = unit("blue_djinn", pilot=pilot("ace", "merciless_melee"))
    g = game_of([djinn], [unit("dervish"), unit("white_asura")], momentum=(0, 0))
    g = act(g, "secret_clash", {"attacker": "0/a0", "target": "1/b0"})
    g = act(act(g, "split", {"unit": "1/b0", "pick": ["0"]}), "split", {"unit": "0/a0", "pick": ["11"]})
    g = clash_with_fours(g, {"attacker": "0/a0", "target": "1/b0", "defense": 0, "counter_defense": 0})
    assert g.log[-1].text.startswith("Splits revealed:")
    assert call("game.views", {"game": g.model_dump(mode="json")})["views"].get("0/a0") is None
    picks = call("game.picks", {"game": g.model_dump(mode="json"), "action": "melee", "actor": "0/a0"})
    assert picks["fields"]["attack_dice"][0]["value"] == 11  # the split is on the sheet again
    second = {"attacker": "0/a0", "target": "1/b1", "attack_dice": 11, "defender_attack": 0}
    assert "new target" in refused(g, "secret_clash", {"attacker": "0/a0", "target": "1/b0"})
    h = act(g, "secret_clash", {"attacker": "0/a0", "target": "1/b1"})
    assert "splits its dice unseen" in h.log[-1].text
    g = clash_with_fours(g, {**second, "defense": 0, "counter_defense": 0})
    assert "Sample: White Asura" in g.log[-1].text
    assert "twice" in refused(g, "secret_clash", {"attacker": "0/a0", "target": "1/b0"})


def test_battle_hardened_close_range_aa_def_in_melee_l1034_l1035() -> None:
    """A Battle Hardened Captain's Close Range order: AA DEF (Melee) +1 Accuracy (L1035), read as the
    warship's AA DEF dice blocking on 4+ instead of 5+ (a 10 still one block) on top of the order's +1 block
    (L1034); a Skilled Captain's order gives the block only, and a mobile suit's melee dice are unchanged."""
    from core.systems.mechastellar.melee import Clash, pools

    clash = Clash(attacker="0/a0", target="1/b0", attack_dice=3)
    faces: dict[str, tuple[int, ...]] = {}
    for tier in ("skilled", "ace"):
        g = game_of([unit("blue_djinn", melee=3)], [cruiser(**captain(tier), aa_def=2)], momentum=(0, 0))
        g = act(g, "order", {"unit": "1/b0", "order": "close_range"})
        strike = pools(g, clash)[0]
        assert strike.blocks == 1  # the order's +1 Melee Block (L1034)
        faces[tier] = strike.defense.values
    assert faces["skilled"] == (0, 0, 0, 0, 1, 1, 1, 1, 1, 1)
    assert faces["ace"] == (0, 0, 0, 1, 1, 1, 1, 1, 1, 1)
    suit = game_of([unit("blue_djinn", melee=3)], [cruiser(**captain("ace")), unit("dervish", melee=2)])
    suit = act(suit, "order", {"unit": "1/b0", "order": "close_range"})
    assert pools(suit, Clash(attacker="0/a0", target="1/b1", attack_dice=3))[0].defense.values[3] == 0


def test_a_captains_bonus_as_influence_l1045_l1071() -> None:
    """Renowned (+1) and Legendary (+2) Captains give Momentum or Influence as the ship activates: with the
    Influence module on, the player may take Influence instead, before the ship's turn begins; greyed with
    the reason otherwise, and refused if sent anyway."""
    g = to_ships(game_of([cruiser(**captain("ace", "legendary_captain"))], [unit("musarl")], momentum=(0, 0)))
    assert gated_actions(g)["0/a0"]["captain_influence"] == "the Influence module is off"
    assert "Influence module is off" in refused(g, "captain_influence", {"unit": "0/a0"})
    g.options["influence"] = True
    before = g.sides[0].resources.get("influence", 0)
    assert "captain_influence" not in gated_actions(g).get("0/a0", {})
    h = act(g, "captain_influence", {"unit": "0/a0"})
    assert momentum(h, 0) == 0 and h.sides[0].resources["influence"] == before + 2  # Legendary: 2
    assert "begun its turn" in gated_actions(h)["0/a0"]["captain_influence"]
    late = act(g, "ready_weapons", {"unit": "0/a0", "weapon": 0})  # the Momentum, as before
    assert momentum(late, 0) == 2 and late.sides[0].resources.get("influence", 0) == before
    assert "begun its turn" in refused(late, "captain_influence", {"unit": "0/a0"})
    r = to_ships(game_of([cruiser(**captain("skilled", "expert_gunnery"))], [unit("musarl")]))
    r.options["influence"] = True
    assert "neither Renowned nor Legendary" in gated_actions(r)["0/a0"]["captain_influence"]


def test_a_warship_makes_its_narrow_escape_from_a_clash_l742_l954() -> None:
    """A warship splits no dice (all its AA DEF dice defend, L954), yet with Climactic Events on its player
    may answer a clash with its Narrow Escape (L742): chosen unseen beside "defend" when the clash is declared
    with hidden splits, and asked before the dice otherwise.  Without the module nothing is asked."""
    g = game_of([unit("blue_djinn")], [cruiser()], momentum=(0, 0))
    hidden = act(g, "secret_clash", {"attacker": "0/a0", "target": "1/b0"})
    assert "no dice to split" in gated_actions(hidden)["1/b0"]["split"]
    hidden.options["climactic_events"] = True
    views = call("game.views", {"game": hidden.model_dump(mode="json"), "viewer": 1})["views"]
    assert [i["id"] for i in views["1/b0"]["sections"][0]["items"]] == ["0", "escape"]
    hidden = act(hidden, "split", {"unit": "0/a0", "pick": ["9"]})
    assert "split first" in refused(hidden, "melee", {"attacker": "0/a0", "target": "1/b0"})
    hidden = act(hidden, "split", {"unit": "1/b0", "pick": ["escape"]})
    hidden = act(hidden, "melee", {"attacker": "0/a0", "target": "1/b0"})
    assert "Narrow Escape" in hidden.log[-1].text and hp(hidden, "1/b0") == 12000
    g.options["climactic_events"] = True
    asked = ask(g, "melee", {"attacker": "0/a0", "target": "1/b0", "attack_dice": 9})
    assert [o["label"].split(" ·")[0] for o in asked["options"]] == [
        "Defend: no dice to split",
        "Narrow Escape: cancel the clash (once a game)",
    ]


def test_sortie_tags_flag_units_kept_out_of_the_battle_l862() -> None:
    """[G] units cannot sortie in space, [S] units cannot sortie on the ground (L862; a low gravity battle is
    a ground battle, L893): the card shows the tag and the game's status names the units to leave out."""
    ms = implementation("mechastellar")
    ground = unit("argonaut", sortie="ground")
    space = unit("dervish", sortie="space")
    assert "[G] ground only" in ms.card(Unit.model_validate(ground)).notes
    g = game_of([ground, unit("kara")], [space])
    lines = {line.label: line.value for line in ms.status(g)}
    assert lines["Blue: cannot sortie"] == "Sample: Dervish ([S]: not on the ground)"
    assert "Red: cannot sortie" not in lines
    g.options = {"low_gravity": True}
    assert "Blue: cannot sortie" in {line.label for line in ms.status(g)}
    g.options = {"space": True}
    lines = {line.label: line.value for line in ms.status(g)}
    assert lines["Red: cannot sortie"] == "Sample: Argonaut ([G]: not in space)"
    assert "Blue: cannot sortie" not in lines
