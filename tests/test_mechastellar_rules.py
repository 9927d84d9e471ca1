"""MechaStellar: the rulebook's remaining worked examples, Charge and Overwatch, and the weapon and pilot
traits that change a roll (lines are in 003_9a8631fd8c2279be.txt).

Each trait is checked through core.api's game.odds: the odds with it against the odds without, for its
direction and its size.  Pure Python, no browser.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from test_mechastellar import game_of, hp, momentum, round_over, unit

from core import api
from core.dice import TypedDice
from core.game import Game, act, gated_actions, gates, next_round
from core.systems.base import NeedChoice
from core.systems.mechastellar.melee import Clash, pools
from core.systems.mechastellar.shooting import Shoot, plan

MG = {"name": "Machine gun", "range": 16, "shots": 6, "damage": 200, "pen": 0, "overwatch": 3}


def api_odds(g: Game, action: str, inp: dict[str, Any]) -> dict[str, Any]:
    reply = api.call("game.odds", {"game": g.model_dump(mode="json"), "action": action, "input": inp})
    assert reply["ok"], reply
    result: dict[str, Any] = reply["result"]
    return result


def mean(odds: dict[str, Any], name: str) -> Fraction:
    return sum((Fraction(r["exactly"]) * r["value"] for r in odds["tables"][name]["rows"]), Fraction(0))


def pilot(tier: str, *traits: str) -> dict[str, Any]:
    return {"name": "P", "tier": tier, "traits": list(traits)}


# --- worked examples ---------------------------------------------------------------------------


def test_zodiac_charges_acrogunner_nine_overwatch_shots_l181() -> None:
    """AcroGunner (3 actions, 3 weapons with Overwatch III) is charged: Zodiac rolls evade against 9 shots
    before the clash (L181): three Overwatch attacks of 3 shots (L174-L175), one per action; a fourth is
    refused, and the Overwatch spends none of AcroGunner's actions (digest ambiguity 34)."""
    guns = [{**MG, "name": f"Gun {i}", "shots": 2} for i in range(3)]
    acro = unit("argonaut", name="AcroGunner", actions=3, weapons=guns)
    zodiac = unit("blue_djinn", name="Zodiac", evade=0, hp=9000)
    g = game_of([zodiac], [acro, unit("dervish")], momentum=(0, 0))
    assert gated_actions(g)["1/b0"]["overwatch"] == "AcroGunner is not being charged"
    g = act(g, "charge", {"attacker": "0/a0", "target": "1/b0"}, TypedDice([]))
    assert "may fire Overwatch with 3 weapons" in g.log[-1].text
    assert "overwatch" not in gated_actions(g).get("1/b0", {})
    shots = 0
    for w in range(3):
        o = api_odds(g, "overwatch", {"unit": "1/b0", "weapon": w})
        assert o["summary"].startswith("3 Overwatch shots")
        g = act(g, "overwatch", {"unit": "1/b0", "weapon": w}, TypedDice([10, 10, 10]))
        shots += len(g.log[-1].detail["evade"])
    assert shots == 9
    assert gated_actions(g)["1/b0"]["overwatch"] == "AcroGunner has fired Overwatch with each of its actions"
    with pytest.raises(ValueError, match="each of its actions"):
        act(g, "overwatch", {"unit": "1/b0", "weapon": 0}, TypedDice([10] * 3))
    assert g.unit("1/b0")[2].state.counters.get("actions", 0) == 0
    # the clash follows, against the charged unit only (L172, L179)
    clash = {"attacker": "0/a0", "target": "1/b0", "attack_dice": 11, "defender_attack": 0}
    with pytest.raises(ValueError, match="charged AcroGunner"):
        act(g, "melee", {**clash, "target": "1/b1"}, TypedDice([5] * 20))


def test_green_viking_overwatch_iii_makes_3_attacks_l838() -> None:
    """Green Viking's Machine Gun (Overwatch III) makes 3 attacks (L838): 3 dice, hits dealt to the charger
    with its Skill Defense asked as for any shot (L176)."""
    viking = unit("argonaut", name="Green Viking", weapons=[MG])
    g = game_of([unit("dervish", evade=0)], [viking], momentum=(2, 0))
    g = act(g, "charge", {"attacker": "0/a0", "target": "1/b0"}, TypedDice([]))
    inp = {"unit": "1/b0", "weapon": 0}
    with pytest.raises(NeedChoice) as asked:
        act(g, "overwatch", inp, TypedDice([1, 5, 9]))
    assert asked.value.field == "defense"  # the charger's Momentum, after the roll (L253)
    g = act(g, "overwatch", {**inp, "defense": 1}, TypedDice([1, 5, 9]))
    assert g.log[-1].detail["evade"] == [1, 5, 9] and g.log[-1].detail["hits"] == 2 + 1  # ACC 9: 9 evades
    assert hp(g, "0/a0") == 2500 - 2 * 200 and momentum(g, 0) == 1


