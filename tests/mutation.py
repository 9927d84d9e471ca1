"""Mutation testing of core/: small deliberate bugs, one at a time, and the tests that should catch them.

Run with ``python3 build.py quality`` or ``.venv/bin/python tests/mutation.py [module ...]``; not part of
CI (it takes minutes).  ``--tests FILE ...`` runs only those test files (or node ids) against the mutants:
much quicker on a shared machine, and the score then says what those tests alone catch.

For each module the tool parses the source, lists every place where a typical slip could hide (a
comparison one off, ``+`` for ``-``, ``and`` for ``or``, a dropped ``not``, a constant one off, ``min``
for ``max``, a condition never true, a call left out) and, for each such mutant, runs the module's own
test subset in a forked child that imports the mutated module instead of the file. A mutant is *killed*
when a test fails (or the run times out), *survives* when every test passes. The score per module is
killed / all; survivors are printed with their line so a test can be written for them, or the mutant
recognised as equivalent (it changes nothing a player could see).

The parent imports only third-party packages before forking (never ``core``), so each child imports
``core`` afresh, with the one mutated module served from memory by a finder at the head of
``sys.meta_path``.  Schema bounds (arguments of pydantic ``Field``), type annotations and code under
``if TYPE_CHECKING`` are not mutated.
"""

from __future__ import annotations

import argparse
import ast
import gc
import json
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FunctionType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

#: The modules measured and the tests run against each of their mutants (the ones that exercise them).
GUNFRAME_TESTS = [
    "tests/test_gunframe.py",
    "tests/test_gunframe_play.py",
    "tests/test_gunframe_special.py",
    "tests/test_gunframe_combine.py",
    "tests/test_gunframe_groups.py",
    "tests/test_gunframe_links.py",
    "tests/test_gunframe_env.py",
    "tests/test_gunframe_structures.py",
]
GUNDAM_TESTS = [
    "tests/test_gundam_skirmish.py",
    "tests/test_gundam_effects.py",
    "tests/test_gundam_mega.py",
    "tests/test_gundam_decisions.py",
    "tests/test_gundam_skirmish_table.py",
    "tests/test_thresholds.py",
    "tests/test_gundam_aimed.py",
    # the rule-by-rule pins of issue #27 (quick: no browser, a few seconds each)
    "tests/test_gundam_shoot_rules.py",
    "tests/test_gundam_shot_procedure.py",
    "tests/test_gundam_close_rules.py",
    "tests/test_gundam_ability_rules.py",
    "tests/test_gundam_move_rules.py",
    "tests/test_gundam_order_rules.py",
    "tests/test_gundam_game_rules.py",
]
#: Gundam Skirmish: its battle chapters (the rules; the data, sheet and catalogue modules are measured
#: through them), and its own dice procedure.
GUNDAM_MODULES = [
    "shooting",
    "shoot",
    "close_combat",
    "damage",
    "economy",
    "aimed_shot",
    "movement",
    "abilities",
    "morale",
    "orders",
    "ambush",
    "game_types",
    "turns",
    "picks",
    "mega",
]
MODULES: dict[str, list[str]] = {
    "core/dice.py": ["tests/test_dice.py", "tests/test_api.py"],
    "core/pool.py": ["tests/test_dice.py", "tests/test_api.py"],
    "core/game.py": ["tests/test_layer.py", "tests/test_properties.py"],
    "core/share.py": ["tests/test_layer.py", "tests/test_remote.py"],
    "core/systems/gunframe/attack.py": GUNFRAME_TESTS,
    "core/systems/gunframe/power.py": GUNFRAME_TESTS,
    **{
        f"core/systems/ms_battles/{m}.py": ["tests/test_ms_battles.py"]
        for m in ("board", "planning", "resolve", "play")
    },
    **{f"core/systems/gundam_skirmish/{m}.py": GUNDAM_TESTS for m in GUNDAM_MODULES},
}

_SWAP_CMP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}
_SWAP_BIN: dict[type[ast.operator], type[ast.operator]] = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.FloorDiv,
    ast.FloorDiv: ast.Mult,
    ast.Div: ast.Mult,
    ast.Mod: ast.FloorDiv,
}
_SYMBOL = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.FloorDiv: "//",
    ast.Div: "/",
    ast.Mod: "%",
    ast.And: "and",
    ast.Or: "or",
}


