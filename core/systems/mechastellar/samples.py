"""Sample units of the app's own making (the book prints none, digest section 0).

Their numbers are those the worked examples use: Argonaut ACC 9, two actions, Move 13, a
3-shot cannon and a 6-shot machine gun of 200 damage at PEN 0 (L146-L149, L888); Dervish Evade
+5 (L146); Blue Djinn Melee 9 with a Shield and a Heat Sword dealing 500 a hit (L199, L208), an Ace
(L293) with an Arc Whip (L579); White Asura Melee 7, Shield, Beam Saber, ARM Sv +2, one action
(L200, L579, L689); Jet Black Lancer ACC 10, Evade +4, Melee 5, Assault, a Skilled pilot with a
Heat Lancer of +2 attack dice rerolling 1s and 2s (L504-L533); Kara Cimarrone's machine (HP
3000, Evade +3, ACC 10, Melee 5, Great Shield, Assault, a 4-shot Custom Beam Sniper, L510-L532);
a Beam Rifle of range 32", 3 shots, RF+1, PEN 6 (L92-L93, L1011); a Super Titan (Joker, Frame 3,
ARM Sv +0, L691) and a warship (Musarl, ARM Sv 0, L1011).  Everything else is ours, and the
names carry "Sample:".  The two forces total 500 points each: a 500-point game, 3 Momentum a side
as in the example (L506).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from core.systems.data import load
from core.systems.mechastellar.units import Unit


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    note: str
    units: dict[str, dict[str, Any]]
    forces: dict[str, list[str]]


_FILE = load(__package__, "samples.json", _File)
SAMPLE_NOTE = _FILE.note
SAMPLES: dict[str, Unit] = {key: Unit.model_validate(data) for key, data in _FILE.units.items()}
#: Two ready-made forces, by name: the sample keys each fields.
FORCES: dict[str, list[str]] = {name: list(keys) for name, keys in _FILE.forces.items()}
