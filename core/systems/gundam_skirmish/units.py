"""The unit statistics sheet as the profile model, its cost and its building rules.

The sheet (L2321-L2423): name with the <S> and <C> tags, faction, points,
movement, boost, integrity, armour (dice and success), weapons (name, class,
equip, tags, dexterity, shots, range, accuracy, critical, damage), shield and
abilities.  An army entry also carries what its player chose for it: which
carried weapons it takes into battle and which one starts equipped (L431-L434),
whether it uses the Command rule (L1277-L1281), its pack (L2967-L2973,
L3025-L3030) and a character pilot (L1791-L1832).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator
from pydantic.config import JsonDict

from core.systems.base import Closed, Violation
from core.systems.gundam_skirmish.catalogue import (
    CLOSE,
    RANGED,
    SHIELDS,
    WeaponClass,
    WeaponTag,
)
from core.systems.gundam_skirmish.mega import MEGA_ARMOUR, MegaParts

Faction = Literal["EFF", "ZEON", "TITANS", "AEUG", "AXIS"]
UnitKind = Literal["mobile_suit", "mobile_armour", "ground_vehicle", "air_unit", "mobile_fighter"]
AbilityKey = Literal[
    "afterburner",
    "aircraft",
    "amphibious",
    "blitzkrieg",
    "anti_beam_coating",
    "beam_flayer",
    "beam_jitte",
    "beam_shield",
    "chobham",
    "core_block",
    "deploy_funnels",
    "dig_in",
    "energy_siphon",
    "extra_tank",
    "fire_support",
    "flight_mode",
    "grapple_hook",
    "heat_radiation",
    "heat_rod",
    "heat_wire",
    "hit_and_run",
    "hydrojets",
    "i_field",
    "limited_armament",
    "massed_fire",
    "mighty_shield",
    "movable_frame",
    "obsolete",
    "panoramic_cockpit",
    "parachute_pack",
    "poor_balance",
    "red_comet",
    "scatter_beam",
    "scout",
    "solid_defence",
    "tank",
    "troop_carrier",
    "unwieldly",
    "weapon_pack",
]
TraitKey = Literal[
    "ambusher",
    "controlled_aim",
    "fierce",
    "fortunate",
    "gallant",
    "leader",
    "mechanic",
    "merciful",
    "newtype",
    "rash",
    "responsive",
    "stoic",
    "swift",
    "terrifying",
]
ModKey = Literal[
    "amphibious",
    "anti_beam_coating",
    "heavy_plating",
    "improved_optics",
    "magnetic_coating",
    "optimised_thrusters",
    "reactive_armour",
    "reinforced_endoskeleton",
    "weapon_pack",
]
HeroicModKey = Literal[
    "trans_am", "i_field", "full_burst", "yata_no_kagami", "exam", "panoramic_cockpit", "full_armour"
]
HeroicTraitKey = Literal[
    "jack_of_all_trades", "elusive", "veteran", "impenetrable", "reckless", "flanker", "commander"
]


class Armour(Closed):
    """Armour (g, L2381): the number of defend dice and the face each needs to block."""

    dice: int = Field(ge=0, le=8, description="Defend dice rolled against attacks (the Armour value).")
    success: int = Field(ge=2, le=6, description="A defend die showing this or more is a block (<4+> is 4).")


def _presets(schema: dict[str, Any], table: str) -> None:
    """The designer's presets: a weapon line filled from each row of the guideline table
    (ranged L2519-L2634, close combat L2640-L2658), offered by the unit form as "add from..."."""
    if table == "ranged":
        rows = [archetype_weapon(r.key, r.label).model_dump(mode="json") for r in RANGED]
    else:
        rows = [archetype_close(r.key, r.label).model_dump(mode="json") for r in CLOSE]
    schema["presets"] = [{"title": row["name"], "value": row} for row in rows]


#: The book's names for the sheet's codes (L2369-L2379): equip types, tags, classes.
EQUIP_NAMES = {"C": "Carried", "M": "Mounted"}
TAG_NAMES = {"RQ": "Quick Reload", "RS": "Slow Reload", "B": "Blast", "P": "Penetration", "V": "Volley"}
CLASS_NAMES = {
    "beam": "Beam",
    "explosive": "Explosive",
    "low_calibre": "Low Calibre",
    "medium_calibre": "Medium Calibre",
    "other": "Other",
}


def _item_labels(schema: JsonDict, names: dict[str, str]) -> None:
    """The book's name, then its code, for each choice of a list of codes (the form shows them)."""
    items = schema.get("items")
    if isinstance(items, dict):
        items["x-labels"] = {k: f"{v} ({k})" for k, v in names.items()}


