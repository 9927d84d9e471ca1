"""Playing Mobile Suit Battles (002_c5caa4b4fc3fd928.txt, L48-L105, L139): decks, planning, resolution.

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
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import Field

from core.changes import Working
from core.dice import DiceSource, Dist
from core.pool import Table, table
from core.systems.base import (
    ActionOdds,
    ActionResult,
    ActionSpec,
    CardLine,
    Change,
    Choice,
    Closed,
    NeedChoice,
    enemy_unit,
    needs,
    own_unit,
    side_field,
)
from core.systems.ms_battles.cards import MARKER, ZONES, Card, MobileSuit, Zone
from core.systems.ms_battles.options import MsbOptions, options_of
from core.systems.ms_battles.reach import check_in_range, range_choices, reaches

if TYPE_CHECKING:
    from collections.abc import Callable

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


# --- the action phase (L73-L93) ----------------------------------------------------------------


def living(board: Board) -> list[Seat]:
    return [s for s in board.seats if not s.destroyed]


def reveal(board: Board) -> list[str]:
    """Turn every chosen card face up (L75); effects marked for reveal apply now, highest first ([Q-21])."""
    # a suit whose spent deck gave it nothing has nothing to place ([Q-7])
    waiting = [s.name for s in living(board) if s.play.hand or not (s.play.planned or s.play.drawn)]
    if waiting:
        raise ValueError("still planning: " + ", ".join(waiting))
    if any(s.play.revealed for s in board.seats):
        raise ValueError("the cards are already face up")
    notes = []
    for seat in living(board):
        seat.play.revealed = True
    early = [(seat.initiative(p), seat, p) for seat in living(board) for p in seat.play.planned]
    for _, seat, pos in sorted(early, key=lambda t: -t[0]):
        if seat.card(pos).timing == "on_reveal" and seat.card(pos).effects:
            notes += apply_effects(board, seat, pos, None)
    return notes


@dataclass
class Pending:
    seat: Seat
    pos: int
    init: int


def pending(board: Board) -> list[Pending]:
    """Face-up cards still to resolve, highest initiative first (L77)."""
    out = [
        Pending(seat, p, seat.initiative(p))
        for seat in living(board)
        if seat.play.revealed
        for p in seat.play.planned
        if not seat.done(p)
    ]
    return sorted(out, key=lambda q: -q.init)


@dataclass
class Pick:
    """Who picks the next card and from which (L77)."""

    init: int
    chooser: int
    choices: list[Pending]


def next_pick(board: Board) -> Pick:
    """The highest initiative waiting; in a tie, whose turn it is to pick, from the priority marker clockwise.

    The rotation at one initiative starts with the priority holder and moves on
    clockwise after each pick (L77).  By default a player picks one of their own
    tied cards and players with none are passed over ([Q-20]); with
    ``tie_pick_any_card`` every player in the game takes a turn and may pick any tied card.
    """
    queue = pending(board)
    if not queue:
        raise ValueError("no card is waiting to resolve")
    top = queue[0].init
    tied = [q for q in queue if q.init == top]
    any_card = board.options.tie_pick_any_card
    sides = {s.side for s in living(board)} if any_card else {q.seat.side for q in tied}
    earlier = [r for s in board.seats for r in s.play.resolved if r.init == top]
    n = len(board.game.sides)
    start = board.priority if not earlier else (max(earlier, key=lambda r: r.step).by + 1) % n
    chooser = next((start + k) % n for k in range(n) if (start + k) % n in sides)
    return Pick(top, chooser, tied if any_card else [q for q in tied if q.seat.side == chooser])


def partner(seat: Seat, pos: int) -> int | None:
    """The other card this suit chose, while it is still to resolve ([Q-21])."""
    for p in seat.play.planned:
        if p != pos and not seat.done(p):
            return p
    return None


def apply_effects(board: Board, seat: Seat, pos: int, repair_zone: Zone | None) -> list[str]:
    """The Effect step (L81-L83): the effects the app knows; the rest is the card's text."""
    notes = []
    card = seat.card(pos)
    for eff in card.effects:
        if eff.kind == "repair":
            worst = max(ZONES, key=lambda z: seat.damage[z])
            zone = repair_zone or worst
            if not seat.damage[zone]:
                notes.append(f"{card.name}: nothing to repair")
                continue
            seat.damage[zone] = max(0, seat.damage[zone] - eff.amount)
            notes.append(f"{card.name} repairs {eff.amount} {zone}")
            continue
        other = partner(seat, pos)
        if other is None:
            notes.append(f"{card.name}: the other card is gone, the effect does nothing ([Q-21])")
            continue
        key = eff.kind.removeprefix("partner_")
        mods = seat.play.mods.setdefault(str(other), {})
        mods[key] = mods.get(key, 0) + eff.amount
        notes.append(f"{card.name}: {seat.card(other).name} {key} {eff.amount:+d}")
    if card.ability and not card.effects:
        notes.append(f"{card.name}: {card.ability}")
    return notes


