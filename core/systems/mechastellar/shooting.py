"""The shooting attack (L132-L155) with its Armor Saves (L216-L225) and its exact odds.

The attacker rolls nothing: the defender rolls one d10 per shot against the target number
Shooting Accuracy minus Evade (L136-L144); a die that meets it evades, a natural 1 is a critical
hit worth 2 hits (L140), a natural 10 always misses (L141).  Evade bonuses count up to +3 (L138),
a weapon fires at most 10 dice (L134).  Shields and cover block after the roll and never stack
(L228, L634-L635); Skill Defense spends Momentum after the roll, 1 hit each (L253, L260-L264);
an Ace may spend Momentum equal to the round to negate a weapon (Flawless Evasion, L286-L293).
Each hit left deals the weapon's damage (L149); then one Armor Save per hit, at most three per
weapon (warships: every hit, L1009), each failure a flat 1000 (L218-L223).  A warship shoots through
All Weapons Fire! with its readied weapons, and loses a weapon system a failed save (:mod:`.fleet`); the
small-scale mode's Knockback and Hit & Run follow a shot (:mod:`.impacts`).

:func:`plan` works out the numbers; :func:`shot_dist` (the odds) and :func:`shoot` (the roll)
both read the same :class:`~core.steps.FacePool` values from it, so they cannot disagree.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import lcm
from typing import Any, Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource, Dist
from core.game import Game, GameUnit
from core.pool import table
from core.steps import FacePool
from core.systems.base import (
    ActionOdds,
    ActionResult,
    Choice,
    Closed,
    FieldPick,
    NeedChoice,
    UnitState,
    enemy_unit,
    needs,
    own_unit,
    read_options,
)
from core.systems.mechastellar.commands import has_command, warned
from core.systems.mechastellar.events import escape_open, note_event
from core.systems.mechastellar.fleet import (
    after_fire,
    fire_refusal,
    order_tier,
    ship_accuracy,
    ship_shot_checks,
    unready,
    unready_picks,
    wreck,
    wreck_picks,
)
from core.systems.mechastellar.impacts import mark_knock
from core.systems.mechastellar.modules import shield_broken, tally_shield
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.skills import (
    SHOT_SKILLS,
    effect,
    note_skill,
    persevered,
    skill_blocked,
    skill_cost,
    skill_picks,
    skill_refusal,
    used_skills,
    vulcans,
)
from core.systems.mechastellar.space import maneuver_gain
from core.systems.mechastellar.state import gain, ms_state, put_unit_extra, unit_extra
from core.systems.mechastellar.traits import (
    defense_ratio,
    extra_blocks,
    hp_left,
    last_stand,
    on_kill,
    take_damage,
    trait_hits,
)
from core.systems.mechastellar.turns import (
    begin_turn,
    check_disengage,
    check_turn,
    focus_level,
    note_attack,
    pay_disengage,
    power_item,
    spend_action,
)
from core.systems.mechastellar.units import (
    SHOOTING_BLOCKS,
    Unit,
    Weapon,
    captain,
    tier_rank,
    total_actions,
)

#: Most dice one weapon rolls, whatever the modifiers (L134).
MAX_SHOTS = 10
#: Most Evade bonus that counts (L138).
MAX_EVADE_BONUS = 3
#: Most Armor Saves one weapon causes, warships aside (L218, L1009).
MAX_SAVES = 3
#: What a failed Armor Save deals (L218).
FAILED_SAVE = 1000


def momentum_asked(description: str) -> Any:
    """A count of Momentum a player spends after the roll: hidden on the sheet, asked when it matters."""
    return Field(default=None, ge=0, le=20, description=description, json_schema_extra={"ui": "hidden"})


class Shoot(Closed):
    """Fire one weapon system at one target (L132-L155)."""

    attacker: str = own_unit("Who shoots.")
    target: str = enemy_unit("At whom.")
    weapon: int = Field(
        default=0, ge=0, le=11, description="Which weapon.", json_schema_extra={"flow": "pick"}
    )
    band: Literal["long", "rapid"] = Field(
        default="long",
        description="Within half its range the weapon adds its Rapid Fire shots (L92-L93).",
        json_schema_extra={
            "flow": "choice",
            "x-labels": {"long": "Beyond half range", "rapid": "Rapid fire range"},
        },
    )
    within_16: bool = Field(
        default=False,
        description='The target is within 16": a Focus gives +1 hit instead of +1 shot (L124).',
        json_schema_extra={"flow": "common", **needs("focused")},
    )
    cover: bool = Field(
        default=False,
        description="The target is in cover: 1 block, 2 against PEN 0; not with a shield (L634-L635).",
        json_schema_extra={"flow": "common"},
    )
    advantage: Literal["none", "advantage", "blindside"] = Field(
        default="none",
        description="Tactical Advantage: +1 critical hit (L540); a Blindside also ignores shields (L543).",
        json_schema_extra={
            "flow": "common",
            "x-labels": {"none": "None", "advantage": "Tactical Advantage", "blindside": "Blindside"},
        },
    )
    skill: str = Field(
        default="none",
        max_length=20,
        description="A pilot skill used before the roll (L276-L284; Expanded Pilot Skills, L295-L341).",
        json_schema_extra={"flow": "pick"},
    )
    persevere: bool = Field(
        default=False,
        description="The target's Persevere: 1 Momentum, -100 damage a hit (-200 from Round 4), never under "
        "100 (L327-L330; Expanded Pilot Skills).",
        json_schema_extra=needs("persevere", of="target"),
    )
    evade_bonus: int = Field(
        default=0, ge=0, le=10, description="The target's Evade bonuses (at most +3 count, L138)."
    )
    accuracy_bonus: int = Field(default=0, ge=-5, le=5, description="Shooting Accuracy modifiers.")
    extra_hits: int = Field(default=0, ge=0, le=10, description="Flat bonus hits from traits (L378-L412).")
    defense: int | None = momentum_asked(
        "Momentum the target spends on Skill Defense after the roll (L260-L264); asked then."
    )
    bought: int | None = momentum_asked(
        "Failed Armor Saves the target's Skilled or Ace pilot (or a Kaiju) passes for 1 Momentum "
        "each (L220); asked after the saves."
    )
    flawless: bool = Field(
        default=False,
        description="The target's Ace negates every hit (Flawless Evasion, L290-L291); asked after the roll.",
        json_schema_extra={"ui": "hidden"},
    )
    long_range: bool = Field(
        default=False,
        description='Gunnery Expert took +8" of range this turn instead of +1 hit (L412).',
        json_schema_extra=needs("gunnery_expert"),
    )
    extra_damage: bool = Field(
        default=False,
        description="Mechanics Expert or Fearsome took +100 damage this turn instead of +1 PEN (L420, L460).",
        json_schema_extra=needs("weapon_bonus"),
    )
    energy: Literal["none", "through_cover", "underwater"] = Field(
        default="none",
        description="An energy weapon fired through small cover at a target within Sensors: PEN -3 (L641); "
        "with the firer or the target underwater: PEN 0 (L644).",
        json_schema_extra={
            **needs("energy_weapon", values=["through_cover", "underwater"]),
            "x-labels": {
                "none": "Neither",
                "through_cover": "Through small cover",
                "underwater": "Underwater",
            },
        },
    )
    stationary: bool = Field(
        default=False,
        description="Artillery fired by a unit that stays still this turn: Accuracy -1 instead of -2 (L103).",
        json_schema_extra=needs("artillery"),
    )
    remote: bool = Field(
        default=False,
        description="A remote weapon fired for 1 Momentum instead of an action: a Blindside (L595-L597).",
        json_schema_extra=needs("remote"),
    )
    escape: bool = Field(
        default=False,
        description="The target's Narrow Escape: it fully evades this weapon, once a game (Climactic Events, "
        "L742); asked after the roll.",
        json_schema_extra={"ui": "hidden"},
    )
    closest: bool = Field(
        default=False,
        description="The target, a Commando Commander, is the model closest to the shooter, allies counted: "
        "only then may it be shot (L488-L489); asked when it matters.",
        json_schema_extra={"ui": "hidden", **needs("commando", of="target")},
    )
    far: bool = Field(
        default=False,
        description="M-Particles: the target is beyond the shooter's Sensors + 10\": no critical hits, it "
        "rolls any evade dice again, no Battle Damage (L873-L875).",
        json_schema_extra=needs("m_particles"),
    )
    quadrant: bool = Field(
        default=False,
        description="The target is in the quadrant a Main Battery order named: +1 Accuracy (L1029).",
        json_schema_extra=needs("main_battery"),
    )
    near_ally: bool = Field(
        default=False,
        description="A warship's [AA] weapon fires only at a target within 8\" of an ally (L982); asked "
        "then.",
        json_schema_extra={"ui": "hidden"},
    )
    in_sensors: bool = Field(
        default=False,
        description="A warship with no Target Lock shoots a unit that is not a warship only within its "
        "Sensors (L976); asked then.",
        json_schema_extra={"ui": "hidden"},
    )
    daring: bool | None = Field(
        default=None,
        description="The target's Daring Captain is within the shooting warship's Sensors: it rolls any "
        "evade dice again (L1053); asked then.",
        json_schema_extra={"ui": "hidden"},
    )
    unreadied: list[int] | None = Field(
        default=None,
        max_length=12,
        description="With the reading stun_unreadies_one: the target warship's readied weapons its stun hits "
        "un-ready, one a hit (L971); asked then.",
        json_schema_extra={"ui": "hidden"},
    )
    wrecked: list[int] | None = Field(
        default=None,
        max_length=12,
        description="The target warship's weapon systems the attacker destroys, one a failed save (L1009); "
        "asked then.",
        json_schema_extra={"ui": "hidden"},
    )


@dataclass(frozen=True)
class Plan:
    """The numbers of one shot, before any die."""

    shooter: Unit
    target: Unit
    weapon: Weapon
    shots: int
    tn: int
    evade: FacePool
    flat: int
    crits: int
    blocks: int
    saves_at: int
    max_saves: int | None
    left: int
    options: MsOptions
    shield_used: bool = False

    def hits(self, dice_hits: int) -> int:
        """Hits after the dice: dice, flat bonuses, bonus criticals (digest ambiguities 4, 5)."""
        base = dice_hits + self.flat
        if self.options.bonus_crit_needs_a_hit:
            return base + min(self.crits, base)
        return base + 2 * self.crits

    def through(self, dice_hits: int) -> int:
        """Hits left after shields or cover (a block stops one hit, digest ambiguity 10)."""
        return max(0, self.hits(dice_hits) - self.blocks)

    def save_pool(self, hits: int) -> FacePool:
        """The Armor Saves for ``hits`` hits: one a hit, at most three (L218); a failing face counts 1."""
        n = hits if self.max_saves is None else min(hits, self.max_saves)
        tn = self.saves_at
        values: tuple[int, ...]
        if self.weapon.pen == 0 or tn <= 1:  # no PEN: no save; target 1 or less passes (L223)
            values, n = (0,) * 10, 0
        else:
            values = tuple(int(f < tn) for f in range(1, 11))
            if tn > 10 and self.options.save_ten_passes:
                values = (*values[:9], 0)
        # an Unyielding Commander rolls its failed saves again (L484)
        again = (
            tuple(f for f in range(1, 11) if values[f - 1]) if self.target.commander == "unyielding" else ()
        )
        return FacePool(dice=n, sides=10, values=values, reroll_faces=again)

    def damage(self, hits: int, failed: int) -> int:
        """Damage dealt: each hit's weapon damage, and 1000 per failed save (digest ambiguity 9)."""
        if self.options.save_replaces_damage:
            return (hits - failed) * self.weapon.damage + failed * FAILED_SAVE
        return hits * self.weapon.damage + failed * FAILED_SAVE


