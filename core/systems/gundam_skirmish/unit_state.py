"""What a Mobile Suit Gundam: Skirmish unit keeps of its own in a battle (``UnitState.extra``).

:class:`GsUnitState` is the typed model of that dict; the shared layer checks every unit's ``extra``
against it whenever a game is read (a save, a link, an engine call).  A unit starts with ``equipped``,
``reload`` and ``once`` set (and ``pilot`` when it has a named character, L1137-L1145); a key that is
absent reads as the field's default.

>>> GsUnitState.model_validate({"equipped": "cc", "reload": {}, "once": []}).pilot is None
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    from core.game import GameUnit

#: A weapon, by its name in the unit's profile (or ``"cc"`` for its close combat weapon).
WeaponName = Annotated[str, Field(max_length=200)]


class Pilot(BaseModel):
    """A named character's Health and Mind as the battle leaves them (L1137-L1145; digest A16-A17)."""

    model_config = ConfigDict(extra="forbid")

    health: int = Field(description="Health left; the Destruction Table takes it down, even below 0.")
    mind: int = Field(description="Mind left; the Destruction Table takes it down, even below 0.")


class GsUnitState(BaseModel):
    """One Gundam Skirmish unit's own values in play; an absent key reads as the field's default."""

    model_config = ConfigDict(extra="forbid")

    equipped: WeaponName = Field(
        default="",
        description="The carried weapon in hand, 'cc' for the close combat weapon, '' for none (L424-L451).",
    )
    reload: dict[WeaponName, bool] = Field(
        default_factory=dict,
        description="Weapons with a Reload trait, True while they need reloading (L415-L422).",
    )
    once: list[Annotated[str, Field(max_length=60)]] = Field(
        default_factory=list,
        description="Once-a-battle abilities and traits used, by key (mechanic L1978, extra_tank L2866...).",
    )
    pilot: Pilot | None = Field(default=None, description="The unit's named character, if it has one.")
    bonus_shot: list[Annotated[str, Field(max_length=200)]] = Field(
        default_factory=list,
        max_length=3,
        description="A free Shoot earned (Fierce, Blitzkrieg, Fire Support; L1964-L1966, L2788-L2793, "
        "L2868-L2873): its weapon, the turn it is for ('round/side') and, for Fire Support, the target "
        "it may not be at; empty: none.",
    )
    responsive: str = Field(
        default="",
        max_length=20,
        description="The enemy turn ('round/side') in which the Responsive shot was taken (L1992-L1994).",
    )
    terrified_by: list[Annotated[str, Field(max_length=40)]] = Field(
        default_factory=list,
        max_length=60,
        description="The Terrifying enemy units it has checked morale for, once each (L2002-L2003).",
    )
    rout_rolled: bool = Field(
        default=False,
        description="A Routed unit has made its D6 for being selected to act this turn (L1554-L1558).",
    )

    @classmethod
    def of(cls, unit: GameUnit) -> GsUnitState:
        """A unit's values as this model (the game was checked against it when it was read)."""
        return cls.model_validate(unit.state.extra)
