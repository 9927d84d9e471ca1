"""Readings of unclear rules (digest section 11), and the system's own game-wide values.

Every default is the digest's recommended reading.  A game keeps the values by
field name in ``Game.options``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from core.systems.base import Closed, Readings


class GsState(Closed):
    """The system's own game-wide values (``Game.state.extra``); the game type is ``state.mission``,
    the weather ``state.environment``, the game length ``state.clocks['turn_limit']``."""

    space: bool = Field(
        default=False,
        description="A battle in space: no <S> units, cover one step worse, no height bonus, no Volley, "
        "no Ambush (L1367-L1405).",
    )


class GsOptions(Readings):
    """The house readings of Mobile Suit Gundam: Skirmish (digest section 11)."""

    # What each reading means, with its lines, is in options.json.

    shield_against_p: Literal["check", "ignored"] = "check"
    space_p_stack: bool = True
    piercing_is_charge: bool = False
    head_damage_aimed: bool = True
    mega_units: bool = False
    objective_consecutive: bool = False
