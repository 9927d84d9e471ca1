"""The shared layer with any rule system plugged in: squads, share links, games, saves.

A small test system (tests/toy_system.py) is plugged into the real layer, so
these tests pin the layer's behaviour whatever the real systems do.
"""

from __future__ import annotations

import base64
import json
import zlib
from collections.abc import Iterator
from typing import Any

import gunframe_table as table
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from qr_scan import decode_svg
from toy_system import INFO

import core.systems
from core import api, share, storage
from core.dice import NeedMoreDice, TypedDice
from core.game import Game, act, adjust, new_game, next_round, record, redo, step_back, undo
from core.squad import Squad, SquadUnit, check
from core.systems.base import Change


@pytest.fixture(autouse=True)
def toy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr(core.systems, "SYSTEMS", (*core.systems.SYSTEMS, INFO))
    monkeypatch.setitem(core.systems.IMPLEMENTATIONS, "toy", "toy_system")
    yield


def unit(key: str, name: str = "Grunt", hp: int = 3, dice: int = 2) -> SquadUnit:
    return SquadUnit(key=key, profile={"name": name, "hp": hp, "dice": dice})


def squad(*units: SquadUnit, limit: int | None = None, name: str = "Reds") -> Squad:
    return Squad(id="s1", name=name, system="toy", limit=limit, units=list(units))


# --- squads ------------------------------------------------------------------------


def test_points_and_violations_are_reported_per_unit() -> None:
    report = check(squad(unit("u1"), unit("u2", hp=2, dice=4), limit=10))
    assert [u.cost for u in report.units] == [7, 10]
    assert report.total == 17
    assert [v.rule for v in report.units[1].violations] == ["dice-over-hp"]
    assert [v.rule for v in report.violations] == ["points-limit"]
    assert not report.legal


def test_a_squad_may_spend_exactly_its_points_limit() -> None:
    two = squad(unit("u1"), unit("u2", hp=4, dice=3), limit=17)
    assert check(two).total == 17
    assert check(two).legal and check(two).violations == []
    over = check(two.model_copy(update={"limit": 16}))
    assert [(v.rule, v.message) for v in over.violations] == [
        ("points-limit", "17 points is over the 16-point limit")
    ]
    assert not over.legal


def test_an_invalid_profile_is_a_violation_not_a_crash() -> None:
    report = check(squad(SquadUnit(key="u1", profile={"name": "X", "hp": 99, "dice": 1})))
    assert report.units[0].cost is None
    # in the words of the form (the field's title, a plain limit), not pydantic's ``hp: Input should be...``
    assert report.units[0].violations[0].message == "Hp: must be 20 or less"
    report = check(squad(SquadUnit(key="u1", profile={"name": "", "hp": 3, "dice": 1})))
    assert report.units[0].violations[0].message == "Name: at least 1 characters"


def test_a_system_that_is_not_built_yet_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every listed system is built now: this is how a build before MechaStellar's answered.
    monkeypatch.delitem(core.systems.IMPLEMENTATIONS, "mechastellar")
    reply = api.call("squad.check", {"squad": {"id": "s", "name": "n", "system": "mechastellar"}})
    assert reply["error"]["message"] == "MechaStellar is not playable yet"


# --- share links ----------------------------------------------------------------------

names = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=40)
toy_units = st.builds(
    lambda n, h, d: {"name": n, "hp": h, "dice": d}, names, st.integers(1, 20), st.integers(0, 10)
)


@st.composite
def squads(draw: st.DrawFn) -> Squad:
    profiles = draw(st.lists(toy_units, max_size=12))
    keys = draw(
        st.one_of(
            st.just(None),
            st.lists(
                st.from_regex(r"[a-z0-9]{1,6}", fullmatch=True),
                min_size=len(profiles),
                max_size=len(profiles),
                unique=True,
            ),
        )
    )
    units = [SquadUnit(key=keys[i] if keys else f"u{i + 1}", profile=p) for i, p in enumerate(profiles)]
    return Squad(
        id="shared", name=draw(names), system="toy", limit=draw(st.none() | st.integers(1, 500)), units=units
    )


