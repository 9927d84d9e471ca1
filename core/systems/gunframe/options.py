"""Readings of unclear GUNFRAME rules that players may choose differently (digest section 11).

The defaults are the recommended readings; each reading's text (in
``options.json`` beside this module) documents the other one and the rulebook
lines it comes from.  A game stores them by name in ``Game.options``; the
game-wide values (mission, environment, clocks...) are in ``Game.state`` (:mod:`.wide`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.systems.base import Readings, read_options

if TYPE_CHECKING:
    from core.game import Game


class GunframeOptions(Readings):
    """Readings of unclear rules that players may choose differently (digest section 11).

    The defaults are the recommended readings.  A game stores them by name in
    ``Game.options``.
    """

    # What each reading means, with its lines, is in options.json.

    powerful_needs_six: bool = False
    parry_only_when_all_cancelled: bool = False
    deflect_vs_knocked_down: bool = False
    hard_cover_adds_to_cover: bool = False
    # --- power attacks (digest 11.6, 11.8-11.10) ---------------------------------------
    repeat_power_attacks: bool = False
    blast_hits_target: bool = False
    explode_hits_immune_bystanders: bool = False
    knockback_main_damage_only: bool = False
    base_defense_unhalved: bool = False
    # --- turn (digest 11.14, 11.19, 11.36) ---------------------------------------------
    react_more_than_once: bool = False
    initiative_best_bonus_only: bool = False
    crippled_immune_counts_for_fp: bool = False
    # --- optional modules (L2292-2294) ----------------------------------------------------
    crippled_rules: bool = False
    # --- groups (L2635-2665) ------------------------------------------------------------
    group_reaction_spares_leader: bool = False
    # --- falling (L900, L926, L958) --------------------------------------------------------
    fall_defense_halved_when_shut_down: bool = False
    # --- missions (digest 11.33, 11.35) --------------------------------------------------
    escort_destroyed_score: bool = False
    convoy_adds_no_fp: bool = False


def options_of(game: Game) -> GunframeOptions:
    """The readings a game uses: its stored choices over the defaults."""
    return read_options(GunframeOptions, game.options)