def test_overwatch_refused_when_blindsided_or_already_in_melee_l177_l178() -> None:
    g = game_of([unit("dervish")], [unit("argonaut")], momentum=(0, 0))
    side = act(g, "charge", {"attacker": "0/a0", "target": "1/b0", "blindside": True}, TypedDice([]))
    assert "no Overwatch" in side.log[-1].text
    assert gated_actions(side)["1/b0"]["overwatch"].endswith("is Blindsided: no Overwatch")
    with pytest.raises(ValueError, match="Blindsided"):
        act(side, "overwatch", {"unit": "1/b0", "weapon": 1}, TypedDice([9] * 6))
    g.sides[1].units[0].state.conditions.append("engaged")
    busy = act(g, "charge", {"attacker": "0/a0", "target": "1/b0"}, TypedDice([]))
    assert gated_actions(busy)["1/b0"]["overwatch"].endswith("already in melee: no Overwatch")
    # a unit with no melee weapon cannot charge (L183-L188)
    h = game_of([unit("argonaut")], [unit("dervish")])
    assert gated_actions(h)["0/a0"]["charge"] == "Sample: Argonaut has no melee weapon"


def test_melee_shield_blocks_one_overwatch_shot_l233() -> None:
    g = game_of([unit("dervish", shield="melee_shield")], [unit("argonaut")])
    g = act(g, "charge", {"attacker": "0/a0", "target": "1/b0"}, TypedDice([]))
    st = g.model_copy(deep=True)
    p = plan(st, Shoot(attacker="1/b0", target="0/a0", weapon=1), overwatch=True)
    assert (p.shots, p.blocks) == (3, 1)
    assert plan(st, Shoot(attacker="1/b0", target="0/a0", weapon=1)).blocks == 0  # not against a shot


def test_foe_5_hits_to_3_blocks_2_momentum_l270() -> None:
    """Our foe has 5 hits to our 3 blocks; 2 Momentum block the remaining 2 hits (L270)."""
    g = game_of([unit("blue_djinn", shield="none")], [unit("white_asura", shield="none")], momentum=(0, 2))
    inp = {"attacker": "0/a0", "target": "1/b0", "attack_dice": 5, "defender_attack": 0}
    faces = [5, 6, 7, 8, 9] + [5, 5, 5, 1, 1, 1, 1] + [1] * 6  # 5 hits; 3 blocks of 7; our 6 defense dice
    with pytest.raises(NeedChoice) as asked:
        act(g, "melee", inp, TypedDice(faces))
    assert asked.value.field == "defense" and [c.value for c in asked.value.options] == [0, 1, 2]
    g = act(g, "melee", {**inp, "defense": 2}, TypedDice(faces))
    assert g.log[-1].detail["through"][0] == 2 and g.log[-1].detail["damage"][0] == 0
    assert momentum(g, 1) == 0


def test_flawless_evasion_machine_gun_and_cannon_round_2_l293() -> None:
    """Round 2: Flawless Evasion against the Machine Gun costs 2, against the Cannon 2 more (L293)."""
    g = game_of([unit("argonaut", accuracy=15)], [unit("blue_djinn")], momentum=(0, 5))
    g = g.model_copy(update={"round": 2})
    for weapon, faces in ((1, [2] * 6), (0, [2] * 3)):
        g = act(
            g,
            "shoot",
            {"attacker": "0/a0", "target": "1/b0", "weapon": weapon, "defense": 0, "flawless": True},
            TypedDice(faces),
        )
    assert hp(g, "1/b0") == 3000 and momentum(g, 1) == 5 - 2 - 2


def test_blindside_and_high_ground_do_not_stack_l552() -> None:
    """Blue Djinn on a building behind the Tankcrawler: Blindside and High Ground both apply but give one
    critical hit, not two (L540, L552); the Blindside also ignores the shield (L543)."""
    g = game_of([unit("blue_djinn")], [unit("white_asura", name="Tankcrawler")])
    p = plan(g, Shoot(attacker="0/a0", target="1/b0", weapon=1, advantage="blindside"))
    assert (p.crits, p.blocks) == (1, 0)
    strike, *_ = pools(g, Clash(attacker="0/a0", target="1/b0", attack_dice=2, advantage="blindside"))
    assert (strike.flat, strike.blocks) == (2, 0)


