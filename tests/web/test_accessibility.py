"""Every kind of page passes axe-core with no serious or critical violation, as served (the CSP
stays on: axe-core is evaluated through the browser's debugging channel, not injected).

The front page `/` is the newest season's home: it is checked to be that page (all but its own
address in `og:url`) rather than run through axe-core a second time at each width, the season
home being the heaviest page axe-core reads (a map and its tables, about 3,500 elements)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.accessibility import serious_violations
from tests.web.chromium_session import launched_chromium, new_page
from tests.web.conquest_support import copy_season, live_server, make_app

PAGES = (
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
    "/warscore/wars",
    "/clash",
    "/clash/exchange",
    "/ballot",
)
WIDTHS = (390, 1280)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


@pytest.fixture
def server(demo_master: tuple[Path, dict[str, object]], tmp_path: Path) -> Iterator[str]:
    with live_server(make_app(copy_season(demo_master[0], tmp_path))) as base:
        yield base


def test_every_page_passes_axe_core_at_phone_and_desktop_width(browser: Any, server: str) -> None:
    found: list[str] = []
    for width in WIDTHS:
        page = new_page(browser, width)
        for path in PAGES:
            response = page.goto(server + path)
            assert response is not None and response.status < 400, path
            found += [f"{path} at {width} px: {v}" for v in serious_violations(page)]
        page.context.close()
    assert not found, "\n".join(found)


def test_the_front_page_is_the_season_home_axe_core_checks(
        demo_master: tuple[Path, dict[str, object]], tmp_path: Path) -> None:
    with TestClient(make_app(copy_season(demo_master[0], tmp_path))) as client:
        front, home = client.get("/"), client.get("/conquest/1")
    assert front.status_code == home.status_code == 200
    own_address = '<meta property="og:url" content="http://testserver{}">'
    assert own_address.format("/") in front.text
    assert front.text.replace(own_address.format("/"), own_address.format("/conquest/1")) \
        == home.text


def test_the_check_reports_a_page_with_serious_violations(browser: Any) -> None:
    """The check itself still finds what it looks for (it asks axe-core for violations only)."""
    page = new_page(browser, 1280)
    page.set_content('<html lang="en"><title>t</title><main><img src="x.png">'
                     '<button></button><p style="color:#777;background:#888">faint</p></main>')
    found = serious_violations(page)
    page.context.close()
    rules = {line.split(" ", 1)[0] for line in found}
    assert {"image-alt", "button-name", "color-contrast"} <= rules, found
