"""MechaStellar: the Commander traits and pilot traits added for issue 23 (Three Times as Fast!, Commando,
Decimator, Fighting Spirit, Heroic Spirit, Lone Wolf), each through core.api (game.act, game.odds,
game.gates): offered only to a unit that has it, refused otherwise, and its direction and size checked
(lines are in 003_9a8631fd8c2279be.txt).  Pure Python, no browser.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest
from test_mechastellar import game_of, momentum, round_over, unit

from core import api
from core.game import Game, gated_actions, gates
from core.steps import FacePool
from core.systems.mechastellar.melee import Clash, pools
from core.systems.mechastellar.space import margin

MG = {"name": "Machine gun", "range": 16, "shots": 6, "damage": 200, "pen": 0}


def call(op: str, args: dict[str, Any]) -> dict[str, Any]:
    reply = api.call(op, args)
    assert reply["ok"], reply
    result: dict[str, Any] = reply["result"]
    return result


def act(g: Game, action: str, inp: dict[str, Any], faces: list[int] | None = None) -> Game:
    """game.act through the seam; the game after it (an ask fails the test)."""
    out = call(
        "game.act", {"game": g.model_dump(mode="json"), "action": action, "input": inp, "faces": faces or []}
    )
    assert out["complete"], out
    return Game.model_validate(out["game"])


def ask(g: Game, action: str, inp: dict[str, Any], faces: list[int] | None = None) -> dict[str, Any]:
    """What game.act asks the players before it can go on."""
    out = call(
        "game.act", {"game": g.model_dump(mode="json"), "action": action, "input": inp, "faces": faces or []}
    )
    assert not out["complete"] and out["ask"], out
    ask_: dict[str, Any] = out["ask"]
    return ask_


def refused(g: Game, action: str, inp: dict[str, Any], faces: list[int] | None = None) -> str:
    reply = api.call(
        "game.act", {"game": g.model_dump(mode="json"), "action": action, "input": inp, "faces": faces or []}
    )
    assert not reply["ok"], reply
    message: str = reply["error"]["message"]
    return message


def odds(g: Game, action: str, inp: dict[str, Any]) -> dict[str, Any]:
    return call("game.odds", {"game": g.model_dump(mode="json"), "action": action, "input": inp})


def mean(o: dict[str, Any], name: str) -> Fraction:
    return sum((Fraction(r["exactly"]) * r["value"] for r in o["tables"][name]["rows"]), Fraction(0))


def pilot(tier: str, *traits: str) -> dict[str, Any]:
    return {"name": "P", "tier": tier, "traits": list(traits)}


# --- the shared step: a capped reroll (core.steps.FacePool.reroll_limit) ---------------------------


@pytest.mark.parametrize("dice,limit", [(3, 1), (4, 2), (2, 3)])
def test_capped_reroll_matches_every_roll(dice: int, limit: int) -> None:
    """The exact odds of "roll up to N dice again, worst first" agree with enumerating every first roll
    and every reroll (a d6 whose 1 counts 2 and 2-3 count 1, the evade die's shape)."""
    pool = FacePool(dice=dice, sides=6, values=(2, 1, 1, 0, 0, 0), reroll_faces=(1, 2, 3), reroll_limit=limit)
    brute: dict[int, int] = {}
    for first in itertools.product(range(1, 7), repeat=dice):
        worst = sorted(
            (i for i, f in enumerate(first) if f <= 3), key=lambda i: (-pool.values[first[i] - 1], i)
        )
        again = worst[:limit]
        for new in itertools.product(range(1, 7), repeat=len(again)):
            final = list(first)
            for i, f in zip(again, new, strict=True):
                final[i] = f
            total = sum(pool.values[f - 1] for f in final)
            brute[total] = brute.get(total, 0) + 6 ** (limit - len(again))
    den = 6 ** (dice + limit)
    dist = pool.dist()
    assert {k: Fraction(w, den) for k, w in brute.items()} == {k: p for k, p in dist.probabilities()}


# --- Three Times as Fast! (L486-L487) ----------------------------------------------------------------


def test_three_times_as_fast_rerolls_three_evade_dice_l486() -> None:
    """The Commander rolls again up to 3 evade dice per weapon: the app takes the criticals first, then
    the hits.  Argonaut's machine gun (ACC 9) at a Dervish (Evade +5): evades on 4+ (L146)."""
    fast = unit("dervish", commander="three_times_as_fast")
    g = game_of([unit("argonaut")], [fast], momentum=(3, 0))
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}  # the Cannon: 3 shots, PEN 5
    plain = game_of([unit("argonaut")], [unit("dervish")], momentum=(3, 0))
    # 3 dice: every failed die is rolled again; a die lets 0.4 hits through (0.1 x 2 + 0.2 x 1, L146),
    # so each one gives 0.3 x 0.4 = 0.12 after its reroll, against 0.4.
    assert mean(odds(plain, "shoot", shot), "hits") == Fraction(12, 10)
    assert mean(odds(g, "shoot", shot), "hits") == 3 * Fraction(12, 100)
    # The roll: [1, 2, 9] -> the 1 and the 2 again: [9, 8] -> no hit
    after = act(g, "shoot", shot, [1, 2, 9, 9, 8])
    assert after.log[-1].detail["evade"] == [9, 8, 9] and after.log[-1].detail["hits"] == 0
    # 6 dice, only 3 again: the two 1s and the first 2; the second 2 and the 3 stand -> 2 hits
    mg = {**shot, "weapon": 1}
    after = act(g, "shoot", mg, [1, 1, 2, 3, 2, 9, 5, 5, 5])
    assert after.log[-1].detail["evade"] == [5, 5, 5, 3, 2, 9] and after.log[-1].detail["hits"] == 2
    # Fleet Commanders cannot benefit (L487): a warship Commander rolls no die again
    ship = unit("musarl", commander="three_times_as_fast")
    h = game_of([unit("argonaut")], [ship], momentum=(3, 0))
    assert mean(odds(h, "shoot", shot), "hits") == mean(
        odds(game_of([unit("argonaut")], [unit("musarl")], momentum=(3, 0)), "shoot", shot), "hits"
    )


