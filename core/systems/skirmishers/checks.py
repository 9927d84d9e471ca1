"""2D6 checks that are not attacks: morale (L563-L573) and vehicle control (L711-L728, L779, L790).

Each is the shared 2D6 check (``core.steps.DiceSum``): a total at least the target number passes.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game
from core.pool import table
from core.steps import DiceSum
from core.systems.base import ActionOdds, ActionResult, Closed, Offer, own_unit
from core.systems.skirmishers.catalogue import CAT
from core.systems.skirmishers.common import mod, options, soldier
from core.systems.skirmishers.state import SkGame, SkUnit
from core.systems.skirmishers.units import Soldier

TWO_D6 = DiceSum(dice=2, sides=6)


def _check_odds(tn: int, text: str) -> ActionOdds:
    p = TWO_D6.at_least(tn)
    passed = TWO_D6.dist().map(lambda t: int(t >= tn))
    return ActionOdds(tables={"passes": table(passed)}, facts={"pass": float(p)}, summary=text)


class Morale(Closed):
    """A trooper's morale check once 4 or more of its squad have died (L565)."""

    unit: str = own_unit("Who checks.")
    damage_mod: bool = Field(
        title="Damage modifier",
        default=True,
        description="Add the trooper's damage modifier, as every target number it rolls (L127; the text "
        "is silent on morale).",
    )


def squad_dead(game: Game, s: int) -> int:
    """The dead of side ``s``'s squad (its troopers; with ``morale_counts_out`` those out of action too,
    AMB-4)."""
    out = options(game).morale_counts_out
    squad = [g for g in game.sides[s].units if soldier(g).kind != "vehicle"]
    return sum(1 for g in squad if g.state.destroyed or (out and mod(g) is None))


def morale_why(game: Game, ref: str) -> str:
    """Why no morale check is due for this trooper now, or "" (L565; its timing is the ``morale_when``
    reading, AMB-38): by default once when the 4th of its squad dies and again at each later death;
    or once in each of its squad's turns while 4 or more are dead."""
    if not options(game).morale:
        return "morale checks are off in this game"
    s, _, unit = game.unit(ref)
    if soldier(unit).kind == "vehicle":
        return "vehicles make no morale checks"
    if unit.state.destroyed:
        return f"{unit.name} is dead"
    dead = squad_dead(game, s)
    if dead < 4:
        return f"{dead} of the squad are dead: morale checks start at 4 (L565)"
    st = SkUnit.of(unit)
    if options(game).morale_when == "turn_start":
        if game.state.active_side != s:
            return "in this game morale is checked in the squad's own turn"
        if st.morale_turn == SkGame.model_validate(game.state.extra).turns:
            return f"{unit.name} has checked morale this turn"
    elif st.morale_dead >= dead:
        return f"{unit.name} has checked morale since the last death in its squad"
    return ""


def morale_offers(game: Game, s: int) -> list[Offer]:
    """A morale check for each trooper of side ``s`` for whom one is due (after a death)."""
    out = []
    for unit in game.sides[s].units:
        ref = f"{s}/{unit.key}"
        if not morale_why(game, ref):
            out.append(Offer(action="morale", input={"unit": ref}, label=f"{unit.name}: morale check"))
    return out


def _morale_tn(game: Game, inp: Morale) -> tuple[int, str]:
    if why := morale_why(game, inp.unit):
        raise ValueError(why)
    s, _, unit = game.unit(inp.unit)
    prof = soldier(unit)
    squad = [(g, soldier(g)) for g in game.sides[s].units if soldier(g).kind != "vehicle"]
    dead = squad_dead(game, s)
    base = CAT.experience[prof.experience if options(game).experience else "regular"].morale
    terms = [f"{CAT.experience[prof.experience].name} {base}"]
    tn = base + (dead - 4)
    if dead > 4:
        terms.append(f"{dead} dead +{dead - 4}")
    leaders = [p for g, p in squad if p.squad_leader and not g.state.destroyed]
    if leaders:
        tn -= leaders[0].leadership
        terms.append(f"leader -{leaders[0].leadership}")
    if inp.damage_mod and (m := mod(unit)):
        tn += m
        terms.append(f"damage +{m}")
    return tn, f"TN {tn} ({', '.join(terms)})"


def morale(game: Game, inp: Morale, dice: DiceSource) -> ActionResult:
    """Roll 2D6 against the morale TN; the result is recorded, the players apply it (digest AMB-38)."""
    tn, text = _morale_tn(game, inp)
    s, u, unit = game.unit(inp.unit)
    roll = TWO_D6.roll(dice, "morale")
    ok = roll.total >= tn
    work = Working(game)
    conds = [c for c in unit.state.conditions if c != "morale_failed"]
    work.state(s, u).conditions = conds if ok else [*conds, "morale_failed"]
    st = SkUnit.of(unit)
    st.morale_dead, st.morale_turn = squad_dead(game, s), SkGame.model_validate(game.state.extra).turns
    work.state(s, u).extra = st.model_dump(mode="json")
    verdict = "holds" if ok else "fails: the players decide what it does (the book gives no result)"
    return ActionResult(
        changes=work.changes(),
        text=f"{unit.name} morale {text}: rolled {roll.total}, {verdict}",
        detail={"roll": roll.faces},
    )


