"""MechaStellar: Crash Through and Trample (L82-L87), a warship crashing (L960), and the small-scale mode's
Knockback, Down but not out, Rally for an ally, Mobility's extra Move and Hit & Run (L716-L728), each through
core.api: offered only where it applies (greyed with the reason), refused otherwise, its size checked.
Pure Python.
"""

from __future__ import annotations

from fractions import Fraction

from test_mechastellar import game_of, hp, momentum, unit
from test_mechastellar_traits import act, ask, call, mean, odds, refused

from core.game import gated_actions, gates

PUNCH = {"name": "Rocket Punch", "range": 16, "shots": 2, "damage": 500, "pen": 3}


def test_trample_and_crash_through_l84_l87() -> None:
    """A Size 2+ unit at Full Throttle: a building saves on 5+ (large 3+) or falls; each smaller target it
    tramples (3 at most, each once) saves against PEN = its Size, 1000 damage if it fails."""
    g = game_of([unit("joker")], [unit("dervish"), unit("argonaut"), unit("joker")], momentum=(0, 0))
    assert "not gone Full Throttle" in gated_actions(g)["0/a0"]["trample"]
    assert "under Size 2" in gated_actions(g)["1/b0"]["crash_through"]
    g = act(g, "throttle", {"unit": "0/a0"})
    assert act(g, "crash_through", {"unit": "0/a0"}, [4]).log[-1].detail["stands"] is False
    assert act(g, "crash_through", {"unit": "0/a0", "large": True}, [4]).log[-1].detail["stands"] is True
    assert odds(g, "crash_through", {"unit": "0/a0"})["facts"]["destroyed"] == 0.4
    hit = {"unit": "0/a0", "target": "1/b0"}
    o = odds(g, "trample", hit)  # PEN 2 against Sv 0: fails on 1
    assert o["facts"]["fails"] == 0.1 and mean(o, "damage") == 100
    g = act(g, "trample", hit, [1])
    assert hp(g, "1/b0") == 2500 - 1000
    assert "trampled" in refused(g, "trample", hit, [5])
    assert "not smaller" in refused(g, "trample", {"unit": "0/a0", "target": "1/b2"}, [5])
    g = act(g, "trample", {"unit": "0/a0", "target": "1/b1"})  # PEN 2 against Sv +1: no save needed
    assert "no save needed" in g.log[-1].text and hp(g, "1/b1") == 3000


def test_a_warship_crashing_into_terrain_l960() -> None:
    """2 Armor Saves against PEN 5 (Sv 0: fail on 1-4), 1000 each failed."""
    g = game_of([unit("musarl")], [unit("dervish")], momentum=(0, 0))
    assert mean(odds(g, "ship_crash", {"unit": "0/a0"}), "damage") == 2 * Fraction(4, 10) * 1000
    g = act(g, "ship_crash", {"unit": "0/a0"}, [3, 7])
    assert hp(g, "0/a0") == 12000 - 1000
    assert gated_actions(g)["1/b0"]["ship_crash"] == "Sample: Dervish is not a Stellar Warship"


def test_knockback_after_a_titans_heavy_hit_l725_l728() -> None:
    """The small-scale mode: a Super Titan's damage with a weapon of PEN under 5 and 500+ damage knocks the
    target back a d10 inches; into another unit, 1000 damage to both."""
    titan = unit("joker", weapons=[PUNCH])
    g = game_of([titan], [unit("dervish"), unit("argonaut")], momentum=(0, 0))
    g.options["small_scale"] = True
    assert "has not hit a unit" in gated_actions(g)["0/a0"]["knockback"]
    # the dervish (Move 16 over the Titan's Accuracy 8) rolls its hit again (Mobility, L715): 2 again, a
    # hit; its save against PEN 3 passes on 9
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, [2, 9, 2, 9])
    assert "knocked back" in g.log[-1].text
    push = {"unit": "0/a0", "target": "1/b0"}
    asked = ask(g, "knockback", push, [6])
    assert asked["field"] == "into" and 'knocked back 6"' in asked["prompt"]
    g = act(g, "knockback", {**push, "into": "1/b1"}, [6])
    assert hp(g, "1/b0") == 2500 - 500 - 1000 and hp(g, "1/b1") == 3000 - 1000
    assert "has not hit a unit" in refused(g, "knockback", push, [6])  # once for that hit
    plain = game_of([titan], [unit("dervish")])
    assert gated_actions(plain)["0/a0"]["knockback"] == "the small-scale mode is off"


