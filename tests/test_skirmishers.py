"""Skirmishers (004_63417322d25a2f10.txt): the book's worked examples, the card walk, the target
number, and exact odds checked against brute force."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from core import api
from core.dice import NeedMoreDice, TypedDice
from core.game import Game, act, gated_actions, new_game, odds
from core.squad import Squad, SquadUnit
from core.systems import implementation
from core.systems.skirmishers import SAMPLES
from core.systems.skirmishers.catalogue import CAT, WEAPONS
from core.systems.skirmishers.common import max_ap
from core.systems.skirmishers.state import SkUnit
from core.systems.skirmishers.tracks import TRACKS, walk
from core.systems.skirmishers.units import Soldier, pv, violations
from core.systems.skirmishers.walk import Card, Hit, burst_dist

SK = implementation("skirmishers")
T, PA, V = TRACKS["trooper"], TRACKS["power_armor"], TRACKS["vehicle"]


def cells_of(track: Any, full: list[str], half: list[str] = ()) -> tuple[int, ...]:  # type: ignore[assignment]
    return tuple(2 if lab in full else 1 if lab in half else 0 for lab in track.labels)


# --- the cards' worked examples -------------------------------------------------------------


def test_current_hp_is_right_of_the_lowest_crossed_cell_L123() -> None:
    cells = cells_of(T, ["9", "7", "6"], ["5"])
    assert T.hp_label(T.column(cells)) == "5"


def test_ap_and_mods_at_5_hp_L125_L127() -> None:
    col = T.column(cells_of(T, ["6"]))
    assert T.hp_label(col) == "5" and T.max_ap(col) == 7 and T.mod(col) == 2


def test_standard_body_armor_leaves_4_cells_and_takes_2_ap_L207() -> None:
    u = Soldier(name="A", body_armor="standard")
    st = SkUnit.model_validate(SK.initial_state(u).extra)
    assert st.armor == 4
    from core.systems.skirmishers.units import ap_bonus

    assert [T.max_ap(c, ap_bonus(u)) for c in range(12)] == [6, 6, 6, 6, 5, 5, 4, 4, 3, 2, 0, 0]


def test_the_full_trooper_ap_row_reads_as_offsets_from_8_AMB3() -> None:
    assert [T.max_ap(c) for c in range(12)] == [8, 8, 8, 8, 7, 7, 6, 6, 5, 4, 0, 0]


def test_power_armor_example_L843_L849_L853() -> None:
    cells = cells_of(PA, ["10", "9", "6"])
    col = PA.column(cells)
    assert PA.hp_label(col) == "5" and PA.max_ap(col) == 10 and PA.mod(col) == 1
    assert [PA.max_ap(c, 1) for c in (0, 17)] == [15, 2]  # veteran shifts the whole row (L851)


def test_vehicle_at_5_hp_cruise_and_plus_2_L646_L648() -> None:
    col = V.column(cells_of(V, ["6"]))
    assert V.hp_label(col) == "5" and V.modes[col] == "cruise" and V.mod(col) == 2


def test_sixty_degree_arc_shots_L261() -> None:
    arc = CAT.arcs["60"]
    assert arc.shots * (WEAPONS["pistol"].shots or 0) == 4
    assert arc.shots * (WEAPONS["smg"].shots or 0) == 6


# --- the card walk --------------------------------------------------------------------------


def test_lethal_skips_crossed_cells_and_crosses_half_ones_L308() -> None:
    cells = cells_of(T, ["7"], ["6"])
    m = walk(T, cells, 0, 3, 0, 8)
    assert [T.labels[i] for i in m.crossed] == ["8", "6", "5"]


def test_bludgeoning_starts_after_lethal_and_finishes_half_cells_L310() -> None:
    cells = cells_of(T, [], ["8"])
    m = walk(T, cells, 0, 1, 4, 9)  # a club: 1X on 9, 4\ from 8
    assert m.cells == cells_of(T, ["9", "8"], ["7", "6", "5"])


def test_armor_takes_lethal_first_and_stops_bludgeoning_L198_AMB8() -> None:
    m = walk(T, (0,) * 11, 2, 1, 4, 9)
    assert m.armor == 1 and m.cells == (0,) * 11 and m.blunt_ignored == 4
    m = walk(T, (0,) * 11, 1, 1, 4, 9)  # the armor is gone after the lethal point: 4\ from 9
    assert m.armor == 0 and m.cells == cells_of(T, [], ["9", "8", "7", "6"])


def test_a_roll_of_11_or_12_starts_at_10_AMB5() -> None:
    assert T.start(12) == T.start(11) == T.start(10) == 0
    assert PA.start(12) == 0 and PA.start(2) == 10


def test_damage_past_the_last_cell_kills_AMB6() -> None:
    m = walk(T, (0,) * 11, 0, 6, 0, 3)
    assert T.dead(m.cells)


def test_power_armor_ignores_bludgeoning_on_its_row_L841() -> None:
    m = walk(PA, (0,) * 18, 0, 1, 7, 12)
    assert m.cells.count(2) == 1 and m.cells.count(1) == 0


# --- the sample squads and the cards --------------------------------------------------------


def test_samples_are_legal_and_labelled() -> None:
    for key, unit in SAMPLES.items():
        assert unit.name.startswith("Sample: "), key
        assert violations(unit) == [], key
    assert pv(Soldier(name="A")) == 159 + 13 + 44  # rifle, pistol, the 4 grenades (digest 3)


def test_slot_rules() -> None:
    assert violations(Soldier(name="A", primary="pa_mg"))
    assert violations(
        Soldier(name="A", kind="power_armor", suit="basic", primary="pa_mg", primary2="pa_laser")
    )
    assert violations(Soldier(name="A", primary="laser_rifle", secondary="grenade_launcher"))
    assert not violations(Soldier(name="A", primary="rifle", secondary="grenade_launcher"))


# --- a game ---------------------------------------------------------------------------------


def sample_game(red: list[str], blue: list[str], first: str = "first") -> Game:
    def squad(i: int, keys: list[str]) -> Squad:
        units = [
            SquadUnit(key=f"u{n + 1}", profile=SAMPLES[k].model_dump(mode="json")) for n, k in enumerate(keys)
        ]
        return Squad(id=f"s{i}", name=f"S{i}", system="skirmishers", units=units)

    g = new_game("g", "Test", [("Red", squad(0, red)), ("Blue", squad(1, blue))])
    return act(g, "first_side", {"first": first}, TypedDice([]))


def test_the_first_step_is_who_goes_first_and_nothing_fires_before() -> None:
    def squad(i: int) -> Squad:
        p = SAMPLES["red_rifle"].model_dump(mode="json")
        return Squad(id=f"s{i}", name=f"S{i}", system="skirmishers", units=[SquadUnit(key="u1", profile=p)])

    g = new_game("g", "Test", [("Red", squad(0)), ("Blue", squad(1))])
    phase = SK.phase(g)
    assert phase is not None and phase.steps[phase.current].action == "first_side"
    with pytest.raises(ValueError, match="goes first"):
        act(g, "fire", {"shooter": "0/u1", "target": "1/u1"}, TypedDice([6, 6, 6, 6]))
    g = act(g, "first_side", {"first": "roll"}, TypedDice([5]))
    assert g.state.active_side == 1


def test_movement_fire_costs_2_ap_and_adds_2_L496() -> None:
    g = sample_game(["red_rifle"], ["blue_gyro"])
    o = odds(g, "fire", {"shooter": "0/u1", "target": "1/u1"})
    assert "TN 8 (base 6, movement fire +2)" in o.summary
    g2 = act(g, "fire", {"shooter": "0/u1", "target": "1/u1"}, TypedDice([4, 4, 3, 4]))
    st = SkUnit.of(g2.sides[0].units[0])
    assert st.ap_spent == 2
    target = g2.sides[1].units[0]
    assert SkUnit.of(target).cells == list(cells_of(T, ["7", "6", "5", "4"]))  # rifle 4X from cell 7
    assert target.state.damage == 7  # at HP 3


def test_reaction_fire_uses_the_arc_and_removes_it_at_its_last_shot_L314() -> None:
    g = sample_game(["red_rifle"], ["blue_gyro"])
    g = act(g, "set_arc", {"unit": "0/u1", "size": "30"}, TypedDice([]))
    assert SkUnit.of(g.sides[0].units[0]).arcs[0].shots == 1
    g = act(g, "end_turn", {}, TypedDice([]))
    assert SkUnit.of(g.sides[0].units[0]).arcs, "an arc stays through the enemy's turn (L76)"
    g = act(g, "fire", {"shooter": "0/u1", "target": "1/u1", "range": "long"}, TypedDice([1, 1]))
    assert SkUnit.of(g.sides[0].units[0]).arcs == []
    with pytest.raises(ValueError, match="arc"):
        odds(g, "fire", {"shooter": "0/u1", "target": "1/u1"})


def test_target_number_terms() -> None:
    g = sample_game(["red_rifle"], ["blue_gyro"])
    o = odds(g, "fire", {"shooter": "0/u1", "target": "1/u1", "range": "long", "cover": 2, "smoke": 1})
    # long +2, sneak suit +1 at long range (L517), cover +2, smoke +3, moving +2
    assert o.summary.startswith("TN 16 ")
    assert o.facts["hit_per_shot"] == 0


def test_vehicle_signature_makes_it_easier_to_hit_L656() -> None:
    g = sample_game(["red_rifle"], ["blue_assault"])
    o = odds(g, "fire", {"shooter": "0/u1", "target": "1/u1"})
    assert o.summary.startswith("TN 6 ")  # 6 + 2 movement fire - 2 assault signature


def test_the_arc_greys_weapons_that_cannot_fire_now() -> None:
    g = sample_game(["red_lmg"], ["blue_gyro"])
    g = act(g, "end_turn", {}, TypedDice([]))
    picks = implementation("skirmishers").actions["fire"].picks
    assert picks is not None
    lmg = next(p for p in picks(g, "0/u1")["weapon"] if p.value == "lmg")
    assert "no firing arc" in lmg.unavailable


def test_actions_a_unit_cannot_take_now_are_greyed_with_the_reason_and_refused_L73_L263_L318() -> None:
    """Before who goes first (L73) no card action is offered; in its side's turn a unit's Move, Melee and
    Fire are greyed once its AP cannot pay (1 AP a dot L230, melee 5 AP L318, movement fire 2 AP L496); in
    the enemy's turn Fire is offered only to a unit with a firing arc set (L263), every own-turn action
    greyed; each refused by the engine with the same reason."""

    def squad(i: int) -> Squad:
        p = SAMPLES["red_rifle"].model_dump(mode="json")
        return Squad(id=f"s{i}", name=f"S{i}", system="skirmishers", units=[SquadUnit(key="u1", profile=p)])

    g = new_game("g", "Test", [("Red", squad(0)), ("Blue", squad(1))])
    before = gated_actions(g)["0/u1"]
    assert before["fire"] == "first choose which side goes first (L73)"
    assert before["move"] == before["melee"] == "first choose which side goes first"
    g = act(g, "first_side", {"first": "first"}, TypedDice([]))
    assert "fire" not in gated_actions(g).get("0/u1", {}) and "move" not in gated_actions(g).get("0/u1", {})
    theirs = gated_actions(g)["1/u1"]  # Blue in Red's turn: no arc, no own-turn action
    assert theirs["fire"].endswith("no firing arc set: in the enemy's turn it fires only into an arc (L263)")
    assert theirs["move"] == "it is Red's turn"
    with pytest.raises(ValueError, match="no firing arc"):
        act(g, "fire", {"shooter": "1/u1", "target": "0/u1"}, TypedDice([6, 6]))
    left = max_ap(g, g.sides[0].units[0]) - SkUnit.of(g.sides[0].units[0]).ap_spent
    g = act(g, "move", {"unit": "0/u1", "ap": left - 4}, TypedDice([]))  # 4 AP left: melee costs 5
    mine = gated_actions(g)["0/u1"]
    assert mine["melee"].startswith("A melee attack costs 5 AP; ") and mine["melee"].endswith("4 left (L318)")
    assert "fire" not in mine  # movement fire (2 AP) is still offered
    with pytest.raises(ValueError, match="costs 5 AP"):
        act(g, "melee", {"attacker": "0/u1", "target": "1/u1", "weapon": "fists"}, TypedDice([]))
    g = act(g, "move", {"unit": "0/u1", "ap": 3}, TypedDice([]))  # 1 AP left: no movement fire
    mine = gated_actions(g)["0/u1"]
    assert mine["fire"].endswith("has no AP left for movement fire (2 AP, L496)")
    g = act(g, "move", {"unit": "0/u1", "ap": 1}, TypedDice([]))
    assert gated_actions(g)["0/u1"]["move"].startswith("Moving a dot costs 1 AP; ")
    g = act(g, "end_turn", {}, TypedDice([]))
    assert "fire" in gated_actions(g)["0/u1"]  # Red set no arc: nothing to fire in Blue's turn


def test_move_is_on_the_card_with_its_ap_as_one_tap_buttons_1_to_8_L215() -> None:
    """Move sits on the unit's card like Fire (a primary action), its AP one button each from 1 to 8:
    at most 8 AP a turn go on movement (L215; power armor too, L881), more than the AP left or the
    movement left greyed with the reason, and refused by the engine if sent anyway."""
    desc = api.call("system.describe", {"system": "skirmishers"})["result"]
    flow = next(a for a in desc["actions"] if a["name"] == "move")["flow"]
    assert flow["primary"] and flow["picks"] == ["ap"] and flow["common"] == []

    def picks(game: dict[str, Any], actor: str) -> dict[int, str]:
        reply = api.call("game.picks", {"game": game, "action": "move", "actor": actor})
        assert reply["ok"], reply
        return {p["value"]: p["unavailable"] for p in reply["result"]["fields"]["ap"]}

    def move(game: dict[str, Any], actor: str, ap: int) -> dict[str, Any]:
        given = {"unit": actor, "ap": ap}
        return api.call("game.act", {"game": game, "action": "move", "input": given, "faces": []})

    rifle = sample_game(["red_rifle"], ["blue_gyro"]).model_dump(mode="json")  # 7 AP
    assert picks(rifle, "0/u1") == {**{n: "" for n in range(1, 8)}, 8: "7 AP left"}
    armor = sample_game(["red_rifle"], ["blue_armor"], first="second").model_dump(mode="json")  # 14 AP
    assert picks(armor, "1/u1") == {n: "" for n in range(1, 9)}
    moved = move(armor, "1/u1", 6)
    assert moved["ok"], moved
    after = picks(moved["result"]["game"], "1/u1")
    assert [n for n, why in after.items() if not why] == [1, 2]
    assert after[3] == "2 AP of movement left this turn (L215)"
    again = move(moved["result"]["game"], "1/u1", 3)
    assert not again["ok"] and "at most 8 AP a turn go on movement" in again["error"]["message"]
    assert not move(armor, "1/u1", 9)["ok"]


def test_the_odds_say_armor_takes_a_hit_first_L198() -> None:
    """Against the Blue Leader's 4 armor cells a rifle hit (4X) only crosses armor: the odds show 0 HP
    lost, and say why (L198)."""
    g = sample_game(["red_rifle"], ["blue_leader"])
    o = odds(g, "fire", {"shooter": "0/u1", "target": "1/u1"})
    assert o.summary.endswith("; the 4 armor cells left take a hit's lethal damage before any HP (L198)")
    assert o.facts["dead"] == 0
    bare = odds(sample_game(["red_rifle"], ["blue_gyro"]), "fire", {"shooter": "0/u1", "target": "1/u1"})
    assert "armor" not in bare.summary


def test_the_card_says_what_its_damage_box_counts_L123() -> None:
    """The card's damage box counts the HP row's cells crossed (10 to 0, then DEAD: 11 for a trooper of
    10 HP); the card's note says so beside the current HP (L123)."""
    g = sample_game(["red_rifle"], ["blue_gyro"])
    fresh = SK.unit_view(g, 1, 0).grids[0].note
    assert g.sides[1].units[0].state.max_damage == 11
    assert fresh.startswith("HP 10: ") and "; damage 0/11: HP cells crossed, DEAD at 11 (L123)" in fresh
    g = act(g, "fire", {"shooter": "0/u1", "target": "1/u1"}, TypedDice([4, 4, 3, 4]))  # 7, 6, 5, 4 crossed
    hit = SK.unit_view(g, 1, 0).grids[0].note
    assert g.sides[1].units[0].state.damage == 7
    assert hit.startswith("HP 3: ") and "; damage 7/11: HP cells crossed, DEAD at 11 (L123)" in hit


