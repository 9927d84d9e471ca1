"""Mobile Suit Battles decks (002_c5caa4b4fc3fd928.txt, L50, L69-L71): shuffle, draw, plan, and the draw odds.

**Shuffling** (L50, L71) is a Fisher-Yates shuffle driven by the dice source:
for a pile of n cards, for i = n-1 down to 1, one die of i+1 faces is rolled
(purpose "shuffle") and the card at i swaps with the card at face-1.  Every
sequence of faces is equally likely and gives a different order, so a seeded
:class:`~core.dice.RandomDice` reproduces a shuffle and typed faces replay one.

**Draw odds** come from what the players know: the cards above the marker were
shuffled (their order is unknown), the cards under it came back after the last
shuffle and are only reached after the next one (L71, [Q-7]).  The count of
wanted cards in the next hand is then hypergeometric (:func:`hand_dist`).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from core.dice import DiceSource, Dist
from core.systems.ms_battles.board import (
    HAND,
    KEEP,
    Seat,
)
from core.systems.ms_battles.cards import MARKER, Card
from core.systems.ms_battles.options import MsbOptions

if TYPE_CHECKING:
    from collections.abc import Callable


# --- decks: shuffle, draw, plan (L50, L69-L71) -----------------------------------------------


def shuffle(pile: list[int], dice: DiceSource) -> list[int]:
    """A uniformly random order of ``pile`` from dice (Fisher-Yates; see the module text).

    >>> from core.dice import TypedDice
    >>> shuffle([0, 1, 2], TypedDice([1, 1]))  # d3 shows 1: swap 2<->0; d2 shows 1: swap 1<->0
    [1, 2, 0]
    """
    out = list(pile)
    for i in range(len(out) - 1, 0, -1):
        j = dice.roll(1, i + 1, "shuffle")[0] - 1
        out[i], out[j] = out[j], out[i]
    return out


def shuffle_deck(seat: Seat, dice: DiceSource) -> None:
    """Shuffle the whole deck at setup, marker at the bottom (L50, [Q-7])."""
    cards = [p for p in seat.play.deck if p != MARKER]
    marker = [MARKER] if MARKER in seat.play.deck else []
    seat.play.deck = shuffle(cards, dice) + marker
    seat.play.shuffled, seat.play.seen_below = True, []


def hand_size(seat: Seat) -> int:
    """Five cards, one fewer with the mid penalty (L71, L100)."""
    return HAND - seat.penalty("mid")


def draw(seat: Seat, dice: DiceSource) -> list[str]:
    """Draw the planning hand; meeting the marker shuffles the pile above it instead (L71, [Q-7]).

    The marker goes back under the newly shuffled cards and drawing goes on; if
    the marker comes up again in the same draw the deck is spent and the hand is
    what was drawn.  Returns notes for the log.
    """
    if seat.destroyed:
        raise ValueError(f"{seat.name} is destroyed and plays no more cards (L97)")
    if seat.play.drawn or seat.play.hand or seat.play.planned:
        raise ValueError(f"{seat.name} has already drawn this turn (L71)")
    notes = []
    if not seat.play.shuffled:
        shuffle_deck(seat, dice)
        notes.append("deck shuffled first (L50)")
    want, met = hand_size(seat), 0
    deck, hand = list(seat.play.deck), list[int]()
    while len(hand) < want and deck:
        top = deck.pop(0)
        if top != MARKER:
            hand.append(top)
            continue
        met += 1
        if met > 1 or not deck:
            deck.append(MARKER)
            notes.append("the deck ran out")
            break
        deck = [*shuffle(deck, dice), MARKER]
        seat.play.seen_below = []
        notes.append("marker drawn: deck reshuffled (L71)")
    seat.play.deck, seat.play.hand, seat.play.drawn = deck, hand, True
    return notes


def _positions(seat: Seat, pile: list[int], ids: list[str], what: str) -> list[int]:
    """Card positions in ``pile`` for card ids (the first free copy of each)."""
    free = list(pile)
    out = []
    for cid in ids:
        pos = next((p for p in free if seat.card(p).id == cid), None)
        if pos is None:
            raise ValueError(f"{seat.name} has no {cid!r} {what}")
        free.remove(pos)
        out.append(pos)
    return out


def to_bottom(seat: Seat, cards: list[int], dice: DiceSource, opts: MsbOptions) -> None:
    """Put cards under the deck: shuffled by default, or in the given order ([Q-8])."""
    order = shuffle(cards, dice) if opts.return_order == "random" else cards
    seat.play.deck = seat.play.deck + order


def plan(seat: Seat, keep: list[str], bottom: list[str] | None, dice: DiceSource, opts: MsbOptions) -> None:
    """Keep two drawn cards face down; the rest go to the bottom of the deck (L71)."""
    hand = seat.play.hand
    if not hand:
        raise ValueError(f"{seat.name} has no drawn cards to choose from")
    need = min(KEEP, len(hand))
    if len(keep) != need:
        raise ValueError(f"choose exactly {need} of the drawn cards (L71)")
    kept = _positions(seat, hand, keep, "in hand")
    rest = [p for p in hand if p not in kept]
    if bottom:
        rest = _positions(seat, rest, bottom, "left in hand")
        if len(rest) != len(hand) - need:
            raise ValueError("list every card that goes under the deck, or none")
        seat.play.deck = seat.play.deck + rest
    else:
        to_bottom(seat, rest, dice, opts)
    seat.play.hand, seat.play.planned = [], kept


# --- exact draw odds ----------------------------------------------------------------------------


def hypergeometric(population: int, wanted: int, draws: int) -> Dist[int]:
    """How many of ``wanted`` special cards ``draws`` cards from ``population`` hold (exact weights)."""
    draws = min(draws, population)
    weights = {
        k: math.comb(wanted, k) * math.comb(population - wanted, draws - k)
        for k in range(max(0, draws - (population - wanted)), min(wanted, draws) + 1)
    }
    return Dist(weights, math.comb(population, draws))


def hand_dist(above: list[bool], below: list[bool], size: int) -> Dist[int]:
    """Wanted cards in the next hand of ``size``, given which cards lie above and below the marker.

    The cards above were shuffled, so the hand takes a random ``size`` of them;
    if there are fewer, it takes them all, the marker reshuffles the cards
    below, and the rest of the hand is a random handful of those (L71, [Q-7]).
    """
    if len(above) >= size:
        return hypergeometric(len(above), sum(above), size)
    sure = sum(above)
    return hypergeometric(len(below), sum(below), size - len(above)).map(lambda k: k + sure)


def split(seat: Seat) -> tuple[list[int], list[int]]:
    """Cards above and below the marker; an unshuffled deck is shuffled whole before drawing."""
    deck = seat.play.deck
    if not seat.play.shuffled or MARKER not in deck:
        return [p for p in deck if p != MARKER], []
    cut = deck.index(MARKER)
    return deck[:cut], deck[cut + 1 :]


def draw_dist(seat: Seat, wanted: Callable[[Card], bool]) -> Dist[int]:
    """The next hand as the suit's owner knows it: which cards they put under the marker."""
    above, below = split(seat)
    return hand_dist(
        [wanted(seat.card(p)) for p in above], [wanted(seat.card(p)) for p in below], hand_size(seat)
    )


