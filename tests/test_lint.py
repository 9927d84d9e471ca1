"""ruff and mypy stay clean on core/ and build.py (and ruff on the tests)."""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import ROOT


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff() -> None:
    done = run("ruff", "check", "core", "build.py", "tests")
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.xdist_group("mypy")  # one .mypy_cache/: never two mypy runs at once (test_gunframe_effects.py)
def test_mypy() -> None:
    done = run("mypy")
    assert done.returncode == 0, done.stdout + done.stderr