def test_revenge_is_a_critical_on_every_attack_l571() -> None:
    """Kamille's Revenge on Yazan: +1 critical hit on each attack (L571), the players' Tactical Advantage."""
    g = game_of([unit("white_asura")], [unit("dervish")])
    odds_ta = api_odds(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "advantage": "advantage"})
    odds_no = api_odds(g, "shoot", {"attacker": "0/a0", "target": "1/b0"})
    assert mean(odds_ta, "hits") - mean(odds_no, "hits") == 2  # one critical = 2 hits (L540)


def test_fire_cricket_high_speed_attack_with_fists_l560() -> None:
    """Fire Cricket goes full throttle 15" and strikes with its Fists [CC]: a High Speed Attack, +1 critical
    (L554-L560).  Offered only after a Full Throttle to a unit with a [CC] weapon; refused with another."""
    cricket = unit("joker", name="Fire Cricket", melee=1)  # small pools keep the odds quick
    g = game_of([cricket], [unit("white_asura", melee=2)], momentum=(0, 0))
    fists = {"attacker": "0/a0", "target": "1/b0", "weapon": 2, "attack_dice": 2, "advantage": "high_speed"}
    why = "Fire Cricket has not gone full throttle this turn"
    assert gates(g, "melee", fists).values == {"advantage": {"high_speed": why}}
    with pytest.raises(ValueError, match="full throttle"):
        act(g, "melee", fists, TypedDice([5] * 30))
    g = act(g, "throttle", {"unit": "0/a0"}, TypedDice([]))
    assert gates(g, "melee", fists).values == {}
    with_hsa = api_odds(g, "melee", {**fists, "defender_attack": 1})
    without = api_odds(g, "melee", {**fists, "defender_attack": 1, "advantage": "none"})
    assert with_hsa["facts"]["target destroyed"] >= without["facts"]["target destroyed"]
    strike, *_ = pools(g, Clash.model_validate({**fists, "defender_attack": 1}))
    plain, *_ = pools(g, Clash.model_validate({**fists, "defender_attack": 1, "advantage": "none"}))
    assert strike.flat - plain.flat == 2
    cannon = unit("joker", name="Fire Cricket", weapons=[{"name": "Saw", "kind": "melee", "damage": 500}])
    h = game_of([cannon, unit("dervish")], [unit("white_asura")])
    h = act(h, "throttle", {"unit": "0/a0"}, TypedDice([]))
    assert gates(h, "melee", {**fists, "weapon": 0}).values  # no [CC] weapon: greyed
    with pytest.raises(ValueError, match=r"\[CC\]"):
        act(h, "melee", {**fists, "weapon": 0}, TypedDice([5] * 30))


def test_beam_cannon_through_a_building_pen_minus_3_l641_l644() -> None:
    """A beam cannon of PEN 5 fired through small cover at a target within Sensors: PEN 2 (L641-L642);
    with the firer or the target underwater an energy weapon has PEN 0 (L644); not for other weapons."""
    cannon = {"name": "Beam cannon", "range": 32, "shots": 2, "damage": 500, "pen": 5, "energy": True}
    g = game_of([unit("argonaut", weapons=[cannon, MG])], [unit("dervish", save=0)])
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    assert plan(g, Shoot.model_validate(shot)).weapon.pen == 5
    assert plan(g, Shoot.model_validate({**shot, "energy": "through_cover"})).weapon.pen == 2
    assert plan(g, Shoot.model_validate({**shot, "energy": "underwater"})).weapon.pen == 0
    through = api_odds(g, "shoot", {**shot, "energy": "through_cover"})
    direct = api_odds(g, "shoot", shot)
    assert mean(through, "failed saves") < mean(direct, "failed saves")  # PEN 2 - Sv 0: fails only on 1
    with pytest.raises(ValueError, match="not an energy weapon"):
        act(g, "shoot", {**shot, "weapon": 1, "energy": "underwater"}, TypedDice([9] * 6))
    h = game_of([unit("argonaut")], [unit("dervish")])
    why = "Sample: Argonaut has no energy weapon"
    assert gates(h, "shoot", shot).values["energy"] == {"through_cover": why, "underwater": why}


# --- pilot traits through core.api: with against without (L376-L461) -------------------------------


def _hits_gain(shooter: dict[str, Any], target: dict[str, Any], weapon: int = 0, **inp: Any) -> Fraction:
    base = unit("argonaut", pilot=pilot(shooter["pilot"]["tier"]))
    g_with = game_of([shooter], [target])
    g_without = game_of([{**shooter, "pilot": base["pilot"]}], [target])
    raw = {"attacker": "0/a0", "target": "1/b0", "weapon": weapon, **inp}
    return mean(api_odds(g_with, "shoot", raw), "hits") - mean(api_odds(g_without, "shoot", raw), "hits")


