"""Close combat (L945-L1070): Advantage, both strikes in their order, the hits the defender strips,
shields, damage and the chart; and the exact odds of the whole combat.

A strike is a :class:`~core.steps.Chain` (:func:`strike_chain`): its odds (:func:`strike_dist`) and its
roll (:func:`roll_strike`) walk the same links.  The chain ends at the strike's damage: the struck unit's
player then decides on a Shield Break (L1121-L1128), the damage and the Damage Chart (its own chain,
:func:`~.shooting.chart_chain`) are dealt, and the counter-strike starts from what they left (its striker
read again: a destroyed unit does not strike back, A14; a Leg or Arm result changes its numbers).  The
odds assume no Shield Break (:func:`combat_outcomes`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from core.dice import DiceSource, Dist
from core.game import Game, GameUnit
from core.memo import remembered
from core.pool import table
from core.steps import Chain, DiceSum, End, Last, Link, SumRoll
from core.systems.base import ActionOdds, ActionResult, Choice, NeedChoice, needs
from core.systems.gundam_skirmish.battle import (
    ENEMY,
    OWN,
    Changes,
    chart_for,
    has,
    integrity_left,
    levels_of,
    opts,
    profile,
)
from core.systems.gundam_skirmish.catalogue import SHIELDS, UNARMED
from core.systems.gundam_skirmish.damage import (
    apply_chart,
    ask_shield_break,
    mark_shield_broken,
    mega_damage,
    striker_side,
    take_damage,
)
from core.systems.gundam_skirmish.economy import NOT_BEGUN, mega_allowed, spend
from core.systems.gundam_skirmish.mega import (
    LEVEL_COUNTER,
    MegaParts,
    counter,
    destroyed_chance,
    location_odds,
    part_level,
)
from core.systems.gundam_skirmish.shoot import MERCIFUL_KEY, Ask, panoramic, shield_usable, unlearnt
from core.systems.gundam_skirmish.shooting import FacesRoll, Levels, after_pool, chart_dist, shield_break
from core.systems.gundam_skirmish.units import Unit, armour_of

#: Hits of a close combat attack, counted by face 2..6 (which hit the defender strips depends on it).
Faces = tuple[int, int, int, int, int]


class CloseInput(BaseModel):
    """Close combat between two units that came within range of each other (L953-L957)."""

    model_config = ConfigDict(extra="forbid")

    attacker: str = Field(
        description="The unit that came into range (usually by a Charge).", json_schema_extra=OWN
    )
    defender: str = Field(description="The enemy it fights.", json_schema_extra=ENEMY)
    charged: bool = Field(
        default=True,
        description="It entered range with a Move or Boost: a Charge (L959-L961).",
        json_schema_extra={"flow": "common"},  # changes the odds a lot: shown first, not behind "more"
    )
    defender_charged: bool = Field(default=False, description="The defender charged instead.")
    flank: bool = Field(
        default=False, description="The defender did not see it when the combat began (+1 die)."
    )
    defender_flank: bool = Field(
        default=False, description="It did not see the defender when the combat began."
    )
    piercing_strike: bool = Field(default=False, description="A Piercing Strike (Slow, <PS>, L931-L939).")
    pursuit: bool = Field(
        default=False, description="A mobile fighter's Pursuit (+1 die, free, L1331-L1339)."
    )
    technique: str = Field(
        default="",
        max_length=60,
        description="A Mobile Fighter's technique to strike with (L1837-L1840); empty: its only one, "
        "or asked.",
        json_schema_extra={"ui": "hidden"},  # asked after the tap when the fighter knows several
    )
    merciful: bool = Field(
        default=False,
        description="Merciful (once a battle, L1981-L1983): if its strike would deal damage, it deals none "
        "and the attacker regains 2 Integrity instead.",
        json_schema_extra=needs("merciful"),
    )
    shield_break: Ask = Field(
        default="ask",
        description="The unit breaks its shield when struck; 'ask': its player decides once the damage is "
        "known (L1121-L1128; A12).",
        json_schema_extra={"ui": "hidden"},  # answered through the question after the strike
    )
    defender_shield_break: Ask = Field(
        default="ask",
        description="The defender breaks its shield when struck; 'ask': its player decides once the damage "
        "is known (L1121-L1128; A12).",
        json_schema_extra={"ui": "hidden"},  # answered through the question after the strike
    )


class Striker(BaseModel):
    """One side's strike, every number settled (L978-L994, L1012-L1049)."""

    dice: int
    acc: int
    crit: int | None
    dam: int
    rerolls: int
    flayer: bool
    #: Beam Flayer's added dice are in the Attack Pool, so a 6 on one earns the next, 2 in all (L2804-L2805).
    flayer_chain: bool = True
    armour: int  # the target's Armour number: a hit showing this or less can be stripped
    shield_dice: int
    shield_success: int
    shield_rerolls: int
    unarmed: bool
    elusive: bool = False  # the target ignores the strike on a 6, rolled before its defence (L3277-L3283)
    movable_frame: bool = False  # the target's Movable Frame against 3 or more damage (L2952-L2956)


