"""Spending power points on power attacks (L1184-1352, quick reference L3349-3363).

After an attack that rolled a 6 and did damage (L1188-1190) the attacker holds
its power points (``state.extra["power"]``, set by the attack).  The ``power``
action spends them: the player lists the effects in the order they happen
(L1196), each allowed only where its condition holds (L1200-1202) and never
against an immune unit (L1204-1206).  What a tracker can keep (conditions,
counters, damage) is applied; distances and templates are reported in the
text for the players to carry out on the table.  Unspent points are lost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from core.dice import DiceSource
from core.pool import table
from core.systems.base import ActionOdds, ActionResult, Closed, action_texts, own_unit
from core.systems.gunframe.effects import (
    ActsOnTarget,
    CancelsPowerOnce,
    Effect,
    GrantsPowerAttack,
    HalvesKnockback,
    HullBreach,
    ImmuneToPower,
    KnocksDown,
    NeedsKill,
    PowerAttackId,
    PowerFromWeapon,
    ProcedureId,
    RecoilPull,
    Resolves,
    StandsOnPilotRoll,
    WeaponOnly,
)
from core.systems.gunframe.environment import (
    BREACH_CHANCE,
    breach_roll,
    environment_of,
    knockback_environment,
)
from core.systems.gunframe.links import nemesis_by_power
from core.systems.gunframe.options import GunframeOptions, options_of
from core.systems.gunframe.power_attacks import POWER_ATTACKS, PowerAttackDef
from core.systems.gunframe.state import (
    Edits,
    Pos,
    check_lucky,
    defense_value,
    fall,
    halve,
    hits_dist,
    lucky_pass_dist,
    lucky_pilot_roll,
    profile_of,
    roll_hits,
    skill_of,
    upgrades_of,
    weapon_ups,
)
from core.systems.gunframe.structures import kind_of, leave
from core.systems.gunframe.upgrades import UPGRADES, effects_by, effects_of, granted_by, has_effect

if TYPE_CHECKING:
    from core.game import Game, GameUnit

_TEXTS = action_texts(__package__)

#: The power attack ids, a closed type (effects.PowerAttackId).
PowerId = PowerAttackId
Environment = Literal["normal", "high_gravity", "low_gravity", "space", "underwater"]


class PowerBuy(Closed):
    """One power attack bought with the held points."""

    power: PowerId = Field(description="Which power attack (L1208-1222).")
    points: int = Field(
        default=1,
        ge=1,
        le=30,
        description="Points put into an X effect: inches of Explode or Suppression, hits of Blast or Burn, "
        "units of Chain Attack, inches of Run and Gun (L1226). Fixed costs ignore it.",
    )
    units: list[str] = Field(
        default_factory=list,
        max_length=24,
        description="Units caught, as 'side/key': Blast, those within 3\" of the target (L1236); Explode, "
        'those within X" (L1278); Chain Attack, the X enemies in chain order (L1254).',
    )
    cover: list[str] = Field(
        default_factory=list,
        max_length=24,
        description="Blast: caught units in cover as seen from the target (+1D, L1236).",
    )
    hard_cover: list[str] = Field(
        default_factory=list, max_length=24, description="Blast: caught units in hard cover (+2D, L1138)."
    )
    pull: bool = Field(
        default=False, description="Recoil with a Reach system: drag the target toward the attacker (L2460)."
    )


class PowerInput(Closed):
    """How the attacker spends the power points its last attack earned."""

    attacker: str = own_unit("The unit holding power points, as 'side/key'.")
    spend: list[PowerBuy] = Field(
        default_factory=list,
        max_length=13,
        description="Power attacks in the order they happen (L1196); empty to let the points go.",
    )
    ablative_armour: bool = Field(
        default=False,
        description="The target uses its Ablative Armour first: every point is cancelled, once per battle "
        "(L2366).",
        json_schema_extra={"same_odds": "every point is cancelled before any is spent, so nothing is rolled"},
    )
    stabilised_lucky: bool = Field(
        default=False,
        description="A Lucky target rolls its failed Stabilised Pilot Skill roll again, once per battle "
        "(L2330, L2418).",
    )
    environment: Environment | None = Field(
        default=None,
        description='Knock-back changes: high gravity halves (L2057), low gravity +1" (L2067), space +2" '
        "(L2809); underwater, Burn does nothing (L2095). Empty: the game's environment.",
    )


def environment(game: Game, inp: PowerInput) -> Environment:
    """The environment the spending happens in: as given, else the game's setting."""
    if inp.environment is not None:
        return inp.environment
    env = knockback_environment(game)
    assert env in ("normal", "high_gravity", "low_gravity", "space", "underwater")
    return env  # type: ignore[return-value]


