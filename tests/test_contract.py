"""The plug-in contract: what every registered rule system must keep, the test system included.

Each test is parametrised over every playable system (and the test-only system of
``tests/toy_system``), so a new system is held to the same contract the day it is registered.
A game for the contract is two sides made from the system's catalogue; an action is tried with
its required unit fields filled (own unit, enemy unit) and its other fields left at their defaults;
an action that refuses this plain situation (e.g. it needs a mission or a special upgrade) is
checked only where it can be.
"""

from __future__ import annotations

import itertools
import json
import sys
from collections import Counter, deque
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError
from toy_system import INFO as TOY_INFO

import core.game
import core.systems
from core import api, share
from core.dice import NeedMoreDice, RandomDice, TypedDice
from core.game import Game, act, new_game, odds, redo, step_back, undo
from core.squad import Squad, SquadUnit, check
from core.systems import SYSTEMS, implementation
from core.systems.base import (
    ActionOdds,
    Need,
    NeedChoice,
    RuleSystem,
    action_flow,
    field_needs,
    role_fields,
    value_key,
)
from core.systems.witnesses import Situation, witnesses

IDS = [s.id for s in SYSTEMS if s.status == "playable"] + [TOY_INFO.id]


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(core.systems, "SYSTEMS", (*core.systems.SYSTEMS, TOY_INFO))
    monkeypatch.setitem(core.systems.IMPLEMENTATIONS, TOY_INFO.id, "toy_system")
    yield


def squad(system_id: str, offset: int = 0, size: int = 2) -> Squad:
    units = implementation(system_id).catalogue()
    picked = list(itertools.islice(itertools.cycle(units), offset, offset + size))
    entries = [SquadUnit(key=f"u{i + 1}", profile=u.profile) for i, u in enumerate(picked)]
    return Squad(id=f"s{offset}", name=f"Side {offset}", system=system_id, units=entries)


#: What a system's rules have the players do before any unit may act, as (action, input, faces):
#: Gundam Skirmish's priority roll, side A winning and taking the first turn (L278-L282); Skirmishers'
#: first side picked by the players (L73).
OPENING: dict[str, list[tuple[str, dict[str, Any], list[int]]]] = {
    "gundam_skirmish": [("priority", {"places": [1]}, [5, 2])],
    # MechaStellar's round roll-off, side A winning (L32).
    "mechastellar": [("roll_off", {}, [9, 2])],
    "skirmishers": [("first_side", {"first": "first"}, [])],
}


def game(system_id: str) -> Game:
    g = new_game("contract", "Contract", [("A", squad(system_id)), ("B", squad(system_id, 1))])
    for action, raw, faces in OPENING.get(system_id, []):
        g = act(g, action, raw, TypedDice(faces))
    return g


def plain_inputs(schema: dict[str, Any], g: Game) -> list[dict[str, Any]]:
    """Inputs to try: the required unit fields filled (own unit: side A's first, enemy: side B's
    first), then every unit field filled."""
    out = []
    for names in (schema.get("required", []), list(schema.get("properties", {}))):
        raw = {}
        for name in names:
            ui = schema["properties"][name].get("ui")
            if ui == "own-unit":
                raw[name] = f"0/{g.sides[0].units[0].key}"
            elif ui == "enemy-unit":
                raw[name] = f"1/{g.sides[1].units[0].key}"
        if raw not in out:
            out.append(raw)
    return out


REFUSED = (ValueError, ValidationError, NeedChoice)


def reachable(system_id: str) -> list[tuple[str, dict[str, Any], ActionOdds]]:
    """Actions with odds that a fresh game of catalogue units can take, with their plain input."""
    system, g = implementation(system_id), game(system_id)
    out = []
    for spec in system.actions.values():
        if spec.odds is None:
            continue
        for raw in plain_inputs(spec.input.model_json_schema(), g):
            try:
                out.append((spec.name, raw, odds(g, spec.name, raw)))
                break
            except REFUSED:
                continue
    return out


def weights(rows: list[Any]) -> dict[int, Fraction]:
    return {r.value: Fraction(r.exactly) for r in rows if Fraction(r.exactly)}


# --- units ----------------------------------------------------------------------------------


@pytest.mark.parametrize("system_id", IDS)
def test_catalogue_units_pass_their_own_checks(system_id: str) -> None:
    system = implementation(system_id)
    units = system.catalogue()
    assert units, "a system offers at least one ready-made unit to start from"
    for unit in units:
        profile = system.profile_model.model_validate(unit.profile)
        assert profile.model_dump(mode="json") == system.profile_model.model_validate(
            profile.model_dump(mode="json")
        ).model_dump(mode="json")
        report = check(
            Squad(id="c", name="c", system=system_id, units=[SquadUnit(key="u1", profile=unit.profile)])
        )
        assert report.units[0].cost is not None, unit.id
        broken = [v.rule for v in system.unit_violations(profile)]
        # A printed unit may break a rule of its own only where the catalogue says so in its note (rules
        # about the squad, e.g. a linked upgrade wanting a partner, are the squad's to check).
        assert not broken or unit.note, f"{unit.id} breaks {broken} without a note"


