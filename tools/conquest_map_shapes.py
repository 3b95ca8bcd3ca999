"""Draw the conquest map's regions from real boundary data, once, into package data.

Not part of the package: like tools/conquest_sea_links.py it needs Debian's `gmt`, `gmt-dcw`,
`gmt-gshhg-high` and `python3-shapely`, and runs with the system Python:

    /usr/bin/python3 tools/conquest_map_shapes.py [--cache /tmp/outlines.pickle]

It writes src/fairfight/conquest/maps/north-america.shapes.json and prints the digest that
SOURCES.md records. The steps:

1. Outlines. Every region except the Mexican states is the DCW outline that the sea-link tool
   builds (US states, Canadian provinces and territories, countries; Great Lakes water cut out;
   Bonaire, Saba and Sint Eustatius split by nearest reference point). DCW has no Mexican
   states, so Mexico's mainland is cut along GSHHG's WDBII state-boundary lines (their loose
   ends joined to the nearest line or coast), each face goes to the state whose reference point
   it contains, and faces holding none join the neighbour they share most boundary with.
   Islands keep the state the sea-link tool gave them.
2. Projection. Albers equal-area conic (standard parallels 20 and 60 N, centre 100 W, 40 N),
   one unit per kilometre, y growing southwards as in SVG, rounded to whole kilometres.
3. Simplification. Douglas-Peucker on the projected rings, at a tolerance growing with the
   region's size (SIMPLIFY_KM); islands under MIN_ISLAND_KM2 are dropped unless they are all
   the region has (its largest part stays).
   Each region also gets a label point inside it and its drawn area, which the renderer uses
   to put a marker on regions too small to see.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import pickle
from pathlib import Path

from shapely.geometry import LineString, MultiPolygon, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import linemerge, nearest_points, polygonize, unary_union

from conquest_sea_links import (
    build_outlines,
    dcw_outline,
    gmt_segments,
    polygon_parts,
    read_regions,
)

ROOT = Path(__file__).resolve().parent.parent
OUTPUT = ROOT / "src" / "fairfight" / "conquest" / "maps" / "north-america.shapes.json"
SIMPLIFY_KM = (0.5, 3.0)
"""Douglas-Peucker tolerance, smallest and largest: a region's is the square root of its area
over SIMPLIFY_SHARE, within these bounds, so islands keep their shape in the magnified
Caribbean frame while big regions drop points no screen could show."""
SIMPLIFY_SHARE = 40
MIN_ISLAND_KM2 = 40.0
"""Islands smaller than this are dropped from regions that have bigger land."""
EARTH_KM = 6371.0
CENTRE_LON, CENTRE_LAT = -100.0, 40.0
PARALLELS = (20.0, 60.0)
MEXICO_BOX = "-R-119/-86/14/33.5"
LOOSE_END_DEG = 1e-9
"""A state-line end farther than this from any other line or the coast is joined to it."""


class Albers:
    """Albers equal-area conic on a sphere, in kilometres (Snyder, Map Projections, 14)."""

    def __init__(self) -> None:
        phi1, phi2 = (math.radians(p) for p in PARALLELS)
        self.n = (math.sin(phi1) + math.sin(phi2)) / 2
        self.c = math.cos(phi1) ** 2 + 2 * self.n * math.sin(phi1)
        self.rho0 = self.rho(CENTRE_LAT)

    def rho(self, lat: float) -> float:
        return EARTH_KM * math.sqrt(self.c - 2 * self.n * math.sin(math.radians(lat))) / self.n

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        theta = self.n * math.radians(lon - CENTRE_LON)
        rho = self.rho(lat)
        return rho * math.sin(theta), -(self.rho0 - rho * math.cos(theta))


def mexican_mainland_states(regions: list[dict[str, str]]) -> dict[str, BaseGeometry]:
    """Mexico's mainland cut into states along the WDBII state lines."""
    mainland = max(polygon_parts(dcw_outline("MX")), key=lambda part: part.area)
    inside = mainland.buffer(0.001)
    lines: list[LineString] = []
    for segment in gmt_segments(MEXICO_BOX, "-N2", "-Dh"):
        if len(segment) > 1:
            clipped = LineString(segment).intersection(inside)
            lines.extend(part for part in getattr(clipped, "geoms", [clipped])
                         if isinstance(part, LineString) and not part.is_empty)
    merged = linemerge(unary_union(lines))
    pieces = list(getattr(merged, "geoms", [merged]))
    connectors = []
    for index, piece in enumerate(pieces):
        others = unary_union([mainland.exterior, *(p for i, p in enumerate(pieces) if i != index)])
        for end in (Point(piece.coords[0]), Point(piece.coords[-1])):
            if end.distance(others) > LOOSE_END_DEG:
                connectors.append(LineString([end, nearest_points(end, others)[1]]))
    faces = [face for face in polygonize(unary_union([mainland.exterior, *pieces, *connectors]))
             if mainland.contains(face.representative_point())]
    anchors = {row["code"]: Point(float(row["lon"]), float(row["lat"]))
               for row in regions if row["code"].startswith("MX-")}
    owned: dict[str, list[Polygon]] = {code: [] for code in anchors}
    loose: list[Polygon] = []
    for face in faces:
        codes = [code for code, point in anchors.items() if face.contains(point)]
        if len(codes) > 1:
            raise SystemExit(f"one face holds several reference points: {codes}")
        if codes:
            owned[codes[0]].append(face)
        else:
            loose.append(face)
    missing = [code for code, parts in owned.items() if not parts]
    if missing:
        raise SystemExit(f"no face holds the reference point of {missing}")
    for face in sorted(loose, key=lambda f: -f.area):
        border = face.buffer(1e-6)
        code = max(owned, key=lambda c: unary_union(owned[c]).intersection(border).area)
        owned[code].append(face)
    print(f"Mexico: {len(faces)} faces, {len(loose)} without a reference point")
    return {code: unary_union(parts).buffer(0) for code, parts in owned.items()}


