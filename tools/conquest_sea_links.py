"""Derive the conquest map's sea links from real coastline data (GMT's DCW and GSHHG).

Not part of the package: it needs Debian's `gmt`, `gmt-dcw`, `gmt-gshhg-high` and
`python3-shapely`, and runs with the system Python:

    /usr/bin/python3 tools/conquest_sea_links.py

It writes tools/conquest_sea_links.csv (one row per sea link, with the two nearest coast
points and the distance) and tools/conquest_land_check.csv (pairs of regions whose DCW
outlines touch, to cross-check the land-border list; `n/a` for Mexican states, which DCW
lacks). The rule is described in src/fairfight/conquest/maps/SOURCES.md; in short:

1. Region outlines come from DCW (US states, Canadian provinces, countries and territories);
   Great Lakes water (GSHHG level-2 shorelines) is cut out of them. Mexican states are not in
   DCW: Mexico's coast is cut into arcs where GSHHG's state-boundary lines reach it, and each
   arc goes to the state whose reference point is nearest; islands go to the state of the
   nearest mainland arc.
2. A pair without a land border becomes a sea link when the two outlines come within
   MAX_SEA_KM of each other and the straight line between the two nearest points crosses no
   third region's land (nor land outside the map).
3. Every group of regions still cut off is joined to the rest by a remote link between the
   closest pair of regions, until the graph is connected.
"""

from __future__ import annotations

import argparse
import csv
import math
import pickle
import subprocess
from collections.abc import Iterable
from pathlib import Path

from shapely import affinity
from shapely.geometry import LineString, MultiPolygon, Point, Polygon, box
from shapely.geometry.base import BaseGeometry
from shapely.ops import linemerge, nearest_points, polygonize, substring, unary_union

TOOLS = Path(__file__).resolve().parent
MAX_SEA_KM = 500
"""Coastlines at most this far apart may form a sea link."""
END_TRIM_KM = 3.0
"""The test line is trimmed by this much at each end, so land touching an end point is ignored."""
SIMPLIFY_DEG = 0.005
"""Outline simplification (about 500 m), far below the distances that matter."""
MIN_PART_DEG2 = 1e-5
"""Specks of land under about 0.1 km2 are dropped: DCW has a few artefacts of that size (one sits
on a whole degree in the middle of the Gulf of California)."""
EARTH_KM = 6371.0
KM_PER_DEG = math.pi * EARTH_KM / 180
GREAT_LAKES_BOX = (-93.0, 40.0, -75.0, 50.0)
LAKE_OPENING_DEG = 0.01
ARC_MAJORITY = 0.9
"""A coast piece between two state-line ends goes whole to a state owning this share of it."""
TOUCH_KM = 2.0
"""Outlines closer than this count as touching (outlines are simplified independently)."""
BAJA = ("MX-BCN", "MX-BCS")
BAJA_LINE_LAT = 28.0
MEXICO_NEIGHBOURS = ("US-CA", "US-AZ", "US-NM", "US-TX", "GT", "BZ")
OUTSIDE_MAP = ("CO", "VE", "RU", "IS")
"""Countries off the map whose land still blocks a crossing."""
ISLAND_OVERRIDES = {
    "MX-COL": (-115.5, 18.0, -110.5, 19.6),
    "MX-SON": (-112.45, 28.3, -112.2, 28.5),
}
"""Islands whose state is not the one with the nearest coast: the Revillagigedo Islands belong to
Colima, and San Pedro Mártir, in mid-Gulf nearer Baja California Sur, to Sonora."""


def gmt_segments(*args: str) -> list[list[tuple[float, float]]]:
    """Segments that `gmt coast ... -M` prints, longitudes shifted to be west-negative."""
    out = subprocess.run(
        ["gmt", "coast", *args, "-M"], capture_output=True, text=True, check=True
    ).stdout
    segments: list[list[tuple[float, float]]] = []
    for line in out.splitlines():
        if line.startswith(">"):
            segments.append([])
            continue
        lon, lat = (float(value) for value in line.split()[:2])
        segments[-1].append((lon - 360 if lon > 0 else lon, lat))
    return segments