def movement(seat: Seat, pos: int) -> int:
    """Steps allowed: base movement (less 1 with the low penalty) plus the card's modifier (L87, L101).

    Never below 0 ([Q-9]).  The sample frame ability Afterburn adds a step when
    the card's modifier after effects is +2 or more.
    """
    modifier = seat.card(pos).movement + seat.mod(pos, "movement")
    steps = max(0, seat.suit.frame.base_movement - seat.penalty("low") + modifier)
    if seat.suit.frame.rule == "afterburn" and modifier >= 2:
        steps += 1
    return steps


def is_destroyed(hits: int, armor: int, opts: MsbOptions) -> bool:
    """Destroyed when a zone's damage reaches its armour (L97, [Q-13]); past it with the option."""
    return hits > armor if opts.destroyed_past_armor else hits >= armor


def destroy(seat: Seat) -> None:
    """A destroyed suit leaves the table; its cards on the field leave with it ([Q-14])."""
    seat.destroyed = True
    seat.play.discard += [p for p in seat.play.planned if p not in seat.play.discard]
    seat.play.planned = []


def deal(board: Board, seat: Seat, hits: Counter[Zone]) -> list[str]:
    """Damage by zone, penalties and destruction (L95-L101)."""
    notes = []
    for zone in ZONES:
        if not hits[zone]:
            continue
        before = seat.damage[zone]
        seat.damage[zone] += hits[zone]
        notes.append(f"{seat.name} takes {hits[zone]} {zone} ({seat.damage[zone]} now)")
        if before < PENALTY_AT <= seat.damage[zone]:
            notes.append(f"{seat.name} suffers the {zone} penalty (L97-L101)")
    if not seat.destroyed and any(
        is_destroyed(seat.damage[z], seat.suit.frame.armor.of(z), board.options) for z in ZONES
    ):
        destroy(seat)
        notes.append(f"{seat.name} is destroyed (L97)")
    return notes


class ResolveInput(Closed):
    """One card resolving: effect, movement, attack (L79-L91)."""

    unit: str | None = own_unit(
        "The suit whose card resolves, as 'side/key'; empty: the next card by initiative "
        "(the app asks whoever picks in a tie, L77).",
        default=None,
    )
    card: str | None = Field(
        default=None,
        description="The face-up card that resolves now; empty: the next by initiative.",
        json_schema_extra={"ui": "asked"},
    )
    target: str | None = enemy_unit(
        "The suit attacked, as 'side/key'; empty: the app asks, if the card has attack marks.", default=None
    )
    hold_fire: bool = Field(default=False, description="The card makes no attack this time (L91).")
    out_of_range: list[int] | None = Field(
        default=None,
        description="The card's attack marks, by their place on the card, that cannot reach the target "
        "(L40, L91); asked after the tap when the card's marks reach differently.",
        json_schema_extra={"ui": "asked"},
    )
    blockers: list[str] = Field(
        default_factory=list,
        description="The defender's cards used to block (its choice, L91); asked when it has a choice.",
        json_schema_extra={"ui": "asked"},
    )
    repair_zone: Zone | None = Field(
        default=None,
        description="Zone a repair effect heals (most damaged if empty); only for a suit with a card that "
        "repairs (L81-L83).",
        json_schema_extra=needs("repair", values=ZONES),
    )