def held_power(edits: Edits, pos: Pos) -> dict[str, Any]:
    held = edits.extra(pos, "power")
    if not isinstance(held, dict) or int(held.get("points", 0)) < 1:
        raise ValueError(f"{edits.name(pos)} holds no power points: they come from an attack (L1188)")
    return held


def _grants(ids: set[str], power: str) -> bool:
    return any(e.power == power for e in effects_of(ids, GrantsPowerAttack))


def _immune(ids: set[str], power: str) -> bool:
    """Immune to a power attack: Co-Pilot to Distract (L2306), Bracketed to Explode (L2374)."""
    return any(e.power == power for e in effects_of(ids, ImmuneToPower))


def _weapon_only(d: PowerAttackDef, only: WeaponOnly) -> str:
    """Why the power attack cannot follow this attack: the systems it needs, and what extends them (L2460)."""
    systems = " or ".join(w.capitalize() for w in only.weapons)
    extra = [(u, e) for u, e in effects_by(UPGRADES, PowerFromWeapon) if e.power == d.id]
    if not extra:
        return f"{d.name} is for {systems} attacks only ({only.ref})"
    more = ", or ".join(f"{e.weapon.capitalize()} ones with {u.name}" for u, e in extra)
    refs = ", ".join([only.ref, *(u.ref for u, _ in extra)])
    return f"{d.name} is for {systems} attacks, or {more} ({refs})"


def cost_of(d: PowerAttackDef, buy: PowerBuy) -> int:
    return d.cost if d.cost is not None else buy.points