def test_seasoned_veteran_and_headhunter_l378_l382() -> None:
    """Seasoned Veteran: +1 hit (+2 with PEN 0) against a lower tier, a Kaiju or a Captain (L378);
    Headhunter: the same against a Skilled or Ace pilot, a Kaiju or a Captain (L382)."""
    guns = [{**MG, "name": "Cannon", "shots": 1, "pen": 5}, {**MG, "shots": 1}]  # one shot: quick odds
    vet = unit("argonaut", weapons=guns, pilot=pilot("skilled", "seasoned_veteran"))
    hunter = unit("argonaut", weapons=guns, pilot=pilot("skilled", "headhunter"))
    basic, ace = unit("dervish"), unit("dervish", pilot=pilot("ace"))
    assert _hits_gain(vet, basic, weapon=0) == 1  # PEN 5
    assert _hits_gain(vet, basic, weapon=1) == 2  # PEN 0
    assert _hits_gain(vet, ace, weapon=1) == 0
    assert _hits_gain(vet, unit("musarl"), weapon=0) == 1  # a Captain, of any tier (ambiguity 31)
    assert _hits_gain(hunter, ace, weapon=0) == 1
    assert _hits_gain(hunter, basic, weapon=1) == 0
    assert _hits_gain(hunter, unit("dervish", kind="kaiju"), weapon=1) == 2


def test_gunnery_expert_hit_or_range_l412() -> None:
    """+1 hit when shooting, or +8" of range instead (then no hit); the choice holds for the turn (L412)."""
    gunner = unit("argonaut", pilot=pilot("skilled", "gunnery_expert"))
    assert _hits_gain(gunner, unit("dervish")) == 1
    g = game_of([gunner], [unit("dervish")])
    raw = {"attacker": "0/a0", "target": "1/b0"}
    ranged = mean(api_odds(g, "shoot", {**raw, "long_range": True}), "hits")
    assert mean(api_odds(g, "shoot", raw), "hits") - ranged == 1  # the range instead: no hit
    g = game_of([gunner], [unit("dervish", hp=9000)], momentum=(0, 0))
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, TypedDice([9] * 4))
    with pytest.raises(ValueError, match="chose hit"):
        act(
            g,
            "shoot",
            {"attacker": "0/a0", "target": "1/b0", "weapon": 1, "long_range": True},
            TypedDice([9] * 6),
        )
    plain = game_of([unit("argonaut")], [unit("dervish")])
    why = gates(plain, "shoot", {"attacker": "0/a0", "target": "1/b0"}).fields["long_range"]
    assert why == "Sample: Argonaut's pilot is not a Gunnery Expert"


def test_killer_instinct_below_half_l453_l456() -> None:
    """Killer Instinct takes effect below half HP (or when an allied Skilled or Ace pilot is destroyed):
    +1 hit on every attack, and Skill Defense stops 2 shots a Momentum (L455-L456)."""
    killer = unit("argonaut", pilot=pilot("ace", "killer_instinct"))
    assert _hits_gain(killer, unit("dervish")) == 0  # full HP: not yet
    g = game_of([killer], [unit("dervish")])
    g.sides[0].units[0].state.damage = 1600
    assert plan(g, Shoot(attacker="0/a0", target="1/b0")).flat == 1
    h = game_of([unit("dervish", accuracy=15)], [killer], momentum=(0, 2))
    h.sides[1].units[0].state.damage = 1600
    with pytest.raises(NeedChoice) as asked:
        act(h, "shoot", {"attacker": "0/a0", "target": "1/b0"}, TypedDice([5, 5, 5]))
    assert [c.label for c in asked.value.options[1:3]] == [  # 3 hits, 2 a Momentum
        "Spend 1 Momentum: 1 hit left",
        "Spend 2 Momentum: 0 hits left",
    ]
    h = act(h, "shoot", {"attacker": "0/a0", "target": "1/b0", "defense": 2}, TypedDice([5, 5, 5]))
    assert h.log[-1].detail["landed"] == 0 and momentum(h, 1) == 0


