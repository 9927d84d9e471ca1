"""The Shoot procedure (L595-L801) with exact odds from the same per-die rules that resolve a roll.

A shot is set up once (:class:`Shot`: every number the modifiers leave), then walked as one
:class:`~core.steps.Chain` (:func:`shot_chain`): the attack pool (:class:`AttackPool`, Bad Weather's
hit taken out), Elusive's D6, the defend pool (:class:`DefendPool`, a shield's <P> check inside it),
the blocks cancelling hits, then Movable Frame's D6 and the damage.  Rolled with a dice source it is
:func:`roll_shot`; its distribution is :func:`shot_odds`'s.  Both walk the same links, which use the
same functions: :func:`die_needs` (the 4th, 5th and 6th+ die shifts, L628-L638), :func:`hit_type`,
:func:`block_strength` (the Penetration table, L857-L872), :func:`cancel_hits` (which hits the
blocks take), the re-roll policy (earliest failed dice first) and :func:`chart_faces` (the Damage
Chart with its repeat rule, L1108-L1119).  The chain ends at the damage: the defender then decides
which criticals its blocks leave (L713-L719, A6) and whether its shield breaks (L1121-L1128), and the
Damage Chart's rolls (:func:`chart_chain`) start from that answer.  The odds take the recommended
readings of both (the most criticals cancelled, no Shield Break).

Conventions (digest section 11):

* Each re-roll source re-rolls one failed die; no die is rolled a third time (A8).
  The shooter re-rolls its earliest failed dice (they need the least, L628-L638);
  the defender re-rolls the failed die with the lowest success number.
* Blocks cancel as many hits as possible, then as many criticals as possible (A6): the odds
  assume it; at the table the defender picks (:func:`cancel_choices`, asked after the roll).
* Against a <P> shot a shield first needs a 4+ on a D6, and then loses 1 shield
  integrity (L660-L663; A3).  I-field dice use the third column of the
  Penetration table, armour and shield dice the second (A5).
* After the pool: Anti-Beam Coating, Heavy Plating or Reactive Armour take 1
  off the attack; then Movable Frame (its trigger is the pool's damage, 3 or
  more); then a Shield Break halves what is left, rounded down (A12).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from fractions import Fraction
from math import lcm
from typing import Any, Generic, TypeVar

from core.dice import DiceSource, Dist
from core.memo import remembered
from core.steps import Both, Chain, ChainRoll, DiceSum, End, Last, Link, SumRoll

#: Hit kinds: (level, critical).  Level 1 for faces 2-3, 2 for 4-5, 3 for a 6 (L857-L872).
KINDS: tuple[tuple[int, bool], ...] = ((1, False), (1, True), (2, False), (2, True), (3, False), (3, True))
Hits = tuple[int, int, int, int, int, int]
Blocks = tuple[int, int, int]
NO_HITS: Hits = (0, 0, 0, 0, 0, 0)


def die_needs(acc: int, crit: int | None, position: int) -> tuple[int, int | None]:
    """Accuracy and critical needed by the die at ``position`` (1-based) of an attack pool (L628-L638).

    The 4th die needs 1 more, the 5th 2 more, the 6th and later 3 more and never
    score a critical; nothing needs more than 6.

    >>> [die_needs(4, 6, i) for i in (1, 3, 4, 5, 6, 9)]
    [(4, 6), (4, 6), (5, 6), (6, 6), (6, None), (6, None)]
    """
    if position <= 3:
        return acc, crit
    if position >= 6:
        return min(6, acc + 3), None
    shift = position - 3
    return min(6, acc + shift), None if crit is None else min(6, crit + shift)


def hit_type(face: int, acc: int, crit: int | None) -> int | None:
    """Index in :data:`KINDS` of a die's final face, or None for a miss (L619-L623, L721-L723)."""
    if face < acc:
        return None
    level = 1 if face <= 3 else 2 if face <= 5 else 3
    is_crit = crit is not None and face >= crit
    return (level - 1) * 2 + int(is_crit)


@dataclass(frozen=True)
class DefendGroup:
    """Dice of one source in the defend pool: beam defence, armour or shield."""

    name: str
    dice: int
    success: int
    beam: bool = False  # beam-defence dice use the Penetration table's third column
    own_reroll: bool = False  # Solid Defence: failed shield dice are rolled again once (L3001-L3005)


def block_strength(face: int, group: DefendGroup, penetration: bool) -> int:
    """What a defend die can cancel: 0 nothing, 1 hits of level 1, 2 up to level 2, 3 any (L857-L872).

    >>> armour = DefendGroup("armour", 3, 4)
    >>> [block_strength(f, armour, True) for f in (3, 4, 5, 6)], block_strength(4, armour, False)
    ([0, 0, 1, 2], 3)
    >>> [block_strength(f, DefendGroup("beam", 2, 5, beam=True), True) for f in (4, 5, 6)]
    [0, 2, 3]
    """
    if face < group.success:
        return 0
    if not penetration:
        return 3
    if group.beam:
        return {4: 1, 5: 2, 6: 3}.get(face, 0)
    return {5: 1, 6: 2}.get(face, 0)