def attack(board: Board, seat: Seat, pos: int, inp: ResolveInput) -> tuple[list[str], dict[str, Any]]:
    """The Attack step (L89-L91, L139).

    A target must be within a reach of the card (L40, L91): players measure on
    the table.  When every mark reaches as far, naming the target says it is in
    range; when they differ the app asks which reach the target is within, as
    only the marks in range call for blocks and deal damage (L91, [Q-22]).
    """
    card = seat.card(pos)
    opts = board.options
    if inp.target is None and card.attacks and not inp.hold_fire:
        # the attacker names a target, or none (L91): asked of the player
        targets = targets_of(board, seat)
        raise NeedChoice(
            "target",
            f"Whom does {seat.name} attack with {card.name}? It reaches "
            + ", ".join(reaches(seat, pos, opts))
            + " (L40, L91).",
            [Choice(value=t.ref, label=f"{t.name} ({board.game.sides[t.side].name})") for t in targets]
            + [Choice(value=None, label="No attack", also={"hold_fire": True})],
        )
    if inp.target is None or inp.hold_fire:
        return ([f"{card.name} attacks no one"] if card.attacks else []), {}
    if not card.attacks:
        raise ValueError(f"{card.name} has no attack marks (L91)")
    defender = board.seat(inp.target)
    out_of_range = inp.out_of_range
    if out_of_range is None:
        if len(reaches(seat, pos, opts)) > 1 and defender is not seat and not defender.destroyed:
            raise NeedChoice(
                "out_of_range",
                f"How far is {defender.name} from {seat.name}? Only the marks in range count (L40, L91).",
                range_choices(seat, pos, opts),
            )
        out_of_range = []
    bad = [i for i in out_of_range if not 0 <= i < len(card.attacks)]
    if bad:
        raise ValueError(f"{card.name} has no attack entry {bad[0]}")
    check_in_range(seat, pos, out_of_range, opts)
    reach = [a for i, a in enumerate(card.attacks) if i not in out_of_range]
    if not reach:
        raise ValueError("no mark of the card reaches: it may choose no target (L91)")
    if defender is seat:
        raise ValueError("a suit does not attack itself")
    if defender.destroyed:
        raise ValueError(f"{defender.name} is destroyed and off the table (L97)")
    if opts.enemy_targets_only and defender.side == seat.side:
        raise ValueError("house rule: only other players' suits may be attacked ([Q-17])")
    zones = {a.zone for a in reach}
    eligible = [p for p in defender.play.planned if zones & set(defender.card(p).blocks)]
    guard = "guard_break" in card.keywords
    blockers: list[int] = []
    if eligible:
        if inp.blockers:
            blockers = _positions(defender, eligible, inp.blockers, "card that can block this attack")
        elif len({defender.card(p).id for p in eligible}) == 1:
            blockers = eligible[:1]
        else:
            # the defender must block, and picks with which card (L91)
            many = guard and opts.guard_break_many_blocks
            raise NeedChoice(
                "blockers",
                f"{board.game.sides[defender.side].name}: {defender.name} must block. With which card?"
                if not many
                else f"{defender.name} must block: tick the cards it blocks with ([Q-12])",
                [
                    Choice(
                        value=defender.card(p).id if many else [defender.card(p).id],
                        label=f"{defender.card(p).name}: blocks {'/'.join(defender.card(p).blocks)}",
                    )
                    for p in eligible
                ],
                many=many,
            )
        most = len(eligible) if guard and opts.guard_break_many_blocks else 1
        if len(blockers) > most:
            raise ValueError(f"{defender.name} blocks with {most} card(s) here ([Q-12])")
    elif inp.blockers:
        raise ValueError(f"{defender.name} has no card that can block this attack (L91)")
    marks = card.attacks if opts.all_marks_damage else reach
    hits: Counter[Zone] = Counter()
    for a in marks:
        hits[a.zone] += a.count
    covered = {z for p in blockers for z in defender.card(p).blocks}
    notes = []
    for p in blockers:
        # the blocker is discarded; if it had not resolved it never will (L91)
        defender.play.planned.remove(p)
        defender.play.discard.append(p)
        notes.append(f"{defender.name} blocks with {defender.card(p).name}")
    if blockers and guard:
        # guard break: damage less one per block used, off the blocked zones first (L139, [Q-12])
        cut = len(blockers)
        for zone in sorted(ZONES, key=lambda z: z not in covered):
            take = min(cut, hits[zone])
            hits[zone] -= take
            cut -= take
        notes.append("guard break: the block only softens it (L139)")
    elif blockers and opts.per_zone_blocks:
        for zone in covered:
            hits[zone] = 0
    elif blockers:
        hits = Counter()
        notes.append(f"{card.name} fails (L91)")
    notes += deal(board, defender, hits)
    detail = {
        "target": defender.ref,
        "blockers": [defender.card(p).id for p in blockers],
        "hits": {z: hits[z] for z in ZONES if hits[z]},
    }
    return notes, detail


