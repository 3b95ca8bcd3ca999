"""`fairfight conquest map build`: borders from hand-made outlines, every refusal, the europe map.

Expected distances are worked out in golden/map_build/README.md with the great-circle formula,
not read from the builder; the europe map's land borders are checked against a list of Europe's
land borders written by hand, not derived from the geometry.
"""

from __future__ import annotations

import csv
import hashlib
import importlib.util
import json
import math
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from fairfight.conquest.cli.map_cli import app
from fairfight.conquest.maps import build as mapbuild
from fairfight.conquest.maps import geo as mapgeo
from fairfight.conquest.maps import svg as mapsvg
from fairfight.conquest.rules import engine
from fairfight.conquest.rules.scenario import load_map, map_stats, validate_map
from tests.conquest.helpers import play

GOLDEN = Path(__file__).resolve().parent / "golden" / "map_build"
ROOT = Path(__file__).resolve().parents[2]
TOOLS = ROOT / "tools"
EUROPE = ROOT / "src" / "fairfight" / "conquest" / "maps" / "europe.json"
runner = CliRunner()


def build(tmp_path: Path, regions: Path, factions: Path, *options: str) -> Result:
    """Run the command as a user would, writing into tmp_path."""
    out = tmp_path / "built.json"
    return runner.invoke(app, ["build", str(regions), str(factions), "--out", str(out), *options])


def built_map(tmp_path: Path, name: str, *options: str) -> dict[str, Any]:
    result = build(tmp_path, GOLDEN / f"{name}.geojson", GOLDEN / f"{name}.csv", *options)
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads((tmp_path / "built.json").read_text(encoding="utf-8"))
    return data


def pairs(data: dict[str, Any], kind: str) -> dict[str, dict[str, Any]]:
    return {f"{b['a']}-{b['b']}": b for b in data["borders"] if b["kind"] == kind}


def great_circle_on_parallel(latitude: float, dlon: float) -> float:
    """d = 2 R asin(cos(lat) sin(dlon / 2)): two points on one parallel (README.md)."""
    return 2 * 6371 * math.asin(math.cos(math.radians(latitude)) * math.sin(math.radians(dlon) / 2))


# ------------------------------------------------------------------ borders from outlines


def test_a_shared_edge_is_a_land_border_and_a_near_island_a_sea_link(tmp_path: Path) -> None:
    data = built_map(tmp_path, "islands")
    assert list(pairs(data, "land")) == ["AA-AB"]
    sea = pairs(data, "sea")
    assert set(sea) == {"AB-AC", "AC-AD"}
    assert sea["AB-AC"]["remote"] is False
    assert sea["AB-AC"]["distance_km"] == round(great_circle_on_parallel(50.5, 2.0)) == 141


def test_an_island_beyond_the_sea_rule_gets_one_remote_link(tmp_path: Path) -> None:
    remote = pairs(built_map(tmp_path, "islands"), "sea")["AC-AD"]
    assert remote["remote"] is True
    assert remote["distance_km"] == round(great_circle_on_parallel(50.5, 15.5)) == 1094


def test_no_link_crosses_a_third_region(tmp_path: Path) -> None:
    data = built_map(tmp_path, "islands")
    assert "AA-AC" not in pairs(data, "sea") and "AA-AD" not in pairs(data, "sea")


def test_corner_contacts_are_no_border_of_either_kind(tmp_path: Path) -> None:
    data = built_map(tmp_path, "grid")
    assert set(pairs(data, "land")) == {"BA-BB", "BA-BC", "BB-BD", "BC-BD"}
    assert pairs(data, "sea") == {}


def test_shared_length_is_measured_in_kilometres() -> None:
    from shapely.geometry import box  # type: ignore[import-untyped]

    # One degree of latitude, plus the tolerance's reach around each end of the edge.
    reach = 2 * mapgeo.LAND_TOLERANCE_KM
    edge = mapgeo.shared_boundary_km(box(10, 50, 11, 51), box(11, 50, 12, 51))
    assert edge == pytest.approx(111.195 + reach, abs=0.01)
    corner = mapgeo.shared_boundary_km(box(10, 50, 11, 51), box(11, 51, 12, 52))
    assert corner == pytest.approx(reach, abs=0.01) and corner < mapgeo.MIN_SHARED_KM