@given(squads())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_any_valid_squad_round_trips_exactly(s: Squad) -> None:
    back = share.decode(share.encode_squad(s))
    assert back.kind == "squad"
    assert back.squad == s


@given(st.binary(max_size=300))
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_random_tokens_raise_only_the_documented_error(blob: bytes) -> None:
    for token in (base64.urlsafe_b64encode(blob).decode().rstrip("="), blob.decode("latin-1")):
        try:
            opened = share.decode(token)
        except share.ShareError as bad:
            assert str(bad).strip()
        else:
            # Anything a random token might open is one whole thing of its kind, which travels unchanged.
            held = getattr(opened, opened.kind)
            assert held is not None
            if opened.squad is not None:
                assert share.decode(share.encode_squad(opened.squad)) == opened


@given(squads(), st.data())
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_mutated_tokens_raise_only_the_documented_error(s: Squad, data: st.DataObject) -> None:
    token = share.encode_squad(s)
    i = data.draw(st.integers(0, len(token) - 1))
    c = data.draw(st.sampled_from("AZaz09-_+/=%~ "))
    for mutated in (token[:i] + c + token[i + 1 :], token[:i], token + c):
        try:
            opened = share.decode(mutated)
        except share.ShareError as bad:
            assert str(bad).strip()
        else:
            # A change the checksum cannot see (e.g. padding) must give back the very same squad.
            assert opened.kind == "squad"
            assert opened.squad == s


def _token(payload: Any, version: int = share.FORMAT, crc: int | None = None) -> str:
    raw = json.dumps(payload).encode()
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = deflate.compress(raw) + deflate.flush()
    head = bytes([version]) + (zlib.crc32(raw) if crc is None else crc).to_bytes(4, "big")
    return base64.urlsafe_b64encode(head + body).decode().rstrip("=")


@pytest.mark.parametrize(
    "token, message",
    [
        ("", "holds no squad"),
        ("!!!!", "characters a share code never has"),
        ("AAAA", "too short"),
        (_token({"k": "squad"}, version=9), "newer version of the app"),
        (_token({"k": "squad"}, version=0), "not a Table Companion share code"),
        (_token({"k": "squad", "s": "toy", "d": {"u": []}}, crc=1), "does not match its checksum"),
        (_token({"k": "other"}), "neither a squad nor a game"),
        (_token({"k": "squad", "s": "toy", "d": {"u": [["u1", [1, 2]]]}}), "unit 1 cannot be read"),
        (_token({"k": "squad", "s": "nope", "d": {"u": []}}), "cannot open"),
        ("A" * (share.MAX_TOKEN + 1), "too long"),
    ],
)
def test_bad_tokens_get_a_clear_message(token: str, message: str) -> None:
    with pytest.raises(share.ShareError, match=message):
        share.decode(token)


def _raw_token(raw: bytes, version: int = share.FORMAT) -> str:
    """A well-formed token around any bytes (the checksum right)."""
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = deflate.compress(raw) + deflate.flush()
    head = bytes([version]) + zlib.crc32(raw).to_bytes(4, "big")
    return base64.urlsafe_b64encode(head + body).decode().rstrip("=")


def _inside(token: str) -> bytes:
    """The JSON text a token carries, read by hand (not by the code under test)."""
    blob = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    return zlib.decompressobj(-15).decompress(blob[5:])


GAME = {"id": "g", "system": "toy", "sides": [{"name": "A", "units": []}]}


@pytest.mark.parametrize(
    "token, message",
    [
        (_raw_token(b"{not json"), "its contents are not readable"),
        (_token({"k": "squad", "s": 5, "d": {"u": []}}), "it names no rule system"),
        (_token({"k": "squad", "s": "toy"}), "its squad is incomplete"),
        (_token({"k": "squad", "s": "toy", "d": [1]}), "its squad is incomplete"),
        (_token({"k": "squad", "s": "toy", "d": {"u": "x"}}), "its squad is incomplete"),
        (
            _token({"k": "squad", "s": "toy", "d": {"u": [], "l": 0}}),
            r"^This link is damaged: limit: Input should be greater than or equal to 1\.$",
        ),
        (_token({"k": "game", "s": "toy", "d": {"id": "g"}}), "its game cannot be read"),
        (_token({"k": "game", "s": "gunframe", "d": GAME}), "its game is for another rule system"),
    ],
)
def test_tokens_with_damaged_contents_get_a_clear_message(token: str, message: str) -> None:
    with pytest.raises(share.ShareError, match=message):
        share.decode(token)


