"""Stellar Warships' own actions, their weapons' readiness, and their captains (L944-L1086).

A warship fires only readied weapons (L966-L968): its missiles and [AA] weapons begin readied, any other
weapon is readied by the action Ready Weapons, one weapon an action, and stays readied once fired; a
weapon that reloads (its ``reload`` rounds, L969-L970) cannot fire in the rounds after it fired, unless
the action Reload! makes it ready this turn (L993).  A stun hit on a warship un-readies its weapons
(L971; read as every weapon, missiles and [AA] included: the rule names no number; the reading
stun_unreadies_one makes it one a hit, the attacker's pick).  Its shooting is the
action All Weapons Fire!, once a turn: after it each readied weapon fires once with no further action
(L981), an [AA] weapon only at a target within 8" of an ally (L982: the players say so when asked).
Target Lock gives its weapons Range +16" until the round ends (+32" under a Battle Hardened Captain's
Main Battery order, L1030); without it a warship may shoot a unit that is not a warship only within its
Sensors (L976: asked).  All Ahead Full! is Full Throttle's +3" (L964; digest ambiguity 30).  Each failed
Armor Save of a warship destroys one of its weapon systems, the attacker's pick (L1009).

Captains (L1017-L1086): a Skilled Captain (the Skilled tier) or a Battle Hardened one (the Ace tier)
issues one Captain's Order a round, after the roll-off and before any unit activates, for that round
(L1019): Take Evasive Action! (each weapon fired at the side's units: one evade die rolled again;
falling back and turning: the players'), Main Battery (+1 Accuracy against enemies in the quadrant the
players named, asked on the shot; Battle Hardened: Target Lock +32"), Close Range Combat (+1 block in
the Melee Clash, its +5" Move the players'; Battle Hardened: [AA] weapons +1 Accuracy; AA DEF's own
accuracy in melee: the players').  Traits: Renowned and Legendary Momentum as the ship activates
(:func:`core.systems.mechastellar.turns.begin_turn`), Legendary's action in Rounds 1, 3 and 5, a
Discerning Captain's Focus for an ally as the round starts, a Daring Captain's evade dice against enemy
warships, Determined and Fearless Captains' +1 Momentum or +1 Accuracy when the ship activates at under
half HP or with no Momentum, Expert Gunnery's +1 Accuracy or +8" of range, Expert Engineering's and
Fearsome's +1 PEN or +100 damage, Fearsome's Momentum a kill, Fearless's free Ready Weapons when a
readied weapon is destroyed, Sharp Witted's turn in the mobile suits' phase and its once-a-round new
Order.  A captain's "+1 Influence" in place of the Momentum (L1045, L1071): the players' (Rule Zero).
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game, GameUnit
from core.systems.base import (
    ActionResult,
    Choice,
    Closed,
    FieldPick,
    NeedChoice,
    own_unit,
    read_options,
)
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.state import MsState, MsUnitState, gain, ms_state, put_unit_extra, unit_extra
from core.systems.mechastellar.turns import add_focus, begin_turn, check_turn, spend_action
from core.systems.mechastellar.units import CAPTAIN_TRAITS, Unit, captain, tier_rank

#: Captain's Orders (L1021-L1035): key to the name players see.
ORDERS: dict[str, str] = {
    "evasive": "Take Evasive Action!",
    "main_battery": "Main Battery: wipe out the enemy in a quadrant",
    "close_range": "Prepare for Close Range Combat",
}
#: Target Lock's range bonus, and under a Battle Hardened Captain's Main Battery order (L975, L1030).
LOCK_RANGE, LOCK_RANGE_BH = 16, 32
#: Weapons the small-scale mode's warships begin with readied (Charged & Ready, L732).
CHARGED = 3


def _ship(game: Game, ref: str) -> tuple[int, int, GameUnit, Unit]:
    s, u, g = game.unit(ref)
    return s, u, g, Unit.model_validate(g.profile)


def readied(unit: Unit, extra: MsUnitState) -> set[int]:
    """The weapons a warship has readied: as the battle began, its missiles and [AA] weapons (L968)."""
    if extra.readied is None:
        start = {i for i, w in enumerate(unit.weapons) if w.aa or w.missile}
    else:
        start = set(extra.readied)
    return start - set(extra.wrecked)


def fire_refusal(game: Game, g: GameUnit, index: int) -> str:
    """Why a warship's weapon cannot fire now ("" when it can) (L966-L993, L1009)."""
    unit = Unit.model_validate(g.profile)
    extra = unit_extra(g)
    if index >= len(unit.weapons):
        return f"{g.name} has no such weapon"
    if index in extra.wrecked:
        return "destroyed by a failed Armor Save (L1009)"
    if index not in readied(unit, extra):
        return "not readied: Ready Weapons first (L966-L968)"
    if index in extra.fired:
        return "fired this turn (L153)"
    until = extra.reloading.get(str(index), 0)
    if game.round <= until:
        return f"reloading until round {until + 1}: Reload! readies it (L969-L970, L993)"
    return ""


