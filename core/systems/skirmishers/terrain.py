"""Advanced terrain (L462-L492) and structures (L524-L545), as the players report the table.

The app does not see the map: a move's AP is what the player says (``move``); what terrain does
to a trooper beyond its AP is here (:class:`Terrain`):

* barbed wire: 6 AP to enter; 1D6 bludgeoning marked as a melee hit would be (2D6 first cell,
  body armor stops it, digest AMB-37), then 1D6: on 4-6 the trooper is entangled and moves no
  further this turn; at its next turn 1D6 bludgeoning again and a new roll (L479).  An entangled
  trooper adds +1 to its attacks (L489).  Power armor pays 1 AP and is never hurt or entangled
  (L883-L885);
* deep water: 4 AP to swim in, only with a single weapon (a grenade launcher under the rifle or
  SMG counts with it); a swimmer fires and throws nothing and is +1 to hit (L483-L491);
* a trench: 3 AP in or out; a trooper in it counts as prone to shots at it (L481, AMB-36);
* a tunnel: 2 AP in or out; moving in it costs double (the player's AP), and no one outside can
  see or shoot a trooper in it (L481).

Structures (:class:`Structure`): each dot of a wall, building or tree keeps its damage; once it is
above the toughness set before the game, the dot is breached and becomes rough terrain, 3 AP
(L533-L545; the damage counted is the lethal value of the blast ring on that dot, AMB-64).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource, Dist
from core.game import Game
from core.pool import table
from core.systems.base import ActionOdds, ActionResult, Closed, own_unit
from core.systems.skirmishers.common import card_of, soldier, track
from core.systems.skirmishers.damage import after_hits
from core.systems.skirmishers.state import SkGame
from core.systems.skirmishers.state import Structure as StructureState
from core.systems.skirmishers.walk import Card, Hit, burst_dist, roll_marks

TOUGHNESS = {"tree": 5, "wall": 10, "light": 15, "medium": 40, "heavy": 90, "hardened": 140}
TERRAIN_AP = {"wire": 6, "wire_again": 0, "swim": 4, "trench": 3, "tunnel": 2}
TERRAIN_LABELS: dict[str, Any] = {
    "wire": "Into barbed wire (6 AP)",
    "wire_again": "Still entangled: new turn",
    "swim": "Into deep water (4 AP) / out",
    "trench": "Into a trench / out (3 AP)",
    "tunnel": "Into a tunnel / out (2 AP)",
}


class Terrain(Closed):
    """What a dot of advanced terrain does to a trooper entering or leaving it (L462-L492)."""

    unit: str = own_unit("The trooper.")
    what: Literal["wire", "wire_again", "swim", "trench", "tunnel"] = Field(
        default="wire",
        description="The terrain entered (or left, for water, a trench or a tunnel).",
        json_schema_extra={"flow": "choice", "x-labels": TERRAIN_LABELS},
    )


def _one_weapon(unit: Any) -> bool:
    p = soldier(unit)
    gl = p.secondary == "grenade_launcher" and p.primary in ("rifle", "smg")
    return not (p.primary and p.secondary) or gl


def _check(game: Game, inp: Terrain) -> tuple[int, int]:
    from core.systems.skirmishers.turn import _acting

    s, u = _acting(game, inp.unit)
    unit = game.sides[s].units[u]
    if soldier(unit).kind == "vehicle":
        raise ValueError("a vehicle's driver says where it goes; terrain here is for troopers")
    conds = unit.state.conditions
    if inp.what == "wire_again" and "entangled" not in conds:
        raise ValueError(f"{unit.name} is not entangled")
    if inp.what != "wire_again" and "entangled" in conds:
        raise ValueError(f"{unit.name} is entangled and moves no further this turn (L479)")
    if inp.what == "swim" and "swimming" not in conds and not _one_weapon(unit):
        raise ValueError(f"{unit.name} carries two weapons: a swimmer carries one (L483)")
    return s, u


def _wire_dist(game: Game, inp: Terrain) -> Dist[Card]:
    unit = game.unit(inp.unit)[2]
    out: dict[Card, int] = {}
    for b in range(1, 7):
        d = burst_dist(track(unit), card_of(unit), 2, Hit(lethal=0, blunt=b), 1)
        for c, w in d.weights.items():
            out[c] = out.get(c, 0) + w  # each face of the 1D6 weighs the same
    total = sum(out.values())
    return Dist(out, total)


def terrain(game: Game, inp: Terrain, dice: DiceSource) -> ActionResult:
    from core.systems.skirmishers.turn import _spend

    s, u = _check(game, inp)
    unit = game.sides[s].units[u]
    pa = soldier(unit).kind == "power_armor"
    ap = 1 if pa and inp.what == "wire" else TERRAIN_AP[inp.what]
    st = _spend(game, s, u, ap, inp.what != "wire_again")
    if inp.what != "wire_again":  # it enters a new dot: enemy arcs may fire at it once more (L267)
        st.shot_by, st.dots = [], 1
    work = Working(game)
    work.state(s, u).extra = st.model_dump(mode="json")
    state = work.state(s, u)
    conds = [c for c in state.conditions]
    detail: dict[str, Any] = {}
    if inp.what in ("wire", "wire_again") and pa:
        text = f"{unit.name} walks through the wire (1 AP): power armor is never hurt or entangled (L885)"
    elif inp.what in ("wire", "wire_again"):
        blunt = dice.roll(1, 6, "wire damage")[0]
        r = roll_marks(track(unit), card_of(unit), Hit(lethal=0, blunt=blunt), dice)
        notes = after_hits(work.game, work, s, u, r.card)  # on the card with the AP just paid
        caught = dice.roll(1, 6, "entangled?")[0]
        conds = [c for c in work.state(s, u).conditions if c != "entangled"]
        conds += ["entangled"] if caught >= 4 else []
        detail = {"blunt": blunt, "cell": list(r.cell_faces or []), "entangle": caught}
        text = (
            f"{unit.name} in the wire ({ap} AP): {blunt} bludgeoning"
            + (f", {notes}" if notes else "")
            + (
                f"; a {caught}: entangled, it moves no further this turn (L479)"
                if caught >= 4
                else f"; a {caught}: free"
            )
        )
    else:
        flag = {"swim": "swimming", "trench": "in_trench", "tunnel": "in_tunnel"}[inp.what]
        leaving = flag in conds
        conds = [c for c in conds if c != flag] + ([] if leaving else [flag])
        what = {"swimming": "deep water", "in_trench": "a trench", "in_tunnel": "a tunnel"}[flag]
        text = f"{unit.name} {'leaves' if leaving else 'enters'} {what} ({ap} AP)"
        if not leaving and flag == "swimming":
            text += ": it may not fire or throw while it swims; +1 to shots at it (L485, L491)"
        elif not leaving and flag == "in_trench":
            text += ": shots at it count it as prone (L481)"
        elif not leaving:
            text += ": moving costs double; no one outside can see or shoot it (L481)"
    state.conditions = conds
    return ActionResult(changes=work.changes(), text=text, detail=detail)


def terrain_odds(game: Game, inp: Terrain) -> ActionOdds:
    _check(game, inp)
    unit = game.unit(inp.unit)[2]
    if inp.what not in ("wire", "wire_again") or soldier(unit).kind == "power_armor":
        return ActionOdds(tables={}, facts={}, summary="no roll")
    trk = track(unit)
    start = trk.column(card_of(unit).cells)
    d = _wire_dist(game, inp)
    return ActionOdds(
        tables={"damage": table(d.map(lambda c: trk.column(c.cells) - start))},
        facts={"entangled": 0.5},
        summary="1D6 bludgeoning from a 2D6 first cell; entangled on 4-6",
    )


def wire_offers(game: Game, side: int) -> list[Any]:
    """At the start of its side's turn an entangled trooper takes the wire again (L479)."""
    from core.systems.base import Offer

    return [
        Offer(
            action="terrain",
            input={"unit": f"{side}/{g.key}", "what": "wire_again"},
            label=f"{g.name} is entangled: the wire again",
        )
        for g in game.sides[side].units
        if "entangled" in g.state.conditions and not g.state.destroyed
    ]


