"""Skirmishers: the limits of reaction fire (L267, L288, L596, L734; digest AMB-16, AMB-42, AMB-62) and
the free drop prone after movement fire (L498), through the engine as the app calls it."""

from __future__ import annotations

from typing import Any

import pytest

from core.dice import TypedDice
from core.game import Game, act, gated_actions, new_game, odds
from core.squad import Squad, SquadUnit
from core.systems.skirmishers import SAMPLES
from core.systems.skirmishers.state import SkUnit


def game_of(red: list[dict[str, Any]], blue: list[dict[str, Any]]) -> Game:
    """Red goes first; each side's units are u1, u2... in order."""

    def squad(i: int, units: list[dict[str, Any]]) -> Squad:
        return Squad(
            id=f"s{i}",
            name=f"S{i}",
            system="skirmishers",
            units=[SquadUnit(key=f"u{n + 1}", profile=p) for n, p in enumerate(units)],
        )

    g = new_game("g", "Test", [("Red", squad(0, red)), ("Blue", squad(1, blue))])
    return act(g, "first_side", {"first": "first"}, TypedDice([]))


def sample(key: str) -> dict[str, Any]:
    return SAMPLES[key].model_dump(mode="json")


def plain(name: str, **more: Any) -> dict[str, Any]:
    return {"name": name, "primary": "smg", "secondary": "pistol", **more}


def no(*_: Any) -> TypedDice:
    return TypedDice([])


MISS = [1, 1]


def offers(g: Game) -> list[dict[str, Any]]:
    return list(g.log[g.cursor - 1].detail.get("offers", []))


def fire(g: Game, shooter: str, target: str, shots: int = 1) -> Game:
    return act(g, "fire", {"shooter": shooter, "target": target, "shots": shots}, TypedDice(MISS * shots))


def test_one_reaction_shot_per_firer_per_dot_L267_L288_AMB16() -> None:
    # Red: an SMG with a 150° arc (12 shots, L261); Blue: a trooper that activates in it
    g = game_of([plain("Gunner")], [plain("Runner")])
    g = act(g, "set_arc", {"unit": "0/u1", "size": "150"}, no())
    g = act(g, "end_turn", {}, no())
    g = fire(g, "0/u1", "1/u1")  # it activated in the arc: one shot (L267)
    with pytest.raises(ValueError, match="on this dot already"):
        fire(g, "0/u1", "1/u1")
    with pytest.raises(ValueError, match="on this dot already"):
        odds(g, "fire", {"shooter": "0/u1", "target": "1/u1"})
    g = act(g, "move", {"unit": "1/u1", "ap": 1}, no())  # a new dot: one more
    assert [o["input"]["shooter"] for o in offers(g)] == ["0/u1"]
    with pytest.raises(ValueError, match="1 more shot"):
        fire(g, "0/u1", "1/u1", shots=2)
    g = act(g, "fire", {"shooter": "0/u1", "target": "1/u1"}, TypedDice([6, 6, 6, 6]))  # SMG 3X from 10
    arc = SkUnit.of(g.sides[0].units[0]).arcs[0]
    assert arc.shots == 10, "each attack used one shot of the arc"
    hit = SkUnit.of(g.sides[1].units[0])
    assert hit.shot_by == ["0/u1"] and hit.cells[:4] == [2, 2, 2, 0]  # the count and the marks both kept