def volley_refusal(game: Game, ref: str) -> str:
    """A warship shoots through All Weapons Fire! (L979-L981): "" once it has declared it this turn."""
    _, _, g, unit = _ship(game, ref)
    if unit.kind != "warship" or "volley" in g.state.conditions:
        return ""
    return f"{g.name} is a warship: declare All Weapons Fire! first, then fire its readied weapons (L981)"


def ship_shot_checks(
    game: Game, a_ref: str, t_ref: str, index: int, near_ally: bool, in_sensors: bool, daring: bool | None
) -> None:
    """A warship's shot: refused unless All Weapons Fire! is declared and the weapon may fire (L966-L993);
    asked whether an [AA] weapon's target is within 8" of an ally (L982) and, with no Target Lock, whether a
    target that is not a warship is within Sensors (L976).  A shot at a Daring Captain's warship by an enemy
    warship asks whether it is within the shooter's Sensors (L1053)."""
    a_side, _, a_g, shooter = _ship(game, a_ref)
    _, _, t_g, target = _ship(game, t_ref)
    if shooter.kind != "warship":
        return
    weapon = shooter.weapons[index]
    why = volley_refusal(game, a_ref) or fire_refusal(game, a_g, index)
    if why:
        raise ValueError(why if why.startswith(a_g.name) else f"{weapon.name}: {why}")
    if weapon.aa and not near_ally:
        raise NeedChoice(
            "near_ally",
            f'{weapon.name} is an [AA] weapon: is {t_g.name} within 8" of one of '
            f"{game.sides[a_side].name}'s units? Only then may it fire at it (L982)",
            [Choice(value=True, label='Yes: within 8" of an ally')],
        )
    if target.kind != "warship" and "target_lock" not in a_g.state.conditions and not in_sensors:
        raise NeedChoice(
            "in_sensors",
            f"Is {t_g.name} within {a_g.name}'s Sensors ({shooter.sensors}\")? Beyond them a warship needs a "
            "Target Lock to shoot it (L976)",
            [Choice(value=True, label=f'Yes: within {shooter.sensors}"')],
        )
    if captain(target, "daring") and daring is None:
        raise NeedChoice(
            "daring",
            f"Is {t_g.name} within {a_g.name}'s Sensors ({shooter.sensors}\")? Its Daring Captain then rolls "
            "any evade dice again (L1053)",
            [
                Choice(value=True, label="Yes: it rolls any evade dice again"),
                Choice(value=False, label="No", assumed=True),
            ],
        )


def after_fire(game: Game, work: Working, s: int, u: int, index: int) -> None:
    """A warship's weapon that reloads is reloading for its rounds after firing (L969-L970)."""
    extra = unit_extra(work.unit(s, u))
    weapon = Unit.model_validate(work.unit(s, u).profile).weapons[index]
    if weapon.reload:
        extra.reloading = {**extra.reloading, str(index): game.round + weapon.reload}
        put_unit_extra(work, s, u, extra)


def unready(work: Working, s: int, u: int, picks: list[int] | None = None) -> None:
    """A stun hit on a warship: its weapons are no longer readied (L971); with the reading
    stun_unreadies_one, only ``picks``, one a stun hit."""
    g = work.unit(s, u)
    extra = unit_extra(g)
    kept = readied(Unit.model_validate(g.profile), extra) - set(picks) if picks is not None else set()
    extra.readied = sorted(kept)
    put_unit_extra(work, s, u, extra)


def _weapons_picked(
    ship: Unit, offered: list[int], n: int, asked: list[int] | None, field: str, question: str, what: str
) -> list[int]:
    """``n`` of a warship's ``offered`` weapons, the attacker's pick: asked as ``field`` when not
    answered yet, and the answer checked (exactly ``n`` of them, each one offered)."""
    if not n:
        return []
    if asked is None:
        choices = [Choice(value=i, label=ship.weapons[i].name) for i in offered]
        raise NeedChoice(field, question, choices, many=True)
    picks = sorted(set(asked))
    if len(picks) != n or any(i not in offered for i in picks):
        raise ValueError(f"pick {n} of {what}")
    return picks


