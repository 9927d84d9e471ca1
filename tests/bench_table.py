"""Speed a player feels at the table (issue 26), for `python3 build.py bench`: prints, never fails.

* Tap to answer: a scripted turn of each playable system on the real built site, in headless
  Chromium with the real engine worker, on a 390x844 phone. Each tap is dispatched in the page
  (``element.click()``, or a select's/field's change event) and timed with ``performance.now()``
  in the page, from the dispatch to the animation frame after the element that answers it has
  changed (a MutationObserver waits for it: the new odds headline, the new result, the redrawn
  game log...). The next tap waits until the engine has nothing left to answer (the choice
  buttons' own odds included): that wait is printed too, as "settled". With it, the CPU time the
  browser's processes used from the tap to then (from /proc, in 10 ms ticks): a figure the load of
  a shared machine hardly moves, summed over the turn.
* A shared squad link on a first visit: a fresh profile (no service worker, no snapshot, empty
  cache) navigating to ``#/open/<token>``; the time from navigation start to the squad's units on
  screen, and the bytes the server sent before that (gzip-encoded, as a real host would serve
  them), with the network at 10 Mbit/s down and 40 ms latency.

Both unthrottled and on the slow-phone setting: the whole browser confined to half of one core
(the cgroup of tests/benchmark.py, root only), enforced in 10 ms slices rather than the start-up
rows' 100 ms (in a 100 ms period a tap's burst of under 50 ms runs at full speed, so the
coarse setting hardly slows a tap); without a cgroup, DevTools' CPU throttling at 4x
(which slows only the page's main thread, not the engine's worker) and the output says so.

The network is throttled by the test server, not by DevTools: Chromium's network emulation
applies to the page, not to its service worker, and on a first visit the engine's runtime comes
through the service worker.

Each playable system's scripted turn is one entry of SCRIPTS below (a system listed as playable
without one is printed as missing); the modifiers it toggles are read from the action's flow in
``system.describe``.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import json
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from conftest import BOOT_MS, CHROMIUM_ARGS, PHONE, Server, open_with_store  # noqa: E402

import build  # noqa: E402
from core import api  # noqa: E402
from core.systems import SYSTEMS  # noqa: E402

#: One tap, dispatched in the page and timed there. ``answer`` is ["new", selector] (a node
#: matching it that is not the one there before the tap) or ["attr", selector, name] (that
#: attribute of it changed). Resolves to {ms, settled_ms}: the tap to the frame after the answer,
#: and the tap to the engine having nothing more to answer.
TAP_JS = """async ({ how, sel, value, answer, timeout }) => {
  const q = (s) => document.querySelector(s);
  const target = q(sel);
  if (!target) throw new Error(`nothing to tap: ${sel}`);
  const old = answer[0] === "new" ? q(answer[1]) : q(answer[1])?.getAttribute(answer[2]);
  const answered = () => {
    if (answer[0] === "new") {
      const now = q(answer[1]);
      return Boolean(now) && now !== old && now.isConnected;
    }
    const now = q(answer[1]);
    return Boolean(now) && now.getAttribute(answer[2]) !== old;
  };
  let t0 = 0;
  const ms = await new Promise((resolve, reject) => {
    let done = false;
    const finish = () => {
      if (done || !answered()) return;
      done = true;
      observer.disconnect();
      clearTimeout(timer);
      requestAnimationFrame(() => resolve(performance.now() - t0));
    };
    const observer = new MutationObserver(finish);
    const everything = { childList: true, subtree: true, attributes: true, characterData: true };
    observer.observe(document.body, everything);
    const timer = setTimeout(() => {
      observer.disconnect();
      reject(new Error(`no answer to ${sel}: ${answer}`));
    }, timeout);
    t0 = performance.now();
    if (how === "click") target.click();
    else {
      target.value = value;
      target.dispatchEvent(new Event("input", { bubbles: true }));
      target.dispatchEvent(new Event("change", { bubbles: true }));
    }
    finish();
  });
  await new Promise((resolve) => {
    const idle = () => (window.tc.engine.pending.size === 0 ? resolve() : setTimeout(idle, 5));
    idle();
  });
  return { ms, settled_ms: performance.now() - t0 };
}"""

#: The odds of the open sheet redrawn (a headline, or the engine's refusal in words: a modifier
#: the unit's weapon cannot take, such as a Volley without a <V> weapon, is refused on the sheet).
ODDS = ["new", "#action-odds > *, #odds-line > .error"]
#: What a roll shows: the result, the engine's question, or the prompt for real dice.
RESULT = ["new", "#action-text, #action-ask, #action-prompt, #action-result > .error"]
#: The game screen drawn anew after a change (apply, undo): its log is a new node.
REDRAWN = ["new", "#game-log"]
SHEET = ["new", "#action-panel"]


@dataclass
class Tap:
    label: str
    sel: str
    answer: list[str]
    how: str = "click"
    value: str = ""


@dataclass
class Scene:
    """A game opened on the game screen, and the taps made on it (some found on screen as it
    goes: ``steps`` may hold callables that return taps from the page as it then is)."""

    store: dict[str, Any]
    steps: list[Tap | Callable[[Any], list[Tap]]] = field(default_factory=list)


def describe(system: str) -> dict[str, Any]:
    return dict(api.call("system.describe", {"system": system})["result"])


def act(
    game: dict[str, Any], action: str, given: dict[str, Any], faces: list[int] | None = None
) -> dict[str, Any]:
    """``action`` with typed dice: ``faces`` if given, else every die a 1 until it is complete."""
    typed = list(faces or [])
    for _ in range(200):
        reply = api.call("game.act", {"game": game, "action": action, "input": given, "faces": typed})
        assert reply["ok"], reply
        if reply["result"].get("complete"):
            return dict(reply["result"]["game"])
        typed.append(1)
    raise AssertionError(f"{action} kept asking for dice")


def new_game(system: str, red: list[dict[str, Any]], blue: list[dict[str, Any]]) -> dict[str, Any]:
    squads = [
        {
            "id": f"s{n}",
            "name": name,
            "system": system,
            "units": [{"key": f"u{k + 1}", "profile": p} for k, p in enumerate(units)],
        }
        for n, (name, units) in enumerate((("Red", red), ("Blue", blue)), start=1)
    ]
    sides = [{"name": q["name"], "squad": q} for q in squads]
    game = api.call("game.new", {"id": "g1", "name": "Red vs Blue", "sides": sides})["result"]
    return {"schema_version": 1, "squads": squads, "units": [], "games": [game]}


def each_button(container: str, label: str, last: str | None = None) -> Callable[[Any], list[Tap]]:
    """A tap on each enabled button of ``container`` as the page shows it (a choice row, the
    unit's own picks), then ``last`` (the first one by default) again: the odds answer each."""

    def taps(page: Any) -> list[Tap]:
        values = page.eval_on_selector_all(
            f"{container} button:not([disabled])", "bs => bs.map(b => b.dataset.value)"
        )
        order = [*values, last or values[0]] if len(values) > 1 else values
        return [Tap(f"{label} {v}", f'{container} button[data-value="{v}"]', ODDS) for v in order]

    return taps


def chips(action: dict[str, Any]) -> Callable[[Any], list[Tap]]:
    """Each modifier of the action's flow (system.describe) the sheet offers, on then off."""

    def taps(page: Any) -> list[Tap]:
        offered = [
            m
            for m in action["flow"]["common"]
            if page.locator(f'#action-panel [data-mod="{m}"]:not([disabled])').count()
        ]
        return [
            Tap(f"{m} {w}", f'#action-panel [data-mod="{m}"]', ODDS) for w in ("on", "off") for m in offered
        ]

    return taps


def offered(tap: Tap) -> Callable[[Any], list[Tap]]:
    """``tap`` where the sheet offers it (a field greyed for a unit that lacks it is not tapped: the
    sample Heavy Gunner has had no Massed Fire since its weapons were revised)."""

    def taps(page: Any) -> list[Tap]:
        return [tap] if page.locator(f"{tap.sel}:not([disabled])").count() else []

    return taps


def answer_asks(page: Any) -> list[Tap]:
    """The engine's questions after a roll, each answered with its first option (a Confirm for
    ticks), until the result shows."""
    if page.locator("#action-ask").count():
        sel = "#ask-confirm" if page.locator("#ask-confirm").count() else "#action-ask [data-choice]"
        return [Tap("answer the question", sel, RESULT), answer_asks]  # type: ignore[list-item]
    return []


def roll_apply_undo() -> list[Tap | Callable[[Any], list[Tap]]]:
    return [
        Tap("roll", "#action-roll", RESULT),
        answer_asks,
        Tap("apply", "#apply-result", REDRAWN),
        Tap("undo", "#undo", REDRAWN),
    ]


def open_card(ref: str) -> Tap:
    return Tap(
        "unit card toggled (open or closed)",
        f'[data-unit="{ref}"] .card-toggle',
        ["attr", f'[data-unit="{ref}"] .card-toggle', "aria-expanded"],
    )


def gunframe() -> list[Scene]:
    """The book's unit with the biggest firepower against the one with the most defense, every
    weapon band, every modifier (rerolls among them), rolled, applied and undone."""
    info = describe("gunframe")
    units = [c["profile"] for c in info["catalogue"]]
    attacker = max(units, key=lambda p: max(p["close"], p["short"], p["medium"], p["long"]))
    target = max(units, key=lambda p: (p["defense"], p["armour"]))
    band = max(("close", "short", "medium", "long"), key=lambda b: attacker[b])
    store = new_game("gunframe", [attacker], [target])
    attack = next(a for a in info["actions"] if a["name"] == "attack")
    return [
        Scene(
            store,
            [
                open_card("0/u1"),
                Tap("open the attack", '[data-unit="0/u1"] [data-act="attack"]', SHEET),
                Tap("pick the target", '#targets [data-target="1/u1"]', ODDS),
                each_button('[data-choice-field="weapon"]', "weapon", last=band),
                chips(attack),
                *roll_apply_undo(),
            ],
        )
    ]


def gundam_skirmish() -> list[Scene]:
    """The Heavy Gunner's Gatling with Massed Fire at a Lancer behind its shield, every modifier,
    rolled, applied and undone; then a whole close combat."""
    from core.systems.gundam_skirmish.samples import SAMPLES

    def profile(key: str) -> dict[str, Any]:
        return dict(SAMPLES[key].model_dump(mode="json"))

    # One faction a side: Zeon's Heavy Gunner and Trooper against the Federation's Lancer and Captain.
    store = new_game(
        "gundam_skirmish",
        [profile("heavy_gunner"), profile("trooper")],
        [profile("lancer"), profile("captain")],
    )
    game = act(store["games"][0], "setup", {"mission": "deathmatch"}, [])
    store["games"] = [act(game, "priority", {"places": [1]}, [5, 2])]
    info = describe("gundam_skirmish")
    shoot = next(a for a in info["actions"] if a["name"] == "shoot")
    combat = next(a for a in info["actions"] if a["name"] == "close_combat")
    return [
        Scene(
            store,
            [
                open_card("0/u1"),
                Tap("open the shot", '[data-unit="0/u1"] [data-act="shoot"]', SHEET),
                Tap("pick the shielded target", '#targets [data-target="1/u1"]', ODDS),
                each_button('[data-pick-field="weapon"]', "weapon"),
                each_button('[data-choice-field="cover"]', "cover"),
                each_button('[data-choice-field="range"]', "range"),
                offered(
                    Tap("massed fire 2", '#action-panel [name="massed_fire"]', ODDS, how="set", value="2")
                ),
                chips(shoot),
                *roll_apply_undo(),
                Tap("open close combat", '[data-unit="0/u2"] [data-act="close_combat"]', SHEET),
                Tap("pick the defender", '#targets [data-target="1/u1"]', ODDS),
                chips(combat),
                *roll_apply_undo(),
            ],
        )
    ]


def ms_battles() -> list[Scene]:
    """The hand's odds (Draw), drawn, applied and undone; then, hands planned and revealed, the
    next card resolved (its target asked), applied and undone."""
    info = describe("ms_battles")
    suits = [c["profile"] for c in info["catalogue"][:2]]
    store = new_game("ms_battles", [suits[0]], [suits[1]])
    game = act(store["games"][0], "setup", {})
    store["games"] = [game]
    drawn = game
    for side in (0, 1):
        drawn = act(drawn, "draw", {"unit": f"{side}/u1"})
    planned = drawn
    for side in (0, 1):
        unit = planned["sides"][side]["units"][0]
        cards = unit["profile"]["cards"]
        hand = [cards[i]["id"] for i in unit["state"]["extra"]["hand"]]
        planned = act(planned, "plan", {"unit": f"{side}/u1", "keep": hand[:2]})
    planned = act(planned, "reveal", {})
    resolving = {**store, "games": [planned]}
    return [
        Scene(
            store,
            [
                open_card("0/u1"),
                Tap("open Draw (the hand's odds)", "#action-pick", ODDS, how="set", value="draw"),
                *roll_apply_undo(),
            ],
        ),
        Scene(
            resolving,
            [
                Tap("open Resolve card", "#action-pick", SHEET, how="set", value="resolve_card"),
                *roll_apply_undo(),
            ],
        ),
    ]


def mechastellar() -> list[Scene]:
    """The roll-off made (Red first, L75-L80): the Argonaut's shot at the White Asura, every band,
    weapon, skill and modifier; then the Blue Djinn's Melee Clash with the White Asura (L183-L214),
    each split of its dice and the advantage: each rolled, its questions answered, applied, undone."""
    from core.systems.mechastellar.samples import SAMPLES

    def force(keys: list[str]) -> list[dict[str, Any]]:
        return [SAMPLES[k].model_dump(mode="json") for k in keys]

    store = new_game(
        "mechastellar",
        force(["argonaut", "blue_djinn", "jet_black_lancer"]),
        force(["dervish", "white_asura", "kara"]),
    )
    store["games"] = [act(store["games"][0], "roll_off", {}, [9, 2])]
    info = describe("mechastellar")
    shoot = next(a for a in info["actions"] if a["name"] == "shoot")
    melee = next(a for a in info["actions"] if a["name"] == "melee")
    return [
        Scene(
            store,
            [
                open_card("0/u1"),
                Tap("open the shot", '[data-unit="0/u1"] [data-act="shoot"]', SHEET),
                Tap("pick the target", '#targets [data-target="1/u2"]', ODDS),
                each_button('[data-choice-field="band"]', "band"),
                each_button('[data-pick-field="weapon"]', "weapon"),
                each_button('[data-pick-field="skill"]', "skill"),
                chips(shoot),
                *roll_apply_undo(),
                open_card("0/u2"),
                Tap("open the clash", '[data-unit="0/u2"] [data-act="melee"]', SHEET),
                Tap("pick the defender", '#targets [data-target="1/u2"]', ODDS),
                each_button('[data-pick-field="weapon"]', "weapon"),
                each_button('[data-pick-field="attack_dice"]', "attack dice"),
                chips(melee),
                *roll_apply_undo(),
            ],
        )
    ]


def skirmishers() -> list[Scene]:
    """Red goes first (L119): the Machine Gunner's burst at the Blue Power Armor, every range and
    weapon, cover on and off, rolled, applied and undone."""
    from core.systems.skirmishers import SAMPLES

    def force(side: str) -> list[dict[str, Any]]:
        return [p.model_dump(mode="json") for k, p in SAMPLES.items() if k.startswith(side)]

    red, blue = force("red_"), force("blue_")
    store = new_game("skirmishers", red, blue)
    store["games"] = [act(store["games"][0], "first_side", {"first": "first"}, [])]
    gunner = 1 + next(i for i, p in enumerate(red) if "Machine Gunner" in p["name"])
    armour = 1 + next(i for i, p in enumerate(blue) if "Power Armor" in p["name"])
    fire = next(a for a in describe("skirmishers")["actions"] if a["name"] == "fire")
    return [
        Scene(
            store,
            [
                open_card(f"0/u{gunner}"),
                Tap("open the burst", f'[data-unit="0/u{gunner}"] [data-act="fire"]', SHEET),
                Tap("pick the target", f'#targets [data-target="1/u{armour}"]', ODDS),
                each_button('[data-choice-field="range"]', "range"),
                each_button('[data-pick-field="weapon"]', "weapon"),
                chips(fire),
                *roll_apply_undo(),
            ],
        )
    ]


#: Each playable system's scripted turn: a new system adds its own here.
SCRIPTS: dict[str, Callable[[], list[Scene]]] = {
    "gunframe": gunframe,
    "gundam_skirmish": gundam_skirmish,
    "ms_battles": ms_battles,
    "mechastellar": mechastellar,
    "skirmishers": skirmishers,
}


def play(page: Any, server: Server, scene: Scene, rows: list[dict[str, Any]]) -> None:
    """The scene's taps, each timed row appended to ``rows`` as it is made."""
    open_with_store(page, server.url + "#/game/g1", scene.store)
    page.wait_for_selector(".unit-card")
    page.wait_for_function("() => window.tc.engine.pending.size === 0")
    todo = list(scene.steps)
    while todo:
        step = todo.pop(0)
        if not isinstance(step, Tap):
            todo[:0] = step(page)
            continue
        before = browser_cpu_s()
        timed = page.evaluate(
            TAP_JS,
            {
                "how": step.how,
                "sel": step.sel,
                "value": step.value,
                "answer": step.answer,
                "timeout": 120_000,
            },
        )
        # The browser's CPU (every process under this one, Playwright's driver included: a few ms)
        # from before the tap to the engine idle again: what the load hardly moves. /proc counts in
        # ticks of 10 ms: a single tap's figure is coarse, a turn's sum is not.
        timed["cpu_ms"] = cpu_since(before) * 1000
        refused = page.locator("#action-result > .error, #odds-line > .error")
        if refused.count():  # an answer, but not the one the script wants: said, and timed still
            timed["refused"] = refused.first.inner_text()
        rows.append({"tap": step.label, **timed})


def settings() -> list[tuple[str, Path, float]]:
    from benchmark import slow_phone_chromium

    slow = slow_phone_chromium(period_us=10_000)
    if slow:
        return [
            ("unthrottled", build.CHROMIUM, 1),
            ("slow phone (browser on half a core, 10 ms slices)", slow, 1),
        ]
    return [
        ("unthrottled", build.CHROMIUM, 1),
        ("cdp 4x (no cgroup here: main thread only)", build.CHROMIUM, 4),
    ]


def only() -> list[str]:
    """The systems ``--only a,b`` names (every scripted one without it)."""
    if "--only" in sys.argv:
        return sys.argv[sys.argv.index("--only") + 1].split(",")
    return list(SCRIPTS)


def tap_figures(server: Server) -> dict[str, dict[str, list[dict[str, Any]]]]:
    from playwright.sync_api import sync_playwright

    out: dict[str, dict[str, list[dict[str, Any]]]] = {}
    with sync_playwright() as p:
        for name, executable, rate in settings():
            browser = p.chromium.launch(executable_path=str(executable), args=CHROMIUM_ARGS)
            out[name] = {}
            for info in SYSTEMS:
                if info.status != "playable" or info.id not in SCRIPTS or info.id not in only():
                    continue
                context = browser.new_context(**PHONE)
                page = context.new_page()
                cdp = context.new_cdp_session(page)
                cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                page.set_default_timeout(BOOT_MS * 2)
                rows: list[dict[str, Any]] = []
                try:
                    for scene in SCRIPTS[info.id]():
                        play(page, server, scene, rows)
                except Exception as error:
                    print(f"  ({info.name}, {name}: stopped after {len(rows)} taps: {error})")
                out[name][info.name] = rows
                context.close()
            browser.close()
    return out


# --- a shared link on a first visit ------------------------------------------------------------

DOWN_BYTES_S = 10e6 / 8
LATENCY_S = 0.040


class Link:
    """One shared downlink: every response's bytes pass through it at DOWN_BYTES_S, in turn."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.free = 0.0

    def send(self, n: int) -> None:
        with self.lock:
            start = max(time.monotonic(), self.free)
            self.free = start + n / DOWN_BYTES_S
            until = self.free
        time.sleep(max(0.0, until - time.monotonic()))


def served_dist() -> Path:
    """dist/, or the build given with ``--dist DIR`` (to compare two builds in the same conditions)."""
    if "--dist" in sys.argv:
        return Path(sys.argv[sys.argv.index("--dist") + 1])
    return build.DIST


class ThrottledServer:
    """dist/ served gzip-encoded (level 6, as a host would) through a 10 Mbit/s, 40 ms link;
    counts the encoded bytes sent, each with the time it went."""

    def __init__(self) -> None:
        sent: list[tuple[float, str, int]] = []
        self.sent = sent
        link = Link()
        cache: dict[Path, bytes] = {}

        class Throttled(build.Handler):
            def do_GET(self) -> None:
                time.sleep(LATENCY_S)
                path = Path(self.translate_path(self.path))
                if path.is_dir():
                    path = path / "index.html"
                if not path.is_file():
                    self.send_error(404)
                    return
                if path not in cache:
                    cache[path] = gzip.compress(path.read_bytes(), 6)
                body = cache[path]
                self.send_response(200)
                self.send_header("Content-Type", self.guess_type(str(path)))
                self.send_header("Content-Encoding", "gzip")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                for i in range(0, len(body), 16384):
                    chunk = body[i : i + 16384]
                    link.send(len(chunk))
                    self.wfile.write(chunk)
                sent.append((time.monotonic(), self.path.split("?")[0], len(body)))

        handler = functools.partial(Throttled, directory=str(served_dist()))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


#: When the shared squad's units first show, in the page's own time (ms from navigation start).
SHOWN_JS = """(() => {
  const seen = () => {
    if (window.__tcShown === undefined && document.querySelector('#shared-units li')) {
      window.__tcShown = performance.now();
    }
    // The link's squad name and size, shown from the token while the engine boots (if it is).
    if (window.__tcPreview === undefined && document.querySelector('#shared-preview')) {
      window.__tcPreview = performance.now();
    }
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
})();"""


#: The first visit is over: the service worker controls the page and its cache holds every file
#: of its precache list.
SETTLED_JS = r"""async () => {
  if (!navigator.serviceWorker?.controller) return false;
  const names = (await caches.keys()).filter((n) => n.startsWith("tc-"));
  if (names.length !== 1) return false;
  const cache = await caches.open(names[0]);
  const text = await (await fetch("sw.js")).text();
  const list = JSON.parse(text.match(/const PRECACHE = (\[[^\]]*\])/)[1]);
  for (const file of list) if (!(await cache.match(file))) return false;
  return true;
}"""


def shared_squad() -> tuple[dict[str, Any], int]:
    info = describe("gunframe")
    units = [{"key": f"u{k + 1}", "profile": c["profile"]} for k, c in enumerate(info["catalogue"][:5])]
    squad = {"id": "s1", "name": "Friend's squad", "system": "gunframe", "units": units}
    return squad, len(units)


def browser_cpu_s() -> dict[int, float]:
    """CPU seconds (user and system) so far of each process under this one (Playwright's driver and
    the browser it launched, every renderer, worker host and helper), by pid, from /proc: a figure
    the load of the machine hardly moves, unlike the wall time (Linux only; empty elsewhere)."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    parents: dict[int, int] = {}
    cpu: dict[int, float] = {}
    for entry in Path("/proc").iterdir() if Path("/proc/self").exists() else []:
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        cpu[int(entry.name)] = (int(fields[11]) + int(fields[12])) / tick
    mine = {os.getpid()}
    grew = True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in mine} - mine
        grew = bool(more)
        mine |= more
    mine.discard(os.getpid())
    return {pid: cpu[pid] for pid in mine}


