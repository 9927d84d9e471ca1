"""What build.py writes: pinned, verified, precompiled, precached, and nothing from outside."""

from __future__ import annotations

import hashlib
import json
import re
import struct
import zipfile
from pathlib import Path

import build
from core import api


def test_lock_file_names_every_wheel_with_its_true_hash(dist: Path) -> None:
    lock = json.loads((dist / "pyodide" / "pyodide-lock.json").read_text())
    assert lock["info"]["python"].startswith("3.14")
    names = {p["name"] for p in lock["packages"].values()}
    assert names == {w.name for w in build.WHEELS} | {build.CORE_NAME}
    for package in lock["packages"].values():
        data = (dist / "pyodide" / package["file_name"]).read_bytes()
        assert hashlib.sha256(data).hexdigest() == package["sha256"]
        for dependency in package["depends"]:
            assert dependency in lock["packages"]


def test_python_ships_as_bytecode_only(dist: Path) -> None:
    for archive in (dist / "pyodide").glob("*.whl"):
        names = zipfile.ZipFile(archive).namelist()
        assert any(n.endswith(".pyc") for n in names), archive.name
        assert not [n for n in names if n.endswith(".py")], archive.name
    stdlib = zipfile.ZipFile(dist / "pyodide" / "python_stdlib.zip").namelist()
    assert "json/__init__.pyc" in stdlib
    assert not any(n.endswith(".py") for n in stdlib)
    assert not any(n.startswith(("unittest/", "multiprocessing/", "pydoc_data/")) for n in stdlib)


def test_core_wheel_holds_every_core_module(dist: Path) -> None:
    (wheel,) = (dist / "pyodide").glob("tablecompanion_core-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for source in (build.ROOT / "core").rglob("*.py"):
        assert source.relative_to(build.ROOT).with_suffix(".pyc").as_posix() in names


def test_core_wheel_holds_every_data_file_unchanged(dist: Path) -> None:
    """The systems' content tables (JSON beside their modules) ship as they are, read at import."""
    (wheel,) = (dist / "pyodide").glob("tablecompanion_core-*.whl")
    archive = zipfile.ZipFile(wheel)
    sources = sorted((build.ROOT / "core").rglob("*.json"))
    assert {s.relative_to(build.ROOT).as_posix() for s in sources} >= {
        "core/systems/gundam_skirmish/catalogue.json",
        "core/systems/gundam_skirmish/samples.json",
        "core/systems/gunframe/example_units.json",
        "core/systems/gunframe/sheet.json",
        "core/systems/gunframe/structures.json",
        "core/systems/ms_battles/sample.json",
        "core/systems/ms_battles/options.json",
    }
    for source in sources:
        assert archive.read(source.relative_to(build.ROOT).as_posix()) == source.read_bytes()


def test_service_worker_precaches_every_built_file(dist: Path) -> None:
    """Every file the app uses; the seam's schemas are for developers and stay off phones."""
    text = (dist / "sw.js").read_text()
    listed = json.loads(re.search(r"const PRECACHE = (\[.*?\]);", text, re.S).group(1))  # type: ignore[union-attr]
    built = sorted(
        p.relative_to(dist).as_posix()
        for p in dist.rglob("*")
        if p.is_file() and p.name not in {"sw.js", *build.NOT_PRECACHED}
    )
    assert listed == built and "schemas.json" not in listed
    build_id = (dist / "index.html").read_text().split('name="tc-build" content="')[1].split('"')[0]
    assert f'const CACHE = "tc-{build_id}";' in text


def test_a_first_visit_fetches_the_engine_runtime_then_the_wheels_then_the_core(dist: Path) -> None:
    """Issue 26: the service worker's stages name built files only: the runtime's WebAssembly, the
    standard library and the lock file first, then every wheel but the core's, then the core's."""
    text = (dist / "sw.js").read_text()
    stages = json.loads(re.search(r"const STAGES = (\[.*?\]\])\.map", text, re.S).group(1))  # type: ignore[union-attr]
    runtime, libraries, core = stages
    assert all((dist / f).is_file() for f in runtime + libraries + core)
    needed = {"pyodide/pyodide.asm.wasm", "pyodide/python_stdlib.zip", "pyodide/pyodide-lock.json"}
    assert needed <= set(runtime)
    wheels = sorted(p.relative_to(dist).as_posix() for p in (dist / "pyodide").glob("*.whl"))
    assert sorted(libraries + core) == wheels
    assert len(core) == 1 and core[0].startswith("pyodide/tablecompanion_core-")
    assert any("pydantic_core" in f for f in libraries)


def test_manifest_icons_are_real_pngs_of_their_size(dist: Path) -> None:
    manifest = json.loads((dist / "manifest.webmanifest").read_text())
    for icon in manifest["icons"]:
        data = (dist / icon["src"]).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n"
        width, height = struct.unpack(">II", data[16:24])
        assert f"{width}x{height}" == icon["sizes"]


def test_page_has_a_strict_content_security_policy(dist: Path) -> None:
    html = (dist / "index.html").read_text()
    csp = html.split('http-equiv="Content-Security-Policy" content="')[1].split('"')[0]
    assert "default-src 'self'" in csp
    assert "script-src 'self' 'wasm-unsafe-eval'" in csp
    assert "unsafe-inline" not in csp
    assert "<script>" not in html, "no inline script"


def test_our_own_files_reference_nothing_outside_the_origin(dist: Path) -> None:
    for path in dist.iterdir():
        if path.suffix in {".html", ".js", ".css", ".webmanifest"}:
            assert not re.search(r"https?://", path.read_text()), path.name


def test_schemas_are_the_engine_schemas(dist: Path) -> None:
    assert json.loads((dist / "schemas.json").read_text()) == json.loads(json.dumps(api.schemas()))


def test_the_chromium_flags_repeat_playwrights_own_disabled_features() -> None:
    """conftest's ``--disable-features`` replaces Playwright's own (Chromium reads only the last one),
    so it holds every feature the installed Playwright disables, read from its bundle, and adds the
    address bar's popup. A Playwright whose list cannot be read fails here, not silently slower."""
    from conftest import CHROMIUM_ARGS, playwright_disabled_features

    theirs = playwright_disabled_features()
    assert "PaintHolding" in theirs, "Playwright's disabledFeatures not found in its bundle"
    (flag,) = [a for a in CHROMIUM_ARGS if a.startswith("--disable-features=")]
    assert flag.split("=", 1)[1].split(",") == [*theirs, "WebUIOmniboxPopup"]