def unready_picks(
    game: Game, attacker: str, target: str, hits: int, asked: list[int] | None
) -> list[int] | None:
    """With the reading stun_unreadies_one, the readied weapons a warship's stun hits un-ready, one a hit, the
    attacker's pick (asked); None: every weapon (the default reading, L971)."""
    if not read_options(MsOptions, game.options).stun_unreadies_one:
        return None
    _, _, t_g, ship = _ship(game, target)
    offered = sorted(readied(ship, unit_extra(t_g)))
    n = min(hits, len(offered))
    question = (
        f"{n} stun hit{'s' * (n != 1)} on {t_g.name}: {game.unit(attacker)[2].name} picks the readied "
        f"weapon{'s' * (n != 1)} no longer readied (L971)"
    )
    return _weapons_picked(
        ship, offered, n, asked, "unreadied", question, f"{t_g.name}'s readied weapons (L971)"
    )


def wreck(work: Working, s: int, u: int, picks: list[int]) -> int:
    """Destroy a warship's weapon systems (L1009); a Fearless Captain readies another weapon for each
    readied one lost, with no action (L1076).  The count of readied weapons lost."""
    g = work.unit(s, u)
    unit = Unit.model_validate(g.profile)
    extra = unit_extra(g)
    lost_ready = len(set(picks) & readied(unit, extra))
    extra.wrecked = sorted(set(extra.wrecked) | set(picks))
    if captain(unit, "fearless_captain"):
        extra.free_ready = min(12, extra.free_ready + lost_ready)
    put_unit_extra(work, s, u, extra)
    return lost_ready


def wreck_options(unit: Unit, extra: MsUnitState) -> list[int]:
    return [i for i in range(len(unit.weapons)) if i not in extra.wrecked]


def wreck_picks(
    game: Game, attacker: str, target: str, failed: int, destroyed: bool, wrecked: list[int] | None
) -> list[int]:
    """The target warship's weapon systems its failed saves destroy, the attacker's pick (L1009): asked
    when a save failed and the ship survives; one a failed save while it has weapons left."""
    _, _, t_g, ship = _ship(game, target)
    if ship.kind != "warship" or not failed or destroyed:
        return []
    offered = wreck_options(ship, unit_extra(t_g))
    n = min(failed, len(offered))
    question = (
        f"{t_g.name} fails {failed} Armor Save{'s' * (failed != 1)}: "
        f"{game.unit(attacker)[2].name} destroys {n} of its weapon systems (L1009). Which?"
    )
    what = f"{t_g.name}'s weapon systems still working (L1009)"
    return _weapons_picked(ship, offered, n, wrecked, "wrecked", question, what)


# --- the actions --------------------------------------------------------------------------------------


def warship_refusal(game: Game, ref: str) -> str:
    """The requirement ``warship``: the unit is a Stellar Warship."""
    _, _, g, unit = _ship(game, ref)
    return "" if unit.kind == "warship" else f"{g.name} is not a Stellar Warship"


def _free_readies(game: Game, g: GameUnit, unit: Unit) -> int:
    """Weapons the ship may ready now with no action: a Fearless Captain's (L1076), Charged & Ready's
    three before its first turn ends (the small-scale mode, L732)."""
    extra = unit_extra(g)
    charged = 0
    if read_options(MsOptions, game.options).small_scale and game.round == 1 and not g.state.activated:
        charged = CHARGED - extra.charged
    return extra.free_ready + charged


class ReadyWeapons(Closed):
    """Ready Weapons: one of the warship's weapons is readied (L966-L968)."""

    unit: str = own_unit("Which warship.")
    weapon: int = Field(
        default=0, ge=0, le=11, description="Which weapon.", json_schema_extra={"flow": "pick"}
    )


