#!/usr/bin/env python3
"""Build Table Companion into dist/, serve it, test it, measure it.

    python3 build.py serve    # set up, build dist/, serve on http://127.0.0.1:8000
    python3 build.py test     # set up, build dist/, run every test (in parallel, one worker a core)
    python3 build.py test --fast  # the edit loop: without the Chromium, Node.js and exhaustive tests
    python3 build.py test --cov   # either tier with the coverage summary of core/
    python3 build.py bench    # set up, build dist/, print the performance figures
    python3 build.py          # set up and build dist/ only

Run with any Python 3.11+: the first thing it does is make ``.venv`` with the
pinned packages of pyproject.toml and run itself again from there.

The build (see README, "Architecture"):

1. fetches the pinned Pyodide runtime (npm package ``pyodide``) with ``npm pack``
   and the pinned wasm32 wheels with ``pip download``, checks their sha256 and
   keeps them in ``.cache/`` so that later builds work offline;
2. packs ``core/`` into a wheel;
3. compiles the standard library and every wheel to Python 3.14 bytecode inside
   Pyodide under Node.js, because Pyodide never writes ``.pyc`` itself and
   would recompile every module at every start;
4. writes the lock file Pyodide loads the wheels from, the JSON Schemas of the
   engine's operations, the pages (jinja2), the web manifest and a service
   worker whose precache list is every file built.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import csv
import gzip
import hashlib
import http.server
import importlib
import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import venv
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
#: Where the site is built; TC_DIST moves it (two builds side by side, e.g. while a test runs).
DIST = Path(os.environ.get("TC_DIST") or ROOT / "dist")
CACHE = ROOT / ".cache"
VENV = ROOT / ".venv"
WEB = ROOT / "web"
STATIC = ROOT / "static"

PYODIDE_VERSION = "314.0.7"
PYODIDE_SHA256 = "66b7949e5a0cba2250b586d7e368bf12fb482800748d182c4618254b685ffaa0"
#: The files of the runtime the app needs (the rest of the npm package is docs and maps).
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")
WASM_PLATFORM = "pyemscripten_2026_0_wasm32"
CHROMIUM = Path("/usr/bin/chromium")


@dataclass(frozen=True)
class Wheel:
    """A pinned wheel the browser loads, with what it imports and depends on."""

    name: str
    version: str
    filename: str
    sha256: str
    imports: tuple[str, ...]
    depends: tuple[str, ...] = ()
    #: Paths inside the wheel the app never imports, left out of the site.
    exclude: tuple[str, ...] = ()


WHEELS = (
    Wheel(
        "typing-extensions",
        "4.16.0",
        "typing_extensions-4.16.0-py3-none-any.whl",
        "481caa481374e813c1b176ada14e97f1f67a4539ce9cfeb3f350d78d6370c2e8",
        ("typing_extensions",),
    ),
    Wheel(
        "annotated-types",
        "0.8.0",
        "annotated_types-0.8.0-py3-none-any.whl",
        "f072f4d804ea359e4eaf198b1af7a8b0943881a87f31bb764f8bf219bb9419e0",
        ("annotated_types",),
    ),
    Wheel(
        "typing-inspection",
        "0.4.5",
        "typing_inspection-0.4.5-py3-none-any.whl",
        "bc210535442b39e1bf2805e0c7a17dfd6a4ace760c84c7f7d16245d23a6b1c39",
        ("typing_inspection",),
        ("typing-extensions",),
    ),
    Wheel(
        "pydantic-core",
        "2.50.4",
        f"pydantic_core-2.50.4-cp314-cp314-{WASM_PLATFORM}.whl",
        "e6da138a1ecc1341c8b788a5ee822670b03788e1f5decf7af9d461de6e508b8e",
        ("pydantic_core",),
        ("typing-extensions",),
    ),
    Wheel(
        "segno",
        "1.6.6",
        "segno-1.6.6-py3-none-any.whl",
        "28c7d081ed0cf935e0411293a465efd4d500704072cdb039778a2ab8736190c7",
        ("segno",),
        # The command line and the optional writers (PIL, PDF...) are never used.
        exclude=("segno/cli", "segno/helpers", "*.pyi", "segno-*.data"),
    ),
    Wheel(
        "pydantic",
        "2.14.3",
        "pydantic-2.14.3-py3-none-any.whl",
        "3f7b347782ab7e4cf4c798496ae3a82787d9f21ec12676a9c564355eeef8daa8",
        ("pydantic",),
        ("typing-extensions", "pydantic-core", "annotated-types", "typing-inspection"),
        # pydantic 1's API kept for migration, and the mypy plugin: never imported. Nor are the
        # deprecated and experimental APIs, the color and URL types (issue 26: a first visit
        # downloads all this; tests/test_pyodide.py runs every kind of engine call without them).
        (
            "pydantic/v1",
            "pydantic/mypy",
            "pydantic/_hypothesis_plugin",
            "*.pyi",
            "pydantic/deprecated",
            "pydantic/experimental",
            "pydantic/color",
            "pydantic/networks",
            "pydantic/_internal/_git",
        ),
    ),
)
CORE_NAME = "tablecompanion-core"

#: Parts of the standard library a rules engine in a browser tab never imports
#: (debuggers, REPL, test frameworks, mail and server protocols, processes, the
#: legacy 8-bit codecs). Dropping them saves about 1 MB of download; the tests boot
#: the trimmed library and run every engine operation in it. Patterns are fnmatch
#: patterns on module paths; "!" keeps a module a pattern would drop (zipfile
#: decodes older wheel names with cp437).
STDLIB_EXCLUDE = (
    "_pyrepl", "multiprocessing", "unittest", "pdb", "pydoc", "pydoc_data", "doctest",
    "mailbox", "xmlrpc", "wsgiref", "imaplib", "poplib", "smtplib", "ftplib", "nntplib",
    "idlelib", "turtle", "turtledemo", "tkinter", "curses", "dbm", "ensurepip", "venv",
    "lib2to3", "pickletools", "tabnanny", "trace", "profile", "cProfile", "pstats",
    "timeit", "webbrowser", "html", "_pydatetime", "_pyio",
    "argparse", "optparse", "configparser", "statistics", "difflib", "bdb", "ctypes",
    "xml/dom", "xml/etree", "xml/parsers",
    "encodings/cp[0-9]*", "encodings/mac_*", "encodings/koi8_*", "encodings/iso8859_*",
    "!encodings/cp437",
    # Issue 26 (a first visit downloads all this): modules that neither the core, its wheels nor
    # Pyodide's start import (listed from sys.modules after every test_pyodide.py request), and
    # that nothing they import can reach: file formats, shells, servers, Windows-only asyncio.
    "tomllib", "plistlib", "modulefinder", "wave", "socketserver", "compileall", "symtable",
    "sqlite3", "cmd", "fileinput", "pyclbr", "zipapp", "netrc", "getpass", "shelve", "py_compile",
    "rlcompleter", "pty", "tty", "sched", "colorsys", "this", "antigravity", "__hello__",
    "__phello__", "tracemalloc", "asyncio/windows_*", "asyncio/proactor_events", "http/server",
    "concurrent/futures/process", "logging/config", "logging/handlers",
)  # fmt: skip


def log(message: str) -> None:
    print(f"[build] {message}", flush=True)


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


# --- 0. the environment -------------------------------------------------------------


def requirements() -> list[str]:
    """The pinned packages of pyproject.toml: run-time and dev."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return [*project["dependencies"], *project["optional-dependencies"]["dev"]]


