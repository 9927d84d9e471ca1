"""Exchanging equipment (L247, L253) and fitting, removing and exchanging a jet pack (L600-L605).

* Taking a weapon from another trooper costs 6 AP (L247, L253): from a friend, or from any trooper
  who is dead or out of action.  It goes into the slot the card format gives it (primary or
  secondary, a grenade launcher under a rifle or SMG in the secondary slot, L417), which must be
  free: a trooper carries no more than its card allows (L253).  Rounds left go with the weapon.
* Dropping a weapon costs nothing; it lies where it fell, and any trooper, friend or enemy, may
  pick it up (L253).  The book gives no cost for picking it up: the app charges the 6 AP of taking
  gear, the one price the book gives for getting a weapon from elsewhere.
* Hand grenades are taken from another trooper the same way, as many of one kind as it holds and
  the taker has room for: 4 in all (L131), 8 with extra ammunition for them (L419).
* A jet pack is removed or fitted for 5 AP and taken from another trooper for 6 AP (L600-L605); a
  removed one lies on the ground like a dropped weapon.  Its -2 AP (L585) follows whoever wears it.
* A dropped or given-away active weapon leaves the trooper with its fists active: another weapon
  needs the 3 AP change (L251).  An arc set with a weapon that is gone is removed.

What a trooper carries in play is kept as changes to its card (``SkUnit.kit``), read through
:func:`core.systems.skirmishers.common.soldier`, so every rule reads the gear it has now; grenades
are counted as rounds (``SkUnit.ammo``).  Body armor and the sneak suit are not exchanged in the
app yet; power armor's weapons and jet pack are part of its suit (L855-L877) and vehicles carry
no gear.
"""

from __future__ import annotations

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game, GameUnit
from core.systems.base import ActionResult, Closed, FieldPick, own_unit
from core.systems.skirmishers.catalogue import WEAPONS
from core.systems.skirmishers.common import max_ap, mod, options, soldier
from core.systems.skirmishers.state import Dropped, SkGame, SkUnit
from core.systems.skirmishers.units import PRIMARY_KEYS, SECONDARY_KEYS, Soldier, has_jet_pack

TAKE_AP, JET_FIT_AP, JET_SWAP_AP = 6, 5, 6  # L247, L604, L605


class Gear(Closed):
    """Take a weapon from a trooper or off the ground (6 AP), drop one (0 AP), or remove, fit or take a
    jet pack (5/5/6 AP)."""

    unit: str = own_unit("Who takes or drops.")
    gear: str = Field(
        default="",
        max_length=60,
        description="What it takes or drops, and from whom.",
        json_schema_extra={"flow": "pick"},
    )


def _slot(taker: Soldier, key: str) -> str:
    """The slot a weapon takes on this trooper's card (L137, L180, L194, L415-L417)."""
    prim, sec = key in PRIMARY_KEYS, key in SECONDARY_KEYS
    if prim and sec:  # a grenade launcher: under a rifle or SMG, else a weapon of its own (L417)
        return "secondary" if taker.primary in ("rifle", "smg") and not taker.secondary else "primary"
    return "primary" if prim else "secondary"


def _fallen(unit: GameUnit) -> bool:
    return unit.state.destroyed or mod(unit) is None


def _giver_why(game: Game, actor: str, ref: str) -> str:
    """Why gear cannot be taken from this unit, or "": a friend, or anyone dead or out of action (L253)."""
    s, _, unit = game.unit(ref)
    if ref == actor:
        return "its own"
    if soldier(unit).kind != "trooper":
        return f"{unit.name} carries no gear to hand over"
    if s != game.unit(actor)[0] and not _fallen(unit):
        return f"{unit.name} is an enemy still fighting"
    return ""


def _giver(game: Game, actor: str, ref: str) -> tuple[int, int, GameUnit]:
    """The trooper gear is taken from (side, index, unit), refused in words when there is none or it
    may not give (:func:`_giver_why`)."""
    try:
        found = game.unit(ref)
    except ValueError:
        raise ValueError("no such trooper") from None
    if why := _giver_why(game, actor, ref):
        raise ValueError(why)
    return found