@dataclass(frozen=True)
class Mutant:
    """One deliberate bug: the ``index``-th node of ``ast.walk`` changed as ``kind`` (``arg`` says how)."""

    index: int
    kind: str
    arg: int
    line: int
    text: str


def _skipped(tree: ast.Module) -> set[int]:
    """ids of nodes never mutated: annotations, Field(...) arguments, TYPE_CHECKING blocks, docstrings."""
    skip: set[int] = set()

    def mark(node: ast.AST | None) -> None:
        if node is not None:
            skip.update(id(n) for n in ast.walk(node))

    for node in ast.walk(tree):
        if isinstance(node, ast.AnnAssign | ast.arg):
            mark(node.annotation)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            mark(node.returns)
        elif _never_mutated(node):
            mark(node)
    return skip


def _never_mutated(node: ast.AST) -> bool:
    """A pydantic Field(...) call, an ``if TYPE_CHECKING:`` block or ``__all__``."""
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Name) and node.func.id == "Field"
    if isinstance(node, ast.If):
        return isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
    if isinstance(node, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets)
    return False


def _is_docstring(node: ast.stmt) -> bool:
    """A docstring or a bare ``...``: leaving either out changes nothing."""
    return (
        isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and (isinstance(node.value.value, str) or node.value.value is Ellipsis)
    )


def mutants(source: str) -> list[Mutant]:
    """Every mutant of a module's source, in a stable order."""
    tree = ast.parse(source)
    skip = _skipped(tree)
    lines = source.splitlines()
    out: list[Mutant] = []
    for index, node in enumerate(ast.walk(tree)):
        if id(node) in skip:
            continue
        line = getattr(node, "lineno", 0)
        where = lines[line - 1].strip() if line else ""

        def add(
            kind: str, text: str, arg: int = 0, *, _i: int = index, _l: int = line, _w: str = where
        ) -> None:
            out.append(Mutant(_i, kind, arg, _l, f"{text}   | {_w}"))

        if isinstance(node, ast.Compare):
            for j, op in enumerate(node.ops):
                new = _SWAP_CMP.get(type(op))
                if new:
                    add("cmp", f"{_SYMBOL[type(op)]} -> {_SYMBOL[new]}", j)
        elif isinstance(node, ast.BinOp | ast.AugAssign) and type(node.op) in _SWAP_BIN:
            if (
                isinstance(node, ast.BinOp)
                and isinstance(node.op, ast.Mod)
                and isinstance(node.left, ast.Constant)
            ):
                continue  # "%"-formatting of text
            add("bin", f"{_SYMBOL[type(node.op)]} -> {_SYMBOL[_SWAP_BIN[type(node.op)]]}")
        elif isinstance(node, ast.BoolOp):
            add("bool", f"{_SYMBOL[type(node.op)]} -> {'or' if isinstance(node.op, ast.And) else 'and'}")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            add("not", "not x -> x")
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            add("neg", "-x -> x")
        elif isinstance(node, ast.Constant) and type(node.value) is bool:
            add("const", f"{node.value} -> {not node.value}")
        elif isinstance(node, ast.Constant) and type(node.value) is int:
            add("const", f"{node.value} -> {node.value + 1}")
        elif (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max")
        ):
            add("minmax", f"{node.func.id} -> {'max' if node.func.id == 'min' else 'min'}")
        elif isinstance(node, ast.If | ast.While):
            add("cond", "condition -> never")
        for field in ("body", "orelse"):
            body = getattr(node, field, None)
            if not isinstance(body, list) or isinstance(node, ast.Module | ast.ClassDef):
                continue
            for j, stmt in enumerate(body):
                if id(stmt) in skip or _is_docstring(stmt):
                    continue
                if isinstance(stmt, ast.Expr | ast.AugAssign | ast.Raise):
                    text = lines[stmt.lineno - 1].strip()
                    out.append(
                        Mutant(index, f"drop-{field}", j, stmt.lineno, f"statement left out   | {text}")
                    )
    return out