def ready_weapons(game: Game, inp: ReadyWeapons, dice: DiceSource) -> ActionResult:
    why = warship_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g, unit = _ship(game, inp.unit)
    extra = unit_extra(g)
    if inp.weapon >= len(unit.weapons) or unit.weapons[inp.weapon].kind != "shooting":
        raise ValueError(f"{g.name} has no such shooting weapon")
    if inp.weapon in extra.wrecked:
        raise ValueError(f"{unit.weapons[inp.weapon].name} was destroyed (L1009)")
    if inp.weapon in readied(unit, extra):
        raise ValueError(f"{unit.weapons[inp.weapon].name} is readied already (L968)")
    work = Working(game)
    free = _free_readies(game, g, unit)
    if free:  # no action spent, at any time
        how = "with no action"
    else:
        begin_turn(game, work, inp.unit)
        spend_action(game, work, inp.unit)
        how = ""
    mine = unit_extra(work.unit(s, u))
    mine.readied = sorted(readied(unit, mine) | {inp.weapon})
    if free and mine.free_ready:
        mine.free_ready -= 1
        how = "with no action (Fearless Captain, L1076)"
    elif free:
        mine.charged += 1
        how = "with no action (Charged & Ready, L732)"
    put_unit_extra(work, s, u, mine)
    name = unit.weapons[inp.weapon].name
    text = f"{g.name} readies its {name}" + (f" {how}" if how else "") + " (L966-L968)"
    return ActionResult(changes=work.changes(), text=text)


def ready_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    """The warship's weapons, greyed when readied already, destroyed or not for shooting."""
    _, _, g, unit = _ship(game, actor)
    extra = unit_extra(g)
    ready = readied(unit, extra)
    out = []
    for i, w in enumerate(unit.weapons):
        why = ""
        if w.kind != "shooting":
            why = "not a shooting weapon"
        elif i in extra.wrecked:
            why = "destroyed"
        elif i in ready:
            why = "readied already"
        out.append(FieldPick(value=i, label=w.name, detail=f'{w.range}" {w.shots} shots', unavailable=why))
    return {"weapon": out}


class Reload(Closed):
    """Reload!: a weapon reloading after firing is ready to fire this turn (L991-L993)."""

    unit: str = own_unit("Which warship.")
    weapon: int = Field(
        default=0, ge=0, le=11, description="Which weapon.", json_schema_extra={"flow": "pick"}
    )


def reload(game: Game, inp: Reload, dice: DiceSource) -> ActionResult:
    why = warship_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g, unit = _ship(game, inp.unit)
    extra = unit_extra(g)
    if game.round > extra.reloading.get(str(inp.weapon), 0) or inp.weapon >= len(unit.weapons):
        raise ValueError(f"{g.name} has no such weapon reloading (L993)")
    work = Working(game)
    begin_turn(game, work, inp.unit)
    spend_action(game, work, inp.unit)
    mine = unit_extra(work.unit(s, u))
    mine.reloading = {k: v for k, v in mine.reloading.items() if k != str(inp.weapon)}
    put_unit_extra(work, s, u, mine)
    name = unit.weapons[inp.weapon].name
    return ActionResult(changes=work.changes(), text=f"{g.name} reloads its {name}: ready this turn (L993)")


def reload_picks(game: Game, actor: str) -> dict[str, list[FieldPick]]:
    _, _, g, unit = _ship(game, actor)
    extra = unit_extra(g)
    out = []
    for i, w in enumerate(unit.weapons):
        until = extra.reloading.get(str(i), 0)
        why = "" if game.round <= until and i not in extra.wrecked else "not reloading"
        out.append(FieldPick(value=i, label=w.name, unavailable=why))
    return {"weapon": out}


class TargetLock(Closed):
    """Target Lock: Range +16" until the round ends; needed to shoot a unit that is not a warship beyond
    Sensors (L973-L977)."""

    unit: str = own_unit("Which warship.")


def target_lock(game: Game, inp: TargetLock, dice: DiceSource) -> ActionResult:
    why = warship_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g, _ = _ship(game, inp.unit)
    if "target_lock" in g.state.conditions:
        raise ValueError(f"{g.name} has a Target Lock until the round ends (L975)")
    work = Working(game)
    begin_turn(game, work, inp.unit)
    spend_action(game, work, inp.unit)
    state = work.state(s, u)
    state.conditions = [*state.conditions, "target_lock"]
    reach = LOCK_RANGE_BH if order_tier(game, s, "main_battery") == 2 else LOCK_RANGE
    text = f'{g.name} locks on: its weapons have Range +{reach}" until the round ends (L975'
    return ActionResult(changes=work.changes(), text=text + (", L1030)" if reach == LOCK_RANGE_BH else ")"))


class Volley(Closed):
    """All Weapons Fire!: once a turn, fire any number of readied weapons (L979-L984)."""

    unit: str = own_unit("Which warship.")