@given(
    widths=st.lists(st.sampled_from([0.2, 0.6, 1.0, 2.5]), min_size=1, max_size=4),
    heights=st.lists(st.sampled_from([0.1, 0.4, 1.5]), min_size=1, max_size=4),
    south=st.sampled_from([-55.0, -10.0, 30.0, 62.0]),
)
@settings(max_examples=25)
def test_a_block_of_cells_borders_exactly_its_edge_neighbours(
    widths: list[float], heights: list[float], south: float
) -> None:
    """Cells of a block share edges with their four neighbours and touch the diagonal ones
    at a corner only; every other line between two cells crosses a third cell. Cells stay
    wider than 6 km: a crossing that short is not tested (3 km are trimmed at each end)."""
    from shapely.geometry import box

    xs = [10.0 + sum(widths[:i]) for i in range(len(widths) + 1)]
    ys = [south + sum(heights[:j]) for j in range(len(heights) + 1)]
    cells = {f"C{i}{j}": box(xs[i], ys[j], xs[i + 1], ys[j + 1])
             for i in range(len(widths)) for j in range(len(heights))}
    expected = {(f"C{i}{j}", f"C{i + 1}{j}") for i in range(len(widths) - 1)
                for j in range(len(heights))}
    expected |= {(f"C{i}{j}", f"C{i}{j + 1}") for i in range(len(widths))
                 for j in range(len(heights) - 1)}
    land = mapgeo.land_borders(cells)
    assert set(land) == expected
    assert mapgeo.sea_links(cells, land, max_remote_km=0) == []


def test_the_built_map_is_one_the_engine_loads(tmp_path: Path) -> None:
    data = built_map(tmp_path, "islands", "--name", "islands")
    assert load_map(tmp_path / "built.json") == validate_map(data)
    assert data["name"] == "islands"
    assert map_stats(data) == {"factions": 4, "borders": 3, "land": 1, "sea": 2, "remote": 1}
    beta = next(region for region in data["regions"] if region["code"] == "AB")
    assert beta["special"] == {"category": "S", "name": "Beta Stores", "fact": "A fact about Beta.",
                               "source_status": "sourced", "citation": "A Book of Beta (2020)"}
    state, history, _ = play(data)
    assert state["board"]["ended"] and len(history) == 3


def test_the_shapes_file_carries_its_digest_and_every_region(tmp_path: Path) -> None:
    built_map(tmp_path, "islands")
    document = json.loads((tmp_path / "built.shapes.json").read_text(encoding="utf-8"))
    assert sorted(document["regions"]) == ["AA", "AB", "AC", "AD"]
    body = json.dumps(document["regions"], ensure_ascii=False, sort_keys=True,
                      separators=(",", ":")).encode()
    assert document["digest"] == hashlib.sha256(body).hexdigest()
    square = document["regions"]["AA"]["area_km2"]
    assert square == pytest.approx(111.195**2 * math.cos(math.radians(50.5)), rel=0.01)
    svg = (tmp_path / "built.svg").read_text(encoding="utf-8")
    assert svg.count("<path ") == 4 and "<title>Alpha (AA)</title>" in svg


def test_the_report_says_what_was_found(tmp_path: Path) -> None:
    result = build(tmp_path, GOLDEN / "islands.geojson", GOLDEN / "islands.csv")
    assert result.exit_code == 0, result.output
    assert "4 regions, 3 borders (1 land, 2 sea of which 1 remote)" in result.output
    assert "remote link: AC-AD 1,094 km" in result.output
    assert "regions with only sea links (2): AC, AD" in result.output
    assert "table columns not in the map: population_source" in result.output
    as_json = build(tmp_path, GOLDEN / "islands.geojson", GOLDEN / "islands.csv", "--json")
    report = json.loads(as_json.output)
    assert (report["land"], report["sea"], report["remote"]) == (1, 2, 1)
    assert report["sea_only"] == ["AC", "AD"]


# ------------------------------------------------------------------ refusals


def edited(tmp_path: Path, name: str, suffix: str, old: str, new: str) -> Path:
    """A copy of a fixture with one piece of text replaced."""
    source = (GOLDEN / f"{name}.{suffix}").read_text(encoding="utf-8")
    assert old in source
    target = tmp_path / f"edited.{suffix}"
    target.write_text(source.replace(old, new, 1), encoding="utf-8")
    return target


def refusal(result: Result) -> str:
    """The one line a refused build prints, after checking it exits 2 and writes nothing."""
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    return lines[0]


ISLANDS_GEO, ISLANDS_CSV = GOLDEN / "islands.geojson", GOLDEN / "islands.csv"
FAR_WEST = "[[[30.0, 50.5], [30.5, 50.0], [31.0, 50.5], [30.5, 51.0], [30.0, 50.5]]]"


