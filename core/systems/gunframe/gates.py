"""What GUNFRAME's gated inputs need (core.systems.base.needs): each a check of one unit in play,
answering "" when it has it, else why not in plain words, with the rulebook line.

The screen greys a modifier whose unit lacks what it needs, with this reason (``game.gates``), and
the shared layer refuses it when sent anyway, before the attack is planned; the attack's own checks
stay (a weapon system picked without the trait is refused there, L2440, L2462).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core.systems.base import Requirement
from core.systems.gunframe.effects import (
    DefenseValue,
    Effect,
    FreeReactionOnce,
    IndirectFire,
    LuckyReroll,
    Parry,
    SplitFire,
)
from core.systems.gunframe.state import upgrades_of, weapon_ups
from core.systems.gunframe.upgrades import effects_of, has_effect

if TYPE_CHECKING:
    from core.game import Game


def _on_a_weapon(kind: type[Effect], what: str) -> Requirement:
    def check(game: Game, ref: str) -> str:
        _, _, unit = game.unit(ref)
        if any(has_effect(weapon_ups(unit, w), kind) for w in ("close", "short", "medium", "long")):
            return ""
        return f"{unit.name} has no weapon system with {what}"

    return check


def _upgrade(kind: type[Effect], text: str) -> Requirement:
    def check(game: Game, ref: str) -> str:
        _, _, unit = game.unit(ref)
        return "" if has_effect(upgrades_of(unit), kind) else f"{unit.name} {text}"

    return check


def _counter(key: str, text: str) -> Requirement:
    def check(game: Game, ref: str) -> str:
        _, _, unit = game.unit(ref)
        return "" if unit.state.counters.get(key, 0) >= 1 else f"{unit.name} {text}"

    return check


def _parry(game: Game, ref: str) -> str:
    """Parry sits on the Close system (L2448)."""
    _, _, unit = game.unit(ref)
    return "" if has_effect(weapon_ups(unit, "close"), Parry) else f"{unit.name} has no Parry (L2448)"


def _shield_wall(game: Game, ref: str) -> str:
    """Shield Wall's +1 Defense holds only for a unit that has it (L2414)."""
    _, _, unit = game.unit(ref)
    if any(e.when == "shield_wall" for e in effects_of(upgrades_of(unit), DefenseValue)):
        return ""
    return f"{unit.name} has no Shield Wall (L2414)"


REQUIREMENTS: dict[str, Requirement] = {
    "indirect_fire": _on_a_weapon(IndirectFire, "Indirect Fire (L2440)"),
    "split_fire": _on_a_weapon(SplitFire, "Split Fire (L2462)"),
    "lucky": _upgrade(LuckyReroll, "is not Lucky (L2330)"),
    "quick_reflexes": _upgrade(FreeReactionOnce, "has no Quick Reflexes (L2338)"),
    "parry": _parry,
    "shield_wall": _shield_wall,
    "target_lock": _counter("target_lock", "has no Target Lock to spend (L1373)"),
    "evade": _counter("evade", "has no Evade counter to spend (L1400)"),
}
