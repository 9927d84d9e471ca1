"""Shared fixtures: the built site, a local server for it, and headless Chromium.

`python3 build.py test` runs the tests in parallel (pytest-xdist, one worker per core): each
worker starts the session fixtures below once (one server of dist/, one Chromium) and gives each
test a fresh browser context, so tests share no page, storage or IndexedDB. This file also marks
the tests that need Chromium or Node.js (``browser``: what `build.py test --fast` leaves out), keeps
each module's module-scoped fixture on one worker, hands out the slowest tests first, and prints
the run's total time at its end.
"""

from __future__ import annotations

import ast
import contextlib
import fcntl
import functools
import http.server
import os
import re
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def playwright_disabled_features() -> list[str]:
    """The features Playwright itself disables in Chromium, read from the installed Playwright's
    bundle (its chromiumSwitches' ``disabledFeatures``); empty where it cannot be read."""
    import playwright

    bundle = Path(playwright.__file__).parent / "driver" / "package" / "lib" / "coreBundle.js"
    try:
        text = bundle.read_text()
        start = text.index("disabledFeatures = [")
        return re.findall(r'"([A-Za-z]+)"', text[start : text.index("]", start)])
    except (OSError, ValueError):
        return []


#: Chromium reads only the last ``--disable-features`` of its command line, so ours repeats
#: Playwright's and adds ``WebUIOmniboxPopup``, the address bar's popup, a page of the browser's own
#: UI that every Chromium start loads in a renderer of its own even headless: 0.6-0.8 CPU s of a
#: start (2.4-2.6 -> 1.75-1.87 CPU s, a persistent profile opened and idle for 2.5 s, 4 starts each).
#: No page of the app sees it. Where Playwright's list cannot be read the flag is left out
#: (tests/test_build.py says so).
if _PLAYWRIGHT_DISABLED := playwright_disabled_features():
    CHROMIUM_ARGS.append("--disable-features=" + ",".join([*_PLAYWRIGHT_DISABLED, "WebUIOmniboxPopup"]))

#: How long an ``expect`` waits for what the page should show unless a test says otherwise
#: (Playwright's own 5 s): the screen after an engine answer, on a loaded 2-core machine, was
#: seen to take longer; an expectation met returns at once, so a passing run is no slower.
expect.set_options(timeout=10_000)

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}


@pytest.fixture(scope="session")
def dist() -> Path:
    """dist/ as `python3 build.py test` left it (built here if it is missing, by one worker while
    the others wait)."""
    if not (build.DIST / "sw.js").exists():
        lock = Path(tempfile.gettempdir()) / f"tc-build-{build.sha256(str(build.DIST).encode())[:16]}.lock"
        with lock.open("w") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            if not (build.DIST / "sw.js").exists():
                build.build()
    return build.DIST


class Server:
    """dist/ served on 127.0.0.1 in a thread, as `build.py serve` serves it."""

    def __init__(self, directory: Path | None = None) -> None:
        served: list[str] = []
        self.served = served

        class Counting(build.Handler):
            def do_GET(self) -> None:
                served.append(self.path.split("?")[0])
                super().do_GET()

        handler = functools.partial(Counting, directory=str(directory or build.DIST))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture(scope="session")