def test_a_token_of_exactly_the_longest_length_is_read_not_refused_as_too_long() -> None:
    with pytest.raises(share.ShareError, match="too long"):
        share.decode("A" * (share.MAX_TOKEN + 1))
    with pytest.raises(share.ShareError, match="not a Table Companion share code"):
        share.decode("A" * share.MAX_TOKEN)  # version byte 0


def test_the_shortest_token_is_six_bytes() -> None:
    five = base64.urlsafe_b64encode(bytes([share.FORMAT, 0, 0, 0, 0])).decode().rstrip("=")
    with pytest.raises(share.ShareError, match="too short"):
        share.decode(five)
    # six: an empty deflate stream (0x03) whose checksum (0) matches, holding no JSON
    six = base64.urlsafe_b64encode(bytes([share.FORMAT, 0, 0, 0, 0, 3])).decode().rstrip("=")
    with pytest.raises(share.ShareError, match="its contents are not readable"):
        share.decode(six)


def test_contents_of_exactly_the_largest_size_open() -> None:
    body = b'{"k":"squad","s":"toy","d":{"n":"Reds","u":[]}}'
    padded = body + b" " * (share.MAX_JSON - len(body))
    opened = share.decode(_raw_token(padded))
    assert opened.squad is not None and opened.squad.name == "Reds"
    with pytest.raises(share.ShareError, match="more than a squad or game could"):
        share.decode(_raw_token(padded + b" "))


def test_squad_tokens_are_compact() -> None:
    """Names travel as UTF-8, not escapes; units keyed u1, u2... in order carry no key."""
    s = squad(unit("u1", "Grünt ★"), unit("x9"), unit("u3"))
    token = share.encode_squad(s)
    inside = _inside(token)
    assert json.loads(inside) == {
        "k": "squad",
        "s": "toy",
        "d": {"n": "Reds", "u": [["Grünt ★", 3, 2], ["x9", ["Grunt", 3, 2]], ["Grunt", 3, 2]]},
    }
    assert "Grünt ★".encode() in inside
    assert share.decode(token).squad == s.model_copy(update={"id": "shared"})


def test_a_deflate_bomb_is_refused() -> None:
    token = _token({"k": "squad", "s": "toy", "d": {"n": "x" * (share.MAX_JSON + 10), "u": []}})
    assert len(token) < 10_000
    with pytest.raises(share.ShareError, match="more than a squad"):
        share.decode(token)


def test_the_api_reports_a_damaged_link_as_an_error() -> None:
    reply = api.call("share.decode", {"token": "AAAA"})
    assert reply["ok"] is False
    assert reply["error"]["problems"][0]["field"] == "token"


def test_a_game_travels_whole() -> None:
    game = start()
    back = share.decode(share.encode_game(game))
    assert back.kind == "game"
    assert back.game == game


def test_qr_code_of_a_link() -> None:
    reply = api.call("share.qr", {"text": "http://127.0.0.1:8000/#/open/" + "A" * 300})
    assert reply["ok"]
    svg = reply["result"]["svg"]
    # A standalone SVG document (an <img> draws nothing without the namespace)...
    assert svg.startswith("<svg ") and 'xmlns="http://www.w3.org/2000/svg"' in svg
    # ...that decodes back to the exact text.
    assert decode_svg(svg) == ["http://127.0.0.1:8000/#/open/" + "A" * 300]


@pytest.mark.parametrize("length", [2954, 4829, 20_000])
def test_a_link_too_long_for_a_qr_code_is_answered_in_words(length: int) -> None:
    """A QR code holds 2,953 bytes at most: a longer link (a long game's) gets a plain message, not a
    validation error, up to the seam's limit."""
    reply = api.call("share.qr", {"text": "h" * length})
    assert reply["error"]["message"] == (
        f"This link is too long for a QR code ({length:,} characters; a code holds 2,953): "
        "copy it or use Share instead."
    )
    assert api.call("share.qr", {"text": "h" * 2953})["ok"]


