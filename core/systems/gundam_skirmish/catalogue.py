"""What the book prints as data: guideline tables, abilities, traits, modifications, orders.

Mobile Suit Gundam: Skirmish (000_3e12d4cbd0c8f6da.txt) prints no roster of units
(digest A1): its only numbers for equipment are the designer's guideline tables of
the Custom Unit Creation Guide (L2425-L2765).  They are kept here as presets for the
unit form, each with its line.

Every ability, pilot trait, modification, heroic modification and order is an
entry players can pick.  ``engine`` says whether the app applies its effect in the
actions it resolves; where it does not, ``by_hand`` says why (most such effects
need geometry the app does not track: distances, facing, terrain).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

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


#: The ranged weapon guideline table (L2519-L2634).  The class of each row is the
#: digest's hint (A24): the book's table gives none.  <B> and <V> are suggestions
#: the book makes for some rows (L2512-L2516); they are listed in ``suggest_tags``.
RANGED: tuple[RangedArchetype, ...] = (
    RangedArchetype(
        key="vulcan",
        label="Vulcan guns",
        weapon_class="low_calibre",
        shots=3,
        acc=5,
        crit=None,
        dam=1,
        reload="",
        range_min=0,
        range_max=12,
        penetration=False,
        points=10,
        ref="L2528",
    ),
    RangedArchetype(
        key="low_calibre",
        label="Low calibre guns (70-110mm)",
        weapon_class="low_calibre",
        shots=3,
        acc=4,
        crit=None,
        dam=1,
        reload="",
        range_min=6,
        range_max=24,
        penetration=False,
        points=20,
        ref="L2530-L2531",
    ),
    RangedArchetype(
        key="medium_calibre",
        label="Medium calibre guns (111-130mm)",
        weapon_class="medium_calibre",
        shots=2,
        acc=4,
        crit=6,
        dam=2,
        reload="",
        range_min=6,
        range_max=24,
        penetration=False,
        points=30,
        ref="L2533-L2537",
    ),
    RangedArchetype(
        key="beam_spray",
        label="Beam spray guns, funnel and bit beams",
        weapon_class="beam",
        shots=1,
        acc=3,
        crit=5,
        dam=3,
        reload="",
        range_min=0,
        range_max=12,
        penetration=True,
        points=40,
        ref="L2539-L2544",
    ),
    RangedArchetype(
        key="low_sniper",
        label="Low calibre sniper rifles (70-130mm)",
        weapon_class="medium_calibre",
        shots=1,
        acc=3,
        crit=6,
        dam=2,
        reload="RQ",
        range_min=12,
        range_max=48,
        penetration=False,
        points=40,
        ref="L2546-L2551",
    ),
    RangedArchetype(
        key="high_sniper",
        label="High calibre sniper rifles (131-180mm)",
        weapon_class="other",
        shots=1,
        acc=3,
        crit=5,
        dam=3,
        reload="RQ",
        range_min=24,
        range_max=48,
        penetration=True,
        points=50,
        ref="L2553-L2559",
    ),
    RangedArchetype(
        key="large_beam_rifle",
        label="Large beam rifles, beam sniper rifles",
        weapon_class="beam",
        shots=1,
        acc=2,
        crit=4,
        dam=4,
        reload="RS",
        range_min=24,
        range_max=48,
        penetration=True,
        points=50,
        ref="L2561-L2566",
    ),
    RangedArchetype(
        key="beam_rifle",
        label="Beam guns, beam rifles",
        weapon_class="beam",
        shots=1,
        acc=3,
        crit=5,
        dam=3,
        reload="",
        range_min=12,
        range_max=36,
        penetration=True,
        points=50,
        ref="L2568-L2569",
    ),
    RangedArchetype(
        key="gatling",
        label="Gatling guns and cannons",
        weapon_class="low_calibre",
        shots=None,
        acc=4,
        crit=6,
        dam=1,
        reload="RQ",
        range_min=12,
        range_max=36,
        penetration=False,
        points=60,
        ref="L2571-L2577",
    ),
    RangedArchetype(
        key="gatling_beam",
        label="Gatling beams",
        weapon_class="beam",
        shots=None,
        acc=3,
        crit=5,
        dam=2,
        reload="RS",
        range_min=12,
        range_max=36,
        penetration=True,
        points=70,
        ref="L2579-L2582",
    ),
    RangedArchetype(
        key="rockets",
        label="Rockets, needle missiles, missile pods",
        weapon_class="explosive",
        shots=3,
        acc=5,
        crit=6,
        dam=2,
        reload="RQ",
        range_min=6,
        range_max=24,
        penetration=False,
        points=50,
        ref="L2584-L2589",
    ),
    RangedArchetype(
        key="missiles",
        label="Missiles, torpedoes",
        weapon_class="explosive",
        shots=2,
        acc=4,
        crit=5,
        dam=3,
        reload="RQ",
        range_min=12,
        range_max=36,
        penetration=True,
        points=60,
        ref="L2591-L2594",
    ),
    RangedArchetype(
        key="bazooka",
        label="Bazookas (200-300mm)",
        weapon_class="explosive",
        shots=1,
        acc=3,
        crit=5,
        dam=4,
        reload="RQ",
        range_min=12,
        range_max=36,
        penetration=True,
        points=80,
        ref="L2596-L2599",
    ),
    RangedArchetype(
        key="beam_cannon",
        label="Mega particle and beam cannons",
        weapon_class="beam",
        shots=1,
        acc=3,
        crit=5,
        dam=4,
        reload="RS",
        range_min=12,
        range_max=36,
        penetration=True,
        points=70,
        ref="L2601-L2606",
    ),
    RangedArchetype(
        key="hyper_bazooka",
        label="Bazookas over 300mm (hyper, giant)",
        weapon_class="explosive",
        shots=1,
        acc=2,
        crit=4,
        dam=5,
        reload="RS",
        range_min=12,
        range_max=36,
        penetration=True,
        points=90,
        ref="L2608-L2634",
    ),
    RangedArchetype(
        key="beam_bazooka",
        label="Beam bazookas and launchers",
        weapon_class="beam",
        shots=1,
        acc=2,
        crit=4,
        dam=6,
        reload="RS",
        range_min=18,
        range_max=48,
        penetration=True,
        points=90,
        ref="L2608-L2634",
    ),
)

#: Rows for which the book suggests the Blast tag (L2512-L2514) or the Volley tag (L2515-L2516).
SUGGEST_BLAST = frozenset({"missiles", "bazooka", "hyper_bazooka", "beam_bazooka", "beam_cannon"})


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


CLOSE: tuple[CloseArchetype, ...] = (
    CloseArchetype(
        key="unarmed",
        label="Unarmed, fists",
        dex=0,
        attack=1,
        acc=4,
        crit=6,
        dam=2,
        piercing_strike=False,
        points=0,
        ref="L2643",
    ),
    CloseArchetype(
        key="claws",
        label="Claws, spikes, nails",
        dex=1,
        attack=1,
        acc=3,
        crit=4,
        dam=4,
        piercing_strike=True,
        points=20,
        ref="L2645-L2646",
    ),
    CloseArchetype(
        key="lance",
        label="Lances, spears, maces, hammers",
        dex=0,
        attack=1,
        acc=3,
        crit=5,
        dam=3,
        piercing_strike=True,
        points=20,
        ref="L2648-L2649",
    ),
    CloseArchetype(
        key="heat_hawk",
        label="Heat hawks, metal blades",
        dex=3,
        attack=2,
        acc=4,
        crit=6,
        dam=3,
        piercing_strike=False,
        points=30,
        ref="L2651-L2652",
    ),
    CloseArchetype(
        key="heat_blade",
        label="Heat blades, heat rods",
        dex=2,
        attack=2,
        acc=3,
        crit=5,
        dam=3,
        piercing_strike=False,
        points=40,
        ref="L2654-L2655",
    ),
    CloseArchetype(
        key="beam_saber",
        label="Beam sabres, beam blades",
        dex=2,
        attack=2,
        acc=3,
        crit=4,
        dam=4,
        piercing_strike=False,
        points=50,
        ref="L2657-L2658",
    ),
)

#: The temporary weapon of a unit with none, in close combat (L1063-L1066, L2643).
UNARMED = CLOSE[0]


class ShieldGrade(BaseModel):
    """A shield type: bonus dice, their success number, shield integrity, points (L804-L853, L2659-L2724)."""

    model_config = ConfigDict(frozen=True)

    dice: int
    success: int
    integrity: int
    points: int
    ref: str


SHIELDS: dict[str, ShieldGrade] = {
    "light": ShieldGrade(dice=1, success=6, integrity=2, points=20, ref="L2670-L2676, L2762"),
    "medium": ShieldGrade(dice=2, success=5, integrity=3, points=40, ref="L2677-L2684, L2762"),
    "heavy": ShieldGrade(dice=3, success=4, integrity=4, points=60, ref="L2685-L2692, L2763"),
    "super_heavy": ShieldGrade(dice=4, success=3, integrity=5, points=80, ref="L2693-L2700, L2763"),
}

#: I-field, GN field and beam shield grades: bonus dice against Beam weapons and their success
#: number (L666-L674).  Super Heavy succeeds on 4+ as printed (digest A4: possibly a typo).
BEAM_DEFENCE: dict[str, tuple[int, int]] = {
    "light": (1, 6),
    "medium": (2, 5),
    "heavy": (3, 4),
    "super_heavy": (4, 4),
}


class ArmourRow(BaseModel):
    """One armour material and the value it gives (L2452-L2497)."""

    model_config = ConfigDict(frozen=True)

    era: Literal["one_year_war", "later_uc", "cosmic_era"]
    material: str
    dice: int
    success: int
    ref: str


#: Armour value n always gives n dice; the success number by value (L2452-L2497).
ARMOUR_SUCCESS = {1: 6, 2: 5, 3: 4, 4: 3, 5: 3}

ARMOUR: tuple[ArmourRow, ...] = tuple(
    ArmourRow(era=era, material=material, dice=value, success=ARMOUR_SUCCESS[value], ref=ref)
    for era, ref, materials in (
        (
            "one_year_war",
            "L2458-L2466",
            (
                "Steel",
                "Super-hard steel",
                "Titanium composite or alloy",
                "Gundarium, lunar titanium",
                "Abnormally tough",
            ),
        ),
        (
            "later_uc",
            "L2468-L2480",
            (
                "Steel, super-hard steel",
                "Titanium composite or alloy",
                "Gundarium alpha or beta",
                "Gundarium gamma",
                "Gundarium delta or stronger",
            ),
        ),
        (
            "cosmic_era",
            "L2482-L2497",
            ("Non-phase shift", "Phase shift", "Trans phase", "Variable phase shift", "Stronger armours"),
        ),
    )
    for value, material in enumerate(materials, start=1)
)


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


FREE = "the player decides when it applies: use Shoot with 'free' ticked"
GEO = "it depends on distances or positions on the table, which the app does not track"


def _e(
    key: str, name: str, kind: str, ref: str, help: str, by_hand: str = "", param: str = "", cp: int = 0
) -> Entry:
    return Entry(
        key=key,
        name=name,
        kind=kind,
        ref=ref,
        help=help,
        engine=not by_hand,
        by_hand=by_hand,
        param=param,
        cp=cp,
    )


#: The generalised abilities (L2766-L3030).  Help texts are our own summaries.
ABILITIES: tuple[Entry, ...] = (
    _e(
        "afterburner",
        "Afterburner",
        "active",
        "L2770-L2775",
        "Move and Boost become X; from then on each Move or Boost first risks 2 self-damage on 3+.",
        by_hand="movement is measured on the table; roll the D6 with the dice tool",
        param="Move/Boost",
    ),
    _e(
        "aircraft",
        "Aircraft",
        "passive",
        "L2777-L2780",
        "Counts as an Air Unit outside space (the book prints it as Active; digest A27).",
        by_hand=GEO,
    ),
    _e(
        "amphibious",
        "Amphibious",
        "passive",
        "L2782-L2786",
        "No water movement penalties, may enter deep water, may Ambush from water.",
        by_hand="terrain is on the table; mark the unit eligible to Ambush in the game",
    ),
    _e(
        "blitzkrieg",
        "Blitzkrieg / Hunter",
        "passive",
        "L2788-L2793",
        "A kill with weapon X earns one free Shoot with it.",
        param="weapon",
        by_hand=FREE,
    ),
    _e(
        "anti_beam_coating",
        "Anti-Beam Coating",
        "passive",
        "L2795-L2799",
        "Beam shots deal 1 less damage in total.",
    ),
    _e(
        "beam_flayer",
        "Beam Flayer",
        "passive",
        "L2801-L2805",
        "In close combat each hit showing 6 adds one attack die (at most 2).",
    ),
    _e(
        "beam_jitte",
        "Beam Jitte",
        "passive",
        "L2807-L2814",
        "Opponents roll Advantage with DEX +0 and attack with 1 die.",
    ),
    _e(
        "beam_shield",
        "Beam Shield",
        "passive",
        "L2816-L2822",
        "Beam-defence dice against Beam weapons (set its grade in Beam defence).",
    ),
    _e(
        "chobham",
        "Chobham Armour",
        "passive",
        "L2824-L2830",
        "If chosen at the start: Armour 5 on 3+, Integrity 12, Move and Boost become X.",
        param="Move/Boost",
    ),
    _e(
        "core_block",
        "Core Block System",
        "passive",
        "L2832-L2838",
        "At 0 Integrity roll a D6: on 4+ the pilot escapes and no Destruction roll is made.",
    ),
    _e(
        "deploy_funnels",
        "Deploy Funnels/Bits",
        "passive",
        "L2840-L2846",
        'In Upkeep, once per battle, place X funnels or bits within 6" (digest A27, A53).',
        by_hand="funnels have no stats in the book; add them as units of their own",
        param="how many",
    ),
    _e(
        "dig_in",
        "Dig in!",
        "active",
        "L2848-L2854",
        "Cannot be shot and is outside close combat range; no other actions until switched off.",
    ),
    _e(
        "energy_siphon",
        "Energy Siphon",
        "passive",
        "L2856-L2860",
        'With friendly unit X within 6", weapon X needs a Quick Reload instead of a Slow one.',
        by_hand=GEO,
        param="unit, weapon",
    ),
    _e(
        "extra_tank",
        "Extra Tank",
        "active",
        "L2862-L2866",
        "Once per battle: the next Boost is followed by a free Boost.",
    ),
    _e(
        "fire_support",
        "Fire Support",
        "passive",
        "L2868-L2873",
        "Weapon X fires 2 shots at one target or 1 shot at each of two.",
        param="weapon",
        by_hand="shoot twice with weapon X, the second Shoot marked free",
    ),
    _e(
        "flight_mode",
        "Flight Mode",
        "active",
        "L2875-L2882",
        "Toggle: Move/Boost become X, Air Unit, no Shield Bonus, only weapon X fires.",
        param="Move/Boost, weapon",
    ),
    _e(
        "grapple_hook",
        "Grapple Hook",
        "active",
        "L2883-L2887",
        'Enemy within 12": on 5+ it takes no actions in its next turn.',
    ),
    _e(
        "heat_radiation",
        "Heat Radiation",
        "passive",
        "L2889-L2894",
        "Weapon X may add dice to a Shoot, 1 self-damage per die added.",
        param="weapon",
    ),
    _e(
        "heat_rod",
        "Heat Rod",
        "active",
        "L2896-L2900",
        'Enemy within 12": on 5+ it cannot use carried weapons in its next turn.',
    ),
    _e(
        "heat_wire",
        "Heat Wire",
        "active",
        "L2902-L2906",
        'Enemy within 12": on 5+ it takes no actions in its next turn.',
    ),
    _e(
        "hit_and_run",
        "Hit & Run",
        "passive",
        "L2908-L2912",
        "After a Shoot that deals damage: one free Boost.",
        by_hand=GEO,
    ),
    _e("hydrojets", "Hydrojets", "passive", "L2914-L2917", "Ambush needs no roll."),
    _e(
        "i_field",
        "I-Field / GN Field",
        "passive",
        "L2919-L2925",
        "Beam-defence dice against Beam weapons (set its grade in Beam defence).",
    ),
    _e(
        "limited_armament",
        "Limited Armament",
        "passive",
        "L2927-L2935",
        "Carried weapons must be one of two listed loadouts.",
        by_hand="pick the carried weapons of one listed loadout",
        param="loadouts",
    ),
    _e(
        "massed_fire",
        "Massed Fire",
        "passive",
        "L2937-L2941",
        '+1 shot with weapon X per unit of the same name within 6" (at most +2).',
        param="weapon",
    ),
    _e(
        "mighty_shield",
        "Mighty Shield",
        "passive",
        "L2943-L2950",
        "Once per battle a Shield Break against a critical keeps the shield.",
    ),
    _e(
        "movable_frame",
        "Movable Frame",
        "passive",
        "L2952-L2956",
        "An attack of 3 or more damage: D6, 4+ negates 2, otherwise 1.",
    ),
    _e("obsolete", "Obsolete", "passive", "L2958-L2962", "Before each action a D6: a 6 makes it fail."),
    _e(
        "panoramic_cockpit",
        "Panoramic Cockpit",
        "passive",
        "L2964-L2965",
        "Attackers get no Flanking bonus against it.",
    ),
    _e(
        "parachute_pack",
        "Parachute Pack",
        "passive",
        "L2967-L2973",
        "Take this or Weapon Pack; this one lets the unit Ambush.",
    ),
    _e(
        "poor_balance",
        "Poor Balance",
        "passive",
        "L2975-L2979",
        "Before firing weapon X a D6: on 5+ it takes 1 damage.",
        param="weapon",
    ),
    _e("red_comet", "Red Comet", "passive", "L2981-L2985", "After a Boost, on 5+ one more Boost (once)."),
    _e(
        "scatter_beam",
        "Scatter Beam / Smoke Launcher",
        "active",
        "L2987-L2993",
        'Enemy within 12": on 4+ its accuracy is 5+ in its next turn.',
    ),
    _e(
        "scout",
        "Scout",
        "passive",
        "L2995-L3000",
        'Shots made within 12" of it gain <P>; 360 degree sight.',
        by_hand=GEO,
    ),
    _e("solid_defence", "Solid Defence", "passive", "L3001-L3005", "May re-roll the Shield Bonus dice once."),
    _e("tank", "Tank", "passive", "L3007-L3010", "360 degree sight and fire.", by_hand=GEO),
    _e(
        "troop_carrier",
        "Troop Carrier",
        "active",
        "L3012-L3018",
        'Carries one friendly unit of type X; unloads it within 6" next activation.',
        by_hand=GEO,
        param="type",
    ),
    _e("unwieldly", "Unwieldly", "passive", "L3020-L3023", "Rotation penalties are doubled.", by_hand=GEO),
    _e(
        "weapon_pack",
        "Weapon Pack",
        "passive",
        "L3025-L3030",
        "Take this or Parachute Pack; this one allows 3 carried weapons.",
    ),
)

TRAITS: tuple[Entry, ...] = (
    _e("ambusher", "Ambusher", "trait", "L1960", "Ambush needs no roll."),
    _e("controlled_aim", "Controlled Aim", "trait", "L1962", "Two Damage Chart rolls per critical hit."),
    _e(
        "fierce",
        "Fierce",
        "trait",
        "L1964-L1966",
        "A Shoot that destroys earns one free Shoot with that weapon.",
        by_hand=FREE,
    ),
    _e(
        "fortunate",
        "Fortunate",
        "trait",
        "L1968-L1969",
        "May re-roll each Damage Chart and Destruction roll against its own unit once.",
    ),
    _e("gallant", "Gallant", "trait", "L1971-L1973", "Never Falls Back; its opponent does."),
    _e("leader", "Leader", "trait", "L1975-L1976", "In a Command unit: 2 Command Points a turn."),
    _e(
        "mechanic",
        "Mechanic",
        "trait",
        "L1978-L1979",
        "Slow action once per battle: remove one damage level.",
    ),
    _e(
        "merciful",
        "Merciful",
        "trait",
        "L1981-L1983",
        "Once per battle give up one attack's damage to restore 2 Integrity.",
        by_hand="undo the attack and adjust Integrity; the app tracks the once-per-battle use",
    ),
    _e("newtype", "Newtype", "trait", "L1985-L1986", "360 degree sight.", by_hand=GEO),
    _e(
        "rash", "Rash", "trait", "L1988-L1990", "Must charge; wins Advantage after its charge; +1 attack die."
    ),
    _e(
        "responsive",
        "Responsive",
        "trait",
        "L1992-L1994",
        "Once per enemy turn, a free Shoot when an enemy comes into range.",
        by_hand=GEO,
    ),
    _e("stoic", "Stoic", "trait", "L1996-L1997", "Passes every Morale check; ignores Terrifying."),
    _e("swift", "Swift", "trait", "L1999-L2000", "Always has Advantage unless the opponent is Swift too."),
    _e(
        "terrifying",
        "Terrifying",
        "trait",
        "L2002-L2003",
        "Enemies coming into its sight for the first time check morale.",
        by_hand="sight is on the table: use the Morale check action when it happens (digest A44, A52)",
    ),
)

MODS: tuple[Entry, ...] = (
    _e(
        "amphibious",
        "Amphibious",
        "mod",
        "L2010-L2012",
        "Gains the Amphibious ability.",
        by_hand="terrain is on the table",
    ),
    _e("anti_beam_coating", "Anti-Beam Coating", "mod", "L2014-L2016", "Beam shots deal 1 less damage."),
    _e(
        "heavy_plating",
        "Heavy Plating",
        "mod",
        "L2017-L2019",
        "Low and Medium Calibre shots deal 1 less damage.",
    ),
    _e(
        "improved_optics",
        "Improved Optics",
        "mod",
        "L2021-L2022",
        '+6" to the upper range of its weapons (digest A23).',
        by_hand="answer the range question with each band's top 6\" higher",
    ),
    _e("magnetic_coating", "Magnetic Coating", "mod", "L2024-L2025", "No rotation penalties.", by_hand=GEO),
    _e("optimised_thrusters", "Optimised Thrusters", "mod", "L2026-L2027", '+2" Move, +4" Boost.'),
    _e("reactive_armour", "Reactive Armour", "mod", "L2028-L2031", "Explosive shots deal 1 less damage."),
    _e("reinforced_endoskeleton", "Reinforced Endoskeleton", "mod", "L2033-L2034", "+2 Integrity."),
    _e("weapon_pack", "Weapon Pack", "mod", "L2035-L2036", "3 carried weapons."),
)

HEROIC_MODS: tuple[Entry, ...] = (
    _e(
        "trans_am",
        "Trans-Am",
        "heroic_mod",
        "L3218-L3224",
        "In its first 3 turns: double Move and Boost, +2 damage (digest A39).",
    ),
    _e("i_field", "I-Field", "heroic_mod", "L3226-L3230", "An I-Field whose grade follows the Armour value."),
    _e(
        "full_burst",
        "Full Burst Mode",
        "heroic_mod",
        "L3232-L3238",
        "Slow action once per turn: fire every available ranged weapon.",
        by_hand="fire each weapon with a Shoot; the app counts the action",
    ),
    _e(
        "yata_no_kagami",
        "Yata no Kagami Coating",
        "heroic_mod",
        "L3240-L3253",
        "Against a Beam shot that hits: D6, 4-5 removes all hits, 6 also fires them back.",
        by_hand="roll it with the dice tool before the defence and answer 'no hits' when it succeeds",
    ),
    _e(
        "exam",
        "EXAM System",
        "heroic_mod",
        "L3255-L3265",
        "Rash at half Integrity or less; at 0 Integrity, 5+ returns it to half.",
    ),
    _e("panoramic_cockpit", "Panoramic Cockpit", "heroic_mod", "L3267", "Attackers get no Flanking bonus."),
    _e("full_armour", "Full Armour Modification", "heroic_mod", "L3269", "+1 Armour die (digest A50)."),
)

HEROIC_TRAITS: tuple[Entry, ...] = (
    _e("jack_of_all_trades", "Jack of all trades", "heroic_trait", "L3275", "One more ordinary trait."),
    _e(
        "elusive",
        "Elusive",
        "heroic_trait",
        "L3277-L3283",
        "Before any attack but an Aimed Shot, a 6 on a D6 ignores it.",
    ),
    _e(
        "veteran",
        "Veteran",
        "heroic_trait",
        "L3285-L3286",
        "Re-roll one failed attack die when no other re-roll applies (digest A42).",
    ),
    _e(
        "impenetrable",
        "Impenetrable",
        "heroic_trait",
        "L3288-L3289",
        "Re-roll one failed defend die when no other re-roll applies (digest A42).",
    ),
    _e("reckless", "Reckless", "heroic_trait", "L3291-L3292", "+2 close combat dice; Armour -1 for good."),
    _e("flanker", "Flanker", "heroic_trait", "L3294-L3298", "Always counts as flanking unless cancelled."),
    _e("commander", "Commander", "heroic_trait", "L3300", "The unit gains the <C> tag."),
)

ORDERS: tuple[Entry, ...] = (
    _e(
        "bring_them_down",
        "Bring Them Down!",
        "order",
        "L1419-L1426",
        "One own unit's attacks gain <P> for the rest of the turn.",
        cp=1,
    ),
    _e(
        "concentrate_fire",
        "Concentrate Fire",
        "order",
        "L1428-L1440",
        "For the rest of the turn every enemy counts as flanked by your shots.",
        cp=3,
    ),
    _e(
        "colony_laser",
        "Colony Laser",
        "order",
        "L1441-L1454",
        "Every unit in one table quarter: 1-4 on a D6 takes 6 damage (Titans or Principality of Zeon only).",
        by_hand="the quarter is on the table: roll for each unit and adjust its damage",
        cp=10,
    ),
    _e(
        "double_time",
        "Double Time!",
        "order",
        "L1455-L1468",
        "One unit ignores Difficult terrain until its next turn.",
        by_hand=GEO,
        cp=1,
    ),
    _e(
        "field_repair",
        "Field Repair",
        "order",
        "L1469-L1477",
        "One unit takes no actions this turn and regains up to 2 Integrity.",
        cp=2,
    ),
    _e(
        "get_to_cover",
        "Get to cover!",
        "order",
        "L1478-L1490",
        "In the opponent's next turn your Unobstructed units count as In Cover.",
        cp=3,
    ),
    _e("infiltrate", "Infiltrate", "order", "L1491-L1500", "One reserve unit Ambushes without a roll.", cp=2),
    _e("resupply", "Resupply", "order", "L1501-L1514", "Every weapon of one unit is reloaded.", cp=2),
    _e(
        "we_have_reserves",
        "We have reserves",
        "order",
        "L1515-L1523",
        "A destroyed unit of 200 points or less returns in your deployment zone.",
        cp=4,
    ),
    _e(
        "withdraw",
        "Withdraw",
        "order",
        "L1524-L1534",
        "Remove one own unit and its pilot from play; costs half its base Integrity, rounded up.",
        cp=0,
    ),
)

ALL_ENTRIES: dict[str, dict[str, Entry]] = {
    "ability": {e.key: e for e in ABILITIES},
    "trait": {e.key: e for e in TRAITS},
    "mod": {e.key: e for e in MODS},
    "heroic_mod": {e.key: e for e in HEROIC_MODS},
    "heroic_trait": {e.key: e for e in HEROIC_TRAITS},
    "order": {e.key: e for e in ORDERS},
}