def evade_values(tn: int, natural_one_evades: bool = False) -> tuple[int, ...]:
    """What each evade face lets through: 2 for a natural 1, 0 for a 10, else 1 below the target number.

    >>> evade_values(4)  # ACC 9 vs Evade +5 (L146): 1 a critical, 2-3 hits, 4+ evades
    (2, 1, 1, 0, 0, 0, 0, 0, 0, 0)
    >>> evade_values(14)[-1]  # a 10 always misses (L141)
    0
    """
    out = []
    for face in range(1, 11):
        if face == 10:
            out.append(0)
        elif face == 1:
            out.append(0 if natural_one_evades and tn <= 1 else 2)
        else:
            out.append(int(face < tn))
    return tuple(out)


#: Evade dice a Commander with Three Times as Fast! rolls again against each weapon (L486).
FAST_REROLLS = 3


def evade_pool(
    shots: int, values: tuple[int, ...], target: Unit, mobility: int = 0, every: bool = False
) -> FacePool:
    """The target's evade dice.  A Three Times as Fast! Commander rolls up to three of them again against
    each weapon; not a Fleet Commander's warship (L486-L487).  ``mobility``: that many more (the
    small-scale mode's Mobility, L715; a Take Evasive Action! order, L1023).  ``every``: any of them (a
    Daring Captain, L1053; M-Particles, L875).  The app rolls again the dice that let shots through,
    criticals first: a reroll never costs an evade already made."""
    fast = target.commander == "three_times_as_fast" and target.kind != "warship"
    limit = FAST_REROLLS * fast + mobility
    if not limit and not every:
        return FacePool(dice=shots, sides=10, values=values)
    worst = tuple(sorted((f for f in range(1, 11) if values[f - 1]), key=lambda f: (-values[f - 1], f)))
    return FacePool(
        dice=shots, sides=10, values=values, reroll_faces=worst, reroll_limit=None if every else limit
    )


