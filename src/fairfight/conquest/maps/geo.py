"""Borders from outlines: shared boundaries make land borders, the coastline rule makes sea links.

One home for the geometric rules of a conquest map [§0, §11]. Outlines are shapely
geometries in longitude/latitude degrees (longitudes may run past 180 to keep a region whole).
Every length is measured in kilometres in a local frame around the pair (longitude scaled by
the cosine of the latitude), and every distance between coasts is the great-circle distance
between the two nearest points. The sea rule is the one the north-america map was built with
(maps/SOURCES.md, "Sea links"):

1. candidates: pairs without a land border whose outlines come within MAX_SEA_KM;
2. nothing in between: the line between the two nearest points, less END_TRIM_KM at each end,
   stays more than TOUCH_KM / 2 from every other region's land and from land off the map;
3. corners: a pair closer than TOUCH_KM whose meeting point is within TOUCH_KM of a third
   region is a corner contact, not a crossing;
4. remote links: while the graph is cut, the cut-off group with the smallest code is joined to
   the largest group by its closest pair, labelled remote. Here the pair must be within a
   reach: a group beyond it is passed over for the next one, and if no group can be joined the
   map stays cut and the builder refuses it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias

from shapely import STRtree, affinity  # type: ignore[import-untyped]
from shapely.geometry import LineString, Point, box  # type: ignore[import-untyped]
from shapely.ops import nearest_points, substring  # type: ignore[import-untyped]

__all__ = [
    "EARTH_KM",
    "END_TRIM_KM",
    "Geometry",
    "KM_PER_DEG",
    "LAND_TOLERANCE_KM",
    "Link",
    "MAX_REMOTE_KM",
    "MAX_SEA_KM",
    "MIN_SHARED_KM",
    "Pair",
    "TOUCH_KM",
    "closest_points",
    "components",
    "haversine_km",
    "land_borders",
    "ordered",
    "sea_links",
    "shared_boundary_km",
]

Geometry: TypeAlias = Any
"""A shapely geometry (shapely ships no type information)."""
Pair: TypeAlias = tuple[str, str]
"""Two region codes, the lower first in byte order."""

EARTH_KM = 6371.0
"""Radius of the sphere every distance is measured on."""
KM_PER_DEG = math.pi * EARTH_KM / 180
"""Kilometres per degree of latitude."""
MAX_SEA_KM = 500
"""Coastlines at most this far apart may form a sea link [§11: "coastlines within 500 km"]."""
END_TRIM_KM = 3.0
"""The crossing is trimmed by this much at each end, so land touching an end point is ignored."""
TOUCH_KM = 2.0
"""Outlines closer than this count as touching (outlines are simplified independently)."""
MAX_REMOTE_KM = 3500
"""Default reach of a remote link; the north-america map's longest is Alaska-Hawaii, 3,245 km."""
LAND_TOLERANCE_KM = 0.2
"""Boundary of one region lying this close to another counts as shared: it absorbs rounding and
the slivers left where two data sets draw the same line a little apart."""
MIN_SHARED_KM = 1.0
"""A land border needs at least this much shared boundary on both sides. A corner contact shares
about twice LAND_TOLERANCE_KM, so it stays below; the shortest real borders are longer (Spain and
Gibraltar share 1.2 km)."""


@dataclass(frozen=True, slots=True)
class Link:
    """A sea link found by the coastline rule, with its two nearest coast points (lon, lat)."""

    a: str
    b: str
    distance_km: int
    remote: bool
    a_point: tuple[float, float]
    b_point: tuple[float, float]


_MIN_COS = 0.05
"""Degree reaches are widened for longitudes shrunk down to this cosine (about 87 degrees)."""


def _degrees(km: float) -> float:
    """A reach in degrees covering `km` in any direction, up to about 87 degrees of latitude."""
    return km / KM_PER_DEG / _MIN_COS


def ordered(x: str, y: str) -> Pair:
    """The pair in the canonical order of the engine: lower code first, in byte order [§2]."""
    return (x, y) if x.encode() < y.encode() else (y, x)


