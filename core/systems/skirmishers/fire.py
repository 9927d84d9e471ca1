"""Ranged fire: the target number with every modifier table, the shots, the card walk, the odds.

Reaction fire from a firing arc happens in the enemy's turn (L263-L267, L286-L288); fire in the
shooter's own turn is movement fire, 2 AP a shot and +2 (L494-L509).  The app does not see the
table: the range band, the obstructions on the line of fire and the smoke are what the players
tell it (digest 4.4); every other modifier is read from the two cards.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource, Dist
from core.game import Game, GameUnit
from core.pool import table
from core.systems.base import ActionOdds, ActionResult, Closed, FieldPick, Offer, enemy_unit, own_unit
from core.systems.skirmishers.catalogue import CAT, WEAPONS, Weapon
from core.systems.skirmishers.common import (
    attacks_left,
    card_of,
    counted,
    max_ap,
    mod,
    options,
    soldier,
    track,
)
from core.systems.skirmishers.damage import after_hits
from core.systems.skirmishers.state import SkGame, SkUnit
from core.systems.skirmishers.units import carried
from core.systems.skirmishers.vehicles import driver
from core.systems.skirmishers.walk import Card, Hit, burst_dist, p_hit, roll_shot

RANGE_LABELS: dict[str, Any] = {"adjacent": "1 dot away", "short": "Short range", "long": "Long range"}


class Fire(Closed):
    """Fire a ranged weapon at an enemy: from a firing arc in the enemy's turn, or as movement fire."""

    shooter: str = own_unit("Who fires.")
    target: str = enemy_unit("Whom it fires at.")
    weapon: str = Field(
        default="",
        max_length=40,
        description="The weapon; empty for the active weapon (or the one its arc is set with).",
        json_schema_extra={"flow": "pick"},
    )
    range: Literal["adjacent", "short", "long"] = Field(
        default="short",
        description="Range band, counting dots (1 dot away is short range with a prone target's -1) "
        "(L292-L294).",
        json_schema_extra={"flow": "choice", "x-labels": RANGE_LABELS},
    )
    cover: int = Field(
        default=0,
        ge=0,
        le=6,
        description="Obstructions on the line of fire, +1 each, not counting one next to the shooter "
        "(L294; swamp and fire count, L439, L477).",
        json_schema_extra={"flow": "common"},
    )
    shots: int = Field(default=1, ge=1, le=12, description="Shots fired at this target now, one check each.")
    smoke: int = Field(
        default=0, ge=0, le=4, description="Dots of smoke on the line of fire, +3 each (L447)."
    )
    tunnel: bool = Field(default=False, description="Fighting in a tunnel: +2 (L487-L492).")
    passenger: bool = Field(
        default=False, description="A passenger of a larger vehicle firing on the move: +1, not +2 (L803)."
    )


Term = tuple[str, int]


@dataclass(frozen=True)
class Plan:
    """A shot worked out: who, the weapon, the target number and its terms, the card it lands on."""

    s: int
    u: int
    ts: int
    tu: int
    weapon_key: str
    weapon: Weapon
    moving: bool
    tn: int
    terms: tuple[Term, ...]
    hit: Hit
    card: Card
    shots: int


def _ranged(w: Weapon) -> bool:
    return w.shots is not None and not w.explosive and w.group != "melee"


def _module_off(game: Game, w: Weapon) -> str:
    o = options(game)
    if w.group == "crew" and not o.crew_served:
        return "crew-served weapons are off in this game"
    return ""


def fire_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """The shooter's ranged weapons, greyed with the reason when they cannot fire now."""
    s, _, unit = game.unit(actor)
    st = SkUnit.of(unit)
    own_turn = game.state.active_side == s
    out = []
    for key in dict.fromkeys(weapons_of(game, unit)):
        w = WEAPONS[key]
        if not _ranged(w):
            continue
        why = _module_off(game, w) or (f"{w.name} is disabled" if key in st.disabled else "")
        if not why:
            why = _why_not(game, unit, key, own_turn)
        detail = f"{w.ring_text}, short {w.short}, long {w.long}"
        out.append(FieldPick(value=key, label=w.name, detail=detail, unavailable=why))
    return {"weapon": out}


