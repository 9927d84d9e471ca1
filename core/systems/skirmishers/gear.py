"""Exchanging equipment (L247, L253) and fitting, removing and exchanging a jet pack (L600-L605).

* Taking a weapon from another trooper costs 6 AP (L247, L253): from a friend, or from any trooper
  who is dead or out of action.  It goes into the slot the card format gives it (primary or
  secondary, a grenade launcher under a rifle or SMG in the secondary slot, L417), which must be
  free: a trooper carries no more than its card allows (L253).  Rounds left go with the weapon.
* Dropping a weapon costs nothing; it lies where it fell, and any trooper, friend or enemy, may
  pick it up (L253).  The book gives no cost for picking it up: the app charges the 6 AP of taking
  gear, the one price the book gives for getting a weapon from elsewhere.
* Hand grenades are taken from another trooper the same way, as many of one kind as it holds and
  the taker has room for: 4 in all (L131), 8 with extra ammunition for them (L419).  They are
  dropped for 0 AP, all of one kind together, and picked up for 6 AP as many as fit (L253).
* Body armor and a sneak suit are equipment (L198, L517): taken from a friend or the fallen for 6
  AP, taken off ("dropped") for 0 AP, picked up for 6 AP (L253).  A trooper wears one of each at most
  (its card has one armor row, L99, L129).  Body armor keeps its marks: the cells left under the
  standard rule, its armor row under the advanced rule (L384); its AP cost (L200-L207) follows
  whoever wears it, from the moment it is on: the 6 AP are paid from the taker's AP before, and a
  trooper whose lower max AP is already spent has no AP left this turn.
* A jet pack is removed or fitted for 5 AP and taken from another trooper for 6 AP (L600-L605); a
  removed one lies on the ground like a dropped weapon.  Its -2 AP (L585) follows whoever wears it.
* A dropped or given-away active weapon (or the last grenade of the active kind) leaves the trooper
  with its fists active: another weapon needs the 3 AP change (L251).  An arc set with a weapon that
  is gone is removed.
* Power armor: its suit is its armor, its primaries and its jet pack (L839, L855, L861-L871); none of
  them is exchanged.  Its secondary is "any standard infantry weapon" (L877) and power-armor troopers
  play by the troopers' rules (L889), so that one weapon (a satchel charge too, L908) is exchanged
  like a trooper's, in the secondary slot.  It takes no grenades (L857, L908), body armor or another
  jet pack.  (The claim that power armor exchanges nothing does not hold against L877 and L889; it
  is kept as the reading ``power_armor_gear`` off, since the book never says so either way.)

What a trooper carries in play is kept as changes to its card (``SkUnit.kit``), read through
:func:`core.systems.skirmishers.common.soldier`, so every rule reads the gear it has now; grenades
are counted as rounds (``SkUnit.ammo``).  Vehicles carry no gear.
"""

from __future__ import annotations

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game, GameUnit
from core.systems.base import ActionResult, Closed, FieldPick, own_unit
from core.systems.skirmishers.catalogue import CAT, WEAPONS
from core.systems.skirmishers.common import max_ap, mod, options, soldier
from core.systems.skirmishers.state import Dropped, SkGame, SkUnit
from core.systems.skirmishers.units import PRIMARY_KEYS, SECONDARY_KEYS, Soldier, has_jet_pack

TAKE_AP, JET_FIT_AP, JET_SWAP_AP = 6, 5, 6  # L247, L604, L605
GRENADES = ("hand_grenade", "smoke_grenade", "incendiary_grenade")
WORN = ("body_armor", "sneak_suit")  # equipment worn rather than carried in a slot (L198, L517)


class Gear(Closed):
    """Take a weapon, grenades, body armor or a sneak suit from a trooper or off the ground (6 AP), drop
    one (0 AP), or remove, fit or take a jet pack (5/5/6 AP)."""

    unit: str = own_unit("Who takes or drops.")
    gear: str = Field(
        title="What",
        default="",
        max_length=60,
        description="What it takes or drops, and from whom.",
        json_schema_extra={"flow": "pick"},
    )