def _check(edits: Edits, inp: PowerInput, opts: GunframeOptions) -> tuple[Pos, Pos, dict[str, Any]]:
    """Every gate of the declared spending; ValueError naming the rule broken."""
    a_pos = edits.find(inp.attacker)
    held = held_power(edits, a_pos)
    t_pos = edits.find(str(held["target"]))
    attacker, target = edits.unit(a_pos), edits.unit(t_pos)
    weapon = str(held["weapon"])
    w_ups = weapon_ups(attacker, weapon)
    t_ups = upgrades_of(target)
    points = int(held["points"])
    if inp.ablative_armour:
        if not has_effect(t_ups, CancelsPowerOnce):
            raise ValueError(f"{target.name} has no Ablative Armour (L2366)")
        if "ablative_armour" in edits.extra(t_pos, "used", []):
            raise ValueError(f"{target.name} has used its Ablative Armour this battle (L2366)")
        if inp.spend:
            raise ValueError("Ablative Armour cancels every point before any is spent (L2366)")
        return a_pos, t_pos, held
    total = sum(cost_of(POWER_ATTACKS[b.power], b) for b in inp.spend)
    if total > points:
        raise ValueError(f"{total} points declared but {attacker.name} holds {points} (L1196)")
    seen: set[str] = set()
    destroyed = bool(edits.get(t_pos, "destroyed"))
    frame = profile_of(target).frame
    for buy in inp.spend:
        d = POWER_ATTACKS[buy.power]
        if buy.power in seen and not opts.repeat_power_attacks:
            raise ValueError(f"{d.name} is bought once per attack, with all its points at once (digest 11.9)")
        seen.add(buy.power)
        grant = granted_by(buy.power)  # a special power attack needs its upgrade (L1194, L1202)
        if grant is not None and grant.category == "pilot":
            if not _grants(upgrades_of(attacker), buy.power):
                raise ValueError(f"{attacker.name} has no {grant.name} pilot upgrade ({d.ref}, {grant.ref})")
        elif grant is not None and not _grants(w_ups, buy.power):
            raise ValueError(f"{d.name} needs the {weapon} system to carry that upgrade ({d.ref}, L1202)")
        reach = any(e.power == buy.power and e.weapon == weapon for e in effects_of(w_ups, PowerFromWeapon))
        for only in (e for e in d.effects if isinstance(e, WeaponOnly)):
            if weapon not in only.weapons and not reach:
                raise ValueError(_weapon_only(d, only))
        pull = any(e.weapon == weapon for e in effects_of(w_ups, RecoilPull))
        if buy.pull and not (buy.power == "recoil" and pull):
            raise ValueError("only a Recoil from a Short system with Reach may pull the target in (L2460)")
        if destroyed and _has(d, ActsOnTarget):
            raise ValueError(f"{target.name} was destroyed: {d.name} has nothing to act on")
        if _has(d, NeedsKill) and not (destroyed and held.get("destroyed")):
            raise ValueError(f"{d.name} needs the target destroyed by this attack (L1276)")
        for up, _ in ((u, e) for u, e in effects_by(t_ups, ImmuneToPower) if e.power == buy.power):
            raise ValueError(f"{target.name} has {up.name} and is immune to {d.name} ({up.ref})")
        if buy.power == "explode" and frame == "infantry":
            raise ValueError(f"{target.name} is infantry and immune to Explode (L2607)")
        if buy.power == "distract" and edits.has(t_pos, "shut_down"):
            raise ValueError(f"{target.name} is shut down and cannot be distracted (L1270)")
        if buy.power == "recoil" and (edits.has(t_pos, "knocked_down") or edits.has(t_pos, "shut_down")):
            raise ValueError(f"{target.name} is down and cannot be recoiled (L1296)")
        if buy.power == "burn" and environment(edits.game, inp) == "underwater":
            raise ValueError("Burn has no effect underwater (L2095)")
        if buy.power == "chain_attack":
            if len(buy.units) != buy.points or len(set(buy.units)) != len(buy.units):
                raise ValueError("Chain Attack names exactly X different units, in chain order (L1254-1256)")
            for ref in buy.units:
                pos = edits.find(ref)
                if pos == t_pos:
                    raise ValueError("the attack's own target cannot be chained (L1256)")
                if pos[0] == a_pos[0]:
                    raise ValueError(f"{edits.name(pos)} is not an enemy: Chain Attack picks enemies (L1254)")
                if kind_of(edits.unit(pos)) is not None:
                    raise ValueError(f"{edits.name(pos)} is a structure: power attacks leave it be (L2926)")
        if buy.power in ("blast", "explode"):
            if len(set(buy.units)) != len(buy.units):
                raise ValueError(f"{d.name} reaches each unit once")
            for ref in buy.units:
                pos = edits.find(ref)
                if pos == t_pos and not (buy.power == "blast" and opts.blast_hits_target):
                    raise ValueError(f"{d.name} is measured around the target; list the units near it")
    return a_pos, t_pos, held


def knockback(edits: Edits, t_pos: Pos, inches: int, env: Environment) -> tuple[int, list[str]]:
    """Knock-back distance and why: Heavy (L2402) and high gravity (L2057) halve, rounding up (L357);
    low gravity adds 1" (L2067), space 2" (L2809)."""
    why: list[str] = []
    if has_effect(upgrades_of(edits.unit(t_pos)), HalvesKnockback):
        inches = halve(inches)
        why.append("Heavy halves it")
    if env == "high_gravity":
        inches = halve(inches)
        why.append("high gravity halves it")
    elif env == "low_gravity":
        inches += 1
        why.append('low gravity +1"')
    elif env == "space":
        inches += 2
        why.append('space +2"')
    return inches, why


