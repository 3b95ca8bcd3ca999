"""Load and validate conquest maps: regions, their ratings and specials, and the border graph.

A map is JSON. `load_map` checks it with pydantic (field by field), then checks the graph as a
whole (codes, duplicate pairs, isolated regions, connectivity), and hands back plain data with
regions sorted by code and borders sorted by `(a, b)`, the canonical order of the engine [§0, §8].
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StringConstraints,
    model_validator,
)

from fairfight.conquest.rules import tables
from fairfight.conquest.rules.tables import RATING_MAX, RATING_MIN
from fairfight.core.errors import InputError
from fairfight.core.validation import parse_model
from fairfight.inputs import load_json

__all__ = [
    "Border",
    "BorderKind",
    "ConquestMap",
    "DEFAULT_MAP",
    "MAP_NAMES",
    "PopulationBasis",
    "Rating",
    "Ratings",
    "Region",
    "RegionCode",
    "SourceStatus",
    "Special",
    "Text",
    "load_map",
    "map_path",
    "map_schema",
    "map_stats",
    "validate_map",
]

DEFAULT_MAP = "north-america"
"""The map a season uses when none is named."""

MAP_NAMES: tuple[str, ...] = (DEFAULT_MAP, "europe")
"""Maps shipped inside the package, loadable by name."""


RegionCode = Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}(-[A-Z0-9]{1,3})?$")]
"""An ISO 3166-1 alpha-2 code, or an ISO 3166-2 subdivision code such as `US-TX` or `MX-JAL`."""

Rating = Annotated[StrictInt, Field(ge=RATING_MIN, le=RATING_MAX)]
Text = Annotated[str, StringConstraints(min_length=1, strip_whitespace=True)]


class BorderKind(enum.StrEnum):
    """How two regions touch."""

    LAND = tables.LAND
    """A shared land boundary; rivers and lakes on the line count."""
    SEA = tables.SEA
    """A crossing over open water; the attacker fights at a penalty."""


class PopulationBasis(enum.StrEnum):
    """Where a region's population figure comes from."""

    CENSUS = "census"
    """A full count from a national census."""
    ESTIMATE = "estimate"
    """A statistical office's or the UN's estimate for a year without a census."""
    OFFICIAL = "official"
    """A population register or legal population published by the statistical office."""


class SourceStatus(enum.StrEnum):
    """Whether the fact behind a special is backed by a named source."""

    SOURCED = "sourced"
    """A citation names a public source for the fact."""
    UNSOURCED = "unsourced"
    """The fact is common knowledge that no citation backs on this map."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Ratings(_Strict):
    """Five integer ratings: Production, Supplies, Movement, Readiness, Unity [§0]."""

    P: Rating
    S: Rating
    M: Rating
    R: Rating
    U: Rating


class Special(_Strict):
    """A faction's named special: its category and the regional fact that inspired it."""

    category: Literal["P", "S", "M", "R", "U"]
    name: Text
    fact: Text
    source_status: SourceStatus
    citation: Text | None = None

    @model_validator(mode="after")
    def _citation_matches_status(self) -> Special:
        if self.source_status is SourceStatus.SOURCED and self.citation is None:
            raise ValueError("a sourced special needs a citation")
        if self.source_status is SourceStatus.UNSOURCED and self.citation is not None:
            raise ValueError("an unsourced special carries no citation")
        return self


class Region(_Strict):
    """One map unit; at season start it is also a faction's home [§0]."""

    code: RegionCode
    name: Text
    population: Annotated[StrictInt, Field(ge=1)]
    population_year: Annotated[StrictInt, Field(ge=1900, le=2100)]
    population_basis: PopulationBasis
    ratings: Ratings
    special: Special


class Border(_Strict):
    """An unordered pair of regions, written with `a < b` in byte order [§0]."""

    a: RegionCode
    b: RegionCode
    kind: BorderKind
    remote: StrictBool = False
    distance_km: Annotated[StrictInt, Field(ge=0)] = 0

    @model_validator(mode="after")
    def _ordered_and_consistent(self) -> Border:
        if not self.a.encode() < self.b.encode():
            raise ValueError(f"a must sort before b in byte order, got {self.a!r} and {self.b!r}")
        if self.remote and self.kind is not BorderKind.SEA:
            raise ValueError("only a sea border can be remote")
        return self


