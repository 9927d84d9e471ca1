"""Crew-served weapons (L354-L380): set up, break down, turn the arc, leave it, take it over.

A crew-served weapon takes the primary slot (L356).  Setting it up or breaking it down costs 4 AP
for each trooper involved, with as many extra troopers on adjacent dots as its crew value (L369,
digest AMB-29); it fires into a 60° arc only, fixed at set-up and turned for 4 AP, and never runs
out (L367, L380).  The arc stays while the weapon stays set up (AMB-30).

If the trooper controlling it dies or leaves it, any other trooper, of either side, may take it
over by standing on its dot and paying 6 AP (L374, L378): the weapon stays where it was set up
(on its carrier's card) and the new controller fires it through the same arc.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game
from core.systems.base import ActionResult, Closed, FieldPick, own_unit
from core.systems.skirmishers.catalogue import WEAPONS
from core.systems.skirmishers.common import options, soldier
from core.systems.skirmishers.state import ArcState, SkUnit
from core.systems.skirmishers.units import carried


class Crew(Closed):
    """Set up, break down, turn, leave or take over a crew-served weapon (L369-L380)."""

    unit: str = own_unit("The trooper carrying or taking the weapon.")
    what: Literal["set_up", "break_down", "turn_arc", "leave", "take_over"] = Field(
        default="set_up",
        description="Set it up with a 60° arc, break it down, or turn its arc (4 AP each, L372-L380); leave "
        "it set up (0 AP); take over one whose controller died or left it (6 AP, L378).",
        json_schema_extra={
            "flow": "choice",
            "x-labels": {
                "set_up": "Set up",
                "break_down": "Break down",
                "turn_arc": "Turn its arc",
                "leave": "Leave it",
                "take_over": "Take it over (6 AP)",
            },
        },
    )
    helpers: list[str] = Field(
        title="Crew",
        default_factory=list,
        max_length=2,
        description="The crew on adjacent dots, as many as the weapon needs; each pays 4 AP too (L369).",
    )
    weapon_of: str = Field(
        title="Whose weapon",
        default="",
        max_length=40,
        description="Taking over: the trooper whose set-up weapon it is (the trooper stands on its dot).",
        json_schema_extra={"flow": "pick"},
    )


def _crew_key(game: Game, ref: str) -> str:
    return next((k for k in carried(soldier(game.unit(ref)[2])) if WEAPONS[k].group == "crew"), "")


def free_to_take(game: Game, ref: str) -> str:
    """Why the set-up weapon of ``ref`` cannot be taken over now; "" when it can (L378)."""
    unit = game.unit(ref)[2]
    st = SkUnit.of(unit)
    if not _crew_key(game, ref) or not st.set_up:
        return f"{unit.name} has no crew-served weapon set up"
    if st.crew_by:
        return f"{game.unit(st.crew_by)[2].name} controls it"
    if not (unit.state.destroyed or st.left):
        return f"{unit.name} still controls it"
    return ""


def crew_need(game: Game, ref: str) -> str:
    """The crew-served weapon action is offered to a trooper carrying one or manning one, or while one
    is set up on the table to take over (L356, L378); with the rule on."""
    unit = game.unit(ref)[2]
    if not options(game).crew_served:
        return "crew-served weapons are off in this game"
    if _crew_key(game, ref) or SkUnit.of(unit).manned:
        return ""
    if soldier(unit).kind == "trooper" and any(
        _crew_key(game, f"{s}/{g.key}") and SkUnit.of(g).set_up
        for s, side in enumerate(game.sides)
        for g in side.units
        if f"{s}/{g.key}" != ref
    ):
        return ""  # one is set up on the table: the picks say whether it may be taken over now
    return f"{unit.name} carries no crew-served weapon and none is set up to take over (L356, L378)"


def crew_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    out = []
    for s, side in enumerate(game.sides):
        for g in side.units:
            ref = f"{s}/{g.key}"
            if ref == actor or not _crew_key(game, ref) or not SkUnit.of(g).set_up:
                continue
            w = WEAPONS[_crew_key(game, ref)].name
            out.append(FieldPick(value=ref, label=f"{g.name}'s {w}", unavailable=free_to_take(game, ref)))
    return {"weapon_of": out}


def crew(game: Game, inp: Crew, dice: DiceSource) -> ActionResult:
    from core.systems.skirmishers.turn import _acting, _spend

    s, u = _acting(game, inp.unit)
    unit = game.sides[s].units[u]
    if not options(game).crew_served:
        raise ValueError("crew-served weapons are off in this game")
    st0 = SkUnit.of(unit)
    if inp.what == "take_over":
        return _take_over(game, inp, s, u)
    if inp.what == "turn_arc" and st0.manned:
        src = game.unit(st0.manned)[2]
        st = _spend(game, s, u, 4, False)
        work = Working(game)
        work.state(s, u).extra = st.model_dump(mode="json")
        wname = WEAPONS[_crew_key(game, st0.manned)].name
        return ActionResult(
            changes=work.changes(), text=f"{unit.name} turns {src.name}'s {wname} arc (4 AP, L380)"
        )
    if inp.what == "leave" and st0.manned:
        ws, wu, owner = game.unit(st0.manned)
        ost = SkUnit.of(owner)
        ost.crew_by, ost.left = "", True
        key = _crew_key(game, st0.manned)
        st0.arcs = [a for a in st0.arcs if a.weapon != key]
        st0.manned = ""
        st0.active = next(iter(carried(soldier(unit))), "")
        work = Working(game)
        work.state(ws, wu).extra = ost.model_dump(mode="json")
        work.state(s, u).extra = st0.model_dump(mode="json")
        return ActionResult(
            changes=work.changes(), text=f"{unit.name} leaves {owner.name}'s {WEAPONS[key].name}"
        )
    key = _crew_key(game, inp.unit)
    if not key:
        raise ValueError(f"{unit.name} carries no crew-served weapon")
    w = WEAPONS[key]
    if st0.crew_by:
        raise ValueError(f"{game.unit(st0.crew_by)[2].name} has taken over its {w.name}")
    if (inp.what == "set_up" and st0.set_up) or (inp.what != "set_up" and not st0.set_up):
        raise ValueError("it is already set up" if st0.set_up else "it is not set up")
    if inp.what == "leave":
        st0.left = True
        st0.arcs = [a for a in st0.arcs if a.weapon != key]
        if st0.active == key:
            st0.active = soldier(unit).secondary or ""
        work = Working(game)
        work.state(s, u).extra = st0.model_dump(mode="json")
        return ActionResult(
            changes=work.changes(),
            text=f"{unit.name} leaves {w.name} set up: anyone on its dot may take it over (6 AP, L378)",
        )
    if st0.left and inp.what != "break_down":
        raise ValueError(f"{unit.name} has left its {w.name}: take it back over first (6 AP, L378)")
    need = (w.crew or 0) if inp.what != "turn_arc" else 0
    helpers = [] if inp.what == "turn_arc" else list(dict.fromkeys(inp.helpers))
    if len(helpers) < need:
        raise ValueError(
            f"{w.name} needs {need} more trooper{'s' if need != 1 else ''} on adjacent dots (L369)"
        )
    work = Working(game)
    for ref in helpers[:need]:
        hs, hu = _acting(game, ref)
        if hs != s or hu == u:
            raise ValueError("the crew are other troopers of the same side")
        work.state(hs, hu).extra = _spend(game, hs, hu, 4, False).model_dump(mode="json")
    st = _spend(game, s, u, 4, False)
    if inp.what == "set_up":
        st.set_up, st.left = True, False
        st.arcs = [ArcState(weapon=key, size=60, shots=-1)]
        st.active = key
        text = f"{unit.name} sets up {w.name} with a 60° arc: it never runs out (L367, L380)"
    elif inp.what == "break_down":
        st.set_up, st.left = False, False
        st.arcs = [a for a in st.arcs if a.weapon != key]
        text = f"{unit.name} breaks down {w.name}"
    else:
        text = f"{unit.name} turns {w.name}'s arc (4 AP, L380)"
    work.state(s, u).extra = st.model_dump(mode="json")
    return ActionResult(changes=work.changes(), text=text)


def _take_over(game: Game, inp: Crew, s: int, u: int) -> ActionResult:
    from core.systems.skirmishers.turn import _spend

    unit = game.sides[s].units[u]
    if not inp.weapon_of:
        raise ValueError("pick the weapon to take over")
    if soldier(unit).kind != "trooper":
        raise ValueError("a trooper on foot takes over a crew-served weapon (L378)")
    ws, wu, owner = game.unit(inp.weapon_of)
    key = _crew_key(game, inp.weapon_of)
    if (ws, wu) == (s, u):
        if not SkUnit.of(unit).left:
            raise ValueError(f"{unit.name} still controls it")
    elif why := free_to_take(game, inp.weapon_of):
        raise ValueError(why)
    st = _spend(game, s, u, 6, False)
    work = Working(game)
    w = WEAPONS[key]
    if (ws, wu) == (s, u):
        st.left = False
        st.arcs = [*st.arcs, ArcState(weapon=key, size=60, shots=-1)]
        st.active = key
    else:
        st.manned, st.active = inp.weapon_of, key
        st.arcs = [ArcState(weapon=key, size=60, shots=-1)]  # its arc as set up (L380)
        ost = SkUnit.of(owner)
        ost.crew_by, ost.left = f"{s}/{unit.key}", False
        ost.arcs = [a for a in ost.arcs if a.weapon != key]
        work.state(ws, wu).extra = ost.model_dump(mode="json")
    work.state(s, u).extra = st.model_dump(mode="json")
    return ActionResult(
        changes=work.changes(),
        text=f"{unit.name} takes over {owner.name}'s {w.name} on its dot (6 AP, L378): its 60° arc, "
        "burst fire",
    )