def land_of(geometry: BaseGeometry) -> list[Polygon]:
    """The polygons of an outline (the sea-link tool mixes coast lines into Mexican ones)."""
    return [part for part in polygon_parts(geometry) if not part.is_empty]


def project_ring(ring: list[tuple[float, float]], albers: Albers) -> list[tuple[float, float]]:
    return [albers(lon, lat) for lon, lat in ring]


def projected(polygons: list[Polygon], albers: Albers) -> list[Polygon]:
    out = []
    for polygon in polygons:
        shell = project_ring(list(polygon.exterior.coords), albers)
        holes = [project_ring(list(hole.coords), albers) for hole in polygon.interiors]
        out.append(Polygon(shell, holes).buffer(0))
    return out


def ring_path(coords: list[tuple[float, float]]) -> str:
    """One closed ring as SVG path data: an absolute move, then relative whole-km steps."""
    points = [(round(x), round(y)) for x, y in coords[:-1]]
    steps: list[str] = []
    last = points[0]
    for point in points[1:]:
        dx, dy = point[0] - last[0], point[1] - last[1]
        if dx or dy:
            steps.append(f"{dx} {dy}")
            last = point
    if len(steps) < 2:
        return ""
    return f"M{points[0][0]} {points[0][1]}l" + " ".join(steps) + "z"


def region_shape(polygons: list[Polygon]) -> dict[str, object]:
    """Path data, label point and drawn area of one projected region."""
    polygons = sorted((p for p in polygons if p.area > 0), key=lambda p: -p.area)
    kept = [polygons[0], *(p for p in polygons[1:] if p.area >= MIN_ISLAND_KM2)]
    low, high = SIMPLIFY_KM
    tolerance = min(high, max(low, math.sqrt(sum(p.area for p in kept)) / SIMPLIFY_SHARE))
    simple = [p.simplify(tolerance, preserve_topology=True) for p in kept]
    rings: list[str] = []
    for polygon in simple:
        for ring in [polygon.exterior, *polygon.interiors]:
            path = ring_path(list(ring.coords))
            if path:
                rings.append(path)
    if not rings:
        # A speck smaller than the tolerance: keep it as a tiny square around its centre.
        x, y = polygons[0].centroid.x, polygons[0].centroid.y
        rings.append(f"M{round(x) - 1} {round(y) - 1}l2 0 0 2 -2 0z")
    land = MultiPolygon(kept) if len(kept) > 1 else kept[0]
    label = kept[0].representative_point()
    return {
        "area_km2": round(sum(p.area for p in polygons)),
        "label": [round(label.x), round(label.y)],
        "bounds": [round(v) for v in land.bounds],
        "path": "".join(rings),
    }


def canonical(data: object) -> bytes:
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, help="pickle of the sea-link tool's outlines")
    options = parser.parse_args()
    regions = read_regions()
    if options.cache and options.cache.exists():
        outlines, _ = pickle.loads(options.cache.read_bytes())
    else:
        outlines, blockers = build_outlines(regions)
        if options.cache:
            options.cache.write_bytes(pickle.dumps((outlines, blockers)))
    mainland = mexican_mainland_states(regions)
    albers = Albers()
    shapes: dict[str, dict[str, object]] = {}
    for row in regions:
        code = row["code"]
        polygons = land_of(outlines.get(code, Polygon()))
        if code in mainland:
            polygons = [*land_of(mainland[code]), *polygons]
        if not polygons:
            raise SystemExit(f"{code}: no outline")
        shapes[code] = region_shape(projected(polygons, albers))
    xs = [v for shape in shapes.values() for v in shape["bounds"][0::2]]  # type: ignore[index]
    ys = [v for shape in shapes.values() for v in shape["bounds"][1::2]]  # type: ignore[index]
    digest = hashlib.sha256(canonical(shapes)).hexdigest()
    document = {
        "projection": (f"Albers equal-area conic, parallels {PARALLELS[0]:g} and "
                       f"{PARALLELS[1]:g} N, centre {-CENTRE_LON:g} W {CENTRE_LAT:g} N, "
                       "1 unit = 1 km, y southwards"),
        "source": ("DCW (Debian gmt-dcw 2.1.1) outlines; GSHHG 2.3.7 (gmt-gshhg-high) lake "
                   "shorelines and WDBII state lines for Mexico; tools/conquest_map_shapes.py"),
        "simplified_km": list(SIMPLIFY_KM),
        "extent": [min(xs), min(ys), max(xs), max(ys)],
        "digest": digest,
        "regions": shapes,
    }
    OUTPUT.write_text(json.dumps(document, ensure_ascii=False, indent=0, sort_keys=True) + "\n",
                      encoding="utf-8")
    with (ROOT / "tools" / "conquest_factions.csv").open(encoding="utf-8") as handle:
        assert len(list(csv.DictReader(handle))) == len(shapes)
    print(f"{len(shapes)} regions, {OUTPUT.stat().st_size // 1024} KB, sha256 {digest}")


if __name__ == "__main__":
    main()
