"""The verify page and the operator console fit a phone (390 px) and a desktop (1280 px).

Checked in Debian's Chromium: after a verified archive (the long digests in the notes used to
widen the verify page to 627 px) and on a console with a beacon to record (two long hex
fields). Screenshots are kept under test-artifacts/browser/.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.store import publication, season
from tests.conquest.helpers import SEED
from tests.system import BROWSER_WAIT_MS, CHROMIUM_ARGS, chromium_path
from tests.web.conquest_support import ADMIN_TOKEN, QUICKNET_ROUND, live_server, make_app

sync_api = pytest.importorskip("playwright.sync_api")

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
WIDTHS = [390, 1280]
WIDE = ("() => [...document.querySelectorAll('body *')].filter(e =>"
        " e.getBoundingClientRect().right > window.innerWidth + 1"
        " && !e.closest('.table-wrap, pre')).map(e => e.tagName + '.' + e.className)")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium_path(),
                                              args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def archive_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("width")
    path = root / "season.db"
    season.create_season(path, synthetic_map(12, 16, 6), "width", seed=SEED)
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, root / "season.zip")
    return root / "season.zip"


def _fits(page: Any, width: int, name: str) -> None:
    assert page.evaluate(WIDE) == [], name
    assert page.evaluate("document.documentElement.scrollWidth") <= width, name
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=True)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_verify_page_fits_before_and_after_a_check(browser: Any, archive_zip: Path,
                                                       tmp_path: Path, width: int) -> None:
    path = tmp_path / "served.db"
    season.create_season(path, synthetic_map(6, 8, 3), "served", seed=SEED)
    with live_server(make_app(path)) as base:
        page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
        page.set_default_timeout(BROWSER_WAIT_MS)
        page.goto(f"{base}/verify")
        _fits(page, width, "verify-empty")
        page.set_input_files("#archive", str(archive_zip))
        page.wait_for_selector("#result .verdict.ok")
        assert "seed matches commitment" in page.inner_text("#result")
        _fits(page, width, "verify-checked")
        page.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_the_console_fits_with_a_beacon_to_record(browser: Any, tmp_path: Path,
                                                  width: int) -> None:
    path = tmp_path / "beacon.db"
    season.create_season(path, synthetic_map(6, 8, 3), "beacon", seed=SEED,
                         beacon_round=QUICKNET_ROUND,
                         published=datetime(2023, 9, 15, 10, 0, 0, tzinfo=UTC))
    with live_server(make_app(path)) as base:
        page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
        page.set_default_timeout(BROWSER_WAIT_MS)
        page.goto(f"{base}/conquest/operator")
        _fits(page, width, "operator-sign-in")
        page.fill("#token", ADMIN_TOKEN)
        page.click("#sign-in-button")
        page.wait_for_selector("#beacon-form-1")
        assert "record it now" in page.inner_text("#state-beacon-1")
        _fits(page, width, "operator-console")
        page.context.close()
