"""What a GUNFRAME unit keeps of its own in a game (``UnitState.extra``, the runtime state of digest 2.4).

:class:`GfUnitState` is the typed model of that dict; the shared layer checks every unit's ``extra``
against it whenever a game is read (a save, a link, an engine call).  The dict is *sparse*: a key is
there only once a rule has set it, and the per-turn ones go at the start of every turn
(``state.TURN_FLAGS``, L740), so every field has the default that an absent key means.

>>> GfUnitState.model_validate({}).fp_spent, GfUnitState.model_validate({"form": 1}).form
(0, 1)
>>> from pydantic import ValidationError
>>> try:
...     GfUnitState.model_validate({"spin": 1})
... except ValidationError as bad:
...     print(bad.errors()[0]["type"])
extra_forbidden
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from core.game import GameUnit

#: A unit of the game, as ``"side/key"`` (e.g. ``"1/u2"``).
Ref = Annotated[str, Field(max_length=60)]
#: A weapon system, which is also its range band (L1036-1040).
Band = Literal["close", "short", "medium", "long"]


class HeldPower(BaseModel):
    """Power points an attack left its attacker holding until it spends them (L1188-1196)."""

    model_config = ConfigDict(extra="forbid")

    points: int = Field(ge=0, description="Power points held (L1188).")
    target: Ref = Field(description="The unit that took the attack's damage (a Guardian's, L2316).")
    weapon: Band = Field(description="The weapon system that made them.")
    close: bool = Field(description="Made by a Close attack.")
    damage: int = Field(ge=0, description="Damage the attack dealt.")
    destroyed: bool = Field(description="The attack destroyed its target.")


class SplitShare(BaseModel):
    """A Split Fire still being shared out among targets (L2462)."""

    model_config = ConfigDict(extra="forbid")

    weapon: Band = Field(description="The weapon system split.")
    value: int = Field(ge=0, description="Its dice in all.")
    sent: int = Field(ge=0, description="Dice sent so far.")
    targets: list[Ref] = Field(description="Units already sent a share: each share goes at another one.")


class GfUnitState(BaseModel):
    """One GUNFRAME unit's own values in play; an absent key reads as the field's default."""

    model_config = ConfigDict(extra="forbid")

    power: HeldPower | None = Field(default=None, description="Power points held, until spent (L1188-1196).")
    fp_spent: int = Field(default=0, ge=0, description="Focus Points spent on it this turn (L776-782).")
    reacted: bool = Field(default=False, description="It has made a reaction this turn (L3339).")
    locked: bool = Field(default=False, description="It has taken a Target Lock action this turn (L1358).")
    evaded: bool = Field(default=False, description="It has taken an Evade action this turn (L1385).")
    reboot: int = Field(default=0, ge=0, description="Special actions already put into rebooting (L960).")
    used: list[Annotated[str, Field(max_length=40)]] = Field(
        default_factory=list,
        description="Once-a-battle things spent, by id: lucky (L2330), ablative_armour (L2366), "
        "quick_reflexes, well_read, combine (L2535).",
    )
    form: int = Field(default=0, ge=0, description="Current form of a transforming unit, from 0 (L2224).")
    mission_unit: Literal["convoy"] | None = Field(
        default=None, description="An Escort convoy vehicle the mission brought in (L1886-1895)."
    )
    systems_used: list[Band] = Field(
        default_factory=list,
        description="Weapon systems that attacked in its current activation (L1046-1050).",
    )
    split: SplitShare | None = Field(default=None, description="A Split Fire still owed (L2462).")
    links_used: dict[Annotated[str, Field(max_length=40)], int] = Field(
        default_factory=dict,
        description="The log step each linked upgrade last answered, by trigger (L2278, L2302-2358).",
    )
    nemesis: Ref | None = Field(default=None, description="The enemy its Nemesis nominated (L2336).")
    inside: Ref | None = Field(default=None, description="The building infantry occupies (L2896, L2951).")
    entered_building: int | None = Field(
        default=None, description="The turn it went into a building (L2938)."
    )
    left_building: int | None = Field(default=None, description="The turn it came out of one (L2938).")
    combined_into: Ref | None = Field(
        default=None, description="The combined form a member is part of (L2539-2549)."
    )
    team: list[Ref] = Field(
        default_factory=list, description="A combined form's members, leader first, while combined (L2535)."
    )

    @classmethod
    def of(cls, unit: GameUnit) -> GfUnitState:
        """A unit's values as this model (the game was checked against it when it was read)."""
        return cls.model_validate(unit.state.extra)
