"""Every kind of conquest page fits a phone (390 px) and a desktop (1280 px) in Chromium.

One walk over the demo season (a FAN CLASH, a secured battle, a waiting rebellion): the show's
list, the rules, the season home, the episodes, an episode, its watch mode at the first and
the last step, a faction card and its "what would $X do", the season's verify page, "my
contributions", the embedded view, the site-wide verify page and the operator's sign-in. No
element may reach past the right edge (tables that scroll inside their own box excepted) and
the page may not scroll sideways. The stream overlay is a fixed 1280×720 or 1920×1080 frame
for a broadcast tool, checked at those sizes in test_season_home_overlay_browser.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.system import playwright_api
from tests.web.chromium_session import launched_chromium, new_page
from tests.web.conquest_support import copy_season, live_server, make_app

playwright_api()  # without Playwright the module is skipped (under CI it fails) here

WIDE = ("() => [...document.querySelectorAll('body *')].filter(e =>"
        " e.getBoundingClientRect().right > window.innerWidth + 1"
        " && !e.closest('.table-wrap, pre')).map(e => e.tagName + '#' + e.id + '.' + e.className)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


def _pages(arranged: dict[str, Any]) -> list[str]:
    clash = arranged["fan_clash_battle"]
    return ["/conquest", "/conquest/rules", "/conquest/1", "/conquest/1/battles",
            f"/conquest/1/battles/{clash}", f"/conquest/1/battles/{clash}/watch",
            f"/conquest/1/battles/{clash}/watch?step=6", "/conquest/1/factions/US-TX",
            "/conquest/1/factions/US-TX/pool-effect?amount=25", "/conquest/1/verify",
            "/conquest/1/my-contributions", "/embed/seasons/1", "/verify",
            "/conquest/operator"]


@pytest.mark.parametrize("width", [390, 1280])
def test_every_conquest_page_fits_the_screen(
        browser: Any, demo_master: tuple[Path, dict[str, Any]], tmp_path: Path,
        width: int) -> None:
    app = make_app(copy_season(demo_master[0], tmp_path), forecast_seasons=40,
                   forecast_seed="width-test")
    with live_server(app) as base:
        page = new_page(browser, width)
        for path in _pages(demo_master[1]):
            answer = page.goto(f"{base}{path}")
            assert answer is not None and answer.status == 200, (path, answer and answer.status)
            assert page.evaluate(WIDE) == [], (path, width)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, (path, width)
        page.context.close()