def test_untouchable_skill_defense_two_a_momentum_vs_lower_tiers_l404() -> None:
    dodger = unit("dervish", evade=0, pilot=pilot("skilled", "untouchable"))
    g = game_of([unit("argonaut", accuracy=15)], [dodger], momentum=(0, 3))
    with pytest.raises(NeedChoice) as asked:
        act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, TypedDice([5, 5, 5]))
    assert [c.value for c in asked.value.options] == [0, 1, 2]  # 3 hits: 2 Momentum are enough
    h = game_of([unit("argonaut", accuracy=15, pilot=pilot("ace"))], [dodger], momentum=(0, 3))
    with pytest.raises(NeedChoice) as asked:
        act(h, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, TypedDice([5, 5, 5]))
    assert [c.value for c in asked.value.options] == [0, 1, 2, 3]  # against an Ace: 1 a Momentum


def test_defiant_return_fire_plus_one_hit_l386() -> None:
    """Defiant: +1 hit on Return Fire at the aggressor (L386), and 1 more Momentum for a melee attack."""
    defiant = unit("dervish", pilot=pilot("skilled", "defiant"))
    g = game_of([unit("argonaut"), unit("white_asura")], [defiant], momentum=(0, 0))
    assert plan(g, Shoot(attacker="1/b0", target="0/a0")).flat == 0
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, TypedDice([9] * 3))
    g = act(g, "end_turn", {"unit": "0/a0"}, TypedDice([]))
    g = act(g, "focus", {"unit": "1/b0"}, TypedDice([]))  # its Return Fire turn begins
    g.sides[1].units[0].state.conditions.remove("focus")
    assert plan(g, Shoot(attacker="1/b0", target="0/a0")).flat == 1
    assert plan(g, Shoot(attacker="1/b0", target="0/a1")).flat == 0


def test_mechanics_expert_pen_or_damage_l420() -> None:
    """+1 PEN or +100 damage for the turn (L420): more failed saves, or 100 more a hit."""
    mech = unit("argonaut", pilot=pilot("skilled", "mechanics_expert"))
    plain = unit("argonaut", pilot=pilot("skilled"))
    target = unit("dervish", save=1, hp=9000)
    raw = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    g_mech, g_plain = game_of([mech], [target]), game_of([plain], [target])
    assert mean(api_odds(g_mech, "shoot", raw), "failed saves") > mean(
        api_odds(g_plain, "shoot", raw), "failed saves"
    )
    dmg = api_odds(g_mech, "shoot", {**raw, "extra_damage": True})
    assert mean(dmg, "damage") - mean(api_odds(g_plain, "shoot", raw), "damage") == 100 * mean(dmg, "hits")
    g = act(g_mech, "shoot", {**raw, "defense": 0}, TypedDice([9] * 3))
    with pytest.raises(ValueError, match="chose pen"):
        act(g, "shoot", {**raw, "weapon": 1, "extra_damage": True}, TypedDice([9] * 6))


def test_noble_fearsome_and_immortal_momentum_l394_l398_l461() -> None:
    gun = {"name": "Gun", "range": 24, "shots": 1, "damage": 5000}
    fearsome = unit("argonaut", weapons=[gun], accuracy=15, pilot=pilot("ace", "fearsome"))
    noble = unit("dervish", pilot=pilot("skilled", "noble"))
    g = game_of([fearsome], [noble], momentum=(0, 0))
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "extra_damage": True}, TypedDice([2]))
    assert momentum(g, 0) == 1 + 1 and momentum(g, 1) == 3  # kill +1 (L247), Fearsome +1; Noble +3
    immortal = unit("dervish", pilot=pilot("skilled", "immortal"))
    h = game_of([immortal], [unit("argonaut")], momentum=(0, 0))
    h = act(h, "focus", {"unit": "0/a0"}, TypedDice([]))
    assert momentum(h, 0) == 0  # Round 1: not yet (L398)
    h = next_round(round_over(next_round(round_over(h))))
    h = act(h, "roll_off", {}, TypedDice([9, 1]))
    before = momentum(h, 0)
    h = act(h, "focus", {"unit": "0/a0"}, TypedDice([]))
    assert momentum(h, 0) == before + 1


# --- weapon traits (L101-L106, L591-L600) -----------------------------------------------------------