class ConquestMap(_Strict):
    """A whole map: a name, its regions and its borders."""

    name: Text
    regions: Annotated[list[Region], Field(min_length=2)]
    borders: Annotated[list[Border], Field(min_length=1)]


def map_schema() -> dict[str, Any]:
    """The JSON Schema of a map file, generated from the pydantic models (map.schema.json)."""
    schema = ConquestMap.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "fairfight conquest map"
    return schema


def map_path(name: str) -> Path:
    """Where a shipped map lives inside the package."""
    if name not in MAP_NAMES:
        known = ", ".join(MAP_NAMES)
        raise InputError("map", f"unknown map {name!r}; shipped maps: {known}")
    return Path(str(resources.files("fairfight.conquest").joinpath("maps", f"{name}.json")))


def _check_graph(conquest_map: ConquestMap) -> None:
    """Whole-map rules pydantic cannot see one item at a time [§0]."""
    codes: dict[str, int] = {}
    for index, region in enumerate(conquest_map.regions):
        if region.code in codes:
            raise InputError(f"map.regions[{index}].code", f"duplicate region code {region.code}")
        codes[region.code] = index
    neighbours: dict[str, set[str]] = {code: set() for code in codes}
    for index, border in enumerate(conquest_map.borders):
        for side in ("a", "b"):
            code = getattr(border, side)
            if code not in codes:
                raise InputError(f"map.borders[{index}].{side}", f"unknown region code {code}")
        if border.b in neighbours[border.a]:
            raise InputError(
                f"map.borders[{index}]",
                f"duplicate border {border.a}-{border.b}: at most one border per pair",
            )
        neighbours[border.a].add(border.b)
        neighbours[border.b].add(border.a)
    for code, index in codes.items():
        if not neighbours[code]:
            raise InputError(f"map.regions[{index}].code", f"region {code} has no border")
    start = min(codes)
    reached = {start}
    frontier = [start]
    while frontier:
        for neighbour in neighbours[frontier.pop()]:
            if neighbour not in reached:
                reached.add(neighbour)
                frontier.append(neighbour)
    if len(reached) != len(codes):
        cut_off = sorted(set(codes) - reached)
        raise InputError(
            "map.borders",
            f"border graph is not connected: {cut_off[0]} cannot be reached from {start} "
            f"({len(cut_off)} regions cut off)",
        )


def _canonical(conquest_map: ConquestMap) -> dict[str, Any]:
    plain = conquest_map.model_dump(mode="json")
    plain["regions"].sort(key=lambda region: region["code"].encode())
    plain["borders"].sort(key=lambda border: (border["a"].encode(), border["b"].encode()))
    return plain


def validate_map(data: Any) -> dict[str, Any]:
    """Validate map data already parsed from JSON; return it as canonical plain data."""
    conquest_map = parse_model(ConquestMap, data, prefix="map")
    _check_graph(conquest_map)
    return _canonical(conquest_map)


def load_map(name_or_path: str | Path = DEFAULT_MAP) -> dict[str, Any]:
    """Read a shipped map by name, or a map file by path, and validate it [§0, §11]."""
    looks_like_a_name = (
        isinstance(name_or_path, str)
        and not name_or_path.endswith(".json")
        and not Path(name_or_path).exists()
    )
    if isinstance(name_or_path, str) and (name_or_path in MAP_NAMES or looks_like_a_name):
        path = map_path(name_or_path)
    else:
        path = Path(name_or_path)
    return validate_map(load_json(path))


def map_stats(map_data: Mapping[str, Any]) -> dict[str, int]:
    """Counts read from a map: factions, borders, land, sea (remote included) and remote."""
    borders = list(map_data["borders"])
    return {
        "factions": len(map_data["regions"]),
        "borders": len(borders),
        "land": sum(1 for border in borders if border["kind"] == BorderKind.LAND),
        "sea": sum(1 for border in borders if border["kind"] == BorderKind.SEA),
        "remote": sum(1 for border in borders if border.get("remote", False)),
    }