def server(dist: Path) -> Iterator[Server]:
    s = Server()
    yield s
    s.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Any]:
    """Playwright's driver, once per worker (one may run at a time in a thread)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def chromium(playwright: Any) -> Iterator[Browser]:
    """One headless Chromium for this worker, whose contexts are first visits."""
    b = playwright.chromium.launch(executable_path=str(build.CHROMIUM), args=CHROMIUM_ARGS)
    yield b
    b.close()


@pytest.fixture(scope="session")
def browser(playwright: Any, chromium: Browser, server: Server) -> Iterator[Phones]:
    """What a test opens its phones from: ``browser.new_context(**PHONE)`` is a phone that opened
    the app once before (:class:`Phones`); ``first_visit=True`` makes it a phone that never did."""
    made = Phones(playwright, chromium, server)
    yield made
    made.cleanup()


@pytest.fixture(autouse=True)
def _close_phones(request: pytest.FixtureRequest) -> Iterator[None]:
    """A phone a test left open is closed after it (each is a Chromium of its own)."""
    yield
    if "browser" in request.fixturenames:
        phones: Phones = request.getfixturevalue("browser")
        phones.close_open()


# --- the run: tiers, workers, order and total time -------------------------------------------

#: Fixtures that start Chromium, serve the site to it, or boot the core under Node.js: a test
#: that asks for one (or lives in a test_e2e_*.py file) is a ``browser`` test.
BROWSER_FIXTURES = {
    "playwright",
    "chromium",
    "browser",
    "server",
    "phone",
    "first_visit_phone",
    "pyodide_replies",
}


#: When pytest started (its configuration), for the total time printed at the end.
PYTEST_STARTED = time.time()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "browser: drives Chromium or runs the core inside Pyodide under Node.js; "
        "set automatically, left out by `python3 build.py test --fast`",
    )
    config.addinivalue_line(
        "markers",
        "exhaustive: a wide net over rules that quicker tests pin by example (every face sequence "
        "of a roll, thousands of fuzzed links, 150 random games a property); in the full run, "
        "left out by `python3 build.py test --fast`",
    )
    config.addinivalue_line(
        "markers", "xdist_group(name): run these tests on one worker (read from the file: see below)"
    )


#: The browser tests (a part of their name) that take longest (CPU seconds, Chromium's included: the
#: screen-reading walks 30-95 each, the browser kills 150, the snapshot's starts 30-50), handed
#: out first of all.
LONGEST_FIRST = ["test_killing_the_browser", "test_e2e_every_screen.py", "test_e2e_snapshot.py"]


#: The same for the other tests (CPU seconds: the odds checked against every face sequence of a
#: shot 29, Lucky's odds 15, each quarter of the fuzzed links 12, the undo properties 4-12): one of
#: them last on a worker made the fast tier's last 15-30 s one worker's alone.
LONGEST_FAST = [
    "test_odds_say_what_they_assume_and_match_the_assumed_answers",
    "test_lucky_odds_equal_resolution_when_every_miss_is_rerolled",
    "test_twenty_thousand_fuzzed_tokens_through_the_seam",
    "test_properties.py",
    "test_odds_match_brute_force",
    "test_close_combat_odds_equal_every_face_sequence",
    "test_out_of_range_sides_units_and_indexes_are_refused_cleanly_by_every_action",
    "test_resolving_with_typed_dice_gives_exactly_the_odds",
]


def _weight(item: pytest.Item) -> tuple[int, int]:
    """The browser tests first, the longest of them first (the longest jobs first keep every
    worker busy to the end), then the rest, again the longest first."""
    longest = LONGEST_FAST if not item.get_closest_marker("browser") else LONGEST_FIRST
    first = next((n for n, part in enumerate(longest) if part in item.nodeid), len(longest))
    return (0 if longest is LONGEST_FIRST else 1, first)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        name = Path(str(item.path)).name
        fixtures = set(getattr(item, "fixturenames", ()))
        if name.startswith("test_e2e_") or name == "test_pyodide.py" or fixtures & BROWSER_FIXTURES:
            item.add_marker(pytest.mark.browser)
    items.sort(key=_weight)


# pytest-xdist's own loadgroup cannot see xdist_group marks under pytest 9 (it renames the test's
# nodeid, which pytest 9 no longer reads), and its scheduler sees only nodeids: the groups are
# read here from the test files themselves.

_SHARED_SCOPES = {"module", "class", "package"}


def _mark_name(node: ast.expr) -> str | None:
    """The name of an ``xdist_group("name")`` mark (or ``xdist_group(name="name")``)."""
    if isinstance(node, ast.Call) and getattr(node.func, "attr", "") == "xdist_group":
        args = [a.value for a in node.args if isinstance(a, ast.Constant)]
        args += [
            k.value.value for k in node.keywords if k.arg == "name" and isinstance(k.value, ast.Constant)
        ]
        return str(args[0]) if args else "default"
    return None


@functools.cache
def _groups_of(path: Path) -> tuple[str | None, dict[str, str]]:
    """A test file's group for all its tests (when it defines a module-scoped fixture, which is made
    once only if its tests share a worker, or has a module-level xdist_group mark), and the group of
    each test function marked with xdist_group."""
    try:
        tree = ast.parse(path.read_text())
    except (OSError, SyntaxError):
        return None, {}
    whole: str | None = None
    tests: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", "") == "pytestmark" for t in node.targets):
            marks = node.value.elts if isinstance(node.value, ast.List | ast.Tuple) else [node.value]
            whole = next((n for m in marks if (n := _mark_name(m))), whole)
        if not isinstance(node, ast.FunctionDef):
            continue
        for deco in node.decorator_list:
            if isinstance(deco, ast.Call) and getattr(deco.func, "attr", "") == "fixture":
                scope = next((k.value for k in deco.keywords if k.arg == "scope"), None)
                if isinstance(scope, ast.Constant) and scope.value in _SHARED_SCOPES:
                    whole = whole or path.name
            if name := _mark_name(deco):
                tests[node.name] = name
    return whole, tests


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadgroup``: each test on its own, but the tests of a group on one worker."""
    if config.getvalue("dist") != "loadgroup":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Grouped(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            file, _, rest = nodeid.partition("::")
            whole, tests = _groups_of(config.rootpath / file)
            test = rest.split("[")[0].split("::")[-1]
            return whole or tests.get(test) or nodeid

    return Grouped(config, log)


def _took(seconds: float) -> str:
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"


class _TreeCpu:
    """CPU seconds spent by this process and every process under it (Chromium, its renderers and
    workers, Playwright's driver), living or ended: a thread reads each descendant's time from
    /proc every quarter second and keeps the last it saw, so a process that ends keeps what it
    spent (all but its last quarter second)."""

    def __init__(self) -> None:
        self.seen: dict[tuple[int, int], int] = {}  # (pid, start time) -> clock ticks
        self.lock = threading.Lock()
        self.tick = os.sysconf("SC_CLK_TCK")
        threading.Thread(target=self._watch, daemon=True).start()

    def _scan(self) -> None:
        parents: dict[int, int] = {}
        spent: dict[int, tuple[int, int]] = {}
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents[int(entry)] = int(fields[1])
            spent[int(entry)] = (int(fields[19]), int(fields[11]) + int(fields[12]))  # start, utime+stime
        ours = {os.getpid()}
        grew = True
        while grew:
            kids = {pid for pid, parent in parents.items() if parent in ours} - ours
            ours |= kids
            grew = bool(kids)
        ours.discard(os.getpid())
        with self.lock:
            for pid in ours:
                started, ticks = spent[pid]
                self.seen[(pid, started)] = ticks

    def _watch(self) -> None:
        while True:
            time.sleep(0.25)
            self._scan()

    def __call__(self) -> float:
        self._scan()
        with self.lock:
            return time.process_time() + sum(self.seen.values()) / self.tick


@functools.cache
def _tree_cpu() -> _TreeCpu:
    return _TreeCpu()


def _cpu_clock(item: pytest.Item) -> Any:
    return _tree_cpu() if item.get_closest_marker("browser") else time.process_time


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    """The CPU seconds each test spends, set-up and tear-down included, in its own process and (for
    a browser test) in every process it started (with ``TC_CPU_SECONDS`` set): unlike wall time, a
    busy machine hardly changes them. Read here and after its tear-down."""
    if os.environ.get("TC_CPU_SECONDS"):
        item.stash[_CPU_STARTED] = _cpu_clock(item)()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    yield
    if _CPU_STARTED in item.stash:
        item.user_properties.append(("cpu", _cpu_clock(item)() - item.stash[_CPU_STARTED]))


_CPU_STARTED = pytest.StashKey[float]()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    if os.environ.get("PYTEST_XDIST_WORKER"):  # the controller gathers them
        return
    for key, value in report.user_properties:
        if key == "cpu" and report.when == "teardown":
            CPU_SECONDS[report.nodeid] = float(value)


#: The CPU seconds of each test, gathered from every worker (``TC_CPU_SECONDS``).
CPU_SECONDS: dict[str, float] = {}


@pytest.hookimpl(trylast=True)
def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    """The run's total time, last before pytest's closing line: from `build.py test`'s start
    (set-up and build included) when it ran us, else from pytest's own start. With
    ``TC_CPU_SECONDS=N``, first the N tests that spent the most CPU in their own process."""
    if CPU_SECONDS:
        shown = int(os.environ.get("TC_CPU_SECONDS") or 0)
        total = sum(CPU_SECONDS.values())
        terminalreporter.write_line(f"CPU seconds of the tests (with their Chromium): {total:.0f}")
        for seconds, nodeid in sorted(((c, n) for n, c in CPU_SECONDS.items()), reverse=True)[:shown]:
            terminalreporter.write_line(f"{seconds:8.1f}  {nodeid}")
    now = time.time()
    tier = os.environ.get("TC_TEST_TIER", "test")
    started = float(os.environ.get("TC_TEST_STARTED") or PYTEST_STARTED)
    line = f"{tier} run: {_took(now - started)}"
    if started < PYTEST_STARTED - 1:
        line += f" (set-up and build {_took(PYTEST_STARTED - started)}, tests {_took(now - PYTEST_STARTED)})"
    terminalreporter.write_line(line)


#: A page of the app's origin that is not the app, from which a test reads or writes the origin's
#: storage without starting the engine: a file of the site the service worker answers as itself
#: (it answers any other path, "no-such-page" too, with the app once it controls the origin).
OUTSIDE_THE_APP = "manifest.webmanifest"

#: How long a test waits for the engine to boot (first visits precache ~16 MB first).
BOOT_MS = 90_000


@pytest.fixture
def phone(browser: Phones) -> Iterator[BrowserContext]:
    """A phone-sized browser profile that opened the app once before and holds nothing of the
    player's (:class:`Phones`)."""
    context = browser.new_context(**PHONE)
    yield context
    context.close()


@pytest.fixture
def first_visit_phone(browser: Phones) -> Iterator[BrowserContext]:
    """A fresh phone-sized browser profile that has never opened the app."""
    context = browser.new_context(**PHONE, first_visit=True)
    yield context
    context.close()


#: Deletes the player's data (every database but the engine's snapshot, local and session
#: storage) from a page of the origin that is not the app, and says what the origin holds then:
#: the databases, the caches and their files, the snapshot's record and the service worker.
RESET_JS = """async () => {
  localStorage.clear();
  sessionStorage.clear();
  for (const { name } of await indexedDB.databases()) {
    if (name === 'tc-engine') continue;
    await new Promise((ok, no) => {
      const r = indexedDB.deleteDatabase(name);
      r.onsuccess = () => ok();
      r.onerror = () => no(r.error);
      r.onblocked = () => no(new Error(`a page still holds ${name} open`));
    });
  }
  const caches_ = {};
  for (const name of await caches.keys()) {
    caches_[name] = (await (await caches.open(name)).keys()).length;
  }
  const snapshot = await new Promise((ok) => {
    const open = indexedDB.open('tc-engine');
    open.onerror = () => ok(null);
    open.onsuccess = () => {
      const db = open.result;
      if (!db.objectStoreNames.contains('snapshot')) { db.close(); ok(null); return; }
      const get = db.transaction('snapshot').objectStore('snapshot').getAllKeys();
      get.onsuccess = () => {
        const keys = get.result;
        const one = db.transaction('snapshot').objectStore('snapshot').get('current');
        one.onsuccess = () => {
          const r = one.result;
          db.close();
          ok({ keys, key: r?.key, checksum: r?.checksum, failures: r?.failures ?? 0 });
        };
      };
    };
  });
  const sw = (await navigator.serviceWorker.getRegistration())?.active?.scriptURL ?? null;
  return { dbs: (await indexedDB.databases()).map((d) => d.name).sort(), caches: caches_, snapshot, sw };
}"""

#: Context methods whose effect outlives the test and cannot be undone: a phone that used one is
#: closed after the test, not kept.
LASTING = {
    "add_init_script",
    "expose_binding",
    "expose_function",
    "clock",
    "tracing",
    "grant_permissions",
    "set_geolocation",
    "set_extra_http_headers",
    "set_default_timeout",
    "set_default_navigation_timeout",
    "route_from_har",
    "route_web_socket",
    "add_cookies",
    "storage_state",
    "new_cdp_session",
}


class Phone:
    """A returning phone as a test sees it: its browser context, whose ``close()`` hands it back to
    :class:`Phones` (made as new again and kept for the next test, or closed)."""

    def __init__(
        self, context: BrowserContext, phones: Phones, directory: str, reusable: bool, keeper: Page | None
    ) -> None:
        self.context_itself = context
        self.keeper = keeper
        self.phones = phones
        self.directory = directory
        self.reusable = reusable
        self.listeners: list[tuple[str, Any]] = []
        self.closed = False
        #: Whether the keeper is the test's page now (its first), and Playwright's own listeners
        #: on it before it was lent (the test's are removed when it comes back).
        self.lent = False
        self.own_listeners: dict[Any, list[Any]] = {}

    def __getattr__(self, name: str) -> Any:
        if name in LASTING:
            self.reusable = False
        return getattr(self.context_itself, name)

    @property
    def pages(self) -> list[Page]:
        """The test's pages (the keeper only while it is lent to the test)."""
        return [p for p in self.context_itself.pages if p is not self.keeper or self.lent]

    def new_page(self, **options: Any) -> Page:
        """A page for the test. Its first is the keeper, lent (:class:`Phones`): the app loaded
        there starts its engine in the renderer already running, at about a reload's CPU (1.9 s,
        against 3.0 in a new page); any other page is new. What a page cannot take back (an init
        script, an exposed function, a default timeout) goes on the phone instead (``LASTING``: the
        phone is then not kept), never on the first page."""
        keeper = self.keeper
        if keeper is not None and not self.lent and not options and not keeper.is_closed():
            emitter = keeper._impl_obj
            self.own_listeners = {e: list(emitter.listeners(e)) for e in list(emitter._events)}
            self.lent = True
            return keeper
        return self.context_itself.new_page(**options)

    def take_back(self) -> None:
        """The keeper as it was before it was lent: the test's listeners and routes removed, the
        phone's size and media as a new page has them."""
        keeper = self.keeper
        assert keeper is not None
        emitter = keeper._impl_obj
        for event in list(emitter._events):
            for listener in list(emitter.listeners(event)):
                if listener not in self.own_listeners.get(event, []):
                    emitter.remove_listener(event, listener)
        keeper.unroute_all(behavior="ignoreErrors")
        keeper.set_viewport_size(PHONE["viewport"])  # type: ignore[arg-type]
        keeper.emulate_media(
            media="null", color_scheme="light", reduced_motion="no-preference", forced_colors="none"
        )
        self.lent = False

    def on(self, event: str, handler: Any) -> None:
        self.listeners.append((event, handler))
        self.context_itself.on(event, handler)  # type: ignore[arg-type]

    def once(self, event: str, handler: Any) -> None:
        self.listeners.append((event, handler))
        self.context_itself.once(event, handler)  # type: ignore[arg-type]

    def close(self, **_: Any) -> None:
        if not self.closed:
            self.closed = True
            self.phones.give_back(self)


class Phones:
    """The phones a test opens: each one a phone that has opened the app once before, unless asked
    for a first visit.

    The first phone makes a template: a Chromium profile that opened the app on this worker's
    server, whose service worker cached the site and whose engine stored its memory snapshot (what
    every phone holds after a first visit, with no squad, game or setting of the player's). Each
    phone is then a copy of that profile in a Chromium of its own: its own storage, as independent
    as a fresh context, but its engine starts from the snapshot, about half a first visit's CPU
    (the download, the precache and the snapshot made afterwards: 9 CPU seconds a phone). When a
    test is done with a phone, its pages are closed and the player's data deleted; if it then holds
    exactly what it held when made (:data:`RESET_JS`), it is the next test's phone, which saves
    starting a Chromium (a CPU second) a test; otherwise it is closed. A first
    visit (``first_visit=True``, the ``first_visit_phone`` fixture) is a fresh context of one shared
    Chromium, as before. Anything else is the shared Chromium's (``browser.browser_type``...).

    Each phone keeps one page of its own open for its whole life, the *keeper*: an empty page of
    the same site but another origin (another port: none of the app's storage, service worker or
    caches). It holds the site's renderer process, so a test's new page does not start one: about
    1.2-1.5 CPU s less a page (4.2-4.7 -> 3.0 CPU s an engine start on a new page, measured over 8
    a phone). A test's first page is the keeper itself, lent (:meth:`Phone.new_page`): the app
    loaded in it starts at about a reload's CPU (1.9 s). When the phone comes back, the keeper
    drops the test's listeners and routes, gets the phone's size and media again, deletes the
    player's data from a page of the app's origin (:data:`RESET_JS`, its own session storage too)
    and goes back to its empty page; a keeper the test closed makes the phone not kept.
    """

    def __init__(self, playwright: Any, chromium: Browser, server: Server) -> None:
        self.playwright = playwright
        self.chromium = chromium
        self.server = server
        self.template: Path | None = None
        self.as_made: Any = None  # what a phone holds when made (RESET_JS's answer)
        self.open: list[Phone] = []
        self.spare: tuple[BrowserContext, str, Page | None] | None = None
        self.keeper_site: Server | None = None
        self.dirs: list[str] = []
        self.launched = self.reused = 0
        #: What the template's first visit did (:meth:`_make_template`), once it is made.
        self.first_visit: dict[str, Any] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.chromium, name)

    def _launch(self, directory: str, **options: Any) -> BrowserContext:
        context: BrowserContext = self.playwright.chromium.launch_persistent_context(
            directory, executable_path=str(build.CHROMIUM), args=CHROMIUM_ARGS, **options
        )
        return context

    def _make_template(self) -> Path:
        directory = tempfile.mkdtemp(prefix="tc-returning-")
        context = self._launch(directory, **PHONE)
        page = context.pages[0] if context.pages else context.new_page()
        page.goto(self.server.url + "#/dice")
        expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
        page.wait_for_function(
            "() => { const s = window.tc.engine.snapshot; return !!s && typeof s === 'object' }",
            timeout=BOOT_MS,
        )
        stored = page.evaluate("window.tc.engine.snapshot")
        assert stored.get("stored") is True, f"the first visit stored no snapshot: {stored}"
        from benchmark import STORED_JS  # benchmark imports this module

        # What this first visit did, for tests/test_e2e_snapshot.py to check (so no test pays a
        # first visit of its own for it): how the engine started, what it said of its snapshot,
        # the stored record (summarised) and the build it was made by.
        self.first_visit = {
            "marks": page.evaluate("window.tc.engine.marks"),
            "told": stored,
            "stored": page.evaluate(STORED_JS),
            "build": page.locator('meta[name="tc-build"]').get_attribute("content"),
        }
        # Nothing of the player's: the app's database and local storage go (from a page of the
        # origin that is not the app, which holds the database open), the engine's snapshot stays.
        page.goto(self.server.url + OUTSIDE_THE_APP)
        self.as_made = page.evaluate(RESET_JS)
        context.close()
        return Path(directory)

    def template_made(self) -> dict[str, Any]:
        """What the template's first visit did (made now if no phone was asked for yet)."""
        if self.template is None:
            self.template = self._make_template()
        assert self.first_visit is not None
        return self.first_visit

    def returning_profile(self, directory: Path) -> Path:
        """``directory`` filled with a returning phone's Chromium profile (the template's copy), for a
        test that launches its own Chromium on it (the browser kills): its engine starts from the
        snapshot, as a player's does after the first visit."""
        if self.template is None:
            self.template = self._make_template()
        shutil.copytree(self.template, directory, dirs_exist_ok=True)
        return directory

    def new_context(self, first_visit: bool = False, **options: Any) -> BrowserContext:
        """A phone (any context option applies); ``first_visit`` for one that never opened the app."""
        if first_visit:
            return self.chromium.new_context(**options)
        if self.template is None:
            self.template = self._make_template()
        keeper: Page | None = None
        if self.spare and options == PHONE:
            (context, directory, keeper), self.spare = self.spare, None
            self.reused += 1
        else:
            self.launched += 1
            directory = tempfile.mkdtemp(prefix="tc-phone-")
            shutil.copytree(self.template, directory, dirs_exist_ok=True)
            self.dirs.append(directory)
            context = self._launch(directory, **options)
            # A persistent profile opens with a blank page: it becomes the keeper; tests open their own.
            keeper = context.pages[0] if context.pages else context.new_page()
            for page in context.pages[1:]:
                page.close()
            keeper.goto(self._keeper_url())
        phone = Phone(context, self, directory, reusable=options == PHONE, keeper=keeper)
        self.open.append(phone)
        return phone  # type: ignore[return-value]

    def give_back(self, phone: Phone) -> None:
        """A phone a test is done with: made as new again and kept for the next test if it can be
        (the spare), else closed."""
        if phone in self.open:
            self.open.remove(phone)
        context = phone.context_itself
        if phone.reusable and self.spare is None and self._as_new(phone):
            self.spare = (context, phone.directory, phone.keeper)
            return
        with contextlib.suppress(Exception):
            context.close()
        shutil.rmtree(phone.directory, ignore_errors=True)

    def _as_new(self, phone: Phone) -> bool:
        """Whether the phone, its pages closed and the player's data deleted, holds again exactly
        what it held when made (the same databases, caches, snapshot and service worker)."""
        context = phone.context_itself
        try:
            for event, handler in phone.listeners:
                context.remove_listener(event, handler)
            context.unroute_all(behavior="ignoreErrors")
            context.set_offline(False)
            for page in context.pages:
                if page is not phone.keeper:
                    page.close()
            keeper = phone.keeper
            if keeper is None or keeper.is_closed():
                return False
            if phone.lent:
                phone.take_back()
            keeper.goto(self.server.url + OUTSIDE_THE_APP)
            now = keeper.evaluate(RESET_JS)
            keeper.goto(self._keeper_url())
        except Exception:
            return False
        return bool(now == self.as_made)

    def _keeper_url(self) -> str:
        """The keeper's page (:class:`Phones`): an empty page served from another port."""
        if self.keeper_site is None:
            empty = Path(tempfile.mkdtemp(prefix="tc-keeper-"))
            (empty / "index.html").write_text("<!doctype html><title>keeper</title>")
            self.keeper_site = Server(empty)
            self.dirs.append(str(empty))
        return self.keeper_site.url

    def close_open(self) -> None:
        for phone in list(self.open):
            phone.close()
        self.open.clear()

    def cleanup(self) -> None:
        self.close_open()
        if self.spare:
            with contextlib.suppress(Exception):
                self.spare[0].close()
            self.spare = None
        if self.keeper_site:
            self.keeper_site.stop()
        for directory in self.dirs:
            shutil.rmtree(directory, ignore_errors=True)
        if os.environ.get("TC_PHONES"):
            print(
                f"\nphones: {self.launched} started, {self.reused} kept from the test before", file=sys.stderr
            )
        if self.template:
            shutil.rmtree(self.template, ignore_errors=True)


