"""Climactic Events (L734-L788), an optional module (the reading ``climactic_events``).

Each player picks one Event, usable once a game at any time (L736): the app lets each side use one, the
first it uses being its pick.

* Narrow Escape (L738-L743): the unit fully evades one shooting weapon (offered with Skill Defense after
  the evade dice, for a shot or an Overwatch attack) or cancels a Melee Clash (offered when the defender
  splits its dice: no die is rolled; the attacker's melee for the turn is spent, without its Momentum).
  The drill's burrowing (L743): players.
* It's Gone Berserk!!! (L770-L775): the unit gains +2 hits in melee for good and loses its shooting
  weapons; the +2 does not add to Merciless Melee's (L775).
* Moment of Clarity (L758-L762): on its turn the Commander takes 1 Focus for every 2 rounds gone by.
* Last Shooting (L745-L750): a unit just destroyed makes one shooting attack (:mod:`.reactions`), offered
  on the result that destroyed it and open until that unit turn ends; never at a unit in melee (L750).
* Pyrrhic Victory (L752-L756): the defender of a Melee Clash, asked once the dice are rolled and its Skill
  Defense spent, adds 1 counterattack hit for every 2 hits it takes (:mod:`.melee`).
* The Will to Power! (L777-L781): from Round 4 the Commander, asked after its evade dice are rolled, turns up
  to 3 of its plain hits into criticals (worth 2 each, L140) (:mod:`.shooting`).
* Bonds that Transcend Time & Space (L783-L788): from Round 5, when its side is to activate a new unit, a
  destroyed unit (asked) comes back with 100 HP and takes its turn at once.

The self-destruct Event whose name is lost (L763-L768): the players'.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game
from core.systems.base import ActionResult, Choice, Closed, NeedChoice, Offer, needs, own_unit, read_options
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.state import MsState, MsUnitState, ms_state
from core.systems.mechastellar.turns import add_focus, begin_turn, check_turn

EVENTS = {
    "narrow_escape": "Narrow Escape",
    "berserk": "It's Gone Berserk!!!",
    "clarity": "Moment of Clarity",
    "last_shooting": "Last Shooting",
    "pyrrhic": "Pyrrhic Victory",
    "will_to_power": "The Will to Power!",
    "bonds": "Bonds that Transcend Time & Space",
}
#: What a unit brought back by Bonds that Transcend Time & Space has left (L788).
BONDS_HP = 100


def events_on(game: Game) -> bool:
    return read_options(MsOptions, game.options).climactic_events


def event_used(game: Game, side: int) -> str:
    """The Event the side has used this game ("" when none, L736)."""
    return next((e.split(":", 1)[1] for e in ms_state(game).once if e.startswith(f"{side}:event:")), "")


def escape_open(game: Game, side: int) -> bool:
    """Narrow Escape may be used by this side now (L742)."""
    return events_on(game) and not event_used(game, side)


def note_event(work: Working, side: int, event: str) -> None:
    st = work.extra_as(MsState)
    st.once = [*st.once, f"{side}:event:{event}"]
    work.put_extra(st)


def events_module(game: Game, ref: str) -> str:
    """The requirement ``events``: the module is on and the unit's side has not used its Event."""
    if not events_on(game):
        return "the Climactic Events module is off"
    side, _, _ = game.unit(ref)
    used = event_used(game, side)
    return f"{game.sides[side].name} has used its Event ({EVENTS.get(used, used)})" if used else ""


def last_offer(game: Game, victim: str) -> list[Offer]:
    """Last Shooting offered on the result that destroyed ``victim``, while its side's Event is open and
    the unit has a shooting weapon (L747)."""
    side, _, g = game.unit(victim)
    guns = any(w.get("kind", "shooting") == "shooting" for w in g.profile.get("weapons", []))
    if not escape_open(game, side) or not guns or "berserk" in g.state.conditions:
        return []
    return [
        Offer(action="last_shooting", input={"unit": victim}, label=f"Last Shooting: {g.name} fires once")
    ]


def last_shot(game: Game, ref: str) -> str:
    """The requirement ``last_shot``: the unit was destroyed this unit turn and its side's Event is open
    (L747)."""
    _, _, g = game.unit(ref)
    if not g.state.destroyed:
        return f"{g.name} is not destroyed"
    if "gone" in g.state.conditions:
        return f"{g.name} was destroyed before this turn: Last Shooting comes at once (L747)"
    return events_module(game, ref)