@pytest.mark.parametrize("system_id", IDS)
def test_packing_is_stable_and_round_trips(system_id: str) -> None:
    system = implementation(system_id)
    for unit in system.catalogue():
        profile = system.profile_model.model_validate(unit.profile)
        packed = json.loads(json.dumps(system.pack_profile(profile)))
        assert system.unpack_profile(packed) == profile, unit.id
        assert system.pack_profile(system.unpack_profile(packed)) == packed, unit.id


@pytest.mark.parametrize("system_id", IDS)
def test_share_links_round_trip(system_id: str) -> None:
    sq = squad(system_id, size=3).model_copy(update={"limit": 500})
    back = share.decode(share.encode_squad(sq)).squad
    assert back is not None
    assert (back.name, back.limit, back.system) == (sq.name, 500, system_id)
    assert [(u.key, u.profile) for u in back.units] == [
        (u.key, implementation(system_id).profile_model.model_validate(u.profile).model_dump(mode="json"))
        for u in sq.units
    ]
    g = game(system_id)
    assert share.decode(share.encode_game(g)).game == g


# --- actions ------------------------------------------------------------------------------


def _renders(root: dict[str, Any], node: dict[str, Any]) -> bool:
    """What web/schema-form.js can draw: the same cases, in Python."""
    while "$ref" in node:
        node = root["$defs"][node["$ref"].split("/")[-1]]
    if "ui" in node:
        return True
    variants = [v for v in node.get("anyOf", []) if v.get("type") != "null"]
    if node.get("anyOf"):
        return len(variants) == 1 and _renders(root, variants[0])
    if "enum" in node or "const" in node or node.get("type") in ("boolean", "integer", "number", "string"):
        return True
    if node.get("type") == "array":
        return _renders(root, node.get("items", {}))
    if node.get("type") == "object" or "properties" in node:
        return all(_renders(root, p) for p in node.get("properties", {}).values())
    return False


@pytest.mark.parametrize("system_id", IDS)
def test_every_action_input_schema_renders_with_every_field_described(system_id: str) -> None:
    system = implementation(system_id)
    assert system.actions
    for spec in system.actions.values():
        schema = spec.input.model_json_schema()
        assert json.loads(json.dumps(schema)) == schema
        assert schema["type"] == "object", spec.name
        for name, prop in schema.get("properties", {}).items():
            assert _renders(schema, prop), f"{spec.name}.{name} cannot be drawn"
            assert prop.get("description"), f"{spec.name}.{name} has no description"
        # its defaults are valid input, where no field is required
        if not schema.get("required"):
            spec.input.model_validate({})


@pytest.mark.parametrize("system_id", IDS)
def test_tools_have_real_schemas(system_id: str) -> None:
    system = implementation(system_id)
    for name, tool in system.tools.items():
        assert tool.name == name
        assert tool.result.model_json_schema().get("properties"), name
        assert issubclass(tool.input, BaseModel)


@pytest.mark.parametrize("system_id", IDS)
def test_odds_sum_to_exactly_one(system_id: str) -> None:
    found = reachable(system_id)
    assert found or not any(a.odds for a in implementation(system_id).actions.values())
    for name, _, result in found:
        for key, tab in result.tables.items():
            assert sum(Fraction(r.exactly) for r in tab.rows) == 1, f"{name} {key}"
            assert all(Fraction(r.exactly) >= 0 for r in tab.rows)
        for fact, p in result.facts.items():
            assert 0 <= p <= 1, f"{name} {fact}"


def _every_roll(g: Game, name: str, raw: dict[str, Any], limit: int) -> Iterator[tuple[Fraction, Game]]:
    """Every sequence of typed faces the action can use, with its chance, and the game it makes.

    A question asked after the roll (a defender's pick) is answered with the option the odds assume.
    Breadth first: every sequence still queued ends in at least one leaf, so a tree of more than
    ``limit`` leaves is known as soon as the leaves found and the sequences queued pass it (a few
    hundred resolutions instead of the whole ``limit``).
    """
    queue: deque[tuple[list[int], Fraction, dict[str, Any]]] = deque([([], Fraction(1), raw)])
    leaves = 0
    while queue:
        faces, chance, given = queue.popleft()
        try:
            after = act(g, name, given, TypedDice(faces))
        except NeedMoreDice as need:
            queue.extend(([*faces, f], chance / need.sides, given) for f in range(1, need.sides + 1))
            if leaves + len(queue) > limit:
                raise OverflowError from None
            continue
        except NeedChoice as asked:
            pick = [o for o in asked.options if o.assumed]
            assert len(pick) == 1, f"{name}: one option of '{asked}' is the one the odds assume"
            queue.append((faces, chance, {**given, **pick[0].also, asked.field: pick[0].value}))
            continue
        leaves += 1
        if leaves > limit:
            raise OverflowError
        yield chance, after


