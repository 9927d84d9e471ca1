"""The core as the browser gets it (compiled wheels, trimmed stdlib) inside real Pyodide.

Node.js boots dist/pyodide with our lock file, and every request of a corpus is
answered both there and by CPython: the answers must be identical, so the
browser build cannot drift from what the CPython tests check.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from core import api

RUNNER = Path(__file__).parent / "pyodide_runner.mjs"

POOLS: list[dict[str, Any]] = [
    {"dice": 1, "success_on": 4},
    {"dice": 6, "success_on": 4, "crit_on": 6},
    {"dice": 12, "success_on": 4, "crit_on": 6, "reroll": "failures"},
    {"dice": 8, "success_on": 4, "crit_on": 6, "reroll": "faces", "reroll_faces": [1]},
    {"dice": 5, "sides": 10, "success_on": 7, "crit_on": 10, "crit_extra": 1},
    {"dice": 60, "sides": 20, "success_on": 11},
]
CORPUS: list[dict[str, Any]] = [
    {"op": "meta"},
    *({"op": "dice.odds", "args": {"attack": p}} for p in POOLS),
    *({"op": "dice.odds", "args": {"attack": p, "defense": q}} for p in POOLS[:4] for q in POOLS[:3]),
    *({"op": "dice.roll", "args": {"attack": p, "seed": 5}} for p in POOLS),
    {"op": "dice.roll", "args": {"attack": POOLS[2], "faces": [1, 2, 3]}},
    {"op": "dice.roll", "args": {"attack": POOLS[0], "faces": [9]}},
    {"op": "dice.odds", "args": {"attack": {"dice": 200, "success_on": 7}}},
    {"op": "nope"},
]


def _layer_corpus() -> list[dict[str, Any]]:
    """Squads, share links and a game of GUNFRAME, built by asking CPython's engine."""
    catalogue = api.call("system.describe", {"system": "gunframe"})["result"]["catalogue"]
    units = [{"key": f"u{i + 1}", "profile": c["profile"]} for i, c in enumerate(catalogue[:5])]
    squad = {"id": "s", "name": "Corpus", "system": "gunframe", "limit": 100, "units": units}
    token = api.call("share.encode", {"squad": squad})["result"]["token"]
    game = api.call(
        "game.new",
        {"id": "g", "name": "G", "sides": [{"name": "A", "squad": squad}, {"name": "B", "squad": squad}]},
    )["result"]
    attack = {"attacker": "0/u1", "target": "1/u2", "weapon": "close"}
    played = api.call("game.act", {"game": game, "action": "attack", "input": attack, "seed": 3})["result"][
        "game"
    ]
    return [
        {"op": "system.describe", "args": {"system": "gunframe"}},
        {"op": "squad.check", "args": {"squad": squad}},
        {"op": "unit.check", "args": {"system": "gunframe", "profile": catalogue[7]["profile"]}},
        {"op": "share.encode", "args": {"squad": squad}},
        {"op": "share.decode", "args": {"token": token}},
        {"op": "share.decode", "args": {"token": token[:-4]}},
        {"op": "share.qr", "args": {"text": "http://127.0.0.1/#/open/" + token}},
        {
            "op": "game.new",
            "args": {
                "id": "g",
                "name": "G",
                "sides": [{"name": "A", "squad": squad}, {"name": "B", "squad": squad}],
            },
        },
        {"op": "game.odds", "args": {"game": game, "action": "attack", "input": attack}},
        {
            "op": "game.act",
            "args": {"game": game, "action": "attack", "input": attack, "faces": [6, 6, 6, 6, 1]},
        },
        {"op": "game.act", "args": {"game": game, "action": "attack", "input": attack, "seed": 3}},
        {"op": "game.undo", "args": {"game": played}},
        {"op": "game.round", "args": {"game": played}},
        {"op": "store.load", "args": {"data": {"schema_version": 1, "squads": [squad], "games": [played]}}},
        {"op": "store.load", "args": {"data": {"schema_version": 99}}},
    ]