def cancel_hits(hits: Hits, blocks: Blocks) -> Hits:
    """The hits left after the blocks: as many cancelled as can be, criticals first (L713-L719; A6).

    ``blocks`` counts blocks of strength 1, 2 and 3.  A block of strength s can take a
    hit of level s or less; cancelling is a matching, and adding criticals first, then
    the rest, each while Hall's condition holds, gives the largest matching with the
    most criticals in it.

    >>> cancel_hits((0, 1, 1, 0, 0, 0), (0, 1, 0))  # one level-2 block, a level-1 crit and a level-2 hit
    (0, 0, 1, 0, 0, 0)
    >>> cancel_hits((0, 0, 0, 0, 1, 1), (0, 5, 0))  # sixes cannot be blocked by armour against <P>
    (0, 0, 0, 0, 1, 1)
    """
    # Unrolled (the odds call it for every pair of attack and defend outcome): for each kind of hit,
    # criticals first, highest level first, take as many as the blocks strong enough have left.
    # free1..free3: blocks of strength 1 or more, 2 or more, 3, not used yet.
    free1, free2, free3 = blocks[0] + blocks[1] + blocks[2], blocks[1] + blocks[2], blocks[2]
    n1, c1, n2, c2, n3, c3 = hits
    take = min(c3, free1, free2, free3)  # level-3 criticals: only a block of strength 3
    c3, free1, free2, free3 = c3 - take, free1 - take, free2 - take, free3 - take
    take = min(c2, free1, free2)
    c2, free1, free2 = c2 - take, free1 - take, free2 - take
    take = min(c1, free1)
    c1, free1 = c1 - take, free1 - take
    take = min(n3, free1, free2, free3)
    n3, free1, free2 = n3 - take, free1 - take, free2 - take
    take = min(n2, free1, free2)
    n2, free1 = n2 - take, free1 - take
    n1 -= min(n1, free1)
    return (n1, c1, n2, c2, n3, c3)


#: (hits, criticals) left by each pair of attack and defend outcome met so far: the odds of one shot
#: meet a few hundred pairs, and those of its neighbours (another weapon, cover, range) mostly the same.
_LEFT: dict[tuple[Hits, Blocks], tuple[int, int]] = {}
_LEFT_MOST = 1 << 16


def hits_left(hits: Hits, blocks: Blocks) -> tuple[int, int]:
    """:func:`hit_count` of :func:`cancel_hits`, remembered (at most ``_LEFT_MOST`` pairs)."""
    return remembered(_LEFT, (hits, blocks), lambda: hit_count(cancel_hits(hits, blocks)), _LEFT_MOST)


def _cancellable(cancelled: Hits, blocks: Blocks) -> bool:
    """Whether the blocks can take all of ``cancelled`` at once: a block of strength s takes a hit of
    level s or less, so for each level r the hits of level r or more need as many blocks of strength
    r or more (Hall's condition on nested sets)."""
    return all(sum(cancelled[(r - 1) * 2 :]) <= sum(blocks[r - 1 :]) for r in (1, 2, 3))


def cancel_choices(hits: Hits, blocks: Blocks) -> dict[int, Hits]:
    """What the defender may leave standing, by the number of criticals left (L713-L719; A6).

    Each block takes a hit it is strong enough for, and the defender picks which.  Every
    choice where no block that could still take a hit stays idle cancels the same number of
    hits (the cancellable sets form a matroid), so the choices differ only in the criticals
    left: the key.  Its smallest key is :func:`cancel_hits`, the recommended default.

    >>> cancel_choices((0, 1, 1, 0, 0, 0), (0, 0, 1))  # one strong block: the critical or the plain hit
    {0: (0, 0, 1, 0, 0, 0), 1: (0, 1, 0, 0, 0, 0)}
    >>> cancel_choices((0, 1, 1, 0, 0, 0), (0, 0, 2))  # two blocks take both: no choice
    {0: (0, 0, 0, 0, 0, 0)}
    """
    best: dict[int, Hits] = {}
    most = -1
    ranges = [range(n + 1) for n in hits]
    for c0 in ranges[0]:
        for c1 in ranges[1]:
            for c2 in ranges[2]:
                for c3 in ranges[3]:
                    for c4 in ranges[4]:
                        for c5 in ranges[5]:
                            cancelled: Hits = (c0, c1, c2, c3, c4, c5)
                            size = sum(cancelled)
                            if size < most or not _cancellable(cancelled, blocks):
                                continue
                            if size > most:
                                best, most = {}, size
                            left: Hits = (
                                hits[0] - c0,
                                hits[1] - c1,
                                hits[2] - c2,
                                hits[3] - c3,
                                hits[4] - c4,
                                hits[5] - c5,
                            )
                            best.setdefault(hit_count(left)[1], left)
    return dict(sorted(best.items()))


