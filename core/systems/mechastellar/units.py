"""A MechaStellar unit as the players write it down (003_9a8631fd8c2279be.txt).

The rulebook prints no stat blocks, points or weapon tables (digest section 0): every number
here is what the rules read, entered by the players.  The stats and where the rules read them:
Move (L48), Sensors (L12, L102), Evade (L136), Shooting Accuracy (L139), Melee dice (L199),
HP (L512), ARM Sv (L223), Size (L84-L87, L550), Actions (L26), Power for Super Titans
(L157-L167), Frame Level (L312, L698), roles (L42, L113, L352, L362) and the pilot's tier with
its traits (L274, L368).  Points are the players' own (the book gives none, digest section 3).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from core.systems.base import Closed, Violation

Kind = Literal["mobile_suit", "super_titan", "kaiju", "vehicle", "warship"]
KIND_LABELS: dict[str, str] = {
    "mobile_suit": "Mobile suit",
    "super_titan": "Super Titan",
    "kaiju": "Kaiju",
    "vehicle": "Vehicle",
    "warship": "Stellar Warship",
}
Role = Literal[
    "sniper", "firepower", "assault", "heavy_arms", "battler", "interceptor", "melee", "indomitable"
]
Tier = Literal["basic", "skilled", "ace"]
Sortie = Literal["any", "ground", "space"]
#: The sortie tags (L862): [G] never sorties in space, [S] never on the ground.
SORTIE_LABELS: dict[str, str] = {"any": "Either", "ground": "[G] ground only", "space": "[S] space only"}
TIER_LABELS = {"basic": "Basic", "skilled": "Skilled (Tier 1)", "ace": "Ace (Tier 2)"}
Shield = Literal["none", "shield", "great_shield", "melee_shield", "light_shield"]
SHIELD_LABELS = {
    "none": "None",
    "shield": "Shield",
    "great_shield": "Great Shield",
    "melee_shield": "Melee Shield",
    "light_shield": "Light Shield",
}
#: Blocks against one shooting weapon, and the extra against a PEN 0 weapon (L231-L234).
SHOOTING_BLOCKS: dict[str, tuple[int, int]] = {
    "none": (0, 0),
    "shield": (1, 1),
    "great_shield": (2, 2),
    "melee_shield": (0, 0),
    "light_shield": (1, 0),
}
#: Blocks in the Melee Clash (L207, L211, L233, L526; digest ambiguity 12).
MELEE_BLOCKS: dict[str, int] = {
    "none": 0,
    "shield": 1,
    "great_shield": 2,
    "melee_shield": 1,
    "light_shield": 0,
}

#: Pilot traits the engine applies, by key: (name, tier) (L370-L475).  Others are kept by name.
TRAITS: dict[str, tuple[str, int]] = {
    "renowned": ("Renowned / Inspiring Pilot", 1),
    "seasoned_veteran": ("Seasoned Veteran", 1),
    "headhunter": ("Headhunter", 1),
    "defiant": ("Defiant / Hot Blooded", 1),
    "fighting_spirit": ("Fighting Spirit", 1),
    "noble": ("Noble", 1),
    "immortal": ("Immortal / Daredevil", 1),
    "untouchable": ("Untouchable / Cunning Pilot", 1),
    "elusive": ("Elusive / Cool Under Fire", 1),
    "gunnery_expert": ("Gunnery Expert / Marksman", 1),
    "close_combat_expert": ("Close Combat Expert", 1),
    "mechanics_expert": ("Mechanics Expert", 1),
    "lone_wolf": ("Lone Wolf", 1),
    "furious_fusillade": ("Furious Fusillade", 2),
    "merciless_melee": ("Merciless Melee", 2),
    "close_combat_master": ("Close Combat Master", 2),
    "killer_instinct": ("Killer Instinct", 2),
    "fearsome": ("Fearsome / Mastermind", 2),
    "heroic_spirit": ("Heroic Spirit", 2),
    "prodigy": ("Prodigy / Genius Pilot", 2),
    "legendary": ("Legendary Pilot / War Hero", 2),
}
TraitKey = Literal[
    "renowned",
    "seasoned_veteran",
    "headhunter",
    "defiant",
    "fighting_spirit",
    "noble",
    "immortal",
    "untouchable",
    "elusive",
    "gunnery_expert",
    "close_combat_expert",
    "mechanics_expert",
    "lone_wolf",
    "furious_fusillade",
    "merciless_melee",
    "close_combat_master",
    "killer_instinct",
    "fearsome",
    "heroic_spirit",
    "prodigy",
    "legendary",
]
#: Warship captains' traits the engine applies, by key: (name, tier) (L1037-L1086).
CAPTAIN_TRAITS: dict[str, tuple[str, int]] = {
    "renowned_captain": ("Renowned / Inspiring Captain", 1),
    "discerning": ("Discerning / Crafty Captain", 1),
    "daring": ("Daring / Brash Captain", 1),
    "determined": ("Determined Captain / Steadfast Crew", 1),
    "expert_gunnery": ("Expert Gunnery Crew", 1),
    "expert_engineering": ("Expert Engineering Division", 1),
    "legendary_captain": ("Legendary Captain / War Hero", 2),
    "fearless_captain": ("Fearless / Stoic Captain", 2),
    "sharp_witted": ("Sharp Witted / Wiley Captain", 2),
    "fearsome_captain": ("Fearsome / Dreaded Captain", 2),
}
CaptainTrait = Literal[
    "renowned_captain",
    "discerning",
    "daring",
    "determined",
    "expert_gunnery",
    "expert_engineering",
    "legendary_captain",
    "fearless_captain",
    "sharp_witted",
    "fearsome_captain",
]
CommanderTrait = Literal[
    "none",
    "unyielding",
    "three_times_as_fast",
    "commando",
    "vigilant_leader",
    "bold_leader",
    "impressive_skill",
    "galvanizing_display",
    "rallying_leader",
    "resourceful",
    "decimator",
]


class Weapon(Closed):
    """One weapon system (L89-L93, L153, L174-L175, L517, L557, L573-L600)."""

    name: str = Field(min_length=1, max_length=40, description="What the players call it.")
    kind: Literal["shooting", "melee", "cc"] = Field(
        default="shooting",
        description="Shooting; a melee weapon used in the Melee Clash; or Close Combat [CC] (fists, kicks: "
        "no armour penetration, L557).",
    )
    range: int = Field(default=24, ge=0, le=200, description="Maximum effective range in inches (L91).")
    shots: int = Field(default=1, ge=0, le=10, description="Shots: evade dice the target rolls (L134).")
    rapid_fire: int = Field(
        default=0, ge=0, le=10, description="Extra shots within half range (RF+X, L92-L93)."
    )
    damage: int = Field(default=200, ge=0, le=10000, multiple_of=100, description="Damage per hit (L149).")
    pen: int = Field(default=0, ge=0, le=20, description="Armour penetration; 0: no Armor Saves (L218-L225).")
    overwatch: int = Field(
        default=0, ge=0, le=10, description="Overwatch shots at a charging enemy (L174-L175)."
    )
    atk_dice: int = Field(
        default=0, ge=0, le=10, description="Dice it adds to the clash's attack (L188, L517)."
    )
    def_dice: int = Field(default=0, ge=0, le=10, description="Dice it adds to the clash's defense (L188).")
    reroll: list[int] = Field(
        default_factory=list, max_length=10, description="Attack faces rolled again in the clash (L517)."
    )
    power: int = Field(default=0, ge=0, le=30, description="Power a Super Titan assigns to use it (L159).")
    indirect: Literal["none", "artillery", "remote"] = Field(
        default="none", description="Indirect fire: artillery (L102-L104) or a remote weapon (L591-L600)."
    )
    energy: bool = Field(default=False, description="A beam or energy weapon (L639-L644).")
    stun: bool = Field(default=False, description="Each hit takes away an action (L573-L577).")
    aoe: int = Field(default=0, ge=0, le=20, description="Width of its line template in inches (L583-L585).")
    aa: bool = Field(
        default=False,
        description="A warship's anti-air [AA] weapon: readied from the start, fired only at targets within "
        '8" of an ally (L968, L982-L983).',
    )
    missile: bool = Field(
        default=False,
        description="Missiles or rockets (Missile Screen!, L833); a warship's missiles are readied from the "
        "start (L968).",
    )
    reload: int = Field(
        default=0,
        ge=0,
        le=5,
        description="Rounds a warship's weapon reloads after firing, still readied (L969-L970).",
    )


class Pilot(Closed):
    """Who flies it: a tier and the traits that tier allows (L274, L368)."""

    name: str = Field(
        default="", max_length=40, description="The pilot's name (Revenge names a pilot, L569)."
    )
    tier: Tier = Field(default="basic", description="Basic, Skilled (Tier 1) or Ace (Tier 2).")
    traits: list[TraitKey] = Field(
        default_factory=list, max_length=2, description="Exceptional pilot traits."
    )


class Unit(Closed):
    """A unit's profile: every stat the rules read."""

    name: str = Field(min_length=1, max_length=40, description="The unit's name.")
    kind: Kind = Field(default="mobile_suit", description="What kind of unit it is.")
    points: int = Field(default=100, ge=0, le=5000, description="Its points, as your group rates it.")
    frame: int = Field(default=1, ge=1, le=10, description="Frame Level (L312, L698).")
    size: int = Field(default=1, ge=0, le=3, description="Size 0-3, Colossal 3 (L84-L87, L861).")
    move: int = Field(default=12, ge=0, le=60, description="Move in inches (L48).")
    sensors: int = Field(default=16, ge=0, le=100, description="Sensors in inches (L12).")
    evade: int = Field(default=3, ge=0, le=10, description="Evade bonus (L136).")
    accuracy: int = Field(default=8, ge=1, le=15, description="Shooting Accuracy (L139).")
    melee: int = Field(default=5, ge=0, le=20, description="Melee dice (L199).")
    hp: int = Field(default=3000, ge=100, le=100000, multiple_of=100, description="Hit points (L512).")
    save: int = Field(default=0, ge=0, le=10, description="ARM Sv: armour save bonus (L223).")
    actions: int = Field(default=1, ge=1, le=5, description="Actions each turn (L26).")
    power: int = Field(default=0, ge=0, le=30, description="Power (Super Titans, L157-L167).")
    hangar: int = Field(default=0, ge=0, le=40, description="Hangar slots (Stellar Warships, L860).")
    aa_def: int = Field(default=0, ge=0, le=20, description="AA DEF dice (Stellar Warships, L954).")
    roles: list[Role] = Field(default_factory=list, max_length=8, description="Battlefield roles.")
    shield: Shield = Field(default="none", description="Its shield (L228-L234).")
    shield_power: int = Field(
        default=0, ge=0, le=30, description="Power a Super Titan pays to use it (L230)."
    )
    weapons: list[Weapon] = Field(default_factory=list, max_length=12, description="Its weapon systems.")
    pilot: Pilot = Field(default_factory=Pilot, description="Its pilot (or Kaiju tier, or captain).")
    captain: list[CaptainTrait] = Field(
        default_factory=list,
        max_length=2,
        description="A Stellar Warship's captain traits: Skilled Captain one Tier I, Battle Hardened (the "
        "Ace tier) two Tier I or one Tier II (L1039).",
    )
    commander: CommanderTrait = Field(
        default="none", description="Commander trait, if this unit is the force's Commander (L477-L497)."
    )
    sortie: Sortie = Field(
        default="any",
        description="Its sortie tag: [G] cannot sortie in space, [S] cannot sortie on the ground (L862).",
        json_schema_extra={
            "x-labels": {"any": "Either", "ground": "[G] ground only", "space": "[S] space only"}
        },
    )


