"""Skirmishers: exchanging equipment (L247, L253) and jet packs (L585, L600-L605), through the engine."""

from __future__ import annotations

from typing import Any

import pytest
from test_skirmishers_reaction import game_of, no, plain

from core.dice import TypedDice
from core.game import Game, act, gated_actions, odds
from core.systems import implementation
from core.systems.skirmishers.state import SkGame, SkUnit

SK = implementation("skirmishers")


def picks(g: Game, ref: str) -> dict[str, str]:
    p = SK.actions["gear"].picks
    assert p is not None
    return {x.value: x.unavailable for x in p(g, ref)["gear"]}


def st(g: Game, ref: str) -> SkUnit:
    return SkUnit.of(g.unit(ref)[2])


def gear(g: Game, ref: str, what: str) -> Game:
    return act(g, "gear", {"unit": ref, "gear": what}, no())


def note(g: Game, ref: str) -> str:
    s, u, _ = g.unit(ref)
    return SK.unit_view(g, s, u).grids[0].note


def test_drop_for_nothing_and_pick_up_for_6_ap_L253() -> None:
    g = game_of([plain("Giver", primary="rifle"), plain("Taker", primary="")], [plain("Foe")])
    assert picks(g, "0/u2")["take:0/u1:rifle"] == ""  # a friend's rifle fits its empty primary slot
    assert "drop it first" in picks(g, "0/u2")["take:0/u1:pistol"]  # it carries a pistol already
    with pytest.raises(ValueError, match="drop it first"):
        gear(g, "0/u2", "take:0/u1:pistol")
    g = gear(g, "0/u1", "drop:rifle")
    assert st(g, "0/u1").ap_spent == 0 and st(g, "0/u1").active == "fists"
    assert [d.item for d in SkGame.model_validate(g.state.extra).ground] == ["rifle"]
    assert "now carries Pistol" in note(g, "0/u1")
    with pytest.raises(ValueError, match="no such ranged weapon"):
        odds(g, "fire", {"shooter": "0/u1", "target": "1/u1", "weapon": "rifle"})
    with pytest.raises(ValueError, match="not the active weapon"):  # fists are active now: 3 AP first
        odds(g, "fire", {"shooter": "0/u1", "target": "1/u1", "weapon": "pistol"})
    g = gear(g, "0/u2", "ground:0")
    assert st(g, "0/u2").ap_spent == 6 and SkGame.model_validate(g.state.extra).ground == []
    g = act(act(g, "end_turn", {}, no()), "end_turn", {}, no())
    g = act(g, "change_weapon", {"unit": "0/u2", "weapon": "rifle"}, no())
    g = act(g, "fire", {"shooter": "0/u2", "target": "1/u1"}, TypedDice([6, 6, 6, 6]))  # 4X from 10
    assert SkUnit.of(g.sides[1].units[0]).cells[:5] == [2, 2, 2, 2, 0]
    assert "fires Rifle" in g.log[g.cursor - 1].text
    assert "now carries Rifle and Pistol" in note(g, "0/u2")


def test_take_from_a_friend_or_the_fallen_for_6_ap_never_a_living_enemy_L253() -> None:
    g = game_of([plain("Taker", primary="")], [plain("Foe", primary="gyrojet"), plain("Foe 2")])
    assert not any(k.startswith("take:1/") for k in picks(g, "0/u1"))  # enemies still fighting
    with pytest.raises(ValueError, match="enemy still fighting"):
        gear(g, "0/u1", "take:1/u1:gyrojet")
    g = act(g, "take_damage", {"unit": "1/u1", "lethal": 12}, TypedDice([6, 6]))  # dead
    assert picks(g, "0/u1")["take:1/u1:gyrojet"] == ""
    g = gear(g, "0/u1", "take:1/u1:gyrojet")
    assert st(g, "0/u1").ap_spent == 6
    assert g.unit("0/u1")[2].state.extra["kit"]["primary"] == "gyrojet"
    assert g.unit("1/u1")[2].state.extra["kit"]["primary"] == ""
    with pytest.raises(ValueError, match="AP"):  # 6 of its 8 AP spent: no second 6 AP take
        gear(g, "0/u1", "take:1/u1:pistol")