def remove_one(hits: Hits) -> Hits:
    """Bad Weather: one hit taken out before the defence, the worst for the target first (a critical 6).

    >>> remove_one((1, 0, 0, 1, 0, 0))
    (1, 0, 0, 0, 0, 0)
    """
    out = list(hits)
    for index in (5, 3, 1, 4, 2, 0):
        if out[index]:
            out[index] -= 1
            break
    return (out[0], out[1], out[2], out[3], out[4], out[5])


def hit_count(hits: Hits) -> tuple[int, int]:
    """(hits, criticals) of a hit vector."""
    return sum(hits), hits[1] + hits[3] + hits[5]


# --- the Damage Chart (L1108-L1119, L1147-L1239) ---------------------------------------

#: Mobile suits and armours: 1-2 Leg, 3-4 Arm, 5 Head, 6 Torso.  Other units: 1-3 Engine,
#: 4-5 Weapons, 6 Cockpit (digest A45).  Engine is kept as "leg", Weapons as "arm", Cockpit as "torso".
MS_CHART = {1: "leg", 2: "leg", 3: "arm", 4: "arm", 5: "head", 6: "torso"}
OTHER_CHART = {1: "leg", 2: "leg", 3: "leg", 4: "arm", 5: "arm", 6: "torso"}
#: Highest level of each category: Leg and Arm have a Level 2, Head and Torso only a Level 1.
CHART_MAX = {"leg": 2, "arm": 2, "head": 1, "torso": 1}
Levels = tuple[int, int, int, int]  # leg, arm, head, torso
CATEGORIES = ("leg", "arm", "head", "torso")


def chart_faces(chart: dict[int, str], levels: Levels) -> list[int]:
    """Faces that count on the next chart roll: a category at its top is rolled again (L1113-L1119)."""
    return [f for f, cat in chart.items() if levels[CATEGORIES.index(cat)] < CHART_MAX[cat]]


def chart_step(levels: Levels, category: str) -> Levels:
    i = CATEGORIES.index(category)
    out = list(levels)
    out[i] += 1
    return (out[0], out[1], out[2], out[3])


V = TypeVar("V")


@dataclass(frozen=True)
class FacesRoll(Generic[V]):
    """Dice as rolled and the outcome they give: a Damage Chart roll's every face until one with room
    and the levels it left; close combat's Beam Flayer and Shield Bonus dice."""

    faces: list[int]
    value: V


#: One Damage Chart roll as rolled, with the levels it left.
ChartRoll = FacesRoll[Levels]


@dataclass(frozen=True)
class ChartStep:
    """One Damage Chart roll from ``levels``: rolled again until a face lands on a category with room, so
    each face with room comes up with equal chance (L1113-L1119); over 3600 (each count of faces divides
    it, and so does its square: a Fortunate pilot's re-roll)."""

    chart: dict[int, str]
    levels: Levels

    def dist(self) -> Dist[Levels]:
        key = (self.chart is MS_CHART, self.chart is OTHER_CHART, self.levels)
        if not any(key[:2]):
            return self._dist()
        out = _CHART_STEPS.get(key)
        if out is None:
            out = _CHART_STEPS[key] = self._dist()  # at most 2 charts x 36 levels: never cleared
        return out

    def _dist(self) -> Dist[Levels]:
        faces = chart_faces(self.chart, self.levels) if self.levels[3] == 0 else []
        if not faces:
            return Dist({self.levels: 3600}, 3600)
        share = 3600 // len(faces)
        out: dict[Levels, int] = {}
        for f in faces:
            key = chart_step(self.levels, self.chart[f])
            out[key] = out.get(key, 0) + share
        return Dist(out, 3600)

    def roll(self, source: DiceSource, purpose: str) -> ChartRoll:
        levels, faces = roll_chart(self.chart, self.levels, source, purpose)
        return ChartRoll(faces, levels)


#: ChartStep.dist of the two charts, by levels (never changed in place).
_CHART_STEPS: dict[tuple[bool, bool, Levels], Dist[Levels]] = {}