@pytest.mark.parametrize(
    ("suffix", "old", "new", "expected"),
    [
        ("csv", "AB,Beta,2000000,2020,census,6,", "AB,Beta,2000000,2020,census,11,",
         "line 3 (AB).P: Input should be less than or equal to 10"),
        ("csv", "AB,Beta,2000000,2020,census,6,", "AB,Beta,2000000,2020,census,0,",
         "line 3 (AB).P: Input should be greater than or equal to 1"),
        ("csv", "AB,Beta,2000000,2020,census,6,", "AB,Beta,2000000,2020,census,5.5,",
         "line 3 (AB).P: must be a whole number, got '5.5'"),
        ("csv", "AC,Gamma,", "AC,,", "line 4 (AC).name: missing"),
        ("csv", "AC,Gamma,30000,", "AC,Gamma,0,",
         "line 4 (AC).population: Input should be greater than or equal to 1"),
        ("csv", "census,6,5,5,5,5,S,", "census,6,5,5,5,5,X,",
         "line 3 (AB).special: Input should be 'P', 'S', 'M', 'R' or 'U'"),
        ("csv", "AD,Delta", "AB,Delta", "line 5 (AB).code: duplicate code AB, first on line 3"),
        ("csv", "AD,Delta", "AE,Delta", "features[3] (AD).properties.code: no row of"),
        ("csv", "U,special,", "U,kind,", "missing column 'special'"),
        ("csv", "AD,Delta,500,", "AD,Delta,500,2019,",
         "line 5 (AD): has 16 cells, the header has 15"),
        ("geojson", '"code": "AD"', '"code": "AE"', "features[3] (AE).properties.code: no row of"),
        ("csv", "A fact about Delta.,,invented\n",
         "A fact about Delta.,,invented\nAF,Phi,9,2019,census,1,1,1,1,1,P,Phi,A fact.,,x\n",
         "(AF).code: no feature has code AF"),
        ("geojson", '"code": "AD"', '"code": "AC"',
         "features[3] (AC).properties.code: duplicate code AC, first at"),
        ("geojson", "[[14.0, 50.5], [14.25, 50.0], [14.5, 50.5], [14.25, 51.0], [14.0, 50.5]]",
         "[[14.0, 50.0], [14.5, 51.0], [14.5, 50.0], [14.0, 51.0], [14.0, 50.0]]",
         "features[2] (AC).geometry: invalid geometry: Self-intersection"),
        ("geojson", '"type": "Polygon", "coordinates": [[[11.0',
         '"type": "Point", "coordinates": [[[11.0', "features[1].geometry.type: Input should be"),
        ("geojson", "[[[10.0, 50.0], [11.0, 50.0], [11.0, 51.0], [10.0, 51.0], [10.0, 50.0]]]",
         "[]", "features[0] (AA).geometry: the outline has no points"),
        ("geojson", "[[[10.0, 50.0], [11.0, 50.0], [11.0, 51.0], [10.0, 51.0], [10.0, 50.0]]]",
         "[[[10.0, 95.0], [11.0, 95.0], [11.0, 96.0], [10.0, 96.0], [10.0, 95.0]]]",
         "features[0] (AA).geometry: coordinates must be longitude and latitude in degrees"),
        ("geojson", "[[[10.0, 50.0], [11.0, 50.0],", "[[[10.0, 50.0], [11.0, NaN],",
         "NaN is not a JSON number"),
        ("geojson", '{"code": "AA"}', '{"code": "AA", "code": "AB"}', "is given twice"),
    ],
)
def test_bad_input_is_refused_with_one_line_naming_region_and_field(
    tmp_path: Path, suffix: str, old: str, new: str, expected: str
) -> None:
    changed = edited(tmp_path, "islands", suffix, old, new)
    regions, factions = (changed, ISLANDS_CSV) if suffix == "geojson" else (ISLANDS_GEO, changed)
    line = refusal(build(tmp_path, regions, factions))
    assert line.startswith("InputError: ") and expected in line
    assert not (tmp_path / "built.json").exists()


def test_a_region_out_of_every_reach_has_no_border(tmp_path: Path) -> None:
    line = refusal(build(tmp_path, ISLANDS_GEO, ISLANDS_CSV, "--max-remote-km", "1000"))
    assert "features[3] (AD).geometry: region AD has no border" in line
    assert "remote reach of 1000 km" in line


