"""What Mobile Suit Gundam: Skirmish's gated inputs need (core.systems.base.needs): each a check of one
unit in play, answering "" when it has it, else why not in plain words.

Massed Fire (L2937-L2941) and Heat Radiation (L2889-L2894) add Shot dice only for a unit with the
ability: the sheet greys them for any other, with the reason, and the engine refuses them if sent
(the issue #20 check found both accepted for a unit with no abilities).  Shoot, Aimed Shot, Reload,
Switch Weapon and Idle are offered only to a unit that may act now (:func:`acting_reason`): not before
the first turn, not in another player's turn (a Responsive pilot's Shoot aside, L1992-L1994), not once the
game is over.  Which weapon is the
ability's X is checked with the shot (:func:`x_weapon`).  The Routed roll is for a Routed unit only
(L1554-L1558).  A Volley is offered only to a unit with a <V> weapon, and not in space (L1606, L1401).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.systems.base import Requirement
from core.systems.gundam_skirmish.battle import has, in_space, profile
from core.systems.gundam_skirmish.catalogue import ALL_ENTRIES
from core.systems.gundam_skirmish.economy import NOT_BEGUN
from core.systems.gundam_skirmish.movement import withdraw_reason
from core.systems.gundam_skirmish.traits import (
    free_shot_reason,
    merciful_reason,
    terrifying_reason,
)

if TYPE_CHECKING:
    from core.game import Game


def _name(key: str) -> str:
    return ALL_ENTRIES["ability"][key].name


def _ability(key: str) -> Requirement:
    def check(game: Game, ref: str) -> str:
        _, _, gu = game.unit(ref)
        return "" if profile(gu).has(key) else f"{gu.name} has no {_name(key)}"

    return check


def _routed(game: Game, ref: str) -> str:
    _, _, gu = game.unit(ref)
    return "" if has(gu, "routed") else f"{gu.name} is not Routed"


def _volley(game: Game, ref: str) -> str:
    """A Volley needs a <V> weapon (L1606) and cannot be made in space (L1401)."""
    _, _, gu = game.unit(ref)
    if not any("V" in w.tags for w in profile(gu).weapons):
        return f"{gu.name} has no weapon that can fire a Volley (<V>)"
    return "No Volley can be made in space" if in_space(game) else ""


def x_weapon(game: Game, ref: str, key: str, weapon: str) -> str:
    """Why ``weapon`` is not the X WEAPON of the unit's ability ``key`` ("" when it is, or when the
    ability names no weapon)."""
    _, _, gu = game.unit(ref)
    named = [a.x for a in profile(gu).abilities if a.key == key]
    if not named or any(not x or x.casefold() == weapon.casefold() for x in named):
        return ""
    return f"{gu.name}'s {_name(key)} is for its {named[0]}"


def acting_reason(game: Game, ref: str, responsive: bool = False) -> str:
    """Why the unit may not act now ("" when it may): the game is over, the first turn has not begun
    (L278-L282), the unit is out of the battle or waiting to Ambush (L1267), or it is another player's
    turn (L294-L297).  With ``responsive`` (a Shoot), a Responsive pilot may shoot once in an opposing
    player's turn (L1992-L1994)."""
    s, _, gu = game.unit(ref)
    if game.state.ended:
        return "the game is over"
    active = game.state.active_side
    if active is None:
        return NOT_BEGUN
    if gu.state.destroyed or has(gu, "withdrawn"):
        return f"{gu.name} is out of the battle"
    if has(gu, "reserve"):
        return f"{gu.name} is waiting to Ambush; it acts once it has arrived (L1267)"
    if active != s:
        if responsive and profile(gu).pilot_has("responsive"):
            return free_shot_reason(game, ref)
        name = game.sides[active].name
        return (
            f"it is {name}'s turn: {game.sides[s].name}'s units act in their own turn; when {name} is done, "
            "tap Next turn (L294-L297)"
        )
    if has(gu, "no_actions"):
        return f"{gu.name} can take no actions this turn"
    return ""


def _shot(game: Game, ref: str) -> str:
    return acting_reason(game, ref, responsive=True)


REQUIREMENTS: dict[str, Requirement] = {
    "acting": acting_reason,
    "shot": _shot,
    "massed_fire": _ability("massed_fire"),
    "heat_radiation": _ability("heat_radiation"),
    "routed": _routed,
    "volley": _volley,
    "withdrawal": withdraw_reason,
    "free_shot": free_shot_reason,
    "merciful": merciful_reason,
    "terrifying": terrifying_reason,
}