def test_down_but_not_out_rally_an_ally_mobility_hit_and_run_l716_l724() -> None:
    """A fallen Super Titan rolls a d10 as the round ends, once: on 10 it is back with 100 HP; a Titan's Focus
    action rallies an ally d10 x 100; a mobile suit's Full Throttle gives 5" more for 1 Momentum; a mobile
    suit's shot may Hit & Run."""
    g = game_of([unit("joker"), unit("argonaut")], [unit("dervish", actions=2)], momentum=(1, 1))
    g.options["small_scale"] = True
    g.sides[0].units[1].state.damage = 1000
    assert gated_actions(g)["0/a1"]["rally_ally"] == "Sample: Argonaut is not a Super Titan"
    g = act(g, "rally_ally", {"unit": "0/a0", "ally": "0/a1"}, [4])
    assert hp(g, "0/a1") == 3000 - 1000 + 400 and g.unit("0/a0")[2].state.counters["actions"] == 1
    assert gates(g, "throttle", {"unit": "0/a0"}).fields["mobility"] == "Sample: Joker is not a mobile suit"
    g = act(g, "end_turn", {"unit": "0/a0"})
    g = act(g, "throttle", {"unit": "1/b0", "mobility": True})
    assert 'Move +10"' in g.log[-1].text and momentum(g, 1) == 0
    g = act(g, "shoot", {"attacker": "1/b0", "target": "0/a0", "weapon": 0}, [9, 9, 9])
    assert "Hit & Run" in g.log[-1].text
    g = act(g, "end_turn", {"unit": "1/b0"})
    g.sides[0].units[0].state.damage, g.sides[0].units[0].state.destroyed = 6000, True
    assert "as the round ends" in gated_actions(g)["0/a0"]["get_up"]
    g = act(g, "end_turn", {"unit": "0/a1"})  # every unit has had its turn: the round ends
    down = act(g, "get_up", {"unit": "0/a0"}, [9])
    assert down.unit("0/a0")[2].state.destroyed
    assert "rolled this round" in refused(down, "get_up", {"unit": "0/a0"}, [10])
    up = act(g, "get_up", {"unit": "0/a0"}, [10])
    assert not up.unit("0/a0")[2].state.destroyed and hp(up, "0/a0") == 100


def test_argonaut_hit_and_run_against_inertia_and_a_low_gravity_fall_l883_l898() -> None:
    """In space the Argonaut (Basic pilot) moves forward, fires, then pays 1 Momentum to move back
    (L888-L889); a Skilled pilot turns about freely, a warship never moves backwards (L886, L958).  In low
    gravity a unit on high ground that takes damage falls off on 1-4, unharmed (L897-L898)."""
    g = game_of(
        [unit("argonaut"), unit("musarl")], [unit("dervish", pilot={"tier": "skilled"})], momentum=(2, 2)
    )
    assert gated_actions(g)["0/a0"]["reverse"] == "the battle is not in space"
    g.options["space"] = True
    gated = gated_actions(g)
    assert "never moves backwards" in gated["0/a1"]["reverse"]
    assert "turns about freely" in gated["1/b0"]["reverse"]
    g = act(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, [9, 9, 9])
    g = act(g, "reverse", {"unit": "0/a0"})
    assert momentum(g, 0) == 1 and "1 Momentum" in g.log[-1].text
    assert "reversed this turn" in refused(g, "reverse", {"unit": "0/a0"})
    low = game_of([unit("argonaut")], [unit("dervish")])
    assert gated_actions(low)["0/a0"]["fall"] == "the battle is not in low gravity"
    low.options["low_gravity"] = True
    assert odds(low, "fall", {"unit": "0/a0"})["tables"]["falls"]["p_mean"] == 0.4
    assert act(low, "fall", {"unit": "0/a0"}, [4]).log[-1].detail["falls"] is True
    assert act(low, "fall", {"unit": "0/a0"}, [5]).log[-1].detail["falls"] is False


