"""From a resolved action to logged changes, in one way for every system.

An action edits a :class:`Working` copy of the game (plain, typed pydantic objects: a unit's
state, a side's resources, the game-wide state and its ``extra``, the options) and the layer
works out what changed with :func:`diff`.  The changes come at the granularity the log has
always used, so undo restores exactly what was there:

* a field of a unit's state (``["sides", s, "units", u, "state", "damage"]``), its value whole;
* a side's resource (``["sides", s, "resources", key]``);
* a field of the game-wide state (``["state", "ended"]``), or a key of its ``clocks`` or ``extra``;
* an option (``["options", key]``);
* the round, and any other top-level field, whole.

A keyed dict (resources, clocks, the state's extra, the options) changes key by key while its keys
stay the same; when a key comes or goes, the dict is set whole, so undoing it removes the key
instead of leaving a null behind.  A side whose units come or go (a structure placed, a vehicle
added) has its unit list set whole.  Changes come in a fixed order: the game's own fields in their
model order, then side by side and unit by unit, keys in the order the new value holds them.

>>> from core.game import Game, GameUnit, Side, record, undo
>>> from core.systems.base import UnitState
>>> unit = GameUnit(key="u1", name="Alpha", profile={}, state=UnitState(max_damage=4))
>>> game = Game(id="g", system="gunframe", sides=[Side(name="Red", units=[unit], resources={"fp": 2})])
>>> w = Working(game)
>>> w.state(0, 0).damage = 3
>>> w.resources(0)["fp"] -= 1
>>> w.game.state.ended = True
>>> for c in w.changes():
...     print(c.path, c.value)
['sides', 0, 'units', 0, 'state', 'damage'] 3
['sides', 0, 'resources', 'fp'] 1
['state', 'ended'] True
>>> after = record(game, "action", "Alpha is hit", w.changes())
>>> after.sides[0].units[0].state.damage, undo(after).sides[0].units[0].state.damage
(3, 0)

Nothing is emitted for a value set to what it already was:

>>> w = Working(game)
>>> w.state(0, 0).damage = 0
>>> w.options["house_rule"] = True
>>> [(c.path, c.value) for c in w.changes()]
[(['options'], {'house_rule': True})]
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any, TypeVar

from pydantic import BaseModel

from core.systems.base import Change, UnitState

if TYPE_CHECKING:
    from core.game import Game, GameState, GameUnit

Path = list[str | int]
M = TypeVar("M", bound=BaseModel)

#: Top-level fields of a game the diff never looks at: the log is the game layer's own.
_NOT_DIFFED = frozenset({"log", "cursor"})
#: Dicts compared key by key (while their keys stay the same).
_KEYED_STATE = frozenset({"clocks", "extra"})


def _keyed(path: Path, old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """A dict's changes: one per changed key, or the dict whole when its keys differ.

    >>> [(c.path, c.value) for c in _keyed(["o"], {"a": 1, "b": 2}, {"a": 1, "b": 3})]
    [(['o', 'b'], 3)]
    >>> [(c.path, c.value) for c in _keyed(["o"], {"a": 1}, {"a": 1, "b": 3})]
    [(['o'], {'a': 1, 'b': 3})]
    """
    if old.keys() != new.keys():
        return [Change(path=path, value=new)]
    return [Change(path=[*path, k], value=v) for k, v in new.items() if old[k] != v]


def dict_changes(path: Path, old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """A keyed dict's changes at ``path`` as the log keeps them (see :func:`_keyed`): for records other
    than games (a campaign's state) that are diffed the same way."""
    return _keyed(path, old, new)


def _fields(
    path: Path, old: dict[str, Any], new: dict[str, Any], keyed: frozenset[str] = frozenset()
) -> list[Change]:
    """Changes of a model's fields (as JSON): each field whole, or key by key for ``keyed`` ones."""
    out: list[Change] = []
    for name, value in new.items():
        before: Any = old.get(name)
        if before == value and name in old:
            continue
        if name in keyed and isinstance(before, dict) and isinstance(value, dict):
            out += _keyed([*path, name], before, value)
        else:
            out.append(Change(path=[*path, name], value=value))
    return out


def _side(path: Path, old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    out: list[Change] = []
    for name, value in new.items():
        before: Any = old.get(name)
        if name == "units":
            if [u["key"] for u in before] != [u["key"] for u in value]:
                out.append(Change(path=[*path, "units"], value=value))
                continue
            for u, (was, now) in enumerate(zip(before, value, strict=True)):
                unit_path: Path = [*path, "units", u]
                for field, v in now.items():
                    if field == "state":
                        out += _fields([*unit_path, "state"], was["state"], v)
                    elif was.get(field) != v:
                        out.append(Change(path=[*unit_path, field], value=v))
        elif name == "resources":
            out += _keyed([*path, "resources"], before, value)
        elif before != value:
            out.append(Change(path=[*path, name], value=value))
    return out


def diff_json(old: dict[str, Any], new: dict[str, Any]) -> list[Change]:
    """The changes that turn game ``old`` into game ``new``, both as JSON (see the module text)."""
    out: list[Change] = []
    for name, value in new.items():
        if name in _NOT_DIFFED:
            continue
        before: Any = old.get(name)
        if name == "sides":
            if len(before) != len(value):
                out.append(Change(path=["sides"], value=value))
                continue
            for s, (was, now) in enumerate(zip(before, value, strict=True)):
                out += _side(["sides", s], was, now)
        elif name == "options":
            out += _keyed(["options"], before, value)
        elif name == "state":
            out += _fields(["state"], before, value, _KEYED_STATE)
        elif before != value:
            out.append(Change(path=[name], value=value))
    return out


def _dump(game: Game) -> dict[str, Any]:
    return game.model_dump(mode="json", exclude=set(_NOT_DIFFED))


def diff(game: Game, working: Game) -> list[Change]:
    """The changes that turn ``game`` into ``working`` (values as JSON, nothing for equal values)."""
    return diff_json(_dump(game), _dump(working))


def deep_copy(value: Any, shared: str = "") -> Any:
    """A deep copy of a game's data, or of JSON data in a change: pydantic models (field by field,
    as their own ``__deepcopy__`` copies them; the field named ``shared`` of the outermost one not
    copied), dicts, lists, and values never changed in place, shared. Three to four times faster than
    ``model_copy(deep=True)``, whose ``copy.deepcopy`` keeps a memo of every object; anything else
    is still copied by ``copy.deepcopy``."""
    kind: Any = type(value)
    if kind is dict:
        return {k: deep_copy(v) for k, v in value.items()}
    if kind is list:
        return [deep_copy(v) for v in value]
    if kind in (str, int, float, bool) or value is None:
        return value
    if isinstance(value, BaseModel):
        out = kind.__new__(kind)
        fields = {k: v if k == shared else deep_copy(v) for k, v in value.__dict__.items()}
        object.__setattr__(out, "__dict__", fields)
        object.__setattr__(out, "__pydantic_extra__", deep_copy(value.__pydantic_extra__))
        object.__setattr__(out, "__pydantic_fields_set__", set(value.__pydantic_fields_set__))
        private = getattr(value, "__pydantic_private__", None)
        object.__setattr__(out, "__pydantic_private__", None if private is None else copy.deepcopy(private))
        return out
    return copy.deepcopy(value)


def working_copy(game: Game) -> Game:
    """A deep copy of ``game`` to edit freely; its log is shared, not copied (the diff ignores it).

    >>> from core.game import Game, Side
    >>> game = Game(id="g", system="s", sides=[Side(name="Red", units=[], resources={"fp": 2})])
    >>> copied = working_copy(game)
    >>> copied.sides[0].resources["fp"] = 1
    >>> copied == game, game.sides[0].resources["fp"], copied.log is game.log
    (False, 2, True)
    """
    out: Game = deep_copy(game, shared="log")
    return out


class Working:
    """A game being changed by an action: edit :attr:`game` (or use the helpers), then :meth:`changes`.

    ``before`` is the game as it was; reads of :attr:`game` see every edit made so far.
    """

    def __init__(self, game: Game) -> None:
        self.before = game
        self.game = working_copy(game)

    def unit(self, s: int, u: int) -> GameUnit:
        return self.game.sides[s].units[u]

    def state(self, s: int, u: int) -> UnitState:
        return self.game.sides[s].units[u].state

    def resources(self, s: int) -> dict[str, int]:
        return self.game.sides[s].resources

    @property
    def gstate(self) -> GameState:
        """The game-wide state (mission, clocks, whose turn, the end), edited in place."""
        return self.game.state

    @property
    def options(self) -> dict[str, Any]:
        return self.game.options

    def set(self, path: Path, value: Any) -> None:
        """Set the value at ``path`` (as a :class:`Change` names it) in the working copy.

        >>> from core.game import Game, Side
        >>> w = Working(Game(id="g", system="s", sides=[Side(name="Red", units=[])]))
        >>> w.set(["state", "clocks", "turn"], 2)
        >>> [(c.path, c.value) for c in w.changes()]
        [(['state', 'clocks'], {'turn': 2})]
        """
        if not path:
            raise ValueError("a change needs a path")
        target: Any = self.game
        for step in path[:-1]:
            target = getattr(target, str(step)) if isinstance(target, BaseModel) else target[step]
        last = path[-1]
        if isinstance(target, BaseModel):
            setattr(target, str(last), value)
        else:
            target[last] = value

    def extra_as(self, model: type[M]) -> M:
        """The game state's ``extra`` read as ``model``; write it back with :meth:`put_extra`."""
        return model.model_validate(self.game.state.extra)

    def put_extra(self, value: BaseModel) -> None:
        self.game.state.extra = value.model_dump(mode="json")

    def changes(self) -> list[Change]:
        return diff(self.before, self.game)