def cc_weapon(unit: Unit, technique: str = "") -> tuple[str, int, int, int, int | None, int, bool]:
    """The close combat weapon's numbers (a Mobile Fighter's technique, by name); Unarmed with none
    (L1063-L1066), or when a Mobile Fighter's character has learnt none of its techniques (L1837-L1844,
    our reading: it fights as a unit without a close combat weapon)."""
    w = unit.technique(technique)
    if w is None or not unit.knows(w.name):
        u = UNARMED
        return "Unarmed", u.dex, u.attack, u.acc, u.crit, u.dam, True
    return w.name, w.dex, w.attack, w.acc, w.crit, w.dam, False


def striker(
    game: Game, xs: int, x: GameUnit, y: GameUnit, charged: bool, flank: bool, inp: CloseInput, first: bool
) -> Striker:
    """The strike of ``x`` (of side ``xs``) on ``y``; ``first``: x is the unit that made the action."""
    ux, uy = profile(x), profile(y)
    _, _, attack, acc, crit, dam, unarmed = cc_weapon(ux, inp.technique if first else "")
    if uy.has("beam_jitte"):
        attack = 1  # L2813-L2814
    dice = attack
    if (flank or ux.pilot_has("flanker")) and not panoramic(game, uy):
        dice += 1  # L1028-L1034, L3294-L3298; A13
    if ux.kind == "mobile_fighter":
        dice += 1
        acc, crit = max(2, acc - 1), None if crit is None else max(2, crit - 1)  # L1328-L1330
    if first and inp.pursuit:
        dice += 1
    if ux.pilot_has("rash") and charged:
        dice += 1  # L1990
    if ux.pilot_has("reckless"):
        dice += 2  # L3291-L3292
    if x.state.counters.get("arm", 0):
        acc = max(acc, 5)  # L1016-L1020
    rerolls = int(charged)
    if rerolls == 0 and ux.pilot_has("veteran"):
        rerolls = 1
    armour = armour_of(uy)[0]
    piercing = first and inp.piercing_strike
    if piercing:
        armour = max(1, armour - 1)  # L936-L938
    shield_dice = shield_success = 0
    if uy.shield != "none" and shield_usable(y, True):
        grade = SHIELDS[uy.shield]
        shield_dice = max(1, grade.dice - 1) if piercing else grade.dice
        shield_success = grade.success
    shield_rerolls = int(x.state.counters.get("head", 0) > 0) + int(uy.has("solid_defence"))
    if shield_rerolls == 0 and uy.pilot_has("impenetrable"):
        shield_rerolls = 1
    if uy.parts is not None:
        crit = None  # a Mega Unit takes no Critical Hits (L1318-L1319)
    return Striker(
        dice=dice,
        acc=acc,
        crit=crit,
        dam=dam,
        rerolls=rerolls,
        flayer=ux.has("beam_flayer"),
        flayer_chain=opts(game).beam_flayer_chain,
        armour=armour,
        shield_dice=shield_dice,
        shield_success=shield_success,
        shield_rerolls=shield_rerolls,
        unarmed=unarmed,
        elusive=uy.pilot_has("elusive"),
        movable_frame=uy.has("movable_frame"),
    )


def _add_face(hits: Faces, face: int, acc: int) -> Faces:
    if face < acc:
        return hits
    out = list(hits)
    out[face - 2] += 1
    return (out[0], out[1], out[2], out[3], out[4])


def strip(hits: Faces, st: Striker, shield_ok: bool) -> tuple[int, int]:
    """(hits, criticals) left: one hit up to the Armour number goes, one more on a Shield Bonus (L984-L986).

    The defender strips criticals first.

    >>> st = Striker(dice=2, acc=3, crit=5, dam=3, rerolls=0, flayer=False, armour=3, shield_dice=0,
    ...              shield_success=0, shield_rerolls=0, unarmed=False)
    >>> strip((0, 1, 0, 1, 0), st, True)  # a 3 and a 5: the 3 goes by armour, the 5 by the shield
    (0, 0)
    >>> strip((0, 0, 0, 1, 1), st, False)  # a 5 and a 6 are above Armour 3: both stay
    (2, 2)
    """
    left = list(hits)

    def is_crit(face: int) -> bool:
        return st.crit is not None and face >= st.crit

    def remove(faces: list[int]) -> None:
        order = sorted(faces, key=lambda f: (not is_crit(f), -f))
        for f in order:
            if left[f - 2]:
                left[f - 2] -= 1
                return

    remove([f for f in range(2, 7) if f <= st.armour])
    if shield_ok:
        remove(list(range(2, 7)))
    total = sum(left)
    crits = sum(n for f, n in zip(range(2, 7), left, strict=True) if is_crit(f))
    return total, crits


