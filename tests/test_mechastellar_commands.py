"""MechaStellar: the Influence Commands, Climactic Events and pilot rules added last for issue 23, each
through core.api (game.act, game.odds, game.gates): offered only to a unit or side that has it, greyed
with the reason otherwise, refused if sent anyway, and its direction and size checked (lines are in
003_9a8631fd8c2279be.txt).  Pure Python, no browser.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

from test_mechastellar import game_of, momentum, round_over, unit
from test_mechastellar_traits import act, adjust, ask, call, mean, odds, pilot, refused

from core.game import Game, gated_actions, gates
from core.systems.mechastellar.melee import Clash, pools
from core.systems.mechastellar.shooting import Shoot, plan

CANNON = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}  # the Argonaut's Cannon: 3 shots, PEN 5
MG = {"attacker": "0/a0", "target": "1/b0", "weapon": 1}  # its Machine gun: 6 shots, PEN 0, Overwatch 3


def influence(g: Game, a: int = 3, b: int = 3) -> Game:
    """The Influence module on, each side's pool set."""
    g = adjust(g, ["options", "influence"], True)
    g = adjust(g, ["sides", 0, "resources", "influence"], a)
    return adjust(g, ["sides", 1, "resources", "influence"], b)


def next_round(g: Game) -> Game:
    g = Game.model_validate(call("game.round", {"game": round_over(g).model_dump(mode="json")}))
    return act(g, "roll_off", {}, [9, 2])


def options_of(asked: dict[str, Any]) -> list[Any]:
    return [o["value"] for o in asked["options"]]


# --- Lightning Raid (L841-L842) and Immortal (L399): "within 16 inches?" asked --------------------


def test_lightning_raid_plus_one_evade_within_16_asked_l842() -> None:
    """Lightning Raid (Standard, 2 Influence): this round the side's units evade +1 against shots from
    within 16"; the distance is the players' answer, asked when a shot is made at such a unit.  The +1 is
    an Evade bonus, under the +3 cap (L138).  The Argonaut's Cannon (ACC 9) at the Dervish (Evade +5)
    is evaded on 4+; within 16" of a raiding Dervish on 3+."""
    g = influence(game_of([unit("argonaut")], [unit("dervish")], momentum=(3, 0)), b=1)
    raid = {"unit": "1/b0", "command": "lightning_raid"}
    assert "costs 2 Influence" in refused(g, "command", raid)
    g = adjust(g, ["sides", 1, "resources", "influence"], 2)
    assert odds(g, "shoot", CANNON)["summary"].endswith("evades on 4+")
    assert act(g, "shoot", CANNON, [9, 9, 9]).log[-1].detail["hits"] == 0  # no raid: nothing asked
    raided = act(g, "command", raid)
    assert raided.sides[1].resources["influence"] == 0 and "Lightning Raid" in raided.log[-1].text
    asked = ask(raided, "shoot", CANNON, [3, 3, 3])
    assert asked["field"] == "near" and options_of(asked) == [True, False]
    assert odds(raided, "shoot", {**CANNON, "near": True})["summary"].endswith("evades on 3+")
    assert odds(raided, "shoot", {**CANNON, "near": False})["summary"].endswith("evades on 4+")
    # the faces [3, 3, 3]: three hits from afar, none within 16"
    assert act(raided, "shoot", {**CANNON, "near": False}, [3, 3, 3, 9, 9, 9]).log[-1].detail["hits"] == 3
    assert act(raided, "shoot", {**CANNON, "near": True}, [3, 3, 3]).log[-1].detail["hits"] == 0
    # never past the +3 cap: +3 of bonuses and the raid evade as +3 does
    capped = {**CANNON, "near": True, "evade_bonus": 3}
    assert (
        odds(raided, "shoot", capped)["summary"] == odds(g, "shoot", {**CANNON, "evade_bonus": 3})["summary"]
    )
    # gone next round
    assert odds(next_round(raided), "shoot", {**CANNON, "near": True})["summary"].endswith("evades on 4+")


def test_immortal_skill_defense_two_hits_a_momentum_within_16_l399() -> None:
    """Immortal: Skill Defense stops 2 shots a Momentum against an enemy within 16" (L399), asked; 1 a
    Momentum otherwise (L262).  Six Machine gun shots [2, 2, 2, 2, 9, 9] at the Dervish (evades on 3+):
    4 hits; 2 Momentum stop all 4 from within 16", 2 of them from afar."""
    dervish = unit("dervish", pilot=pilot("skilled", "immortal"))
    g = game_of([unit("argonaut")], [dervish], momentum=(3, 2))
    faces = [2, 2, 2, 2, 9, 9]
    assert ask(g, "shoot", MG, faces)["field"] == "near"
    near = ask(g, "shoot", {**MG, "near": True}, faces)
    assert near["field"] == "defense" and options_of(near)[:3] == [0, 1, 2]
    assert [o["label"] for o in near["options"]][1:3] == [
        "Spend 1 Momentum: 2 hits left",
        "Spend 2 Momentum: 0 hits left",
    ]
    after = act(g, "shoot", {**MG, "near": True, "defense": 2}, faces)
    assert after.unit("1/b0")[2].state.damage == 0 and momentum(after, 1) == 0
    far = act(g, "shoot", {**MG, "near": False, "defense": 2}, faces)
    assert far.unit("1/b0")[2].state.damage == 400 and momentum(far, 1) == 0
    # a Focus "within 16 inches" answers it too; a pilot without the trait is never asked
    plain = game_of([unit("argonaut")], [unit("dervish")], momentum=(3, 2))
    assert ask(plain, "shoot", MG, faces)["field"] == "defense"


# --- Infantry Ambush, Ambush!, Reinforcements (L814-L816, L830-L831, L847-L850) ---------------------