# --- games ------------------------------------------------------------------------------


def start() -> Game:
    reds = squad(unit("u1", "Red One", hp=3, dice=3), unit("u2", "Red Two"))
    blues = squad(unit("u1", "Blue One", hp=2, dice=1), name="Blues")
    return new_game("g1", "Test", [("Red", reds), ("Blue", blues)])


def test_a_new_game_has_fresh_units_and_resources() -> None:
    game = start()
    assert [len(s.units) for s in game.sides] == [2, 1]
    assert game.sides[0].units[0].state.max_damage == 3
    assert game.sides[1].resources == {"command": 2}
    assert game.log[0].kind == "start"


def test_an_action_with_typed_dice_is_applied_and_logged() -> None:
    game = act(start(), "shoot", {"attacker": "0/u1", "target": "1/u1"}, TypedDice([4, 1, 6]))
    target = game.sides[1].units[0].state
    assert (target.damage, target.destroyed) == (2, True)
    assert game.log[-1].text == "Red One shoots Blue One: 2 damage"


def test_an_action_asks_for_the_dice_it_still_needs() -> None:
    with pytest.raises(NeedMoreDice) as need:
        act(start(), "shoot", {"attacker": "0/u1", "target": "1/u1", "bonus": 1}, TypedDice([4]))
    assert need.value.needed == 3


def test_any_number_of_steps_undo_and_redo() -> None:
    game = start()
    states = [game]
    game = act(game, "shoot", {"attacker": "0/u2", "target": "1/u1"}, TypedDice([4, 1]))
    states.append(game)
    game = adjust(game, [Change(path=["sides", 0, "resources", "command"], value=5)])
    states.append(game)
    game = next_round(game)
    states.append(game)
    assert game.round == 2
    for expected in reversed(states[:-1]):
        game = step_back(game)
        assert game.sides == expected.sides
        assert game.round == expected.round
    with pytest.raises(ValueError, match="nothing to undo"):
        step_back(game)
    for expected in states[1:]:
        game = redo(game)
        assert game.sides == expected.sides
    with pytest.raises(ValueError, match="nothing to redo"):
        redo(game)


def test_undo_of_an_event_that_changes_one_path_twice_restores_the_first_value() -> None:
    """Undo replays an event's old values last change first; redo replays them first to last."""
    game = start()
    damage = ["sides", 1, "units", 0, "state", "damage"]
    twice = [Change(path=damage, value=1), Change(path=damage, value=2), Change(path=["round"], value=3)]
    game = adjust(game, twice)
    assert game.log[-1].before == [0, 1, 1]
    assert (game.sides[1].units[0].state.damage, game.round) == (2, 3)
    back = undo(game)
    assert (back.sides[1].units[0].state.damage, back.round) == (0, 1)
    assert back.sides == start().sides
    again = redo(back)
    assert (again.sides[1].units[0].state.damage, again.round) == (2, 3)
    assert again == game


def test_a_change_cannot_reach_into_the_log_or_move_the_cursor() -> None:
    """The log is set aside while a step's changes are made: an adjustment may not rewrite history."""
    game = adjust(start(), [Change(path=["round"], value=2)])
    with pytest.raises(ValueError, match="only sides, round, options and state can be adjusted"):
        adjust(game, [Change(path=["log", 0, "text"], value="forged")])
    # below the adjust guard, where actions' changes are applied, too
    with pytest.raises(ValueError, match=r"no value at \['log', 0, 'text'\]"):
        record(game, "action", "forged", [Change(path=["log", 0, "text"], value="forged")])
    with pytest.raises(ValueError, match="a change cannot reach into the log"):
        record(game, "action", "moved", [Change(path=["cursor"], value=1)])
    assert undo(game).log == game.log and undo(game).cursor == game.cursor - 1