def dcw_outline(dcw_code: str) -> BaseGeometry:
    """A DCW country or state as one (multi)polygon."""
    parts = [Polygon(ring).buffer(0) for ring in gmt_segments(f"-E{dcw_code}") if len(ring) >= 4]
    parts = [part for part in parts if part.area >= MIN_PART_DEG2]
    return unary_union(parts).simplify(SIMPLIFY_DEG, preserve_topology=True).buffer(0)


def shoreline_polygons(level: int, min_area_km2: int) -> BaseGeometry:
    """GSHHG shorelines of one level in the Great Lakes box, rebuilt into polygons."""
    west, south, east, north = GREAT_LAKES_BOX
    segments = gmt_segments(
        f"-R{west}/{east}/{south}/{north}", f"-W{level}", "-Dh", f"-A{min_area_km2}/{level}/{level}"
    )
    lines = [LineString(segment) for segment in segments if len(segment) > 1]
    return unary_union(list(polygonize(linemerge(unary_union(lines)))))


def great_lakes() -> BaseGeometry:
    """Great Lakes water: GSHHG lakes (level 2) less the islands in them (level 3)."""
    lakes = unary_union([lake for lake in polygon_parts(shoreline_polygons(2, 500))
                         if lake.area > 0.1])
    return lakes.difference(shoreline_polygons(3, 10))


def read_regions() -> list[dict[str, str]]:
    with (TOOLS / "conquest_factions.csv").open(encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle))


def baja_side(owner: str, point: Point) -> str:
    """The two Baja California states meet on the 28th parallel, islands included."""
    if owner not in BAJA:
        return owner
    return "MX-BCN" if point.y >= BAJA_LINE_LAT else "MX-BCS"


def nearest_anchor(anchors: list[tuple[str, Point]], point: Point) -> str:
    return min(anchors, key=lambda anchor: anchor[1].distance(point))[0]


def polygon_free_lines(geometry: BaseGeometry) -> list[LineString]:
    if isinstance(geometry, LineString):
        return [geometry]
    return [part for part in getattr(geometry, "geoms", []) if isinstance(part, LineString)]


def nearest_code(geometry: BaseGeometry, anchors: dict[str, Point]) -> str:
    return min(anchors, key=lambda code: anchors[code].distance(geometry))


def polygon_parts(geometry: BaseGeometry) -> list[Polygon]:
    if isinstance(geometry, Polygon):
        return [geometry]
    if isinstance(geometry, MultiPolygon):
        return list(geometry.geoms)
    return [part for part in getattr(geometry, "geoms", []) if isinstance(part, Polygon)]


def island_groups(islands: list[Polygon]) -> list[list[Polygon]]:
    """Islands that touch (within TOUCH_KM) form one group, so one state gets them all."""
    reach = TOUCH_KM / KM_PER_DEG
    groups: list[list[Polygon]] = []
    for island in sorted(islands, key=lambda part: -part.area):
        touching = [g for g in groups if any(island.distance(o) <= reach for o in g)]
        merged = [island, *(member for g in touching for member in g)]
        groups = [g for g in groups if g not in touching] + [merged]
    return groups