def test_standing_up_lets_only_firers_that_have_not_attacked_on_this_dot_fire_L288_AMB62() -> None:
    g = game_of([plain("Gunner A"), plain("Gunner B")], [plain("Runner")])
    g = act(g, "set_arc", {"unit": "0/u1", "size": "150"}, no())
    g = act(g, "set_arc", {"unit": "0/u2", "size": "150"}, no())
    g = act(g, "end_turn", {}, no())
    g = act(g, "move", {"unit": "1/u1", "ap": 1}, no())
    assert {o["input"]["shooter"] for o in offers(g)} == {"0/u1", "0/u2"}
    g = fire(g, "0/u1", "1/u1")  # A fires; B holds its arc for later (L288)
    g = act(g, "stance", {"unit": "1/u1"}, no())  # prone, 1 AP
    g = act(g, "stance", {"unit": "1/u1"}, no())  # stands up, 2 AP, on the same dot
    assert [o["input"]["shooter"] for o in offers(g)] == ["0/u2"]
    with pytest.raises(ValueError, match="on this dot already"):
        fire(g, "0/u1", "1/u1")
    g = fire(g, "0/u2", "1/u1")
    # the count starts again when its side's next turn begins (it activates on its dot, L267)
    g = act(act(g, "end_turn", {}, no()), "set_arc", {"unit": "0/u1", "size": "150"}, no())
    g = act(g, "end_turn", {}, no())
    assert SkUnit.of(g.sides[1].units[0]).shot_by == []
    fire(g, "0/u1", "1/u1")


def test_a_flyer_may_be_shot_once_for_each_dot_it_flies_L596_AMB42() -> None:
    g = game_of([plain("Gunner")], [plain("Flyer", jet_pack=True)])
    g = act(g, "set_arc", {"unit": "0/u1", "size": "150"}, no())
    g = act(g, "end_turn", {}, no())
    g = act(g, "jet", {"unit": "1/u1", "dots": 8}, no())
    assert [o["input"]["shooter"] for o in offers(g)] == ["0/u1"]
    o = odds(g, "fire", {"shooter": "0/u1", "target": "1/u1", "shots": 8})
    assert "target flying +2" in o.summary  # L591-L596
    g = fire(g, "0/u1", "1/u1", shots=8)
    with pytest.raises(ValueError, match="on this dot already"):
        fire(g, "0/u1", "1/u1")


def test_a_vehicle_and_its_rider_are_attacked_once_for_each_ap_of_movement_L734() -> None:
    g = game_of([plain("Gunner")], [sample("blue_gyro"), sample("blue_assault")])
    g = act(g, "set_arc", {"unit": "0/u1", "size": "150"}, no())
    g = act(g, "end_turn", {}, no())
    g = act(g, "ride", {"unit": "1/u1", "what": "mount", "vehicle": "1/u2"}, no())
    g = act(g, "ride", {"unit": "1/u1", "what": "switch_on"}, no())
    g = act(g, "drive", {"vehicle": "1/u2", "step": "start", "mode": "cruise"}, no())  # a 1 AP segment
    g = fire(g, "0/u1", "1/u1")  # at the rider
    with pytest.raises(ValueError, match="on this dot already"):
        fire(g, "0/u1", "1/u2")  # the vehicle and its rider together: once (L734)
    g = act(g, "drive", {"vehicle": "1/u2", "step": "move", "mode": "cruise"}, no())
    g = fire(g, "0/u1", "1/u2")
    assert SkUnit.of(g.sides[1].units[1]).shot_by == ["0/u1"]