#: The trait tiers a pilot of each rank may carry, sorted (L368).
ALLOWED_TRAIT_TIERS: dict[int, list[list[int]]] = {0: [[]], 1: [[], [1]], 2: [[], [1], [1, 1], [2]]}


def tier_rank(unit: Unit) -> int:
    """0 Basic, 1 Skilled, 2 Ace (Kaiju: Dreadful 1, Unstoppable 2, digest ambiguity 39)."""
    return {"basic": 0, "skilled": 1, "ace": 2}[unit.pilot.tier]


def captain(unit: Unit, trait: str) -> bool:
    """A warship whose captain has ``trait`` (L1037-L1086)."""
    return unit.kind == "warship" and trait in unit.captain


def total_actions(unit: Unit) -> int:
    """Actions a turn: the profile's, +1 for the Assault role (L504, L531) and Impressive Skill (L493)."""
    return unit.actions + ("assault" in unit.roles) + (unit.commander == "impressive_skill")


def unit_violations(unit: Unit) -> list[Violation]:
    """What the book forbids of one unit: pilot traits beyond its tier (L368)."""
    out: list[Violation] = []
    tiers = [TRAITS[t][1] for t in unit.pilot.traits]
    rank = tier_rank(unit)
    allowed = ALLOWED_TRAIT_TIERS[rank]
    if sorted(tiers) not in allowed:
        out.append(
            Violation(
                rule="pilot-traits",
                message="a Skilled pilot has one Tier I trait; an Ace two Tier I traits or one Tier II; "
                "a Basic pilot none",
                ref="L368",
            )
        )
    if unit.captain and unit.kind != "warship":
        out.append(Violation(rule="captain", message="captain traits are for Stellar Warships", ref="L1039"))
    elif sorted(CAPTAIN_TRAITS[t][1] for t in unit.captain) not in allowed:
        out.append(
            Violation(
                rule="captain-traits",
                message="a Skilled Captain has one Tier I trait; a Battle Hardened Captain two Tier I traits "
                "or one Tier II; a Basic captain none",
                ref="L1039",
            )
        )
    if unit.kind == "super_titan" and unit.power == 0 and any(w.power for w in unit.weapons):
        out.append(Violation(rule="titan-power", message="its powered weapons need a Power stat", ref="L159"))
    if unit.commander in ("commando",) and unit.size >= 2:
        out.append(Violation(rule="commando-size", message="Commando is not for Size 2+ units", ref="L490"))
    return out
