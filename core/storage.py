"""Saved data: versioned squads, own units, games and campaigns, migrated forward.

The browser keeps each squad, own unit and game as its own record in IndexedDB
(web/store.js) and hands them to :func:`check` at every start; the store of the
first release (one JSON text in localStorage) goes once through :func:`load`.
Neither ever loses anything:

* a store from an older version is migrated step by step (:data:`MIGRATIONS`);
* a store from a newer version is left untouched and reported read-only, so
  an old copy of the app cannot overwrite what a newer one saved;
* an item that cannot be read (a hand-edited save, a bug) is set aside with
  the reason, kept verbatim in ``set_aside`` for the player to export.

>>> loaded = load({"schema_version": STORE_SCHEMA, "squads": [{"broken": True}]})
>>> loaded.store.squads, loaded.set_aside[0].kind
([], 'squads')
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from core.campaign import Campaign
from core.game import GAME_SCHEMA, Game, upgrade
from core.squad import Squad
from core.systems import unplayable

STORE_SCHEMA = 3


class OwnUnit(BaseModel):
    """A unit the player defined, in its system's format, kept in their library."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1, max_length=40)
    system: str
    profile: dict[str, Any]


class Store(BaseModel):
    """Everything the app saves."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int = STORE_SCHEMA
    squads: list[Squad] = Field(default_factory=list)
    units: list[OwnUnit] = Field(default_factory=list)
    games: list[Game] = Field(default_factory=list)
    campaigns: list[Campaign] = Field(default_factory=list)


class SetAside(BaseModel):
    """Something saved that could not be read, kept as it was."""

    kind: str
    reason: str
    raw: Any
    id: str | None = None


class Loaded(BaseModel):
    store: Store
    set_aside: list[SetAside] = Field(default_factory=list)
    notes: list[str] = Field(default_factory=list)
    readonly: bool = False


def _games_upgraded(data: dict[str, Any]) -> dict[str, Any]:
    """Store 1 -> 2: every game gains its typed game-wide state; 2 -> 3: a system's game-wide values
    leave its options for that state (core.game.upgrade, which takes a game to the newest schema)."""
    games = data.get("games")
    if not isinstance(games, list):
        return data
    return {**data, "games": [upgrade(g) if isinstance(g, dict) else g for g in games]}


#: ``MIGRATIONS[n]`` turns a store of schema ``n`` into one of schema ``n + 1``.
#: Each change of format adds an entry here and a test (tests/test_golden.py loads old saves).
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _games_upgraded, 2: _games_upgraded}

_ITEMS: tuple[tuple[Literal["squads", "units", "games", "campaigns"], type[BaseModel]], ...] = (
    ("squads", Squad),
    ("units", OwnUnit),
    ("games", Game),
    ("campaigns", Campaign),
)


def _reason(error: ValidationError) -> str:
    first = error.errors(include_url=False)[0]
    where = ".".join(str(p) for p in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])


def load(data: Any) -> Loaded:
    """Read a saved store of any version; see the module docstring for the guarantees."""
    if data is None:
        return Loaded(store=Store())
    if not isinstance(data, dict):
        return Loaded(
            store=Store(),
            set_aside=[SetAside(kind="store", reason="not a saved store", raw=data)],
            notes=["Saved data could not be read; it was set aside."],
        )
    schema = data.get("schema_version", 0)
    if not isinstance(schema, int) or schema < 0:
        return Loaded(
            store=Store(),
            set_aside=[SetAside(kind="store", reason="unknown format", raw=data)],
            notes=["Saved data has an unknown format; it was set aside."],
        )
    if schema > STORE_SCHEMA:
        return Loaded(
            store=Store(),
            readonly=True,
            notes=[
                "This data was saved by a newer version of the app. Update the app: "
                "nothing will be changed until then."
            ],
        )
    notes = []
    while schema < STORE_SCHEMA:
        step = MIGRATIONS.get(schema)
        if step is None:
            return Loaded(
                store=Store(),
                set_aside=[SetAside(kind="store", reason=f"no way from schema {schema}", raw=data)],
                notes=[f"Saved data of format {schema} cannot be brought up to date; it was set aside."],
            )
        data = step(data)
        schema += 1
        data["schema_version"] = schema
        notes.append(f"Saved data was updated to format {schema}.")
    store = Store()
    set_aside: list[SetAside] = []
    for kind, model in _ITEMS:
        items = data.get(kind, [])
        if not isinstance(items, list):
            set_aside.append(SetAside(kind=kind, reason="not a list", raw=items))
            continue
        kept = []
        for item in items:
            try:
                kept.append(model.model_validate(item))
            except ValidationError as bad:
                set_aside.append(SetAside(kind=kind, reason=_reason(bad), raw=item))
        setattr(store, kind, kept)
    if set_aside:
        notes.append(
            f"{len(set_aside)} saved item(s) could not be read and were set aside (nothing was deleted)."
        )
    return Loaded(store=store, set_aside=set_aside, notes=notes)


# --- one record at a time (IndexedDB) --------------------------------------------------------

Kind = Literal["squads", "units", "games", "campaigns"]


class Record(BaseModel):
    """One saved squad, own unit or game, with the format it was written in."""

    model_config = ConfigDict(extra="forbid")

    kind: Kind
    id: str
    format: int = Field(description="STORE_SCHEMA of the app that wrote it.")
    data: Any


class Checked(BaseModel):
    """Records read back: the good ones (brought up to date), the unreadable, the newer."""

    kept: list[Record] = Field(default_factory=list)
    set_aside: list[SetAside] = Field(default_factory=list)
    newer: list[str] = Field(default_factory=list, description="'kind/id' of records of a newer format.")


def _newer_game(rec: Record) -> bool:
    """A game a newer app wrote in a newer game format (in a record of a format this one reads)."""
    schema = rec.data.get("schema_version") if rec.kind == "games" and isinstance(rec.data, dict) else None
    return isinstance(schema, int) and not isinstance(schema, bool) and schema > GAME_SCHEMA


def _unplayable_game(rec: Record) -> str | None:
    """Why a saved game cannot be played by this build (its rule system), or None."""
    if rec.kind != "games" or not isinstance(rec.data, dict):
        return None
    why = unplayable(rec.data.get("system"))
    return None if why is None else f"this game cannot be played here. {why}"


def check(records: list[Record]) -> Checked:
    """Validate and migrate each record on its own, as :func:`load` does for a whole store.

    A record of a newer format is neither changed nor set aside: it stays where it is and
    is listed in ``newer`` (the app shows it read-only).  An unreadable one is set aside
    with its reason and id; the others come back in the current format.

    >>> bad = Record(kind="squads", id="s1", format=STORE_SCHEMA, data={"id": "s1"})
    >>> future = Record(kind="games", id="g9", format=STORE_SCHEMA + 1, data={})
    >>> out = check([bad, future])
    >>> out.kept, out.set_aside[0].id, out.newer
    ([], 's1', ['games/g9'])
    """
    out = Checked()
    for rec in records:
        if rec.format > STORE_SCHEMA or _newer_game(rec):
            out.newer.append(f"{rec.kind}/{rec.id}")
            continue
        why = _unplayable_game(rec)
        if why is not None:  # kept as it was, on the recover screen, never drawn as a game to play
            out.set_aside.append(SetAside(kind=rec.kind, reason=why, raw=rec.data, id=rec.id))
            continue
        loaded = load({"schema_version": rec.format, rec.kind: [rec.data]})
        items = getattr(loaded.store, rec.kind)
        if items and items[0].id == rec.id:
            data = items[0].model_dump(mode="json")
            out.kept.append(Record(kind=rec.kind, id=rec.id, format=STORE_SCHEMA, data=data))
            continue
        reason = loaded.set_aside[0].reason if loaded.set_aside else "its id does not match its record"
        out.set_aside.append(SetAside(kind=rec.kind, reason=reason, raw=rec.data, id=rec.id))
    return out
