"""Title odds over time in a real browser: the chart, the movers and the stakes on the season
home, one faction's line on its card, axe-clean, at a phone's width and a desktop's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.accessibility import assert_accessible
from tests.web.chromium_session import launched_chromium, new_page, visit
from tests.web.conquest_support import copy_season, live_server, make_app

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
PHONE, DESKTOP = 390, 1280
SEASONS = 500
"""Seasons per kept forecast here (the service keeps 20,000; the pages read what is kept)."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


@pytest.fixture
def server(demo_master: tuple[Path, dict[str, object]], tmp_path: Path) -> Iterator[str]:
    """The demo season (six battles, a rebellion waiting) with its history kept beforehand."""
    from fairfight.web.conquest.catalog import SeasonCatalog
    from fairfight.web.conquest.database import SeasonDatabase
    from fairfight.web.conquest.forecasts import forecast_seed_for, forecast_stem, public_state
    from fairfight.web.conquest.odds_views import OddsStory

    path = copy_season(demo_master[0], tmp_path)
    story = OddsStory(SeasonCatalog(SeasonDatabase(f"sqlite:///{path}")), seasons=SEASONS)
    snap = story.catalog.snapshot(1)
    story.backfill(snap, forecast_stem(snap, None))
    story.update(snap, public_state(snap), forecast_seed_for(snap, None))  # the stakes
    story.catalog.close()
    with live_server(make_app(path, forecast_seasons=SEASONS)) as base:
        yield base


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("width", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_home_page_shows_the_chart_the_movers_and_the_stakes(
        browser: Any, server: str, width: int) -> None:
    page = new_page(browser, width)
    visit(page, f"{server}/conquest/1")
    chart = page.locator("#season-odds-chart")
    assert chart.locator("svg g.odds-line").count() == 5
    assert chart.locator("svg g.odds-line polyline").count() == 5
    box = chart.locator("svg").bounding_box()
    assert box is not None and box["width"] <= width
    label = chart.locator("svg g.odds-line text").first.text_content() or ""
    assert "%" in label
    chart.locator("summary").click()
    rows = chart.locator("details table tbody tr")
    assert rows.count() == 7  # battles 0 to 6
    movers = page.locator("#movers li")
    assert movers.count() >= 1
    assert "points" in movers.first.inner_text()
    assert ":" in movers.first.inner_text()
    stakes = page.locator("#stakes")
    assert "rebellion waits" in stakes.inner_text()
    pairing = stakes.locator(".stakes-pairing")
    assert pairing.count() == 1 and pairing.get_attribute("data-attacker") == "KY"
    assert pairing.locator("tbody tr").count() == 2
    assert "%" in pairing.locator("td.if-wins").first.inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert_accessible(page)
    _shot(page, f"odds-home-{'phone' if width == PHONE else 'desktop'}")
    page.context.close()


def test_a_faction_card_shows_its_own_line(browser: Any, server: str) -> None:
    page = new_page(browser, PHONE)
    visit(page, f"{server}/conquest/1/factions/US-CA")
    chart = page.locator("#faction-odds-chart")
    assert chart.locator("svg g.odds-line").count() == 1
    assert chart.locator("svg g.odds-line").get_attribute("data-faction") == "US-CA"
    assert_accessible(page)
    _shot(page, "odds-faction-phone")
    visit(page, f"{server}/conquest/1/battles/6")
    resolved = page.locator("#stakes-resolved")
    assert resolved.locator("tbody tr").count() == 2
    assert "%" in resolved.locator("td.after").first.inner_text()
    assert_accessible(page)
    _shot(page, "odds-episode-phone")
    page.context.close()