def test_the_target_of_movement_fire_may_drop_prone_for_nothing_L498() -> None:
    g = game_of([sample("red_rifle"), sample("red_rifle")], [sample("blue_gyro")])
    assert "drop_prone" in gated_actions(g)["1/u1"]  # greyed before any shot, with its reason
    with pytest.raises(ValueError, match="right after movement fire"):
        act(g, "drop_prone", {"unit": "1/u1"}, no())
    g = fire(g, "0/u1", "1/u1")
    assert offers(g) == [
        {
            "action": "drop_prone",
            "input": {"unit": "1/u1"},
            "label": "Sample: Blue Marksman drops prone (0 AP)",
        }
    ]
    assert "drop_prone" not in gated_actions(g).get("1/u1", {})
    dropped = act(g, "drop_prone", {"unit": "1/u1"}, no())
    target = dropped.sides[1].units[0]
    assert "prone" in target.state.conditions and SkUnit.of(target).ap_spent == 0
    with pytest.raises(ValueError, match="right after movement fire"):
        act(dropped, "drop_prone", {"unit": "1/u1"}, no())
    # the next shot is at a prone target: +1 (L300)
    assert "target prone +1" in odds(dropped, "fire", {"shooter": "0/u2", "target": "1/u1"}).summary
    # the moment passes once anything else happens
    later = act(g, "move", {"unit": "0/u1", "ap": 1}, no())
    with pytest.raises(ValueError, match="right after movement fire"):
        act(later, "drop_prone", {"unit": "1/u1"}, no())
    # and reaction fire (in the target's own turn) gives no free drop
    g = act(act(g, "set_arc", {"unit": "0/u2", "size": "30"}, no()), "end_turn", {}, no())
    g = fire(g, "0/u2", "1/u1")
    assert offers(g) == []


# --- the readings of AMB-59, AMB-34 and AMB-38 -----------------------------------------------


def test_the_knife_strikes_as_a_bayonet_from_an_active_rifle_class_gun_L131_L320_AMB59() -> None:
    from core.systems import implementation

    picks = implementation("skirmishers").actions["melee"].picks
    assert picks is not None
    g = game_of([plain("Laser", primary="laser_rifle"), plain("Pistolero", primary="")], [plain("Foe")])
    why = {p.value: p.unavailable for p in picks(g, "0/u1")["weapon"]}
    assert why == {"fists": "", "knife": "", "gun_club": ""}  # a laser rifle counts as a rifle (default)
    act(g, "melee", {"attacker": "0/u1", "target": "1/u1", "weapon": "knife"}, no())
    why = {p.value: p.unavailable for p in picks(g, "0/u2")["weapon"]}
    assert why["fists"] == "" and "Pistol carries no bayonet" in why["knife"]
    with pytest.raises(ValueError, match="carries no bayonet"):
        act(g, "melee", {"attacker": "0/u2", "target": "1/u1", "weapon": "knife"}, no())
    act(g, "melee", {"attacker": "0/u2", "target": "1/u1", "weapon": "fists"}, no())  # always (L320)
    swing = act(g, "melee", {"attacker": "0/u2", "target": "1/u1", "weapon": "gun_club"}, no())
    swing = act(swing, "end_turn", {}, no())  # resolved as the target activates: the Club row 1X, 4\
    swing = act(swing, "resolve_melee", {"unit": "1/u1"}, TypedDice([6, 6, 6, 6]))  # first cell 10
    assert SkUnit.of(swing.sides[1].units[0]).cells[:6] == [2, 1, 1, 1, 1, 0]
    knife = act(g, "change_weapon", {"unit": "0/u2", "weapon": "knife"}, no())
    assert "no gun to swing" in {p.value: p.unavailable for p in picks(knife, "0/u2")["weapon"]}["gun_club"]
    printed = g.model_copy(update={"options": {"bayonets": "printed"}})  # only the Rifle and the SMG
    with pytest.raises(ValueError, match="Laser Rifle carries no bayonet"):
        act(printed, "melee", {"attacker": "0/u1", "target": "1/u1", "weapon": "knife"}, no())
    g = act(printed, "change_weapon", {"unit": "0/u1", "weapon": "knife"}, no())  # 3 AP: the knife in hand
    act(g, "melee", {"attacker": "0/u1", "target": "1/u1", "weapon": "knife"}, no())