# --- exact odds -----------------------------------------------------------------------------


def test_rifle_closed_form_digest_5_3() -> None:
    d = burst_dist(T, Card((0,) * 11, 0), 6, Hit(4, 0), 1)
    lost = d.map(lambda c: T.column(c.cells))
    want = {
        0: Fraction(5, 18),
        4: Fraction(13, 108),
        5: Fraction(13, 162),
        6: Fraction(65, 648),
        7: Fraction(13, 108),
        8: Fraction(65, 648),
        9: Fraction(13, 162),
        10: Fraction(13, 216),
        11: Fraction(13, 216),
    }
    assert {k: lost.probability(k) for k in want} == want


W2D6 = Counter(a + b for a in range(1, 7) for b in range(1, 7))


def brute_trooper(
    cells: list[int], armor: int, lethal: int, blunt: int, tn: int, shots: int
) -> Counter[tuple[Any, ...]]:
    """An independent reading of L306-L312 over 2D6 totals: every sequence of to-hit and cell totals."""
    out: Counter[tuple[Any, ...]] = Counter()

    def go(cs: list[int], ar: int, k: int, w: int) -> None:
        if k == shots:
            out[(tuple(cs), ar)] += w
            return
        for h, wh in W2D6.items():
            if h < tn:
                go(cs, ar, k + 1, w * wh * 36)
                continue
            for r, wr in W2D6.items():
                c, a = list(cs), ar
                soak = min(a, lethal)
                a -= soak
                left = lethal - soak
                i = 10 - min(r, 10)
                last = None
                while left and i < 11:
                    if c[i] != 2:
                        c[i], left, last = 2, left - 1, i
                    i += 1
                if blunt and a == 0:
                    j, b = (last + 1 if last is not None else 10 - min(r, 10)), blunt
                    while b and j < 11:
                        if c[j] != 2:
                            c[j] += 1
                            b -= 1
                        j += 1
                go(c, a, k + 1, w * wh * wr)

    go(cells, armor, 0, 1)
    return out


