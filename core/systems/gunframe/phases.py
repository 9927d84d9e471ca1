"""Where a GUNFRAME turn stands, for the phase strip: a turn is an Initiative phase, an
Activation phase and an End phase (001_c60598db3e91d492.txt L674-678), then a new turn
(L750).

* Initiative (L680): the app's ``initiative`` action; done once a side holds an initiative
  total this turn (a new turn clears them, :func:`.turn.start_round`).
* Activation (L712): the players activate their units from the units' cards, until every
  unit on the table has activated.
* End phase (L720): the ``end_phase`` action (objectives, victory points), then a new turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.systems.base import PhaseStep, PhaseView

if TYPE_CHECKING:
    from core.game import Game

#: Conditions of a unit that is not on the table (it neither activates nor holds up the turn).
AWAY = {"in_reserve", "off_table"}

STEPS = [
    PhaseStep(key="initiative", label="Initiative", action="initiative", sheet=True),  # L680
    PhaseStep(key="activation", label="Activation", hint="Activate units from their cards."),  # L712
    PhaseStep(key="end", label="End phase", action="end_phase", sheet=True),  # L720
]


def phase(game: Game) -> PhaseView:
    """The step the game is at.

    >>> from core.game import Game, GameUnit, Side
    >>> from core.systems.base import UnitState
    >>> unit = GameUnit(key="u1", name="A", profile={}, state=UnitState(max_damage=4))
    >>> side = Side(name="Red", squad_name="R", units=[unit])
    >>> game = Game(id="g", system="gunframe", sides=[side, side.model_copy(update={"name": "Blue"})])
    >>> phase(game).current
    0
    """
    if not any(side.resources.get("initiative", 0) for side in game.sides):
        return PhaseView(steps=STEPS, current=0)
    waiting = [
        unit
        for side in game.sides
        for unit in side.units
        if not unit.state.destroyed and not unit.state.activated and not AWAY & set(unit.state.conditions)
    ]
    return PhaseView(steps=STEPS, current=1 if waiting else 2)