def test_a_map_in_two_groups_is_not_connected(tmp_path: Path) -> None:
    far = ('{"type": "Feature", "properties": {"code": "AD"}, "geometry": {"type": '
           f'"Polygon", "coordinates": {FAR_WEST}}}}}')
    neighbour = ('{"type": "Feature", "properties": {"code": "AE"}, "geometry": {"type": '
                 '"Polygon", "coordinates": [[[32.0, 50.5], [32.5, 50.0], [33.0, 50.5], '
                 '[32.5, 51.0], [32.0, 50.5]]]}}')
    regions = edited(tmp_path, "islands", "geojson", far, far + ",\n" + neighbour)
    factions = tmp_path / "five.csv"
    factions.write_text(ISLANDS_CSV.read_text(encoding="utf-8")
                        + "AE,Epsilon,700,2019,official,1,1,1,1,1,R,Rock,A fact.,,invented\n",
                        encoding="utf-8")
    line = refusal(build(tmp_path, regions, factions, "--max-remote-km", "0"))
    assert "features[3] (AD).geometry: the map is not connected: AD, AE (2 regions)" in line


def test_off_map_land_blocks_a_crossing_but_is_no_region(tmp_path: Path) -> None:
    wall = ('{"type": "Feature", "properties": {"code": "wall", "off_map": true}, "geometry": '
            '{"type": "Polygon", "coordinates": [[[12.9, 49.0], [13.1, 49.0], [13.1, 52.0], '
            '[12.9, 52.0], [12.9, 49.0]]]}},\n')
    regions = edited(tmp_path, "islands", "geojson", '{"type": "Feature", "properties": '
                     '{"code": "AA"}', wall + '{"type": "Feature", "properties": {"code": "AA"}')
    result = build(tmp_path, regions, ISLANDS_CSV)
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "built.json").read_text(encoding="utf-8"))
    # The wall stands between AB and AC, so only the remote step joins them (it joins the
    # closest pair whatever lies between, as the north-america rule does).
    assert {pair: link["remote"] for pair, link in pairs(data, "sea").items()} == {
        "AB-AC": True, "AC-AD": True}
    assert sorted(region["code"] for region in data["regions"]) == ["AA", "AB", "AC", "AD"]


def test_an_unwritable_output_is_refused_before_any_work(tmp_path: Path) -> None:
    out = tmp_path / "missing-folder" / "map.json"
    result = runner.invoke(app, ["build", str(ISLANDS_GEO), str(ISLANDS_CSV), "--out", str(out)])
    assert "missing-folder" in refusal(result)


def test_module_exports_are_sorted() -> None:
    from fairfight.conquest.cli import map_cli
    from fairfight.conquest.maps import shapes as mapshapes

    for module in (mapbuild, mapgeo, mapshapes, map_cli):
        assert list(module.__all__) == sorted(module.__all__), module.__name__
        assert all(hasattr(module, name) for name in module.__all__)


# ------------------------------------------------------------------ the europe map

EUROPE_LAND = [
    "AL-GR", "AL-ME", "AL-MK", "AL-XK", "AT-CH", "AT-CZ", "AT-DE", "AT-HU", "AT-IT", "AT-SI",
    "AT-SK", "BA-HR", "BA-ME", "BA-RS", "BE-DE", "BE-FR", "BE-LU", "BE-NL", "BG-GR", "BG-MK",
    "BG-RO", "BG-RS", "BY-LT", "BY-LV", "BY-PL", "BY-RU", "BY-UA", "CH-DE", "CH-FR", "CH-IT",
    "CZ-DE", "CZ-PL", "CZ-SK", "DE-DK", "DE-FR", "DE-LU", "DE-NL", "DE-PL", "EE-LV", "EE-RU",
    "ES-FR", "ES-PT", "FI-NO", "FI-RU", "FI-SE", "FR-IT", "FR-LU", "GB-IE", "GR-MK", "HR-HU",
    "HR-ME", "HR-RS", "HR-SI", "HU-RO", "HU-RS", "HU-SI", "HU-SK", "HU-UA", "IT-SI", "LT-LV",
    "LT-PL", "LT-RU", "LV-RU", "MD-RO", "MD-UA", "ME-RS", "ME-XK", "MK-RS", "MK-XK", "NO-RU",
    "NO-SE", "PL-RU", "PL-SK", "PL-UA", "RO-RS", "RO-UA", "RS-XK", "RU-UA", "SK-UA",
]
"""Land borders between the 39 countries, written from the countries' neighbour lists (Russia's
through Kaliningrad with Lithuania and Poland); none of them depends on the geometry."""