def targets_of(board: Board, seat: Seat) -> list[Seat]:
    """The suits ``seat`` may attack (L91; only other players' with the house rule, [Q-17])."""
    opts = board.options
    return [
        t for t in living(board) if t is not seat and not (opts.enemy_targets_only and t.side == seat.side)
    ]


def tie_choices(board: Board, seat: Seat, pos: int) -> list[Choice]:
    """A tied card offered to the chooser (L77).  When it can attack only one suit and its marks all
    reach as far, whom it attacks is asked in the same question (L91): the card at that suit, or
    with no attack, so a tie costs the players one tap, not two."""
    card = seat.card(pos)
    base = f"{seat.name}: {card.name}"
    also: dict[str, Any] = {"unit": seat.ref}
    targets = targets_of(board, seat)
    if not card.attacks or len(targets) != 1 or len(reaches(seat, pos, board.options)) != 1:
        return [Choice(value=card.id, label=base, also=also)]
    t = targets[0]
    return [
        Choice(value=card.id, label=f"{base}, attacking {t.name}", also={**also, "target": t.ref}),
        Choice(value=card.id, label=f"{base}, no attack", also={**also, "hold_fire": True}),
    ]


def resolve_card(board: Board, inp: ResolveInput) -> tuple[list[str], dict[str, Any]]:
    """Resolve the next card: effect, movement, attack, in that order (L77-L93)."""
    pick = next_pick(board)
    if inp.card is None:
        # no card named: the next by initiative, the chooser asked in a tie (L77)
        offered = [q for q in pick.choices if inp.unit is None or q.seat.ref == inp.unit]
        if len({(q.seat.ref, q.seat.card(q.pos).id) for q in offered}) > 1:
            raise NeedChoice(
                "card",
                f"Initiative {pick.init} is tied: {board.game.sides[pick.chooser].name} picks which card "
                "resolves first (L77)",
                [c for q in offered for c in tie_choices(board, q.seat, q.pos)],
            )
        if offered:
            inp = inp.model_copy(
                update={"unit": offered[0].seat.ref, "card": offered[0].seat.card(offered[0].pos).id}
            )
    if inp.unit is None:
        raise ValueError("name the suit whose card resolves, with its card")
    seat = board.seat(inp.unit)
    mine = [q for q in pick.choices if q.seat is seat and seat.card(q.pos).id == inp.card]
    if not mine:
        names = ", ".join(f"{q.seat.name}: {q.seat.card(q.pos).id}" for q in pick.choices)
        who = board.game.sides[pick.chooser].name
        raise ValueError(f"at initiative {pick.init} {who} picks next, from {names} (L77)")
    pos = mine[0].pos
    card = seat.card(pos)
    notes = [f"{seat.name} resolves {card.name} at initiative {pick.init}"]
    if card.timing == "on_resolve":
        notes += apply_effects(board, seat, pos, inp.repair_zone)
    steps = movement(seat, pos)
    notes.append(f"may move up to {steps} steps (L87)")
    seat.play.resolved.append(Resolved(card=pos, init=pick.init, by=pick.chooser, step=board.step()))
    more, detail = attack(board, seat, pos, inp)
    notes += more
    # the card stays on the field to block (L93)
    return notes, {"card": card.id, "initiative": pick.init, "movement": steps, **detail}