def volley(game: Game, inp: Volley, dice: DiceSource) -> ActionResult:
    why = warship_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g, unit = _ship(game, inp.unit)
    if "volley" in g.state.conditions:
        raise ValueError(f"{g.name} has declared All Weapons Fire! this turn: once a turn (L981)")
    work = Working(game)
    begin_turn(game, work, inp.unit)
    spend_action(game, work, inp.unit)
    state = work.state(s, u)
    state.conditions = [*state.conditions, "volley"]
    ready = [
        unit.weapons[i].name for i in sorted(readied(unit, unit_extra(g))) if not fire_refusal(game, g, i)
    ]
    listed = ", ".join(ready) if ready else "none"
    return ActionResult(
        changes=work.changes(),
        text=f"{g.name}: All Weapons Fire! Name every target, then shoot each readied weapon once with no "
        f"further action (L981). Readied: {listed}",
    )


# --- captains ---------------------------------------------------------------------------------------


def order_tier(game: Game, side: int, order: str) -> int:
    """The highest captain tier (1 Skilled, 2 Battle Hardened) giving ``order`` to ``side`` this round;
    0 when it is not in force (L1019)."""
    best = 0
    for entry in ms_state(game).orders:
        s, key, ref = entry.split(":", 2)
        if int(s) == side and key == order:
            best = max(best, tier_rank(Unit.model_validate(game.unit(ref)[2].profile)))
    return best


def round_start(game: Game) -> str:
    """Empty at a round's start: the roll-off made, no unit has begun or had its turn (L1019, L1049)."""
    st = ms_state(game)
    if not st.rolled_off:
        return "roll off for the round first (L32)"
    if st.turn_unit or any(g.state.activated for side in game.sides for g in side.units):
        return "only as the round begins, before any unit activates"
    return ""


def order_refusal(game: Game, ref: str) -> str:
    """The requirement ``captain``: a Skilled or Battle Hardened Captain's warship that may give its Order
    now: once a round as the round begins, or a Sharp Witted Captain's new one once a round (L1019, L1082)."""
    _, _, g, unit = _ship(game, ref)
    if unit.kind != "warship" or not tier_rank(unit):
        return f"{g.name} has no Skilled or Battle Hardened Captain"
    if g.state.destroyed:
        return f"{g.name} is destroyed"
    done = ms_state(game).this_round
    if f"{ref}:order" not in done:
        return round_start(game)
    if captain(unit, "sharp_witted") and f"{ref}:reorder" not in done:
        return ""
    return f"{g.name}'s captain has given this round's Order"


class Order(Closed):
    """A Captain's Order for this round (L1019-L1035)."""

    unit: str = own_unit("Whose captain.")
    order: Literal["evasive", "main_battery", "close_range"] = Field(
        default="evasive",
        description="The Order, in force for the whole side this round.",
        json_schema_extra={
            "flow": "choice",
            "x-labels": {
                "evasive": "Take Evasive Action!",
                "main_battery": "Main Battery",
                "close_range": "Close Range Combat",
            },
        },
    )


_ORDER_TEXT = {
    "evasive": "each weapon fired at the side's units this round: one evade die rolled again; mobile suits "
    'and Titans out of melee may fall back 5"',
    "main_battery": "+1 Accuracy against enemies in the quadrant the players name",
    "close_range": '+1 block in each Melee Clash, Move +5"',
}
_BH_TEXT = {
    "evasive": "; its warships may turn up to 45 degrees now",
    "main_battery": '; Target Lock gives Range +32"',
    "close_range": "; [AA] weapons +1 Accuracy; a warship's AA DEF blocks on 4+ in melee",
}


def order(game: Game, inp: Order, dice: DiceSource) -> ActionResult:
    why = order_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, _, g, unit = _ship(game, inp.unit)
    work = Working(game)
    st = work.extra_as(MsState)
    again = f"{inp.unit}:order" in st.this_round
    st.orders = [o for o in st.orders if not o.endswith(f":{inp.unit}")] + [f"{s}:{inp.order}:{inp.unit}"]
    st.this_round = [*st.this_round, f"{inp.unit}:{'reorder' if again else 'order'}"]
    work.put_extra(st)
    text = f"{g.name}'s captain orders {ORDERS[inp.order]}: {_ORDER_TEXT[inp.order]}"
    text += (_BH_TEXT[inp.order] if tier_rank(unit) == 2 else "") + " (L1021-L1035)"
    if again:
        text += "; the earlier Order is withdrawn (Sharp Witted, L1082)"
    return ActionResult(changes=work.changes(), text=text)


