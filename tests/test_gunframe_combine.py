"""GUNFRAME jump charges (L940, L2308) and combiner teams (L2533-2551).

Line numbers are in 001_c60598db3e91d492.txt.  Every action goes through core.game.act with typed dice.
"""

from __future__ import annotations

from typing import Any

import pytest
from gunframe_table import mech, run, set_state, state
from gunframe_table import start as table_start

from core.game import Game, odds, undo

# --- jump charge ------------------------------------------------------------------------------


def start(red: list[dict[str, Any]], blue: list[dict[str, Any]] | None = None, red_fp: int = 3) -> Game:
    """Red (keys a, b, ...) against Blue (t, u), Red holding 3 Focus Points."""
    return table_start(red, blue, red_fp=red_fp)


def test_jump_charge_pass_hurts_both_and_engages() -> None:
    g = run(start([mech("Hop", "jump")]), "jump_charge", [4], unit="0/a", target="1/t")
    assert state(g, "0/a").damage == 1 and state(g, "1/t").damage == 1
    assert "engaged" in state(g, "0/a").conditions and "engaged" in state(g, "1/t").conditions
    assert undo(g).unit("1/t")[2].state == start([mech("Hop", "jump")]).unit("1/t")[2].state


def test_jump_charge_fail_hurts_only_the_jumper() -> None:
    g = run(start([mech("Hop", "jump")]), "jump_charge", [3], unit="0/a", target="1/t")
    assert state(g, "0/a").damage == 1 and state(g, "1/t").damage == 0


def test_death_from_above_d3_on_a_pass_and_1_on_a_fail() -> None:
    g0 = start([mech("Hop", "jump", "death_from_above")])
    assert state(run(g0, "jump_charge", [5, 6], unit="0/a", target="1/t"), "1/t").damage == 3
    assert state(run(g0, "jump_charge", [2], unit="0/a", target="1/t"), "1/t").damage == 1


def test_jump_charge_needs_jump_and_an_enemy() -> None:
    g = start([mech("Hop", "jump"), mech("Walker")])
    with pytest.raises(ValueError, match="Jump"):
        run(g, "jump_charge", [], unit="0/b", target="1/t")
    with pytest.raises(ValueError, match="enemy"):
        run(g, "jump_charge", [], unit="0/a", target="0/b")


def test_jump_charge_odds() -> None:
    plain = odds(start([mech("Hop", "jump")]), "jump_charge", {"unit": "0/a", "target": "1/t"})
    assert plain.facts["pilot roll passes"] == pytest.approx(0.5)
    assert [r.exactly for r in plain.tables["target damage"].rows] == ["1/2", "1/2"]
    g = set_state(start([mech("Hop", "jump", "death_from_above")]), "1/t", "damage", 6)
    dfa = odds(g, "jump_charge", {"unit": "0/a", "target": "1/t"})
    # target has 2 Armour left: a fail deals 1 (1/2); a pass deals D3, 2+ on 2/3 of passes
    assert dfa.facts["target destroyed"] == pytest.approx(1 / 3)


# --- combining and splitting ------------------------------------------------------------------


def team() -> list[dict[str, Any]]:
    form = mech("Titan", armour=10, close=4, combined_members=3)
    return [mech("Ann", "combiner"), mech("Bea", "combiner"), mech("Cid", "combiner"), form]


def combine(g: Game, **raw: Any) -> Game:
    return run(g, "combine", [], leader="0/a", members=["0/b", "0/c"], combined="0/d", **raw)


def test_combined_form_starts_off_the_table() -> None:
    g = start(team())
    assert state(g, "0/d").conditions == ["off_table"]


def test_combine_removes_the_team_and_brings_in_the_combiner() -> None:
    g0 = set_state(start(team()), "0/b", "damage", 3)
    g0 = set_state(g0, "0/b", "counters", {"target_lock": 1, "evade": 0})
    g = combine(g0)
    for ref in ("0/a", "0/b", "0/c"):
        assert "off_table" in state(g, ref).conditions
        assert state(g, ref).extra["combined_into"] == "0/d"
    assert state(g, "0/b").counters["target_lock"] == 0
    assert state(g, "0/d").conditions == [] and state(g, "0/d").activated
    assert g.sides[0].resources["focus_points"] == 3  # all close, none down: free
    assert undo(g).sides == g0.sides


