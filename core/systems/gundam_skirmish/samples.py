"""Sample units of the app's own making (the book prints no roster: digest A1).

Each is built from the guideline tables (L2425-L2765): armour from the One Year
War rows, weapons from the archetype rows, points from the custom-unit formula
(plus an allowance for abilities where they have some).  Names are our own, as a player
would name a unit; the catalogue note says they are the app's own, not the book's.
The units are data, in ``samples.json`` beside this module: a weapon there names
its guideline row (``"row"``) and is built from it with :func:`archetype_weapon`
or :func:`archetype_close`; the whole unit is then validated as a :class:`Unit`.
"""

from __future__ import annotations

from typing import Any

from core.systems.data import Samples, load
from core.systems.gundam_skirmish.units import Unit, archetype_close, archetype_weapon

_FILE = load(__package__, "samples.json", Samples)

SAMPLE_NOTE = _FILE.note


def _sample(data: dict[str, Any]) -> Unit:
    """A unit of the file, its weapons built from the guideline rows they name."""
    return Unit.model_validate(
        {
            **data,
            "weapons": [
                archetype_weapon(w["row"], w["name"], w.get("equip", "C")) for w in data.get("weapons", [])
            ],
            "close_combat": [archetype_close(c["row"], c["name"]) for c in data.get("close_combat", [])],
        }
    )


#: Listed so that the first units share a faction (a legal army from the top of the list).
SAMPLES: dict[str, Unit] = {key: _sample(data) for key, data in _FILE.units.items()}
#: Two ready-made armies, one faction each (L2339-L2342), 260 points a side: a sample battle at once.
FORCES: dict[str, list[str]] = {name: list(keys) for name, keys in _FILE.forces.items()}