def apply_result(page: Page) -> None:
    """Tap "Apply" on a resolved action and check that the game screen shows it applied: the result
    the player read is now the newest step of the log, in force (steps undone before are dropped),
    and the pending result is gone from the action panel."""
    verdict = page.locator("#action-text").inner_text()
    applied = page.locator("#game-log li:not(.undone)").count()
    page.click("#apply-result")
    log = page.locator("#game-log li")
    expect(log).to_have_count(applied + 1)
    expect(log.first).to_have_text(verdict)
    expect(log.first).not_to_have_class(re.compile(r"\bundone\b"))
    expect(page.locator("#action-text")).to_have_count(0)


#: The page's randomness (``crypto.getRandomValues``, which the app's dice seeds and ids come from)
#: made a seeded xorshift32 stream, for a test whose later steps need one outcome of a roll.
SEEDED_RANDOM_JS = """(() => {
  let s = %d >>> 0 || 1;
  const next = () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
  const real = crypto.getRandomValues.bind(crypto);
  crypto.getRandomValues = (a) => {
    if (!(a instanceof Uint8Array || a instanceof Uint16Array || a instanceof Uint32Array)) return real(a);
    const top = 2 ** (8 * a.BYTES_PER_ELEMENT);
    for (let i = 0; i < a.length; i++) a[i] = next() %% top;
    return a;
  };
})();"""


