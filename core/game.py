"""A game in progress: sides, their units' tracked state, and a log that can be undone.

Every change to a game is an :class:`Event` in its log: an action's result, a
manual adjustment, a new round.  An event keeps the new value and the old value
of every path it changed, so any number of steps can be undone and redone:

>>> from core.systems.base import Change, UnitState
>>> unit = GameUnit(key="u1", name="Alpha", profile={}, state=UnitState(max_damage=4))
>>> g = Game(id="g", system="gunframe", sides=[Side(name="Red", units=[unit])])
>>> hit = Change(path=["sides", 0, "units", 0, "state", "damage"], value=2)
>>> g = record(g, "adjust", "Alpha takes 2", [hit])
>>> g.sides[0].units[0].state.damage, len(g.log)
(2, 1)
>>> g = undo(g)
>>> g.sides[0].units[0].state.damage, g.cursor
(0, 0)
>>> redo(g).sides[0].units[0].state.damage
2
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Literal, Protocol, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from core.changes import deep_copy
from core.dice import DiceSource
from core.squad import PROFILES_CHECKED, Name, Profile, Squad
from core.systems import implementation
from core.systems.base import (
    ActionOdds,
    ActionSpec,
    Change,
    FieldPick,
    Gates,
    RuleSystem,
    UnitState,
    Viewer,
    role_fields,
    unit_state_problem,
)

#: Version of the saved game format; core.storage migrates older saves forward (see :func:`upgrade`).
GAME_SCHEMA = 3
MAX_LOG = 5000
#: What a game saved or shared by a newer app is told (it is never read as if this app could play it).
NEWER_GAME = "This game was made by a newer version of the app: update the app to open it."
#: The most units a side may field (a squad's 60, with room for what a game places: structures).
MAX_SIDE_UNITS = 200
#: Most sides a game may have.
MAX_SIDES = 8
#: The most values one event may change (a new round touches every unit a few times).
MAX_CHANGES = 5000


class GameUnit(BaseModel):
    """One unit on the table: its definition (as the squad had it) and its state."""

    model_config = ConfigDict(extra="forbid")

    key: str = Field(max_length=40)
    name: Name = Field(max_length=200)
    profile: Profile
    state: UnitState


P = TypeVar("P", bound=BaseModel)
#: Profiles read during one pure request: by (model, id of the profile), the profile held with its model.
_READS: ContextVar[dict[tuple[type[BaseModel], int], tuple[dict[str, Any], BaseModel]] | None] = ContextVar(
    "profile_reads", default=None
)


@contextmanager
def profiles_read_once() -> Iterator[None]:
    """Within it, :func:`profile_as` reads each unit's profile as a model once (core.api: a pure
    request, whose game nothing changes; its odds, gates and views read each unit's profile many times)."""
    token = _READS.set({})
    try:
        yield
    finally:
        _READS.reset(token)


def profile_as(model: type[P], unit: GameUnit) -> P:
    """``model.model_validate(unit.profile)``; within :func:`profiles_read_once` the model read the first
    time for the same profile (the very dict, held with it: its id stays its own), which the caller must
    not change (``model_copy(update=...)`` makes a changed one)."""
    reads = _READS.get()
    if reads is None:
        return model.model_validate(unit.profile)
    key = (model, id(unit.profile))
    held = reads.get(key)
    if held is None or held[0] is not unit.profile:
        held = reads[key] = (unit.profile, model.model_validate(unit.profile))
    return held[1]  # type: ignore[return-value]


class Side(BaseModel):
    """One player's side: its units and side-level resources."""

    model_config = ConfigDict(extra="forbid")

    name: Name = Field(max_length=80)
    squad_name: Name = Field(default="", max_length=80)
    units: list[GameUnit] = Field(max_length=MAX_SIDE_UNITS)
    resources: dict[str, int] = Field(default_factory=dict, max_length=64)