def chart_chain(chart: dict[int, str], levels: Levels, rolls: int, fortunate: bool = False) -> Chain[Levels]:
    """``rolls`` Damage Chart rolls, each from the levels the last left (L1108-L1119).  A Torso (Cockpit)
    result destroys the unit (L1236-L1239), so rolling stops there, as it does once no category has
    room.  A Fortunate pilot rolls a Torso result again once, from the levels before it (L1968-L1969)."""

    def one(before: Levels) -> Chain[Levels]:
        if before[3] or not chart_faces(chart, before):
            return End(before)
        step = ChartStep(chart, before)
        if not fortunate:
            return Link(step, "Damage Chart", End)
        again = Link(step, "Damage Chart (Fortunate)", End)
        return Link(step, "Damage Chart", lambda after: again if after[3] else End(after))

    chain: Chain[Levels] = End(levels)
    for _ in range(rolls):
        chain = chain.then(one)
    return chain


def chart_dist(chart: dict[int, str], levels: Levels, rolls: int, fortunate: bool = False) -> Dist[Levels]:
    """Exact chart levels after ``rolls`` rolls: :func:`chart_chain`'s distribution.

    >>> d = chart_dist(MS_CHART, (0, 0, 1, 0), 1)  # Head already damaged: 5 rolls again
    >>> d.probability((0, 0, 1, 1))
    Fraction(1, 5)
    """
    key = (tuple(chart.items()), levels, rolls, fortunate)
    return remembered(_CHARTS, key, lambda: chart_chain(chart, levels, rolls, fortunate).dist(), _MEMO_MOST)


def roll_chart(
    chart: dict[int, str], levels: Levels, dice: DiceSource, purpose: str
) -> tuple[Levels, list[int]]:
    """One chart roll with real dice: faces rolled until one lands on a category with room."""
    faces = chart_faces(chart, levels)
    if levels[3] or not faces:
        return levels, []
    rolled: list[int] = []
    while True:
        f = dice.roll(1, 6, purpose)[0]
        rolled.append(f)
        if f in faces:
            return chart_step(levels, chart[f]), rolled


# --- a shot, set up --------------------------------------------------------------------


@dataclass(frozen=True)
class Shot:
    """Every number of one Shoot once the modifiers are applied."""

    shots: int | None  # None: a D6 gives the number (L2574)
    acc: int
    crit: int | None
    dam: int
    penetration: bool = False
    extra_shots: int = 0  # Massed Fire, Heat Radiation (L2937-L2941, L2889-L2894)
    attack_rerolls: int = 0
    groups: tuple[DefendGroup, ...] = ()
    shield_check: bool = False  # a <P> shot: the shield needs 4+ first (L660-L663)
    defend_rerolls: int = 0
    coating: int = 0
    movable_frame: bool = False
    chart: dict[int, str] = field(default_factory=lambda: dict(MS_CHART))
    levels: Levels = (0, 0, 0, 0)
    chart_per_crit: int = 1  # Controlled Aim: 2 (L1962)
    integrity_left: int = 1
    elusive: bool = False  # a 6 on a D6 before the defence ignores the attack (L3277-L3283)
    fortunate: bool = False  # the target's pilot re-rolls a Torso chart result once (L1968-L1969)
    remove_hit: bool = False  # Bad Weather: the target's player takes one hit out of the pool (L3321-L3327)

    def needs(self, position: int) -> tuple[int, int | None]:
        return die_needs(self.acc, self.crit, position)


def after_pool(pool_damage: int, coating: int, frame_face: int | None) -> int:
    """Damage after the coatings and Movable Frame (A12; L2014-L2030, L2952-L2956).

    >>> after_pool(6, 1, 5), after_pool(6, 0, 2), after_pool(2, 1, None)
    (3, 5, 1)
    """
    damage = max(0, pool_damage - coating)
    if frame_face is not None:
        damage = max(0, damage - (2 if frame_face >= 4 else 1))
    return damage


def shield_break(damage: int) -> int:
    """A Shield Break prevents half the damage, rounded down (L1121-L1125): 5 becomes 3."""
    return damage - damage // 2


# --- the chain of a shot ------------------------------------------------------------------

#: A D6 read as its face: Elusive (L3277-L3283), Movable Frame (L2952-L2956).
D6 = DiceSum(dice=1, sides=6)


@dataclass(frozen=True)
class AttackRoll:
    """The attack pool as rolled: the number of shots, the faces, the re-rolls, the hits (``value``: the
    hits left once Bad Weather took one out)."""

    shots: int
    faces: list[int]
    rerolled: dict[int, int]
    hits: Hits
    value: Hits


@dataclass(frozen=True)
class AttackPool:
    """The first step of a shot: the attack pool (a D6 for the number of shots where the weapon says
    so, L2574), the earliest failed dice re-rolled, then Bad Weather's hit out (L3321-L3327)."""

    shot: Shot

    def dist(self) -> Dist[Hits]:
        attack = pool_hits(self.shot)
        return attack.map(remove_one) if self.shot.remove_hit else attack

    def roll(self, source: DiceSource, purpose: str) -> AttackRoll:
        n, faces, rerolled, hits = roll_attack(self.shot, source)
        return AttackRoll(n, faces, rerolled, hits, remove_one(hits) if self.shot.remove_hit else hits)


