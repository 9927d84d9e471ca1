"""The game's toggles: each optional module and Advanced Combat rule (L352, L577, L811), and the
readings of unclear rules players may choose (digest section 9).

Modules are on by default so that the sample squads (crew-served weapon, vehicles, power armor,
sneak suit, experience) play at once; the advanced body armor rule is off, as it replaces the
standard armor rule the cards are filled for.
"""

from __future__ import annotations

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
    vehicles: bool = True
    power_armor: bool = True
    collapse_literal: bool = False
    vehicle_large_target: bool = True
