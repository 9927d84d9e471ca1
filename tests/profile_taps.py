"""CPU time of the engine calls behind the slowest taps (issue 26), in CPython: prints, never fails.

The bench (tests/bench_table.py) times taps in Chromium, in wall time, which on a shared, loaded
machine measures the other processes as much as the app.  This script makes, through
``core.api.handle`` as the page does, the engine calls the game screen makes for a tap, and
counts the CPU time of this process (``time.process_time``): a figure the load hardly moves.

* Gundam Skirmish, the shot of the bench's script: the target picked, then each weapon, cover and
  range tapped, Massed Fire set, each modifier on then off.  A tap's calls are the sheet's
  refresh (game-view.js): game.gates, game.odds of the sheet, then game.odds of every other
  value of each choice row and of each usable weapon (the buttons' own odds).
* Skirmishers: the burst rolled, applied and undone, the background calls before Apply and Undo
  apart (``skirmishers_apply``).
* Mobile Suit Battles: Undo of a drawn hand (game.undo, then game.views of the game it gives),
  and Undo of a resolved card (the same, then the game.act that asks at once whom the next card
  attacks, as the phase's step does).

For the sheets (the shot, the clash) each tap's answer is printed apart too: its first two calls,
the sheet's gates and odds, which the page shows before it asks the buttons' odds in the background.

Each scene runs in a fresh process (nothing remembered from another scene: a player's first tap
after the engine starts), ``runs`` times; the median of each tap is printed, with the worst tap.
To compare two versions on the same machine in the same minutes, copy this file into the tests/ of
the other version's tree (``git archive``) and run it there too.

    .venv/bin/python tests/profile_taps.py [runs]
    .venv/bin/python tests/profile_taps.py --scene gundam_shot --profile   # cProfile of one scene
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


Calls = list[tuple[str, dict[str, Any]]]


def _timed(calls: Calls, first: int = 0) -> tuple[float, float]:
    """CPU ms of the calls, one after another, through the seam (JSON text in and out): in all, and
    of the ``first`` ones alone."""
    from core import answered, api

    requests = [json.dumps({"op": op, "args": args}) for op, args in calls]
    started = time.process_time()
    answer = 0.0
    for n, request in enumerate(requests):
        if n == first:
            answer = (time.process_time() - started) * 1000
        if request == '{"op": "forget", "args": {}}':  # the engine's memory emptied (not timed work)
            answered.forget()
            continue
        json.loads(api.handle(request))  # a refusal (a range the weapon lacks) is an answer too
    done = (time.process_time() - started) * 1000
    return done, answer if first < len(requests) else done


# --- Gundam Skirmish: the bench's shot ---------------------------------------------------------


def _refresh(
    game: dict[str, Any],
    flow: dict[str, Any],
    props: dict[str, Any],
    weapons: list[str],
    inp: dict[str, Any],
    action: str = "shoot",
) -> Calls:
    """The sheet's refresh: its gates, its odds, then each other choice's and weapon's odds."""
    calls: Calls = [("game.gates", {"game": game, "action": action, "input": inp})]
    calls.append(("game.odds", {"game": game, "action": action, "input": inp, "viewer": None}))
    rows = [(name, props[name]["enum"]) for name in flow["choices"]] + [("weapon", weapons)]
    for name, values in rows:
        for value in values:
            if value != inp.get(name):
                other = {**inp, name: value}
                calls.append(("game.odds", {"game": game, "action": action, "input": other, "viewer": None}))
    return calls


def gundam_shot() -> list[tuple[str, Calls]]:
    import bench_table

    from core import api

    game = bench_table.gundam_skirmish()[0].store["games"][0]
    info = bench_table.describe("gundam_skirmish")
    shoot = next(a for a in info["actions"] if a["name"] == "shoot")
    flow, props = shoot["flow"], shoot["input_schema"]["properties"]
    picks = api.call("game.picks", {"game": game, "action": "shoot", "actor": "0/u1"})["result"]["fields"]
    weapons = [p["value"] for p in picks["weapon"] if not p["unavailable"]]
    # The sheet's input as read() builds it: the form's own fields, then the flagged ones.
    state: dict[str, Any] = {
        name: field["default"]
        for name, field in props.items()
        if "default" in field and field["default"] is not None
    }
    state.update({"attacker": "0/u1", "target": "1/u1", "weapon": weapons[0]})
    taps: list[tuple[str, Calls]] = [("pick the target", _refresh(game, flow, props, weapons, dict(state)))]

    def tap(label: str, name: str, value: Any) -> None:
        state[name] = value
        calls = _refresh(game, flow, props, weapons, dict(state))
        gated = api.call("game.gates", {"game": game, "action": "shoot", "input": state})["result"]["fields"]
        lacking = [k for k in gated if k in state and state[k] != props[k].get("default")]
        if lacking:  # as the page does: what the unit lacks goes back to its default, and again
            calls = calls[:1]
            state.update({k: props[k].get("default") for k in lacking})
            calls += _refresh(game, flow, props, weapons, dict(state))
        taps.append((label, calls))

    for weapon in [*weapons, weapons[0]]:
        tap(f"weapon {weapon}", "weapon", weapon)
    for name in flow["choices"]:
        values = props[name]["enum"]
        for value in [*values, values[0]]:
            tap(f"{name} {value}", name, value)
    tap("massed fire 2", "massed_fire", 2)
    for on in (True, False):
        for name in flow["common"]:
            tap(
                f"{name} {'on' if on else 'off'}", name, on if props[name].get("default") is False else not on
            )
    return taps


