"""The drawn map on the show's pages: a season's map state turned into inline SVG and a legend.

Pages call `map_picture(map)` from the map template. A season on a map without drawn outlines
(a synthetic map) gets None, and the template keeps its text list of regions by owner.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from markupsafe import Markup

from fairfight.conquest.mapsvg import (
    SOURCE_SEA_LINKS,
    LegendEntry,
    RegionView,
    draw_map,
    load_shapes,
    sea_links,
    shapes_digest,
)

if TYPE_CHECKING:  # the view models import the templates, which import this module
    from fairfight.web.conquest.models import MapState

__all__ = ["DRAWN_MAP", "DrawnMap", "SHAPES_PATH", "faction_url", "map_picture", "shapes_version"]

DRAWN_MAP = "north-america"
"""The shipped map whose outlines are drawn; a season's regions must match it exactly."""
SHAPES_PATH = f"/conquest/maps/{DRAWN_MAP}.svg"
"""Where the outlines are served once for every page (routes.conquest_map_shapes)."""


@dataclass(frozen=True, slots=True)
class DrawnMap:
    """What the template shows: the SVG (escaped where needed), the legend, the sources line."""

    svg: Markup
    legend: tuple[LegendEntry, ...]
    sea_links: int = field(default_factory=lambda: sea_links(DRAWN_MAP))
    source_sea_links: int = SOURCE_SEA_LINKS


def faction_url(season: int, faction: str) -> str:
    """The faction card, as the pages link it."""
    return f"/conquest/{season}/factions/{faction}"


@lru_cache(maxsize=1)
def shapes_version() -> str:
    """A short digest of the outlines, put in their address so caches never go stale."""
    return shapes_digest(DRAWN_MAP)[1][:16]


@lru_cache(maxsize=256)
def _drawn(season: int, regions: tuple[RegionView, ...]) -> DrawnMap:
    picture = draw_map(regions, lambda owner: faction_url(season, owner), map_name=DRAWN_MAP,
                       shapes_href=f"{SHAPES_PATH}?v={shapes_version()}")
    return DrawnMap(Markup(picture.svg), picture.legend)


def map_picture(state: MapState) -> DrawnMap | None:
    """The map drawn for `state`, or None when its regions are not the drawn map's."""
    if {region.code for region in state.regions} != set(load_shapes(DRAWN_MAP)):
        return None
    regions = tuple(
        RegionView(r.code, r.name, r.owner, r.owner_name, r.changed) for r in state.regions
    )
    return _drawn(state.season, regions)
