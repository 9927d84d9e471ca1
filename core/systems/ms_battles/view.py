"""What a mobile suit holds during play, for its card on the game screen.

The hand and the face-down cards are private (the shared-phone screen hides
them until their owner looks, L71); the hand is bound to the "plan" action, so
the player keeps two cards by picking them.  Piles are public.
"""

from __future__ import annotations

from core.game import Game
from core.systems.base import UnitView, ViewBinding, ViewItem, ViewSection
from core.systems.ms_battles.cards import MARKER, Card, MobileSuit
from core.systems.ms_battles.play import KEEP, SuitPlay, load, next_pick


def describe(card: Card) -> str:
    """A card in one line: initiative, movement, attack marks, blocks, single use."""
    marks = ", ".join(
        f"{a.count}x {a.zone} {a.form}" + (f" range {a.range}" if a.range is not None else "")
        for a in card.attacks
    )
    parts = [f"initiative {card.initiative}", f"move {card.movement:+d}"]
    if marks:
        parts.append(f"attack {marks}")
    if card.blocks:
        parts.append("blocks " + "/".join(card.blocks))
    if card.single_use:
        parts.append("single use")
    return "; ".join(parts)


def _items(suit: MobileSuit, positions: list[int]) -> list[ViewItem]:
    out = []
    for pos in positions:
        if pos == MARKER:
            out.append(ViewItem(id="marker", label="Reshuffle marker"))
            continue
        card = suit.cards[pos]
        out.append(ViewItem(id=card.id, label=card.name, detail=describe(card)))
    return out


def unit_view(game: Game, side: int, index: int) -> UnitView:
    unit = game.sides[side].units[index]
    suit = MobileSuit.model_validate(unit.profile)
    play = SuitPlay.model_validate(unit.state.extra)
    ref = f"{side}/{unit.key}"
    sections = []
    if play.hand:
        sections.append(
            ViewSection(
                title="Hand",
                items=_items(suit, play.hand),
                private=True,
                bind=ViewBinding(
                    action="plan",
                    field="keep",
                    count=min(KEEP, len(play.hand)),
                    label="Keep these face down",
                    fixed={"unit": ref},
                ),
            )
        )
    if play.planned and not play.revealed:
        sections.append(ViewSection(title="Face down", items=_items(suit, play.planned), private=True))
    elif play.planned:
        sections += _face_up(game, suit, play, ref)
    left = len([p for p in play.deck if p != MARKER])
    sections.append(ViewSection(title=f"Draw pile: {left} cards", items=[]))
    if play.discard:
        sections.append(ViewSection(title="Discarded", items=_items(suit, play.discard)))
    if play.set_aside:
        sections.append(ViewSection(title="Set aside (single use)", items=_items(suit, play.set_aside)))
    return UnitView(sections=sections)


def _face_up(game: Game, suit: MobileSuit, play: SuitPlay, ref: str) -> list[ViewSection]:
    """Revealed cards: those still to resolve (picking one fills the resolve form), then the rest.

    The title says when this suit holds the card that resolves next (L77).
    """
    done = {r.card for r in play.resolved}
    waiting = [p for p in play.planned if p not in done]
    out = []
    if waiting:
        title = "Face up"
        try:
            pick = next_pick(load(game))
        except ValueError:
            pick = None
        if pick and any(q.seat.ref == ref for q in pick.choices):
            title = f"Face up: one resolves next (initiative {pick.init})"
        bind = ViewBinding(
            action="resolve_card",
            field="card",
            count=1,
            label="Resolve this card",
            fixed={"unit": ref},
            mode="prefill",
        )
        out.append(ViewSection(title=title, items=_items(suit, waiting), bind=bind))
    if done:
        out.append(ViewSection(title="Resolved", items=_items(suit, [p for p in play.planned if p in done])))
    return out