def _assumed(g: Game, name: str, raw: dict[str, Any], seed: int) -> Game:
    """The action rolled (the same dice each time), its questions answered as the odds assume."""
    given = dict(raw)
    for _ in range(10):
        try:
            return act(g, name, given, RandomDice(seed))
        except NeedChoice as asked:
            pick = next(o for o in asked.options if o.assumed)
            given = {**given, **pick.also, asked.field: pick.value}
    raise AssertionError(f"{name} kept asking")


def _damage(before: Game, after: Game) -> int:
    return sum(
        ua.state.damage - ub.state.damage
        for sa, sb in zip(after.sides, before.sides, strict=True)
        for ua, ub in zip(sa.units, sb.units, strict=True)
    )


@pytest.mark.parametrize("system_id", IDS)
def test_resolving_with_typed_dice_gives_exactly_the_odds(system_id: str) -> None:
    """Every face sequence, resolved: the damage dealt has the odds' 'damage' distribution exactly."""
    g = game(system_id)
    checked = 0
    for name, raw, result in reachable(system_id):
        if "damage" not in result.tables:
            continue
        want = weights(result.tables["damage"].rows)
        got: Counter[int] = Counter()
        try:
            for chance, after in _every_roll(g, name, raw, limit=2_000):
                got[_damage(g, after)] += chance  # type: ignore[assignment]
        except OverflowError:
            # too many faces to enumerate: every seeded roll lands in the support
            for seed in range(200):
                assert _damage(g, _assumed(g, name, raw, seed)) in want, f"{name} seed {seed}"
            checked += 1
            continue
        assert dict(got) == want, name
        checked += 1
    if system_id != "ms_battles":  # cards, no dice: its odds are of the next hand
        assert checked, f"no dice action of {system_id} was checked"


@pytest.mark.parametrize("system_id", IDS)
def test_undo_and_redo_are_exact(system_id: str) -> None:
    system: RuleSystem = implementation(system_id)
    g = game(system_id)
    done = 0
    for spec in system.actions.values():
        for raw in plain_inputs(spec.input.model_json_schema(), g):
            try:
                after = act(g, spec.name, raw, RandomDice(5))
                break
            except REFUSED:
                continue
        else:
            continue
        back = undo(after)
        assert back.sides == g.sides and back.options == g.options and back.round == g.round, spec.name
        assert step_back(after).sides == g.sides
        again = redo(back)
        assert again.sides == after.sides and again.options == after.options, spec.name
        done += 1
    assert done, f"no action of {system_id} could be taken in a fresh game"


# --- a unit's own values in play ------------------------------------------------------------------


def _undescribed(schema: dict[str, Any]) -> list[str]:
    """Fields of a model's schema (and of the models it holds) that have no description."""
    missing = [n for n, p in schema.get("properties", {}).items() if not p.get("description")]
    for sub in schema.get("$defs", {}).values():
        missing += [
            f"{sub.get('title')}.{n}"
            for n, p in sub.get("properties", {}).items()
            if not p.get("description")
        ]
    return missing


@pytest.mark.parametrize("system_id", IDS)
def test_a_units_own_values_have_a_typed_model_with_every_field_described(system_id: str) -> None:
    model = implementation(system_id).unit_state_model
    assert model is not None, "a system types what its units keep in UnitState.extra"
    schema = model.model_json_schema()
    assert json.loads(json.dumps(schema)) == schema
    assert schema.get("properties"), "the model names what a unit keeps"
    assert _undescribed(schema) == []