def cpu_since(before: dict[int, float]) -> float:
    """CPU seconds the processes under this one used since ``before`` (new ones from their start;
    one that ended meanwhile is not counted: the visit's renderer and worker live on)."""
    return sum(t - before.get(pid, 0.0) for pid, t in browser_cpu_s().items())


def link_figures(runs: int) -> dict[str, list[dict[str, float]]]:
    from playwright.sync_api import sync_playwright

    squad, count = shared_squad()
    token = api.call("share.encode", {"squad": squad})["result"]["token"]
    out: dict[str, list[dict[str, float]]] = {}
    server = ThrottledServer()
    try:
        with sync_playwright() as p:
            for name, executable, rate in settings():
                browser = p.chromium.launch(executable_path=str(executable), args=CHROMIUM_ARGS)
                out[name] = []
                for _ in range(runs):
                    context = browser.new_context(**PHONE)
                    context.add_init_script(SHOWN_JS)
                    page = context.new_page()
                    cdp = context.new_cdp_session(page)
                    cdp.send("Emulation.setCPUThrottlingRate", {"rate": rate})
                    first = len(server.sent)
                    cpu_before = browser_cpu_s()
                    page.goto(server.url + "#/open/" + token)
                    page.wait_for_function(
                        f"() => document.querySelectorAll('#shared-units > li').length === {count}",
                        timeout=300_000,
                    )
                    shown_at = time.monotonic()
                    cpu_s = cpu_since(cpu_before)
                    shown_ms = page.evaluate("window.__tcShown")
                    preview_ms = page.evaluate("window.__tcPreview ?? null")
                    ready_ms = page.evaluate("window.tc.engine.marks?.page_ready ?? null")
                    before = [n for t, _, n in server.sent[first:] if t <= shown_at]
                    # The whole first visit (the service worker may go on caching after the squad
                    # shows): until it controls the page and its cache holds every file.
                    page.wait_for_function(SETTLED_JS, timeout=300_000, polling=250)
                    total = [n for _, _, n in server.sent[first:]]
                    out[name].append(
                        {
                            "shown_ms": shown_ms,
                            "cpu_s": cpu_s,
                            "preview_ms": preview_ms,
                            "engine_ms": ready_ms,
                            "bytes": sum(before),
                            "files": len(before),
                            "all_bytes": sum(total),
                            "all_files": len(total),
                        }
                    )
                    context.close()
                browser.close()
    finally:
        server.stop()
    return out


