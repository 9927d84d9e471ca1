"""Sample set: app original, NOT from the rulebook.

The rulebook (002_c5caa4b4fc3fd928.txt) prints no cards, frames or pilots (L9
promises default decks that never appear; L129-L135 only names an example).
So that two players can start at once, this module is a small content set
invented for this app (digest section 12): two frames, two pilots, four
weapons, six boosters and the two generic cards the example names (L135: block
and dodge; their contents are ours), with two legal twenty-card decks (digest
12.7): the Vessik flown by Tamsin Reyl, and the Oruun flown by Hollis Brack,
one Harl Carbine card left out as a weapon may be (L132).  Every name and number
here is ours and untested in play; players may copy and change them.

The set is data, in ``sample.json`` beside this module, read and validated at
import: a card there gives its own values; its type line (type, pilot or weapon
name, number) comes from where it is listed, and a deck lists its cards by id.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from core.systems.data import load
from core.systems.ms_battles.cards import Card, CardType, Frame, MobileSuit, Pilot, Weapon


class _Owned(BaseModel):
    """A pilot or weapon of the file: its name and its cards' own values."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    cards: tuple[dict[str, Any], ...]


class _Deck(BaseModel):
    """A sample deck of the file: its frame by id and its twenty cards by id."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    frame: str
    weapons: tuple[str, ...]
    cards: tuple[str, ...]


class SampleSet(BaseModel):
    """The content of ``sample.json``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    label: str
    frames: tuple[Frame, ...]
    pilots: tuple[_Owned, ...]
    weapons: tuple[_Owned, ...]
    boosters: tuple[dict[str, Any], ...]
    generics: tuple[dict[str, Any], ...]
    decks: dict[str, _Deck]


def _card(values: dict[str, Any], kind: CardType, group: str = "") -> Card:
    """A card of the file with its type line: a pilot's or weapon's cards are numbered by their id."""
    number = int(values["id"].rsplit("-", 1)[1]) if kind in ("pilot", "weapon") else None
    return Card.model_validate({**values, "type": kind, "group": group, "number": number})


_SET = load(__package__, "sample.json", SampleSet)

LABEL = _SET.label

FRAMES: dict[str, Frame] = {f.id: f for f in _SET.frames}
PILOTS: dict[str, Pilot] = {
    p.name: Pilot(name=p.name, cards=[_card(c, "pilot", p.name) for c in p.cards]) for p in _SET.pilots
}
WEAPONS: dict[str, Weapon] = {
    w.name: Weapon(name=w.name, cards=[_card(c, "weapon", w.name) for c in w.cards]) for w in _SET.weapons
}
BOOSTERS: dict[str, Card] = {c["id"]: _card(c, "booster") for c in _SET.boosters}
GENERICS: dict[str, Card] = {c["id"]: _card(c, "generic") for c in _SET.generics}

#: Every sample card design by id (each deck holds its own copies).
CARDS: dict[str, Card] = {
    c.id: c
    for c in (
        *(c for p in PILOTS.values() for c in p.cards),
        *(c for w in WEAPONS.values() for c in w.cards),
        *BOOSTERS.values(),
        *GENERICS.values(),
    )
}

SAMPLE_SUITS: dict[str, MobileSuit] = {
    key: MobileSuit(
        name=deck.name,
        frame=FRAMES[deck.frame],
        weapons=list(deck.weapons),
        cards=[CARDS[i] for i in deck.cards],
        note=LABEL,
    )
    for key, deck in _SET.decks.items()
}
DECK_A, DECK_B = SAMPLE_SUITS["sample-a"], SAMPLE_SUITS["sample-b"]