def flayer_dice(hits: Faces, acc: int, chain: bool) -> Dist[Faces]:
    """Beam Flayer (L2801-L2805): a die per Hit of 6, at most 2, added to the Attack Pool.  With ``chain``
    (the text's reading) an added die is in the pool, so a 6 on the first of one added die earns the
    second; else only the pool's own 6s count.  Total weight 36 when any die is added, else 1."""
    n = min(2, hits[4])
    if n == 0:
        return Dist({hits: 1}, 1)
    out: dict[Faces, int] = {}
    for f in range(1, 7):
        first = _add_face(hits, f, acc)
        if n == 2 or (chain and f == 6):
            for g in range(1, 7):
                key = _add_face(first, g, acc)
                out[key] = out.get(key, 0) + 1
        else:
            out[first] = out.get(first, 0) + 6
    return Dist(out, 36)


def strike_hits(st: Striker) -> Dist[Faces]:
    """Hits by face, failed dice re-rolled, Beam Flayer's dice for sixes (L2801-L2805): the first links of
    :func:`strike_chain`."""
    return _attack_chain(st, "").dist()


def shield_weights(st: Striker) -> tuple[int, int]:
    """(weight of at least one shield success, total 36**dice); failed dice re-rolled while re-rolls last."""
    if st.shield_dice == 0:
        return 0, 1
    fail = st.shield_success - 1
    again = min(st.shield_rerolls, st.shield_dice)
    all_fail = (6 * fail) ** (st.shield_dice - again) * (fail * fail) ** again
    total = 36**st.shield_dice
    return total - all_fail, total


# --- a strike as a chain of steps ------------------------------------------------------------

#: A D6 read as its face: Elusive (L3277-L3283), Movable Frame (L2952-L2956).
D6 = DiceSum(dice=1, sides=6)


@dataclass(frozen=True)
class PoolRoll:
    """The Attack Pool as rolled: its faces, the re-rolls of the earliest failed dice, the hits by face."""

    faces: list[int]
    again: list[int]
    value: Faces


@dataclass(frozen=True)
class AttackPool:
    """A strike's Attack Pool: its dice, the earliest failed re-rolled while re-rolls last (L1012-L1049)."""

    st: Striker
    who: str

    def dist(self) -> Dist[Faces]:
        st = self.st
        states: dict[tuple[int, Faces], int] = {(st.rerolls, (0, 0, 0, 0, 0)): 1}
        for _ in range(st.dice):
            nxt: dict[tuple[int, Faces], int] = {}
            for (r, hits), w in states.items():
                for face in range(1, 7):
                    if face >= st.acc or r == 0:
                        key = (r, _add_face(hits, face, st.acc))
                        nxt[key] = nxt.get(key, 0) + 6 * w
                    else:
                        for again in range(1, 7):
                            key = (r - 1, _add_face(hits, again, st.acc))
                            nxt[key] = nxt.get(key, 0) + w
            states = nxt
        out: dict[Faces, int] = {}
        for (_, hits), w in states.items():
            out[hits] = out.get(hits, 0) + w
        return Dist(out, 36**st.dice)

    def roll(self, source: DiceSource, purpose: str) -> PoolRoll:
        st, who = self.st, self.who
        faces = source.roll(st.dice, 6, f"{who}: attack")
        failed = [i for i, f in enumerate(faces) if f < st.acc][: st.rerolls]
        again = source.roll(len(failed), 6, f"{who}: re-rolls") if failed else []
        final = list(faces)
        for i, f in zip(failed, again, strict=True):
            final[i] = f
        hits: Faces = (0, 0, 0, 0, 0)
        for f in final:
            hits = _add_face(hits, f, st.acc)
        return PoolRoll(faces, again, hits)


@dataclass(frozen=True)
class Flayer:
    """Beam Flayer's dice for a pool's Hits of 6 (:func:`flayer_dice`, L2801-L2805)."""

    hits: Faces
    st: Striker
    who: str

    def dist(self) -> Dist[Faces]:
        return flayer_dice(self.hits, self.st.acc, self.st.flayer_chain)

    def roll(self, source: DiceSource, purpose: str) -> FacesRoll[Any]:
        st, hits = self.st, self.hits
        flayer = source.roll(min(2, hits[4]), 6, f"{self.who}: Beam Flayer")
        if st.flayer_chain and flayer == [6]:  # the added 6 is a Hit of 6 in the pool (L2804-L2805)
            flayer += source.roll(1, 6, f"{self.who}: Beam Flayer")
        for f in flayer:
            hits = _add_face(hits, f, st.acc)
        return FacesRoll(flayer, hits)