def test_rounds_go_with_a_launcher_L253() -> None:
    g = game_of(
        [plain("Grenadier", primary="rifle", secondary="grenade_launcher"), plain("Rifleman")], [plain("F")]
    )
    g = act(g, "change_weapon", {"unit": "0/u1", "weapon": "grenade_launcher"}, no())  # free (L417)
    g = gear(g, "0/u1", "drop:grenade_launcher")
    assert st(g, "0/u1").active == "fists" and "grenade_launcher" not in st(g, "0/u1").ammo
    dropped = SkGame.model_validate(g.state.extra).ground[0]
    assert dropped.ammo == 4  # L403-L419: the launcher's 4 rounds lie with it
    # a rifleman with a pistol has its secondary slot taken: the launcher goes nowhere
    assert "drop it first" in picks(g, "0/u2")["ground:0"]
    g = gear(gear(g, "0/u2", "drop:pistol"), "0/u2", "ground:0")
    assert st(g, "0/u2").ammo["grenade_launcher"] == 4 and st(g, "0/u2").kit.secondary == "grenade_launcher"


def test_jet_pack_off_5_on_5_exchange_6_and_its_2_ap_follow_it_L585_L600_L605() -> None:
    g = game_of([plain("Flyer", jet_pack=True), plain("Walker")], [plain("Foe")])
    assert note(g, "0/u1").startswith("HP 10: 6 of 6 AP left")  # 8 - 2 for the jet pack (L585)
    assert "jet_take:0/u2" not in picks(g, "0/u1")  # the walker has none to give
    assert picks(g, "0/u2")["jet_take:0/u1"] == ""
    g2 = gear(g, "0/u2", "jet_take:0/u1")  # exchange: 6 AP (L605)
    assert st(g2, "0/u2").ap_spent == 6 and note(g2, "0/u2").startswith("HP 10: 0 of 6 AP left")
    assert note(g2, "0/u1").startswith("HP 10: 8 of 8 AP left")
    with pytest.raises(ValueError, match="wears no jet pack"):
        act(g2, "jet", {"unit": "0/u1", "dots": 6}, no())
    g = gear(g, "0/u1", "jet_off")  # 5 AP (L604)
    assert st(g, "0/u1").ap_spent == 5 and note(g, "0/u1").startswith("HP 10: 3 of 8 AP left")
    assert "jet pack taken off" in note(g, "0/u1")
    assert picks(g, "0/u2")["jet_on:0"] == ""
    g = gear(g, "0/u2", "jet_on:0")
    assert st(g, "0/u2").ap_spent == 5 and note(g, "0/u2").startswith("HP 10: 1 of 6 AP left")
    with pytest.raises(ValueError, match="AP"):
        act(g, "jet", {"unit": "0/u2", "dots": 6}, no())  # 3 AP to fly, 1 left
    assert "wears no jet pack" in gated_actions(g2)["0/u1"]["jet"]  # greyed once it gave it away
    assert "jet" not in gated_actions(g2).get("0/u2", {})
    off = g.model_copy(update={"options": {"jet_packs": False}})
    with pytest.raises(ValueError, match="jet packs are off"):
        gear(off, "0/u2", "jet_off")