def seeded_dice(context: BrowserContext, seed: int) -> None:
    """Every page the context opens from now on rolls the same dice (and makes the same ids) for
    the same taps: the browser's random source, not the app, is what is fixed."""
    context.add_init_script(SEEDED_RANDOM_JS % seed)


def type_dice(page: Page, face_for: dict[str, str] | None = None, default: str = "1") -> None:
    """Answer every "roll N dice" prompt of the action panel by tapping faces.

    ``face_for`` maps a word of the prompt (e.g. "attack") to the face to tap; any
    other prompt gets ``default``.  Returns once the action's result is shown.
    """
    for _ in range(80):
        shown = page.wait_for_selector("#action-prompt, #action-text")
        if shown.get_attribute("id") == "action-text":
            return
        prompt = shown.inner_text()
        face = next((f for word, f in (face_for or {}).items() if word in prompt), default)
        page.locator(f'#action-result [data-face="{face}"]').first.click()
        shown.wait_for_element_state("hidden")  # the result box is drawn anew
    raise AssertionError("the action kept asking for dice")


def typed_outcome(
    game: dict[str, Any], action: str, input: dict[str, Any], face_for: dict[str, str], default: str = "1"
) -> dict[str, Any]:
    """The game after ``action`` with dice typed as :func:`type_dice` types them, computed by the
    engine outside the browser: what the page must then show, exactly."""
    from core import api

    faces: list[int] = []
    for _ in range(200):
        reply = api.call("game.act", {"game": game, "action": action, "input": input, "faces": faces})
        assert reply["ok"], reply
        if reply["result"]["complete"]:
            return dict(reply["result"]["game"])
        purpose = reply["result"]["need"]["purpose"]
        faces.append(int(next((f for word, f in face_for.items() if word in purpose), default)))
    raise AssertionError("the action kept asking for dice")


