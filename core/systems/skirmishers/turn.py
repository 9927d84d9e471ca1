"""The IGOUGO loop (L71-L84): who goes first, each side's turn, AP, firing arcs, moving, stance.

The app does not model the map: a move's AP cost is what the player says it is, from the
movement tables (L229-L239, L462-L485), and the app keeps the budgets: at most the unit's max
AP in all and at most 8 AP on movement (L215, L553).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game
from core.systems.base import (
    ActionResult,
    Closed,
    FieldPick,
    Offer,
    PhaseStep,
    PhaseView,
    own_unit,
)
from core.systems.skirmishers.catalogue import CAT, WEAPONS
from core.systems.skirmishers.clouds import describe
from core.systems.skirmishers.clouds import end_of_turn as end_of_clouds
from core.systems.skirmishers.common import attacks_left, combat_action, max_ap, mod, options, soldier
from core.systems.skirmishers.state import ArcState, SkGame, SkUnit
from core.systems.skirmishers.terrain import wire_offers
from core.systems.skirmishers.tracks import TRACKS
from core.systems.skirmishers.units import carried, guard_row, has_jet_pack
from core.systems.skirmishers.vehicles import driver, end_of_turn

MOVE_CAP = 8


class FirstSide(Closed):
    """Which side goes first: picked by the players, or a die rolled by the app (L73)."""

    first: Literal["roll", "first", "second"] = Field(
        title="Who goes first",
        default="roll",
        description="Who takes the first turn; 'roll': a die, 1-3 the first side, 4-6 the second.",
        json_schema_extra={
            "flow": "choice",
            "x-labels": {"roll": "Roll a die", "first": "First side", "second": "Second side"},
            "x-sides": {"first": 0, "second": 1},  # the buttons read as the sides' names
        },
    )


def first_side(game: Game, inp: FirstSide, dice: DiceSource) -> ActionResult:
    if game.state.active_side is not None:
        raise ValueError("the first side is already chosen")
    if len(game.sides) != 2:
        raise ValueError("Skirmishers is played by two sides (L73)")
    if inp.first == "roll":
        face = dice.roll(1, 6, "who goes first")[0]
        side, how = (0 if face <= 3 else 1), f"a {face} on the die"
    else:
        side, how = (0 if inp.first == "first" else 1), "the players' pick"
    work = Working(game)
    work.gstate.active_side = side
    g = SkGame.model_validate(game.state.extra)
    g.turns = 1
    work.gstate.extra = g.model_dump(mode="json")
    text = f"{game.sides[side].name} goes first ({how})"
    if options(game).advanced_armor:  # the armor covers the columns each card marks (L382-L393)
        worn = 0
        for si, sd in enumerate(game.sides):
            for ui, unit in enumerate(sd.units):
                st = SkUnit.of(unit)
                row = guard_row(soldier(unit))
                if row and not st.guard and not any(st.cells):
                    st.guard, st.armor = row, 0
                    work.state(si, ui).extra = st.model_dump(mode="json")
                    worn += 1
        if worn:
            text += f"; advanced body armor on {worn} trooper{'s' if worn != 1 else ''}"
    return ActionResult(changes=work.changes(), text=text)


class EndTurn(Closed):
    """End the side's turn: the other side removes its arcs and activates (L76-L84)."""