@dataclass(frozen=True)
class ShieldBonus:
    """The Shield Bonus dice: at least one success strips one more hit; failed dice re-rolled, while
    re-rolls last, when none succeeded (L984-L986); its outcome: whether one did."""

    st: Striker
    who: str

    def dist(self) -> Dist[bool]:
        ok, total = shield_weights(self.st)
        return Dist({True: ok, False: total - ok}, total)

    def roll(self, source: DiceSource, purpose: str) -> FacesRoll[Any]:
        st = self.st
        if not st.shield_dice:
            return FacesRoll([], False)
        shield = source.roll(st.shield_dice, 6, f"{self.who}: Shield Bonus")
        ok = any(f >= st.shield_success for f in shield)
        fails = [f for f in shield if f < st.shield_success][: st.shield_rerolls]
        if not ok and fails:
            more = source.roll(len(fails), 6, f"{self.who}: Shield Bonus re-roll")
            shield += more
            ok = any(f >= st.shield_success for f in more)
        return FacesRoll(shield, ok)


def _attack_chain(st: Striker, who: str) -> Chain[Faces]:
    """The Attack Pool, then Beam Flayer's dice for its sixes."""

    def flayed(hits: Faces) -> Chain[Faces]:
        if st.flayer and hits[4]:
            return Last(Flayer(hits, st, who), "Beam Flayer", lambda h: h)
        return End(hits)

    return Link(AttackPool(st, who), "attack", flayed)


def strike_chain(st: Striker, who: str = "") -> Chain[tuple[int, int]]:
    """One strike (L978-L994): the Attack Pool and Beam Flayer's dice, Elusive's D6 (a 6 ignores the
    strike), the Shield Bonus, the hits stripped (criticals first), then Movable Frame's D6 against 3 or
    more damage; its result is (damage, criticals)."""
    shield = ShieldBonus(st, who)

    def defended(hits: Faces) -> Chain[tuple[int, int]]:
        stripped = Last(shield, "Shield Bonus", lambda ok: strip(hits, st, ok))
        if st.elusive:
            return Link(D6, f"{who}: Elusive", lambda face: End((0, 0)) if face == 6 else stripped)
        return stripped

    def framed(left: tuple[int, int]) -> Chain[tuple[int, int]]:
        n, c = left
        damage = n * st.dam
        if st.movable_frame and damage >= 3:
            return Last(D6, f"{who}: Movable Frame", lambda face: (after_pool(damage, 0, face), c))
        return End((damage, c))

    return _attack_chain(st, who).then(defended).then(framed)


def strike_dist(st: Striker) -> Dist[tuple[int, int]]:
    """(damage, criticals) of one strike, exactly: :func:`strike_chain`'s distribution, remembered by the
    striker's numbers (the sheet asks the same odds again for each of its choice buttons)."""
    key = tuple(st.model_dump().values())
    return remembered(_STRIKES, key, lambda: strike_chain(st).dist(), _STRIKES_MOST)


#: strike_dist by the striker's numbers; never changed in place.
_STRIKES: dict[tuple[Any, ...], Dist[tuple[int, int]]] = {}
_STRIKES_MOST = 256


def roll_strike(st: Striker, dice: DiceSource, who: str) -> tuple[int, int, dict[str, Any]]:
    """Roll a strike: :func:`strike_chain` rolled, its dice kept for the log."""
    rolled = strike_chain(st, who).roll(dice)
    pool = rolled.of("attack")[0]
    assert isinstance(pool, PoolRoll)
    flayer = [f for r in rolled.of("Beam Flayer") if isinstance(r, FacesRoll) for f in r.faces]
    kept: dict[str, Any] = {"attack": pool.faces, "rerolled": pool.again, "flayer": flayer}
    elusive = [r for r in rolled.of(f"{who}: Elusive") if isinstance(r, SumRoll)]
    damage, crits = rolled.value
    if elusive and elusive[0].total == 6:
        return damage, crits, {**kept, "elusive": elusive[0].total}
    shield = [f for r in rolled.of("Shield Bonus") if isinstance(r, FacesRoll) for f in r.faces]
    frame = [f for r in rolled.of(f"{who}: Movable Frame") if isinstance(r, SumRoll) for f in r.faces]
    return damage, crits, {**kept, "shield": shield, "frame": frame}


def advantage_auto(game: Game, x: GameUnit, y: GameUnit, x_charged: bool, y_charged: bool) -> int:
    """+1: x wins Advantage outright, -1: y does, 0: roll (L1036-L1040, L1988-L1990, L1999-L2000; A43)."""

    def auto(u: GameUnit, charged: bool) -> bool:
        p = profile(u)
        rash = p.pilot_has("rash") or (p.has("exam") and integrity_left(u) * 2 <= u.state.max_damage)
        return p.pilot_has("swift") or (rash and charged)

    def drawn(u: GameUnit) -> bool:
        return profile(u).cc is None or u.state.extra.get("equipped") == "cc"

    ax, ay = auto(x, x_charged), auto(y, y_charged)
    if ax != ay:
        return 1 if ax else -1
    dx, dy = drawn(x), drawn(y)
    if dx != dy:
        return 1 if dx else -1
    return 0