def discerning_refusal(game: Game, ref: str) -> str:
    """The requirement ``discerning``: a Discerning Captain's Focus for an ally, once a round as it begins
    (L1047-L1049)."""
    _, _, g, unit = _ship(game, ref)
    if not captain(unit, "discerning"):
        return f"{g.name}'s captain is not Discerning"
    if g.state.destroyed:
        return f"{g.name} is destroyed"
    if f"{ref}:focus" in ms_state(game).this_round:
        return f"{g.name}'s captain has given this round's Focus"
    return round_start(game)


class CaptainFocus(Closed):
    """A Discerning Captain gives an ally within its sight or Sensors a Focus as the round starts (L1049)."""

    unit: str = own_unit("Whose captain.")
    ally: str = own_unit("Which ally takes the Focus.")


def captain_focus(game: Game, inp: CaptainFocus, dice: DiceSource) -> ActionResult:
    why = discerning_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, _, g, _ = _ship(game, inp.unit)
    a_side, a_i, a_g = game.unit(inp.ally)
    if a_side != s or a_g.state.destroyed:
        raise ValueError("pick a unit of the captain's own side still in play")
    work = Working(game)
    add_focus(work, a_side, a_i)
    st = work.extra_as(MsState)
    st.this_round = [*st.this_round, f"{inp.unit}:focus"]
    work.put_extra(st)
    return ActionResult(
        changes=work.changes(), text=f"{g.name}'s captain gives {a_g.name} a Focus for its turn (L1049)"
    )


def steadfast_refusal(game: Game, ref: str) -> str:
    """The requirement ``steadfast``: a Determined or Fearless Captain's ship activating at under half HP or
    with its side out of Momentum (L1057, L1077)."""
    s, _, g, unit = _ship(game, ref)
    if not (captain(unit, "determined") or captain(unit, "fearless_captain")):
        return f"{g.name}'s captain is neither Determined nor Fearless"
    try:
        check_turn(game, ref)
    except ValueError as why:
        return str(why)
    extra = unit_extra(g)
    if "steadfast" in extra.choices:
        return f"{g.name}'s captain has used it this turn"
    if ms_state(game).turn_unit == ref and (g.state.counters.get("actions", 0) or extra.fired):
        return f"{g.name} has begun its turn: the trait works as it activates"
    low = (g.state.max_damage - g.state.damage) * 2 < g.state.max_damage
    if not low and game.sides[s].resources.get("momentum", 0) > 0:
        return f"{g.name} is at half HP or more and its side has Momentum (L1057)"
    return ""


def captain_influence_refusal(game: Game, ref: str) -> str:
    """The requirement ``captain_influence``: a Renowned or Legendary Captain's ship about to activate, the
    Influence module on: its bonus may be Influence instead of Momentum (L1045, L1071)."""
    _, _, g, unit = _ship(game, ref)
    if not (captain(unit, "renowned_captain") or captain(unit, "legendary_captain")):
        return f"{g.name}'s captain is neither Renowned nor Legendary"
    if not read_options(MsOptions, game.options).influence:
        return "the Influence module is off"
    if ms_state(game).turn_unit == ref:
        return f"{g.name} has begun its turn: the choice is made as it activates"
    try:
        check_turn(game, ref)
    except ValueError as why:
        return str(why)
    return ""


class CaptainInfluence(Closed):
    """Renowned or Legendary Captain: the ship activates with its +1 (Legendary +2) as Influence instead of
    Momentum (L1045, L1071)."""

    unit: str = own_unit("Which warship.")


def captain_influence(game: Game, inp: CaptainInfluence, dice: DiceSource) -> ActionResult:
    if why := captain_influence_refusal(game, inp.unit):
        raise ValueError(why)
    _, _, g, unit = _ship(game, inp.unit)
    work = Working(game)
    begin_turn(game, work, inp.unit, influence=True)
    n = 1 + captain(unit, "legendary_captain")
    return ActionResult(
        changes=work.changes(), text=f"{g.name} activates: its captain gives +{n} Influence, not Momentum"
    )