def test_artillery_accuracy_and_no_skills_l103_l106() -> None:
    howitzer = {"name": "Howitzer", "range": 56, "shots": 2, "damage": 500, "pen": 4, "indirect": "artillery"}
    g = game_of(
        [unit("argonaut", weapons=[howitzer], pilot=pilot("skilled", "gunnery_expert"))], [unit("dervish")]
    )
    moved = plan(g, Shoot(attacker="0/a0", target="1/b0"))
    still = plan(g, Shoot(attacker="0/a0", target="1/b0", stationary=True))
    assert (moved.tn, still.tn) == (9 - 2 - 5, 9 - 1 - 5)  # L103
    assert moved.flat == 0  # no trait for indirect fire (L106)
    assert mean(
        api_odds(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "stationary": True}), "hits"
    ) > mean(api_odds(g, "shoot", {"attacker": "0/a0", "target": "1/b0"}), "hits")
    with pytest.raises(ValueError, match="no skill"):
        act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "skill": "make_it_count"}, TypedDice([9, 9]))
    h = game_of([unit("argonaut")], [unit("dervish")])
    assert (
        gates(h, "shoot", {"attacker": "0/a0", "target": "1/b0"})
        .fields["stationary"]
        .endswith("no artillery")
    )


def test_remote_weapons_for_momentum_blindside_and_shot_down_l595_l600() -> None:
    """Fired for 1 Momentum instead of an action, as a Blindside: +1 critical, shields ignored (L595-L597);
    an Ace's 10s on evade shoot down one of its shots each for the battle (L599-L600)."""
    bits = {"name": "Bits", "range": 32, "shots": 4, "damage": 300, "pen": 2, "indirect": "remote"}
    g = game_of([unit("white_asura", weapons=[bits])], [unit("blue_djinn", hp=9000)], momentum=(2, 0))
    raw = {"attacker": "0/a0", "target": "1/b0"}
    remote, by_action = plan(g, Shoot(**raw, remote=True)), plan(g, Shoot(**raw))
    assert (remote.crits, remote.blocks, by_action.crits, by_action.blocks) == (1, 0, 0, 1)  # Shield ignored
    assert mean(api_odds(g, "shoot", {**raw, "remote": True}), "hits") == 4  # 2 a die on 5+... and a critical
    assert mean(api_odds(g, "shoot", raw), "hits") < 2
    g = act(g, "shoot", {**raw, "remote": True, "defense": 0}, TypedDice([10, 10, 9, 9]))
    assert momentum(g, 0) == 1 and g.unit("0/a0")[2].state.counters["actions"] == 0
    assert "shoots down 2" in g.log[-1].text
    g = act(g, "end_turn", {"unit": "0/a0"}, TypedDice([]))
    g = next_round(round_over(g))
    g = act(g, "roll_off", {}, TypedDice([9, 1]))
    assert plan(g, Shoot(attacker="0/a0", target="1/b0")).shots == 2


def test_a_warship_defends_with_aa_def_and_makes_no_melee_attack_l954() -> None:
    """Ships make no melee attacks but defend with their AA DEF dice, all on defense (L954)."""
    g = game_of([unit("blue_djinn")], [unit("musarl")], momentum=(0, 0))
    strike, counter, *_ = pools(g, Clash(attacker="0/a0", target="1/b0", attack_dice=11))
    assert (strike.defense.dice, counter.attack.dice) == (4, 0)
    ships = game_of([unit("musarl")], [unit("blue_djinn")])
    ships = act(ships, "end_turn", {"unit": "1/b0"}, TypedDice([]))  # the warship phase (L949)
    assert gated_actions(ships)["0/a0"]["melee"].endswith("is a Stellar Warship: it makes no melee attacks")


def test_overwatch_odds_match_every_roll() -> None:
    """The odds shown before an Overwatch attack are those of every roll of it (one shot, one save)."""
    from test_mechastellar import brute

    gun = {"name": "Gun", "range": 16, "shots": 4, "damage": 600, "pen": 4, "overwatch": 1}
    g = game_of([unit("dervish", hp=1200, evade=3)], [unit("argonaut", weapons=[gun])], momentum=(0, 0))
    g = act(g, "charge", {"attacker": "0/a0", "target": "1/b0"}, TypedDice([]))
    inp = {"unit": "1/b0", "weapon": 0}

    def run(dice: TypedDice) -> int:
        return int(act(g, "overwatch", inp, dice).log[-1].detail["damage"])

    rolled = brute(run)
    o = api_odds(g, "overwatch", inp)
    shown = {
        r["value"]: Fraction(r["exactly"]) for r in o["tables"]["damage"]["rows"] if Fraction(r["exactly"])
    }
    assert shown == rolled and len(rolled) > 2


# --- Expanded Pilot Skills (module, L295-L341) --------------------------------------------------------


def _module(g: Game) -> Game:
    g.options["expanded_skills"] = True
    return g