def commando(target: Unit) -> bool:
    """A Commando Commander may be shot only as the closest model; not a Fleet Commander's warship, nor a
    Size 2+ unit (L488-L490)."""
    return target.commander == "commando" and target.kind != "warship" and target.size < 2


def stun_target(state: UnitState, target: Unit, hits: int) -> None:
    """Each stun hit takes an action away through the unit's next turn; below 0 it shuts down (L573-L577)."""
    stun = state.counters.get("stun", 0) + hits
    state.counters = {**state.counters, "stun": stun}
    if stun > total_actions(target) and "shut_down" not in state.conditions:
        state.conditions = [*state.conditions, "shut_down"]


def _unit(game: Game, ref: str) -> tuple[int, int, GameUnit, Unit]:
    s, u, g = game.unit(ref)
    return s, u, g, Unit.model_validate(g.profile)


def side_has_commander(game: Game, side: int, trait: str) -> bool:
    """A living Commander of this side has ``trait`` (L480: the benefit ends when it is destroyed)."""
    return any(not g.state.destroyed and g.profile.get("commander") == trait for g in game.sides[side].units)


def plan(game: Game, inp: Shoot, overwatch: bool = False) -> Plan:
    """The shot's numbers; ValueError for a shot the rules do not allow.

    With ``overwatch``, the weapon's Overwatch N shots at a charging unit (L174-L176): no Rapid Fire or
    Focus, and a Melee Shield blocks one shot (L233)."""
    a_side, _, a_g, shooter = _unit(game, inp.attacker)
    t_side, _, t_g, target = _unit(game, inp.target)
    if a_side == t_side:
        raise ValueError("pick an enemy unit to shoot at")
    if t_g.state.destroyed:
        raise ValueError(f"{t_g.name} is already destroyed")
    if inp.weapon >= len(shooter.weapons):
        raise ValueError(f"{a_g.name} has no such weapon")
    weapon = shooter.weapons[inp.weapon]
    why = skill_refusal(game, inp.skill, shooter, game.sides[a_side].resources.get("momentum", 0), target)
    if why:
        raise ValueError(f"{SHOT_SKILLS.get(inp.skill, ('That skill',))[0]}: {why}")
    if inp.skill == "fire_vulcans":
        weapon = vulcans(shooter)  # a free attack of its own profile (L311-L312)
    if weapon.kind != "shooting":
        raise ValueError(f"{weapon.name} is a melee weapon: use Melee")
    if "berserk" in a_g.state.conditions:
        raise ValueError(f"{a_g.name} has gone berserk: it has no shooting weapons (L773)")
    options = read_options(MsOptions, game.options)
    skill = effect(inp.skill)
    weapon = modified_weapon(shooter, weapon, inp, own_turn=not overwatch)
    damage = persevered(weapon.damage, game.round) if inp.persevere else weapon.damage  # L329-L330
    weapon = weapon.model_copy(update={"pen": weapon.pen + skill.pen, "damage": damage})  # Giant Slayer
    firepower = has_command(game, a_side, "overwhelming_firepower")  # +1 ACC, +1 PEN this round (L844)
    run = "" if overwatch else maneuver_gain(game, inp.attacker, inp.target)  # L923-L930
    weapon = weapon.model_copy(update={"pen": weapon.pen + firepower + 3 * (run == "bridge")})
    artillery = weapon.indirect == "artillery"
    if inp.stationary and not artillery:
        raise ValueError(f"{weapon.name} is not artillery: standing still changes nothing (L103)")
    if inp.remote and weapon.indirect != "remote":
        raise ValueError(f"{weapon.name} is not a remote weapon (L591-L597)")
    if artillery and inp.skill != "none":
        raise ValueError("indirect fire benefits from no skill (L106)")
    focused = 0 if overwatch else focus_level(game, a_g)
    lost = unit_extra(a_g).remote_lost.count(inp.weapon) if weapon.indirect == "remote" else 0
    if overwatch:  # after a won Outmaneuver: 3 more, or 3 without Overwatch (L925-L926)
        bonus = ms_state(game).overwatch_bonus
        shots = (weapon.overwatch + bonus if weapon.overwatch else bonus) if bonus else weapon.overwatch
    else:
        shots = max(0, weapon.shots - lost) + (weapon.rapid_fire if inp.band == "rapid" else 0)  # L600
    flat = inp.extra_hits
    if focused and not artillery:  # Focus (L123-L126), each Focus this turn (digest ambiguity 19)
        bonus = (2 if weapon.pen == 0 else 1) * focused
        if inp.within_16:
            flat += bonus
        else:
            shots += bonus
    if not artillery:  # indirect fire gets no trait (L106)
        # Gunnery Expert's hit is for its own turn (L412): not in Overwatch
        flat += trait_hits(game, inp.attacker, inp.target, weapon, True, inp.long_range or overwatch)
        flat += shooter.commander == "impressive_skill"  # +1 hit when shooting (L493)
    shots = min(shots, MAX_SHOTS)
    accuracy = shooter.accuracy + inp.accuracy_bonus + side_has_commander(game, a_side, "vigilant_leader")
    accuracy += skill.accuracy + firepower  # Bullseye (L307), Overwhelming Firepower (L844)
    accuracy -= "bd_head" in a_g.state.conditions  # Battle Damage to its head (L683)
    accuracy -= 2 * ("bridge_hit" in a_g.state.conditions)  # its bridge hit (L931)
    own = not overwatch
    accuracy += ship_accuracy(
        game, a_side, a_g, shooter, weapon.aa, inp.quadrant, inp.long_range, own
    )  # L1029+
    if artillery:
        accuracy -= 1 if inp.stationary else 2  # L103
    shut = "shut_down" in t_g.state.conditions
    bonus = inp.evade_bonus + 3 * ("expert_evasion" in t_g.state.conditions)  # Expert Evasion (L710)
    evade = target.evade + min(bonus, MAX_EVADE_BONUS) - ("bd_propulsion" in t_g.state.conditions)
    evade = 0 if shut else evade  # L138, L566; Battle Damage to its propulsion -1 (L684)
    tn = accuracy - evade
    # the small-scale mode: a mobile suit faster than the shooter's Accuracy rolls one evade die again (L715)
    mobile = options.small_scale and target.kind == "mobile_suit" and target.move > accuracy
    immune = warned(game, inp.target)  # Warning: no Tactical Advantage this turn (L809)
    if immune and inp.advantage != "none":
        raise ValueError(f"{t_g.name} was warned: no Tactical Advantage against it this turn (L809)")
    blindside = (inp.advantage == "blindside" or inp.remote or run in ("blindside", "bridge")) and not immune
    advantage = (inp.advantage != "none" or shut or inp.remote or bool(run)) and not immune  # L540, L566
    crits = int(advantage) + int(skill.crit or "crit_next" in a_g.state.conditions)
    if inp.far and not options.m_particles:
        raise ValueError("no warship has spread M-Particles in this battle (L871-L872)")
    far = inp.far  # M-Particles: no critical hits, any evade die rolled again (L873-L875)
    crits = 0 if far else crits
    daring = bool(inp.daring) and captain(target, "daring") and shooter.kind == "warship"  # L1053
    evasive = int(bool(order_tier(game, t_side, "evasive")))  # Take Evasive Action! (L1023)
    values = evade_values(tn, options.natural_one_evades)
    if far:
        values = (min(values[0], 1), *values[1:])  # the 1 is a hit, not a critical (L877)
    pen0 = weapon.pen == 0
    base, extra = SHOOTING_BLOCKS[target.shield]
    if overwatch and target.shield == "melee_shield":
        base = 1  # a Melee Shield blocks one Overwatch shot (L233)
    if target.kind == "super_titan" and target.shield_power and "shield" not in unit_extra(t_g).powered:
        base = extra = 0  # a Titan's shield blocks only with its Power on it (L230)
    if shield_broken(t_g):
        base = extra = 0  # Gritty Battles' 5th use (L699), Battle Damage (L685)
    bulwark = int(bool(base) and pen0 and has_command(game, t_side, "advancing_bulwark"))  # L840
    shield = 0 if blindside else base + (extra if pen0 else 0) + bulwark
    cover = (2 if pen0 else 1) if inp.cover and target.kind != "warship" else 0  # L634, L867
    blocks = max(shield, cover)  # never stacked (L228, L635)
    if skill.ignore_blocks and weapon.pen >= 3:
        blocks = 0  # Take the Shot! (L340)
    return Plan(
        shooter=shooter,
        target=target,
        weapon=weapon,
        shots=shots,
        tn=tn,
        evade=evade_pool(shots, values, target, mobile + evasive, far or daring),
        flat=flat,
        crits=crits,
        blocks=blocks + extra_blocks(t_g),  # Untouchable's roll adds to them (L403)
        saves_at=weapon.pen - target.save,
        max_saves=None if target.kind == "warship" else MAX_SAVES,
        left=hp_left(t_g),  # an Unyielding Commander's last stand (L485)
        options=options,
        shield_used=shield > 0 and blocks == shield,
    )