def test_a_new_step_after_undo_drops_the_undone_ones() -> None:
    game = adjust(start(), [Change(path=["round"], value=4)])
    game = undo(game)
    game = adjust(game, [Change(path=["round"], value=6)])
    assert [e.kind for e in game.log] == ["start", "adjust"]
    assert game.round == 6


def test_manual_adjustments_reach_anything_tracked_but_nothing_else() -> None:
    game = adjust(start(), [Change(path=["sides", 1, "units", 0, "state", "conditions"], value=["pinned"])])
    assert game.sides[1].units[0].state.conditions == ["pinned"]
    assert game.log[-1].kind == "adjust"
    game = adjust(game, [Change(path=["state", "mission"], value="Hold the bridge")])
    assert (game.state.mission, undo(game).state.mission) == ("Hold the bridge", "")
    with pytest.raises(ValueError, match=r"^only sides, round, options and state can be adjusted$"):
        adjust(game, [Change(path=["id"], value="hijack")])
    reply = api.call(
        "game.adjust",
        {"game": game.model_dump(mode="json"), "changes": [{"path": ["sides", 9, "units"], "value": []}]},
    )
    assert reply["ok"] is False


def test_odds_come_from_the_same_pool_as_the_roll() -> None:
    reply = api.call(
        "game.odds",
        {
            "game": start().model_dump(mode="json"),
            "action": "shoot",
            "input": {"attacker": "0/u1", "target": "1/u1"},
        },
    )
    damage = reply["result"]["tables"]["damage"]
    assert [r["exactly"] for r in damage["rows"]] == ["1/8", "3/8", "3/8", "1/8"]
    assert reply["result"]["facts"]["destroyed"] == 0.5


def test_game_act_through_the_api_with_typed_faces() -> None:
    game = start().model_dump(mode="json")
    args = {"game": game, "action": "shoot", "input": {"attacker": "0/u2", "target": "1/u1"}}
    need = api.call("game.act", {**args, "faces": [5]})["result"]
    assert need["complete"] is False
    assert need["need"]["count"] == 1
    done = api.call("game.act", {**args, "faces": [5, 5]})["result"]
    assert done["game"]["sides"][1]["units"][0]["state"]["destroyed"] is True
    too_many = api.call("game.act", {**args, "faces": [5, 5, 5]})
    assert "remove 1" in too_many["error"]["message"]


def test_a_decision_after_the_roll_is_asked_with_the_option_the_odds_assume() -> None:
    """A system may ask a player after the dice are down (NeedChoice); the option its odds assume is
    marked (Choice.assumed), and answering re-runs the same dice to the end, as one step of the log."""
    game = start().model_dump(mode="json")
    args = {"game": game, "action": "shoot", "input": {"attacker": "0/u1", "target": "1/u1", "dive": "ask"}}
    ask = api.call("game.act", {**args, "faces": [4, 1, 6]})["result"]
    assert ask["complete"] is False and ask["need"] is None
    assert ask["ask"]["field"] == "dive"
    assert [(o["value"], o["label"], o["assumed"]) for o in ask["ask"]["options"]] == [
        ("no", "Stand: 2 damage", True),
        ("yes", "Dive: 1 damage, pinned", False),
    ]
    args["input"] = {**args["input"], "dive": "yes"}
    done = api.call("game.act", {**args, "faces": [4, 1, 6]})["result"]
    target = done["game"]["sides"][1]["units"][0]["state"]
    assert (target["damage"], target["conditions"], target["destroyed"]) == (1, ["pinned"], False)
    assert undo(Game.model_validate(done["game"])).sides == start().sides
    # the odds are those of the assumed answer: 3 dice on 4+, every success a point of damage
    odds = api.call("game.odds", {**args, "input": {**args["input"], "dive": "ask"}})["result"]
    assert [r["exactly"] for r in odds["tables"]["damage"]["rows"]] == ["1/8", "3/8", "3/8", "1/8"]


# --- saved data ---------------------------------------------------------------------------


def test_nothing_saved_yet_is_an_empty_store() -> None:
    assert storage.load(None).store == storage.Store()