def bootstrap() -> None:
    """Make .venv with the pinned packages (once) and run this script from it."""
    if Path(sys.prefix).resolve() == VENV.resolve():
        return
    python = VENV / "bin" / "python"
    if not python.exists():
        log(f"creating {VENV.name}")
        venv.create(VENV, with_pip=True)
    wanted = sha256("\n".join(requirements()).encode())
    stamp = VENV / ".requirements"
    if not stamp.exists() or stamp.read_text() != wanted:
        log("installing the pinned Python packages")
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", *requirements()],
            check=True,
        )
        stamp.write_text(wanted)
    os.execv(str(python), [str(python), str(Path(__file__).resolve()), *sys.argv[1:]])


def ensure_chromium() -> None:
    """The browser tests drive Debian's Chromium; install it if it is missing."""
    if CHROMIUM.exists():
        return
    if os.geteuid() != 0 or not shutil.which("apt-get"):
        sys.exit(f"the browser tests need Chromium at {CHROMIUM}: install Debian's 'chromium'")
    log("installing Debian's chromium")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "chromium"], check=True, env=env, stdout=subprocess.DEVNULL
    )


# --- 1. pinned artefacts -------------------------------------------------------------


def cached(path: Path, expected: str, fetch: Any) -> bytes:
    """The bytes of a pinned download, fetched once and checked every time."""
    if not path.exists():
        fetch()
    if not path.exists():
        sys.exit(f"could not fetch {path.name}")
    data = path.read_bytes()
    if sha256(data) != expected:
        path.unlink()
        sys.exit(f"{path.name}: sha256 {sha256(data)} is not the pinned {expected}; removed")
    return data