def morale_odds(game: Game, inp: Morale) -> ActionOdds:
    tn, text = _morale_tn(game, inp)
    return _check_odds(tn, text)


CONTROL_TN: dict[str, tuple[int, str]] = {
    "turn120": (6, "120° turn (L715)"),
    "turn180": (9, "180° turn (L716)"),
    "stop": (4, "stop, no turn (L723)"),
    "stop60": (4, "stop with a 60° turn (L724)"),
    "stop120": (6, "stop with a 120° turn (L725)"),
    "stop180": (8, "stop with a 180° turn (L726)"),
    "ram": (6, "after a ram (L779)"),
    "melee": (6, "after melee from the vehicle (L790)"),
}
CONTROL_LABELS: dict[str, Any] = {k: v[1].split(" (")[0].capitalize() for k, v in CONTROL_TN.items()}


class Control(Closed):
    """A vehicle's control check: a failure wipes it out (L711, L744)."""

    vehicle: str = own_unit("The vehicle.")
    why: Literal["turn120", "turn180", "stop", "stop60", "stop120", "stop180", "ram", "melee"] = Field(
        title="What calls for it",
        default="turn120",
        description="What calls for the check.",
        json_schema_extra={"flow": "choice", "x-labels": CONTROL_LABELS},
    )
    mode: Literal["min", "cruise", "max"] = Field(
        default="cruise",
        description="Its movement mode this turn (sets the skid and the wipe-out damage, L748-L757).",
        json_schema_extra={
            "x-labels": {"min": "Minimum", "cruise": "Cruise", "max": "Max"},
            # the check's chance is the same in every mode: the mode names the skid and the damage
            # the players then place and apply (L748-L757)
            "same_odds": "it names the skid and the damage of a failure, not the check's chance",
        },
    )
    driver_mod: int = Field(
        title="Driver's modifier",
        default=0,
        ge=0,
        le=3,
        description="The driver's own damage modifier, from its card (L711).",
    )


def _control_tn(game: Game, inp: Control) -> tuple[int, str, Soldier]:
    _, _, unit = game.unit(inp.vehicle)
    prof = soldier(unit)
    if prof.kind != "vehicle":
        raise ValueError(f"{unit.name} is not a vehicle")
    if unit.state.destroyed or mod(unit) is None:
        raise ValueError(f"{unit.name} cannot move")
    base, what = CONTROL_TN[inp.why]
    vmod = mod(unit) or 0
    handling = CAT.vehicles[prof.vehicle].handling
    tn = base + vmod + handling + inp.driver_mod
    terms = [f"{what.split(' (')[0]} {base}"]
    terms += [
        f"{n} +{v}"
        for n, v in (("vehicle damage", vmod), ("handling", handling), ("driver", inp.driver_mod))
        if v
    ]
    return tn, f"TN {tn} ({', '.join(terms)})", prof


def control(game: Game, inp: Control, dice: DiceSource) -> ActionResult:
    """The check; on a failure the vehicle wipes out: it skids 1 AP of movement (cruise) or 2 (max),
    ends prone, and takes 0/1/2 lethal damage by mode, or the ram damage if the skid hits something
    (L744-L759); the players place the skid and apply that damage with Ram/wipe-out damage."""
    tn, text, prof = _control_tn(game, inp)
    s, u, unit = game.unit(inp.vehicle)
    roll = TWO_D6.roll(dice, "control check")
    ok = roll.total >= tn
    work = Working(game)
    if ok:
        out = "in control"
    else:
        speed = CAT.vehicles[prof.vehicle].speed
        skid = {"min": 0, "cruise": speed, "max": 2 * speed}[inp.mode]
        damage = {"min": 0, "cruise": 1, "max": 2}[inp.mode]
        ram = {"min": 1, "cruise": 3, "max": 5}[inp.mode]
        work.state(s, u).conditions = (
            [*unit.state.conditions, "prone"]
            if "prone" not in unit.state.conditions
            else unit.state.conditions
        )
        turn = (
            " (set its rear 60° shallower first)"
            if inp.why.startswith("turn") or inp.why in ("stop120", "stop180")
            else ""
        )
        out = (
            f"wipes out: skids {skid} dots straight on{turn} and ends on its side; {damage}X to vehicle and "
            f"rider, or {ram}X if the skid hits an obstacle"
        )
    return ActionResult(
        changes=work.changes(),
        text=f"{unit.name} control check {text}: rolled {roll.total}, {out}",
        detail={"roll": roll.faces},
    )


def control_odds(game: Game, inp: Control) -> ActionOdds:
    tn, text, _ = _control_tn(game, inp)
    return _check_odds(tn, text)
