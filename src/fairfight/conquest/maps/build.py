"""Build a conquest map from boundaries (GeoJSON) and a table of factions (CSV).

The geometry gives the borders (`mapgeo`: shared boundaries, then the coastline rule); the
table gives each region's name, population, ratings and special. Both files are read through
`fairfight.inputs`, every row through the map's own pydantic models, and the result through
`scenario.validate_map`, so a built map is one the engine loads. Each refusal is one
InputError naming the file, the region and the field.
"""

from __future__ import annotations

import csv
import io
import json
import re
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictStr
from shapely.geometry import shape  # type: ignore[import-untyped]
from shapely.ops import unary_union  # type: ignore[import-untyped]
from shapely.validation import explain_validity  # type: ignore[import-untyped]

from fairfight.conquest.maps import geo as mapgeo
from fairfight.conquest.rules.scenario import BorderKind, Region, validate_map
from fairfight.core.errors import InputError
from fairfight.core.validation import parse_model
from fairfight.inputs import load_json, read_text

__all__ = [
    "BuildReport",
    "BuiltMap",
    "COLUMNS",
    "MAX_GEOJSON_BYTES",
    "MAX_TABLE_BYTES",
    "build_map",
    "map_text",
    "read_factions",
    "read_regions",
]

COLUMNS = (
    "code", "name", "population", "population_year", "population_basis",
    "P", "S", "M", "R", "U", "special", "special_name", "fact", "citation",
)
"""Columns of the faction table; any other column (a source, a note) is kept out of the map."""
MAX_GEOJSON_BYTES = 32 * 1024 * 1024
"""Largest boundary file read: detailed national outlines of a continent fit in a few MB."""
MAX_TABLE_BYTES = 1024 * 1024
"""Largest faction table read: a row is a few hundred bytes."""
_WHOLE = re.compile(r"-?[0-9]{1,12}")
_INTEGER_COLUMNS = ("population", "population_year", "P", "S", "M", "R", "U")
_COLUMN_OF = {"special.category": "special", "special.name": "special_name",
              "special.fact": "fact", "special.citation": "citation"}
"""Model field paths written as the table's own column names."""


class _Open(BaseModel):
    model_config = ConfigDict(extra="allow", frozen=True)


class _Properties(_Open):
    code: StrictStr
    off_map: StrictBool = False


class _Geometry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    type: Literal["Polygon", "MultiPolygon"]
    coordinates: list[Any]


class _Feature(_Open):
    type: Literal["Feature"]
    properties: _Properties
    geometry: _Geometry


class _FeatureCollection(_Open):
    type: Literal["FeatureCollection"]
    features: list[_Feature] = Field(min_length=1)


@dataclass(frozen=True, slots=True)
class _Outline:
    """One feature's outline and where it was found, for messages that point back at it."""

    code: str
    where: str
    geometry: mapgeo.Geometry
    off_map: bool


def _parse_geojson(path: Path) -> Any:
    """GeoJSON as data, with every check of `inputs.load_json` (size cap, strict UTF-8, no
    repeated keys, no NaN, bounded nesting) except that numbers may have fractions, as GeoJSON
    coordinates do."""
    return load_json(path, MAX_GEOJSON_BYTES, fractions=True)


def read_regions(path: Path) -> dict[str, _Outline]:
    """Every feature's outline by code, each checked with shapely's `explain_validity`."""
    collection = parse_model(_FeatureCollection, _parse_geojson(path), prefix=str(path))
    outlines: dict[str, _Outline] = {}
    for index, feature in enumerate(collection.features):
        code = feature.properties.code
        where = f"{path}: features[{index}] ({code})"
        if code in outlines:
            raise InputError(f"{where}.properties.code",
                             f"duplicate code {code}, first at {outlines[code].where}")
        try:
            geometry = shape(feature.geometry.model_dump())
        except (ValueError, TypeError, IndexError, AttributeError) as error:
            raise InputError(f"{where}.geometry",
                             f"not a {feature.geometry.type}: {error}") from None
        if geometry.is_empty:
            raise InputError(f"{where}.geometry", "the outline has no points")
        west, south, east, north = geometry.bounds
        if not (south >= -90 and north <= 90 and west >= -540 and east <= 540):
            raise InputError(f"{where}.geometry",
                             "coordinates must be longitude and latitude in degrees")
        if not geometry.is_valid:
            raise InputError(f"{where}.geometry", f"invalid geometry: {explain_validity(geometry)}")
        if geometry.area <= 0:
            raise InputError(f"{where}.geometry", "the outline encloses no area")
        outlines[code] = _Outline(code, where, geometry, feature.properties.off_map)
    return outlines


