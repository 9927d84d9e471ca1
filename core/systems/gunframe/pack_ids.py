"""The numbers share links give GUNFRAME frames, slots and upgrades, frozen as build 0.1.0 made them.

A packed unit names a frame, a slot and a printed upgrade by its position in the lists of
``pack_ids.json``, to keep links short.  The lists are format data, NOT the catalogue's order:
reordering the catalogue must not change what an old link means, so entries are only ever appended
to the file (tests/test_golden.py checks both; tests/test_gunframe_effects.py that the upgrades are
exactly ``effects.UpgradeId``).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from core.systems.data import load


class PackIds(BaseModel):
    """The three numbered lists of ``pack_ids.json``; an id listed twice would make two numbers."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    #: Frame types by number (``frame#`` of a packed unit).
    frames: tuple[str, ...]
    #: Slots by number minus one (0 is no slot).
    slots: tuple[str, ...]
    #: Printed upgrades by number (L2146 onwards), appended to, never reordered.
    upgrades: tuple[str, ...]


_IDS = load(__package__, "pack_ids.json", PackIds)
for _name, _ids in _IDS:
    if len(set(_ids)) != len(_ids):
        raise ValueError(f"pack_ids.json: an id is listed twice among {_name}")

FRAME_NUMBERS: tuple[str, ...] = _IDS.frames
SLOT_NUMBERS: tuple[str, ...] = _IDS.slots
UPGRADE_NUMBERS: tuple[str, ...] = _IDS.upgrades
