"""The drawn map on the show's pages: owners, links, changed regions, and the text fallback."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from fairfight.conquest import synthetic_map
from fairfight.conquest.maps.svg import CHANGED
from fairfight.conquest.store import season
from fairfight.web.byte_cache import ByteCappedCache, deep_size
from fairfight.web.conquest import views
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.database import SeasonDatabase
from fairfight.web.conquest.map_drawing import DrawnMap, map_picture
from tests.web.conquest_support import SEED, make_app

SVG = "{http://www.w3.org/2000/svg}"


def _svg(html: str) -> ET.Element:
    match = re.search(r"<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"conquest-map.*?</svg>",
                      html, re.S)
    assert match, "no drawn map on the page"
    return ET.fromstring(match.group(0))


def _main_links(svg: ET.Element) -> dict[str, ET.Element]:
    """The first link of each region (insets repeat some)."""
    links: dict[str, ET.Element] = {}
    for link in svg.iter(f"{SVG}a"):
        links.setdefault(link.attrib["data-region"], link)
    return links


def test_the_home_page_draws_every_region_linked_to_its_holder(client: TestClient) -> None:
    html = client.get("/conquest/1").text
    links = _main_links(_svg(html))
    assert len(links) == 136
    state = client.get("/api/seasons/1/map").json()
    owners = {row["code"]: row["owner"] for row in state["regions"]}
    for code, link in links.items():
        assert link.attrib["href"] == f"/conquest/1/factions/{owners[code]}"
    taken = [code for code, owner in owners.items() if owner != code]
    assert taken, "the demo season has conquests"
    for code in taken:
        title = links[code].find(f"{SVG}title")
        assert title is not None and title.text is not None
        assert f"held by {_name(client, owners[code])}" in title.text
    assert "Sea links: 139, kept by the map's own distance rule" in html
    assert "not tuned to the source's 169" in html


def _name(client: TestClient, code: str) -> str:
    return str(client.get(f"/api/seasons/1/factions/{code}").json()["name"])


def test_an_episode_outlines_the_regions_that_changed_hands(client: TestClient) -> None:
    moved = set(client.get("/api/seasons/1/battles/2").json()["changed_hands"])
    html = client.get("/conquest/1/battles/2").text
    links = _main_links(_svg(html))
    outlined = {code for code, link in links.items()
                if link.find(f"{SVG}use").attrib.get("stroke") == CHANGED}  # type: ignore[union-attr]
    assert outlined == moved and moved
    assert "Outlined in black" in html


def test_a_season_on_a_map_without_outlines_keeps_the_text_list(tmp_path: Path) -> None:
    path = tmp_path / "small.db"
    season.create_season(path, synthetic_map(12, 16, 4), "small", seed=SEED)
    season.fight(path, 1)
    with TestClient(make_app(path)) as client:
        html = client.get("/conquest/1").text
    assert 'id="map"' in html and "conquest-map" not in html
    assert 'class="map-owner"' in html


def test_pages_point_at_one_cacheable_file_of_outlines(client: TestClient) -> None:
    """The outlines travel once: each page's regions reference them by id."""
    html = client.get("/conquest/1").text
    hrefs = {use.attrib["href"] for use in _svg(html).iter(f"{SVG}use")}
    files = {href.split("#")[0] for href in hrefs}
    assert len(files) == 1
    (address,) = files
    assert address.startswith("/conquest/maps/north-america.svg?v=")
    response = client.get(address)
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/svg+xml"
    assert "immutable" in response.headers["cache-control"]
    ids = {path.attrib["id"] for path in ET.fromstring(response.text).iter(f"{SVG}path")}
    assert {href.split("#")[1] for href in hrefs} == ids and len(ids) == 136
    stale = client.get("/conquest/maps/north-america.svg?v=old")
    assert stale.status_code == 200 and stale.headers["cache-control"] == "no-cache"


def test_drawn_maps_stay_within_their_byte_budget(season_file: Path) -> None:
    """One map per state (after each battle); past the budget the least recently drawn are
    dropped and drawn again, the same picture."""
    catalog = SeasonCatalog(SeasonDatabase(f"sqlite:///{season_file}"))
    try:
        snap = catalog.snapshot(1)
        states = [views.map_state(snap, number) for number in range(len(snap.history) + 1)]
        probe: ByteCappedCache[Any, DrawnMap] = ByteCappedCache(1 << 30, deep_size,
                                                               key_size_of=deep_size)
        map_picture(states[0], "north-america", probe)
        budget = probe.bytes_used * 5 // 2   # room for two maps, not three
        kept: ByteCappedCache[Any, DrawnMap] = ByteCappedCache(budget, deep_size,
                                                              key_size_of=deep_size)
        pictures = []
        for state in states:
            pictures.append(map_picture(state, "north-america", kept))
            assert kept.bytes_used <= budget
        assert len(states) > 3 and len(kept) == 2
        assert map_picture(states[-1], "north-america", kept) is pictures[-1]   # kept
        again = map_picture(states[0], "north-america", kept)   # dropped: drawn again
        assert again is not pictures[0] and again == pictures[0]
    finally:
        catalog.close()