def _cell_values(row: Mapping[str, str], where: str) -> dict[str, Any]:
    """A row's cells as plain map data (integers parsed, an empty citation left out)."""
    values: dict[str, Any] = {}
    for column in COLUMNS:
        text = (row.get(column) or "").strip()
        if not text and column != "citation":
            raise InputError(f"{where}.{column}", "missing")
        if column in _INTEGER_COLUMNS:
            if not _WHOLE.fullmatch(text):
                raise InputError(f"{where}.{column}", f"must be a whole number, got {text!r}")
            values[column] = int(text)
        else:
            values[column] = text
    return values


def _region_from_row(row: Mapping[str, str], where: str) -> dict[str, Any]:
    """One table row as a map region, checked by the map's own `Region` model."""
    cells = _cell_values(row, where)
    citation = cells["citation"] or None
    data = {
        "code": cells["code"], "name": cells["name"], "population": cells["population"],
        "population_year": cells["population_year"],
        "population_basis": cells["population_basis"],
        "ratings": {category: cells[category] for category in "PSMRU"},
        "special": {
            "category": cells["special"], "name": cells["special_name"], "fact": cells["fact"],
            "source_status": "sourced" if citation else "unsourced", "citation": citation,
        },
    }
    try:
        parse_model(Region, data)
    except InputError as error:
        path = error.field.removeprefix("ratings.")
        column = _COLUMN_OF.get(path, path)
        raise InputError(f"{where}.{column}", error.rule) from None
    return data