# --- Commando (L488-L490) ---------------------------------------------------------------------------


def test_commando_is_shot_only_as_the_closest_model_l488() -> None:
    """The players are asked whether the Commando Commander is the closest model (allies counted): the
    shot goes on only with "yes".  A Size 2+ Commando is not protected (L490); the question is
    gated on the target, so it is refused against any other unit."""
    commando = unit("dervish", commander="commando")
    g = game_of([unit("argonaut")], [commando, unit("white_asura")], momentum=(3, 0))
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 1}  # the machine gun, PEN 0
    asked = ask(g, "shoot", shot, [9] * 6)
    assert asked["field"] == "closest" and "Commando" in asked["prompt"]
    assert [o["value"] for o in asked["options"]] == [True]  # else the players pick another target
    assert "closest" in ask(g, "shoot", {**shot, "closest": False}, [9] * 6)["field"]
    after = act(g, "shoot", {**shot, "closest": True}, [1] + [9] * 5)
    assert after.log[-1].detail["hits"] == 2
    # another target: no question, and the answer is refused if sent
    other = {**shot, "target": "1/b1"}
    assert act(g, "shoot", other, [9] * 6).log[-1].detail["hits"] == 0
    assert gates(g, "shoot", {**other, "closest": True}).fields["closest"] == (
        "Sample: White Asura is not a Commando Commander"
    )
    assert "closest" not in gates(g, "shoot", {**shot, "closest": True}).fields
    assert "not a Commando" in refused(g, "shoot", {**other, "closest": True}, [9] * 6)
    big = game_of([unit("argonaut")], [unit("dervish", commander="commando", size=2)], momentum=(3, 0))
    assert act(big, "shoot", shot, [9] * 6).log[-1].detail["hits"] == 0


# --- Decimator (L497) -------------------------------------------------------------------------------


def _decimator_game(enemies: int) -> Game:
    deci = unit("white_asura", name="Decimator", commander="decimator")
    return game_of([deci, unit("dervish")], [unit("argonaut", name=f"Foe {i}") for i in range(enemies)])


def test_decimator_activates_twice_against_ten_or_more_l497() -> None:
    """Fewer than 10 units against 10 or more: the Commander activates a second time this round; against
    9 it activates once."""
    g = _decimator_game(10)
    assert g.state.active_side == 0
    g = act(g, "end_turn", {"unit": "0/a0"})
    assert "acts once more" in g.log[-1].text and g.state.active_side == 1
    g = act(g, "end_turn", {"unit": "1/b0"})
    g = act(g, "focus", {"unit": "0/a0"})  # its second turn
    g = act(g, "end_turn", {"unit": "0/a0"})
    assert g.unit("0/a0")[2].state.activated
    g = act(g, "end_turn", {"unit": "1/b1"})
    assert "had its turn this round" in refused(g, "focus", {"unit": "0/a0"})
    h = _decimator_game(9)
    h = act(h, "end_turn", {"unit": "0/a0"})
    assert h.unit("0/a0")[2].state.activated
    h = act(h, "end_turn", {"unit": "1/b0"})
    assert "had its turn this round" in refused(h, "focus", {"unit": "0/a0"})
    # the next round it has two turns again
    g = Game.model_validate(call("game.round", {"game": round_over(g).model_dump(mode="json")}))
    g = act(g, "roll_off", {}, [9, 2])
    g = act(g, "end_turn", {"unit": "0/a0"})
    assert not g.unit("0/a0")[2].state.activated


# --- Fighting Spirit, Heroic Spirit (L388-L390, L463-L465) ----------------------------------------


def test_fighting_spirit_momentum_or_focus_l390() -> None:
    """At 0 Momentum (or below half HP) as it activates: +1 Momentum, or a Focus that spends no action
    (the Cannon's 3 shots become 4).  Not offered at full HP with Momentum, nor to a pilot without it,
    nor once the unit has begun its turn."""
    spirited = unit("argonaut", actions=1, pilot=pilot("skilled", "fighting_spirit"))
    g = game_of([spirited], [unit("dervish")], momentum=(0, 0))
    assert "spirit" not in gated_actions(g).get("0/a0", {})
    up = act(g, "spirit", {"unit": "0/a0", "take": "momentum"})
    assert momentum(up, 0) == 1
    assert "used it this turn" in refused(up, "spirit", {"unit": "0/a0", "take": "focus"})
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    assert odds(g, "shoot", shot)["summary"].startswith("3 shots")
    focused = act(g, "spirit", {"unit": "0/a0", "take": "focus"})
    assert odds(focused, "shoot", shot)["summary"].startswith("4 shots")
    fired = act(focused, "shoot", shot, [9, 9, 9, 9])  # its one action is still there
    assert len(fired.log[-1].detail["evade"]) == 4
    # at full HP with Momentum: greyed with the reason, and refused
    rich = game_of([spirited], [unit("dervish")], momentum=(2, 0))
    assert "has Momentum" in gated_actions(rich)["0/a0"]["spirit"]
    assert "has Momentum" in refused(rich, "spirit", {"unit": "0/a0"})
    rich.sides[0].units[0].state.damage = 1600  # 1400 of 3000 left: below half (L390)
    assert momentum(act(rich, "spirit", {"unit": "0/a0"}), 0) == 3
    begun = act(rich, "throttle", {"unit": "0/a0"})
    assert "begun its turn" in refused(begun, "spirit", {"unit": "0/a0"})
    plain = game_of([unit("argonaut")], [unit("dervish")], momentum=(0, 0))
    assert gated_actions(plain)["0/a0"]["spirit"] == (
        "Sample: Argonaut's pilot has neither Fighting Spirit nor Heroic Spirit"
    )
    assert "neither" in refused(plain, "spirit", {"unit": "0/a0"})


