"""The Melee Clash (L183-L214), with its exact odds given both splits.

The step names were lost in the extraction (digest ambiguity 1); the reading that fits every
example roll (L204-L211, L521-L528): both sides split their Melee dice between attack and
defense, the attacker with two more dice (L518; ambiguity 2); the chosen weapon's dice are added
after the split (L187-L188, L517); an attack die of 5+ is a hit and a 10 a critical worth two
(L190-L191; Bold Leader 4+, L492); a defense die of 5+ is a block (Close Combat Master: a 10 is
two, L447); shields add blocks (Shield 1, Great Shield 2, Melee Shield 1, L207, L526; not against a
Blindside, L543).  Both sides deal their unblocked hits (the defender's attack is its
counterattack, L210); Skill Defense is spent after the roll (L253, L527, L529); each side's
hits left deal its weapon's damage and cause Armor Saves (L208, L214).  The attacker's side
gains 1 Momentum (L246, L516).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource, Dist
from core.game import Game, GameUnit, profile_as
from core.memo import remembered
from core.pool import table
from core.steps import Chain, ChainRoll, FacePool, FaceRoll, Last, Link, reduced
from core.systems.base import (
    ActionOdds,
    ActionResult,
    Choice,
    Closed,
    FieldPick,
    NeedChoice,
    enemy_unit,
    needs,
    own_unit,
    read_options,
)
from core.systems.mechastellar.asks import improvise_cost, improvise_question
from core.systems.mechastellar.commands import has_command, valiant, warned
from core.systems.mechastellar.events import escape_open, last_offer, note_event
from core.systems.mechastellar.fleet import order_tier, wreck, wreck_picks
from core.systems.mechastellar.impacts import mark_knock
from core.systems.mechastellar.modules import shield_broken, tally_shield
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.shooting import (
    FAILED_SAVE,
    MAX_SAVES,
    momentum_asked,
    side_has_commander,
)
from core.systems.mechastellar.skills import (
    giant_slayer_refusal,
    improvise_refusal,
    note_skill,
    skill_blocked,
    tear_cost,
    tear_offer,
    tear_refusal,
    used_skills,
)
from core.systems.mechastellar.space import maneuver_gain
from core.systems.mechastellar.state import MsState, dice_words, gain, ms_state, put_unit_extra, unit_extra
from core.systems.mechastellar.traits import extra_blocks, hp_left, on_kill, take_damage, trait_hits
from core.systems.mechastellar.turns import (
    begin_turn,
    check_disengage,
    check_turn,
    focus_level,
    note_attack,
    pay_disengage,
)
from core.systems.mechastellar.units import MELEE_BLOCKS, Unit, Weapon

#: The charging attacker's extra dice (L518; digest ambiguity 2).
ATTACKER_DICE = 2
#: A defender with no melee weapon still rolls its dice, but its hits deal no damage.
UNARMED = Weapon(name="no melee weapon", kind="cc", range=0, shots=0, damage=0, pen=0)


class Clash(Closed):
    """A melee attack: both sides split their dice, then both strike (L183-L214)."""

    attacker: str = own_unit("Who attacks in melee.")
    target: str = enemy_unit("Whom it attacks.")
    weapon: int = Field(
        default=0, ge=0, le=11, description="The attacker's melee weapon.", json_schema_extra={"flow": "pick"}
    )
    attack_dice: int | None = Field(
        default=None,
        ge=0,
        le=30,
        title="Split",
        description="Of the attacker's dice, how many attack; the rest defend (L519); an even split "
        "when not given (the sheet offers every split, all attack first).",
        json_schema_extra={"flow": "pick"},
    )
    defender_attack: int | None = Field(
        default=None,
        ge=0,
        le=30,
        description="Of the defender's dice, how many attack; the rest defend (L519).  Asked of the "
        "defender's player when the attacker rolls; the odds before assume an even split.",
        json_schema_extra={"ui": "hidden"},
    )
    defender_weapon: int = Field(
        default=0, ge=-1, le=11, description="The defender's melee weapon (its first by default)."
    )
    advantage: Literal["none", "advantage", "blindside", "high_speed"] = Field(
        default="none",
        description="Tactical Advantage: +1 critical hit (L540); a Blindside also ignores the shield (L543); "
        'a High Speed Attack is a [CC] weapon after a Full Throttle of 10" or more (L554-L558).',
        json_schema_extra={
            "flow": "common",
            "x-labels": {
                "none": "None",
                "advantage": "Tactical Advantage",
                "blindside": "Blindside",
                "high_speed": "High Speed Attack",
            },
            **needs("high_speed", values=["high_speed"]),
        },
    )
    extra_damage: bool = Field(
        default=False,
        description="Mechanics Expert or Fearsome took +100 damage this turn instead of +1 PEN (L420, L460).",
        json_schema_extra=needs("weapon_bonus"),
    )
    giant_slayer: bool = Field(
        default=False,
        description="Giant Slayer (Expanded Pilot Skills, 1 Momentum): +1 ARM PEN, +1 more against a larger "
        "unit in melee (L314-L316).",
        json_schema_extra=needs("giant_slayer"),
    )
    defense: int | None = momentum_asked(
        "Momentum the defender spends on Skill Defense; asked after the roll."
    )
    counter_defense: int | None = momentum_asked(
        "Momentum the attacker spends on Skill Defense; asked after the roll."
    )
    escape: bool = Field(
        default=False,
        description="The defender's Narrow Escape cancels the clash, once a game (Climactic Events, L742); "
        "asked with its split.",
        json_schema_extra={"ui": "hidden"},
    )
    improvise: bool | None = Field(
        default=None,
        description="The defender's Improvise (Expanded Pilot Skills): its defense dice that blocked nothing "
        "are rolled again (L318-L320); asked after the roll.",
        json_schema_extra={"ui": "hidden"},
    )
    counter_improvise: bool | None = Field(
        default=None,
        description="The attacker's Improvise: its defense dice that blocked nothing are rolled again "
        "(L318-L320); asked after the roll.",
        json_schema_extra={"ui": "hidden"},
    )
    tear: bool = Field(
        default=False,
        description="Tear through the Ranks (Expanded Pilot Skills): after a kill in melee this turn, the "
        "same weapon clashes with a new unit (L356-L361); offered after the kill.",
        json_schema_extra={"ui": "hidden"},
    )
    pyrrhic: bool | None = Field(
        default=None,
        description="The defender's Pyrrhic Victory: +1 counterattack hit for every 2 hits it takes, once a "
        "game (Climactic Events, L754-L756); asked after the roll.",
        json_schema_extra={"ui": "hidden"},
    )
    wrecked: list[int] | None = Field(
        default=None,
        max_length=12,
        description="A defending warship's weapon systems the attacker destroys, one a failed save (L1009); "
        "asked then.",
        json_schema_extra={"ui": "hidden"},
    )


@dataclass(frozen=True)
class Strike:
    """One side's half of the clash: its attack pool against the other's defense."""

    attack: FacePool
    flat: int
    defense: FacePool
    blocks: int
    weapon: Weapon
    saves_at: int
    left: int
    #: The unit struck is an Unyielding Commander: it rolls failed saves again (L484).
    reroll_saves: bool = False

    def landed(self, hits: int, blocked: int) -> int:
        return max(0, hits + self.flat - blocked - self.blocks)

    def save_pool(self, landed: int) -> FacePool:
        n = min(landed, MAX_SAVES)
        if self.weapon.pen == 0 or self.weapon.kind == "cc" or self.saves_at <= 1:
            return FacePool(dice=0, sides=10, values=(0,) * 10)
        again = tuple(range(1, min(self.saves_at, 11))) if self.reroll_saves else ()
        values = tuple(int(f < self.saves_at) for f in range(1, 11))
        return FacePool(dice=n, sides=10, values=values, reroll_faces=again)

    def damage(self, landed: int, failed: int, options: MsOptions) -> int:
        if options.save_replaces_damage:
            return (landed - failed) * self.weapon.damage + failed * FAILED_SAVE
        return landed * self.weapon.damage + failed * FAILED_SAVE

    def key(self) -> tuple[object, ...]:
        """What :meth:`dist` depends on (not the damage, nor the damage the unit struck has left)."""
        return (
            self.attack, self.flat, self.defense, self.blocks, self.weapon.pen, self.weapon.kind,
            self.saves_at, self.reroll_saves,
        )  # fmt: skip

    def dist(self, options: MsOptions) -> Dist[tuple[int, int]]:
        """Exact (hits that land, failed saves), before Skill Defense; remembered by what it depends
        on (the odds of each split of a clash weigh every split, :func:`best_split`)."""
        return remembered(_STRIKES, self.key(), self._dist, _STRIKES_MOST)

    def pools_chain(self, attack: str, defense: str) -> Chain[int]:
        """The strike's dice (L199-L206): its attack pool, then the other side's defense dice; its result
        is the hits that land before Skill Defense.  The clash's roll ends here (each side then answers:
        Improvise, Skill Defense, Pyrrhic Victory, L253, L320, L756) and the saves start from the answer;
        ``attack``, ``defense``: the purposes the dice are asked for."""
        return Link(
            self.attack,
            attack,
            lambda hits: Last(self.defense, defense, lambda blocked: self.landed(hits, blocked)),
        )

    def saves_chain(self, landed: int, purpose: str) -> Chain[tuple[int, int]]:
        """The Armor Saves of the hits that landed (L208, L214); its result is (landed, failed)."""
        return Last(self.save_pool(landed), purpose, lambda failed: (landed, failed))

    def _dist(self) -> Dist[tuple[int, int]]:
        """Hits rolled, less blocks, then the saves of what lands (L199-L208): the two chains with no answer
        between them, each number of hits that land weighed once; the weights are reduced as far as they
        go (the very Dist the sum of Fractions gave)."""
        chain = self.pools_chain("attack", "defense").then(lambda landed: self.saves_chain(landed, "saves"))
        return reduced(chain.dist())


#: Strike.dist by (pools, flat hits, blocks, the weapon's PEN and kind, saves, rerolled saves).
_STRIKES: dict[tuple[object, ...], Dist[tuple[int, int]]] = {}
_STRIKES_MOST = 256


def _weapon(unit: Unit, index: int) -> Weapon:
    if index < 0 or index >= len(unit.weapons):
        return UNARMED
    w = unit.weapons[index]
    if w.kind == "shooting":
        raise ValueError(f"{w.name} is a shooting weapon")
    return w


def _tuned(unit: Unit, weapon: Weapon, extra_damage: bool) -> Weapon:
    """Mechanics Expert / Fearsome: +1 PEN, or +100 damage (L420, L460); not for [CC] weapons, which have
    no PEN or abilities (L557), nor for a bare defender."""
    if weapon.kind == "cc" or weapon is UNARMED:
        return weapon
    if not any(t in ("mechanics_expert", "fearsome") for t in unit.pilot.traits):
        return weapon
    if extra_damage:
        return weapon.model_copy(update={"damage": weapon.damage + 100})
    return weapon.model_copy(update={"pen": weapon.pen + 1})


def _first_melee(unit: Unit) -> int:
    return next((i for i, w in enumerate(unit.weapons) if w.kind != "shooting"), -1)


def defender_weapon(dfn: Unit, inp: Clash) -> Weapon:
    """What the defender strikes back with: the weapon its player picked, else its first melee or
    [CC] weapon; :data:`UNARMED` for a warship (its bonus is its turn's) or a unit with none, whose
    dice then all defend (its counterattack is its weapon's, L188, L208)."""
    if dfn.kind == "warship":
        return UNARMED
    return _weapon(
        dfn, inp.defender_weapon if inp.defender_weapon != 0 or not dfn.weapons else _first_melee(dfn)
    )


def even_split(pool: int) -> int:
    """The defender's attack dice the odds assume before its player splits: half, the odd die on
    defense.

    >>> [even_split(n) for n in (0, 1, 5, 6)]
    [0, 0, 2, 3]
    """
    return pool // 2


def attacker_pool(unit: Unit, options: MsOptions) -> int:
    """The dice the attacker splits: its Melee and the charge's 2 (L518; ambiguity 2's other reading,
    one fixed die each side, splits its Melee alone)."""
    return unit.melee + (0 if options.attacker_one_each else ATTACKER_DICE)


def split_label(attack: int, pool: int) -> str:
    """How a split reads on a button: "4 attack / 3 defense"."""
    return f"{attack} attack / {pool - attack} defense"


def pools(game: Game, inp: Clash) -> tuple[Strike, Strike, int, int, MsOptions]:
    """Both strikes and both pools' sizes; ValueError for splits larger than the pools."""
    a_side, _, a_g = game.unit(inp.attacker)
    d_side, _, d_g = game.unit(inp.target)
    if a_side == d_side:
        raise ValueError("pick an enemy unit to attack")
    if d_g.state.destroyed:
        raise ValueError(f"{d_g.name} is already destroyed")
    att, dfn = profile_as(Unit, a_g), profile_as(Unit, d_g)
    if att.kind == "warship":
        raise ValueError("Stellar Warships cannot make melee attacks (L954)")
    if a_g.state.destroyed:
        raise ValueError(f"{a_g.name} is destroyed")
    st = ms_state(game)
    if st.charge and st.turn_unit == inp.attacker and st.charge != inp.target and not unit_extra(a_g).meleed:
        raise ValueError(
            f"{a_g.name} charged {game.unit(st.charge)[2].name}: its melee attack is at it (L172)"
        )
    options = read_options(MsOptions, game.options)
    a_weapon = _tuned(att, _weapon(att, inp.weapon), inp.extra_damage)
    if a_weapon is UNARMED:
        raise ValueError(f"{a_g.name} has no melee or [CC] weapon to attack with")
    if inp.giant_slayer:  # +1 PEN, +1 more against a larger unit (L316); a [CC] weapon has none (L557)
        if why := giant_slayer_refusal(game, inp.attacker):
            raise ValueError(f"Giant Slayer: {why}")
        if a_weapon.kind == "cc":
            raise ValueError(f"Giant Slayer: {a_weapon.name} is a [CC] weapon, with no ARM PEN (L557)")
        a_weapon = a_weapon.model_copy(update={"pen": a_weapon.pen + 1 + (dfn.size > att.size)})
    d_weapon = defender_weapon(dfn, inp)
    a_pool = attacker_pool(att, options)
    d_pool = dfn.aa_def if dfn.kind == "warship" else dfn.melee
    d_split = even_split(d_pool) if inp.defender_attack is None else inp.defender_attack
    if (dfn.kind == "warship" or d_weapon is UNARMED) and inp.defender_attack is None:
        d_split = 0
    if d_weapon is UNARMED and dfn.kind != "warship" and d_split:
        # its counterattack is its weapon's (L188, L208): with none, an attack die deals nothing
        raise ValueError(
            f"{d_g.name} has no melee weapon to strike back with: all its dice defend (L188, L208)"
        )
    a_split = even_split(a_pool) if inp.attack_dice is None else inp.attack_dice
    if a_split > a_pool:
        raise ValueError(f"{a_g.name} has {a_pool} dice to split")
    if d_split > d_pool or (dfn.kind == "warship" and d_split):
        raise ValueError(
            f"{d_g.name} has {d_pool} dice to split"
            + (", all on defense (L954)" if dfn.kind == "warship" else "")
        )
    a_atk = a_split + a_weapon.atk_dice + (1 if options.attacker_one_each else 0)
    a_atk += valiant(game, a_side, inp.attacker, inp.target)  # The Valiant (L846)
    a_def = a_pool - a_split + a_weapon.def_dice + (1 if options.attacker_one_each else 0)
    d_atk = d_split + d_weapon.atk_dice + valiant(game, d_side, inp.target, inp.attacker)
    # Overwhelming Firepower's +1 ARM PEN (L844); a [CC] weapon has no PEN (L557)
    if has_command(game, a_side, "overwhelming_firepower") and a_weapon.kind != "cc":
        a_weapon = a_weapon.model_copy(update={"pen": a_weapon.pen + 1})
    if has_command(game, d_side, "overwhelming_firepower") and d_weapon.kind != "cc":
        d_weapon = d_weapon.model_copy(update={"pen": d_weapon.pen + 1})
    d_def = d_pool - d_split + d_weapon.def_dice

    def atk_values(side: int) -> tuple[int, ...]:
        hit_on = 4 if side_has_commander(game, side, "bold_leader") else 5  # L492
        return tuple(2 if f == 10 else int(f >= hit_on) for f in range(1, 11))

    def def_values(unit: Unit, side: int) -> tuple[int, ...]:
        double = "close_combat_master" in unit.pilot.traits  # L447
        # a Battle Hardened Close Range order: AA DEF (Melee) +1 Accuracy, read as a block on 4+ (L1035)
        block_on = 4 if unit.kind == "warship" and order_tier(game, side, "close_range") == 2 else 5
        return tuple((2 if double else 1) if f == 10 else int(f >= block_on) for f in range(1, 11))

    def flat_hits(unit: Unit, g: GameUnit, weapon: Weapon, advantage: bool, refs: tuple[str, str]) -> int:
        t = unit.pilot.traits
        n = (
            ("close_combat_expert" in t)
            + ("close_combat_master" in t)
            + 2 * ("merciless_melee" in t or "berserk" in g.state.conditions)  # not stacked (L443, L775)
            + (unit.commander == "impressive_skill")
            + trait_hits(game, *refs, weapon, False, False)
        )
        # each Focus this turn (L124-L125; digest ambiguity 19)
        n += (2 if weapon.pen == 0 and weapon.kind != "cc" else 1) * focus_level(game, g)
        return n + 2 * advantage

    def trait_blocks(unit: Unit) -> int:
        return ("close_combat_expert" in unit.pilot.traits) + ("close_combat_master" in unit.pilot.traits)

    shut = "shut_down" in d_g.state.conditions
    if inp.advantage == "high_speed" and a_weapon.kind != "cc":
        raise ValueError(f"a High Speed Attack is made with a [CC] weapon, not {a_weapon.name} (L556)")
    run = maneuver_gain(game, inp.attacker, inp.target)  # Outmaneuver / Bridge Attack (L923-L930)
    if run == "bridge" and a_weapon.kind != "cc":
        a_weapon = a_weapon.model_copy(update={"pen": a_weapon.pen + 3})
    if warned(game, inp.target) and inp.advantage != "none":
        raise ValueError(f"{d_g.name} was warned: no Tactical Advantage against it this turn (L809)")
    a_adv = (
        inp.advantage != "none" or shut or "crit_next" in a_g.state.conditions or bool(run)
    ) and not warned(game, inp.target)
    side_on = inp.advantage == "blindside" or run in ("blindside", "bridge")
    d_shield = 0 if side_on or shield_broken(d_g) else MELEE_BLOCKS[dfn.shield]
    strike = Strike(
        attack=FacePool(
            dice=a_atk, sides=10, values=atk_values(a_side), reroll_faces=tuple(sorted(set(a_weapon.reroll)))
        ),
        flat=flat_hits(att, a_g, a_weapon, a_adv, (inp.attacker, inp.target)),
        defense=FacePool(dice=0 if shut else d_def, sides=10, values=def_values(dfn, d_side)),
        # Untouchable (L403); a Close Range Combat order (L1034)
        blocks=d_shield
        + trait_blocks(dfn)
        + extra_blocks(d_g)
        + bool(order_tier(game, d_side, "close_range")),
        weapon=a_weapon,
        saves_at=a_weapon.pen - dfn.save,
        left=hp_left(d_g),
        reroll_saves=dfn.commander == "unyielding",
    )
    counter = Strike(
        attack=FacePool(
            dice=0 if shut else d_atk,
            sides=10,
            values=atk_values(d_side),
            reroll_faces=tuple(sorted(set(d_weapon.reroll))),
        ),
        flat=0 if shut else flat_hits(dfn, d_g, d_weapon, False, (inp.target, inp.attacker)),
        defense=FacePool(dice=a_def, sides=10, values=def_values(att, a_side)),
        blocks=(0 if shield_broken(a_g) else MELEE_BLOCKS[att.shield])
        + trait_blocks(att)
        + extra_blocks(a_g)
        + bool(order_tier(game, a_side, "close_range")),
        weapon=d_weapon,
        saves_at=d_weapon.pen - att.save,
        left=hp_left(a_g),
        reroll_saves=att.commander == "unyielding",
    )
    return strike, counter, a_pool, d_pool, options


def clash_odds(game: Game, inp: Clash) -> ActionOdds:
    """Damage dealt and taken, and the chance each side is destroyed, before Skill Defense."""
    strike, counter, a_pool, _, options = pools(game, inp)
    dealt = strike.dist(options).map(lambda k: strike.damage(*k, options))
    taken = counter.dist(options).map(lambda k: counter.damage(*k, options))
    moved = even_split(a_pool) if inp.attack_dice is None else inp.attack_dice  # as pools() reads it
    best = split_of(strike, counter, moved, a_pool, options)
    return ActionOdds(
        tables={"damage dealt": table(dealt), "damage taken": table(taken)},
        facts={
            "target destroyed": float(_at_least(dealt, strike.left)),
            "attacker destroyed": float(_at_least(taken, counter.left)),
        },
        summary=f"Best split against an even defense: {best} attack, {a_pool - best} defense"
        if inp.defender_attack is None
        else f"Best split against this defense: {best} attack, {a_pool - best} defense",
    )


def _at_least(dist: Dist[int], value: int) -> Fraction:
    """P(at least ``value``), summed in integer weights (exact, and no Fraction per outcome)."""
    return Fraction(sum(w for v, w in dist.weights.items() if v >= value), dist.total)


def best_split(game: Game, inp: Clash, pool: int) -> int:
    """The attacker's split dealing the most damage less damage taken, against the defender's split."""
    strike, counter, _, _, options = pools(game, inp.model_copy(update={"attack_dice": 0}))
    return split_of(strike, counter, 0, pool, options)


def split_of(strike: Strike, counter: Strike, moved: int, pool: int, options: MsOptions) -> int:
    """:func:`best_split` from the strikes of a split with ``moved`` dice on the attack.

    A split moves dice between the attacker's attack and its defense and changes nothing else
    (L519): each split ``k`` moves ``k - moved`` dice (each pool checked as :func:`pools` checks it).
    Remembered by both strikes with no die moved and what the mean damage reads besides (a sheet
    asks the odds of each split, and each weighs every split).
    """
    attack = FacePool(**{**strike.attack.__dict__, "dice": strike.attack.dice - moved})
    defense = FacePool(**{**counter.defense.__dict__, "dice": counter.defense.dice + moved})
    ours, theirs = replace(strike, attack=attack), replace(counter, defense=defense)
    key = (
        ours.key(),
        theirs.key(),
        ours.weapon.damage,
        theirs.weapon.damage,
        pool,
        options.save_replaces_damage,
    )

    def best() -> int:
        scores = []
        for k in range(pool + 1):
            a = FacePool(**{**attack.__dict__, "dice": attack.dice + k})
            d = FacePool(**{**defense.__dict__, "dice": defense.dice - k})
            mine, yours = replace(ours, attack=a), replace(theirs, defense=d)
            scores.append((expected_damage(mine, options) - expected_damage(yours, options), k))
        return max(scores)[1]

    return remembered(_SPLITS, key, best, _STRIKES_MOST)


#: split_of by both strikes with no die moved, their damage a hit, the pool and the saves' reading.
_SPLITS: dict[tuple[object, ...], int] = {}


def destroys(strike: Strike, options: MsOptions) -> Fraction:
    """The chance a strike destroys the unit it hits, before Skill Defense."""
    return _at_least(strike.dist(options).map(lambda k: strike.damage(*k, options)), strike.left)


def expected_damage(strike: Strike, options: MsOptions) -> Fraction:
    """The mean damage a strike deals, before Skill Defense; remembered by what it depends on (each
    split's odds weigh every split again, :func:`best_split`).

    The mean of :meth:`Strike.damage` over :meth:`Strike.dist`, from the hits that land alone: a hit
    deals the weapon's damage, and a failed save 1000 more (L208, L214) or instead of it (the
    option); the saves of ``n`` hits are ``n`` alike dice, so their mean number of failures is
    ``n`` times one die's (exact, in Fractions: the very mean of the whole distribution).
    """
    key = (strike.key(), strike.weapon.damage, options.save_replaces_damage)
    return remembered(_MEANS, key, lambda: _mean_damage(strike, options), _STRIKES_MOST)


def _mean_damage(strike: Strike, options: MsOptions) -> Fraction:
    hits, saved, total = _landed_sums(strike)
    die = strike.save_pool(1)
    if die.dice:
        one = die.die_dist()
        fail = Fraction(sum(v * w for v, w in one.weights.items()), one.total)
    else:  # no save is rolled (no PEN, a [CC] weapon, or the save always holds)
        fail = Fraction(0)
    per_fail = FAILED_SAVE - strike.weapon.damage if options.save_replaces_damage else FAILED_SAVE
    return Fraction(hits * strike.weapon.damage, total) + Fraction(saved, total) * fail * per_fail


def _landed_sums(strike: Strike) -> tuple[int, int, int]:
    """In integer weights over every (hits, blocks) pair of the two pools: the hits that land summed,
    the saves they cause summed (at most MAX_SAVES a strike), and the pairs' total weight.

    A hit total ``h`` lands ``max(0, c - b)`` against ``b`` blocks, ``c = h + flat - blocks`` (L199-L206):
    summed over ``b``, that is the defense's cumulative weights summed below ``c``; the saves,
    ``min(landed, MAX_SAVES)``, the cumulative weights at ``c - 1`` ... ``c - MAX_SAVES``.  One pass
    over each pool instead of one over every pair (the mean damage of each split, :func:`split_of`).
    """
    att, dfn = strike.attack.dist(), strike.defense.dist()
    if min(dfn.weights) < 0:  # no clash die counts below 0; any other pool pair by pair
        landed = att.combine(dfn, strike.landed)
        return (
            sum(n * w for n, w in landed.weights.items()),
            sum(min(n, MAX_SAVES) * w for n, w in landed.weights.items()),
            landed.total,
        )
    off = strike.flat - strike.blocks
    top = max(att.weights) + off  # the largest c met
    below = [0] * max(top, 0)  # below[x]: the defense's weight of totals <= x, x from 0
    for b, w in dfn.weights.items():
        if b < len(below):
            below[b] += w
    for x in range(1, len(below)):
        below[x] += below[x - 1]
    summed = [0] * (len(below) + 1)  # summed[c]: below[0] + ... + below[c - 1]
    for x, w in enumerate(below):
        summed[x + 1] = summed[x] + w
    hits = saved = 0
    for h, w in att.weights.items():
        c = h + off
        if c <= 0 or not w:
            continue
        hits += w * summed[c]
        saved += w * (summed[c] - summed[max(c - MAX_SAVES, 0)])
    return hits, saved, att.total * dfn.total


#: expected_damage by the strike's key, its damage a hit and whether a failed save replaces it.
_MEANS: dict[tuple[object, ...], Fraction] = {}


def _defense(game: Game, side: int, name: str, hits: int, field: str) -> NeedChoice:
    momentum = game.sides[side].resources.get("momentum", 0)
    options = [Choice(value=0, label=f"Take {hits} hit{'s' * (hits != 1)}", assumed=True)]
    options += [
        Choice(value=n, label=f"Spend {n} Momentum: {hits - n} left")
        for n in range(1, min(momentum, hits) + 1)
    ]
    return NeedChoice(
        field, f"{name} takes {hits} hit{'s' * (hits != 1)} in the clash: Skill Defense?", options
    )


def d_pool_of(game: Game, inp: Clash) -> int:
    """The defender's dice to split (0 for a Stellar Warship: all its AA DEF defends, L954)."""
    _, _, d_g = game.unit(inp.target)
    dfn = Unit.model_validate(d_g.profile)
    return 0 if dfn.kind == "warship" else dfn.melee


def _defender_split(game: Game, inp: Clash) -> NeedChoice:
    """The defender's player splits its dice once the attacker has split (L519; digest ambiguity 37:
    asked in turn on one phone).  Each answer reads with its chance to destroy the attacker."""
    _, _, d_g = game.unit(inp.target)
    pool = d_pool_of(game, inp)
    dfn = Unit.model_validate(d_g.profile)
    unarmed = dfn.kind != "warship" and defender_weapon(dfn, inp) is UNARMED
    options = []
    # Each answer with what it deals the attacker and the chance the defender itself is destroyed;
    # a defender with no melee weapon strikes back with nothing (L188, L208): all its dice defend.
    for k in [0] if unarmed else range(pool, -1, -1):
        strike, counter, _, _, opts = pools(game, inp.model_copy(update={"defender_attack": k}))
        mean, lost = expected_damage(counter, opts), destroys(strike, opts)
        lost_said = f"{float(lost):.0%} chance it is destroyed"
        if unarmed:
            label = f"All {pool} dice defend (no melee weapon to strike back with) · {lost_said}"
        else:
            said = split_label(k, pool) if pool else "Defend: no dice to split"  # a warship (L954)
            label = f"{said} · deals ~{float(mean):.0f} back · {lost_said}"
        options.append(Choice(value=k, label=label, assumed=k == (0 if unarmed else even_split(pool))))
    if escape_open(game, game.unit(inp.target)[0]):  # Climactic Events (L742)
        options.append(
            Choice(value=0, label="Narrow Escape: cancel the clash (once a game)", also={"escape": True})
        )
    return NeedChoice("defender_attack", f"{d_g.name}'s player splits its {pool} dice", options)


def second_clash(game: Game, inp: Clash) -> str:
    """Why the attacker may not clash now ("" when it may): melee once a turn (L28); a Merciless Melee
    pilot clashes a second time on its own turn, at a new target (L443)."""
    _, _, a_g = game.unit(inp.attacker)
    extra = unit_extra(a_g)
    if not extra.meleed:
        return ""
    merciless = "merciless_melee" in Unit.model_validate(a_g.profile).pilot.traits
    own = ms_state(game).turn_unit == inp.attacker
    if not merciless or not own or len(extra.clashed) >= 2:
        more = " (Merciless Melee: twice)" if merciless else ""
        return f"{a_g.name} has made its melee attack this turn: once a turn{more} (L28, L443)"
    if inp.target in extra.clashed:
        return f"{a_g.name}'s second clash this turn must be at a new target (L443)"
    return ""


def clash_made(work: Working, inp: Clash) -> None:
    """The clash declared with hidden splits is made (:mod:`.splits`): a clash after it this turn (Merciless
    Melee's, L443; Tear through the Ranks', L358) is a new one, its split on the sheet."""
    st = work.extra_as(MsState)
    if st.secret_clash == f"{inp.attacker}|{inp.target}":
        st.secret_clash = ""
        work.put_extra(st)


def _escaped(game: Game, inp: Clash) -> ActionResult:
    """The defender's Narrow Escape cancels the clash: no die is rolled; the attacker's melee this turn is
    spent (L28), with no Momentum for it (L742)."""
    a_side, a_i, a_g = game.unit(inp.attacker)
    d_side, _, d_g = game.unit(inp.target)
    if not escape_open(game, d_side):
        raise ValueError("Narrow Escape needs the Climactic Events module and the side's Event unused (L736)")
    work = Working(game)
    begin_turn(game, work, inp.attacker)
    clash_made(work, inp)
    note_event(work, d_side, "narrow_escape")
    extra = unit_extra(a_g)
    extra.meleed = True
    extra.clashed = [*extra.clashed, inp.target][-2:]
    put_unit_extra(work, a_side, a_i, extra)
    text = f"{d_g.name} makes a Narrow Escape: the clash with {a_g.name} is cancelled (L742)"
    return ActionResult(changes=work.changes(), text=text)


def _improvise(
    game: Game,
    ref: str,
    strike: Strike,
    hits: int,
    faces: list[int],
    answer: bool | None,
    momentum: int,
    dice: DiceSource,
    extra_used: list[str] | None = None,
) -> tuple[list[int], int]:
    """Improvise in the clash (Expanded Pilot Skills, L318-L320): the unit's defense dice that blocked
    nothing, rolled again when its player says so (asked when they could matter: hits come at it).  The
    faces, and the Momentum paid now (0: paid earlier this turn; -1: not used)."""
    _, _, g = game.unit(ref)
    used = used_skills(g) if extra_used is None else [*used_skills(g), *extra_used]
    failing = [i for i, f in enumerate(faces) if not strike.defense.values[f - 1]]
    why = improvise_refusal(game, ref, used, momentum)
    if answer is None and not why and failing and strike.landed(hits, 0):
        field = "improvise" if extra_used is None else "counter_improvise"
        raise improvise_question(g.name, len(failing), improvise_cost(used), field, "defense")
    if not answer:
        return faces, -1
    if why:
        raise ValueError(f"Improvise: {why}")
    again = FacePool(dice=len(failing), sides=10, values=strike.defense.values).roll(dice, "Improvise")
    out = list(faces)
    for i, f in zip(failing, again.final, strict=True):
        out[i] = f
    return out, improvise_cost(used)


def _pyrrhic(game: Game, inp: Clash, taken: int) -> int:
    """Pyrrhic Victory's counterattack hits: 1 for every 2 hits the defender takes, after its blocks and
    Skill Defense (L756); asked of a defender that takes 2 or more and has a counterattack, its side's
    Event open (L736).  0 when not used."""
    d_side, _, d_g = game.unit(inp.target)
    dfn = Unit.model_validate(d_g.profile)
    can = escape_open(game, d_side) and dfn.kind != "warship" and "shut_down" not in d_g.state.conditions
    if inp.pyrrhic and not can:
        raise ValueError(
            "Pyrrhic Victory needs the Climactic Events module and the side's Event unused (L736)"
        )
    if can and taken >= 2 and inp.pyrrhic is None:
        raise NeedChoice(
            "pyrrhic",
            f"{d_g.name} takes {taken} hits: use Pyrrhic Victory for +{taken // 2} counterattack "
            f"hit{'s' * (taken // 2 != 1)}? (once a game)",
            [
                Choice(value=False, label="No", assumed=True),
                Choice(value=True, label=f"Pyrrhic Victory: +{taken // 2}"),
            ],
        )
    return taken // 2 if inp.pyrrhic else 0


def _pools(rolled: ChainRoll[int]) -> tuple[FaceRoll, FaceRoll]:
    """A strike's attack and defense dice as rolled."""
    attack, defense = (r for _, r in rolled.rolls)
    assert isinstance(attack, FaceRoll) and isinstance(defense, FaceRoll)
    return attack, defense


def _saves(rolled: ChainRoll[tuple[int, int]]) -> FaceRoll:
    ((_, saves),) = rolled.rolls
    assert isinstance(saves, FaceRoll)
    return saves


def clash(game: Game, inp: Clash, dice: DiceSource) -> ActionResult:
    """Roll attack, defense, counterattack and the attacker's defense; Skill Defense; saves; damage."""
    strike, counter, _, _, options = pools(game, inp)
    a_side, a_i, a_g = game.unit(inp.attacker)
    d_side, d_i, d_g = game.unit(inp.target)
    extra = unit_extra(a_g)
    if inp.tear and (why := tear_refusal(game, inp.attacker, inp.weapon, inp.target)):
        raise ValueError(f"Tear through the Ranks: {why}")
    if not inp.tear and (why := second_clash(game, inp)):
        raise ValueError(why)
    if extra.fired and inp.attacker in ms_state(game).coordinated:
        raise ValueError(
            f"{a_g.name} has shot: in a Coordinated Attack! it may not fight in melee too (L828)"
        )
    check_turn(game, inp.attacker)  # refusals come before any die
    check_disengage(game, inp.attacker)
    if inp.escape:
        return _escaped(game, inp)
    if inp.defender_attack is None and (d_pool_of(game, inp) > 0 or escape_open(game, d_side)):
        raise _defender_split(game, inp)  # a warship splits none, but may make its Narrow Escape (L742)
    # both strikes' dice, the attacker's first (each its strike's chain, to the answers)
    a_roll, d_block = _pools(strike.pools_chain("attack", "defense").roll(dice))
    d_roll, a_block = _pools(counter.pools_chain("counterattack", "attacker's defense").roll(dice))
    mom_d = game.sides[d_side].resources.get("momentum", 0)
    mom_a = game.sides[a_side].resources.get("momentum", 0) + (not inp.tear)  # the melee's first (L516, L529)
    mom_a -= inp.giant_slayer + (
        tear_cost(Unit.model_validate(a_g.profile)) if inp.tear and not extra.tears else 0
    )
    # Improvise: each side may roll its defense dice that blocked nothing again, the defender first (L320)
    d_def, d_cost = _improvise(
        game, inp.target, strike, a_roll.total, d_block.final, inp.improvise, mom_d, dice
    )
    a_def, a_cost = _improvise(
        game, inp.attacker, counter, d_roll.total, a_block.final, inp.counter_improvise, mom_a, dice, []
    )
    mom_d, mom_a = mom_d - max(0, d_cost), mom_a - max(0, a_cost)
    d_total = sum(strike.defense.values[f - 1] for f in d_def)
    a_total = sum(counter.defense.values[f - 1] for f in a_def)
    into_d = strike.landed(a_roll.total, d_total)
    into_a = counter.landed(d_roll.total, a_total)
    # one skill a unit turn (L253): a side whose unit has used another skill this turn has no Skill Defense
    for who, g, field in (
        (Unit.model_validate(d_g.profile), d_g, "defense"),
        (Unit.model_validate(a_g.profile), a_g, "counter_defense"),
    ):
        used = used_skills(g) + ["giant_slayer"] * (inp.giant_slayer and field == "counter_defense")
        used += ["improvise"] * ((d_cost if field == "defense" else a_cost) >= 0)
        why = skill_blocked(who, used, "defense")
        if why and getattr(inp, field):
            raise ValueError(f"{g.name} cannot use Skill Defense: {why} (L253)")
        if why and field == "defense":
            mom_d = 0
        elif why:
            mom_a = 0
    if into_d and mom_d and inp.defense is None:
        raise _defense(game, d_side, d_g.name, into_d, "defense")
    pyrrhic = _pyrrhic(game, inp, into_d - min(inp.defense or 0, into_d, mom_d))
    into_a = counter.landed(d_roll.total + pyrrhic, a_total)
    if into_a and mom_a and inp.counter_defense is None:
        raise _defense(
            game.model_copy(
                update={
                    "sides": [
                        s.model_copy(update={"resources": {**s.resources, "momentum": min(10, mom_a)}})
                        if i == a_side
                        else s
                        for i, s in enumerate(game.sides)
                    ]
                }
            ),
            a_side,
            a_g.name,
            into_a,
            "counter_defense",
        )
    spend_d = min(inp.defense or 0, into_d, mom_d)
    spend_a = min(inp.counter_defense or 0, into_a, min(10, mom_a))
    land_d, land_a = into_d - spend_d, into_a - spend_a
    d_saves = _saves(strike.saves_chain(land_d, "defender's saves").roll(dice))
    a_saves = _saves(counter.saves_chain(land_a, "attacker's saves").roll(dice))
    dmg_d = strike.damage(land_d, d_saves.total, options)
    dmg_a = counter.damage(land_a, a_saves.total, options)
    # a warship's failed saves destroy its weapon systems (L1009)
    wrecks = wreck_picks(game, inp.attacker, inp.target, d_saves.total, dmg_d >= strike.left, inp.wrecked)
    work = Working(game)
    begin_turn(game, work, inp.attacker)
    clash_made(work, inp)
    pay_disengage(game, work, inp.attacker)
    defiant = "defiant" in Unit.model_validate(a_g.profile).pilot.traits
    tear = tear_cost(Unit.model_validate(a_g.profile)) if inp.tear and not extra.tears else 0
    melee_gain = (
        0 if inp.tear else 1 + defiant
    )  # Tear through the Ranks: the first melee attack's only (L360)
    gain(work, a_side, "momentum", melee_gain - spend_a - inp.giant_slayer - max(0, a_cost) - tear)  # L246
    if spend_d:
        note_skill(game, work, inp.target, "defense")
    if inp.pyrrhic:
        note_event(work, d_side, "pyrrhic")
    if d_cost >= 0:  # Improvise (L318-L320)
        gain(work, d_side, "momentum", -d_cost)
        note_skill(game, work, inp.target, "improvise")
    if a_cost >= 0 and "improvise" not in extra.skills:
        extra.skills = [*extra.skills, "improvise"]
    if spend_a and "defense" not in extra.skills:
        extra.skills = [*extra.skills, "defense"]  # put with the attacker's values below
    if inp.giant_slayer and "giant_slayer" not in extra.skills:
        extra.skills = [*extra.skills, "giant_slayer"]
    if spend_d:
        gain(work, d_side, "momentum", -spend_d)
    # a Shield that met hits is used once more (Gritty Battles, L699)
    d_shield = inp.advantage != "blindside" and MELEE_BLOCKS[Unit.model_validate(d_g.profile).shield] > 0
    if d_shield and a_roll.total + strike.flat:
        tally_shield(game, work, d_side, d_i)
    if MELEE_BLOCKS[Unit.model_validate(a_g.profile).shield] and d_roll.total + counter.flat:
        tally_shield(game, work, a_side, a_i)
    killed = take_damage(game, work, d_side, d_i, dmg_d)  # Unyielding: once on 1 HP (L485)
    lost = take_damage(game, work, a_side, a_i, dmg_a)
    if wrecks:
        wreck(work, d_side, d_i, wrecks)
    ds, as_ = work.state(d_side, d_i), work.state(a_side, a_i)
    ds.destroyed = ds.destroyed or killed
    as_.destroyed = as_.destroyed or lost
    if killed:
        on_kill(game, work, inp.attacker, inp.target)
    if lost:
        on_kill(game, work, inp.target, inp.attacker)
        gain(work, d_side, "momentum", 1)  # the defender's side destroyed a unit this turn (L247)
    for st, one in ((ds, d_g), (as_, a_g)):  # a warship ignores engagement range (L955)
        if "engaged" not in st.conditions and not st.destroyed and one.profile.get("kind") != "warship":
            st.conditions = [*st.conditions, "engaged"]
    as_.conditions = [c for c in as_.conditions if c != "crit_next"]
    extra.meleed = True
    extra.clashed = [*extra.clashed, inp.target][-2:]
    own = ms_state(game).turn_unit in ("", inp.attacker)
    if inp.tear:
        extra.tears += 1
        extra.skills = extra.skills if "tear" in extra.skills else [*extra.skills, "tear"]
    if killed and own and extra.kills.count(inp.weapon) < 3:
        extra.kills = [*extra.kills, inp.weapon]  # Tear through the Ranks may clash with it again (L358)
    put_unit_extra(work, a_side, a_i, extra)
    note_attack(game, work, a_side, inp.target, killed)
    w, kind, impact = strike.weapon, a_g.profile.get("kind"), ""
    dfn_weapons = Unit.model_validate(d_g.profile).weapons
    if kind == "super_titan" and not killed:  # Knockback (L725)
        fast = inp.advantage == "high_speed"
        impact = mark_knock(game, work, inp.attacker, inp.target, w.pen, w.damage, dmg_d, fast)
    elif kind == "mobile_suit" and killed:  # Hit & Run: forward after a melee kill (L718)
        impact = mark_knock(game, work, inp.attacker, inp.target, 0, 0, 0)

    def faces(r: list[int]) -> str:
        return dice_words(r)

    text = (
        f"{a_g.name} clashes with {d_g.name}: attack {faces(a_roll.final)} "
        f"vs defense {faces(d_def)}, "
        f"{into_d} through"
        + (f", {spend_d} cancelled with Momentum" if spend_d else "")
        + f"; counterattack {faces(d_roll.final)}"
        + (f" and {pyrrhic} from a Pyrrhic Victory" if inp.pyrrhic else "")
        + f" vs defense {faces(a_def)}, {into_a} through"
        + (f", {spend_a} cancelled with Momentum" if spend_a else "")
        + f". {d_g.name} takes {dmg_d}, {a_g.name} takes {dmg_a}"
    )
    text += impact
    if wrecks:
        text += f"; {a_g.name} destroys its " + ", ".join(dfn_weapons[i].name for i in wrecks) + " (L1009)"
    return ActionResult(
        changes=work.changes(),
        text=text,
        offers=(last_offer(game, inp.target) if killed else [])
        + (last_offer(game, inp.attacker) if lost else [])
        + (
            tear_offer(game, inp.attacker, inp.weapon, strike.weapon.name, not extra.tears, "melee")
            if killed and own and not lost and extra.tears < 2
            else []
        ),
        detail={
            "attack": a_roll.final,
            "defense": d_def,
            "counterattack": d_roll.final,
            "attacker_defense": a_def,
            "through": [into_d, into_a],
            "saves": [d_saves.final, a_saves.final],
            "damage": [dmg_d, dmg_a],
        },
    )


def clash_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """The attacker's melee and [CC] weapons (its shooting weapons greyed), and its splits of its dice
    between attack and defense, all attack first (L519): one button each, with its odds."""
    _, _, g = game.unit(actor)
    unit = Unit.model_validate(g.profile)
    picks = [
        FieldPick(
            value=i,
            label=w.name,
            detail=f"{w.damage} dmg"
            + (f" PEN {w.pen}" if w.pen else "")
            + (f" +{w.atk_dice} attack dice" if w.atk_dice else ""),
            unavailable="a shooting weapon" if w.kind == "shooting" else "",
        )
        for i, w in enumerate(unit.weapons)
    ]
    pool = attacker_pool(unit, read_options(MsOptions, game.options))
    if ms_state(game).secret_clash.startswith(f"{actor}|"):  # split unseen: not shown on the sheet (L519)
        return {"weapon": picks, "attack_dice": [FieldPick(value=None, label="Hidden: entered on the card")]}
    splits = [FieldPick(value=k, label=split_label(k, pool)) for k in range(pool, -1, -1)]
    return {"weapon": picks, "attack_dice": splits}