class RangedWeapon(BaseModel):
    """A ranged weapon line of the sheet (h, L2369-L2409)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=lambda s: _presets(s, "ranged"))

    name: str = Field(
        min_length=1,
        max_length=60,
        description="Name of the weapon; the guideline types (L2519-L2634) are suggested.",
        examples=[r.label for r in RANGED],
    )
    weapon_class: WeaponClass = Field(
        description="Class: beam, explosive, low or medium calibre, other (L2369-L2371; digest A24)."
    )
    equip: Literal["C", "M"] = Field(
        description="C: carried (held, one equipped at a time); M: mounted (always equipped) (L2373).",
        json_schema_extra={"x-labels": {k: f"{v} ({k})" for k, v in EQUIP_NAMES.items()}},
    )
    tags: list[WeaponTag] = Field(
        default_factory=list,
        description="RQ quick reload, RS slow reload, B blast, P penetration, V volley (L2376-L2379).",
        json_schema_extra=lambda s: _item_labels(s, TAG_NAMES),
    )
    shots: int | None = Field(
        ge=1, le=10, description="Dice rolled when shooting; empty for '1D6' (a D6 sets the number, L2574)."
    )
    range_min: int = Field(ge=0, le=96, description="Lower end of the range band, inches (L2391).")
    range_max: int = Field(
        ge=1, le=96, description="Upper end of the range band, inches; double is the limit (L612)."
    )
    acc: int = Field(ge=2, le=6, description="Accuracy: a die showing this or more hits (L2394).")
    crit: int | None = Field(
        ge=2,
        le=6,
        description="Critical: a hit showing this or more rolls on the Damage Chart; empty for none.",
    )
    dam: int = Field(ge=1, le=10, description="Damage per hit that is not blocked (L2403).")

    @model_validator(mode="after")
    def _check(self) -> RangedWeapon:
        if self.range_min > self.range_max:
            raise ValueError("the lower end of the range band is above its upper end")
        if "RQ" in self.tags and "RS" in self.tags:
            raise ValueError("a weapon needs either a quick or a slow reload, not both")
        if len(set(self.tags)) != len(self.tags):
            raise ValueError("a tag is listed twice")
        return self

    @property
    def reload(self) -> str:
        return "RS" if "RS" in self.tags else "RQ" if "RQ" in self.tags else ""


class CloseCombatWeapon(BaseModel):
    """The close combat weapon line (h, L2382-L2409): dexterity, attack dice, accuracy, critical, damage."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=lambda s: _presets(s, "close"))

    name: str = Field(
        min_length=1,
        max_length=60,
        description="Name of the weapon; the guideline types (L2640-L2658) are suggested.",
        examples=[c.label for c in CLOSE],
    )
    dex: int = Field(ge=-3, le=6, description="Dexterity, added to the Advantage roll (L2385).")
    attack: int = Field(ge=1, le=6, description="Attack dice rolled in close combat ('2D6' is 2; digest A9).")
    acc: int = Field(ge=2, le=6, description="A die showing this or more hits.")
    crit: int | None = Field(
        ge=2, le=6, description="A hit showing this or more is critical; empty for none."
    )
    dam: int = Field(ge=1, le=10, description="Damage per hit that is not stripped.")
    piercing_strike: bool = Field(default=False, description="<PS>: may make a Piercing Strike (L931-L939).")


ShieldChoice = Literal["none", "light", "medium", "heavy", "super_heavy"]


class Ability(Closed):
    """An ability of the generalised list (L2766-L3030) with its X filled in."""

    key: AbilityKey = Field(description="Which ability.")
    x: str = Field(default="", max_length=60, description="Its X: a weapon name, a distance, a unit type...")


