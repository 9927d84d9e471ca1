"""Deck construction (002_c5caa4b4fc3fd928.txt, L107-L135) as a list of broken rules.

Each check names its rule, says what is wrong in plain words and cites its line:

* exactly twenty cards (L109), with the one reshuffle marker besides them (L71, [Q-7]);
* at most four pilot cards, all of one pilot, no card twice (L120);
* at most X booster cards, X the frame's booster slots (L121);
* at most N weapons, N the frame's weapon slots, each a set of four attack cards (L122);
* per slot a weapon fills, at most one copy of each of its cards (L123);
* one of each generic card (L125);
* and a warning for a frame whose slots can never make twenty cards (digest section 4, [Q-23]).
"""

from __future__ import annotations

from collections import Counter

from core.systems.base import Violation
from core.systems.ms_battles.cards import Card, Frame, MobileSuit
from core.systems.ms_battles.options import MsbOptions

DECK_SIZE = 20  # L109
MAX_PILOT_CARDS = 4  # L120
WEAPON_CARDS = 4  # L122
#: The generic cards the book names in its example deck (L135).
BOOK_GENERICS = ("block", "dodge")


def design(card: Card) -> tuple[str, str, str]:
    """What makes two cards copies of one design: type line, group and number (or name) (L61)."""
    return (
        card.type,
        card.group.strip().lower(),
        str(card.number) if card.number else card.name.strip().lower(),
    )


def weapon_slots(suit: MobileSuit) -> Counter[str]:
    """Slots given to each weapon: as listed, or else the fewest that hold the deck's copies (L122-L123)."""
    if suit.weapons:
        return Counter(w.strip().lower() for w in suit.weapons)
    copies = Counter(design(c) for c in suit.cards if c.type == "weapon")
    slots: Counter[str] = Counter()
    for (_, group, _), n in copies.items():
        slots[group] = max(slots[group], n)
    return slots


def most_cards(frame: Frame, generics: int = len(BOOK_GENERICS)) -> int:
    """The largest deck a frame's slots allow (L120-L125), one copy per weapon card per slot."""
    return MAX_PILOT_CARDS + WEAPON_CARDS * frame.weapon_slots + frame.booster_slots + generics


def deck_violations(suit: MobileSuit, options: MsbOptions | None = None) -> list[Violation]:
    """Every construction rule the suit's deck breaks (empty when it is legal)."""
    opts = options or MsbOptions()
    out: list[Violation] = []

    def bad(rule: str, message: str, ref: str) -> None:
        out.append(Violation(rule=rule, message=message, ref=ref))

    cards, frame = suit.cards, suit.frame
    if len(cards) != DECK_SIZE:
        bad("deck-size", f"the deck holds {len(cards)} cards; it must hold exactly {DECK_SIZE}", "L109")
    if not suit.reshuffle_marker:
        bad("reshuffle-marker", "the deck needs its reshuffle marker", "L71")
    if most_cards(frame) < DECK_SIZE:
        bad(
            "frame-cannot-fill",
            f"{frame.name} has room for at most {most_cards(frame)} cards, so no deck of "
            f"{DECK_SIZE} fits its slots",
            "L120-L125",
        )

    for card in cards:
        for mark in card.attacks:
            if mark.form == "ranged" and mark.range is None:
                bad("card-range", f"{card.name}: a ranged mark needs its attack range", "L57")
            if mark.form == "melee" and mark.range is not None:
                bad("card-range", f"{card.name}: only ranged marks have an attack range", "L57")
        if card.type in ("pilot", "weapon") and not card.group.strip():
            bad("card-type", f"{card.name}: a {card.type} card must name its {card.type}", "L61")

    # Pilot cards (L120).
    pilots = [c for c in cards if c.type == "pilot"]
    if len(pilots) > MAX_PILOT_CARDS:
        bad("pilot-max", f"{len(pilots)} pilot cards; the most a deck may hold is {MAX_PILOT_CARDS}", "L120")
    names = sorted({c.group.strip() for c in pilots if c.group.strip()})
    if len(names) > 1:
        bad("pilot-one", f"pilot cards from {', '.join(names)}: they must all be one pilot's", "L120")
    for key, n in Counter(design(c) for c in pilots).items():
        if n > 1:
            bad(
                "pilot-duplicate",
                f"pilot card {key[2]} of {key[1]} is there {n} times; pilots allow one",
                "L120",
            )

    # Boosters (L121).
    boosters = [c for c in cards if c.type == "booster"]
    if len(boosters) > frame.booster_slots:
        bad(
            "booster-max",
            f"{len(boosters)} booster cards, but {frame.name} has {frame.booster_slots} booster slots",
            "L121",
        )
    if not opts.duplicate_boosters:
        for key, n in Counter(design(c) for c in boosters).items():
            if n > 1:
                bad(
                    "booster-duplicate", f"booster {key[2]} is there {n} times (house rule: one each)", "L121"
                )

    # Weapons (L122-L123).
    slots = weapon_slots(suit)
    used = sum(slots.values())
    if used > frame.weapon_slots:
        bad("weapon-slots", f"{used} weapons chosen, but {frame.name} has {frame.weapon_slots} slots", "L122")
    if not opts.same_weapon_twice:
        for name, n in slots.items():
            if n > 1:
                bad("weapon-twice", f"{name} fills {n} slots (house rule: each weapon once)", "L122-L123")
    weapon_cards = [c for c in cards if c.type == "weapon"]
    per_weapon: dict[str, set[str]] = {}
    for key, n in Counter(design(c) for c in weapon_cards).items():
        _, group, number = key
        per_weapon.setdefault(group, set()).add(number)
        if group not in slots:
            bad(
                "weapon-unslotted",
                f"card {number} of {group} is in the deck but no slot holds {group}",
                "L123",
            )
        elif n > slots[group]:
            bad(
                "weapon-copies",
                f"card {number} of {group} is there {n} times; {slots[group]} slot(s) allow {slots[group]}",
                "L123",
            )
    for group, numbers in per_weapon.items():
        if len(numbers) > WEAPON_CARDS:
            bad(
                "weapon-size",
                f"{group} has {len(numbers)} different cards; a weapon is {WEAPON_CARDS}",
                "L122",
            )
    for card in weapon_cards:
        if not card.attacks:
            bad(
                "weapon-attack", f"{card.name}: weapon cards are attack cards and need an attack mark", "L122"
            )

    # Generic cards (L125, L135).
    generics = Counter(design(c) for c in cards if c.type == "generic")
    for key, n in generics.items():
        if n > 1:
            bad("generic-one", f"generic card {key[2]} is there {n} times; one of each is allowed", "L125")
    if opts.generics_required:
        have = {key[2] for key in generics}
        for name in BOOK_GENERICS:
            if name not in have:
                bad(
                    "generic-missing",
                    f"the generic card {name} is missing (house rule: all required)",
                    "L125",
                )
    return out
