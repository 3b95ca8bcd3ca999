"""The shipped north-america map: counts, codes, graph and the loader's refusals [§0, §11]."""

from __future__ import annotations

import copy
import csv
import json
import re
from pathlib import Path
from typing import Any

import pytest

from fairfight.conquest.rules import scenario
from fairfight.conquest.rules.scenario import MAP_NAMES, load_map, map_path, map_stats, validate_map
from fairfight.core.errors import InputError

TOOLS = Path(__file__).resolve().parents[2] / "tools"


@pytest.fixture(scope="module")
def shipped() -> dict[str, Any]:
    return load_map("north-america")


def test_the_default_map_is_north_america(shipped: dict[str, Any]) -> None:
    assert MAP_NAMES[0] == "north-america" and "europe" in MAP_NAMES
    assert load_map() == shipped
    assert load_map(map_path("north-america")) == shipped
    assert shipped["name"] == "north-america"


def test_counts_match_the_source_description(shipped: dict[str, Any]) -> None:
    codes = [region["code"] for region in shipped["regions"]]
    assert len(codes) == 136
    assert sum(code.startswith("US-") for code in codes) == 51
    assert sum(code.startswith("CA-") for code in codes) == 13
    assert sum(code.startswith("MX-") for code in codes) == 32
    land = [b for b in shipped["borders"] if b["kind"] == "land"]
    sea = [b for b in shipped["borders"] if b["kind"] == "sea"]
    remote = [b for b in sea if b["remote"]]
    assert len(land) == 232
    assert map_stats(shipped) == {
        "factions": 136,
        "borders": len(land) + len(sea),
        "land": 232,
        "sea": len(sea),
        "remote": len(remote),
    }


def test_land_borders_are_the_checked_list(shipped: dict[str, Any]) -> None:
    with (TOOLS / "conquest_land_borders.csv").open(encoding="utf-8") as handle:
        listed = {(row["a"], row["b"]) for row in csv.DictReader(handle)}
    shipped_land = {(b["a"], b["b"]) for b in shipped["borders"] if b["kind"] == "land"}
    assert shipped_land == listed


@pytest.mark.parametrize(
    ("a", "b", "kind"),
    [
        ("US-NM", "US-TX", "land"),
        ("DO", "HT", "land"),  # Hispaniola
        ("MF", "SX", "land"),  # Saint Martin island
        ("CA-ON", "US-NY", "land"),  # Niagara and St. Lawrence rivers
        ("CA-NU", "GL", "land"),  # Hans Island
        ("CA-ON", "US-OH", "sea"),  # Lake Erie only
        ("CU", "US-FL", "sea"),  # Florida Straits
        ("CA-NL", "PM", "sea"),
    ],
)
def test_known_borders(shipped: dict[str, Any], a: str, b: str, kind: str) -> None:
    found = [x for x in shipped["borders"] if (x["a"], x["b"]) == (a, b)]
    assert [x["kind"] for x in found] == [kind]


@pytest.mark.parametrize(
    ("a", "b"),
    [("US-AZ", "US-CO"), ("US-NM", "US-UT"), ("CA-MB", "CA-NT"), ("CA-NU", "CA-SK")],
)
def test_corner_contacts_are_not_borders(shipped: dict[str, Any], a: str, b: str) -> None:
    assert not [x for x in shipped["borders"] if (x["a"], x["b"]) == (a, b)]


def test_every_region_has_a_border_and_the_graph_is_connected(shipped: dict[str, Any]) -> None:
    neighbours: dict[str, set[str]] = {r["code"]: set() for r in shipped["regions"]}
    for border in shipped["borders"]:
        neighbours[border["a"]].add(border["b"])
        neighbours[border["b"]].add(border["a"])
    assert all(neighbours.values())
    seen, stack = {"US-TX"}, ["US-TX"]
    while stack:
        for other in neighbours[stack.pop()] - seen:
            seen.add(other)
            stack.append(other)
    assert seen == set(neighbours)


