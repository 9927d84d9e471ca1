"""Properties of the whole game layer, for every registered rule system, read from the registry (and the
toy system of tests/toy_system), so a system is covered the day it is registered.  No system is named here:
the armies come from each system's own catalogue, the readings are drawn from its options model, and play
follows what the system declares (its actions and their input models, its primary actions, the step of its
phase strip, the picks a unit offers).

Any sequence of actions (inputs drawn from each action's own input model, questions answered the way a
player would, dice rolled from a seed), manual adjustments (including two changes of the same path in
one step) and new rounds, undone step by step, passes back through every game it went through to the
very game it started from; redone, it comes back to the end game exactly, log and all.
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from toy_system import INFO

import core.systems
from core.dice import RandomDice
from core.game import Game, act, adjust, new_game, next_round, redo, undo
from core.game import picks as game_picks
from core.squad import Squad, SquadUnit
from core.systems import SYSTEMS, implementation
from core.systems.base import Change, NeedChoice

#: 150 examples of each property for each system: the full run's (not the fast tier's) widest net.
pytestmark = pytest.mark.exhaustive

#: Fewer examples when tests/mutation.py runs this file once per mutant.
EXAMPLES = 8 if os.environ.get("TC_MUTATION") else 150
PROPERTY = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

REF_FIELDS = {
    "unit",
    "target",
    "attacker",
    "leader",
    "combined",
    "fallen",
    "terrifying",
    "inspiring",
    "members",
    "far",
    "units",
    "halo",
    "followers",
    "held",
    "held_enemy",
}


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(core.systems, "SYSTEMS", (*core.systems.SYSTEMS, INFO))
    monkeypatch.setitem(core.systems.IMPLEMENTATIONS, "toy", "toy_system")


#: Every playable system of the registry, and the toy system.
SYSTEM_IDS = [s.id for s in SYSTEMS if s.status == "playable"] + [INFO.id]


def start(system: str, data: st.DataObject) -> Game:
    """Two sides of two units each from the system's catalogue, the system's yes/no readings drawn."""
    impl = implementation(system)
    units = impl.catalogue()
    sides = []
    for i in range(2):
        picked = [units[(2 * i + j) % len(units)] for j in range(2)]
        entries = [SquadUnit(key=f"u{j}", profile=u.profile) for j, u in enumerate(picked)]
        sides.append((f"Side {i}", Squad(id=f"s{i}", name=f"S{i}", system=system, units=entries)))
    game = new_game("g", "Property", sides)
    if impl.options is not None:
        flags = [k for k, f in impl.options.model_fields.items() if f.annotation is bool]
        drawn = {k: data.draw(st.booleans(), label=k) for k in flags}
        game = game.model_copy(update={"options": {**game.options, **drawn}})
    return game


def refs(game: Game) -> list[str]:
    return [f"{s}/{u.key}" for s, side in enumerate(game.sides) for u in side.units]


def _value(data: st.DataObject, game: Game, name: str, schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    """A value for one input field, drawn from its JSON Schema (unit fields get unit references)."""
    if "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[-1]]
    if "anyOf" in schema:
        options = [o for o in schema["anyOf"] if o.get("type") != "null"]
        if not options or data.draw(st.booleans()):
            return None
        schema = {**options[0], **{k: v for k, v in schema.items() if k != "anyOf"}}
    kind = schema.get("type")
    if "enum" in schema:
        return data.draw(st.sampled_from(schema["enum"]))
    if kind == "boolean":
        return data.draw(st.booleans())
    if kind == "integer":
        low = schema.get("minimum", 0)
        if name == "side":
            return data.draw(st.integers(0, len(game.sides) - 1))
        return data.draw(st.integers(low, min(schema.get("maximum", low + 4), low + 4)))
    if kind == "array":
        item = schema.get("items", {})
        many = st.lists(st.just(0), max_size=2)
        return [_value(data, game, name, item, defs) for _ in data.draw(many)]
    if kind == "string":
        if name in REF_FIELDS or schema.get("ui") in ("own-unit", "enemy-unit"):
            return data.draw(st.sampled_from(refs(game)))
        if name in ("card", "watch_card"):
            cards = game.sides[0].units[0].profile.get("cards", [])
            return data.draw(st.sampled_from([c["id"] for c in cards])) if cards else ""
        return ""
    return None


def draw_input(data: st.DataObject, game: Game, action: str) -> dict[str, Any]:
    """An input drawn from the action's model; a field the acting unit offers values for (its picks, a
    hand of cards) takes one of them."""
    schema = implementation(game.system).actions[action].input.model_json_schema()
    defs = schema.get("$defs", {})
    required = set(schema.get("required", []))
    raw: dict[str, Any] = {}
    actor = ""
    for name, prop in schema.get("properties", {}).items():
        if name in required or data.draw(st.integers(0, 3)) == 0:
            raw[name] = _value(data, game, name, prop, defs)
            if prop.get("ui") == "own-unit" and isinstance(raw[name], str) and not actor:
                actor = raw[name]
    if actor:
        try:
            offered = game_picks(game, action, actor)
        except ValueError:
            offered = {}
        for name, options in offered.items():
            if options and data.draw(st.booleans()):
                raw[name] = data.draw(st.sampled_from([o.value for o in options]))
        hand = _hand(game, actor)
        for name, prop in schema.get("properties", {}).items():
            if hand and prop.get("type") == "array" and name not in offered and data.draw(st.booleans()):
                raw[name] = data.draw(st.lists(st.sampled_from(hand), min_size=2, max_size=2))
    return raw


def _hand(game: Game, ref: str) -> list[str]:
    """The ids of the cards a unit holds in its hand, for a system that deals cards (none otherwise)."""
    _, _, unit = game.unit(ref)
    extra = unit.state.model_dump().get("extra") or {}
    cards = unit.profile.get("cards", [])
    return [cards[p]["id"] for p in extra.get("hand", []) if isinstance(p, int) and 0 <= p < len(cards)]


def try_action(data: st.DataObject, game: Game, action: str, raw: dict[str, Any]) -> Game | None:
    """The action as a player would run it: the app's questions answered by picking an option; None when
    the rules refuse it here (the game then stays as it was)."""
    seed = data.draw(st.integers(0, 2**16))
    for _ in range(6):
        try:
            done = act(game, action, raw, RandomDice(seed))
            event(f"{action} applied")
            return done
        except NeedChoice as asked:
            choice = data.draw(st.sampled_from(asked.options))
            raw = {**raw, asked.field: choice.value, **choice.also}
        except ValueError:
            event(f"{action} refused")
            return None
    return None


def steps(data: st.DataObject, game: Game) -> list[Game]:
    """One thing players do, as the games it goes through (one per logged step; none if refused)."""
    system = implementation(game.system)
    kind = data.draw(st.sampled_from(["action", "action", "phase", "adjust", "round"]))
    if kind == "round":
        try:
            return [next_round(game)]
        except ValueError:  # a system whose turn passes by a step of its own refuses a bare new round
            event("round refused")
            return []
    if kind == "adjust":
        return [adjust(game, draw_changes(data, game))]
    if kind == "phase":
        return phase_walk(data, game)
    primary = sorted(a.name for a in system.actions.values() if a.primary)
    if primary and data.draw(st.booleans()):
        action = data.draw(st.sampled_from(primary))
    else:
        action = data.draw(st.sampled_from(sorted(system.actions)))
    after = try_action(data, game, action, draw_input(data, game, action))
    return [after] if after is not None else []


def phase_walk(data: st.DataObject, game: Game) -> list[Game]:
    """A few steps of the system's phase strip in its order, each a step of its own: the step's action
    with its input from the strip, or, where the players carry a step out themselves, the action of the
    step's name (if there is one) for each unit, its input drawn."""
    system = implementation(game.system)
    out: list[Game] = []
    for _ in range(data.draw(st.integers(1, 4))):
        now = out[-1] if out else game
        view = system.phase(now)
        if view is None or not view.steps:
            break
        step = view.steps[view.current]
        name = step.action or (step.key if step.key in system.actions else None)
        if name is None:
            break
        runs = [dict(step.input)] if step.action else []
        if not step.action:
            for ref in refs(now):
                raw = draw_input(data, now, name)
                own = [
                    k
                    for k, v in system.actions[name].input.model_json_schema()["properties"].items()
                    if v.get("ui") == "own-unit"
                ]
                runs.append({**raw, **{k: ref for k in own[:1]}})
        for raw in runs:
            after = try_action(data, out[-1] if out else game, name, raw)
            if after is not None:
                out.append(after)
    return out


