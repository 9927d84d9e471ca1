"""GUNFRAME's game-wide values, kept in ``Game.state`` (game schema 3), apart from the readings of
unclear rules (``Game.options``, :mod:`.options`).

The shared fields hold what every system has: the mission (``state.mission``), the environment
(``state.environment``), the Doomsday clock (``state.clocks["doomsday_clock"]``, L1853-1863), the end of
the game and its winners (``state.ended``, ``state.winners``, L1614-1637).  The rest is GUNFRAME's own,
typed by :class:`GunframeState` in ``state.extra``.

The mechanics read and write them by name (:func:`game_value`, and ``Edits.option`` /
``Edits.set_option``, which route these names here), as they did when they sat among the options; a
game saved before (schema 2) is moved over by :func:`upgrade_state`.

>>> from core.game import GameState
>>> state = GameState(mission="doomsday", clocks={"doomsday_clock": 4}, extra={"hull_breaches": 2})
>>> [read(state, k) for k in ("mission", "clock", "hull_breaches", "ended", "last_turn")]
['doomsday', 4, 2, False, None]
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field

from core.systems.gunframe.options import GunframeOptions

if TYPE_CHECKING:
    from core.game import Game, GameState

Path = list[str | int]

#: The key of the Doomsday clock in ``state.clocks`` (L1853-1863).
CLOCK = "doomsday_clock"


class GunframeState(BaseModel):
    """GUNFRAME's own game-wide values (``Game.state.extra``); a new game starts at these defaults."""

    model_config = ConfigDict(extra="forbid")

    # --- the mission (L1517, L1640-1975) -------------------------------------------------------
    variant: bool = Field(default=False, description="The mission's variant is played (L1701-1905).")
    basic_mission: str | None = Field(
        default=None, description="Remember Love: the basic mission scored underneath (L1959)."
    )
    attacker_side: int | None = Field(default=None, description="The side that attacks (L1517).")
    initiative_side: int | None = Field(
        default=None, description="The side that won this turn's initiative (L700-706)."
    )
    interest_left: int = Field(default=6, description="Investigate: points of interest not searched (L1721).")
    prize_found: bool = Field(default=False, description="Investigate: the prize was found (L1741).")
    result: str = Field(default="", description="How the game ended, as the log told it (L1614-1637).")
    # --- power attacks (L1310-1318) ------------------------------------------------------------
    suppression: list[dict[str, Any]] = Field(
        default_factory=list, description="Suppression tokens on the table until the End phase (L1318)."
    )
    # --- the environment (L1985-2097) ----------------------------------------------------------
    storm_type: str | None = Field(default=None, description="Storm: dust, snow, lightning or none (L2029).")
    eye_of_the_storm: bool = Field(
        default=False, description="Storm: the eye of the storm is played (L2027)."
    )
    storm_calm: bool = Field(default=False, description="Storm: stilled by the eye of the storm (L2027).")
    darkness_variant: str | None = Field(
        default=None, description="Darkness: full, sunrise or nightfall (L2011-2019)."
    )
    dark_over: bool = Field(default=False, description="Darkness: the sun is up (L2013).")
    flying_allowed: bool = Field(default=True, description="Space structure: units may fly inside (L2079).")
    hull_breaches: int = Field(default=0, description="Space structure: breaches torn so far (L2081-2085).")
    last_turn: int | None = Field(
        default=None, description="Space structure: the turn that is the last (L2085)."
    )


#: Names kept in the shared fields of ``Game.state``.
SHARED = ("mission", "environment", "clock", "ended")
#: Every game-wide name: read with :func:`game_value`, written with :func:`write`.
GAME_KEYS = frozenset({*SHARED, *GunframeState.model_fields})


def read(state: GameState, key: str, default: Any = None) -> Any:
    """The value of a game-wide ``key`` (``default`` when unset, as an option's ``get`` gave)."""
    if key == "mission":
        return state.mission or default
    if key == "environment":
        return state.environment or default
    if key == "clock":
        return state.clocks.get(CLOCK, default)
    if key == "ended":
        return state.ended
    value = state.extra.get(key)
    if value is None:
        return default if default is not None else copy.deepcopy(_DEFAULTS.get(key))
    return value


def game_value(game: Game, key: str, default: Any = None) -> Any:
    """A game-wide value of ``game`` by name (see :func:`read`)."""
    return read(game.state, key, default)


def write(state: GameState, key: str, value: Any) -> None:
    """Set a game-wide value by name, in place (on a working copy of the game)."""
    if key == "mission":
        state.mission = str(value or "")
    elif key == "environment":
        state.environment = str(value or "")
    elif key == "clock":
        state.clocks[CLOCK] = int(value)
    elif key == "ended":
        state.ended = bool(value)
    elif key in GunframeState.model_fields:
        state.extra[key] = copy.deepcopy(value)
    else:
        raise ValueError(f"{key!r} is not a game-wide value")


def end_game(state: GameState, winner: int | None, result: str) -> None:
    """The game is over (L1614-1637): its winner (none for a draw) and how it ended."""
    state.ended = True
    state.winners = [] if winner is None else [winner]
    state.extra["result"] = result


_DEFAULTS = GunframeState().model_dump(mode="json")


# --- saves of game schema 2 ----------------------------------------------------------------------


def _winners(result: str, names: list[str]) -> list[int]:
    """The winner a schema-2 result text names ("Red wins: ..."), none for a draw.

    >>> _winners("Red Two wins: sudden death", ["Red", "Red Two"]), _winners("a draw", ["Red"])
    ([1], [])
    """
    for n, name in sorted(enumerate(names), key=lambda p: -len(p[1])):
        if result.startswith(f"{name} wins"):
            return [n]
    return []


