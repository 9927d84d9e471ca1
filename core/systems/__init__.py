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


SYSTEMS: tuple[SystemInfo, ...] = (
    SystemInfo(
        id="gundam_skirmish",
        name="Mobile Suit Gundam: Skirmish",
        rulebook="000_3e12d4cbd0c8f6da.txt",
        dice="d6",
        summary="Attack pools against armour and shield dice, damage charts, morale, campaigns.",
        status="playable",
    ),
    SystemInfo(
        id="gunframe",
        name="GUNFRAME",
        rulebook="001_c60598db3e91d492.txt",
        dice="d6",
        summary="Firepower against defense pools, power attacks, Focus Points, squadron building.",
        status="playable",
    ),
    SystemInfo(
        id="ms_battles",
        name="Mobile Suit Battles",
        rulebook="002_c5caa4b4fc3fd928.txt",
        dice="cards",
        summary="Twenty-card decks, hidden planning, initiative and damage by zone.",
        status="playable",
    ),
    SystemInfo(
        id="mechastellar",
        name="MechaStellar",
        rulebook="003_9a8631fd8c2279be.txt",
        dice="d10",
        summary="Evade rolls on d10, melee clashes, armour saves and Momentum.",
        status="planned",
    ),
    SystemInfo(
        id="skirmishers",
        name="Skirmishers",
        rulebook="004_63417322d25a2f10.txt",
        dice="2d6",
        summary="Infantry, vehicles and power armour on a hex-dot map.",
        status="planned",
    ),
)


#: Where each playable system's implementation lives (imported on first use,
#: so start-up only pays for the systems a player opens).
IMPLEMENTATIONS: dict[str, str] = {
    "gundam_skirmish": "core.systems.gundam_skirmish",
    "gunframe": "core.systems.gunframe",
    "ms_battles": "core.systems.ms_battles",
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
