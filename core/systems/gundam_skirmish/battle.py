"""A battle of Mobile Suit Gundam: Skirmish (L278-L1619): what every chapter of its play shares.

The battle's rules are one module per chapter of the book (see the package's docstring); this one
holds what they all read: the unit's profile and the game's readings, mission and weather, the
:class:`Changes` an action collects, the input of an action by one unit or one side, and the UI
markers of the input fields.

Every action reads the game, takes each face from the dice source and returns
the changes; the shared layer records them as one event, so undo and redo are
exact.  What a unit keeps (UnitState):

* ``damage`` / ``max_damage``: Integrity lost and the unit's Integrity (L1094-L1098);
* counters ``leg``, ``arm``, ``head`` (Damage Chart levels; Engine and Weapons for
  other units, L1147-L1239), ``shield`` (shield integrity, L654), ``actions``
  (action points used this turn: a Fast action 1, a Slow one 2, L384-L387);
* conditions ``wavering``, ``routed`` (L1536-L1559), ``morale_due`` (a trigger
  happened, L1582-L1602), ``reserve`` (waiting to Ambush), ``shield_broken``,
  ``dig_in``, ``flight_mode``, ``no_actions``, ``no_carried``, ``acc5`` (timed
  effects of Grapple Hook, Heat Rod, Smoke), ``bring_them_down``, ``withdrawn``;
* ``extra``: the equipped carried weapon (or ``"cc"``), which weapons need a
  reload, once-per-battle uses, the pilot's Health and Mind: every key described
  by :class:`~core.systems.gundam_skirmish.unit_state.GsUnitState`.

Geometry (sight, range, cover, height, facing) stays on the table: the
player answers it in the action's form.
"""

from __future__ import annotations

from collections.abc import Set
from typing import Any, NoReturn

from pydantic import BaseModel, ConfigDict, Field
from pydantic.config import JsonDict

from core.changes import Working
from core.game import Game, GameUnit, profile_as
from core.systems.base import Change, Choice, NeedChoice, read_options
from core.systems.gundam_skirmish.options import GsOptions
from core.systems.gundam_skirmish.shooting import MS_CHART, OTHER_CHART, Levels
from core.systems.gundam_skirmish.units import Unit

OWN: JsonDict = {"ui": "own-unit"}


ENEMY: JsonDict = {"ui": "enemy-unit"}


#: A value the acting unit offers from its own sheet (its weapons): see :func:`shot_picks`.
PICK: JsonDict = {"flow": "pick"}


def profile(gu: GameUnit) -> Unit:
    """The unit's profile (read once a pure request: not to be changed in place)."""
    return profile_as(Unit, gu)


def opts(game: Game) -> GsOptions:
    return read_options(GsOptions, game.options)


def mission(game: Game) -> str:
    """The game type (L169-L229), deathmatch until the players choose (``Game.state.mission``)."""
    return game.state.mission or "deathmatch"


def weather(game: Game) -> str:
    """Earth weather (L3306-L3333): normal, dense_minovsky or bad_weather (``Game.state.environment``)."""
    return game.state.environment or "normal"


def in_space(game: Game) -> bool:
    return bool(game.state.extra.get("space", False))


def turn_limit(game: Game) -> int:
    return int(game.state.clocks.get("turn_limit", 0))


def unit_path(s: int, u: int, *rest: str) -> list[str | int]:
    return ["sides", s, "units", u, "state", *rest]


class Changes(Working):
    """Changes collected while an action resolves: edits of the shared working copy
    (:class:`core.changes.Working`), logged by the shared diff."""

    #: The side whose attack is dealing damage now (a kill scores for it alone, L179-L190); None for
    #: damage no enemy dealt (a unit's own Heat Radiation, terrain).
    by: int | None = None

    @property
    def list(self) -> list[Change]:
        return self.changes()

    def counter(self, s: int, u: int, key: str, value: int) -> None:
        self.set(unit_path(s, u, "counters", key), value)

    def condition(self, s: int, u: int, key: str, on: bool) -> None:
        conds = list(self.unit(s, u).state.conditions)
        if on and key not in conds:
            self.set(unit_path(s, u, "conditions"), [*conds, key])
        elif not on and key in conds:
            self.set(unit_path(s, u, "conditions"), [c for c in conds if c != key])

    def extra(self, s: int, u: int, key: str, value: Any) -> None:
        self.set(unit_path(s, u, "extra", key), value)

    def resource(self, s: int, key: str, value: int) -> None:
        self.set(["sides", s, "resources", key], value)


#: Units named by their reference ("side/key"), or None while not asked.
Units = list[str] | None


def asked_units(description: str) -> Any:
    """A field of units the app asks for when the rules need them (hidden from the form)."""
    return Field(default=None, max_length=120, description=description, json_schema_extra={"ui": "hidden"})


def has(gu: GameUnit, cond: str) -> bool:
    return cond in gu.state.conditions


def levels_of(gu: GameUnit) -> Levels:
    c = gu.state.counters
    return (c.get("leg", 0), c.get("arm", 0), c.get("head", 0), 0)


def chart_for(unit: Unit) -> dict[int, str]:
    """The Mobile Suit chart for suits, armours and fighters; the Other Units chart for the rest (A45)."""
    return MS_CHART if unit.kind in ("mobile_suit", "mobile_armour", "mobile_fighter") else OTHER_CHART


def trans_am(game: Game, s: int, gu: GameUnit) -> bool:
    """Trans-Am is on in its player's first 3 turns: double Move and Boost, +2 DAM (L3218-L3224; A39)."""
    return profile(gu).has("trans_am") and game.sides[s].resources.get("turns", 0) <= 3


def integrity_left(gu: GameUnit) -> int:
    return gu.state.max_damage - gu.state.damage


class UnitInput(BaseModel):
    """An action of one unit."""

    model_config = ConfigDict(extra="forbid")

    unit: str = Field(description="The unit acting.", json_schema_extra=OWN)


class SideInput(BaseModel):
    model_config = ConfigDict(extra="forbid")

    side: int = Field(
        default=-1,
        ge=-1,
        le=7,
        description="Unused: the turn passes in the fixed order.",
        json_schema_extra={"ui": "hidden"},
    )


def ask_units(game: Game, field: str, prompt: str, leave_out: Set[str] = frozenset()) -> NoReturn:
    """Ask which units stand somewhere on the table (a zone, a quarter, a blast): none ticked is an answer
    too; ``leave_out`` names units that cannot be among them."""
    live = [
        (f"{s}/{g.key}", f"{side.name}: {g.name}")
        for s, side in enumerate(game.sides)
        for g in side.units
        if not g.state.destroyed
        and not has(g, "withdrawn")
        and not has(g, "reserve")
        and f"{s}/{g.key}" not in leave_out
    ]
    raise NeedChoice(field, prompt, [Choice(value=ref, label=label) for ref, label in live], many=True)
