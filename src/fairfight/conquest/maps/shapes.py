"""Drawn outlines of a built map: the shapes file the web map reads, and a plain outline SVG.

The shapes file has the layout of `maps/north-america.shapes.json` (read by
`fairfight.conquest.maps.svg.load_shapes`): per region an SVG path in projected kilometres, a label
point inside it, its area and its bounds, and the SHA-256 of the regions' canonical JSON. The
projection is an Albers equal-area conic fitted to the map's extent; outlines are simplified by
the north-america map's rule (maps/SOURCES.md, "Drawn outlines").
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Mapping
from typing import Any
from xml.sax.saxutils import escape, quoteattr

import shapely  # type: ignore[import-untyped]
from shapely.geometry import MultiPolygon, Polygon  # type: ignore[import-untyped]

from fairfight.conquest.maps.geo import EARTH_KM, Geometry

__all__ = [
    "AlbersConic",
    "MIN_ISLAND_KM2",
    "SIMPLIFY_KM",
    "SIMPLIFY_SHARE",
    "outline_svg",
    "shapes_document",
]

SIMPLIFY_KM = (0.5, 3.0)
"""Douglas-Peucker tolerance, smallest and largest, in kilometres."""
SIMPLIFY_SHARE = 40
"""A region's tolerance is the square root of its area over this, kept within SIMPLIFY_KM."""
MIN_ISLAND_KM2 = 40.0
"""Islands smaller than this are dropped from a region that has bigger land."""


class AlbersConic:
    """Albers equal-area conic on a sphere, in kilometres, y southwards (Snyder, ch. 14)."""

    def __init__(self, centre: tuple[float, float], parallels: tuple[float, float]) -> None:
        self.centre = centre
        self.parallels = parallels
        phi1, phi2 = (math.radians(p) for p in parallels)
        self.n = (math.sin(phi1) + math.sin(phi2)) / 2
        self.c = math.cos(phi1) ** 2 + 2 * self.n * math.sin(phi1)
        self.rho0 = self._rho(centre[1])

    @classmethod
    def fitted(cls, bounds: tuple[float, float, float, float]) -> AlbersConic:
        """Centred on the extent, standard parallels a sixth of the way in from its edges."""
        west, south, east, north = bounds
        sixth = (north - south) / 6
        parallels = (south + sixth, north - sixth)
        if abs(parallels[0] + parallels[1]) < 1.0:  # astride the equator: keep n away from 0
            parallels = (parallels[0], parallels[0] + 1.0) if parallels[0] > 0 else (1.0, 2.0)
        return cls(((west + east) / 2, (south + north) / 2), parallels)

    def _rho(self, latitude: float) -> float:
        inside = max(0.0, self.c - 2 * self.n * math.sin(math.radians(latitude)))
        return EARTH_KM * math.sqrt(inside) / self.n

    def __call__(self, lon: float, lat: float) -> tuple[float, float]:
        theta = self.n * math.radians(lon - self.centre[0])
        rho = self._rho(lat)
        return rho * math.sin(theta), -(self.rho0 - rho * math.cos(theta))

    def describe(self) -> str:
        """The projection in words, for the shapes file."""
        (lon, lat), (p1, p2) = self.centre, self.parallels
        return (f"Albers equal-area conic, parallels {p1:.1f} and {p2:.1f}, centre {lon:.1f} "
                f"{lat:.1f} (degrees east, north), 1 unit = 1 km, y southwards")


def _polygons(geometry: Geometry) -> list[Polygon]:
    if isinstance(geometry, Polygon):
        return [geometry]
    if isinstance(geometry, MultiPolygon):
        return list(geometry.geoms)
    return [part for part in getattr(geometry, "geoms", ()) if isinstance(part, Polygon)]


def _ring_path(coords: list[tuple[float, float]]) -> str:
    """One closed ring as SVG path data: an absolute move, then relative whole-km steps."""
    points = [(round(x), round(y)) for x, y in coords[:-1]]
    steps: list[str] = []
    last = points[0]
    for point in points[1:]:
        if point != last:
            steps.append(f"{point[0] - last[0]} {point[1] - last[1]}")
            last = point
    return f"M{points[0][0]} {points[0][1]}l{' '.join(steps)}z" if len(steps) >= 2 else ""


def _region_shape(projected: list[Polygon]) -> dict[str, Any]:
    """Path data, label point, drawn area and bounds of one projected region."""
    parts = sorted((p for p in projected if p.area > 0), key=lambda p: -p.area)
    kept = [parts[0], *(p for p in parts[1:] if p.area >= MIN_ISLAND_KM2)]
    low, high = SIMPLIFY_KM
    tolerance = min(high, max(low, math.sqrt(sum(p.area for p in kept)) / SIMPLIFY_SHARE))
    rings = [
        path
        for polygon in (p.simplify(tolerance, preserve_topology=True) for p in kept)
        for ring in (polygon.exterior, *polygon.interiors)
        if (path := _ring_path(list(ring.coords)))
    ]
    if not rings:  # a speck under the tolerance: a tiny square around its centre
        x, y = round(parts[0].centroid.x), round(parts[0].centroid.y)
        rings.append(f"M{x - 1} {y - 1}l2 0 0 2 -2 0z")
    label = kept[0].representative_point()
    land = MultiPolygon(kept) if len(kept) > 1 else kept[0]
    return {
        "area_km2": round(sum(p.area for p in parts)),
        "label": [round(label.x), round(label.y)],
        "bounds": [round(value) for value in land.bounds],
        "path": "".join(rings),
    }


def _canonical(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode()


def shapes_document(outlines: Mapping[str, Geometry], source: str) -> dict[str, Any]:
    """The shapes file for a map's outlines (lon/lat degrees), in the web map's layout."""
    west = min(outline.bounds[0] for outline in outlines.values())
    south = min(outline.bounds[1] for outline in outlines.values())
    east = max(outline.bounds[2] for outline in outlines.values())
    north = max(outline.bounds[3] for outline in outlines.values())
    albers = AlbersConic.fitted((west, south, east, north))

    def project(coords: Any) -> list[tuple[float, float]]:
        return [albers(float(lon), float(lat)) for lon, lat in coords]

    shapes = {
        code: _region_shape([shapely.transform(part, project).buffer(0)
                             for part in _polygons(outlines[code])])
        for code in sorted(outlines, key=str.encode)
    }
    return {
        "projection": albers.describe(),
        "source": source,
        "simplified_km": list(SIMPLIFY_KM),
        "extent": [min(s["bounds"][0] for s in shapes.values()),
                   min(s["bounds"][1] for s in shapes.values()),
                   max(s["bounds"][2] for s in shapes.values()),
                   max(s["bounds"][3] for s in shapes.values())],
        "digest": hashlib.sha256(_canonical(shapes)).hexdigest(),
        "regions": shapes,
    }


def outline_svg(document: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A standalone picture of the outlines, each region titled with its name and code."""
    west, north, east, south = document["extent"]
    margin = max(10, (east - west) // 50)
    paths = "".join(
        f'<path d="{shape["path"]}"><title>{escape(f"{names.get(code, code)} ({code})")}'
        f"</title></path>"
        for code, shape in document["regions"].items()
    )
    width, height = east - west + 2 * margin, south - north + 2 * margin
    view = f"{west - margin} {north - margin} {width} {height}"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox={quoteattr(view)}>'
            f'<g fill="#e8e4d8" stroke="#3b3b3b" stroke-width="0.6" '
            f'vector-effect="non-scaling-stroke" stroke-linejoin="round">{paths}</g></svg>\n')
