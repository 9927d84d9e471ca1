"""Mobile Suit Gundam: Skirmish campaign mode (rulebook 000_3e12d4cbd0c8f6da.txt, L1620-L2228).

Each table is checked against the book's lines; the campaign turn, its actions and a battle that
flows back are played through the shared campaign layer (core.campaign) with typed dice.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import pytest

from core import campaign as C
from core import game as games
from core.dice import RandomDice, TypedDice
from core.game import Game
from core.squad import Squad, SquadUnit
from core.systems import implementation
from core.systems.base import Change
from core.systems.gundam_skirmish.campaign_battle import fates
from core.systems.gundam_skirmish.campaign_data import (
    CAPTURE,
    EVENT,
    GOOD,
    MAPS,
    POOR,
    TABLES,
    event_death_risk,
    event_odds,
    fighter_allowance,
    heroic_after,
    rank_after,
    rank_title,
    rewards_at,
    roll_row,
    row_odds,
)
from core.systems.gundam_skirmish.campaign_setup import presets
from core.systems.gundam_skirmish.campaign_state import CampaignState, CPilot, CUnit
from core.systems.gundam_skirmish.campaign_turn import order_cost
from core.systems.gundam_skirmish.samples import SAMPLES
from core.systems.gundam_skirmish.units import unit_cost

# --- the tables, each with its lines --------------------------------------------------------------


def effects(row: Any) -> tuple[int, int, int, int]:
    return row.damage or -row.repair, row.war_effort, row.mind, row.health


def test_event_die_l2074_l2081() -> None:
    """1: Poor Fortune; 2-5: nothing; 6: Good Fortune."""
    assert [roll_row(EVENT, f).key for f in range(1, 7)] == ["poor", "none", "none", "none", "none", "good"]


def test_poor_fortune_l2083_l2106() -> None:
    """1-2 Provisions Shortage (no Move Team); 3 Mechanical Issues (1 damage each unit, -1 WE, -1 Mind);
    4 Sudden Sickness (-1 WE, -1 Mind, -2 Health); 5 Trauma (-2 WE, -2 Mind); 6 Surprise Attack
    (2 damage each unit, -3 WE, -2 Mind, -2 Health)."""
    rows = [roll_row(POOR, f) for f in range(1, 7)]
    assert [r.name for r in rows] == [
        "Provisions Shortage",
        "Provisions Shortage",
        "Mechanical Issues",
        "Sudden Sickness",
        "Trauma",
        "Surprise Attack",
    ]
    assert rows[0].no_move and not any(r.no_move for r in rows[2:])
    assert [effects(r) for r in rows[2:]] == [
        (1, -1, -1, 0),
        (0, -1, -1, -2),
        (0, -2, -2, 0),
        (2, -3, -2, -2),
    ]


def test_good_fortune_l2108_l2122() -> None:
    """1-2 Cartography (a free extra step, +1 WE, +1 Mind); 3-4 R & R (+1 WE, +2 Mind, +2 Health);
    5-6 New Parts (repair up to 2 on each unit, +2 WE, +1 Mind)."""
    rows = [roll_row(GOOD, f) for f in range(1, 7)]
    assert [r.name for r in rows[::2]] == ["Cartography", "R & R", "New Parts"]
    assert rows[0].extra_move and rows[1].extra_move
    assert [effects(r) for r in rows[::2]] == [(0, 1, 1, 0), (0, 1, 2, 2), (-2, 2, 1, 0)]


def test_capture_table_l2175_l2187() -> None:
    """1 Heavy (+3 Req, +2 WE, -2 Mind); 2-3 Light (+5, +3, -1); 4-5 None (+8, +4, +1); 6 Open arms
    (+12, +5, +2)."""
    got = [(r.name, r.requisition, r.war_effort, r.mind) for r in (roll_row(CAPTURE, f) for f in range(1, 7))]
    assert got == [
        ("Heavy Resistance", 3, 2, -2),
        ("Light Resistance", 5, 3, -1),
        ("Light Resistance", 5, 3, -1),
        ("No resistance", 8, 4, 1),
        ("No resistance", 8, 4, 1),
        ("Open arms", 12, 5, 2),
    ]


def test_after_battle_table_l2190_l2208() -> None:
    a = TABLES.after_battle
    assert (a.withdrew.war_effort, a.withdrew.mind) == (-1, -1)  # L2198
    assert (a.pilot_killed.war_effort, a.pilot_killed.mind) == (-2, -2)  # L2200
    assert (a.half_destroyed.war_effort, a.half_destroyed.mind) == (-3, -3)  # L2202-L2203
    assert (a.destroyed_per_points.war_effort, a.destroyed_per_points.points) == (1, 50)  # L2205-L2206
    assert (a.won.war_effort, a.won.mind) == (3, 3)  # L2208


def test_exp_table_l1854_l1901() -> None:
    e = TABLES.exp
    assert (e.participated.exp, e.won.exp, e.defeated_unit.exp, e.brush_with_death.exp) == (10, 30, 10, 20)
    assert e.defeated_ace_per_rank.exp == 10  # 10 x the enemy character's rank


def test_rank_titles_l1903_l1955() -> None:
    """Ten ranks per branch; the flattened table read row by row (digest section 9)."""
    assert [rank_title("EFF", True, r) for r in (1, 6, 10)] == [
        "Petty Officer 3rd Class",
        "Warrant Officer",
        "Lieutenant Commander",
    ]
    assert [rank_title("EFF", False, r) for r in (1, 7, 10)] == [
        "Private 2nd Class",
        "Warrant Officer",
        "Captain",
    ]
    assert [rank_title("AXIS", True, r) for r in (5, 6, 10)] == [
        "Master Chief Petty Officer",
        "Ensign",
        "Commander",
    ]
    assert [rank_title("ZEON", False, r) for r in (1, 7, 10)] == ["Private", "2nd Lieutenant", "Major"]


def test_boxes_ranks_and_exp_reset_l1815_l1820() -> None:
    """100 EXP a box, one box a battle (A31), every second box a new rank, EXP back to zero then."""
    assert rank_after(1, 0, 90) == (1, 0, 90, 0)
    assert rank_after(1, 0, 250) == (1, 1, 150, 1)
    assert rank_after(1, 1, 150) == (2, 2, 0, 1)
    assert rank_after(1, 0, 250, ticks=20) == (2, 2, 0, 2)  # 'all' reading: the rank resets the rest
    assert rank_after(9, 17, 300)[0] == 10
    assert rank_after(10, 18, 900) == (10, 18, 900, 0)  # rank 10 is the top (Heroic Levels follow)


def test_traits_and_mods_by_rank_a31() -> None:
    """Traits every 2 ranks (L1821-L1826); mods at the +Mod ranks, not in the text: 3, 5, 7, 9 (A31)."""
    assert [r for r in range(1, 11) if "trait" in rewards_at(r)] == [2, 4, 6, 8, 10]
    assert [r for r in range(1, 11) if "mod" in rewards_at(r)] == [3, 5, 7, 9]


def test_heroic_levels_l3208_l3211() -> None:
    """Five Heroic Levels at 500, 600, 700, 800, 900 EXP; each +100 points."""
    assert heroic_after(0, 499) == (0, 499)
    assert heroic_after(0, 500 + 600) == (2, 0)
    assert heroic_after(2, 700 + 800 + 900 + 5) == (5, 5)
    assert TABLES.progression.heroic_order == ["trait", "mod", "trait", "mod", "trait"]


def test_unit_cost_rises_with_rank_l1797_l3211() -> None:
    """A character adds 10 points per rank and 100 per Heroic Level to its unit."""
    profile = {**SAMPLES["lancer"].model_dump(mode="json"), "pilot": []}
    base = unit_cost(SAMPLES["lancer"])
    for rank, levels in ((1, 0), (4, 0), (10, 2)):
        cu = CUnit(
            key="u1",
            profile=profile,
            pilot=CPilot(name="Ace", character=True, rank=rank, heroic_levels=levels, traits=[]),
        )
        assert unit_cost(cu.unit()) == base + 10 * rank + 100 * levels
    plain = CUnit(key="u1", profile=profile, pilot=CPilot(name="Nameless"))
    assert unit_cost(plain.unit()) == base


def test_order_cost_l2153_l2154() -> None:
    """1 Requisition per 50 points, rounded up: 170 points is 4, 90 is 2."""
    assert order_cost(SAMPLES["lancer"]) == 4
    assert order_cost(SAMPLES["gun_tank"]) == 2


# --- exact odds -----------------------------------------------------------------------------------


def test_event_odds_against_every_pair_of_faces() -> None:
    """The Event Die then, on 1 or 6, the second D6: 36 equally likely pairs (L2074-L2122)."""
    count: dict[str, int] = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        row = roll_row(EVENT, a)
        sub = {"poor": POOR, "good": GOOD}.get(row.key)
        name = roll_row(sub, b).name if sub else row.name
        count[name] = count.get(name, 0) + 1
    assert event_odds() == {k: Fraction(v, 36) for k, v in count.items()}
    assert row_odds(CAPTURE) == {
        "Heavy Resistance": Fraction(1, 6),
        "Light Resistance": Fraction(1, 3),
        "No resistance": Fraction(1, 3),
        "Open arms": Fraction(1, 6),
    }


@pytest.mark.parametrize(("health", "mind"), [(6, 6), (-2, -2), (-1, -3), (-3, 0), (0, -2), (-3, -3)])
def test_pilot_risk_against_every_pair_of_faces(health: int, mind: int) -> None:
    """The chance a pilot at this Health and Mind is killed (-4, L1806-L1808) by the Event Die."""
    deaths = 0
    for a, b in itertools.product(range(1, 7), repeat=2):
        if a == 1:
            r = roll_row(POOR, b)
            if health + r.health <= -4 or mind + r.mind <= -4:
                deaths += 1
    assert event_death_risk(health, mind) == Fraction(deaths, 36)


# --- the maps --------------------------------------------------------------------------------------


def test_five_maps_with_the_books_victory_bases_l1770_l1785() -> None:
    """The book's bases per map (two spellings corrected: 'Mihn', 'Vinnytsta'); the grid is ours."""
    victory = {k: sorted(b.name for b in m.bases if b.victory) for k, m in MAPS.maps.items()}
    assert victory == {
        "australia": sorted(["Perth", "Darwin", "Brisbane", "Hobart", "Adelaide", "Canberra", "Melbourne"]),
        "south_east_asia": sorted(
            ["Bangkok", "Ho Chi Minh City", "Hong Kong", "Taipei", "Jakarta", "Kuala Lumpur", "Dili"]
        ),
        "ukraine": sorted(
            ["Odessa", "Mykolayiv", "Kirovohrad", "Chisinau", "Simferopol", "Vinnytsia", "Zeon Mines"]
        ),
        "solar_one_year_war": sorted(["Earth", "A Baoa Qu", "Solomon", "Side 3", "Side 4"]),
        "solar_gryps": sorted(["Axis", "Earth", "Gate of Zedan", "Konpei Island", "Luna II"]),
    }
    assert "app's own layout" in MAPS.note
    assert [(t.x, t.y) for t in MAPS.maps["solar_one_year_war"].neutral]  # Side 6 (L2218)


