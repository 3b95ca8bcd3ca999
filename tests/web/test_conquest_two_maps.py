"""Seasons on two shipped maps served side by side (one PostgreSQL database): each season is
drawn on its own map, each map's outlines are served at their own address, an unknown map is
refused, and both seasons' pages fit a phone and a desktop in Chromium, axe-clean (the europe
season's home is read by axe-core here; a north-america season's home, the demo season's, is read
at both widths by tests/web/test_accessibility.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.maps.svg import load_shapes
from fairfight.conquest.rules import scenario
from fairfight.conquest.store import season
from fairfight.web import WebSettings, create_app
from tests.accessibility import assert_accessible
from tests.web.chromium_session import launched_chromium, new_page, visit
from tests.web.conquest_support import live_server
from tests.web.postgres_cluster import postgres_cluster

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")  # as test_conquest_postgres

SEEDS = {"north-america": "33" * 32, "europe": "44" * 32}
AXE_CHECKED_HERE = {"europe"}
"""The map whose season home no other test gives to axe-core."""
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """Season 1 on north-america, season 2 on europe, a few battles fought in each."""
    with postgres_cluster() as url:
        for number, (name, seed) in enumerate(SEEDS.items(), start=1):
            season.create_season(url, scenario.load_map(name), name, seed=seed)
            list(season.fight(f"{url}#{number}", 3))
        yield url


@pytest.fixture
def client(database: str) -> Iterator[TestClient]:
    app = create_app(WebSettings(database_url=database, forecast_seasons=0))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def _drawn_regions(page: str) -> set[str]:
    match = re.search(r'<svg xmlns="http://www.w3.org/2000/svg" class="conquest-map.*?</svg>',
                      page, re.S)
    assert match, "no drawn map on the page"
    return set(re.findall(r'data-region="([A-Z0-9-]+)"', match.group(0)))


def test_each_season_is_drawn_on_its_own_map(client: TestClient) -> None:
    america, europe = set(load_shapes("north-america")), set(load_shapes("europe"))
    only_america, only_europe = america - europe, europe - america
    assert only_america and only_europe
    for number, own, other in ((1, america, only_europe), (2, europe, only_america)):
        for path in (f"/conquest/{number}", f"/conquest/{number}/battles/2"):
            page = client.get(path).text
            assert _drawn_regions(page) == own, path
            listed = set(re.findall(r'data-region="([A-Z0-9-]+)"', page))
            assert not listed & other, path  # no region of the other map, drawn or listed
    home_na, home_eu = client.get("/conquest/1").text, client.get("/conquest/2").text
    assert "/conquest/maps/north-america.svg?v=" in home_na and "europe.svg" not in home_na
    assert "/conquest/maps/europe.svg?v=" in home_eu and "north-america.svg" not in home_eu
    assert 'data-map="europe"' in home_eu and "Natural Earth" in home_eu
    assert "not tuned to the source's 169" in home_na and "source's 169" not in home_eu


def test_each_map_serves_its_own_outlines_and_an_unknown_map_is_refused(
        client: TestClient) -> None:
    for name in SEEDS:
        address = re.search(rf"/conquest/maps/{name}\.svg\?v=(\w+)",
                            client.get(f"/conquest/{1 + list(SEEDS).index(name)}").text)
        assert address is not None
        served = client.get(address.group(0))
        assert served.status_code == 200
        assert served.headers["cache-control"].endswith("immutable")
        ids = set(re.findall(r'<path id="([A-Z0-9-]+)"', served.text))
        assert ids == set(load_shapes(name))
    refused = client.get("/conquest/maps/atlantis.svg", headers={"accept": "application/json"})
    assert refused.status_code == 404
    assert "atlantis" in refused.text and "north-america, europe" in refused.text


def test_the_seasons_list_names_each_season_map(client: TestClient) -> None:
    page = client.get("/conquest").text
    assert "Season 1: north-america" in page and "Season 2: europe" in page
    listed = client.get("/api/seasons").json()["seasons"]
    assert [s["map_name"] for s in listed] == ["north-america", "europe"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


@pytest.mark.parametrize("width", [1280, 390])
def test_both_maps_in_the_browser(database: str, browser: Any, width: int) -> None:
    app = create_app(WebSettings(database_url=database, forecast_seasons=0))
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with live_server(app) as base:
        for number, name in enumerate(SEEDS, start=1):
            page = new_page(browser, width)
            visit(page, f"{base}/conquest/{number}")
            page.wait_for_selector("svg.conquest-map")
            assert page.get_attribute("#map", "data-map") == name
            drawn = page.eval_on_selector_all("svg.conquest-map a[data-region]",
                                              "links => links.length")
            assert drawn >= len(load_shapes(name))
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            page.screenshot(path=str(ARTIFACTS / f"two-maps-{name}-{width}.png"),
                            full_page=True)
            if name in AXE_CHECKED_HERE:
                assert_accessible(page)
            page.context.close()