def _ms_battles_corpus() -> list[dict[str, Any]]:
    """A Mobile Suit Battles game from the sample decks: setup, draw, holdings, odds."""
    samples = api.call("system.describe", {"system": "ms_battles"})["result"]["catalogue"]
    squads = [
        {
            "id": f"s{i}",
            "name": f"S{i}",
            "system": "ms_battles",
            "units": [{"key": "u1", "profile": c["profile"]}],
        }
        for i, c in enumerate(samples[:2])
    ]
    game = api.call(
        "game.new",
        {
            "id": "g",
            "name": "G",
            "sides": [{"name": "A", "squad": squads[0]}, {"name": "B", "squad": squads[1]}],
        },
    )["result"]
    ready = api.call("game.act", {"game": game, "action": "setup", "input": {}, "seed": 4})["result"]["game"]
    drawn = api.call("game.act", {"game": ready, "action": "draw", "input": {}, "seed": 5})["result"]["game"]
    return [
        {"op": "system.describe", "args": {"system": "ms_battles"}},
        {"op": "squad.check", "args": {"squad": squads[0]}},
        {"op": "share.encode", "args": {"squad": squads[1]}},
        {"op": "game.act", "args": {"game": game, "action": "setup", "input": {}, "seed": 4}},
        {
            "op": "game.odds",
            "args": {"game": ready, "action": "draw", "input": {"unit": "0/u1", "watch_zone": "mid"}},
        },
        {"op": "game.views", "args": {"game": drawn}},
        *_remote_corpus(drawn),
    ]


def _remote_corpus(drawn: dict[str, Any]) -> list[dict[str, Any]]:
    """Side 1 keeps its cards on another phone: request, answer, apply."""
    asked = api.call("remote.request", {"game": drawn, "side": 1})["result"]
    hand = [item["id"] for item in asked["request"]["picks"][0]["section"]["items"][:2]]
    chosen = [{"pick": 0, "items": hand}]
    token = api.call("remote.answer", {"request": asked["request"], "chosen": chosen})["result"]["token"]
    answer = api.call("share.decode", {"token": token})["result"]["answer"]
    return [
        {"op": "remote.request", "args": {"game": drawn, "side": 1}},
        {"op": "remote.answer", "args": {"request": asked["request"], "chosen": chosen}},
        {"op": "remote.apply", "args": {"game": drawn, "answer": answer, "seed": 2}},
    ]


def _tool(name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"system": "ms_battles", "tool": name, "args": args}


def _ms_builder_corpus() -> list[dict[str, Any]]:
    """The Mobile Suit Battles deck builder: parts, picks to a suit (legal, short, bad), a suit to picks."""
    samples = api.call("system.describe", {"system": "ms_battles"})["result"]["catalogue"]
    choice = api.call("system.tool", _tool("split", samples[0]["profile"]))["result"]
    own = {"id": "own-1", "name": "Flare", "type": "booster", "initiative": 6, "keywords": ["guard_break"]}
    return [
        {"op": "system.tool", "args": _tool("parts", {})},
        {"op": "system.tool", "args": _tool("split", samples[1]["profile"])},
        {"op": "system.tool", "args": _tool("assemble", choice)},
        {"op": "system.tool", "args": _tool("assemble", {**choice, "boosters": [], "own_cards": [own]})},
        {"op": "system.tool", "args": _tool("assemble", {**choice, "boosters": ["SB-1"]})},
        {"op": "system.tool", "args": _tool("card", own)},
        {"op": "system.tool", "args": _tool("card", {**own, "initiative": 99})},
    ]