def cleanup(board: Board, dice: DiceSource, force: bool) -> list[str]:
    """Discard the field: single-use set aside, the rest under the deck; priority moves on (L103-L105)."""
    if not any(s.play.revealed for s in board.seats):
        raise ValueError("cleanup ends the turn after the action phase: reveal the cards first (L67, L103)")
    if not force and pending(board):
        raise ValueError("cards are still to resolve; resolve them first or force the cleanup")
    notes = []
    for seat in board.seats:
        field = seat.play.planned + seat.play.discard
        gone = [p for p in field if seat.card(p).single_use]
        back = [p for p in field if not seat.card(p).single_use]
        seat.play.set_aside += gone
        to_bottom(seat, back, dice, board.options)
        seat.play.seen_below += back
        if gone:
            notes.append(f"{seat.name} sets aside " + ", ".join(seat.card(p).name for p in gone))
        seat.play.planned, seat.play.discard, seat.play.resolved = [], [], []
        seat.play.revealed, seat.play.mods, seat.play.drawn = False, {}, False
    n = len(board.game.sides)
    board.priority = (board.priority - 1) % n
    notes.append(f"priority marker passes to {board.game.sides[board.priority].name}")
    return notes


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


# --- actions ---------------------------------------------------------------------------------------


class SetupInput(Closed):
    """Setup (L50): shuffle every deck and give one player the priority marker."""

    priority_side: int | None = side_field(
        "Who takes the priority marker; empty: by lot.", default=None, json_schema_extra={"ui": "side"}
    )
    draw: bool = Field(
        default=False,
        description="Each suit then draws its first hand (L71): the game's first two steps in one.",
    )


class DrawInput(Closed):
    """Planning, first step: draw (L71).  The watch fields only shape the odds."""

    unit: str | None = own_unit("The suit that draws, as 'side/key'; empty: every suit.", default=None)
    watch_card: str | None = Field(
        default=None,
        description="Odds: a card to look for in the next hand.",
        json_schema_extra={"flow": "pick"},
    )
    watch_zone: Zone | None = Field(default=None, description="Odds: look for a card blocking this zone.")


class PlanInput(Closed):
    """Planning, second step: keep two cards face down (L71)."""

    unit: str = own_unit("The suit that plans, as 'side/key'.")
    keep: list[str] = Field(min_length=0, max_length=KEEP, description="The two drawn cards kept.")
    bottom: list[str] | None = Field(
        default=None, description="Optional order of the other cards under the deck, top one first ([Q-8])."
    )
    reveal: bool = Field(
        default=False,
        description="Once every suit has its cards face down, turn them all face up (L75): nothing is left "
        "to decide between the two.",
    )


class RevealInput(Closed):
    """Start of the action phase (L75)."""


class TurnInput(Closed):
    """Several cards resolving one after the other, as one step of the log."""

    steps: list[ResolveInput] = Field(
        min_length=1, max_length=64, description="Each card to resolve, highest initiative first (L77)."
    )


class CleanupInput(Closed):
    """Cleanup (L103-L105)."""

    force: bool = Field(default=False, description="Clean up although some cards never resolved.")


def _result(board: Board, notes: list[str], detail: dict[str, Any] | None = None) -> ActionResult:
    """The board's changes as one logged step; a step that leaves one side standing (or none) says the
    game is over in its own log line (L9, L97), as the status line does."""
    before = {s.side for s in board.seats if not board.game.sides[s.side].units[s.index].state.destroyed}
    after = {s.side for s in living(board)}
    end = last_standing(board.game, sorted(after))
    if len(before) > 1 and end:
        notes = [*notes, f"the game is over: {end}"]
    return ActionResult(changes=changes(board), text="; ".join(notes), detail=detail or {})