def haversine_km(a: Point, b: Point) -> float:
    """Great-circle distance between two (lon, lat) points."""
    lat1, lat2 = math.radians(a.y), math.radians(b.y)
    dlat, dlon = lat2 - lat1, math.radians(b.x - a.x)
    h = math.sin(dlat / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin(dlon / 2) ** 2
    return 2 * EARTH_KM * math.asin(min(1.0, math.sqrt(h)))


def _gap_km(first: Geometry, second: Geometry) -> float:
    """A lower bound of the distance between two outlines, from their bounding boxes."""
    (w1, s1, e1, n1), (w2, s2, e2, n2) = first.bounds, second.bounds
    dx = max(0.0, w2 - e1, w1 - e2)
    dy = max(0.0, s2 - n1, s1 - n2)
    widest = math.cos(math.radians(min(max(abs(n1), abs(n2), abs(s1), abs(s2)), 89.0)))
    return math.hypot(dx * KM_PER_DEG * widest, dy * KM_PER_DEG)


def _local(geometry: Geometry, latitude: float) -> Geometry:
    """The geometry in kilometres of a flat frame true to scale at `latitude`."""
    xfact = KM_PER_DEG * math.cos(math.radians(latitude))
    return affinity.scale(geometry, xfact=xfact, yfact=KM_PER_DEG, origin=(0, 0))


def closest_points(first: Geometry, second: Geometry) -> tuple[Point, Point]:
    """The two nearest points, found in a local frame around the pair and refined once."""
    p, q = nearest_points(first, second)
    for _ in range(2):
        scale = math.cos(math.radians((p.y + q.y) / 2))
        a = affinity.scale(first, xfact=scale, yfact=1, origin=(0, 0))
        b = affinity.scale(second, xfact=scale, yfact=1, origin=(0, 0))
        near_a, near_b = nearest_points(a, b)
        p, q = Point(near_a.x / scale, near_a.y), Point(near_b.x / scale, near_b.y)
    return p, q


def shared_boundary_km(first: Geometry, second: Geometry,
                       tolerance_km: float = LAND_TOLERANCE_KM) -> float:
    """Length of boundary the two outlines share: the shorter of each one's boundary lying
    within `tolerance_km` of the other, so a point contact counts for almost nothing."""
    reach = _degrees(tolerance_km)
    # Only the parts near the other outline matter; the cut edges lie beyond the tolerance.
    first, second = (first.intersection(box(*second.bounds).buffer(reach)),
                     second.intersection(box(*first.bounds).buffer(reach)))
    if first.is_empty or second.is_empty:
        return 0.0
    contact = first.buffer(reach).intersection(second.buffer(reach))
    if contact.is_empty:
        return 0.0
    latitude = contact.centroid.y
    a, b = _local(first, latitude), _local(second, latitude)
    along_a = a.boundary.intersection(b.buffer(tolerance_km)).length
    along_b = b.boundary.intersection(a.buffer(tolerance_km)).length
    return float(min(along_a, along_b))


def land_borders(outlines: Mapping[str, Geometry], tolerance_km: float = LAND_TOLERANCE_KM,
                 min_shared_km: float = MIN_SHARED_KM) -> dict[Pair, float]:
    """Every pair sharing at least `min_shared_km` of boundary, with the length shared (km)."""
    codes = sorted(outlines, key=str.encode)
    tree = STRtree([outlines[code] for code in codes])
    found: dict[Pair, float] = {}
    for index, code in enumerate(codes):
        near = tree.query(outlines[code].buffer(_degrees(tolerance_km)))
        for other in sorted(int(i) for i in near if int(i) > index):
            length = shared_boundary_km(outlines[code], outlines[codes[other]], tolerance_km)
            if length >= min_shared_km:
                found[ordered(code, codes[other])] = length
    return found


class _Land:
    """All land that can block a crossing: the regions (found through a tree) and off the map."""

    def __init__(self, outlines: Mapping[str, Geometry], off_map: Geometry | None) -> None:
        self.codes = list(outlines)
        self.tree = STRtree([outlines[code] for code in self.codes])
        self.outlines = outlines
        self.off_map = off_map

    def others_meet(self, probe: Geometry, pair: Pair) -> bool:
        """True when `probe` meets the land of a region outside `pair`, or land off the map."""
        for index in self.tree.query(probe, predicate="intersects"):
            if self.codes[int(index)] not in pair:
                return True
        return self.off_map is not None and bool(probe.intersects(self.off_map))

    def third_within(self, point: Point, reach: float, pair: Pair) -> bool:
        """True when a region outside `pair` comes within `reach` degrees of `point`."""
        return any(self.codes[int(index)] not in pair
                   for index in self.tree.query(point.buffer(reach), predicate="intersects"))


def _crossing_is_clear(p: Point, q: Point, pair: Pair, land: _Land) -> bool:
    """True when the line p-q, trimmed at both ends, stays clear of every third region's land.

    The probe is widened by half of TOUCH_KM: independently simplified neighbours leave hairline
    gaps, and a crossing that squeezes through one runs over land, not water.
    """
    length = haversine_km(p, q)
    if length <= 2 * END_TRIM_KM:
        return True
    line = LineString([p, q])
    trim = END_TRIM_KM / length * line.length
    probe = substring(line, trim, line.length - trim).buffer(TOUCH_KM / 2 / KM_PER_DEG)
    return not land.others_meet(probe, pair)


def components(codes: Iterable[str], pairs: Iterable[Pair]) -> list[set[str]]:
    """The connected groups of the graph, in order of their smallest code."""
    neighbours: dict[str, set[str]] = {code: set() for code in codes}
    for a, b in pairs:
        neighbours[a].add(b)
        neighbours[b].add(a)
    seen: set[str] = set()
    groups = []
    for start in sorted(neighbours, key=str.encode):
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


def _link(a: str, b: str, p: Point, q: Point, remote: bool) -> Link:
    return Link(a, b, round(haversine_km(p, q)), remote, (p.x, p.y), (q.x, q.y))


def sea_links(outlines: Mapping[str, Geometry], land: Iterable[Pair],
              off_map: Geometry | None = None,
              max_remote_km: float = MAX_REMOTE_KM) -> list[Link]:
    """Sea links by the coastline rule (module docstring), sorted by pair.

    A region named in `land` may lack an outline (an inland region that no coast reaches);
    it still counts in the groups the remote step joins."""
    land_pairs = set(land)
    blockers = _Land(outlines, off_map)
    codes = sorted(outlines, key=str.encode)
    links: list[Link] = []
    for index, a in enumerate(codes):
        for b in codes[index + 1:]:
            first, second = outlines[a], outlines[b]
            if (a, b) in land_pairs or _gap_km(first, second) > MAX_SEA_KM:
                continue
            p, q = closest_points(first, second)
            distance = haversine_km(p, q)
            if distance > MAX_SEA_KM:
                continue
            middle = Point((p.x + q.x) / 2, (p.y + q.y) / 2)
            if distance <= TOUCH_KM and blockers.third_within(middle, TOUCH_KM / KM_PER_DEG,
                                                              (a, b)):
                continue
            if _crossing_is_clear(p, q, (a, b), blockers):
                links.append(_link(a, b, p, q, remote=False))
    joined = land_pairs | {(link.a, link.b) for link in links}
    everyone = set(codes) | {code for pair in land_pairs for code in pair}
    while len(groups := components(everyone, joined)) > 1:
        largest = max(groups, key=len)
        best = next((pair for group in groups if group is not largest
                     if (pair := _closest_pair(outlines, group, largest, max_remote_km))), None)
        if best is None:
            break
        links.append(_link(*best, *closest_points(outlines[best[0]], outlines[best[1]]),
                           remote=True))
        joined.add(best)
    return sorted(links, key=lambda link: (link.a.encode(), link.b.encode()))


def _closest_pair(outlines: Mapping[str, Geometry], cut_off: set[str], largest: set[str],
                  reach_km: float) -> Pair | None:
    """The closest pair joining `cut_off` to `largest` within `reach_km`, ties by code."""
    reachable = [
        (haversine_km(*closest_points(outlines[x], outlines[y])), x, y)
        for x in sorted(cut_off & outlines.keys(), key=str.encode)
        for y in sorted(largest & outlines.keys(), key=str.encode)
        if _gap_km(outlines[x], outlines[y]) <= reach_km
    ]
    best = min((choice for choice in reachable if choice[0] <= reach_km), default=None)
    return None if best is None else ordered(best[1], best[2])
