"""Where a Mobile Suit Battles turn stands (002_c5caa4b4fc3fd928.txt, L50-L105), for the phase strip.

Setup shuffles the decks once (L50); each turn every suit draws (L71), keeps two cards
face down (L71), the cards are revealed together (L75), resolved one by one by
initiative (L77-L93), then cleaned up (L105).

>>> [s.key for s in STEPS]
['setup', 'draw', 'plan', 'reveal', 'resolve', 'cleanup']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.systems.base import PhaseStep, PhaseView
from core.systems.ms_battles.board import load
from core.systems.ms_battles.resolve import living, pending

if TYPE_CHECKING:
    from core.game import Game

STEPS = [
    # Setup shuffles and deals the first hands in one tap (L50, L71); real dice through Actions.
    PhaseStep(key="setup", label="Setup", action="setup", input={"draw": True}, gate=True),
    PhaseStep(key="draw", label="Draw", action="draw"),  # L71 (a reshuffle is rolled by the app)
    PhaseStep(
        key="plan", label="Plan", hint="Each player looks at their hand alone and taps the two cards to keep."
    ),  # L71
    PhaseStep(key="reveal", label="Reveal", action="reveal"),  # L75
    PhaseStep(key="resolve", label="Resolve", action="resolve_card", ask_at_once=True),  # L77
    PhaseStep(key="cleanup", label="Cleanup", action="cleanup"),  # L105
]


def phase(game: Game) -> PhaseView:
    """The step the game is at: the first one whose work is not done yet."""
    board = load(game)
    seats = living(board)
    at = "cleanup"
    if not any(s.play.shuffled for s in board.seats):
        at = "setup"
    elif any(s.play.hand for s in seats):
        at = "plan"
    elif not any(s.play.planned for s in seats):
        at = "draw"
    elif not any(s.play.revealed for s in seats):
        at = "reveal"
    elif pending(board):
        at = "resolve"
    # the turn moves on at cleanup (L105): no bare "next round" button
    return PhaseView(steps=STEPS, current=[s.key for s in STEPS].index(at), round_button=False)