def item_name(item: str) -> str:
    """An item on the ground in words: a weapon's name, the body armor's type, sneak suit, jet pack."""
    if item == "jet_pack":
        return "jet pack"
    if item == "sneak_suit":
        return "sneak suit"
    if item.startswith("body_armor:"):
        return f"{CAT.body_armor[item.partition(':')[2]].name} body armor"
    return WEAPONS[item].name


def _slot(taker: Soldier, key: str) -> str:
    """The slot a weapon takes on this trooper's card (L137, L180, L194, L415-L417); power armor takes
    an infantry weapon as its secondary (L877)."""
    if taker.kind == "power_armor":
        return "secondary"
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
    if soldier(unit).kind == "vehicle":
        return f"{unit.name} carries no gear to hand over"
    if soldier(unit).kind == "power_armor" and not options(game).power_armor_gear:
        return "power armor exchanges no gear in this game (see the game's readings)"
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
        if me.kind == "power_armor":
            return f"{w.name} is built into a power-armor suit (L861-L871)"
        return f"{w.name} is a power-armor weapon (L867)"
    slot = _slot(me, key)
    held = me.primary if slot == "primary" else me.secondary
    if held:
        return f"carries a {slot} weapon already ({WEAPONS[held].name}): drop it first (0 AP, L253)"
    return ""


def _wear_why(game: Game, actor: str, item: str) -> str:
    """Why this trooper cannot put on body armor or a sneak suit now, or "" (L253, L517, L839)."""
    me = soldier(game.unit(actor)[2])
    if item == "sneak_suit":
        if not options(game).sneak_suits:
            return "sneak suits are off in this game"
        return "wears a sneak suit already" if me.sneak_suit else ""
    if me.kind == "power_armor":
        return "its suit is its armor (L839)"
    if me.body_armor != "none":
        return "wears body armor already: take it off first (0 AP, L253)"
    return ""


def _ap_why(game: Game, unit: GameUnit, ap: int) -> str:
    left = max_ap(game, unit) - SkUnit.of(unit).ap_spent
    return f"{ap} AP; {max(0, left)} left" if ap > left else ""


def _jet_why(game: Game, unit: GameUnit) -> str:
    if soldier(unit).kind != "trooper":
        return "a power-armor suit's jet pack is part of the suit (L855)"
    if not options(game).jet_packs:
        return "jet packs are off in this game"
    if "flying" in unit.state.conditions:
        return "not while it flies"
    return ""


def _room(unit: GameUnit) -> int:
    """Hand grenades it may still carry: 4 of them (L131), doubled by extra ammunition for them (L419);
    none in power armor (L857, L908)."""
    if soldier(unit).kind != "trooper":
        return 0
    st = SkUnit.of(unit)
    cap = 8 if soldier(unit).extra_ammo in GRENADES else 4
    return max(0, cap - sum(st.ammo.get(k, 0) for k in GRENADES))


def _room_why(unit: GameUnit) -> str:
    if soldier(unit).kind != "trooper":
        return "power armor cannot use grenades (L857, L908)"
    return "" if _room(unit) else "carries all the grenades it can (L131)"


def _grenade_kit(st: SkUnit) -> None:
    """Keep the card's grenade kinds in step with the grenades it holds (L131, L445): the kinds it
    has any of, the hand grenade always among them; how many is counted in its rounds.  The last one
    of the active kind gone, its fists are active (L251)."""
    st.kit.smoke_grenades = int(st.ammo.get("smoke_grenade", 0) > 0)
    st.kit.incendiary_grenades = int(st.ammo.get("incendiary_grenade", 0) > 0)
    if st.active in GRENADES and st.ammo.get(st.active, 0) <= 0:
        st.active = "fists"


