"""Vehicles in play (L609-L807): riders, movement modes and segments, control checks, wipe-outs, rams.

A trooper mounts a vehicle (2 AP) and switches it on (1 AP, L674-L680); the trooper who mounts an
empty vehicle drives it, anyone after that rides as a passenger of a larger vehicle (an assault
vehicle, L803).  The driver pays every AP the vehicle spends, and those count toward the 8 AP of
movement a turn (L684).

Each turn the driver drives in segments (:class:`Drive`): the first fixes the movement mode, which
the vehicle's HP column and the driver's AP must both allow (L684-L691, L644).  A start is 1 AP,
a segment of movement 1 AP, a stop 2 AP (L693-L700); each moves the vehicle its speed multiplier
in dots, and enemy arcs may fire once for each such segment the vehicle starts or ends in them
(L730-L734).  Turns of 120° and 180° cost 1 and 2 AP and a control check (L702-L718); a stop from
cruise or max a control check (L720-L728).  A failed check wipes the vehicle out (L744-L759).

The app does not see the map: the players say where the vehicle goes and whether a segment starts
or ends in an arc (digest AMB-17).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game, GameUnit
from core.pool import table
from core.systems.base import ActionOdds, ActionResult, Closed, FieldPick, Offer, enemy_unit, needs, own_unit
from core.systems.skirmishers.catalogue import CAT, WEAPONS
from core.systems.skirmishers.checks import CONTROL_TN, TWO_D6
from core.systems.skirmishers.common import attacks_left, card_of, max_ap, mod, soldier, track
from core.systems.skirmishers.damage import after_hits
from core.systems.skirmishers.state import SkUnit
from core.systems.skirmishers.walk import Card, Hit, burst_dist, roll_marks

#: AP each movement mode spends, at least and at most (L686-L691).
MODE_AP: dict[str, tuple[int, int]] = {"min": (1, 1), "cruise": (2, 4), "max": (5, 8)}
MODE_NAMES: dict[str, str] = {"min": "Minimum", "cruise": "Cruise", "max": "Max"}
MODE_LABELS: dict[str, Any] = dict(MODE_NAMES)
_RANK = {"none": 0, "min": 1, "cruise": 2, "max": 3}
#: Lethal damage to vehicle and rider when a skid ends without hitting anything (L752-L757) and
#: the ram damage by mode, also what a skid into an obstacle deals (L759, L781-L786).
WIPE_X = {"min": 0, "cruise": 1, "max": 2}
RAM_X = {"min": 1, "cruise": 3, "max": 5}
#: The skid, in AP of movement: none in minimum mode (the book gives none), 1 cruise, 2 max (L748).
SKID_AP = {"min": 0, "cruise": 1, "max": 2}
#: A step of driving: its AP (L697-L709) and the control check it calls for (L713-L728).
STEP_AP = {"start": 1, "move": 1, "turn60": 0, "turn120": 1, "turn180": 2,
           "stop": 2, "stop60": 2, "stop120": 3, "stop180": 4}  # fmt: skip
STEP_LABELS: dict[str, Any] = {
    "start": "Start (1 AP)",
    "move": "Move on (1 AP)",
    "turn60": "Turn 60° (0 AP)",
    "turn120": "Turn 120° (1 AP, check)",
    "turn180": "Turn 180° (2 AP, check)",
    "stop": "Stop (2 AP)",
    "stop60": "Stop, 60° turn (2 AP)",
    "stop120": "Stop, 120° turn (3 AP)",
    "stop180": "Stop, 180° turn (4 AP)",
}


def skid_dots(vehicle: str, mode: str) -> int:
    """Dots a wiped-out vehicle skids: the dots of 1 AP of movement in cruise, 2 in max (L748-L750)."""
    return SKID_AP[mode] * CAT.vehicles[vehicle].speed


def ref_of(game: Game, s: int, u: int) -> str:
    return f"{s}/{game.sides[s].units[u].key}"


def riders(game: Game, vref: str) -> list[tuple[int, int, GameUnit]]:
    """Who is on the vehicle, the driver first."""
    vs = game.unit(vref)[0]
    out = [
        (vs, i, g)
        for i, g in enumerate(game.sides[vs].units)
        if not g.state.destroyed and SkUnit.of(g).riding == vref
    ]
    return sorted(out, key=lambda t: not SkUnit.of(t[2]).driver)


def driver(game: Game, vref: str) -> tuple[int, int, GameUnit] | None:
    on = riders(game, vref)
    return on[0] if on and SkUnit.of(on[0][2]).driver else None


def best_mode(unit: GameUnit) -> str:
    """The best movement mode the vehicle's HP column allows (L644)."""
    return track(unit).modes[min(track(unit).column(tuple(SkUnit.of(unit).cells)), track(unit).cells)]