def _knock_down(edits: Edits, pos: Pos, dice: DiceSource, lucky: bool = False) -> str:
    """Knocked down (L948-952), unless Stabilised's Pilot Skill roll holds it up (L2418), which a Lucky
    unit may roll again (L2330)."""
    unit = edits.unit(pos)
    if edits.has(pos, "knocked_down"):
        return f"{unit.name} is already down"
    luck = ""
    if has_effect(upgrades_of(unit), StandsOnPilotRoll):
        ok, face, luck = lucky_pilot_roll(edits, pos, dice, f"{unit.name} Stabilised", lucky)
        if ok:
            return f"{unit.name} stays on its feet (Stabilised, rolled {face}){luck}"
    text = f"{unit.name} is knocked down{luck} (drops anything it carries)"
    if edits.has(pos, "flying"):
        text += "; " + fall(edits, pos, dice)
    if not edits.get(pos, "destroyed"):
        edits.add_condition(pos, "knocked_down")
    return text


def _base_defense(edits: Edits, pos: Pos, opts: GunframeOptions) -> int:
    """Bare Defense for Burn and Chain Attack: halved while shut down (L958) unless the option says not."""
    value = defense_value(edits.unit(pos))
    if edits.has(pos, "shut_down") and not opts.base_defense_unhalved:
        value = halve(value)
    return value


def _hit(edits: Edits, pos: Pos, hits: int, defense: int, dice: DiceSource, label: str) -> str:
    unit = edits.unit(pos)
    if edits.get(pos, "destroyed"):
        return f"{unit.name} is already destroyed"
    damage, faces = roll_hits(hits, defense, dice, f"{label} on {unit.name}")
    destroyed = edits.damage(pos, damage)
    rolled = f", defense {faces}" if faces else ""
    return f"{unit.name} takes {damage} of {hits} hits{rolled}" + (", destroyed" if destroyed else "")


def _blast_defense(edits: Edits, buy: PowerBuy, ref: str) -> int:
    """Blast: Defense plus cover as if the target had fired (L1236); flyers never have cover (L920)."""
    pos = edits.find(ref)
    value = defense_value(edits.unit(pos))
    if edits.has(pos, "shut_down"):
        value = halve(value)
    if edits.has(pos, "flying"):
        return value
    if ref in buy.hard_cover:
        return value + 2
    return value + (1 if ref in buy.cover else 0)


@dataclass
class _Spend:
    """What every procedure of a power attack works with; ``burned`` is Burn's damage so far."""

    game: Game
    edits: Edits
    inp: PowerInput
    opts: GunframeOptions
    dice: DiceSource
    a_pos: Pos
    t_pos: Pos
    damage: int
    close: bool
    lines: list[str]
    burned: int = 0

    @property
    def attacker(self) -> GameUnit:
        return self.edits.unit(self.a_pos)

    @property
    def target(self) -> GameUnit:
        return self.edits.unit(self.t_pos)


def _distract(c: _Spend, buy: PowerBuy) -> None:
    """Distract (L1264): a single action at its next activation."""
    c.edits.add_condition(c.t_pos, "distracted")
    c.lines.append(f"{c.target.name} is distracted: a single action at its next activation")


def _pushed(c: _Spend) -> tuple[int, str]:
    """Recoil's and Throw's distance: the damage, Burn's too unless an option says not (L1292, L1344)."""
    base = c.damage if c.opts.knockback_main_damage_only else c.damage + c.burned
    inches, why = knockback(c.edits, c.t_pos, base, environment(c.game, c.inp))
    return inches, f" ({', '.join(why)})" if why else ""