@pytest.mark.parametrize(
    ("cells", "armor", "lethal", "blunt", "tn", "shots"),
    [
        ([0] * 11, 0, 4, 0, 6, 2),
        ([0, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0], 0, 1, 4, 7, 2),
        ([0] * 11, 2, 3, 0, 5, 2),
        ([0] * 11, 1, 1, 4, 4, 1),
        ([0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0], 0, 0, 8, 4, 2),
    ],
)
def test_burst_odds_agree_with_brute_force(
    cells: list[int], armor: int, lethal: int, blunt: int, tn: int, shots: int
) -> None:
    d = burst_dist(T, Card(tuple(cells), armor), tn, Hit(lethal, blunt), shots)
    got = {(c.cells, c.armor): Fraction(w, d.total) for c, w in d.weights.items()}
    brute = brute_trooper(cells, armor, lethal, blunt, tn, shots)
    total = sum(brute.values())
    want = {k: Fraction(w, total) for k, w in brute.items()}
    assert got == want


def test_fire_resolved_with_every_face_matches_its_odds() -> None:
    """The action itself, every typed face sequence, against its own odds table (power armor)."""
    g = sample_game(["red_rifle"], ["blue_armor"])
    g = act(g, "end_turn", {}, TypedDice([]))  # Blue's machine gun fires on the move at Red's rifleman
    given = {"shooter": "1/u1", "target": "0/u1", "range": "long"}
    o = odds(g, "fire", given)
    want = {r.value: Fraction(r.exactly) for r in o.tables["damage"].rows if Fraction(r.exactly)}
    got: Counter[int] = Counter()
    stack: list[tuple[list[int], Fraction]] = [([], Fraction(1))]
    while stack:
        faces, p = stack.pop()
        try:
            after = act(g, "fire", given, TypedDice(faces))
        except NeedMoreDice:
            stack.extend(([*faces, f], p / 6) for f in range(1, 7))
            continue
        got[after.sides[0].units[0].state.damage] += p  # type: ignore[assignment]
    assert dict(got) == want


