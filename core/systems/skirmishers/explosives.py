"""Explosives: thrown and fired, resolved at the end of the side's turn (L326-L344, L395-L452, L598).

Throwing or firing places a token with its target number worked out then (the AP paid for a throw,
base 6 for a launcher; L340, L421); when the side's units have all moved, each token is rolled: a
hit goes off on the aimed dot, a miss scatters one dot in a 1D6 direction (AMB-22; a ranged
incendiary does not scatter, L441).  The app knows no map: the players see who stands in each ring
and mark them with Take damage, the ring's lethal value from the text.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game
from core.pool import table
from core.steps import DiceSum
from core.systems.base import ActionOdds, ActionResult, Closed, FieldPick, needs, own_unit
from core.systems.skirmishers.catalogue import WEAPONS, Weapon
from core.systems.skirmishers.common import combat_action, mod, options, soldier
from core.systems.skirmishers.state import Cloud, PendingExplosive, SkGame, SkUnit
from core.systems.skirmishers.turn import _acting, _spend
from core.systems.skirmishers.units import carried

TWO_D6 = DiceSum(dice=2, sides=6)


class Throw(Closed):
    """Throw or fire an explosive at a dot; it goes off at the end of the turn (L336)."""

    unit: str = own_unit("Who throws or fires.")
    weapon: str = Field(
        default="", max_length=40, description="The explosive.", json_schema_extra={"flow": "pick"}
    )
    dots: int = Field(
        default=3,
        ge=0,
        le=16,
        description="Dots thrown (a grenade 1 AP a dot, a satchel 2; doubled prone, L328).",
        json_schema_extra={"flow": "common"},
    )
    stairs: bool = Field(
        title="Stairs or ladder",
        default=False,
        description="Down stairs or a ladder, or up one level: 3 AP (L334).",
    )
    plant: bool = Field(
        title="Planted",
        default=False,
        description="Satchel charge planted on its own or an adjacent dot for 3 AP (the '3' of L188).",
    )
    range: Literal["short", "long"] = Field(
        default="short",
        description="A launcher's range band (L421).",
        json_schema_extra={"x-labels": {"short": "Short range", "long": "Long range"}},
    )
    cover: int = Field(default=0, ge=0, le=6, description="Obstructions on the line, +1 each (L294).")
    large: bool = Field(
        title="Large target",
        default=False,
        description="Aimed at a building, wall, tree or vehicle: -2 (L526).",
    )
    moving: bool = Field(default=False, description="Thrown or fired while moving: +2 (L500-L504).")
    drop: bool = Field(
        title="Dropped from a jet pack",
        default=False,
        description="A hand grenade dropped on a dot flown over with a jet pack: base 5, no AP (L598).",
        json_schema_extra=needs("flying"),
    )
    at: str = Field(
        title="Aimed at", default="", max_length=80, description="Where it is aimed, in the players' words."
    )


def need_flying(game: Game, ref: str) -> str:
    unit = game.unit(ref)[2]
    return "" if "flying" in unit.state.conditions else f"{unit.name} is not flying with a jet pack (L598)"


def _usable(game: Game, key: str) -> str:
    w = WEAPONS[key]
    if (w.module == "advanced_explosives" or w.smoke) and not options(game).advanced_explosives:
        return "advanced explosives are off in this game"
    return ""


def throw_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    _, _, unit = game.unit(actor)
    st = SkUnit.of(unit)
    out = []
    for key in dict.fromkeys(carried(soldier(unit))):
        w = WEAPONS[key]
        if not w.explosive:
            continue
        why = _usable(game, key)
        if not why and key in st.ammo and st.ammo[key] <= 0:
            why = "none left"
        if (
            not why
            and soldier(unit).kind == "trooper"
            and st.active != key
            and not _free_switch(soldier(unit).model_dump(), st.active, key)
        ):
            why = "not the active weapon: change weapon first (3 AP)"
        out.append(FieldPick(value=key, label=w.name, detail=w.ring_text, unavailable=why))
    return {"weapon": out}


def _free_switch(profile: dict[str, object], active: str, key: str) -> bool:
    """A grenade launcher under the rifle or SMG switches for nothing (L417)."""
    return (
        key == "grenade_launcher"
        and profile.get("secondary") == "grenade_launcher"
        and active == profile.get("primary")
    )


def _plan(game: Game, inp: Throw) -> tuple[int, int, int, str, Weapon, str]:
    s, u = _acting(game, inp.unit)
    unit = game.sides[s].units[u]
    prof = soldier(unit)
    st = SkUnit.of(unit)
    key = inp.weapon or (st.active if st.active and WEAPONS[st.active].explosive else "")
    if key not in carried(prof) or not WEAPONS[key].explosive:
        raise ValueError(f"{unit.name} has no such explosive")
    w = WEAPONS[key]
    if why := _usable(game, key):
        raise ValueError(why)
    if key in st.ammo and st.ammo[key] <= 0:
        raise ValueError(f"no {w.name} left")
    if "swimming" in unit.state.conditions:
        raise ValueError("a swimmer uses no explosives (L485)")
    if (
        prof.kind == "trooper"
        and st.active != key
        and not _free_switch(soldier(unit).model_dump(), st.active, key)
    ):
        raise ValueError("the explosive must be the active weapon: change weapon first (L328)")
    prone = "prone" in unit.state.conditions
    if inp.drop:
        if why := need_flying(game, inp.unit):
            raise ValueError(why)
        if key != "hand_grenade":
            raise ValueError("a flyer drops a hand grenade (L598)")
        ap, terms = 0, [("base", 5)]  # the flight's 3 AP pays for it (AMB-41)
    elif w.thrown or (key == "satchel"):
        planted = key == "satchel" and inp.plant
        ap = 3 if planted else inp.dots * (w.ap_per_dot or 1) * (2 if prone else 1)
        ap += 3 if inp.stairs else 0
        terms = [(f"AP paid {ap}", ap)]
    else:
        ap = w.ap or 0
        terms = [("base", 6)]
        if inp.range == "long":
            terms.append(("long range", 2))
    if dm := mod(unit):
        terms.append(("thrower's damage", dm))
    if inp.cover:
        terms.append((f"cover x{inp.cover}", inp.cover))
    if prone:
        terms.append(("thrower prone", -1))
    if "entangled" in unit.state.conditions:
        terms.append(("thrower entangled", 1))
    if inp.moving:
        if not options(game).movement_fire:
            raise ValueError("movement fire is off in this game")
        terms.append(("on the move", 2))
    if inp.large:
        if not options(game).large_targets:
            raise ValueError("the large-target rule is off in this game")
        terms.append(("large target", -2))
    tn = sum(v for _, v in terms)
    text = (
        f"TN {tn} ("
        + ", ".join(
            n if n.startswith("AP") else (f"{n} {v:+d}" if n != "base" else f"base {v}") for n, v in terms
        )
        + ")"
    )
    return s, u, ap, key, w, text


def throw(game: Game, inp: Throw, dice: DiceSource) -> ActionResult:
    s, u, ap, key, w, text = _plan(game, inp)
    unit = game.sides[s].units[u]
    st = _spend(game, s, u, ap, False)
    if not inp.drop:  # a grenade dropped in flight is part of the flight (L598)
        combat_action(game, st, unit.name)
    if key in st.ammo:
        st.ammo[key] -= 1
    st.explosive_used = True
    if w.thrown or key == "satchel":
        st.active = soldier(unit).primary or st.active  # back to the gun for nothing (L332)
    tn = int(text.split()[1])
    g = SkGame.model_validate(game.state.extra)
    g.explosives.append(PendingExplosive(attacker=inp.unit, weapon=key, tn=tn, label=inp.at))
    work = Working(game)
    work.state(s, u).extra = st.model_dump(mode="json")
    work.gstate.extra = g.model_dump(mode="json")
    where = f" at {inp.at}" if inp.at else ""
    return ActionResult(
        changes=work.changes(),
        text=f"{unit.name} {'throws' if w.thrown else 'fires'} {w.name}{where} ({ap} AP, {text}): "
        "it goes off at the end of the turn",
    )


class Explode(Closed):
    """Resolve an explosive token of the side in turn, at the end of its turn (L82, L336-L344): the
    thrower's first one; the players choose the order by whose they resolve first (digest AMB-25)."""

    unit: str = own_unit("Whose explosive goes off.")