def _taker_why(game: Game, actor: str, key: str) -> str:
    unit = game.unit(actor)[2]
    me = soldier(unit)
    w = WEAPONS[key]
    if w.group == "pa":
        return f"{w.name} is a power-armor weapon (L867)"
    slot = _slot(me, key)
    held = me.primary if slot == "primary" else me.secondary
    if held:
        return f"carries a {slot} weapon already ({WEAPONS[held].name}): drop it first (0 AP, L253)"
    return ""


def _ap_why(game: Game, unit: GameUnit, ap: int) -> str:
    left = max_ap(game, unit) - SkUnit.of(unit).ap_spent
    return f"{ap} AP; {left} left" if ap > left else ""


def _jet_why(game: Game, unit: GameUnit) -> str:
    if not options(game).jet_packs:
        return "jet packs are off in this game"
    if "flying" in unit.state.conditions:
        return "not while it flies"
    return ""


GRENADES = ("hand_grenade", "smoke_grenade", "incendiary_grenade")


def _room(unit: GameUnit) -> int:
    """Hand grenades it may still carry: 4 of them (L131), doubled by extra ammunition for them (L419)."""
    st = SkUnit.of(unit)
    cap = 8 if soldier(unit).extra_ammo in GRENADES else 4
    return max(0, cap - sum(st.ammo.get(k, 0) for k in GRENADES))


def _grenade_kit(st: SkUnit) -> None:
    """Keep the card's grenade kinds in step with the grenades it holds (L131, L445): the kinds it
    has any of, the hand grenade always among them; how many is counted in its rounds."""
    st.kit.smoke_grenades = int(st.ammo.get("smoke_grenade", 0) > 0)
    st.kit.incendiary_grenades = int(st.ammo.get("incendiary_grenade", 0) > 0)


def gear_need(game: Game, ref: str) -> str:
    """Only a trooper exchanges gear: power armor's weapons and jet pack are its suit's (L855-L877)."""
    unit = game.unit(ref)[2]
    kind = soldier(unit).kind
    if kind == "power_armor":
        return f"{unit.name}'s weapons and jet pack are part of its suit (L855-L877)"
    if kind == "vehicle":
        return f"{unit.name} is a vehicle: its riders carry the gear"
    return ""


def jet_need(game: Game, ref: str) -> str:
    """The Jet pack action needs a working jet pack and the rule on (L583-L607, L847)."""
    unit = game.unit(ref)[2]
    if not options(game).jet_packs:
        return "jet packs are off in this game"
    if not has_jet_pack(soldier(unit)):
        return f"{unit.name} wears no jet pack"
    if "jet_pack_lost" in unit.state.conditions:
        return f"{unit.name}'s jet pack no longer works (L847)"
    return ""