# --- what the gated inputs need (RuleSystem.requirements) ---------------------------------------


def _is_vehicle(game: Game, ref: str) -> str:
    unit = game.unit(ref)[2]
    return "" if soldier(unit).kind == "vehicle" else f"{unit.name} is not a vehicle"


def _not_vehicle(game: Game, ref: str) -> str:
    """A trooper's own action (move on foot, stance, melee, throw, change weapon, terrain): a vehicle
    moves by its driver's Drive (L684) and fires its mounted weapons (L799)."""
    unit = game.unit(ref)[2]
    if soldier(unit).kind == "vehicle":
        return f"{unit.name} is a vehicle: its driver moves it with Drive and fires its weapons"
    return ""


def need_driver(game: Game, ref: str) -> str:
    """A vehicle with a driver who still has AP to spend (the vehicle acts on its driver's AP)."""
    why = _is_vehicle(game, ref)
    if why:
        return why
    unit = game.unit(ref)[2]
    d = driver(game, ref)
    if d is None:
        return f"no one drives {unit.name}: a trooper mounts it first (2 AP, L679)"
    left = max_ap(game, d[2]) - SkUnit.of(d[2]).ap_spent
    if left <= 0 or "stopped" in d[2].state.conditions:
        return f"its driver {d[2].name} has no AP left"
    return ""


def need_mode(mode: str) -> Any:
    def check(game: Game, ref: str) -> str:
        why = _is_vehicle(game, ref)
        if why:
            return why
        unit = game.unit(ref)[2]
        if SkUnit.of(unit).mode:
            return ""  # the turn's first segment fixed the mode; the field is not read again
        best = best_mode(unit)
        if _RANK[best] < _RANK[mode]:
            return f"{unit.name}'s damage allows {MODE_NAMES.get(best, 'no movement')} at best (L644)"
        d = driver(game, ref)
        if d is not None:
            st = SkUnit.of(d[2])
            left = min(max_ap(game, d[2]) - st.ap_spent, 8 - st.ap_moved)
            if SkUnit.of(unit).mode != mode and left < MODE_AP[mode][0]:
                return (
                    f"{MODE_NAMES[mode]} needs {MODE_AP[mode][0]} AP; {d[2].name} has {max(left, 0)} (L684)"
                )
        return ""

    return check


def need_rider_kind(game: Game, ref: str) -> str:
    unit = game.unit(ref)[2]
    return f"{unit.name} is a vehicle" if soldier(unit).kind == "vehicle" else ""


REQUIREMENTS: dict[str, Any] = {
    "vehicle": _is_vehicle,
    "not_vehicle": _not_vehicle,
    "driven": need_driver,
    "mode_cruise": need_mode("cruise"),
    "mode_max": need_mode("max"),
    "on_foot": need_rider_kind,
}


# --- wipe-out ----------------------------------------------------------------------------------


def wipe_out(game: Game, work: Working, vref: str, mode: str, turning: bool) -> tuple[str, list[Offer]]:
    """The vehicle wipes out (L744-L759): set back a turn by 60°, skid, end prone; then the damage,
    which the players apply once they see where the skid ends (the offers)."""
    game = work.game
    vs, vu, v = game.unit(vref)
    st = SkUnit.of(v)
    st.moving = False
    state = work.state(vs, vu)
    state.conditions = [*[c for c in state.conditions if c != "prone"], "prone"]
    mode = mode or "min"
    dots = skid_dots(soldier(v).vehicle, mode)
    back = "set its rear as for a turn 60° shallower, then " if turning else ""
    text = (
        f"{v.name} wipes out: {back}it skids {dots} dot{'s' if dots != 1 else ''} and ends on its side (L748)"
    )
    on = riders(game, vref)
    offers: list[Offer] = []
    if WIPE_X[mode]:  # the damage once the players see where the skid ends (L757-L759)
        st.skid = "max" if mode == "max" else "cruise"
        offers.append(Offer(action="wipe_damage", input={"vehicle": vref}, label="Mark the wipe-out damage"))
    state.extra = st.model_dump(mode="json")
    for s, u, _g in on:
        conds = [c for c in work.state(s, u).conditions if c != "under_vehicle"]
        work.state(s, u).conditions = [*conds, "under_vehicle"]
    return text, offers


