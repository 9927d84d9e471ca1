"""The deck builder's operations, offered to the shell as this system's tools (``system.tool``).

Each tool is an input model, a pure function and a result model (:class:`core.systems.base.ToolSpec`);
the rules stay in :mod:`.builder` and :mod:`.decks` (deck construction, L107-L125) and
:mod:`.cards` (card anatomy, L54-L61).  :data:`EDITOR` tells the shell to enter own units with its
generic ``card-deck`` editor, which tool does each step, and the choices and labels that editor
shows (so none of them is copied into JavaScript).
"""

from __future__ import annotations

from typing import get_args

from core.systems.base import Closed, EditorInfo, ToolError, ToolSpec
from core.systems.ms_battles import builder
from core.systems.ms_battles.cards import (
    AttackForm,
    Card,
    CardType,
    EffectKind,
    FrameRule,
    MobileSuit,
    Timing,
    Zone,
)


class NoInput(Closed):
    """A tool that needs nothing."""


def card_line(card: Card) -> str:
    """A card in one line, as its printed values read (L54-L60).

    >>> from core.systems.ms_battles.sample import CARDS
    >>> card_line(CARDS["BO-1"])
    'init 7 · move +3'
    """
    parts = [f"init {card.initiative}", f"move {card.movement:+d}"]
    for a in card.attacks:
        reach = f" {a.range}" if a.range is not None else ""
        parts.append(f"{a.form}{reach} {a.zone}\u00d7{a.count}")
    if card.blocks:
        parts.append("block " + "/".join(card.blocks))
    if card.single_use:
        parts.append("single use")
    if "guard_break" in card.keywords:
        parts.append("guard break")
    if card.ability:
        parts.append(card.ability)
    return " \u00b7 ".join(parts)


class PartsWithText(builder.Parts):
    """The parts, and each sample card's printed values in one line (by card id)."""

    texts: dict[str, str]


def parts(_: NoInput) -> PartsWithText:
    """Frames, pilots, weapons, boosters and generic cards to build a deck from."""
    p = builder.parts()
    cards = [c for pilot in p.pilots for c in pilot.cards] + [c for w in p.weapons for c in w.cards]
    texts = {c.id: card_line(c) for c in [*cards, *p.boosters, *p.generics]}
    return PartsWithText(**dict(p), texts=texts)


class BuiltWithText(builder.Built):
    """An assembled suit, and each of its cards' printed values in one line (by card id)."""

    texts: dict[str, str]


def assemble(choice: builder.DeckChoice) -> BuiltWithText:
    """A suit from the builder's picks, its counters by slot and its deck violations (L107-L125)."""
    try:
        built = builder.build(choice)
    except builder.BuildError as bad:
        raise ToolError(str(bad), bad.field) from bad
    return BuiltWithText(**dict(built), texts={c.id: card_line(c) for c in built.profile.cards})


def split(suit: MobileSuit) -> builder.DeckChoice:
    """The builder's picks that make a saved suit again (sample cards by id, the rest as own cards)."""
    return builder.split(suit)


def check_card(card: Card) -> Card:
    """One card checked against the card anatomy (L54-L61), as the card editor saves it."""
    return card


TOOLS: dict[str, ToolSpec] = {
    t.name: t
    for t in (
        ToolSpec("parts", NoInput, parts, PartsWithText, "Deck builder parts, with each card's line."),
        ToolSpec(
            "assemble", builder.DeckChoice, assemble, BuiltWithText, "Picks to a suit, counted and checked."
        ),
        ToolSpec("split", MobileSuit, split, builder.DeckChoice, "A saved suit back to the builder's picks."),
        ToolSpec("card", Card, check_card, Card, "One own card, checked."),
    )
}

#: Labels of the effect kinds the card editor offers (cards.EffectKind).
EFFECT_LABELS: dict[str, str] = {
    "partner_initiative": "initiative of this suit's other card",
    "partner_movement": "movement of this suit's other card",
    "partner_range": "range of this suit's other card",
    "repair": "repair damage on one zone",
}
#: Labels of when a card's effects apply (cards.Timing; [Q-21] of the digest).
TIMING_LABELS: dict[str, str] = {
    "on_resolve": "when the card resolves",
    "on_reveal": "as soon as it is revealed",
}

EDITOR = EditorInfo(
    kind="card-deck",
    tools={"parts": "parts", "assemble": "assemble", "split": "split", "card": "card"},
    data={
        "zones": list(get_args(Zone)),
        "forms": list(get_args(AttackForm)),
        "types": list(get_args(CardType)),
        "effects": [{"value": k, "label": EFFECT_LABELS[k]} for k in get_args(EffectKind)],
        "timings": [{"value": k, "label": TIMING_LABELS[k]} for k in get_args(Timing)],
        "blank_card": Card.model_construct(id="", name="", type="booster", initiative=5).model_dump(
            mode="json"
        ),
        "blank_mark": {"zone": "mid", "form": "melee", "count": 1, "range": None},
        "blank_effect": {"kind": get_args(EffectKind)[0], "amount": 1},
        "blank_armor": {z: 4 for z in get_args(Zone)},
        # an own frame starts from the values on screen, with what only a printed frame has cleared
        "own_frame": {"id": "", "name": "My frame", "ability": "", "rule": get_args(FrameRule)[0]},
        "new_name": "New mobile suit",
        "unit_label": "mobile suit",
    },
)
