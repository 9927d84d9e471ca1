"""The shooting attack (L132-L155) with its Armor Saves (L216-L225) and its exact odds.

The attacker rolls nothing: the defender rolls one d10 per shot against the target number
Shooting Accuracy minus Evade (L136-L144); a die that meets it evades, a natural 1 is a critical
hit worth 2 hits (L140), a natural 10 always misses (L141).  Evade bonuses count up to +3 (L138),
a weapon fires at most 10 dice (L134).  Shields and cover block after the roll and never stack
(L228, L634-L635); Skill Defense spends Momentum after the roll, 1 hit each (L253, L260-L264);
an Ace may spend Momentum equal to the round to negate a weapon (Flawless Evasion, L286-L293).
Each hit left deals the weapon's damage (L149); then one Armor Save per hit, at most three per
weapon (warships: every hit, L1009), each failure a flat 1000 (L218-L223).

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
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.state import gain, put_unit_extra, unit_extra
from core.systems.mechastellar.turns import begin_turn, check_turn, note_attack, power_item, spend_action
from core.systems.mechastellar.units import SHOOTING_BLOCKS, Unit, Weapon, tier_rank, total_actions

#: Most dice one weapon rolls, whatever the modifiers (L134).
MAX_SHOTS = 10
#: Most Evade bonus that counts (L138).
MAX_EVADE_BONUS = 3
#: Most Armor Saves one weapon causes, warships aside (L218, L1009).
MAX_SAVES = 3
#: What a failed Armor Save deals (L218).
FAILED_SAVE = 1000

SKILLS: dict[str, str] = {"none": "No skill", "make_it_count": "Make it Count! +1 critical"}


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
        description="A pilot skill used before the roll (L276-L284).",
        json_schema_extra={"flow": "pick"},
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
        return FacePool(dice=n, sides=10, values=values)

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


def plan(game: Game, inp: Shoot) -> Plan:
    """The shot's numbers; ValueError for a shot the rules do not allow."""
    a_side, _, a_g, shooter = _unit(game, inp.attacker)
    t_side, _, t_g, target = _unit(game, inp.target)
    if a_side == t_side:
        raise ValueError("pick an enemy unit to shoot at")
    if t_g.state.destroyed:
        raise ValueError(f"{t_g.name} is already destroyed")
    if inp.weapon >= len(shooter.weapons):
        raise ValueError(f"{a_g.name} has no such weapon")
    weapon = shooter.weapons[inp.weapon]
    if weapon.kind != "shooting":
        raise ValueError(f"{weapon.name} is a melee weapon: use Melee")
    options = read_options(MsOptions, game.options)
    focused = "focus" in a_g.state.conditions
    shots = weapon.shots + (weapon.rapid_fire if inp.band == "rapid" else 0)
    flat = inp.extra_hits
    if focused and weapon.indirect != "artillery":  # Focus (L123-L126)
        bonus = 2 if weapon.pen == 0 else 1
        if inp.within_16:
            flat += bonus
        else:
            shots += bonus
    if shooter.commander == "impressive_skill":
        flat += 1  # +1 hit when shooting (L493)
    shots = min(shots, MAX_SHOTS)
    accuracy = shooter.accuracy + inp.accuracy_bonus + side_has_commander(game, a_side, "vigilant_leader")
    shut = "shut_down" in t_g.state.conditions
    evade = 0 if shut else target.evade + min(inp.evade_bonus, MAX_EVADE_BONUS)  # L138, L566
    tn = accuracy - evade
    advantage = inp.advantage != "none" or shut  # TA sources do not stack (L540, L566)
    crits = int(advantage) + int(inp.skill == "make_it_count" or "crit_next" in a_g.state.conditions)
    pen0 = weapon.pen == 0
    base, extra = SHOOTING_BLOCKS[target.shield]
    if target.kind == "super_titan" and target.shield_power and "shield" not in unit_extra(t_g).powered:
        base = extra = 0  # a Titan's shield blocks only with its Power on it (L230)
    shield = 0 if inp.advantage == "blindside" else base + (extra if pen0 else 0)
    cover = (2 if pen0 else 1) if inp.cover and target.kind != "warship" else 0  # L634, L867
    blocks = max(shield, cover)  # never stacked (L228, L635)
    return Plan(
        shooter=shooter,
        target=target,
        weapon=weapon,
        shots=shots,
        tn=tn,
        evade=FacePool(dice=shots, sides=10, values=evade_values(tn, options.natural_one_evades)),
        flat=flat,
        crits=crits,
        blocks=blocks,
        saves_at=weapon.pen - target.save,
        max_saves=None if target.kind == "warship" else MAX_SAVES,
        left=t_g.state.max_damage - t_g.state.damage,
        options=options,
    )


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


def shoot_odds(game: Game, inp: Shoot) -> ActionOdds:
    """Hits, failed saves, damage and the chance to destroy, before Skill Defense (L253)."""
    p = plan(game, inp)
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
        summary=f"{p.shots} shots; the target evades on {max(2, min(p.tn, 10))}+",
    )


