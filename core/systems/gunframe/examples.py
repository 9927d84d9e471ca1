"""GUNFRAME's example units (L591-628, L3075-3193).

The 58 example units are data, in ``example_units.json`` beside this module (each
row as the book prints it, with its line), read and validated at import.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from core.systems.base import CatalogueUnit
from core.systems.data import load
from core.systems.gunframe.catalogue import WEAPONS
from core.systems.gunframe.upgrades import UPGRADES

# --- example units (L591-628, L3075-3193) ---------------------------------------------


class ExampleRow(BaseModel):
    """One example unit as the book prints it (a row of ``example_units.json``).

    Upgrades: "id", "id:slot", "id*N" ((N) upgrades), "id:slot:N".  Transforming units give
    speed, defense and weapons as second forms: "6/5" style pairs, and their upgrades per form
    separated by " / " (the pilot's upgrades with the first).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    pilot: str = ""
    frame: str
    skill: int
    speed: str
    defense: str
    armour: int
    weapons: tuple[str, str, str, str] = Field(description="close, short, medium, long")
    upgrades: str = ""
    points: int = Field(description="The points the book prints (some differ from the rules' total).")
    ref: str
    note: str = ""


class ExampleFaction(BaseModel):
    """The example units of one faction (L591-628, L3075-3193)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    faction: str
    ref: str
    units: tuple[ExampleRow, ...]


class ExampleUnits(BaseModel):
    """The content of ``example_units.json``: the book's example units by faction, in its order."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    factions: tuple[ExampleFaction, ...]


#: Printed points of each example unit, by catalogue id.
PRINTED_POINTS: dict[str, int] = {}
#: Members of the combined form of the Centurions (L3138-3144), for its construction rules.
COMBINED_MEMBERS = {"alpha_guardian": 5}


def _refs(text: str) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for word in text.split():
        n = 1
        if "*" in word:
            word, count = word.split("*")
            n = int(count)
        uid, _, slot = word.partition(":")
        ref: dict[str, Any] = {"id": uid}
        if slot:
            ref["slot"] = slot
        if n != 1:
            ref["n"] = n
        out.append(ref)
    return out


def _unit_id(name: str) -> str:
    return "".join(c if c.isalnum() else "_" for c in name.lower()).strip("_").replace("__", "_")


def _example(row: ExampleRow) -> CatalogueUnit:
    name, pilot, frame, skill, armour = row.name, row.pilot, row.frame, row.skill, row.armour
    speeds, defenses = row.speed.split("/"), row.defense.split("/")
    columns = [w.split("/") for w in row.weapons]
    parts = row.upgrades.split(" / ") if "/" in row.speed else [row.upgrades]
    pilot_refs = [r for r in _refs(parts[0]) if UPGRADES[r["id"]].category == "pilot"]
    form_refs = [[r for r in _refs(p) if UPGRADES[r["id"]].category != "pilot"] for p in parts]
    profile: dict[str, Any] = {
        "name": name,
        "frame": frame,
        "speed": int(speeds[0]),
        "defense": int(defenses[0]),
        "armour": armour,
        **{w: int(c[0]) for w, c in zip(WEAPONS, columns, strict=True)},
        "pilot": pilot,
        "skill": skill,
        "upgrades": pilot_refs + form_refs[0],
    }
    if len(speeds) > 1:
        profile["forms"] = [
            {
                "speed": int(speeds[i]),
                "defense": int(defenses[i]),
                **{w: int(c[i]) for w, c in zip(WEAPONS, columns, strict=True)},
                "upgrades": form_refs[i],
            }
            for i in range(1, len(speeds))
        ]
    uid = _unit_id(name)
    if uid in COMBINED_MEMBERS:
        profile["combined_members"] = COMBINED_MEMBERS[uid]
    PRINTED_POINTS[uid] = row.points
    full = f"{pilot} + {name}" if pilot else name
    return CatalogueUnit(id=uid, name=full, profile=profile, note=row.note, ref=row.ref)


EXAMPLE_UNITS: tuple[CatalogueUnit, ...] = tuple(
    _example(row)
    for faction in load(__package__, "example_units.json", ExampleUnits).factions
    for row in faction.units
)