class Pilot(Closed):
    """A character pilot (L1791-L1832, L3208-L3300)."""

    name: str = Field(min_length=1, max_length=60, description="The pilot's name.")
    faction: Literal["", "EFF", "ZEON", "TITANS", "AEUG", "AXIS"] = Field(
        default="",
        description="The pilot's faction; a character flies only its faction's units (L1802-L1803).",
    )
    rank: int = Field(default=1, ge=1, le=10, description="Rank 1-10; each rank costs 10 points (L1797).")
    health: int = Field(default=6, ge=-10, le=30, description="Pilot Health (digest A16: 6 if unknown).")
    mind: int = Field(default=6, ge=-10, le=30, description="Pilot Mind (digest A16, A17).")
    traits: list[TraitKey] = Field(default_factory=list, description="Traits, each at most once (L1826).")
    mods: list[ModKey] = Field(
        default_factory=list,
        description="Mobile Suit modifications from ranks; they travel with the pilot (L1811).",
    )
    heroic_levels: int = Field(default=0, ge=0, le=5, description="Heroic levels, 100 points each (L3211).")
    heroic_traits: list[HeroicTraitKey] = Field(
        default_factory=list, description="Heroic traits (L3273-L3300)."
    )
    heroic_mods: list[HeroicModKey] = Field(
        default_factory=list, description="Heroic modifications (L3216-L3269)."
    )
    techniques: list[Annotated[str, Field(max_length=60)]] | None = Field(
        default=None,
        max_length=30,
        description="A Mobile Fighter character's techniques in a campaign: the only attacks (weapons "
        "and close combat weapon, by name) its unit may make (L1837-L1844); None: every attack.",
        json_schema_extra={"ui": "hidden"},  # set by the campaign from the rank rewards chosen
    )