def _recoil(c: _Spend, buy: PowerBuy) -> None:
    """Recoil (L1288-1296), pulled in instead with Reach (L2460)."""
    edits, t_pos, target = c.edits, c.t_pos, c.target
    if edits.has(t_pos, "knocked_down") or edits.has(t_pos, "shut_down"):
        c.lines.append(f"Recoil: {target.name} is down by now and stays put (L1296)")
        return
    inches, how = _pushed(c)
    way = "toward the attacker" if buy.pull else "straight away from the attacker"
    follow = "; the attacker may follow, staying in contact" if c.close and not buy.pull else ""
    c.lines.append(f'Recoil: move {target.name} {inches}" {way}{how}{follow}')
    out = leave(edits, t_pos, "recoiled")
    if out:
        c.lines.append(out)


def _throw(c: _Spend, buy: PowerBuy) -> None:
    """Throw (L1340-1346): moved, then knocked down."""
    inches, how = _pushed(c)
    c.lines.append(f'Throw: move {c.target.name} {inches}" in a direction the attacker picks{how}')
    c.lines.append(_knock_down(c.edits, c.t_pos, c.dice, c.inp.stabilised_lucky))


def _swing(c: _Spend, buy: PowerBuy) -> None:
    """Swing (L1320-1330)."""
    c.lines.append(
        f"Swing: {c.attacker.name} turns as it likes and {c.target.name} swings round it at the same "
        "contact point; anything in the way stops it and knocks it down"
    )


def _knock(c: _Spend, buy: PowerBuy) -> None:
    """Knock Down (L1282)."""
    c.lines.append(_knock_down(c.edits, c.t_pos, c.dice, c.inp.stabilised_lucky))


def _shut_down(c: _Spend, buy: PowerBuy) -> None:
    """Shut Down (L1306-1310), which ends a distraction (L1270)."""
    edits, t_pos = c.edits, c.t_pos
    edits.add_condition(t_pos, "shut_down")
    edits.remove_condition(t_pos, "distracted")  # L1270
    edits.set_extra(t_pos, "reboot", 0)
    text = f"{c.target.name} is shut down until it reboots (drops any loot)"
    if edits.has(t_pos, "flying"):
        text += "; " + fall(edits, t_pos, c.dice)
    c.lines.append(text)


def _explode(c: _Spend, buy: PowerBuy) -> None:
    """Explode (L1272-1280): 1 damage to each unit listed, save the immune (L2374, L2607)."""
    edits, x = c.edits, buy.points
    c.lines.append(f'{c.target.name} explodes: 1 damage to every unit within {x}" of its centre')
    for ref in buy.units:
        pos = edits.find(ref)
        unit = edits.unit(pos)
        immune = _immune(upgrades_of(unit), "explode") or profile_of(unit).frame == "infantry"
        if kind_of(unit) is not None:
            c.lines.append(f"{unit.name} is a structure: power attacks leave it be (L2926)")
        elif immune and not c.opts.explode_hits_immune_bystanders:
            c.lines.append(f"{unit.name} is immune to the explosion (L2374, L2607)")
        elif edits.get(pos, "destroyed"):
            c.lines.append(f"{unit.name} is already destroyed")
        else:
            gone = edits.damage(pos, 1)
            c.lines.append(f"{unit.name} takes 1 damage" + (", destroyed" if gone else ""))


def _suppression(c: _Spend, buy: PowerBuy) -> None:
    """Suppression (L1312-1318): a token, kept until the End phase."""
    x = buy.points
    zones = list(c.edits.option("suppression", []) or [])
    zones.append({"near": c.target.name, "inches": x, "round": c.game.round})
    c.edits.set_option("suppression", zones)
    c.lines.append(
        f'Suppression: put a token touching {c.target.name}; within {x}" of it the ground is '
        "dangerous until the End phase"
    )