# --- GUNFRAME: the bench's target picked ------------------------------------------------------


def gunframe_target() -> list[tuple[str, Calls]]:
    """The bench's GUNFRAME attack (the biggest firepower at the most defense): the target picked,
    the sheet's gates and odds, then each other weapon band's odds."""
    import bench_table

    from core import api

    game = bench_table.gunframe()[0].store["games"][0]
    info = bench_table.describe("gunframe")
    attack = next(a for a in info["actions"] if a["name"] == "attack")
    flow, props = attack["flow"], attack["input_schema"]["properties"]
    picks = api.call("game.picks", {"game": game, "action": "attack", "actor": "0/u1"})["result"]["fields"]
    weapons = [p["value"] for p in picks.get("weapon", []) if not p["unavailable"]]
    state: dict[str, Any] = {
        name: field["default"]
        for name, field in props.items()
        if "default" in field and field["default"] is not None
    }
    state.update({"attacker": "0/u1", "target": "1/u1"})
    return [("pick the target", _refresh(game, flow, props, weapons, dict(state), action="attack"))]


# --- Mobile Suit Battles: undo -------------------------------------------------------------------


def _undo(game: dict[str, Any], ask_at_once: bool) -> Calls:
    from core import api

    back = api.call("game.undo", {"game": game})["result"]
    calls: Calls = [("game.undo", {"game": game}), ("game.views", {"game": back, "viewer": None})]
    if ask_at_once:
        calls.append(("game.act", {"game": back, "action": "resolve_card", "input": {}, "seed": 7}))
    return calls


def msb_undo() -> list[tuple[str, Calls]]:
    import bench_table

    from core import api

    draw, resolve = bench_table.ms_battles()
    drawn = bench_table.act(draw.store["games"][0], "draw", {"unit": "0/u1"})
    planned = resolve.store["games"][0]
    asked = api.call("game.act", {"game": planned, "action": "resolve_card", "input": {}, "seed": 7})[
        "result"
    ]["ask"]
    reply = api.call(
        "game.act",
        {
            "game": planned,
            "action": "resolve_card",
            "input": {asked["field"]: asked["options"][0]["value"]},
            "seed": 7,
        },
    )
    resolved = reply["result"]["game"]
    return [("undo a drawn hand", _undo(drawn, False)), ("undo a resolved card", _undo(resolved, True))]


# --- MechaStellar: the Melee Clash -----------------------------------------------------------------


def mechastellar_clash() -> list[tuple[str, Calls]]:
    """The bench's clash: the defender picked, then each split of the attacker's dice tapped; each
    refresh asks the odds of the sheet, then of each other usable weapon and split."""
    import bench_table

    from core import api

    game = bench_table.mechastellar()[0].store["games"][0]
    picks = api.call("game.picks", {"game": game, "action": "melee", "actor": "0/u2"})["result"]["fields"]
    usable = {name: [p["value"] for p in ps if not p["unavailable"]] for name, ps in picks.items()}
    state: dict[str, Any] = {"attacker": "0/u2", "target": "1/u2", **{k: v[0] for k, v in usable.items()}}

    def refresh() -> Calls:
        inp = dict(state)
        calls: Calls = [("game.gates", {"game": game, "action": "melee", "input": inp})]
        calls.append(("game.odds", {"game": game, "action": "melee", "input": inp, "viewer": None}))
        for name, values in usable.items():
            for value in values:
                if value != inp[name]:
                    other = {**inp, name: value}
                    calls.append(
                        ("game.odds", {"game": game, "action": "melee", "input": other, "viewer": None})
                    )
        return calls

    taps = [("pick the defender", refresh())]
    for dice in [*usable["attack_dice"], usable["attack_dice"][0]]:
        state["attack_dice"] = dice
        taps.append((f"attack dice {dice}", refresh()))
    return taps


