"""Debian's Chromium driven by Playwright, for the browser tests: one launch, fresh pages.

The browser test modules each start Chromium the same way; this is that way in one place
(tests/system.py says where Chromium and Playwright come from, and skips without them).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.system import BROWSER_WAIT_MS, CHROMIUM_ARGS, chromium_path, playwright_api

__all__ = ["launched_chromium", "new_page", "revisit", "visit"]

# a page that reloads itself on a live update may win the race against a navigation more than
# once in a row when several updates arrive together
VISIT_ATTEMPTS = 6


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


def visit(page: Any, url: str) -> None:
    """Go to `url`, again if the page's own live reload aborted the navigation.

    A waiting page reloads itself when the game moves on (the other side committed); a
    navigation the test starts in that instant fails with net::ERR_ABORTED or "interrupted by
    another navigation". That is the page's reload winning, not the server refusing.
    """
    for attempt in range(VISIT_ATTEMPTS):
        try:
            page.goto(url)
            return
        except playwright_api().Error as error:
            reloaded = "ERR_ABORTED" in str(error) or "interrupted by another" in str(error)
            if not reloaded or attempt == VISIT_ATTEMPTS - 1:
                raise
            page.wait_for_load_state()


def revisit(page: Any, url: str) -> Any:
    """Open `url` in a new page of `page`'s context (same cookies) and leave `page` behind.

    A page whose live stream has heard that the game moved on reloads itself; that reload can
    land after a `goto` the test made in the same instant and take the page back to where it
    was. The next steps act on the new page, which has no reload pending. The old page is not
    closed: Chromium can acknowledge a close that races a navigation commit without closing,
    and Playwright then waits for ever (microsoft/playwright#42068); it goes with its context.
    """
    fresh = page.context.new_page()
    fresh.set_default_timeout(BROWSER_WAIT_MS)
    visit(fresh, url)
    return fresh