def test_unreadable_items_are_set_aside_and_the_rest_kept() -> None:
    good = squad(unit("u1")).model_dump(mode="json")
    loaded = storage.load(
        {"schema_version": storage.STORE_SCHEMA, "squads": [good, {"name": 3}], "games": "oops"}
    )
    assert [s.name for s in loaded.store.squads] == ["Reds"]
    assert [a.kind for a in loaded.set_aside] == ["squads", "games"]
    assert loaded.set_aside[0].raw == {"name": 3}
    assert "set aside" in loaded.notes[0]


def test_a_newer_save_is_left_untouched() -> None:
    loaded = storage.load({"schema_version": storage.STORE_SCHEMA + 1, "squads": [{}]})
    assert loaded.readonly
    assert loaded.store.squads == []
    assert "newer version" in loaded.notes[0]


def test_older_saves_are_migrated_step_by_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """A store without a version (schema 0) is brought to the current one by MIGRATIONS."""

    def from_0(data: dict[str, Any]) -> dict[str, Any]:
        squads = [{**{k: v for k, v in s.items() if k != "uid"}, "id": s["uid"]} for s in data["squads"]]
        return {"squads": squads}

    monkeypatch.setitem(storage.MIGRATIONS, 0, from_0)
    old = squad(unit("u1")).model_dump(mode="json")
    old["uid"] = old.pop("id")
    loaded = storage.load({"squads": [old]})
    assert loaded.store.squads[0].id == "s1"
    assert loaded.notes == [f"Saved data was updated to format {n}." for n in (1, 2, 3)]


def test_a_save_with_no_way_forward_is_set_aside() -> None:
    loaded = storage.load({"schema_version": 0, "squads": []})
    assert loaded.set_aside[0].kind == "store"


def test_a_saved_game_round_trips_through_the_store() -> None:
    game = start()
    loaded = storage.load({"schema_version": 1, "games": [game.model_dump(mode="json")]})
    assert loaded.store.games == [game]


def test_describe_gives_the_schemas_the_interface_draws() -> None:
    reply = api.call("system.describe", {"system": "toy"})["result"]
    assert reply["profile_schema"]["properties"]["hp"]["maximum"] == 20
    shoot = reply["actions"][0]
    assert shoot["input_schema"]["properties"]["attacker"]["ui"] == "own-unit"
    assert shoot["has_odds"]


def test_an_action_offers_the_acting_units_own_choices() -> None:
    """game.picks: what the acting unit itself offers for a pick field, greyed with the reason when it
    cannot be used now; the sheet's layout names the field (flow.picks)."""
    shoot = api.call("system.describe", {"system": "toy"})["result"]["actions"][0]
    assert shoot["flow"]["picks"] == ["mode"]
    game = start()
    reply = api.call("game.picks", {"game": game.model_dump(mode="json"), "action": "shoot", "actor": "0/u1"})
    assert reply["result"]["fields"] == {
        "mode": [
            {"value": "aimed", "label": "Aimed", "detail": "3 dice", "unavailable": ""},
            {"value": "burst", "label": "Burst", "detail": "4 dice", "unavailable": ""},
        ]
    }
    # A Pinned unit cannot burst: the choice stays, greyed, with the reason; the action refuses it too.
    pinned = adjust(game, [Change(path=["sides", 0, "units", 0, "state", "conditions"], value=["pinned"])])
    args = {"game": pinned.model_dump(mode="json"), "action": "shoot", "actor": "0/u1"}
    burst = api.call("game.picks", args)["result"]["fields"]["mode"][1]
    assert burst == {
        "value": "burst",
        "label": "Burst",
        "detail": "4 dice",
        "unavailable": "no burst while Pinned",
    }
    with pytest.raises(ValueError, match="no burst while Pinned"):
        act(pinned, "shoot", {"attacker": "0/u1", "target": "1/u1", "mode": "burst"}, TypedDice([6] * 4))
    # A burst rolls one die more than the unit's own.
    done = act(
        game, "shoot", {"attacker": "0/u1", "target": "1/u1", "mode": "burst"}, TypedDice([1, 1, 1, 6])
    )
    assert done.log[-1].text == "Red One shoots Blue One: 1 damage"
    # Another unit offers its own numbers; an unknown unit is refused in plain words.
    other = api.call("game.picks", {**args, "actor": "1/u1"})["result"]["fields"]["mode"]
    assert [p["detail"] for p in other] == ["1 dice", "2 dice"]
    refused = api.call("game.picks", {**args, "actor": "1/u9"})
    assert refused["error"]["message"] == "no unit '1/u9'"