def advantage_totals(
    x: GameUnit, y: GameUnit, x_charged: bool, y_charged: bool, technique: str = ""
) -> tuple[Dist[int], Dist[int]]:
    """Each side's Advantage: 1D6 (2D6 after a Charge) + DEX; Beam Jitte: the other DEX is 0 (L970-L977).
    ``technique``: the Mobile Fighter technique x strikes with (L1837-L1840)."""
    ux, uy = profile(x), profile(y)
    dex_x = 0 if uy.has("beam_jitte") else cc_weapon(ux, technique)[1]
    dex_y = 0 if ux.has("beam_jitte") else cc_weapon(uy)[1]
    tx = (Dist.die(6).repeat(2) if x_charged else Dist.die(6)).map(lambda v: v + dex_x)
    ty = (Dist.die(6).repeat(2) if y_charged else Dist.die(6)).map(lambda v: v + dex_y)
    return tx, ty


def advantage_p(tx: Dist[int], ty: Dist[int]) -> Fraction:
    """P(x wins), ties rolled again: P(x > y) / (1 - P(tie)).

    >>> advantage_p(Dist.die(6).map(lambda v: v + 2), Dist.die(6).map(lambda v: v + 3))
    Fraction(10, 31)
    >>> advantage_p(Dist.die(6).repeat(2).map(lambda v: v + 2), Dist.die(6).map(lambda v: v + 3))
    Fraction(32, 39)
    """
    d = tx.combine(ty, lambda a, b: (a > b) - (a < b))
    win, tie = d.probability(1), d.probability(0)
    return win / (1 - tie)


def close_setup(game: Game, inp: CloseInput) -> tuple[int, int, GameUnit, int, int, GameUnit]:
    s, u, x = game.unit(inp.attacker)
    ts, tu, y = game.unit(inp.defender)
    if s == ts:
        raise ValueError("close combat is fought against an enemy")
    mega_allowed(game, x, y)
    for g in (x, y):
        if g.state.destroyed or has(g, "reserve") or has(g, "withdrawn"):
            raise ValueError(f"{g.name} is not on the table")
        if has(g, "dig_in") or profile(g).kind == "air_unit" or has(g, "flight_mode"):
            raise ValueError(f"{g.name} is never within close combat range (L1245, L2852)")
    if inp.pursuit and profile(x).kind != "mobile_fighter":
        raise ValueError("only a mobile fighter makes a Pursuit (L1331-L1339)")
    if inp.technique:
        w = profile(x).technique(inp.technique)
        if w is None:
            raise ValueError(f"{x.name} has no technique '{inp.technique}'")
        if not profile(x).knows(w.name):
            raise ValueError(unlearnt(x, w.name))
    if inp.piercing_strike:
        w = profile(x).technique(inp.technique)
        if w is None or not w.piercing_strike or x.state.extra.get("equipped") != "cc":
            raise ValueError("a Piercing Strike needs a <PS> weapon equipped (L931-L934)")
    return s, u, x, ts, tu, y