def test_infantry_ambush_200_to_up_to_five_enemies_once_a_battle_l831() -> None:
    """Infantry Ambush (Reaction, 1 Influence, once a battle): up to 5 enemy units, picked together, take
    200 damage each, no dice; a kill counts (+1 Momentum, L247)."""
    g = game_of([unit("argonaut")], [unit("dervish"), unit("white_asura"), unit("kara")], momentum=(3, 3))
    trap = {"unit": "0/a0", "command": "infantry_ambush"}
    assert "module is off" in refused(g, "command", trap)
    g = influence(g)
    asked = ask(g, "command", trap)
    assert asked["field"] == "targets" and asked["many"] and options_of(asked) == ["1/b0", "1/b1", "1/b2"]
    g.sides[1].units[2].state.damage = 2900  # Kara has 100 HP left
    after = act(g, "command", {**trap, "targets": ["1/b0", "1/b2"]})
    assert after.unit("1/b0")[2].state.damage == 200 and after.unit("1/b1")[2].state.damage == 0
    assert after.unit("1/b2")[2].state.destroyed and momentum(after, 0) == 4
    assert after.sides[0].resources["influence"] == 2
    assert "once a battle" in refused(next_round(after), "command", {**trap, "targets": ["1/b1"]})
    assert "enemy units" in refused(g, "command", {**trap, "targets": ["0/a0"]})


def test_ambush_and_reinforcements_l815_l848() -> None:
    """Ambush! (Standard, 1 Influence) for a Frame 1-2 unit: the Influence is spent and the round's
    Standard Command given; where they arrive is the players'.  Reinforcements: a destroyed Frame 1-2
    unit with a Basic pilot comes back whole; 100 points an Influence spent (L849): the Argonaut (150)
    costs 2, a second unit (the Dervish, 150) the same round 1 more (300 points for 3)."""
    joker = unit("joker")
    g = influence(
        game_of([unit("argonaut"), unit("dervish"), unit("jet_black_lancer"), joker], [unit("kara")]), a=3
    )
    amb = gates(g, "command", {"unit": "0/a3", "command": "ambush"})
    assert amb.values["command"]["ambush"] == "Sample: Joker is above Frame 2 (L815)"
    ambushed = act(g, "command", {"unit": "0/a0", "command": "ambush"})
    assert ambushed.sides[0].resources["influence"] == 2 and "players place them" in ambushed.log[-1].text
    assert "one Standard Command a round" in refused(
        ambushed, "command", {"unit": "0/a1", "command": "ambush"}
    )
    # Reinforcements: offered once the side has a unit it may bring back, which is asked
    back = {"unit": "0/a3", "command": "reinforcements"}
    assert gates(g, "command", back).values["command"]["reinforcements"] == (
        "Red has no destroyed Frame 1-2 unit with a Basic pilot (L848-L850)"
    )
    for u in (0, 1, 2, 3):
        g.sides[0].units[u].state.damage, g.sides[0].units[u].state.destroyed = 3000, u != 3
    g.sides[0].units[1].state.damage = 2500
    asked = ask(g, "command", back)
    assert asked["field"] == "fallen" and options_of(asked) == ["0/a0", "0/a1"]  # not the Skilled Lancer
    assert [o["label"] for o in asked["options"]] == [
        "Sample: Argonaut: 2 Influence",
        "Sample: Dervish: 2 Influence",
    ]
    assert "Skilled or Ace" in refused(g, "command", {**back, "fallen": "0/a2"})
    first = act(g, "command", {**back, "fallen": "0/a0"})
    a0 = first.unit("0/a0")[2].state
    assert not a0.destroyed and a0.damage == 0 and first.sides[0].resources["influence"] == 1
    second = act(first, "command", {**back, "fallen": "0/a1"})
    assert not second.unit("0/a1")[2].state.destroyed and second.sides[0].resources["influence"] == 0
    assert "2 Influence" in second.log[-2].text and "1 Influence" in second.log[-1].text
    # not once a unit has taken its turn
    started = act(g, "end_turn", {"unit": "0/a3"})
    assert "start of the round" in refused(started, "command", {**back, "fallen": "0/a0"})


# --- The Overwatch Command (L836-L838) --------------------------------------------------------------


def test_overwatch_command_three_shots_for_one_influence_l838() -> None:
    """The Overwatch Command (Reaction, 1 Influence): a unit fires a weapon's Overwatch at an enemy in
    range, at any time: the L838 example, a Machine gun with Overwatch III makes 3 shots.  Offered only to
    a unit with an Overwatch weapon."""
    g = game_of([unit("argonaut"), unit("dervish")], [unit("jet_black_lancer")], momentum=(0, 0))
    shot = {"unit": "0/a0", "target": "1/b0", "weapon": 1}
    assert gated_actions(g)["0/a0"]["overwatch_command"] == "the Influence module is off"
    g = influence(g, a=1)
    assert "0/a0" not in gated_actions(g) or "overwatch_command" not in gated_actions(g)["0/a0"]
    assert gated_actions(g)["0/a1"]["overwatch_command"] == "Sample: Dervish has no weapon with Overwatch"
    assert odds(g, "overwatch_command", shot)["summary"].startswith("3 Overwatch shots")
    # the Lancer: Evade +4 against ACC 9, evades on 5+; [1, 3, 8]: a critical and a hit = 3 hits, 200 each
    after = act(g, "overwatch_command", shot, [1, 3, 8])
    assert after.unit("1/b0")[2].state.damage == 600 and after.sides[0].resources["influence"] == 0
    assert "no Overwatch" in refused(g, "overwatch_command", {**shot, "weapon": 0}, [9, 9, 9])
    assert "1 Influence" in refused(after, "overwatch_command", shot, [9, 9, 9])


# --- Climactic Events: Last Shooting, Pyrrhic Victory, Bonds (L745-L756, L783-L788) -------------------


def events(g: Game) -> Game:
    return adjust(g, ["options", "climactic_events"], True)


