"""What GUNFRAME's upgrades and power attacks do, as data the engine interprets.

Each upgrade (``upgrades.UPGRADES``) carries a tuple of effects, instances of the small closed set of
kinds below, and/or a ``by_hand`` reason when players apply (part of) it themselves.  The mechanics
never test an upgrade's name: a hook point (the attack pool, the defense pool, power points after
damage, reactions, the End phase, initiative, deployment...) asks which effects of one kind a unit or
weapon system has, with :func:`core.systems.gunframe.upgrades.effects_of`, and interprets them.

A kind is one concept.  Parameters that name something (a weapon system, a condition, a power attack,
a link, a special action) are closed ``Literal`` types checked when the effect is built, so a misspelt
entry fails at import rather than silently doing nothing.  Where an upgrade's mechanics are a one-off
procedure with its own roll (Repair Systems' D3, a Nemesis nomination), :class:`SpecialAction` names
the action that carries it out.

Loadout upgrades sit on one weapon system (L2216): their effects apply to attacks with that system
and are asked of the system's upgrades, not of the unit's.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import ClassVar, Literal, get_args

#: Every printed upgrade id, in share-link order (the upgrades of ``pack_ids.json``; tests check the two).
UpgradeId = Literal[
    "ace",
    "anger_issues",
    "buddies",
    "cautious",
    "co_pilot",
    "death_from_above",
    "dogfighter",
    "eagle_eyes",
    "fearless",
    "guardian",
    "guerrilla",
    "hero",
    "impulsive",
    "inspiring",
    "leader",
    "lovers",
    "lucky",
    "maverick",
    "mechanic",
    "nemesis",
    "quick_reflexes",
    "reckless",
    "rivals",
    "run_and_gun",
    "spiteful",
    "tactician",
    "terrifying",
    "veteran",
    "warrior",
    "well_oiled",
    "wingman",
    "well_read",
    "ablative_armour",
    "aquatic",
    "agile",
    "all_terrain",
    "bracketed",
    "chaff",
    "combiner",
    "command_module",
    "climb",
    "cloaking",
    "defense_matrix",
    "deflect",
    "environment_enhancement",
    "fast",
    "fast_flyer",
    "fly",
    "halo",
    "hands",
    "heavy",
    "jump",
    "rapid_reboot",
    "recon",
    "reinforced",
    "repair_systems",
    "shield_wall",
    "stabilised",
    "stealth",
    "swift_transform",
    "target_tracking",
    "anti_aircraft",
    "blast",
    "burn",
    "chain_attack",
    "extra_ammo",
    "extreme_range",
    "indirect_fire",
    "parry",
    "piercing",
    "powerful",
    "rapid_reload",
    "reach",
    "split_fire",
    "target_painting",
    "turreted",
]
UPGRADE_ID_SET: frozenset[str] = frozenset(get_args(UpgradeId))

#: Every power attack id (L1208-1346).
PowerAttackId = Literal[
    "distract",
    "recoil",
    "swing",
    "knock_down",
    "throw",
    "shut_down",
    "explode",
    "suppression",
    "target_painting",
    "blast",
    "burn",
    "chain_attack",
    "run_and_gun",
]

WeaponSystem = Literal["close", "short", "medium", "long"]

#: When a pool modifier applies; attack.py's plan says which hold for an attack.  Bonuses of one kind
#: are noted in this order.
When = Literal[
    "always",
    "crippled",  # the unit holding it is crippled (L2300)
    "shield_wall",  # the player says it touches another friend with Shield Wall (L2414)
    "from_front",  # the attack does not come from the rear (L2388)
    "both_flying",  # target and attacker both airborne (L2310)
    "flying_vs_long",  # the target is airborne and the attack is a Long one (L2376)
    "target_flying",  # the attack's target is airborne (L2428)
]
WHEN_ORDER: tuple[str, ...] = get_args(When)

#: The links between two partners (L2278) whose trigger the app checks (links.py).
LinkId = Literal["buddies", "rivals", "well_oiled", "wingman", "lovers"]

#: Special actions an upgrade grants, each carried out by its own action (special.py, turn.py, links.py).
SpecialActionId = Literal["mechanic", "repair_systems", "spiteful", "leader", "nemesis"]

#: Ways of changing form other than a move action (special.py's transform).
TransformId = Literal["swift_transform", "maverick"]


@dataclass(frozen=True)
class Effect:
    """Base of every effect kind.  ``hook`` names the engine step that reads the kind."""

    hook: ClassVar[str] = ""

    def __post_init__(self) -> None:
        """Reject a value outside a field's closed ``Literal`` type (a misspelt id), at import."""
        hints = typing.get_type_hints(type(self), globalns=globals())
        for f in dataclasses.fields(self):
            allowed = _literal_values(hints.get(f.name))
            if allowed is None:
                continue
            value = getattr(self, f.name)
            values = value if isinstance(value, tuple) else (value,)
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(
                    f"{type(self).__name__}.{f.name}: {bad[0]!r} is not one of {sorted(map(str, allowed))}"
                )