def _gundam_corpus() -> list[dict[str, Any]]:
    """A Gundam Skirmish game from the sample units: a shot's odds and roll, close combat odds."""
    samples = {
        c["id"]: c["profile"]
        for c in api.call("system.describe", {"system": "gundam_skirmish"})["result"]["catalogue"]
    }
    squads = [
        {
            "id": "a",
            "name": "A",
            "system": "gundam_skirmish",
            "units": [{"key": "u1", "profile": samples["lancer"]}],
        },
        {
            "id": "b",
            "name": "B",
            "system": "gundam_skirmish",
            "units": [{"key": "u1", "profile": samples["trooper"]}],
        },
    ]
    sides = [{"name": "A", "squad": squads[0]}, {"name": "B", "squad": squads[1]}]
    game = api.call("game.new", {"id": "g", "name": "G", "sides": sides})["result"]
    shot = {"attacker": "0/u1", "target": "1/u1", "weapon": "Beam rifle"}
    fight = {"attacker": "0/u1", "defender": "1/u1"}
    return [
        {"op": "squad.check", "args": {"squad": squads[0]}},
        {"op": "game.odds", "args": {"game": game, "action": "shoot", "input": shot}},
        {"op": "game.act", "args": {"game": game, "action": "shoot", "input": shot, "seed": 3}},
        {"op": "game.odds", "args": {"game": game, "action": "close_combat", "input": fight}},
        {"op": "game.act", "args": {"game": game, "action": "close_combat", "input": fight, "seed": 8}},
        _tool_of("gundam_skirmish", "weapon", {"row": "gatling"}),
    ]


def _skirmishers_corpus() -> list[dict[str, Any]]:
    """A Skirmishers game of the samples: who goes first, a burst's odds and roll, the cards' grids."""
    samples = {
        c["id"]: c["profile"]
        for c in api.call("system.describe", {"system": "skirmishers"})["result"]["catalogue"]
    }

    def squad(n: str, keys: list[str]) -> dict[str, Any]:
        units = [{"key": f"u{i + 1}", "profile": samples[k]} for i, k in enumerate(keys)]
        return {"id": n, "name": n, "system": "skirmishers", "units": units}

    squads = [squad("a", ["red_rifle", "red_scout"]), squad("b", ["blue_armor", "blue_gyro"])]
    sides = [{"name": "A", "squad": squads[0]}, {"name": "B", "squad": squads[1]}]
    game = api.call("game.new", {"id": "g", "name": "G", "sides": sides})["result"]
    first = {"game": game, "action": "first_side", "input": {"first": "first"}, "seed": 1}
    game = api.call("game.act", first)["result"]["game"]
    shot = {"shooter": "0/u1", "target": "1/u2", "range": "long", "cover": 1}
    return [
        {"op": "squad.check", "args": {"squad": squads[1]}},
        {"op": "game.act", "args": first},
        {"op": "game.odds", "args": {"game": game, "action": "fire", "input": shot}},
        {"op": "game.act", "args": {"game": game, "action": "fire", "input": shot, "seed": 4}},
        {"op": "game.views", "args": {"game": game}},
    ]


def _tool_of(system: str, name: str, args: dict[str, Any]) -> dict[str, Any]:
    return {"op": "system.tool", "args": {"system": system, "tool": name, "args": args}}


def _mechastellar_corpus() -> list[dict[str, Any]]:
    """A MechaStellar sample battle: the roll-off, a shot's odds and roll, a clash's odds."""
    info = api.call("system.describe", {"system": "mechastellar"})["result"]
    by_id = {u["id"]: u for u in info["catalogue"]}
    sides = [
        {
            "name": f["name"],
            "squad": {
                "id": f"s{n}",
                "name": f["name"],
                "system": "mechastellar",
                "units": [
                    {"key": f"u{i + 1}", "profile": by_id[k]["profile"]} for i, k in enumerate(f["units"])
                ],
            },
        }
        for n, f in enumerate(info["sample_forces"])
    ]
    game = api.call("game.new", {"id": "g", "name": "G", "sides": sides})["result"]
    ready = api.call("game.act", {"game": game, "action": "roll_off", "input": {}, "faces": [9, 2]})[
        "result"
    ]["game"]
    shot = {"attacker": "0/u1", "target": "1/u1", "weapon": 1, "defense": 0}
    clash = {"attacker": "0/u2", "target": "1/u2", "weapon": 0, "attack_dice": 8, "defender_attack": 3}
    return [
        {"op": "system.describe", "args": {"system": "mechastellar"}},
        {"op": "game.odds", "args": {"game": ready, "action": "shoot", "input": shot}},
        {"op": "game.act", "args": {"game": ready, "action": "shoot", "input": shot, "seed": 3}},
        {"op": "game.odds", "args": {"game": ready, "action": "melee", "input": clash}},
    ]