def test_odds_and_roll_share_the_walk_for_power_armor_and_vehicles() -> None:
    for trk, armor in ((PA, 6), (V, 8)):
        d = burst_dist(trk, Card((0,) * trk.cells, armor), 6, Hit(12, 0), 1)
        assert sum(Fraction(w, d.total) for w in d.weights.values()) == 1
        # 12X against 6 (8) armor: 6 (4) cells from the rolled one
        hit = [c for c in d.weights if c.armor == 0]
        assert all(c.cells.count(2) == min(12 - armor, trk.cells) or trk.dead(c.cells) for c in hit)


def test_collapse_when_spent_ap_reaches_the_new_max_AMB9() -> None:
    g = sample_game(["red_rifle"], ["blue_gyro"])
    g = act(g, "end_turn", {}, TypedDice([]))
    g = act(g, "move", {"unit": "1/u1", "ap": 7}, TypedDice([]))
    g = act(g, "end_turn", {}, TypedDice([]))
    # Red's turn: its movement fire hits Blue's marksman (no AP spent by Blue this turn: no collapse)
    g2 = act(g, "fire", {"shooter": "0/u1", "target": "1/u1"}, TypedDice([6, 6, 5, 5]))
    assert "prone" not in g2.sides[1].units[0].state.conditions


