"""The readings of MechaStellar's unclear rules players may choose (digest section 10).

Each default is the digest's recommended reading; the texts are in ``options.json``.
"""

from __future__ import annotations

from core.systems.base import Readings


class MsOptions(Readings):
    attacker_one_each: bool = False
    natural_one_evades: bool = False
    save_ten_passes: bool = False
    save_replaces_damage: bool = False
    bonus_crit_needs_a_hit: bool = False
    expanded_skills: bool = False
    focus_once: bool = False
    gritty_battles: bool = False
    destroying_terrain: bool = False
    influence: bool = False
    battle_damage: bool = False
    explosion_by_frame: bool = False
    climactic_events: bool = False
    space: bool = False
    small_scale: bool = False
    m_particles: bool = False
    low_gravity: bool = False
    stun_unreadies_one: bool = False