def control_tn(game: Game, vref: str, why: str) -> tuple[int, str]:
    """A control check's TN: the table's, the vehicle's and the driver's damage, handling (L711, AMB-49)."""
    v = game.unit(vref)[2]
    base, what = CONTROL_TN[why]
    d = driver(game, vref)
    dmod = (mod(d[2]) or 0) if d else 0
    vmod = mod(v) or 0
    handling = CAT.vehicles[soldier(v).vehicle].handling
    terms = [f"{what.split(' (')[0]} {base}"] + [
        f"{n} +{x}"
        for n, x in (("vehicle damage", vmod), ("driver damage", dmod), ("handling", handling))
        if x
    ]
    tn = base + vmod + dmod + handling
    return tn, f"TN {tn} ({', '.join(terms)})"


# --- riding ------------------------------------------------------------------------------------


class Ride(Closed):
    """A trooper and a vehicle: mount or dismount (2 AP), switch on or off (1 AP) (L676-L682); crawl out
    from under a wiped-out vehicle or lift it upright (3 AP each, L765-L771)."""

    unit: str = own_unit("The trooper.")
    what: Literal["mount", "dismount", "switch_on", "switch_off", "crawl_out", "lift"] = Field(
        default="mount",
        description="What the trooper does.",
        json_schema_extra={
            "flow": "choice",
            "x-labels": {
                "mount": "Mount (2 AP)",
                "dismount": "Dismount (2 AP)",
                "switch_on": "Switch on (1 AP)",
                "switch_off": "Switch off (1 AP)",
                "crawl_out": "Crawl out from under it (3 AP)",
                "lift": "Lift it upright (3 AP)",
            },
        },
    )
    vehicle: str = Field(
        default="", max_length=40, description="The vehicle.", json_schema_extra={"flow": "pick"}
    )
    prone: bool = Field(default=False, description="Crawling out: end prone rather than standing (L769).")


RIDE_AP = {"mount": 2, "dismount": 2, "switch_on": 1, "switch_off": 1, "crawl_out": 3, "lift": 3}


def ride_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    s = game.unit(actor)[0]
    out = []
    for u, g in enumerate(game.sides[s].units):
        if soldier(g).kind != "vehicle":
            continue
        ref = ref_of(game, s, u)
        why = "destroyed" if g.state.destroyed else ""
        if not why and driver(game, ref) and soldier(g).vehicle != "assault":
            why = f"{driver(game, ref)[2].name} is on it"  # type: ignore[index]
        out.append(FieldPick(value=ref, label=g.name, unavailable=why))
    return {"vehicle": out}