def pyodide_runtime() -> Path:
    """The unpacked runtime of the pinned npm package ``pyodide``."""
    folder = CACHE / f"pyodide-{PYODIDE_VERSION}"
    tarball = CACHE / f"pyodide-{PYODIDE_VERSION}.tgz"
    if (folder / "package" / "pyodide.asm.wasm").exists():
        return folder / "package"

    def fetch() -> None:
        log(f"fetching pyodide {PYODIDE_VERSION} with npm pack")
        subprocess.run(
            ["npm", "pack", f"pyodide@{PYODIDE_VERSION}", "--silent"],
            cwd=CACHE,
            check=True,
            stdout=subprocess.DEVNULL,
        )

    data = cached(tarball, PYODIDE_SHA256, fetch)
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(folder, filter="data")
    return folder / "package"


def wheel_file(wheel: Wheel) -> bytes:
    path = CACHE / "wheels" / wheel.filename

    def fetch() -> None:
        log(f"fetching {wheel.filename} with pip download")
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--disable-pip-version-check",
                "--only-binary=:all:",
                "--platform",
                WASM_PLATFORM,
                "--python-version",
                "3.14",
                "--implementation",
                "cp",
                "--abi",
                "cp314",
                "-d",
                str(path.parent),
                f"{wheel.name}=={wheel.version}",
            ],
            check=True,
        )

    return cached(path, wheel.sha256, fetch)


# --- 2. the core's own wheel -------------------------------------------------------

FIXED_TIME = (2020, 1, 1, 0, 0, 0)


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def write_wheel(files: Iterable[tuple[str, bytes]], dist_info: str) -> bytes:
    """A wheel (a zip with a RECORD) of ``files``, byte-for-byte reproducible."""
    out = io.BytesIO()
    rows = []
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files:
            zf.writestr(zipfile.ZipInfo(name, FIXED_TIME), data, zipfile.ZIP_DEFLATED)
            rows.append((name, _record_hash(data), str(len(data))))
        record = io.StringIO()
        writer = csv.writer(record, lineterminator="\n")
        writer.writerows([*rows, (f"{dist_info}/RECORD", "", "")])
        zf.writestr(zipfile.ZipInfo(f"{dist_info}/RECORD", FIXED_TIME), record.getvalue())
    return out.getvalue()


#: What a package of the core holds: its modules and the data files they read (game content as JSON).
PACKAGE_SUFFIXES = (".py", ".json")


def package_files(folder: Path) -> list[Path]:
    """The modules and data files below ``folder``, in a fixed order."""
    return sorted(p for p in folder.rglob("*") if p.suffix in PACKAGE_SUFFIXES and p.is_file())


def core_wheel() -> tuple[str, bytes]:
    """Pack core/ as the wheel the browser installs."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    version = project["version"]
    stem = CORE_NAME.replace("-", "_")
    dist_info = f"{stem}-{version}.dist-info"
    files = [(p.relative_to(ROOT).as_posix(), p.read_bytes()) for p in package_files(ROOT / "core")]
    requires = "".join(f"Requires-Dist: {d}\n" for d in project["dependencies"])
    files += [
        (
            f"{dist_info}/METADATA",
            f"Metadata-Version: 2.1\nName: {CORE_NAME}\nVersion: {version}\n{requires}".encode(),
        ),
        (
            f"{dist_info}/WHEEL",
            b"Wheel-Version: 1.0\nGenerator: build.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        ),
        (f"{dist_info}/top_level.txt", b"core\n"),
    ]
    return f"{stem}-{version}-py3-none-any.whl", write_wheel(with_test_systems(files), dist_info)


# --- test sites: test-only rule systems, never in the shipped site -------------------------


def sample_battles(systems: Any) -> list[dict[str, str]]:
    """The playable systems that offer two ready-made forces: the home screen's sample battles."""
    from core.systems import implementation

    return [
        {"id": s.id, "name": s.name}
        for s in systems
        if s.status == "playable" and len(implementation(s.id).sample_forces()) >= 2
    ]


def extra_systems() -> list[tuple[Path, Any]]:
    """Folders named by ``TC_TEST_SYSTEMS`` (comma-separated, e.g. ``tests/toy_system``), with their INFO.

    Set only to build a test site (with ``TC_DIST`` elsewhere than dist/): its core also holds each
    package as ``core/systems/<id>/`` with its registration line, and its pages the folder's ``*.js``
    (the system's editor).  The shipped site is built without it.
    """
    out = []
    for folder in filter(None, os.environ.get("TC_TEST_SYSTEMS", "").split(",")):
        path = (ROOT / folder).resolve()
        sys.path[:0] = [p for p in (str(ROOT), str(path.parent)) if p not in sys.path]
        out.append((path, importlib.import_module(path.name).INFO))
    return out


