"""Readings of unclear rules that players may choose differently (digest section 11).

Every default is the digest's recommended reading.  A game keeps the chosen
values by field name in ``Game.options``; a squad editor may pass them to the
deck checks.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.systems.base import read_options


class MsbOptions(BaseModel):
    """House readings for Mobile Suit Battles."""

    model_config = ConfigDict(extra="forbid")

    same_weapon_twice: bool = Field(
        default=True,
        description="[Q-5] A weapon may fill two slots, allowing two copies of each of its cards "
        "(L122-L123).",
    )
    generics_required: bool = Field(
        default=False,
        description="[Q-6] Every generic card must be in the deck; default: at most one of each (L125).",
    )
    duplicate_boosters: bool = Field(
        default=True,
        description="[Q-23] Copies of one booster are allowed, up to the booster slots (L121).",
    )
    return_order: Literal["random", "as_listed"] = Field(
        default="random",
        description="[Q-8] Order of cards put under the deck: shuffled, or as the player lists them "
        "(L71, L105).",
    )
    per_zone_blocks: bool = Field(
        default=False,
        description="[Q-11] A block cancels only the marks in zones it covers; default: the whole "
        "attack (L91).",
    )
    guard_break_many_blocks: bool = Field(
        default=False,
        description="[Q-12] Against guard break the defender may spend more blocks, each taking 1 "
        "more damage off (L139); default: one block, as against any attack.",
    )
    destroyed_past_armor: bool = Field(
        default=False,
        description="[Q-13] A suit is destroyed only when a zone goes past its armour; default: on "
        "reaching it.",
    )
    enemy_targets_only: bool = Field(
        default=False,
        description="[Q-17] Attacks may target only other players' suits; default: any other suit (L91).",
    )
    tie_pick_any_card: bool = Field(
        default=False,
        description="[Q-20] In a tie the player choosing may pick any tied card, not only their own (L77).",
    )
    all_marks_damage: bool = Field(
        default=False,
        description="[Q-22] Marks out of range also deal damage when the attack lands; default: only those "
        "in range (L91).",
    )
    turn_limit: int = Field(
        default=0,
        ge=0,
        le=99,
        description="[Q-2] Turns the game lasts; then the side holding the most objectives wins "
        "(L44-L46). 0: the fight goes on until one side is left (L9, L97).",
    )
    spent_deck: Literal["play_what_is_left", "withdraw"] = Field(
        default="play_what_is_left",
        description="[Q-7] A deck too small for a full hand gives what it has, and a suit that draws "
        "nothing plays no card that turn; or, with 'withdraw', a suit that cannot draw a single card "
        "leaves the fight (L71 is silent).",
    )
    melee_reach: int = Field(
        default=1,
        ge=0,
        le=9,
        description="[Q-10] Steps a melee mark reaches (the book gives none); players measure it.",
    )


def options_of(raw: dict[str, Any]) -> MsbOptions:
    """The options stored in a game (unknown keys ignored)."""
    return read_options(MsbOptions, raw)