def end_turn(game: Game, inp: EndTurn, dice: DiceSource) -> ActionResult:
    s = game.state.active_side
    if s is None:
        raise ValueError("first choose which side goes first")
    g = SkGame.model_validate(game.state.extra)
    if any(game.unit(e.attacker)[0] == s for e in g.explosives):
        raise ValueError("resolve this side's explosives first (L82)")
    nxt = 1 - s
    work = Working(game)
    wiped, wipe_offers = end_of_turn(game, work, s)
    game = work.game
    work.gstate.active_side = nxt
    aged = end_of_clouds(g, options(game))  # smoke spreads and lifts, fires burn out (L439, L447)
    g.turns += 1
    work.gstate.extra = g.model_dump(mode="json")
    removed = 0
    for si, side in enumerate(game.sides):
        for ui, unit in enumerate(side.units):
            st = SkUnit.of(unit)
            st.blunt_turn = 0  # power armor's knockdown counts one side's turn (AMB-53)
            state = work.state(si, ui)
            if si == nxt:
                # (a) remove the side's firing arc tokens (L76); a set-up crew-served weapon keeps its
                # arc, whose direction was fixed at set-up (L380, AMB-30)
                kept = [
                    a
                    for a in st.arcs
                    if WEAPONS[a.weapon].group == "crew" and ((st.set_up and not st.crew_by) or st.manned)
                ]
                removed += len(st.arcs) - len(kept)
                st.arcs = kept
                st.ap_spent = st.ap_moved = 0
                st.shot_by, st.dots = [], 1  # it activates on its dot: arcs may fire once (L267)
                st.explosive_used = st.jet_used = st.free_arc = st.combat_done = False
                st.mode, st.vap = "", 0  # a vehicle picks its mode each turn (L684)
                state.activated = False
                state.conditions = [c for c in state.conditions if c != "stopped"]
            state.conditions = [c for c in state.conditions if c != "flying"]  # flights end with the turn
            state.extra = st.model_dump(mode="json")
    work.game.round = (g.turns + 1) // 2  # a round is both sides' turns
    text = f"{game.sides[s].name} ends its turn; {game.sides[nxt].name} activates"
    offers = [
        Offer(
            action="resolve_melee",
            input={"unit": m.target},
            label=f"{game.unit(m.target)[2].name}: resolve the melee attack on it first",
        )
        for m in g.melee
        if game.unit(m.target)[0] == nxt
    ]
    if removed:
        text += f" (its {removed} firing arc{'s' if removed != 1 else ''} removed)"
    if wiped:
        text = f"{wiped}; {text}"
    if aged:
        text += "; " + "; ".join(aged)
    offers += wire_offers(work.game, nxt)
    if options(game).morale_when == "turn_start":  # the reading: a check each turn while 4 are dead
        from core.systems.skirmishers.checks import morale_offers

        offers += morale_offers(work.game, nxt)
    return ActionResult(changes=work.changes(), text=text, offers=(wipe_offers + offers)[:12])


def _acting(game: Game, ref: str, under_ok: bool = False) -> tuple[int, int]:
    s, u, unit = game.unit(ref)
    if game.state.active_side is None:
        raise ValueError("first choose which side goes first")
    if game.state.active_side != s:
        raise ValueError(f"it is {game.sides[game.state.active_side].name}'s turn")
    if unit.state.destroyed or mod(unit) is None:
        raise ValueError(f"{unit.name} is out of action")
    if "stopped" in unit.state.conditions:
        raise ValueError(f"{unit.name} can take no further actions this turn (L312)")
    if any(m.target == ref for m in SkGame.model_validate(game.state.extra).melee):
        raise ValueError(f"first resolve the melee attack waiting on {unit.name} (L318)")
    if "under_vehicle" in unit.state.conditions and not under_ok:
        raise ValueError(f"{unit.name} must crawl out from under its vehicle first (3 AP, L765)")
    return s, u


def acting_need(game: Game, ref: str) -> str:
    """An action of the unit's own turn is offered once who goes first is chosen (L73), on its side's turn
    (L76-L78), to a unit in action that may still act: greyed with the reason otherwise ("" when it may)."""
    try:
        _acting(game, ref, under_ok=True)
    except ValueError as why:
        return str(why)
    return ""


def ap_need(cost: int, what: str, line: str, moving: bool = False) -> Any:
    """A gate for an action that costs ``cost`` AP at least: ``acting_need``, then the AP left (and for a
    move, the 8 AP of movement a turn, L215)."""

    def check(game: Game, ref: str) -> str:
        if why := acting_need(game, ref):
            return why
        unit = game.unit(ref)[2]
        st = SkUnit.of(unit)
        left = max(0, max_ap(game, unit) - st.ap_spent)
        if left < cost:
            return f"{what} costs {cost} AP; {unit.name} has {left} left ({line})"
        if moving and st.ap_moved >= MOVE_CAP:
            return f"{unit.name} has used its 8 AP of movement this turn (L215)"
        return ""

    return check


def _spend(game: Game, s: int, u: int, ap: int, moving: bool) -> SkUnit:
    unit = game.sides[s].units[u]
    st = SkUnit.of(unit)
    top = max_ap(game, unit)
    if st.ap_spent + ap > top:
        raise ValueError(f"{unit.name} has {max(0, top - st.ap_spent)} AP left of {top}")
    if moving and st.ap_moved + ap > MOVE_CAP:
        raise ValueError(f"at most 8 AP a turn go on movement; {unit.name} has moved {st.ap_moved} (L215)")
    st.ap_spent += ap
    if moving:
        st.ap_moved += ap
    return st