def test_a_titan_puts_power_into_full_throttle_l79() -> None:
    """1 Power a Move inch, up to +5", held until its next turn: the Joker's 5 Power less 3 leaves 2, too
    little for its Breast Cannon's 4 (L159-L163); a mobile suit has no Power to put there."""
    g = game_of([unit("joker"), unit("argonaut")], [unit("dervish")], momentum=(0, 0))
    assert gates(g, "throttle", {"unit": "0/a1"}).fields["power"] == "Sample: Argonaut is not a Super Titan"
    g = act(g, "throttle", {"unit": "0/a0", "power": 3})
    assert 'Move +8" (3 Power' in g.log[-1].text and g.unit("0/a0")[2].state.extra["powered"] == ["move:3"]
    assert "2 Power free" in refused(g, "shoot", {"attacker": "0/a0", "target": "1/b0", "weapon": 0}, [9] * 3)


def test_a_high_speed_attack_knocks_5_inches_farther_l726() -> None:
    """The Joker's fists (PEN 0, 500) in a High Speed Attack after Full Throttle: the knockback's d10 + 5."""
    g = game_of([unit("joker")], [unit("dervish")], momentum=(0, 0))
    g.options["small_scale"] = True
    g = act(g, "throttle", {"unit": "0/a0"})
    clash = {"attacker": "0/a0", "target": "1/b0", "weapon": 2, "attack_dice": 12, "defender_attack": 0}
    g = act(g, "melee", {**clash, "advantage": "high_speed"}, [5] + [1] * 11 + [1] * 5)
    assert 0 < g.unit("1/b0")[2].state.damage < 2500 and "knocked back" in g.log[-1].text
    assert 'knocked back 8"' in ask(g, "knockback", {"unit": "0/a0", "target": "1/b0"}, [3])["prompt"]


# --- Focus: a Skilled or Ace pilot's weapon to fire in engagement range (L127-L128, L155) ----------

LANCER = {"name": "Heat Lancer", "kind": "melee", "range": 0, "shots": 0, "damage": 500, "pen": 4}
MG = {"name": "Machine gun", "range": 16, "shots": 6, "damage": 200, "pen": 0}