def test_last_shooting_offered_as_a_unit_is_destroyed_l747_l750() -> None:
    """Last Shooting: a unit just destroyed fires one weapon once more, no action spent, offered on the
    result that destroyed it; never at a unit in melee (L750); too late once that unit turn has ended.
    The Dervish's Beam Rifle (ACC 8 vs Evade +2: 6+ evades) rolls [1, 9, 9]: a critical, 2 hits; PEN 6
    against Sv +1: saves on 5+, [9, 2]: one fails: 2 x 500 + 1000 = 2000."""
    g = events(game_of([unit("argonaut")], [unit("dervish"), unit("white_asura")], momentum=(0, 0)))
    g.sides[1].units[0].state.damage = 2400  # 100 HP left
    plain = game_of([unit("argonaut")], [unit("dervish")], momentum=(0, 0))
    plain.sides[1].units[0].state.damage = 2400
    assert "offers" not in act(plain, "shoot", MG, [2] + [9] * 5).log[-1].detail  # the module off
    assert gated_actions(g)["1/b1"]["last_shooting"] == "Sample: White Asura is not destroyed"
    after = act(g, "shoot", {**MG, "defense": 0}, [2] + [9] * 5)  # no Narrow Escape
    assert after.unit("1/b0")[2].state.destroyed
    assert after.log[-1].detail["offers"][0]["action"] == "last_shooting"
    assert after.log[-1].detail["offers"][0]["input"] == {"unit": "1/b0"}
    assert "last_shooting" not in gated_actions(after).get("1/b0", {})
    last = {"unit": "1/b0", "target": "0/a0", "weapon": 0, "defense": 0}
    assert odds(after, "last_shooting", last)["summary"].startswith("3 shots")
    shot = act(after, "last_shooting", last, [1, 9, 9, 9, 2])
    assert shot.unit("0/a0")[2].state.damage == 2000 and "Last Shooting" in shot.log[-1].text
    assert "has used its Event" in refused(shot, "last_shooting", last, [9, 9, 9])
    # not at a unit in melee; too late once the turn has ended
    engaged = adjust(after, ["sides", 0, "units", 0, "state", "conditions"], ["engaged"])
    assert "in melee" in refused(engaged, "last_shooting", last, [9, 9, 9])
    ended = act(after, "end_turn", {"unit": "0/a0"})
    assert "before this turn" in gated_actions(ended)["1/b0"]["last_shooting"]
    assert "before this turn" in refused(ended, "last_shooting", last, [9, 9, 9])


def test_pyrrhic_victory_a_counterattack_hit_for_every_two_taken_l756() -> None:
    """Pyrrhic Victory: asked of the clash's defender once it takes 2 hits or more: +1 counterattack hit
    for every 2.  Blue Djinn (4 attack dice of 11) hits the Dervish 3 times; the Dervish's 5 counterattack
    dice hit twice, Blue Djinn's Shield blocks one: 1 through, 2 with the Pyrrhic Victory (+1); the Beam
    Saber deals 500 a hit (its saves pass)."""
    g = events(game_of([unit("argonaut"), unit("blue_djinn")], [unit("dervish")], momentum=(0, 0)))
    clash = {
        "attacker": "0/a1",
        "target": "1/b0",
        "weapon": 0,
        "attack_dice": 4,
        "defender_attack": 5,
        "counter_defense": 0,
    }
    faces = [5, 6, 7, 1] + [5, 5, 1, 1, 1] + [1] * 7 + [9, 9, 9] + [9, 9]
    asked = ask(g, "melee", clash, faces)
    assert asked["field"] == "pyrrhic" and "+1" in asked["options"][1]["label"]
    no = act(g, "melee", {**clash, "pyrrhic": False}, faces[:-1])  # one save fewer
    yes = act(g, "melee", {**clash, "pyrrhic": True}, faces)
    assert no.unit("0/a1")[2].state.damage == 500 and yes.unit("0/a1")[2].state.damage == 1000
    assert no.unit("1/b0")[2].state.damage == yes.unit("1/b0")[2].state.damage == 1500
    assert "Pyrrhic Victory" in yes.log[-1].text
    assert "has used its Event" in gated_actions(yes)["1/b0"]["event"]
    # one hit taken: nothing asked; the module off: refused
    one = [5, 1, 1, 1] + [5, 5, 1, 1, 1] + [1] * 7 + [9] + [9]
    assert act(g, "melee", clash, one).unit("1/b0")[2].state.damage == 500
    off = adjust(g, ["options", "climactic_events"], False)
    assert "Climactic Events" in refused(off, "melee", {**clash, "pyrrhic": True}, faces)


def test_bonds_that_transcend_a_destroyed_unit_returns_with_100_hp_l785_l788() -> None:
    """Bonds that Transcend Time & Space: from Round 5, when its side is to activate a new unit, a destroyed
    unit (asked) returns with 100 HP and takes its turn at once."""
    g = events(game_of([unit("argonaut"), unit("dervish")], [unit("white_asura")], momentum=(3, 3)))
    bonds = {"unit": "0/a1", "event": "bonds"}
    g.sides[0].units[0].state.damage, g.sides[0].units[0].state.destroyed = 3000, True
    early = adjust(g, ["round"], 4)
    assert gates(early, "event", bonds).values["event"]["bonds"] == (
        "Bonds that Transcend Time & Space is used from Round 5 (L785)"
    )
    g = adjust(g, ["round"], 5)
    asked = ask(g, "event", bonds)
    assert asked["field"] == "fallen" and options_of(asked) == ["0/a0"]
    back = act(g, "event", {**bonds, "fallen": "0/a0"})
    a0 = back.unit("0/a0")[2].state
    assert not a0.destroyed and a0.max_damage - a0.damage == 100
    assert "taking its turn" in refused(back, "shoot", {**CANNON, "attacker": "0/a1"}, [9] * 3)
    assert act(back, "shoot", CANNON, [9, 9, 9]).log[-1].detail["hits"] == 0  # its turn, at once
    assert "has used its Event" in gated_actions(back)["0/a1"]["event"]
    # the other side's turn: refused
    theirs = adjust(g, ["state", "active_side"], 1)
    assert "turn to activate" in refused(theirs, "event", {**bonds, "fallen": "0/a0"})