class Unit(Closed):
    """One unit as its statistics sheet prints it (L2321-L2423), with its player's choices."""

    name: str = Field(min_length=1, max_length=60, description="Unit name (a).", examples=["Trooper"])
    no_space: bool = Field(default=False, description="<S>: may not be used in space battles (L2327-L2332).")
    command_tag: bool = Field(default=False, description="<C>: may use the Command rule (L2332-L2335).")
    factions: list[Faction] = Field(
        min_length=1, description="Factions that may field it (b); an army uses one faction (L2337-L2342)."
    )
    kind: UnitKind = Field(
        default="mobile_suit",
        description="Mobile suit or armour (Leg/Arm/Head/Torso chart), vehicle or air unit (Engine/"
        "Weapons/Cockpit chart, L1147-L1239), mobile fighter (L1320-L1339).",
    )
    points: int | None = Field(
        default=None,
        ge=0,
        le=2000,
        description="Points cost (c); empty: the custom-unit formula (L2758-L2765).",
    )
    move: int = Field(ge=1, le=30, description="Inches per Move action (d).", examples=[4])
    boost: int | None = Field(
        ge=1, le=60, description="Inches per Boost action (e); empty for '/' (cannot boost)."
    )
    integrity: int = Field(
        ge=1, le=20, description="Maximum Integrity (f); 12 at most for custom units (L2500-L2506)."
    )
    armour: Armour = Field(description="Armour (g): defend dice and their success number (L2452-L2497).")
    weapons: list[RangedWeapon] = Field(
        default_factory=list, max_length=12, description="Ranged weapons (h)."
    )
    close_combat: list[CloseCombatWeapon] = Field(
        default_factory=list,
        max_length=1,
        description="Its one type of close combat weapon (L2754-L2755); none: Unarmed in melee (L1063).",
    )
    techniques: list[CloseCombatWeapon] = Field(
        default_factory=list,
        max_length=8,
        description="A Mobile Fighter only: its further techniques, attacks in the place of weapons, each "
        "with close combat numbers (L1837-L1840); a character fights with the ones it has learnt.",
    )
    shield: ShieldChoice = Field(
        default="none",
        description="Shield (i): Light 1 die on 6, integrity 2; Medium 2 on 5+, 3; Heavy 3 on 4+, 4; "
        "Super heavy 4 on 3+, 5 (L804-L853).",
    )
    beam_defence: ShieldChoice = Field(
        default="none",
        description="I-field, GN field or beam shield grade, dice against Beam weapons: Light 1 on 6, "
        "Medium 2 on 5+, Heavy 3 on 4+, Super heavy 4 on 4+ (L666-L674).",
    )
    abilities: list[Ability] = Field(default_factory=list, max_length=12, description="Abilities (j).")
    carried: list[str] = Field(
        default_factory=list,
        description="Carried weapons taken into battle, by name (2, or 3 with Weapon Pack; L431-L434); "
        "empty: every carried weapon on the sheet.",
    )
    equipped: str = Field(
        default="",
        max_length=60,
        description="The carried weapon equipped at the start (L434); empty: the first.",
    )
    command: bool = Field(default=False, description="Uses the Command rule (needs <C>; L1277-L1281).")
    pack: Literal["none", "parachute", "weapon"] = Field(
        default="none", description="Parachute Pack or Weapon Pack, for a unit that has both (L2967-L2973)."
    )
    chobham: bool = Field(default=False, description="Chobham Armour chosen for this battle (L2824-L2830).")
    sd: bool = Field(
        default=False,
        description="An SD version, for casual games: half Move, Boost, Armour and Integrity, rounded half "
        "up; shots at it need 1 more to hit and to crit (L1352-L1364).",
    )
    ambush: bool = Field(
        default=False, description="Held back to Ambush (L144-L151, L1253-L1255); needs a means (digest A47)."
    )
    mega: list[MegaParts] = Field(
        default_factory=list,
        max_length=1,
        description='A Mega Unit, for casual games (a model 8" tall or more, L1309-L1319): Armour 5, its '
        "Integrity split between Head, Arms, Torso and Legs (about 15-20 in all); hit location by a D6, "
        "no criticals, no Aimed Shots at it.",
    )
    pilot: list[Pilot] = Field(
        default_factory=list, max_length=1, description="A character pilot, if any (L1791-L1812)."
    )

    @property
    def cc(self) -> CloseCombatWeapon | None:
        """Its close combat weapon, if any: a Mobile Fighter's first technique its pilot knows."""
        return next((w for w in self.close_attacks if self.knows(w.name)), None)

    @property
    def close_attacks(self) -> list[CloseCombatWeapon]:
        """Its close combat weapon and, for a Mobile Fighter, its techniques (L1837-L1840)."""
        return [*self.close_combat, *self.techniques]

    def technique(self, name: str) -> CloseCombatWeapon | None:
        """The close combat attack (a Mobile Fighter's technique) of that name; empty: :attr:`cc`."""
        return next((w for w in self.close_attacks if w.name == name), None) if name else self.cc

    @property
    def character(self) -> Pilot | None:
        """Its character pilot, if any."""
        return self.pilot[0] if self.pilot else None

    @property
    def parts(self) -> MegaParts | None:
        """Its parts' Integrity, if it is a Mega Unit (L1309-L1319)."""
        return self.mega[0] if self.mega else None

    def has(self, key: str) -> bool:
        """Whether the unit has an ability (packs count only when chosen, L2972)."""
        if key == "weapon_pack" and self.pack == "parachute":
            return False
        if key == "parachute_pack" and self.pack == "weapon":
            return False
        return any(a.key == key for a in self.abilities) or (
            self.character is not None and key in {*self.character.mods, *self.character.heroic_mods}
        )

    def pilot_has(self, key: str) -> bool:
        """Whether its pilot has a trait or heroic trait."""
        return self.character is not None and key in {*self.character.traits, *self.character.heroic_traits}

    def knows(self, attack: str) -> bool:
        """Whether the unit may make this attack (a weapon's or its close combat weapon's name): a Mobile
        Fighter flown by a character uses only the techniques it has learnt (L1837-L1844)."""
        p = self.character
        return self.kind != "mobile_fighter" or p is None or p.techniques is None or attack in p.techniques

    def ability_x(self, key: str) -> str:
        return next((a.x for a in self.abilities if a.key == key), "")


# --- derived statistics ----------------------------------------------------------------