def test_remote_links_reach_the_far_islands(shipped: dict[str, Any]) -> None:
    remote = {(b["a"], b["b"]) for b in shipped["borders"] if b["remote"]}
    touched = {code for pair in remote for code in pair}
    assert {"US-HI", "BM"} <= touched
    for border in shipped["borders"]:
        if border["kind"] == "land":
            assert border["distance_km"] == 0 and not border["remote"]
        elif not border["remote"]:
            assert 0 <= border["distance_km"] <= 500
        else:
            assert border["distance_km"] > 500


ISO_PATTERNS = {
    "US": re.compile(r"^US-[A-Z]{2}$"),
    "CA": re.compile(r"^CA-(AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT)$"),
    "MX": re.compile(r"^MX-[A-Z]{3}$"),
    "BQ": re.compile(r"^BQ-(BO|SA|SE)$"),
}


def test_codes_follow_iso_3166(shipped: dict[str, Any]) -> None:
    for region in shipped["regions"]:
        code = region["code"]
        country = code[:2]
        if "-" in code:
            assert ISO_PATTERNS[country].match(code), code
        else:
            assert re.fullmatch(r"[A-Z]{2}", code), code
    codes = [r["code"] for r in shipped["regions"]]
    assert codes == sorted(codes)
    assert {"US-DC", "US-TX", "CA-ON", "MX-JAL", "MX-CMX", "BQ-SA", "PR", "VI"} <= set(codes)


def test_populations_add_up_to_the_national_census_totals(shipped: dict[str, Any]) -> None:
    """2020 US census 331,449,281 (50 states + DC); Canada 2021 36,991,981; Mexico 2020
    126,014,024: each region's figure adds up to the published national total."""
    by_code = {r["code"]: r for r in shipped["regions"]}
    totals = {"US-": 331_449_281, "CA-": 36_991_981, "MX-": 126_014_024}
    for prefix, total in totals.items():
        assert sum(r["population"] for c, r in by_code.items() if c.startswith(prefix)) == total
    assert by_code["US-TX"]["population"] == 29_145_505
    assert by_code["AI"]["population"] == 13_572
    bases = {r["population_basis"] for r in by_code.values()}
    assert bases == {"census", "estimate", "official"}


# --- refusals, on a copy of a small map -----------------------------------------------------


def region(code: str) -> dict[str, Any]:
    return {
        "code": code,
        "name": f"Region {code}",
        "population": 1000,
        "population_year": 2020,
        "population_basis": "census",
        "ratings": {"P": 5, "S": 5, "M": 5, "R": 5, "U": 5},
        "special": {
            "category": "P",
            "name": "Mill",
            "fact": "A mill town.",
            "source_status": "unsourced",
            "citation": None,
        },
    }


SMALL = {
    "name": "small",
    "regions": [region("AA"), region("BB"), region("CC-XY")],
    "borders": [
        {"a": "AA", "b": "BB", "kind": "land", "remote": False, "distance_km": 0},
        {"a": "BB", "b": "CC-XY", "kind": "sea", "remote": False, "distance_km": 120},
    ],
}


def small() -> dict[str, Any]:
    return copy.deepcopy(SMALL)


def refused(data: dict[str, Any]) -> InputError:
    with pytest.raises(InputError) as caught:
        validate_map(data)
    return caught.value


def test_the_small_map_is_valid() -> None:
    assert map_stats(validate_map(small())) == {
        "factions": 3,
        "borders": 2,
        "land": 1,
        "sea": 1,
        "remote": 0,
    }


def test_unknown_code_in_a_border() -> None:
    data = small()
    data["borders"][1]["b"] = "ZZ"
    error = refused(data)
    assert error.field == "map.borders[1].b"
    assert "unknown region code ZZ" in error.rule


@pytest.mark.parametrize(
    ("a", "b", "rule"),
    [("AA", "BB", "duplicate border AA-BB"), ("BB", "AA", "a must sort before b")],
)
def test_duplicate_border_in_either_order(a: str, b: str, rule: str) -> None:
    data = small()
    data["borders"].append({"a": a, "b": b, "kind": "sea", "remote": False, "distance_km": 3})
    error = refused(data)
    assert error.field == "map.borders[2]"
    assert rule in error.rule


