"""tests/system.py's rule: a missing program or the Playwright package skips a suite outside
CI and fails it under CI=true, so a CI run can never pass by skipping its browser tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import system

ROOT = Path(__file__).parents[1]


@pytest.fixture
def no_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playwright as if it were not installed (a None entry makes the import fail)."""
    monkeypatch.setitem(sys.modules, "playwright", None)
    monkeypatch.setitem(sys.modules, "playwright.sync_api", None)


@pytest.mark.usefixtures("no_playwright")
def test_missing_playwright_skips_outside_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="playwright"):
        system.playwright_api()


@pytest.mark.usefixtures("no_playwright")
def test_missing_playwright_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="playwright"):
        system.playwright_api()


def test_a_missing_program_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="chromium is not installed"):
        system.require(None, "chromium")
    assert system.require("/usr/bin/true", "true") == "/usr/bin/true"


def test_an_installed_playwright_is_its_sync_api() -> None:
    api = system.playwright_api()
    assert callable(api.sync_playwright)


MODULE_THAT_ASKS = """
import sys
sys.modules["playwright"] = None
sys.modules["playwright.sync_api"] = None
from tests.system import playwright_api
sync_api = playwright_api()
def test_never_runs():
    raise AssertionError
"""


def run_module_that_asks(tmp_path: Path, ci: bool) -> subprocess.CompletedProcess[str]:
    """A test module asking for Playwright at import time, run by pytest without it."""
    module = tmp_path / "test_needs_playwright.py"
    module.write_text(MODULE_THAT_ASKS)
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "src"), str(ROOT)])
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider", str(module)],
        capture_output=True,
        text=True,
        check=False,
        cwd=tmp_path,
        env=env,
    )


def test_a_module_level_ask_skips_the_whole_module_outside_ci(tmp_path: Path) -> None:
    result = run_module_that_asks(tmp_path, ci=False)
    assert "1 skipped" in result.stdout, result.stdout[-1000:]
    assert "the playwright package is not installed" in result.stdout


def test_a_module_level_ask_fails_the_run_under_ci(tmp_path: Path) -> None:
    result = run_module_that_asks(tmp_path, ci=True)
    assert result.returncode not in (0, 5), result.stdout[-1000:]
    assert "Failed: the playwright package is not installed" in result.stdout
