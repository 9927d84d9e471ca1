"""Set-ups that reach a system's declared modifiers, for the contract check (issue 27).

Every modifier an action's form offers must change the odds of some matchup, so that one the engine
accepts and silently ignores is caught (``tests/test_contract.py``).  The sample battle and the
catalogue's duels reach most of them; a modifier that needs an ability, a pilot's trait, a weapon, a
condition or a moment of play that no fresh game has is reached by a *situation* its system declares as
data in its own package, ``witnesses.json`` (absent: none):

* the sides, each a list of catalogue units, or of units a player could build from one (``set``: the
  profile's fields changed, and the unit must still pass its own building checks);
* the game's readings of unclear rules the players picked (``options``);
* the steps that bring the game to the moment, each an action of the engine's own with the faces the
  players typed (or the next round), played through the seam as the app plays them;
* the tries: an action's input at that moment, and the modifiers it is there to show, each of which must
  be taken by the engine and change the odds.

A modifier that no situation can reach yet is listed with the reason in ``not_yet``: the check names
it instead of failing, so the gap stays in plain sight.  This module names no system.
"""

from __future__ import annotations

from importlib import resources
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from core.systems import IMPLEMENTATIONS

FILE = "witnesses.json"


class _Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class BuiltUnit(_Closed):
    """A unit a player could build from a catalogue one: its profile with some fields changed."""

    unit: str = Field(description="The catalogue unit it starts from, by id.")
    set: dict[str, Any] = Field(default_factory=dict, description="Profile fields changed, by name.")


class Step(_Closed):
    """One step of play that brings the game to the moment: an action with typed faces, or the next round."""

    op: Literal["act", "round"] = "act"
    action: str = ""
    input: dict[str, Any] = Field(default_factory=dict)
    faces: list[int] = Field(default_factory=list, description="The dice the players typed, in order.")


class Try(_Closed):
    """An action's input at the moment, and the modifiers of its form it shows moving the odds."""

    action: str
    input: dict[str, Any]
    modifiers: list[str] = Field(min_length=1)


class Situation(_Closed):
    """A game set up and played to a moment where some modifiers can be taken."""

    name: str = Field(min_length=1, description="What the moment is, in words.")
    sides: list[list[str | BuiltUnit]] = Field(min_length=2)
    options: dict[str, Any] = Field(default_factory=dict, description="Readings the players picked.")
    steps: list[Step] = Field(default_factory=list)
    tries: list[Try] = Field(min_length=1)


class Witnesses(_Closed):
    """A package's ``witnesses.json``."""

    situations: list[Situation] = Field(default_factory=list)
    not_yet: dict[str, str] = Field(
        default_factory=dict, description="'action.field' -> why no situation reaches it yet."
    )


def witnesses(system_id: str) -> Witnesses:
    """The situations the system ``system_id`` declares (none when its package has no file)."""
    package = IMPLEMENTATIONS.get(system_id)
    if package is None:
        return Witnesses()
    found = resources.files(package).joinpath(FILE)
    if not found.is_file():
        return Witnesses()
    return Witnesses.model_validate_json(found.read_bytes())
