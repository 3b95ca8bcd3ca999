"""The drawn map on the show's pages: a season's map state turned into inline SVG and a legend.

Pages call `map_picture(map, season.map_name)` from the map template, with the map name the
season's header carries, so seasons on different shipped maps are each drawn on their own. A
season whose map has no drawn outlines (a synthetic map, a map loaded from a file) or whose
regions are not exactly the named map's gets None, and the template keeps its text list of
regions by owner.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from markupsafe import Markup

from fairfight.conquest.maps.svg import (
    SOURCE_SEA_LINKS,
    LegendEntry,
    RegionView,
    draw_map,
    has_shapes,
    load_shapes,
    sea_links,
    shapes_digest,
)
from fairfight.conquest.rules.scenario import MAP_NAMES
from fairfight.web.byte_cache import ByteCappedCache, deep_size

if TYPE_CHECKING:  # the view models import the templates, which import this module
    from fairfight.web.conquest.models import MapState

__all__ = [
    "DRAWN_MAPS",
    "DrawnMap",
    "MAPS_BYTES",
    "MAP_NOTES",
    "MapNote",
    "drawn_map_name",
    "faction_url",
    "map_picture",
    "shapes_path",
    "shapes_version",
]

DRAWN_MAPS: tuple[str, ...] = tuple(name for name in MAP_NAMES if has_shapes(name))
"""The shipped maps whose outlines are drawn; a season's regions must match one exactly."""


@dataclass(frozen=True, slots=True)
class MapNote:
    """What the page says under one drawn map: how to read it and where the outlines come from."""

    hint: str
    sources: str
    source_sea_links: int | None = None
    """Sea links the show's source description counts, when it gives a figure to compare."""


MAP_NOTES = {
    "north-america": MapNote(
        hint="Point at or tap a region for its name and holder; a click opens the holder's "
             "card. Dots mark small islands; the frame at lower left repeats the eastern "
             "Caribbean larger.",
        sources="Outlines from the Digital Chart of the World and GSHHG (Debian gmt-dcw and "
                "gmt-gshhg), simplified; Mexican state lines from GSHHG's WDBII.",
        source_sea_links=SOURCE_SEA_LINKS,
    ),
    "europe": MapNote(
        hint="Point at or tap a country for its name and holder; a click opens the holder's "
             "card. Dots mark small countries.",
        sources="Outlines from Natural Earth (1:110m admin-0 countries), simplified; borders "
                "and sea links found by the map builder from those outlines.",
    ),
}
"""The words under each drawn map (a map with no entry gets a plain hint)."""
_PLAIN_NOTE = MapNote(hint="Point at or tap a region for its name and holder; a click opens "
                           "the holder's card.", sources="Outlines shipped with the map.")


@dataclass(frozen=True, slots=True)
class DrawnMap:
    """What the template shows: the SVG (escaped where needed), the legend, the notes."""

    map_name: str
    svg: Markup
    legend: tuple[LegendEntry, ...]
    sea_links: int
    note: MapNote


def drawn_map_name(name: str) -> str:
    """`name` when it is a drawn map; LookupError (one line naming the maps) otherwise."""
    if name not in DRAWN_MAPS:
        raise LookupError(f"no drawn map is called {name!r}; the drawn maps are "
                          f"{', '.join(DRAWN_MAPS)}")
    return name


def shapes_path(map_name: str) -> str:
    """Where a map's outlines are served once for every page (routes.map_shapes)."""
    return f"/conquest/maps/{drawn_map_name(map_name)}.svg"


def faction_url(season: int, faction: str) -> str:
    """The faction card, as the pages link it."""
    return f"/conquest/{season}/factions/{faction}"


@lru_cache(maxsize=8)  # keyed by a drawn map's name (a few), so a count bounds it
def shapes_version(map_name: str) -> str:
    """A short digest of a map's outlines, put in their address so caches never go stale."""
    return shapes_digest(drawn_map_name(map_name))[1][:16]


_MapKey = tuple[str, int, tuple[RegionView, ...]]
MAPS_BYTES = 8 * 1024 * 1024
"""Bytes of drawn maps kept per process, by `deep_size` of the picture and of its key, the
regions' owners (on the North America map some 70 KB and 27 KB, so about 85 maps)."""
_DRAWN: ByteCappedCache[_MapKey, DrawnMap] = ByteCappedCache(MAPS_BYTES, deep_size,
                                                             key_size_of=deep_size)


def _drawn(map_name: str, season: int, regions: tuple[RegionView, ...]) -> DrawnMap:
    href = f"{shapes_path(map_name)}?v={shapes_version(map_name)}"
    picture = draw_map(regions, lambda owner: faction_url(season, owner), map_name=map_name,
                       shapes_href=href)
    return DrawnMap(map_name, Markup(picture.svg), picture.legend, sea_links(map_name),
                    MAP_NOTES.get(map_name, _PLAIN_NOTE))


def map_picture(state: MapState, map_name: str,
                kept: ByteCappedCache[_MapKey, DrawnMap] = _DRAWN) -> DrawnMap | None:
    """The map drawn for `state` on the season's map `map_name` (drawn once while it stays in
    `kept`), or None when that map has no outlines or its regions are not the state's."""
    if map_name not in DRAWN_MAPS:
        return None
    if {region.code for region in state.regions} != set(load_shapes(map_name)):
        return None
    regions = tuple(
        RegionView(r.code, r.name, r.owner, r.owner_name, r.changed) for r in state.regions
    )
    key = (map_name, state.season, regions)
    return kept.get_or_make(key, lambda: _drawn(*key))