# --- a campaign ------------------------------------------------------------------------------------


def team(name: str, base: str, *units: dict[str, Any]) -> dict[str, Any]:
    return {"name": name, "base": base, "units": list(units)}


def setup(**more: Any) -> dict[str, Any]:
    return {
        "map": "australia",
        "points": 500,
        "priority": ["EFF", "ZEON"],
        "players": [
            {
                "faction": "EFF",
                "teams": [
                    team(
                        "Blue 1",
                        "Nullarbor depot",
                        {"sample": "lancer", "pilot": "Amuro", "character": True},
                        {"sample": "gun_tank"},
                    ),
                    team("Blue 2", "Murray depot", {"sample": "lancer"}),
                    team("Blue 3", "Gippsland depot", {"sample": "captain"}),
                    team("Blue 4", "Melbourne", {"sample": "gun_tank"}),
                ],
            },
            {
                "faction": "ZEON",
                "teams": [
                    team(
                        "Red 1",
                        "Kimberley camp",
                        {"sample": "trooper", "pilot": "Char", "character": True},
                        {"sample": "heavy_gunner"},
                    ),
                    team("Red 2", "Arnhem camp", {"sample": "trooper"}),
                    team("Red 3", "Darwin", {"sample": "heavy_gunner"}),
                    team("Red 4", "Gulf camp", {"sample": "gun_tank"}),
                ],
            },
        ],
        **more,
    }


def new(**more: Any) -> C.Campaign:
    return C.new_campaign("c1", "gundam_skirmish", "Test", setup(**more), RandomDice(1))


def st(c: C.Campaign) -> CampaignState:
    return CampaignState.model_validate(c.state)


def keys(c: C.Campaign, faction: str) -> list[str]:
    return [t.key for t in st(c).teams if t.faction == faction]


def ready(c: C.Campaign, faces: int = 3) -> C.Campaign:
    """Begin the current player's turn and roll 'nothing of note' for each of its teams."""
    c = C.act(c, "begin_turn", {}, TypedDice([]))
    for k in keys(c, st(c).player.faction):
        c = C.act(c, "event_die", {"team": k}, TypedDice([faces]))
    return c


def put(c: C.Campaign, key: str, x: int, y: int) -> C.Campaign:
    i = [t.key for t in st(c).teams].index(key)
    return C.adjust(
        c,
        [Change(path=["state", "teams", i, "x"], value=x), Change(path=["state", "teams", i, "y"], value=y)],
    )