def test_a_reversed_pair_is_refused_as_unordered() -> None:
    data = small()
    data["borders"][0]["a"], data["borders"][0]["b"] = "BB", "AA"
    error = refused(data)
    assert error.field == "map.borders[0]"
    assert "sort before" in error.rule


def test_region_without_a_border() -> None:
    data = small()
    data["regions"].append(region("DD"))
    error = refused(data)
    assert error.field == "map.regions[3].code"
    assert "DD has no border" in error.rule


def test_disconnected_graph() -> None:
    data = small()
    data["regions"] += [region("DD"), region("EE")]
    data["borders"].append(
        {"a": "DD", "b": "EE", "kind": "land", "remote": False, "distance_km": 0}
    )
    error = refused(data)
    assert error.field == "map.borders"
    assert "not connected" in error.rule


@pytest.mark.parametrize(("category", "value"), [("P", 0), ("U", 11), ("M", -3)])
def test_rating_outside_one_to_ten(category: str, value: int) -> None:
    data = small()
    data["regions"][1]["ratings"][category] = value
    error = refused(data)
    assert error.field == f"map.regions[1].ratings.{category}"


def test_rating_must_be_an_integer() -> None:
    data = small()
    data["regions"][0]["ratings"]["S"] = 5.5
    assert refused(data).field == "map.regions[0].ratings.S"


def test_special_outside_the_five_categories() -> None:
    data = small()
    data["regions"][2]["special"]["category"] = "X"
    assert refused(data).field == "map.regions[2].special.category"


def test_sourced_special_needs_a_citation() -> None:
    data = small()
    data["regions"][0]["special"]["source_status"] = "sourced"
    error = refused(data)
    assert error.field == "map.regions[0].special"
    assert "citation" in error.rule


@pytest.mark.parametrize("population", [0, -5])
def test_population_below_one(population: int) -> None:
    data = small()
    data["regions"][0]["population"] = population
    assert refused(data).field == "map.regions[0].population"


def test_remote_is_only_for_sea_borders() -> None:
    data = small()
    data["borders"][0]["remote"] = True
    assert refused(data).field == "map.borders[0]"


def test_duplicate_region_code() -> None:
    data = small()
    data["regions"].append(region("AA"))
    assert refused(data).field == "map.regions[3].code"


def test_bad_map_files_give_one_line_errors(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"name": "x", ', encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_map(broken)
    assert "JSON syntax error at line 1" in caught.value.rule
    with pytest.raises(InputError) as caught:
        load_map(tmp_path / "missing.json")
    assert caught.value.rule == "file not found"
    good = tmp_path / "small.json"
    good.write_text(json.dumps(small()), encoding="utf-8")
    assert load_map(str(good))["name"] == "small"
    with pytest.raises(InputError) as caught:
        load_map("atlantis")
    assert caught.value.field == "map"
    assert "unknown map 'atlantis'; shipped maps: north-america" in caught.value.rule


def test_scenario_exports_are_sorted_and_complete() -> None:
    exported = scenario.__all__
    assert list(exported) == sorted(exported)
    public = {
        name
        for name, value in vars(scenario).items()
        if not name.startswith("_") and getattr(value, "__module__", None) == scenario.__name__
    }
    assert public <= set(exported)
    assert all(hasattr(scenario, name) for name in exported)


def test_errors_print_on_one_line() -> None:
    data = small()
    data["borders"][1]["b"] = "ZZ"
    line = refused(data).one_line()
    assert line == "InputError: map.borders[1].b: unknown region code ZZ"


def test_the_map_notes_state_the_shipped_counts(shipped: dict[str, Any]) -> None:
    notes = map_path("north-america").with_name("SOURCES.md").read_text(encoding="utf-8")
    stats = map_stats(shipped)
    summary = (
        f"{stats['factions']} regions, {stats['land']} land borders and {stats['sea']} sea\n"
        f"links ({stats['remote']} of them labelled remote), {stats['borders']} borders in all."
    )
    assert summary in notes


def test_every_shipped_map_loads_by_name_and_validates() -> None:
    for name in MAP_NAMES:
        data = load_map(name)
        assert data["name"] == name
        validate_map(data)