def close_combat(game: Game, inp: CloseInput, dice: DiceSource) -> ActionResult:
    """Advantage, strike, counter-attack, result and Fall Back (L945-L1070).

    In any player's turn, whichever unit came into range (L299-L301); not before the first turn.
    """
    if game.state.active_side is None:
        raise ValueError(NOT_BEGUN)
    s, u, x, ts, tu, y = close_setup(game, inp)
    learnt = [w.name for w in profile(x).close_attacks if profile(x).knows(w.name)]
    if not inp.technique and len(learnt) > 1:  # a Mobile Fighter's techniques (L1837-L1840)
        options = [Choice(value=n, label=n) for n in learnt]
        raise NeedChoice("technique", f"{x.name} strikes with which technique?", options)
    ch = Changes(game)
    o = opts(game)
    charged = inp.charged or (inp.piercing_strike and o.piercing_is_charge)
    texts: list[str] = []
    if inp.piercing_strike and (fail := spend(ch, s, u, 2, "piercing", dice)):
        return ActionResult(changes=ch.list, text=fail)
    if charged and (has(x, "wavering") or has(x, "routed")):
        gate = dice.roll(1, 6, "charge check (morale)")[0]
        if gate <= 3:  # L1549-L1550
            return ActionResult(
                changes=ch.list, text=f"{x.name} wavers ({gate}): it may not charge (L1549-L1550)", detail={}
            )
        texts.append(f"charge check {gate}: it charges")
    auto = advantage_auto(game, x, y, charged, inp.defender_charged)
    rolls: list[tuple[int, int]] = []
    if auto == 0:
        tx, ty = advantage_totals(x, y, charged, inp.defender_charged, inp.technique)
        dex_x = min(tx.weights) - (2 if charged else 1)
        dex_y = min(ty.weights) - (2 if inp.defender_charged else 1)
        while True:
            a = sum(dice.roll(2 if charged else 1, 6, f"{x.name}: Advantage")) + dex_x
            b = sum(dice.roll(2 if inp.defender_charged else 1, 6, f"{y.name}: Advantage")) + dex_y
            rolls.append((a, b))
            if a != b:
                break
        x_first = a > b
        texts.append("Advantage " + ", ".join(f"{a}-{b}" for a, b in rolls))
    else:
        x_first = auto > 0
        texts.append(f"{(x if x_first else y).name} has Advantage outright")
    order = [
        (s, u, x, ts, tu, y, charged, inp.flank, "shield_break"),
        (ts, tu, y, s, u, x, inp.defender_charged, inp.defender_flank, "defender_shield_break"),
    ]
    if not x_first:
        order.reverse()
    dealt = {0: 0, 1: 0}
    pending: list[tuple[int, int, int, int]] = []
    detail: dict[str, Any] = {"advantage": rolls}
    for step, (as_, au, ag, ds, du, dg, chg, flank, break_field) in enumerate(order):
        ag, dg = ch.unit(as_, au), ch.unit(ds, du)
        if ag.state.destroyed:
            texts.append(f"{ag.name} is destroyed and cannot strike back (A14)")
            break
        st = striker(ch.game, as_, ag, dg, chg, flank, inp, ag.key == x.key and as_ == s)
        damage, crits, faces = roll_strike(st, dice, ag.name)
        detail[f"strike{step}"] = faces
        rolls_chart = crits * (2 if profile(ag).pilot_has("controlled_aim") else 1)
        defender = profile(dg)
        dealt[step] = damage
        text = f"{ag.name} strikes: {damage} damage, {crits} critical"
        if inp.merciful and (damage or rolls_chart) and (as_, au) == (s, u):
            # Merciful: the strike deals nothing and the attacker regains 2 Integrity (L1981-L1983)
            dealt[step] = 0
            ch.extra(s, u, "once", [*ag.state.extra.get("once", []), "merciful"])
            ch.set(["sides", s, "units", u, "state", "damage"], max(0, ag.state.damage - 2))
            spared = f"Merciful: {dg.name} is spared, {ag.name} regains 2 Integrity (L1981-L1983)"
            texts.append(f"{text}; {spared}")
            continue
        if (damage or rolls_chart) and defender.shield != "none" and not has(dg, "shield_broken"):
            field = "defender_shield_break" if break_field == "shield_break" else "shield_break"
            answer = getattr(inp, field)
            if answer == "ask":
                ask_shield_break(
                    field,
                    f"{dg.name} takes {damage} damage and {rolls_chart} chart roll(s): break its "
                    "shield to halve the damage and cancel the rolls?",
                )
            if answer == "yes":
                damage, rolls_chart = shield_break(damage), 0
                dealt[step] = damage
                mark_shield_broken(ch, ds, du)
                text += f"; Shield Break: {damage} damage"
        texts.append(text)
        if st.unarmed:
            pending.append((ds, du, damage, rolls_chart))  # applied only if this unit does not win (A15)
            continue
        ch.by = striker_side(order, ds, du)
        if not take_damage(ch, ds, du, damage, dice, texts) and rolls_chart:
            apply_chart(ch, ds, du, rolls_chart, dice, texts)
    first_unit = order[0][2]
    first_wins = dealt[0] > dealt[1]
    tie = dealt[0] == dealt[1]
    for ds, du, damage, rolls_chart in pending:
        striker_unit = order[0][2] if (ds, du) == (order[1][0], order[1][1]) else order[1][2]
        won = (striker_unit.key == first_unit.key and first_wins) or (
            striker_unit.key != first_unit.key and not first_wins and not tie
        )
        if won:
            texts.append(f"{striker_unit.name} fought unarmed and won: no damage is dealt (L1069-L1070)")
            continue
        ch.by = striker_side(order, ds, du)
        if not take_damage(ch, ds, du, damage, dice, texts) and rolls_chart:
            apply_chart(ch, ds, du, rolls_chart, dice, texts)
    names = [order[0][2], order[1][2]]
    gallant = [profile(g).pilot_has("gallant") for g in names]
    if tie or (gallant[0] and gallant[1]):
        back = [g.name for i, g in enumerate(names) if not (gallant[i] and not all(gallant))]
    else:
        loser = 1 if first_wins else 0
        if gallant[loser]:
            loser = 1 - loser  # L1971-L1973
        back = [names[loser].name]
    alive = [
        n
        for n in back
        if not any(
            ch.unit(si, ui).state.destroyed and ch.unit(si, ui).name == n for si, ui in ((s, u), (ts, tu))
        )
    ]
    if alive:
        texts.append(" and ".join(alive) + " fall" + ("s" if len(alive) == 1 else "") + " back (L1006-L1009)")
    for side, idx, g in ((s, u, x), (ts, tu, y)):
        if profile(g).cc is not None and not ch.unit(side, idx).state.destroyed:
            ch.extra(side, idx, "equipped", "cc")  # L1058-L1060
    return ActionResult(
        changes=ch.list, text=f"{x.name} and {y.name} fight: " + "; ".join(texts), detail=detail
    )


