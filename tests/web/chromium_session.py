"""Debian's Chromium driven by Playwright, for the browser tests: one launch, fresh pages.

The browser test modules each start Chromium the same way; this is that way in one place
(tests/system.py says where Chromium and Playwright come from, and skips without them).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.system import BROWSER_WAIT_MS, CHROMIUM_ARGS, chromium_path, playwright_api

__all__ = ["launched_chromium", "new_page"]


@contextmanager
def launched_chromium() -> Iterator[Any]:
    """Chromium launched headless with the test switches, closed on leaving."""
    executable = chromium_path()
    with playwright_api().sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


def new_page(browser: Any, width: int, *, scripts: bool = True) -> Any:
    """A page in a context of its own (`width` px wide, downloads kept), patient as CI needs."""
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  java_script_enabled=scripts, accept_downloads=True)
    page = context.new_page()
    page.set_default_timeout(BROWSER_WAIT_MS)
    return page
