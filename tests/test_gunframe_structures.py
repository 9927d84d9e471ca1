"""GUNFRAME structures (L2884-2955) and the missions that score them (L1909-1979).

Line numbers are in 001_c60598db3e91d492.txt.  Every action goes through core.game.act with typed dice.
"""

from __future__ import annotations

from typing import Any

import pytest
from gunframe_table import mech, place, run, set_state, start, state

from core.dice import TypedDice
from core.game import Game, act, odds, undo
from core.systems.gunframe import STRUCTURES, SYSTEM
from core.systems.gunframe.building import GunframeUnit, pack, unit_violations, unpack

INFANTRY = {"frame": "infantry", "speed": 4, "defense": 2, "armour": 1, "close": 0, "short": 1, "medium": 1}


def attack(g: Game, faces: list[int], target: str = "1/st1", **mods: Any) -> Game:
    return run(g, "attack", faces, **{"attacker": "0/a", "target": target, **mods})


def test_structure_table_is_data_with_its_lines() -> None:
    """Civilian 2/5, hard civilian 2/10, military 3/6, hard military 3/12 (L2903-2907); Raid target 2/5
    (L1925); bunker 3/12 (L1939); gun emplacement 3/8, Short 3, Turreted (L1947); beacon 2/8 (L1973)."""
    values = {k: (d.defense, d.armour) for k, d in STRUCTURES.items()}
    assert values == {
        "civilian": (2, 5),
        "hard_civilian": (2, 10),
        "military": (3, 6),
        "hard_military": (3, 12),
        "objective_building": (3, 6),
        "raid_target": (2, 5),
        "bunker": (3, 12),
        "gun_emplacement": (3, 8),
        "beacon": (2, 8),
    }
    assert STRUCTURES["gun_emplacement"].short == 3
    assert STRUCTURES["gun_emplacement"].upgrades == (("turreted", "short"),)
    assert all(d.ref.startswith("L") for d in STRUCTURES.values())


def test_placing_structures_is_one_undoable_event() -> None:
    g = start([mech("A")])
    g = place(g, 1, "raid_target", count=6)
    names = [u.name for u in g.sides[1].units[2:]]
    assert names == [f"Raid target {i}" for i in range(1, 7)]
    assert [u.key for u in g.sides[1].units[2:]] == [f"st{i}" for i in range(1, 7)]
    assert state(g, "1/st1").max_damage == 5
    assert len(undo(g).sides[1].units) == 2
    card = SYSTEM.card(GunframeUnit.model_validate(g.unit("1/st1")[2].profile))
    assert card.kind == "Structure: Raid target"
    again = place(g, 1, "raid_target")
    assert again.sides[1].units[-1].key == "st7" and again.sides[1].units[-1].name == "Raid target"


def test_structure_profiles_pack_and_are_not_for_squads() -> None:
    g = place(start([mech("A")]), 1, "gun_emplacement")
    profile = GunframeUnit.model_validate(g.unit("1/st1")[2].profile)
    assert unpack(pack(profile)) == profile
    assert [v.rule for v in unit_violations(profile)] == ["structure-in-squad"]


def test_attacks_on_structures_ignore_modifiers_and_cover_and_give_no_power() -> None:
    """No attack modifiers (L2925), no power attacks (L2926), never cover (L2927), no dodge (L2928)."""
    g = place(start([mech("A")]), 1, "military")
    out = attack(g, [6, 6, 6, 1, 1, 1], charge=True, rear=True, cover=True)
    detail = out.log[-1].detail
    assert detail["attack_pool"]["dice"] == 3 and detail["defense_pool"]["dice"] == 3
    assert "no charge against a structure (L2925)" in detail["attack_pool"]["from"]
    assert "a structure is never in cover (L2927)" in detail["defense_pool"]["from"]
    assert detail["damage"] == 3 and detail["power_points"] == 0
    assert "power" not in state(out, "0/a").extra
    missed = attack(g, [1, 1, 1, 6, 6, 6])
    assert missed.log[-1].detail["dodge_inches"] == 0
    table = odds(g, "attack", {"attacker": "0/a", "target": "1/st1"})
    assert [r.value for r in table.tables["power"].rows] == [0]
    obscured = attack(g, [1, 1, 1, 1, 1, 1, 1], obscured=True)  # obscured still counts (L2927)
    assert obscured.log[-1].detail["defense_pool"]["dice"] == 4


def test_a_structure_falls_at_armour_zero_and_takes_its_infantry_with_it() -> None:
    """Destroyed at Armour 0 (L2929); infantry inside dies too (L2953)."""
    g = place(start([mech("A")], [{**INFANTRY, "name": "Grunts"}]), 1, "civilian")
    g = run(g, "occupy", [], unit="1/t", building="1/st1")
    assert state(g, "1/t").extra["inside"] == "1/st1"
    g = set_state(g, "1/st1", "damage", 3)
    out = attack(g, [4, 4, 1, 1, 1])
    assert state(out, "1/st1").destroyed and state(out, "1/t").destroyed
    assert "Grunts dies in the rubble" in out.log[-1].text


