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

Not yet: Last Shooting (L745-L750) and Bonds that Transcend Time & Space (L783-L788), which act with a
destroyed unit; Pyrrhic Victory (L752-L756); The Will to Power! (L777-L781); the self-destruct Event whose
name is lost (L763-L768): the players'.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource
from core.game import Game
from core.systems.base import ActionResult, Closed, needs, own_unit, read_options
from core.systems.mechastellar.options import MsOptions
from core.systems.mechastellar.state import MsState, ms_state
from core.systems.mechastellar.turns import add_focus, begin_turn

EVENTS = {
    "narrow_escape": "Narrow Escape",
    "berserk": "It's Gone Berserk!!!",
    "clarity": "Moment of Clarity",
}


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


def berserk(unit_conditions: list[str]) -> bool:
    return "berserk" in unit_conditions


class Event(Closed):
    """A side's Climactic Event, once a game (L736)."""

    unit: str = own_unit("The unit it is for (Moment of Clarity: the Commander, on its turn).")
    event: Literal["berserk", "clarity"] = Field(
        default="berserk",
        description="Which Event (Narrow Escape is offered when a shot or a clash comes).",
        json_schema_extra={
            "flow": "choice",
            "x-labels": {"berserk": EVENTS["berserk"], "clarity": EVENTS["clarity"]},
            **needs("commander", values=["clarity"]),
        },
    )


def event(game: Game, inp: Event, dice: DiceSource) -> ActionResult:
    why = events_module(game, inp.unit)
    if why:
        raise ValueError(why)
    s, u, g = game.unit(inp.unit)
    if g.state.destroyed:
        raise ValueError(f"{g.name} is destroyed")
    work = Working(game)
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