def print_links(runs: int) -> None:
    links = link_figures(runs)
    print(
        f"\nA shared squad link, first visit (fresh profile, no service worker, no snapshot), network"
        f" {DOWN_BYTES_S * 8 / 1e6:.0f} Mbit/s down, {LATENCY_S * 1000:.0f} ms latency, served gzip-encoded;"
        f" medians of {runs}, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())},"
        f" load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}:"
    )

    def median(rows: list[dict[str, Any]], key: str) -> float | None:
        values = [r[key] for r in rows if r.get(key) is not None]
        return statistics.median(values) if values else None

    for setting, rows in links.items():
        preview, engine = median(rows, "preview_ms"), median(rows, "engine_ms")
        print(
            f"  {setting:44s} squad shown at {statistics.median(r['shown_ms'] for r in rows) / 1000:5.1f} s,"
            f" {statistics.median(r['bytes'] for r in rows) / 1e6:5.2f} MB fetched before"
            f" ({statistics.median(r['files'] for r in rows):.0f} files);"
            f" its name and size at {f'{preview / 1000:.1f} s' if preview else '(not shown early)'},"
            f" engine ready at {f'{engine / 1000:.1f} s' if engine else '?'};"
            f" the browser's CPU until the squad shows {statistics.median(r['cpu_s'] for r in rows):.1f} s;"
            f" the whole visit {statistics.median(r['all_bytes'] for r in rows) / 1e6:5.2f} MB"
            f" ({statistics.median(r['all_files'] for r in rows):.0f} files)"
        )
    if "--json" in sys.argv:
        print(json.dumps(links, indent=1))