def test_power_armor_exchanges_its_secondary_only_L877_L889_not_its_suit_L839_L855_L861() -> None:
    """L877: the secondary is any standard infantry weapon; L889: the troopers' rules; L253: weapons are
    exchanged.  The suit, its primaries and jet pack are the suit's; no grenades (L857, L908)."""
    pa: dict[str, Any] = {"name": "Suit", "kind": "power_armor", "primary": "pa_mg", "secondary": "pistol"}
    g = game_of(
        [pa, plain("Rifleman", secondary="", body_armor="basic"), {"name": "Jeep", "kind": "vehicle"}],
        [plain("Foe")],
    )
    p = picks(g, "0/u1")
    assert p["drop:pistol"] == "" and "drop:pa_mg" not in p and "jet_off" not in p
    assert not any(k.startswith("grenades:") or k.endswith(":body_armor") for k in p)  # never its gear
    for what, why in (
        ("drop:pa_mg", "built into its suit"),
        ("jet_off", "part of the suit"),
        ("grenades:0/u2:hand_grenade", "cannot use grenades"),
        ("take:0/u2:body_armor", "its suit is its armor"),
    ):
        with pytest.raises(ValueError, match=why):
            gear(g, "0/u1", what)
    assert "take:0/u1:pa_mg" not in picks(g, "0/u2")  # a suit's weapon is never offered to a trooper
    with pytest.raises(ValueError, match="power-armor weapon"):
        gear(g, "0/u2", "take:0/u1:pa_mg")
    assert picks(g, "0/u2")["take:0/u1:pistol"] == ""  # a friend's infantry secondary: 6 AP (L253)
    g = gear(g, "0/u1", "drop:pistol")
    assert st(g, "0/u1").ap_spent == 0 and "Pistol" not in note(g, "0/u1").partition("now carries")[2]
    g = gear(g, "0/u2", "drop:smg")
    assert picks(g, "0/u1")["ground:1"] == ""  # an SMG as its secondary, as L877 allows
    g = gear(g, "0/u1", "ground:1")
    assert g.unit("0/u1")[2].state.extra["kit"]["secondary"] == "smg" and st(g, "0/u1").ap_spent == 6
    # the reading that power armor exchanges nothing (the book is silent): neither gives nor takes
    off = g.model_copy(update={"options": {"power_armor_gear": False}})
    assert "exchanges no gear in this game" in gated_actions(off)["0/u1"]["gear"]
    with pytest.raises(ValueError, match="exchanges no gear"):
        gear(off, "0/u1", "drop:smg")
    assert "exchanges no gear" in picks(off, "0/u2")["take:0/u1:smg"]
    assert "is a vehicle" in gated_actions(g)["0/u3"]["gear"]
    with pytest.raises(ValueError, match="is a vehicle"):
        gear(g, "0/u3", "drop:lmg")


def test_body_armor_taken_off_for_0_taken_for_6_ap_its_cells_and_ap_cost_go_with_it_L200_L207_L253() -> None:
    g = game_of(
        [plain("Armored", body_armor="standard"), plain("Bare"), plain("Heavy", body_armor="heavy")],
        [plain("Foe")],
    )
    assert note(g, "0/u1").startswith("HP 10: 6 of 6 AP left")  # 8 - 2 for standard armor (L202, L207)
    g = act(g, "take_damage", {"unit": "0/u1", "lethal": 1}, TypedDice([6, 6]))  # the armor takes it (L198)
    assert st(g, "0/u1").armor == 3
    assert picks(g, "0/u2")["take:0/u1:body_armor"] == ""
    assert "wears body armor already" in picks(g, "0/u3")["take:0/u1:body_armor"]  # one armor row (L99)
    with pytest.raises(ValueError, match="wears body armor already"):
        gear(g, "0/u3", "take:0/u1:body_armor")
    g = gear(g, "0/u2", "take:0/u1:body_armor")
    assert st(g, "0/u2").ap_spent == 6 and st(g, "0/u2").armor == 3  # its 3 cells left go with it
    assert note(g, "0/u2").startswith("HP 10: 0 of 6 AP left")  # its -2 AP follow it (L207)
    assert "now wears Standard body armor" in note(g, "0/u2")
    assert note(g, "0/u1").startswith("HP 10: 8 of 8 AP left") and "body armor taken off" in note(g, "0/u1")
    assert st(g, "0/u1").armor == 0
    g = gear(g, "0/u3", "drop:body_armor")  # 0 AP (L253): heavy armor off, 8 AP instead of 5
    assert st(g, "0/u3").ap_spent == 0 and note(g, "0/u3").startswith("HP 10: 8 of 8 AP left")
    ground = SkGame.model_validate(g.state.extra).ground
    assert [(d.item, d.cells) for d in ground] == [("body_armor:heavy", 6)]
    g = gear(g, "0/u1", "ground:0")  # picked up for 6 AP: -3 AP with it, the 6 already spent
    assert st(g, "0/u1").armor == 6 and note(g, "0/u1").startswith("HP 10: 0 of 5 AP left")
    with pytest.raises(ValueError, match="nothing lies there"):
        gear(g, "0/u3", "ground:0")
    g = act(g, "take_damage", {"unit": "0/u1", "lethal": 0, "blunt": 3}, TypedDice([6, 6]))
    assert st(g, "0/u1").cells == [0] * 11  # wearing armor it ignores bludgeoning (L198)