class Move(Closed):
    """Move, paying the AP the movement tables give for the dots crossed."""

    unit: str = own_unit("Who moves.")
    ap: int = Field(
        title="AP",
        default=1,
        ge=1,
        le=MOVE_CAP,
        description="AP the move costs: 1 a dot, 2 across an obstruction or a door, 4 a window, 3 a level; "
        "double while prone (L229-L239); rough 3, swamp 4, wire 6, wall 5 (L462-L473); at most 8 AP "
        "a turn on movement (L215).",
        json_schema_extra={"flow": "pick"},
    )


def move_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """The move's AP as one-tap buttons, 1 to 8: movement takes at most 8 AP a turn (L215, and for
    experienced troopers and power armor alike L553, L881); a number over the AP left, or over the
    movement left this turn, is greyed with the reason."""
    _, _, unit = game.unit(actor)
    st = SkUnit.of(unit)
    left = max(0, max_ap(game, unit) - st.ap_spent)
    moves = max(0, MOVE_CAP - st.ap_moved)
    out = []
    for ap in range(1, MOVE_CAP + 1):
        why = ""
        if ap > moves:
            why = f"{moves} AP of movement left this turn (L215)"
        elif ap > left:
            why = f"{left} AP left"
        out.append(FieldPick(value=ap, label=f"{ap} AP", unavailable=why))
    return {"ap": out}


def move(game: Game, inp: Move, dice: DiceSource) -> ActionResult:
    s, u = _acting(game, inp.unit)
    if "entangled" in game.sides[s].units[u].state.conditions:
        raise ValueError(
            f"{game.sides[s].units[u].name} is entangled in wire: no more moving this turn (L479)"
        )
    st = _spend(game, s, u, inp.ap, True)
    st.shot_by, st.dots = [], 1  # a new dot: each enemy arc may fire at it once more (L267, AMB-16)
    work = Working(game)
    work.state(s, u).extra = st.model_dump(mode="json")
    name = game.sides[s].units[u].name
    return ActionResult(
        changes=work.changes(),
        text=f"{name} moves for {inp.ap} AP ({st.ap_spent} spent)",
        offers=(arc_offers(work.game, inp.unit) + fire_offers(game, inp.unit))[:12],
    )


def fire_offers(game: Game, ref: str) -> list[Offer]:
    """While a dot burns, a trooper that moves may have entered it (1X) or ended there (8X) (L439)."""
    if not any(c.kind == "fire" for c in SkGame.model_validate(game.state.extra).clouds):
        return []
    if soldier(game.unit(ref)[2]).kind == "vehicle":
        return []  # vehicles are not hurt by fire (L738)
    return [
        Offer(
            action="take_damage",
            input={"unit": ref, "lethal": 1, "why": "fire_enter"},
            label="Entered fire: 1X",
        ),
        Offer(
            action="take_damage",
            input={"unit": ref, "lethal": 8, "why": "fire_end"},
            label="Ends on fire: 8X",
        ),
    ]


def arc_offers(game: Game, ref: str) -> list[Offer]:
    """Reaction fire offered as a unit moves: each enemy with an arc that has shots left may fire
    if the unit is in it, before it goes on (L265-L267, L286); the players judge the arc (AMB-17)."""
    s = game.unit(ref)[0]
    out = []
    for es, side in enumerate(game.sides):
        if es == s:
            continue
        for enemy in side.units:
            if enemy.state.destroyed or mod(enemy) is None:
                continue
            if attacks_left(game, f"{es}/{enemy.key}", ref) == 0:
                continue  # it has attacked the unit on this dot already (L288, AMB-16)
            for arc in SkUnit.of(enemy).arcs:
                if arc.shots != 0:
                    w = WEAPONS[arc.weapon].name
                    out.append(
                        Offer(
                            action="fire",
                            input={"shooter": f"{es}/{enemy.key}", "target": ref, "weapon": arc.weapon},
                            label=f"In {enemy.name}'s arc? {enemy.name} fires ({w})",
                        )
                    )
                    break
    return out[:12]


class Stance(Closed):
    """Go prone (1 AP) or stand up (2 AP) (L227, L237-L238)."""

    unit: str = own_unit("Who goes prone or stands.")