def test_expanded_skills_are_offered_only_with_the_module_l297() -> None:
    from core.game import picks

    g = game_of([unit("argonaut")], [unit("dervish")], momentum=(3, 0))
    assert [p.value for p in picks(g, "shoot", "0/a0")["skill"]] == ["none", "make_it_count"]
    with pytest.raises(ValueError, match="module is off"):
        act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "skill": "bullseye_1"}, TypedDice([9] * 3))
    why = gates(g, "shoot", {"attacker": "0/a0", "target": "1/b0"}).fields["persevere"]
    assert why == "the Expanded Pilot Skills module is off"
    on = {p.value: p for p in picks(_module(g), "shoot", "0/a0")["skill"]}
    assert on["bullseye_3"].unavailable == "" and on["take_the_shot"].unavailable == ""
    g.sides[0].resources["momentum"] = 1
    on = {p.value: p for p in picks(g, "shoot", "0/a0")["skill"]}
    assert on["bullseye_2"].unavailable == "needs 2 Momentum"


def test_bullseye_giant_slayer_take_the_shot_l307_l316_l340() -> None:
    """Bullseye +1 Accuracy a Momentum (L307): each die 1 in 10 likelier to hit; Giant Slayer +1 PEN
    (L316): more failed saves; Take the Shot! with PEN 3+: the shield blocks nothing (L340)."""
    g = _module(game_of([unit("argonaut")], [unit("white_asura", save=0)], momentum=(3, 0)))
    raw = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    base = api_odds(g, "shoot", raw)
    p = plan(g, Shoot.model_validate(raw))
    assert plan(g, Shoot.model_validate({**raw, "skill": "bullseye_2"})).tn == p.tn + 2
    assert mean(api_odds(g, "shoot", {**raw, "skill": "bullseye_2"}), "hits") > mean(base, "hits")
    assert plan(g, Shoot.model_validate({**raw, "skill": "giant_slayer"})).weapon.pen == 6
    slayer = api_odds(g, "shoot", {**raw, "skill": "giant_slayer"})
    assert mean(slayer, "failed saves") > mean(base, "failed saves")
    assert (p.blocks, plan(g, Shoot.model_validate({**raw, "skill": "take_the_shot"})).blocks) == (1, 0)
    mg = {**raw, "weapon": 1, "skill": "take_the_shot"}  # PEN 0: the shield still blocks
    assert plan(g, Shoot.model_validate(mg)).blocks == 2
    g = act(g, "shoot", {**raw, "skill": "bullseye_3", "defense": 0}, TypedDice([9, 9, 9]))
    assert momentum(g, 0) == 0


def test_fire_vulcans_is_a_free_attack_l311_l312() -> None:
    """8", 3 + Frame Level shots, 200 damage, spending no action and no weapon (L311-L312)."""
    g = _module(game_of([unit("white_asura")], [unit("dervish", hp=9000)], momentum=(1, 0)))
    raw = {"attacker": "0/a0", "target": "1/b0", "skill": "fire_vulcans"}
    p = plan(g, Shoot.model_validate(raw))
    assert (p.shots, p.weapon.damage, p.weapon.pen) == (3 + 2, 200, 0)  # White Asura is Frame 2
    g = act(g, "shoot", raw, TypedDice([9] * 5))
    assert momentum(g, 0) == 0 and g.unit("0/a0")[2].state.counters["actions"] == 0
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, TypedDice([9] * 3))


def test_persevere_lowers_each_hit_l327_l330() -> None:
    """The target pays 1 Momentum: -100 a hit, -200 from Round 4, never under 100 (L329-L330)."""
    g = _module(game_of([unit("argonaut")], [unit("dervish", hp=9000)], momentum=(0, 2)))
    raw = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    base, tough = api_odds(g, "shoot", raw), api_odds(g, "shoot", {**raw, "persevere": True})
    assert mean(base, "damage") - mean(tough, "damage") == 100 * mean(base, "hits")
    late = g.model_copy(update={"round": 4})
    assert plan(late, Shoot.model_validate({**raw, "persevere": True})).weapon.damage == 300
    assert plan(late, Shoot.model_validate({**raw, "weapon": 1, "persevere": True})).weapon.damage == 100
    g = act(g, "shoot", {**raw, "persevere": True, "defense": 0}, TypedDice([1, 9, 9, 9, 9]))
    assert hp(g, "1/b0") == 9000 - 2 * 400 - 1000 * 0 and momentum(g, 1) == 1


# --- Commander traits (L482-L496) ---------------------------------------------------------------------