def gear_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """Everything the trooper could take or drop now, greyed with the reason when it cannot."""
    s, _, unit = game.unit(actor)
    me = soldier(unit)
    if me.kind != "trooper":
        return {"gear": []}
    out: list[FieldPick] = []
    for key in (me.primary, me.secondary):
        if key:
            out.append(FieldPick(value=f"drop:{key}", label=f"Drop {WEAPONS[key].name}", detail="0 AP"))
    for os, side in enumerate(game.sides):
        for other in side.units:
            ref = f"{os}/{other.key}"
            if ref == actor or (os != s and not _fallen(other)) or soldier(other).kind != "trooper":
                continue
            them = soldier(other)
            for key in (them.primary, them.secondary):
                if key:
                    why = (
                        _giver_why(game, actor, ref)
                        or _taker_why(game, actor, key)
                        or _ap_why(game, unit, TAKE_AP)
                    )
                    why = why or _crew_why(other, key)
                    label = f"Take {WEAPONS[key].name} from {other.name}"
                    out.append(
                        FieldPick(value=f"take:{ref}:{key}", label=label, detail="6 AP", unavailable=why)
                    )
            for kind in GRENADES:
                have = SkUnit.of(other).ammo.get(kind, 0)
                if have > 0:
                    why = _giver_why(game, actor, ref) or _ap_why(game, unit, TAKE_AP)
                    if not why and not _room(unit):
                        why = "carries all the grenades it can (L131)"
                    label = f"Take {WEAPONS[kind].name} x{have} from {other.name}"
                    value = f"grenades:{ref}:{kind}"
                    out.append(FieldPick(value=value, label=label, detail="6 AP", unavailable=why))
            if has_jet_pack(them):
                why = _jet_why(game, unit) or ("wears one already" if has_jet_pack(me) else "")
                why = why or _ap_why(game, unit, JET_SWAP_AP)
                label = f"Take {other.name}'s jet pack"
                out.append(FieldPick(value=f"jet_take:{ref}", label=label, detail="6 AP", unavailable=why))
    for i, d in enumerate(SkGame.model_validate(game.state.extra).ground):
        if d.item == "jet_pack":
            why = _jet_why(game, unit) or ("wears one already" if has_jet_pack(me) else "")
            why = why or _ap_why(game, unit, JET_FIT_AP)
            label = f"Fit the jet pack {d.by} left"
            out.append(FieldPick(value=f"jet_on:{i}", label=label, detail="5 AP", unavailable=why))
        else:
            why = _taker_why(game, actor, d.item) or _ap_why(game, unit, TAKE_AP)
            label = f"Pick up {WEAPONS[d.item].name} {d.by} dropped"
            out.append(FieldPick(value=f"ground:{i}", label=label, detail="6 AP", unavailable=why))
    if has_jet_pack(me):
        why = _jet_why(game, unit) or _ap_why(game, unit, JET_FIT_AP)
        out.append(FieldPick(value="jet_off", label="Take off its jet pack", detail="5 AP", unavailable=why))
    return {"gear": out[:40]}


def _crew_why(unit: GameUnit, key: str) -> str:
    st = SkUnit.of(unit)
    if WEAPONS[key].group == "crew" and (st.set_up or st.crew_by):
        return f"{WEAPONS[key].name} is set up: take it over as a crew-served weapon instead (6 AP, L378)"
    return ""


def _lose(st: SkUnit, prof: Soldier, key: str) -> int:
    """Take weapon ``key`` off a card in play: its slot empties, its arcs go, fists become active if it
    was; returns the rounds it had left (-1 when it counts none)."""
    if prof.primary == key:
        st.kit.primary = ""
    else:
        st.kit.secondary = ""
    st.arcs = [a for a in st.arcs if a.weapon != key]
    if st.active == key:
        st.active = "fists"
    return st.ammo.pop(key, -1)


def _gain(st: SkUnit, prof: Soldier, key: str, rounds: int) -> None:
    if _slot(prof, key) == "primary":
        st.kit.primary = key
    else:
        st.kit.secondary = key
    if rounds >= 0:
        st.ammo[key] = rounds