def _literal_values(hint: object) -> frozenset[object] | None:
    """The values a Literal (or a tuple or optional of one) allows; None for other types."""
    origin = typing.get_origin(hint)
    if origin is Literal:
        return frozenset(get_args(hint))
    if origin in (tuple, typing.Union) or str(origin) == "<class 'types.UnionType'>":
        out: set[object] = set()
        found = False
        for arg in get_args(hint):
            if arg is Ellipsis:
                continue
            if arg is type(None):
                out.add(None)
                continue
            sub = _literal_values(arg)
            if sub is not None:
                found = True
                out |= sub
        return frozenset(out) if found else None
    return None


#: Every effect kind by class name; :func:`kind` fills it.
KINDS: dict[str, type[Effect]] = {}

_E = typing.TypeVar("_E", bound=type[Effect])


def kind(hook: str) -> typing.Callable[[_E], _E]:
    """Register an effect kind read at ``hook`` (a module-level step of the engine)."""

    def register(cls: _E) -> _E:
        cls.hook = hook
        KINDS[cls.__name__] = cls
        return cls

    return register


# --- the attack pool (attack.py plan, L1062-1110) -----------------------------------------------


@kind("attack pool")
@dataclass(frozen=True)
class IgnoresCrippled(Effect):
    """Weapons and Focus Points are not cut down by being crippled (L2300, L2410, L2733)."""


@kind("attack pool")
@dataclass(frozen=True)
class WeaponValue(Effect):
    """``bonus`` to one weapon system's value under ``when``, defending with it too (L2300)."""

    bonus: int
    weapon: WeaponSystem
    when: When = "always"


@kind("attack pool")
@dataclass(frozen=True)
class AttackDice(Effect):
    """``n`` more attack dice with the weapon system it sits on, under ``when`` (L2428)."""

    n: int
    when: When = "always"


@kind("attack pool")
@dataclass(frozen=True)
class FocusFireDice(Effect):
    """``n`` more dice when this weapon system spends a lock on Focus Fire (L2436)."""

    n: int


@kind("attack pool")
@dataclass(frozen=True)
class Rerolls(Effect):
    """Attack dice showing ``faces`` are rolled again, with ``weapon`` (any if None) (L2354)."""

    faces: tuple[int, ...]
    weapon: WeaponSystem | None = None


@kind("attack pool")
@dataclass(frozen=True)
class IgnoresObscured(Effect):
    """Its targets gain no die for being obscured (L2312)."""


@kind("attack pool")
@dataclass(frozen=True)
class IgnoresCover(Effect):
    """Attacks with this weapon system give the target no cover dice (L2452)."""


@kind("attack pool")
@dataclass(frozen=True)
class IndirectFire(Effect):
    """This weapon system may fire unseen at a locked target (L2440)."""


@kind("attack pool")
@dataclass(frozen=True)
class SplitFire(Effect):
    """This weapon system may share its dice among several targets (L2462)."""


@kind("attack pool")
@dataclass(frozen=True)
class FreeRapidFire(Effect):
    """A rapid fire with this weapon system costs no Focus Point (L2458)."""


@kind("attack pool")
@dataclass(frozen=True)
class LuckyReroll(Effect):
    """Once a battle, any dice of one roll are rolled again (L2330)."""


# --- the defense pool (attack.py plan, L1111-1152) -----------------------------------------------


@kind("defense pool")
@dataclass(frozen=True)
class DefenseValue(Effect):
    """``bonus`` to the Defense value, before halving, under ``when`` (L2414)."""

    bonus: int
    when: When = "always"


@kind("defense pool")
@dataclass(frozen=True)
class DefenseDice(Effect):
    """``n`` more defense dice under ``when`` (L2310, L2376, L2388)."""

    n: int
    when: When = "always"