# --- the game layer's refusals and log texts -------------------------------------------------------


@pytest.mark.parametrize(
    ("ref", "message"),
    [("2/u1", "no side for unit '2/u1'"), ("x/u1", "no side for unit 'x/u1'"), ("1/u2", "no unit '1/u2'")],
)
def test_unknown_units_are_named_in_the_refusal(ref: str, message: str) -> None:
    game = start()
    assert game.unit("1/u1")[:2] == (1, 0)
    with pytest.raises(ValueError, match=message):
        game.unit(ref)


@pytest.mark.parametrize(
    ("path", "message"),
    [
        ([], "a change needs a path"),
        (["sides", 2], r"no item 2 at \['sides', 2\]"),
        (["sides", -1], r"no item -1 at"),
        (["sides", "x"], r"no item 'x' at"),
        (["options", 3], r"no key 3 at \['options', 3\]"),
        (["round", "x"], r"cannot set \['round', 'x'\]"),
        (["sides", 0, "nothing", "x"], r"no value at \['sides', 0, 'nothing', 'x'\]"),
    ],
)
def test_a_change_to_a_path_the_game_does_not_have_is_refused(path: list[str | int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        record(start(), "adjust", "bad", [Change(path=path, value=1)])


def test_the_last_side_can_be_changed_and_a_new_option_undone() -> None:
    game = adjust(start(), [Change(path=["sides", 1, "name"], value="Greens")])
    assert game.sides[1].name == "Greens"
    game = adjust(game, [Change(path=["options", "house_rule"], value=True)], text="House rule on")
    assert game.log[-1].before == [None] and game.log[-1].text == "House rule on"
    assert game.log[-1].absent == [0]  # the key was not there: undo removes it (issue 19)
    assert undo(game).options == {}


def test_an_item_of_a_list_can_be_changed_from_the_first() -> None:
    conditions = ["sides", 1, "units", 0, "state", "conditions"]
    game = adjust(start(), [Change(path=conditions, value=["pinned", "shaken"])])
    game = adjust(game, [Change(path=[*conditions, 0], value="hidden")])
    assert game.sides[1].units[0].state.conditions == ["hidden", "shaken"]
    assert undo(game).sides[1].units[0].state.conditions == ["pinned", "shaken"]


def test_log_texts_of_adjustments_and_rounds() -> None:
    game = adjust(
        start(), [Change(path=["round"], value=4), Change(path=["sides", 0, "resources", "command"], value=1)]
    )
    assert game.log[-1].text == "Manual change: round = 4, sides.0.resources.command = 1"
    game = next_round(game)
    assert game.log[-1].text == "Round 5 begins" and game.round == 5


def test_nothing_to_undo_in_an_empty_log() -> None:
    game = start().model_copy(update={"log": [], "cursor": 0})
    with pytest.raises(ValueError, match="nothing to undo"):
        undo(game)


def test_unknown_actions_and_mixed_systems_are_refused() -> None:
    with pytest.raises(ValueError, match="Toy has no action 'fly'"):
        act(start(), "fly", {}, TypedDice([]))
    gun = Squad(id="s2", name="Guns", system="gunframe", units=[])
    with pytest.raises(ValueError, match="every side of a game must use the same rule system"):
        new_game("g", "Mixed", [("Red", squad(unit("u1"))), ("Blue", gun)])


def test_odds_of_an_action_without_odds_are_refused() -> None:
    reply = api.call(
        "game.odds",
        {
            "game": table.start([table.mech("Ann")]).model_dump(mode="json"),
            "action": "activate",
            "input": {"unit": "0/a"},
        },
    )
    assert reply["ok"] is False and reply["error"]["message"].endswith("has no odds to show")