class Event(BaseModel):
    """One step of the log: what changed, from what, and how it reads."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["action", "adjust", "round", "start"]
    text: str = Field(max_length=10_000)
    changes: list[Change] = Field(max_length=MAX_CHANGES)
    before: list[Any] = Field(max_length=MAX_CHANGES)
    detail: dict[str, Any] = Field(default_factory=dict)
    absent: list[int] = Field(
        default_factory=list,
        max_length=MAX_CHANGES,
        exclude_if=lambda v: not v,  # saves and links made before it stay exactly as they were
        description="Changes (by index) that added a key: undo removes it instead of writing null.",
    )

    @model_validator(mode="after")
    def _paired(self) -> Event:
        """Each change keeps the value it replaced: undo needs one old value per change."""
        if len(self.before) != len(self.changes):
            raise ValueError(f"an event holds {len(self.changes)} changes but {len(self.before)} old values")
        if any(not 0 <= i < len(self.changes) for i in self.absent) or len(set(self.absent)) != len(
            self.absent
        ):
            raise ValueError("an event names a change it does not hold as adding a key")
        return self


class GameState(BaseModel):
    """The game as a whole, in one shape for every system (its turn is ``Game.round``).

    Kept apart from ``Game.options``, which hold only the players' readings of unclear rules:
    what the table is playing (mission, environment), its clocks, whose turn it is, and how the
    game ended.  A system's own game-wide values live in ``extra``, typed by its ``state_model``.
    """

    model_config = ConfigDict(extra="forbid")

    mission: str = Field(default="", max_length=80, description="The mission or scenario played, by id.")
    environment: str = Field(default="", max_length=80, description="The battlefield's environment, by id.")
    clocks: dict[str, int] = Field(
        default_factory=dict, max_length=64, description="Counters of the whole game, by key."
    )
    active_side: int | None = Field(
        default=None, ge=0, description="Whose turn it is, where turns alternate."
    )
    ended: bool = Field(default=False, description="The game is over.")
    winners: list[int] = Field(
        default_factory=list, max_length=8, description="Sides that won; a game ended with none is a draw."
    )
    extra: dict[str, Any] = Field(default_factory=dict, description="The system's own game-wide values.")


class Game(BaseModel):
    """A whole game: what is saved, shared and passed to every engine call."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = GAME_SCHEMA
    id: str
    system: str
    name: Name = Field(default="Game", max_length=80)
    round: int = Field(default=1, ge=0, le=100_000)
    sides: list[Side] = Field(min_length=1, max_length=MAX_SIDES)
    log: list[Event] = Field(default_factory=list, max_length=MAX_LOG)
    cursor: int = Field(default=0, description="Events applied; later ones can be redone.")
    options: dict[str, Any] = Field(
        default_factory=dict, max_length=64, description="Readings of unclear rules, by key."
    )
    state: GameState = Field(default_factory=GameState)

    @model_validator(mode="after")
    def _consistent(self) -> Game:
        """The invariants undo, redo and every rule rely on: a cursor within the log, unique keys."""
        if self.schema_version > GAME_SCHEMA:
            raise ValueError(NEWER_GAME)
        if not 0 <= self.cursor <= len(self.log):
            raise ValueError(f"the log has {len(self.log)} steps, so its cursor cannot be {self.cursor}")
        if self.cursor == 0 and self.log and self.log[0].kind == "start":
            # A game's start is never undone (step_back): its sides are those after some step, so a
            # redo from here would apply a step again to a game that already has it.
            raise ValueError("a game's first step, its start, is always applied")
        sides = len(self.sides)
        if self.state.active_side is not None and self.state.active_side >= sides:
            raise ValueError(f"the game has {sides} sides, so side {self.state.active_side + 1} cannot play")
        if any(not 0 <= w < sides for w in self.state.winners):
            raise ValueError(f"the game has {sides} sides: a winner is not one of them")
        for n, side in enumerate(self.sides):
            keys = [u.key for u in side.units]
            if len(set(keys)) != len(keys):
                raise ValueError(f"side {n + 1} has two units with the same key")
        problem = unit_state_problem(self)  # each unit's own values fit its system's model
        if problem:
            raise ValueError(problem)
        return self

    def unit(self, ref: str) -> tuple[int, int, GameUnit]:
        """Find a unit by ``"side/key"`` (e.g. ``"0/u2"``); raises ValueError if absent."""
        side_text, _, key = ref.partition("/")
        if not side_text.isdigit() or int(side_text) >= len(self.sides):
            raise ValueError(f"no side for unit {ref!r}")
        s = int(side_text)
        for u, unit in enumerate(self.sides[s].units):
            if unit.key == key:
                return s, u, unit
        raise ValueError(f"no unit {ref!r}")


class LoggedRecord(Protocol):
    """A saved record with an event log and a cursor: a :class:`Game`, or a campaign (core.campaign).

    :func:`record`, :func:`undo` and :func:`redo` work on any pydantic model of this shape, so every
    long-lived record is changed, undone and redone the same way.
    """

    log: list[Event]
    cursor: int

    def model_dump(self, *, mode: str, exclude: set[str]) -> dict[str, Any]: ...

    def model_copy(self, *, update: dict[str, Any]) -> Self: ...

    @classmethod
    def model_validate(cls, obj: Any, *, context: Any | None = None) -> Self: ...