# --- the end of the game (L9, L44-L46, L97) --------------------------------------------------------


def hidden(game: Game) -> bool:
    """Whether any suit holds cards nobody else may see yet: a hand, or cards still face down (L71)."""
    for side in game.sides:
        for unit in side.units:
            play = unit.state.extra
            if play.get("hand") or (play.get("planned") and not play.get("revealed")):
                return True
    return False


def sides_standing(game: Game) -> list[int]:
    """Sides that still have a suit on the table (a destroyed suit is removed, L97)."""
    return [s for s, side in enumerate(game.sides) if any(not u.state.destroyed for u in side.units)]


def last_standing(game: Game, standing: list[int]) -> str | None:
    """The result when at most one side still has a suit on the table (L9, L97), else None."""
    if len(game.sides) < 2 or len(standing) > 1:
        return None
    if not standing:
        return "every suit is destroyed: a draw (L97)"
    return f"{game.sides[standing[0]].name} wins: every other side's suits are destroyed (L9, L97)"


def outcome(game: Game) -> str | None:
    """How the game ended, or None while it goes on.

    Win conditions are agreed per game (L9).  Without a scenario the fight goes
    on until one side is left (destroyed suits leave the fight, L97); with a turn
    limit ([Q-2]) the side holding the most objectives when it runs out wins
    (L44-L46), the holdings counted by the players (side resource ``objectives``).
    """
    standing = sides_standing(game)
    end = last_standing(game, standing)
    if end or len(standing) < 2:
        return end
    limit = options_of(game.options).turn_limit
    if limit and game.round > limit:
        held = {s: game.sides[s].resources.get("objectives", 0) for s in standing}
        best = max(held.values())
        top = [s for s in standing if held[s] == best]
        if len(top) > 1:
            return (
                f"turn {limit} is over and the lead on objectives is shared ({best} each): a draw (L44-L46)"
            )
        return f"{game.sides[top[0]].name} wins with {best} objectives held after turn {limit} (L44-L46)"
    return None


def playing(game: Game) -> None:
    """Refuse to play on once the game has ended."""
    end = outcome(game)
    if end:
        raise ValueError(f"the game is over: {end}. Undo the last step to play on.")


def phase(board: Board) -> str:
    """Where the turn stands (L67): planning until the cards are revealed, then action, then cleanup."""
    seats = living(board)
    if not started(board):
        return "setup"
    if any(s.play.revealed for s in board.seats):
        return "cleanup" if not pending(board) else "action"
    if seats and all((s.play.planned or s.play.drawn) and not s.play.hand for s in seats):
        return "planning: all placed, ready to reveal"
    return "planning"


def status_lines(game: Game) -> list[CardLine]:
    """Turn, phase, priority and, once decided, the result (shown under the game's title)."""
    board = load(game)
    lines = [
        CardLine(label="Turn", value=str(game.round), note="Advances at cleanup (L103-L105)."),
        CardLine(label="Phase", value=phase(board), note="Planning, action, cleanup (L67)."),
        CardLine(label="Priority marker", value=game.sides[board.priority].name, note="L50, L77, L105."),
    ]
    limit = board.options.turn_limit
    if limit:
        lines.append(
            CardLine(label="Turn limit", value=str(limit), note="Most objectives then wins (L44-L46).")
        )
    end = outcome(game)
    if end:
        lines.append(CardLine(label="Result", value=end, note="The game is over."))
    return lines


def started(board: Board) -> bool:
    """Whether play has begun: a deck shuffled, a card drawn, a turn ended."""
    return board.game.round > 1 or any(
        s.play.shuffled or s.play.drawn or s.play.hand or s.play.planned or s.play.set_aside
        for s in board.seats
    )