def mexican_states(foreign: BaseGeometry) -> dict[str, BaseGeometry]:
    """Each coastal Mexican state's coast (lines) and islands (polygons).

    Mexico's mainland coast (its outline less the land borders with `foreign`) is cut where
    GSHHG state-boundary lines reach it; each piece goes to the state owning most of its
    points by nearest coastal anchor (tools/conquest_mexico_coast_anchors.csv).
    """
    mexico = dcw_outline("MX")
    parts = sorted(polygon_parts(mexico), key=lambda part: -part.area)
    mainland, islands = parts[0], parts[1:]
    ring = mainland.exterior
    state_lines = linemerge(unary_union(
        [LineString(s) for s in gmt_segments("-R-119/-86/14/33.5", "-N2", "-Dh") if len(s) > 1]
    ))
    ends: dict[tuple[float, float], int] = {}
    for line in getattr(state_lines, "geoms", [state_lines]):
        for point in (line.coords[0], line.coords[-1]):
            ends[point] = ends.get(point, 0) + 1
    cuts = sorted(
        ring.project(Point(point))
        for point, count in ends.items()
        if count == 1 and Point(point).distance(ring) * KM_PER_DEG <= 3.0
    )
    with (TOOLS / "conquest_mexico_coast_anchors.csv").open(encoding="utf-8") as handle:
        anchors = [(row["code"], Point(float(row["lon"]), float(row["lat"])))
                   for row in csv.DictReader(handle)]
    land_borders = foreign.buffer(0.02)
    pieces: dict[str, list[BaseGeometry]] = {}
    bounds = [*cuts, cuts[0] + ring.length]
    for start, end in zip(bounds, bounds[1:], strict=False):
        if end - start < 1e-6:
            continue
        if end <= ring.length:
            arc = substring(ring, start, end)
        else:
            arc = unary_union([substring(ring, start, ring.length),
                               substring(ring, 0, end - ring.length)])
        coast = arc.difference(land_borders)
        if coast.is_empty:
            continue
        owners = []
        parts_of_coast = polygon_free_lines(coast)
        for part in parts_of_coast:
            steps = max(1, int(part.length / 0.05))
            for step in range(steps):
                piece = substring(part, step / steps, (step + 1) / steps, normalized=True)
                middle = piece.interpolate(0.5, normalized=True)
                owners.append((baja_side(nearest_anchor(anchors, middle), middle), piece))
        votes: dict[str, float] = {}
        for code, piece in owners:
            votes[code] = votes.get(code, 0.0) + piece.length
        leader = max(votes, key=lambda code: votes[code])
        if votes[leader] >= ARC_MAJORITY * coast.length and leader not in BAJA:
            pieces.setdefault(leader, []).append(coast)
        else:
            for code, piece in owners:
                pieces.setdefault(code, []).append(piece)
        shares = {code: round(length * KM_PER_DEG) for code, length in votes.items()}
        print(f"  coast piece of {round(coast.length * KM_PER_DEG)} km: {shares}")
    coasts = {code: unary_union(lines) for code, lines in pieces.items()}
    for group in island_groups(islands):
        largest = max(group, key=lambda island: island.area)
        centre = largest.representative_point()
        owner = next(
            (code for code, (w, s, e, n) in ISLAND_OVERRIDES.items()
             if w <= centre.x <= e and s <= centre.y <= n),
            min(coasts, key=lambda code: coasts[code].distance(largest)),
        )
        pieces[baja_side(owner, centre)].extend(group)
    return {code: unary_union(shapes) for code, shapes in pieces.items()}


def build_outlines(regions: list[dict[str, str]]) -> tuple[dict[str, BaseGeometry], BaseGeometry]:
    """Region outlines by code, and all land that can block a crossing (Mexico as one piece)."""
    lakes = great_lakes()
    lake_box = box(*GREAT_LAKES_BOX)
    outlines: dict[str, BaseGeometry] = {}
    caribbean_netherlands = polygon_parts(dcw_outline("BQ"))
    bq_anchors = {
        row["code"]: Point(float(row["lon"]), float(row["lat"]))
        for row in regions if row["code"].startswith("BQ-")
    }
    for row in regions:
        code = row["code"]
        if code.startswith("MX-"):
            continue
        if code.startswith("BQ-"):
            outlines[code] = unary_union(
                [p for p in caribbean_netherlands if nearest_code(p, bq_anchors) == code]
            )
            continue
        outline = dcw_outline(code.replace("-", "."))
        if outline.intersects(lake_box):
            # DCW draws states and Ontario out to their water boundaries; keep only the land,
            # and open by a kilometre so slivers left between the two datasets vanish.
            outline = outline.difference(lakes.buffer(LAKE_OPENING_DEG))
            outline = outline.buffer(-LAKE_OPENING_DEG).buffer(LAKE_OPENING_DEG)
        outlines[code] = outline
    outlines.update(
        mexican_states(unary_union([outlines[code] for code in MEXICO_NEIGHBOURS]))
    )
    blockers = [dcw_outline("MX"), *(dcw_outline(code) for code in OUTSIDE_MAP)]
    blockers[-2] = blockers[-2].intersection(box(-200, 50, -165, 75))
    return outlines, unary_union(blockers)