class Structure(Closed):
    """Damage on a dot of a wall, building or tree (L533-L545)."""

    unit: str = own_unit("Who did it (its side's explosive).")
    label: str = Field(
        title="Which dot",
        default="the wall",
        min_length=1,
        max_length=60,
        description="Which dot, in the players' words.",
    )
    kind: Literal["tree", "wall", "light", "medium", "heavy", "hardened"] = Field(
        default="medium",
        description="Its toughness, set before the game: tree 5, wall 10, light 15, medium 40 (a "
        "building's default), heavy 90, hardened 140 (L535-L543).",
        json_schema_extra={
            "flow": "choice",
            "x-labels": {k: f"{k.capitalize()} ({v})" for k, v in TOUGHNESS.items()},
        },
    )
    damage: int = Field(default=1, ge=1, le=20, description="The blast ring's lethal value on that dot.")


def structure(game: Game, inp: Structure, dice: DiceSource) -> ActionResult:
    game.unit(inp.unit)
    g = SkGame.model_validate(game.state.extra)
    spot = next((x for x in g.structures if x.label == inp.label), None)
    if spot is None:
        spot = StructureState(label=inp.label, toughness=TOUGHNESS[inp.kind])
        g.structures.append(spot)
    if spot.damage > spot.toughness:
        raise ValueError(f"{inp.label} is already breached")
    spot.damage += inp.damage
    work = Working(game)
    work.gstate.extra = g.model_dump(mode="json")
    text = f"{inp.label}: {spot.damage} damage of toughness {spot.toughness}"
    if spot.damage > spot.toughness:
        text += ": breached, rough terrain now (3 AP to enter, L533)"
    return ActionResult(changes=work.changes(), text=text)