def test_advanced_armor_keeps_its_marked_columns_when_exchanged_L384_L253() -> None:
    g = game_of([plain("Armored", body_armor="basic", armor_from=7), plain("Bare")], [plain("Foe")])
    g = g.model_copy(update={"options": {"advanced_armor": True}, "log": []})
    g.state.active_side = None
    g = act(g, "first_side", {"first": "first"}, TypedDice([]))
    assert st(g, "0/u1").guard == [-1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1]  # HP 7 and 6 (L393)
    g = act(act(g, "end_turn", {}, no()), "end_turn", {}, no())
    g = gear(g, "0/u2", "take:0/u1:body_armor")
    assert st(g, "0/u2").guard == [-1, -1, -1, 0, 0, -1, -1, -1, -1, -1, -1] and st(g, "0/u1").guard == []
    s, u, _ = g.unit("0/u2")
    armor_row = SK.unit_view(g, s, u).grids[0].rows[-1]
    assert [c.mark for c in armor_row.cells[2:6]] == ["off", "", "", "off"]  # drawn on the taker's card


def test_sneak_suit_taken_for_6_ap_and_its_plus_1_at_long_range_goes_with_it_L517_L253() -> None:
    g = game_of([plain("Sneaky", sneak_suit=True), plain("Plain")], [plain("Foe")])
    g = gear(g, "0/u2", "take:0/u1:sneak_suit")
    assert st(g, "0/u2").ap_spent == 6 and "now wears a sneak suit" in note(g, "0/u2")
    assert "sneak suit taken off" in note(g, "0/u1")
    g = act(g, "end_turn", {}, no())
    tn = {
        r: int(odds(g, "fire", {"shooter": "1/u1", "target": r, "range": "long"}).summary.split()[1])
        for r in ("0/u1", "0/u2")
    }
    assert tn["0/u2"] == tn["0/u1"] + 1  # the +1 is the wearer's now (L517)
    g = act(g, "end_turn", {}, no())
    assert (
        "wears a sneak suit already"
        in picks(game_of([plain("A", sneak_suit=True), plain("B", sneak_suit=True)], [plain("F")]), "0/u1")[
            "take:0/u2:sneak_suit"
        ]
    )
    g = gear(g, "0/u2", "drop:sneak_suit")
    assert picks(g, "0/u1")["ground:0"] == ""
    off = g.model_copy(update={"options": {"sneak_suits": False}})
    assert picks(off, "0/u1")["ground:0"] == "sneak suits are off in this game"
    with pytest.raises(ValueError, match="sneak suits are off"):
        gear(off, "0/u1", "ground:0")
    g = gear(g, "0/u1", "ground:0")
    assert g.unit("0/u1")[2].state.extra["kit"]["sneak_suit"] is True
    with pytest.raises(ValueError, match="wears no sneak suit"):
        gear(g, "0/u2", "drop:sneak_suit")


