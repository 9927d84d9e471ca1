"""Readings of unclear rules, and the battle's set-up (digest section 11; L163-L229).

Every default is the digest's recommended reading.  A game keeps the values by
field name in ``Game.options``.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Mission = Literal["deathmatch", "skirmish", "objective", "territory", "battle_royale"]


class GsOptions(BaseModel):
    """The game type, space or not, and the house readings of Mobile Suit Gundam: Skirmish."""

    model_config = ConfigDict(extra="forbid")

    mission: Mission = Field(
        default="deathmatch",
        description="Game type (L169-L229): deathmatch or battle royale (last player with units), skirmish "
        "(most enemy points destroyed), objective (points in the zone), territory (points per quarter).",
    )
    turn_limit: int = Field(
        default=0,
        ge=0,
        le=20,
        description="Rounds the game lasts (skirmish and territory: D6+4, L181, L207; objective: turns "
        "to hold, D6+2, L197); 0 for none. Roll it with 'Roll game length'.",
    )
    space: bool = Field(
        default=False,
        description="A battle in space: no <S> units, cover one step worse, no height bonus, no Volley, "
        "no Ambush (L1367-L1405).",
    )
    environment: Literal["normal", "dense_minovsky", "bad_weather"] = Field(
        default="normal",
        description="Earth or colony weather (L3306-L3333): Dense Minovsky Particles (Ambush fails on 1-3, "
        "lands within 12\" on 4-5; no Scout, Panoramic Cockpit or Volley) or Bad Weather (a target's "
        "player may remove one hit from a Shoot, 3 times a game).",
    )
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
    objective_consecutive: bool = Field(
        default=False,
        description="[A33] The objective must be held for consecutive turns.",
    )