def _strip_or_lock(c: _Spend, buy: PowerBuy) -> None:
    """Target Painting (L1332-1338): strips an Evade, or else locks."""
    if c.edits.counter(c.t_pos, "evade"):
        c.edits.set_counter(c.t_pos, "evade", 0)
        c.lines.append(f"Target Painting strips {c.target.name}'s Evade")
    else:
        c.edits.set_counter(c.t_pos, "target_lock", 1)
        c.lines.append(f"Target Painting locks {c.target.name}")


def _blast(c: _Spend, buy: PowerBuy) -> None:
    """Blast (L1230-1238): X hits on each unit listed, met with Defense and cover."""
    edits, x = c.edits, buy.points
    c.lines.append(f'Blast: {x} hits on every unit within 3" of {c.target.name}')
    for ref in buy.units:
        pos = edits.find(ref)
        if kind_of(edits.unit(pos)) is not None:
            c.lines.append(f"{edits.name(pos)} is a structure: power attacks leave it be (L2926)")
            continue
        c.lines.append(_hit(edits, pos, x, _blast_defense(edits, buy, ref), c.dice, "blast"))


def _burn(c: _Spend, buy: PowerBuy) -> None:
    """Burn (L1240-1246): X hits on the target with bare Defense dice."""
    edits, t_pos = c.edits, c.t_pos
    before = int(edits.get(t_pos, "damage"))
    c.lines.append(
        "Burn: " + _hit(edits, t_pos, buy.points, _base_defense(edits, t_pos, c.opts), c.dice, "burn")
    )
    c.burned += int(edits.get(t_pos, "damage")) - before


def _chain(c: _Spend, buy: PowerBuy) -> None:
    """Chain Attack (L1248-1258): 2 hits on each enemy of the chain."""
    for ref in buy.units:
        pos = c.edits.find(ref)
        c.lines.append(
            "Chain: " + _hit(c.edits, pos, 2, _base_defense(c.edits, pos, c.opts), c.dice, "chain")
        )


def _reposition(c: _Spend, buy: PowerBuy) -> None:
    """Run and Gun (L1298-1304)."""
    c.lines.append(f'Run and Gun: {c.attacker.name} may move up to {buy.points}" any way, ignoring terrain')


#: The procedure behind each :class:`effects.Resolves` (one per name of effects.ProcedureId).
PROCEDURES: dict[ProcedureId, Callable[[_Spend, PowerBuy], None]] = {
    "distract": _distract,
    "recoil": _recoil,
    "throw": _throw,
    "swing": _swing,
    "knock_down": _knock,
    "shut_down": _shut_down,
    "explode": _explode,
    "suppression": _suppression,
    "strip_or_lock": _strip_or_lock,
    "blast": _blast,
    "burn": _burn,
    "chain": _chain,
    "reposition": _reposition,
}


def _has(d: PowerAttackDef, kind: type[Effect]) -> bool:
    return any(isinstance(e, kind) for e in d.effects)


def apply(game: Game, inp: PowerInput, dice: DiceSource) -> tuple[Edits, list[str], dict[str, Any]]:
    """Resolve the declared spending in order; the edits, one line per effect, and the held points."""
    opts = options_of(game)
    edits = Edits(game)
    a_pos, t_pos, held = _check(edits, inp, opts)
    target = edits.unit(t_pos)
    if inp.stabilised_lucky:
        if not has_effect(upgrades_of(target), StandsOnPilotRoll):
            raise ValueError(f"{target.name} has no Stabilised roll for Lucky to repeat (L2418)")
        check_lucky(edits, t_pos)
    lines: list[str] = []
    edits.drop_extra(a_pos, "power")
    if inp.ablative_armour:
        edits.set_extra(t_pos, "used", [*edits.extra(t_pos, "used", []), "ablative_armour"])
        return edits, [f"{target.name}'s Ablative Armour cancels all {held['points']} points"], held
    spend = _Spend(
        game, edits, inp, opts, dice, a_pos, t_pos, int(held.get("damage", 0)), bool(held.get("close")), lines
    )
    for buy in inp.spend:
        d = POWER_ATTACKS[buy.power]
        if _has(d, ActsOnTarget) and edits.get(t_pos, "destroyed"):
            lines.append(f"{d.name}: {target.name} is destroyed by now")
        else:
            for e in d.effects:
                if isinstance(e, Resolves):
                    PROCEDURES[e.procedure](spend, buy)
        if _has(d, HullBreach) and environment_of(game) == "space_structure":
            lines.append("Space structure: " + breach_roll(edits, dice, d.name))  # L2081
    return edits, lines, held