def test_the_will_to_power_three_plain_hits_made_criticals_l781() -> None:
    """The Will to Power!: from Round 4 the Commander, asked after its evade dice, makes up to 3 plain hits
    criticals (2 hits each, L140).  The Machine gun at the Dervish (evades on 4+) rolls [1, 2, 3, 3, 9, 9]:
    a critical and 3 hits = 5, 1000 damage; with it 8, 1600.  Not a Commander, or before Round 4: not
    asked, and refused if sent."""
    boss = unit("argonaut", commander="bold_leader")
    g = events(adjust(game_of([boss], [unit("dervish")], momentum=(0, 0)), ["round"], 4))
    shot = {**MG, "defense": 0}
    faces = [1, 2, 3, 3, 9, 9]
    asked = ask(g, "shoot", shot, faces)
    assert asked["field"] == "will_to_power" and asked["options"][1]["label"] == "The Will to Power!: +3"
    assert act(g, "shoot", {**shot, "will_to_power": False}, faces).unit("1/b0")[2].state.damage == 1000
    used = act(g, "shoot", {**shot, "will_to_power": True}, faces)
    assert used.unit("1/b0")[2].state.damage == 1600 and "The Will to Power!" in used.log[-1].text
    assert used.log[-1].detail["hits"] == 8
    assert "has used its Event" in gated_actions(used)["0/a0"]["event"]
    # two plain hits: +2; the odds with it given count it
    assert ask(g, "shoot", shot, [1, 2, 3, 9, 9, 9])["options"][1]["label"] == "The Will to Power!: +2"
    assert mean(odds(g, "shoot", {**shot, "will_to_power": True}), "hits") > mean(
        odds(g, "shoot", shot), "hits"
    )
    # the exact odds agree with every roll of the Cannon's 3 dice (evades on 4+: 1 a critical, 2-3 a hit)
    counts: dict[int, int] = {}
    for roll in itertools.product(range(1, 11), repeat=3):
        crits, plain = roll.count(1), sum(f in (2, 3) for f in roll)
        n = plain + 2 * crits + min(3, plain)
        counts[n] = counts.get(n, 0) + 1
    rows = odds(g, "shoot", {**CANNON, "will_to_power": True})["tables"]["hits"]["rows"]
    assert {r["value"]: Fraction(r["exactly"]) for r in rows if Fraction(r["exactly"])} == {
        k: Fraction(c, 1000) for k, c in counts.items()
    }
    # Round 3, or a unit that is not the Commander: not asked, refused if sent
    early = adjust(g, ["round"], 3)
    assert act(early, "shoot", shot, faces).unit("1/b0")[2].state.damage == 1000
    assert "from Round 4" in refused(early, "shoot", {**shot, "will_to_power": True}, faces)
    plain = events(adjust(game_of([unit("argonaut")], [unit("dervish")], momentum=(0, 0)), ["round"], 4))
    assert act(plain, "shoot", shot, faces).unit("1/b0")[2].state.damage == 1000


# --- Pilot traits and skills: Merciless Melee's second clash (L443) --------------------------------


def clash_with_fours(g: Game, inp: dict[str, Any]) -> Game:
    """A clash rolled with 4s (no hit, no block, a save against PEN 3 passed): as many as it asks for."""
    faces: list[int] = []
    while True:
        reply = call(
            "game.act", {"game": g.model_dump(mode="json"), "action": "melee", "input": inp, "faces": faces}
        )
        if reply["complete"]:
            return Game.model_validate(reply["game"])
        assert reply["need"], reply
        faces += [4] * reply["need"]["count"]


def test_merciless_melee_a_second_clash_at_a_new_target_l443() -> None:
    """Merciless Melee: the unit may clash a second time on its turn, at a new target; a third, or the same
    target again, is refused, as is any second clash for a pilot without the trait (L28)."""
    djinn = unit("blue_djinn", pilot=pilot("ace", "merciless_melee"))
    g = game_of([djinn], [unit("dervish"), unit("white_asura")], momentum=(0, 0))
    first = {"attacker": "0/a0", "target": "1/b0", "attack_dice": 11, "defender_attack": 0}
    first = {**first, "defense": 0, "counter_defense": 0}
    g = clash_with_fours(g, first)
    assert "new target" in refused(g, "melee", first, [1] * 30)
    g = clash_with_fours(g, {**first, "target": "1/b1"})
    assert "Sample: White Asura" in g.log[-1].text and g.unit("0/a0")[2].state.damage == 0
    assert "once a turn (Merciless Melee: twice)" in refused(g, "melee", first, [1] * 30)
    plain = game_of([unit("blue_djinn")], [unit("dervish"), unit("white_asura")], momentum=(0, 0))
    plain = clash_with_fours(plain, first)
    assert "once a turn (L28" in refused(plain, "melee", {**first, "target": "1/b1"}, [1] * 30)


def test_giant_slayer_in_melee_one_more_pen_against_a_larger_unit_l316() -> None:
    """Giant Slayer (1 Momentum) in the clash: +1 ARM PEN, +1 more against a unit of larger Size (L316).
    Blue Djinn's Heat Sword (PEN 3) against the Joker (Size 2, Sv +0): saves on 5+ instead of 3+; against
    the Dervish (Size 1): 4+.  Not with a [CC] weapon (no PEN, L557); greyed with the module off."""
    g = game_of([unit("blue_djinn"), unit("joker")], [unit("joker"), unit("dervish")], momentum=(1, 0))
    clash = {"attacker": "0/a0", "target": "1/b0", "weapon": 0, "attack_dice": 6, "defender_attack": 5}
    assert gates(g, "melee", {**clash, "giant_slayer": True}).fields["giant_slayer"] == (
        "the Expanded Pilot Skills module is off"
    )
    assert "module is off" in refused(g, "melee", {**clash, "giant_slayer": True}, [5] * 40)
    g = adjust(g, ["options", "expanded_skills"], True)
    slay = {**clash, "giant_slayer": True}
    assert pools(g, Clash.model_validate(clash))[0].saves_at == 3
    assert pools(g, Clash.model_validate(slay))[0].saves_at == 5
    assert pools(g, Clash.model_validate({**slay, "target": "1/b1"}))[0].saves_at == 4
    after = clash_with_fours(g, {**slay, "defense": 0, "counter_defense": 0})
    assert momentum(after, 0) == 1  # 1 paid, 1 gained for the melee (L246)
    assert after.unit("0/a0")[2].state.extra["skills"] == ["giant_slayer"]
    fists = {**slay, "attacker": "0/a1", "weapon": 2}
    assert "[CC] weapon" in refused(g, "melee", fists, [5] * 40)
    broke = adjust(g, ["sides", 0, "resources", "momentum"], 0)
    assert gates(broke, "melee", slay).fields["giant_slayer"] == "needs 1 Momentum"