def haversine_km(a: Point, b: Point) -> float:
    lat1, lat2 = math.radians(a.y), math.radians(b.y)
    dlat, dlon = lat2 - lat1, math.radians(b.x - a.x)
    h = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2
    return 2 * EARTH_KM * math.asin(math.sqrt(h))


def bounds_gap_km(first: BaseGeometry, second: BaseGeometry) -> float:
    """A lower bound of the distance between two outlines, from their bounding boxes."""
    (w1, s1, e1, n1), (w2, s2, e2, n2) = first.bounds, second.bounds
    dx = max(0.0, w2 - e1, w1 - e2)
    dy = max(0.0, s2 - n1, s1 - n2)
    widest = math.cos(math.radians(min(max(abs(n1), abs(n2), abs(s1), abs(s2)), 89.0)))
    return math.hypot(dx * KM_PER_DEG * widest, dy * KM_PER_DEG)


def closest_points(first: BaseGeometry, second: BaseGeometry) -> tuple[Point, Point]:
    """Nearest points in a local equirectangular frame around the pair (x scaled by cos lat)."""
    p, q = nearest_points(first, second)
    for _ in range(2):
        scale = math.cos(math.radians((p.y + q.y) / 2))
        a = affinity.scale(first, xfact=scale, yfact=1, origin=(0, 0))
        b = affinity.scale(second, xfact=scale, yfact=1, origin=(0, 0))
        sp, sq = nearest_points(a, b)
        p, q = Point(sp.x / scale, sp.y), Point(sq.x / scale, sq.y)
    return p, q


def crossing_is_clear(
    p: Point, q: Point, pair: tuple[str, str], outlines: dict[str, BaseGeometry],
    blockers: BaseGeometry,
) -> bool:
    """True when the line p-q, trimmed at both ends, touches no third region's land."""
    length = haversine_km(p, q)
    if length <= 2 * END_TRIM_KM:
        return True
    line = LineString([p, q])
    trim = END_TRIM_KM / length * line.length
    inner = substring(line, trim, line.length - trim)
    # Outlines are simplified one by one, so neighbours can leave a hairline gap between them;
    # a crossing that squeezes through such a gap is over land, not water.
    probe = inner.buffer(TOUCH_KM / 2 / KM_PER_DEG)
    for code, outline in outlines.items():
        if code not in pair and probe.intersects(outline):
            return False
    if not pair[0].startswith("MX-") and not pair[1].startswith("MX-"):
        return not probe.intersects(blockers)
    mexico_free = blockers.difference(unary_union([outlines[c].buffer(0.02) for c in pair]))
    return not probe.intersects(mexico_free)


def is_corner(p: Point, q: Point, pair: tuple[str, str], outlines: dict[str, BaseGeometry]) -> bool:
    """Two outlines meeting where a third one also reaches: a corner, not a water crossing."""
    middle = Point((p.x + q.x) / 2, (p.y + q.y) / 2)
    reach = TOUCH_KM / KM_PER_DEG
    return any(
        code not in pair and outline.distance(middle) <= reach
        for code, outline in outlines.items()
    )


