"""Sample units of the app's own making (the book prints no roster: digest A1).

Each is built from the guideline tables (L2425-L2765): armour from the One Year
War rows, weapons from the archetype rows, points from the custom-unit formula
(plus an allowance for abilities where they have some).  Names are our own.
"""

from __future__ import annotations

from core.systems.gundam_skirmish.units import (
    Ability,
    Armour,
    Unit,
    archetype_close,
    archetype_weapon,
)

SAMPLE_NOTE = (
    "A sample of the app's own making, built from the book's guideline tables; not a published unit."
)

#: Listed so that the first units share a faction (a legal army from the top of the list).
SAMPLES: dict[str, Unit] = {
    "lancer": Unit(
        name="Sample: Lancer",
        factions=["EFF"],
        move=4,
        boost=9,
        integrity=6,
        armour=Armour(dice=3, success=4),
        weapons=[archetype_weapon("beam_rifle", "Beam rifle"), archetype_weapon("vulcan", "Head guns", "M")],
        close_combat=[archetype_close("beam_saber", "Beam blade")],
        shield="medium",
    ),
    "captain": Unit(
        name="Sample: Captain",
        command_tag=True,
        factions=["EFF"],
        points=230,
        move=5,
        boost=10,
        integrity=8,
        armour=Armour(dice=4, success=3),
        weapons=[
            archetype_weapon("beam_rifle", "Long beam rifle"),
            archetype_weapon("vulcan", "Head guns", "M"),
        ],
        close_combat=[archetype_close("beam_saber", "Beam blade")],
        shield="medium",
        abilities=[Ability(key="panoramic_cockpit")],
        command=True,
    ),
    "gun_tank": Unit(
        name="Sample: Gun Tank",
        no_space=True,
        factions=["ZEON", "EFF"],
        kind="ground_vehicle",
        move=3,
        boost=None,
        integrity=4,
        armour=Armour(dice=2, success=5),
        weapons=[archetype_weapon("medium_calibre", "Turret cannon", "M")],
        abilities=[Ability(key="tank")],
    ),
    "trooper": Unit(
        name="Sample: Trooper",
        factions=["ZEON"],
        move=4,
        boost=8,
        integrity=6,
        armour=Armour(dice=2, success=5),
        weapons=[archetype_weapon("low_calibre", "Machine gun"), archetype_weapon("bazooka", "Bazooka")],
        close_combat=[archetype_close("heat_hawk", "Heat axe")],
        shield="light",
    ),
    "heavy_gunner": Unit(
        name="Sample: Heavy Gunner",
        factions=["ZEON"],
        points=170,
        move=3,
        boost=6,
        integrity=7,
        armour=Armour(dice=3, success=4),
        weapons=[
            archetype_weapon("gatling", "Rotary cannon"),
            archetype_weapon("missiles", "Missile rack", "M"),
        ],
        close_combat=[archetype_close("claws", "Crusher claws")],
        abilities=[Ability(key="movable_frame")],
    ),
}