def test_titan_power_into_full_throttle_and_accelerate_l79_l303() -> None:
    """A Super Titan puts 1 Power a inch into its Full Throttle, at most +5" (L79), out of the Power it has
    free until its next turn (L159).  Accelerate (Expanded Pilot Skills): the Full Throttle spends no
    action, for 1 Momentum, free from Round 4 (L301-L303); its benefit is still once a turn (L80)."""
    g = game_of([unit("joker", power=4), unit("dervish")], [unit("white_asura")], momentum=(1, 0))
    assert gates(g, "throttle", {"unit": "0/a1", "power": 2}).fields["power"] == (
        "Sample: Dervish is not a Super Titan"
    )
    assert "4 Power free" in refused(g, "throttle", {"unit": "0/a0", "power": 5})
    run = act(g, "throttle", {"unit": "0/a0", "power": 3})
    assert 'Move +8" (3 Power)' in run.log[-1].text
    assert run.unit("0/a0")[2].state.extra["powered"] == ["move:3"]
    assert run.unit("0/a0")[2].state.counters["actions"] == 1
    # Accelerate
    fast = {"unit": "0/a1", "accelerate": True}
    assert gates(g, "throttle", fast).fields["accelerate"] == "the Expanded Pilot Skills module is off"
    g = adjust(g, ["options", "expanded_skills"], True)
    quick = act(g, "throttle", fast)
    assert quick.unit("0/a1")[2].state.counters.get("actions", 0) == 0 and momentum(quick, 0) == 0
    assert "benefit this turn" in refused(quick, "throttle", {"unit": "0/a1"})
    broke = adjust(g, ["sides", 0, "resources", "momentum"], 0)
    assert "needs 1 Momentum" in refused(broke, "throttle", fast)
    late = act(adjust(broke, ["round"], 4), "throttle", fast)  # free from Round 4
    assert momentum(late, 0) == 0 and "Accelerate" in late.log[-1].text


def test_shooting_counterattack_fires_back_for_two_momentum_l334() -> None:
    """Shooting Counterattack (Expanded Pilot Skills, 2 Momentum): a unit that survives a shot fires one
    weapon back at the shooter at once, no action spent, offered on the shot's result.  The Dervish's Beam
    Rifle at the Argonaut (evades on 6+) rolls [1, 9, 9]: a critical, 2 hits of 500, saves [9, 9] pass."""
    g = game_of([unit("argonaut")], [unit("dervish")], momentum=(3, 2))
    miss = [9] * 6
    assert "offers" not in act(g, "shoot", MG, miss).log[-1].detail  # the module off
    g = adjust(g, ["options", "expanded_skills"], True)
    assert (
        gated_actions(g)["1/b0"]["counterattack"] == "Sample: Dervish has not been shot at this turn (L334)"
    )
    after = act(g, "shoot", MG, miss)
    offer = after.log[-1].detail["offers"][0]
    assert offer["action"] == "counterattack" and offer["input"] == {"unit": "1/b0", "target": "0/a0"}
    back = {"unit": "1/b0", "target": "0/a0", "weapon": 0, "defense": 0}
    fired = act(after, "counterattack", back, [1, 9, 9, 9, 9])
    assert fired.unit("0/a0")[2].state.damage == 1000 and momentum(fired, 1) == 0
    assert fired.unit("0/a0")[2].state.counters["actions"] == 1  # the Argonaut's turn goes on
    again = adjust(fired, ["sides", 1, "resources", "momentum"], 2)
    assert "used that skill this turn" in refused(again, "counterattack", back)  # one skill a turn (L253)
    poorer = adjust(after, ["sides", 1, "resources", "momentum"], 1)
    assert "needs 2 Momentum" in refused(poorer, "counterattack", back)
    poor = adjust(g, ["sides", 1, "resources", "momentum"], 1)
    assert "offers" not in act(poor, "shoot", MG, miss).log[-1].detail


def test_guardian_an_ally_takes_the_hits_with_its_own_saves_l811_l813() -> None:
    """Guardian (Reaction, 1 Influence): after a unit fails to evade or block, another unit of its side
    takes the hits left, offered with Skill Defense; its reach (5", 10" with Move 20+) is the players'.
    The Cannon's [1, 9, 9] at the Dervish: a critical, 2 hits of 500; White Asura (Sv +2) guards: saves
    on 3+, [4, 9] pass: 1000, where the Dervish (Sv +0, 5+) would have failed one: 2000."""
    g = influence(game_of([unit("argonaut")], [unit("dervish"), unit("white_asura")], momentum=(3, 0)), b=1)
    faces = [1, 9, 9, 4, 9]
    asked = ask(g, "shoot", CANNON, faces)
    guard = next(o for o in asked["options"] if o["also"].get("guardian"))
    assert guard["label"] == 'Guardian: Sample: White Asura, within 5", takes them (1 Influence)'
    assert act(g, "shoot", {**CANNON, "defense": 0}, faces).unit("1/b0")[2].state.damage == 2000
    guarded = act(g, "shoot", {**CANNON, "defense": 0, "guardian": "1/b1"}, faces)
    assert guarded.unit("1/b0")[2].state.damage == 0 and guarded.unit("1/b1")[2].state.damage == 1000
    assert guarded.sides[1].resources["influence"] == 0 and "Guardian" in guarded.log[-1].text
    # no Influence left: not offered (nothing asked), refused if sent
    poor = adjust(g, ["sides", 1, "resources", "influence"], 0)
    assert act(poor, "shoot", CANNON, faces).unit("1/b0")[2].state.damage == 2000
    assert "Guardian needs 1 Influence" in refused(poor, "shoot", {**CANNON, "guardian": "1/b1"}, faces)