@kind("defense pool")
@dataclass(frozen=True)
class CountsObscured(Effect):
    """Always obscured to attacks with these weapon systems (L2420)."""

    weapons: tuple[WeaponSystem, ...]


@kind("defense pool")
@dataclass(frozen=True)
class CoverAs(Effect):
    """Ordinary cover counts as ``cover`` (L2304)."""

    cover: Literal["hard"]


@kind("defense pool")
@dataclass(frozen=True)
class DodgePerSix(Effect):
    """Each defensive 6 dodges ``inches`` (L2370)."""

    inches: int


@kind("defense pool")
@dataclass(frozen=True)
class Parry(Effect):
    """Defending in close combat, each 6 may hurt the attacker instead (L2448)."""


@kind("defense pool")
@dataclass(frozen=True)
class SoaksForFriend(Effect):
    """Pays a Focus Point to take a nearby friend's damage (L2316)."""


# --- after damage: power attacks (power.py, L1188-1346) -------------------------------------------


@kind("after damage")
@dataclass(frozen=True)
class ExtraPowerPoints(Effect):
    """``n`` more power points once damage is settled (L2454)."""

    n: int


@kind("after damage")
@dataclass(frozen=True)
class GrantsPowerAttack(Effect):
    """Unlocks a special power attack (L1194, L1202)."""

    power: PowerAttackId


@kind("after damage")
@dataclass(frozen=True)
class PowerFromWeapon(Effect):
    """``power`` may be bought after an attack with this ``weapon`` system too (L2460)."""

    power: PowerAttackId
    weapon: WeaponSystem


@kind("after damage")
@dataclass(frozen=True)
class RecoilPull(Effect):
    """A Recoil from this ``weapon`` system may pull the target in instead (L2460)."""

    weapon: WeaponSystem


@kind("after damage")
@dataclass(frozen=True)
class ImmuneToPower(Effect):
    """``power`` has no effect on it (L2306, L2374)."""

    power: PowerAttackId


@kind("after damage")
@dataclass(frozen=True)
class CancelsPowerOnce(Effect):
    """Once a battle, every power point of one attack on it is lost (L2366)."""


@kind("after damage")
@dataclass(frozen=True)
class HalvesKnockback(Effect):
    """Knock-backs move it half as far, rounding up (L2402)."""


@kind("after damage")
@dataclass(frozen=True)
class StandsOnPilotRoll(Effect):
    """A passed Pilot Skill roll keeps it standing when knocked down (L2418)."""


@kind("after damage")
@dataclass(frozen=True)
class HalvesFallingHits(Effect):
    """Falling deals it half the hits (L2340)."""


# --- reactions, locks and evades (reactions.py, state.py, turn.py, L1381-1440) -------------------


@kind("reactions")
@dataclass(frozen=True)
class UnseenMoves(Effect):
    """Nobody may react to its moves (L2384)."""


@kind("reactions")
@dataclass(frozen=True)
class FreeReactionOnce(Effect):
    """One reaction a battle without a Focus Point (L2338)."""


@kind("reactions")
@dataclass(frozen=True)
class FreeDarkEvade(Effect):
    """In darkness its free evade costs no Focus Point (L2009)."""


@kind("reactions")
@dataclass(frozen=True)
class EvadeAfterShakingLock(Effect):
    """Shaking off a lock with an evade also gives an Evade counter (L2352)."""


@kind("reactions")
@dataclass(frozen=True)
class LockAfterStrippingEvade(Effect):
    """Stripping an Evade with a lock also locks (L2424)."""


@kind("reactions")
@dataclass(frozen=True)
class LockNeedsPilotRoll(Effect):
    """Locking onto it needs a passed Pilot Skill roll (L2386)."""


# --- turns, Focus Points and initiative (turn.py, state.py, L700-782) ----------------------------


@kind("focus points")
@dataclass(frozen=True)
class FocusPerTurn(Effect):
    """``n`` more Focus Points for its side each turn while on the table and running (L2320)."""

    n: int


@kind("focus points")
@dataclass(frozen=True)
class FocusCapPerRank(Effect):
    """Each rank of the (N) upgrade lets one more Focus Point go to it a turn (L2298)."""


@kind("initiative")
@dataclass(frozen=True)
class InitiativeBonus(Effect):
    """``n`` to its side's initiative while on the table, once per upgrade however many hold it
    (L2348, L2380)."""

    n: int


@kind("initiative")
@dataclass(frozen=True)
class InitiativeReroll(Effect):
    """Once a battle, its side's initiative die is rolled again (L92)."""


