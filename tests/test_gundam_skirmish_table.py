"""Mobile Suit Gundam: Skirmish at the table: what the acting unit offers (its own weapons and
abilities), whose turn it is, and the game types' score lines (000_3e12d4cbd0c8f6da.txt lines)."""

from __future__ import annotations

from typing import Any

import pytest
from test_gundam_skirmish import game, sample

from core.dice import TypedDice
from core.game import Game, act, picks


def offered(g: Game, action: str, actor: str) -> list[tuple[str, str, str]]:
    field = "ability" if action == "ability" else "weapon"
    return [(p.label, p.detail, p.unavailable) for p in picks(g, action, actor)[field]]


RIFLE = ("Beam rifle", 'Beam, Carried, Penetration; 1 shot, 12-36", ACC 3+, CRIT 5+, 3 DAM')
HEAD_GUNS = ("Head guns", 'Low Calibre, Mounted; 3 shots, 0-12", ACC 5+, no CRIT, 1 DAM')
ROTARY = ("Rotary cannon", 'Low Calibre, Carried, Quick Reload; 1D6 shots, 12-36", ACC 4+, CRIT 6+, 1 DAM')
MISSILES = (
    "Missile rack",
    'Explosive, Mounted, Quick Reload, Penetration; 2 shots, 12-36", ACC 4+, CRIT 5+, 3 DAM',
)


def test_a_shot_offers_the_shooters_own_weapons_with_their_numbers() -> None:
    """The sheet's weapons in the book's words (L2366-L2403): equipped carried first, then mounted."""
    g = game()
    assert offered(g, "shoot", "0/l1") == [(*RIFLE, ""), (*HEAD_GUNS, "")]
    # The Trooper's Bazooka is carried but not equipped: greyed until a Switch Weapon (L424-L444).
    assert offered(g, "shoot", "1/t1") == [
        ("Machine gun", 'Low Calibre, Carried; 3 shots, 6-24", ACC 4+, no CRIT, 1 DAM', ""),
        (
            "Bazooka",
            'Explosive, Carried, Quick Reload, Penetration; 1 shot, 12-36", ACC 3+, CRIT 5+, 4 DAM',
            "not equipped: Switch Weapon first (L424-L444)",
        ),
    ]
    # No Aimed Shot with an Explosive weapon (L879).
    assert offered(g, "aimed_shot", "1/h1") == [
        (*ROTARY, ""),
        (*MISSILES, "no Aimed Shot with an Explosive or Blast weapon (L879)"),
    ]


def test_a_fired_weapon_waits_for_its_reload_and_the_reload_offers_it() -> None:
    g = act(game(), "next_turn", {}, TypedDice([]))  # the Zeon turn
    assert offered(g, "reload", "1/h1") == [
        ("Rotary cannon", "Quick Reload (a Fast action)", "loaded"),
        ("Missile rack", "Quick Reload (a Fast action)", "loaded"),
    ]
    fire = {"attacker": "1/h1", "target": "0/l1", "weapon": "Rotary cannon", "shield_break": "no"}
    g = act(g, "shoot", fire, TypedDice([1, 1, 1, 1, 1, 1, 1]))
    assert offered(g, "shoot", "1/h1") == [
        (*ROTARY, "needs a Quick Reload first (L415-L422)"),
        (*MISSILES, ""),
    ]
    assert offered(g, "reload", "1/h1") == [
        ("Rotary cannon", "Quick Reload (a Fast action)", ""),
        ("Missile rack", "Quick Reload (a Fast action)", "loaded"),
    ]
    # Arm Damage 2 makes every reload Slow (L925-L929).
    hurt = g.model_copy(deep=True)
    hurt.sides[1].units[1].state.counters["arm"] = 2
    assert offered(hurt, "reload", "1/h1")[0] == ("Rotary cannon", "Slow Reload (a Slow action)", "")
    assert offered(hurt, "shoot", "1/h1")[0][2] == "needs a Slow Reload first (L415-L422)"


def test_switch_weapon_offers_the_carried_weapons_and_the_close_combat_one() -> None:
    g = game()
    assert offered(g, "switch_weapon", "0/l1") == [
        ("Beam rifle", '1 shot, 12-36", ACC 3+, CRIT 5+, 3 DAM', "equipped now"),
        ("Beam blade", "close combat, 2D6, ACC 3+, 4 DAM", ""),
    ]
    g = act(g, "switch_weapon", {"unit": "0/l1", "weapon": "cc"}, TypedDice([]))
    assert [p[2] for p in offered(g, "switch_weapon", "0/l1")] == ["", "equipped now"]
    # With the blade in hand the rifle is not equipped; the head guns (mounted) still fire.
    assert [p[2] for p in offered(g, "shoot", "0/l1")] == [
        "",
        "not equipped: Switch Weapon first (L424-L444)",
    ]
    assert [p[0] for p in offered(g, "shoot", "0/l1")] == ["Head guns", "Beam rifle"]


def test_abilities_offered_are_the_units_active_ones_and_mechanic() -> None:
    """Active abilities are actions, passive ones are not offered (L402-L407); Extra Tank and the
    Mechanic trait once per battle (L2866, L1978-L1979)."""
    lancer: dict[str, Any] = sample("lancer")
    lancer["abilities"] = [{"key": "extra_tank"}, {"key": "movable_frame"}, {"key": "grapple_hook"}]
    lancer["pilot"] = [{"name": "Ace", "rank": 2, "traits": ["mechanic"]}]
    g = game(a=[("l1", lancer)])
    labels = [(p[0], p[2]) for p in offered(g, "ability", "0/l1")]
    assert labels == [("Extra Tank", ""), ("Grapple Hook", ""), ("Mechanic", "")]
    g = act(g, "ability", {"unit": "0/l1", "ability": "extra_tank"}, TypedDice([]))
    assert offered(g, "ability", "0/l1")[0] == (
        "Extra Tank",
        "Once per battle: the next Boost is followed by a free Boost.",
        "used once already this battle (L2866)",
    )
    assert offered(game(), "ability", "0/l1") == []


@pytest.mark.parametrize("action", ["close_combat", "move", "idle", "morale"])
def test_actions_without_a_pick_offer_nothing(action: str) -> None:
    assert picks(game(), action, "0/l1") == {}