def draw_changes(data: st.DataObject, game: Game) -> list[Change]:
    """One to three manual changes of anything tracked, sometimes the same path twice."""
    system = implementation(game.system)
    conditions = [t.key for t in system.tracked if t.kind == "condition"]
    changes: list[Change] = []
    for _ in range(data.draw(st.integers(1, 3))):
        what = data.draw(
            st.sampled_from(["damage", "destroyed", "activated", "conditions", "counter", "resource"])
        )
        s = data.draw(st.integers(0, len(game.sides) - 1))
        u = data.draw(st.integers(0, len(game.sides[s].units) - 1))
        state = game.sides[s].units[u].state
        base: list[str | int] = ["sides", s, "units", u, "state"]
        if what == "damage":
            changes.append(Change(path=[*base, "damage"], value=data.draw(st.integers(0, state.max_damage))))
        elif what in ("destroyed", "activated"):
            changes.append(Change(path=[*base, what], value=data.draw(st.booleans())))
        elif what == "conditions":
            picked = (
                data.draw(st.lists(st.sampled_from(conditions), max_size=2, unique=True))
                if conditions
                else []
            )
            changes.append(Change(path=[*base, "conditions"], value=picked))
        elif what == "counter" and state.counters:
            key = data.draw(st.sampled_from(sorted(state.counters)))
            changes.append(Change(path=[*base, "counters", key], value=data.draw(st.integers(0, 3))))
        elif game.sides[s].resources:
            key = data.draw(st.sampled_from(sorted(game.sides[s].resources)))
            changes.append(Change(path=["sides", s, "resources", key], value=data.draw(st.integers(0, 9))))
        else:
            changes.append(Change(path=["round"], value=data.draw(st.integers(1, 6))))
    if data.draw(st.booleans()):
        changes.append(changes[0].model_copy())  # the same path twice in one step
    return changes