@dataclass(frozen=True)
class DefendRoll:
    """The defend pool as rolled; ``value``: (blocks by strength, whether a shield's <P> check passed)."""

    faces: dict[str, list[int]]
    rerolled: dict[str, int]
    shield_check: int | None
    value: tuple[Blocks, bool]


@dataclass(frozen=True)
class DefendPool:
    """The defend pool: beam defence, armour and shield dice, the defender's re-rolls; against a <P> shot
    the shield first needs a 4+ (L649-L666, A3)."""

    shot: Shot

    def dist(self) -> Dist[tuple[Blocks, bool]]:
        return block_dist(self.shot)

    def roll(self, source: DiceSource, purpose: str) -> DefendRoll:
        shot = self.shot
        groups = shot.groups
        if shot.shield_check and any(g.name == "shield" for g in groups):
            beam_armour = tuple(g for g in groups if g.name != "shield")
            # Beam defence and armour first, then the shield's 4+ check (L649-L666).
            shield = tuple(g for g in groups if g.name == "shield")
            faces_a = {
                g.name: source.roll(g.dice, 6, f"defence: {g.name}") if g.dice else [] for g in beam_armour
            }
            check = source.roll(1, 6, "shield check against <P>")[0]
            used = beam_armour + shield if check >= 4 else beam_armour
            faces, rerolled, blocks = roll_defence(
                used, shot.defend_rerolls, shot.penetration, source, faces_a
            )
            return DefendRoll(faces, rerolled, check, (blocks, check >= 4))
        faces, rerolled, blocks = roll_defence(groups, shot.defend_rerolls, shot.penetration, source)
        return DefendRoll(faces, rerolled, None, (blocks, False))


#: (hits left, criticals left, damage): the end of a shot's chain.
ShotEnd = tuple[int, int, int]


def left_chain(shot: Shot) -> Chain[tuple[int, int]]:
    """The shot's dice up to the hits its blocks leave: attack pool, Elusive's D6 (a 6 ignores the
    attack, L3277-L3283), defend pool, then the blocks cancelling hits (A6: the most hits, then the most
    criticals); its result is (hits left, criticals left)."""
    defended = DefendPool(shot)
    if not shot.elusive:  # the two pools, then the blocks: each pair of outcomes weighed once
        return Both(AttackPool(shot), "attack", defended, "defence", lambda h, b: hits_left(h, b[0]))

    def attacked(hits: Hits) -> Chain[tuple[int, int]]:
        defend = Last(defended, "defence", lambda b: hits_left(hits, b[0]))
        return Link(D6, "Elusive", lambda face: End((0, 0)) if face == 6 else defend)

    return Link(AttackPool(shot), "attack", attacked)


def shot_chain(shot: Shot) -> Chain[ShotEnd]:
    """The whole shot up to its damage: :func:`left_chain`, then Movable Frame's D6 when the pool's
    damage is 3 or more, and the damage after the coatings and the frame (A12)."""

    def damaged(left: tuple[int, int]) -> Chain[ShotEnd]:
        hits, crits = left
        pool = hits * shot.dam
        if shot.movable_frame and pool >= 3:
            return Last(D6, "Movable Frame", lambda face: (hits, crits, after_pool(pool, shot.coating, face)))
        return End((hits, crits, after_pool(pool, shot.coating, None)))

    return left_chain(shot).then(damaged)


# --- odds -------------------------------------------------------------------------------


def _add_kind(hits: Hits, kind: int | None) -> Hits:
    if kind is None:
        return hits
    out = list(hits)
    out[kind] += 1
    return (out[0], out[1], out[2], out[3], out[4], out[5])


def attack_dist(shot: Shot, n: int) -> Dist[Hits]:
    """Hits of an attack pool of ``n`` dice, the earliest failed dice re-rolled (total 36**n)."""
    return attack_dists(shot, n)[-1]


def attack_dists(shot: Shot, most: int) -> list[Dist[Hits]]:
    """:func:`attack_dist` of 1, 2 ... ``most`` dice (0 dice: ``[Dist({NO_HITS: 1}, 1)]``): die by die,
    the state after each die is the pool of that many dice's (a D6 of shots weighs each number of
    dice, L2574, without rolling the first dice again for each)."""
    states: dict[tuple[int, Hits], int] = {(shot.attack_rerolls, NO_HITS): 1}
    out = [] if most else [_pool_of(states, 0)]
    for position in range(1, most + 1):
        acc, crit = shot.needs(position)
        nxt: dict[tuple[int, Hits], int] = {}
        for (left, hits), w in states.items():
            for face in range(1, 7):
                if face >= acc or left == 0:
                    key = (left, _add_kind(hits, hit_type(face, acc, crit)))
                    nxt[key] = nxt.get(key, 0) + w * 6
                    continue
                for again in range(1, 7):
                    key = (left - 1, _add_kind(hits, hit_type(again, acc, crit)))
                    nxt[key] = nxt.get(key, 0) + w
        states = nxt
        out.append(_pool_of(states, position))
    return out