CombatOutcome = tuple[int, int, bool, bool]  # damage to the first and the second striker, destroyed


def _chart_after(gu: GameUnit, rolls: int) -> list[tuple[Levels, Fraction]]:
    """Chart levels of ``gu`` after ``rolls`` rolls (its own levels when none)."""
    if not rolls:
        return [(levels_of(gu), Fraction(1))]
    unit = profile(gu)
    return list(
        chart_dist(chart_for(unit), levels_of(gu), rolls, unit.pilot_has("fortunate")).probabilities()
    )


def _struck(gu: GameUnit, damage: int, left: int, rolls: int) -> list[tuple[int, bool, Fraction]]:
    """(damage, destroyed, chance) after a strike: destroyed outright by the damage (L1094-L1098),
    else by a Torso result of its chart rolls (L1108-L1119); a Mega Unit when the location die picks
    its Torso and the Torso reaches 0 (L1312-L1318)."""
    parts = profile(gu).parts
    if parts is not None:
        dead = destroyed_chance(parts, mega_damage(gu)["torso"], damage)
        return [(damage, True, dead), (damage, False, 1 - dead)]
    if damage >= left:
        return [(damage, True, Fraction(1))]
    t = sum((q for lv, q in _chart_after(gu, rolls) if lv[3]), Fraction(0))
    return [(damage, True, t), (damage, False, 1 - t)]


def _mega_after(gu: GameUnit, parts: MegaParts, amount: int) -> list[tuple[GameUnit, bool, Fraction]]:
    """A Mega Unit after ``amount`` damage, for each part the location die may pick: the unit with that
    part's damage and Level, whether it is destroyed, and the chance (L1312-L1318), as :func:`mega_hit`."""
    if amount <= 0:
        return [(gu, False, Fraction(1))]
    out = []
    for part, q in location_odds().items():
        damage = mega_damage(gu)
        damage[part] += amount
        counters = {**gu.state.counters, counter(part): damage[part]}
        if part == "torso":
            dead = damage[part] >= parts.torso
        else:
            dead = False
            key = LEVEL_COUNTER[part]
            counters[key] = max(counters.get(key, 0), part_level(damage[part], parts.of(part), part))
        after = gu.model_copy(update={"state": gu.state.model_copy(update={"counters": counters})})
        out.append((after, dead, q))
    return out


def _with_levels(gu: GameUnit, lv: Levels) -> GameUnit:
    counters = {**gu.state.counters, "leg": lv[0], "arm": lv[1], "head": lv[2]}
    return gu.model_copy(update={"state": gu.state.model_copy(update={"counters": counters})})


def combat_outcomes(
    game: Game,
    order: tuple[tuple[int, GameUnit, bool, bool, bool], tuple[int, GameUnit, bool, bool, bool]],
    inp: CloseInput,
    spared: list[Fraction] | None = None,
) -> dict[CombatOutcome, Fraction]:
    """Exact outcomes of both strikes in this order, as :func:`close_combat` resolves them.

    ``order`` holds, for the first and the second striker: side, unit, charged, flank, made the action.
    The first strike's Damage Chart results change the second striker (A14: a destroyed unit does not
    strike back); an Unarmed striker's damage is applied only if it does not win (L1069-L1070; A15).
    A Merciful strike of the unit making the action that would deal damage deals none, and that unit
    regains 2 Integrity before any strike back (L1981-L1983): the chance of it is added to ``spared[0]``.
    """
    (fs, f, f_chg, f_flank, f_act), (ss, s_, s_chg, s_flank, s_act) = order
    out: dict[CombatOutcome, Fraction] = {}
    spared = spared if spared is not None else [Fraction(0)]

    def add(key: CombatOutcome, p: Fraction) -> None:
        if p:
            out[key] = out.get(key, Fraction(0)) + p

    st1 = striker(game, fs, f, s_, f_chg, f_flank, inp, f_act)
    ca_f = 2 if profile(f).pilot_has("controlled_aim") else 1
    ca_s = 2 if profile(s_).pilot_has("controlled_aim") else 1
    left_f, left_s = integrity_left(f), integrity_left(s_)
    healed = f.model_copy(update={"state": f.state.model_copy(update={"damage": max(0, f.state.damage - 2)})})
    for (d1, c1), p1 in strike_dist(st1).probabilities():
        r1 = c1 * ca_f
        f_now, left_now = f, left_f
        if inp.merciful and f_act and (d1 or r1):  # spared: nothing dealt, 2 Integrity back first
            d1, r1, f_now, left_now = 0, 0, healed, integrity_left(healed)
            spared[0] += p1
        parts_s = profile(s_).parts
        if st1.unarmed:
            seconds = [(s_, p1)]
        elif parts_s is not None:  # the location die: which part, and its Level, before it strikes back
            seconds = []
            for after, dead, q in _mega_after(s_, parts_s, d1):
                if dead:
                    add((0, d1, False, True), p1 * q)
                else:
                    seconds.append((after, p1 * q))
        elif d1 >= left_s:
            add((0, d1, False, True), p1)
            continue
        else:
            seconds = []
            for lv, q in _chart_after(s_, r1):
                if lv[3]:
                    add((0, d1, False, True), p1 * q)
                else:
                    seconds.append((_with_levels(s_, lv), p1 * q))
        for s2, p in seconds:
            st2 = striker(game, ss, s2, f_now, s_chg, s_flank, inp, s_act)
            for (d2, c2), p2 in strike_dist(st2).probabilities():
                r2 = c2 * ca_s
                if inp.merciful and s_act and (d2 or r2):  # the acting unit strikes second, spared
                    d2, r2 = 0, 0
                    spared[0] += p * p2
                f_wins, s_wins = d1 > d2, d2 > d1
                # damage on the first striker
                if st2.unarmed and s_wins:
                    f_branches = [(0, False, Fraction(1))]
                else:
                    f_branches = _struck(f_now, d2, left_now, r2)
                # an Unarmed first striker's damage, applied at the end unless it won
                if not st1.unarmed:
                    s_branches = [(d1, False, Fraction(1))]
                elif f_wins:
                    s_branches = [(0, False, Fraction(1))]
                else:
                    s_branches = _struck(s_, d1, left_s, r1)
                for df, dead_f, pf in f_branches:
                    for ds, dead_s, ps in s_branches:
                        add((df, ds, dead_f, dead_s), p * p2 * pf * ps)
    return out