def _next(game: Game, ref: str) -> tuple[int, PendingExplosive]:
    if why := explosive_waiting(game, ref):
        raise ValueError(why)
    g = SkGame.model_validate(game.state.extra)
    return next((i, e) for i, e in enumerate(g.explosives) if e.attacker == ref)


def explosive_waiting(game: Game, ref: str) -> str:
    """Resolve explosive is offered on a unit of the side in turn whose token waits (L336, AMB-25)."""
    s, _, unit = game.unit(ref)
    if not any(e.attacker == ref for e in SkGame.model_validate(game.state.extra).explosives):
        return f"no explosive of {unit.name} waits"
    if s != game.state.active_side:
        return f"{unit.name}'s explosive goes off at the end of its own side's turn (L336)"
    return ""


def _rings(w: Weapon, water: bool = False) -> str:
    names = ["on the dot", "1 dot away", "2 dots away", "3 dots away"]
    return ", ".join(f"{x}X {names[i]}" for i, x in enumerate(w.lethal))


def explode(game: Game, inp: Explode, dice: DiceSource) -> ActionResult:
    i, e = _next(game, inp.unit)
    w = WEAPONS[e.weapon]
    roll = TWO_D6.roll(dice, "explosive")
    where = e.label or "the aimed dot"
    spot = where
    if roll.total >= e.tn:
        lands = f"lands on {where}"
    elif w.scatters or w.smoke:
        face = dice.roll(1, 6, "scatter direction")[0]
        far = 1
        if options(game).scatter_distance == "d6_dots" and w.thrown and e.weapon != "satchel":
            far = dice.roll(1, 6, "scatter distance")[0]  # the older reading (AMB-22)
        dots = f"{far} dot{'s' if far != 1 else ''}"
        spot = f"{dots} from {where}, direction {face}"
        lands = (
            f"misses and scatters {dots} from {where} in direction {face}, counting clockwise from the "
            "direction the players agreed as 1 (it stays put if a wall is in the way)"
        )
    else:
        lands = "misses: a ranged incendiary does not scatter (L441)"
    if w.smoke:
        effect = (
            "smoke fills that dot and the 6 around it, +3 a dot to shots through it; it spreads to 2 dots "
            "at the end of the side's next movement and lifts after 12 turns (L447)"
        )
    elif roll.total < e.tn and not w.scatters:
        effect = "no effect"
    else:
        effect = _rings(w) + "; mark each one there with Take damage (+2X in water, L485)"
        if w.incendiary:
            effect += "; every dot hit catches fire (L439)"
    g = SkGame.model_validate(game.state.extra)
    del g.explosives[i]
    side = game.unit(e.attacker)[0]
    if w.smoke:  # L447: tracked until it lifts (clouds.py)
        g.clouds.append(Cloud(kind="smoke", label=spot[:120], side=side, turn=g.turns))
    elif w.incendiary and effect != "no effect":  # L439: the dots hit burn
        g.clouds.append(Cloud(kind="fire", label=spot[:120], side=side, turn=g.turns))
    work = Working(game)
    work.gstate.extra = g.model_dump(mode="json")
    attacker = game.unit(e.attacker)[2]
    return ActionResult(
        changes=work.changes(),
        text=f"{attacker.name}'s {w.name} (TN {e.tn}, rolled {roll.total}) {lands}: {effect}",
        detail={"roll": roll.faces},
    )


def explode_odds(game: Game, inp: Explode) -> ActionOdds:
    _, e = _next(game, inp.unit)
    on = TWO_D6.dist().map(lambda t: int(t >= e.tn))
    return ActionOdds(
        tables={"on_target": table(on)},
        facts={"on_target": float(TWO_D6.at_least(e.tn))},
        summary=f"{waiting(game, e)}: TN {e.tn}",
    )


def waiting(game: Game, e: PendingExplosive) -> str:
    """A waiting explosive in words: whose, which, where it was aimed."""
    return f"{game.unit(e.attacker)[2].name}'s {WEAPONS[e.weapon].name} at {e.label or 'the aimed dot'}"