@pytest.mark.parametrize("system_id", IDS)
def test_units_fit_their_model_fresh_and_after_every_action(
    system_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checked with the model itself (the game's own check is off here, else an action writing a value
    outside the model would only look refused), so such a value is caught by name."""
    monkeypatch.setattr(core.game, "unit_state_problem", lambda game: None)
    system: RuleSystem = implementation(system_id)
    model = system.unit_state_model
    assert model is not None
    g = game(system_id)
    for side in g.sides:
        for unit in side.units:
            model.model_validate(unit.state.extra)
    taken = 0
    for walk in (g, None):  # each action from the fresh game, then one after another (two rounds)
        current = g
        for spec in [*system.actions.values()] * (1 if walk else 2):
            start = walk or current
            for raw in plain_inputs(spec.input.model_json_schema(), start):
                try:
                    after = act(start, spec.name, raw, RandomDice(5 + taken))
                except REFUSED:
                    continue
                for side in after.sides:
                    for unit in side.units:
                        model.model_validate(unit.state.extra)
                taken += 1
                current = after
                break
    assert taken, f"no action of {system_id} could be taken in a fresh game"


@pytest.mark.parametrize("system_id", IDS)
def test_an_action_marked_as_rolling_nothing_takes_no_dice(system_id: str) -> None:
    """``ActionSpec.rolls=False`` makes the game screen apply the action in one tap, with no dice asked:
    every such action, taken by the catalogue's units in a fresh game with an empty dice source, needs no
    face (a rare die of a special unit, such as an Obsolete one's, is rolled by the app)."""
    system: RuleSystem = implementation(system_id)
    g = game(system_id)
    for spec in system.actions.values():
        if spec.rolls:
            continue
        for raw in plain_inputs(spec.input.model_json_schema(), g):
            try:
                act(g, spec.name, raw, TypedDice([]))
            except NeedMoreDice as asked:  # pragma: no cover - the failure this test is for
                raise AssertionError(f"{spec.name} is marked rolls=False but asks for dice") from asked
            except REFUSED:
                continue
    assert any(not s.rolls for s in system.actions.values()) or system_id != TOY_INFO.id


# --- declared modifiers ------------------------------------------------------------------------------


def _matchup_game(system_id: str) -> Game:
    """The game the check plays in: the first two sample forces, as a sample battle starts (the app's
    one-tap start); a system with none: the contract's game of catalogue units (``game``)."""
    system = implementation(system_id)
    forces = system.sample_forces()
    if len(forces) < 2:
        return game(system_id)
    by_id = {u.id: u for u in system.catalogue()}
    sides = [
        (
            f.name,
            Squad(
                id=f"s{i}",
                name=f.name,
                system=system_id,
                units=[SquadUnit(key=f"u{n + 1}", profile=by_id[k].profile) for n, k in enumerate(f.units)],
            ),
        )
        for i, f in enumerate(forces[:2])
    ]
    g = new_game("samples", "Samples", sides)
    for action, raw, faces in OPENING.get(system_id, []):
        g = act(g, action, raw, TypedDice(faces))
    return g


def _situations(system_id: str, g: Game) -> list[Game]:
    """The game as it is, and after each choice of a set-up action the system offers (one that names no
    unit and rolls nothing: the battle's environment, its game type...)."""
    out = [g]
    for spec in implementation(system_id).actions.values():
        props = spec.input.model_json_schema().get("properties", {})
        if spec.rolls or any(p.get("ui") in ("own-unit", "enemy-unit") for p in props.values()):
            continue
        for name, prop in props.items():
            for value in prop.get("enum", []):
                if value == prop.get("default"):
                    continue
                try:
                    out.append(act(g, spec.name, {name: value}, TypedDice([])))
                except REFUSED:
                    continue
    return out


def _other_values(prop: dict[str, Any]) -> list[Any]:
    """The values of a modifier besides its default: a switch turned, each other answer, a count up one."""
    if prop.get("type") == "boolean":
        return [not prop.get("default", False)]
    if prop.get("type") == "integer" and isinstance(prop.get("default"), int):
        ups = [prop["default"] + 1, prop["default"] + 2]  # +2: an index past the default's own value
        return [v for v in ups if v <= prop.get("maximum", v)]
    return [v for v in prop.get("enum", []) if v != prop.get("default")]


def modifiers(spec: Any) -> list[str]:
    """The modifiers of an action's form: its optional switches, answers and counts, except the units it
    names, the acting unit's own picks (``{"flow": "pick"}``) and what the players answer to a question
    asked during the roll (``{"ui": "hidden"}``)."""
    schema = spec.input.model_json_schema()
    props, required = schema.get("properties", {}), set(schema.get("required", []))
    return [
        name
        for name, p in props.items()
        if name not in required and p.get("ui") is None and p.get("flow") != "pick" and _other_values(p)
    ]


def _duel(system_id: str, a: Any, b: Any) -> Game:
    """One catalogue unit a side (the system's opening played), for a matchup."""
    sides = [
        (name, Squad(id=f"d{i}", name=name, system=system_id, units=[SquadUnit(key="u1", profile=u.profile)]))
        for i, (name, u) in enumerate((("A", a), ("B", b)))
    ]
    g = new_game("duel", "Duel", sides)
    for action, raw, faces in OPENING.get(system_id, []):
        g = act(g, action, raw, TypedDice(faces))
    return g


#: Catalogue units paired with each other, for a modifier the sample battle takes but sees no change from.
DUELS = 4


def pairs(g: Game, targeted: bool) -> list[tuple[str, str | None]]:
    """Each unit as the acting one, against each unit of the other sides (or alone)."""
    refs = [[f"{s}/{u.key}" for u in side.units] for s, side in enumerate(g.sides)]
    return [
        (a, t)
        for s, own in enumerate(refs)
        for a in own
        for t in ([r for o, rs in enumerate(refs) if o != s for r in rs] if targeted else [None])
    ]


#: The hint an input field carries when it legitimately changes no odds (it only names what the log
#: says, or a choice the odds cannot foresee), with the reason: ``json_schema_extra={"same_odds": "..."}``.
SAME_ODDS = "same_odds"
#: The hint of a modifier that changes the odds only in a state no fresh game has (a card already
#: marked), saying which: the check cannot make that state, so it only asks for the words.
ONLY_WHEN = "odds_only_when"


@pytest.mark.parametrize("system_id", IDS)
def test_every_declared_modifier_changes_the_odds_of_some_matchup(system_id: str) -> None:
    """Issue 27: every modifier an action's form offers, once the engine takes it, changes the odds of at
    least one matchup (the sample battle's pairs, with each pick of the acting unit and each answer of the
    action's choices; then, for one that moved nothing there, one catalogue unit against another), or
    declares in the system's own input model why it changes none (``same_odds``) or when alone it does
    (``odds_only_when``).  A modifier that needs an ability, a trait, a weapon or a moment of play no sample
    or catalogue unit has is reached by a situation the system declares in its package
    (``core.systems.witnesses``): played there through the seam, each modifier it names must be taken and
    move the odds.  A modifier the engine accepts and silently ignores fails, and so does one that nothing
    takes, unless the system's ``not_yet`` names it with the reason."""
    problems, _ = modifier_problems(system_id)
    assert not problems, f"{system_id}:\n" + "\n".join(problems)


def modifier_problems(system_id: str) -> tuple[list[str], dict[str, str]]:
    """What the check finds wrong with the system's declared modifiers, and what it took where
    ('action.field' -> the matchup or situation that moved its odds)."""
    system = implementation(system_id)
    declared = witnesses(system_id)
    games = _situations(system_id, _matchup_game(system_id))
    units = system.catalogue()[:DUELS]
    unmoved: dict[str, str] = {}  # 'action.field' -> what the matchups found
    problems: list[str] = []
    moved: dict[str, str] = {}
    for spec in system.actions.values():
        if spec.odds is None:
            continue
        roles = role_fields(spec.input)
        actor, target = roles["actor"], roles["target"]
        props = spec.input.model_json_schema()["properties"]
        todo = [f for f in modifiers(spec) if SAME_ODDS not in props[f] and ONLY_WHEN not in props[f]]
        for f in modifiers(spec):
            for hint in (SAME_ODDS, ONLY_WHEN):
                assert str(props[f].get(hint, "-")).strip(), f"{spec.name}.{f}: say why in {hint}"
        accepted: set[str] = set()
        if actor is None:  # a game-wide action (the battle's set-up, its end): tried as each set-up stands
            tries = [(g, {}, False) for g in games]
        else:
            # every pair of the sample battle with each of the acting unit's picks; in each other set-up,
            # the first pair as it comes (the set-up's own effect)
            tries = [
                (games[0], {actor: a} | ({target: t} if target and t else {}), True)
                for a, t in pairs(games[0], target is not None)
            ]
            tries += [
                (g, {actor: a} | ({target: t} if target and t else {}), False)
                for g in games[1:]
                for a, t in pairs(g, target is not None)[:1]
            ]
        for g, raw, picks in tries:
            if not todo:
                break  # every modifier of this action seen to change the odds
            for one in _with_picks(spec, g, raw, raw[actor]) if picks and actor else [raw]:
                _try(g, spec.name, one, props, todo, accepted)
        # a modifier taken but not moved there may need a unit the samples lack (a weapon with Rapid Fire):
        # the catalogue's units, one against another
        leftover = [f for f in todo if f in accepted]
        for ua, ub in itertools.product(units, units) if leftover and actor else ():
            if not leftover:
                break
            g = _duel(system_id, ua, ub)
            raw = {actor: "0/u1"} | ({target: "1/u1"} if target else {})
            for one in _with_picks(spec, g, raw, "0/u1"):
                _try(g, spec.name, one, props, leftover, accepted)
        for f in modifiers(spec):
            if f not in todo and SAME_ODDS not in props[f] and ONLY_WHEN not in props[f]:
                moved[f"{spec.name}.{f}"] = "the sample battle or a catalogue duel"
        unmoved |= {f"{spec.name}.{f}": "accepted but never changes the odds" for f in leftover}
        unmoved |= {f"{spec.name}.{f}": "no matchup or situation takes it" for f in todo if f not in accepted}
    # the system's own situations: each modifier named there is taken, and moves the odds, right there
    for situation in declared.situations:
        g = witness_game(system_id, situation)
        for attempt in situation.tries:
            spec = system.actions[attempt.action]
            props = spec.input.model_json_schema()["properties"]
            for f in attempt.modifiers:
                key = f"{attempt.action}.{f}"
                assert f in modifiers(spec), f"{situation.name}: {key} is no modifier of the form"
                assert SAME_ODDS not in props[f], f"{situation.name}: {key} says it moves no odds"
                left, taken = [f], set[str]()
                _try(g, attempt.action, dict(attempt.input), props, left, taken)
                if left:
                    why = "accepted but leaves the odds as they are" if taken else "refused"
                    problems.append(f"{key}: {why} in '{situation.name}'")
                else:
                    moved.setdefault(key, situation.name)
    for key, why in declared.not_yet.items():
        assert why.strip(), f"{key}: say why no situation reaches it yet"
        if key in moved:
            problems.append(f"{key}: listed as not yet reached, but {moved[key]} moves its odds")
        elif key not in unmoved:
            problems.append(f"{key}: listed as not yet reached, but it is no modifier left to reach")
    named = {
        f"{t.action}.{f}" for situation in declared.situations for t in situation.tries for f in t.modifiers
    }
    problems += [
        f"{k}: {why}"
        for k, why in unmoved.items()
        if k not in moved and k not in declared.not_yet and k not in named  # a situation's failure said it
    ]
    return problems, moved


def test_the_modifier_check_fails_a_modifier_ignored_or_reached_by_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check can fail: the toy's Steady (a unit that has taken aim, reached only by its situation in
    ``tests/toy_system/witnesses.json``) is reported when the odds ignore it, when no situation reaches it,
    and when ``not_yet`` still lists it once something reaches it."""
    import dataclasses

    import toy_system

    import core.systems.witnesses as witness_module

    problems, moved = modifier_problems(TOY_INFO.id)
    assert problems == [] and moved["shoot.steady"] == "The Grunt has taken aim"
    spec = toy_system.SYSTEM.actions["shoot"]
    deaf = dataclasses.replace(
        spec, odds=lambda g, i: toy_system.shoot_odds(g, i.model_copy(update={"steady": False}))
    )
    with monkeypatch.context() as m:
        m.setitem(toy_system.SYSTEM.actions, "shoot", deaf)
        problems, _ = modifier_problems(TOY_INFO.id)
    assert problems == ["shoot.steady: accepted but leaves the odds as they are in 'The Grunt has taken aim'"]
    found = witness_module.witnesses(TOY_INFO.id)
    with monkeypatch.context() as m:
        m.setattr(sys.modules[__name__], "witnesses", lambda system_id: witness_module.Witnesses())
        assert modifier_problems(TOY_INFO.id)[0] == ["shoot.steady: no matchup or situation takes it"]
        later = witness_module.Witnesses(not_yet={"shoot.steady": "to come"})
        m.setattr(sys.modules[__name__], "witnesses", lambda system_id: later)
        assert modifier_problems(TOY_INFO.id)[0] == []  # listed, with its reason: named, not failed
        both = found.model_copy(update={"not_yet": {"shoot.steady": "to come"}})
        m.setattr(sys.modules[__name__], "witnesses", lambda system_id: both)
        assert modifier_problems(TOY_INFO.id)[0] == [
            "shoot.steady: listed as not yet reached, but The Grunt has taken aim moves its odds"
        ]


def witness_game(system_id: str, situation: Situation) -> Game:
    """A situation's game, set up and played to its moment through the seam, as the app does: its sides
    (a catalogue unit, or one a player built from it, passing its own checks), the readings picked, then
    each step with the faces typed (it must go through whole, no question left and no face unused)."""
    system = implementation(system_id)
    by_id = {u.id: u for u in system.catalogue()}
    sides = []
    for s, listed in enumerate(situation.sides):
        entries = []
        for n, entry in enumerate(listed):
            if isinstance(entry, str):
                profile = by_id[entry].profile
            else:
                profile = {**by_id[entry.unit].profile, **entry.set}
            built = system.profile_model.model_validate(profile)
            assert not system.unit_violations(built), f"{situation.name}: {system.unit_violations(built)}"
            entries.append(SquadUnit(key=f"u{n + 1}", profile=profile))
        squad = Squad(id=f"w{s}", name=f"Side {'AB'[s] if s < 2 else s}", system=system_id, units=entries)
        sides.append({"name": squad.name, "squad": squad.model_dump(mode="json")})

    def seam(op: str, args: dict[str, Any]) -> Any:
        reply = api.call(op, args)
        assert reply["ok"], f"{situation.name}: {op} {reply['error']}"
        return reply["result"]

    g = seam("game.new", {"id": "witness", "name": "Witness", "sides": sides})
    if situation.options:
        changes = [{"path": ["options", k], "value": v} for k, v in situation.options.items()]
        g = seam("game.adjust", {"game": g, "changes": changes, "text": "Readings"})
    for step in situation.steps:
        if step.op == "round":
            g = seam("game.round", {"game": g})
            continue
        done = seam("game.act", {"game": g, "action": step.action, "input": step.input, "faces": step.faces})
        assert done["complete"], f"{situation.name}: {step.action} {step.input} still needs {done}"
        g = done["game"]
    return Game.model_validate(g)


def _with_picks(spec: Any, g: Game, raw: dict[str, Any], actor: str) -> list[dict[str, Any]]:
    """The input as given, then with each value the acting unit offers for its picks (each weapon) and
    each answer of the action's choices (a range band): a modifier may matter only with one of them."""
    out = [raw]
    for name, offered in (spec.picks(g, actor) if spec.picks else {}).items():
        out += [{**raw, name: p.value} for p in offered if not p.unavailable]
    props = spec.input.model_json_schema()["properties"]
    for name in action_flow(spec).choices:
        out += [{**raw, name: v} for v in _other_values(props[name])]
    return out


def _try(
    g: Game, action: str, raw: dict[str, Any], props: dict[str, Any], todo: list[str], accepted: set[str]
) -> None:
    """Each modifier still to see move, turned on this matchup: taken off ``todo`` when the odds change."""
    base: list[Any] = []  # the odds without the modifier, worked out once one is taken
    for f in list(todo):
        for value in _other_values(props[f]):
            try:
                other = odds(g, action, {**raw, f: value})
                base = base or [odds(g, action, raw)]
            except REFUSED:
                continue
            accepted.add(f)
            if (other.tables, other.facts) != (base[0].tables, base[0].facts):
                todo.remove(f)
                break


# --- out-of-range sides, units and indexes (issue 19) -------------------------------------------------

#: What a hostile or stale screen may send where an action names a side, a unit or an index.
BAD_SIDES = [-1, 2, 7, 8, 99, 2**31]
BAD_UNITS = ["2/u1", "7/u1", "-1/u1", "0/zz", "1/", "/u1", "", "x/y", "0/u1/u2", "99999999999999999999/u1"]
BAD_INDEXES = [-1, 2, 7, 99, 10**6, 2**63]


def _hostile_values(name: str, prop: dict[str, Any], defs: dict[str, Any]) -> list[Any]:
    """Out-of-range values for one input field, by what its schema says it holds."""
    if "$ref" in prop:
        prop = {
            **defs.get(prop["$ref"].rsplit("/", 1)[-1], {}),
            **{k: v for k, v in prop.items() if k != "$ref"},
        }
    options = prop.get("anyOf", [prop])
    out: list[Any] = []
    for option in options:
        kind = option.get("type")
        if kind == "integer":
            out += BAD_SIDES + BAD_INDEXES if "side" in name else BAD_INDEXES
        elif kind == "string":
            out += BAD_UNITS
        elif kind == "array":
            item = option.get("items", {})
            out += [[v] for v in _hostile_values(name, item, defs)[:6]] + [[0] * 50]
        elif kind == "object":
            out += [{"side": -1}, {"0": 99}]
    return out


def _plausible(prop: dict[str, Any], defs: dict[str, Any]) -> Any:
    """A value a player could send for a required field that names no unit (its first choice...)."""
    if "$ref" in prop:
        prop = defs.get(prop["$ref"].rsplit("/", 1)[-1], {})
    prop = next((o for o in prop.get("anyOf", [prop]) if o.get("type") != "null"), prop)
    if "enum" in prop:
        return prop["enum"][0]
    if "const" in prop:
        return prop["const"]
    return {
        "integer": max(0, prop.get("minimum", 0)),
        "boolean": False,
        "array": [],
        "string": "",
        "object": {},
    }.get(prop.get("type", ""))


def hostile_requests(system_id: str, g: Game) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every action, each field in turn out of range, the other fields filled as a player would."""
    system = implementation(system_id)
    for spec in system.actions.values():
        schema = spec.input.model_json_schema()
        defs = schema.get("$defs", {})
        base = plain_inputs(schema, g)[-1]
        for name in schema.get("required", []):
            base.setdefault(name, _plausible(schema["properties"][name], defs))
        for name, prop in schema.get("properties", {}).items():
            for value in _hostile_values(name, prop, defs):
                yield spec.name, {**base, name: value}


@pytest.mark.parametrize("system_id", IDS)
def test_out_of_range_sides_units_and_indexes_are_refused_cleanly_by_every_action(system_id: str) -> None:
    """Sent through the seam as the page sends them (act, odds, picks): a refusal in words or a
    question, never an internal error; the game sent is never changed in place."""
    from core import api

    g = game(system_id)
    sent = g.model_dump(mode="json")
    crashes: list[str] = []
    tried = 0
    for action, raw in hostile_requests(system_id, g):
        for op, args in (
            ("game.act", {"game": sent, "action": action, "input": raw, "seed": 3}),
            ("game.odds", {"game": sent, "action": action, "input": raw}),
        ):
            tried += 1
            reply = json.loads(api.handle(json.dumps({"op": op, "args": args})))
            if not reply["ok"] and reply["error"]["code"] == "internal":
                crashes.append(f"{op} {action} {raw}: {reply['error']['message']}")
        for actor in BAD_UNITS:
            reply = api.call("game.picks", {"game": sent, "action": action, "actor": actor})
            if not reply["ok"] and reply["error"]["code"] == "internal":
                crashes.append(f"picks {action} {actor}: {reply['error']['message']}")
    assert tried > 50
    assert crashes == [], "\n".join(crashes[:20])
    assert g.model_dump(mode="json") == sent


# --- gated inputs: what a unit lacks is offered greyed and refused when sent ------------------


def wide_game(system_id: str) -> Game:
    """Every catalogue unit on each side (side B's list turned by one), after the opening steps: so a
    need some catalogue unit lacks is met by a unit that lacks it."""
    system = implementation(system_id)
    size = len(system.catalogue())
    with pytest.MonkeyPatch.context() as mp:  # building rules (one faction per army) are not the point here
        mp.setattr(type(system), "game_violations", lambda self, sides: [])
        g = new_game("gates", "Gates", [("A", squad(system_id, 0, size)), ("B", squad(system_id, 1, size))])
    for action, raw, faces in OPENING.get(system_id, []):
        g = act(g, action, raw, TypedDice(faces))
    return g


def _using(spec_input: type[BaseModel], need: Need) -> Any:
    """A value of a gated field that uses what it needs: a gated value, a modifier on, a count up."""
    if need.values is not None:
        return need.values[0]
    declared = spec_input.model_fields[need.field]
    default = declared.get_default(call_default_factory=True)
    if isinstance(default, bool):
        return True
    if isinstance(default, int):
        return default + 1
    raise AssertionError(f"{need.field}: a gated field that is not a switch or a count names its values")


def _refused(g: Game, action: str, raw: dict[str, Any], op: str = "game.act") -> str:
    """The seam's plain refusal of the request (its message), failing if it is anything else."""
    args: dict[str, Any] = {"game": g.model_dump(mode="json"), "action": action, "input": raw}
    if op == "game.act":
        args["seed"] = 1
    reply = api.call(op, args)
    assert reply["ok"] is False, f"{action} {raw} was accepted for a unit that lacks what it needs"
    assert reply["error"]["code"] == "invalid", reply["error"]
    return str(reply["error"]["message"])


@pytest.mark.parametrize("system_id", IDS)
def test_a_gated_input_is_refused_for_a_unit_that_lacks_what_it_needs(system_id: str) -> None:
    """A modifier, option or action that needs an ability, trait, weapon, upgrade or condition
    (``needs`` on an input field, ``ActionSpec.needs``) is sent for every unit of the catalogue
    that lacks it: game.gates names the reason, and game.act and game.odds refuse it in those words."""
    system: RuleSystem = implementation(system_id)
    g = wide_game(system_id)
    refs = [(s, f"{s}/{u.key}") for s, side in enumerate(g.sides) for u in side.units]
    declared: set[str] = set()
    tried: set[str] = set()
    for spec in system.actions.values():
        roles = role_fields(spec.input)
        gated = [Need("", key) for key in spec.needs] + field_needs(spec.input)
        for need in gated:
            declared.add(need.key)
            assert need.key in system.requirements, f"{spec.name}: no requirement {need.key!r}"
            role = roles[need.of]
            assert role, f"{spec.name}.{need.field or 'needs'}: gated on a unit the action does not name"
            for side, ref in refs:
                why = system.requirements[need.key](g, ref)
                if not why:
                    continue
                assert ref not in why, f"{why!r}: plain words, not ids"
                other = next(r for s, r in refs if s != side)
                raw: dict[str, Any] = {role: ref}
                partner = roles["target" if need.of == "actor" else "actor"]
                if partner:
                    raw[partner] = other
                gates = api.call(
                    "game.gates", {"game": g.model_dump(mode="json"), "action": spec.name, "input": raw}
                )
                assert gates["ok"], gates
                shown = gates["result"]
                if need.field:
                    raw[need.field] = _using(spec.input, need)
                    if need.values is None:
                        assert shown["fields"][need.field] == why
                    else:
                        assert shown["values"][need.field][value_key(need.values[0])] == why
                else:
                    assert shown["action"] == why
                # An action the unit cannot take at all says so first; an input its model refuses on its
                # own (Quick Reflexes without a reaction) says why in its words.
                try:
                    spec.input.model_validate(raw)
                    expected: str | None = shown["action"] or why
                except ValidationError:
                    expected = None
                for op in ("game.act", "game.odds") if spec.odds is not None else ("game.act",):
                    said = _refused(g, spec.name, raw, op)
                    assert expected is None or said == expected
                tried.add(need.key)
                break  # one unit that lacks it is enough: the check is the same for every unit
    assert tried == declared, f"no catalogue unit lacks {sorted(declared - tried)}: the refusal is untested"
    if system_id == TOY_INFO.id:
        assert tried == {"big_gun", "pinned", "aimed"}


@pytest.mark.parametrize("system_id", IDS)
def test_a_greyed_pick_is_refused_when_sent(system_id: str) -> None:
    """A value the acting unit offers greyed (game.picks: a weapon it cannot fire now) is refused
    by the engine when sent anyway."""
    system: RuleSystem = implementation(system_id)
    g = wide_game(system_id)
    refs = [(s, f"{s}/{u.key}") for s, side in enumerate(g.sides) for u in side.units]
    for spec in system.actions.values():
        if spec.picks is None:
            continue
        flow = action_flow(spec)
        assert flow.actor
        for side, ref in refs:
            for name, offered in spec.picks(g, ref).items():
                for pick in offered:
                    if not pick.unavailable:
                        continue
                    raw = {flow.actor: ref, name: pick.value}
                    if flow.target:
                        raw[flow.target] = next(r for s, r in refs if s != side)
                    _refused(g, spec.name, raw)
