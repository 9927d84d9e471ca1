"""The system's own tools (reached through the generic ``system.tool`` operation).

* ``guidelines``: the book's guideline tables for custom units (L2425-L2765) and the
  custom-unit cost of a profile (L2758-L2765), for an editor or a player building a unit;
* ``weapon``: a ranged or close combat weapon line filled from a guideline row.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

from core.systems.base import Closed, ToolError, ToolSpec
from core.systems.gundam_skirmish.catalogue import ARMOUR, BEAM_DEFENCE, CLOSE, RANGED, SHIELDS
from core.systems.gundam_skirmish.units import (
    CloseCombatWeapon,
    RangedWeapon,
    Unit,
    archetype_close,
    archetype_weapon,
    formula_cost,
)


class GuidelinesInput(Closed):
    profile: dict[str, Any] | None = Field(default=None, description="A unit to price by the formula.")


class GuidelinesResult(BaseModel):
    ranged: list[dict[str, Any]] = Field(description="Ranged weapon rows (L2519-L2634).")
    close: list[dict[str, Any]] = Field(description="Close combat weapon rows (L2640-L2658).")
    shields: dict[str, dict[str, Any]] = Field(description="Shield grades (L804-L853, L2659-L2724).")
    beam_defence: dict[str, list[int]] = Field(description="I-field and beam shield grades (L666-L674).")
    armour: list[dict[str, Any]] = Field(description="Armour materials by era (L2452-L2497).")
    formula: int | None = Field(
        default=None, description="(Move + Integrity + Armour) x 10 + shield (L2758)."
    )
    allowance: int = Field(default=50, description="Points a judge may add for abilities (L2765).")


def guidelines(inp: GuidelinesInput) -> GuidelinesResult:
    cost = None
    if inp.profile is not None:
        try:
            cost = formula_cost(Unit.model_validate(inp.profile))
        except ValueError as bad:
            raise ToolError(f"not a unit: {bad}", "profile") from bad
    return GuidelinesResult(
        ranged=[r.model_dump() for r in RANGED],
        close=[c.model_dump() for c in CLOSE],
        shields={k: v.model_dump() for k, v in SHIELDS.items()},
        beam_defence={k: list(v) for k, v in BEAM_DEFENCE.items()},
        armour=[a.model_dump() for a in ARMOUR],
        formula=cost,
    )


class WeaponInput(Closed):
    row: str = Field(description="Key of a guideline row, ranged or close combat (e.g. 'beam_rifle').")
    name: str = Field(default="", max_length=60, description="The weapon's name; empty: the row's label.")
    equip: Literal["C", "M"] = Field(default="C", description="Carried or mounted (ranged weapons).")


class WeaponResult(BaseModel):
    ranged: RangedWeapon | None = Field(default=None, description="The ranged weapon line.")
    close: CloseCombatWeapon | None = Field(default=None, description="The close combat weapon line.")


def weapon(inp: WeaponInput) -> WeaponResult:
    ranged = {r.key: r for r in RANGED}
    close = {c.key: c for c in CLOSE}
    if inp.row in ranged:
        return WeaponResult(ranged=archetype_weapon(inp.row, inp.name or ranged[inp.row].label, inp.equip))
    if inp.row in close:
        return WeaponResult(close=archetype_close(inp.row, inp.name or close[inp.row].label))
    raise ToolError(f"no guideline row {inp.row!r}", "row")


TOOLS: dict[str, ToolSpec] = {
    "guidelines": ToolSpec(
        "guidelines",
        GuidelinesInput,
        guidelines,
        GuidelinesResult,
        guidelines.__doc__ or "The guideline tables and the formula cost of a unit.",
    ),
    "weapon": ToolSpec("weapon", WeaponInput, weapon, WeaponResult, "A weapon line from a guideline row."),
}
