"""What a mobile suit holds during play, for its card on the game screen.

The hand and the face-down cards are private (L71).  Who looks decides what
they show: on the shared table phone (no viewer) they are marked private and
the screen hides them until their owner opens them; another side sees only how
many cards there are; their owner sees them.  The hand is bound to the "plan"
action, so the player keeps two cards by picking them.  Piles are public.
Face-up cards show their values in play: initiative after effects and the high
penalty, the movement allowed, and each mark's reach after effects (L40, L87, L99).
"""

from __future__ import annotations

from core.game import Game
from core.systems.base import UnitView, ViewBinding, ViewItem, ViewSection
from core.systems.ms_battles.board import KEEP, Board, Seat, SuitPlay, load
from core.systems.ms_battles.cards import MARKER, Card, MobileSuit
from core.systems.ms_battles.reach import reach_of
from core.systems.ms_battles.resolve import Pick, movement, next_pick


def describe(card: Card) -> str:
    """A card in one line: initiative, movement, attack marks, blocks, single use."""
    marks = ", ".join(
        f"{a.count}x {a.zone} {a.form}" + (f" range {a.range}" if a.range is not None else "")
        for a in card.attacks
    )
    parts = [f"initiative {card.initiative}", f"move {card.movement:+d}"]
    if marks:
        parts.append(f"attack {marks}")
    return _line(card, parts)


def _line(card: Card, parts: list[str]) -> str:
    """``parts`` and then the card's blocks and single use mark, in one line."""
    if card.blocks:
        parts.append("blocks " + "/".join(card.blocks))
    if card.single_use:
        parts.append("single use")
    return "; ".join(parts)


def in_play(seat: Seat, pos: int, melee_reach: int) -> str:
    """A face-up card as it plays now: effects and penalties applied (L54-L58, L87, L99)."""
    from core.systems.ms_battles.options import MsbOptions

    card = seat.card(pos)
    opts = MsbOptions(melee_reach=melee_reach)
    init = seat.initiative(pos)
    parts = [f"initiative {init}" + (f" (card {card.initiative})" if init != card.initiative else "")]
    parts.append(f"moves up to {movement(seat, pos)} steps")
    if card.attacks:
        parts.append(
            "attack " + ", ".join(f"{a.count}x {a.zone} {reach_of(seat, pos, a, opts)}" for a in card.attacks)
        )
        if seat.mod(pos, "range"):
            parts.append(f"range {seat.mod(pos, 'range'):+d} this turn")
    return _line(card, parts)


def _items(suit: MobileSuit, positions: list[int]) -> list[ViewItem]:
    out = []
    for pos in positions:
        if pos == MARKER:
            out.append(ViewItem(id="marker", label="Reshuffle marker"))
            continue
        card = suit.cards[pos]
        out.append(ViewItem(id=card.id, label=card.name, detail=describe(card)))
    return out


class _Shared:
    """What every face-up view reads of the whole game, read once per game.views (not once per unit,
    which made drawing a game of 200 suits take seconds)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self._board: Board | None = None
        self._pick: Pick | None = None
        self._picked = False

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = load(self.game)
        return self._board

    @property
    def pick(self) -> Pick | None:
        if not self._picked:
            self._picked = True
            try:
                self._pick = next_pick(self.board)
            except ValueError:
                self._pick = None
        return self._pick


def unit_views(game: Game, viewer: int | None = None) -> dict[tuple[int, int], UnitView]:
    """Every suit's view, the game read once for all of them."""
    shared = _Shared(game)
    return {
        (s, u): unit_view(game, s, u, viewer, shared)
        for s, side in enumerate(game.sides)
        for u in range(len(side.units))
    }


def unit_view(
    game: Game, side: int, index: int, viewer: int | None = None, shared: _Shared | None = None
) -> UnitView:
    unit = game.sides[side].units[index]
    suit = MobileSuit.model_validate(unit.profile)
    play = SuitPlay.model_validate(unit.state.extra)
    ref = f"{side}/{unit.key}"
    sections = []
    if viewer is not None and viewer != side:
        # another player's phone: how many cards, never which (L71)
        if play.hand:
            sections.append(ViewSection(title=f"Hand: {len(play.hand)} cards, hidden"))
        if play.planned and not play.revealed:
            sections.append(ViewSection(title=f"Face down: {len(play.planned)} cards, hidden"))
    elif play.hand:
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
                    fixed={"unit": ref, "reveal": True},
                    auto=True,
                ),
            )
        )
    if play.planned and not play.revealed:
        if viewer is None or viewer == side:
            sections.append(ViewSection(title="Face down", items=_items(suit, play.planned), private=True))
    elif play.planned:
        sections += _face_up(shared or _Shared(game), suit, play, ref)
    left = len([p for p in play.deck if p != MARKER])
    sections.append(ViewSection(title=f"Draw pile: {left} cards", items=[]))
    if play.discard:
        sections.append(ViewSection(title="Discarded", items=_items(suit, play.discard)))
    if play.set_aside:
        sections.append(ViewSection(title="Set aside (single use)", items=_items(suit, play.set_aside)))
    return UnitView(sections=sections)


def _face_up(shared: _Shared, suit: MobileSuit, play: SuitPlay, ref: str) -> list[ViewSection]:
    """Revealed cards: those still to resolve (picking one fills the resolve form), then the rest.

    The title says when this suit holds the card that resolves next (L77).
    """
    done = {r.card for r in play.resolved}
    waiting = [p for p in play.planned if p not in done]
    out = []
    board = shared.board
    seat = board.seat(ref)

    def shown(positions: list[int]) -> list[ViewItem]:
        return [
            ViewItem(
                id=suit.cards[p].id,
                label=suit.cards[p].name,
                detail=in_play(seat, p, board.options.melee_reach),
            )
            for p in positions
        ]

    if waiting:
        title = "Face up"
        pick = shared.pick
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
        out.append(ViewSection(title=title, items=shown(waiting), bind=bind))
    if done:
        out.append(ViewSection(title="Resolved", items=shown([p for p in play.planned if p in done])))
    return out
