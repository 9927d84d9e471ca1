"""Group attacks of conventional units (optional, L2635-2665).

A conventional unit that activates or reacts may lead a group of conventional
units of its side that have not activated yet (L2637-2639).  In an attack the
leader attacks as usual, with its own weapon-system upgrades, and each follower
adds its value in the *leader's* weapon system to the pool (L2657); the target's
defense modifiers come from the leader's line of sight (L2659).  Afterwards every
member counts as activated (L2641).  A free action is never made as a group
(L2665).

The players vouch for what the app cannot see: every follower within 2" of the
leader (infantry sharing a building count as within 2", L2940) and with a line
of sight to the target (L2657).

Example (L2661): three tanks with Medium 2 attack at Medium range: the pool is
6 dice before modifiers.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from core.systems.gunframe.building import all_forms
from core.systems.gunframe.effects import IgnoresCrippled
from core.systems.gunframe.state import form_of, is_conventional, is_structure, profile_of, upgrades_of
from core.systems.gunframe.upgrades import has_effect

if TYPE_CHECKING:
    from core.game import Game, GameUnit


def weapon_value(unit: GameUnit, weapon: str) -> int:
    """A unit's value in one weapon system in its current form, halved (rounding up) while crippled
    (L2733, L357) unless Anger Issues or Reinforced spare it (L2300, L2410)."""
    value = int(getattr(all_forms(profile_of(unit))[form_of(unit)], weapon))
    if "crippled" in unit.state.conditions and not has_effect(upgrades_of(unit), IgnoresCrippled):
        value = math.ceil(value / 2)
    return value


def followers(
    game: Game, refs: list[str], leader: tuple[int, int, GameUnit], weapon: str, free: bool
) -> list[tuple[int, int, GameUnit, int]]:
    """The group's followers with the dice each adds; ValueError naming the rule a follower breaks."""
    if not refs:
        return []
    l_side, l_idx, lead = leader
    if not is_conventional(lead) or is_structure(lead):
        raise ValueError(f"{lead.name} is not a conventional unit: only they act in groups (L2637)")
    if free:
        raise ValueError("a free action is made alone, never as a group (L2665)")
    if len(set(refs)) != len(refs):
        raise ValueError("name each follower once")
    out = []
    for ref in refs:
        side, idx, unit = game.unit(ref)
        name = unit.name
        if (side, idx) == (l_side, l_idx):
            raise ValueError(f"{name} leads the group and is not one of its followers")
        if side != l_side:
            raise ValueError(f"{name} is not on {lead.name}'s side (L2639)")
        if not is_conventional(unit) or is_structure(unit):
            raise ValueError(f"{name} is not a conventional unit and cannot follow a group (L2637)")
        conditions = set(unit.state.conditions)
        if unit.state.destroyed or conditions & {"in_reserve", "off_table"}:
            raise ValueError(f"{name} is not on the table")
        if unit.state.activated:
            raise ValueError(f"{name} has already activated this turn and cannot follow (L2639)")
        if conditions & {"shut_down", "knocked_down"}:
            raise ValueError(
                f"{name} is {'shut' if 'shut_down' in conditions else 'knocked'} down and cannot act"
            )
        value = weapon_value(unit, weapon)
        if value < 1:
            raise ValueError(
                f"{name} has no {weapon} weapon system: followers use the leader's system (L2657)"
            )
        out.append((side, idx, unit, value))
    return out