def do_setup(game: Game, inp: SetupInput, dice: DiceSource) -> ActionResult:
    playing(game)
    board = load(game)
    if started(board):
        raise ValueError(
            "setup happens once, before the first turn (L50): the decks are already in play, "
            "and set-aside single-use cards stay out (L105). Undo back to the start to set up again."
        )
    n = len(game.sides)
    if inp.priority_side is not None and inp.priority_side >= n:
        raise ValueError(f"there is no side {inp.priority_side}")
    for seat in board.seats:
        seat.play = fresh_play(seat.suit)
        shuffle_deck(seat, dice)
    board.priority = (
        inp.priority_side if inp.priority_side is not None else dice.roll(1, n, "priority")[0] - 1
    )
    notes = [f"decks shuffled; {game.sides[board.priority].name} holds the priority marker (L50)"]
    if not inp.draw:
        return _result(board, notes)
    drawn = draw_all(board, living(board), dice, notes)  # L71: the first turn's planning begins
    return _result(board, notes, {"drawn": drawn})


def do_draw(game: Game, inp: DrawInput, dice: DiceSource) -> ActionResult:
    playing(game)
    board = load(game)
    if any(s.play.revealed for s in board.seats):
        raise ValueError("the cards are face up: draw again after the cleanup (L67)")
    if inp.unit:
        seats = [board.seat(inp.unit)]
    else:
        # every suit that has not drawn yet this turn (L71)
        seats = [s for s in living(board) if not (s.play.drawn or s.play.hand or s.play.planned)]
        if not seats:
            raise ValueError("every suit has drawn this turn")
    notes: list[str] = []
    drawn = draw_all(board, seats, dice, notes)
    return _result(board, notes, {"drawn": drawn})


def draw_all(board: Board, seats: list[Seat], dice: DiceSource, notes: list[str]) -> dict[str, int]:
    """Each of ``seats`` draws its hand (L71); the log says how many cards, never which."""
    for seat in seats:
        more = draw(seat, dice)
        notes.append(f"{seat.name} draws {len(seat.play.hand)}" + (f" ({', '.join(more)})" if more else ""))
        if not seat.play.hand and board.options.spent_deck == "withdraw":
            destroy(seat)
            notes.append(f"{seat.name} has no card left and leaves the fight (house rule, [Q-7])")
        elif not seat.play.hand:
            notes.append(f"{seat.name} has no card to play this turn ([Q-7])")
    return {s.ref: len(s.play.hand) for s in seats}


def do_plan(game: Game, inp: PlanInput, dice: DiceSource) -> ActionResult:
    playing(game)
    board = load(game)
    seat = board.seat(inp.unit)
    plan(seat, inp.keep, inp.bottom, dice, board.options)
    # the log keeps the choice face down (L71): the reveal names the cards
    placed = "two cards" if len(inp.keep) == KEEP else "one card"
    notes = [f"{seat.name} places {placed} face down"]
    if inp.reveal and not any(s.play.hand or not (s.play.planned or s.play.drawn) for s in living(board)):
        # every suit has chosen: the action phase begins with all cards face up (L75)
        notes += reveal_notes(board)
    return _result(board, notes)


def do_reveal(game: Game, inp: RevealInput, dice: DiceSource) -> ActionResult:
    playing(game)
    board = load(game)
    return _result(board, reveal_notes(board))


def reveal_notes(board: Board) -> list[str]:
    """Every chosen card face up (L75), named in the log."""
    notes = reveal(board)
    shown = [f"{s.name}: " + ", ".join(s.card(p).name for p in s.play.planned) for s in living(board)]
    return ["cards face up: " + "; ".join(shown), *notes]


def face_up(board: Board) -> None:
    """Cards resolve in the action phase, once they are face up (L67, L75)."""
    if not any(s.play.revealed for s in board.seats):
        raise ValueError("the cards are still face down: reveal them first (L67, L75)")


def do_resolve(game: Game, inp: ResolveInput, dice: DiceSource) -> ActionResult:
    playing(game)
    board = load(game)
    face_up(board)
    notes, detail = resolve_card(board, inp)
    return _result(board, notes, detail)