def with_test_systems(files: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """The core's files, plus each test system's package and its registration line."""
    lines = [b"\n# Registered by build.py for a test site (TC_TEST_SYSTEMS)."]
    for path, info in extra_systems():
        files = files + [
            (f"core/systems/{info.id}/{p.relative_to(path).as_posix()}", p.read_bytes())
            for p in package_files(path)
        ]
        lines.append(
            f"SYSTEMS = (*SYSTEMS, SystemInfo.model_validate_json({info.model_dump_json()!r}))\n"
            f"IMPLEMENTATIONS[{info.id!r}] = 'core.systems.{info.id}'".encode()
        )
    if len(lines) == 1:
        return files
    registry = "core/systems/__init__.py"
    return [(n, d + b"\n".join(lines) + b"\n" if n == registry else d) for n, d in files]


# --- 3. bytecode, compiled inside Pyodide ---------------------------------------------

#: Runs inside Pyodide: rewrites a zip (stdlib or wheel) with every .py as a .pyc.
COMPILER_PY = r"""
import ast, base64, csv, fnmatch, hashlib, importlib.util, io, marshal, zipfile

def _record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "sha256=" + digest

def _excluded(name, exclude):
    stem = name.removesuffix(".py")
    for pattern in exclude:
        if pattern.startswith("!"):
            continue
        if fnmatch.fnmatch(stem, pattern) or stem.startswith(pattern + "/"):
            return not any(fnmatch.fnmatch(stem, keep[1:]) for keep in exclude if keep.startswith("!"))
    return False

def _module_name(path):
    stem = path.removesuffix(".py").removesuffix("/__init__")
    return stem.replace("/", ".")

def _nodes(tree, deep):
    # The nodes of a module, without the bodies of its functions unless deep.
    todo = [tree]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(child for child in ast.iter_child_nodes(node)
                    if deep or not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)))

def _imported(source, module, is_package, deep):
    # Every module name an import statement of this source may load: at its import, or in any
    # scope if deep.
    out = set()
    package = module if is_package else module.rpartition(".")[0]
    for node in _nodes(ast.parse(source), deep):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join(p for p in [*parts, base] if p)
            out.add(base)
            out.update(base + "." + alias.name for alias in node.names)
    return out

def _reachable(zin, roots, exclude, deep):
    # The .py paths of the modules ``roots`` name ("pkg.*": the package and all below it) and of
    # every module they import when imported, directly or through each other, with each package
    # above them (not through an excluded one). An import inside a function counts only in the
    # packages ``deep`` names (Pyodide's own, which its loader calls); a name built at run time
    # does not (what the engine imports that way must be among ``roots``).
    paths = {_module_name(i.filename): i.filename for i in zin.infolist() if i.filename.endswith(".py")}
    todo = []
    for root in roots:
        top = root.removesuffix(".*")
        todo += [n for n in paths if n == top or (root != top and n.startswith(top + "."))] or [top]
    seen = set()
    while todo:
        name = todo.pop()
        for part in [".".join(name.split(".")[: i + 1]) for i in range(name.count(".") + 1)]:
            if part in seen or part not in paths or _excluded(paths[part], exclude):
                continue
            seen.add(part)
            path = paths[part]
            try:
                found = _imported(zin.read(path), part, path.endswith("__init__.py"),
                                  part.partition(".")[0] in deep)
            except SyntaxError:
                continue
            todo.extend(found - seen)
    return {paths[name] for name in seen}

def compile_archive(src, dst, prefix, optimize, exclude, roots=None):
    if any(p[2] is not None for p in compile("x = 1", "<check>", "exec").co_positions()):
        raise RuntimeError("column ranges are on: PYTHONNODEBUGRANGES did not reach the compiler")
    kept = []
    with zipfile.ZipFile(src) as zin:
        keep = _reachable(zin, roots, exclude, ("pyodide", "_pyodide")) if roots else None
        for info in zin.infolist():
            name = info.filename
            if info.is_dir() or _excluded(name, exclude):
                continue
            if keep is not None and name.endswith(".py") and name not in keep:
                continue
            data = zin.read(info)
            if name.endswith(".py"):
                try:
                    code = compile(data, prefix + name, "exec", dont_inherit=True,
                                   optimize=optimize)
                except SyntaxError:
                    kept.append((name, data))
                    continue
                header = importlib.util.MAGIC_NUMBER + bytes(8)
                header += (len(data) & 0xFFFFFFFF).to_bytes(4, "little")
                kept.append((name[:-3] + ".pyc", header + marshal.dumps(code)))
            elif not name.endswith(".dist-info/RECORD"):
                kept.append((name, data))
    records = [n for n in (i.filename for i in zipfile.ZipFile(src).infolist())
               if n.endswith(".dist-info/RECORD")]
    with zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for name, data in kept:
            zout.writestr(zipfile.ZipInfo(name, (2020, 1, 1, 0, 0, 0)), data,
                          zipfile.ZIP_DEFLATED, compresslevel=9)
        for record in records:
            text = io.StringIO()
            rows = [(n, _record_hash(d), str(len(d))) for n, d in kept] + [(record, "", "")]
            csv.writer(text, lineterminator="\n").writerows(rows)
            zout.writestr(zipfile.ZipInfo(record, (2020, 1, 1, 0, 0, 0)), text.getvalue(),
                          zipfile.ZIP_DEFLATED)
"""

#: Runs under Node: boots Pyodide and compiles each job's archive.
COMPILER_JS = r"""
import fs from "node:fs";
import { pathToFileURL } from "node:url";
const [runtime, jobsFile, compilerFile] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(runtime + "/pyodide.mjs").href);
// Without column ranges (the carets under a traceback's line): a quarter of the bytecode's
// size, and the line numbers stay exact (issue 26: a first visit downloads it).
const py = await loadPyodide({ indexURL: runtime + "/", env: { PYTHONNODEBUGRANGES: "1" } });
py.runPython(fs.readFileSync(compilerFile, "utf8"));
const compile = py.globals.get("compile_archive");
for (const job of JSON.parse(fs.readFileSync(jobsFile, "utf8"))) {
  py.FS.writeFile("/tmp/in.zip", fs.readFileSync(job.src));
  compile("/tmp/in.zip", "/tmp/out.zip", job.prefix, job.optimize, py.toPy(job.exclude), py.toPy(job.roots));
  fs.writeFileSync(job.dst, py.FS.readFile("/tmp/out.zip"));
}
"""


@dataclass(frozen=True)
class Archive:
    """A zip (the stdlib or a wheel) to compile: where its modules live and how."""

    name: str
    data: bytes
    prefix: str
    optimize: int = 0
    exclude: tuple[str, ...] = ()
    #: Keep only the modules these import, directly or not (the standard library: issue 26).
    roots: tuple[str, ...] = ()

    @property
    def key(self) -> str:
        lists = f"{','.join(self.exclude)}|{','.join(self.roots)}"
        recipe = f"{self.prefix}|{self.optimize}|{lists}|{COMPILER_PY}|{COMPILER_JS}"
        return sha256(self.data + recipe.encode())[:16]


#: Standard-library modules kept whatever the shipped code imports: those the interpreter and
#: Pyodide load by a name built at run time rather than by an import statement (a codec looked up
#: by its name, the site hooks, Pyodide's own Python packages, which its JavaScript imports).
STDLIB_ROOTS = (
    "encodings.*", "pyodide.*", "_pyodide.*", "site", "sitecustomize", "_sitebuiltins",
    "_sysconfigdata__emscripten_wasm32-emscripten", "zipimport", "importlib.*", "codecs", "io",
    "abc", "os", "stat", "posixpath", "genericpath", "_collections_abc", "runpy",
    # web/snapshot.js lists the modules to import with it.
    "pkgutil",
)  # fmt: skip


def stdlib_roots(archives: Iterable[Archive]) -> tuple[str, ...]:
    """The modules the shipped Python (the core and every wheel, less what they leave out) names
    in any import statement, in any scope, with STDLIB_ROOTS: the standard library keeps these
    and whatever they import (issue 26: a first visit downloads it). Parsed by this Python,
    which reads every shipped source (they support 3.11)."""
    import ast

    helpers: dict[str, Any] = {}
    exec(COMPILER_PY, helpers)  # the same exclusion rule the compiler applies
    names = set(STDLIB_ROOTS)
    for archive in archives:
        with zipfile.ZipFile(io.BytesIO(archive.data)) as zf:
            for info in zf.infolist():
                if not info.filename.endswith(".py") or helpers["_excluded"](info.filename, archive.exclude):
                    continue
                for node in ast.walk(ast.parse(zf.read(info))):
                    if isinstance(node, ast.Import):
                        names.update(alias.name for alias in node.names)
                    elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                        names.add(node.module)
                        names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return tuple(sorted(names))


def compile_bytecode(runtime: Path, archives: list[Archive]) -> dict[str, bytes]:
    """Compile each archive to Python 3.14 bytecode inside Pyodide, with a cache.

    Without Node.js the sources are shipped as they are: the app still works,
    it only starts slower.
    """
    out_dir = CACHE / "compiled"
    out_dir.mkdir(parents=True, exist_ok=True)
    todo = [a for a in archives if not (out_dir / f"{a.key}-{a.name}").exists()]
    if todo:
        node = shutil.which("node")
        if node is None:
            log("WARNING: no Node.js, shipping Python sources uncompiled (slower start-up)")
            return {a.name: a.data for a in archives}
        # A folder of its own: several work trees may share one .cache/ and build at once.
        work = Path(tempfile.mkdtemp(prefix="compile-work-", dir=CACHE))
        jobs = []
        for a in todo:
            (work / a.name).write_bytes(a.data)
            jobs.append(
                {
                    "src": str(work / a.name),
                    "dst": str(out_dir / f"{a.key}-{a.name}"),
                    "prefix": a.prefix,
                    "optimize": a.optimize,
                    "exclude": list(a.exclude),
                    "roots": list(a.roots),
                }
            )
        (work / "jobs.json").write_text(json.dumps(jobs))
        (work / "compiler.py").write_text(COMPILER_PY)
        (work / "compile.mjs").write_text(COMPILER_JS)
        log(f"compiling {len(todo)} archive(s) to bytecode inside Pyodide")
        subprocess.run(
            [
                node,
                str(work / "compile.mjs"),
                str(runtime),
                str(work / "jobs.json"),
                str(work / "compiler.py"),
            ],
            check=True,
        )
        shutil.rmtree(work, ignore_errors=True)
    return {a.name: (out_dir / f"{a.key}-{a.name}").read_bytes() for a in archives}


# --- 3b. the runtime, patched for memory snapshots (issue #13) ------------------------

#: Text replacements in ``pyodide.asm.mjs`` so that a memory snapshot made in the browser
#: can be restored with pydantic_core's shared library (see PLATFORM.md, "Memory
#: snapshots", and web/snapshot.js). Each ``old`` must occur exactly once in the pinned
#: runtime, or the build stops: a new Pyodide needs these checked again.
RUNTIME_PATCHES = (
    # A shared library is placed at the memory and table base recorded when the snapshot
    # was made (``Module.tcFixedLibs[libName]``), instead of wherever malloc and the table
    # end are now: the snapshot's pointers into it stay valid (Pyodide issue 6418).
    (
        "var memoryBase=metadata.memorySize?alignMemory(getMemory(metadata.memorySize+memAlign),memAlign):0;",
        "var tcFixed=Module.tcFixedLibs?.[libName];"
        "if(tcFixed&&metadata.tableSize){if(wasmTable.length>tcFixed.tableBase)"
        "throw new Error(`function table already at ${wasmTable.length} > ${tcFixed.tableBase}`);"
        "if(wasmTable.length<tcFixed.tableBase)wasmTable.grow(tcFixed.tableBase-wasmTable.length)}"
        "var memoryBase=metadata.memorySize?(tcFixed?tcFixed.memoryBase:"
        "alignMemory(getMemory(metadata.memorySize+memAlign),memAlign)):0;",
    ),
    # ... and where each library was placed is recorded, for the snapshot's metadata.
    (
        "var tableBase=metadata.tableSize?wasmTable.length:0;",
        "var tableBase=metadata.tableSize?wasmTable.length:0;"
        "(Module.tcLoadedLibs??=[]).push({libName,memoryBase,tableBase,"
        "memorySize:metadata.memorySize,tableSize:metadata.tableSize});",
    ),
    # A snapshot larger than the initial heap is copied in only after the memory has grown
    # to its size: 314.0.7 ignores the requested memory size (Pyodide issue 6254).
    (
        "return Module.HEAP8.set(t),l}",
        "if(t.length>Module.HEAP8.length){wasmMemory.grow(Math.ceil((t.length-Module.HEAP8.length)/65536));"
        "updateMemoryViews()}return Module.HEAP8.set(t),l}",
    ),
)


def patch_runtime(source: str) -> str:
    """``pyodide.asm.mjs`` with RUNTIME_PATCHES applied (each exactly once)."""
    for old, new in RUNTIME_PATCHES:
        count = source.count(old)
        if count != 1:
            sys.exit(f"pyodide.asm.mjs: expected one {old[:60]!r}..., found {count}: check RUNTIME_PATCHES")
        source = source.replace(old, new)
    return source


# --- 4. the site ------------------------------------------------------------------


def lock_file(runtime: Path, wheels: dict[str, tuple[Wheel, bytes]]) -> dict[str, Any]:
    """Pyodide's lock file: the runtime's info block and our wheels only."""
    info = json.loads((runtime / "pyodide-lock.json").read_text())["info"]
    packages = {}
    for name, (wheel, data) in wheels.items():
        packages[wheel.name] = {
            "name": wheel.name,
            "version": wheel.version,
            "file_name": name,
            "install_dir": "site",
            "sha256": sha256(data),
            "package_type": "package",
            "imports": list(wheel.imports),
            "depends": list(wheel.depends),
            "unvendored_tests": False,
        }
    return {"info": info, "packages": packages}


def render_templates(context: dict[str, Any]) -> None:
    """Render every web/*.j2 into dist/ (the service worker is rendered last)."""
    import jinja2

    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(WEB),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
    )
    for template in sorted(WEB.glob("*.j2")):
        if template.name == "sw.js.j2":
            continue
        (DIST / template.name.removesuffix(".j2")).write_text(
            env.get_template(template.name).render(**context)
        )