def stance(game: Game, inp: Stance, dice: DiceSource) -> ActionResult:
    s, u = _acting(game, inp.unit)
    unit = game.sides[s].units[u]
    prone = "prone" in unit.state.conditions
    st = _spend(game, s, u, 2 if prone else 1, True)
    work = Working(game)
    state = work.state(s, u)
    state.extra = st.model_dump(mode="json")
    if prone:
        state.conditions = [c for c in state.conditions if c != "prone"]
        text = f"{unit.name} stands up (2 AP): enemies that have not fired at it on this dot may (L288)"
        offers = arc_offers(work.game, inp.unit)  # the count of attacks on this dot is kept (AMB-62)
    else:
        state.conditions = [*state.conditions, "prone"]
        text = f"{unit.name} goes prone (1 AP)"
        offers = []
    return ActionResult(changes=work.changes(), text=text, offers=offers)


class ChangeWeapon(Closed):
    """Make another weapon active: 3 AP (L246, L251); to a mounted grenade launcher and back, 0 (L417)."""

    unit: str = own_unit("Who changes weapon.")
    weapon: str = Field(
        default="",
        max_length=40,
        description="The weapon to make active.",
        json_schema_extra={"flow": "pick"},
    )


def change_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    _, _, unit = game.unit(actor)
    st = SkUnit.of(unit)
    out = []
    for key in dict.fromkeys(carried(soldier(unit))):
        w = WEAPONS[key]
        why = "already active" if key == st.active else ""
        out.append(FieldPick(value=key, label=w.name, detail=w.ring_text, unavailable=why))
    return {"weapon": out}


def change_weapon(game: Game, inp: ChangeWeapon, dice: DiceSource) -> ActionResult:
    s, u = _acting(game, inp.unit)
    unit = game.sides[s].units[u]
    st0 = SkUnit.of(unit)
    if inp.weapon not in carried(soldier(unit)):
        raise ValueError(f"{unit.name} does not carry that weapon")
    if inp.weapon == st0.active:
        raise ValueError("that weapon is already active")
    free = {st0.active, inp.weapon} == {soldier(unit).primary, "grenade_launcher"} and soldier(
        unit
    ).secondary == "grenade_launcher"
    st = _spend(game, s, u, 0 if free else 3, False)
    st.active = inp.weapon
    work = Working(game)
    work.state(s, u).extra = st.model_dump(mode="json")
    return ActionResult(
        changes=work.changes(),
        text=f"{unit.name} switches to {WEAPONS[inp.weapon].name} ({0 if free else 3} AP)",
    )


ARC_LABELS: dict[str, Any] = {
    "30": "30° (1 shot, 2 AP)",
    "60": "60° (2 shots, 4 AP)",
    "150": "150° (4 shots, 6 AP)",
}


class SetArc(Closed):
    """Place a firing-arc token after moving (L259-L274)."""

    unit: str = own_unit("Who sets the arc.")
    size: Literal["30", "60", "150"] = Field(
        title="Arc",
        default="60",
        description="Arc size: shots are its base times the weapon's multiplier (L261).",
        json_schema_extra={"flow": "choice", "x-labels": ARC_LABELS},
    )
    weapon: str = Field(
        default="",
        max_length=40,
        description="Weapon; empty for the active one.",
        json_schema_extra={"flow": "pick"},
    )


def arc_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    _, _, unit = game.unit(actor)
    st = SkUnit.of(unit)
    out = []
    for key in dict.fromkeys(carried(soldier(unit))):
        w = WEAPONS[key]
        if w.shots is None or w.explosive:
            continue
        why = ""
        if w.group == "crew" and not options(game).crew_served:
            why = "crew-served weapons are off in this game"
        elif soldier(unit).kind == "trooper" and st.active and key != st.active:
            why = "not the active weapon (L251)"
        elif soldier(unit).kind == "vehicle":
            if driver(game, actor) is None:
                why = f"no one rides {unit.name} to fire its weapons (L799)"
            elif not st.mode:
                why = "a vehicle's free arc comes after it moves this turn (L807)"
            elif any(a.weapon == key for a in st.arcs):
                why = "already has its arc"
        out.append(
            FieldPick(
                value=key, label=w.name, detail="burst" if w.shots == 0 else f"x{w.shots}", unavailable=why
            )
        )
    return {"weapon": out}