def modified_weapon(shooter: Unit, weapon: Weapon, inp: Shoot, own_turn: bool = True) -> Weapon:
    """The weapon as it fires: Mechanics Expert / Fearsome +1 PEN or +100 damage (L420, L460); an
    energy weapon through small cover PEN -3 (L641), underwater PEN 0 (L644).  Refused for a weapon the
    choice does not fit."""
    pen, damage = weapon.pen, weapon.damage
    if inp.energy != "none" and not weapon.energy:
        raise ValueError(f"{weapon.name} is not an energy weapon (L639-L644)")
    tuned = any(t in ("mechanics_expert", "fearsome") for t in shooter.pilot.traits)
    tuned = tuned or captain(shooter, "expert_engineering") or captain(shooter, "fearsome_captain")  # L1065
    if tuned and own_turn and weapon.indirect != "artillery":  # chosen as it activates (L420, L460)
        if inp.extra_damage:
            damage += 100
        else:
            pen += 1
    if inp.energy == "through_cover":
        pen = max(0, pen - 3)
    elif inp.energy == "underwater":
        pen = 0
    return weapon.model_copy(update={"pen": pen, "damage": damage})


def _exact(weights: dict[tuple[int, int], Fraction]) -> Dist[tuple[int, int]]:
    den = lcm(*(f.denominator for f in weights.values()))
    return Dist({k: int(f * den) for k, f in weights.items()}, den)


