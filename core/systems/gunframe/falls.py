"""Falls from ledges and knock-back off high ground (L898-902, L946).

A unit that moves off an elevated feature, of its own will or not, falls: one hit an inch
fallen, met by an unmodified defense roll, and knocked down if it takes any damage (L900;
the book's example at L902: pushed off a ledge, it falls 3" and takes 3 hits).  A knock-back
that carries a unit off high ground ends there and the unit falls (L946).  The app does not
know the table's heights: the player says how far the unit fell.  A flyer brought down by
being knocked down or shut down falls 8" (L926): that fall comes with the attack that did it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import Field

from core.dice import DiceSource
from core.pool import table
from core.systems.base import ActionOdds, ActionResult, Closed, action_texts, own_unit
from core.systems.gunframe.state import Edits, fall, fall_defense, fall_hits, hits_dist

if TYPE_CHECKING:
    from core.game import Game

_TEXTS = action_texts(__package__)

_HOW = {"ledge": "off a ledge", "knocked_back": "off high ground, knocked back"}


class FallInput(Closed):
    unit: str = own_unit("The unit that falls, as 'side/key'.")
    inches: int = Field(
        default=3,
        ge=1,
        le=48,
        description="How far it falls, in inches, as measured on the table: one hit an inch (L898-900).",
    )
    cause: Literal["ledge", "knocked_back"] = Field(
        default="ledge",
        description="It moved off an elevated feature (L898), or a knock-back carried it off one and its "
        "movement ends there (L946).",
        json_schema_extra={
            "same_odds": "the fall's dice are the same either way: it only says where from in the log",
            "x-labels": {"ledge": "Off a ledge", "knocked_back": "Knocked back off high ground"},
        },
    )


def _start(game: Game, inp: FallInput) -> tuple[Edits, tuple[int, int]]:
    edits = Edits(game)
    pos = edits.find(inp.unit)
    unit = edits.unit(pos)
    if unit.state.destroyed:
        raise ValueError(f"{unit.name} is destroyed")
    if edits.has(pos, "flying"):
        raise ValueError(
            f"{unit.name} is flying: it does not fall off a ledge; a flyer falls when knocked down or shut "
            "down (L926)"
        )
    return edits, pos


def resolve_fall(game: Game, inp: FallInput, dice: DiceSource) -> ActionResult:
    """The fall: its hits, the defense roll, knocked down if hurt (L898-902, L946)."""
    edits, pos = _start(game, inp)
    text = fall(edits, pos, dice, inp.inches, how=_HOW[inp.cause])
    return ActionResult(changes=edits.changes(), text=text)


def fall_odds(game: Game, inp: FallInput) -> ActionOdds:
    """The damage of the fall, from the same hits and defense dice the resolution rolls."""
    edits, pos = _start(game, inp)
    hits = fall_hits(edits, pos, inp.inches)
    defense = fall_defense(edits, pos)
    damage = hits_dist(hits, defense)
    unit = edits.unit(pos)
    left = unit.state.max_damage - unit.state.damage
    facts = {
        "destroyed": float(sum(p for k, p in damage.probabilities() if k >= left)),
        "knocked down": float(sum(p for k, p in damage.probabilities() if 0 < k < left)),
    }
    return ActionOdds(
        tables={"damage": table(damage)},
        facts=facts,
        summary=f"{hits} hits against {defense} defense dice",
    )


FALL = _TEXTS.spec("fall", resolve_fall, odds=fall_odds, headline=("destroyed", "knocked down"))
