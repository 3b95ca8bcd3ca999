"""Suites that need a system program (Chromium, Node.js, PostgreSQL) or the Playwright
package ask for it here.

Outside CI a missing program skips the suite with one line naming it; under `CI=true`
nothing may be skipped, so a missing program fails the test instead.
"""

from __future__ import annotations

import glob
import importlib
import os
import shutil
from pathlib import Path
from types import ModuleType
from typing import NoReturn

import pytest

__all__ = [
    "BROWSER_WAIT_MS",
    "CHROMIUM_ARGS",
    "axe_script",
    "chromium_path",
    "node_path",
    "playwright_api",
    "postgres_bin",
    "require",
]

BROWSER_WAIT_MS = 120_000
"""How long a browser test waits for a page or an element. A working page answers in well
under a second; the margin is for CI, where two cores also run the server and its bots."""

# Headless Chromium on a machine with no network but loopback: without the background
# networking switches it keeps trying (and failing) to reach outside hosts at every start.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _missing(message: str) -> NoReturn:
    """Skip, or fail under CI, with one line saying what is missing (at module level too,
    so a test module may ask before it defines anything)."""
    if os.environ.get("CI") == "true":
        pytest.fail(message)
    pytest.skip(message, allow_module_level=True)


def require(found: str | None, what: str) -> str:
    """Return the path found, or skip (fail under CI) naming the missing program."""
    if found:
        return found
    _missing(f"{what} is not installed (Debian package needed; `make test` installs it as root)")


def playwright_api() -> ModuleType:
    """Playwright's sync API, or skip (fail under CI) when the package is missing."""
    try:
        return importlib.import_module("playwright.sync_api")
    except ImportError as error:
        _missing(f"the playwright package is not installed ({error}; it is a dev dependency)")


HEADLESS_SHELL = "chromium-headless-shell"
"""Debian's Chromium built as its headless shell: the package of that name, from the same
source and at the same version as `chromium`. It renders with the same Blink and V8 but has
no browser window behind each page, and a page costs a fraction of the processor time: ten
blank pages in fresh contexts took 1.5 s of CPU in it against 18.8 s in `chromium
--headless`, and the browser test files 212 s against 415 s of browser CPU (two-core 2.0 GHz
machine). The suite is bound by processor time, so it prefers the shell; `make test` installs
it as root beside `chromium`, which the tests use when the shell is missing."""


def chromium_path() -> str:
    """Debian's Chromium, which Playwright drives (its own browser download is unreachable):
    the headless shell when it is installed, else the full browser."""
    return require(shutil.which(HEADLESS_SHELL) or shutil.which("chromium"), "chromium")


def node_path() -> str:
    """Node.js, for the JavaScript verifier."""
    return require(shutil.which("node"), "nodejs")


def postgres_bin() -> str:
    """The folder holding PostgreSQL's server programs (initdb, pg_ctl, postgres)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return require(os.path.dirname(found[-1]) if found else None, "postgresql")


AXE_SCRIPT = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core as `make test` installs it from npm (package.json); a test injects it into a page."""


def axe_script() -> str:
    """The text of axe-core, to add to a page under test, or skip (fail under CI) without it."""
    found = str(AXE_SCRIPT) if AXE_SCRIPT.is_file() else None
    path = require(found, "axe-core (npm package; `make test` installs it with npm)")
    return Path(path).read_text(encoding="utf-8")