def test_coordinated_attack_two_more_units_act_at_once_l826_l829() -> None:
    """Coordinated Attack! (Reaction; 1 Influence a Frame 1-2 unit, 2 above): as a unit's turn ends, one or
    two more of its side take their turns at once, each shooting or fighting in melee, not both; the Return
    Fire owed waits until the last has acted (L41)."""
    g = influence(
        game_of(
            [unit("argonaut"), unit("blue_djinn"), unit("joker"), unit("dervish")],
            [unit("dervish"), unit("white_asura")],
            momentum=(0, 0),
        ),
        a=3,
    )
    join = {"unit": "0/a1", "command": "coordinated_attack"}
    assert "as one of the side's units ends its turn" in refused(g, "command", join)
    g = act(g, "shoot", MG, [9] * 6)  # the Argonaut's turn: the Dervish will owe Return Fire
    g = act(g, "command", join)
    assert g.sides[0].resources["influence"] == 2
    assert "costs 2 Influence for Sample: Joker" in refused(
        adjust(g, ["sides", 0, "resources", "influence"], 1), "command", {**join, "unit": "0/a2"}
    )
    g = act(g, "command", {**join, "unit": "0/a2"})
    assert g.sides[0].resources["influence"] == 0
    g = act(g, "end_turn", {"unit": "0/a0"})
    assert "Coordinated Attack!" in g.log[-1].text and g.state.active_side == 0
    assert "Red's turn" in refused(g, "throttle", {"unit": "1/b0"})  # Return Fire waits
    assert "Coordinated Attack!" in refused(g, "throttle", {"unit": "0/a3"})  # not one of the two
    whip = {"attacker": "0/a1", "target": "1/b1", "weapon": 1}
    g = act(g, "shoot", whip, [9, 9])
    clash = {"attacker": "0/a1", "target": "1/b1", "attack_dice": 6, "defender_attack": 3}
    assert "may not fight in melee too" in refused(g, "melee", clash, [5] * 30)
    g = act(g, "end_turn", {"unit": "0/a1"})
    assert g.state.active_side == 0 and "Sample: Joker" in g.log[-1].text
    g = act(g, "end_turn", {"unit": "0/a2"})
    assert (
        g.state.active_side == 1 and "Return Fire by Sample: Dervish or Sample: White Asura" in g.log[-1].text
    )


def test_mayhem_an_overwatch_iii_after_melee_plus_one_pen_point_blank_l323_l325() -> None:
    """Mayhem! (Expanded Pilot Skills, 1 Momentum): after its melee attack this turn, a free Overwatch III
    attack (3 shots) with a shooting weapon; +1 ARM PEN fired point-blank at the unit it fought."""
    g = game_of([unit("blue_djinn")], [unit("dervish"), unit("white_asura")], momentum=(2, 0))
    g = adjust(g, ["options", "expanded_skills"], True)
    may = {"attacker": "0/a0", "target": "1/b0", "weapon": 1, "skill": "mayhem", "defense": 0}
    picks = call("game.picks", {"game": g.model_dump(mode="json"), "action": "shoot", "actor": "0/a0"})
    mayhem = next(k for k in picks["fields"]["skill"] if k["value"] == "mayhem")
    assert mayhem["unavailable"] == "after its melee attack this turn"
    assert "not attacked in melee" in refused(g, "shoot", may, [9] * 3)
    g = clash_with_fours(g, {"attacker": "0/a0", "target": "1/b0", "attack_dice": 11, "defender_attack": 0})
    assert odds(g, "shoot", may)["summary"].startswith("3 shots")  # the Arc Whip has 2
    assert plan(g, Shoot.model_validate(may)).weapon.pen == 1  # point-blank: PEN 0 + 1
    assert plan(g, Shoot.model_validate({**may, "target": "1/b1"})).weapon.pen == 0
    actions = g.unit("0/a0")[2].state.counters.get("actions", 0)
    after = act(g, "shoot", may, [9] * 3)
    assert momentum(after, 0) == momentum(g, 0) - 1
    assert after.unit("0/a0")[2].state.counters.get("actions", 0) == actions  # free (L323)


def test_tear_through_the_ranks_the_weapon_fires_again_after_a_kill_l356_l361() -> None:
    """Tear through the Ranks (Expanded Pilot Skills, 3 Momentum, paid once): once a weapon has destroyed an
    enemy on the unit's turn, it fires at a new target, no action spent, offered on the kill; a third
    target only after a second kill (L361)."""
    foes = [unit("dervish"), unit("white_asura"), unit("jet_black_lancer")]
    g = game_of([unit("argonaut")], foes, momentum=(3, 0))
    g.sides[1].units[0].state.damage = 2400  # the Dervish has 100 HP left
    kill = {**MG, "defense": 0}
    assert "offers" not in act(g, "shoot", kill, [2] + [9] * 5).log[-1].detail  # the module off
    g = adjust(g, ["options", "expanded_skills"], True)
    g = act(g, "shoot", kill, [2] + [9] * 5)
    offer = g.log[-1].detail["offers"][0]
    assert offer == {
        "action": "shoot",
        "input": {"attacker": "0/a0", "weapon": 1, "tear": True},
        "label": "Tear through the Ranks: the Machine gun at a new target (3 Momentum)",
    }
    assert momentum(g, 0) == 4  # +1 for the kill (L247)
    tear = {**MG, "target": "1/b1", "tear": True, "defense": 0}
    assert "not destroyed an enemy" in refused(g, "shoot", {**tear, "weapon": 0}, [9] * 3)
    torn = act(g, "shoot", tear, [9] * 6)  # every shot evaded: no kill, no third target
    assert momentum(torn, 0) == 1 and torn.unit("0/a0")[2].state.counters["actions"] == 1
    assert "not destroyed an enemy since" in refused(torn, "shoot", {**tear, "target": "1/b2"}, [9] * 6)
    assert "a weapon fires once a turn" in refused(torn, "shoot", {**MG, "target": "1/b2"}, [9] * 6)
    # a second kill: a third target, paid already; no fourth
    g.sides[1].units[1].state.damage = 2900
    second = act(g, "shoot", tear, [1, 1] + [9] * 4)  # 4 hits, its Shield blocks 2
    assert second.unit("1/b1")[2].state.destroyed and "(paid)" in second.log[-1].detail["offers"][0]["label"]
    third = act(second, "shoot", {**tear, "target": "1/b2"}, [9] * 6)
    assert momentum(third, 0) == momentum(second, 0)
    assert "a third target at most" in refused(third, "shoot", {**tear, "target": "1/b2"}, [9] * 6)


