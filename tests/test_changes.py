"""The shared layer from an action to logged changes (core/changes.py): edit a working copy, diff it.

Whatever an action does to its working copy, the diff applied to the game gives the working copy
(log aside), undo gives back the game exactly, and a value set to what it was emits nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from test_properties import INFO, SYSTEM_IDS, start, steps

from core.changes import Working, diff, working_copy
from core.game import Game, GameUnit, Side, record, redo, undo
from core.systems.base import UnitState


def game() -> Game:
    units = [
        GameUnit(key=k, name=k.upper(), profile={"n": n}, state=UnitState(max_damage=5, counters={"heat": 1}))
        for n, k in enumerate(["a", "b"])
    ]
    blue = GameUnit(key="t", name="T", profile={}, state=UnitState(max_damage=3))
    return Game(
        id="g",
        system="test",  # no system this build plays: its units' own values are free-form
        sides=[
            Side(name="Red", units=units, resources={"fp": 2, "vp": 0}),
            Side(name="Blue", units=[blue], resources={"fp": 1, "vp": 0}),
        ],
        options={"strict": False},
    )


def paths(w: Working) -> list[tuple[list[str | int], Any]]:
    return [(c.path, c.value) for c in w.changes()]


def test_each_kind_of_value_changes_at_the_granularity_of_the_log() -> None:
    g = game()
    w = Working(g)
    w.state(1, 0).conditions.append("knocked_down")
    w.state(0, 1).damage = 4
    w.resources(1)["vp"] = 3
    w.gstate.mission = "carnage"
    w.gstate.clocks["doomsday"] = 2  # a new key: the clocks whole, so undo takes the key away
    w.gstate.extra["storm_calm"] = True
    w.options["strict"] = True
    w.game.round = 2
    assert paths(w) == [
        (["round"], 2),
        (["sides", 0, "units", 1, "state", "damage"], 4),
        (["sides", 1, "units", 0, "state", "conditions"], ["knocked_down"]),
        (["sides", 1, "resources", "vp"], 3),
        (["options", "strict"], True),
        (["state", "mission"], "carnage"),
        (["state", "clocks"], {"doomsday": 2}),
        (["state", "extra"], {"storm_calm": True}),
    ]
    assert g.sides[1].units[0].state.conditions == [] and g.state.clocks == {}  # the game is untouched


def test_a_key_of_a_keyed_dict_changes_alone_while_the_keys_stay() -> None:
    g = game().model_copy(update={"state": game().state.model_copy(update={"extra": {"a": 1, "b": [1]}})})
    w = Working(g)
    w.gstate.extra["b"] = [1, 2]
    w.state(0, 0).counters["heat"] = 2  # a unit's field comes whole
    assert paths(w) == [
        (["sides", 0, "units", 0, "state", "counters"], {"heat": 2}),
        (["state", "extra", "b"], [1, 2]),
    ]


def test_nothing_is_emitted_for_values_set_to_what_they_were() -> None:
    w = Working(game())
    w.state(0, 0).damage = 0
    w.state(0, 0).counters = {"heat": 1}
    w.resources(0)["fp"] = 2
    w.options["strict"] = False
    w.gstate.ended = False
    w.game.round = 1
    assert w.changes() == []


def test_units_that_come_or_go_set_the_side_s_list_whole_and_undo_removes_them() -> None:
    g = game()
    w = Working(g)
    w.game.sides[1].units.append(GameUnit(key="st1", name="Wall", profile={}, state=UnitState(max_damage=4)))
    [change] = w.changes()
    assert change.path == ["sides", 1, "units"] and [u["key"] for u in change.value] == ["t", "st1"]
    after = record(g, "action", "a wall goes up", w.changes())
    assert [u.key for u in after.sides[1].units] == ["t", "st1"]
    assert undo(after).sides == g.sides


def test_a_removed_key_sets_the_dict_whole() -> None:
    g = game()
    w = Working(g)
    del w.resources(0)["vp"]
    assert paths(w) == [(["sides", 0, "resources"], {"fp": 2})]
    assert undo(record(g, "adjust", "", w.changes())).sides[0].resources == {"fp": 2, "vp": 0}


def test_set_follows_a_change_path_into_models_dicts_and_lists() -> None:
    w = Working(game())
    w.set(["sides", 0, "units", 1, "state", "counters", "heat"], 3)
    w.set(["sides", 1, "resources", "fp"], 0)
    w.set(["state", "winners"], [0])
    assert paths(w) == [
        (["sides", 0, "units", 1, "state", "counters"], {"heat": 3}),
        (["sides", 1, "resources", "fp"], 0),
        (["state", "winners"], [0]),
    ]


def test_the_working_copy_shares_the_log_but_never_the_values() -> None:
    g = record(game(), "start", "go", [])
    w = Working(g)
    assert w.game.log is g.log
    w.state(0, 0).counters["heat"] = 9
    w.resources(0)["fp"] = 0
    assert g.sides[0].units[0].state.counters == {"heat": 1} and g.sides[0].resources["fp"] == 2


# --- any edit: diff, apply, undo, redo ---------------------------------------------------------------

VALUES = st.one_of(st.integers(-3, 9), st.booleans(), st.lists(st.sampled_from("xyz"), max_size=3))


@st.composite
def edits(draw: st.DrawFn) -> list[tuple[str, Any]]:
    kinds = ["damage", "destroyed", "conditions", "counter", "extra", "resource", "option", "round"]
    kinds += ["mission", "ended", "winners", "clock", "gextra", "drop_resource", "unit"]
    return draw(st.lists(st.tuples(st.sampled_from(kinds), VALUES), max_size=8))


def edit(w: Working, kind: str, value: Any) -> None:
    n = value if isinstance(value, int) and not isinstance(value, bool) else 1
    s, u = n % 2, 0
    state = w.state(s, u)
    if kind == "damage":
        state.damage = abs(n)
    elif kind == "destroyed":
        state.destroyed = bool(value)
    elif kind == "conditions":
        state.conditions = [str(v) for v in value] if isinstance(value, list) else []
    elif kind == "counter":
        state.counters[f"c{n % 3}"] = n
    elif kind == "extra":
        state.extra[f"e{n % 3}"] = value
    elif kind == "resource":
        w.resources(s)[("fp", "vp", "new")[n % 3]] = n
    elif kind == "drop_resource":
        w.resources(s).pop("vp", None)
    elif kind == "option":
        w.options[f"o{n % 3}"] = value
    elif kind == "round":
        w.game.round = abs(n) + 1
    elif kind == "mission":
        w.gstate.mission = str(value)[:20]
    elif kind == "ended":
        w.gstate.ended = bool(value)
    elif kind == "winners":
        w.gstate.winners = [s]
    elif kind == "clock":
        w.gstate.clocks[f"k{n % 2}"] = n
    elif kind == "gextra":
        w.gstate.extra[f"x{n % 2}"] = value
    elif kind == "unit":
        key = f"n{abs(n)}"
        if key not in [x.key for x in w.game.sides[s].units]:
            fresh = GameUnit(key=key, name="New", profile={}, state=UnitState(max_damage=2))
            w.game.sides[s].units.append(fresh)


def comparable(g: Game) -> dict[str, Any]:
    return g.model_dump(mode="json", exclude={"log", "cursor"})


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(edits())
def test_diff_then_apply_gives_the_working_copy_and_undo_gives_the_game_back(todo: list[Any]) -> None:
    g = record(game(), "start", "go", [])
    w = Working(g)
    for kind, value in todo:
        edit(w, kind, value)
    changes = w.changes()
    after = record(g, "action", "edits", changes)
    assert comparable(after) == comparable(w.game)
    assert comparable(undo(after)) == comparable(g)
    assert comparable(redo(undo(after))) == comparable(w.game)
    assert diff(after, w.game) == []  # nothing left to change
    assert len({tuple(c.path) for c in changes}) == len(changes)  # each value once
    again = Working(g)
    for kind, value in todo:
        edit(again, kind, value)
    assert again.changes() == changes  # the same edits, the same changes, in the same order


# --- the working copy: as deep as pydantic's own, faster -------------------------------------


def _containers(value: Any, skip: int | None = None) -> list[Any]:
    """Every dict, list and model in ``value`` (not under the object whose id is ``skip``)."""
    out: list[Any] = []

    def walk(v: Any) -> None:
        if id(v) == skip:
            return
        if isinstance(v, BaseModel):
            out.append(v)
            for field in v.__dict__.values():
                walk(field)
        elif isinstance(v, dict):
            out.append(v)
            for item in v.values():
                walk(item)
        elif isinstance(v, list):
            out.append(v)
            for item in v:
                walk(item)

    walk(value)
    return out


@pytest.mark.parametrize("system", [s for s in SYSTEM_IDS if s != INFO.id])
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_working_copy_equals_a_deep_copy_and_shares_nothing_but_the_log(
    system: str, data: st.DataObject
) -> None:
    """``working_copy`` (a copy made field by field) against ``model_copy(deep=True)``, on games
    of every playable system after a few of the steps players take (tests/test_properties.py)."""
    game = start(system, data)
    for _ in range(data.draw(st.integers(0, 4), label="steps")):
        games = steps(data, game)
        game = games[-1] if games else game
        copied = working_copy(game)
        assert copied == game.model_copy(deep=True)
        assert copied.log is game.log
        assert copied.model_fields_set == game.model_fields_set
        theirs = {id(c) for c in _containers(game, skip=id(game.log))}
        assert not theirs & {id(c) for c in _containers(copied, skip=id(copied.log))}