def test_combine_costs_fp_per_far_shut_down_or_destroyed_member_beyond_the_cap() -> None:
    g = set_state(start(team()), "0/b", "conditions", ["shut_down"])
    g = set_state(g, "0/c", "destroyed", True)
    g = combine(g, far=["0/b", "0/c"])
    assert g.sides[0].resources["focus_points"] == 1  # two members, each counted once
    with pytest.raises(ValueError, match="Focus Point"):
        combine(start(team(), red_fp=1), far=["0/b", "0/c"])


def test_combine_checks_the_team_and_is_once_per_battle() -> None:
    g = start(team())
    with pytest.raises(ValueError, match="formed by 3"):
        run(g, "combine", [], leader="0/a", members=["0/b"], combined="0/d")
    with pytest.raises(ValueError, match="Combiner"):
        run(g, "combine", [], leader="0/a", members=["0/b", "1/t"], combined="0/d")
    split = run(combine(g), "split", [], combined="0/d")
    with pytest.raises(ValueError, match="once"):
        combine(split)


def test_split_returns_members_with_their_armour_ready_to_activate() -> None:
    g = combine(set_state(start(team()), "0/b", "damage", 3))
    g = set_state(g, "0/d", "damage", 4)
    g = run(g, "split", [], combined="0/d")
    assert "off_table" in state(g, "0/d").conditions
    for ref in ("0/a", "0/b", "0/c"):
        assert "off_table" not in state(g, ref).conditions and not state(g, ref).activated
    assert state(g, "0/b").damage == 3


def test_destroyed_combiner_throws_its_members_out() -> None:
    g = combine(start(team()))
    g = set_state(set_state(g, "0/d", "damage", 10), "0/d", "destroyed", True)
    out = run(g, "split", [5, 3, 1], combined="0/d")
    assert [state(out, r).damage for r in ("0/a", "0/b", "0/c")] == [0, 3, 1]
    assert all(state(out, r).activated for r in ("0/a", "0/b", "0/c"))
    table = odds(g, "split", {"combined": "0/d"})
    assert [r.exactly for r in table.tables["Ann damage"].rows] == ["1/2", "1/6", "1/6", "1/6"]


def test_off_table_units_give_no_focus_points() -> None:
    from core.systems.gunframe.options import GunframeOptions
    from core.systems.gunframe.turn import counts_for_fp

    g = combine(start(team()))
    opts = GunframeOptions()
    assert [counts_for_fp(g.unit(r)[2], opts) for r in ("0/a", "0/d")] == [False, True]


# --- Split Fire (L2462) -----------------------------------------------------------------------


def gunner() -> dict[str, Any]:
    return {**mech("Gun"), "upgrades": [{"id": "split_fire", "slot": "short"}]}


def test_split_fire_sends_part_of_the_pool_with_this_targets_modifiers() -> None:
    g = start([gunner()])
    # 2 of 3 Short dice at Tom, +1 for the rear: 3 firepower dice, then Tom's 3 defense dice
    out = run(g, "attack", [4, 4, 4, 1, 1, 1], attacker="0/a", target="1/t", split_dice=2, rear=True)
    assert state(out, "1/t").damage == 3
    rest = run(out, "attack", [4, 1, 1, 1], attacker="0/a", target="1/u", split_dice=1)
    assert state(rest, "1/u").damage == 1
    table = odds(g, "attack", {"attacker": "0/a", "target": "1/t", "split_dice": 1})
    assert len(table.tables["damage"].rows) == 2


def test_split_fire_needs_the_upgrade_and_enough_dice() -> None:
    with pytest.raises(ValueError, match="Split Fire"):
        run(start([mech("Gun")]), "attack", [], attacker="0/a", target="1/t", split_dice=1)
    with pytest.raises(ValueError, match="only 3"):
        run(start([gunner()]), "attack", [], attacker="0/a", target="1/t", split_dice=4)