def _pool_of(states: dict[tuple[int, Hits], int], n: int) -> Dist[Hits]:
    out: dict[Hits, int] = {}
    for (_, hits), w in states.items():
        out[hits] = out.get(hits, 0) + w
    return Dist(out, 36**n)


#: Odds already worked out, by what they depend on: a sheet asks again for the odds of a weapon, a
#: cover or a range it showed a tap before (each choice button shows its own), and the attack pool
#: of a shot is the same whatever its target.  Each memo holds at most ``_MEMO_MOST`` entries.
_POOLS: dict[tuple[Any, ...], Dist[Hits]] = {}
_BLOCKS: dict[tuple[Any, ...], Dist[tuple[Blocks, bool]]] = {}
_SHOTS: dict[tuple[Any, ...], ShotOdds] = {}
_CHARTS: dict[tuple[Any, ...], Dist[Levels]] = {}
_MEMO_MOST = 256


def shot_key(shot: Shot) -> tuple[Any, ...]:
    """Every number of a shot, as a key (its chart as pairs)."""
    return tuple(
        tuple(shot.chart.items()) if f.name == "chart" else getattr(shot, f.name) for f in fields(shot)
    )


def pool_hits(shot: Shot) -> Dist[Hits]:
    """The attack pool, with a D6 for the number of shots where the weapon says so."""
    key = (shot.shots, shot.extra_shots, shot.acc, shot.crit, shot.attack_rerolls)
    return remembered(_POOLS, key, lambda: _pool_hits(shot), _MEMO_MOST)


def _pool_hits(shot: Shot) -> Dist[Hits]:
    if shot.shots is not None:
        return attack_dist(shot, shot.shots + shot.extra_shots)
    top = 6 + shot.extra_shots
    out: dict[Hits, int] = {}
    pools = attack_dists(shot, top)
    for n in range(1, 7):
        d = pools[n + shot.extra_shots - 1]
        scale = 36 ** (top - n - shot.extra_shots)
        for k, w in d.weights.items():
            out[k] = out.get(k, 0) + w * scale
    return Dist(out, 6 * 36**top)


def defend_order(groups: Iterable[DefendGroup]) -> list[DefendGroup]:
    """Groups in the order the defender's re-rolls go: lowest success number first."""
    return sorted(groups, key=lambda g: g.success)


def _add_block(blocks: Blocks, s: int) -> Blocks:
    if s == 0:
        return blocks
    out = list(blocks)
    out[s - 1] += 1
    return (out[0], out[1], out[2])


def defend_dist(groups: tuple[DefendGroup, ...], rerolls: int, penetration: bool) -> Dist[Blocks]:
    """Blocks by strength of the given dice, re-rolls on the failed dice with the lowest success number."""
    states: dict[tuple[int, Blocks], int] = {(rerolls, (0, 0, 0)): 1}
    total = 1
    for group in defend_order(groups):
        for _ in range(group.dice):
            nxt: dict[tuple[int, Blocks], int] = {}
            for (left, blocks), w in states.items():
                for face in range(1, 7):
                    fail = face < group.success
                    if fail and (group.own_reroll or left > 0):
                        use = left if group.own_reroll else left - 1
                        for again in range(1, 7):
                            key = (use, _add_block(blocks, block_strength(again, group, penetration)))
                            nxt[key] = nxt.get(key, 0) + w
                    else:
                        key = (left, _add_block(blocks, block_strength(face, group, penetration)))
                        nxt[key] = nxt.get(key, 0) + w * 6
            states, total = nxt, total * 36
    out: dict[Blocks, int] = {}
    for (_, blocks), w in states.items():
        out[blocks] = out.get(blocks, 0) + w
    return Dist(out, total)


def block_dist(shot: Shot) -> Dist[tuple[Blocks, bool]]:
    """Blocks of the whole defend pool, and whether a shield's <P> check passed (costing integrity)."""
    key = (shot.groups, shot.defend_rerolls, shot.penetration, shot.shield_check)
    return remembered(_BLOCKS, key, lambda: _block_dist(shot), _MEMO_MOST)


