"""Derive the `europe` map's inputs from Natural Earth, as packaged in a PyPI wheel.

Source: Natural Earth's 1:110m "Admin 0 - Countries" (public domain), the copy that the
geopandas 0.14.4 wheel ships as `geopandas/datasets/naturalearth_lowres` (shapefile with
population, continent, name, ISO code and GDP per country; Natural Earth's 2019 figures from
the World Bank). Nothing downloads at run time; get the wheel once with

    pip download --no-deps geopandas==0.14.4 -d /tmp/ne
    PYTHONPATH=src .venv/bin/python tools/europe_regions.py \
        /tmp/ne/geopandas-0.14.4-py3-none-any.whl

It writes, beside this script:

* europe_regions.geojson: the 39 countries Natural Earth puts in Europe, clipped to the frame
  FRAME (so France loses French Guiana, Russia is drawn west of 60 degrees east, roughly the
  Urals), coordinates rounded to ROUND_DEGREES decimals; plus the land of the other countries in
  the frame, marked `off_map`, which blocks sea crossings (Turkey, North Africa, the Caucasus);
* europe_indicators.csv: per country the indicators behind the ratings (Natural Earth's
  population and GDP, the area of its whole Natural Earth outline, and from europe_facts.csv
  the highest point and the year it joined the United Nations);
* europe_factions.csv: the table `fairfight conquest map build` reads, ratings and special
  category by the rule of tools/conquest_ratings.py.

Then: fairfight conquest map build tools/europe_regions.geojson tools/europe_factions.csv
--out src/fairfight/conquest/maps/europe.json --svg /tmp/europe.svg
"""

from __future__ import annotations

import csv
import json
import math
import struct
import sys
import zipfile
from fractions import Fraction
from pathlib import Path
from typing import Any

from shapely.geometry import MultiPolygon, Polygon, box, mapping
from shapely.ops import unary_union

from conquest_build_map import ratings_module  # the rating rule's loader, beside this script

TOOLS = Path(__file__).resolve().parent
DATASET = "geopandas/datasets/naturalearth_lowres/naturalearth_lowres"
FRAME = (-32.0, 25.0, 60.0, 85.0)
"""West, south, east, north: the map's frame. Regions are kept north of 34 N (the Canaries
and French Guiana leave); land off the map is kept down to 25 N, the Sahara's northern half."""
REGION_SOUTH = 34.0
ROUND_DEGREES = 4
"""Decimals kept (about 10 m): far below the 1:110m data's own detail."""
EARTH_KM = 6371.0
ALPHA2 = {
    "ALB": "AL", "AUT": "AT", "BEL": "BE", "BGR": "BG", "BIH": "BA", "BLR": "BY", "CHE": "CH",
    "CZE": "CZ", "DEU": "DE", "DNK": "DK", "ESP": "ES", "EST": "EE", "FIN": "FI", "FRA": "FR",
    "GBR": "GB", "GRC": "GR", "HRV": "HR", "HUN": "HU", "IRL": "IE", "ISL": "IS", "ITA": "IT",
    "LTU": "LT", "LUX": "LU", "LVA": "LV", "MDA": "MD", "MKD": "MK", "MNE": "ME", "NLD": "NL",
    "NOR": "NO", "POL": "PL", "PRT": "PT", "ROU": "RO", "RUS": "RU", "SRB": "RS", "SVK": "SK",
    "SVN": "SI", "SWE": "SE", "UKR": "UA", "-99": "XK",
}
"""ISO 3166-1 alpha-2 codes; Natural Earth gives Kosovo no ISO code, XK is the code the EU and
others use for it (a user-assigned code of ISO 3166)."""


def read_dbf(data: bytes, encoding: str) -> list[dict[str, str]]:
    """The rows of a dBASE table (the shapefile's attributes), as text."""
    count, header_size, record_size = struct.unpack("<IHH", data[4:12])
    fields, position = [], 32
    while data[position] != 0x0D:
        name = data[position:position + 11].split(b"\0")[0].decode()
        fields.append((name, data[position + 16]))
        position += 32
    rows = []
    for index in range(count):
        start = header_size + index * record_size + 1
        row, offset = {}, start
        for name, size in fields:
            row[name] = data[offset:offset + size].decode(encoding).strip()
            offset += size
        rows.append(row)
    return rows


def read_shp(data: bytes) -> list[Any]:
    """The polygons of a shapefile: outer rings run clockwise, holes anticlockwise."""
    shapes, position = [], 100
    while position < len(data):
        _, words = struct.unpack(">II", data[position:position + 8])
        body = data[position + 8:position + 8 + 2 * words]
        position += 8 + 2 * words
        kind, = struct.unpack("<i", body[:4])
        if kind != 5:
            raise SystemExit(f"shape type {kind} is not a polygon")
        parts_count, points_count = struct.unpack("<ii", body[36:44])
        parts = list(struct.unpack(f"<{parts_count}i", body[44:44 + 4 * parts_count]))
        start = 44 + 4 * parts_count
        points = [struct.unpack("<dd", body[start + 16 * i:start + 16 * i + 16])
                  for i in range(points_count)]
        rings = [points[a:b] for a, b in zip(parts, [*parts[1:], points_count], strict=True)]
        outers = [Polygon(r) for r in rings if Polygon(r).exterior.is_ccw is False]
        holes = [Polygon(r) for r in rings if Polygon(r).exterior.is_ccw is True]
        polygons = [unary_union([o]).difference(unary_union([h for h in holes if o.contains(h)]))
                    if holes else o for o in outers]
        shapes.append(unary_union(polygons))
    return shapes