def test_heroic_spirit_two_momentum_or_two_focus_l465() -> None:
    """Heroic Spirit: +2 Momentum, or two Focus: the Cannon's 3 shots become 5; within 16" the machine
    gun (PEN 0) gains 2 hits a Focus, 4 (L125).  The reading focus_once counts one Focus (ambiguity 19)."""
    hero = unit("argonaut", pilot=pilot("ace", "heroic_spirit"))
    g = game_of([hero], [unit("dervish")], momentum=(0, 0))
    assert momentum(act(g, "spirit", {"unit": "0/a0", "take": "momentum"}), 0) == 2
    g = act(g, "spirit", {"unit": "0/a0", "take": "focus"})
    assert odds(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0})["summary"].startswith(
        "5 shots"
    )
    near = {"attacker": "0/a0", "target": "1/b0", "weapon": 1, "within_16": True}
    before = game_of([hero], [unit("dervish")], momentum=(0, 0))
    assert (
        mean(odds(g, "shoot", near), "hits")
        - mean(odds(before, "shoot", {**near, "within_16": False}), "hits")
        == 4
    )
    once = g.model_copy(deep=True)
    once.options = {**once.options, "focus_once": True}
    assert odds(once, "shoot", {**near, "weapon": 0, "within_16": False})["summary"].startswith("4 shots")
    assert odds(once, "shoot", {**near, "within_16": False})["summary"].startswith("8 shots")  # PEN 0: +2


# --- Lone Wolf (L422-L424) --------------------------------------------------------------------------


def test_lone_wolf_focus_and_momentum_when_alone_l424() -> None:
    """As it activates: a Focus (no action spent) and, when the players say every ally is 16" or more
    away, +1 Momentum; its own Focus action then adds a second (digest ambiguity 19)."""
    wolf = unit("argonaut", pilot=pilot("skilled", "lone_wolf"))
    g = game_of([wolf, unit("dervish")], [unit("white_asura")], momentum=(3, 0))
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    together = act(g, "lone_wolf", {"unit": "0/a0"})
    assert momentum(together, 0) == 3
    assert odds(together, "shoot", shot)["summary"].startswith("4 shots")
    alone = act(g, "lone_wolf", {"unit": "0/a0", "alone": True})
    assert momentum(alone, 0) == 4
    assert "used it this turn" in refused(alone, "lone_wolf", {"unit": "0/a0"})
    twice = act(alone, "focus", {"unit": "0/a0"})
    assert odds(twice, "shoot", shot)["summary"].startswith("5 shots")
    assert gated_actions(g)["0/a1"]["lone_wolf"] == "Sample: Dervish's pilot is not a Lone Wolf"
    assert "not a Lone Wolf" in refused(g, "lone_wolf", {"unit": "0/a1"})


# --- Gritty Battles (L694-L700) ---------------------------------------------------------------------


def adjust(g: Game, path: list[Any], value: Any) -> Game:
    out = call(
        "game.adjust", {"game": g.model_dump(mode="json"), "changes": [{"path": path, "value": value}]}
    )
    return Game.model_validate(out)


def test_gritty_battles_double_hp_and_the_shield_breaks_on_its_5th_use_l699() -> None:
    """Switched on, every unit has double HP (kept over rounds); switched off, back.  A mobile suit's Shield
    blocks on its 5th use, then is broken: the next shot meets no block."""
    g = game_of([unit("argonaut")], [unit("white_asura")], momentum=(3, 0))
    g = adjust(g, ["options", "gritty_battles"], True)
    assert [u.state.max_damage for s in g.sides for u in s.units] == [6000, 6000]
    g = Game.model_validate(call("game.round", {"game": round_over(g).model_dump(mode="json")}))
    g = adjust(g, ["sides", 0, "units", 0, "state", "damage"], 100)  # another manual change: no double again
    assert g.unit("1/b0")[2].state.max_damage == 6000
    g = act(g, "roll_off", {}, [9, 2])
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 1}  # machine gun, PEN 0: the Shield blocks 2
    g.sides[1].units[0].state.extra["shield_uses"] = 3
    g = act(g, "shoot", shot, [1] + [9] * 5)  # 2 hits, both blocked: its 4th use
    assert "shield_broken" not in g.unit("1/b0")[2].state.conditions
    g = act(g, "shoot", {**shot, "weapon": 0}, [2, 9, 9])  # the Cannon: 1 hit, blocked: the 5th use
    assert g.log[-1].detail["damage"] == 0
    assert "shield_broken" in g.unit("1/b0")[2].state.conditions
    g.sides[0].units[0].state.extra["fired"] = []  # the odds of a next shot (both weapons have fired)
    g.sides[0].units[0].state.counters["actions"] = 0
    assert "blocked" not in odds(g, "shoot", shot)["summary"]
    assert mean(odds(g, "shoot", shot), "damage") == 6 * Fraction(6, 10) * 200  # T = 9 - 3: 0.6 hits a die
    off = adjust(g, ["options", "gritty_battles"], False)
    assert off.unit("0/a0")[2].state.max_damage == 3000


# --- Destroying Terrain (L647-L671) -----------------------------------------------------------------