def mutate(source: str, path: str, m: Mutant) -> object:
    """The code object of the module with mutant ``m`` applied."""
    tree = ast.parse(source)
    node = list(ast.walk(tree))[m.index]
    if m.kind == "cmp":
        assert isinstance(node, ast.Compare)
        node.ops[m.arg] = _SWAP_CMP[type(node.ops[m.arg])]()
    elif m.kind == "bin":
        assert isinstance(node, ast.BinOp | ast.AugAssign)
        node.op = _SWAP_BIN[type(node.op)]()
    elif m.kind == "bool":
        assert isinstance(node, ast.BoolOp)
        node.op = ast.Or() if isinstance(node.op, ast.And) else ast.And()
    elif m.kind in ("not", "neg"):
        assert isinstance(node, ast.UnaryOp)
        # "not x" becomes "bool(x)" and "-x" becomes "+x": same place in the tree, no parent needed.
        if m.kind == "not":
            node.op = ast.Not()
            node.operand = ast.UnaryOp(op=ast.Not(), operand=node.operand)
        else:
            node.op = ast.UAdd()
    elif m.kind == "const":
        assert isinstance(node, ast.Constant)
        node.value = (not node.value) if type(node.value) is bool else node.value + 1
    elif m.kind == "minmax":
        assert isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
        node.func.id = "max" if node.func.id == "min" else "min"
    elif m.kind == "cond":
        assert isinstance(node, ast.If | ast.While)
        node.test = ast.Constant(value=False)
    elif m.kind.startswith("drop-"):
        body = getattr(node, m.kind.removeprefix("drop-"))
        body[m.arg] = ast.Pass()
    else:
        raise ValueError(m.kind)
    return compile(ast.fix_missing_locations(tree), path, "exec")


def _outer_defs(source: str) -> list[tuple[int, int, str, int]]:
    """(first line, last line, name, line of ``def``) of each function at module level or in a class
    at module level: the units whose code a mutant replaces."""
    tree = ast.parse(source)
    out = []
    tops: list[ast.stmt] = list(tree.body)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            tops += node.body
    for node in tops:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            out.append((first, node.end_lineno or node.lineno, node.name, node.lineno))
    return out


def _code_of(code: CodeType, name: str, first: int) -> CodeType | None:
    """The code object of function ``name`` starting at line ``first``, anywhere inside ``code``."""
    for const in code.co_consts:
        if isinstance(const, CodeType):
            if const.co_name == name and const.co_firstlineno == first:
                return const
            found = _code_of(const, name, first)
            if found is not None:
                return found
    return None