def ride(game: Game, inp: Ride, dice: DiceSource) -> ActionResult:
    from core.systems.skirmishers.turn import _acting, _spend

    s, u = _acting(game, inp.unit, under_ok=inp.what == "crawl_out")
    unit = game.sides[s].units[u]
    if soldier(unit).kind == "vehicle":
        raise ValueError(f"{unit.name} is a vehicle")
    st0 = SkUnit.of(unit)
    vref = st0.riding if inp.what not in ("mount", "lift") else inp.vehicle
    if not vref:
        raise ValueError(f"{unit.name} is on no vehicle")
    vs, vu, v = game.unit(vref)
    if vs != s or soldier(v).kind != "vehicle":
        raise ValueError("pick one of the side's vehicles")
    if v.state.destroyed:
        raise ValueError(f"{v.name} is destroyed")
    vst = SkUnit.of(v)
    under = "under_vehicle" in unit.state.conditions
    if inp.what == "mount":
        if st0.riding:
            raise ValueError(f"{unit.name} is already on a vehicle")
        if "prone" in v.state.conditions:
            raise ValueError(f"{v.name} is on its side: lift it first (L769)")
        if driver(game, vref) and soldier(v).vehicle != "assault":
            raise ValueError(f"{v.name} carries one trooper; passengers ride larger vehicles (L803)")
    elif inp.what == "lift":
        if "prone" not in v.state.conditions:
            raise ValueError(f"{v.name} is upright")
        if "prone" in unit.state.conditions or under:
            raise ValueError("a trooper must be standing to lift the vehicle (L769)")
    elif inp.what == "crawl_out":
        if not under:
            raise ValueError(f"{unit.name} is not under a vehicle")
    elif under:
        raise ValueError(f"{unit.name} must crawl out from under {v.name} first (L765)")
    elif inp.what in ("switch_on", "switch_off"):
        if not st0.driver:
            raise ValueError("the driver switches it on or off")
        if vst.engine == (inp.what == "switch_on"):
            raise ValueError(f"{v.name} is already {'on' if vst.engine else 'off'}")
        if inp.what == "switch_off" and vst.moving:
            raise ValueError(f"stop {v.name} first (L697)")
    elif inp.what == "dismount" and st0.driver and vst.moving:
        raise ValueError(f"stop {v.name} before dismounting (L697)")
    st = _spend(game, s, u, RIDE_AP[inp.what], False)
    work = Working(game)
    state = work.state(s, u)
    text = f"{unit.name} "
    if inp.what == "mount":
        st.riding, st.driver = vref, driver(game, vref) is None
        text += f"mounts {v.name}" + (" as its driver" if st.driver else " as a passenger (L803)")
    elif inp.what in ("dismount", "crawl_out"):
        st.riding, st.driver = "", False
        conds = [c for c in state.conditions if c not in ("under_vehicle", "prone")]
        state.conditions = [*conds, "prone"] if inp.prone or "prone" in state.conditions else conds
        text += "crawls out from under " if inp.what == "crawl_out" else "dismounts "
        text += v.name
    elif inp.what == "lift":
        state_v = work.state(vs, vu)
        state_v.conditions = [c for c in state_v.conditions if c != "prone"]
        text += f"lifts {v.name} upright"
    else:
        vst.engine = inp.what == "switch_on"
        work.state(vs, vu).extra = vst.model_dump(mode="json")
        text += f"switches {v.name} {'on' if vst.engine else 'off'}"
    state.extra = st.model_dump(mode="json")
    return ActionResult(changes=work.changes(), text=f"{text} ({RIDE_AP[inp.what]} AP)")


# --- driving -----------------------------------------------------------------------------------


class Drive(Closed):
    """One segment of a vehicle's movement, paid from its driver's AP (L684-L728)."""

    vehicle: str = own_unit("The vehicle.")
    step: Literal["start", "move", "turn60", "turn120", "turn180", "stop", "stop60", "stop120", "stop180"] = (
        Field(
            default="move",
            description="Start from a stop 1 AP, a segment of movement 1 AP, stop 2 AP; turns 0/1/2 AP. Each "
            "AP moves it its speed in dots (L693-L709).",
            json_schema_extra={"flow": "choice", "x-labels": STEP_LABELS},
        )
    )
    mode: Literal["min", "cruise", "max"] = Field(
        default="cruise",
        description="The movement mode for this turn: Minimum exactly 1 AP, Cruise 2-4, Max 5-8 (L686-L691); "
        "set by the turn's first segment.",
        json_schema_extra={
            "flow": "common",
            "x-labels": MODE_LABELS,
            "needs": needs("mode_cruise", values=["cruise"])["needs"]
            + needs("mode_max", values=["max"])["needs"],
            # a stop is checked in Cruise and Max alike, and Minimum's 1 AP cannot pay a stop's 2 (L689,
            # L693-L709): the mode bounds the AP and names a failure's skid, never a check's chance
            "same_odds": "it bounds the turn's AP and names a failure's skid; a check's chance is the same",
        },
    )


def _check_for(step: str, mode: str) -> str:
    if step in ("turn120", "turn180"):
        return step
    if step.startswith("stop") and mode in ("cruise", "max"):
        return "stop" if step == "stop" else step
    return ""


