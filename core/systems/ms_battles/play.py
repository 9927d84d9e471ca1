"""Playing Mobile Suit Battles (002_c5caa4b4fc3fd928.txt, L48-L105, L139): the actions.

Everything here is a pure function of the game and the dice source.  The table model is
:mod:`.board`; the decks and their odds :mod:`.planning`; the action phase :mod:`.resolve`.
Here: cleanup (L103-L105), the actions' inputs and results, the end of the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field

from core.dice import DiceSource
from core.pool import Table, table
from core.systems.base import (
    ActionOdds,
    ActionResult,
    ActionSpec,
    CardLine,
    Change,
    Closed,
    NeedChoice,
    own_unit,
    side_field,
)
from core.systems.ms_battles.board import (
    KEEP,
    Board,
    Seat,
    changes,
    fresh_play,
    load,
)
from core.systems.ms_battles.cards import ZONES, Zone
from core.systems.ms_battles.options import options_of
from core.systems.ms_battles.planning import (
    draw,
    hand_size,
    plan,
    shuffle_deck,
    to_bottom,
    viewer_dist,
)
from core.systems.ms_battles.resolve import (
    ResolveInput,
    destroy,
    living,
    pending,
    resolve_card,
    reveal,
)

if TYPE_CHECKING:
    from core.game import Game


# --- cleanup (L103-L105) ---------------------------------------------------------------------


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