def _as_dist(weights: dict[Any, Fraction]) -> Dist[Any]:
    den = 1
    for v in weights.values():
        den = den * v.denominator // math.gcd(den, v.denominator)
    return Dist({k: int(v * den) for k, v in weights.items() if v}, den)


def close_odds(game: Game, inp: CloseInput) -> ActionOdds:
    """Exact odds of the whole combat: Advantage, both strikes in their order, destruction, the winner."""
    s, _, x, ts, _, y = close_setup(game, inp)
    charged = inp.charged or (inp.piercing_strike and opts(game).piercing_is_charge)
    auto = advantage_auto(game, x, y, charged, inp.defender_charged)
    if auto:
        p = Fraction(1 if auto > 0 else 0)
    else:
        p = advantage_p(*advantage_totals(x, y, charged, inp.defender_charged, inp.technique))
    xs_ = (s, x, charged, inp.flank, True)
    ys_ = (ts, y, inp.defender_charged, inp.defender_flank, False)
    # (damage to x, damage to y, x destroyed, y destroyed)
    total: dict[CombatOutcome, Fraction] = {}
    first, second = [Fraction(0)], [Fraction(0)]  # Merciful's sparing, as the attacker strikes first or not
    if p:
        for (dx, dy, kx, ky), q in combat_outcomes(game, (xs_, ys_), inp, first).items():
            total[(dx, dy, kx, ky)] = total.get((dx, dy, kx, ky), Fraction(0)) + p * q
    if p != 1:
        for (dy, dx, ky, kx), q in combat_outcomes(game, (ys_, xs_), inp, second).items():
            total[(dx, dy, kx, ky)] = total.get((dx, dy, kx, ky), Fraction(0)) + (1 - p) * q
    spared = p * first[0] + (1 - p) * second[0]
    gate = charged and (has(x, "wavering") or has(x, "routed"))
    if gate:  # a D6 of 1-3 and the charge does not happen (L1549-L1550)
        total = {k: v / 2 for k, v in total.items()}
        total[(0, 0, False, False)] = total.get((0, 0, False, False), Fraction(0)) + Fraction(1, 2)
        spared /= 2
    joint = _as_dist(total)
    mercy = {MERCIFUL_KEY: float(spared)} if inp.merciful else {}
    # What decides a charge first: the target's damage and destruction, then the counter-strike's.
    return ActionOdds(
        tables={
            "damage to the target": table(joint.map(lambda k: k[1])),
            "damage to the attacker": table(joint.map(lambda k: k[0])),
            "damage": table(joint.map(lambda k: k[0] + k[1])),
        },
        facts={
            "destroyed": float(sum((v for k, v in total.items() if k[3]), Fraction(0))),
            "attacker destroyed": float(sum((v for k, v in total.items() if k[2]), Fraction(0))),
            "advantage": float(p),
            **mercy,
        },
        summary=f"Target {y.name}, attacker {x.name}; both strikes in Advantage order, "
        f"{'after a Charge' if charged else 'no Charge'}; assumes no Shield Break (asked after each strike)"
        + (
            f"; Merciful: whatever {x.name}'s strike would deal, it regains 2 Integrity instead"
            if inp.merciful
            else ""
        )
        + ".",
    )