class _Mutator:
    """A pytest plugin that takes over the test loop: one baseline run of every collected test under
    coverage (which tests run which line), then one forked child per mutant that swaps the mutated
    function's code into the live function objects and runs only the tests that run that line."""

    def __init__(self, rel: str, source: str, found: list[Mutant], workers: int, timeout: float) -> None:
        self.rel, self.source, self.found = rel, source, found
        self.path = str(ROOT / rel)
        self.workers, self.timeout = workers, timeout
        self.outcomes: list[tuple[Mutant, str]] = []
        self.baseline_failed = False
        self.baseline_seconds = 0.0
        self.out = sys.stdout

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def _run(self, items: list[Any]) -> bool:
        """Run the items in order; True when every one passed."""
        from _pytest.runner import runtestprotocol

        ok = True
        for i, item in enumerate(items):
            nxt = items[i + 1] if i + 1 < len(items) else None
            for report in runtestprotocol(item, log=False, nextitem=nxt):
                if report.failed:
                    ok = False
            if not ok:
                # finish the set-up state cleanly is not needed: the child exits right away
                return False
        return ok

    def pytest_runtestloop(self, session: Any) -> bool:
        import coverage

        items = list(session.items)
        cov = coverage.Coverage(data_file=None, include=[self.path])
        started = time.monotonic()
        cov.start()
        from _pytest.runner import runtestprotocol

        took: dict[str, float] = {}
        for i, item in enumerate(items):
            cov.switch_context(item.nodeid)
            nxt = items[i + 1] if i + 1 < len(items) else None
            began = time.monotonic()
            if any(r.failed for r in runtestprotocol(item, log=False, nextitem=nxt)):
                self.baseline_failed = True
            took[item.nodeid] = time.monotonic() - began
        cov.stop()
        self.baseline_seconds = time.monotonic() - started
        self.say(f"   baseline with coverage {self.baseline_seconds:.0f} s, {len(items)} tests")
        if self.baseline_failed:
            return True
        data = cov.get_data()
        files = [f for f in data.measured_files() if os.path.samefile(f, self.path)]
        by_line = {k: set(v) - {""} for k, v in (data.contexts_by_lineno(files[0]) if files else {}).items()}
        by_id = {item.nodeid: item for item in items}
        live = self._live_functions()
        defs = _outer_defs(self.source)
        jobs: list[tuple[Mutant, list[Any], list[Any], CodeType]] = []
        for m in self.found:
            unit = next((d for d in defs if d[0] <= m.line <= d[1]), None)
            if unit is None:
                self.outcomes.append((m, "module level"))
                continue
            ran = by_line.get(m.line, set())
            if not ran:
                self.outcomes.append((m, "survived: no test runs the line"))
                continue
            targets = live.get((unit[2], unit[0]), [])
            new = _code_of(mutate(self.source, self.path, m), unit[2], unit[0])  # type: ignore[arg-type]
            if not targets or new is None:
                self.outcomes.append((m, "module level"))
                continue
            # the quickest tests first: most mutants die in the first one that runs their line
            chosen = sorted(
                (it for it in items if it.nodeid in ran and it.nodeid in by_id),
                key=lambda it: took[it.nodeid],
            )
            jobs.append((m, targets, chosen, new))
        for m, status in self._fork_all(jobs):
            self.outcomes.append((m, status))
        return True

    def _live_functions(self) -> dict[tuple[str, int], list[Any]]:
        """Every function object of the module now in memory, by (name, first line)."""
        out: dict[tuple[str, int], list[Any]] = {}
        for obj in gc.get_objects():
            if isinstance(obj, FunctionType) and obj.__code__.co_filename == self.path:
                out.setdefault((obj.__code__.co_name, obj.__code__.co_firstlineno), []).append(obj)
        return out

    def _fork_all(
        self, jobs: list[tuple[Mutant, list[Any], list[Any], CodeType]]
    ) -> Iterator[tuple[Mutant, str]]:
        pending = list(jobs)
        running: dict[int, tuple[Mutant, float]] = {}
        done = 0
        while pending or running:
            while pending and len(running) < self.workers:
                m, targets, chosen, new = pending.pop(0)
                pid = os.fork()
                if pid == 0:  # the child
                    devnull = os.open(os.devnull, os.O_WRONLY)
                    os.dup2(devnull, 1)
                    os.dup2(devnull, 2)
                    try:
                        for f in targets:
                            f.__code__ = new
                        rc = 0 if self._run(chosen) else 1
                    except BaseException:
                        rc = 98
                    os._exit(rc)
                running[pid] = (m, time.monotonic())
            time.sleep(0.02)
            for pid, (m, began) in list(running.items()):
                finished, status = os.waitpid(pid, os.WNOHANG)
                if finished:
                    del running[pid]
                    rc = os.waitstatus_to_exitcode(status)
                    done += 1
                    yield m, ("survived" if rc == 0 else "not run (code shape)" if rc == 98 else "killed")
                elif time.monotonic() - began > self.timeout:
                    os.kill(pid, 9)
                    os.waitpid(pid, 0)
                    del running[pid]
                    done += 1
                    yield m, "timeout"
            if done and done % 50 == 0 and running and done != getattr(self, "_told", 0):
                self._told = done
                self.say(f"   {done}/{len(jobs)} run")