#: Every squad, own unit and game as the app saved it in its database (IndexedDB "tc", one
#: record per item, its JSON raw-deflated when that is smaller: web/store.js).
READ_SAVED = """async () => {
  const db = await new Promise((ok, no) => {
    const r = indexedDB.open('tc');
    r.onsuccess = () => ok(r.result);
    r.onerror = () => no(r.error);
  });
  const out = { versions: {} };
  for (const kind of ['squads', 'units', 'games']) {
    const recs = db.objectStoreNames.contains(kind) ? await new Promise((ok) => {
      const r = db.transaction(kind).objectStore(kind).getAll();
      r.onsuccess = () => ok(r.result);
    }) : [];
    out[kind] = [];
    for (const rec of recs) {
      out.versions[`${kind}/${rec.id}`] = rec.v;
      if (!rec.z) { out[kind].push(rec.data); continue; }
      const stream = new Blob([rec.z]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
      out[kind].push(JSON.parse(await new Response(stream).text()));
    }
  }
  db.close();
  return out;
}"""


def saved_store(page: Page) -> dict[str, Any]:
    """What the app has saved, read from its database (not from the screen): each kind's items,
    and under "versions" each record's version ("games/<id>": n), which every write raises."""
    data: dict[str, Any] = page.evaluate(READ_SAVED)
    return data


