"""What Mobile Suit Battles' gated inputs need (core.systems.base.needs): each a check of one suit in
play, answering "" when it has it, else why not in plain words."""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.systems.ms_battles.cards import MobileSuit

if TYPE_CHECKING:
    from core.game import Game


def can_repair(game: Game, ref: str) -> str:
    """Naming a zone to repair: only a suit whose deck holds a card with a repair effect (L81-L83)."""
    _, _, unit = game.unit(ref)
    suit = MobileSuit.model_validate(unit.profile)
    if any(e.kind == "repair" for card in suit.cards for e in card.effects):
        return ""
    return f"{unit.name} has no card that repairs"


REQUIREMENTS = {"repair": can_repair}
