"""The rule systems this app knows, one package each (added as they are built).

A system's package reads top-down in the order its rulebook plays:
catalogue, building, turn, actions.  Until its package exists, a system is
listed here with ``status="planned"`` so the home screen can say so honestly.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict

if TYPE_CHECKING:
    from core.systems.base import RuleSystem


class SystemInfo(BaseModel):
    """What the home screen shows of a rule system."""

    model_config = ConfigDict(frozen=True)

    id: str
    name: str
    rulebook: str
    dice: str
    summary: str
    status: Literal["planned", "playable"]


#: The five rulebooks: id, name, rulebook file, dice, status.
_LISTED: tuple[tuple[str, str, str, str, Literal["planned", "playable"]], ...] = (
    ("gundam_skirmish", "Mobile Suit Gundam: Skirmish", "000_3e12d4cbd0c8f6da.txt", "d6", "playable"),
    ("gunframe", "GUNFRAME", "001_c60598db3e91d492.txt", "d6", "playable"),
    ("ms_battles", "Mobile Suit Battles", "002_c5caa4b4fc3fd928.txt", "cards", "playable"),
    ("mechastellar", "MechaStellar", "003_9a8631fd8c2279be.txt", "d10", "playable"),
    ("skirmishers", "Skirmishers", "004_63417322d25a2f10.txt", "2d6", "playable"),
)
#: What the home screen says of each, in a line.
_SUMMARIES: dict[str, str] = {
    "gundam_skirmish": "Attack pools against armour and shield dice, damage charts, morale, missions.",
    "gunframe": "Firepower against defense pools, power attacks, Focus Points, squadron building.",
    "ms_battles": "Twenty-card decks, hidden planning, initiative and damage by zone.",
    "mechastellar": "Evade rolls on d10, melee clashes, armour saves and Momentum.",
    "skirmishers": "Infantry, vehicles and power armour on a hex-dot map.",
}

SYSTEMS: tuple[SystemInfo, ...] = tuple(
    SystemInfo(id=i, name=name, rulebook=book, dice=dice, summary=_SUMMARIES[i], status=status)
    for i, name, book, dice, status in _LISTED
)


#: Where each playable system's implementation lives (imported on first use,
#: so start-up only pays for the systems a player opens).
IMPLEMENTATIONS: dict[str, str] = {
    "gundam_skirmish": "core.systems.gundam_skirmish",
    "gunframe": "core.systems.gunframe",
    "mechastellar": "core.systems.mechastellar",
    "ms_battles": "core.systems.ms_battles",
    "skirmishers": "core.systems.skirmishers",
}


def info(system_id: str) -> SystemInfo:
    """The listing of a system; raises ValueError for an unknown id."""
    for s in SYSTEMS:
        if s.id == system_id:
            return s
    raise ValueError(f"unknown rule system {system_id!r}")


def implementation(system_id: str) -> RuleSystem:
    """The :class:`~core.systems.base.RuleSystem` of a system; ValueError if it is not built yet."""
    info(system_id)
    module_name = IMPLEMENTATIONS.get(system_id)
    if module_name is None:
        raise ValueError(f"{info(system_id).name} is not playable yet")
    module = importlib.import_module(module_name)
    system: RuleSystem = module.SYSTEM
    return system


def unplayable(system_id: object) -> str | None:
    """Why a game of ``system_id`` cannot be played by this build, in plain words (None if it can).

    >>> unplayable("gunframe") is None
    True
    >>> unplayable("nope")
    'It is for a rule system this version of the app does not know.'
    """
    known = next((s for s in SYSTEMS if isinstance(system_id, str) and s.id == system_id), None)
    if known is None:
        return "It is for a rule system this version of the app does not know."
    if known.id not in IMPLEMENTATIONS:
        return f"{known.name} cannot be played in this version of the app yet."
    return None
