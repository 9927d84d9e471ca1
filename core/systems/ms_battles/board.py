"""Mobile Suit Battles (002_c5caa4b4fc3fd928.txt): the table as the rules see it, loaded from a game.

Everything here is a pure function of the game and the dice source.  The state
of a suit lives in its ``GameUnit.state``:

* ``counters``: damage per zone, ``{"high": n, "mid": n, "low": n}`` (L95-L97);
* ``conditions``: ``high_penalty`` / ``mid_penalty`` / ``low_penalty`` while a
  zone holds 2 or more damage (L97-L101); ``damage`` is the sum of the zones and
  ``max_damage`` the sum of the armour, for display only; ``destroyed`` (L97);
* ``extra``: a :class:`SuitPlay`, the suit's cards as positions 0-19 in its
  profile's ``cards`` (the reshuffle marker is ``-1``): ``deck`` (top first),
  ``hand`` (drawn, not yet chosen), ``planned`` (the chosen cards on the field),
  ``revealed``, ``resolved`` (with the initiative and the side that picked it),
  ``discard`` (blockers and cards of a destroyed suit, until cleanup),
  ``set_aside`` (used single-use cards), ``mods`` (effects on a card this turn).
  :class:`SuitPlay` is the system's ``unit_state_model``: every game read checks it.

The side holding the priority marker has the side resource ``priority`` at 1
(L50, L77, L105).  Sides are taken to sit clockwise in the game's side order.

:func:`load` reads a game into a :class:`Board` of :class:`Seat` objects; the actions change
them and :func:`changes` writes them back as the shared diff.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic import Field

from core.changes import Working
from core.systems.base import (
    Change,
    Closed,
)
from core.systems.ms_battles.cards import MARKER, ZONES, Card, MobileSuit, Zone
from core.systems.ms_battles.options import MsbOptions, options_of

if TYPE_CHECKING:
    from core.game import Game


HAND = 5  # L71
KEEP = 2  # L71
PENALTY_AT = 2  # L97
PENALTIES: dict[Zone, str] = {"high": "high_penalty", "mid": "mid_penalty", "low": "low_penalty"}


# --- the state kept in UnitState.extra ----------------------------------------------------


class Resolved(Closed):
    """A card that has resolved this turn: at what initiative, picked by which side, in which step."""

    card: int = Field(description="The card, by its position in the suit's cards.")
    init: int = Field(description="The initiative it resolved at (L77).")
    by: int = Field(description="The side that picked it to resolve.")
    step: int = Field(description="The resolution step, counted from 1 each turn.")


class SuitPlay(Closed):
    """One suit's piles (card positions in its profile; -1 is the reshuffle marker)."""

    deck: list[int] = Field(description="Draw pile, top first, with the marker.")
    shuffled: bool = Field(default=False, description="Shuffled at setup yet (L50).")
    drawn: bool = Field(default=False, description="Has drawn this turn, even if the deck gave nothing.")
    seen_below: list[int] = Field(
        default_factory=list,
        description="Cards put under the deck face up at cleanup since the last shuffle: everyone saw them.",
    )
    hand: list[int] = Field(default_factory=list, description="Drawn this planning, not yet chosen (L71).")
    planned: list[int] = Field(default_factory=list, description="Chosen cards on the field (L71, L93).")
    revealed: bool = Field(default=False, description="The chosen cards are face up (L75).")
    resolved: list[Resolved] = Field(default_factory=list, description="Cards resolved this turn (L77-L93).")
    discard: list[int] = Field(default_factory=list, description="Discarded this turn (L91, L105).")
    set_aside: list[int] = Field(default_factory=list, description="Used single-use cards (L59, L105).")
    mods: dict[str, dict[str, int]] = Field(
        default_factory=dict,
        description="Effects on a card this turn, by position: initiative/movement/range.",
    )


def fresh_play(suit: MobileSuit) -> SuitPlay:
    """The piles before setup: the cards in list order, the marker under them ([Q-7])."""
    return SuitPlay(
        deck=[*range(len(suit.cards)), MARKER] if suit.reshuffle_marker else list(range(len(suit.cards)))
    )


# --- the table as plain Python objects ------------------------------------------------------


@dataclass
class Seat:
    """A suit at the table, loaded from the game; actions change it, :func:`changes` writes it back."""

    side: int
    index: int
    ref: str
    name: str
    suit: MobileSuit
    play: SuitPlay
    damage: dict[Zone, int]
    destroyed: bool

    def card(self, pos: int) -> Card:
        return self.suit.cards[pos]

    def penalty(self, zone: Zone) -> int:
        """1 while a zone holds 2 or more damage (L97-L101)."""
        return 1 if self.damage[zone] >= PENALTY_AT else 0

    def mod(self, pos: int, key: str) -> int:
        return self.play.mods.get(str(pos), {}).get(key, 0)

    def initiative(self, pos: int) -> int:
        """Printed initiative, plus effects, less 1 with the high penalty (L54, L99)."""
        return self.card(pos).initiative + self.mod(pos, "initiative") - self.penalty("high")

    def done(self, pos: int) -> bool:
        return any(r.card == pos for r in self.play.resolved)


@dataclass
class Board:
    game: Game
    seats: list[Seat]
    priority: int
    options: MsbOptions

    def seat(self, ref: str) -> Seat:
        for seat in self.seats:
            if seat.ref == ref:
                return seat
        self.game.unit(ref)  # raises for an unknown side or key
        raise ValueError(f"no suit {ref!r}")

    def step(self) -> int:
        return 1 + max((r.step for s in self.seats for r in s.play.resolved), default=0)


def load(game: Game) -> Board:
    seats = []
    for s, side in enumerate(game.sides):
        for u, unit in enumerate(side.units):
            suit = MobileSuit.model_validate(unit.profile)
            raw = unit.state.extra
            play = SuitPlay.model_validate(raw) if "deck" in raw else fresh_play(suit)
            damage: dict[Zone, int] = {z: unit.state.counters.get(z, 0) for z in ZONES}
            seats.append(Seat(s, u, f"{s}/{unit.key}", unit.name, suit, play, damage, unit.state.destroyed))
    holders = [s for s, side in enumerate(game.sides) if side.resources.get("priority", 0)]
    return Board(game, seats, holders[0] if holders else 0, options_of(game.options))


def conditions_for(old: list[str], damage: dict[Zone, int]) -> list[str]:
    """Conditions kept by hand, then the penalties in force (L97-L101)."""
    kept = [c for c in old if c not in PENALTIES.values()]
    return kept + [PENALTIES[z] for z in ZONES if damage[z] >= PENALTY_AT]


def changes(board: Board) -> list[Change]:
    """The changes that turn the game into the board: the board written into the shared working
    copy, then the shared diff (:mod:`core.changes`; only values that differ)."""
    work = Working(board.game)
    for seat in board.seats:
        state = work.state(seat.side, seat.index)
        state.extra = {**state.extra, **seat.play.model_dump(mode="json")}
        state.counters = {**state.counters, **{zone: seat.damage[zone] for zone in ZONES}}
        state.damage = sum(seat.damage.values())
        state.conditions = conditions_for(state.conditions, seat.damage)
        state.destroyed = seat.destroyed
    for s, resources in enumerate(side.resources for side in work.game.sides):
        value = 1 if s == board.priority else 0
        if resources.get("priority", 0) != value:
            resources["priority"] = value
    return work.changes()