def test_destroying_terrain_the_six_cover_saves_l662_l667() -> None:
    """One save for the cover however many hits (L655): each worked example's target number, through the
    odds, and a roll; the action is greyed with the reason while the module is off."""
    weapons = [
        {"name": "Micromissiles", "shots": 4, "pen": 2},
        {"name": "Machine gun", "shots": 6},
        {"name": "Heat Sword", "kind": "melee", "shots": 0, "pen": 3},
        {"name": "Death Ray", "range": 40, "aoe": 3, "pen": 5},
        {"name": "Antiship Missile", "shots": 1, "pen": 6},
        {"name": "Giant Drill", "kind": "melee", "shots": 0, "pen": 4},
    ]
    g = game_of([unit("argonaut", weapons=weapons)], [unit("dervish")])
    assert gated_actions(g)["0/a0"]["terrain"] == "the Destroying Terrain module is off"
    assert "module is off" in refused(g, "terrain", {"unit": "0/a0"}, [9])
    g = adjust(g, ["options", "destroying_terrain"], True)
    examples = [  # weapon, large cover, made to break cover, survives on (L662-L667)
        (0, False, False, 5),
        (1, True, False, 3),
        (2, False, False, 7),
        (3, True, False, 5),
        (4, False, True, 9),
        (5, True, True, 7),
    ]
    for weapon, large, anti, need in examples:
        inp = {"unit": "0/a0", "weapon": weapon, "large": large, "anti_cover": anti}
        o = odds(g, "terrain", inp)
        assert o["summary"] == f"The cover survives on {need}+"
        assert o["facts"]["destroyed"] == pytest.approx((need - 1) / 10)
    kept = act(g, "terrain", {"unit": "0/a0", "weapon": 4, "anti_cover": True}, [9])
    assert kept.log[-1].detail["survives"] and "it stands" in kept.log[-1].text
    gone = act(g, "terrain", {"unit": "0/a0", "weapon": 4, "anti_cover": True}, [8])
    assert "destroyed" in gone.log[-1].text


# --- Influence and Commands (L790-L850) ------------------------------------------------------------


def _influence_game(points: int = 1000) -> Game:
    boss = unit("argonaut", name="Boss", commander="vigilant_leader", points=points)
    g = game_of(
        [boss, unit("dervish", points=0)],
        [unit("white_asura", shield="shield"), unit("kara")],
        momentum=(3, 3),
    )
    return adjust(g, ["options", "influence"], True)


def test_influence_starts_by_game_size_gains_and_caps_l794_l799() -> None:
    """Switched on: 1 Influence at 1000 points, 2 at 2000, 3 above (L795); +1 each round end (L798), never
    above 10 (L796); +1 for destroying the enemy Commander (L799)."""
    assert [s.resources["influence"] for s in _influence_game(1000).sides] == [1, 1]
    assert [s.resources["influence"] for s in _influence_game(2000).sides] == [2, 2]
    g = _influence_game(2400)
    assert [s.resources["influence"] for s in g.sides] == [3, 3]
    g = adjust(g, ["sides", 1, "units", 0, "state", "damage"], 0)  # another change: given once only
    assert [s.resources["influence"] for s in g.sides] == [3, 3]
    g = Game.model_validate(call("game.round", {"game": round_over(g).model_dump(mode="json")}))
    assert [s.resources["influence"] for s in g.sides] == [4, 4]
    g = adjust(g, ["sides", 0, "resources", "influence"], 10)
    g = Game.model_validate(call("game.round", {"game": round_over(g).model_dump(mode="json")}))
    assert g.sides[0].resources["influence"] == 10
    # Kara (side 1) destroys the Commander: +1 Influence to side 1
    h = _influence_game(1000)
    h.sides[0].units[0].state.damage = 2900
    h.state.active_side = 1
    h = act(h, "shoot", {"attacker": "1/b1", "target": "0/a0", "weapon": 0, "defense": 0}, [1, 9, 9, 9, 1, 1])
    assert h.unit("0/a0")[2].state.destroyed and h.sides[1].resources["influence"] == 2


def test_commands_gated_refused_and_applied_l801_l846() -> None:
    """Off: greyed and refused.  On: Inspiring Speech by the Commander from Round 4, once a battle (+3
    Momentum); one Standard Command a round at its start; Warning stops Tactical Advantage for the turn;
    Overwhelming Firepower +1 Accuracy and +1 PEN; Advancing Bulwark +1 block against PEN 0; The Valiant
    +2 attack dice below half HP."""
    off = game_of([unit("argonaut", commander="vigilant_leader")], [unit("dervish")])
    assert gated_actions(off)["0/a0"]["command"] == "the Influence module is off"
    assert "module is off" in refused(off, "command", {"unit": "0/a0"})
    g = _influence_game(2400)  # 3 Influence a side
    speech = {"unit": "0/a0", "command": "inspiring_speech"}
    assert "from Round 4" in refused(g, "command", speech)
    assert gates(g, "command", {**speech, "unit": "0/a1"}).values["command"]["inspiring_speech"] == (
        "Sample: Dervish is not the Commander"
    )
    late = adjust(g, ["round"], 4)
    late = act(late, "command", speech)
    assert momentum(late, 0) == 6 and late.sides[0].resources["influence"] == 2
    assert "one Standard Command a round" in refused(
        late, "command", {**speech, "command": "advancing_bulwark"}
    )
    later = Game.model_validate(call("game.round", {"game": round_over(late).model_dump(mode="json")}))
    assert "once a battle" in refused(later, "command", speech)
    # Warning (a Reaction, any time): no Tactical Advantage against the unit this turn
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 0, "advantage": "advantage"}
    warned = act(g, "command", {"unit": "1/b0", "command": "warning"})
    assert "warned" in refused(warned, "shoot", shot, [9] * 3)
    assert mean(odds(warned, "shoot", {**shot, "advantage": "none"}), "hits") < mean(
        odds(g, "shoot", shot), "hits"
    )
    ended = act(warned, "end_turn", {"unit": "0/a0"})
    assert "warned" not in ended.unit("1/b0")[2].state.conditions
    # Overwhelming Firepower: the Cannon's target number 9 + 1 (Vigilant Leader) - 3 = 7 becomes 8
    plain = {**shot, "advantage": "none"}
    assert odds(g, "shoot", plain)["summary"].endswith("evades on 7+")
    fire = act(g, "command", {"unit": "0/a0", "command": "overwhelming_firepower"})
    assert odds(fire, "shoot", plain)["summary"].endswith("evades on 8+")
    assert "start of the round" in refused(
        act(g, "end_turn", {"unit": "0/a0"}), "command", {"unit": "1/b0", "command": "advancing_bulwark"}
    )
    # Advancing Bulwark: White Asura's Shield blocks 3 against the machine gun (PEN 0) instead of 2
    mg = {**plain, "weapon": 1}
    bulwark = g.model_copy(deep=True)
    bulwark.sides[0].units[0].profile["accuracy"] = 15  # every die but a 10 hits
    before = {r["value"]: r["exactly"] for r in odds(bulwark, "shoot", mg)["tables"]["hits"]["rows"]}
    bulwark = act(bulwark, "command", {"unit": "1/b0", "command": "advancing_bulwark"})
    after = {r["value"]: r["exactly"] for r in odds(bulwark, "shoot", mg)["tables"]["hits"]["rows"]}
    assert all(after[k] == before[k + 1] for k in after if k > 0) and max(after) == max(before) - 1
    # The Valiant: below half HP, +2 attack dice in the clash
    valiant = act(g, "command", {"unit": "0/a1", "command": "the_valiant"})
    valiant.sides[0].units[1].state.damage = 1500
    clash = {"attacker": "0/a1", "target": "1/b0", "weapon": 1, "attack_dice": 7, "defender_attack": 3}
    assert "attack" in odds(valiant, "melee", clash)["summary"]  # the clash's odds read the same pools
    with_it = pools(valiant, Clash.model_validate(clash))[0].attack.dice
    without = pools(g.model_copy(update={"sides": valiant.sides}), Clash.model_validate(clash))[0].attack.dice
    assert with_it - without == 2


