"""A GUNFRAME table for tests: stock medium gunframes, two sides, actions with typed dice.

Red is side 0 with keys a, b, c, ...; Blue is side 1 with keys t, u, v, ...
"""

from __future__ import annotations

from typing import Any

from core.dice import TypedDice
from core.game import Game, act, adjust, new_game
from core.squad import Squad, SquadUnit
from core.systems.base import Change
from core.systems.gunframe.wide import GAME_KEYS, write

BASE: dict[str, Any] = {"frame": "medium", "speed": 5, "defense": 3, "armour": 8}
BASE.update({"close": 3, "short": 3, "medium": 3, "long": 3})


def mech(name: str, *upgrades: str | tuple[str, str], **fields: Any) -> dict[str, Any]:
    """A medium gunframe; upgrades as ids, or (id, weapon system) for loadout ones."""
    refs = [{"id": u} if isinstance(u, str) else {"id": u[0], "slot": u[1]} for u in upgrades]
    return {**BASE, "name": name, "upgrades": refs, **fields}


def squad(*profiles: dict[str, Any], keys: str = "abcdefghij") -> Squad:
    units = [SquadUnit(key=k, profile=p) for k, p in zip(keys, profiles, strict=False)]
    return Squad(id="s", name="S", system="gunframe", units=units)


def start(
    red: list[dict[str, Any]],
    blue: list[dict[str, Any]] | None = None,
    *,
    red_fp: int | None = None,
    **options: Any,
) -> Game:
    """A game of Red against Blue (two stock mechs by default), with readings and Red's FP if given."""
    blue = blue if blue is not None else [mech("Tom"), mech("Uli")]
    g = new_game("g", "Test", [("Red", squad(*red)), ("Blue", squad(*blue, keys="tuvwxyz"))])
    if options:
        g = with_values(g, **options)
    return g if red_fp is None else set_fp(g, 0, red_fp)


def with_values(g: Game, **values: Any) -> Game:
    """The game with these readings (``Game.options``) and game-wide values (``Game.state``: the
    environment, the Doomsday clock, a mission's counters...), set without a log step."""
    g = g.model_copy(deep=True)
    for key, value in values.items():
        if key in GAME_KEYS:
            write(g.state, key, value)
        else:
            g.options[key] = value
    return g


def state(g: Game, ref: str) -> Any:
    return g.unit(ref)[2].state


def set_state(g: Game, ref: str, field: str, value: Any) -> Game:
    side, idx, _ = g.unit(ref)
    return adjust(g, [Change(path=["sides", side, "units", idx, "state", field], value=value)])


def hurt(g: Game, ref: str, damage: int) -> Game:
    return set_state(g, ref, "damage", damage)


def set_fp(g: Game, side: int, points: int) -> Game:
    return adjust(g, [Change(path=["sides", side, "resources", "focus_points"], value=points)])


def run(g: Game, action: str, faces: list[int], **raw: Any) -> Game:
    """Resolve an action with exactly these faces (every one must be used)."""
    typed = TypedDice(faces)
    out = act(g, action, raw, typed)
    assert typed.left == 0, "every typed face is used"
    return out


def place(g: Game, side: int, kind: str, count: int = 1, **fields: Any) -> Game:
    """Structures of a kind added to a side (keys st1, st2, ...)."""
    return run(g, "place_structure", [], side=side, kind=kind, count=count, **fields)


def environment(g: Game, env: str, faces: list[int] | None = None, **fields: Any) -> Game:
    """The battle's environment, picked (no dice unless a sub-roll is asked for)."""
    return run(g, "environment", faces or [], environment=env, **fields)