def spherical_area_km2(geometry: Any) -> int:
    """Area on the sphere of every part, by the edge sum of a spherical polygon (no projection)."""
    def ring_area(coords: list[tuple[float, float]]) -> float:
        total = 0.0
        for (lon1, lat1), (lon2, lat2) in zip(coords, coords[1:], strict=False):
            total += math.radians(lon2 - lon1) * (2 + math.sin(math.radians(lat1))
                                                 + math.sin(math.radians(lat2)))
        return abs(total) * EARTH_KM ** 2 / 2
    parts = list(getattr(geometry, "geoms", [geometry]))
    return round(sum(ring_area(list(p.exterior.coords))
                     - sum(ring_area(list(h.coords)) for h in p.interiors) for p in parts))


def rounded(geometry: Any) -> Any:
    """Coordinates rounded, the result made valid (rounding can pinch a ring)."""
    def ring(coords: Any) -> list[tuple[float, float]]:
        return [(round(x, ROUND_DEGREES), round(y, ROUND_DEGREES)) for x, y in coords]
    parts = [Polygon(ring(p.exterior.coords), [ring(h.coords) for h in p.interiors]).buffer(0)
             for p in getattr(geometry, "geoms", [geometry])]
    merged = unary_union([p for p in parts if not p.is_empty])
    return merged if isinstance(merged, MultiPolygon | Polygon) else MultiPolygon(
        [g for g in merged.geoms if isinstance(g, Polygon)])


def feature(code: str, geometry: Any, **extra: Any) -> dict[str, Any]:
    return {"type": "Feature", "properties": {"code": code, **extra}, "geometry": mapping(geometry)}


def main() -> None:
    wheel = zipfile.ZipFile(sys.argv[1])
    encoding = wheel.read(DATASET + ".cpg").decode("ascii").strip()
    rows = read_dbf(wheel.read(DATASET + ".dbf"), "cp1252" if encoding == "1252" else encoding)
    shapes = read_shp(wheel.read(DATASET + ".shp"))
    facts = {row["code"]: row for row in csv.DictReader(
        (TOOLS / "europe_facts.csv").open(encoding="utf-8", newline=""))}
    frame = box(*FRAME)
    regions_frame = box(FRAME[0], REGION_SOUTH, FRAME[2], FRAME[3])
    features, indicators = [], []
    for row, geometry in zip(rows, shapes, strict=True):
        if row["continent"] == "Europe":
            code = ALPHA2[row["iso_a3"]]
            features.append(feature(code, rounded(geometry.intersection(regions_frame)),
                                    name=facts[code]["name"]))
            population = round(float(row["pop_est"]))
            indicators.append({
                "code": code, "population": population,
                "gdp_per_person_usd": round(float(row["gdp_md_est"]) * 1_000_000 / population),
                "area_km2": spherical_area_km2(geometry),
                "highest_point_m": int(facts[code]["highest_point_m"]),
                "un_member_since": int(facts[code]["un_member_since"]),
            })
        elif geometry.intersects(frame):
            features.append(feature(row["iso_a3"], rounded(geometry.intersection(frame)),
                                    off_map=True, name=row["name"]))
    features.sort(key=lambda f: (f["properties"].get("off_map", False), f["properties"]["code"]))
    indicators.sort(key=lambda row: row["code"])
    (TOOLS / "europe_regions.geojson").write_text(
        json.dumps({"type": "FeatureCollection", "features": features},
                   ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8")
    with (TOOLS / "europe_indicators.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(indicators[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(indicators)
    rule = ratings_module()
    values = {
        "P": {r["code"]: Fraction(r["gdp_per_person_usd"]) for r in indicators},
        "S": {r["code"]: Fraction(r["area_km2"]) for r in indicators},
        "M": {r["code"]: Fraction(r["population"], r["area_km2"]) for r in indicators},
        "R": {r["code"]: Fraction(r["highest_point_m"]) for r in indicators},
        "U": {r["code"]: Fraction(-r["un_member_since"]) for r in indicators},
    }
    ratings = {category: rule.decile_ratings(by_code) for category, by_code in values.items()}
    columns = ["code", "name", "population", "population_year", "population_basis",
               "P", "S", "M", "R", "U", "special", "special_name", "fact", "citation",
               "population_source"]
    with (TOOLS / "europe_factions.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        for row in indicators:
            code = row["code"]
            own = {category: ratings[category][code] for category in "PSMRU"}
            writer.writerow({
                "code": code, "name": facts[code]["name"], "population": row["population"],
                "population_year": 2019, "population_basis": "estimate", **own,
                "special": rule.special_category(own),
                "special_name": facts[code]["special_name"], "fact": facts[code]["fact"],
                "citation": facts[code]["citation"],
                "population_source": "Natural Earth 1:110m Admin 0 (POP_EST, 2019, World Bank)",
            })
            print(code, own, rule.special_category(own))
    print(f"{len(indicators)} regions, {len(features) - len(indicators)} off-map features")


if __name__ == "__main__":
    main()