def saved_game(page: Page) -> dict[str, Any]:
    """The game the page shows, as it saved it."""
    game_id = page.url.split("#/game/")[1]
    return dict(next(g for g in saved_store(page)["games"] if g["id"] == game_id))


def unit_state(game: dict[str, Any], ref: str) -> dict[str, Any]:
    side, key = ref.split("/")
    return dict(next(u for u in game["sides"][int(side)]["units"] if u["key"] == key)["state"])


def open_with_store(page: Page, url: str, store: dict[str, Any]) -> None:
    """Open ``url`` (a route of the app) with ``store`` as the saved data, as if built by hand.

    The app reads the first release's localStorage store once per database: with the app's
    database deleted (an app page still open closes its own when asked) and ``store`` put where
    that release kept it, the app's start brings it over as that release had saved it. Both are
    done from a page of the origin that is not the app, so the engine starts once."""
    base = url.split("#")[0]
    page.goto(base + OUTSIDE_THE_APP)
    page.evaluate(
        """(s) => new Promise((ok, no) => {
          const r = indexedDB.deleteDatabase('tc');
          r.onsuccess = () => { localStorage.setItem('tc.store', JSON.stringify(s)); ok(); };
          r.onerror = () => no(r.error);
        })""",
        store,
    )
    page.goto(url)
    expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=BOOT_MS)