def report(server: Server, runs: int = 3) -> None:
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(
        f"\nTap to answer (issue 26), load average {' '.join(load)},"
        f" {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}:"
    )
    missing = [i.name for i in SYSTEMS if i.status == "playable" and i.id not in SCRIPTS]
    if missing:
        print(
            f"  no scripted turn yet for: {', '.join(missing)} (add one to SCRIPTS in tests/bench_table.py)"
        )
    taps = tap_figures(server)
    for setting, systems in taps.items():
        print(f"  {setting}:")
        for system, rows in systems.items():
            if not rows:
                print(f"    {system:30s} no taps timed")
                continue
            worst = max(rows, key=lambda r: r["ms"])
            settled = max(rows, key=lambda r: r["settled_ms"])
            cpu = [r["cpu_ms"] for r in rows if "cpu_ms" in r]
            print(
                f"    {system:30s} {len(rows):3d} taps:"
                f" median {statistics.median(r['ms'] for r in rows):6.0f} ms,"
                f" worst {worst['ms']:6.0f} ms ({worst['tap']}); engine idle again at worst"
                f" {settled['settled_ms']:6.0f} ms ({settled['tap']})"
                + (f"; browser CPU {sum(cpu):6.0f} ms in all, worst tap {max(cpu):4.0f} ms" if cpu else "")
            )
    if "--taps" in sys.argv:
        print(json.dumps(taps, indent=1))
    if "--no-link" not in sys.argv:
        print_links(runs)


USAGE = """usage: tests/bench_table.py [runs] [--link [--dist DIR]] [--only a,b] [--no-link] [--taps] [--json]
  runs     first-visit runs per setting, the median printed (default 3)
  --link   only the shared link's first visit (the taps take several minutes)
  --only   the taps of these systems only (ids, comma-separated)
  --no-link  the taps only, not the shared link's first visit
  --dist   serve the first visit from DIR (a copy of another build) instead of dist/
  --taps   print every timed tap as JSON too
  --json   print every first-visit run as JSON too
Builds dist/ only when it is missing: run build.py after changing core/ or web/."""


if __name__ == "__main__":
    if "--help" in sys.argv or "-h" in sys.argv:
        print(USAGE)
        sys.exit(0)
    if not (build.DIST / "sw.js").exists():
        build.build()
    count = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 3
    if "--link" in sys.argv:
        print_links(count)
        sys.exit(0)
    s = Server()
    try:
        report(s, count)
    finally:
        s.stop()