#: Built for developers (the seam's JSON Schemas), never fetched by the app: phones do not download it.
NOT_PRECACHED = {"schemas.json"}
#: What the engine needs before its wheels: a first visit's service worker fetches these at once
#: and the wheels after them (issue 26; web/sw.js.j2).
ENGINE_RUNTIME = (
    "engine.js", "build-info.js", "snapshot.js", "pyodide/pyodide-lock.json",
    *(f"pyodide/{name}" for name in PYODIDE_FILES),
)  # fmt: skip


def engine_stages(files: list[str]) -> list[list[str]]:
    """What a first visit's service worker fetches in turn (issue 26): ENGINE_RUNTIME, then the
    wheels the engine installs first (pydantic_core's is the largest), then the core's wheel, which
    it installs last (it depends on the others): so each is installed while the next comes in."""
    core = f"pyodide/{CORE_NAME.replace('-', '_')}-"
    wheels = [f for f in files if f.startswith("pyodide/") and f.endswith(".whl")]
    return [
        [f for f in ENGINE_RUNTIME if f in files],
        [f for f in wheels if not f.startswith(core)],
        [f for f in wheels if f.startswith(core)],
    ]


def render_service_worker(build_id: str) -> list[str]:
    """Write sw.js with the list of every built file; returns that list."""
    import jinja2

    files = sorted(
        p.relative_to(DIST).as_posix() for p in DIST.rglob("*") if p.is_file() and p.name not in NOT_PRECACHED
    )
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(WEB), autoescape=False, undefined=jinja2.StrictUndefined
    )
    (DIST / "sw.js").write_text(
        env.get_template("sw.js.j2").render(
            build_id=build_id,
            precache=json.dumps(files, indent=1),
            stages=json.dumps(engine_stages(files)),
        )
    )
    return files


