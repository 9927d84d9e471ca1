"""core.api: the seam answers every request with data, never a traceback."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import api


def ask(op: str, args: Any = None) -> dict[str, Any]:
    reply: dict[str, Any] = json.loads(api.handle(json.dumps({"op": op, "args": args})))
    return reply


def test_meta_lists_the_five_systems() -> None:
    reply = ask("meta")
    assert reply["ok"]
    assert [s["id"] for s in reply["result"]["systems"]] == [
        "gundam_skirmish",
        "gunframe",
        "ms_battles",
        "mechastellar",
        "skirmishers",
    ]


def test_odds_of_a_plain_pool() -> None:
    reply = ask("dice.odds", {"attack": {"dice": 2, "success_on": 4, "crit_on": 6}})
    net = reply["result"]["net"]
    assert [r["exactly"] for r in net["rows"]] == ["1/4", "1/2", "1/4"]
    assert [r["at_least"] for r in net["rows"]] == ["1/1", "3/4", "1/4"]
    assert net["mean"] == "1/1"
    assert reply["result"]["defense_crits"] is None


def test_opposed_odds_of_one_die_each() -> None:
    reply = ask(
        "dice.odds", {"attack": {"dice": 1, "success_on": 4}, "defense": {"dice": 1, "success_on": 4}}
    )
    assert [r["exactly"] for r in reply["result"]["net"]["rows"]] == ["3/4", "1/4"]


@pytest.mark.parametrize(
    "pool, message",
    [
        ({"dice": 0, "success_on": 4}, "greater than or equal to 1"),
        ({"dice": 200, "success_on": 4}, "less than or equal to 60"),
        ({"dice": 3, "success_on": 7}, "a d6 cannot succeed on 7+: choose 1+ to 6+"),
        ({"dice": 3, "success_on": 4, "crit_on": 3}, "must be from 4+"),
        ({"dice": 3, "sides": 7, "success_on": 4}, "dice must be one of"),
        ({"dice": 3, "success_on": 4, "reroll": "faces", "reroll_faces": [9]}, "has no face 9"),
        ({"dice": 3, "success_on": 4, "reroll": "faces"}, "choose which faces"),
        ({"dice": "many", "success_on": 4}, "valid integer"),
    ],
)
def test_impossible_pools_get_a_clear_message(pool: dict[str, Any], message: str) -> None:
    reply = ask("dice.odds", {"attack": pool})
    assert reply["ok"] is False
    assert reply["error"]["code"] == "invalid"
    assert message in reply["error"]["message"]
    assert reply["error"]["problems"][0]["field"].startswith("attack")


def test_roll_with_typed_faces_asks_for_what_is_missing() -> None:
    pool = {"dice": 3, "success_on": 4, "reroll": "failures"}
    reply = ask("dice.roll", {"attack": pool, "faces": [1, 5]})
    assert reply["result"] == {
        "complete": False,
        "roll": None,
        "need": {"count": 1, "sides": 6, "purpose": "attack"},
    }
    reply = ask("dice.roll", {"attack": pool, "faces": [1, 5, 6]})
    assert reply["result"]["need"] == {"count": 1, "sides": 6, "purpose": "attack rerolls"}
    reply = ask("dice.roll", {"attack": pool, "faces": [1, 5, 6, 4]})
    assert reply["result"]["complete"]
    assert reply["result"]["roll"]["net"] == 3


def test_roll_refuses_faces_outside_the_die_and_extra_faces() -> None:
    pool = {"dice": 2, "success_on": 4}
    reply = ask("dice.roll", {"attack": pool, "faces": [3, 8]})
    assert reply["error"]["message"] == "a d6 has no face 8 (attack)"
    reply = ask("dice.roll", {"attack": pool, "faces": [3, 4, 5]})
    assert "remove 1" in reply["error"]["message"]


def test_seeded_rolls_repeat() -> None:
    """A seed always gives the same faces (a question answered mid-action re-rolls with the same seed),
    resolved exactly as the same faces typed in; another seed gives other faces."""
    pool = {"dice": 8, "success_on": 4}
    seeded = ask("dice.roll", {"attack": pool, "seed": 7})["result"]
    faces = [d["first"] for d in seeded["roll"]["attack"]["dice"]]
    assert faces == [3, 2, 4, 6, 1, 1, 5, 1]
    assert seeded["roll"]["net"] == 3
    assert ask("dice.roll", {"attack": pool, "seed": 7})["result"] == seeded
    assert ask("dice.roll", {"attack": pool, "faces": faces})["result"] == seeded
    other = ask("dice.roll", {"attack": pool, "seed": 8})["result"]
    assert [d["first"] for d in other["roll"]["attack"]["dice"]] != faces


@pytest.mark.parametrize(
    "raw, code",
    [
        ("not json", "bad_request"),
        ("[1, 2]", "bad_request"),
        ('{"args": {}}', "bad_request"),
        ('{"op": "nope"}', "unknown_op"),
        ('{"op": 5}', "unknown_op"),
        ('{"op": "dice.odds", "args": [1]}', "invalid"),
        ('{"op": "dice.odds", "args": {"attack": {"dice": 1, "success_on": 4}, "extra": 1}}', "invalid"),
    ],
)
def test_malformed_requests_are_errors_as_data(raw: str, code: str) -> None:
    reply = json.loads(api.handle(raw))
    assert reply["ok"] is False
    assert reply["error"]["code"] == code


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-300, 300) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
pool_like = st.fixed_dictionaries(
    {},
    optional={
        "dice": json_values | st.integers(-5, 70),
        "sides": st.sampled_from([0, 3, 6, 7, 10, 20]),
        "success_on": st.integers(-2, 22),
        "crit_on": st.none() | st.integers(-2, 22),
        "crit_extra": st.integers(-1, 5),
        "reroll": st.sampled_from(["none", "failures", "faces", "all"]),
        "reroll_faces": st.lists(st.integers(-1, 22), max_size=4),
    },
)


@given(
    op=st.sampled_from(["dice.odds", "dice.roll", "meta"]),
    attack=pool_like,
    defense=st.none() | pool_like,
    faces=st.none() | st.lists(st.integers(-1, 22), max_size=30),
    junk=json_values,
)
@settings(max_examples=200, deadline=None)
def test_no_request_makes_the_seam_raise(op: str, attack: Any, defense: Any, faces: Any, junk: Any) -> None:
    for args in ({"attack": attack, "defense": defense, "faces": faces}, junk):
        reply = json.loads(api.handle(json.dumps({"op": op, "args": args})))
        assert isinstance(reply["ok"], bool)
        if not reply["ok"]:
            assert reply["error"]["code"] in {"invalid", "bad_request"}
            assert reply["error"]["message"]


def test_schemas_cover_every_operation() -> None:
    schemas = api.schemas()
    assert set(schemas) == set(api.OPERATIONS)
    assert "attack" in schemas["dice.odds"]["args"]["properties"]