def read_factions(path: Path) -> tuple[dict[str, dict[str, Any]], tuple[str, ...]]:
    """Regions by code from the faction table, and the table's columns the map does not use."""
    reader = csv.reader(io.StringIO(read_text(path, MAX_TABLE_BYTES), newline=""))
    header = [name.strip() for name in next(reader, [])]
    for column in COLUMNS:
        if column not in header:
            raise InputError(str(path),
                             f"missing column {column!r} (columns: {', '.join(COLUMNS)})")
    repeated = sorted({name for name in header if header.count(name) > 1})
    if repeated:
        raise InputError(str(path), f"column {repeated[0]!r} appears twice")
    regions: dict[str, dict[str, Any]] = {}
    lines: dict[str, int] = {}
    for cells in reader:
        line = reader.line_num
        if not any(cell.strip() for cell in cells):
            continue
        index = header.index("code")
        code = cells[index].strip() if len(cells) > index else "?"
        where = f"{path} line {line} ({code})"
        if len(cells) != len(header):
            raise InputError(where, f"has {len(cells)} cells, the header has {len(header)}")
        if code in regions:
            raise InputError(f"{where}.code", f"duplicate code {code}, first on line {lines[code]}")
        regions[code] = _region_from_row(dict(zip(header, cells, strict=True)), where)
        lines[code] = line
    if len(regions) < 2:
        raise InputError(str(path), "a map needs at least two regions")
    return regions, tuple(name for name in header if name not in COLUMNS)


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What the builder found: counts, the remote links, the regions reached only by sea."""

    name: str
    regions: int
    land: int
    sea: int
    remote_links: tuple[str, ...]
    sea_only: tuple[str, ...]
    off_map: int
    median_sea_km: int | None
    unused_columns: tuple[str, ...] = field(default=())

    def lines(self) -> list[str]:
        """The report as short sentences, one per line."""
        lines = [
            f"map {self.name}: {self.regions} regions, {self.land + self.sea} borders "
            f"({self.land} land, {self.sea} sea of which {len(self.remote_links)} remote)",
        ]
        if self.median_sea_km is not None:
            lines.append(f"median sea crossing: {self.median_sea_km} km")
        for link in self.remote_links:
            lines.append(f"remote link: {link}")
        if self.sea_only:
            lines.append(f"regions with only sea links ({len(self.sea_only)}): "
                         + ", ".join(self.sea_only))
        if self.off_map:
            lines.append(f"land off the map that blocks crossings: {self.off_map} features")
        if self.unused_columns:
            lines.append("table columns not in the map: " + ", ".join(self.unused_columns))
        return lines

    def to_json(self) -> dict[str, Any]:
        """The same report as plain data, for `--json`."""
        return {
            "name": self.name, "regions": self.regions, "land": self.land, "sea": self.sea,
            "remote": len(self.remote_links), "remote_links": list(self.remote_links),
            "sea_only": list(self.sea_only), "off_map": self.off_map,
            "median_sea_km": self.median_sea_km, "unused_columns": list(self.unused_columns),
        }


@dataclass(frozen=True, slots=True)
class BuiltMap:
    """The validated map data, what was found on the way, and the outlines it was built from."""

    map_data: dict[str, Any]
    report: BuildReport
    outlines: dict[str, mapgeo.Geometry]


def _check_codes(outlines: Mapping[str, _Outline], regions: Mapping[str, Any],
                 factions: Path) -> None:
    """Every region in both files, and off-map land only in the boundary file."""
    for outline in outlines.values():
        if outline.off_map and outline.code in regions:
            raise InputError(f"{outline.where}.properties.off_map",
                             f"{outline.code} is a region in {factions}, not land off the map")
        if not outline.off_map and outline.code not in regions:
            raise InputError(f"{outline.where}.properties.code",
                             f"no row of {factions} has code {outline.code}")
    for code in regions:
        if code not in outlines:
            raise InputError(f"{factions} ({code}).code", f"no feature has code {code}")


def _check_reach(outlines: Mapping[str, _Outline], pairs: Sequence[mapgeo.Pair],
                 max_remote_km: float) -> None:
    """Refuse a region with no border, then a map in groups that no remote link could join."""
    codes = sorted((code for code in outlines if not outlines[code].off_map), key=str.encode)
    groups = mapgeo.components(codes, pairs)
    reach = (f"no shared boundary, no coast within {mapgeo.MAX_SEA_KM} km and no region "
             f"within the remote reach of {max_remote_km:g} km")
    for group in groups:
        if len(group) == 1:
            (code,) = group
            raise InputError(f"{outlines[code].where}.geometry",
                             f"region {code} has no border: {reach}")
    if len(groups) > 1:
        largest = max(groups, key=len)
        cut_off = sorted(next(g for g in groups if g is not largest), key=str.encode)
        raise InputError(
            f"{outlines[cut_off[0]].where}.geometry",
            f"the map is not connected: {', '.join(cut_off)} ({len(cut_off)} regions) cannot "
            f"reach {min(largest, key=str.encode)}: {reach}")


def build_map(regions_file: Path, factions_file: Path, name: str,
              max_remote_km: float = mapgeo.MAX_REMOTE_KM) -> BuiltMap:
    """Read both files, find the borders, and return the map validated as the engine loads it."""
    outlines = read_regions(regions_file)
    regions, unused = read_factions(factions_file)
    _check_codes(outlines, regions, factions_file)
    land_of = {code: item.geometry for code, item in outlines.items() if not item.off_map}
    blockers = [item.geometry for item in outlines.values() if item.off_map]
    off_map = unary_union(blockers) if blockers else None
    land = mapgeo.land_borders(land_of)
    links = mapgeo.sea_links(land_of, land, off_map, max_remote_km)
    pairs = [*land, *((link.a, link.b) for link in links)]
    _check_reach(outlines, pairs, max_remote_km)
    borders = [{"a": a, "b": b, "kind": BorderKind.LAND.value, "remote": False, "distance_km": 0}
               for a, b in land]
    borders += [{"a": link.a, "b": link.b, "kind": BorderKind.SEA.value, "remote": link.remote,
                 "distance_km": link.distance_km} for link in links]
    map_data = validate_map({"name": name, "regions": list(regions.values()), "borders": borders})
    by_land = {code for pair in land for code in pair}
    crossings = [link.distance_km for link in links if not link.remote]
    report = BuildReport(
        name=name, regions=len(regions), land=len(land), sea=len(links),
        remote_links=tuple(f"{link.a}-{link.b} {link.distance_km:,} km"
                           for link in links if link.remote),
        sea_only=tuple(sorted((code for code in regions if code not in by_land), key=str.encode)),
        off_map=len(blockers),
        median_sea_km=round(statistics.median(crossings)) if crossings else None,
        unused_columns=unused,
    )
    return BuiltMap(map_data, report, land_of)


def map_text(map_data: Mapping[str, Any]) -> str:
    """The map as JSON with one region or border per line, so a change is a one-line diff."""
    regions = ",\n".join(json.dumps(region, ensure_ascii=False) for region in map_data["regions"])
    borders = ",\n".join(json.dumps(border) for border in map_data["borders"])
    return (f'{{\n"name": {json.dumps(map_data["name"])},\n"regions": [\n{regions}\n],\n'
            f'"borders": [\n{borders}\n]\n}}\n')
