"""What sets off a GUNFRAME reaction (L1424-1426), asked of the player.

A unit that has not activated may react only after one of three events: an
enemy attacked it, an enemy put a Target Lock on it, or an enemy finished a
move action where it could see it.  The app does not follow the figures on the
table, so it asks which of these happened (``reaction_trigger`` in the attack,
evade and reaction-move inputs; :class:`~core.systems.base.NeedChoice` when it
is left empty) and refuses the ones the rules rule out:

* no reaction to movement in the dark (L2009), from turn 4 of a Nightfall
  (L2019; on turns 2 and 3 only to moves within 16" then 8", a distance the
  players measure);
* no reaction to the movement of a unit with Cloaking (L2384).

An attack made as a reaction goes only at the enemy that set it off (L1432),
the ``target`` of the attack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from core.systems.base import Choice, NeedChoice
from core.systems.gunframe.catalogue import has_effect
from core.systems.gunframe.effects import UnseenMoves
from core.systems.gunframe.environment import dark
from core.systems.gunframe.state import upgrades_of
from core.systems.gunframe.wide import game_value

if TYPE_CHECKING:
    from core.game import Game, GameUnit

ReactionTrigger = Literal["attacked", "target_lock", "enemy_moved"]

#: The book's list of triggers (L1424-1426), as the question shows them.
TRIGGER_LABELS: dict[str, str] = {
    "attacked": "An enemy has just attacked it",
    "target_lock": "An enemy has just put a Target Lock on it",
    "enemy_moved": "An enemy has just finished a move action in its sight",
}


def trigger_field() -> Any:
    return Field(
        default=None,
        description="What let the unit react (L1424-1426): it was attacked, an enemy put a Target Lock on "
        "it, or an enemy finished a move in its sight. Asked when left empty.",
    )


def check_trigger(
    game: Game, unit: GameUnit, trigger: ReactionTrigger | None, enemy: GameUnit | None = None
) -> str:
    """The trigger of a reaction, asked for when missing (NeedChoice); ValueError when the rules forbid
    it.  ``enemy`` is the unit that set it off, when the action names it (an attack's target)."""
    if trigger is None:
        raise NeedChoice(
            "reaction_trigger",
            f"What lets {unit.name} react?",
            [Choice(value=k, label=v) for k, v in TRIGGER_LABELS.items()],
        )
    if trigger == "enemy_moved":
        nightfall = game_value(game, "darkness_variant") == "nightfall"
        if dark(game) and not (nightfall and game.round < 4):
            raise ValueError("in the dark nobody may react to an enemy's move (L2009)")
        if enemy is not None and has_effect(upgrades_of(enemy), UnseenMoves):
            raise ValueError(f"{enemy.name} has Cloaking: no one may react to its moves (L2384)")
        if dark(game):
            reach = 16 if game.round < 3 else 8
            return f'after a move within {reach}" (Nightfall, L2019)'
        return "after an enemy's move"
    return {"attacked": "after being attacked", "target_lock": "after a Target Lock"}[trigger]
