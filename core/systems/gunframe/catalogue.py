"""GUNFRAME's catalogue: frame values, weapon systems and the frames (L2137-2142, L2687-2692).

The rest of the book's lists sit beside this module: :mod:`.upgrades` (the upgrades and the
lookups of their effects), :mod:`.power_attacks` and :mod:`.examples` (the book's example units).

Every entry carries its rulebook line (``"L2137"`` is line 2137 of
``001_c60598db3e91d492.txt``) and a one-line summary in this project's own words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

FrameValue = Literal["speed", "defense", "armour"]
WeaponSystem = Literal["close", "short", "medium", "long"]
Slot = Literal["speed", "defense", "armour", "close", "short", "medium", "long"]

FRAME_VALUES: tuple[FrameValue, ...] = ("speed", "defense", "armour")
WEAPONS: tuple[WeaponSystem, ...] = ("close", "short", "medium", "long")
SLOTS: tuple[Slot, ...] = (*FRAME_VALUES, *WEAPONS)


# --- frames (L2137-2142, conventional L2687-2692) ---------------------------------


@dataclass(frozen=True)
class FrameDef:
    """A frame's stock values and cost, before customising."""

    id: str
    name: str
    speed: int
    defense: int
    armour: int
    loadout: int
    cost: int
    ref: str
    summary: str
    conventional: bool = False
    #: Upgrades of which the unit gets one for free (tanks, flyers: L2618, L2624).
    free_choice: tuple[str, ...] = ()


FRAMES: dict[str, FrameDef] = {
    f.id: f
    for f in (
        FrameDef("scout", "Scout", 7, 2, 4, 8, 8, "L2138", "Fast and fragile, the cheapest gunframe."),
        FrameDef("light", "Light", 6, 2, 6, 10, 10, "L2139", "Quick frame with modest armour."),
        FrameDef("medium", "Medium", 5, 3, 8, 12, 12, "L2140", "The all-round middle weight."),
        FrameDef("heavy", "Heavy", 5, 3, 10, 14, 14, "L2141", "Tough frame with plenty of guns."),
        FrameDef(
            "super_heavy", "Super Heavy", 4, 4, 12, 16, 16, "L2142", "The slowest, biggest and best armed."
        ),
        FrameDef(
            "infantry",
            "Infantry",
            4,
            2,
            1,
            2,
            2,
            "L2688",
            "Foot troops on one base: see all round, cross rough ground, ignore explosions.",
            conventional=True,
        ),
        FrameDef(
            "tank",
            "Tank",
            5,
            2,
            3,
            3,
            5,
            "L2689",
            "Vehicles and heavy suits; comes with one of four listed upgrades at no cost.",
            conventional=True,
            free_choice=("ablative_armour", "anti_aircraft", "deflect", "turreted"),
        ),
        FrameDef(
            "flyer",
            "Flyer",
            6,
            2,
            2,
            3,
            4,
            "L2691",
            "Aircraft in support; Fly or Fast Flyer is included in the price.",
            conventional=True,
            free_choice=("fly", "fast_flyer"),
        ),
    )
}
