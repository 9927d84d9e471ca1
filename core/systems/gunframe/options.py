"""Readings of unclear GUNFRAME rules that players may choose differently (digest section 11).

The defaults are the recommended readings; each field documents the other one
and the rulebook lines it comes from.  A game stores them by name in
``Game.options``; the game-wide values (mission, environment, clocks...) are in ``Game.state``
(:mod:`.wide`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from core.systems.base import read_options

if TYPE_CHECKING:
    from core.game import Game


class GunframeOptions(BaseModel):
    """Readings of unclear rules that players may choose differently (digest section 11).

    The defaults are the recommended readings.  A game stores them by name in
    ``Game.options``.
    """

    model_config = ConfigDict(extra="forbid")

    powerful_needs_six: bool = Field(
        default=False,
        description="Powerful's extra point only counts when the attack also rolled a 6 (strict reading of "
        "L1188). Default: the extra point alone opens power attacks once damage is done (L2456).",
    )
    parry_only_when_all_cancelled: bool = Field(
        default=False,
        description="Parry may be used only when the defense cancelled every hit, as in its example (L2450). "
        "Default: whenever defending in close combat (L2448).",
    )
    deflect_vs_knocked_down: bool = Field(
        default=False,
        description="Deflect still adds its die when a knocked-down unit is attacked. Default: no, since "
        "every attack on it counts as from behind (L950, L2388).",
    )
    hard_cover_adds_to_cover: bool = Field(
        default=False,
        description="Hard cover's 2D come on top of cover's 1D. Default: hard cover replaces cover (L1132).",
    )
    # --- power attacks (digest 11.6, 11.8-11.10) ---------------------------------------
    repeat_power_attacks: bool = Field(
        default=False,
        description="The same power attack may be bought more than once from one attack (L1196 is silent). "
        "Default: each effect at most once, an X effect taking all its points at once (digest 11.9).",
    )
    blast_hits_target: bool = Field(
        default=False,
        description="Blast's X hits also fall on the attack's own target (L1236 says every unit within "
        '3"). Default: only the units around it, friends and the attacker included (digest 11.8).',
    )
    explode_hits_immune_bystanders: bool = Field(
        default=False,
        description="Bracketed units and infantry caught near an exploding wreck still take the 1 damage: "
        "immunity only forbids choosing Explode against them (L1206). Default: immune units take none "
        "(L2374, L2607).",
    )
    knockback_main_damage_only: bool = Field(
        default=False,
        description="Recoil and Throw move the target by the attack's own damage only, even after a Burn "
        "spent earlier (L1292, L1346). Default: Burn damage counts when Burn comes first in the declared "
        "order (digest 11.10).",
    )
    base_defense_unhalved: bool = Field(
        default=False,
        description="Burn and Chain Attack hits are met with the printed Defense even when the unit is shut "
        "down (L1246, L1258). Default: the current Defense, halved while shut down, with no dice bonuses, "
        "rerolls or dodges (digest 11.6).",
    )
    # --- turn (digest 11.14, 11.19, 11.36) ---------------------------------------------
    react_more_than_once: bool = Field(
        default=False,
        description="A unit that has not activated may react again in the same turn (main text L1422). "
        "Default: one reaction per unit per turn, as the quick reference says (L3339, digest 11.14).",
    )
    initiative_best_bonus_only: bool = Field(
        default=False,
        description="Only the largest initiative bonus counts. Default: the attacker's turn-1 bonus, "
        "Tactician and one Command Module add up (L1520, L2348, L2380; digest 11.19).",
    )
    crippled_immune_counts_for_fp: bool = Field(
        default=False,
        description="A crippled unit with Anger Issues or Reinforced still counts toward Focus Points. "
        "Default: it ignores only the halving, so it adds no Focus Point (L2727, L2733; digest 11.36).",
    )
    # --- optional modules (L2292-2294) ----------------------------------------------------
    crippled_rules: bool = Field(
        default=False,
        description="Play the optional crippled rules: a unit at or below a quarter of its starting Armour "
        "is crippled, halving Speed and weapons and adding no Focus Point (L2700-2733). Default: off, "
        "as every optional module.",
    )
    # --- groups (L2635-2665) ------------------------------------------------------------
    group_reaction_spares_leader: bool = Field(
        default=False,
        description="A conventional unit that leads a group as a reaction may still activate later this "
        "turn: only its followers count as activated (L2641 speaks of a group activation). Default: every "
        "member of the group, leader included, counts as activated after the group attack.",
    )
    # --- falling (L900, L926, L958) --------------------------------------------------------
    fall_defense_halved_when_shut_down: bool = Field(
        default=False,
        description="A shut-down flyer that falls defends with half its Defense, as a shut-down unit does "
        "when attacked (L958). Default: a fall is met with an unmodified defense roll (L900), and a fall is "
        "not an attack, so the full Defense.",
    )
    # --- missions (digest 11.33, 11.35) --------------------------------------------------
    escort_destroyed_score: bool = Field(
        default=False,
        description="Escort: the defender's 1VP for each vehicle not in the enemy zone also counts "
        "destroyed vehicles (literal L1899). Default: surviving vehicles only (digest 11.33).",
    )
    convoy_adds_no_fp: bool = Field(
        default=False,
        description="Escort: convoy vehicles are left out of the defender's Focus Points, like conventional "
        "units (L764). Default: they operate as units (L1890), so they count as units on the table do "
        "(L758).",
    )


def options_of(game: Game) -> GunframeOptions:
    """The readings a game uses: its stored choices over the defaults."""
    return read_options(GunframeOptions, game.options)
