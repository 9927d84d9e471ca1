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

What the log holds is checked (:func:`log_trigger`): "attacked" needs an enemy's
attack on the reacting unit this turn, "target lock" an enemy's Target Lock action
on it this turn, and an attack made as a reaction must go at that enemy (L1424-1426,
L1432; the book's example at L1452: the unit attacked may react, its neighbour may
not).  A move in sight cannot be checked (the app follows no figures, nor sight).
What happened off the app, or what only the table can judge, the players confirm
with ``trigger_off_log``; the log then says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field

from core.systems.base import Choice, NeedChoice
from core.systems.gunframe.effects import UnseenMoves
from core.systems.gunframe.environment import dark
from core.systems.gunframe.state import upgrades_of
from core.systems.gunframe.upgrades import has_effect
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


def off_log_field() -> Any:
    return Field(
        default=False,
        title="Confirm a trigger the log does not show",
        description="The players confirm a trigger the log does not show (it happened off the app, or it "
        "is for the table to judge): the reaction is accepted and the log says so (L1424-1426).",
        json_schema_extra={"same_odds": "it lets the reaction through, logged; the dice are the same"},
    )


def _this_turn(game: Game) -> list[dict[str, Any]]:
    """The actions of the log since the turn began (undone steps left out), as their details."""
    out = []
    for event in reversed(game.log[: game.cursor]):
        if event.kind in ("round", "start"):
            break
        if event.kind == "action":
            out.append(event.detail)
    return out


def _triggered_by(game: Game, trigger: ReactionTrigger, ref: str) -> list[str]:
    """The enemies ('side/key') whose logged action this turn set off ``trigger`` for the unit ``ref``."""
    side = ref.split("/")[0]
    out = []
    for detail in _this_turn(game):
        inp = detail.get("input")
        if not isinstance(inp, dict):
            continue
        action, target = detail.get("action"), inp.get("target")
        if trigger == "attacked" and action == "attack" and target == ref:
            # a group attack: the leader and each follower attacked it (L2635-2641)
            by = [inp.get("attacker"), *(inp.get("followers") or [])]
        elif trigger == "target_lock" and action == "target_lock" and target == ref:
            by = [inp.get("unit")]
        else:
            continue
        out += [b for b in by if isinstance(b, str) and b.split("/")[0] != side and b not in out]
    return out


def log_trigger(game: Game, ref: str, trigger: ReactionTrigger, enemy: str | None = None) -> str:
    """Why the log does not show ``trigger`` for the unit ``ref`` this turn ("" when it does): it was not
    attacked (or locked) by an enemy, or, for an attack made as a reaction, not by ``enemy`` (L1432).
    A move in sight is the table's to judge: never refused here.

    >>> from core.game import Game, GameUnit, Side
    >>> from core.systems.base import UnitState
    >>> def unit(key, name):
    ...     return GameUnit(key=key, name=name, profile={}, state=UnitState(max_damage=5))
    >>> g = Game(id="g", system="gunframe", sides=[Side(name="A", units=[unit("a", "Ada"), unit("b", "Bo")]),
    ...     Side(name="X", units=[unit("x", "Xan")])])
    >>> log_trigger(g, "0/a", "attacked")
    'no enemy has attacked Ada this turn'
    >>> log_trigger(g, "0/a", "enemy_moved")
    ''
    """
    _, _, unit = game.unit(ref)
    if trigger == "enemy_moved":
        return ""
    by = _triggered_by(game, trigger, ref)
    what = "attacked" if trigger == "attacked" else "put a Target Lock on"
    if not by:
        return f"no enemy has {what} {unit.name} this turn"
    if enemy is not None and enemy not in by:
        _, _, other = game.unit(enemy)
        names = ", ".join(game.unit(b)[2].name for b in by)
        return f"{other.name} has not {what} {unit.name} this turn: a reaction attack goes only at {names}"
    return ""


def check_trigger(
    game: Game,
    unit: GameUnit,
    trigger: ReactionTrigger | None,
    enemy: GameUnit | None = None,
    *,
    ref: str | None = None,
    enemy_ref: str | None = None,
    off_log: bool = False,
) -> str:
    """The trigger of a reaction, asked for when missing (NeedChoice); ValueError when the rules forbid
    it.  ``enemy`` is the unit that set it off, when the action names it (an attack's target).

    With ``ref`` (the reacting unit's 'side/key') the log is checked (:func:`log_trigger`) unless the
    players confirm the trigger (``off_log``), which the returned text then says."""
    if trigger is None:
        raise NeedChoice(
            "reaction_trigger",
            f"What lets {unit.name} react?",
            [Choice(value=k, label=v) for k, v in TRIGGER_LABELS.items()],
        )
    confirmed = ""
    if ref is not None:
        missing = log_trigger(game, ref, trigger, enemy_ref)
        if missing and not off_log:
            raise ValueError(
                f"{missing} (L1424-1426, L1432); if it happened off the app, confirm the trigger "
                "the log does not show"
            )
        confirmed = ", confirmed by the players" if missing else ""
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
    return {"attacked": "after being attacked", "target_lock": "after a Target Lock"}[trigger] + confirmed