def unseen_hand_dist(
    unseen: list[bool], above: int, secret: int, seen_below: list[bool], size: int
) -> Dist[int]:
    """Wanted cards in the next hand for someone who cannot see a suit's hidden cards.

    ``unseen`` are the cards that viewer cannot place: the hand, cards still face
    down, and every card of the deck except those seen going under it at cleanup
    (``seen_below``).  The viewer only knows how many lie above the marker
    (``above``) and how many were put under it unseen (``secret``): those are
    random handfuls of the unseen cards (L71).  The hand takes ``size`` of the
    cards above; if there are fewer, the pile under the marker (seen and secret
    cards) is reshuffled and gives the rest ([Q-7]).
    """
    n, w = len(unseen), sum(unseen)
    above = min(above, n)
    if above >= size:
        return hypergeometric(n, w, size)
    secret = min(secret, n - above)
    pile, pile_w = len(seen_below) + secret, sum(seen_below)

    def rest(k1: int) -> Dist[int]:
        def under(j: int) -> Dist[int]:
            return hypergeometric(pile, pile_w + j, size - above).map(lambda k2: k1 + k2)

        return hypergeometric(n - above, w - k1, secret).bind(under)

    return hypergeometric(n, w, above).bind(rest)


def viewer_dist(seat: Seat, wanted: Callable[[Card], bool], viewer: int | None) -> Dist[int]:
    """The next hand's odds from what ``viewer`` knows: the owner all of it, anyone else what is public."""
    if viewer == seat.side:
        return draw_dist(seat, wanted)
    above, _ = split(seat)
    seen = [p for p in seat.play.seen_below if p in seat.play.deck]
    hidden = [p for p in seat.play.deck if p != MARKER and p not in seen] + seat.play.hand
    if not seat.play.revealed:
        hidden += seat.play.planned
    secret = len([p for p in seat.play.deck if p != MARKER]) - len(above) - len(seen)
    return unseen_hand_dist(
        [wanted(seat.card(p)) for p in hidden],
        len(above),
        secret,
        [wanted(seat.card(p)) for p in seen],
        hand_size(seat),
    )