def bonds_open(game: Game, ref: str) -> str:
    """The requirement ``bonds``: Round 5 on, and the side has a destroyed unit (L785-L786)."""
    side, _, _ = game.unit(ref)
    if game.round < 5:
        return "Bonds that Transcend Time & Space is used from Round 5 (L785)"
    if not any(u.state.destroyed for u in game.sides[side].units):
        return f"{game.sides[side].name} has no destroyed unit"
    return ""


def berserk(unit_conditions: list[str]) -> bool:
    return "berserk" in unit_conditions


class Event(Closed):
    """A side's Climactic Event, once a game (L736)."""

    unit: str = own_unit("The unit it is for (Moment of Clarity: the Commander, on its turn).")
    event: Literal["berserk", "clarity", "bonds"] = Field(
        default="berserk",
        description="Which Event (the others are offered when they can be used: Narrow Escape when a shot or "
        "a clash comes, Last Shooting as a unit is destroyed, Pyrrhic Victory in a clash, The Will to Power! "
        "after a shot's dice).",
        json_schema_extra={
            "flow": "choice",
            "x-labels": {k: EVENTS[k] for k in ("berserk", "clarity", "bonds")},
            "needs": [
                *needs("commander", values=["clarity"])["needs"],
                *needs("bonds", values=["bonds"])["needs"],
            ],
        },
    )
    fallen: str | None = Field(
        default=None,
        max_length=60,
        description="Bonds that Transcend Time & Space: the destroyed unit that comes back (L788); asked.",
        json_schema_extra={"ui": "hidden"},
    )


def _bonds(game: Game, work: Working, inp: Event) -> str:
    """A destroyed unit of the side comes back with 100 HP and takes its turn at once, when the side is to
    activate a new unit, from Round 5 (L785-L788)."""
    side, _, _ = game.unit(inp.unit)
    why = bonds_open(game, inp.unit)
    if why:
        raise ValueError(why)
    if inp.fallen is None:
        options = [
            Choice(value=f"{side}/{u.key}", label=u.name) for u in game.sides[side].units if u.state.destroyed
        ]
        raise NeedChoice("fallen", "Bonds that Transcend Time & Space: which unit comes back?", options)
    b_side, b_i, back = game.unit(inp.fallen)
    if b_side != side or not back.state.destroyed:
        raise ValueError(f"{back.name} is not a destroyed unit of {game.sides[side].name}")
    probe = game.model_copy(deep=True)  # as if it were back: may it take its turn now (L786)?
    again = probe.sides[b_side].units[b_i].state
    again.destroyed, again.activated = False, False
    check_turn(probe, inp.fallen)
    state = work.state(b_side, b_i)
    state.destroyed, state.activated = False, False
    state.damage = max(0, state.max_damage - BONDS_HP)
    state.conditions, state.counters = (
        [],
        {**state.counters, "actions": 0, "stun": 0, "focus": 0, "bonus": 0, "allout": 0},
    )
    state.extra = MsUnitState().model_dump(mode="json")
    begin_turn(probe, work, inp.fallen)
    return f"{back.name} returns to battle with {BONDS_HP} HP and takes its turn (L788)"


def event(game: Game, inp: Event, dice: DiceSource) -> ActionResult:
    why = events_module(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g = game.unit(inp.unit)
    work = Working(game)
    if inp.event == "bonds":
        text = _bonds(game, work, inp)
        note_event(work, s, inp.event)
        return ActionResult(changes=work.changes(), text=text)
    if g.state.destroyed:
        raise ValueError(f"{g.name} is destroyed")
    if inp.event == "berserk":
        state = work.state(s, u)
        if "berserk" not in state.conditions:
            state.conditions = [*state.conditions, "berserk"]
        text = f"{g.name} has gone berserk: +2 hits in melee for good, its shooting weapons lost (L772-L773)"
    else:
        if g.profile.get("commander", "none") == "none":
            raise ValueError(f"{g.name} is not the Commander")
        n = (game.round - 1) // 2  # rounds gone by, before this one (L760)
        if n < 1:
            raise ValueError("Moment of Clarity gives a Focus for every 2 rounds gone by: none yet (L760)")
        begin_turn(game, work, inp.unit)  # on its own turn
        add_focus(work, s, u, n)
        text = f"{g.name}'s Moment of Clarity: {n} Focus this turn, no action spent (L760)"
    note_event(work, s, inp.event)
    return ActionResult(changes=work.changes(), text=text)