def test_first_side_is_a_die_when_asked() -> None:
    def squad(i: int) -> Squad:
        p = SAMPLES["red_rifle"].model_dump(mode="json")
        return Squad(id=f"s{i}", name=f"S{i}", system="skirmishers", units=[SquadUnit(key="u1", profile=p)])

    g = new_game("g", "Test", [("Red", squad(0)), ("Blue", squad(1))])
    assert act(g, "first_side", {"first": "roll"}, TypedDice([3])).state.active_side == 0


def test_every_cell_row_has_the_cards_columns() -> None:
    g = sample_game(["red_rifle", "red_scout"], ["blue_armor"])
    for s, side in enumerate(g.sides):
        for u, unit in enumerate(side.units):
            view = SK.unit_view(g, s, u)
            grid = view.grids[0]
            n = TRACKS[Soldier.model_validate(unit.profile).kind].cells + 1
            assert [len(r.cells) for r in grid.rows] == [
                n,
                n - 1 if False else len(grid.rows[1].cells),
                len(grid.rows[2].cells),
                n,
            ]
            assert [r.label for r in grid.rows] == ["HP", "AP", "Mods", "Armor"]
    pa = SK.unit_view(g, 1, 0).grids[0]
    assert [c.star for c in pa.rows[0].cells].count(True) == 3
    assert [c.text for c in pa.rows[1].cells][:3] == ["14", "14", "13"]


# --- melee, explosives, checks --------------------------------------------------------------


def test_melee_waits_for_the_target_to_activate_L318() -> None:
    g = sample_game(["red_smg"], ["blue_gyro"])
    with pytest.raises(ValueError, match="not the active weapon"):  # the sword must be active (L320)
        act(g, "melee", {"attacker": "0/u1", "target": "1/u1", "weapon": "sword"}, TypedDice([]))
    g = act(g, "change_weapon", {"unit": "0/u1", "weapon": "sword"}, TypedDice([]))  # 3 AP of its 6
    g = act(act(g, "end_turn", {}, TypedDice([])), "end_turn", {}, TypedDice([]))
    g = act(g, "melee", {"attacker": "0/u1", "target": "1/u1", "weapon": "sword"}, TypedDice([]))
    assert SkUnit.of(g.sides[0].units[0]).ap_spent == 5
    g = act(g, "end_turn", {}, TypedDice([]))
    assert g.log[g.cursor - 1].detail["offers"][0]["action"] == "resolve_melee"
    with pytest.raises(ValueError, match="melee"):
        act(g, "move", {"unit": "1/u1"}, TypedDice([]))
    o = odds(g, "resolve_melee", {"unit": "1/u1"})
    assert o.summary.startswith("TN 4 ")  # base 4, no cover (L324)
    g = act(g, "resolve_melee", {"unit": "1/u1"}, TypedDice([2, 2, 5, 5]))  # sword 4X from cell 10
    assert SkUnit.of(g.sides[1].units[0]).cells[:5] == [2, 2, 2, 2, 0]
    act(g, "move", {"unit": "1/u1"}, TypedDice([]))


def test_fists_deal_half_the_max_ap_in_bludgeoning_L318() -> None:
    from core.systems.skirmishers.melee import melee_hit

    g = sample_game(["red_rifle"], ["blue_gyro"])
    assert melee_hit(g, g.sides[0].units[0], "fists").blunt == 3  # 7 AP with basic armor: 3 (AMB-58)


def test_a_grenade_is_a_token_until_the_end_of_the_turn_L336_L340() -> None:
    g = sample_game(["red_rifle"], ["blue_gyro"])
    with pytest.raises(ValueError, match="active weapon"):
        act(g, "throw", {"unit": "0/u1", "weapon": "hand_grenade", "dots": 4}, TypedDice([]))
    g = act(g, "change_weapon", {"unit": "0/u1", "weapon": "hand_grenade"}, TypedDice([]))
    g = act(g, "throw", {"unit": "0/u1", "weapon": "hand_grenade", "dots": 4, "cover": 1}, TypedDice([]))
    st = SkUnit.of(g.sides[0].units[0])
    assert st.ap_spent == 7 and st.ammo["hand_grenade"] == 1 and st.active == "rifle"  # 2 of 4 are smoke
    with pytest.raises(ValueError, match="no firing arc after"):
        act(g, "set_arc", {"unit": "0/u1", "size": "30"}, TypedDice([]))
    with pytest.raises(ValueError, match="explosives"):
        act(g, "end_turn", {}, TypedDice([]))
    phase = SK.phase(g)
    assert phase is not None and phase.steps[phase.current].action == "explode"
    assert odds(g, "explode", {"unit": "0/u1"}).summary.endswith(": TN 5")  # 4 AP thrown + 1 cover
    g2 = act(g, "explode", {"unit": "0/u1"}, TypedDice([1, 2, 4]))
    assert "scatters 1 dot" in g2.log[-1].text and "direction 4" in g2.log[-1].text
    g2 = act(g2, "end_turn", {}, TypedDice([]))
    g3 = act(g2, "take_damage", {"unit": "1/u1", "lethal": 6}, TypedDice([3, 4]))
    assert SkUnit.of(g3.sides[1].units[0]).cells[3:9] == [2] * 6


def test_morale_tn_L565() -> None:
    g = sample_game(
        ["red_leader", "red_rifle", "red_smg", "red_lmg", "red_rifle", "red_rifle", "red_rifle"],
        ["blue_gyro"],
    )
    with pytest.raises(ValueError, match="start at 4"):
        odds(g, "morale", {"unit": "0/u2"})
    for k in ("u3", "u4", "u5", "u6"):
        s, u, _ = g.unit(f"0/{k}")
        g = g.model_copy(deep=True)
        g.sides[s].units[u].state.destroyed = True
    o = odds(g, "morale", {"unit": "0/u2"})
    assert o.summary.startswith("TN 5 ")  # Regular 7, leader's leadership 2 (L565-L571)
    assert o.facts["pass"] == pytest.approx(30 / 36)


