"""Every kind of page passes axe-core with no serious or critical violation, as served (the CSP
stays on: axe-core is evaluated through the browser's debugging channel, not injected)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.accessibility import serious_violations
from tests.system import BROWSER_WAIT_MS, CHROMIUM_ARGS, chromium_path, playwright_api
from tests.web.conquest_support import copy_season, live_server, make_app

sync_api = playwright_api()

PAGES = (
    "/",
    "/conquest",
    "/conquest/1",
    "/conquest/1/battles",
    "/conquest/1/battles/2",
    "/conquest/1/factions/SX",
    "/conquest/rules",
    "/conquest/1/verify",
    "/conquest/operator",
    "/verify",
    "/warscore",
    "/clash",
    "/clash/exchange",
    "/ballot",
)
WIDTHS = (390, 1280)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = chromium_path()
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture
def server(demo_master: tuple[Path, dict[str, object]], tmp_path: Path) -> Iterator[str]:
    with live_server(make_app(copy_season(demo_master[0], tmp_path))) as base:
        yield base


def test_every_page_passes_axe_core_at_phone_and_desktop_width(browser: Any, server: str) -> None:
    found: list[str] = []
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900})
        page = context.new_page()
        page.set_default_timeout(BROWSER_WAIT_MS)
        for path in PAGES:
            response = page.goto(server + path)
            assert response is not None and response.status < 400, path
            found += [f"{path} at {width} px: {v}" for v in serious_violations(page)]
        context.close()
    assert not found, "\n".join(found)