def _drive_plan(game: Game, inp: Drive) -> tuple[int, int, GameUnit, tuple[int, int, GameUnit], str, str]:
    from core.systems.skirmishers.turn import _acting

    vs, vu = _acting(game, inp.vehicle)
    v = game.sides[vs].units[vu]
    for key in ("driven", "vehicle"):
        why = REQUIREMENTS[key](game, inp.vehicle)
        if why:
            raise ValueError(why)
    if inp.mode == "max" and (why := REQUIREMENTS["mode_max"](game, inp.vehicle)):
        raise ValueError(why)
    d = driver(game, inp.vehicle)
    assert d is not None
    vst = SkUnit.of(v)
    if "prone" in v.state.conditions:
        raise ValueError(f"{v.name} is on its side: lift it upright first (L769)")
    if not vst.engine:
        raise ValueError(f"switch {v.name} on first (1 AP, L680)")
    mode = vst.mode or inp.mode  # the turn's first segment fixes it (L684)
    if _RANK[best_mode(v)] < _RANK[mode]:
        raise ValueError(
            f"{v.name}'s damage allows {MODE_NAMES.get(best_mode(v), 'no movement')} at best (L644)"
        )
    if inp.step == "start" and vst.moving:
        raise ValueError(f"{v.name} is already moving")
    if inp.step != "start" and not vst.moving:
        raise ValueError(f"{v.name} is at a full stop: start it first (1 AP, L697)")
    if inp.step.startswith("turn") and mode == "min" and inp.step != "turn60":
        raise ValueError("only a 60° turn fits the minimum mode (L706)")
    ap = STEP_AP[inp.step]
    top = MODE_AP[mode][1]
    if vst.vap + ap > top:
        raise ValueError(
            f"{MODE_NAMES[mode]} mode spends at most {top} AP a turn; {v.name} has spent {vst.vap} (L689)"
        )
    return vs, vu, v, d, mode, _check_for(inp.step, mode)


def drive(game: Game, inp: Drive, dice: DiceSource) -> ActionResult:
    from core.systems.skirmishers.turn import _spend

    vs, vu, v, (ds, du, _), mode, check = _drive_plan(game, inp)
    ap = STEP_AP[inp.step]
    dst = _spend(game, ds, du, ap, True)
    vst = SkUnit.of(v)
    vst.mode = "min" if mode == "min" else "cruise" if mode == "cruise" else "max"
    vst.vap += ap
    speed = CAT.vehicles[soldier(v).vehicle].speed
    dots = speed * (1 if inp.step in ("start", "move") else (2 if inp.step.startswith("stop") else 0))
    if inp.step == "start":
        vst.moving = True
    if dots:  # a new segment: each enemy firer may attack the vehicle or its rider once an AP of it (L734)
        vst.shot_by, vst.dots = [], dots // speed
    work = Working(game)
    work.state(ds, du).extra = dst.model_dump(mode="json")
    text = f"{v.name} ({MODE_NAMES[mode]}): {STEP_LABELS[inp.step].split(' (')[0].lower()}"
    text += f", {dots} dots" if dots else ""
    text += f"; {vst.vap} of {MODE_AP[mode][0]}-{MODE_AP[mode][1]} AP spent" if mode != "min" else ""
    offers: list[Offer] = []
    detail: dict[str, Any] = {}
    ok = True
    if check:
        tn, tn_text = control_tn(game, inp.vehicle, check)
        roll = TWO_D6.roll(dice, "control check")
        ok = roll.total >= tn
        detail["roll"] = roll.faces
        text += f"; control check {tn_text}: rolled {roll.total}, " + ("in control" if ok else "fails")
    if inp.step.startswith("stop") and ok:
        vst.moving = False
    work.state(vs, vu).extra = vst.model_dump(mode="json")
    if not ok:
        more, offers = wipe_out(
            game, work, inp.vehicle, mode, inp.step in ("turn120", "turn180", "stop120", "stop180")
        )
        text += f"; {more}"
    elif dots:
        offers = segment_offers(work.game, inp.vehicle)
    return ActionResult(changes=work.changes(), text=text, detail=detail, offers=offers[:12])


def drive_odds(game: Game, inp: Drive) -> ActionOdds:
    check = _drive_plan(game, inp)[5]
    if not check:
        return ActionOdds(tables={}, facts={"pass": 1.0}, summary="no control check")
    tn, text = control_tn(game, inp.vehicle, check)
    passed = TWO_D6.dist().map(lambda t: int(t >= tn))
    return ActionOdds(
        tables={"passes": table(passed)}, facts={"pass": float(TWO_D6.at_least(tn))}, summary=text
    )


def segment_offers(game: Game, vref: str) -> list[Offer]:
    """Reaction fire at a vehicle's segment: an enemy arc may fire if the segment starts or ends in it,
    at the vehicle or its rider, once a segment (L730-L734)."""
    vs = game.unit(vref)[0]
    v = game.unit(vref)[2]
    d = driver(game, vref)
    out = []
    for es, side in enumerate(game.sides):
        if es == vs:
            continue
        for enemy in side.units:
            if enemy.state.destroyed or mod(enemy) is None:
                continue
            arc = next((a for a in SkUnit.of(enemy).arcs if a.shots != 0), None)
            if arc is None:
                continue
            shooter = f"{es}/{enemy.key}"
            if attacks_left(game, shooter, vref) == 0:
                continue  # it has attacked the pair in this segment already (L734)
            targets = [(vref, v.name)] + ([(ref_of(game, d[0], d[1]), d[2].name)] if d else [])
            for ref, who in targets:
                out.append(
                    Offer(
                        action="fire",
                        input={"shooter": shooter, "target": ref, "weapon": arc.weapon},
                        label=f"Segment starts or ends in {enemy.name}'s arc? It fires at {who}",
                    )
                )
    return out[:12]


