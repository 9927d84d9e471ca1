"""GUNFRAME's lists: frames, upgrades, power attacks and the book's example units.

The 58 example units are data, in ``example_units.json`` beside this module (each
row as the book prints it, with its line), read and validated at import.

Every entry carries its rulebook line (``"L2298"`` is line 2298 of
``001_c60598db3e91d492.txt``) and a one-line summary in this project's own
words.  The order of :data:`UPGRADES` is part of the share-link format
(:func:`core.systems.gunframe.building.pack`): append new entries, never
reorder.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.systems.base import CatalogueUnit
from core.systems.data import load

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


# --- upgrades (L2262-2466, bonus L92) ----------------------------------------------


@dataclass(frozen=True)
class UpgradeDef:
    """One upgrade: 1 point per purchase (L2194)."""

    id: str
    name: str
    category: Literal["pilot", "frame", "loadout"]
    ref: str
    summary: str
    #: Frame values or weapon systems it may sit on (empty for pilot upgrades).
    slots: tuple[Slot, ...] = ()
    unique: bool = False  # marked * (L2284)
    linked: bool = False  # [Linked] (L2278)
    stackable: bool = False  # (N) (L2288)
    optional: bool = False  # [Optional] (L2294)
    note: str = ""

    @property
    def restricted(self) -> bool:
        """A loadout upgrade limited to some weapon systems, e.g. "Long only" (L2272)."""
        return self.category == "loadout" and len(self.slots) < len(WEAPONS)


def _pilot(id_: str, name: str, ref: str, summary: str, **kw: Any) -> UpgradeDef:
    return UpgradeDef(id_, name, "pilot", ref, summary, **kw)


def _frame(id_: str, name: str, slots: str, ref: str, summary: str, **kw: Any) -> UpgradeDef:
    names = {"S": "speed", "D": "defense", "A": "armour"}
    return UpgradeDef(id_, name, "frame", ref, summary, slots=tuple(names[c] for c in slots), **kw)  # type: ignore[misc]


def _loadout(id_: str, name: str, ref: str, summary: str, only: tuple[Slot, ...] = WEAPONS) -> UpgradeDef:
    return UpgradeDef(id_, name, "loadout", ref, summary, slots=only)


_UPGRADE_LIST: tuple[UpgradeDef, ...] = (
    # Pilot upgrades, any number per unit (L2202).
    _pilot(
        "ace",
        "Ace",
        "L2298",
        "Raises by N the Focus Points that may go to this unit each turn.",
        unique=True,
        stackable=True,
    ),
    _pilot(
        "anger_issues",
        "Anger Issues",
        "L2300",
        "Shrugs off the crippled penalty and hits harder up close (+2 Close) once crippled.",
        unique=True,
        optional=True,
    ),
    _pilot(
        "buddies",
        "Buddies",
        "L2302",
        "Either partner may react when the other is attacked, paying FP normally.",
        linked=True,
    ),
    _pilot("cautious", "Cautious", "L2304", "Ordinary cover protects this pilot like hard cover."),
    _pilot("co_pilot", "Co-Pilot", "L2306", "A second seat makes the unit immune to Distract."),
    _pilot(
        "death_from_above",
        "Death From Above",
        "L2308",
        "A jump charge deals D3 to the target on a pass, 1 on a fail.",
    ),
    _pilot("dogfighter", "Dogfighter", "L2310", "While airborne, +1D defense against airborne attackers."),
    _pilot(
        "eagle_eyes",
        "Eagle Eyes",
        "L2312",
        "Targets of this unit get no dice for being obscured.",
        unique=True,
    ),
    _pilot("fearless", "Fearless", "L2314", "Never fails a panic roll.", optional=True),
    _pilot(
        "guardian",
        "Guardian",
        "L2316",
        'Pays 1 FP to soak damage aimed at a nearby friend (3"), power attacks included.',
        unique=True,
    ),
    _pilot(
        "guerrilla",
        "Guerrilla",
        "L2318",
        "Arrives from reserve on any edge outside the enemy zone, and can ambush.",
        note="Spelled Guerilla at L1566 and L3119.",
    ),
    _pilot("hero", "Hero", "L2320", "Adds one Focus Point to its side each turn while deployed and running."),
    _pilot("impulsive", "Impulsive", "L2322", 'Must dash D6" straight ahead right after deployment.'),
    _pilot(
        "inspiring",
        "Inspiring",
        "L2324",
        'Friends within 8" reroll failed panic rolls.',
        unique=True,
        optional=True,
    ),
    _pilot(
        "leader",
        "Leader",
        "L2326",
        'A special action hands Evade counters to N friends within 8".',
        unique=True,
        stackable=True,
    ),
    _pilot(
        "lovers",
        "Lovers",
        "L2328",
        "Seeing its partner destroyed grants a free two-action activation.",
        linked=True,
    ),
    _pilot("lucky", "Lucky", "L2330", "One reroll of any dice of one roll, once per battle.", unique=True),
    _pilot("maverick", "Maverick", "L2332", "May transform for free after dodging.", unique=True),
    _pilot(
        "mechanic", "Mechanic", "L2334", "A special action fixes 1 damage on itself or a touching friend."
    ),
    _pilot(
        "nemesis", "Nemesis", "L2336", "Names an enemy rival: 1 VP to whoever wins that grudge.", unique=True
    ),
    _pilot(
        "quick_reflexes", "Quick Reflexes", "L2338", "One free reaction per game, no FP needed.", unique=True
    ),
    _pilot("reckless", "Reckless", "L2340", "Halves falling hits and may HALO deploy without Jump."),
    _pilot(
        "rivals",
        "Rivals",
        "L2342",
        "Deploy apart; a kill by one lets the other buy an attack for 1 FP.",
        linked=True,
    ),
    _pilot("run_and_gun", "Run and Gun", "L2344", "Unlocks the Run and Gun power attack."),
    _pilot(
        "spiteful",
        "Spiteful",
        "L2346",
        "A special action deals 1 damage to a touching enemy that is down or shut down.",
        unique=True,
    ),
    _pilot("tactician", "Tactician", "L2348", "+1 to its side's initiative while deployed.", unique=True),
    _pilot(
        "terrifying",
        "Terrifying",
        "L2350",
        "Enemies charging it must pass a panic roll or halt short.",
        optional=True,
    ),
    _pilot("veteran", "Veteran", "L2352", "Shaking off a lock with an evade also leaves an Evade counter."),
    _pilot("warrior", "Warrior", "L2354", "Rerolls 1s in Close attacks."),
    _pilot(
        "well_oiled",
        "Well-Oiled",
        "L2356",
        "When one partner locks a target, the other may attack it for 1 FP.",
        linked=True,
    ),
    _pilot(
        "wingman",
        "Wingman",
        "L2358",
        "After one partner moves or attacks, the other may copy it for 1 FP.",
        linked=True,
    ),
    _pilot(
        "well_read",
        "Well Read",
        "L92",
        "One initiative reroll per battle; only for the owner of the book.",
        unique=True,
        note="Bonus upgrade printed with the credits.",
    ),
    # Frame upgrades, one per frame value (L2210).
    _frame(
        "ablative_armour",
        "Ablative Armour",
        "A",
        "L2366",
        "Once per battle, wipes out every power point of one attack on it.",
    ),
    _frame("aquatic", "Aquatic", "S", "L2368", "Water is open ground, hides it when fully submerged."),
    _frame("agile", "Agile", "S", "L2370", "Dodges two inches for each defensive 6."),
    _frame("all_terrain", "All Terrain", "S", "L2372", "Difficult terrain costs it nothing extra."),
    _frame("bracketed", "Bracketed", "A", "L2374", "Immune to the Explode power attack."),
    _frame("chaff", "Chaff", "D", "L2376", "+1D defense against Long attacks while airborne."),
    _frame("combiner", "Combiner", "ADS", "L2378", "Belongs to a combiner team.", optional=True),
    _frame("command_module", "Command Module", "D", "L2380", "+1 initiative; a side profits from one only."),
    _frame("climb", "Climb", "S", "L2382", "Climbs without the usual Speed cost."),
    _frame("cloaking", "Cloaking", "D", "L2384", "Nobody may react to its moves."),
    _frame(
        "defense_matrix", "Defense Matrix", "D", "L2386", "Locking onto it needs a passed Pilot Skill roll."
    ),
    _frame("deflect", "Deflect", "D", "L2388", "+1D defense against attacks from the front."),
    _frame(
        "environment_enhancement",
        "Environment Enhancement",
        "AD",
        "L2390",
        "Immune to dust, snow and lightning, though storms still hide it.",
    ),
    _frame("fast", "Fast", "S", "L2392", "Moving fast costs it no FP."),
    _frame("fast_flyer", "Fast Flyer", "S", "L2394", "Moves as a fast flyer."),
    _frame("fly", "Fly", "S", "L2396", "Moves as a flyer."),
    _frame("halo", "HALO", "DS", "L2398", 'May HALO deploy, scattering only D3".'),
    _frame(
        "hands",
        "Hands",
        "D",
        "L2400",
        "Grabs loot for free while moving; enemies find it hard to break away from.",
    ),
    _frame("heavy", "Heavy", "AS", "L2402", "Knock-backs move it half as far; tramples obstacles."),
    _frame("jump", "Jump", "S", "L2404", "Moves by jumping."),
    _frame(
        "rapid_reboot", "Rapid Reboot", "A", "L2406", "Restarts after a shut down with one special action."
    ),
    _frame("recon", "Recon", "D", "L2408", "Takes a free move before the first turn."),
    _frame("reinforced", "Reinforced", "A", "L2410", "Ignores the crippled penalty.", optional=True),
    _frame("repair_systems", "Repair Systems", "AD", "L2412", "A special action restores D3 Armour."),
    _frame(
        "shield_wall",
        "Shield Wall",
        "A",
        "L2414",
        "+1 Defense while touching another friendly Shield Wall unit.",
    ),
    _frame("stabilised", "Stabilised", "A", "L2418", "A passed Pilot Skill roll keeps it on its feet."),
    _frame("stealth", "Stealth", "D", "L2420", "Always counts as obscured at Medium and Long range."),
    _frame(
        "swift_transform", "Swift Transform", "AS", "L2422", "Transforms for 1 FP around a move or attack."
    ),
    _frame(
        "target_tracking",
        "Target Tracking",
        "D",
        "L2424",
        "Stripping an Evade with a lock also leaves a lock.",
    ),
    # Loadout upgrades, one per weapon system (L2216).
    _loadout("anti_aircraft", "Anti-Aircraft", "L2428", "+2D against airborne targets."),
    _loadout("blast", "Blast", "L2430", "Unlocks the Blast power attack."),
    _loadout("burn", "Burn", "L2432", "Unlocks the Burn power attack."),
    _loadout("chain_attack", "Chain Attack", "L2434", "Unlocks the Chain Attack power attack."),
    _loadout("extra_ammo", "Extra Ammo", "L2436", "Focus Fire with this system gives one more die."),
    _loadout("extreme_range", "Extreme Range", "L2438", "Long range stretches to 32 inches.", only=("long",)),
    _loadout(
        "indirect_fire",
        "Indirect Fire",
        "L2440",
        "Fires unseen at a locked target, which is then obscured but never in cover.",
    ),
    _loadout(
        "parry",
        "Parry",
        "L2448",
        "Defending in close combat, each 6 may hurt the attacker instead of dodging.",
        only=("close",),
    ),
    _loadout("piercing", "Piercing", "L2452", "Cover of any kind adds no defense dice."),
    _loadout("powerful", "Powerful", "L2454", "One extra power point once damage is settled."),
    _loadout("rapid_reload", "Rapid Reload", "L2458", "Rapid fire with it is free."),
    _loadout(
        "reach",
        "Reach",
        "L2460",
        "Throws from Short range and may pull targets in with Recoil.",
        only=("short",),
    ),
    _loadout("split_fire", "Split Fire", "L2462", "Shares its dice among several targets."),
    _loadout("target_painting", "Target Painting", "L2464", "Unlocks the Target Painting power attack."),
    _loadout("turreted", "Turreted", "L2466", "Can fire through the back arc too."),
)

UPGRADES: dict[str, UpgradeDef] = {u.id: u for u in _UPGRADE_LIST}
#: Upgrade ids in share-link order.
UPGRADE_IDS: tuple[str, ...] = tuple(UPGRADES)


# --- power attacks (L1208-1346) ------------------------------------------------------


@dataclass(frozen=True)
class PowerAttackDef:
    """An effect bought with power points; ``cost`` None means "X", one or more points (L1226)."""

    id: str
    name: str
    cost: int | None
    kind: Literal["basic", "special"]
    ref: str
    summary: str
    condition: str = ""
    #: The upgrade that unlocks a special power attack (L1194, L1202).
    unlocked_by: str | None = None


POWER_ATTACKS: dict[str, PowerAttackDef] = {
    p.id: p
    for p in (
        PowerAttackDef(
            "distract", "Distract", 1, "basic", "L1264", "Its next activation has a single action."
        ),
        PowerAttackDef(
            "recoil",
            "Recoil",
            1,
            "basic",
            "L1288",
            "Pushed straight back one inch per damage.",
            condition="target standing and running",
        ),
        PowerAttackDef(
            "swing",
            "Swing",
            1,
            "basic",
            "L1320",
            "Whirled around the attacker, who turns freely.",
            condition="Close",
        ),
        PowerAttackDef("knock_down", "Knock Down", 2, "basic", "L1282", "The target falls over."),
        PowerAttackDef(
            "throw",
            "Throw",
            2,
            "basic",
            "L1340",
            "Hurled one inch per damage any way, then down.",
            condition="Close (Short with Reach)",
        ),
        PowerAttackDef(
            "shut_down", "Shut Down", 3, "basic", "L1306", "The target stops working until rebooted."
        ),
        PowerAttackDef(
            "explode",
            "Explode",
            None,
            "basic",
            "L1272",
            "A wreck bursts: 1 damage to all within X inches.",
            condition="target destroyed",
        ),
        PowerAttackDef(
            "suppression",
            "Suppression",
            None,
            "basic",
            "L1312",
            "An X-inch circle by the target is dangerous ground this turn.",
        ),
        PowerAttackDef(
            "target_painting",
            "Target Painting",
            1,
            "special",
            "L1332",
            "Strips its Evade, or else locks it.",
            unlocked_by="target_painting",
        ),
        PowerAttackDef(
            "blast",
            "Blast",
            None,
            "special",
            "L1230",
            "X hits on every unit within 3 inches.",
            unlocked_by="blast",
        ),
        PowerAttackDef(
            "burn",
            "Burn",
            None,
            "special",
            "L1240",
            "X more hits, met with bare Defense dice.",
            unlocked_by="burn",
        ),
        PowerAttackDef(
            "chain_attack",
            "Chain Attack",
            None,
            "special",
            "L1248",
            "2 hits on each of X enemies chained 2 inches apart.",
            unlocked_by="chain_attack",
        ),
        PowerAttackDef(
            "run_and_gun",
            "Run and Gun",
            None,
            "special",
            "L1298",
            "The attacker repositions up to X inches.",
            unlocked_by="run_and_gun",
        ),
    )
}


# --- example units (L591-628, L3075-3193) ---------------------------------------------


class ExampleRow(BaseModel):
    """One example unit as the book prints it (a row of ``example_units.json``).

    Upgrades: "id", "id:slot", "id*N" ((N) upgrades), "id:slot:N".  Transforming units give
    speed, defense and weapons as second forms: "6/5" style pairs, and their upgrades per form
    separated by " / " (the pilot's upgrades with the first).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    pilot: str = ""
    frame: str
    skill: int
    speed: str
    defense: str
    armour: int
    weapons: tuple[str, str, str, str] = Field(description="close, short, medium, long")
    upgrades: str = ""
    points: int = Field(description="The points the book prints (some differ from the rules' total).")
    ref: str
    note: str = ""


class ExampleFaction(BaseModel):
    """The example units of one faction (L591-628, L3075-3193)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    faction: str
    ref: str
    units: tuple[ExampleRow, ...]


class ExampleUnits(BaseModel):
    """The content of ``example_units.json``: the book's example units by faction, in its order."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    factions: tuple[ExampleFaction, ...]


#: Printed points of each example unit, by catalogue id.
PRINTED_POINTS: dict[str, int] = {}
#: Members of the combined form of the Centurions (L3138-3144), for its construction rules.
COMBINED_MEMBERS = {"alpha_guardian": 5}


def _refs(text: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for word in text.split():
        n = 1
        if "*" in word:
            word, count = word.split("*")
            n = int(count)
        uid, _, slot = word.partition(":")
        ref: dict[str, Any] = {"id": uid}
        if slot:
            ref["slot"] = slot
        if n != 1:
            ref["n"] = n
        out.append(ref)
    return out


def _unit_id(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_").replace("__", "_")


def _example(row: ExampleRow) -> CatalogueUnit:
    name, pilot, frame, skill, armour = row.name, row.pilot, row.frame, row.skill, row.armour
    speeds, defenses = row.speed.split("/"), row.defense.split("/")
    columns = [w.split("/") for w in row.weapons]
    parts = row.upgrades.split(" / ") if "/" in row.speed else [row.upgrades]
    pilot_refs = [r for r in _refs(parts[0]) if UPGRADES[r["id"]].category == "pilot"]
    form_refs = [[r for r in _refs(p) if UPGRADES[r["id"]].category != "pilot"] for p in parts]
    profile: dict[str, Any] = {
        "name": name,
        "frame": frame,
        "speed": int(speeds[0]),
        "defense": int(defenses[0]),
        "armour": armour,
        **{w: int(c[0]) for w, c in zip(WEAPONS, columns, strict=True)},
        "pilot": pilot,
        "skill": skill,
        "upgrades": pilot_refs + form_refs[0],
    }
    if len(speeds) > 1:
        profile["forms"] = [
            {
                "speed": int(speeds[i]),
                "defense": int(defenses[i]),
                **{w: int(c[i]) for w, c in zip(WEAPONS, columns, strict=True)},
                "upgrades": form_refs[i],
            }
            for i in range(1, len(speeds))
        ]
    uid = _unit_id(name)
    if uid in COMBINED_MEMBERS:
        profile["combined_members"] = COMBINED_MEMBERS[uid]
    PRINTED_POINTS[uid] = row.points
    full = f"{pilot} + {name}" if pilot else name
    return CatalogueUnit(id=uid, name=full, profile=profile, note=row.note, ref=row.ref)


EXAMPLE_UNITS: tuple[CatalogueUnit, ...] = tuple(
    _example(row)
    for faction in load(__package__, "example_units.json", ExampleUnits).factions
    for row in faction.units
)