def test_all_out_attack_dangerbear_shuts_down_on_a_4_l347_l354() -> None:
    """All-Out Attack (Expanded Pilot Skills, 3 Momentum): 3 more actions, for shooting or Power only.  The
    L354 example: Dangerbear fires extra weapons with 2 of them and takes +3 Power with the third, risks the
    bonus +5 Power, rolls a 4 as her turn ends and shuts down until her next turn."""
    bear = unit("joker", name="Dangerbear", power=10, actions=1, roles=[])  # the sample is Heavy Arms
    g = game_of([bear], [unit("dervish")], momentum=(3, 0))
    assert gated_actions(g)["0/a0"]["all_out"] == "the Expanded Pilot Skills module is off"
    g = adjust(g, ["options", "expanded_skills"], True)
    g = act(g, "all_out", {"unit": "0/a0", "surge": True})
    assert momentum(g, 0) == 0 and g.unit("0/a0")[2].state.extra["surge"]
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    g = act(g, "shoot", shot, [9, 9, 9])  # its own action
    g = act(g, "shoot", {**shot, "weapon": 1}, [9, 9])  # All-Out Attack's first
    assert "for shooting or Power only" in refused(g, "throttle", {"unit": "0/a0"})
    g = act(g, "focus", {"unit": "0/a0", "power": True})  # its second, for +3 Power
    asked = ask(g, "end_turn", {"unit": "0/a0"}, [4])
    assert asked["field"] == "penalty" and options_of(asked) == ["shutdown"]  # no 3 Momentum to lose
    down = act(g, "end_turn", {"unit": "0/a0", "penalty": "shutdown"}, [4])
    assert "shut_down" in down.unit("0/a0")[2].state.conditions and "shuts down" in down.log[-1].text
    rich = adjust(g, ["sides", 0, "resources", "momentum"], 3)
    assert options_of(ask(rich, "end_turn", {"unit": "0/a0"}, [4])) == ["momentum", "shutdown"]
    paid = act(rich, "end_turn", {"unit": "0/a0", "penalty": "momentum"}, [4])
    assert momentum(paid, 0) == 0 and "shut_down" not in paid.unit("0/a0")[2].state.conditions
    assert "no harm" in act(g, "end_turn", {"unit": "0/a0"}, [5]).log[-1].text
    heavy = adjust(
        game_of([unit("joker")], [unit("dervish")], momentum=(3, 0)), ["options", "expanded_skills"], True
    )
    assert momentum(act(heavy, "all_out", {"unit": "0/a0"}), 0) == 1  # Heavy Arms: 2 (L352)


def test_improvise_rolls_the_failed_evade_dice_again_l318_l320() -> None:
    """Improvise (Expanded Pilot Skills, 1 Momentum, then for the rest of the turn): asked of the target
    after the roll, its evade dice that let shots through are rolled again.  The Machine gun's
    [1, 2, 9, 9, 9, 9] at the Dervish (4+ evades): 3 hits; the 1 and the 2 rolled again [9, 9]: none."""
    g = game_of([unit("argonaut")], [unit("dervish")], momentum=(3, 1))
    faces = [1, 2, 9, 9, 9, 9]
    assert ask(g, "shoot", MG, faces)["field"] == "defense"  # the module off: Skill Defense only
    g = adjust(g, ["options", "expanded_skills"], True)
    asked = ask(g, "shoot", MG, faces)
    assert asked["field"] == "improvise" and "roll again the 2 evade dice" in asked["prompt"]
    kept = act(g, "shoot", {**MG, "improvise": False, "defense": 0}, faces)
    assert kept.unit("1/b0")[2].state.damage == 600
    saved = act(g, "shoot", {**MG, "improvise": True}, [*faces, 9, 9])
    assert saved.unit("1/b0")[2].state.damage == 0 and momentum(saved, 1) == 0
    assert saved.log[-1].detail["evade"] == [9, 9, 9, 9, 9, 9]
    # the rest of the turn: free, and the turn's skill (no Skill Defense with it, L253)
    again = adjust(saved, ["sides", 1, "resources", "momentum"], 2)
    second = ask(again, "shoot", CANNON, [1, 9, 9])
    assert second["field"] == "improvise" and "paid this turn" in second["prompt"]
    hit = act(again, "shoot", {**CANNON, "improvise": False}, [1, 9, 9, 9, 9])  # no Skill Defense asked
    assert hit.unit("1/b0")[2].state.damage == 1000 and momentum(hit, 1) == 2


def test_furious_fusillade_splits_the_first_attack_over_two_targets_l438() -> None:
    """Furious Fusillade: the unit's first shooting attack on its turn may split one weapon's shots over
    two targets: 4 of the Machine gun's 6 at the Dervish, the other 2 offered at a second target, with no
    action more.  Greyed for a pilot without the trait; refused after the first attack."""
    gunner = unit("argonaut", pilot=pilot("ace", "furious_fusillade"))
    g = game_of([gunner], [unit("dervish"), unit("white_asura")], momentum=(0, 0))
    plain = game_of([unit("argonaut")], [unit("dervish")], momentum=(0, 0))
    assert gates(plain, "shoot", {**MG, "split": 4}).fields["split"] == (
        "Sample: Argonaut's pilot has no Furious Fusillade"
    )
    assert "at least one for the second target" in refused(g, "shoot", {**MG, "split": 6}, [9] * 6)
    assert odds(g, "shoot", {**MG, "split": 4})["summary"].startswith("4 shots")
    first = act(g, "shoot", {**MG, "split": 4}, [9] * 4)
    offer = first.log[-1].detail["offers"][0]
    assert offer["input"] == {"attacker": "0/a0", "weapon": 1, "second": True}
    assert offer["label"] == "Furious Fusillade: the other 2 shots at a second target"
    rest = {**MG, "target": "1/b1", "second": True}
    assert odds(first, "shoot", rest)["summary"].startswith("2 shots")
    assert "second target" in refused(first, "shoot", {**rest, "target": "1/b0"}, [9, 9])
    done = act(first, "shoot", rest, [9, 9])
    assert done.unit("0/a0")[2].state.counters["actions"] == 1  # one action for the whole attack
    assert "no shots of this weapon are left" in refused(done, "shoot", rest, [9, 9])
    assert "first shooting attack" in refused(done, "shoot", {**CANNON, "split": 1}, [9] * 3)


