"""tests/system.py's rule: a missing program or the Playwright package skips a suite outside
CI and fails it under CI=true, so a CI run can never pass by skipping its browser tests."""

from __future__ import annotations

import sys

import pytest

from tests import system


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