class Steadfast(Closed):
    """Determined or Fearless Captain: as the ship activates under half HP or with no Momentum, +1 Momentum
    or +1 Accuracy this turn (L1055-L1057, L1077)."""

    unit: str = own_unit("Which warship.")
    take: Literal["momentum", "accuracy"] = Field(
        default="momentum",
        description="Momentum for the side, or +1 Accuracy this turn.",
        json_schema_extra={"flow": "choice", "x-labels": {"momentum": "Momentum", "accuracy": "+1 Accuracy"}},
    )


def steadfast(game: Game, inp: Steadfast, dice: DiceSource) -> ActionResult:
    why = steadfast_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g, _ = _ship(game, inp.unit)
    work = Working(game)
    begin_turn(game, work, inp.unit)
    mine = unit_extra(work.unit(s, u))
    mine.choices = [*mine.choices, "steadfast"]
    put_unit_extra(work, s, u, mine)
    if inp.take == "momentum":
        gain(work, s, "momentum", 1)
        return ActionResult(changes=work.changes(), text=f"{g.name}'s crew holds firm: +1 Momentum (L1057)")
    state = work.state(s, u)
    state.conditions = [*state.conditions, "steady"]
    return ActionResult(
        changes=work.changes(), text=f"{g.name}'s crew holds firm: +1 Accuracy this turn (L1057)"
    )


def ship_accuracy(
    game: Game,
    side: int,
    g: GameUnit,
    shooter: Unit,
    aa: bool,
    quadrant: bool,
    long_range: bool,
    own_turn: bool,
) -> int:
    """Accuracy from captains: a Determined or Fearless Captain's +1 this turn (L1057), Expert Gunnery's +1
    on its own turn unless it took the +8" (L1061), a Main Battery order's +1 in the named quadrant (L1029),
    a Battle Hardened Close Range order's +1 with [AA] weapons (L1035).  Refused: a quadrant with no Main
    Battery order in force."""
    if quadrant and not order_tier(game, side, "main_battery"):
        raise ValueError("no Main Battery order is in force for this side this round (L1029)")
    bonus = int("steady" in g.state.conditions) + int(quadrant)
    bonus += int(captain(shooter, "expert_gunnery") and own_turn and not long_range)
    bonus += int(aa and order_tier(game, side, "close_range") == 2)
    return bonus


def main_battery_refusal(game: Game, ref: str) -> str:
    """The requirement ``main_battery``: the shooter's side has a Main Battery order this round (L1029)."""
    s, _, _ = game.unit(ref)
    return "" if order_tier(game, s, "main_battery") else "no Main Battery order is in force this round"


def captain_names(unit: Unit) -> list[str]:
    return [CAPTAIN_TRAITS[t][0] for t in unit.captain]


__all__ = [
    "ORDERS",
    "CaptainFocus",
    "Order",
    "ReadyWeapons",
    "Reload",
    "Steadfast",
    "TargetLock",
    "Volley",
    "after_fire",
    "fire_refusal",
    "order_tier",
    "readied",
    "volley_refusal",
    "wreck",
]


# --- hangars: boarding, launching, repairs (L857-L869, L995-L1005) ------------------------------------

#: HP a round's repairs give per Frame Level of the warship, and how many units it repairs (L1004-L1005).
REPAIR_HP, REPAIRS = 200, 3
#: Battle Damage a repair mends, first found first (L1005; which one: the players may change it).
MENDS = ("bd_head", "bd_propulsion", "shield_broken")


def hangar_slots(unit: Unit) -> int:
    """Hangar slots a unit takes: 2 x Size, 1 for Size 0-1 (L861; digest ambiguity 28)."""
    return max(1, 2 * unit.size) if unit.size >= 2 else 1


def hangar_note(game: Game, side: int) -> str:
    """In space, what the side's units take against its warships' Hangar (L859-L861); "" when they fit."""
    units = [Unit.model_validate(g.profile) for g in game.sides[side].units]
    room = sum(u.hangar for u in units if u.kind == "warship")
    need = sum(hangar_slots(u) for u in units if u.kind != "warship")
    return f"{need} hangar slots needed, {room} carried (L860-L861)" if need > room else ""


def board_refusal(game: Game, ref: str) -> str:
    """The requirement ``board``: a unit that is not a warship, with a warship of its side in play, boards at
    the end of its turn (L1003) or as the battle begins, embarked (L869)."""
    s, _, g, unit = _ship(game, ref)
    if unit.kind == "warship":
        return f"{g.name} is a warship"
    if "aboard" in g.state.conditions:
        return f"{g.name} is aboard a warship"
    if not any(o.profile.get("kind") == "warship" and not o.state.destroyed for o in game.sides[s].units):
        return f"{game.sides[s].name} has no warship in play"
    st = ms_state(game)
    if game.round == 1 and not st.rolled_off:
        return ""  # embarked as the battle begins (L869)
    return "" if st.turn_unit == ref else f"{g.name} boards at the end of its own turn (L1003)"


