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

from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.dice import DiceSource
from core.pool import table
from core.systems.base import ActionOdds, ActionResult, ActionSpec
from core.systems.gunframe.catalogue import POWER_ATTACKS, PowerAttackDef, effects_of, granted_by, has_effect
from core.systems.gunframe.effects import (
    CancelsPowerOnce,
    GrantsPowerAttack,
    HalvesKnockback,
    ImmuneToPower,
    PowerFromWeapon,
    RecoilPull,
    StandsOnPilotRoll,
)
from core.systems.gunframe.environment import (
    BREACH_CHANCE,
    breach_roll,
    environment_of,
    knockback_environment,
)
from core.systems.gunframe.links import nemesis_by_power
from core.systems.gunframe.options import GunframeOptions, options_of
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

if TYPE_CHECKING:
    from core.game import Game

PowerId = Literal[
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
Environment = Literal["normal", "high_gravity", "low_gravity", "space", "underwater"]

#: Effects that act on the attack's own target, so need it still standing (not destroyed).
ON_TARGET = {"distract", "recoil", "swing", "knock_down", "throw", "shut_down", "target_painting", "burn"}


class PowerBuy(BaseModel):
    """One power attack bought with the held points."""

    model_config = ConfigDict(extra="forbid")

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


class PowerInput(BaseModel):
    """How the attacker spends the power points its last attack earned."""

    model_config = ConfigDict(extra="forbid")

    attacker: str = Field(
        description="The unit holding power points, as 'side/key'.", json_schema_extra={"ui": "own-unit"}
    )
    spend: list[PowerBuy] = Field(
        default_factory=list,
        max_length=13,
        description="Power attacks in the order they happen (L1196); empty to let the points go.",
    )
    ablative_armour: bool = Field(
        default=False,
        description="The target uses its Ablative Armour first: every point is cancelled, once per battle "
        "(L2366).",
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
        if buy.power == "swing" and weapon != "close":
            raise ValueError("Swing is for Close attacks only (L1324)")
        reach = any(e.power == buy.power and e.weapon == weapon for e in effects_of(w_ups, PowerFromWeapon))
        if buy.power == "throw" and not (weapon == "close" or reach):
            raise ValueError("Throw is for Close attacks, or Short ones with Reach (L1344, L2460)")
        pull = any(e.weapon == weapon for e in effects_of(w_ups, RecoilPull))
        if buy.pull and not (buy.power == "recoil" and pull):
            raise ValueError("only a Recoil from a Short system with Reach may pull the target in (L2460)")
        if destroyed and buy.power in ON_TARGET:
            raise ValueError(f"{target.name} was destroyed: {d.name} has nothing to act on")
        if buy.power == "explode":
            if not (destroyed and held.get("destroyed")):
                raise ValueError("Explode needs the target destroyed by this attack (L1276)")
            if _immune(t_ups, "explode") or frame == "infantry":
                raise ValueError(f"{target.name} is immune to Explode (L2374, L2607)")
        if buy.power == "distract":
            if _immune(t_ups, "distract"):
                raise ValueError(f"{target.name} has a Co-Pilot and is immune to Distract (L2306)")
            if edits.has(t_pos, "shut_down"):
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


def apply(game: Game, inp: PowerInput, dice: DiceSource) -> tuple[Edits, list[str], dict[str, Any]]:
    """Resolve the declared spending in order; the edits, one line per effect, and the held points."""
    opts = options_of(game)
    edits = Edits(game)
    a_pos, t_pos, held = _check(edits, inp, opts)
    attacker, target = edits.unit(a_pos), edits.unit(t_pos)
    if inp.stabilised_lucky:
        if not has_effect(upgrades_of(target), StandsOnPilotRoll):
            raise ValueError(f"{target.name} has no Stabilised roll for Lucky to repeat (L2418)")
        check_lucky(edits, t_pos)
    lines: list[str] = []
    edits.drop_extra(a_pos, "power")
    if inp.ablative_armour:
        edits.set_extra(t_pos, "used", [*edits.extra(t_pos, "used", []), "ablative_armour"])
        return edits, [f"{target.name}'s Ablative Armour cancels all {held['points']} points"], held
    damage = int(held.get("damage", 0))
    burned = 0
    close = bool(held.get("close"))
    for buy in inp.spend:
        p = buy.power
        x = buy.points
        if p in ON_TARGET and edits.get(t_pos, "destroyed"):
            lines.append(f"{POWER_ATTACKS[p].name}: {target.name} is destroyed by now")
        elif p == "distract":
            edits.add_condition(t_pos, "distracted")
            lines.append(f"{target.name} is distracted: a single action at its next activation")
        elif p in ("recoil", "throw"):
            if p == "recoil" and (edits.has(t_pos, "knocked_down") or edits.has(t_pos, "shut_down")):
                lines.append(f"Recoil: {target.name} is down by now and stays put (L1296)")
                continue
            base = damage if opts.knockback_main_damage_only else damage + burned
            inches, why = knockback(edits, t_pos, base, environment(game, inp))
            how = f" ({', '.join(why)})" if why else ""
            if p == "recoil":
                way = "toward the attacker" if buy.pull else "straight away from the attacker"
                follow = "; the attacker may follow, staying in contact" if close and not buy.pull else ""
                lines.append(f'Recoil: move {target.name} {inches}" {way}{how}{follow}')
                out = leave(edits, t_pos, "recoiled")
                if out:
                    lines.append(out)
            else:
                lines.append(f'Throw: move {target.name} {inches}" in a direction the attacker picks{how}')
                lines.append(_knock_down(edits, t_pos, dice, inp.stabilised_lucky))
        elif p == "swing":
            lines.append(
                f"Swing: {attacker.name} turns as it likes and {target.name} swings round it at the same "
                "contact point; anything in the way stops it and knocks it down"
            )
        elif p == "knock_down":
            lines.append(_knock_down(edits, t_pos, dice, inp.stabilised_lucky))
        elif p == "shut_down":
            edits.add_condition(t_pos, "shut_down")
            edits.remove_condition(t_pos, "distracted")  # L1270
            edits.set_extra(t_pos, "reboot", 0)
            text = f"{target.name} is shut down until it reboots (drops any loot)"
            if edits.has(t_pos, "flying"):
                text += "; " + fall(edits, t_pos, dice)
            lines.append(text)
        elif p == "explode":
            lines.append(f'{target.name} explodes: 1 damage to every unit within {x}" of its centre')
            for ref in buy.units:
                pos = edits.find(ref)
                unit = edits.unit(pos)
                immune = _immune(upgrades_of(unit), "explode") or profile_of(unit).frame == "infantry"
                if kind_of(unit) is not None:
                    lines.append(f"{unit.name} is a structure: power attacks leave it be (L2926)")
                elif immune and not opts.explode_hits_immune_bystanders:
                    lines.append(f"{unit.name} is immune to the explosion (L2374, L2607)")
                elif edits.get(pos, "destroyed"):
                    lines.append(f"{unit.name} is already destroyed")
                else:
                    gone = edits.damage(pos, 1)
                    lines.append(f"{unit.name} takes 1 damage" + (", destroyed" if gone else ""))
        elif p == "suppression":
            zones = list(edits.option("suppression", []) or [])
            zones.append({"near": target.name, "inches": x, "round": game.round})
            edits.set_option("suppression", zones)
            lines.append(
                f'Suppression: put a token touching {target.name}; within {x}" of it the ground is '
                "dangerous until the End phase"
            )
        elif p == "target_painting":
            if edits.counter(t_pos, "evade"):
                edits.set_counter(t_pos, "evade", 0)
                lines.append(f"Target Painting strips {target.name}'s Evade")
            else:
                edits.set_counter(t_pos, "target_lock", 1)
                lines.append(f"Target Painting locks {target.name}")
        elif p == "blast":
            lines.append(f'Blast: {x} hits on every unit within 3" of {target.name}')
            for ref in buy.units:
                pos = edits.find(ref)
                if kind_of(edits.unit(pos)) is not None:
                    lines.append(f"{edits.name(pos)} is a structure: power attacks leave it be (L2926)")
                    continue
                lines.append(_hit(edits, pos, x, _blast_defense(edits, buy, ref), dice, "blast"))
        elif p == "burn":
            before = int(edits.get(t_pos, "damage"))
            lines.append("Burn: " + _hit(edits, t_pos, x, _base_defense(edits, t_pos, opts), dice, "burn"))
            burned += int(edits.get(t_pos, "damage")) - before
        elif p == "chain_attack":
            for ref in buy.units:
                pos = edits.find(ref)
                lines.append("Chain: " + _hit(edits, pos, 2, _base_defense(edits, pos, opts), dice, "chain"))
        elif p == "run_and_gun":
            lines.append(f'Run and Gun: {attacker.name} may move up to {x}" any way, ignoring terrain')
        if p in ("explode", "blast") and environment_of(game) == "space_structure":
            lines.append("Space structure: " + breach_roll(edits, dice, POWER_ATTACKS[p].name))  # L2081
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
        if buy.power == "burn":
            dist = hits_dist(buy.points, _base_defense(edits, t_pos, opts))
            tables["burn"] = table(dist)
            left = edits.armour_left(t_pos)
            facts["burn destroys"] = float(sum(w for k, w in dist.weights.items() if k >= left) / dist.total)
        elif buy.power in ("blast", "chain_attack"):
            for ref in buy.units:
                pos = edits.find(ref)
                if kind_of(edits.unit(pos)) is not None:
                    continue  # L2926
                if buy.power == "blast":
                    dist = hits_dist(buy.points, _blast_defense(edits, buy, ref))
                else:
                    dist = hits_dist(2, _base_defense(edits, pos, opts))
                tables[f"{buy.power}: {edits.name(pos)}"] = table(dist)
        elif buy.power in ("knock_down", "throw") and has_effect(upgrades_of(target), StandsOnPilotRoll):
            stays = lucky_pass_dist(skill_of(target), inp.stabilised_lucky)
            facts["stays standing (Stabilised)"] = float(stays.probability(1))
    rolls = sum(b.power in ("explode", "blast") for b in ([] if inp.ablative_armour else inp.spend))
    if rolls and environment_of(game) == "space_structure":
        facts["hull breach"] = float(1 - (1 - BREACH_CHANCE) ** rolls)  # a 1-2 on any of the dice (L2081)
    summary = f"{held['points']} power point(s) held against {target.name}"
    return ActionOdds(tables=tables, facts=facts, summary=summary)


POWER = ActionSpec(
    name="power",
    label="Power attacks",
    input=PowerInput,
    resolve=resolve,
    odds=odds,
    help="Spend the points of the last attack, in a declared order; unspent points are lost (L1184-1352).",
)
