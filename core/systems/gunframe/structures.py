"""Structures (L2884-2955) and the mission targets that are structures (L1701, L1921-1947, L1969-1973).

A structure is a terrain feature the players agree on before the game (L2888).  To
be attacked and tracked it joins a side as a unit whose profile has a
``structure`` kind (``place_structure``; the whole new unit list is one undoable
change).  Its Defense and Armour come from :data:`STRUCTURES` (read from
``structures.json`` beside this module); it is a ``tank`` frame only so the
profile validates, and :func:`~.state.is_structure` keeps it out of Focus
Points, attrition, sudden death, panic and groups.

What the app applies (see :mod:`.attack`): no attack modifiers against it (L2925),
no power attacks (L2926), never cover, though it may be obscured (L2927), never a
dodge (L2928), destroyed at Armour 0 (L2929).  A gun emplacement only ever attacks
as a reaction, with a Focus Point spent on it, and never activates (L1943).

Infantry in buildings (L2931-2953, ``occupy``): infantry goes in after a move
touching a building (the players vouch for the move and the contact), at most
three units per building, never into one holding enemy infantry, and not in and
out in one turn (L2935-2939).  Inside it has +1 Defense (L2948) and dies with the
building (L2953); a recoil or a run for cover puts it out (L2951).  Ranges and
lines of sight from the building's edges (L2944, L2950), and area power attacks
reaching every occupant (L2952), are the players' to measure: list the occupants
among the units caught.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import Field

from core.dice import DiceSource
from core.systems.base import ActionResult, ActionSpec, Change, Closed, UnitState
from core.systems.data import load
from core.systems.gunframe.building import GunframeUnit, StructureKind
from core.systems.gunframe.state import Edits, Pos, is_structure, profile_of

if TYPE_CHECKING:
    from core.game import Game, GameUnit


class StructureDef(Closed, frozen=True):
    """One kind of structure: its values, where the book gives them, and what it is (our words)."""

    id: str
    name: str
    defense: int
    armour: int
    ref: str
    summary: str
    #: Infantry may go inside (L2896); only the book's buildings are.
    building: bool = False
    short: int = 0
    upgrades: tuple[tuple[str, str], ...] = ()


class StructureTable(Closed, frozen=True):
    """The content of ``structures.json``: the book's structures (L2904-2915) and the missions'
    (L1701, L1921-1947, L1969-1973), in the order the app offers them."""

    structures: tuple[StructureDef, ...]


STRUCTURES: dict[str, StructureDef] = {
    d.id: d for d in load(__package__, "structures.json", StructureTable).structures
}

#: Structures scored by the missions (L1929, L1949, L1979).
RAID_KINDS = ("raid_target",)
BUNKER_KINDS = ("bunker", "gun_emplacement")
BEACON_KINDS = ("beacon",)
MAX_OCCUPANTS = 3  # L2939


def kind_of(unit: GameUnit) -> StructureDef | None:
    kind = unit.profile.get("structure")
    return STRUCTURES.get(str(kind)) if kind else None


def structure_profile(kind: str, name: str) -> GunframeUnit:
    """The profile a structure plays with: its Defense and Armour, a gun if it has one."""
    d = STRUCTURES[kind]
    upgrades = [{"id": uid, "slot": slot} for uid, slot in d.upgrades]
    return GunframeUnit.model_validate(
        {
            "name": name,
            "frame": "tank",
            "speed": 0,
            "defense": d.defense,
            "armour": d.armour,
            "short": d.short,
            "upgrades": upgrades,
            "structure": kind,
        }
    )


def tally(game: Game, kinds: tuple[str, ...]) -> tuple[int, int, int] | None:
    """Structures of these kinds in the game: how many, how many destroyed, how many standing with 4
    Armour or less (L1949); None when the game holds none."""
    found = [u for side in game.sides for u in side.units if u.profile.get("structure") in kinds]
    if not found:
        return None
    destroyed = sum(u.state.destroyed for u in found)
    battered = sum(not u.state.destroyed and u.state.max_damage - u.state.damage <= 4 for u in found)
    return len(found), destroyed, battered


# --- placing structures ----------------------------------------------------------------------------


class PlaceInput(Closed):
    """Structures the players agreed on, added to a side so they can be attacked (L2888)."""

    side: int = Field(
        ge=0, le=7, description="The side the structures belong to (the defender's, in a Raid)."
    )
    kind: StructureKind = Field(
        default="civilian",
        description="Civilian 2/5, hard civilian 2/10, military 3/6, hard military 3/12 (Defense/Armour, "
        "L2903-2907); objective building 3/6 (L1701); Raid target 2/5 (L1921); bunker 3/12 (L1935); gun "
        "emplacement 3/8 with Short 3 Turreted (L1941-1947); beacon 2/8 (L1969).",
    )
    count: int = Field(default=1, ge=1, le=6, description="How many to place (a Raid has six, L1915).")
    name: str = Field(
        default="", max_length=40, description="Their name; empty for the kind's name, numbered."
    )


def resolve_place(game: Game, inp: PlaceInput, dice: DiceSource) -> ActionResult:
    from core.game import GameUnit  # here: core.game imports the rule systems

    if inp.side >= len(game.sides):
        raise ValueError(f"there is no side {inp.side}")
    side = game.sides[inp.side]
    d = STRUCTURES[inp.kind]
    keys = {u.key for u in side.units}
    names = {u.name for u in side.units}
    units = [u.model_dump(mode="json") for u in side.units]
    added = []
    n = 1
    for _ in range(inp.count):
        while f"st{n}" in keys:
            n += 1
        base = inp.name or d.name
        name, k = base, 1
        while (inp.count > 1 and name == base) or name in names:
            name, k = f"{base} {k}", k + 1
        profile = structure_profile(inp.kind, name)
        state = UnitState(max_damage=d.armour, counters={"target_lock": 0, "evade": 0})
        unit = GameUnit(key=f"st{n}", name=name, profile=profile.model_dump(mode="json"), state=state)
        units.append(unit.model_dump(mode="json"))
        keys.add(unit.key)
        names.add(name)
        added.append(name)
    text = f"{side.name} gets {', '.join(added)} (Defense {d.defense}, Armour {d.armour}, {d.ref})"
    change = Change(path=["sides", inp.side, "units"], value=units)
    return ActionResult(changes=[change], text=text, detail={"added": added})


PLACE_STRUCTURE = ActionSpec(
    name="place_structure",
    label="Place structures",
    input=PlaceInput,
    resolve=resolve_place,
    help="Add buildings, Raid targets, bunkers or beacons to a side so they can be attacked and tracked "
    "(L2884-2929, L1921-1973).",
)


# --- infantry in buildings (L2931-2953) ---------------------------------------------------------------


class OccupyInput(Closed):
    unit: str = Field(
        description="The infantry unit, which has just ended a move touching the building (L2935).",
        json_schema_extra={"ui": "own-unit"},
    )
    building: str = Field(
        default="",
        description="The building it goes into, as 'side/key'; empty when it comes out.",
        json_schema_extra={"ui": "enemy-unit"},
    )


def inside(edits: Edits, pos: Pos) -> str | None:
    ref = edits.extra(pos, "inside")
    return str(ref) if ref else None


def occupants(edits: Edits, building: Pos) -> list[Pos]:
    ref = f"{building[0]}/{edits.unit(building).key}"
    return [
        (s, u)
        for s, side in enumerate(edits.game.sides)
        for u in range(len(side.units))
        if inside(edits, (s, u)) == ref and not edits.get((s, u), "destroyed")
    ]


def leave(edits: Edits, pos: Pos, why: str) -> str:
    """Put an occupant out of its building (L2951); '' when it is not in one."""
    if not inside(edits, pos):
        return ""
    edits.drop_extra(pos, "inside")
    edits.set_extra(pos, "left_building", edits.game.round)
    return f"{edits.name(pos)} leaves its building ({why}, L2951)"


def bury(edits: Edits, building: Pos) -> list[str]:
    """A destroyed building takes its occupants with it (L2953)."""
    lines = []
    for pos in occupants(edits, building):
        edits.set(pos, "damage", int(edits.get(pos, "max_damage")))
        edits.set(pos, "destroyed", True)
        lines.append(f"{edits.name(pos)} dies in the rubble (L2953)")
    return lines


def resolve_occupy(game: Game, inp: OccupyInput, dice: DiceSource) -> ActionResult:
    edits = Edits(game)
    pos = edits.find(inp.unit)
    unit = edits.unit(pos)
    name = unit.name
    if profile_of(unit).frame != "infantry" or is_structure(unit):
        raise ValueError(f"{name} is not infantry: only infantry goes into buildings (L2933)")
    if edits.get(pos, "destroyed"):
        raise ValueError(f"{name} is destroyed")
    here = inside(edits, pos)
    if not inp.building:
        if not here:
            raise ValueError(f"{name} is not in a building")
        if edits.extra(pos, "entered_building") == game.round:
            raise ValueError(f"{name} went in this turn and cannot come out until the next (L2938)")
        edits.drop_extra(pos, "inside")
        edits.set_extra(pos, "left_building", game.round)
        return ActionResult(changes=edits.changes(), text=f"{name} comes out of its building")
    b_pos = edits.find(inp.building)
    b_unit = edits.unit(b_pos)
    kind = kind_of(b_unit)
    if kind is None or not kind.building:
        raise ValueError(f"{b_unit.name} is not a building infantry can occupy (L2896)")
    if edits.get(b_pos, "destroyed"):
        raise ValueError(f"{b_unit.name} is destroyed")
    if here:
        raise ValueError(f"{name} is already inside a building")
    if edits.extra(pos, "left_building") == game.round:
        raise ValueError(f"{name} came out of a building this turn and cannot go in again (L2938)")
    there = occupants(edits, b_pos)
    if any(s != pos[0] for s, _ in there):
        raise ValueError(f"{b_unit.name} holds enemy infantry (L2937)")
    if len(there) >= MAX_OCCUPANTS:
        raise ValueError(f"{b_unit.name} already holds {MAX_OCCUPANTS} infantry units (L2939)")
    edits.set_extra(pos, "inside", f"{b_pos[0]}/{b_unit.key}")
    edits.set_extra(pos, "entered_building", game.round)
    text = f"{name} occupies {b_unit.name}: +1 Defense, ranges and sight from the building's edges"
    return ActionResult(changes=edits.changes(), text=text)


OCCUPY = ActionSpec(
    name="occupy",
    label="Occupy a building",
    input=OccupyInput,
    resolve=resolve_occupy,
    help="Infantry goes into a building it touches after a move, or comes out (L2931-2953): +1 Defense "
    "inside, dies with the building.",
)

STRUCTURE_ACTIONS = (PLACE_STRUCTURE, OCCUPY)