def test_control_check_and_wipe_out_L711_L748() -> None:
    g = sample_game(["red_scout"], ["blue_gyro"])
    o = odds(g, "control", {"vehicle": "0/u1", "why": "turn180", "mode": "max"})
    assert o.summary.startswith("TN 9 ")
    g2 = act(g, "control", {"vehicle": "0/u1", "why": "turn120", "mode": "max"}, TypedDice([1, 2]))
    assert "skids 6 dots" in g2.log[-1].text  # max mode, 3 dots an AP: 6 dots (L750)
    assert "prone" in g2.sides[0].units[0].state.conditions


def test_jet_pack_once_a_turn_free_in_power_armor_L587_L881() -> None:
    g = sample_game(["red_rifle"], ["blue_armor"], first="second")
    g = act(g, "jet", {"unit": "1/u1", "dots": 10}, TypedDice([]))
    assert "flying" in g.sides[1].units[0].state.conditions and "3 levels" in g.log[-1].text
    assert SkUnit.of(g.sides[1].units[0]).ap_spent == 0
    with pytest.raises(ValueError, match="once a turn"):
        act(g, "jet", {"unit": "1/u1"}, TypedDice([]))
    g = act(g, "end_turn", {}, TypedDice([]))
    assert "flying" not in g.sides[1].units[0].state.conditions
    with pytest.raises(ValueError, match="wears no jet pack"):
        act(g, "jet", {"unit": "0/u1"}, TypedDice([]))


def test_a_starred_cell_lets_the_opponent_disable_a_weapon_L845() -> None:
    g = sample_game(["red_rifle"], ["blue_armor"])
    with pytest.raises(ValueError, match="starred"):
        act(g, "disable", {"unit": "1/u1", "weapon": "pa_mg"}, TypedDice([]))
    g = act(g, "take_damage", {"unit": "1/u1", "lethal": 7}, TypedDice([2, 3]))  # 6 armor, 1X on cell 5*
    assert "starred cell" in g.log[-1].text
    g = act(g, "disable", {"unit": "1/u1", "weapon": "pa_mg"}, TypedDice([]))
    assert SkUnit.of(g.sides[1].units[0]).disabled == ["pa_mg"]


def test_crew_served_weapon_set_up_keeps_its_arc_L369_L380() -> None:
    g = sample_game(["red_lmg"], ["blue_gyro"])
    with pytest.raises(ValueError, match="setting it up"):
        act(g, "set_arc", {"unit": "0/u1", "size": "60"}, TypedDice([]))
    g = act(g, "crew", {"unit": "0/u1"}, TypedDice([]))  # a light machine gun needs no crew (AMB-31)
    st = SkUnit.of(g.sides[0].units[0])
    assert st.ap_spent == 4 and st.arcs[0].shots == -1 and st.arcs[0].size == 60
    g = act(g, "end_turn", {}, TypedDice([]))
    g = act(g, "end_turn", {}, TypedDice([]))  # Red's turn again: the set-up arc stays (AMB-30)
    assert SkUnit.of(g.sides[0].units[0]).arcs
    g = act(g, "end_turn", {}, TypedDice([]))
    g2 = act(g, "fire", {"shooter": "0/u1", "target": "1/u1"}, TypedDice([1, 1]))
    g2 = act(g2, "move", {"unit": "1/u1"}, TypedDice([]))  # one attack a dot (AMB-16)
    g2 = act(g2, "fire", {"shooter": "0/u1", "target": "1/u1"}, TypedDice([1, 1]))
    assert SkUnit.of(g2.sides[0].units[0]).arcs[0].shots == -1  # burst fire never runs out (L367)


def test_a_crew_of_one_is_needed_for_a_medium_machine_gun_L369() -> None:
    red = SAMPLES["red_lmg"].model_copy(update={"primary": "mmg"})
    SAMPLES["tmp_mmg"] = red
    try:
        g = sample_game(["tmp_mmg", "red_rifle"], ["blue_gyro"])
        with pytest.raises(ValueError, match="1 more trooper"):
            act(g, "crew", {"unit": "0/u1"}, TypedDice([]))
        g = act(g, "crew", {"unit": "0/u1", "helpers": ["0/u2"]}, TypedDice([]))
        assert [SkUnit.of(x).ap_spent for x in g.sides[0].units] == [4, 4]
    finally:
        del SAMPLES["tmp_mmg"]


def test_collapse_reading_as_printed_is_an_option_L312() -> None:
    g = sample_game(["red_rifle"], ["blue_gyro"])
    hit = {"shooter": "0/u1", "target": "1/u1"}
    g1 = act(g, "fire", hit, TypedDice([6, 6, 5, 5]))  # 4X from cell 10: HP 6, max AP 8 -> 8 (veteran)
    assert "prone" not in g1.sides[1].units[0].state.conditions
    g = g.model_copy(update={"options": {"collapse_literal": True}})
    g2 = act(g, "fire", hit, TypedDice([6, 6, 5, 5]))
    assert {"prone", "stopped"} <= set(g2.sides[1].units[0].state.conditions)