@kind("end phase")
@dataclass(frozen=True)
class RebootActions(Effect):
    """Reboots after a shut down with ``actions`` special actions (L960, L2406)."""

    actions: int


# --- panic (links.py, L2760-2790) ----------------------------------------------------------------


@kind("panic")
@dataclass(frozen=True)
class PassesPanic(Effect):
    """Every panic roll is passed (L2314)."""


@kind("panic")
@dataclass(frozen=True)
class LendsPanicReroll(Effect):
    """Friends near it roll a failed panic roll again (L2324)."""


@kind("panic")
@dataclass(frozen=True)
class PanicOnCharge(Effect):
    """Enemies charging it make a panic roll first (L2350)."""


# --- links and special actions (links.py, special.py, turn.py) -----------------------------------


@kind("links")
@dataclass(frozen=True)
class Link(Effect):
    """Shared with a named partner; the partner's act lets it act (L2278)."""

    link: LinkId


@kind("special actions")
@dataclass(frozen=True)
class SpecialAction(Effect):
    """Grants the named special action, carried out by its own action (L2326, L2334, L2336, L2346, L2412)."""

    action: SpecialActionId


@kind("special actions")
@dataclass(frozen=True)
class Transform(Effect):
    """Another way to change form (L2332, L2422)."""

    how: TransformId


@kind("special actions")
@dataclass(frozen=True)
class DeactivateBonus(Effect):
    """``n`` to rolls deactivating a device in the Sabotage mission (L1868)."""

    n: int


# --- moving and deploying (combine.py, turn.py, L1538-1570) --------------------------------------


@kind("movement")
@dataclass(frozen=True)
class Flies(Effect):
    """May take off and fly (L2394, L2396)."""


@kind("movement")
@dataclass(frozen=True)
class Jumps(Effect):
    """Moves by jumping (L2404)."""


@kind("movement")
@dataclass(frozen=True)
class FreeFastMove(Effect):
    """Moving fast costs it no Focus Point (L2392)."""


@kind("movement")
@dataclass(frozen=True)
class JumpChargeDamage(Effect):
    """A jump charge deals D3 damage on a pass, 1 on a fail (L2308)."""


@kind("deployment")
@dataclass(frozen=True)
class HaloDrop(Effect):
    """May drop in from reserve anywhere; scattered ``scatter`` inches (L1556, L2398)."""

    scatter: Literal["D6", "D3"] = "D6"


@kind("deployment")
@dataclass(frozen=True)
class Ambush(Effect):
    """May come out of reserve from ambush (L1566)."""


@kind("environment")
@dataclass(frozen=True)
class StormProof(Effect):
    """Dust, snow and lightning leave it be (L2390)."""


@kind("building")
@dataclass(frozen=True)
class CombinerMember(Effect):
    """A member of a combiner team (L2378)."""


# --- what a power attack does (power.py, L1208-1346) ---------------------------------------------

#: The procedures power.py carries out for power attacks, one function each (``power.PROCEDURES``).
ProcedureId = Literal[
    "distract",
    "recoil",
    "throw",
    "swing",
    "knock_down",
    "shut_down",
    "explode",
    "suppression",
    "strip_or_lock",
    "blast",
    "burn",
    "chain",
    "reposition",
]


@kind("power attacks")
@dataclass(frozen=True)
class Resolves(Effect):
    """The power attack is carried out by this procedure of power.py (L1208-1346)."""

    procedure: ProcedureId


@kind("power attacks")
@dataclass(frozen=True)
class ActsOnTarget(Effect):
    """Works on the attack's own target, so does nothing once it is destroyed (L1264-1340)."""


@kind("power attacks")
@dataclass(frozen=True)
class WeaponOnly(Effect):
    """Bought only after attacks with these weapon systems (L1324, L1344); ``ref`` is the line."""

    weapons: tuple[WeaponSystem, ...]
    ref: str


@kind("power attacks")
@dataclass(frozen=True)
class NeedsKill(Effect):
    """Bought only when this very attack destroyed the target (L1276)."""


@kind("power attacks")
@dataclass(frozen=True)
class KnocksDown(Effect):
    """Leaves the target knocked down, which Stabilised may resist (L1282, L1340, L2418)."""


@kind("power attacks")
@dataclass(frozen=True)
class HullBreach(Effect):
    """Inside a space structure its roll may breach the hull (L2081)."""