def payer(game: Game, unit: GameUnit) -> GameUnit | None:
    """Who pays a shot's AP: the unit, or a vehicle's driver for its mounted weapons (L799)."""
    if soldier(unit).kind != "vehicle":
        return unit
    ref = next(f"{s}/{g.key}" for s, side in enumerate(game.sides) for g in side.units if g is unit)
    d = driver(game, ref)
    return d[2] if d else None


def _riding_why(unit: GameUnit, key: str) -> str:
    """On a vehicle a driver fires only a secondary weapon, an SMG, a grenade or a satchel charge; a
    passenger of a larger vehicle its primaries too (L799, L803)."""
    st = SkUnit.of(unit)
    if not st.riding or not st.driver:
        return ""
    w = WEAPONS[key]
    if key == "smg" or key == soldier(unit).secondary or w.thrown or key == "satchel":
        return ""
    return f"{w.name}: a driver fires only a secondary weapon, an SMG or explosives (L799)"


def weapons_of(game: Game, unit: GameUnit) -> list[str]:
    """The weapons on its card, and a crew-served weapon it has taken over (L378)."""
    st = SkUnit.of(unit)
    out = carried(soldier(unit))
    if st.manned:
        out = out + [k for k in carried(soldier(game.unit(st.manned)[2])) if WEAPONS[k].group == "crew"]
    return out


def _why_not(game: Game, unit: GameUnit, key: str, own_turn: bool) -> str:
    st = SkUnit.of(unit)
    if WEAPONS[key].group == "crew" and key in carried(soldier(unit)) and not st.manned:
        if st.crew_by:
            return f"{game.unit(st.crew_by)[2].name} has taken it over (L378)"
        if st.left:
            return "left set up: take it back over first (6 AP, L378)"
    pays = payer(game, unit)
    if pays is None:
        return f"no one rides {unit.name} to fire its weapons (L799)"
    if "under_vehicle" in pays.state.conditions:
        return f"{pays.name} is under a wiped-out vehicle"
    why = _riding_why(unit, key)
    if why:
        return why
    if "swimming" in unit.state.conditions:
        return "a swimmer fires no weapon (L485)"
    if own_turn:
        if not options(game).movement_fire:
            return "movement fire is off in this game; fire from an arc in the enemy's turn"
        if st.active and st.active != key and soldier(unit).kind == "trooper":
            return "not the active weapon: change weapon first (3 AP, L251)"
        if SkUnit.of(pays).ap_spent + 2 > max_ap(game, pays):
            return "no AP left for movement fire (2 AP, L496)"
        return ""
    if not any(a.weapon == key and a.shots != 0 for a in st.arcs):
        return "no firing arc set with it (L263)"
    return ""


def fire_need(game: Game, ref: str) -> str:
    """Fire is offered once who goes first is chosen (L73) to a unit in action that can fire now: on its
    side's turn as movement fire (on in this game, 2 AP, L496), in the enemy's turn from a firing arc it set
    (L77, L263).  Greyed with the reason otherwise ("" when it may); what one weapon lacks greys that
    weapon only (:func:`fire_picks`)."""
    s, _, unit = game.unit(ref)
    if game.state.active_side is None:
        return "first choose which side goes first (L73)"
    if unit.state.destroyed or mod(unit) is None:
        return f"{unit.name} is out of action"
    if not any(_ranged(WEAPONS[k]) for k in weapons_of(game, unit)):
        return f"{unit.name} has no ranged weapon"
    st = SkUnit.of(unit)
    if game.state.active_side != s:
        if not any(a.shots != 0 for a in st.arcs):
            return f"{unit.name} has no firing arc set: in the enemy's turn it fires only into an arc (L263)"
        return ""
    if any(m.target == ref for m in SkGame.model_validate(game.state.extra).melee):
        return f"first resolve the melee attack waiting on {unit.name} (L318)"
    if not options(game).movement_fire:
        return "movement fire is off in this game; fire from an arc in the enemy's turn"
    pays = payer(game, unit)
    if pays is None:
        return f"no one rides {unit.name} to fire its weapons (L799)"
    if SkUnit.of(pays).ap_spent + 2 > max_ap(game, pays):
        return f"{pays.name} has no AP left for movement fire (2 AP, L496)"
    return ""


