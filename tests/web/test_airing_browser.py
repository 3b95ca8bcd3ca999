"""The countdown to the next episode in Debian's Chromium: server-rendered without JavaScript,
ticking and following the schedule with it, axe-clean, at 1280 and 390 px (screenshots under
test-artifacts/browser/)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.store import season
from tests.accessibility import assert_accessible
from tests.conquest.helpers import SEED
from tests.web.chromium_session import launched_chromium, new_page, visit
from tests.web.conquest_support import ADMIN_TOKEN, live_server, make_app

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
BEARER = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
WIDTHS = [1280, 390]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    path = tmp_path / "season.db"
    season.create_season(path, synthetic_map(8, 10, 4), "countdown", seed=SEED)
    with live_server(make_app(path)) as base:
        yield base


def _schedule(base: str, body: dict[str, object]) -> None:
    answer = httpx.put(f"{base}/api/seasons/1/operator/schedule", json=body, headers=BEARER)
    assert answer.status_code == 200, answer.text


def _shot(page: Any, name: str, width: int) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{width}.png"), full_page=False)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_countdown_reads_right_without_javascript(browser: Any, served: str,
                                                      width: int) -> None:
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).date()
    _schedule(served, {"kind": "daily", "at": "18:00", "start": f"{tomorrow}T00:00:00Z"})
    page = new_page(browser, width, scripts=False)
    visit(page, f"{served}/conquest/1")
    line = page.locator("#countdown")
    assert line.is_visible()
    text = " ".join(line.inner_text().split())
    weekday = tomorrow.strftime("%a")
    assert text.startswith(f"Next episode: season 1, battle 1 at {weekday} {tomorrow.day} "
                           f"{tomorrow.strftime('%b')} 18:00 UTC (in ")
    assert page.locator("#countdown time").get_attribute("datetime") == f"{tomorrow}T18:00:00Z"
    box = line.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width  # the bar fits the screen
    _shot(page, "countdown-no-js", width)
    page.context.close()  # axe runs in the page's JavaScript: checked on the live page below


@pytest.mark.parametrize("width", WIDTHS)
def test_the_countdown_ticks_and_follows_the_schedule_with_javascript(
        browser: Any, served: str, width: int) -> None:
    _schedule(served, {"kind": "every", "seconds": 4})
    page = new_page(browser, width)
    visit(page, f"{served}/conquest/1")
    battle = page.locator("#countdown .countdown-battle")
    first = int(battle.inner_text())
    # the script asks for the next slot once this one has come; the service airs it meanwhile
    page.wait_for_function(
        "() => Number(document.querySelector('#countdown .countdown-battle').textContent)"
        f" > {first}",
        timeout=30_000)
    news = page.locator("#countdown-news")
    assert news.get_attribute("aria-live") == "polite"
    page.wait_for_function("() => document.getElementById('countdown-news').textContent"
                           ".startsWith('Next episode: battle')", timeout=30_000)
    left = page.locator("#countdown .countdown-in").inner_text()
    assert left == "now" or left.startswith("in ")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    _shot(page, "countdown-live", width)
    assert_accessible(page)
    page.context.close()


def test_the_countdown_shows_a_pause(browser: Any, served: str) -> None:
    _schedule(served, {"kind": "daily", "at": "06:00"})
    assert httpx.post(f"{served}/api/seasons/1/operator/schedule/pause",
                      headers=BEARER).status_code == 200
    page = new_page(browser, 1280)
    visit(page, f"{served}/conquest")
    assert page.locator("#countdown").get_attribute("data-status") == "paused"
    assert "Airing is paused" in page.locator("#countdown").inner_text()
    assert_accessible(page)
    page.context.close()
