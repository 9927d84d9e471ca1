"""Mobile Suit Battles' action phase (002_c5caa4b4fc3fd928.txt, L73-L93): revealing the cards,
the order they resolve in, and resolving a card (movement, effects, attack, damage).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from core.systems.base import (
    Choice,
    Closed,
    NeedChoice,
    enemy_unit,
    needs,
    own_unit,
)
from core.systems.ms_battles.board import (
    PENALTY_AT,
    Board,
    Resolved,
    Seat,
)
from core.systems.ms_battles.cards import ZONES, Zone
from core.systems.ms_battles.options import MsbOptions
from core.systems.ms_battles.planning import (
    _positions,
)
from core.systems.ms_battles.reach import check_in_range, range_choices, reaches

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