def test_focus_picks_a_weapon_to_fire_in_melee_l127_l128_l155() -> None:
    """In melee a unit fires a weapon only once a Focus picks it (L155): refused, and greyed on the Shoot
    sheet, with the reason.  A Skilled or Ace pilot's Focus picks one shooting weapon (asked; a melee weapon
    is not offered): it fires in engagement range this turn with +1 ARM PEN (L127-L128), in place of the
    extra shot (one benefit, L122); the other weapons stay refused.  A Basic pilot is not offered it."""
    henry = unit("jet_black_lancer", actions=2, weapons=[PUNCH, MG, LANCER])  # a Skilled pilot
    g = game_of([henry, unit("argonaut")], [unit("dervish")], momentum=(0, 0))
    for ref in ("0/a0", "1/b0"):  # the clash has locked them in melee (L66-L67)
        s, i, _ = g.unit(ref)
        g.sides[s].units[i].state.conditions.append("engaged")
    shot = {"attacker": "0/a0", "target": "1/b0", "weapon": 0}
    assert "in melee" in refused(g, "shoot", shot, [2, 2, 3, 4])
    assert "in melee" in refused(g, "shoot", {**shot, "weapon": 1}, [2] * 12)
    picks = call("game.picks", {"game": g.model_dump(mode="json"), "action": "shoot", "actor": "0/a0"})
    assert [p["unavailable"][:8] for p in picks["fields"]["weapon"]] == ["in melee", "in melee", "a melee "]
    # the Argonaut's Basic pilot: greyed with the reason and refused if sent anyway (L127)
    assert "not Skilled or Ace" in gates(g, "focus", {"unit": "0/a1"}).fields["in_melee"]
    assert "not Skilled or Ace" in refused(g, "focus", {"unit": "0/a1", "in_melee": True, "weapon": 0})
    assert "in_melee" not in gates(g, "focus", {"unit": "0/a0"}).fields
    asked = ask(g, "focus", {"unit": "0/a0", "in_melee": True})
    assert asked["field"] == "weapon"
    assert [(o["value"], o["label"]) for o in asked["options"]] == [(0, "Rocket Punch"), (1, "Machine gun")]
    g = act(g, "focus", {"unit": "0/a0", "in_melee": True, "weapon": 0})
    assert "Rocket Punch may fire in melee" in g.log[-1].text
    picks = call("game.picks", {"game": g.model_dump(mode="json"), "action": "shoot", "actor": "0/a0"})
    assert [p["unavailable"][:8] for p in picks["fields"]["weapon"]] == ["", "in melee", "a melee "]
    assert "in melee" in refused(g, "shoot", {**shot, "weapon": 1}, [2] * 12)
    # size: the same shot as an unfocused PEN 4 punch out of melee (2 shots, no extra shot from this Focus)
    plain = game_of([unit("jet_black_lancer", weapons=[{**PUNCH, "pen": 4}])], [unit("dervish")])
    assert mean(odds(g, "shoot", shot), "damage") == mean(odds(plain, "shoot", shot), "damage")
    assert mean(odds(plain, "shoot", shot), "damage") > mean(
        odds(game_of([unit("jet_black_lancer", weapons=[PUNCH])], [unit("dervish")]), "shoot", shot), "damage"
    )
    # two hits (evade 2, 2 under the target 5) of 500; saves against PEN 4 - Sv 0 need 4+: the 3 fails,
    # 1000 more (L219, L223); with PEN 3 both would pass
    g = act(g, "shoot", shot, [2, 2, 3, 4])
    assert "1 failed" in g.log[-1].text and hp(g, "1/b0") == 2500 - 2 * 500 - 1000
    g = act(g, "end_turn", {"unit": "0/a0"})
    _, _, lancer = g.unit("0/a0")
    assert lancer.state.extra.get("melee_gun") is None  # this turn only (L127)


def test_skilled_and_ace_pilots_move_5_more_in_space_and_low_gravity_l882_l895() -> None:
    """In space (L882) and in a low gravity battle (L895) Skilled and Ace pilots gain Move +5": the game's
    status names their units for the players (who move them); Basic pilots and warships are not named."""
    from core.systems import implementation

    ms = implementation("mechastellar")
    henry, djinn = unit("jet_black_lancer"), unit("blue_djinn")  # Skilled, Ace
    g = game_of([henry, unit("argonaut")], [djinn, unit("musarl", pilot=pilot_of("ace"))])
    assert not [line for line in ms.status(g) if "+5" in line.label]
    for module in ("space", "low_gravity"):
        g.options = {module: True}
        lines = {line.label: line.value for line in ms.status(g)}
        assert lines['Red: Move +5"'] == "Sample: Jet Black Lancer"
        assert lines['Blue: Move +5"'] == "Sample: Blue Djinn"


def pilot_of(tier: str) -> dict[str, object]:
    return {"name": "P", "tier": tier, "traits": []}