R = TypeVar("R", bound=LoggedRecord)


def _get(data: Any, path: list[str | int]) -> Any:
    for step in path:
        data = data[step]
    return data


#: The old value of a key that was not there: undo removes the key (never a value, never saved).
ABSENT: Any = object()


def _set(data: Any, path: list[str | int], value: Any) -> None:
    """Set ``value`` at ``path``; :data:`ABSENT` removes a dict's key (what undo of an added key does)."""
    if not path:
        raise ValueError("a change needs a path")
    parent = _get(data, path[:-1])
    last = path[-1]
    if isinstance(parent, list):
        if not isinstance(last, int) or not 0 <= last < len(parent):
            raise ValueError(f"no item {last!r} at {path}")
    elif isinstance(parent, dict):
        if not isinstance(last, str):
            raise ValueError(f"no key {last!r} at {path}")
    else:
        raise ValueError(f"cannot set {path}")
    if value is ABSENT:
        if not isinstance(parent, dict):
            raise ValueError(f"cannot remove {path}")
        parent.pop(last, None)
    else:
        parent[last] = value


def _old(data: Any, path: list[str | int]) -> Any:
    """The value at ``path`` before a change, or :data:`ABSENT` where a dict has no such key."""
    try:
        return deep_copy(_get(data, path))
    except KeyError:
        return ABSENT
    except (IndexError, TypeError):
        return None  # no such item or no container: setting it fails just after


def _apply(game: R, changes: list[Change]) -> tuple[R, list[Any]]:
    """``game`` with ``changes`` made (and re-validated), and the values they replaced.

    A change whose key was absent has :data:`ABSENT` as its old value (:func:`_event` records it).
    A change whose value is :data:`ABSENT` removes its key (only undo makes those).

    The log is set aside while the rest is changed and checked (a change never reaches into it, and
    it was valid already), so a step costs the same at the end of a long game as at its start.
    """
    data = game.model_dump(mode="json", exclude={"log"})
    data["cursor"] = 0
    before = []
    for change in changes:
        before.append(_old(data, change.path))
        try:
            _set(data, change.path, change.value if change.value is ABSENT else deep_copy(change.value))
        except (KeyError, IndexError, TypeError) as bad:
            raise ValueError(f"no value at {change.path}") from bad
    if "log" in data or data.get("cursor") != 0:
        raise ValueError("a change cannot reach into the log")
    # Profiles no change reached were checked when the record was read: not again (a step's cost).
    checked = None if _reaches_profiles(changes) else {PROFILES_CHECKED: True}
    changed = type(game).model_validate(data, context=checked)
    return changed.model_copy(update={"log": game.log, "cursor": game.cursor}), before


def _reaches_profiles(changes: list[Change]) -> bool:
    """Whether a change may alter a unit's profile: its path goes through one, or its value holds
    one (a unit or a list of units; a profile is always the value of a ``profile`` key)."""
    for change in changes:
        if "profile" in change.path:
            return True
        todo = [change.value]
        while todo:
            value = todo.pop()
            if isinstance(value, dict):
                if "profile" in value:
                    return True
                todo.extend(value.values())
            elif isinstance(value, list):
                todo.extend(value)
    return False


def record(
    game: R,
    kind: Literal["action", "adjust", "round", "start"],
    text: str,
    changes: list[Change],
    detail: dict[str, Any] | None = None,
) -> R:
    """Apply ``changes`` as one new event; anything that had been undone is dropped."""
    changed, before = _apply(game, changes)
    return _logged(game, changed, _event(kind, text, changes, before, detail or {}))


def _event(
    kind: Literal["action", "adjust", "round", "start"],
    text: str,
    changes: list[Change],
    before: list[Any],
    detail: dict[str, Any] | None = None,
) -> Event:
    """An event of ``changes`` and the values they replaced, a key that was absent recorded as absent."""
    absent = [i for i, v in enumerate(before) if v is ABSENT]
    olds = [None if v is ABSENT else v for v in before]
    return Event(kind=kind, text=text, changes=changes, before=olds, detail=detail or {}, absent=absent)


def _logged(game: R, changed: R, event: Event) -> R:
    """``changed`` with ``event`` as the last step of ``game``'s log (the undone steps dropped)."""
    log = [*game.log[: game.cursor], event]
    return changed.model_copy(update={"log": log, "cursor": len(log)})