# --- Battle Damage (L673-L692) ----------------------------------------------------------------------


def test_battle_damage_white_asura_shield_broken_first_l689() -> None:
    """White Asura (ARM Sv +2) rolls a 4: 6, Disable; Blue Djinn would take the beam rifle but the Shield is
    broken first (L689).  A second Disable then asks the attacker for a shooting weapon, which fires no
    more.  Off, the action is greyed with the reason."""
    asura = unit("white_asura", save=2, shield="shield")
    g = game_of([unit("blue_djinn")], [asura], momentum=(3, 3))
    assert gated_actions(g)["1/b0"]["battle_damage"] == "the Battle Damage module is off"
    g = adjust(g, ["options", "battle_damage"], True)
    o = odds(g, "battle_damage", {"unit": "1/b0"})
    assert (
        o["summary"] == "d10 + 2: Propulsion 10%, Disable 60%, No effect 30%" and o["facts"]["destroyed"] == 0
    )
    g = act(g, "battle_damage", {"unit": "1/b0"}, [4])
    assert g.log[-1].detail["result"] == "disable" and "Shield is broken first" in g.log[-1].text
    assert "shield_broken" in g.unit("1/b0")[2].state.conditions
    asked = ask(g, "battle_damage", {"unit": "1/b0"}, [4])
    assert asked["field"] == "disable" and asked["options"][0]["label"] == "Beam Rifle"
    g = act(g, "battle_damage", {"unit": "1/b0", "disable": 0}, [4])
    picks = call("game.picks", {"game": g.model_dump(mode="json"), "action": "shoot", "actor": "1/b0"})
    assert picks["fields"]["weapon"][0]["unavailable"] == "disabled by Battle Damage"
    g.state.active_side = 1
    assert "disabled by Battle Damage" in refused(g, "shoot", {"attacker": "1/b0", "target": "0/a0"}, [9] * 3)


def test_battle_damage_joker_explosion_and_propulsion_l691() -> None:
    """Joker (a Super Titan, Sv +0, Frame 3) fails two saves.  First: 1, a critical; then 4, an explosion:
    1000 damage by the table (L681), 1500 with the reading explosion_by_frame as the example reads (L691),
    or 5 Power lost.  Second: 3, Propulsion: Evade -1."""
    joker = unit("joker", frame=3)
    g = game_of([unit("argonaut")], [joker], momentum=(3, 3))
    g = adjust(g, ["options", "battle_damage"], True)
    asked = ask(g, "battle_damage", {"unit": "1/b0"}, [1, 4])
    assert asked["field"] == "power"
    table = act(g, "battle_damage", {"unit": "1/b0", "power": False}, [1, 4])
    assert table.unit("1/b0")[2].state.damage == 1000
    frame = adjust(g, ["options", "explosion_by_frame"], True)
    frame = act(frame, "battle_damage", {"unit": "1/b0", "power": False}, [1, 4])
    assert frame.unit("1/b0")[2].state.damage == 1500
    power = act(g, "battle_damage", {"unit": "1/b0", "power": True}, [1, 4])
    assert power.unit("1/b0")[2].state.damage == 0 and power.unit("1/b0")[2].state.extra["power_lost"] == 5
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    before = odds(table, "shoot", shot)["summary"]
    slowed = act(table, "battle_damage", {"unit": "1/b0"}, [3])
    assert "bd_propulsion" in slowed.unit("1/b0")[2].state.conditions
    assert before.endswith("evades on 8+") and odds(slowed, "shoot", shot)["summary"].endswith("evades on 9+")
    # a cockpit hit: a critical then a 10 (L682)
    lost = act(g, "battle_damage", {"unit": "1/b0"}, [1, 10])
    assert lost.unit("1/b0")[2].state.destroyed
    assert odds(g, "battle_damage", {"unit": "1/b0"})["facts"]["destroyed"] == pytest.approx(0.01)


def test_battle_damage_mobile_suit_critical_attacker_picks_head_l680_l683() -> None:
    g = game_of([unit("argonaut")], [unit("dervish", save=0)], momentum=(3, 3))
    g = adjust(g, ["options", "battle_damage"], True)
    asked = ask(g, "battle_damage", {"unit": "1/b0"}, [1, 5])
    assert asked["field"] == "pick" and [o["value"] for o in asked["options"]] == [
        "head",
        "propulsion",
        "disable",
    ]
    g = act(g, "battle_damage", {"unit": "1/b0", "pick": "head"}, [1, 5])
    assert "bd_head" in g.unit("1/b0")[2].state.conditions
    g.state.active_side = 1
    assert odds(g, "shoot", {"attacker": "1/b0", "target": "0/a0"})["summary"].endswith(
        "evades on 5+"
    )  # 8 - 1 - 2