def test_grenades_dropped_for_0_and_picked_up_as_many_as_fit_L131_L253() -> None:
    g = game_of([plain("Dropper"), plain("Picker", smoke_grenades=2)], [plain("Foe")])
    g = act(g, "change_weapon", {"unit": "0/u1", "weapon": "hand_grenade"}, no())
    g = gear(g, "0/u1", "drop:hand_grenade")  # all 4 of them, 0 AP
    assert st(g, "0/u1").ammo["hand_grenade"] == 0 and st(g, "0/u1").ap_spent == 3
    assert st(g, "0/u1").active == "fists"  # its active grenade is gone (L251)
    ground = SkGame.model_validate(g.state.extra).ground
    assert [(d.item, d.ammo) for d in ground] == [("hand_grenade", 4)]
    assert picks(g, "0/u2")["ground:0"] == "carries all the grenades it can (L131)"  # 2 + 2 smoke
    with pytest.raises(ValueError, match="all the grenades it can"):
        gear(g, "0/u2", "ground:0")
    g = gear(g, "0/u2", "drop:smoke_grenade")
    g = gear(g, "0/u2", "ground:0")  # room for 2: 2 picked up, 2 still lie there
    assert st(g, "0/u2").ammo["hand_grenade"] == 4 and st(g, "0/u2").ap_spent == 6
    ground = SkGame.model_validate(g.state.extra).ground
    assert [(d.item, d.ammo) for d in ground] == [("hand_grenade", 2), ("smoke_grenade", 2)]
    with pytest.raises(ValueError, match="no Hand Grenade left"):
        gear(g, "0/u1", "drop:hand_grenade")


def test_the_books_example_a_semi_portable_laser_needs_one_more_trooper_L369() -> None:
    g = game_of([plain("Laser crew", primary="sp_laser"), plain("Loader")], [plain("Foe")])
    with pytest.raises(ValueError, match="1 more trooper"):
        act(g, "crew", {"unit": "0/u1"}, no())
    g = act(g, "crew", {"unit": "0/u1", "helpers": ["0/u2"]}, no())
    assert [st(g, r).ap_spent for r in ("0/u1", "0/u2")] == [4, 4]  # each pays 4 AP (L369)


def test_hand_grenades_taken_from_a_friend_up_to_4_L131_L253() -> None:
    g = game_of([plain("Thrower"), plain("Smoker", smoke_grenades=2)], [plain("Foe")])
    assert "all the grenades it can" in picks(g, "0/u1")["grenades:0/u2:smoke_grenade"]  # it holds 4
    for _ in range(2):  # two thrown: the 3 AP change, then 1 AP a dot (L251, L328); back to the gun
        g = act(g, "change_weapon", {"unit": "0/u1", "weapon": "hand_grenade"}, no())
        g = act(g, "throw", {"unit": "0/u1", "dots": 1}, no())
    assert st(g, "0/u1").ammo["hand_grenade"] == 2
    g = act(
        act(g, "explode", {"unit": "0/u1"}, TypedDice([6, 6])), "explode", {"unit": "0/u1"}, TypedDice([6, 6])
    )
    g = act(act(g, "end_turn", {}, no()), "end_turn", {}, no())
    g = gear(g, "0/u1", "grenades:0/u2:smoke_grenade")
    assert st(g, "0/u1").ammo == {"hand_grenade": 2, "smoke_grenade": 2} and st(g, "0/u1").ap_spent == 6
    assert st(g, "0/u2").ammo["smoke_grenade"] == 0
    tp = SK.actions["throw"].picks
    assert tp is not None
    assert "smoke_grenade" in {p.value for p in tp(g, "0/u1")["weapon"]}  # it may throw them now
    with pytest.raises(ValueError, match="no such grenade left"):
        gear(g, "0/u1", "grenades:0/u2:smoke_grenade")