def end_of_turn(game: Game, work: Working, side: int) -> tuple[str, list[Offer]]:
    """A moving vehicle of the side ending its turn must have spent its mode's least AP (L684): the
    driver who still could is told to; one who cannot (damage) wipes the vehicle out (L684, L744)."""
    notes, offers = [], []
    for u, v in enumerate(game.sides[side].units):
        st = SkUnit.of(v)
        if soldier(v).kind != "vehicle" or v.state.destroyed or not st.mode or st.vap >= MODE_AP[st.mode][0]:
            continue
        vref = ref_of(game, side, u)
        d = driver(game, vref)
        short = MODE_AP[st.mode][0] - st.vap
        if d is not None and st.moving:
            left = min(max_ap(game, d[2]) - SkUnit.of(d[2]).ap_spent, 8 - SkUnit.of(d[2]).ap_moved)
            if (
                left >= short
                and "stopped" not in d[2].state.conditions
                and _RANK[best_mode(v)] >= _RANK[st.mode]
            ):
                raise ValueError(
                    f"{v.name} must spend {short} more AP in {MODE_NAMES[st.mode]} mode (L684-L691)"
                )
        if st.moving:
            text, more = wipe_out(game, work, vref, st.mode, False)
            notes.append(text)
            offers += more
    return "; ".join(notes), offers


def vehicle_damage_note(game: Game, work: Working, s: int, u: int) -> tuple[str, list[Offer]]:
    """Damage during movement: a vehicle whose mode its HP no longer allows wipes out, as does one whose
    driver dies (L736, L746)."""
    unit = game.sides[s].units[u]
    prof = soldier(unit)
    if prof.kind == "vehicle":
        st = SkUnit.of(work.game.sides[s].units[u])
        if st.moving and st.mode and _RANK[best_mode(work.game.sides[s].units[u])] < _RANK[st.mode]:
            return wipe_out(work.game, work, ref_of(game, s, u), st.mode, False)
        return "", []
    st = SkUnit.of(unit)
    if st.riding and st.driver and work.game.sides[s].units[u].state.destroyed:
        v = game.unit(st.riding)[2]
        vst = SkUnit.of(v)
        if vst.moving:
            return wipe_out(game, work, st.riding, vst.mode, False)
    return "", []


# --- ramming -----------------------------------------------------------------------------------


class Ram(Closed):
    """Ram an enemy next to the vehicle's front dot: no roll to hit; 1X/3X/5X by mode to the target, the
    same to the rammer if its armor is gone, then a control check at 6 (L775-L786)."""

    vehicle: str = own_unit("The ramming vehicle.")
    target: str = enemy_unit("What it rams (a vehicle, never its rider, L777).")


def _ram_plan(game: Game, inp: Ram) -> tuple[int, int, GameUnit, str, int, int, GameUnit]:
    now = SkUnit.of(game.unit(inp.vehicle)[2]).mode or "min"
    vs, vu, v, _, mode, _ = _drive_plan(game, Drive(vehicle=inp.vehicle, step="turn60", mode=now))
    ts, tu, target = game.unit(inp.target)
    if ts == vs:
        raise ValueError("a vehicle rams the other side's units")
    if target.state.destroyed:
        raise ValueError(f"{target.name} is already out")
    if SkUnit.of(target).riding:
        raise ValueError("a trooper on a vehicle cannot be rammed; ram the vehicle (L777)")
    if not SkUnit.of(v).mode:
        raise ValueError(f"{v.name} rams during its movement: drive it first (L773)")
    return vs, vu, v, mode, ts, tu, target