# --- Climactic Events (L734-L788) -------------------------------------------------------------------


def test_climactic_events_narrow_escape_berserk_clarity_once_a_side_l736_l775() -> None:
    """Off: greyed and not offered.  On: Narrow Escape is offered with Skill Defense after the evade dice
    (every shot evaded) and with the defender's split (the clash cancelled); a side's second Event is
    refused; Berserk: +2 melee hits, no shooting; Moment of Clarity: a Focus per two rounds gone by."""
    g = game_of(
        [unit("argonaut"), unit("blue_djinn")], [unit("dervish"), unit("white_asura")], momentum=(3, 0)
    )
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 1}
    assert gated_actions(g)["0/a0"]["event"] == "the Climactic Events module is off"
    assert act(g, "shoot", shot, [1] + [9] * 5).log[-1].detail["damage"] == 400  # off: nothing asked
    on = adjust(g, ["options", "climactic_events"], True)
    asked = ask(on, "shoot", shot, [1] + [9] * 5)  # the target has no Momentum: only the Event is offered
    assert asked["options"][-1]["also"] == {"escape": True}
    escaped = act(on, "shoot", {**shot, "escape": True}, [1] + [9] * 5)
    assert escaped.unit("1/b0")[2].state.damage == 0 and "Narrow Escape" in escaped.log[-1].text
    assert "has used its Event" in gated_actions(escaped)["1/b0"]["event"]
    assert "Event unused" in refused(escaped, "shoot", {**shot, "weapon": 0, "escape": True}, [1, 9, 9])
    # the clash: the defender's split offers the escape; taken, no die is rolled
    clash = {"attacker": "0/a1", "target": "1/b1", "attack_dice": 6}
    split = ask(on, "melee", clash, [])
    assert split["options"][-1]["also"] == {"escape": True}
    cancelled = act(on, "melee", {**clash, "defender_attack": 0, "escape": True}, [])
    assert "clash with Sample: Blue Djinn is cancelled" in cancelled.log[-1].text
    assert "once a turn" in refused(cancelled, "melee", {**clash, "defender_attack": 3}, [5] * 20)
    # It's Gone Berserk!!!: +2 melee hits (against the clash's flat hits), shooting refused
    mad = act(on, "event", {"unit": "0/a1", "event": "berserk"})
    before = pools(on, Clash.model_validate({**clash, "defender_attack": 3}))[0].flat
    assert pools(mad, Clash.model_validate({**clash, "defender_attack": 3}))[0].flat - before == 2
    assert "gone berserk" in refused(
        mad, "shoot", {"attacker": "0/a1", "target": "1/b0", "weapon": 1}, [9] * 2
    )
    # Moment of Clarity: the Commander, Round 3 (two rounds gone by): one Focus
    boss = game_of([unit("argonaut", commander="bold_leader")], [unit("dervish")], momentum=(3, 0))
    boss = adjust(adjust(boss, ["options", "climactic_events"], True), ["round"], 3)
    assert "none yet" in refused(adjust(boss, ["round"], 2), "event", {"unit": "0/a0", "event": "clarity"})
    clear = act(boss, "event", {"unit": "0/a0", "event": "clarity"})
    assert odds(clear, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0})["summary"].startswith(
        "4 shots"
    )
    plain = game_of([unit("argonaut"), unit("dervish")], [unit("dervish")])
    plain = adjust(plain, ["options", "climactic_events"], True)
    assert gates(plain, "event", {"unit": "0/a1", "event": "clarity"}).values["event"]["clarity"] == (
        "Sample: Dervish is not the Commander"
    )


# --- Outmaneuver and the Bridge Attack (L906-L940) --------------------------------------------------


def _space(a: dict[str, Any], b: dict[str, Any]) -> Game:
    g = game_of([a], [b], momentum=(3, 3))
    return adjust(g, ["options", "space"], True)


def test_green_viking_bridge_attack_on_the_saronic_cruiser_l936_l940() -> None:
    """Green Viking (Battler) 6 dice [3,4,6,8,9,10] = 5 against the Saronic Cruiser with a cruiser nearby
    6 dice [1,2,4,7,7,10] = 4: Green Viking wins; its machine gun becomes PEN 3, Blindsiding the ship.  10
    Rapid Fire shots, 9 of them hit; the ship saves every hit (no cap of three, L1009).  The example counts
    9 saves: the app adds the Blindside's critical (digest ambiguity 36; ambiguity 4's default), 11."""
    mg = {"name": "Machine gun", "range": 16, "shots": 6, "rapid_fire": 4, "damage": 200, "pen": 0}
    viking = unit("argonaut", name="Green Viking", roles=["battler"], move=14, accuracy=9, weapons=[mg])
    cruiser = unit("musarl", name="Saronic Cruiser", move=12, evade=0, save=0, aa_def=4)
    g = _space(viking, cruiser)
    run = {"attacker": "0/a0", "target": "1/b0", "escort": True}
    assert odds(g, "outmaneuver", run)["summary"] == "Bridge Attack: 6 dice against 6"
    g = act(g, "outmaneuver", run, [3, 4, 6, 8, 9, 10, 1, 2, 4, 7, 7, 10])
    assert g.log[-1].detail["lead"] == 1 and "+3 ARM PEN" in g.log[-1].text
    assert "bridge_hit" in g.unit("1/b0")[2].state.conditions
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 0, "band": "rapid"}
    assert odds(g, "shoot", shot)["summary"].startswith("10 shots")
    faces = [2] * 9 + [9] + [1, 1, 1] + [9] * 8
    # "blowing up several cannons and turrets": each failed save destroys a weapon system (L1009, L942)
    asked = ask(g, "shoot", {**shot, "defense": 0}, faces)
    assert asked["field"] == "wrecked" and asked["many"] and len(asked["options"]) == 2
    g = act(g, "shoot", {**shot, "defense": 0, "wrecked": [0, 1]}, faces)
    assert g.unit("1/b0")[2].state.extra["wrecked"] == [0, 1]
    out = g.log[-1].detail
    assert out["hits"] == 9 + 2 and len(out["saves"]) == 11 and out["failed"] == 3
    assert out["damage"] == 11 * 200 + 3 * 1000
    # the ship's Accuracy -2 after its bridge was struck
    g = act(g, "end_turn", {"unit": "0/a0"})
    back = {"attacker": "1/b0", "target": "0/a0", "weapon": 0}
    assert odds(g, "shoot", back)["summary"].endswith("evades on 4+")  # ACC 8 - 2 against Evade +2