def do_turn(game: Game, inp: TurnInput, dice: DiceSource) -> ActionResult:
    playing(game)
    board = load(game)
    face_up(board)
    notes: list[str] = []
    details = []
    for n, step in enumerate(inp.steps, 1):
        try:
            more, detail = resolve_card(board, step)
        except NeedChoice as ask:
            # a list of steps is written out in full: say which step lacks what
            raise ValueError(f"step {n}: {ask.prompt} (set '{ask.field}' in that step)") from ask
        notes += more
        details.append(detail)
    return _result(board, notes, {"steps": details})


def do_cleanup(game: Game, inp: CleanupInput, dice: DiceSource) -> ActionResult:
    """Cleanup ends the turn: the turn counter moves on (L67, L103-L105).

    Allowed after the game's end too, to finish the last turn; nothing is drawn after it.
    """
    board = load(game)
    notes = cleanup(board, dice, inp.force)
    done = outcome(game)
    notes.append(f"turn {game.round} ends")
    out = ActionResult(
        changes=[*changes(board), Change(path=["round"], value=game.round + 1)], text="; ".join(notes)
    )
    if not done:
        after = game.model_copy(update={"round": game.round + 1})
        end = outcome(after)
        if end:
            out.text += f"; the game is over: {end}"
    return out


def draw_odds(game: Game, inp: DrawInput, viewer: int | None = None) -> ActionOdds:
    """Exact odds for the next hand of a suit: a watched card, and blocks for each zone (L71).

    They come from what ``viewer`` knows (:func:`viewer_dist`): the suit's owner
    knows which cards they put back under the marker; anyone else, and the shared
    table phone, sees only how many, so the odds give away no hidden card.
    """
    if inp.unit is None:
        raise ValueError("choose the suit whose next hand you want odds for")
    seat = load(game).seat(inp.unit)
    tables: dict[str, Table] = {}
    facts: dict[str, float] = {}
    summary: list[str] = []
    if inp.watch_card:
        cid = inp.watch_card
        dist = viewer_dist(seat, lambda c: c.id == cid, viewer)
        tables[f"card {cid}"] = table(dist)
        p = 1 - dist.probability(0)
        facts[f"draws {cid}"] = float(p)
        summary.append(f"{cid}: {p}")
    for zone in [inp.watch_zone] if inp.watch_zone else list(ZONES):
        dist = viewer_dist(seat, lambda c, z=zone: z in c.blocks, viewer)  # type: ignore[misc]
        tables[f"{zone} blocks"] = table(dist)
        p = 1 - dist.probability(0)
        facts[f"a {zone} block"] = float(p)
        summary.append(f"a {zone} block: {p}")
    return ActionOdds(
        tables=tables, facts=facts, summary=f"next hand of {hand_size(seat)}: " + ", ".join(summary)
    )


ACTIONS: dict[str, ActionSpec] = {
    "setup": ActionSpec.of(
        "setup",
        "Setup",
        do_setup,
        "Shuffle every deck, hand out priority (L50).",
        roll_label="Shuffle for me",
        typed_label="I shuffle with real dice",
    ),
    "draw": ActionSpec.of(
        "draw",
        "Draw",
        do_draw,
        "Draw five, or four with the mid penalty (L71, L100).",
        odds_by_viewer=True,
        odds=draw_odds,
        roll_label="Draw",
        typed_label="Draw, reshuffling with real dice",
    ),
    "plan": ActionSpec.of(
        "plan",
        "Plan",
        do_plan,
        "Keep two face down, the rest under the deck (L71).",
        secret_fields=("keep", "bottom"),
    ),
    "reveal": ActionSpec.of("reveal", "Reveal", do_reveal, "All chosen cards face up (L75)."),
    "resolve_card": ActionSpec.of(
        "resolve_card", "Resolve card", do_resolve, "Effect, movement, attack (L79-L91)."
    ),
    "resolve_turn": ActionSpec.of(
        "resolve_turn", "Resolve turn", do_turn, "Several cards in order, as one log step."
    ),
    "cleanup": ActionSpec.of(
        "cleanup", "Cleanup", do_cleanup, "Discard, set aside, pass priority (L103-L105)."
    ),
}