def half(value: int) -> int:
    """An SD unit's half of a statistic: the book says 'approximately'; we round half up, at least 1.

    >>> [half(v) for v in (1, 3, 4, 7)]
    [1, 2, 2, 4]
    """
    return max(1, (value + 1) // 2)


def armour_of(unit: Unit) -> tuple[int, int]:
    """Defend dice and success after Chobham, Full Armour and Reckless (L2828-L2829, L3269, L3291; A50)."""
    if unit.chobham and unit.has("chobham"):
        dice, success = 5, 3
    else:
        dice, success = unit.armour.dice, unit.armour.success
    if unit.has("full_armour"):
        dice += 1
    if unit.pilot_has("reckless"):
        dice = max(0, dice - 1)
    if unit.sd:
        dice = half(dice) if dice else 0
    return dice, success


def integrity_of(unit: Unit) -> int:
    """Maximum Integrity after Chobham and Reinforced Endoskeleton (L2829, L2033-L2034); a Mega Unit's is
    its parts' total (L1310-L1312)."""
    if unit.parts is not None:
        return unit.parts.total
    base = 12 if unit.chobham and unit.has("chobham") else unit.integrity
    value = base + (2 if unit.has("reinforced_endoskeleton") else 0)
    return half(value) if unit.sd else value


def _split_x(x: str) -> tuple[int | None, int | None]:
    parts = [p.strip().strip('"') for p in x.replace("/", " ").split()]
    nums = [int(p) for p in parts if p.isdigit()]
    return (nums[0] if nums else None, nums[1] if len(nums) > 1 else None)


def movement_of(unit: Unit) -> tuple[int, int | None]:
    """Move and Boost after Chobham's X and Optimised Thrusters (L2830, L2026-L2027)."""
    move, boost = unit.move, unit.boost
    if unit.chobham and unit.has("chobham"):
        m, b = _split_x(unit.ability_x("chobham"))
        move = m if m is not None else move
        boost = b if b is not None else boost
    if unit.has("optimised_thrusters"):
        move += 2
        boost = boost + 4 if boost is not None else None
    if unit.sd:
        move, boost = half(move), None if boost is None else half(boost)
    return move, boost


def carried_allowance(unit: Unit) -> int:
    """2 carried weapons, 3 with Weapon Pack (L431, L2035-L2036, L3025-L3030)."""
    return 3 if unit.has("weapon_pack") else 2


def carried_names(unit: Unit) -> list[str]:
    """The carried weapons taken into battle: the chosen ones, or every carried weapon of the sheet."""
    sheet = [w.name for w in unit.weapons if w.equip == "C"]
    return list(unit.carried) if unit.carried else sheet


def weapon_kind(w: RangedWeapon) -> str:
    """Class, equip type and tags in the book's words (L2369-L2379).

    >>> weapon_kind(RangedWeapon(name="Rifle", weapon_class="beam", equip="C", tags=["P", "RQ"],
    ...     shots=1, range_min=12, range_max=36, acc=3, crit=5, dam=3))
    'Beam, Carried, Penetration, Quick Reload'
    """
    return ", ".join([CLASS_NAMES[w.weapon_class], EQUIP_NAMES[w.equip], *(TAG_NAMES[t] for t in w.tags)])


def weapon_numbers(w: RangedWeapon) -> str:
    """Shots, range band, accuracy, critical and damage (L2385-L2403).

    >>> weapon_numbers(RangedWeapon(name="Gun", weapon_class="other", equip="M", tags=[], shots=None,
    ...     range_min=0, range_max=12, acc=4, crit=None, dam=1))
    '1D6 shots, 0-12", ACC 4+, no CRIT, 1 DAM'
    """
    shots = "1D6 shots" if w.shots is None else f"{w.shots} shot{'s' if w.shots != 1 else ''}"
    crit = "no CRIT" if w.crit is None else f"CRIT {w.crit}+"
    return f'{shots}, {w.range_min}-{w.range_max}", ACC {w.acc}+, {crit}, {w.dam} DAM'


def starting_weapon(unit: Unit) -> str:
    """The carried weapon equipped at deployment (L434)."""
    names = carried_names(unit)
    if unit.equipped and unit.equipped in names:
        return unit.equipped
    return names[0] if names else ""


def formula_cost(unit: Unit) -> int:
    """The custom-unit formula (L2758-L2765): (Move + Integrity + Armour) x 10 plus the shield's points.

    >>> u = Unit(name="X", factions=["EFF"], move=4, boost=8, integrity=6, armour=Armour(dice=3, success=4))
    >>> formula_cost(u)
    130
    >>> formula_cost(u.model_copy(update={"shield": "medium"}))
    170
    """
    integrity = unit.parts.total if unit.parts is not None else unit.integrity  # a Mega Unit's parts
    cost = (unit.move + integrity + unit.armour.dice) * 10
    if unit.shield != "none":
        cost += SHIELDS[unit.shield].points
    return cost


def base_points(unit: Unit) -> int:
    """The unit's own points: as printed, or the formula when left empty."""
    return unit.points if unit.points is not None else formula_cost(unit)


def unit_cost(unit: Unit) -> int:
    """Points in an army: the unit, plus 10 per character rank (L1797) and 100 per heroic level (L3211)."""
    cost = base_points(unit)
    if unit.character is not None:
        cost += 10 * unit.character.rank + 100 * unit.character.heroic_levels
    return cost


def is_command(unit: Unit) -> bool:
    return unit.command and (unit.command_tag or unit.pilot_has("commander"))


def ambush_means(unit: Unit) -> bool:
    """Whether the unit has a means of surprise (Parachute Pack, Amphibious, Hydrojets; A47)."""
    return unit.has("parachute_pack") or unit.has("amphibious") or unit.has("hydrojets")


def unit_violations(unit: Unit) -> list[Violation]:
    """The building rules one unit breaks on its own, each with its line."""
    out: list[Violation] = []

    def bad(rule: str, message: str, ref: str) -> None:
        out.append(Violation(rule=rule, message=message, ref=ref))

    names = [w.name for w in unit.weapons]
    if len(set(names)) != len(names):
        bad("weapon-names", "two weapons share a name; give each its own", "L2365")
    sheet_carried = [w.name for w in unit.weapons if w.equip == "C"]
    for name in unit.carried:
        if name not in sheet_carried:
            bad("carried-unknown", f"'{name}' is not a carried weapon of this unit", "L431-L434")
    chosen = carried_names(unit)
    allowance = carried_allowance(unit)
    if len(chosen) > allowance:
        bad("carried-max", f"{len(chosen)} carried weapons taken; at most {allowance}", "L431, L2035-L2036")
    if unit.equipped and unit.equipped not in chosen:
        bad("equipped", f"'{unit.equipped}' is not among the carried weapons taken", "L434")
    if any(a.key in ("beam_shield", "i_field") for a in unit.abilities) and unit.beam_defence == "none":
        bad("beam-defence", "set the grade of its I-field or beam shield", "L2816-L2825")
    if unit.kind == "mobile_fighter" and unit.weapons:
        bad("fighter-ranged", "a mobile fighter takes no ranged weapons", "L1320-L1321")
    if unit.kind != "mobile_fighter" and unit.techniques:
        bad("techniques", "only a Mobile Fighter has techniques", "L1837-L1840")
    names = [w.name for w in unit.close_attacks]
    if len(set(names)) != len(names):
        bad("technique-twice", "each technique (close combat weapon) needs a name of its own", "L1837-L1840")
    if unit.command and not (unit.command_tag or unit.pilot_has("commander")):
        bad(
            "command-tag", "only a unit with the <C> tag may use the Command rule", "L1277-L1279, L2332-L2335"
        )
    if unit.pack != "none":
        has_both = any(a.key == "parachute_pack" for a in unit.abilities) and any(
            a.key == "weapon_pack" for a in unit.abilities
        )
        if not has_both:
            bad("pack", "a pack choice needs both Parachute Pack and Weapon Pack on the sheet", "L2967-L2973")
    elif any(a.key == "parachute_pack" for a in unit.abilities) and any(
        a.key == "weapon_pack" for a in unit.abilities
    ):
        bad("pack-choose", "choose Parachute Pack or Weapon Pack", "L2972, L3025-L3030")
    if unit.chobham and not unit.has("chobham"):
        bad("chobham", "Chobham Armour is chosen but the unit does not have it", "L2824-L2830")
    if unit.ambush and not ambush_means(unit):
        bad(
            "ambush-means",
            "only a unit with a means of surprise may Ambush (Parachute Pack, Amphibious, Hydrojets)",
            "L1253-L1255",
        )
    keys = [a.key for a in unit.abilities]
    if len(set(keys)) != len(keys):
        bad("ability-twice", "an ability is listed twice", "L2766")
    if unit.parts is not None:
        if unit.kind != "mobile_suit":
            bad("mega-kind", "a Mega Unit is a mobile suit built at a larger scale", "L1309-L1311")
        if unit.sd:
            bad("mega-sd", "a unit is either a Mega Unit or an SD unit", "L1309, L1352")
        if unit.armour.dice != MEGA_ARMOUR:
            bad("mega-armour", f"a Mega Unit has Armour {MEGA_ARMOUR}", "L1310")
        if unit.integrity != unit.parts.total:
            bad(
                "mega-integrity",
                f"a Mega Unit's Integrity is its parts' total: set it to {unit.parts.total}",
                "L1310-L1312",
            )
    elif unit.integrity > 12:
        bad(
            "integrity-max",
            "a unit's Integrity should be 12 at most (higher breaks morale checks)",
            "L2504-L2506",
        )
    if unit.points is not None:
        low = formula_cost(unit)
        if not low <= unit.points <= low + 50:
            bad(
                "points-formula",
                f"{unit.points} points is outside the custom-unit formula's {low} to {low + 50}",
                "L2758-L2765",
            )
    if unit.character is not None:
        p = unit.character
        if unit.kind not in ("mobile_suit", "mobile_fighter"):
            bad("pilot-kind", "characters pilot mobile suits only", "L1802")
        if p.faction and p.faction not in unit.factions:
            bad("pilot-faction", f"a {p.faction} pilot flies only units of its faction", "L1802-L1803")
        if len(set(p.traits)) != len(p.traits):
            bad("trait-twice", "a pilot has each trait at most once", "L1826")
        # A31 (house default): a trait at every even rank, a modification at ranks 3, 5, 7 and 9.
        traits = p.rank // 2 + int("jack_of_all_trades" in p.heroic_traits)
        if len(p.traits) > traits:
            bad("trait-count", f"rank {p.rank} gives {traits} trait(s) (every 2 ranks)", "L1821-L1826; A31")
        if len(p.mods) > (p.rank - 1) // 2:
            bad("mod-count", f"rank {p.rank} gives {(p.rank - 1) // 2} modification(s)", "L1828-L1832; A31")
        if len(set(p.mods)) != len(p.mods):
            bad("mod-twice", "a modification is listed twice", "L2007")
        if p.heroic_levels and p.rank < 10:
            bad("heroic-rank", "heroic levels come after rank 10", "L3208-L3211")
        if len(p.heroic_traits) + len(p.heroic_mods) > p.heroic_levels:
            bad("heroic-count", "more heroic traits and modifications than heroic levels", "L3208-L3215")
    return out


def archetype_weapon(key: str, name: str, equip: Literal["C", "M"] = "C") -> RangedWeapon:
    """A weapon built from a row of the guideline table (L2519-L2634)."""
    row = next(r for r in RANGED if r.key == key)
    tags: list[WeaponTag] = []
    if row.reload:
        tags.append(row.reload)
    if row.penetration:
        tags.append("P")
    return RangedWeapon(
        name=name,
        weapon_class=row.weapon_class,
        equip=equip,
        tags=tags,
        shots=row.shots,
        range_min=row.range_min,
        range_max=row.range_max,
        acc=row.acc,
        crit=row.crit,
        dam=row.dam,
    )


def archetype_close(key: str, name: str) -> CloseCombatWeapon:
    row = next(r for r in CLOSE if r.key == key)
    return CloseCombatWeapon(
        name=name,
        dex=row.dex,
        attack=row.attack,
        acc=row.acc,
        crit=row.crit,
        dam=row.dam,
        piercing_strike=row.piercing_strike,
    )
