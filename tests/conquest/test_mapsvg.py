"""The drawn map: every region has a real outline, and the SVG shows who holds what."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from importlib import resources
from typing import Any

import pytest

from fairfight.conquest.maps import svg as mapsvg
from fairfight.conquest.maps.svg import RegionView, draw_map, load_shapes

SVG = "{http://www.w3.org/2000/svg}"
PATH_DATA = re.compile(r"^(M-?\d+ -?\d+l-?\d+ -?\d+( -?\d+ -?\d+)+z)+$")


def _map() -> dict[str, Any]:
    text = resources.files("fairfight.conquest").joinpath("maps", "north-america.json")
    loaded: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    return loaded


def _views(owners: dict[str, str] | None = None,
           changed: frozenset[str] = frozenset()) -> list[RegionView]:
    names = {region["code"]: region["name"] for region in _map()["regions"]}
    owners = owners or {}
    return [RegionView(code, name, owners.get(code, code), names[owners.get(code, code)],
                       code in changed) for code, name in names.items()]


def _href(owner: str) -> str:
    return f"/conquest/7/factions/{owner}"


def _links(svg: str) -> dict[str, list[ET.Element]]:
    """Each region's links (one in the main map, another in an inset that shows it)."""
    links: dict[str, list[ET.Element]] = {}
    for link in ET.fromstring(svg).iter(f"{SVG}a"):
        links.setdefault(link.attrib["data-region"], []).append(link)
    return links


def test_every_region_of_the_map_has_a_non_empty_outline() -> None:
    shapes = load_shapes()
    codes = {region["code"] for region in _map()["regions"]}
    assert len(codes) == 136
    assert set(shapes) == codes
    for code, shape in shapes.items():
        assert PATH_DATA.match(shape.path), code
        west, north, east, south = shape.bounds
        assert west < east and north < south, code
        assert shape.area_km2 > 0, code


def test_the_shapes_file_is_the_one_the_tool_recorded() -> None:
    recorded, actual = mapsvg.shapes_digest()
    assert actual == recorded
    sources = resources.files("fairfight.conquest").joinpath("maps", "SOURCES.md")
    assert f"sha256 {recorded}" in sources.read_text(encoding="utf-8")


def test_the_projection_keeps_the_continent_in_place() -> None:
    """North is up and west is left: a few neighbours checked by their label points."""
    label = {code: shape.label for code, shape in load_shapes().items()}
    assert label["US-TX"][1] > label["US-OK"][1] > label["US-KS"][1] > label["US-NE"][1]
    assert label["US-CA"][0] < label["US-NV"][0] < label["US-UT"][0] < label["US-CO"][0]
    assert label["CA-NU"][1] < label["CA-MB"][1] < label["US-ND"][1]
    assert label["US-AK"][0] < label["CA-YT"][0] < label["CA-NT"][0]
    assert label["MX-YUC"][0] > label["MX-JAL"][0] and label["PA"][1] > label["MX-OAX"][1]
    # Alaska's Aleutians run past the 180th meridian without wrapping to the far east.
    west, _, east, _ = load_shapes()["US-AK"].bounds
    assert east - west < 3500 and west < label["US-HI"][0] + 1000


def test_the_svg_is_well_formed_and_links_every_region_to_its_owner() -> None:
    owners = {"US-OK": "US-TX", "MX-CHH": "US-TX", "BQ-SA": "AG"}
    picture = draw_map(_views(owners), _href)
    links = _links(picture.svg)
    assert set(links) == {region["code"] for region in _map()["regions"]}
    for code, found in links.items():
        owner = owners.get(code, code)
        for link in found:
            assert link.attrib["href"] == _href(owner)
            assert link.attrib["data-owner"] == owner
            title = link.find(f"{SVG}title")
            assert title is not None and title.text is not None
            assert title.text.startswith(f"{_name(code)} ({code}): held by {_name(owner)}")


def _name(code: str) -> str:
    return next(region["name"] for region in _map()["regions"] if region["code"] == code)


def test_colours_follow_owners() -> None:
    owners = {"US-OK": "US-TX", "US-NM": "US-TX", "CU": "JM"}
    links = _links(draw_map(_views(owners), _href).svg)

    def fill(code: str) -> str:
        path = links[code][0].find(f"{SVG}path")
        assert path is not None
        return path.attrib["fill"]

    colours = mapsvg.faction_colours()
    assert colours["US-OK"] != colours["US-TX"] != colours["US-NM"]  # so the owner's is used
    assert fill("US-OK") == fill("US-NM") == fill("US-TX") == colours["US-TX"]
    assert fill("CU") == fill("JM") == colours["JM"] != colours["CU"]
    assert fill("US-KS") == colours["US-KS"]