def _legacy_absent(event: Event) -> set[int]:
    """Changes of an event logged before absence was recorded that must have added their key.

    Such events hold null as the old value of a key they added.  A reading, a side's resource and a
    game clock are never null, so a null old value there means the key was absent: undo removes it.
    """
    if event.absent:
        return set()
    out = set()
    for i, (change, old) in enumerate(zip(event.changes, event.before, strict=True)):
        path = change.path
        if old is not None or not path or not isinstance(path[-1], str):
            continue
        if (
            (len(path) == 2 and path[0] == "options")
            or (len(path) == 4 and path[0] == "sides" and path[2] == "resources")
            or path[:2] == ["state", "clocks"]
        ):
            out.add(i)
    return out


def undo(game: R) -> R:
    """Take back the last applied event (it stays in the log, ready to redo)."""
    if game.cursor == 0:
        raise ValueError("nothing to undo: the game is back at its start")
    event = game.log[game.cursor - 1]
    gone = set(event.absent) | _legacy_absent(event)
    back = [
        Change.model_construct(path=c.path, value=ABSENT if i in gone else v)
        for i, (c, v) in enumerate(zip(event.changes, event.before, strict=True))
    ]
    restored, _ = _apply(game, list(reversed(back)))
    return restored.model_copy(update={"log": game.log, "cursor": game.cursor - 1})


def redo(game: R) -> R:
    """Apply again the next undone event."""
    if game.cursor >= len(game.log):
        raise ValueError("nothing to redo: this is the newest step")
    event = game.log[game.cursor]
    changed, found = _apply(game, event.changes)
    if not _same_olds(event, found):
        # The game is not where its log says (an edited link): redoing would apply a step twice.
        raise ValueError("this step cannot be redone: the game does not hold what it changed from")
    return changed.model_copy(update={"log": game.log, "cursor": game.cursor + 1})


def _same_olds(event: Event, found: list[Any]) -> bool:
    """Whether ``found`` (the values a redo replaces) are the values the event replaced when it was
    first applied; a key absent then is absent now (in events logged before absence was recorded,
    a null old value may also stand for an absent key)."""
    gone = set(event.absent)
    for i, (old, now) in enumerate(zip(event.before, found, strict=True)):
        if now is ABSENT:
            if i not in gone and not (old is None and not event.absent):
                return False
        elif i in gone or now != old:
            return False
    return True


# --- what players do with a game -----------------------------------------------------


def numbered(names: list[str]) -> list[str]:
    """A side's unit names, copies told apart by a number (players point at "Lancer 2", not a key).

    >>> numbered(["Lancer", "Captain", "Lancer", "Lancer"])
    ['Lancer 1', 'Captain', 'Lancer 2', 'Lancer 3']
    """
    counts = {n: names.count(n) for n in names}
    seen: dict[str, int] = {}
    out = []
    for n in names:
        seen[n] = seen.get(n, 0) + 1
        out.append(f"{n} {seen[n]}"[:200] if counts[n] > 1 else n)
    return out


def new_game(game_id: str, name: str, sides: list[tuple[str, Squad]]) -> Game:
    """A game from squads of one system: every unit fresh, every resource at its start."""
    systems = {squad.system for _, squad in sides}
    if len(systems) != 1:
        raise ValueError(
            "every side of a game must use the same rule system: pick squads of one system for every side"
        )
    system = implementation(systems.pop())
    profiles = [
        (side_name, [system.profile_model.model_validate(e.profile) for e in squad.units])
        for side_name, squad in sides
    ]
    problems = system.game_violations(profiles)
    if problems:
        raise ValueError("this game cannot start: " + "; ".join(p.message for p in problems))
    out = []
    forces = [side_profiles for _, side_profiles in profiles]
    for n, ((side_name, squad), (_, side_profiles)) in enumerate(zip(sides, profiles, strict=True)):
        units = []
        names = numbered([system.unit_name(profile) for profile in side_profiles])
        for entry, profile, unit_name in zip(squad.units, side_profiles, names, strict=True):
            units.append(
                GameUnit(
                    key=entry.key,
                    name=unit_name,
                    profile=profile.model_dump(mode="json"),
                    state=system.initial_state(profile),
                )
            )
        resources = system.starting_resources(forces, n)
        out.append(Side(name=side_name, squad_name=squad.name, units=units, resources=resources))
    # Every named reading starts at its default, so changing one is an exact, undoable edit.
    options = system.options().model_dump(mode="json") if system.options else {}
    state = GameState(extra=system.state_model().model_dump(mode="json") if system.state_model else {})
    game = Game(id=game_id, system=system.info.id, name=name, sides=out, options=options, state=state)
    return record(game, "start", f"{name} begins: " + " vs ".join(s.name for s in out), [])