def test_modules_off_refuse_their_rules() -> None:
    g = sample_game(["red_lmg"], ["blue_gyro"])
    off = g.model_copy(update={"options": {"crew_served": False, "movement_fire": False}})
    with pytest.raises(ValueError, match="crew-served weapons are off"):
        act(off, "crew", {"unit": "0/u1"}, TypedDice([]))
    with pytest.raises(ValueError, match="movement fire is off"):
        odds(off, "fire", {"shooter": "0/u1", "target": "1/u1", "weapon": "pistol"})


def test_a_crew_served_weapon_is_taken_over_when_its_gunner_dies_or_leaves_it_L374_L378() -> None:
    g = sample_game(["red_lmg", "red_rifle"], ["blue_gyro"])
    g = act(g, "crew", {"unit": "0/u1"}, TypedDice([]))  # the light machine gun set up, 60° arc
    g = act(g, "end_turn", {}, TypedDice([]))
    picks = SK.actions["crew"].picks
    assert picks is not None
    why = {p.value: p.unavailable for p in picks(g, "1/u1")["weapon_of"]}
    assert why == {"0/u1": "Sample: Red Machine Gunner still controls it"}
    with pytest.raises(ValueError, match="still controls it"):
        act(g, "crew", {"unit": "1/u1", "what": "take_over", "weapon_of": "0/u1"}, TypedDice([]))
    g = act(g, "take_damage", {"unit": "0/u1", "lethal": 12}, TypedDice([6, 6]))
    assert g.sides[0].units[0].state.destroyed
    g = act(g, "crew", {"unit": "1/u1", "what": "take_over", "weapon_of": "0/u1"}, TypedDice([]))
    taker = SkUnit.of(g.sides[1].units[0])
    assert taker.ap_spent == 6 and taker.manned == "0/u1" and taker.arcs[0].shots == -1
    g = act(g, "end_turn", {}, TypedDice([]))  # Red's rifleman walks into the taken gun's arc
    o = odds(g, "fire", {"shooter": "1/u1", "target": "0/u2", "weapon": "lmg"})
    assert o.summary.startswith("TN 6 ")
    g = act(g, "fire", {"shooter": "1/u1", "target": "0/u2", "weapon": "lmg"}, TypedDice([1, 1]))
    assert SkUnit.of(g.sides[1].units[0]).arcs[0].shots == -1  # burst fire (L367)


def test_a_gunner_who_leaves_its_weapon_takes_it_back_for_6_ap_L378() -> None:
    g = sample_game(["red_lmg", "red_rifle"], ["blue_gyro"])
    g = act(g, "crew", {"unit": "0/u1"}, TypedDice([]))
    g = act(g, "crew", {"unit": "0/u1", "what": "leave"}, TypedDice([]))
    assert SkUnit.of(g.sides[0].units[0]).arcs == []
    with pytest.raises(ValueError, match="take it back over"):
        act(g, "fire", {"shooter": "0/u1", "target": "1/u1", "weapon": "lmg"}, TypedDice([6, 6]))
    g = act(g, "end_turn", {}, TypedDice([]))
    g = act(g, "end_turn", {}, TypedDice([]))
    g = act(g, "crew", {"unit": "0/u2", "what": "take_over", "weapon_of": "0/u1"}, TypedDice([]))
    assert SkUnit.of(g.sides[0].units[0]).crew_by == "0/u2"


# --- at the table: samples, what is offered to whom ------------------------------------------


def test_the_sample_squads_start_a_battle_at_once_labelled_and_legal_L910() -> None:
    forces = SK.sample_forces()
    assert [f.name for f in forces] == ["Sample: Red squad", "Sample: Blue squad"]
    for f in forces:
        for key in f.units:
            assert SAMPLES[key].name.startswith("Sample: ") and not violations(SAMPLES[key])
    by_id = {c.id: c for c in SK.catalogue()}
    sides = [
        (
            f.name,
            Squad(
                id=f"s{i}",
                name=f.name,
                system="skirmishers",
                units=[SquadUnit(key=f"u{n + 1}", profile=by_id[k].profile) for n, k in enumerate(f.units)],
            ),
        )
        for i, f in enumerate(forces)
    ]
    g = new_game("g", "Sample", sides)
    phase = SK.phase(g)
    assert phase is not None and phase.steps[phase.current].action == "first_side"  # offered first
    g = act(g, "first_side", {"first": "first"}, TypedDice([]))
    g = act(g, "fire", {"shooter": "0/u2", "target": "1/u3"}, TypedDice([6, 6, 4, 4]))
    assert SkUnit.of(g.sides[1].units[2]).cells == [0, 0, 2, 2, 2, 2, 0, 0, 0, 0, 0]  # 4X from 8 (L308)