def without_log(game: Game) -> dict[str, Any]:
    return game.model_dump(mode="json", exclude={"log", "cursor"})


@pytest.mark.parametrize("system", SYSTEM_IDS)
@PROPERTY
@given(data=st.data())
def test_any_steps_undone_give_back_every_game_and_redone_the_end(system: str, data: st.DataObject) -> None:
    game = start(system, data)
    seen = [game]
    for _ in range(data.draw(st.integers(1, 6), label="steps")):
        for after in steps(data, game):
            assert after.cursor == len(after.log) == game.cursor + 1
            game = after
            seen.append(game)
    end = game
    for expected in reversed(seen[:-1]):
        game = undo(game)
        assert without_log(game) == without_log(expected)
        assert game.cursor == expected.cursor
    assert without_log(game) == without_log(seen[0])
    assert game.log == end.log  # undone steps stay, ready to redo
    for expected in seen[1:]:
        game = redo(game)
        assert without_log(game) == without_log(expected)
    assert game == end


@pytest.mark.parametrize("system", SYSTEM_IDS)
@PROPERTY
@given(data=st.data())
def test_a_new_step_after_undo_drops_only_the_undone_steps(system: str, data: st.DataObject) -> None:
    game = start(system, data)
    for _ in range(data.draw(st.integers(2, 5))):
        game = adjust(game, draw_changes(data, game))
    back = data.draw(st.integers(1, game.cursor - 1))
    kept = game.log[: game.cursor - back]
    for _ in range(back):
        game = undo(game)
    try:
        game = next_round(game)
        assert game.log[:-1] == kept and game.log[-1].kind == "round"
    except ValueError:
        # a system whose turn passes by a step of its own refuses a bare new round: the undone steps stay
        assert game.log[: game.cursor] == kept
        game = adjust(game, [Change(path=["round"], value=game.round + 1)])
        assert game.log[:-1] == kept and game.log[-1].kind == "adjust"
    assert game.cursor == len(game.log) == len(kept) + 1
    with pytest.raises(ValueError, match="nothing to redo"):
        redo(game)