def shot_dist(p: Plan) -> Dist[tuple[int, int]]:
    """Exact ``(hits that land, failed saves)`` with no Skill Defense spent."""
    out: dict[tuple[int, int], Fraction] = {}
    for dice_hits, chance in p.evade.dist().probabilities():
        hits = p.through(dice_hits)
        for failed, c2 in p.save_pool(hits).dist().probabilities():
            key = (hits, failed)
            out[key] = out.get(key, Fraction(0)) + chance * c2
    return _exact(out)


def plan_odds(p: Plan, shots: str, who: str) -> ActionOdds:
    """Hits, failed saves, damage and the chance to destroy of a planned shot, before Skill
    Defense (L253): ``shots`` names the shots and ``who`` the unit that evades, in the summary."""
    d = shot_dist(p)
    damage = d.map(lambda k: p.damage(*k))
    destroyed = sum((c for v, c in damage.probabilities() if v >= p.left), Fraction(0))
    return ActionOdds(
        tables={
            "hits": table(d.map(lambda k: k[0])),
            "failed saves": table(d.map(lambda k: k[1])),
            "damage": table(damage),
        },
        facts={"destroyed": float(destroyed)},
        summary=f"{p.shots} {shots}; {who} evades on {max(2, min(p.tn, 10))}+",
    )


def shoot_odds(game: Game, inp: Shoot) -> ActionOdds:
    """Hits, failed saves, damage and the chance to destroy, before Skill Defense (L253)."""
    return plan_odds(plan(game, inp), "shots", "the target")