def _beyond_limits(data: dict[str, Any]) -> bool:
    """More sides or units than a :class:`Game` may hold: validation refuses such a document, so
    upgrading it first (a deep copy, per unit) would only spend time on a hostile link."""
    sides = data.get("sides")
    if not isinstance(sides, list):
        return False
    return len(sides) > MAX_SIDES or any(
        isinstance(side, dict) and isinstance(side.get("units"), list) and len(side["units"]) > MAX_SIDE_UNITS
        for side in sides
    )


def upgrade(data: dict[str, Any]) -> dict[str, Any]:
    """A saved game (as JSON) brought up to :data:`GAME_SCHEMA`, step by step.

    1 -> 2: the typed :class:`GameState` arrives, at its defaults, and the game's system may move
    game-wide values it kept among its options into it (:meth:`RuleSystem.upgrade_game`).
    2 -> 3: the game's system moves the rest of its game-wide values out of its options (GUNFRAME's
    mission, environment, clocks and end; :meth:`RuleSystem.upgrade_game` with schema 2).
    """
    schema = data.get("schema_version", 1)
    if not isinstance(schema, int) or schema >= GAME_SCHEMA or _beyond_limits(data):
        return data
    out = copy.deepcopy(data)
    try:
        system = implementation(str(out.get("system")))
    except ValueError:
        system = None  # a system this build does not know: its own values stay where they are
    if schema < 2:
        out.setdefault("state", GameState().model_dump(mode="json"))
        if system is not None:
            out = system.upgrade_game(out, 1)
        out["schema_version"] = schema = 2
    if schema < 3:
        if system is not None:
            out = system.upgrade_game(out, 2)
        out["schema_version"] = 3
    return out


def _action(game: Game, action: str, raw: dict[str, Any]) -> tuple[ActionSpec, BaseModel]:
    system = implementation(game.system)
    spec = system.actions.get(action)
    if spec is None:
        raise ValueError(f"{system.info.name} has no action {action!r}")
    parsed = spec.input.model_validate(raw)
    _in_range(game, parsed)
    # What a unit lacks (an ability, a weapon, a condition) is refused before any rule runs.
    system.refuse_gated(game, spec, parsed)
    return spec, parsed


def _is_side(name: str) -> bool:
    return name in ("side", "sides") or name.endswith(("_side", "_sides"))


def _in_range(game: Game, parsed: BaseModel) -> None:
    """Sides and units an input names are the game's own, for every action of every system.

    A field named ``side`` (or ``..._side``, or a list ``sides``) holding a side's number must name
    one of the game's sides (a negative number is a system's own "whoever is in turn"); a unit field
    (``own-unit`` or ``enemy-unit``) names a unit of the game or nothing.  A stale or hostile screen
    is then refused in words before any rule runs, never with an internal error.
    """
    sides = len(game.sides)
    for name, field in type(parsed).model_fields.items():
        value = getattr(parsed, name)
        if _is_side(name):
            numbers = value if isinstance(value, list) else [value]
            for n in numbers:
                if isinstance(n, int) and not isinstance(n, bool) and n >= sides:
                    raise ValueError(f"the game has {sides} sides: there is no side {n + 1}")
        extra = field.json_schema_extra if isinstance(field.json_schema_extra, dict) else {}
        if extra.get("ui") in ("own-unit", "enemy-unit"):
            refs = value if isinstance(value, list) else [value]
            for ref in refs:
                if isinstance(ref, str) and ref:
                    game.unit(ref)  # a side or unit the game lacks: ValueError, in words


def odds(game: Game, action: str, raw: dict[str, Any], viewer: Viewer = None) -> ActionOdds:
    """Exact odds of an action with these inputs, from what ``viewer`` may know."""
    spec, parsed = _action(game, action, raw)
    if spec.odds is None:
        raise ValueError(f"{spec.label} has no odds to show")
    return spec.odds(game, parsed, viewer) if spec.odds_by_viewer else spec.odds(game, parsed)