def test_infantry_in_buildings() -> None:
    """+1 Defense inside (L2948); at most three units (L2939), never with enemy infantry (L2937), not in
    and out in one turn (L2938); only infantry (L2933), only buildings (L2896)."""
    grunt = {**INFANTRY, "name": "G"}
    g = start([mech("A"), grunt, grunt, grunt, grunt], [{**INFANTRY, "name": "E"}])
    g = place(g, 1, "civilian", count=2)
    g = place(g, 1, "raid_target")
    with pytest.raises(ValueError, match="not infantry"):
        run(g, "occupy", [], unit="0/a", building="1/st1")
    with pytest.raises(ValueError, match="not a building"):
        run(g, "occupy", [], unit="0/b", building="1/st3")
    for ref in ("0/b", "0/c", "0/d"):
        g = run(g, "occupy", [], unit=ref, building="1/st1")
    with pytest.raises(ValueError, match="already holds 3"):
        run(g, "occupy", [], unit="0/e", building="1/st1")
    with pytest.raises(ValueError, match="enemy infantry"):
        run(g, "occupy", [], unit="1/t", building="1/st1")
    with pytest.raises(ValueError, match="cannot come out"):
        run(g, "occupy", [], unit="0/b")
    shot = run(g, "attack", [1, 1, 1, 1], attacker="1/t", target="0/b")  # Medium 1 at Defense 2 + 1
    assert shot.log[-1].detail["defense_pool"]["dice"] == 3


def test_recoil_puts_an_occupant_out() -> None:
    """A recoiled occupant leaves its building (L2951)."""
    g = place(start([mech("A")], [{**INFANTRY, "name": "G", "armour": 8}]), 1, "civilian")
    g = run(g, "occupy", [], unit="1/t", building="1/st1")
    g = attack(g, [6, 6, 6, 1, 1, 1], target="1/t")
    g = run(g, "power", [], attacker="0/a", spend=[{"power": "recoil"}])
    assert "inside" not in state(g, "1/t").extra and "leaves its building" in g.log[-1].text


def test_power_attacks_leave_structures_be() -> None:
    """Blast around the target hits the units near it, not a structure (L2926)."""
    red = [mech("A", ("blast", "short"))]
    g = place(start(red, [mech("B"), mech("C")]), 1, "military")
    g = run(g, "attack", [6, 6, 1, 1, 1, 1], attacker="0/a", target="1/t")
    g = run(
        g,
        "power",
        [1, 1, 1],
        attacker="0/a",
        spend=[{"power": "blast", "points": 1, "units": ["1/u", "1/st1"]}],
    )
    assert state(g, "1/u").damage == 1 and state(g, "1/st1").damage == 0


def test_gun_emplacement_only_reacts() -> None:
    """It never activates and fires only as a reaction paid with a Focus Point (L1943)."""
    g = place(start([mech("A")]), 1, "gun_emplacement")
    with pytest.raises(ValueError, match="never activates"):
        run(g, "activate", [], unit="1/st1")
    with pytest.raises(ValueError, match="only as a reaction"):
        run(g, "attack", [], attacker="1/st1", target="0/a")
    g = g.model_copy(
        update={"sides": [g.sides[0], g.sides[1].model_copy(update={"resources": {"focus_points": 1}})]}
    )
    out = run(
        g,
        "attack",
        [4, 4, 4, 1, 1, 1],
        attacker="1/st1",
        target="0/a",
        reaction=True,
        reaction_trigger="enemy_moved",
    )
    assert state(out, "0/a").damage == 3 and out.sides[1].resources["focus_points"] == 0


def test_structures_give_no_focus_points_and_no_attrition() -> None:
    g = place(start([mech("A")], [mech("B")]), 1, "hard_military", count=3)
    g = act(g, "initiative", {}, TypedDice([6, 1]))
    assert g.sides[1].resources["focus_points"] == 1


def test_raid_scores_the_targets_in_the_game() -> None:
    """Attacker 1VP per destroyed target, defender 1VP per survivor (L1929), counted from the game."""
    g = run(start([mech("A")], [mech("B")]), "mission", [], mission="raid")
    g = place(g, 1, "raid_target", count=6)
    for key in ("st1", "st2"):
        g = set_state(g, f"1/{key}", "destroyed", True)
    g = g.model_copy(update={"round": 7})
    out = run(g, "end_phase", [], targets_destroyed=5)
    assert out.log[-1].text.count("+2VP (targets destroyed)") == 1
    assert "+4VP (targets standing)" in out.log[-1].text


def test_bunker_assault_counts_battered_bunkers() -> None:
    """2VP per destroyed bunker to the attacker; the defender 2VP per structure with 5+ Armour left, 1VP
    per one with 4 or less (L1949)."""
    g = run(start([mech("A")], [mech("B")]), "mission", [], mission="raid", variant=True)
    g = place(place(g, 1, "bunker", count=2), 1, "gun_emplacement")
    g = set_state(g, "1/st1", "destroyed", True)
    g = set_state(g, "1/st2", "damage", 8)  # 4 Armour left
    out = run(g.model_copy(update={"round": 7}), "end_phase", [])
    assert "+2VP (bunkers destroyed)" in out.log[-1].text
    assert "+3VP (bunkers standing)" in out.log[-1].text


def test_remember_love_counts_destroyed_beacons() -> None:
    g = run(start([mech("A")], [mech("B")]), "mission", [], mission="remember_love")
    g = place(g, 1, "beacon", count=2)
    g = set_state(g, "1/st2", "destroyed", True)
    out = run(g.model_copy(update={"round": 5}), "end_phase", [])
    assert "+2VP (beacons destroyed)" in out.log[-1].text