# --- Skirmishers: the burst rolled, applied and undone ----------------------------------------------


def skirmishers_apply() -> list[tuple[str, Calls]]:
    """The bench's burst (the Machine Gunner at the Blue Power Armor) rolled, applied and undone, with
    the calls the game screen makes for each (game-view.js): the roll (game.act) and, in the
    background while the result is read, the views of the game it would leave; Apply (the views
    again: remembered); after the change, in the background, the game one step back and its views;
    Undo (the undo and the views again: remembered). The background calls are separate "taps" here:
    they run while the player reads, not when a tap waits."""
    import bench_table

    from core import api

    game = bench_table.skirmishers()[0].store["games"][0]
    units = [(s, u) for s, side in enumerate(game["sides"]) for u in side["units"]]
    gunner = next(f"{s}/{u['key']}" for s, u in units if s == 0 and "Machine Gunner" in u["name"])
    armour = next(f"{s}/{u['key']}" for s, u in units if s == 1 and "Power Armor" in u["name"])
    act = {"game": game, "action": "fire", "input": {"shooter": gunner, "target": armour}, "seed": 7}
    rolled = api.call("game.act", act)["result"]["game"]
    back = api.call("game.undo", {"game": rolled})["result"]
    views = [("game.views", {"game": g, "viewer": None}) for g in (rolled, back)]
    return [
        ("roll (game.act)", [("game.act", act)]),
        ("  background: the result's views", views[:1]),
        ("apply (views remembered)", views[:1]),
        ("  background: undo and its views", [("game.undo", {"game": rolled}), views[1]]),
        ("undo (undo and views remembered)", [("game.undo", {"game": rolled}), views[1]]),
        ("the same views, nothing remembered", [("forget", {}), views[0]]),
    ]


#: By scene: how many of a tap's first calls the tap's answer waits for (the sheet's gates and odds;
#: the choice buttons' own odds follow in the background, game-view.js), printed apart.
ANSWERED_BY = {"gunframe_target": 2, "gundam_shot": 2, "mechastellar_clash": 2}

SCENES = {
    "gunframe_target": gunframe_target,
    "gundam_shot": gundam_shot,
    "msb_undo": msb_undo,
    "mechastellar_clash": mechastellar_clash,
    "skirmishers_apply": skirmishers_apply,
}


def _scene(name: str) -> None:
    """One scene in this process: its taps' CPU ms as JSON on stdout."""
    taps = SCENES[name]()
    if "--profile" in sys.argv:
        import cProfile
        import pstats

        profiler = cProfile.Profile(time.process_time)
        profiler.enable()
        for _, calls in taps:
            _timed(calls)
        profiler.disable()
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(30)
        return
    first = ANSWERED_BY.get(name, 0)
    print(json.dumps([(label, len(calls), *_timed(calls, first)) for label, calls in taps]))


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 5
    root = HERE.parent
    print(
        f"CPU ms of each tap's engine calls (CPython, {root}), median of {runs} fresh processes,"
        f" {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())},"
        f" load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}:"
    )
    for name in SCENES:
        results = []
        for _ in range(runs):
            out = subprocess.run(
                [sys.executable, __file__, "--scene", name],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            results.append(json.loads(out))
        labels = [(label, n) for label, n, *_ in results[0]]
        medians = [statistics.median(r[i][2] for r in results) for i in range(len(labels))]
        answers = [statistics.median(r[i][3] for r in results) for i in range(len(labels))]
        total = sum(medians)
        worst = max(range(len(labels)), key=lambda i: medians[i])
        print(
            f"  {name}: {len(labels)} taps, {sum(n for _, n in labels)} engine calls, {total:.1f} ms in all;"
            f" worst tap {medians[worst]:.1f} ms ({labels[worst][0]})"
        )
        first = ANSWERED_BY.get(name)
        if first:
            slowest = max(range(len(labels)), key=lambda i: answers[i])
            print(
                f"    (the answer: each tap's first {first} calls, the sheet's gates and odds; the worst"
                f" {answers[slowest]:.1f} ms, {labels[slowest][0]})"
            )
        for (label, n), ms, answer in zip(labels, medians, answers, strict=True):
            said = f"   answer {answer:6.1f} ms" if first else ""
            print(f"    {label:34s} {n:3d} calls {ms:7.1f} ms{said}")


if __name__ == "__main__":
    sys.path[:0] = [str(HERE.parent), str(HERE)]
    if "--scene" in sys.argv:
        _scene(sys.argv[sys.argv.index("--scene") + 1])
    else:
        main()
