"""build.py's patch of the Pyodide runtime for memory snapshots (web/snapshot.js uses it)."""

from __future__ import annotations

from pathlib import Path

import pytest

import build


def test_every_patch_is_in_the_built_runtime(dist: Path) -> None:
    original = (build.pyodide_runtime() / "pyodide.asm.mjs").read_text()
    built = (dist / "pyodide" / "pyodide.asm.mjs").read_text()
    assert built == build.patch_runtime(original)
    for old, new in build.RUNTIME_PATCHES:
        assert original.count(old) == 1
        assert built.count(new) == 1
    assert "Module.tcFixedLibs?.[libName]" in built
    assert "(Module.tcLoadedLibs??=[]).push({libName,memoryBase,tableBase," in built
    assert "wasmMemory.grow(Math.ceil((t.length-Module.HEAP8.length)/65536))" in built


def test_a_runtime_the_patches_do_not_fit_stops_the_build() -> None:
    original = (build.pyodide_runtime() / "pyodide.asm.mjs").read_text()
    moved = original.replace(build.RUNTIME_PATCHES[2][0], "return Module.HEAP8.set(t), l}")
    with pytest.raises(SystemExit, match="found 0: check RUNTIME_PATCHES"):
        build.patch_runtime(moved)
    twice = original + build.RUNTIME_PATCHES[0][0]
    with pytest.raises(SystemExit, match="found 2"):
        build.patch_runtime(twice)