def test_actions_a_unit_lacks_are_greyed_with_the_reason_and_refused_L318_L356_L684_L711_L845() -> None:
    from core.game import gated_actions

    g = sample_game(["red_rifle", "red_lmg"], ["blue_armor", "blue_assault"])
    gated = gated_actions(g)
    assert "no melee attack waits" in gated["0/u1"]["resolve_melee"]
    assert "not in power armor" in gated["0/u1"]["disable"]
    assert "no starred cell" in gated["1/u1"]["disable"]  # power armor, none crossed yet
    assert "no crew-served weapon" in gated["0/u1"]["crew"] and "crew" not in gated.get("0/u2", {})
    assert "not a vehicle" in gated["0/u1"]["control"] and "control" not in gated.get("1/u2", {})
    for action, given, why in (
        ("resolve_melee", {"unit": "0/u1"}, "no melee attack waits"),
        ("disable", {"unit": "1/u1", "weapon": "pa_mg"}, "no starred cell"),
        ("crew", {"unit": "0/u1"}, "no crew-served weapon"),
        ("control", {"vehicle": "0/u1", "why": "turn120", "mode": "cruise"}, "not a vehicle"),
    ):
        with pytest.raises(ValueError, match=why):
            act(g, action, given, TypedDice([6, 6]))
    g = act(g, "end_turn", {}, TypedDice([]))
    g = act(g, "melee", {"attacker": "1/u1", "target": "0/u1", "weapon": "pa_fists"}, TypedDice([]))
    g = act(g, "end_turn", {}, TypedDice([]))
    assert "resolve_melee" not in gated_actions(g).get("0/u1", {})  # it waits on it now (L318)
    off = g.model_copy(update={"options": {"crew_served": False}})
    assert gated_actions(off)["0/u2"]["crew"] == "crew-served weapons are off in this game"
    # a vehicle is moved by its driver's Drive (L684): the troopers' own actions are not its
    for action in ("move", "stance", "melee", "throw", "change_weapon", "terrain"):
        assert "is a vehicle" in gated_actions(g)["1/u2"][action], action
    with pytest.raises(ValueError, match="is a vehicle"):
        act(g, "stance", {"unit": "1/u2"}, TypedDice([]))


def test_the_end_of_turn_step_names_the_next_explosive_and_players_choose_the_order_L336_AMB25() -> None:
    g = sample_game(["red_smg", "red_rifle"], ["blue_gyro"])
    for ref in ("0/u1", "0/u2"):
        g = act(g, "change_weapon", {"unit": ref, "weapon": "hand_grenade"}, TypedDice([]))
        g = act(g, "throw", {"unit": ref, "dots": 3, "at": "the doorway"}, TypedDice([]))
    phase = SK.phase(g)
    assert phase is not None and phase.steps[phase.current].action == "explode"
    step = phase.steps[phase.current]
    assert "Next: Sample: Red Gunner's Hand Grenade at the doorway, TN 3; 1 more" in step.hint
    assert step.input == {"unit": "0/u1"}  # the strip's button resolves the first thrown
    # the players choose the order (AMB-25): the rifleman's goes off first, from its card
    from core.game import gated_actions

    assert "explode" not in gated_actions(g).get("0/u2", {})
    g = act(g, "explode", {"unit": "0/u2"}, TypedDice([6, 6]))
    assert g.log[-1].text.startswith("Sample: Red Rifleman's Hand Grenade")
    assert "no explosive of Sample: Red Rifleman waits" in gated_actions(g)["0/u2"]["explode"]
    with pytest.raises(ValueError, match="no explosive of Sample: Red Rifleman waits"):
        act(g, "explode", {"unit": "0/u2"}, TypedDice([6, 6]))
    assert (
        odds(g, "explode", {"unit": "0/u1"}).summary
        == "Sample: Red Gunner's Hand Grenade at the doorway: TN 3"
    )
    g = act(
        g, "explode", {"unit": "0/u1"}, TypedDice([1, 1, 4])
    )  # 2 misses TN 3: it scatters in direction 4 (L344)
    assert "direction 4, counting clockwise from the direction the players agreed as 1" in g.log[-1].text


def test_a_jet_pack_flight_of_6_dots_reaches_a_two_storey_roof_L589() -> None:
    g = sample_game(["red_rifle"], ["blue_armor"], first="second")
    g = act(g, "jet", {"unit": "1/u1", "dots": 6}, TypedDice([]))
    assert "up or down 2 levels at most" in g.log[-1].text  # 1 level every 3 dots (L589)


def test_each_reading_and_module_is_named_in_words_with_its_choices() -> None:
    """The Readings panel shows each toggle's title and each choice's label; its text keeps its line
    numbers in their own brackets, so hiding them leaves a sentence (no '( says 12 turns)')."""
    import re

    from core.systems.skirmishers.options import SkOptions

    props = SkOptions.model_json_schema()["properties"]
    for name, p in props.items():
        assert p["title"][0].isupper() and "_" not in p["title"], name
        if "enum" in p:
            assert set(p["x-labels"]) == set(p["enum"]), name
        assert not re.search(r"\(L\d+ [a-z]", p["description"]), name


def test_the_fists_pick_shows_the_bludgeoning_it_deals_now_L318() -> None:
    g = sample_game(["red_rifle"], ["blue_gyro"])  # 7 max AP with basic armor: 3 bludgeoning
    picks = SK.actions["melee"].picks
    assert picks is not None
    fists = next(p for p in picks(g, "0/u1")["weapon"] if p.value == "fists")
    assert fists.detail.startswith("3\\ (half its max AP")


def test_the_squad_editor_names_its_list_and_the_books_pv_AMB1() -> None:
    """The ready-made list holds our samples, not the book's units (the book prints blank cards,
    L910-L996), so it says so; a value is the book's PV (the weapon tables' column, L141 ...), and a
    card with no weapon is 0 PV by the book, which the editor explains in words."""
    sk = api.call("system.describe", {"system": "skirmishers"})["result"]
    editor = sk["editor"]["data"]  # the squad editor's words (EditorInfo.data)
    assert editor["catalogue_title"] == "Sample units made by this app"
    assert editor["cost_word"] == editor["cost_short"] == "PV"
    bike = next(c for c in sk["catalogue"] if c["id"] == "red_scout")
    cost = api.call("unit.check", {"system": "skirmishers", "profile": bike["profile"]})["result"]["cost"]
    assert cost == 0 and "weapons only" in editor["zero_cost"]
    gf = api.call("system.describe", {"system": "gunframe"})["result"]["editor"]["data"]
    assert gf == {}  # the shell's own words: "The book's units", "pts", "points"