@pytest.fixture(scope="module")
def europe_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The europe map rebuilt from the committed inputs in tools/."""
    folder = tmp_path_factory.mktemp("europe")
    result = runner.invoke(app, ["build", str(TOOLS / "europe_regions.geojson"),
                                 str(TOOLS / "europe_factions.csv"),
                                 "--out", str(folder / "europe.json")])
    assert result.exit_code == 0, result.output
    return folder


def test_the_shipped_europe_map_is_what_the_builder_makes(europe_build: Path) -> None:
    assert (europe_build / "europe.json").read_bytes() == EUROPE.read_bytes()
    shipped = EUROPE.with_name("europe.shapes.json").read_text(encoding="utf-8")
    assert json.loads((europe_build / "europe.shapes.json").read_text(encoding="utf-8"))[
        "regions"] == json.loads(shipped)["regions"]


def test_europe_has_the_countries_and_land_borders_of_its_sources() -> None:
    europe = load_map(EUROPE)
    with (TOOLS / "europe_factions.csv").open(encoding="utf-8", newline="") as handle:
        rows = {row["code"]: row for row in csv.DictReader(handle)}
    assert len(rows) == 39
    assert {region["code"] for region in europe["regions"]} == set(rows)
    assert {region["code"]: region["population"] for region in europe["regions"]} == {
        code: int(row["population"]) for code, row in rows.items()}
    land = {f"{b['a']}-{b['b']}" for b in europe["borders"] if b["kind"] == "land"}
    assert land == set(EUROPE_LAND)
    stats = map_stats(europe)
    assert (stats["factions"], stats["land"]) == (39, 79)
    sea = [b for b in europe["borders"] if b["kind"] == "sea"]
    assert all(b["distance_km"] <= mapgeo.MAX_SEA_KM for b in sea if not b["remote"])
    assert [f"{b['a']}-{b['b']}" for b in sea if b["remote"]] == ["GB-IS"]
    assert {"FR-GB", "BE-GB", "EE-FI", "DK-SE", "AL-IT"} <= {f"{b['a']}-{b['b']}" for b in sea}


def test_europe_ratings_follow_the_rating_rule() -> None:
    spec = importlib.util.spec_from_file_location("conquest_ratings", TOOLS / "conquest_ratings.py")
    assert spec is not None and spec.loader is not None
    rule = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, rule)
    spec.loader.exec_module(rule)
    with (TOOLS / "europe_indicators.csv").open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    values = {
        "P": {r["code"]: Fraction(int(r["gdp_per_person_usd"])) for r in rows},
        "S": {r["code"]: Fraction(int(r["area_km2"])) for r in rows},
        "M": {r["code"]: Fraction(int(r["population"]), int(r["area_km2"])) for r in rows},
        "R": {r["code"]: Fraction(int(r["highest_point_m"])) for r in rows},
        "U": {r["code"]: Fraction(-int(r["un_member_since"])) for r in rows},
    }
    expected = {c: rule.decile_ratings(v) for c, v in values.items()}
    for region in load_map(EUROPE)["regions"]:
        ratings = region["ratings"]
        assert ratings == {c: expected[c][region["code"]] for c in "PSMRU"}, region["code"]
        assert region["special"]["category"] == rule.special_category(ratings)


def test_a_season_plays_to_the_end_on_europe() -> None:
    europe = load_map(EUROPE)
    state, history, _ = play(europe)
    board = state["board"]
    # No fan money, so no rebellion: each battle absorbs one faction, 38 battles for 39.
    assert board["ended"] and len(history) == 38
    assert len({entry["owner"] for entry in board["regions"].values()}) == 1
    assert len(engine.compile_world(europe)["regions"]) == 39


def test_europe_shapes_draw_with_the_web_map() -> None:
    assert mapsvg.has_shapes("europe")
    recorded, actual = mapsvg.shapes_digest("europe")
    assert recorded == actual
    europe = load_map(EUROPE)
    views = [mapsvg.RegionView(r["code"], r["name"], r["code"], r["name"])
             for r in europe["regions"]]
    picture = mapsvg.draw_map(views, lambda code: f"/f/{code}", map_name="europe")
    assert picture.svg.count('class="map-region"') == 39
    assert mapsvg.sea_links("europe") == map_stats(europe)["sea"]