def test_neighbouring_factions_start_with_different_colours() -> None:
    colours = mapsvg.faction_colours()
    for border in _map()["borders"]:
        assert colours[border["a"]] != colours[border["b"]], border


def test_regions_that_changed_hands_are_outlined_and_named_so() -> None:
    changed = frozenset({"US-OK", "LC"})
    links = _links(draw_map(_views(changed=changed), _href).svg)
    for code, found in links.items():
        for link in found:
            path = link.find(f"{SVG}path")
            assert path is not None
            outlined = path.attrib.get("stroke") == mapsvg.CHANGED
            assert outlined == (code in changed), code
            assert ("changed" in link.attrib["class"].split()) == (code in changed)
            title = link.find(f"{SVG}title")
            assert title is not None and title.text is not None
            assert title.text.endswith("changed hands in this battle") == (code in changed)
    plain = _links(draw_map(_views(changed=changed), _href, outline_changed=False).svg)
    assert all("stroke" not in link.find(f"{SVG}path").attrib  # type: ignore[union-attr]
               for found in plain.values() for link in found)


def test_tiny_islands_get_a_marker_and_big_regions_do_not() -> None:
    links = _links(draw_map(_views(), _href).svg)
    for code in ("BQ-SA", "BL", "SX", "MF", "AI", "MS", "BM", "US-DC"):
        assert links[code][0].find(f"{SVG}circle") is not None, code
    for code in ("US-TX", "CA-QC", "GL", "CU", "MX-JAL"):
        assert all(link.find(f"{SVG}circle") is None for link in links[code]), code


def test_the_eastern_caribbean_is_drawn_twice_and_hawaii_once() -> None:
    links = _links(draw_map(_views(), _href).svg)
    assert len(links["LC"]) == 2 and len(links["BB"]) == 2
    assert len(links["US-HI"]) == 1 and len(links["US-TX"]) == 1
    # The magnified copy is for the eye: keyboards and screen readers meet each region once.
    for found in links.values():
        assert [link.get("tabindex") for link in found] == [None] + ["-1"] * (len(found) - 1)
        assert "aria-hidden" not in found[0].attrib


def test_the_legend_lists_owners_by_regions_held() -> None:
    owners = {"US-OK": "US-TX", "US-NM": "US-TX", "CU": "JM"}
    legend = draw_map(_views(owners), _href).legend
    assert legend[0].owner == "US-TX" and legend[0].regions == 3
    assert legend[0].owner_name == "Texas" and legend[1].owner == "JM"
    assert sum(entry.regions for entry in legend) == 136
    assert len(legend) == 133


def test_a_region_without_an_outline_is_refused() -> None:
    with pytest.raises(KeyError, match="ZZ"):
        draw_map([RegionView("ZZ", "Nowhere", "ZZ", "Nowhere")], _href)
    assert mapsvg.has_shapes("north-america")
    assert not mapsvg.has_shapes("no-such-map")


def test_the_shapes_stay_small() -> None:
    shapes = resources.files("fairfight.conquest").joinpath("maps", "north-america.shapes.json")
    assert len(shapes.read_bytes()) < 400_000


def test_the_shapes_document_holds_every_outline_for_pages_to_reference() -> None:
    shapes = load_shapes()
    document = ET.fromstring(mapsvg.shapes_document())
    paths = {path.attrib["id"]: path.attrib["d"] for path in document.iter(f"{SVG}path")}
    assert paths == {code: shape.path for code, shape in shapes.items()}
    assert all("fill" not in path.attrib for path in document.iter(f"{SVG}path"))
    changed = frozenset({"US-OK"})
    links = _links(draw_map(_views(changed=changed), _href, shapes_href="/shapes.svg").svg)
    for code, found in links.items():
        for link in found:
            assert link.find(f"{SVG}path") is None
            use = link.find(f"{SVG}use")
            assert use is not None and use.attrib["href"] == f"/shapes.svg#{code}"
            assert use.attrib["fill"] == mapsvg.faction_colours()[code]
            assert (use.attrib.get("stroke") == mapsvg.CHANGED) == (code in changed)