def ram(game: Game, inp: Ram, dice: DiceSource) -> ActionResult:
    vs, vu, v, mode, ts, tu, target = _ram_plan(game, inp)
    x = RAM_X[mode]
    work = Working(game)
    r = roll_marks(track(target), card_of(target), Hit(lethal=x, blunt=0), dice)
    notes = [f"{target.name}: {after_hits(game, work, ts, tu, r.card) or 'no change'}"]
    detail: dict[str, Any] = {"cell": list(r.cell_faces or [])}
    if SkUnit.of(v).armor == 0:
        r2 = roll_marks(track(v), card_of(v), Hit(lethal=x, blunt=0), dice)
        notes.append(f"{v.name}, its armor gone: {after_hits(game, work, vs, vu, r2.card) or 'no change'}")
        detail["own_cell"] = list(r2.cell_faces or [])
    tn, tn_text = control_tn(game, inp.vehicle, "ram")
    roll = TWO_D6.roll(dice, "control check")
    detail["roll"] = roll.faces
    text = f"{v.name} rams {target.name} ({MODE_NAMES[mode]}, {x}X): " + "; ".join(notes)
    text += f"; control check {tn_text}: rolled {roll.total}"
    offers: list[Offer] = []
    if roll.total >= tn:
        text += ", in control"
    else:
        more, offers = wipe_out(work.game, work, inp.vehicle, mode, False)
        text += f", fails: {more}"
    return ActionResult(changes=work.changes(), text=text, detail=detail, offers=offers[:12])


def ram_odds(game: Game, inp: Ram) -> ActionOdds:
    _, _, _, mode, _, _, target = _ram_plan(game, inp)
    trk = track(target)
    c0: Card = card_of(target)
    start = trk.column(c0.cells)
    d = burst_dist(trk, c0, 2, Hit(lethal=RAM_X[mode], blunt=0), 1)
    tn, text = control_tn(game, inp.vehicle, "ram")
    return ActionOdds(
        tables={"damage": table(d.map(lambda c: trk.column(c.cells) - start))},
        facts={
            "dead": float(d.map(lambda c: int(trk.dead(c.cells))).probability(1)),
            "pass": float(TWO_D6.at_least(tn)),
        },
        summary=f"{RAM_X[mode]}X, no roll to hit; then {text}",
    )


def mounted(w_key: str) -> bool:
    return WEAPONS[w_key].group == "crew"


# --- melee from a vehicle ------------------------------------------------------------------------

#: Extra lethal damage a melee hit from a moving vehicle deals, by mode (L792-L797).
MELEE_X = {"min": 0, "cruise": 1, "max": 2}


class RideMelee(Closed):
    """A melee attack from a moving vehicle at an enemy next to its rear dot, with the active melee
    weapon: +2, extra lethal damage by mode, resolved at once; then a control check at 6 (L788-L797)."""

    unit: str = own_unit("The trooper on the vehicle.")
    target: str = enemy_unit("The enemy next to the rear dot.")
    weapon: str = Field(
        default="fists", max_length=40, description="The melee weapon.", json_schema_extra={"flow": "pick"}
    )


def need_riding(game: Game, ref: str) -> str:
    unit = game.unit(ref)[2]
    st = SkUnit.of(unit)
    if not st.riding:
        return f"{unit.name} is on no vehicle"
    v = game.unit(st.riding)[2]
    if not SkUnit.of(v).moving or not SkUnit.of(v).mode:
        return f"{v.name} is not moving this turn (L773)"
    return ""


REQUIREMENTS["riding_moving"] = need_riding


def _flying(game: Game, ref: str) -> str:
    from core.systems.skirmishers.explosives import need_flying

    return need_flying(game, ref)


REQUIREMENTS["flying"] = _flying


def _ride_melee_plan(game: Game, inp: RideMelee) -> tuple[int, int, str, str, int, str, Hit]:
    from core.systems.skirmishers.melee import _melee_tn, melee_weapons, melee_why
    from core.systems.skirmishers.state import PendingMelee
    from core.systems.skirmishers.turn import _acting

    s, u = _acting(game, inp.unit)
    unit = game.sides[s].units[u]
    if why := need_riding(game, inp.unit):
        raise ValueError(why)
    ts, _, target = game.unit(inp.target)
    if ts == s or target.state.destroyed:
        raise ValueError("melee is against a living enemy")
    if inp.weapon not in melee_weapons(unit):
        raise ValueError(f"{unit.name} has no such melee weapon")
    if why := melee_why(game, unit, inp.weapon):
        raise ValueError(why)
    vref = SkUnit.of(unit).riding
    mode = SkUnit.of(game.unit(vref)[2]).mode
    tn, text, hit = _melee_tn(game, PendingMelee(attacker=inp.unit, target=inp.target, weapon=inp.weapon))
    tn += 2
    text = text[:-1] + ", from a moving vehicle +2)"
    text = f"TN {tn}" + text[text.index(" (") :]
    return s, u, vref, mode, tn, text, Hit(lethal=hit.lethal + MELEE_X[mode], blunt=hit.blunt)