def resolve(game: Game, inp: PowerInput, dice: DiceSource) -> ActionResult:
    edits, lines, held = apply(game, inp, dice)
    attacker = edits.name(edits.find(inp.attacker))
    if inp.ablative_armour:
        head = lines[0]
    elif inp.spend:
        names = ", ".join(
            POWER_ATTACKS[b.power].name + (f" {b.points}" if POWER_ATTACKS[b.power].cost is None else "")
            for b in inp.spend
        )
        head = f"{attacker} spends power on {names}"
    else:
        head = f"{attacker} lets {held['points']} power point(s) go"
    text = head if inp.ablative_armour else "; ".join([head, *lines])
    spent = sum(cost_of(POWER_ATTACKS[b.power], b) for b in inp.spend)
    text += nemesis_by_power(edits, edits.find(inp.attacker))  # L2336
    detail = {"held": held, "spent": spent, "effects": lines}
    return ActionResult(changes=edits.changes(), text=text, detail=detail)


def odds(game: Game, inp: PowerInput) -> ActionOdds:
    """Damage tables of the effects that roll (Burn, Blast, Chain Attack) and Stabilised's chance."""
    opts = options_of(game)
    edits = Edits(game)
    _, t_pos, held = _check(edits, inp, opts)
    tables = {}
    facts: dict[str, float] = {}
    target = edits.unit(t_pos)
    for buy in [] if inp.ablative_armour else inp.spend:
        d = POWER_ATTACKS[buy.power]
        procedures = {e.procedure for e in d.effects if isinstance(e, Resolves)}
        if "burn" in procedures:
            dist = hits_dist(buy.points, _base_defense(edits, t_pos, opts))
            tables["burn"] = table(dist)
            left = edits.armour_left(t_pos)
            facts["burn destroys"] = float(sum(w for k, w in dist.weights.items() if k >= left) / dist.total)
        elif procedures & {"blast", "chain"}:
            for ref in buy.units:
                pos = edits.find(ref)
                if kind_of(edits.unit(pos)) is not None:
                    continue  # L2926
                if "blast" in procedures:
                    dist = hits_dist(buy.points, _blast_defense(edits, buy, ref))
                else:
                    dist = hits_dist(2, _base_defense(edits, pos, opts))
                tables[f"{buy.power}: {edits.name(pos)}"] = table(dist)
        elif _has(d, KnocksDown) and has_effect(upgrades_of(target), StandsOnPilotRoll):
            stays = lucky_pass_dist(skill_of(target), inp.stabilised_lucky)
            facts["stays standing (Stabilised)"] = float(stays.probability(1))
    rolls = sum(_has(POWER_ATTACKS[b.power], HullBreach) for b in ([] if inp.ablative_armour else inp.spend))
    if rolls and environment_of(game) == "space_structure":
        facts["hull breach"] = float(1 - (1 - BREACH_CHANCE) ** rolls)  # a 1-2 on any of the dice (L2081)
    summary = f"{held['points']} power point(s) held against {target.name}"
    return ActionOdds(tables=tables, facts=facts, summary=summary)


POWER = _TEXTS.spec("power", resolve, odds=odds)