def test_missile_screen_overwatch_v_and_the_missiles_used_up_l833_l834() -> None:
    """Missile Screen! (Standard, 1 Influence): this round the side's missiles and rockets have Overwatch V;
    fired as Overwatch they are used up.  Offered to a side with missiles only."""
    pod = {"name": "Missile pod", "range": 24, "shots": 4, "damage": 300, "pen": 2, "missile": True}
    rocketeer = unit("argonaut", name="Rocketeer", weapons=[*unit("argonaut")["weapons"], pod])
    g = influence(game_of([unit("dervish")], [rocketeer], momentum=(0, 0)), a=1, b=1)
    screen = {"unit": "1/b0", "command": "missile_screen"}
    assert gates(g, "command", {**screen, "unit": "0/a0"}).values["command"]["missile_screen"] == (
        "Red has no missiles or rockets"
    )
    charge = {"attacker": "0/a0", "target": "1/b0"}
    ow = {"unit": "1/b0", "weapon": 2}
    assert "no Overwatch on that weapon" in refused(act(g, "charge", charge), "overwatch", ow, [9] * 5)
    g = act(g, "command", screen)
    charged = act(g, "charge", charge)
    assert "Missile pod (5 shots)" in charged.log[-1].text
    assert odds(charged, "overwatch", ow)["summary"].startswith("5 Overwatch shots")
    fired = act(charged, "overwatch", ow, [9] * 5)
    assert fired.unit("1/b0")[2].state.extra["spent"] == [2]
    picks = call("game.picks", {"game": fired.model_dump(mode="json"), "action": "shoot", "actor": "1/b0"})
    assert picks["fields"]["weapon"][2]["unavailable"] == "used up by Missile Screen!"
    later = act(fired, "end_turn", {"unit": "0/a0"})
    pod_shot = {"attacker": "1/b0", "target": "0/a0", "weapon": 2}
    assert "used up by a Missile Screen!" in refused(later, "shoot", pod_shot, [9] * 4)


def test_improvise_in_the_clash_rolls_the_defense_dice_again_l320() -> None:
    """Improvise in the Melee Clash: the defender's defense dice that blocked nothing are rolled again.
    Blue Djinn's [5, 6, 7, 1]: 3 hits; the Dervish's defense [1, 1, 1, 1, 9]: 1 block, 2 through (1000);
    its four misses rolled again [9, 9, 9, 1]: 4 blocks, none through."""
    g = game_of([unit("blue_djinn")], [unit("dervish")], momentum=(0, 1))
    g = adjust(g, ["options", "expanded_skills"], True)
    clash = {"attacker": "0/a0", "target": "1/b0", "attack_dice": 4, "defender_attack": 0}
    rolled = [5, 6, 7, 1] + [1, 1, 1, 1, 9] + [1] * 7
    asked = ask(g, "melee", clash, rolled)
    assert asked["field"] == "improvise" and "4 defense dice that blocked nothing" in asked["prompt"]
    kept = act(g, "melee", {**clash, "improvise": False, "defense": 0}, [*rolled, 9, 9])
    assert kept.unit("1/b0")[2].state.damage == 1000
    saved = act(g, "melee", {**clash, "improvise": True}, [*rolled, 9, 9, 9, 1])
    assert saved.unit("1/b0")[2].state.damage == 0 and momentum(saved, 1) == 0
    assert saved.log[-1].detail["defense"] == [9, 9, 9, 1, 9]


def test_tear_through_the_ranks_in_melee_l359_l360() -> None:
    """Tear through the Ranks in melee: after a kill in the clash, the same weapon clashes with a new unit
    (Move +5", the players'); only the first melee attack gains its Momentum (L360)."""
    g = game_of([unit("blue_djinn")], [unit("dervish"), unit("white_asura")], momentum=(3, 0))
    g = adjust(g, ["options", "expanded_skills"], True)
    first = {"attacker": "0/a0", "target": "1/b0", "weapon": 0, "attack_dice": 11, "defender_attack": 0}
    g = act(g, "melee", first, [5] * 11 + [1] * 5 + [9, 9, 9])  # 11 hits, 5500: destroyed
    assert g.unit("1/b0")[2].state.destroyed and momentum(g, 0) == 5  # +1 melee, +1 kill (L246-L247)
    offer = g.log[-1].detail["offers"][0]
    assert offer["action"] == "melee" and offer["input"] == {"attacker": "0/a0", "weapon": 0, "tear": True}
    assert offer["label"] == 'Tear through the Ranks: the Heat Sword at a new target (3 Momentum), Move +5"'
    second = {**first, "target": "1/b1"}
    assert "once a turn" in refused(g, "melee", second, [1] * 30)
    torn = act(g, "melee", {**second, "tear": True}, [1] * 11 + [1] * 7)
    assert momentum(torn, 0) == 2  # 3 paid, no melee Momentum this time (L360)


def test_fleet_commander_vigilant_leader_for_warships_only_l480_l501() -> None:
    """Commander traits do not help warships (L480); a Fleet Commander, a warship given the Commander's
    trait, applies it to the side's warships (L501).  The Musarl's Mega Particle Cannon (ACC 8) at the
    Dervish (Evade +5) is evaded on 3+; on 4+ with a Vigilant Fleet Commander, and not with a Vigilant
    Commander mobile suit, whose +1 is the mobile suits' (the Argonaut's Cannon: 4+ to 5+)."""
    cannon = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    argonaut = {**cannon, "attacker": "0/a1"}

    def ships_phase(g: Game) -> Game:  # every other unit has acted: the warship phase (L949)
        for side in g.sides:
            for u in side.units:
                u.state.activated = u.profile.get("kind") != "warship"
        return g

    def game(ship: dict[str, Any], suit: dict[str, Any]) -> Game:
        return game_of([ship, suit], [unit("dervish")])

    plain = game(unit("musarl"), unit("argonaut"))
    assert odds(ships_phase(plain), "shoot", cannon)["summary"].endswith("evades on 3+")
    ms_boss = game(unit("musarl"), unit("argonaut", commander="vigilant_leader"))
    assert odds(ms_boss, "shoot", argonaut)["summary"].endswith("evades on 5+")
    assert odds(ships_phase(ms_boss), "shoot", cannon)["summary"].endswith("evades on 3+")
    fleet = game(unit("musarl", commander="vigilant_leader"), unit("argonaut"))
    assert odds(fleet, "shoot", argonaut)["summary"].endswith("evades on 4+")
    assert odds(ships_phase(fleet), "shoot", cannon)["summary"].endswith("evades on 4+")