def build() -> dict[str, Any]:
    """Build dist/ and return a summary (sizes, build id)."""
    CACHE.mkdir(exist_ok=True)
    runtime = pyodide_runtime()
    core_name, core_bytes = core_wheel()
    core = Wheel(CORE_NAME, "0", core_name, "", ("core",), ("pydantic", "segno"))
    site = "/lib/python3.14/site-packages/"
    packages = [
        *(Archive(w.filename, wheel_file(w), site, optimize=2, exclude=w.exclude) for w in WHEELS),
        Archive(core_name, core_bytes, site),
    ]
    stdlib = Archive(
        "python_stdlib.zip",
        (runtime / "python_stdlib.zip").read_bytes(),
        "/lib/python314.zip/",
        optimize=2,
        exclude=STDLIB_EXCLUDE,
        roots=stdlib_roots(packages),
    )
    compiled = compile_bytecode(runtime, [*packages, stdlib])

    if DIST.exists():
        shutil.rmtree(DIST)
    (DIST / "pyodide").mkdir(parents=True)
    for name in PYODIDE_FILES:
        if name != "python_stdlib.zip":
            shutil.copy(runtime / name, DIST / "pyodide" / name)
    asm = DIST / "pyodide" / "pyodide.asm.mjs"
    asm.write_text(patch_runtime(asm.read_text()))
    (DIST / "pyodide" / "python_stdlib.zip").write_bytes(compiled["python_stdlib.zip"])
    wheels = {w.filename: (w, compiled[w.filename]) for w in (*WHEELS, core)}
    for name, (_, data) in wheels.items():
        (DIST / "pyodide" / name).write_bytes(data)
    (DIST / "pyodide" / "pyodide-lock.json").write_text(json.dumps(lock_file(runtime, wheels), indent=1))

    sys.path.insert(0, str(ROOT))
    from core import __version__, api
    from core.systems import SYSTEMS

    (DIST / "schemas.json").write_text(json.dumps(api.schemas(), indent=1))
    shutil.copytree(STATIC, DIST, dirs_exist_ok=True)
    for path in WEB.iterdir():
        if path.suffix in {".js", ".mjs", ".css"}:
            shutil.copy(path, DIST / path.name)
    extra = extra_systems()
    for folder, _ in extra:
        for path in folder.glob("*.js"):
            shutil.copy(path, DIST / path.name)

    # The build id changes whenever any built byte does: it names the service
    # worker's cache, so a new build replaces the old one and nothing else.
    digest = hashlib.sha256()
    for p in sorted(DIST.rglob("*")):
        if p.is_file():
            digest.update(p.relative_to(DIST).as_posix().encode() + p.read_bytes())
    for template in sorted(WEB.glob("*.j2")):
        digest.update(template.read_bytes())
    build_id = f"{__version__}-{digest.hexdigest()[:10]}"
    context = {
        "version": __version__,
        "build_id": build_id,
        "systems": [s.model_dump() for s in (*SYSTEMS, *(i for _, i in extra))],
        "sample_battles": sample_battles(SYSTEMS),
        "core_packages": [CORE_NAME],
        "pyodide_version": PYODIDE_VERSION,
    }
    render_templates(context)
    files = render_service_worker(build_id)
    raw = sum((DIST / f).stat().st_size for f in files)
    zipped = sum(len(gzip.compress((DIST / f).read_bytes(), 6)) for f in files)
    log(
        f"dist/ built: {len(files)} files, {raw / 1e6:.1f} MB raw, {zipped / 1e6:.1f} MB gzip, "
        f"build {build_id}"
    )
    return {"build_id": build_id, "files": len(files), "raw": raw, "gzip": zipped}