CORPUS += _layer_corpus() + _ms_battles_corpus() + _ms_builder_corpus() + _gundam_corpus()
CORPUS += _mechastellar_corpus()


def _campaign_corpus() -> list[dict[str, Any]]:
    """A Gundam Skirmish campaign from its first preset: started, a turn begun, its view and odds."""
    described = api.call("campaign.describe", {"system": "gundam_skirmish"})["result"]
    setup = described["data"]["presets"][0]["setup"]
    new = {"id": "c", "system": "gundam_skirmish", "name": "C", "setup": setup, "seed": 4}
    campaign = api.call("campaign.new", new)["result"]["campaign"]
    begun = api.call("campaign.act", {"campaign": campaign, "action": "begin_turn", "seed": 1})["result"][
        "campaign"
    ]
    team = begun["state"]["teams"][0]["key"]
    return [
        {"op": "campaign.describe", "args": {"system": "gundam_skirmish"}},
        {"op": "campaign.new", "args": new},
        {"op": "campaign.view", "args": {"campaign": begun}},
        {"op": "campaign.odds", "args": {"campaign": begun, "action": "event_die", "input": {"team": team}}},
        {
            "op": "campaign.act",
            "args": {"campaign": begun, "action": "event_die", "input": {"team": team}, "seed": 2},
        },
        {"op": "campaign.share", "args": {"campaign": begun}},
    ]


CORPUS += _campaign_corpus() + _skirmishers_corpus()


def strip_timing(reply: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in reply.items() if k != "ms"}


@pytest.fixture(scope="module")
def pyodide_replies(dist: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js is needed to run the core inside Pyodide")
    lines = "\n".join(json.dumps(r) for r in CORPUS) + "\n"
    done = subprocess.run(
        [node, str(RUNNER), str(dist)], input=lines, capture_output=True, text=True, timeout=300, check=False
    )
    if done.returncode:
        errors = [line[:300] for line in done.stderr.splitlines() if "Error" in line and len(line) < 2000]
        pytest.fail("Pyodide runner failed:\n" + "\n".join(errors[-10:]))
    out = [json.loads(line) for line in done.stdout.splitlines()]
    return out[0]["boot"], [o["reply"] for o in out[1:]]


def test_pyodide_boots_python_3_14_with_exactly_our_packages(pyodide_replies: Any) -> None:
    boot, _ = pyodide_replies
    assert boot["python"].startswith("3.14")
    assert {"tablecompanion-core", "pydantic", "pydantic-core"} <= set(boot["loaded"])


def test_every_shipped_module_imports_with_the_trimmed_standard_library(pyodide_replies: Any) -> None:
    """Issue 26: python_stdlib.zip keeps only what the shipped code imports (build.py, STDLIB_ROOTS).
    Every module of the core and of every wheel, imported in the built site's Pyodide, must import:
    a module the trim left out shows here, and the corpus below runs every kind of engine call."""
    boot, _ = pyodide_replies
    assert boot["imports"]["failed"] == {}
    assert boot["imports"]["modules"] > 200  # the core's modules and pydantic's, at least


def test_every_reply_in_pyodide_equals_cpython(pyodide_replies: Any) -> None:
    _, replies = pyodide_replies
    assert len(replies) == len(CORPUS)
    for request, reply in zip(CORPUS, replies, strict=True):
        expected = json.loads(api.handle(json.dumps(request)))
        assert strip_timing(reply) == strip_timing(expected), request