def gear_need(game: Game, ref: str) -> str:
    """Troopers exchange gear, power armor its secondary weapon (L253, L877, L889); vehicles none."""
    unit = game.unit(ref)[2]
    if soldier(unit).kind == "vehicle":
        return f"{unit.name} is a vehicle: its riders carry the gear"
    if soldier(unit).kind == "power_armor" and not options(game).power_armor_gear:
        return f"{unit.name} exchanges no gear in this game: its weapons are the suit's (a reading)"
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


def _worn(u: Soldier, item: str) -> bool:
    return u.sneak_suit if item == "sneak_suit" else (u.kind == "trooper" and u.body_armor != "none")


def _worn_label(u: GameUnit, item: str) -> str:
    if item == "sneak_suit":
        return "sneak suit"
    st = SkUnit.of(u)
    left = sum(g in (0, 1) for g in st.guard) if st.guard else st.armor
    return f"{item_name('body_armor:' + soldier(u).body_armor)} ({left} cell{'s' if left != 1 else ''} left)"


def gear_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """Everything the trooper could take or drop now, greyed with the reason when it cannot."""
    s, _, unit = game.unit(actor)
    me = soldier(unit)
    if me.kind == "vehicle":
        return {"gear": []}
    trooper = me.kind == "trooper"
    out: list[FieldPick] = []
    mine = SkUnit.of(unit)
    for key in (me.primary, me.secondary):
        if key and WEAPONS[key].group != "pa":
            out.append(FieldPick(value=f"drop:{key}", label=f"Drop {WEAPONS[key].name}", detail="0 AP"))
    for kind in GRENADES:
        if (n := mine.ammo.get(kind, 0)) > 0:
            label = f"Drop {n} {WEAPONS[kind].name}{'s' if n != 1 else ''}"
            out.append(FieldPick(value=f"drop:{kind}", label=label, detail="0 AP"))
    for item in WORN:
        if _worn(me, item):
            out.append(
                FieldPick(
                    value=f"drop:{item}", label=f"Take off its {_worn_label(unit, item)}", detail="0 AP"
                )
            )
    for os, side in enumerate(game.sides):
        for other in side.units:
            ref = f"{os}/{other.key}"
            them = soldier(other)
            if ref == actor or (os != s and not _fallen(other)) or them.kind == "vehicle":
                continue
            for key in (them.primary, them.secondary):
                if key and WEAPONS[key].group != "pa":
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
                if have > 0 and trooper:
                    why = _giver_why(game, actor, ref) or _ap_why(game, unit, TAKE_AP) or _room_why(unit)
                    label = f"Take {WEAPONS[kind].name} x{have} from {other.name}"
                    value = f"grenades:{ref}:{kind}"
                    out.append(FieldPick(value=value, label=label, detail="6 AP", unavailable=why))
            for item in WORN:
                if _worn(them, item) and (trooper or item == "sneak_suit"):
                    why = _giver_why(game, actor, ref) or _wear_why(game, actor, item)
                    why = why or _ap_why(game, unit, TAKE_AP)
                    label = f"Take {other.name}'s {_worn_label(other, item)}"
                    out.append(
                        FieldPick(value=f"take:{ref}:{item}", label=label, detail="6 AP", unavailable=why)
                    )
            if trooper and them.kind == "trooper" and has_jet_pack(them):
                why = _jet_why(game, unit) or ("wears one already" if has_jet_pack(me) else "")
                why = why or _ap_why(game, unit, JET_SWAP_AP)
                label = f"Take {other.name}'s jet pack"
                out.append(FieldPick(value=f"jet_take:{ref}", label=label, detail="6 AP", unavailable=why))
    for i, d in enumerate(SkGame.model_validate(game.state.extra).ground):
        if d.item == "jet_pack":
            if not trooper:
                continue
            why = _jet_why(game, unit) or ("wears one already" if has_jet_pack(me) else "")
            why = why or _ap_why(game, unit, JET_FIT_AP)
            label = f"Fit the jet pack {d.by} left"
            out.append(FieldPick(value=f"jet_on:{i}", label=label, detail="5 AP", unavailable=why))
            continue
        if d.item in GRENADES:
            if not trooper:
                continue
            why = _room_why(unit)
            label = f"Pick up {d.ammo} {WEAPONS[d.item].name}{'s' if d.ammo != 1 else ''} {d.by} dropped"
        elif d.item == "sneak_suit" or d.item.startswith("body_armor:"):
            if not trooper and d.item != "sneak_suit":
                continue
            why = _wear_why(game, actor, d.item.partition(":")[0])
            label = f"Pick up the {item_name(d.item)} {d.by} took off"
        else:
            why = _taker_why(game, actor, d.item)
            label = f"Pick up {WEAPONS[d.item].name} {d.by} dropped"
        why = why or _ap_why(game, unit, TAKE_AP)
        out.append(FieldPick(value=f"ground:{i}", label=label, detail="6 AP", unavailable=why))
    if trooper and has_jet_pack(me):
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