def test_setup_l1723_l1740() -> None:
    """War Effort 10 and Requisition 10 each; four teams each on bases of their zone; base owners."""
    c = new()
    s = st(c)
    assert [(p.faction, p.war_effort, p.requisition) for p in s.players] == [
        ("EFF", 10, 10),
        ("ZEON", 10, 10),
    ]
    assert len(s.teams) == 8 and len({(t.x, t.y) for t in s.teams}) == 8
    assert next(b for b in s.bases if b.name == "Melbourne").owner == "EFF"  # in EFF's starting zone
    assert next(b for b in s.bases if b.name == "Adelaide").owner == ""  # nobody's at the start


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"points": 200}, "over the agreed 200"),
        ({"map": "solar_gryps"}, "Gryps Conflict is played by"),
    ],
)
def test_setup_refusals(change: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        new(**change)


def test_setup_refuses_a_base_outside_the_zone_and_three_teams() -> None:
    bad = setup()
    bad["players"][0]["teams"][1]["base"] = "Darwin"
    with pytest.raises(ValueError, match="not a base of EFF's starting zone"):
        C.new_campaign("c", "gundam_skirmish", "T", bad, RandomDice(1))
    bad = setup()
    bad["players"][0]["teams"].pop()
    with pytest.raises(ValueError, match="each player places 4 MS Teams"):
        C.new_campaign("c", "gundam_skirmish", "T", bad, RandomDice(1))


def test_priority_rolled_by_the_app_ties_roll_again() -> None:
    """L1725: the players roll for priority; a tie rolls again (2-2, then 1-5: ZEON first)."""
    c = C.new_campaign("c", "gundam_skirmish", "T", setup(priority=[]), TypedDice([2, 2, 1, 5]))
    assert [p.faction for p in st(c).players] == ["ZEON", "EFF"]


def test_turn_in_order_l2037_l2066() -> None:
    c = new()
    with pytest.raises(ValueError, match="begin the turn first"):
        C.act(c, "move", {"team": keys(c, "EFF")[0], "direction": "north"}, TypedDice([]))
    c = C.act(c, "begin_turn", {}, TypedDice([]))
    with pytest.raises(ValueError, match="Event Die for every team first"):
        C.act(c, "move", {"team": keys(c, "EFF")[0], "direction": "north"}, TypedDice([]))
    with pytest.raises(ValueError, match="not EFF's"):
        C.act(c, "event_die", {"team": keys(c, "ZEON")[0]}, TypedDice([3]))
    for k in keys(c, "EFF"):
        c = C.act(c, "event_die", {"team": k}, TypedDice([3]))
    with pytest.raises(ValueError, match="rolled its Event Die"):
        C.act(c, "event_die", {"team": keys(c, "EFF")[0]}, TypedDice([3]))
    assert st(c).phase == "actions" and st(c).actions_left == 3
    c = C.act(c, "note", {"text": "truce with nobody"}, TypedDice([]))
    t1, t2 = keys(c, "EFF")[:2]
    c = C.act(c, "move", {"team": t1, "direction": "north"}, TypedDice([]))
    c = C.act(c, "move", {"team": t1, "direction": "north"}, TypedDice([]))
    c = C.act(c, "move", {"team": t2, "direction": "north"}, TypedDice([]))
    with pytest.raises(ValueError, match="no action left"):
        C.act(c, "move", {"team": t2, "direction": "north"}, TypedDice([]))
    c = C.act(c, "end_turn", {}, TypedDice([]))
    assert st(c).player.faction == "ZEON" and st(c).phase == "start"


def test_move_is_orthogonal_and_never_through_enemies_l1743_l1752_l2127() -> None:
    c = ready(new())
    t1 = keys(c, "EFF")[0]  # Blue 1 at (1, 1)
    with pytest.raises(ValueError, match="off the map"):
        C.act(c, "move", {"team": t1, "direction": "west"}, TypedDice([]))
    red = keys(c, "ZEON")[0]
    c2 = put(c, red, 1, 2)
    with pytest.raises(ValueError, match="enemy MS Team holds that tile"):
        C.act(c2, "move", {"team": t1, "direction": "north"}, TypedDice([]))
    # onto a friend only to pass through: the turn cannot end there
    c3 = put(c, keys(c, "EFF")[1], 1, 2)
    c3 = C.act(c3, "move", {"team": t1, "direction": "north"}, TypedDice([]))
    assert "end the turn on an empty tile" in c3.log[c3.cursor - 1].text
    with pytest.raises(ValueError, match="two teams share a tile"):
        C.act(c3, "end_turn", {}, TypedDice([]))
    c3 = C.act(c3, "move", {"team": t1, "direction": "north"}, TypedDice([]))
    C.act(c3, "end_turn", {}, TypedDice([]))


def test_neutral_zone_l2218() -> None:
    c = C.new_campaign(
        "c",
        "gundam_skirmish",
        "T",
        {
            **setup(),
            "map": "solar_one_year_war",
            "players": [
                {
                    "faction": "EFF",
                    "teams": [
                        team(f"B{i}", b, {"sample": "lancer"})
                        for i, b in enumerate(["Luna II", "Side 7", "Orbital depot", "Lagrange relay"])
                    ],
                },
                {
                    "faction": "ZEON",
                    "teams": [
                        team(f"R{i}", b, {"sample": "trooper"})
                        for i, b in enumerate(["Granada", "Side 3 shipyard", "Zeon picket", "Asteroid relay"])
                    ],
                },
            ],
        },
        RandomDice(1),
    )
    c = ready(c)
    c = put(c, keys(c, "EFF")[0], 8, 3)
    with pytest.raises(ValueError, match="neutral zone"):
        C.act(c, "move", {"team": keys(c, "EFF")[0], "direction": "north"}, TypedDice([]))


def test_poor_fortune_provisions_and_damage_l2085_l2106() -> None:
    c = C.act(new(), "begin_turn", {}, TypedDice([]))
    t1 = keys(c, "EFF")[0]
    c = C.act(c, "event_die", {"team": t1}, TypedDice([1, 2]))  # Provisions Shortage
    for k in keys(c, "EFF")[1:]:
        c = C.act(c, "event_die", {"team": k}, TypedDice([1, 6]))  # Surprise Attack
    with pytest.raises(ValueError, match="Provisions Shortage"):
        C.act(c, "move", {"team": t1, "direction": "north"}, TypedDice([]))
    s = st(c)
    blue2 = s.team(keys(c, "EFF")[1])
    assert blue2.units[0].damage == 2
    assert (blue2.units[0].pilot.health, blue2.units[0].pilot.mind) == (4, 4)  # type: ignore[union-attr]
    assert s.player.war_effort == 10 - 3 * 3


def test_good_fortune_cartography_free_step_and_new_parts_l2110_l2122() -> None:
    c = C.act(new(), "begin_turn", {}, TypedDice([]))
    t1, t2 = keys(c, "EFF")[:2]
    c = put(c, t2, 3, 3)
    i2 = [t.key for t in st(c).teams].index(t2)
    c = C.adjust(c, [Change(path=["state", "teams", i2, "units", 0, "damage"], value=3)])
    c = C.act(c, "event_die", {"team": t1}, TypedDice([6, 1]))  # Cartography
    c = C.act(c, "event_die", {"team": t2}, TypedDice([6, 5]))  # New Parts
    for k in keys(c, "EFF")[2:]:
        c = C.act(c, "event_die", {"team": k}, TypedDice([4]))
    assert st(c).team(t2).units[0].damage == 1
    c = C.act(c, "move", {"team": t1, "direction": "north", "free": True}, TypedDice([]))
    assert st(c).actions_left == 3
    with pytest.raises(ValueError, match="no free step"):
        C.act(c, "move", {"team": t1, "direction": "north", "free": True}, TypedDice([]))
    assert st(c).player.war_effort == 10 + 1 + 2


def test_exhaustion_check_house_rule_a30() -> None:
    c = new()
    c = C.adjust(c, [Change(path=["state", "players", 0, "war_effort"], value=0)])
    c = C.act(c, "begin_turn", {}, TypedDice([1, 3, 5, 6]))
    s = st(c)
    assert [t.exhausted for t in s.teams if t.faction == "EFF"] == [True, False, False, False]
    for k in keys(c, "EFF"):
        c = C.act(c, "event_die", {"team": k}, TypedDice([3]))
    with pytest.raises(ValueError, match="exhausted"):
        C.act(c, "move", {"team": keys(c, "EFF")[0], "direction": "north"}, TypedDice([]))
    quiet = new().model_copy(update={"options": {"exhaustion": "record", "exp_boxes": "one"}})
    quiet = C.adjust(quiet, [Change(path=["state", "players", 0, "war_effort"], value=0)])
    quiet = C.act(quiet, "begin_turn", {}, TypedDice([]))
    assert not any(t.exhausted for t in st(quiet).teams)


def test_enter_base_capture_and_services_l2146_l2187() -> None:
    c = ready(new())
    t4 = keys(c, "EFF")[3]  # Blue 4 on Melbourne, EFF's
    with pytest.raises(ValueError, match="already EFF's"):
        C.act(c, "enter_base", {"team": t4, "capture": True}, TypedDice([6]))
    red3 = keys(c, "ZEON")[2]  # Red 3 on Darwin
    c = put(c, red3, 4, 7)
    c = put(c, t4, 4, 8)  # on Darwin, ZEON's
    with pytest.raises(ValueError, match="its services need it captured"):
        C.act(c, "enter_base", {"team": t4, "aid": True}, TypedDice([]))
    c = C.act(c, "enter_base", {"team": t4, "capture": True, "recruit": ["Sayla"]}, TypedDice([6, 4, 2]))
    s = st(c)
    assert next(b for b in s.bases if b.name == "Darwin").owner == "EFF"
    assert (s.player.requisition, s.player.war_effort) == (10 + 12 - 2, 10 + 5)
    recruit = s.team(t4).reserve[0]
    assert (recruit.name, recruit.health, recruit.mind, recruit.exp) == ("Sayla", 4, 2, 0)
    assert recruit.character and not recruit.traits  # our reading: a recruit can earn EXP (L2163-L2164)
    with pytest.raises(ValueError, match="captured this turn"):
        C.act(c, "enter_base", {"team": t4, "aid": True}, TypedDice([]))
    assert C.odds(c, "enter_base", {"team": t4, "capture": True}).facts["Open arms"] == pytest.approx(1 / 6)


def test_repair_restores_integrity_and_clears_charts_l1111_l2151() -> None:
    c = ready(new())
    t4 = keys(c, "EFF")[3]
    i = [t.key for t in st(c).teams].index(t4)
    c = C.adjust(
        c,
        [
            Change(path=["state", "teams", i, "units", 0, "damage"], value=3),
            Change(path=["state", "teams", i, "units", 0, "charts"], value={"leg": 1}),
        ],
    )
    u = st(c).team(t4).units[0].key
    c = C.act(c, "enter_base", {"team": t4, "repair": [u], "aid": True}, TypedDice([]))
    unit = st(c).team(t4).units[0]
    assert (unit.damage, unit.charts, st(c).player.requisition) == (0, {}, 9)
    assert (unit.pilot.health, unit.pilot.mind) == (9, 9)  # type: ignore[union-attr]
    c = C.undo(c)
    assert st(c).team(t4).units[0].damage == 3


def test_victory_check_not_in_the_first_turn_l2042_l1770() -> None:
    c = new()
    owners = [
        Change(path=["state", "bases", n, "owner"], value="EFF")
        for n, b in enumerate(st(c).bases)
        if b.victory
    ]
    c = C.adjust(c, owners)
    c = ready(c)  # first turn: no check
    assert st(c).winner == ""
    c = C.act(c, "end_turn", {}, TypedDice([]))
    c = ready(c)
    c = C.act(c, "end_turn", {}, TypedDice([]))
    c = C.act(c, "begin_turn", {}, TypedDice([]))
    assert st(c).winner == "EFF"
    with pytest.raises(ValueError, match="campaign is over"):
        C.act(c, "end_turn", {}, TypedDice([]))


# --- a battle and its result -----------------------------------------------------------------------

LANCER_SHOT = {"weapon": "Beam rifle", "shield_break": "no", "cancel_criticals": 0}


def battle_ready() -> tuple[C.Campaign, Game, str, str]:
    """Blue 1 (Amuro's Lancer, a Gun Tank) next to Red 1 (Char's Trooper, 4 damage carried, a Heavy
    Gunner); Blue 1 starts a Battle."""
    c = ready(new())
    blue, red = keys(c, "EFF")[0], keys(c, "ZEON")[0]
    c = put(c, red, 1, 2)
    i = [t.key for t in st(c).teams].index(red)
    c = C.adjust(c, [Change(path=["state", "teams", i, "units", 0, "damage"], value=4)])
    c, g = C.start_battle(c, {"team": blue}, "g1")
    return c, g, blue, red


def test_battle_starts_a_game_with_what_the_teams_carry_l2132_l1755() -> None:
    c, g, _, _ = battle_ready()
    assert c.battle is not None and c.battle.game_id == "g1"
    assert [s.name for s in g.sides] == ["Earth Federation Forces", "Principality of Zeon"]
    trooper = g.sides[1].units[0]
    assert trooper.state.damage == 4
    assert g.sides[0].units[0].state.extra["pilot"] == {"health": 6, "mind": 6}
    assert st(c).actions_left == 2
    with pytest.raises(ValueError, match="battle is being played"):
        C.act(c, "end_turn", {}, TypedDice([]))


def finish(g: Game) -> Game:
    """Amuro's Lancer destroys Char's Trooper (3 damage on 4 carried; Destruction Table 3); the Heavy
    Gunner withdraws; the players end the game with EFF the winner."""
    g = games.act(g, "priority", {"places": [1]}, TypedDice([5, 2]))
    lancer, trooper = g.sides[0].units[0].key, g.sides[1].units[0].key
    g = games.act(
        g, "shoot", {"attacker": f"0/{lancer}", "target": f"1/{trooper}", **LANCER_SHOT}, RandomDice(0)
    )
    assert g.sides[1].units[0].state.destroyed
    assert "Destruction Table 3" in g.log[g.cursor - 1].text
    return games.adjust(
        g,
        [
            Change(path=["sides", 1, "units", 1, "state", "conditions"], value=["withdrawn"]),
            Change(path=["state", "ended"], value=True),
            Change(path=["state", "winners"], value=[0]),
        ],
    )


def test_a_campaign_deathmatch_with_one_player_left_offers_and_declares_the_win_l176_l304() -> None:
    """The campaign battle is a Deathmatch (L2137): once only EFF has units left, the turn's next step is
    the Final Upkeep that declares EFF the winner (L176-L177, L304-L306), as in a game of its own."""
    c, g, _, _ = battle_ready()
    g = games.act(g, "priority", {"places": [1]}, TypedDice([5, 2]))
    gone = [Change(path=["sides", 1, "units", i, "state", "destroyed"], value=True) for i in range(2)]
    g = games.adjust(g, gone)
    phase = implementation("gundam_skirmish").phase(g)
    assert phase is not None and phase.steps[phase.current].key == "final"
    assert phase.steps[phase.current].action == "next_turn"
    assert phase.steps[phase.current].hint == (
        "Only Earth Federation Forces has units left: Next turn checks victory and declares Earth Federation "
        "Forces the winner (L176-L177, L304-L306)."
    )
    g = games.act(g, "next_turn", {}, TypedDice([]))
    assert g.state.ended and g.state.winners == [0]
    assert C.battle_result(c, g).battle is None


def test_battle_result_flows_back_l2132_l2208_l1854_l1901() -> None:
    c, g, blue, red = battle_ready()
    g = finish(g)
    f = fates(g)
    assert [(ref, x.face, x.killer) for ref, x in f.items()] == [
        (f"1/{g.sides[1].units[0].key}", 3, f"0/{g.sides[0].units[0].key}")
    ]
    after = C.battle_result(c, g)
    s = st(after)
    b, r = s.team(blue), s.team(red)
    amuro = b.units[0].pilot
    assert amuro is not None and amuro.exp == 10 + 30 + 10  # took part, won, destroyed a unit
    char = r.reserve[0]  # the Trooper is lost; Char survives Major Injuries (-4 Health, -3 Mind)
    assert (char.name, char.health, char.exp) == ("Char", 2, 10 + 20)  # took part, brush with death
    assert char.mind == 6 - 3 - 1  # and -1 Mind: a unit withdrew (L2198)
    assert [u.name for u in r.units] == ["Heavy Gunner"]
    # EFF: +1 War Effort per 50 points destroyed (150: 3) and +3 for the win; ZEON: -1 (withdrew)
    assert (s.of("EFF").war_effort, s.of("ZEON").war_effort) == (10 + 3 + 3, 10 - 1)
    assert b.units[1].pilot is not None and b.units[1].pilot.mind == 6 + 3
    # every unit left withdrew: the team steps back from the battle tile (L2140-L2143)
    assert (r.x, r.y) == (1, 3)
    assert after.battle is None


def test_a_result_twice_stale_or_of_another_game_is_refused() -> None:
    c, g, _, _ = battle_ready()
    with pytest.raises(ValueError, match="not over yet"):
        C.battle_result(c, g)
    g = finish(g)
    with pytest.raises(ValueError, match="another battle"):
        C.battle_result(c, g.model_copy(update={"id": "g2"}))
    after = C.battle_result(c, g)
    with pytest.raises(ValueError, match="applied already or undone"):
        C.battle_result(after, g)
    undone = C.undo(C.undo(after))  # the result, then the battle itself
    assert undone.battle is None
    with pytest.raises(ValueError, match="applied already or undone"):
        C.battle_result(undone, g)


def test_rank_up_and_a_trait_to_choose_l1815_l1826() -> None:
    c, g, blue, _ = battle_ready()
    i = [t.key for t in st(c).teams].index(blue)
    c = C.adjust(
        c,
        [
            Change(path=["state", "teams", i, "units", 0, "pilot", "exp"], value=60),
            Change(path=["state", "teams", i, "units", 0, "pilot", "boxes"], value=1),
        ],
    )
    after = C.battle_result(c, finish(g))
    amuro = st(after).team(blue).units[0].pilot
    assert amuro is not None and (amuro.rank, amuro.boxes, amuro.exp, amuro.to_choose) == (2, 2, 0, ["trait"])
    u = st(after).team(blue).units[0].key
    with pytest.raises(ValueError, match="choose a trait"):
        C.act(after, "choose_reward", {"team": blue, "unit": u, "choice": "heavy_plating"}, TypedDice([]))
    chosen = C.act(after, "choose_reward", {"team": blue, "unit": u, "choice": "stoic"}, TypedDice([]))
    amuro = st(chosen).team(blue).units[0].pilot
    assert amuro is not None and (amuro.traits, amuro.to_choose) == (["stoic"], [])
    assert unit_cost(st(chosen).team(blue).units[0].unit()) == unit_cost(SAMPLES["lancer"]) + 20


def test_undo_and_redo_are_exact_over_a_campaign() -> None:
    c, g, _, _ = battle_ready()
    c = C.battle_result(c, finish(g))
    seen = []
    while True:
        seen.append(c.model_dump(mode="json", exclude={"cursor"}))
        try:
            c = C.undo(c)
        except ValueError:
            break
    assert c.cursor == 1
    for earlier in reversed(seen[:-1]):
        c = C.redo(c)
        assert c.model_dump(mode="json", exclude={"cursor"}) == earlier


def test_every_preset_starts_a_campaign() -> None:
    """Each map's ready-made set-up is a legal start (samples start at once), its teams of equal points."""

    ready_made = presets()
    assert len(ready_made) == 5
    for p in ready_made:
        c = C.new_campaign("p", "gundam_skirmish", p["label"], p["setup"], RandomDice(2))
        assert len(st(c).teams) == 4 * len(st(c).players)
        # every MS Team starts with the same points value, within the agreed one (L1727-L1728, L1797)
        points = {sum(unit_cost(u.unit()) for u in t.units) for t in st(c).teams}
        assert len(points) == 1 and points.pop() <= p["setup"]["points"], p["label"]


def test_readings_are_changed_by_an_undoable_step() -> None:
    c = C.adjust(new(), [Change(path=["options", "exhaustion"], value="record")])
    assert c.options["exhaustion"] == "record" and C.undo(c).options["exhaustion"] == "idle"
    with pytest.raises(ValueError, match="exhaustion"):
        C.adjust(new(), [Change(path=["options", "exhaustion"], value="nap")])


def test_damage_chart_levels_carried_into_the_battle_and_back_l1111_l1113() -> None:
    c = ready(new())
    blue, red = keys(c, "EFF")[0], keys(c, "ZEON")[0]
    c = put(c, red, 1, 2)
    i = [t.key for t in st(c).teams].index(blue)
    c = C.adjust(c, [Change(path=["state", "teams", i, "units", 0, "charts"], value={"leg": 1, "arm": 2})])
    c, g = C.start_battle(c, {"team": blue}, "g1")
    assert {k: g.sides[0].units[0].state.counters[k] for k in ("leg", "arm", "head")} == {
        "leg": 1,
        "arm": 2,
        "head": 0,
    }
    g = games.adjust(
        g,
        [
            Change(path=["sides", 0, "units", 0, "state", "counters", "head"], value=1),
            Change(path=["sides", 0, "units", 0, "state", "damage"], value=2),
            Change(path=["state", "ended"], value=True),
            Change(path=["state", "winners"], value=[]),
        ],
    )
    after = st(C.battle_result(c, g)).team(blue).units[0]
    assert (after.damage, after.charts) == (2, {"leg": 1, "arm": 2, "head": 1})


def test_a_pilot_killed_and_half_the_points_lost_l2200_l2203_l2135() -> None:
    """Red 1 loses both units (all its points) and Char dies (Health -5): -2 and -3 War Effort; with no
    unit left the team leaves the map."""
    c, g, _, red = battle_ready()
    g = games.act(g, "priority", {"places": [1]}, TypedDice([5, 2]))
    g = games.adjust(
        g,
        [
            Change(path=["sides", 1, "units", 0, "state", "extra", "pilot"], value={"health": -5, "mind": 1}),
            Change(path=["sides", 1, "units", 0, "state", "destroyed"], value=True),
            Change(path=["sides", 1, "units", 1, "state", "destroyed"], value=True),
            Change(path=["state", "ended"], value=True),
            Change(path=["state", "winners"], value=[0]),
        ],
    )
    after = C.battle_result(c, g)
    s = st(after)
    assert s.of("ZEON").war_effort == 10 - 2 - 3
    assert red not in [t.key for t in s.teams]
    said = after.log[after.cursor - 1].text
    assert "Char is killed" in said
    # the Heavy Gunner's pilot survives its unit: the team leaves the map, in words that agree (L2137-L2138)
    assert "Heavy Gunner is lost; Pilot of Heavy Gunner survives" in said
    assert said.endswith("has lost all its units: it leaves the map, its pilots with it (L2137-L2138)")
    assert "no unit or pilot left" not in said


def test_heroic_level_after_rank_10_l3208_l3211() -> None:
    c, g, blue, _ = battle_ready()
    i = [t.key for t in st(c).teams].index(blue)
    c = C.adjust(
        c,
        [
            Change(path=["state", "teams", i, "units", 0, "pilot", "rank"], value=10),
            Change(path=["state", "teams", i, "units", 0, "pilot", "boxes"], value=18),
            Change(path=["state", "teams", i, "units", 0, "pilot", "exp"], value=470),
            Change(
                path=["state", "teams", i, "units", 0, "pilot", "traits"],
                value=["stoic", "swift", "fierce", "rash", "leader"],
            ),
            Change(
                path=["state", "teams", i, "units", 0, "pilot", "mods"],
                value=["heavy_plating", "magnetic_coating", "weapon_pack", "improved_optics"],
            ),
        ],
    )
    amuro = st(C.battle_result(c, finish(g))).team(blue).units[0].pilot
    assert amuro is not None and (amuro.heroic_levels, amuro.exp, amuro.to_choose) == (
        1,
        20,
        ["heroic_trait"],
    )


def test_defeating_an_ace_earns_10_per_rank_l1886_l1901() -> None:
    """Char at rank 3: destroying his Trooper earns 10 x 3 instead of 10."""
    c = ready(new())
    blue, red = keys(c, "EFF")[0], keys(c, "ZEON")[0]
    c = put(c, red, 1, 2)
    j = [t.key for t in st(c).teams].index(red)
    pilot = ["state", "teams", j, "units", 0, "pilot"]
    c = C.adjust(
        c,
        [
            Change(path=["state", "teams", j, "units", 0, "damage"], value=4),
            Change(path=[*pilot, "rank"], value=3),
            Change(path=[*pilot, "traits"], value=["stoic"]),
            Change(path=[*pilot, "mods"], value=["heavy_plating"]),
        ],
    )
    c, g = C.start_battle(c, {"team": blue}, "g1")
    amuro = st(C.battle_result(c, finish(g))).team(blue).units[0].pilot
    assert amuro is not None and amuro.exp == 10 + 30 + 10 * 3


def test_a_character_flies_only_a_mobile_suit_l1802() -> None:
    bad = setup()
    bad["players"][0]["teams"][3]["units"][0] = {"sample": "gun_tank", "pilot": "Ryu", "character": True}
    with pytest.raises(ValueError, match="characters pilot mobile suits only"):
        C.new_campaign("c", "gundam_skirmish", "T", bad, RandomDice(1))


def test_ordering_a_unit_of_another_faction_or_over_1000_points_l1740_l2154() -> None:
    c = ready(new())
    t4 = keys(c, "EFF")[3]  # on Melbourne, EFF's
    with pytest.raises(ValueError, match="not a EFF unit"):
        C.act(c, "enter_base", {"team": t4, "buy": [{"sample": "trooper"}]}, TypedDice([]))
    c = C.adjust(c, [Change(path=["state", "players", 0, "requisition"], value=100)])
    c = C.act(c, "enter_base", {"team": t4, "buy": [{"sample": "lancer"}]}, TypedDice([]))
    assert [u.name for u in st(c).team(t4).units] == ["Gun Tank", "Lancer"]
    assert st(c).player.requisition == 100 - 4
    big = {"sample": "captain"}
    with pytest.raises(ValueError, match="over 1000 points"):
        C.act(
            c,
            "enter_base",
            {"team": t4, "buy": [big, big, big, big]},
            TypedDice([]),
        )


# --- the screens: set-up form, a battle's choices, placing a team by hand -----------------------


def own_squad(*units: tuple[str, str]) -> Squad:
    """A squad of the phone: ready-made sheets, each with a named pilot or none."""
    out = []
    for n, (sample, pilot) in enumerate(units):
        profile = SAMPLES[sample].model_dump(mode="json")
        profile["pilot"] = [{"name": pilot, "faction": profile["factions"][0], "rank": 1}] if pilot else []
        out.append(SquadUnit(key=f"u{n + 1}", profile=profile))
    return Squad(id="q1", name="White Base", system="gundam_skirmish", units=out)


def test_setup_form_defaults_start_at_once_l1723_l1731() -> None:
    """Every value is filled in: four teams per player on bases of their zone (L1723-L1729), the agreed
    points (L1727-L1728), so Start is offered at once; the campaign starts on those bases."""
    rules = C.rules_of("gundam_skirmish")
    form = rules.setup_form(C.SetupDraft(), [])
    assert [c.field for c in form.choices] == ["map", "points"] and not form.problems
    assert [s.key for s in form.sides] == ["EFF", "ZEON"]
    assert all(len(s.teams) == TABLES.start.teams for s in form.sides)
    m = MAPS.maps[form.draft.choices["map"]]
    for side in form.sides:
        assert all(
            m.zone_of(*next((b.x, b.y) for b in m.bases if b.name == t.place)) == side.key for t in side.teams
        )
    made = C.new_campaign(
        "c9", "gundam_skirmish", "T", rules.setup_from(form.draft, []).model_dump(), RandomDice(3)
    )
    placed = {(t.name, t.x, t.y) for t in st(made).teams}
    assert (
        "EFF team 1",
        *next((b.x, b.y) for b in m.bases if b.name == form.sides[0].teams[0].place),
    ) in placed
    # the Gryps map: three players (L1708-L1709)
    gryps = rules.setup_form(C.SetupDraft(choices={"map": "solar_gryps"}), [])
    assert sorted(s.key for s in gryps.sides) == ["AEUG", "AXIS", "TITANS"] and not gryps.problems


def test_setup_form_own_squad_points_and_one_team_per_base_l1727_l1743_l1791() -> None:
    rules = C.rules_of("gundam_skirmish")
    squad = own_squad(("lancer", "Kai"), ("gun_tank", ""))
    form = rules.setup_form(C.SetupDraft(), [squad])
    eff, zeon = form.sides
    assert "squad:q1" in [o.value for o in eff.units]  # offered to the faction its units belong to
    assert "squad:q1" not in [o.value for o in zeon.units]  # the Lancer is no ZEON unit
    draft = form.draft.model_copy(deep=True)
    draft.teams["EFF"][1] = C.SetupTeam(
        name="White Base", place=draft.teams["EFF"][1].place, units="squad:q1"
    )
    made = C.new_campaign(
        "c9", "gundam_skirmish", "T", rules.setup_from(draft, [squad]).model_dump(), RandomDice(3)
    )
    wb = next(t for t in st(made).teams if t.name == "White Base")
    kai = wb.units[0].pilot
    assert kai is not None and kai.name == "Kai" and kai.character  # a named pilot is a character (L1791)
    assert wb.units[1].pilot is not None and not wb.units[1].pilot.character
    # over the agreed points (L1727-L1728), two teams on one base (L1743): Start greyed with the reason
    draft.choices["points"] = "250"
    draft.teams["EFF"][2] = draft.teams["EFF"][2].model_copy(update={"place": draft.teams["EFF"][0].place})
    problems = rules.setup_form(draft, [squad]).problems
    assert any("two teams on" in p and "L1743" in p for p in problems)
    assert any("White Base has" in p and "over the agreed 250" in p for p in problems)
    with pytest.raises(ValueError, match="two teams on"):
        rules.setup_from(draft, [squad])


def battle_step(c: C.Campaign, team: str) -> Any:
    view = C.rules_of("gundam_skirmish").view(c)
    return next(s for s in view.steps if s.action == "battle" and s.team == team)


def test_a_battle_asks_the_game_type_and_plays_it_l2136_l2137() -> None:
    """The players agree on the game type (L2136-L2137; the types of L165-L225): the game plays it."""
    c = ready(new())
    blue, red = keys(c, "EFF")[0], keys(c, "ZEON")[0]
    c = put(c, red, 1, 2)
    step = battle_step(c, blue)
    assert step.enabled and [ch.field for ch in step.choices] == ["game_type"]  # two factions: nobody else
    assert [o.value for o in step.choices[0].options] == [
        "deathmatch",
        "skirmish",
        "objective",
        "territory",
        "battle_royale",
    ]
    c2, g = C.start_battle(c, {**step.input, "game_type": "objective"}, "g1")
    assert g.state.mission == "objective"
    assert "objective" in c2.log[c2.cursor - 1].text


def test_place_a_team_by_hand_one_per_tile_never_neutral_l1743_l2218() -> None:
    c = new()
    blue, red = keys(c, "EFF")[0], keys(c, "ZEON")[0]
    view = C.rules_of("gundam_skirmish").view(c)
    place = next(s for s in view.steps if s.action == "place" and s.team == red)
    assert place.pick == "tile"  # offered before the turn begins, for either side's team
    c = C.act(c, "place", {**place.input, "x": 4, "y": 4}, TypedDice([]))
    assert (st(c).team(red).x, st(c).team(red).y) == (4, 4) and "placed by hand" in c.log[-1].text
    b = st(c).team(blue)
    with pytest.raises(ValueError, match="one team per tile"):
        C.act(c, "place", {"team": red, "x": b.x, "y": b.y}, TypedDice([]))
    space = C.new_campaign("c2", "gundam_skirmish", "S", presets()[3]["setup"], RandomDice(1))
    x, y = (MAPS.maps["solar_one_year_war"].neutral[0].x, MAPS.maps["solar_one_year_war"].neutral[0].y)
    with pytest.raises(ValueError, match="neutral zone"):
        C.act(space, "place", {"team": st(space).teams[0].key, "x": x, "y": y}, TypedDice([]))
    assert st(C.undo(c)).team(red).x != 4 or st(C.undo(c)).team(red).y != 4


def fighter_profile() -> dict[str, Any]:
    d = SAMPLES["lancer"].model_dump(mode="json")
    # its attacks, its close combat weapon and techniques, are what a character learns (L1837-L1840)
    cc = [{**d["close_combat"][0], "name": "Palm Strike"}]
    more = [{**d["close_combat"][0], "name": n} for n in ("Kick", "Whirlwind")]
    d.update(kind="mobile_fighter", weapons=[], close_combat=cc, techniques=more, name="Fighter")
    d.update(abilities=FIGHTER_ABILITIES)
    return d


FIGHTER_ABILITIES = [{"key": k} for k in ("hit_and_run", "scout")]


def test_a_reserve_pilot_takes_a_unit_and_a_character_keeps_its_rewards_l1811_l1812() -> None:
    c = new()
    blue = keys(c, "EFF")[0]
    team = st(c).team(blue)  # Amuro in a Lancer, a nameless pilot in a Gun Tank
    i = [t.key for t in st(c).teams].index(blue)
    c = C.adjust(
        c,
        [
            Change(path=["state", "teams", i, "units", 1, "pilot"], value=None),
            Change(path=["state", "teams", i, "reserve"], value=[{"name": "Sayla", "health": 5, "mind": 4}]),
            Change(path=["state", "teams", i, "units", 0, "pilot", "traits"], value=["ambusher"]),
        ],
    )
    view = C.rules_of("gundam_skirmish").view(c)
    step = next(s for s in view.steps if s.action == "assign" and s.team == blue)
    assert (
        step.choices[0].value == "Sayla" and step.choices[1].value == team.units[1].key
    )  # the pilotless one
    c = C.act(c, "assign", {"team": blue, "pilot": "Sayla", "unit": team.units[1].key}, TypedDice([]))
    t = st(c).team(blue)
    assert t.units[1].pilot is not None and t.units[1].pilot.name == "Sayla" and not t.reserve
    # Amuro swaps into the Gun Tank? A character flies mobile suits only (L1802-L1803): refused
    with pytest.raises(ValueError, match="cannot fly"):
        C.act(c, "assign", {"team": blue, "pilot": "Amuro", "unit": t.units[1].key}, TypedDice([]))
    # Sayla back to the reserve by Amuro... no: Amuro keeps his traits wherever he flies (L1811-L1812)
    assert t.units[0].pilot is not None and t.units[0].pilot.traits == ["ambusher"]


def test_mobile_fighter_techniques_by_rank_and_the_two_rank_drop_l1834_l1846() -> None:
    assert [fighter_allowance(r) for r in (1, 2, 4, 6, 8, 10)] == [
        (1, 0),
        (2, 1),
        (3, 2),
        (4, 3),
        (5, 4),
        (None, None),
    ]  # L1841-L1844
    c = new()
    blue = keys(c, "EFF")[0]
    i = [t.key for t in st(c).teams].index(blue)
    fighter = {"key": "u99", "profile": {**fighter_profile(), "pilot": []}, "pilot": None}
    units = [u.model_dump(mode="json") for u in st(c).team(blue).units] + [fighter]
    c = C.adjust(
        c,
        [
            Change(path=["state", "teams", i, "units"], value=units),
            Change(path=["state", "teams", i, "units", 0, "pilot", "rank"], value=5),
            Change(path=["state", "teams", i, "units", 0, "pilot", "traits"], value=["ambusher"]),
        ],
    )
    # Amuro (rank 5) moves into the Mobile Fighter: two ranks lower, traits not carried, rewards again
    c = C.act(c, "assign", {"team": blue, "pilot": "Amuro", "unit": "u99"}, TypedDice([]))
    amuro = next(u for u in st(c).team(blue).units if u.key == "u99").pilot
    assert amuro is not None and amuro.rank == 3 and amuro.traits == [] and amuro.to_choose == []
    assert "rank 5 to 3" in c.log[c.cursor - 1].text
    # rank 3: two techniques and one ability of its unit's own (L1841-L1842)
    step = next(s for s in C.rules_of("gundam_skirmish").view(c).steps if s.action == "fighter_reward")
    assert [ch.field for ch in step.choices] == ["technique", "ability"]
    do = {"team": blue, "unit": "u99"}
    c = C.act(c, "fighter_reward", {**do, "technique": "Palm Strike"}, TypedDice([]))
    c = C.act(c, "fighter_reward", {**do, "technique": "Kick", "ability": "hit_and_run"}, TypedDice([]))
    with pytest.raises(ValueError, match="allows 2 technique"):
        C.act(c, "fighter_reward", {**do, "technique": "Whirlwind"}, TypedDice([]))
    with pytest.raises(ValueError, match="allows 1 abilit"):
        C.act(c, "fighter_reward", {**do, "ability": "scout"}, TypedDice([]))
    with pytest.raises(ValueError, match="only a Mobile Fighter"):
        C.act(
            c,
            "fighter_reward",
            {"team": blue, "unit": st(c).team(blue).units[0].key, "technique": "X"},
            TypedDice([]),
        )
    sheet = next(s for s in C.rules_of("gundam_skirmish").view(c).sheets if s.key == blue)
    line = next(line for line in sheet.lines if line.label == "Fighter")
    assert "techniques Palm Strike, Kick (2 of 2)" in line.note
    assert "abilities hit and run (1 of 1)" in line.note


def test_base_services_and_rewards_are_offered_with_their_choices_l2151_l2164_l1821() -> None:
    """At a base of its faction a team is offered Recruit a Pilot (2 Requisition, L2161-L2164) and an
    order of a unit of its faction (1 Requisition per 50 points, L2153-L2156), each asking what;
    a rank's reward is offered as a list of the traits (L1821-L1826); diplomacy as a written note."""
    c = ready(new())
    blue = keys(c, "EFF")[0]
    rules = C.rules_of("gundam_skirmish")

    def steps(c: C.Campaign) -> dict[str, Any]:
        return {
            s.label.split(" at ")[0].split(":")[0]: s for s in rules.view(c).steps if s.team in ("", blue)
        }

    got = steps(c)
    recruit, order = got["Recruit a pilot"], got["Order a unit"]
    assert recruit.enabled and recruit.choices[0].field == "recruit_name" and recruit.choices[0].options == []
    assert order.enabled and {o.value for o in order.choices[0].options} == {"lancer", "captain", "gun_tank"}
    c = C.act(c, "enter_base", {**recruit.input, "recruit_name": "Hayato"}, TypedDice([4, 5]))
    t = st(c).team(blue)
    assert [(p.name, p.health, p.mind) for p in t.reserve] == [("Hayato", 4, 5)]
    assert st(c).player.requisition == TABLES.start.requisition - 2
    order = steps(c)["Order a unit"]
    assert [ch.field for ch in order.choices] == ["order", "order_pilot"] and order.choices[
        1
    ].value == "Hayato"
    c = C.act(c, "enter_base", {**order.input, "order": "gun_tank", "order_pilot": "Hayato"}, TypedDice([]))
    tank = st(c).team(blue).units[-1]
    assert tank.name == "Gun Tank" and tank.pilot is not None and tank.pilot.name == "Hayato"
    assert st(c).player.requisition == TABLES.start.requisition - 2 - 2  # 90 points: 2 Requisition
    # a trait to choose at rank 2
    i = [t.key for t in st(c).teams].index(blue)
    c = C.adjust(c, [Change(path=["state", "teams", i, "units", 0, "pilot", "to_choose"], value=["trait"])])
    reward = steps(c)["Choose a trait"]
    assert "ambusher" in [o.value for o in reward.choices[0].options]
    c = C.act(c, "choose_reward", {**reward.input, "choice": "ambusher"}, TypedDice([]))
    assert st(c).team(blue).units[0].pilot.traits == ["ambusher"]  # type: ignore[union-attr]
    note = steps(c)["Note what was agreed"]
    c = C.act(c, "note", {"text": "No attack on Perth this round"}, TypedDice([]))
    assert note.choices[0].field == "text" and st(c).notes[-1].endswith("No attack on Perth this round")


def test_the_map_edited_by_hand_a_base_moved_and_its_holder_l1770_l2218() -> None:
    c = new()
    rules = C.rules_of("gundam_skirmish")
    shown = [s for s in rules.view(c).steps if s.team == "Perth" and s.action == "edit_base"]
    assert [s.pick for s in shown] == ["tile", ""] and shown[1].choices[0].value == ""  # nobody holds it
    c = C.act(c, "edit_base", {"base": "Perth", "x": 3, "y": 5}, TypedDice([]))
    c = C.act(c, "edit_base", {"base": "Perth", "owner": "ZEON"}, TypedDice([]))
    perth = next(b for b in st(c).bases if b.name == "Perth")
    assert (perth.x, perth.y, perth.owner) == (3, 5, "ZEON")
    darwin = next(b for b in st(c).bases if b.name == "Darwin")
    with pytest.raises(ValueError, match="one base per tile"):
        C.act(c, "edit_base", {"base": "Perth", "x": darwin.x, "y": darwin.y}, TypedDice([]))
    with pytest.raises(ValueError, match="not in this campaign"):
        C.act(c, "edit_base", {"base": "Perth", "owner": "AEUG"}, TypedDice([]))
    space = C.new_campaign("c2", "gundam_skirmish", "S", presets()[3]["setup"], RandomDice(1))
    n = MAPS.maps["solar_one_year_war"].neutral[0]
    with pytest.raises(ValueError, match="neutral zone"):
        C.act(space, "edit_base", {"base": st(space).bases[0].name, "x": n.x, "y": n.y}, TypedDice([]))


def test_the_event_die_shows_its_exact_odds_and_each_pilots_risk_l2074_l2106() -> None:
    c = C.act(new(), "begin_turn", {}, TypedDice([]))
    blue = keys(c, "EFF")[0]
    i = [t.key for t in st(c).teams].index(blue)
    c = C.adjust(c, [Change(path=["state", "teams", i, "units", 0, "pilot", "mind"], value=-3)])
    die = next(
        s for s in C.rules_of("gundam_skirmish").view(c).steps if s.action == "event_die" and s.team == blue
    )
    # Poor Fortune on a 1, Good on a 6; Amuro at Mind -3 dies of Mechanical Issues, Sudden Sickness,
    # Trauma or Surprise Attack (a 1, then 3-6: 4 in 36)
    assert die.note == "Poor Fortune 1 in 6, Good Fortune 1 in 6; risk of death: Amuro 1 in 9"
    assert event_death_risk(6, -3) == Fraction(1, 9)


def test_a_tiles_zone_edited_by_hand_and_the_neutral_zone_closed_to_teams_l2218() -> None:
    c = new()
    blue = keys(c, "EFF")[0]
    b = st(c).team(blue)
    rules = C.rules_of("gundam_skirmish")
    edit = next(s for s in rules.view(c).steps if s.action == "edit_tile")
    way, (dx, dy) = next(
        (w, d)
        for w, d in (("north", (0, 1)), ("east", (1, 0)), ("south", (0, -1)))
        if 1 <= b.x + d[0] <= 8
        and 1 <= b.y + d[1] <= 8
        and not st(c).at(b.x + d[0], b.y + d[1])
        and not st(c).base_at(b.x + d[0], b.y + d[1])
    )
    assert edit.pick == "tile" and edit.choices[0].value == "neutral"
    c = C.act(c, "edit_tile", {"zone": "neutral", "x": b.x + dx, "y": b.y + dy}, TypedDice([]))
    cell = next(x for x in rules.view(c).cells if (x.x, x.y) == (b.x + dx, b.y + dy))
    assert cell.closed and cell.zone == ""
    c = ready(c)
    shut = next(s for s in rules.view(c).steps if s.team == blue and s.label == f"Move {way}")
    assert not shut.enabled and shut.reason == "neutral zone"
    with pytest.raises(ValueError, match="neutral zone"):
        C.act(c, "move", {"team": blue, "direction": way}, TypedDice([]))
    with pytest.raises(ValueError, match="must be empty"):
        C.act(c, "edit_tile", {"zone": "neutral", "x": b.x, "y": b.y}, TypedDice([]))
    c = C.act(c, "edit_tile", {"zone": "ZEON", "x": 4, "y": 4}, TypedDice([]))
    assert next(x for x in rules.view(c).cells if (x.x, x.y) == (4, 4)).zone == "ZEON"


# --- rules of the checklist (campaign_checklist.py) that no test pinned yet -------------------------


def test_a_faction_never_fights_itself_l1761_l1764() -> None:
    """Only an enemy team next to it gives a team a Battle: a friend alongside is no opponent."""
    c = ready(new())
    blue1, blue2 = keys(c, "EFF")[:2]
    c = put(c, blue2, st(c).team(blue1).x, st(c).team(blue1).y + 1)
    with pytest.raises(ValueError, match="no enemy MS Team is next to"):
        C.start_battle(c, {"team": blue1}, "g1")


def test_a_pilot_may_not_take_the_same_trait_twice_l1826_l1832() -> None:
    c = new()
    blue = keys(c, "EFF")[0]
    i = [t.key for t in st(c).teams].index(blue)
    pilot = ["state", "teams", i, "units", 0, "pilot"]
    c = C.adjust(
        c,
        [
            Change(path=[*pilot, "traits"], value=["stoic"]),
            Change(path=[*pilot, "to_choose"], value=["trait"]),
        ],
    )
    u = st(c).team(blue).units[0].key
    with pytest.raises(ValueError, match="same one twice"):
        C.act(c, "choose_reward", {"team": blue, "unit": u, "choice": "stoic"}, TypedDice([]))


def test_an_event_reaches_every_pilot_of_the_team_reserve_too_l2052_l2053() -> None:
    """Sudden Sickness (Poor Fortune 4: -1 Mind, -2 Health) reaches the pilots waiting in reserve."""
    c = C.act(new(), "begin_turn", {}, TypedDice([]))
    blue = keys(c, "EFF")[0]
    i = [t.key for t in st(c).teams].index(blue)
    c = C.adjust(
        c, [Change(path=["state", "teams", i, "reserve"], value=[{"name": "Sayla", "health": 5, "mind": 4}])]
    )
    c = C.act(c, "event_die", {"team": blue}, TypedDice([1, 4]))
    t = st(c).team(blue)
    assert [(p.name, p.health, p.mind) for p in t.pilots()] == [
        ("Amuro", 4, 5),
        ("Pilot of Gun Tank", 4, 5),
        ("Sayla", 3, 3),
    ]


def test_a_third_faction_joins_a_battle_by_choice_l2132_l2135() -> None:
    """Gryps Conflict: the initiating team's two neighbours are of the two other factions; the battle
    is fought against one, and the other's team joins only when its player chooses."""
    c = C.new_campaign("g", "gundam_skirmish", "G", presets()[4]["setup"], RandomDice(1))
    assert MAPS.maps[st(c).map].era == "gryps"
    c = ready(c)
    me = st(c).player.faction
    first = keys(c, me)[0]
    others = [f for f in ("AEUG", "TITANS", "AXIS") if f != me]
    a, b = keys(c, others[0])[0], keys(c, others[1])[0]
    for t in st(c).teams:  # clear the middle of the map
        if t.key in (first, a, b) or (t.x, t.y) in ((4, 4), (4, 5), (5, 4)):
            c = put(
                c,
                t.key,
                *next(
                    (x, y)
                    for x in range(1, 9)
                    for y in range(1, 9)
                    if (x, y) not in ((4, 4), (4, 5), (5, 4))
                    and not st(c).at(x, y)
                    and not st(c).neutral(x, y)
                ),
            )
    c = put(put(put(c, first, 4, 4), a, 4, 5), b, 5, 4)
    _, alone = C.start_battle(c, {"team": first, "against": [others[0]]}, "g1")
    assert len(alone.sides) == 2
    _, joined = C.start_battle(c, {"team": first, "against": [others[0]], "join": [b]}, "g2")
    assert len(joined.sides) == 3


def test_the_factions_colours_on_the_map_l1721_l1723() -> None:
    """EFF blue, ZEON and AXIS red, AEUG yellow, TITANS purple."""
    rules = C.rules_of("gundam_skirmish")
    one = rules.view(new())
    gryps = rules.view(C.new_campaign("g", "gundam_skirmish", "G", presets()[4]["setup"], RandomDice(1)))
    colours = {s.key: s.colour for s in [*one.sides, *gryps.sides]}
    assert colours == {"EFF": "blue", "ZEON": "red", "AXIS": "red", "AEUG": "yellow", "TITANS": "purple"}


def test_an_event_leaves_a_unit_1_integrity_and_war_effort_at_least_0() -> None:
    """Surprise Attack (Poor Fortune 6: 2 damage, -3 War Effort, L2103-L2106) on a unit with 1 Integrity
    left and a player at War Effort 1: our readings keep the unit at 1 (an event is no battle) and War
    Effort at 0 (it has no negative use)."""
    c = C.act(new(), "begin_turn", {}, TypedDice([]))
    blue = keys(c, "EFF")[0]
    i = [t.key for t in st(c).teams].index(blue)
    top = st(c).team(blue).units[0].integrity()
    c = C.adjust(
        c,
        [
            Change(path=["state", "teams", i, "units", 0, "damage"], value=top - 1),
            Change(path=["state", "players", 0, "war_effort"], value=1),
        ],
    )
    c = C.act(c, "event_die", {"team": blue}, TypedDice([1, 6]))
    assert (st(c).team(blue).units[0].damage, st(c).player.war_effort) == (top - 1, 0)


def test_enter_base_spends_one_of_the_three_actions_l2062() -> None:
    c = ready(new())
    t4 = keys(c, "EFF")[3]  # Blue 4 on Melbourne, EFF's
    c = C.act(c, "enter_base", {"team": t4, "aid": True}, TypedDice([]))
    assert st(c).actions_left == 2


def test_gundam_campaign_checklist() -> None:
    """Every test the campaign's rule-by-rule checklist names exists (campaign_checklist.py)."""
    import re
    from pathlib import Path

    from core.systems.gundam_skirmish import campaign_checklist

    doc = campaign_checklist.__doc__ or ""
    named = set(re.findall(r"\b(test_\w+)\b(?!\.py)", doc))
    here = Path(__file__).parent
    defined = {m for f in here.glob("test_*.py") for m in re.findall(r"def (test_\w+)", f.read_text())}
    assert len(named) > 40 and named <= defined, sorted(named - defined)
    assert all(f"L{n}" in doc for n in (1620, 1740, 1815, 2047, 2140, 2171, 2208, 2218))


def test_a_mobile_fighter_ranks_up_without_traits_or_mods_l1834_l1837() -> None:
    """Amuro in a Mobile Fighter reaches rank 2 after a won battle: no trait to choose, techniques instead."""
    c = ready(new())
    blue, red = keys(c, "EFF")[0], keys(c, "ZEON")[0]
    c = put(c, red, 1, 2)
    i = [t.key for t in st(c).teams].index(blue)
    unit = ["state", "teams", i, "units", 0]
    c = C.adjust(
        c,
        [
            Change(path=[*unit, "profile"], value={**fighter_profile(), "pilot": []}),
            Change(path=[*unit, "pilot", "exp"], value=60),
            Change(path=[*unit, "pilot", "boxes"], value=1),
        ],
    )
    c, g = C.start_battle(c, {"team": blue}, "g1")
    g = games.adjust(
        g, [Change(path=["state", "ended"], value=True), Change(path=["state", "winners"], value=[0])]
    )
    amuro = st(C.battle_result(c, g)).team(blue).units[0].pilot
    assert amuro is not None and (amuro.rank, amuro.to_choose) == (2, [])