def plan(game: Game, inp: Fire) -> Plan:
    s, u, shooter = game.unit(inp.shooter)
    ts, tu, target = game.unit(inp.target)
    if game.state.active_side is None:
        raise ValueError("first choose which side goes first")
    if s == ts:
        raise ValueError("a unit fires at the other side's units")
    if shooter.state.destroyed or mod(shooter) is None:
        raise ValueError(f"{shooter.name} is out of action")
    if target.state.destroyed:
        raise ValueError(f"{target.name} is already dead")
    st = SkUnit.of(shooter)
    own_turn = game.state.active_side == s
    key = inp.weapon or _default_weapon(shooter, own_turn)
    if key not in weapons_of(game, shooter) or not _ranged(WEAPONS[key]):
        raise ValueError(f"{shooter.name} has no such ranged weapon")
    w = WEAPONS[key]
    why = _module_off(game, w) or (f"{w.name} is disabled" if key in st.disabled else "")
    why = why or _why_not(game, shooter, key, own_turn)
    if why:
        raise ValueError(why)
    if own_turn and any(m.target == inp.shooter for m in SkGame.model_validate(game.state.extra).melee):
        raise ValueError(f"first resolve the melee attack waiting on {shooter.name} (L318)")
    pays = payer(game, shooter) or shooter
    if own_turn and SkUnit.of(pays).ap_spent + 2 * inp.shots > max_ap(game, pays):
        raise ValueError(
            f"{inp.shots} movement-fire shots cost {2 * inp.shots} AP; {pays.name} has "
            f"{max_ap(game, pays) - SkUnit.of(pays).ap_spent} left"
        )
    if not own_turn:
        arc = next(a for a in st.arcs if a.weapon == key and a.shots != 0)
        if arc.shots != -1 and inp.shots > arc.shots:
            raise ValueError(f"the arc has {arc.shots} shot{'s' if arc.shots != 1 else ''} left (L261)")
        left = attacks_left(game, inp.shooter, inp.target)
        if inp.shots > left:
            raise ValueError(
                f"{shooter.name} has attacked {target.name} on this dot already: one shot a dot it enters, "
                "activates or stands up on (L288)"
                if left == 0
                else f"{shooter.name} may fire {left} more shot{'s' if left != 1 else ''} at {target.name} "
                "as it moves: one a dot (L288)"
            )
    terms = tn_terms(game, shooter, target, inp, own_turn)
    tn = sum(v for _, v in terms)
    return Plan(
        s=s,
        u=u,
        ts=ts,
        tu=tu,
        weapon_key=key,
        weapon=w,
        moving=own_turn,
        tn=tn,
        terms=tuple(terms),
        hit=Hit(lethal=w.lethal[0], blunt=w.blunt),
        card=card_of(target),
        shots=inp.shots,
    )


def _default_weapon(shooter: GameUnit, own_turn: bool) -> str:
    st = SkUnit.of(shooter)
    if not own_turn:
        for a in st.arcs:
            if a.shots != 0:
                return a.weapon
    if st.active:
        return st.active
    ranged = [k for k in carried(soldier(shooter)) if _ranged(WEAPONS[k])]
    return ranged[0] if ranged else ""