def _measure(
    rel: str,
    workers: int,
    timeout: float,
    limit: int,
    only: list[str] | None = None,
    lines: set[int] | None = None,
) -> tuple[int, int, list[tuple[Mutant, str]]]:
    """In a child process: mutate one module and report (killed, total, outcomes) through a pipe."""
    source = (ROOT / rel).read_text()
    found = [m for m in mutants(source) if not lines or m.line in lines][: limit or None]
    tests = [t for t in (only or MODULES[rel]) if (ROOT / t.split("::")[0]).exists()]
    plugin = _Mutator(rel, source, found, workers, timeout)
    import pytest

    saved = os.dup(1)
    plugin.out = os.fdopen(os.dup(1), "w")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    try:
        pytest.main(
            ["-q", "-p", "no:cacheprovider", "-o", "addopts=", "-W", "ignore", *tests], plugins=[plugin]
        )
    finally:
        os.dup2(saved, 1)
    if plugin.baseline_failed:
        print(f"   the tests fail on the module as it is; skipped ({rel})")
        return 0, len(found), []
    killed = sum(1 for _, s in plugin.outcomes if s in ("killed", "timeout"))
    # Mutants of module-level code (tables, class options) cannot be swapped into a live module: they
    # are listed but left out of the score.
    measured = sum(1 for _, s in plugin.outcomes if s != "module level")
    return killed, measured, plugin.outcomes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("modules", nargs="*", help="paths like core/pool.py (default: every measured module)")
    parser.add_argument("--jobs", type=int, default=2, help="children at a time (the machine is shared)")
    parser.add_argument(
        "--timeout", type=float, default=60.0, help="seconds per mutant before it counts as killed"
    )
    parser.add_argument("--limit", type=int, default=0, help="test only the first N mutants of each module")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument(
        "--tests",
        nargs="+",
        default=None,
        help="run these test files (or node ids) against every mutant instead of the module's listed set"
        " (quicker; the score then says what these tests alone catch)",
    )
    parser.add_argument(
        "--lines",
        default="",
        help="only the mutants on these lines, e.g. 39,41,92 (a re-run of survivors after new tests)",
    )
    args = parser.parse_args(argv)
    os.chdir(ROOT)
    sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
    os.environ["TC_MUTATION"] = "1"  # test_properties.py runs fewer examples per property
    chosen = args.modules or list(MODULES)
    unknown = [m for m in chosen if m not in MODULES]
    if unknown:
        parser.error(f"not measured: {', '.join(unknown)} (choose from {', '.join(MODULES)})")
    lines = {int(x) for x in args.lines.split(",") if x.strip()}
    scores: list[tuple[str, int, int, int, int]] = []
    for rel in chosen:
        found = [m for m in mutants((ROOT / rel).read_text()) if not lines or m.line in lines]
        if args.list:
            for m in found[: args.limit or None]:
                print(f"{rel}:{m.line}: {m.text}")
            continue
        print(f"\n== {rel}: {len(found[: args.limit or None])} mutants", flush=True)
        started = time.monotonic()
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # each module in its own process: a fresh import of core and of its tests
            os.close(read)
            try:
                result = _measure(rel, args.jobs, args.timeout, args.limit, args.tests, lines)
                payload = json.dumps([result[0], result[1], [[m.line, m.text, s] for m, s in result[2]]])
            except BaseException as bad:
                payload = json.dumps([0, 0, [[0, f"mutation run failed: {bad!r}", "error"]]])
            with os.fdopen(write, "w") as out:
                out.write(payload)
            os._exit(0)
        os.close(write)
        with os.fdopen(read) as inp:
            text = inp.read()
        os.waitpid(pid, 0)
        killed, total, outcomes = json.loads(text)
        survived = 0
        for line, text_, status in sorted(outcomes, key=lambda o: o[0]):
            if status == "timeout":  # counted as killed, but on a loaded machine it may be a slow survivor
                print(f"   TIMEOUT (counted killed) {rel}:{line}: {text_}")
            elif status != "killed":
                survived += 1
                print(f"   {status.upper()} {rel}:{line}: {text_}")
        level = sum(1 for o in outcomes if o[2] == "module level")
        print(f"   {rel}: {killed}/{total} killed, {time.monotonic() - started:.0f} s", flush=True)
        scores.append((rel, killed, survived - level, total, level))
    if not args.list:
        print("\nMutation score per module (killed / mutants run; module-level mutants not run)")
        for rel, killed, survived, total, level in scores:
            print(
                f"  {rel:40} {killed:4}/{total:<4} {100 * killed / max(total, 1):5.1f}%  "
                f"({survived} survived, {level} module-level not run)"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