def _block_dist(shot: Shot) -> Dist[tuple[Blocks, bool]]:
    shield = [g for g in shot.groups if g.name == "shield"]
    if not (shot.shield_check and shield):
        return defend_dist(shot.groups, shot.defend_rerolls, shot.penetration).map(lambda b: (b, False))
    without = tuple(g for g in shot.groups if g.name != "shield")
    fail = defend_dist(without, shot.defend_rerolls, shot.penetration)
    passed = defend_dist(shot.groups, shot.defend_rerolls, shot.penetration)
    # Bring both to one denominator: 3 faces in 6 fail (1-3), 3 pass (4+).
    out: dict[tuple[Blocks, bool], int] = {}
    scale_fail = passed.total // fail.total
    for b, w in fail.weights.items():
        out[(b, False)] = out.get((b, False), 0) + 3 * w * scale_fail
    for b, w in passed.weights.items():
        out[(b, True)] = out.get((b, True), 0) + 3 * w
    return Dist(out, 6 * passed.total)


@dataclass(frozen=True)
class ShotOdds:
    damage: Dist[int]
    crits: Dist[int]
    destroyed: Fraction
    hit_any: Fraction


def shot_outcome(shot: Shot) -> Dist[tuple[int, int]]:
    """(hits left, criticals left) after the defend pool: :func:`left_chain`'s distribution."""
    return left_chain(shot).dist()


def shot_odds(shot: Shot) -> ShotOdds:
    """Exact damage, chart rolls and chance to destroy (no Shield Break: the defender chooses it)."""
    return remembered(_SHOTS, shot_key(shot), lambda: _shot_odds(shot), _MEMO_MOST)


def _shot_odds(shot: Shot) -> ShotOdds:
    """Summed in integer weights: the damage that reaches the unit's Integrity destroys it, else each
    number of chart rolls destroys it with the chance the rolls reach the Torso (one Fraction a number
    of rolls, not one an outcome: the very sum)."""
    end = shot_chain(shot).dist()
    joint = end.map(lambda k: (k[2], k[1] * shot.chart_per_crit))
    through = 0
    by_rolls: dict[int, int] = {}
    for (damage, rolls), w in joint.weights.items():
        if not w:
            continue
        if damage >= shot.integrity_left:
            through += w
        elif rolls:
            by_rolls[rolls] = by_rolls.get(rolls, 0) + w
    destroyed = Fraction(through, joint.total)
    if by_rolls:
        torso = torso_chances(shot.chart, shot.levels, max(by_rolls), shot.fortunate)
        for rolls, w in by_rolls.items():
            destroyed += Fraction(w, joint.total) * torso[rolls - 1]
    hit_any = Fraction(sum(w for (h, _, _), w in end.weights.items() if h > 0), end.total)
    return ShotOdds(
        damage=joint.map(lambda k: k[0]),
        crits=joint.map(lambda k: k[1]),
        destroyed=destroyed,
        hit_any=hit_any,
    )


def torso_chances(chart: dict[int, str], levels: Levels, most: int, fortunate: bool) -> list[Fraction]:
    """The chance the Damage Chart reaches the Torso (Cockpit) within 1, 2 ... ``most`` rolls from
    ``levels`` (L1108-L1119, L1236-L1239): :func:`chart_dist` of each number of rolls, each made from
    the one before by one more roll (the mixture its chain makes, without weighing the first rolls
    again for each number of rolls)."""
    key = (tuple(chart.items()), levels, most, fortunate)
    return remembered(_TORSO, key, lambda: _torso_chances(chart, levels, most, fortunate), _MEMO_MOST)