def test_outmaneuver_outcomes_and_exact_odds_l909_l932() -> None:
    """Off the ground only; the odds agree with every face of a small roll; a defender that wins fires an
    Overwatch attack with 3 more shots; a ship's defender deals 500 a die of AA DEF; a win by 3 Blindsides."""
    g = game_of([unit("argonaut")], [unit("dervish")])
    assert gated_actions(g)["0/a0"]["outmaneuver"] == "the battle is not in space"
    slow = unit("argonaut", move=1, roles=[])
    g = _space(slow, unit("dervish", move=12, roles=[]))  # Dervish is 11" faster: +2 dice
    o = odds(g, "outmaneuver", {"attacker": "0/a0", "target": "1/b0"})
    assert o["summary"] == "Outmaneuver: 5 dice against 7"
    one = FacePool(dice=1, sides=10, values=(0, 0, 0, 0, 1, 1, 1, 1, 1, 2))
    ace = FacePool(dice=1, sides=10, values=(0, 0, 1, 1, 1, 1, 1, 2, 2, 2))
    brute = sum(one.values[a - 1] > ace.values[d - 1] for a in range(1, 11) for d in range(1, 11))
    assert sum(p for k, p in margin(one, ace).probabilities() if k > 0) == Fraction(brute, 100)
    lost = act(g, "outmaneuver", {"attacker": "0/a0", "target": "1/b0"}, [1] * 5 + [9] * 7)
    assert "3 more shots" in lost.log[-1].text
    assert odds(lost, "overwatch", {"unit": "1/b0", "weapon": 0})["summary"].startswith("3 Overwatch shots")
    won = act(g, "outmaneuver", {"attacker": "0/a0", "target": "1/b0"}, [10] * 5 + [1] * 7)
    assert "a Blindside" in won.log[-1].text
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 1}
    assert mean(odds(won, "shoot", shot), "hits") - mean(odds(g, "shoot", shot), "hits") == 2  # +1 critical
    ship = _space(unit("argonaut", move=13, roles=[]), unit("musarl", aa_def=3, move=13, roles=[]))
    hurt = act(ship, "outmaneuver", {"attacker": "0/a0", "target": "1/b0"}, [1] * 5 + [9] * 5)
    assert hurt.unit("0/a0")[2].state.damage == 1500


# --- The warship phase (L949-L951) ------------------------------------------------------------------


def test_warships_act_in_their_own_phase_initiative_first_l949_l951() -> None:
    """Warships wait until every other unit has had its turn, then act in their own phase, the roll-off's
    winner first (L949-L951); a warship shot in the mobile suits' phase owes no Return Fire then (digest
    ambiguity 40)."""
    g = game_of([unit("argonaut"), unit("musarl")], [unit("dervish"), unit("musarl")], momentum=(3, 3))
    assert g.state.active_side == 0  # Red won the roll-off
    assert "own phase" in gated_actions(g)["0/a1"]["target_lock"]
    assert "own phase" in refused(g, "target_lock", {"unit": "0/a1"})
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b1", "weapon": 1}, [9] * 6)
    g = act(g, "end_turn", {"unit": "0/a0"})
    assert g.state.extra["return_fire"] == [] and g.state.active_side == 1
    g = act(g, "end_turn", {"unit": "1/b0"})
    assert g.state.active_side == 0 and "Red activates" in g.log[-1].text  # the winner opens the phase
    g = act(g, "target_lock", {"unit": "0/a1"})
    g = act(g, "end_turn", {"unit": "0/a1"})
    assert g.state.active_side == 1
    g = act(g, "end_turn", {"unit": "1/b1"})
    assert g.state.active_side is None and "next round" in g.log[-1].text


def test_make_it_count_bonus_action_l279_l282() -> None:
    """Make it Count!'s other option: 1 Momentum for a bonus action this turn, for Skilled and Ace pilots
    only; it is the unit turn's skill (L253): its +1 critical is then refused."""
    ace = unit("white_asura", pilot=pilot("skilled"))
    g = game_of([ace, unit("white_asura")], [unit("dervish")], momentum=(2, 0))
    assert gated_actions(g)["0/a1"]["bonus_action"] == "Sample: White Asura 2's pilot is not Skilled or Ace"
    assert "not Skilled or Ace" in refused(g, "bonus_action", {"unit": "0/a1"})
    g = act(g, "bonus_action", {"unit": "0/a0"})
    assert momentum(g, 0) == 1
    g = act(g, "focus", {"unit": "0/a0"})
    g = act(g, "throttle", {"unit": "0/a0"})  # its one action and the bonus one
    assert "used its 2 actions" in refused(g, "shoot", {"attacker": "0/a0", "target": "1/b0"}, [9] * 3)
    h = act(game_of([ace], [unit("dervish")], momentum=(2, 0)), "bonus_action", {"unit": "0/a0"})
    assert "used that skill this turn" in refused(
        h, "shoot", {"attacker": "0/a0", "target": "1/b0", "skill": "make_it_count"}, [9] * 4
    )