def ride_melee(game: Game, inp: RideMelee, dice: DiceSource) -> ActionResult:
    from core.systems.skirmishers.turn import _spend
    from core.systems.skirmishers.walk import roll_shot

    s, u, vref, mode, tn, text, hit = _ride_melee_plan(game, inp)
    unit = game.sides[s].units[u]
    ts, tu, target = game.unit(inp.target)
    st = _spend(game, s, u, 5, False)
    work = Working(game)
    work.state(s, u).extra = st.model_dump(mode="json")
    r = roll_shot(track(target), card_of(target), tn, hit, dice)
    notes = after_hits(game, work, ts, tu, r.card) if r.hit else ""
    out = f"hits ({hit.lethal}X with +{MELEE_X[mode]}X for {MODE_NAMES[mode]})" if r.hit else "misses"
    ctn, ctext = control_tn(work.game, vref, "melee")
    roll = TWO_D6.roll(dice, "control check")
    text = f"{unit.name} strikes {target.name} from {game.unit(vref)[2].name} ({text}): {out}"
    text += f"{', ' + notes if notes else ''}; control check {ctext}: rolled {roll.total}"
    offers: list[Offer] = []
    if roll.total >= ctn:
        text += ", in control"
    else:
        more, offers = wipe_out(work.game, work, vref, mode, False)
        text += f", fails: {more}"
    detail = {"to_hit": list(r.hit_faces), "cell": list(r.cell_faces or []), "roll": roll.faces}
    return ActionResult(changes=work.changes(), text=text, detail=detail, offers=offers[:12])


def ride_melee_odds(game: Game, inp: RideMelee) -> ActionOdds:
    from core.systems.skirmishers.fire import burst_odds

    _, _, vref, _, tn, text, hit = _ride_melee_plan(game, inp)
    target = game.unit(inp.target)[2]
    o = burst_odds(track(target), card_of(target), tn, hit, 1, text)
    ctn, ctext = control_tn(game, vref, "melee")
    o.facts["control_pass"] = float(TWO_D6.at_least(ctn))
    o.summary += f"; then control check {ctext}"
    return o


def ride_melee_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    from core.systems.skirmishers.melee import melee_weapons, melee_why

    unit = game.unit(actor)[2]
    return {
        "weapon": [
            FieldPick(
                value=k,
                label=WEAPONS[k].name,
                detail=WEAPONS[k].ring_text,
                unavailable=melee_why(game, unit, k),
            )
            for k in melee_weapons(unit)
        ]
    }


# --- the wipe-out's damage -------------------------------------------------------------------------


class WipeDamage(Closed):
    """The wipe-out's damage on the vehicle and everyone on it, from a 2D6 first cell each: 0/1/2X by
    mode when the skid ends clear, the ram's 1/3/5X when it hits an obstacle (L752-L759, AMB-46/47)."""

    vehicle: str = own_unit("The vehicle that wiped out.")
    skid: Literal["clear", "obstacle"] = Field(
        default="clear",
        description="Where the skid ended: in the clear, or against an obstacle or solid obstruction.",
        json_schema_extra={
            "flow": "choice",
            "x-labels": {"clear": "In the clear", "obstacle": "Hit something"},
        },
    )


def wipe_damage(game: Game, inp: WipeDamage, dice: DiceSource) -> ActionResult:
    vs, vu, v = game.unit(inp.vehicle)
    st = SkUnit.of(v)
    if soldier(v).kind != "vehicle" or not st.skid:
        raise ValueError(f"{v.name} has no wipe-out to mark")
    x = (WIPE_X if inp.skid == "clear" else RAM_X)[st.skid]
    work = Working(game)
    st.skid = ""
    work.state(vs, vu).extra = st.model_dump(mode="json")
    notes, cells = [], []
    for s, u, g in [(vs, vu, v), *riders(game, inp.vehicle)]:
        g = work.game.sides[s].units[u]
        r = roll_marks(track(g), card_of(g), Hit(lethal=x, blunt=0), dice)
        cells.append(list(r.cell_faces or []))
        notes.append(f"{g.name}: {after_hits(work.game, work, s, u, r.card) or 'no change'}")
    return ActionResult(
        changes=work.changes(), text=f"Wipe-out, {x}X each: " + "; ".join(notes), detail={"cells": cells}
    )