def picks(game: Game, action: str, actor: str) -> dict[str, list[FieldPick]]:
    """What the acting unit ``actor`` ('side/key') offers for the action's pick fields (its weapons...)."""
    system = implementation(game.system)
    spec = system.actions.get(action)
    if spec is None:
        raise ValueError(f"{system.info.name} has no action {action!r}")
    game.unit(actor)  # an unknown unit is refused here, in plain words
    return spec.picks(game, actor) if spec.picks is not None else {}


def gates(game: Game, action: str, raw: dict[str, Any]) -> Gates:
    """What the units named in ``raw`` (the acting unit, its target) lack for the action's gated inputs."""
    system = implementation(game.system)
    spec = system.actions.get(action)
    if spec is None:
        raise ValueError(f"{system.info.name} has no action {action!r}")
    return system.gates(game, spec, raw)


def _action_gate(
    system: RuleSystem, game: Game, spec: ActionSpec, ref: str, memo: dict[tuple[str, str], str]
) -> str:
    """Why the unit ``ref`` cannot take ``spec`` at all, "" when it can: the very
    ``system.gates(game, spec, {actor: ref}).action``, without working out the fields' gates.

    ``memo`` holds each requirement's answer by (key, unit): a requirement reads the game and the unit
    alone, so one memo serves every action of the same game.
    """
    for key in spec.needs:
        if why := system.lacking(game, key, ref, memo):
            return why
    return ""


def gated_actions(game: Game) -> dict[str, dict[str, str]]:
    """By unit reference: the actions it cannot take for lack of what they need, with the reasons."""
    system = implementation(game.system)
    out: dict[str, dict[str, str]] = {}
    memo: dict[tuple[str, str], str] = {}  # each requirement of each unit asked once, not once an action
    for spec in system.actions.values():
        actor = role_fields(spec.input)["actor"] if spec.needs else None
        if actor is None:
            continue
        for s, side in enumerate(game.sides):
            for unit in side.units:
                ref = f"{s}/{unit.key}"
                why = _action_gate(system, game, spec, ref, memo)
                if why:
                    out.setdefault(ref, {})[spec.name] = why
    return out


def act(game: Game, action: str, raw: dict[str, Any], dice: DiceSource) -> Game:
    """Resolve an action with ``dice`` and record its result as one event.

    A secret input (a hand's pick) is logged by its size only: the log is shown to everyone.
    """
    spec, parsed = _action(game, action, raw)
    result = spec.resolve(game, parsed, dice)
    logged = parsed.model_dump(mode="json")
    for name in spec.secret_fields:
        value = logged.get(name)
        logged[name] = len(value) if isinstance(value, list) else None
    detail = {**result.detail, "action": action, "input": logged}
    if result.offers:  # follow-ups the screen offers on the result (e.g. reaction fire)
        detail["offers"] = [o.model_dump(mode="json") for o in result.offers]
    return record(game, "action", result.text, result.changes, detail)


def shareable(game: Game) -> Game:
    """The game as a share link carries it (the system leaves out what is hidden)."""
    return implementation(game.system).shareable(game)


def adjust(game: Game, changes: list[Change], text: str = "") -> Game:
    """A manual change (players settle disputes; the app never stands in their way)."""
    for change in changes:
        if not change.path or change.path[0] not in {"sides", "round", "options", "state"}:
            raise ValueError("only sides, round, options and state can be adjusted")
    label = text or "Manual change: " + ", ".join(
        f"{'.'.join(str(p) for p in c.path)} = {c.value}" for c in changes
    )
    changed, before = _apply(game, changes)
    # Derived values follow in the same event (e.g. GUNFRAME's crippled condition after damage).
    settled = implementation(game.system).settle(changed)
    if settled:
        changed, more = _apply(changed, settled)
        changes, before = [*changes, *settled], [*before, *more]
    return _logged(game, changed, _event("adjust", label, changes, before))


def step_back(game: Game) -> Game:
    """Undo, never past the start of the game."""
    if game.cursor <= 1 and game.log and game.log[0].kind == "start":
        raise ValueError("nothing to undo: the game is back at its start")
    return undo(game)


def step_forward(game: Game) -> Game:
    return redo(game)


def next_round(game: Game) -> Game:
    """The next round, with the system's start-of-round changes, as one event.

    Refused (ValueError, in words) while the system says the round is not over (units yet to act).
    """
    system = implementation(game.system)
    why = system.round_refusal(game)
    if why:
        raise ValueError(why)
    changes = [Change(path=["round"], value=game.round + 1), *system.start_round(game)]
    return record(game, "round", f"Round {game.round + 1} begins", changes)