def test_untouchable_once_a_game_d10_blocks_this_turn_l403() -> None:
    """Once a game the pilot rolls a d10 of extra blocks for this turn (with a shield or cover, not instead);
    at the turn's end they are gone and the trait is spent."""
    cunning = unit("dervish", pilot=pilot("skilled", "untouchable"))
    g = game_of([unit("argonaut", accuracy=15)], [cunning, unit("white_asura")], momentum=(3, 0))
    assert gated_actions(g)["1/b1"]["untouchable"] == "Sample: White Asura's pilot is not Untouchable"
    assert odds(g, "untouchable", {"unit": "1/b0"})["summary"] == "A d10 of blocks this turn"
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 1}
    before = {r["value"]: r["exactly"] for r in odds(g, "shoot", shot)["tables"]["hits"]["rows"]}
    g = act(g, "untouchable", {"unit": "1/b0"}, [4])
    after = {r["value"]: r["exactly"] for r in odds(g, "shoot", shot)["tables"]["hits"]["rows"]}
    assert max(after) == max(before) - 4 and after[1] == before[5]
    assert "used it this game" in refused(g, "untouchable", {"unit": "1/b0"}, [4])
    g = act(g, "end_turn", {"unit": "0/a0"})
    assert g.unit("1/b0")[2].state.extra["untouchable"] == 0
    assert "used it this game" in gated_actions(g)["1/b0"]["untouchable"]


# --- The small-scale mode (L702-L732) ---------------------------------------------------------------


def test_small_scale_mode_fearless_expert_evasion_mobility_flagship_l706_l731() -> None:
    """Fearless: +1 Momentum as a Frame 3+ unit activates.  Expert Evasion replaces Flawless Evasion: 1
    Momentum, +3 Evade this turn, Skill Defense still offered.  Mobility: a mobile suit whose Move beats
    the shooter's Accuracy rolls one evade die again.  Flagship: +1 Momentum a round while the side's
    highest-Frame warship lives."""
    ace = unit("dervish", move=8, pilot=pilot("ace"))
    g = game_of(
        [unit("argonaut", frame=3), unit("musarl", frame=4)], [ace, unit("white_asura")], momentum=(0, 2)
    )
    assert gated_actions(g)["0/a0"]["fearless"] == "the small-scale mode is off"
    g = adjust(g, ["options", "small_scale"], True)
    assert gated_actions(g)["1/b1"]["expert_evasion"] == "Sample: White Asura's pilot is not an Ace"
    assert momentum(act(g, "fearless", {"unit": "0/a0"}), 0) == 1
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 1}  # ACC 9 vs Evade +5: 4+
    assert odds(g, "shoot", shot)["summary"].endswith("evades on 4+")
    quick = act(g, "expert_evasion", {"unit": "1/b0"})
    assert momentum(quick, 1) == 1 and odds(quick, "shoot", shot)["summary"].endswith("evades on 2+")
    asked = ask(quick, "shoot", shot, [1] * 6)
    labels = [o["label"] for o in asked["options"]]
    assert any("Spend 1 Momentum" in x for x in labels) and not any("Flawless" in x for x in labels)
    # Mobility: Move 10 beats ACC 9: one die again, the critical first
    fast = adjust(g, ["sides", 1, "units", 0, "profile", "move"], 10)
    assert mean(odds(fast, "shoot", shot), "hits") < mean(odds(g, "shoot", shot), "hits")
    rolled = act(fast, "shoot", {**shot, "defense": 0}, [1, 2, 9, 9, 9, 9, 9])
    assert rolled.log[-1].detail["evade"] == [9, 2, 9, 9, 9, 9] and rolled.log[-1].detail["hits"] == 1
    # Flagship: Red's Frame 4 warship lives: +1 at the round's end besides the +1 each side
    nxt = Game.model_validate(call("game.round", {"game": round_over(g).model_dump(mode="json")}))
    assert (momentum(nxt, 0), momentum(nxt, 1)) == (2, 3)


def test_small_scale_rally_a_titan_recovers_d10_x_100_l721() -> None:
    """As its turn starts a Super Titan recovers d10 x 100 HP (never past its total); once a turn; not for
    a mobile suit."""
    g = game_of([unit("joker"), unit("argonaut")], [unit("dervish")], momentum=(3, 3))
    g = adjust(g, ["options", "small_scale"], True)
    assert gated_actions(g)["0/a1"]["rally"] == "Sample: Argonaut is not a Super Titan"
    g.sides[0].units[0].state.damage = 500
    assert mean(odds(g, "rally", {"unit": "0/a0"}), "recovered") == Fraction(
        100 + 200 + 300 + 400 + 500 * 6, 10
    )
    g = act(g, "rally", {"unit": "0/a0"}, [3])
    assert g.unit("0/a0")[2].state.damage == 200
    assert "used it this turn" in refused(g, "rally", {"unit": "0/a0"}, [3])


def test_unyielding_commander_survives_once_on_1_hp_l485() -> None:
    """Once a game the Unyielding Commander is left with 1 HP by what would destroy it; the odds say 0%
    destroyed until then; the next time it falls."""
    boss = unit("dervish", commander="unyielding", hp=1000)
    g = game_of([unit("argonaut", accuracy=15)], [boss], momentum=(3, 0))
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 1}  # 6 shots of 200
    assert odds(g, "shoot", shot)["facts"]["destroyed"] == 0
    g = act(g, "shoot", shot, [2] * 6)
    left = g.unit("1/b0")[2].state
    assert not left.destroyed and "holds on with 1 HP" in g.log[-1].text
    assert left.extra["last_stand"] and left.max_damage - left.damage == 1
    assert odds(g, "shoot", {**shot, "weapon": 0})["facts"]["destroyed"] > 0
    g = act(g, "shoot", {**shot, "weapon": 0}, [10, 10, 2, 9])  # 1 hit of 500, its save passed
    assert g.unit("1/b0")[2].state.destroyed