def test_unyielding_commander_rolls_failed_saves_again_l484() -> None:
    """Each failed Armor Save is rolled again: a save failing with chance p fails with p x p (L484)."""
    cannon = {"name": "Cannon", "range": 32, "shots": 1, "damage": 500, "pen": 6}
    raw = {"attacker": "0/a0", "target": "1/b0"}
    plain = game_of([unit("argonaut", weapons=[cannon])], [unit("dervish", save=0)])
    tough = game_of([unit("argonaut", weapons=[cannon])], [unit("dervish", save=0, commander="unyielding")])
    hit = mean(api_odds(plain, "shoot", raw), "hits")  # one shot: at most one save
    assert mean(api_odds(plain, "shoot", raw), "failed saves") == hit * Fraction(5, 10)  # PEN 6: fails on 1-5
    assert mean(api_odds(tough, "shoot", raw), "failed saves") == hit * Fraction(5, 10) ** 2
    strike, *_ = pools(
        game_of([unit("blue_djinn")], [unit("white_asura", commander="unyielding")]),
        Clash(attacker="0/a0", target="1/b0", attack_dice=6),
    )
    assert strike.save_pool(1).reroll_faces == (1, 2, 3, 4, 5)[: strike.saves_at - 1]


def test_galvanizing_display_and_rallying_leader_momentum_l494_l495() -> None:
    """Galvanizing Display: +1 on any turn the Commander is attacked, once (L494).  Rallying Leader: +1 an
    ally destroyed, +1 more if it was Frame 3+ or had a Skilled or Ace pilot (L495)."""
    gun = {"name": "Gun", "range": 24, "shots": 1, "damage": 5000}
    shooter = unit("argonaut", weapons=[gun, {**gun, "name": "Gun 2", "damage": 100}], accuracy=15)
    g = game_of([shooter], [unit("dervish", hp=9000, commander="galvanizing_display")], momentum=(0, 0))
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0"}, TypedDice([9]))
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 1, "defense": 0}, TypedDice([9]))
    assert momentum(g, 1) == 1
    ace = unit("dervish", pilot=pilot("ace"))
    h = game_of([shooter], [ace, unit("white_asura", commander="rallying_leader")], momentum=(0, 0))
    h = act(h, "shoot", {"attacker": "0/a0", "target": "1/b0", "defense": 0}, TypedDice([2]))
    assert h.unit("1/b0")[2].state.destroyed and momentum(h, 1) == 2


def test_one_skill_a_unit_turn_l253() -> None:
    """One skill a unit turn, on its own turn or the enemy's (L253): Make it Count! then no Skill Defense
    in the same turn's clash; Persevere then no Skill Defense against that shot; a Prodigy uses two
    (L469); Skill Defense itself repeats (L263)."""
    g = game_of([unit("jet_black_lancer")], [unit("kara", shield="none", hp=9000)], momentum=(3, 3))
    shot = {"attacker": "0/a0", "target": "1/b0", "skill": "make_it_count", "defense": 0}
    g = act(g, "shoot", shot, TypedDice([9] * 6))  # free against a Skilled pilot (Dogfight, L281)
    clash = {"attacker": "0/a0", "target": "1/b0", "weapon": 1, "attack_dice": 0, "defender_attack": 5}
    # Henry's 2 Heat Lancer dice, Kara's 5 attack dice, Henry's 7 defense dice, then the saves
    faces = [9, 9] + [9] * 5 + [1] * 7 + [9] * 5
    with pytest.raises(ValueError, match="cannot use Skill Defense: it has used a skill this turn"):
        act(g, "melee", {**clash, "defense": 0, "counter_defense": 1}, TypedDice(faces))
    after = act(g, "melee", {**clash, "defense": 0}, TypedDice(faces))  # not asked: he takes all 5 hits
    assert after.log[-1].detail["through"] == [2, 5]
    tough = _module(game_of([unit("argonaut", accuracy=15)], [unit("dervish", hp=9000)], momentum=(0, 3)))
    raw = {"attacker": "0/a0", "target": "1/b0", "weapon": 1, "persevere": True}
    took = act(tough, "shoot", raw, TypedDice([5] * 6))  # no Skill Defense to ask about
    assert took.log[-1].detail["landed"] == 6 and momentum(took, 1) == 2
    with pytest.raises(ValueError, match="cannot use Skill Defense"):
        act(tough, "shoot", {**raw, "defense": 2}, TypedDice([5] * 6))
    prodigy = unit("dervish", hp=9000, pilot=pilot("ace", "prodigy"))
    p = _module(game_of([unit("argonaut", accuracy=15)], [prodigy], momentum=(0, 3)))
    p = act(p, "shoot", {**raw, "defense": 2, "improvise": False}, TypedDice([5] * 6))  # 2 skills: asked
    assert p.log[-1].detail["landed"] == 6 - 2 and momentum(p, 1) == 0