def defense_choice(game: Game, side: int, name: str, hits: int, ace: bool, cost: int) -> NeedChoice:
    """The target's decision after the roll: take the hits, spend Momentum on Skill Defense (L260-L264)
    or, for an Ace, Flawless Evasion for Momentum equal to the round (L290-L291)."""
    momentum = game.sides[side].resources.get("momentum", 0)
    options = [Choice(value=0, label=f"Take {hits} hit{'s' * (hits != 1)}", assumed=True)]
    for n in range(1, min(momentum, hits) + 1):
        options.append(
            Choice(value=n, label=f"Spend {n} Momentum: {hits - n} hit{'s' * (hits - n != 1)} left")
        )
    if ace and momentum >= cost:
        options.append(
            Choice(value=0, label=f"Flawless Evasion: {cost} Momentum, no hits", also={"flawless": True})
        )
    return NeedChoice("defense", f"{name} is hit {hits} time{'s' * (hits != 1)}: Skill Defense?", options)


def shoot(game: Game, inp: Shoot, dice: DiceSource) -> ActionResult:
    """Roll the evade dice, ask for Skill Defense, roll the Armor Saves, deal the damage."""
    p = plan(game, inp)
    a_side, a_i, a_g, shooter = _unit(game, inp.attacker)
    t_side, t_i, t_g, target = _unit(game, inp.target)
    extra = unit_extra(a_g)
    if inp.weapon in extra.fired:
        raise ValueError(f"{p.weapon.name} has fired this turn: a weapon fires once a turn (L153)")
    if inp.skill == "make_it_count" and tier_rank(shooter) == 0:
        raise ValueError("Make it Count! is for Skilled and Ace pilots (L282)")
    cost = 0 if tier_rank(target) else 1  # Dogfight (L281)
    if inp.skill == "make_it_count" and game.sides[a_side].resources.get("momentum", 0) < cost:
        raise ValueError("not enough Momentum for Make it Count! (L276)")
    check_turn(game, inp.attacker, spends=True)  # refusals come before any die
    if p.weapon.power and shooter.kind == "super_titan":
        power_item(game, Working(game), inp.attacker, str(inp.weapon))  # refused before the roll
    roll = p.evade.roll(dice, "evade")
    hits = p.through(roll.total)
    momentum = game.sides[t_side].resources.get("momentum", 0)
    round_cost = max(1, game.round)
    ace = tier_rank(target) == 2 and target.kind != "warship"
    if hits and inp.defense is None and not inp.flawless and (momentum or ace):
        raise defense_choice(game, t_side, t_g.name, hits, ace, round_cost)
    spent = 0
    if inp.flawless:
        if not ace:
            raise ValueError("Flawless Evasion is for Ace pilots (L291)")
        if momentum < round_cost:
            raise ValueError(f"Flawless Evasion costs {round_cost} Momentum this round (L291)")
        spent, landed = round_cost, 0
    else:
        spent = min(inp.defense or 0, hits)
        if spent > momentum:
            raise ValueError(f"{game.sides[t_side].name} has only {momentum} Momentum")
        landed = hits - spent
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
    spent += bought
    damage = p.damage(landed, failed)
    work = Working(game)
    begin_turn(game, work, inp.attacker)
    spend_action(game, work, inp.attacker)
    if inp.skill == "make_it_count":
        gain(work, a_side, "momentum", -cost)
    if spent:
        gain(work, t_side, "momentum", -spent)
    ts = work.state(t_side, t_i)
    ts.damage = min(ts.max_damage, ts.damage + damage)
    killed = ts.damage >= ts.max_damage
    if killed:
        ts.destroyed = True
    if p.weapon.stun and landed and not killed:
        stun_target(ts, target, landed)
    if p.weapon.power and shooter.kind == "super_titan":
        power_item(game, work, inp.attacker, str(inp.weapon))
        extra = unit_extra(work.unit(a_side, a_i))
    extra.fired = [*extra.fired, inp.weapon]
    put_unit_extra(work, a_side, a_i, extra)
    a_state = work.state(a_side, a_i)
    a_state.conditions = [c for c in a_state.conditions if c != "crit_next"]
    note_attack(game, work, a_side, inp.target, killed)
    faces = ", ".join(str(f) for f in roll.final)
    text = (
        f"{a_g.name} fires {p.weapon.name} at {t_g.name}: evade dice [{faces}], "
        f"{p.hits(roll.total)} hit{'s' * (p.hits(roll.total) != 1)}"
    )
    if p.blocks and p.hits(roll.total):
        text += f", {min(p.blocks, p.hits(roll.total))} blocked"
    if inp.flawless:
        text += f", Flawless Evasion ({spent} Momentum)"
    elif spent - bought:
        text += f", {spent - bought} Momentum on Skill Defense"
    if saves:
        text += f"; Armor Saves [{', '.join(str(f) for f in saves.final)}], {failed} failed"
        if bought:
            text += f" ({bought} passed for Momentum)"
    text += f"; {damage} damage" + (f", {t_g.name} is destroyed" if killed else "")
    if p.weapon.stun and landed and not killed:
        text += f"; {landed} stun"
    return ActionResult(
        changes=work.changes(),
        text=text,
        detail={
            "evade": roll.final,
            "hits": p.hits(roll.total),
            "landed": landed,
            "saves": saves.final if saves else [],
            "failed": failed,
            "damage": damage,
        },
    )


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
    mic = "Skilled or Ace pilots only" if tier_rank(unit) == 0 else ""
    skills = [
        FieldPick(value="none", label="No skill"),
        FieldPick(
            value="make_it_count", label="Make it Count!", detail="+1 critical, 1 Momentum", unavailable=mic
        ),
    ]
    return {"weapon": weapons, "skill": skills}