def defense_choice(
    game: Game,
    side: int,
    name: str,
    hits: int,
    ace: bool,
    cost: int,
    ratio: int = 1,
    momentum: int | None = None,
    escape: bool = False,
) -> NeedChoice:
    """The target's decision after the roll: take the hits, spend Momentum on Skill Defense (L260-L264;
    ``ratio`` hits a Momentum, L404, L456) or, for an Ace, Flawless Evasion for Momentum equal to the
    round (L290-L291)."""
    if momentum is None:
        momentum = game.sides[side].resources.get("momentum", 0)
    options = [Choice(value=0, label=f"Take {hits} hit{'s' * (hits != 1)}", assumed=True)]
    for n in range(1, min(momentum, -(-hits // ratio)) + 1):
        left = max(0, hits - ratio * n)
        options.append(Choice(value=n, label=f"Spend {n} Momentum: {left} hit{'s' * (left != 1)} left"))
    if ace and game.sides[side].resources.get("momentum", 0) >= cost:
        options.append(
            Choice(value=0, label=f"Flawless Evasion: {cost} Momentum, no hits", also={"flawless": True})
        )
    if escape:  # Climactic Events (L742)
        options.append(Choice(value=0, label="Narrow Escape: no hits (once a game)", also={"escape": True}))
    return NeedChoice("defense", f"{name} is hit {hits} time{'s' * (hits != 1)}: Skill Defense?", options)


@dataclass(frozen=True)
class Landed:
    """What one weapon's fire did once the target has answered: dice, hits, Momentum spent, saves."""

    faces: list[int]
    hits: int
    landed: int
    spent: int
    bought: int
    saves: list[int]
    failed: int
    damage: int
    flawless: bool
    escaped: bool = False


def land(game: Game, p: Plan, inp: Shoot, dice: DiceSource) -> Landed:
    """Roll the evade dice, ask the target for Skill Defense (1 hit a Momentum, 2 with Untouchable or
    Killer Instinct, L262, L404, L456) or Flawless Evasion, roll the Armor Saves and ask whether it buys
    failed ones (L220): the part a shot and an Overwatch attack share."""
    t_side, _, t_g, target = _unit(game, inp.target)
    roll = p.evade.roll(dice, "evade")
    hits = p.through(roll.total)
    momentum = game.sides[t_side].resources.get("momentum", 0) - inp.persevere  # Persevere paid first
    round_cost = max(1, game.round)
    used = used_skills(t_g) + ["persevere"] * inp.persevere
    no_defense = skill_blocked(target, used, "defense")  # one skill a unit turn (L253)
    ace = tier_rank(target) == 2 and target.kind != "warship" and not skill_blocked(target, used, "flawless")
    ace = ace and not read_options(MsOptions, game.options).small_scale  # Expert Evasion instead (L707)
    ratio = defense_ratio(game, inp.target, inp.attacker)
    escape = escape_open(game, t_side)
    if inp.escape and not escape:
        raise ValueError("Narrow Escape needs the Climactic Events module and the side's Event unused (L736)")
    asked = (momentum and not no_defense) or ace or escape
    if hits and inp.defense is None and not inp.flawless and not inp.escape and asked:
        raise defense_choice(
            game, t_side, t_g.name, hits, ace, round_cost, ratio, 0 if no_defense else momentum, escape
        )
    if no_defense and inp.defense:
        raise ValueError(f"{t_g.name} cannot use Skill Defense: {no_defense} (L253)")
    if inp.escape:
        spent, landed = 0, 0
    elif inp.flawless:
        if not ace:
            raise ValueError(
                "Flawless Evasion is for Ace pilots who have used no other skill this turn (L253, L291)"
            )
        if momentum < round_cost:
            raise ValueError(f"Flawless Evasion costs {round_cost} Momentum this round (L291)")
        spent, landed = round_cost, 0
    else:
        spent = min(inp.defense or 0, -(-hits // ratio))
        if spent > momentum:
            raise ValueError(f"{game.sides[t_side].name} has only {momentum} Momentum")
        landed = max(0, hits - ratio * spent)
    saves = p.save_pool(landed).roll(dice, "armor saves") if landed else None
    failed = saves.total if saves else 0
    left = momentum - spent
    buys = tier_rank(target) > 0 or target.kind == "kaiju"  # L220; digest ambiguity 31
    if failed and buys and left and inp.bought is None:
        options = [Choice(value=0, label=f"Keep {failed} failed save{'s' * (failed != 1)}", assumed=True)]
        options += [
            Choice(value=n, label=f"Spend {n} Momentum: {failed - n} failed")
            for n in range(1, min(failed, left) + 1)
        ]
        raise NeedChoice(
            "bought", f"{t_g.name} fails {failed} Armor Save{'s' * (failed != 1)}: pass some?", options
        )
    bought = min(inp.bought or 0, failed, left) if buys else 0
    failed -= bought
    return Landed(
        faces=list(roll.final),
        hits=p.hits(roll.total),
        landed=landed,
        spent=spent + bought,
        bought=bought,
        saves=list(saves.final) if saves else [],
        failed=failed,
        damage=p.damage(landed, failed),
        flawless=inp.flawless,
        escaped=inp.escape,
    )


def apply_hits(game: Game, work: Working, p: Plan, inp: Shoot, out: Landed) -> bool:
    """Deal the damage and spend the target's Momentum; stun (L573-L577) and kills (L394, L461).  True
    when the target is destroyed."""
    t_side, t_i, _, target = _unit(game, inp.target)
    if out.spent:
        gain(work, t_side, "momentum", -out.spent)
    if out.escaped:
        note_event(work, t_side, "narrow_escape")
    if out.flawless:
        note_skill(game, work, inp.target, "flawless")
    elif out.spent - out.bought:
        note_skill(game, work, inp.target, "defense")
    if inp.persevere:
        note_skill(game, work, inp.target, "persevere")
    if p.shield_used and out.hits:
        tally_shield(game, work, t_side, t_i)  # Gritty Battles (L699)
    killed = take_damage(game, work, t_side, t_i, out.damage)  # Unyielding: once on 1 HP (L485)
    ts = work.state(t_side, t_i)
    if killed:
        ts.destroyed = True
        on_kill(game, work, inp.attacker, inp.target)
    if p.weapon.stun and out.landed and not killed:
        stun_target(ts, target, out.landed)
    return killed


def describe(a_name: str, t_name: str, p: Plan, out: Landed, killed: bool) -> str:
    """The log line of one weapon's fire."""
    hits = out.hits
    text = f"{a_name} fires {p.weapon.name} at {t_name}: evade dice [{', '.join(map(str, out.faces))}], "
    text += f"{hits} hit{'s' * (hits != 1)}"
    if p.blocks and hits:
        text += f", {min(p.blocks, hits)} blocked"
    if out.escaped:
        text += ", a Narrow Escape: every shot evaded"
    if out.flawless:
        text += f", Flawless Evasion ({out.spent} Momentum)"
    elif out.spent - out.bought:
        text += f", {out.spent - out.bought} Momentum on Skill Defense"
    if out.saves:
        text += f"; Armor Saves [{', '.join(map(str, out.saves))}], {out.failed} failed"
        if out.bought:
            text += f" ({out.bought} passed for Momentum)"
    text += f"; {out.damage} damage" + (f", {t_name} is destroyed" if killed else "")
    if p.weapon.stun and out.landed and not killed:
        text += f"; {out.landed} stun"
    return text


def detail(out: Landed) -> dict[str, Any]:
    return {
        "evade": out.faces,
        "hits": out.hits,
        "landed": out.landed,
        "saves": out.saves,
        "failed": out.failed,
        "damage": out.damage,
    }


def _turn_choices(shooter: Unit, inp: Shoot, had: list[str]) -> list[str]:
    """The pilot's choices this turn (L412, L420, L460): the first shot makes them; a later shot that
    changes one is refused."""
    mine = []
    if "gunnery_expert" in shooter.pilot.traits or captain(shooter, "expert_gunnery"):  # L412, L1061
        mine.append("range" if inp.long_range else "hit")
    tuned = captain(shooter, "expert_engineering") or captain(shooter, "fearsome_captain")  # L1065, L1086
    if tuned or any(t in ("mechanics_expert", "fearsome") for t in shooter.pilot.traits):
        mine.append("damage" if inp.extra_damage else "pen")
    pairs = ({"range", "hit"}, {"damage", "pen"})
    for choice in mine:
        other = next(iter(next(pair for pair in pairs if choice in pair) - {choice}))
        if other in had:
            raise ValueError(f"its pilot chose {other} for this turn (L412, L420, L460)")
    return sorted(set(had) | set(mine))


def wrecked_picks(game: Game, inp: Shoot, out: Landed, left: int) -> list[int]:
    """The target warship's weapon systems its failed saves destroy (L1009): :func:`.fleet.wreck_picks`."""
    return wreck_picks(game, inp.attacker, inp.target, out.failed, out.damage >= left, inp.wrecked)


def shoot(game: Game, inp: Shoot, dice: DiceSource) -> ActionResult:
    """Roll the evade dice, ask for Skill Defense, roll the Armor Saves, deal the damage."""
    p = plan(game, inp)
    a_side, a_i, a_g, shooter = _unit(game, inp.attacker)
    t_side, _, t_g, target = _unit(game, inp.target)
    extra = unit_extra(a_g)
    free = inp.skill == "fire_vulcans"  # a free attack with its own profile (L311)
    if inp.weapon in extra.disabled and not free:
        raise ValueError(f"{p.weapon.name} was disabled by Battle Damage (L685)")
    if inp.weapon in extra.fired and not free:
        raise ValueError(f"{p.weapon.name} has fired this turn: a weapon fires once a turn (L153)")
    cost = skill_cost(inp.skill, target)  # Make it Count! is free against Skilled and Ace (L281)
    mom = game.sides[a_side].resources.get("momentum", 0)
    if inp.remote and mom < 1 + cost:
        raise ValueError("firing a remote weapon costs 1 Momentum (L595; digest ambiguity 21)")
    if inp.persevere and game.sides[t_side].resources.get("momentum", 0) < 1:
        raise ValueError("Persevere costs the target's side 1 Momentum (L327)")
    if inp.skill != "none" and (why := skill_blocked(shooter, extra.skills, inp.skill)):
        raise ValueError(f"{a_g.name} cannot use {SHOT_SKILLS[inp.skill][0]}: {why} (L253)")
    if inp.persevere and (why := skill_blocked(target, used_skills(t_g), "persevere")):
        raise ValueError(f"{t_g.name} cannot Persevere: {why} (L253)")
    if commando(target) and not inp.closest:  # otherwise, pick another target (L488-L489)
        raise NeedChoice(
            "closest",
            f"{t_g.name} is a Commando Commander: it may be shot only as the model closest to {a_g.name}, "
            "allies counted. Is it?",
            [Choice(value=True, label="Yes: it is the closest model")],
        )
    choices = _turn_choices(shooter, inp, extra.choices if ms_state(game).turn_unit == inp.attacker else [])
    ship = shooter.kind == "warship" and not free  # through All Weapons Fire!, no action a shot (L981)
    check_turn(game, inp.attacker, spends=not (inp.remote or free or ship))  # refusals come before any die
    check_disengage(game, inp.attacker)
    ship_shot_checks(game, inp.attacker, inp.target, inp.weapon, inp.near_ally, inp.in_sensors, inp.daring)
    if p.weapon.power and shooter.kind == "super_titan":
        power_item(game, Working(game), inp.attacker, str(inp.weapon))  # refused before the roll
    out = land(game, p, inp, dice)
    wrecks = wrecked_picks(game, inp, out, p.left)
    stunned = p.weapon.stun and out.landed and out.damage < p.left and target.kind == "warship"
    off = unready_picks(game, inp.attacker, inp.target, out.landed, inp.unreadied) if stunned else None
    work = Working(game)
    begin_turn(game, work, inp.attacker)
    pay_disengage(game, work, inp.attacker)
    if inp.remote:
        gain(work, a_side, "momentum", -1)  # instead of an action (L595)
    elif not free and not ship:
        spend_action(game, work, inp.attacker)
    gain(work, a_side, "momentum", -cost)
    if inp.persevere:
        gain(work, t_side, "momentum", -1)
    killed = apply_hits(game, work, p, inp, out)
    if p.weapon.power and shooter.kind == "super_titan":
        power_item(game, work, inp.attacker, str(inp.weapon))
        extra = unit_extra(work.unit(a_side, a_i))
    extra.fired = extra.fired if free else [*extra.fired, inp.weapon]
    if inp.skill != "none" and inp.skill not in extra.skills:
        extra.skills = [*extra.skills, inp.skill]
    extra.choices = choices
    shot_down = p.weapon.indirect == "remote" and tier_rank(target) == 2
    downed = sum(f == 10 for f in out.faces) if shot_down else 0
    extra.remote_lost = [*extra.remote_lost, *[inp.weapon] * downed]  # an Ace's 10s (L599-L600)
    put_unit_extra(work, a_side, a_i, extra)
    if ship:
        after_fire(game, work, a_side, a_i, inp.weapon)  # reloading its rounds after (L969-L970)
    t_i = game.unit(inp.target)[1]
    if wrecks:
        wreck(work, t_side, t_i, wrecks)  # a weapon system a failed save (L1009)
    if p.weapon.stun and out.landed and not killed and target.kind == "warship":
        unready(work, t_side, t_i, off)  # a stun hit un-readies its weapons (L971)
    if killed and captain(shooter, "fearsome_captain"):
        gain(work, a_side, "momentum", 1)  # a Fearsome Captain's kill (L1086)
    a_state = work.state(a_side, a_i)
    a_state.conditions = [c for c in a_state.conditions if c != "crit_next"]
    note_attack(game, work, a_side, inp.target, killed)
    text = describe(a_g.name, t_g.name, p, out, killed)
    if not killed:  # the small-scale mode's Knockback and Hit & Run (L717-L718, L725)
        text += mark_knock(game, work, inp.attacker, inp.target, p.weapon.pen, p.weapon.damage, out.damage)
    if last_stand(t_g) and out.damage >= t_g.state.max_damage - t_g.state.damage:
        text += f"; {t_g.name} holds on with 1 HP (Unyielding, once a game, L485)"
    if wrecks:
        names = ", ".join(target.weapons[i].name for i in wrecks)
        text += f"; {a_g.name} destroys its {names} (L1009)"
    if out.failed and not killed and inp.far:
        text += "; no Battle Damage beyond M-Particles' range (L875)"
    elif out.failed and not killed and read_options(MsOptions, game.options).battle_damage:
        text += f"; {t_g.name} rolls Battle Damage for each failed save (L677)"
    if downed:
        text += f"; {t_g.name}'s Ace shoots down {downed} of the {p.weapon.name}'s shots for the battle"
    return ActionResult(changes=work.changes(), text=text, detail=detail(out))


def shoot_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """The shooter's own weapons (greyed once fired this turn, L153) and the skills its pilot may use."""
    _, _, g, unit = _unit(game, actor)
    fired = unit_extra(g).fired
    weapons = []
    for i, w in enumerate(unit.weapons):
        why = ""
        if w.kind != "shooting":
            why = "a melee weapon"
        elif i in fired:
            why = "fired this turn"
        elif i in unit_extra(g).disabled:
            why = "disabled by Battle Damage"
        elif "berserk" in g.state.conditions:
            why = "lost: it has gone berserk"
        elif unit.kind == "warship":
            why = fire_refusal(game, g, i)  # readied, reloading, destroyed (L966-L993, L1009)
        rf = f" RF+{w.rapid_fire}" if w.rapid_fire else ""
        pen = f" PEN {w.pen}" if w.pen else ""
        weapons.append(
            FieldPick(
                value=i,
                label=w.name,
                detail=f'{w.range}" {w.shots} shots{rf} {w.damage} dmg{pen}',
                unavailable=why,
            )
        )
    momentum = game.sides[game.unit(actor)[0]].resources.get("momentum", 0)
    return {"weapon": weapons, "skill": skill_picks(game, unit, momentum)}