def _take_off(st: SkUnit, prof: Soldier, item: str, by: str) -> Dropped:
    """Body armor or a sneak suit off a card in play, as it would lie on the ground, with its marks."""
    if item == "sneak_suit":
        st.kit.sneak_suit = False
        return Dropped(item="sneak_suit", by=by)
    d = Dropped(item=f"body_armor:{prof.body_armor}", by=by, cells=st.armor, guard=list(st.guard))
    st.kit.body_armor, st.armor, st.guard = "none", 0, []
    return d


def _put_on(st: SkUnit, d: Dropped) -> None:
    """Wear it: a sneak suit, or body armor with the cells (or the armor row) it had left (L253, L384)."""
    if d.item == "sneak_suit":
        st.kit.sneak_suit = True
        return
    kind = d.item.partition(":")[2]
    st.kit.body_armor = "basic" if kind == "basic" else "heavy" if kind == "heavy" else "standard"
    st.armor, st.guard = d.cells, list(d.guard)


def _drop(game: Game, unit: GameUnit, me: Soldier, rest: str, g: SkGame) -> tuple[SkUnit, str]:
    """Drop a weapon, all grenades of a kind, or take off body armor or a sneak suit: 0 AP (L253)."""
    st = SkUnit.of(unit)
    if rest in GRENADES:
        n = st.ammo.get(rest, 0)
        if n <= 0:
            raise ValueError(f"{unit.name} has no {WEAPONS[rest].name} left")
        st.ammo[rest] = 0
        _grenade_kit(st)
        g.ground.append(Dropped(item=rest, by=unit.name, ammo=n))
        many = f"{n} {WEAPONS[rest].name}{'s' if n != 1 else ''}"
        return st, f"{unit.name} drops {many} (0 AP): anyone may pick them up (L253)"
    if rest in WORN:
        if not _worn(me, rest):
            raise ValueError(f"{unit.name} wears no {rest.replace('_', ' ')}")
        d = _take_off(st, me, rest, unit.name)
        g.ground.append(d)
        return st, f"{unit.name} takes off its {item_name(d.item)} (0 AP): anyone may pick it up (L253)"
    if not rest or rest not in (me.primary, me.secondary):
        raise ValueError(f"{unit.name} carries no such weapon")
    if WEAPONS[rest].group == "pa":
        raise ValueError(f"{WEAPONS[rest].name} is built into its suit (L861-L871)")
    rounds = _lose(st, me, rest)
    g.ground.append(Dropped(item=rest, by=unit.name, ammo=rounds))
    return st, f"{unit.name} drops {WEAPONS[rest].name} (0 AP): anyone may pick it up (L253)"