def gear(game: Game, inp: Gear, dice: DiceSource) -> ActionResult:
    from core.systems.skirmishers.turn import _acting, _spend

    s, u = _acting(game, inp.unit)
    unit = game.sides[s].units[u]
    me = soldier(unit)
    if why := gear_need(game, inp.unit):
        raise ValueError(why)
    what, _, rest = inp.gear.partition(":")
    g = SkGame.model_validate(game.state.extra)
    work = Working(game)
    if what == "drop":
        if rest not in (me.primary, me.secondary) or not rest:
            raise ValueError(f"{unit.name} carries no such weapon")
        st = SkUnit.of(unit)
        rounds = _lose(st, me, rest)
        g.ground.append(Dropped(item=rest, by=unit.name, ammo=rounds))
        text = f"{unit.name} drops {WEAPONS[rest].name} (0 AP): anyone may pick it up (L253)"
    elif what == "take":
        ref, _, key = rest.rpartition(":")
        gs, gu, giver = _giver(game, inp.unit, ref)
        them = soldier(giver)
        if not key or key not in (them.primary, them.secondary):
            raise ValueError(f"{giver.name} carries no such weapon")
        if why := _taker_why(game, inp.unit, key) or _crew_why(giver, key):
            raise ValueError(why)
        st = _spend(game, s, u, TAKE_AP, False)
        gst = SkUnit.of(giver)
        rounds = _lose(gst, them, key)
        work.state(gs, gu).extra = gst.model_dump(mode="json")
        _gain(st, me, key, rounds)
        text = f"{unit.name} takes {WEAPONS[key].name} from {giver.name} (6 AP, L253)"
    elif what == "grenades":
        ref, _, kind = rest.rpartition(":")
        gs, gu, giver = _giver(game, inp.unit, ref)
        gst = SkUnit.of(giver)
        if kind not in GRENADES or gst.ammo.get(kind, 0) <= 0:
            raise ValueError(f"{giver.name} has no such grenade left")
        n = min(gst.ammo[kind], _room(unit))
        if n <= 0:
            raise ValueError(f"{unit.name} carries all the grenades it can (L131)")
        st = _spend(game, s, u, TAKE_AP, False)
        gst.ammo[kind] -= n
        st.ammo[kind] = st.ammo.get(kind, 0) + n
        _grenade_kit(gst)
        _grenade_kit(st)
        work.state(gs, gu).extra = gst.model_dump(mode="json")
        many = f"{n} {WEAPONS[kind].name}{'s' if n != 1 else ''}"
        text = f"{unit.name} takes {many} from {giver.name} (6 AP, L253)"
    elif what == "ground":
        i = _index(rest, g)
        d = g.ground[i]
        if d.item == "jet_pack":
            raise ValueError("a jet pack is fitted, not picked up (5 AP, L604)")
        if why := _taker_why(game, inp.unit, d.item):
            raise ValueError(why)
        st = _spend(game, s, u, TAKE_AP, False)
        _gain(st, me, d.item, d.ammo)
        del g.ground[i]
        text = f"{unit.name} picks up {WEAPONS[d.item].name} (6 AP; the book gives taking gear 6 AP, L253)"
    elif what in ("jet_off", "jet_on", "jet_take"):
        if why := _jet_why(game, unit):
            raise ValueError(why)
        if what == "jet_off":
            if not has_jet_pack(me):
                raise ValueError(f"{unit.name} wears no jet pack")
            st = _spend(game, s, u, JET_FIT_AP, False)
            st.kit.jet_pack = False
            g.ground.append(Dropped(item="jet_pack", by=unit.name))
            text = f"{unit.name} takes off its jet pack (5 AP, L604): its max AP rises by 2 (L585)"
        else:
            if has_jet_pack(me):
                raise ValueError(f"{unit.name} wears a jet pack already")
            if what == "jet_on":
                i = _index(rest, g)
                if g.ground[i].item != "jet_pack":
                    raise ValueError("no jet pack lies there")
                st = _spend(game, s, u, JET_FIT_AP, False)
                del g.ground[i]
                text = f"{unit.name} fits a jet pack (5 AP, L604): -2 max AP while it wears it (L585)"
            else:
                gs, gu, giver = _giver(game, inp.unit, rest)
                if not has_jet_pack(soldier(giver)):
                    raise ValueError(f"{giver.name} wears no jet pack")
                st = _spend(game, s, u, JET_SWAP_AP, False)
                gst = SkUnit.of(giver)
                gst.kit.jet_pack = False
                work.state(gs, gu).extra = gst.model_dump(mode="json")
                text = f"{unit.name} takes {giver.name}'s jet pack (6 AP, L605): -2 max AP while it wears it"
            st.kit.jet_pack = True
    else:
        raise ValueError("pick what to take or drop")
    work.state(s, u).extra = st.model_dump(mode="json")
    work.gstate.extra = g.model_dump(mode="json")
    return ActionResult(changes=work.changes(), text=text)


def _index(text: str, g: SkGame) -> int:
    if not text.isdigit() or int(text) >= len(g.ground):
        raise ValueError("nothing lies there")
    return int(text)
