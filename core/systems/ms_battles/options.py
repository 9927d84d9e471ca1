"""Readings of unclear rules that players may choose differently (digest section 11).

Every default is the digest's recommended reading.  A game keeps the chosen
values by field name in ``Game.options``; a squad editor may pass them to the
deck checks.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from core.systems.base import Readings, read_options


class MsbOptions(Readings):
    """House readings for Mobile Suit Battles."""

    # What each reading means, with its lines, is in options.json.

    same_weapon_twice: bool = True
    generics_required: bool = False
    duplicate_boosters: bool = True
    return_order: Literal["random", "as_listed"] = "random"
    per_zone_blocks: bool = False
    guard_break_many_blocks: bool = False
    destroyed_past_armor: bool = False
    enemy_targets_only: bool = False
    tie_pick_any_card: bool = False
    all_marks_damage: bool = False
    turn_limit: Annotated[int, Field(ge=0, le=99)] = 0
    spent_deck: Literal["play_what_is_left", "withdraw"] = "play_what_is_left"
    melee_reach: Annotated[int, Field(ge=0, le=9)] = 1


def options_of(raw: dict[str, Any]) -> MsbOptions:
    """The options stored in a game (unknown keys ignored)."""
    return read_options(MsbOptions, raw)
