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

:func:`plan` works out the numbers; the shot is then a :class:`~core.steps.Chain` of two steps: the
evade dice (:func:`evade_chain`), then the Armor Saves of the hits that land (:func:`saves_chain`).
The odds (:func:`shot_dist`) walk the whole chain with the reading "the target answers nothing"; the
roll (:func:`land`) walks the same two chains with the target's answers between them.  The chain ends
at the evade dice because the answers are asked with the dice seen and can reroll them (Improvise
rolls again the dice that let shots through, L318-L320: which dice, the total does not tell) or change
whose saves are rolled (a Guardian's own, L811-L813); the saves chain starts from the answer (the hits
left after Skill Defense, Flawless Evasion or a Narrow Escape, L253-L264, L286-L293, L736).  Buying
failed saves with Momentum (L220) is asked after the saves: the chain's result, then the answer.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from math import lcm
from typing import Any

from core.changes import Working
from core.dice import DiceSource, Dist
from core.game import Game, GameUnit
from core.pool import table
from core.steps import Chain, End, FacePool, FaceRoll, Link, reduced
from core.systems.base import (
    ActionOdds,
    ActionResult,
    Choice,
    FieldPick,
    NeedChoice,
    Offer,
    UnitState,
    read_options,
)
from core.systems.mechastellar.asks import (
    CRIT_CODE,
    defense_choice,
    improvise_cost,
    improvise_question,
    will_open,
    will_question,
)
from core.systems.mechastellar.commands import armed, guardians, has_command, warned
from core.systems.mechastellar.events import escape_open, last_offer, note_event
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
from core.systems.mechastellar.shot_input import Shoot as Shoot
from core.systems.mechastellar.shot_input import close
from core.systems.mechastellar.shot_input import momentum_asked as momentum_asked
from core.systems.mechastellar.shot_input import near_asked as near_asked
from core.systems.mechastellar.skills import (
    MAYHEM_SHOTS,
    SHOT_SKILLS,
    counter_offer,
    effect,
    improvise_refusal,
    note_skill,
    persevered,
    skill_blocked,
    skill_cost,
    skill_picks,
    skill_refusal,
    tear_cost,
    tear_offer,
    tear_refusal,
    used_skills,
    vulcans,
)
from core.systems.mechastellar.space import maneuver_gain
from core.systems.mechastellar.state import (
    MsState,
    dice_words,
    gain,
    melee_fire_refusal,
    ms_state,
    put_unit_extra,
    unit_extra,
)
from core.systems.mechastellar.traits import (
    defense_ratio,
    extra_blocks,
    fusillade_refusal,
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
    #: The evade faces count a critical as CRIT_CODE (The Will to Power! is open); ``transform``: the plain
    #: hits it makes criticals (L781).
    coded: bool = False
    transform: int = 0

    def plain(self, dice_hits: int) -> int:
        """The dice's plain hits (not criticals), read from a coded total."""
        return dice_hits % CRIT_CODE if self.coded else dice_hits

    def hits(self, dice_hits: int) -> int:
        """Hits after the dice: dice, flat bonuses, bonus criticals (digest ambiguities 4, 5)."""
        if self.coded:  # The Will to Power!: a plain hit made a critical adds one (L781)
            crits, plain = divmod(dice_hits, CRIT_CODE)
            dice_hits = plain + 2 * crits + min(self.transform, plain)
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


def side_has_commander(game: Game, side: int, trait: str, fleet: bool = False) -> bool:
    """A living Commander of this side has ``trait`` (L480: the benefit ends when it is destroyed).  A
    Commander's trait does not help warships (L480); a Fleet Commander's, a warship given the trait, helps
    the side's warships (``fleet``, L501)."""
    return any(
        not g.state.destroyed
        and g.profile.get("commander") == trait
        and (g.profile.get("kind") == "warship") == fleet
        for g in game.sides[side].units
    )


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
    if inp.weapon in unit_extra(a_g).spent and inp.skill != "fire_vulcans":
        raise ValueError(
            f"{shooter.weapons[inp.weapon].name} was used up by a Missile Screen! Overwatch (L834)"
        )
    if not overwatch and (why := melee_fire_refusal(a_g, inp.weapon, inp.skill)):
        raise ValueError(why)  # in melee, only the weapon a Focus picked fires (L127, L155)
    if overwatch:
        shooter = armed(game, inp.attacker)  # Missile Screen!'s Overwatch V (L833)
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
    if not overwatch and inp.skill != "fire_vulcans" and unit_extra(a_g).melee_gun == inp.weapon:
        weapon = weapon.model_copy(update={"pen": weapon.pen + 1})  # Focus picked it: +1 PEN (L128)
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
    mayhem = inp.skill == "mayhem"  # an Overwatch III after its melee, +1 PEN point-blank (L323-L325)
    if mayhem:
        weapon = weapon.model_copy(update={"pen": weapon.pen + (inp.target in unit_extra(a_g).clashed)})
    focused = 0 if overwatch or mayhem else focus_level(game, a_g)
    lost = unit_extra(a_g).remote_lost.count(inp.weapon) if weapon.indirect == "remote" else 0
    if overwatch:  # after a won Outmaneuver: 3 more, or 3 without Overwatch (L925-L926)
        bonus = ms_state(game).overwatch_bonus
        shots = (weapon.overwatch + bonus if weapon.overwatch else bonus) if bonus else weapon.overwatch
    elif mayhem:
        shots = MAYHEM_SHOTS
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
    if inp.split or inp.second:  # Furious Fusillade's first attack, split over two targets (L438)
        shots = fusillade_shots(game, inp, shots)
    fleet = shooter.kind == "warship"  # a Fleet Commander's Vigilant Leader for warships (L501)
    accuracy = (
        shooter.accuracy + inp.accuracy_bonus + side_has_commander(game, a_side, "vigilant_leader", fleet)
    )
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
    bonus += has_command(game, t_side, "lightning_raid") and close(inp)  # Lightning Raid (L842)
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
    coded = not overwatch and will_open(game, inp.attacker)  # The Will to Power! (L779-L781)
    if inp.will_to_power and not coded:
        raise ValueError(
            "The Will to Power! is the Commander's, from Round 4, its side's Event unused (L779)"
        )
    if coded:
        values = tuple(CRIT_CODE if v == 2 else v for v in values)
    return Plan(
        coded=coded,
        transform=3 if inp.will_to_power else 0,
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


def fusillade_shots(game: Game, inp: Shoot, shots: int) -> int:
    """Furious Fusillade's first attack split over two targets (L438): ``split`` of its shots at this one,
    then the rest (``second``) at a new one.  Refused when the pilot or the moment does not allow it."""
    _, _, g = game.unit(inp.attacker)
    if inp.split:
        if why := fusillade_refusal(game, inp.attacker):
            raise ValueError(f"Furious Fusillade: {why}")
        if inp.split >= shots:
            raise ValueError(f"Furious Fusillade: {shots} shots to split, at least one for the second target")
        return inp.split
    kept = unit_extra(g).fusillade
    if not kept or kept[0] != str(inp.weapon):
        raise ValueError("Furious Fusillade: no shots of this weapon are left for a second target (L438)")
    if inp.target == kept[2]:
        raise ValueError("Furious Fusillade: the rest of the shots go at a second target (L438)")
    return int(kept[1])


def guard_plan(game: Game, p: Plan, ref: str) -> Plan:
    """The shot's plan for the hits a Guardian takes: its own Armor Saves and HP (L813)."""
    _, _, g, unit = _unit(game, ref)
    return replace(
        p,
        target=unit,
        saves_at=p.weapon.pen - unit.save,
        max_saves=None if unit.kind == "warship" else MAX_SAVES,
        left=hp_left(g),
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


def evade_chain(p: Plan) -> Chain[int]:
    """The first link of a shot: the target's evade dice (L136-L141), their total (a critical counts 2,
    or CRIT_CODE while The Will to Power! is open).  It ends there: the target answers with the dice seen."""
    return Link(p.evade, "evade", End)


def saves_chain(p: Plan, landed: int) -> Chain[tuple[int, int]]:
    """The second link: one Armor Save a hit that landed, at most three (L216-L225); its result is
    ``(hits that land, failed saves)``.  No hit, or no PEN, rolls no die (a pool of none)."""
    return Link(p.save_pool(landed), "armor saves", lambda failed: End((landed, failed)))


def shot_chain(p: Plan) -> Chain[tuple[int, int]]:
    """The whole shot with the odds' reading of the target's answers between the links: none (no Skill
    Defense, no Improvise, no Guardian: the odds are shown before the target answers, L253)."""
    return evade_chain(p).then(lambda dice_hits: saves_chain(p, p.through(dice_hits)))


def shot_dist(p: Plan) -> Dist[tuple[int, int]]:
    """Exact ``(hits that land, failed saves)`` with no Skill Defense spent: :func:`shot_chain`'s
    distribution, over the smallest total its weights allow."""
    return reduced(shot_chain(p).dist())


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


@dataclass(frozen=True)
class Landed:
    """What one weapon's fire did once the target has answered: dice, hits, Momentum spent, saves."""

    faces: list[int]
    dice: int
    hits: int
    landed: int
    spent: int
    bought: int
    saves: list[int]
    failed: int
    damage: int
    flawless: bool
    escaped: bool = False
    guardian: str = ""
    #: Improvise's Momentum paid now (0: paid earlier this turn); -1 when not used (L320).
    improvised: int = -1


def land(game: Game, p: Plan, inp: Shoot, dice: DiceSource, guarded: bool = False) -> Landed:
    """Roll the evade dice, ask the target for Skill Defense (1 hit a Momentum, 2 with Untouchable or
    Killer Instinct, L262, L404, L456) or Flawless Evasion, roll the Armor Saves and ask whether it buys
    failed ones (L220): the part a shot and an Overwatch attack share.  ``guarded``: the Shoot action's own
    answers are asked too: a Guardian (L811-L813), Improvise (L320)."""
    t_side, _, t_g, target = _unit(game, inp.target)
    rolled = evade_chain(p).roll(dice)
    roll = rolled.of("evade")[0]
    assert isinstance(roll, FaceRoll)
    faces, total = list(roll.final), rolled.value
    momentum = game.sides[t_side].resources.get("momentum", 0) - inp.persevere  # Persevere paid first
    round_cost = max(1, game.round)
    used = used_skills(t_g) + ["persevere"] * inp.persevere
    failing = [i for i, f in enumerate(faces) if p.evade.values[f - 1]]
    can = guarded and improvise_refusal(game, inp.target, used, momentum) == "" and inp.improvise is not False
    if can and failing and inp.improvise is None:  # the target answers first (L320)
        raise improvise_question(t_g.name, len(failing), improvise_cost(used))
    if inp.improvise:
        if why := improvise_refusal(game, inp.target, used, momentum):
            raise ValueError(f"Improvise: {why}")
        momentum -= improvise_cost(used)
        again = FacePool(dice=len(failing), sides=10, values=p.evade.values).roll(dice, "Improvise")
        for i, f in zip(failing, again.final, strict=True):
            faces[i] = f
        total = sum(p.evade.values[f - 1] for f in faces)
        used = [*used, "improvise"]
    hits = p.through(total)
    no_defense = skill_blocked(target, used, "defense")  # one skill a unit turn (L253)
    ace = tier_rank(target) == 2 and target.kind != "warship" and not skill_blocked(target, used, "flawless")
    ace = ace and not read_options(MsOptions, game.options).small_scale  # Expert Evasion instead (L707)
    ratio = defense_ratio(game, inp.target, inp.attacker, close(inp))
    plain = p.plain(total)
    if p.coded and plain and inp.will_to_power is None:  # the attacker answers before the target (L781)
        raise will_question(game.unit(inp.attacker)[2].name, plain)
    escape = escape_open(game, t_side)
    if inp.escape and not escape:
        raise ValueError("Narrow Escape needs the Climactic Events module and the side's Event unused (L736)")
    guards = guardians(game, inp.target) if guarded else []
    if inp.guardian and inp.guardian not in guards:
        raise ValueError(
            "Guardian needs 1 Influence and another unit of the target's side in play (L811-L813)"
        )
    asked = (momentum and not no_defense) or ace or escape or guards
    if hits and inp.defense is None and not (inp.flawless or inp.escape or inp.guardian) and asked:
        raise defense_choice(
            game,
            t_side,
            t_g.name,
            hits,
            ace,
            round_cost,
            ratio,
            0 if no_defense else momentum,
            escape,
            guards,
        )
    if no_defense and inp.defense:
        raise ValueError(f"{t_g.name} cannot use Skill Defense: {no_defense} (L253)")
    if inp.escape:
        spent, landed = 0, 0
    elif inp.guardian:  # the Guardian takes every hit left, with its own saves (L813)
        spent, landed = 0, hits
        p = guard_plan(game, p, inp.guardian)
        target = p.target
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
    after = saves_chain(p, landed).roll(dice)  # the saves chain, from the target's answer
    saves = after.of("armor saves")[0]
    assert isinstance(saves, FaceRoll)
    landed, failed = after.value
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
        faces=faces,
        dice=total,
        hits=p.hits(total),
        landed=landed,
        spent=spent + bought,
        bought=bought,
        saves=list(saves.final),
        failed=failed,
        damage=p.damage(landed, failed),
        flawless=inp.flawless,
        escaped=inp.escape,
        guardian=inp.guardian,
        improvised=improvise_cost(used_skills(t_g)) if inp.improvise else -1,
    )


def apply_hits(game: Game, work: Working, p: Plan, inp: Shoot, out: Landed) -> bool:
    """Deal the damage and spend the target's Momentum; stun (L573-L577) and kills (L394, L461).  True
    when the target is destroyed."""
    t_side, t_i, _, target = _unit(game, inp.target)
    if out.spent:
        gain(work, t_side, "momentum", -out.spent)
    if out.improvised >= 0:  # Improvise (L318-L320)
        gain(work, t_side, "momentum", -out.improvised)
        note_skill(game, work, inp.target, "improvise")
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
    text = f"{a_name} fires {p.weapon.name} at {t_name}: evade dice {dice_words(out.faces)}, "
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
        text += f"; Armor Saves {dice_words(out.saves)}, {out.failed} failed"
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
    free = inp.skill in ("fire_vulcans", "mayhem") or inp.tear or inp.second  # free (L311, L323, L358, L438)
    if inp.tear and (why := tear_refusal(game, inp.attacker, inp.weapon, inp.target)):
        raise ValueError(f"Tear through the Ranks: {why}")
    if inp.tear and inp.skill != "none":
        raise ValueError("Tear through the Ranks is the turn's skill: no other with it (L253)")
    tear = tear_cost(shooter) if inp.tear and not extra.tears else 0
    if inp.skill == "mayhem" and not (extra.meleed and ms_state(game).turn_unit == inp.attacker):
        raise ValueError(f"Mayhem!: {a_g.name} has not attacked in melee this turn (L323)")
    if inp.weapon in extra.disabled and inp.skill != "fire_vulcans":
        raise ValueError(f"{p.weapon.name} was disabled by Battle Damage (L685)")
    if inp.weapon in extra.fired and not free:
        raise ValueError(f"{p.weapon.name} has fired this turn: a weapon fires once a turn (L153)")
    if extra.meleed and inp.attacker in ms_state(game).coordinated:
        raise ValueError(f"{a_g.name} fought in melee: in a Coordinated Attack! it may not shoot too (L828)")
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
    if asked := near_asked(game, inp):
        raise asked
    choices = _turn_choices(shooter, inp, extra.choices if ms_state(game).turn_unit == inp.attacker else [])
    ship = shooter.kind == "warship" and not free  # through All Weapons Fire!, no action a shot (L981)
    check_turn(game, inp.attacker, spends=not (inp.remote or free or ship))  # refusals come before any die
    check_disengage(game, inp.attacker)
    ship_shot_checks(game, inp.attacker, inp.target, inp.weapon, inp.near_ally, inp.in_sensors, inp.daring)
    if p.weapon.power and shooter.kind == "super_titan":
        power_item(game, Working(game), inp.attacker, str(inp.weapon))  # refused before the roll
    out = land(game, p, inp, dice, guarded=True)
    struck = out.guardian or inp.target  # a Guardian takes the hits as its own (L813)
    s_side, s_i, _, s_unit = _unit(game, struck)
    left = guard_plan(game, p, struck).left if out.guardian else p.left
    wrecks = wrecked_picks(game, inp.model_copy(update={"target": struck}), out, left)
    stunned = p.weapon.stun and out.landed and out.damage < left and s_unit.kind == "warship"
    off = unready_picks(game, inp.attacker, struck, out.landed, inp.unreadied) if stunned else None
    work = Working(game)
    begin_turn(game, work, inp.attacker)
    pay_disengage(game, work, inp.attacker)
    if inp.remote:
        gain(work, a_side, "momentum", -1)  # instead of an action (L595)
    elif not free and not ship:
        spend_action(game, work, inp.attacker, shooting=True)
    gain(work, a_side, "momentum", -cost - tear)
    if inp.persevere:
        gain(work, t_side, "momentum", -1)
    if out.guardian:  # the Guardian's 1 Influence; the hits are its own (L811-L813)
        gain(work, t_side, "influence", -1)
        hit = inp.model_copy(update={"target": out.guardian})
        killed = apply_hits(game, work, guard_plan(game, p, out.guardian), hit, out)
        t_g = game.unit(out.guardian)[2]
    else:
        killed = apply_hits(game, work, p, inp, out)
    if p.weapon.power and shooter.kind == "super_titan":
        power_item(game, work, inp.attacker, str(inp.weapon))
        extra = unit_extra(work.unit(a_side, a_i))
    extra.fired = extra.fired if free else [*extra.fired, inp.weapon]
    if inp.skill != "none" and inp.skill not in extra.skills:
        extra.skills = [*extra.skills, inp.skill]
    rest = plan(game, inp.model_copy(update={"split": 0})).shots - p.shots if inp.split else 0
    extra.fusillade = [str(inp.weapon), str(rest), inp.target] if rest else []
    if inp.tear:
        extra.tears += 1
        extra.skills = extra.skills if "tear" in extra.skills else [*extra.skills, "tear"]
    own = ms_state(game).turn_unit in ("", inp.attacker) and inp.skill not in ("fire_vulcans", "mayhem")
    if killed and own and extra.kills.count(inp.weapon) < 3:
        extra.kills = [*extra.kills, inp.weapon]  # Tear through the Ranks may fire it again (L358)
    extra.choices = choices
    shot_down = p.weapon.indirect == "remote" and tier_rank(target) == 2
    downed = sum(f == 10 for f in out.faces) if shot_down else 0
    extra.remote_lost = [*extra.remote_lost, *[inp.weapon] * downed]  # an Ace's 10s (L599-L600)
    put_unit_extra(work, a_side, a_i, extra)
    if ship:
        after_fire(game, work, a_side, a_i, inp.weapon)  # reloading its rounds after (L969-L970)
    if wrecks:
        wreck(work, s_side, s_i, wrecks)  # a weapon system a failed save (L1009)
    if p.weapon.stun and out.landed and not killed and s_unit.kind == "warship":
        unready(work, s_side, s_i, off)  # a stun hit un-readies its weapons (L971)
    if killed and captain(shooter, "fearsome_captain"):
        gain(work, a_side, "momentum", 1)  # a Fearsome Captain's kill (L1086)
    a_state = work.state(a_side, a_i)
    a_state.conditions = [c for c in a_state.conditions if c != "crit_next"]
    if inp.will_to_power:
        note_event(work, a_side, "will_to_power")
    note_attack(game, work, a_side, inp.target, killed)
    shot_at = work.extra_as(MsState)
    shot_at.shot_at = [*shot_at.shot_at, inp.target]  # a Shooting Counterattack may answer it (L334)
    work.put_extra(shot_at)
    text = describe(a_g.name, game.unit(inp.target)[2].name, p, out, killed)
    if out.guardian:
        text += f"; Guardian: {t_g.name} took the hits (1 Influence, L813)"
    if inp.will_to_power:
        text += f"; The Will to Power!: {min(3, p.plain(out.dice))} hits made criticals (L781)"
    if not killed:  # the small-scale mode's Knockback and Hit & Run (L717-L718, L725)
        text += mark_knock(game, work, inp.attacker, struck, p.weapon.pen, p.weapon.damage, out.damage)
    if last_stand(t_g) and out.damage >= t_g.state.max_damage - t_g.state.damage:
        text += f"; {t_g.name} holds on with 1 HP (Unyielding, once a game, L485)"
    if wrecks:
        names = ", ".join(s_unit.weapons[i].name for i in wrecks)
        text += f"; {a_g.name} destroys its {names} (L1009)"
    if out.failed and not killed and inp.far:
        text += "; no Battle Damage beyond M-Particles' range (L875)"
    elif out.failed and not killed and read_options(MsOptions, game.options).battle_damage:
        text += f"; {t_g.name} rolls Battle Damage for each failed save (L677)"
    if downed:
        text += f"; {t_g.name}'s Ace shoots down {downed} of the {p.weapon.name}'s shots for the battle"
    # Last Shooting (L747) for a unit destroyed; a Shooting Counterattack (L334) for one that survives
    used = (
        ["defense"] * (out.spent > out.bought) + ["flawless"] * out.flawless + ["persevere"] * inp.persevere
    )
    offers = (
        last_offer(game, out.guardian or inp.target)
        if killed
        else counter_offer(game, inp.target, inp.attacker, out.spent + inp.persevere, used)
    )
    if rest:  # Furious Fusillade: the rest of the shots at a second target (L438)
        offers.append(
            Offer(
                action="shoot",
                input={"attacker": inp.attacker, "weapon": inp.weapon, "second": True},
                label=f"Furious Fusillade: the other {rest} shot{'s' * (rest != 1)} at a second target",
            )
        )
    if killed and own and extra.tears < 2:
        offers += tear_offer(game, inp.attacker, inp.weapon, p.weapon.name, not extra.tears)
    return ActionResult(changes=work.changes(), text=text, detail=detail(out), offers=offers)


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
        elif i in unit_extra(g).spent:
            why = "used up by Missile Screen!"
        elif "berserk" in g.state.conditions:
            why = "lost: it has gone berserk"
        elif melee_fire_refusal(g, i):
            why = "in melee: only a weapon its Focus picked fires (L155)"
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
    skills = skill_picks(game, unit, momentum)
    if not (unit_extra(g).meleed and ms_state(game).turn_unit == actor):  # Mayhem! follows a melee (L323)
        skills = [
            k.model_copy(update={"unavailable": k.unavailable or "after its melee attack this turn"})
            if k.value == "mayhem"
            else k
            for k in skills
        ]
    return {"weapon": weapons, "skill": skills}