def _pick_up(game: Game, actor: str, s: int, u: int, me: Soldier, rest: str, g: SkGame) -> tuple[SkUnit, str]:
    """Pick up what lies on the ground: 6 AP, the price the book gives for taking gear (L253)."""
    from core.systems.skirmishers.turn import _spend

    unit = game.sides[s].units[u]
    i = _index(rest, g)
    d = g.ground[i]
    if d.item == "jet_pack":
        raise ValueError("a jet pack is fitted, not picked up (5 AP, L604)")
    if d.item in GRENADES:
        if why := _room_why(unit):
            raise ValueError(why)
        n = min(d.ammo, _room(unit))
        st = _spend(game, s, u, TAKE_AP, False)
        st.ammo[d.item] = st.ammo.get(d.item, 0) + n
        _grenade_kit(st)
        if n < d.ammo:
            d.ammo -= n
        else:
            del g.ground[i]
        many = f"{n} {WEAPONS[d.item].name}{'s' if n != 1 else ''}"
        return st, f"{unit.name} picks up {many} (6 AP, L253)"
    if d.item in WORN or d.item.startswith("body_armor:"):
        if why := _wear_why(game, actor, d.item.partition(":")[0]):
            raise ValueError(why)
        st = _spend(game, s, u, TAKE_AP, False)
        _put_on(st, d)
        del g.ground[i]
        return st, f"{unit.name} puts on the {item_name(d.item)} {d.by} took off (6 AP, L253)"
    if why := _taker_why(game, actor, d.item):
        raise ValueError(why)
    st = _spend(game, s, u, TAKE_AP, False)
    _gain(st, me, d.item, d.ammo)
    del g.ground[i]
    return st, f"{unit.name} picks up {WEAPONS[d.item].name} (6 AP; the book gives taking gear 6 AP, L253)"


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
        st, text = _drop(game, unit, me, rest, g)
    elif what == "take":
        ref, _, key = rest.rpartition(":")
        gs, gu, giver = _giver(game, inp.unit, ref)
        them = soldier(giver)
        gst = SkUnit.of(giver)
        if key in WORN:
            if not _worn(them, key):
                raise ValueError(f"{giver.name} wears no {key.replace('_', ' ')}")
            if why := _wear_why(game, inp.unit, key):
                raise ValueError(why)
            st = _spend(game, s, u, TAKE_AP, False)
            d = _take_off(gst, them, key, giver.name)
            _put_on(st, d)
            text = f"{unit.name} takes {giver.name}'s {item_name(d.item)} (6 AP, L253)"
        else:
            if not key or key not in (them.primary, them.secondary):
                raise ValueError(f"{giver.name} carries no such weapon")
            if why := _taker_why(game, inp.unit, key) or _crew_why(giver, key):
                raise ValueError(why)
            st = _spend(game, s, u, TAKE_AP, False)
            rounds = _lose(gst, them, key)
            _gain(st, me, key, rounds)
            text = f"{unit.name} takes {WEAPONS[key].name} from {giver.name} (6 AP, L253)"
        work.state(gs, gu).extra = gst.model_dump(mode="json")
    elif what == "grenades":
        ref, _, kind = rest.rpartition(":")
        gs, gu, giver = _giver(game, inp.unit, ref)
        gst = SkUnit.of(giver)
        if kind not in GRENADES or gst.ammo.get(kind, 0) <= 0:
            raise ValueError(f"{giver.name} has no such grenade left")
        if why := _room_why(unit):
            raise ValueError(f"{unit.name} {why}" if why.startswith("carries") else why)
        n = min(gst.ammo[kind], _room(unit))
        st = _spend(game, s, u, TAKE_AP, False)
        gst.ammo[kind] -= n
        st.ammo[kind] = st.ammo.get(kind, 0) + n
        _grenade_kit(gst)
        _grenade_kit(st)
        work.state(gs, gu).extra = gst.model_dump(mode="json")
        many = f"{n} {WEAPONS[kind].name}{'s' if n != 1 else ''}"
        text = f"{unit.name} takes {many} from {giver.name} (6 AP, L253)"
    elif what == "ground":
        st, text = _pick_up(game, inp.unit, s, u, me, rest, g)
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
                if soldier(giver).kind != "trooper" or not has_jet_pack(soldier(giver)):
                    raise ValueError(f"{giver.name} wears no jet pack it can hand over (L855)")
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