def tn_terms(game: Game, shooter: GameUnit, target: GameUnit, inp: Fire, moving: bool) -> list[Term]:
    """The target number's terms: base 6 and every modifier table that applies (L290-L304, L447,
    L487-L492, L506-L509, L519-L522, L591-L594, L656, L803)."""
    o = options(game)
    tgt = soldier(target)
    terms: list[Term] = [("base", 6)]
    if inp.range == "long":
        terms.append(("long range", 2))
    dmg = mod(shooter) or 0
    if soldier(shooter).kind == "vehicle":  # a mounted weapon: the vehicle's damage and its rider's
        if dmg:
            terms.append(("vehicle's damage", dmg))  # L648, AMB-50
        rider = payer(game, shooter)
        if rider is not None and (rmod := mod(rider) or 0):
            terms.append(("rider's damage", rmod))  # L127, L294
    elif dmg:
        terms.append(("shooter's damage", dmg))
    if inp.cover:
        terms.append((f"cover x{inp.cover}", inp.cover))
    if "prone" in shooter.state.conditions:
        terms.append(("shooter prone", -1))
    tgt_prone = "prone" in target.state.conditions or "in_trench" in target.state.conditions
    if tgt_prone and tgt.kind != "vehicle":
        terms.append(("target prone, adjacent", -1) if inp.range == "adjacent" else ("target prone", 1))
    if inp.smoke:
        if not o.advanced_explosives:
            raise ValueError("smoke is part of the advanced explosives, off in this game")
        terms.append((f"smoke x{inp.smoke}", 3 * inp.smoke))
    if moving:
        sst = SkUnit.of(shooter)
        passenger = inp.passenger or (bool(sst.riding) and not sst.driver)
        terms.append(("movement fire", 1 if passenger else 2))  # L506-L509, L803
    if o.sneak_suits and tgt.sneak_suit and inp.range == "long":
        terms.append(("sneak suit", 1))
    if "flying" in target.state.conditions:
        terms.append(("target flying", 2))
    if "entangled" in shooter.state.conditions:
        terms.append(("shooter entangled", 1))
    if "in_tunnel" in target.state.conditions and "in_tunnel" not in shooter.state.conditions:
        raise ValueError(f"no one outside the tunnel can see or shoot {target.name} (L481)")
    if inp.tunnel or "in_tunnel" in shooter.state.conditions:
        terms.append(("tunnel", 2))
    if "swimming" in target.state.conditions:
        terms.append(("target swimming", 1))
    if tgt.kind == "vehicle":
        terms.append(("vehicle's signature", CAT.vehicles[tgt.vehicle].signature))
    return terms


def tn_text(p: Plan) -> str:
    bits = ", ".join(f"{n} {v:+d}" if n != "base" else f"base {v}" for n, v in p.terms)
    return f"TN {p.tn} ({bits})"


def fire(game: Game, inp: Fire, dice: DiceSource) -> ActionResult:
    """Roll each shot: 2D6 against the TN, a hit's 2D6 for its first cell, and mark the card."""
    p = plan(game, inp)
    shooter, target = game.sides[p.s].units[p.u], game.sides[p.ts].units[p.tu]
    trk = track(target)
    card = p.card
    rolls = []
    hits = 0
    for _ in range(p.shots):
        r = roll_shot(trk, card, p.tn, p.hit, dice)
        card = r.card
        hits += r.hit
        rolls.append({"to_hit": list(r.hit_faces), "hit": r.hit, "cell": list(r.cell_faces or [])})
    work = Working(game)
    sst = SkUnit.of(shooter)
    pays = payer(game, shooter)
    if p.moving and pays is not None and pays is not shooter:  # a vehicle's driver pays (L799)
        ps, pu, _ = next(
            (si, ui, g) for si, side in enumerate(game.sides) for ui, g in enumerate(side.units) if g is pays
        )
        pst = SkUnit.of(pays)
        pst.ap_spent += 2 * p.shots
        work.state(ps, pu).extra = pst.model_dump(mode="json")
    elif p.moving:
        sst.ap_spent += 2 * p.shots
        sst.active = p.weapon_key
    else:
        for a in sst.arcs:
            if a.weapon == p.weapon_key and a.shots != 0:
                if a.shots > 0:
                    a.shots -= p.shots
                break
        sst.arcs = [a for a in sst.arcs if a.shots != 0]  # the last shot removes the arc (L314)
    work.state(p.s, p.u).extra = sst.model_dump(mode="json")
    notes = after_hits(game, work, p.ts, p.tu, card)
    if not p.moving:  # each reaction shot is an attack on this dot (L288, AMB-16)
        cs, cu, cunit = work.game.unit(counted(game, inp.target))
        cst = SkUnit.of(cunit)
        cst.shot_by = (cst.shot_by + [inp.shooter] * p.shots)[-64:]
        work.state(cs, cu).extra = cst.model_dump(mode="json")
    how = "movement fire" if p.moving else "reaction fire"
    text = (
        f"{shooter.name} fires {p.weapon.name} at {target.name} ({how}, {tn_text(p)}): "
        f"{hits} of {p.shots} hit" + (f"; {notes}" if notes else "")
    )
    g = SkGame.model_validate(game.state.extra)
    after = work.game.unit(inp.target)[2]
    why = drop_why(work.game, after) if p.moving else "not movement fire"
    g.drop, g.drop_at = (inp.target, game.cursor + 1) if not why else ("", 0)
    if g.drop or SkGame.model_validate(game.state.extra).drop:
        work.gstate.extra = g.model_dump(mode="json")
    offers = [
        Offer(action="drop_prone", input={"unit": inp.target}, label=f"{target.name} drops prone (0 AP)")
    ]
    return ActionResult(
        changes=work.changes(),
        text=text,
        detail={"shots": rolls, "tn": p.tn},
        offers=((offers if g.drop else []) + deaths(game, work, p.ts, p.tu))[:12],
    )


