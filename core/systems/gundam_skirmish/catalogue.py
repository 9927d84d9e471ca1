"""What the book prints as data: guideline tables, abilities, traits, modifications, orders.

Mobile Suit Gundam: Skirmish (000_3e12d4cbd0c8f6da.txt) prints no roster of units
(digest A1): its only numbers for equipment are the designer's guideline tables of
the Custom Unit Creation Guide (L2425-L2765).  They are kept here as presets for the
unit form, each with its line.

Every ability, pilot trait, modification, heroic modification and order is an
entry players can pick.  The tables and entries themselves are data, in
``catalogue.json`` beside this module (each row with its line), read and
validated here at import.  ``engine`` says whether the app applies its effect in the
actions it resolves; where it does not, ``by_hand`` says why (most such effects
need geometry the app does not track: distances, facing, terrain).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.systems.data import load

WeaponClass = Literal["beam", "explosive", "low_calibre", "medium_calibre", "other"]
WeaponTag = Literal["RQ", "RS", "B", "P", "V"]
Grade = Literal["light", "medium", "heavy", "super_heavy"]


class RangedArchetype(BaseModel):
    """One row of the ranged weapon guideline table (L2519-L2634)."""

    model_config = ConfigDict(frozen=True)

    key: str
    label: str
    weapon_class: WeaponClass
    shots: int | None = Field(description="Dice rolled; None means a D6 is rolled for the number (Gatling).")
    acc: int
    crit: int | None
    dam: int
    reload: Literal["", "RQ", "RS"]
    range_min: int
    range_max: int
    penetration: bool
    points: int
    ref: str


class CloseArchetype(BaseModel):
    """One row of the close combat weapon guideline table (L2640-L2658)."""

    model_config = ConfigDict(frozen=True)

    key: str
    label: str
    dex: int
    attack: int
    acc: int
    crit: int | None
    dam: int
    piercing_strike: bool
    points: int
    ref: str


class ShieldGrade(BaseModel):
    """A shield type: bonus dice, their success number, shield integrity, points (L804-L853, L2659-L2724)."""

    model_config = ConfigDict(frozen=True)

    dice: int
    success: int
    integrity: int
    points: int
    ref: str


class ArmourRow(BaseModel):
    """One armour material and the value it gives (L2452-L2497)."""

    model_config = ConfigDict(frozen=True)

    era: Literal["one_year_war", "later_uc", "cosmic_era"]
    material: str
    dice: int
    success: int
    ref: str


class ArmourEra(BaseModel):
    """The materials of one era, from armour value 1 up (L2452-L2497)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    era: Literal["one_year_war", "later_uc", "cosmic_era"]
    ref: str
    materials: tuple[str, str, str, str, str]


class Entry(BaseModel):
    """A pickable rule entry (ability, trait, modification, order) and whether the app applies it."""

    model_config = ConfigDict(frozen=True)

    key: str
    name: str
    kind: Literal["active", "passive", "trait", "mod", "heroic_mod", "heroic_trait", "order"]
    ref: str
    help: str
    engine: bool = Field(description="True if the app applies the effect in the actions it resolves.")
    by_hand: str = Field(default="", description="Why players apply it themselves, when the app does not.")
    param: str = Field(default="", description="What the X of the entry is, where it has one.")
    cp: int = 0

    @model_validator(mode="before")
    @classmethod
    def _engine(cls, data: Any) -> Any:
        """Unless the data says otherwise, the app applies an entry when it gives no reason players do."""
        if isinstance(data, dict) and "engine" not in data:
            return {**data, "engine": not data.get("by_hand")}
        return data


class Tables(BaseModel):
    """The content of ``catalogue.json``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    ranged: tuple[RangedArchetype, ...]
    suggest_blast: frozenset[str]
    close: tuple[CloseArchetype, ...]
    shields: dict[Grade, ShieldGrade]
    beam_defence: dict[Grade, tuple[int, int]]
    armour: tuple[ArmourEra, ...]
    entries: dict[
        Literal["ability", "trait", "mod", "heroic_mod", "heroic_trait", "order"], tuple[Entry, ...]
    ]


TABLES = load(__package__, "catalogue.json", Tables)

#: The ranged weapon guideline table (L2519-L2634).  The class of each row is the
#: digest's hint (A24): the book's table gives none.  <B> and <V> are suggestions
#: the book makes for some rows (L2512-L2516); they are listed in ``suggest_tags``.
RANGED: tuple[RangedArchetype, ...] = TABLES.ranged

#: Rows for which the book suggests the Blast tag (L2512-L2514) or the Volley tag (L2515-L2516).
SUGGEST_BLAST = TABLES.suggest_blast

#: The close combat weapon guideline table (L2640-L2658).
CLOSE: tuple[CloseArchetype, ...] = TABLES.close

#: The temporary weapon of a unit with none, in close combat (L1063-L1066, L2643).
UNARMED = CLOSE[0]

#: Shield grades (L2670-L2700, L2762-L2763).
SHIELDS: dict[str, ShieldGrade] = {grade: row for grade, row in TABLES.shields.items()}

#: I-field, GN field and beam shield grades: bonus dice against Beam weapons and their success
#: number (L666-L674).  Super Heavy succeeds on 4+ as printed (digest A4: possibly a typo).
BEAM_DEFENCE: dict[str, tuple[int, int]] = {grade: dice for grade, dice in TABLES.beam_defence.items()}

#: Armour value n always gives n dice; the success number by value (L2452-L2497).
ARMOUR_SUCCESS = {1: 6, 2: 5, 3: 4, 4: 3, 5: 3}

ARMOUR: tuple[ArmourRow, ...] = tuple(
    ArmourRow(era=e.era, material=material, dice=value, success=ARMOUR_SUCCESS[value], ref=e.ref)
    for e in TABLES.armour
    for value, material in enumerate(e.materials, start=1)
)

#: The generalised abilities (L2766-L3030), pilot traits (L1960-L2003), modifications
#: (L2010-L2036), heroic modifications (L3218-L3269), heroic traits (L3275-L3300) and
#: orders (L1419-L1534).  Help texts are our own summaries.
ABILITIES: tuple[Entry, ...] = TABLES.entries["ability"]
TRAITS: tuple[Entry, ...] = TABLES.entries["trait"]
MODS: tuple[Entry, ...] = TABLES.entries["mod"]
HEROIC_MODS: tuple[Entry, ...] = TABLES.entries["heroic_mod"]
HEROIC_TRAITS: tuple[Entry, ...] = TABLES.entries["heroic_trait"]
ORDERS: tuple[Entry, ...] = TABLES.entries["order"]

ALL_ENTRIES: dict[str, dict[str, Entry]] = {
    kind: {e.key: e for e in entries} for kind, entries in TABLES.entries.items()
}