class Board(Closed):
    """A unit boards a warship of its side within 6" at the end of its turn, or starts the battle embarked
    (L869, L1003)."""

    unit: str = own_unit("Who boards.")
    ship: str = own_unit("Which warship.")


def board(game: Game, inp: Board, dice: DiceSource) -> ActionResult:
    why = board_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g, _ = _ship(game, inp.unit)
    w_side, _, w_g, ship = _ship(game, inp.ship)
    if w_side != s or ship.kind != "warship" or w_g.state.destroyed:
        raise ValueError("pick a warship of its own side still in play")
    work = Working(game)
    state = work.state(s, u)
    state.conditions = [*state.conditions, "aboard"]
    mine = unit_extra(work.unit(s, u))
    mine.aboard = inp.ship
    put_unit_extra(work, s, u, mine)
    text = f"{g.name} boards {w_g.name}" + ("; end its turn" if ms_state(game).turn_unit == inp.unit else "")
    return ActionResult(changes=work.changes(), text=text + " (L1003)")


def launch_refusal(game: Game, ref: str) -> str:
    """The requirement ``launch``: a warship with a unit aboard, once a round as it begins (L995-L997)."""
    s, _, g, unit = _ship(game, ref)
    if unit.kind != "warship":
        return f"{g.name} is not a Stellar Warship"
    if not any(unit_extra(o).aboard == ref for o in game.sides[s].units if "aboard" in o.state.conditions):
        return f"{g.name} has no unit aboard"
    if f"{ref}:launch" in ms_state(game).this_round:
        return f"{g.name} has launched a unit this round"
    return round_start(game)


class Launch(Closed):
    """Launch: as the round begins, a warship deploys one unit aboard, 16" from its hull (adjacent without a
    forward catapult) (L995-L999)."""

    unit: str = own_unit("Which warship.")
    launched: str = own_unit("Which unit aboard.")


def launch(game: Game, inp: Launch, dice: DiceSource) -> ActionResult:
    why = launch_refusal(game, inp.unit)
    if why:
        raise ValueError(why)
    _, _, w_g, _ = _ship(game, inp.unit)
    s, u, g, _ = _ship(game, inp.launched)
    if "aboard" not in g.state.conditions or unit_extra(g).aboard != inp.unit:
        raise ValueError(f"{g.name} is not aboard {w_g.name}")
    work = Working(game)
    state = work.state(s, u)
    state.conditions = [c for c in state.conditions if c != "aboard"]
    mine = unit_extra(work.unit(s, u))
    mine.aboard = ""
    put_unit_extra(work, s, u, mine)
    st = work.extra_as(MsState)
    st.this_round = [*st.this_round, f"{inp.unit}:launch"]
    work.put_extra(st)
    return ActionResult(
        changes=work.changes(),
        text=f'{w_g.name} launches {g.name}: deploy it 16" from the hull, or beside it with no forward '
        "catapult; it takes its turn this round (L997-L999)",
    )


def repairs(game: Game, work: Working) -> None:
    """Round end: each warship in play repairs up to three units aboard, 200 HP x its Frame Level and one
    Battle Damage each (L1004-L1005): the first three aboard in the roster, the damage mended first
    found of head, propulsion, shield (players may change either by hand, Rule Zero)."""
    for s, side in enumerate(game.sides):
        for ship in side.units:
            ref = f"{s}/{ship.key}"
            if ship.profile.get("kind") != "warship" or ship.state.destroyed:
                continue
            frame = int(ship.profile.get("frame", 1))
            aboard = [
                u
                for u, g in enumerate(side.units)
                if "aboard" in g.state.conditions and unit_extra(g).aboard == ref
            ]
            for u in aboard[:REPAIRS]:
                state = work.state(s, u)
                state.damage = max(0, state.damage - REPAIR_HP * frame)
                mended = next((c for c in MENDS if c in state.conditions), "")
                if mended:
                    state.conditions = [c for c in state.conditions if c != mended]
                else:
                    mine = unit_extra(work.unit(s, u))
                    if mine.disabled:
                        mine.disabled = mine.disabled[:-1]
                        put_unit_extra(work, s, u, mine)