def deaths(game: Game, work: Working, ts: int, tu: int) -> list[Offer]:
    """The morale checks a death makes due in the squad of unit (ts, tu) (L565, AMB-38)."""
    from core.systems.skirmishers.checks import morale_offers

    if options(game).morale_when != "each_death":
        return []  # the other reading offers them as the squad's turn begins (end_turn)
    if work.game.sides[ts].units[tu].state.destroyed and not game.sides[ts].units[tu].state.destroyed:
        return morale_offers(work.game, ts)
    return []


def drop_why(game: Game, unit: GameUnit) -> str:
    """Why a unit cannot drop prone now, or "" (a trooper on foot, alive, standing)."""
    if unit.state.destroyed or mod(unit) is None:
        return f"{unit.name} is out of action"
    if soldier(unit).kind == "vehicle":
        return "a vehicle does not drop prone"
    if SkUnit.of(unit).riding:
        return f"{unit.name} rides a vehicle"
    if "prone" in unit.state.conditions:
        return f"{unit.name} is prone already"
    return ""


def drop_need(game: Game, ref: str) -> str:
    """The free drop is offered only to the target of the movement fire just resolved (L498)."""
    g = SkGame.model_validate(game.state.extra)
    unit = game.unit(ref)[2]
    if g.drop != ref or g.drop_at != game.cursor:
        return f"{unit.name} drops prone for free only right after movement fire at it (L498)"
    return drop_why(game, unit)


class DropProne(Closed):
    """The target of movement fire may drop prone for nothing once the shot is resolved (L498)."""

    unit: str = own_unit("Who drops prone.")


def drop_prone(game: Game, inp: DropProne, dice: DiceSource) -> ActionResult:
    s, u, unit = game.unit(inp.unit)
    why = drop_need(game, inp.unit)
    if why:
        raise ValueError(why)
    g = SkGame.model_validate(game.state.extra)
    g.drop, g.drop_at = "", 0
    work = Working(game)
    work.gstate.extra = g.model_dump(mode="json")
    state = work.state(s, u)
    state.conditions = [*state.conditions, "prone"]
    return ActionResult(changes=work.changes(), text=f"{unit.name} drops prone after the shot (0 AP, L498)")


def fire_odds(game: Game, inp: Fire) -> ActionOdds:
    """P(hit) a shot, and the whole burst's HP lost and deaths, by the procedure :func:`fire` rolls."""
    p = plan(game, inp)
    target = game.sides[p.ts].units[p.tu]
    return burst_odds(track(target), p.card, p.tn, p.hit, p.shots, tn_text(p))


def burst_odds(trk: object, card: Card, tn: int, hit: Hit, shots: int, tn_label: str) -> ActionOdds:
    from core.systems.skirmishers.tracks import Track

    assert isinstance(trk, Track)
    start = trk.column(card.cells)
    d: Dist[Card] = burst_dist(trk, card, tn, hit, shots)
    lost = d.map(lambda c: trk.column(c.cells) - start)
    ways, of = p_hit(tn)
    dead = d.map(lambda c: int(trk.dead(c.cells))).probability(1)
    facts = {"hit_per_shot": float(Fraction(ways, of)), "dead": float(dead)}
    if trk.kind == "trooper":
        facts["out_of_action"] = float(
            d.map(lambda c: int(trk.column(c.cells) >= trk.cells - 1)).probability(1)
        )
    summary = f"{tn_label}: {ways}/36 a shot; damage is HP lost"
    if card.armor > 0 and not card.guard:  # the armor's cells go before any HP (L198)
        cells = f"{card.armor} armor cell{'s' if card.armor != 1 else ''}"
        summary += f"; the {cells} left take a hit's lethal damage before any HP (L198)"
    return ActionOdds(tables={"damage": table(lost)}, facts=facts, summary=summary)
