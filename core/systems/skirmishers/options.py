"""The game's toggles: each optional module and Advanced Combat rule (L352, L577, L811), and the
readings of unclear rules players may choose (digest section 9).

Modules are on by default so that the sample squads (crew-served weapon, vehicles, power armor,
sneak suit, experience) play at once.  Advanced body armor (L382-L393) is off by default, as the
standard rule (L198) is the core one; it is applied as the game starts (who goes first), from each
card's protected columns.  Vehicles and power
armor (L609-L908) are played by fielding them: their units bring their rules.
"""

from __future__ import annotations

from typing import Literal

from core.systems.base import Readings


class SkOptions(Readings):
    crew_served: bool = True
    advanced_armor: bool = False
    advanced_explosives: bool = True
    movement_fire: bool = True
    sneak_suits: bool = True
    large_targets: bool = True
    experience: bool = True
    morale: bool = True
    jet_packs: bool = True
    collapse_literal: bool = False
    smoke_lasts: Literal["side_turns", "half_turns"] = "side_turns"
    fire_lasts: Literal["next_round", "until_put_out"] = "next_round"
    scatter_distance: Literal["one_dot", "d6_dots"] = "one_dot"
    morale_counts_out: bool = False
    one_combat_action: bool = False
    bayonets: Literal["rifle_class", "printed"] = "rifle_class"
    water_blast: Literal["swimming", "any_water"] = "swimming"
    morale_when: Literal["each_death", "turn_start"] = "each_death"
