"""The deck builder's side of the core: parts to pick from, a suit assembled from picks, counters by slot.

Deck construction (002_c5caa4b4fc3fd928.txt, L107-L125) is a frame and the cards
its slots allow; this module only *assembles* and *counts*: whether the result is
legal is decided by :func:`.decks.deck_violations` alone, so the builder, the squad
editor and a game never disagree.

* :func:`parts` offers the building blocks: frames (L109-L116), pilots with their
  cards (L120), weapons of four cards (L122), boosters (L121) and the generic cards
  (L125), all from the app's own sample set (:mod:`.sample`; the book prints none, L9).
* :func:`assemble` turns a :class:`DeckChoice` (a name, a frame, picked cards per
  slot and the player's own cards) into the :class:`.cards.MobileSuit` every other
  screen uses, in the order pilot, weapons slot by slot, boosters, generics, own cards.
* :func:`split` is its inverse for an existing suit, so a saved deck opens in the builder.
* :func:`summary` counts the deck by slot (pilot n/4, weapon slots n/N, boosters n/X,
  generics, total n/20) for the builder's live counters.
"""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, Field

from core.systems.base import Closed, Violation
from core.systems.ms_battles.cards import Card, CardType, Frame, MobileSuit, Pilot, Weapon
from core.systems.ms_battles.decks import (
    DECK_SIZE,
    MAX_PILOT_CARDS,
    WEAPON_CARDS,
    deck_violations,
    most_cards,
)
from core.systems.ms_battles.sample import BOOSTERS, CARDS, FRAMES, GENERICS, LABEL, PILOTS, WEAPONS

#: The most own cards a deck may carry into the builder (a deck is 20 cards, L109; room to spare).
MAX_OWN_CARDS = 40


class BuildError(ValueError):
    """A pick that names no part of the set (an unknown card id, a card of another weapon)."""

    def __init__(self, message: str, field: str) -> None:
        super().__init__(message)
        self.field = field


class Parts(BaseModel):
    """What a deck is built from (L107-L125), with the limits the counters show."""

    label: str = Field(description="Where the parts come from (the app's own sample set).")
    frames: list[Frame] = Field(description="Frame stats cards (L109-L116).")
    pilots: list[Pilot] = Field(description="Pilots and their cards; a deck takes up to four of one (L120).")
    weapons: list[Weapon] = Field(description="Weapons, each a set of four attack cards (L122).")
    boosters: list[Card] = Field(description="Booster cards; up to the frame's booster slots (L121).")
    generics: list[Card] = Field(description="Generic cards; one of each (L125).")
    deck_size: int = Field(default=DECK_SIZE, description="Cards in a deck (L109).")
    max_pilot_cards: int = Field(default=MAX_PILOT_CARDS, description="L120.")
    weapon_cards: int = Field(default=WEAPON_CARDS, description="Cards in one weapon (L122).")


def parts() -> Parts:
    """The sample set as building blocks (app original content, see :mod:`.sample`)."""
    return Parts(
        label=LABEL,
        frames=list(FRAMES.values()),
        pilots=list(PILOTS.values()),
        weapons=list(WEAPONS.values()),
        boosters=list(BOOSTERS.values()),
        generics=list(GENERICS.values()),
    )


class WeaponPick(Closed):
    """One weapon slot (L122): the weapon it holds and which of its cards go in, one copy each (L123).

    A sample weapon names its cards by id (fewer than four is allowed, as the book's
    example shows, L132); an own weapon is named only, its cards are own cards whose
    type line names it (L61).
    """

    name: str = Field(min_length=1, max_length=60, description="The weapon in this slot.")
    cards: list[str] = Field(
        default_factory=list, max_length=WEAPON_CARDS, description="Ids of its sample cards taken."
    )


class DeckChoice(Closed):
    """Everything a player picks in the deck builder."""

    name: str = Field(min_length=1, max_length=80, description="What the players call this suit.")
    frame: Frame = Field(description="A sample frame or the player's own values (L109-L116).")
    pilot_cards: list[str] = Field(default_factory=list, max_length=20, description="Sample pilot card ids.")
    weapons: list[WeaponPick] = Field(default_factory=list, max_length=10, description="One per slot (L122).")
    boosters: list[str] = Field(default_factory=list, max_length=20, description="Sample booster card ids.")
    generics: list[str] = Field(default_factory=list, max_length=20, description="Sample generic card ids.")
    own_cards: list[Card] = Field(
        default_factory=list, max_length=MAX_OWN_CARDS, description="The player's own cards, of any type."
    )
    reshuffle_marker: bool = Field(default=True, description="The deck's marked card (L71).")
    note: str = Field(default="", max_length=200)


def _sample(ids: list[str], kind: CardType, field: str) -> list[Card]:
    out = []
    for i, cid in enumerate(ids):
        card = CARDS.get(cid)
        if card is None or card.type != kind:
            raise BuildError(f"{cid!r} is not a sample {kind} card", f"{field}.{i}")
        out.append(card)
    return out


def _weapon(name: str) -> Weapon | None:
    """The sample weapon of that name (slots compare names without case, as deck checks do, L122)."""
    return WEAPONS.get(name) or next(
        (w for w in WEAPONS.values() if w.name.lower() == name.strip().lower()), None
    )