def _torso_chances(chart: dict[int, str], levels: Levels, most: int, fortunate: bool) -> list[Fraction]:
    steps: dict[Levels, Dist[Levels]] = {}  # one roll from each levels met

    def roll(before: Levels) -> Dist[Levels]:
        """:func:`chart_chain` of one roll from ``before``, weighed as its chain weighs it."""
        if before not in steps:
            if before[3] or not chart_faces(chart, before):
                steps[before] = Dist({before: 1}, 1)
            else:
                step = ChartStep(chart, before).dist()
                if fortunate:  # a Torso result rolled again once, from the levels before it
                    weights: dict[Levels, int] = {}
                    for after, w in step.weights.items():
                        for again, w2 in step.weights.items() if after[3] else ((after, step.total),):
                            weights[again] = weights.get(again, 0) + w * w2
                    step = Dist(weights, step.total * step.total)
                steps[before] = step
        return steps[before]

    dist = roll(levels)
    out = [Fraction(sum(w for lv, w in dist.weights.items() if lv[3]), dist.total)]
    for _ in range(most - 1):
        common = lcm(*{roll(lv).total for lv in dist.weights})
        weights: dict[Levels, int] = {}
        for lv, w in dist.weights.items():
            sub = roll(lv)
            for after, w2 in sub.weights.items():
                weights[after] = weights.get(after, 0) + w * w2 * (common // sub.total)
        dist = Dist(weights, dist.total * common)
        out.append(Fraction(sum(w for lv, w in dist.weights.items() if lv[3]), dist.total))
    return out


#: torso_chances by chart, levels, most rolls and Fortunate.
_TORSO: dict[tuple[Any, ...], list[Fraction]] = {}


# --- rolling ----------------------------------------------------------------------------


@dataclass
class ShotRoll:
    """A rolled shot, die by die, for the log."""

    shots: int = 0
    attack: list[int] = field(default_factory=list)
    attack_rerolled: dict[int, int] = field(default_factory=dict)
    hits: Hits = NO_HITS
    shield_check: int | None = None
    elusive: int | None = None
    removed: bool = False
    defend: dict[str, list[int]] = field(default_factory=dict)
    defend_rerolled: dict[str, int] = field(default_factory=dict)
    blocks: Blocks = (0, 0, 0)
    left: Hits = NO_HITS
    pool_damage: int = 0
    frame: int | None = None
    damage: int = 0


def roll_attack(shot: Shot, dice: DiceSource) -> tuple[int, list[int], dict[int, int], Hits]:
    """Roll the number of shots if needed, the pool, then re-roll the earliest failed dice."""
    n = shot.shots if shot.shots is not None else dice.roll(1, 6, "number of shots")[0]
    n += shot.extra_shots
    faces = dice.roll(n, 6, "attack")
    failed = [i for i, f in enumerate(faces) if f < shot.needs(i + 1)[0]][: shot.attack_rerolls]
    again = dice.roll(len(failed), 6, "attack re-rolls") if failed else []
    rerolled = dict(zip(failed, again, strict=True))
    hits = NO_HITS
    for i, f in enumerate(faces):
        acc, crit = shot.needs(i + 1)
        hits = _add_kind(hits, hit_type(rerolled.get(i, f), acc, crit))
    return n, faces, rerolled, hits


def roll_defence(
    groups: tuple[DefendGroup, ...],
    rerolls: int,
    penetration: bool,
    dice: DiceSource,
    rolled: dict[str, list[int]] | None = None,
) -> tuple[dict[str, list[int]], dict[str, int], Blocks]:
    """Roll every group in the book's order (``rolled``: groups already rolled), then the re-rolls."""
    faces = dict(rolled or {})
    for g in groups:
        if g.name not in faces:
            faces[g.name] = dice.roll(g.dice, 6, f"defence: {g.name}") if g.dice else []
    rerolled: dict[str, int] = {}
    for g in groups:
        if g.own_reroll:
            for i, f in enumerate(faces[g.name]):
                if f < g.success:
                    rerolled[f"{g.name}#{i}"] = dice.roll(1, 6, f"defence: {g.name} re-roll")[0]
    pending = [
        (g, i)
        for g in defend_order(groups)
        if not g.own_reroll
        for i, f in enumerate(faces[g.name])
        if f < g.success
    ][:rerolls]
    for g, i in pending:
        rerolled[f"{g.name}#{i}"] = dice.roll(1, 6, f"defence: {g.name} re-roll")[0]
    blocks: Blocks = (0, 0, 0)
    for g in groups:
        for i, f in enumerate(faces[g.name]):
            blocks = _add_block(blocks, block_strength(rerolled.get(f"{g.name}#{i}", f), g, penetration))
    return faces, rerolled, blocks


def roll_shot(shot: Shot, dice: DiceSource) -> ShotRoll:
    """Resolve the dice of a shot up to its damage: :func:`shot_chain` rolled, kept for the log (charts
    are rolled by the caller, from the defender's answer)."""
    return shot_roll(shot_chain(shot).roll(dice), shot)


def _face(rolled: object) -> int:
    assert isinstance(rolled, SumRoll)
    return rolled.faces[0]


def shot_roll(rolled: ChainRoll[ShotEnd], shot: Shot) -> ShotRoll:
    """A walked shot chain as the log keeps it, step by step."""
    out = ShotRoll()
    attack = rolled.of("attack")[0]
    assert isinstance(attack, AttackRoll)
    out.shots, out.attack, out.attack_rerolled, out.hits = (
        attack.shots,
        attack.faces,
        attack.rerolled,
        attack.value,
    )
    out.removed = attack.value != attack.hits
    if elusive := rolled.of("Elusive"):
        out.elusive = _face(elusive[0])
    if defend := rolled.of("defence"):
        d = defend[0]
        assert isinstance(d, DefendRoll)
        out.defend, out.defend_rerolled, out.shield_check, out.blocks = (
            d.faces,
            d.rerolled,
            d.shield_check,
            d.value[0],
        )
        out.left = cancel_hits(out.hits, out.blocks)
    hits, _, out.damage = rolled.value
    out.pool_damage = hits * shot.dam
    if frame := rolled.of("Movable Frame"):
        out.frame = _face(frame[0])
    return out
