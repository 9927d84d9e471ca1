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
    teams: list[int] = Field(
        default_factory=list,
        max_length=8,
        description="Team play (L113-L118): each player's team number, in the order of the players; empty: "
        "every player for itself.",
    )
    team_order: list[int] = Field(
        default_factory=list,
        max_length=8,
        description="The teams in the order of their priority roll, the team with priority first (L115).",
    )
    withdraw_from: int = Field(
        default=0,
        ge=0,
        le=100,
        description="A campaign battle (L2139-L2140): the round from which a unit may withdraw by moving "
        "back into its deployment zone (5 once four rounds have passed, A51); 0: not a campaign battle.",
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
    beam_flayer_chain: bool = True
    volley_target_sees: Literal["ask", "never"] = "ask"