# --- serving ----------------------------------------------------------------------


#: A .wasm served with another type makes Pyodide hang without an error.
MIME_TYPES = {
    ".wasm": "application/wasm",
    ".mjs": "text/javascript",
    ".js": "text/javascript",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".whl": "application/zip",
}


class Handler(http.server.SimpleHTTPRequestHandler):
    """Serves dist/ with the right types and no HTTP caching (the service worker caches)."""

    def __init__(self, *args: Any, directory: str | None = None, **kwargs: Any) -> None:
        self.extensions_map = {**self.extensions_map, **MIME_TYPES}
        super().__init__(*args, directory=directory or str(DIST), **kwargs)

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        if os.environ.get("TC_SERVE_LOG"):
            super().log_message(format, *args)


def serve(port: int) -> None:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    log(f"serving dist/ on http://127.0.0.1:{port}/ (Ctrl-C stops)")
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()


# --- commands ----------------------------------------------------------------------


def test(rest: list[str], fast: bool, cov: bool = False) -> int:
    """pytest over tests/ and core/, in parallel: one worker a core (TC_TEST_WORKERS sets how many;
    ``-n 0`` among the arguments runs them in this process). One more worker than cores was tried:
    Chromium's processes then fight for the cores, a tap's answer takes 2-5 times as long and
    tests time out. The tests that must share a worker say so (tests/conftest.py); ``--fast``
    leaves out the browser and the exhaustive tests; ``--cov`` adds the coverage summary of core/
    (off by default: tracing every line makes the rule enumerations 2-3x slower)."""
    options = ["--cov=core", "--cov-report=term"] if cov else []
    if not any(a == "-n" or a.startswith(("-n", "--numprocesses")) for a in rest):
        workers = os.environ.get("TC_TEST_WORKERS") or str(os.cpu_count() or 1)
        options += ["-n", workers, "--dist", "loadgroup"]
    if fast:
        options += ["-m", "not browser and not exhaustive"]
    else:
        ensure_chromium()
    # "full run" / "fast run" in the closing time line only when no test was picked by name.
    picked = any(not a.startswith("-") or a in ("-k", "-m") for a in rest)
    env = {**os.environ, "TC_TEST_TIER": "test" if picked else "fast" if fast else "full"}
    # Bytecode and pytest's rewritten test modules kept in __pycache__ even where the shell says not
    # to write them: collecting the tests again then takes each worker about 6 CPU s, not 17 (most of
    # it rewriting some 4,800 asserts), which the edit loop's second run feels.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return subprocess.run([sys.executable, "-m", "pytest", *options, *rest], cwd=ROOT, env=env).returncode


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument(
        "command", nargs="?", default="build", choices=["build", "serve", "test", "bench", "quality"]
    )
    parser.add_argument("--port", type=int, default=8000, help="for serve")
    parser.add_argument(
        "--fast",
        action="store_true",
        help="for test: leave out the tests marked browser (Chromium, Node.js) and exhaustive",
    )
    parser.add_argument("--cov", action="store_true", help="for test: print the coverage summary of core/")
    # Anything else goes on to pytest (test), the benchmark (bench: the number of runs) or the
    # mutation testing of core/ (quality: modules and options of tests/mutation.py; not run in CI).
    args, rest = parser.parse_known_args(argv)
    if rest and args.command not in {"test", "bench", "quality"}:
        parser.error(f"unrecognised arguments: {' '.join(rest)}")
    if (args.fast or args.cov) and args.command != "test":
        parser.error("--fast and --cov are for test")
    # The total time the tests print at their end counts from here (tests/conftest.py).
    os.environ.setdefault("TC_TEST_STARTED", str(time.time()))
    bootstrap()
    build()
    if args.command == "serve":
        serve(args.port)
    elif args.command == "test":
        return test(rest, fast=args.fast, cov=args.cov)
    elif args.command in ("bench", "quality"):
        script = "benchmark.py" if args.command == "bench" else "mutation.py"
        return subprocess.run([sys.executable, str(ROOT / "tests" / script), *rest], cwd=ROOT).returncode
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