def set_arc(game: Game, inp: SetArc, dice: DiceSource) -> ActionResult:
    s, u = _acting(game, inp.unit)
    unit = game.sides[s].units[u]
    prof = soldier(unit)
    st0 = SkUnit.of(unit)
    if st0.explosive_used and prof.kind == "trooper":
        raise ValueError("no firing arc after using an explosive (L328)")
    key = (
        inp.weapon
        or st0.active
        or next((k for k in carried(prof) if WEAPONS[k].shots is not None and not WEAPONS[k].explosive), "")
    )
    if key not in carried(prof) or WEAPONS[key].shots is None or WEAPONS[key].explosive:
        raise ValueError("that weapon fires into no arc")
    w = WEAPONS[key]
    if prof.kind == "vehicle":
        return _free_arc(game, s, u, key, inp.size)
    if w.group == "crew":
        if not options(game).crew_served:
            raise ValueError("crew-served weapons are off in this game")
        raise ValueError("a crew-served weapon's arc comes with setting it up (Crew-served weapon, L380)")
    if prof.kind == "trooper" and st0.active and key != st0.active:
        raise ValueError("the arc is set with the active weapon (L251)")
    arc = CAT.arcs[inp.size]
    st = _spend(game, s, u, arc.ap, False)
    combat_action(game, st, unit.name)
    shots = -1 if w.shots == 0 else arc.shots * (w.shots or 1)
    if prof.kind == "power_armor":  # one arc per weapon (L895)
        st.arcs = [a for a in st.arcs if a.weapon != key]
    else:  # an ordinary trooper has one arc, for its active weapon (AMB-18)
        st.arcs = []
    st.arcs.append(ArcState(weapon=key, size=int(inp.size), shots=shots))
    st.active = st.active or key
    work = Working(game)
    work.state(s, u).extra = st.model_dump(mode="json")
    many = "unlimited shots" if shots == -1 else f"{shots} shot{'s' if shots != 1 else ''}"
    return ActionResult(
        changes=work.changes(),
        text=f"{unit.name} sets a {inp.size}° arc with {w.name}: {many} ({arc.ap} AP)",
    )


def _free_arc(game: Game, s: int, u: int, key: str, size: str) -> ActionResult:
    """After it moves, a vehicle's mounted weapons may each set a 30° (2 AP) arc for nothing (L807,
    AMB-52); its driver fires them."""
    unit = game.sides[s].units[u]
    st = SkUnit.of(unit)
    if driver(game, f"{s}/{unit.key}") is None:
        raise ValueError(f"no one rides {unit.name} to fire its weapons (L799)")
    if not st.mode:
        raise ValueError(f"{unit.name} sets its free arc after it moves this turn (L807)")
    if size != "30":
        raise ValueError("a vehicle's free arc is the 30° one (2 AP, L807)")
    if any(a.weapon == key for a in st.arcs):
        raise ValueError("that weapon already has its arc")
    w = WEAPONS[key]
    shots = -1 if w.shots == 0 else CAT.arcs["30"].shots * (w.shots or 1)
    st.arcs.append(ArcState(weapon=key, size=30, shots=shots))
    st.free_arc = True
    work = Working(game)
    work.state(s, u).extra = st.model_dump(mode="json")
    many = "unlimited shots" if shots == -1 else f"{shots} shot{'s' if shots != 1 else ''}"
    return ActionResult(
        changes=work.changes(), text=f"{unit.name} sets a free 30° arc with {w.name}: {many} (0 AP, L807)"
    )


def phase_view(game: Game) -> PhaseView:
    """Who goes first, then each side's turn: activations, explosives, the turn passes (L71-L84)."""
    s = game.state.active_side
    name = game.sides[s].name if s is not None else "the side in turn"
    waiting = SkGame.model_validate(game.state.extra).explosives
    mine = [e for e in waiting if s is not None and game.unit(e.attacker)[0] == s]
    pending = bool(mine)
    steps = [
        PhaseStep(
            key="first",
            label="Who goes first",
            action="first_side",
            sheet=True,
            hint="Pick the side that goes first, or let a die decide (L73).",
        ),
        PhaseStep(
            key="activate",
            label="Activations",
            action="end_turn",
            hint=f"{name}: each unit moves, then may set an arc, fire, fight or throw (L77-L78). "
            "Enemy arcs may fire as it enters them.",
        ),
        PhaseStep(
            key="end",
            label="End of turn",
            action="explode" if pending else "end_turn",
            input={"unit": mine[0].attacker} if mine else {},
            sheet=pending,
            hint=f"{name}'s explosives go off, then the other side activates (L79-L84).",
        ),
    ]
    if mine:  # which goes off next, so the player knows what Resolve explosive rolls for
        more = f"; {len(mine) - 1} more (resolve any first from its unit's card)" if len(mine) > 1 else ""
        e = mine[0]
        what = f"{game.unit(e.attacker)[2].name}'s {WEAPONS[e.weapon].name} at {e.label or 'the aimed dot'}"
        steps[2].hint += f" Next: {what}, TN {e.tn}{more}."
    current = 0 if s is None else (2 if pending else 1)
    g = SkGame.model_validate(game.state.extra)
    if g.clouds:
        steps[1].hint += " On the table: " + "; ".join(describe(c, g, options(game)) for c in g.clouds) + "."
    return PhaseView(steps=steps, current=current, round_button=False)


