"""The rulebook's tables as data (``catalogue.json``), each row with its rulebook line.

Weapons (L141-L174, L186-L188, L358-L363, L403-L431, L867-L871, L902), body armor
(L200-L203), power-armor suits (L839, L855, L861), the standard vehicles (L650-L662),
experience (L555-L571) and firing arcs (L269-L274).  The PV column is kept as printed; the
book never says what it is for (digest AMB-1), so the app shows a squad's PV total as
information only.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from core.systems.data import load

Group = Literal["primary", "secondary", "melee", "explosive", "crew", "launcher", "incendiary", "pa"]


class Weapon(BaseModel):
    """One weapon row.  ``lethal`` lists lethal damage by ring for an explosive (centre, adjacent, 2
    away...), one value otherwise; ``shots`` is the arc multiplier (x1/x2/x3), 0 for burst fire
    (never runs out, L367, L875), None for a weapon that takes no firing arc."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    group: Group
    slot: Literal["primary", "secondary", ""] = ""
    lethal: tuple[int, ...]
    blunt: int = 0
    blunt_half_ap: bool = Field(
        default=False, description="Bludgeoning of half the attacker's max AP (L318)."
    )
    shots: int | None = None
    ap: int | None = Field(default=None, description="AP to attack with it (melee, launchers).")
    ap_per_dot: int | None = Field(default=None, description="AP per dot thrown (L328).")
    ammo: int | None = None
    short: int | None = None
    long: int | None = None
    pv: int = 0
    crew: int | None = None
    bayonet: bool = False
    always: bool = False
    thrown: bool = False
    scatters: bool = False
    incendiary: bool = False
    smoke: bool = False
    mountable: bool = False
    pa_only: bool = False
    module: str = ""
    ref: str

    @property
    def explosive(self) -> bool:
        """Resolved at the end of the side's turn (L336, L421, L425, L875)."""
        return self.group in ("explosive", "launcher", "incendiary") or (
            self.group == "pa" and len(self.lethal) > 1
        )

    @property
    def ring_text(self) -> str:
        """Its damage as the book prints it: ``4X``, ``1X, 4\\``, ``6X/3X/1X``."""
        if self.smoke:
            return "smoke"
        parts = ["/".join(f"{x}X" for x in self.lethal)] if any(self.lethal) else []
        if self.blunt_half_ap:
            parts.append("(max AP/2)\\")
        elif self.blunt:
            parts.append(f"{self.blunt}\\")
        return ", ".join(parts)


class BodyArmor(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    cells: int
    ap: int
    ref: str


class Suit(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    cells: int
    primaries: int
    jet_pack: bool
    ref: str


class VehicleProfile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    armor: int
    speed: int
    handling: int
    signature: int
    weapons: tuple[str, ...]
    ref: str


class Experience(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    name: str
    ap: int
    morale: int
    ref: str


class Arc(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    shots: int
    ap: int
    ref: str


class Catalogue(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    weapons: dict[str, Weapon]
    body_armor: dict[str, BodyArmor]
    suits: dict[str, Suit]
    vehicles: dict[str, VehicleProfile]
    experience: dict[str, Experience]
    arcs: dict[str, Arc]


CAT = load(__package__, "catalogue.json", Catalogue)
WEAPONS = CAT.weapons