def _moved(key: Any) -> bool:
    """A key of the options of schema 2 that is a game-wide value, not a reading."""
    return key in GAME_KEYS and key not in GunframeOptions.model_fields


def _readings_of(options: dict[str, Any]) -> dict[str, Any]:
    """What stays among the options: the readings, and any key the players set by hand."""
    return {k: v for k, v in options.items() if not _moved(k)}


def _as_state(key: str, value: Any) -> tuple[Path, Any]:
    """Where a game-wide value that sat among the options lives now, and its value there (an option
    that was never set meaning the state's default)."""
    if key in ("mission", "environment"):
        return ["state", key], str(value or "")
    if key == "clock":
        return ["state", "clocks"], {} if value is None else {CLOCK: value}
    if key == "ended":
        return ["state", "ended"], bool(value)
    return ["state", "extra", key], copy.deepcopy(_DEFAULTS[key] if value is None else value)


def _moved_changes(new: dict[str, Any], old: dict[str, Any], names: list[str]) -> list[tuple[Path, Any, Any]]:
    """The changes of the game-wide values between two option dicts, as state paths: (path, value, before)."""
    out: list[tuple[Path, Any, Any]] = []
    for key in sorted({*new, *old}):  # in one order, however the dicts were packed
        if not _moved(key):
            continue
        path, value = _as_state(key, new.get(key))
        _, before = _as_state(key, old.get(key))
        if value != before:
            out.append((path, value, before))
        if key == "ended":
            won = _winners(str(new.get("result") or ""), names) if value else []
            was = _winners(str(old.get("result") or ""), names) if before else []
            if won != was:
                out.append((["state", "winners"], won, was))
    return out


def _upgrade_event(event: dict[str, Any], names: list[str]) -> dict[str, Any]:
    """A logged step whose changes set options: the game-wide ones now set the state, so that undo
    and redo of a step made before the move change the same values as they did then."""
    changes, before = event.get("changes"), event.get("before")
    if not isinstance(changes, list) or not isinstance(before, list) or len(changes) != len(before):
        return event
    out_changes: list[Any] = []
    out_before: list[Any] = []
    for change, was in zip(changes, before, strict=True):
        path = change.get("path") if isinstance(change, dict) else None
        if path == ["options"] and isinstance(change.get("value"), dict):
            new, old = change["value"], was if isinstance(was, dict) else {}
            moved = [(p, v, b) for p, v, b in _moved_changes(new, old, names)]
            keep_new = {
                k: v for k, v in new.items() if k not in GAME_KEYS or k in GunframeOptions.model_fields
            }
            keep_old = {
                k: v for k, v in old.items() if k not in GAME_KEYS or k in GunframeOptions.model_fields
            }
            if keep_new != keep_old:
                moved.insert(0, (["options"], keep_new, keep_old))
        elif isinstance(path, list) and len(path) == 2 and path[0] == "options" and _moved(path[1]):
            old = {} if was is None else {path[1]: was}
            moved = _moved_changes({path[1]: change.get("value")}, old, names)
        else:
            out_changes.append(change)
            out_before.append(was)
            continue
        for p, v, b in moved:
            out_changes.append({"path": p, "value": v})
            out_before.append(b)
    return {**event, "changes": out_changes, "before": out_before}


def upgrade_state(data: dict[str, Any]) -> dict[str, Any]:
    """A GUNFRAME game of schema 2, as JSON, with its game-wide values moved out of ``options``.

    The options keep the readings of :mod:`.options` and any key the players added by hand; the
    mission, environment, clock and end go to the shared fields, the rest to ``state.extra``.

    >>> old = {"options": {"mission": "doomsday", "clock": 5, "ended": True, "result": "Blue wins: boom",
    ...        "hull_breaches": 1, "crippled_rules": True}, "state": {}, "sides": [{"name": "Red"},
    ...        {"name": "Blue"}]}
    >>> new = upgrade_state(old)
    >>> new["options"], new["state"]["mission"], new["state"]["clocks"], new["state"]["winners"]
    ({'crippled_rules': True}, 'doomsday', {'doomsday_clock': 5}, [1])
    >>> new["state"]["extra"]["hull_breaches"], new["state"]["extra"]["result"]
    (1, 'Blue wins: boom')
    """
    out = copy.deepcopy(data)
    options = out.get("options")
    if not isinstance(options, dict):
        return out
    state = out.setdefault("state", {})
    if not isinstance(state, dict):
        return out
    extra = {**_DEFAULTS, **(state.get("extra") or {})}
    moved = {
        k: options.pop(k) for k in list(options) if k in GAME_KEYS and k not in GunframeOptions.model_fields
    }
    for key, value in moved.items():
        if key in ("mission", "environment"):
            state[key] = str(value or "")
        elif key == "clock":
            state["clocks"] = {**(state.get("clocks") or {}), CLOCK: value}
        elif key == "ended":
            state["ended"] = bool(value)
        else:
            extra[key] = value
    if state.get("ended") and not state.get("winners"):
        names = [str(side.get("name", "")) for side in out.get("sides", []) if isinstance(side, dict)]
        state["winners"] = _winners(str(extra.get("result") or ""), names)
    state["extra"] = extra
    log = out.get("log")
    if isinstance(log, list):
        names = [str(side.get("name", "")) for side in out.get("sides", []) if isinstance(side, dict)]
        out["log"] = [_upgrade_event(e, names) if isinstance(e, dict) else e for e in log]
    return out
