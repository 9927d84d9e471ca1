"""GUNFRAME's upgrades (L2262-2466, bonus L92) and the lookups of their effects.

Every entry carries its rulebook line (``"L2298"`` is line 2298 of
``001_c60598db3e91d492.txt``) and a one-line summary in this project's own
words.  The order of :data:`UPGRADES` is part of the share-link format
(:func:`core.systems.gunframe.building.pack`): append new entries, never
reorder.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from core.systems.gunframe.catalogue import WEAPONS, Slot
from core.systems.gunframe.effects import (
    UPGRADE_ID_SET,
    Ambush,
    AttackDice,
    CancelsPowerOnce,
    CombinerMember,
    CountsObscured,
    CoverAs,
    DeactivateBonus,
    DefenseDice,
    DefenseValue,
    DodgePerSix,
    Effect,
    EvadeAfterShakingLock,
    ExtraPowerPoints,
    Flies,
    FocusCapPerRank,
    FocusFireDice,
    FocusPerTurn,
    FreeDarkEvade,
    FreeFastMove,
    FreeRapidFire,
    FreeReactionOnce,
    GrantsPowerAttack,
    HaloDrop,
    HalvesFallingHits,
    HalvesKnockback,
    IgnoresCover,
    IgnoresCrippled,
    IgnoresObscured,
    ImmuneToPower,
    IndirectFire,
    InitiativeBonus,
    InitiativeReroll,
    JumpChargeDamage,
    Jumps,
    LendsPanicReroll,
    Link,
    LockAfterStrippingEvade,
    LockNeedsPilotRoll,
    LuckyReroll,
    PanicOnCharge,
    Parry,
    PassesPanic,
    PowerFromWeapon,
    RebootActions,
    RecoilPull,
    Rerolls,
    SoaksForFriend,
    SpecialAction,
    SplitFire,
    StandsOnPilotRoll,
    StormProof,
    Transform,
    UnseenMoves,
    UpgradeId,
    WeaponValue,
)

# --- upgrades (L2262-2466, bonus L92) ----------------------------------------------


@dataclass(frozen=True)
class UpgradeDef:
    """One upgrade: 1 point per purchase (L2194).

    ``effects`` is what the engine applies (see :mod:`core.systems.gunframe.effects`); ``by_hand`` says
    what players apply themselves and why.  Every upgrade has one or both (tests/test_gunframe_effects.py).
    """

    id: UpgradeId
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
    effects: tuple[Effect, ...] = ()
    by_hand: str = ""

    def __post_init__(self) -> None:
        if self.id not in UPGRADE_ID_SET:
            raise ValueError(f"unknown upgrade id {self.id!r}: add it to effects.UpgradeId")

    @property
    def restricted(self) -> bool:
        """A loadout upgrade limited to some weapon systems, e.g. "Long only" (L2272)."""
        return self.category == "loadout" and len(self.slots) < len(WEAPONS)


def _pilot(id_: UpgradeId, name: str, ref: str, summary: str, **kw: Any) -> UpgradeDef:
    return UpgradeDef(id_, name, "pilot", ref, summary, **kw)


def _frame(id_: UpgradeId, name: str, slots: str, ref: str, summary: str, **kw: Any) -> UpgradeDef:
    names = {"S": "speed", "D": "defense", "A": "armour"}
    return UpgradeDef(id_, name, "frame", ref, summary, slots=tuple(names[c] for c in slots), **kw)  # type: ignore[misc]


def _loadout(
    id_: UpgradeId, name: str, ref: str, summary: str, only: tuple[Slot, ...] = WEAPONS, **kw: Any
) -> UpgradeDef:
    return UpgradeDef(id_, name, "loadout", ref, summary, slots=only, **kw)


_UPGRADE_LIST: tuple[UpgradeDef, ...] = (
    # Pilot upgrades, any number per unit (L2202).
    _pilot(
        "ace",
        "Ace",
        "L2298",
        "Raises by N the Focus Points that may go to this unit each turn.",
        unique=True,
        stackable=True,
        effects=(FocusCapPerRank(),),
    ),
    _pilot(
        "anger_issues",
        "Anger Issues",
        "L2300",
        "Shrugs off the crippled penalty and hits harder up close (+2 Close) once crippled.",
        unique=True,
        optional=True,
        effects=(IgnoresCrippled(), WeaponValue(2, "close", when="crippled")),
    ),
    _pilot(
        "buddies",
        "Buddies",
        "L2302",
        "Either partner may react when the other is attacked, paying FP normally.",
        linked=True,
        effects=(Link("buddies"),),
    ),
    _pilot(
        "cautious",
        "Cautious",
        "L2304",
        "Ordinary cover protects this pilot like hard cover.",
        effects=(CoverAs("hard"),),
    ),
    _pilot(
        "co_pilot",
        "Co-Pilot",
        "L2306",
        "A second seat makes the unit immune to Distract.",
        effects=(ImmuneToPower("distract"),),
    ),
    _pilot(
        "death_from_above",
        "Death From Above",
        "L2308",
        "A jump charge deals D3 to the target on a pass, 1 on a fail.",
        effects=(JumpChargeDamage(),),
    ),
    _pilot(
        "dogfighter",
        "Dogfighter",
        "L2310",
        "While airborne, +1D defense against airborne attackers.",
        effects=(DefenseDice(1, when="both_flying"),),
    ),
    _pilot(
        "eagle_eyes",
        "Eagle Eyes",
        "L2312",
        "Targets of this unit get no dice for being obscured.",
        unique=True,
        effects=(IgnoresObscured(),),
    ),
    _pilot(
        "fearless", "Fearless", "L2314", "Never fails a panic roll.", optional=True, effects=(PassesPanic(),)
    ),
    _pilot(
        "guardian",
        "Guardian",
        "L2316",
        'Pays 1 FP to soak damage aimed at a nearby friend (3"), power attacks included.',
        unique=True,
        effects=(SoaksForFriend(),),
    ),
    _pilot(
        "guerrilla",
        "Guerrilla",
        "L2318",
        "Arrives from reserve on any edge outside the enemy zone, and can ambush.",
        note="Spelled Guerilla at L1566 and L3119.",
        effects=(Ambush(),),
        by_hand="Where it arrives from reserve (any edge outside the enemy zone) is a place on the table.",
    ),
    _pilot(
        "hero",
        "Hero",
        "L2320",
        "Adds one Focus Point to its side each turn while deployed and running.",
        effects=(FocusPerTurn(1),),
    ),
    _pilot(
        "impulsive",
        "Impulsive",
        "L2322",
        'Must dash D6" straight ahead right after deployment.',
        by_hand="The D6-inch dash straight ahead after deploying is a move on the table.",
    ),
    _pilot(
        "inspiring",
        "Inspiring",
        "L2324",
        'Friends within 8" reroll failed panic rolls.',
        unique=True,
        optional=True,
        effects=(LendsPanicReroll(),),
    ),
    _pilot(
        "leader",
        "Leader",
        "L2326",
        'A special action hands Evade counters to N friends within 8".',
        unique=True,
        stackable=True,
        effects=(SpecialAction("leader"),),
    ),
    _pilot(
        "lovers",
        "Lovers",
        "L2328",
        "Seeing its partner destroyed grants a free two-action activation.",
        linked=True,
        effects=(Link("lovers"),),
    ),
    _pilot(
        "lucky",
        "Lucky",
        "L2330",
        "One reroll of any dice of one roll, once per battle.",
        unique=True,
        effects=(LuckyReroll(),),
    ),
    _pilot(
        "maverick",
        "Maverick",
        "L2332",
        "May transform for free after dodging.",
        unique=True,
        effects=(Transform("maverick"),),
    ),
    _pilot(
        "mechanic",
        "Mechanic",
        "L2334",
        "A special action fixes 1 damage on itself or a touching friend.",
        effects=(SpecialAction("mechanic"), DeactivateBonus(1)),
    ),
    _pilot(
        "nemesis",
        "Nemesis",
        "L2336",
        "Names an enemy rival: 1 VP to whoever wins that grudge.",
        unique=True,
        effects=(SpecialAction("nemesis"),),
    ),
    _pilot(
        "quick_reflexes",
        "Quick Reflexes",
        "L2338",
        "One free reaction per game, no FP needed.",
        unique=True,
        effects=(FreeReactionOnce(),),
    ),
    _pilot(
        "reckless",
        "Reckless",
        "L2340",
        "Halves falling hits and may HALO deploy without Jump.",
        effects=(HalvesFallingHits(), HaloDrop()),
    ),
    _pilot(
        "rivals",
        "Rivals",
        "L2342",
        "Deploy apart; a kill by one lets the other buy an attack for 1 FP.",
        linked=True,
        effects=(Link("rivals"),),
    ),
    _pilot(
        "run_and_gun",
        "Run and Gun",
        "L2344",
        "Unlocks the Run and Gun power attack.",
        effects=(GrantsPowerAttack("run_and_gun"),),
    ),
    _pilot(
        "spiteful",
        "Spiteful",
        "L2346",
        "A special action deals 1 damage to a touching enemy that is down or shut down.",
        unique=True,
        effects=(SpecialAction("spiteful"),),
    ),
    _pilot(
        "tactician",
        "Tactician",
        "L2348",
        "+1 to its side's initiative while deployed.",
        unique=True,
        effects=(InitiativeBonus(1), DeactivateBonus(1)),
    ),
    _pilot(
        "terrifying",
        "Terrifying",
        "L2350",
        "Enemies charging it must pass a panic roll or halt short.",
        optional=True,
        effects=(PanicOnCharge(),),
    ),
    _pilot(
        "veteran",
        "Veteran",
        "L2352",
        "Shaking off a lock with an evade also leaves an Evade counter.",
        effects=(EvadeAfterShakingLock(),),
    ),
    _pilot(
        "warrior",
        "Warrior",
        "L2354",
        "Rerolls 1s in Close attacks.",
        effects=(Rerolls((1,), weapon="close"),),
    ),
    _pilot(
        "well_oiled",
        "Well-Oiled",
        "L2356",
        "When one partner locks a target, the other may attack it for 1 FP.",
        linked=True,
        effects=(Link("well_oiled"),),
    ),
    _pilot(
        "wingman",
        "Wingman",
        "L2358",
        "After one partner moves or attacks, the other may copy it for 1 FP.",
        linked=True,
        effects=(Link("wingman"),),
    ),
    _pilot(
        "well_read",
        "Well Read",
        "L92",
        "One initiative reroll per battle; only for the owner of the book.",
        unique=True,
        note="Bonus upgrade printed with the credits.",
        effects=(InitiativeReroll(),),
    ),
    # Frame upgrades, one per frame value (L2210).
    _frame(
        "ablative_armour",
        "Ablative Armour",
        "A",
        "L2366",
        "Once per battle, wipes out every power point of one attack on it.",
        effects=(CancelsPowerOnce(),),
    ),
    _frame(
        "aquatic",
        "Aquatic",
        "S",
        "L2368",
        "Water is open ground, hides it when fully submerged.",
        by_hand="Water as open ground, and hiding when fully under it, are terrain on the table.",
    ),
    _frame(
        "agile", "Agile", "S", "L2370", "Dodges two inches for each defensive 6.", effects=(DodgePerSix(2),)
    ),
    _frame(
        "all_terrain",
        "All Terrain",
        "S",
        "L2372",
        "Difficult terrain costs it nothing extra.",
        by_hand="Moving through difficult terrain is measured on the table.",
    ),
    _frame(
        "bracketed",
        "Bracketed",
        "A",
        "L2374",
        "Immune to the Explode power attack.",
        effects=(ImmuneToPower("explode"),),
    ),
    _frame(
        "chaff",
        "Chaff",
        "D",
        "L2376",
        "+1D defense against Long attacks while airborne.",
        effects=(DefenseDice(1, when="flying_vs_long"),),
    ),
    _frame(
        "combiner",
        "Combiner",
        "ADS",
        "L2378",
        "Belongs to a combiner team.",
        optional=True,
        effects=(CombinerMember(),),
    ),
    _frame(
        "command_module",
        "Command Module",
        "D",
        "L2380",
        "+1 initiative; a side profits from one only.",
        effects=(InitiativeBonus(1),),
    ),
    _frame(
        "climb",
        "Climb",
        "S",
        "L2382",
        "Climbs without the usual Speed cost.",
        by_hand="Climbing without the Speed cost is measured on the table.",
    ),
    _frame(
        "cloaking",
        "Cloaking",
        "D",
        "L2384",
        "Nobody may react to its moves.",
        effects=(UnseenMoves(), FreeDarkEvade(), Ambush()),
    ),
    _frame(
        "defense_matrix",
        "Defense Matrix",
        "D",
        "L2386",
        "Locking onto it needs a passed Pilot Skill roll.",
        effects=(LockNeedsPilotRoll(),),
    ),
    _frame(
        "deflect",
        "Deflect",
        "D",
        "L2388",
        "+1D defense against attacks from the front.",
        effects=(DefenseDice(1, when="from_front"),),
    ),
    _frame(
        "environment_enhancement",
        "Environment Enhancement",
        "AD",
        "L2390",
        "Immune to dust, snow and lightning, though storms still hide it.",
        effects=(StormProof(),),
    ),
    _frame("fast", "Fast", "S", "L2392", "Moving fast costs it no FP.", effects=(FreeFastMove(),)),
    _frame(
        "fast_flyer",
        "Fast Flyer",
        "S",
        "L2394",
        "Moves as a fast flyer.",
        effects=(Flies(),),
        by_hand="How far and how a fast flyer moves is measured on the table.",
    ),
    _frame("fly", "Fly", "S", "L2396", "Moves as a flyer.", effects=(Flies(),)),
    _frame("halo", "HALO", "DS", "L2398", 'May HALO deploy, scattering only D3".', effects=(HaloDrop("D3"),)),
    _frame(
        "hands",
        "Hands",
        "D",
        "L2400",
        "Grabs loot for free while moving; enemies find it hard to break away from.",
        by_hand="Grabbing loot while moving and holding enemies that break away happen on the table.",
    ),
    _frame(
        "heavy",
        "Heavy",
        "AS",
        "L2402",
        "Knock-backs move it half as far; tramples obstacles.",
        effects=(HalvesKnockback(),),
        by_hand="Trampling obstacles happens on the table.",
    ),
    _frame("jump", "Jump", "S", "L2404", "Moves by jumping.", effects=(Jumps(), HaloDrop())),
    _frame(
        "rapid_reboot",
        "Rapid Reboot",
        "A",
        "L2406",
        "Restarts after a shut down with one special action.",
        effects=(RebootActions(1),),
    ),
    _frame(
        "recon",
        "Recon",
        "D",
        "L2408",
        "Takes a free move before the first turn.",
        effects=(Ambush(),),
        by_hand="The free move before the first turn is made on the table.",
    ),
    _frame(
        "reinforced",
        "Reinforced",
        "A",
        "L2410",
        "Ignores the crippled penalty.",
        optional=True,
        effects=(IgnoresCrippled(),),
    ),
    _frame(
        "repair_systems",
        "Repair Systems",
        "AD",
        "L2412",
        "A special action restores D3 Armour.",
        effects=(SpecialAction("repair_systems"),),
    ),
    _frame(
        "shield_wall",
        "Shield Wall",
        "A",
        "L2414",
        "+1 Defense while touching another friendly Shield Wall unit.",
        effects=(DefenseValue(1, when="shield_wall"),),
    ),
    _frame(
        "stabilised",
        "Stabilised",
        "A",
        "L2418",
        "A passed Pilot Skill roll keeps it on its feet.",
        effects=(StandsOnPilotRoll(),),
    ),
    _frame(
        "stealth",
        "Stealth",
        "D",
        "L2420",
        "Always counts as obscured at Medium and Long range.",
        effects=(CountsObscured(("medium", "long")), FreeDarkEvade(), Ambush()),
    ),
    _frame(
        "swift_transform",
        "Swift Transform",
        "AS",
        "L2422",
        "Transforms for 1 FP around a move or attack.",
        effects=(Transform("swift_transform"),),
    ),
    _frame(
        "target_tracking",
        "Target Tracking",
        "D",
        "L2424",
        "Stripping an Evade with a lock also leaves a lock.",
        effects=(LockAfterStrippingEvade(),),
    ),
    # Loadout upgrades, one per weapon system (L2216).
    _loadout(
        "anti_aircraft",
        "Anti-Aircraft",
        "L2428",
        "+2D against airborne targets.",
        effects=(AttackDice(2, when="target_flying"),),
    ),
    _loadout(
        "blast", "Blast", "L2430", "Unlocks the Blast power attack.", effects=(GrantsPowerAttack("blast"),)
    ),
    _loadout("burn", "Burn", "L2432", "Unlocks the Burn power attack.", effects=(GrantsPowerAttack("burn"),)),
    _loadout(
        "chain_attack",
        "Chain Attack",
        "L2434",
        "Unlocks the Chain Attack power attack.",
        effects=(GrantsPowerAttack("chain_attack"),),
    ),
    _loadout(
        "extra_ammo",
        "Extra Ammo",
        "L2436",
        "Focus Fire with this system gives one more die.",
        effects=(FocusFireDice(1),),
    ),
    _loadout(
        "extreme_range",
        "Extreme Range",
        "L2438",
        "Long range stretches to 32 inches.",
        only=("long",),
        by_hand="Ranges are measured on the table; the app takes the range band the players name.",
    ),
    _loadout(
        "indirect_fire",
        "Indirect Fire",
        "L2440",
        "Fires unseen at a locked target, which is then obscured but never in cover.",
        effects=(IndirectFire(),),
    ),
    _loadout(
        "parry",
        "Parry",
        "L2448",
        "Defending in close combat, each 6 may hurt the attacker instead of dodging.",
        only=("close",),
        effects=(Parry(),),
    ),
    _loadout(
        "piercing", "Piercing", "L2452", "Cover of any kind adds no defense dice.", effects=(IgnoresCover(),)
    ),
    _loadout(
        "powerful",
        "Powerful",
        "L2454",
        "One extra power point once damage is settled.",
        effects=(ExtraPowerPoints(1),),
    ),
    _loadout(
        "rapid_reload", "Rapid Reload", "L2458", "Rapid fire with it is free.", effects=(FreeRapidFire(),)
    ),
    _loadout(
        "reach",
        "Reach",
        "L2460",
        "Throws from Short range and may pull targets in with Recoil.",
        only=("short",),
        effects=(PowerFromWeapon("throw", "short"), RecoilPull("short")),
    ),
    _loadout(
        "split_fire", "Split Fire", "L2462", "Shares its dice among several targets.", effects=(SplitFire(),)
    ),
    _loadout(
        "target_painting",
        "Target Painting",
        "L2464",
        "Unlocks the Target Painting power attack.",
        effects=(GrantsPowerAttack("target_painting"),),
    ),
    _loadout(
        "turreted",
        "Turreted",
        "L2466",
        "Can fire through the back arc too.",
        by_hand="Firing arcs are judged on the table.",
    ),
)

UPGRADES: dict[str, UpgradeDef] = {u.id: u for u in _UPGRADE_LIST}
#: Upgrade ids in share-link order.
UPGRADE_IDS: tuple[str, ...] = tuple(UPGRADES)

_ORDER: dict[str, int] = {u.id: i for i, u in enumerate(_UPGRADE_LIST)}
_K = TypeVar("_K", bound=Effect)


def effects_by(ids: Iterable[str], kind: type[_K]) -> list[tuple[UpgradeDef, _K]]:
    """The effects of one kind among the upgrades ``ids`` (unknown ids have none), each with its
    upgrade, in catalogue order so that notes come out the same whatever the order of ``ids``."""
    held = sorted({_ORDER[uid] for uid in ids if uid in _ORDER})
    return [(u, e) for u in (_UPGRADE_LIST[i] for i in held) for e in u.effects if isinstance(e, kind)]


def effects_of(ids: Iterable[str], kind: type[_K]) -> list[_K]:
    """The effects of one kind among the upgrades ``ids``, in catalogue order."""
    return [e for _, e in effects_by(ids, kind)]


def has_effect(ids: Iterable[str], kind: type[Effect]) -> bool:
    """Whether any of the upgrades ``ids`` has an effect of this kind."""
    return bool(effects_by(ids, kind))


def granted_by(power: str) -> UpgradeDef | None:
    """The upgrade whose effects unlock a special power attack (L1194, L1202), None for a basic one."""
    for u in _UPGRADE_LIST:
        if any(isinstance(e, GrantsPowerAttack) and e.power == power for e in u.effects):
            return u
    return None
