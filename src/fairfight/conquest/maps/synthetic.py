"""Generated maps of any size, for tests, benchmarks and trying the engine without real data.

A generated map has the shape of a real one (a connected border graph, populations spread over
several orders of magnitude, ratings 1..10, land and sea borders) and is fixed by its `label`:
every number comes from `core.draws.hash64`, so the same arguments give the same map.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fairfight.conquest.rules.tables import CATEGORIES, RATING_MAX, RATING_MIN
from fairfight.core.draws import below, hash64

__all__ = ["DEFAULT_SIZE", "synthetic_map"]

DEFAULT_SIZE = (136, 232, 169)
"""(regions, land borders, sea borders): the size of the default North America map."""

_SMALLEST_POPULATION = 10_000
_POPULATION_DECADES = 4
_YEAR = 2024


def synthetic_map(
    regions: int = DEFAULT_SIZE[0],
    land: int = DEFAULT_SIZE[1],
    sea: int = DEFAULT_SIZE[2],
    label: str = "synthetic",
) -> dict[str, Any]:
    """A connected map with the given counts, in the plain format the engine reads."""
    if not 2 <= regions <= 1000 or land + sea < regions - 1:
        raise ValueError("a connected map needs at least two regions and regions - 1 borders")
    if land + sea > regions * (regions - 1) // 2:
        raise ValueError("more borders than pairs of regions")
    codes = [f"ZZ-{i:03d}" for i in range(regions)]  # ZZ: a code no country holds
    counter = iter(range(1 << 62))

    def pick(n: int) -> int:
        return below(n, hash64(label, next(counter)))

    region_rows = _region_rows(codes, pick)
    pairs = _border_pairs(codes, land + sea, pick)
    borders = _borders(pairs, regions, land, sea, pick)
    return {"name": label, "regions": region_rows, "borders": sorted(borders, key=_pair)}


def _region_rows(codes: list[str], pick: Callable[[int], int]) -> list[dict[str, Any]]:
    """One region a code, its population, ratings and special drawn by `pick`."""
    region_rows = []
    for code in codes:
        population = _SMALLEST_POPULATION * 10 ** pick(_POPULATION_DECADES) * (1 + pick(9))
        region_rows.append(
            {
                "code": code,
                "name": f"Generated region {code}",
                "population": population,
                "population_year": _YEAR,
                "population_basis": "estimate",
                "ratings": {
                    c.value: RATING_MIN + pick(RATING_MAX - RATING_MIN + 1) for c in CATEGORIES
                },
                "special": {
                    "category": CATEGORIES[pick(len(CATEGORIES))].value,
                    "name": f"Special of {code}",
                    "fact": "A generated region has no real fact behind its special.",
                    "source_status": "unsourced",
                },
            }
        )
    return region_rows


def _border_pairs(
    codes: list[str], count: int, pick: Callable[[int], int]
) -> list[tuple[str, str]]:
    """`count` distinct pairs of regions, the first ones a random spanning tree that keeps
    the map connected, the rest between near neighbours in code order."""
    regions = len(codes)
    pairs: list[tuple[str, str]] = []
    seen: set[tuple[str, str]] = set()

    def add(i: int, j: int) -> bool:
        pair = (min(codes[i], codes[j]), max(codes[i], codes[j]))
        if i == j or pair in seen:
            return False
        seen.add(pair)
        pairs.append(pair)
        return True

    for i in range(1, regions):
        add(i, pick(i))
    while len(pairs) < count:
        i = pick(regions)
        add(i, (i + 1 + pick(min(regions - 1, 12))) % regions)
    return pairs


def _borders(
    pairs: list[tuple[str, str]], regions: int, land: int, sea: int, pick: Callable[[int], int]
) -> list[dict[str, Any]]:
    """The pairs as borders, land or sea, then settled to the exact split asked for."""
    borders = []
    for index, (a, b) in enumerate(pairs):
        is_sea = index % (land + sea) >= land if index >= regions - 1 else pick(land + sea) >= land
        borders.append(
            {"a": a, "b": b, "kind": "sea" if is_sea else "land", "remote": False, "distance_km": 0}
        )
    land_count = sum(b["kind"] == "land" for b in borders)
    for border in borders:
        if land_count > land and border["kind"] == "land":
            border["kind"], land_count = "sea", land_count - 1
        elif land_count < land and border["kind"] == "sea":
            border["kind"], land_count = "land", land_count + 1
    return borders


def _pair(border: dict[str, Any]) -> tuple[str, str]:
    return str(border["a"]), str(border["b"])