def test_explosions_do_2x_more_to_swimmers_and_shallow_water_is_a_reading_L485_AMB34() -> None:
    g = game_of([plain("Swimmer", secondary="")], [plain("Foe")])
    g = act(g, "terrain", {"unit": "0/u1", "what": "swim"}, no())
    ring = {"unit": "0/u1", "lethal": 1, "why": "blast"}
    o = odds(g, "take_damage", ring)
    assert o.tables["damage"]  # 3X from the first cell: never less than 3 HP lost
    hurt = act(g, "take_damage", ring, TypedDice([6, 4]))  # first cell 10: 1X + 2X in water
    assert SkUnit.of(hurt.sides[0].units[0]).cells[:4] == [2, 2, 2, 0]
    assert "with +2X in water" in hurt.log[hurt.cursor - 1].text
    fire_dot = act(g, "take_damage", {**ring, "why": "fire_enter"}, TypedDice([6, 4]))
    assert SkUnit.of(fire_dot.sides[0].units[0]).cells[:2] == [2, 0]  # only explosions
    dry = {"unit": "1/u1", "lethal": 1, "why": "blast", "shallow": True}
    with pytest.raises(ValueError, match="only swimmers"):  # the default reading
        act(g, "take_damage", dry, TypedDice([6, 4]))
    assert "shallow" in str(gates_of(g, "take_damage", dry))
    wet = g.model_copy(update={"options": {"water_blast": "any_water"}})
    hurt = act(wet, "take_damage", dry, TypedDice([6, 4]))
    assert SkUnit.of(hurt.sides[1].units[0]).cells[:4] == [2, 2, 2, 0]


def gates_of(g: Game, action: str, raw: dict[str, Any]) -> Any:
    from core.game import gates

    return gates(g, action, raw)


SQUAD = [plain(f"T{n}") for n in range(1, 8)]


def kill(g: Game, key: str) -> Game:
    return act(g, "take_damage", {"unit": key, "lethal": 12}, TypedDice([6, 6]))


def test_morale_is_due_at_the_4th_death_and_each_later_one_L565_AMB38() -> None:
    g = game_of(SQUAD, [plain("Foe")])
    for k in ("0/u4", "0/u5", "0/u6"):
        g = kill(g, k)
        assert offers(g) == []
    assert "start at 4" in gated_actions(g)["0/u1"]["morale"]
    g = kill(g, "0/u7")  # the 4th death: each of the three left checks
    assert [o["input"]["unit"] for o in offers(g)] == ["0/u1", "0/u2", "0/u3"]
    assert all(o["action"] == "morale" for o in offers(g))
    g = act(g, "morale", {"unit": "0/u1"}, TypedDice([6, 6]))
    assert "since the last death" in gated_actions(g)["0/u1"]["morale"]
    with pytest.raises(ValueError, match="since the last death"):
        act(g, "morale", {"unit": "0/u1"}, TypedDice([6, 6]))
    g = kill(g, "0/u3")  # a 5th: due again, at TN 8 (Regular 7, +1)
    assert [o["input"]["unit"] for o in offers(g)] == ["0/u1", "0/u2"]
    assert odds(g, "morale", {"unit": "0/u1"}).summary.startswith("TN 8 ")


def test_morale_each_turn_is_a_reading_AMB38() -> None:
    g = game_of(SQUAD, [plain("Foe")]).model_copy(update={"options": {"morale_when": "turn_start"}})
    for k in ("0/u4", "0/u5", "0/u6", "0/u7"):
        g = kill(g, k)
    assert offers(g) == []  # not at the death under this reading
    g = act(g, "morale", {"unit": "0/u1"}, TypedDice([6, 6]))
    with pytest.raises(ValueError, match="this turn"):
        act(g, "morale", {"unit": "0/u1"}, TypedDice([6, 6]))
    g = act(g, "end_turn", {}, no())
    with pytest.raises(ValueError, match="squad's own turn"):
        act(g, "morale", {"unit": "0/u1"}, TypedDice([6, 6]))
    g = act(g, "end_turn", {}, no())  # Red's next turn: each of the three checks again
    assert [o["input"]["unit"] for o in offers(g) if o["action"] == "morale"] == ["0/u1", "0/u2", "0/u3"]
    act(g, "morale", {"unit": "0/u1"}, TypedDice([6, 6]))