def assemble(choice: DeckChoice) -> MobileSuit:
    """The mobile suit the picks make, legal or not: :func:`.decks.deck_violations` says which."""
    cards = _sample(choice.pilot_cards, "pilot", "pilot_cards")
    for s, pick in enumerate(choice.weapons):
        weapon = _weapon(pick.name)
        if weapon is None:
            if pick.cards:
                raise BuildError(
                    f"{pick.name} is not a sample weapon: its cards are own cards", f"weapons.{s}"
                )
            continue
        known = {c.id: c for c in weapon.cards}
        for i, cid in enumerate(pick.cards):
            if cid not in known:
                raise BuildError(f"{cid!r} is not a card of {weapon.name}", f"weapons.{s}.cards.{i}")
            cards.append(known[cid])
    cards += _sample(choice.boosters, "booster", "boosters")
    cards += _sample(choice.generics, "generic", "generics")
    cards += choice.own_cards
    return MobileSuit(
        name=choice.name,
        frame=choice.frame,
        weapons=[(_weapon(p.name) or p).name for p in choice.weapons],
        cards=cards,
        reshuffle_marker=choice.reshuffle_marker,
        note=choice.note,
    )


def split(suit: MobileSuit) -> DeckChoice:
    """The picks that make this suit again: sample cards by id, everything else as own cards.

    A sample weapon card goes to the first slot of its weapon that lacks it (one copy
    per slot, L123); a card no slot can take stays an own card, so nothing is lost and
    the deck check still reports it.
    """
    pilot_cards: list[str] = []
    boosters: list[str] = []
    generics: list[str] = []
    own: list[Card] = []
    names = suit.weapons or _inferred_weapons(suit)
    slots = [WeaponPick(name=n) for n in names]
    for card in suit.cards:
        if CARDS.get(card.id) != card:
            own.append(card)
        elif card.type == "pilot":
            pilot_cards.append(card.id)
        elif card.type == "booster":
            boosters.append(card.id)
        elif card.type == "generic":
            generics.append(card.id)
        else:
            slot = next(
                (
                    s
                    for s in slots
                    if (w := _weapon(s.name)) is not None
                    and w.name == card.group
                    and card.id not in s.cards
                    and len(s.cards) < WEAPON_CARDS
                ),
                None,
            )
            if slot is None:
                own.append(card)
            else:
                slot.cards.append(card.id)
    return DeckChoice(
        name=suit.name,
        frame=suit.frame,
        pilot_cards=pilot_cards,
        weapons=slots,
        boosters=boosters,
        generics=generics,
        own_cards=own,
        reshuffle_marker=suit.reshuffle_marker,
        note=suit.note,
    )


def _inferred_weapons(suit: MobileSuit) -> list[str]:
    """Slot names of a suit that lists none: as many slots per weapon as its most copied card (L123)."""
    copies = Counter((c.group, c.number or c.name) for c in suit.cards if c.type == "weapon")
    most: Counter[str] = Counter()
    for (group, _), n in copies.items():
        most[group] = max(most[group], n)
    return [name for name, n in most.items() for _ in range(n)]


class SlotCount(BaseModel):
    """One counter of the builder: how many there are against how many the rules allow."""

    key: str = Field(description="pilot, weapons, boosters, generics or total.")
    label: str
    count: int
    limit: int | None = Field(description="The most allowed (for the total: exactly this many).")
    text: str = Field(description="Ready to show, e.g. '3/4'.")
    state: str = Field(description="'over' past the limit, 'full' at it, 'open' below it.")
    ref: str = Field(description="Rulebook lines.")


class DeckSummary(BaseModel):
    slots: list[SlotCount]
    most_cards: int = Field(description="The largest deck this frame's slots allow (L120-L125).")


def _count(key: str, label: str, count: int, limit: int | None, ref: str, text: str = "") -> SlotCount:
    state = "open" if limit is None or count < limit else ("full" if count == limit else "over")
    return SlotCount(
        key=key,
        label=label,
        count=count,
        limit=limit,
        text=text or (f"{count}/{limit}" if limit is not None else str(count)),
        state=state,
        ref=ref,
    )


def summary(suit: MobileSuit) -> DeckSummary:
    """The deck counted by slot: pilot cards (L120), weapon slots (L122), boosters (L121), generics (L125)."""
    kinds = Counter(c.type for c in suit.cards)
    frame = suit.frame
    used = len(suit.weapons)
    generics = kinds["generic"]
    return DeckSummary(
        slots=[
            _count("pilot", "Pilot", kinds["pilot"], MAX_PILOT_CARDS, "L120"),
            _count(
                "weapons",
                "Weapons",
                used,
                frame.weapon_slots,
                "L122-L123",
                f"{used}/{frame.weapon_slots} · {kinds['weapon']} cards",
            ),
            _count("boosters", "Boosters", kinds["booster"], frame.booster_slots, "L121"),
            _count("generics", "Generics", generics, None, "L125: one of each"),
            _count("total", "Total", len(suit.cards), DECK_SIZE, "L109"),
        ],
        most_cards=most_cards(frame),
    )


class Built(BaseModel):
    """A suit assembled from picks, counted, and checked by the deck rules."""

    profile: MobileSuit
    summary: DeckSummary
    violations: list[Violation] = Field(description="From deck_violations, each with its rulebook line.")
    legal: bool


def build(choice: DeckChoice) -> Built:
    """Assemble, count and check in one step (the builder calls this on every change)."""
    suit = assemble(choice)
    violations = deck_violations(suit)
    return Built(profile=suit, summary=summary(suit), violations=violations, legal=not violations)
