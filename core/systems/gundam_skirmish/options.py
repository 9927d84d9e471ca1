"""Readings of unclear rules (digest section 11), and the system's own game-wide values.

Every default is the digest's recommended reading.  A game keeps the values by
field name in ``Game.options``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class GsState(BaseModel):
    """The system's own game-wide values (``Game.state.extra``); the game type is ``state.mission``,
    the weather ``state.environment``, the game length ``state.clocks['turn_limit']``."""

    model_config = ConfigDict(extra="forbid")

    space: bool = Field(
        default=False,
        description="A battle in space: no <S> units, cover one step worse, no height bonus, no Volley, "
        "no Ambush (L1367-L1405).",
    )


class GsOptions(BaseModel):
    """The house readings of Mobile Suit Gundam: Skirmish (digest section 11)."""

    model_config = ConfigDict(extra="forbid")

    shield_against_p: Literal["check", "ignored"] = Field(
        default="check",
        description="[A3] Against <P> a shield needs 4+ on a D6 and then loses 1 integrity (L660-L663); "
        "'ignored': no Shield Bonus at all against <P> (L1344).",
    )
    space_p_stack: bool = Field(
        default=True,
        description="[A22] In space, a <P> shot worsens cover twice (the two shifts add up).",
    )
    piercing_is_charge: bool = Field(
        default=False,
        description="[A48] A Piercing Strike counts as a Charge (2D6 Advantage, re-roll a failed hit).",
    )
    head_damage_aimed: bool = Field(
        default=True,
        description="[A28] Against a shooter with Head Damage, the target may make it re-roll a "
        "successful Aimed Shot die (L1221-L1223).",
    )
    mega_units: bool = Field(
        default=False,
        description="[Casual play] Mega Units may take part (L1309-L1319); off: the book's standard game.",
    )
    objective_consecutive: bool = Field(
        default=False,
        description="[A33] The objective must be held for consecutive turns.",
    )