class Jet(Closed):
    """Fly with a jet pack: 6 to 16 dots, once a turn, outdoors; 3 AP, nothing in power armor
    (L587, L881); up or down a level every 3 dots (L589).  Enemy arcs it crosses may fire (L596)."""

    unit: str = own_unit("Who flies.")
    dots: int = Field(
        default=6,
        ge=6,
        le=16,
        description="Dots flown, 6 to 16 (L587).",
        json_schema_extra={"flow": "common"},
    )


def jet(game: Game, inp: Jet, dice: DiceSource) -> ActionResult:
    s, u = _acting(game, inp.unit)
    unit = game.sides[s].units[u]
    prof = soldier(unit)
    if not options(game).jet_packs:
        raise ValueError("jet packs are off in this game")
    if not has_jet_pack(prof) or "jet_pack_lost" in unit.state.conditions:
        raise ValueError(f"{unit.name} has no working jet pack")
    if SkUnit.of(unit).jet_used:
        raise ValueError("a jet pack is used once a turn (L587)")
    cost = 0 if prof.kind == "power_armor" else 3
    st = _spend(game, s, u, cost, True)
    st.jet_used = True
    st.shot_by, st.dots = [], inp.dots  # an arc may fire once for each dot it flies over (AMB-42)
    work = Working(game)
    state = work.state(s, u)
    state.extra = st.model_dump(mode="json")
    state.conditions = [c for c in state.conditions if c not in ("flying", "prone")] + ["flying"]
    return ActionResult(
        changes=work.changes(),
        text=f"{unit.name} flies {inp.dots} dots ({cost} AP), up or down {inp.dots // 3} levels at most; "
        "+2 to shots at it while it flies",
        offers=arc_offers(work.game, inp.unit),
    )


class Disable(Closed):
    """A starred cell of a power-armor card was crossed: the opponent picks a weapon it loses (L845)."""

    unit: str = own_unit("The power-armor trooper.")
    weapon: str = Field(
        default="", max_length=40, description="The weapon disabled.", json_schema_extra={"flow": "pick"}
    )


def disable_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    _, _, unit = game.unit(actor)
    st = SkUnit.of(unit)
    keys = [k for k in dict.fromkeys(carried(soldier(unit))) if not WEAPONS[k].always]
    return {
        "weapon": [
            FieldPick(
                value=k, label=WEAPONS[k].name, unavailable="already disabled" if k in st.disabled else ""
            )
            for k in keys
        ]
    }


def stars_need(game: Game, ref: str) -> str:
    """Disable a weapon is offered on power armor with a starred cell crossed for each weapon to
    disable (L845)."""
    unit = game.unit(ref)[2]
    if soldier(unit).kind != "power_armor":
        return f"{unit.name} is not in power armor: only its card has starred cells (L845)"
    st = SkUnit.of(unit)
    stars = sum(1 for i in TRACKS["power_armor"].stars if st.cells[i] == 2)
    if not stars:
        return f"no starred cell of {unit.name}'s card is crossed out yet (L845)"
    if len(st.disabled) >= stars:
        return f"a weapon is disabled for each starred cell crossed out ({stars})"
    return ""


def disable(game: Game, inp: Disable, dice: DiceSource) -> ActionResult:
    s, u, unit = game.unit(inp.unit)
    prof = soldier(unit)
    if prof.kind != "power_armor":
        raise ValueError("only power armor has starred cells (L845)")
    st = SkUnit.of(unit)
    stars = sum(1 for i in TRACKS["power_armor"].stars if st.cells[i] == 2)
    if len(st.disabled) >= stars:
        raise ValueError(f"{stars} starred cells crossed: no weapon to disable now")
    if inp.weapon not in carried(prof) or inp.weapon in st.disabled or WEAPONS[inp.weapon].always:
        raise ValueError("pick one of its weapons still working")
    st.disabled.append(inp.weapon)
    st.arcs = [a for a in st.arcs if a.weapon != inp.weapon]
    work = Working(game)
    work.state(s, u).extra = st.model_dump(mode="json")
    return ActionResult(
        changes=work.changes(), text=f"{unit.name}'s {WEAPONS[inp.weapon].name} is disabled (L845)"
    )