def components(codes: Iterable[str], pairs: Iterable[tuple[str, str]]) -> list[set[str]]:
    neighbours: dict[str, set[str]] = {code: set() for code in codes}
    for a, b in pairs:
        neighbours[a].add(b)
        neighbours[b].add(a)
    seen: set[str] = set()
    groups = []
    for start in sorted(neighbours):
        if start in seen:
            continue
        group, frontier = {start}, [start]
        while frontier:
            for other in neighbours[frontier.pop()] - group:
                group.add(other)
                frontier.append(other)
        seen |= group
        groups.append(group)
    return groups


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cache", type=Path, help="pickle file to reuse the outlines between runs")
    options = parser.parse_args()
    regions = read_regions()
    if options.cache and options.cache.exists():
        outlines, blockers = pickle.loads(options.cache.read_bytes())
    else:
        outlines, blockers = build_outlines(regions)
        if options.cache:
            options.cache.write_bytes(pickle.dumps((outlines, blockers)))
    with (TOOLS / "conquest_land_borders.csv").open(encoding="utf-8", newline="") as handle:
        land = {(row["a"], row["b"]) for row in csv.DictReader(handle)}
    codes = sorted(outlines)
    links: list[dict[str, object]] = []
    touching: list[tuple[str, str]] = []
    for i, a in enumerate(codes):
        for b in codes[i + 1:]:
            first, second = outlines[a], outlines[b]
            if bounds_gap_km(first, second) > MAX_SEA_KM:
                continue
            p, q = closest_points(first, second)
            distance = haversine_km(p, q)
            if distance <= TOUCH_KM and not a.startswith("MX-"):
                touching.append((a, b))
            if (a, b) in land or distance > MAX_SEA_KM:
                continue
            if distance <= TOUCH_KM and is_corner(p, q, (a, b), outlines):
                continue
            if not crossing_is_clear(p, q, (a, b), outlines, blockers):
                continue
            links.append({"a": a, "b": b, "distance_km": round(distance), "remote": "false",
                          "a_point": f"{p.x:.3f} {p.y:.3f}", "b_point": f"{q.x:.3f} {q.y:.3f}"})
    joined = set(land) | {(str(link["a"]), str(link["b"])) for link in links}
    all_codes = [row["code"] for row in regions]
    groups = components(all_codes, joined)
    while len(groups) > 1:
        main_group = max(groups, key=len)
        cut_off = min((g for g in groups if g is not main_group), key=lambda g: min(g))
        best = min(
            ((haversine_km(*closest_points(outlines[x], outlines[y])), x, y)
             for x in cut_off for y in main_group
             if x in outlines and y in outlines and outlines[x].distance(outlines[y]) < 60),
            default=None,
        )
        if best is None:
            raise SystemExit(f"no remote partner found for {sorted(cut_off)}")
        distance, x, y = best
        a, b = sorted((x, y))
        p, q = closest_points(outlines[a], outlines[b])
        links.append({"a": a, "b": b, "distance_km": round(distance), "remote": "true",
                      "a_point": f"{p.x:.3f} {p.y:.3f}", "b_point": f"{q.x:.3f} {q.y:.3f}"})
        joined.add((a, b))
        groups = components(all_codes, joined)
    links.sort(key=lambda link: (str(link["a"]), str(link["b"])))
    with (TOOLS / "conquest_sea_links.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(links[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(links)
    with (TOOLS / "conquest_land_check.csv").open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(["a", "b", "outlines_touch", "in_land_list"])
        for pair in sorted(set(touching) | land):
            mexican = any(code.startswith("MX-") for code in pair)
            touch = "n/a" if mexican else str(pair in touching).lower()
            writer.writerow([*pair, touch, str(pair in land).lower()])
    remote = sum(1 for link in links if link["remote"] == "true")
    print(f"sea links: {len(links)} ({remote} remote); land borders: {len(land)}")


if __name__ == "__main__":
    main()
