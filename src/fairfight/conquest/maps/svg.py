"""Draw a season's map as SVG: each region's real outline coloured by the faction holding it.

The outlines are package data (`maps/<name>.shapes.json`, made once by
tools/conquest_map_shapes.py). Colour is never the only cue: every region names itself and its
owner in a `<title>`, links to the owner's card, and the legend lists owners by name. Regions
too small to see at full width get a round marker; regions that changed hands can be outlined.
Standard library only, so any page or command can draw a map.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any
from xml.sax.saxutils import escape, quoteattr

__all__ = [
    "BORDER",
    "CHANGED",
    "CHANGED_WIDTH",
    "INSETS",
    "Inset",
    "LegendEntry",
    "MARKER_AREA_KM2",
    "MARKER_RADIUS_KM",
    "MapPicture",
    "PALETTE",
    "RegionShape",
    "RegionView",
    "SEA",
    "SOURCE_SEA_LINKS",
    "draw_map",
    "faction_colours",
    "has_shapes",
    "load_shapes",
    "sea_links",
    "shapes_digest",
    "shapes_document",
]

PALETTE = (
    "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#b07aa1", "#edc948",
    "#76b7b2", "#ff9da7", "#9c755f", "#86bcb6", "#d4a6c8", "#8cd17d",
    "#f1ce63", "#a0cbe8", "#ffbe7d", "#b6992d", "#d37295", "#499894",
    "#fabfd2", "#79706e", "#bab0ac", "#e6a31f", "#6b8e23", "#c05780",
)
"""Fill colours, light enough for the dark borders and outline to show on every one."""
MARKER_AREA_KM2 = 2500
"""A region drawn smaller than this also gets a round marker, so it can be seen and clicked."""
MARKER_RADIUS_KM = 28
SOURCE_SEA_LINKS = 169
"""Sea links in the show's source description; ours come from a distance rule (SOURCES.md)."""
SEA = "#dbe9f4"
BORDER = "#3b3b3b"
CHANGED = "#111111"
CHANGED_WIDTH = 3
_FRAME = 60
_LABEL_SIZE = 90
_THIN = 'vector-effect="non-scaling-stroke"'


@dataclass(frozen=True, slots=True)
class RegionShape:
    """One region's drawing: SVG path data in projected kilometres, a label point, its area."""

    code: str
    path: str
    label: tuple[int, int]
    area_km2: int
    bounds: tuple[int, int, int, int]

    def needs_marker(self, scale: float = 1.0) -> bool:
        """Too small to see or hit at the map's usual sizes, once magnified by `scale`."""
        return self.area_km2 * scale * scale < MARKER_AREA_KM2


@dataclass(frozen=True, slots=True)
class Inset:
    """A framed box redrawing part of the map elsewhere, magnified or moved closer."""

    title: str
    source: tuple[int, int, int, int]
    scale: float
    at: tuple[int, int]
    only: tuple[str, ...] = ()
    """When set, just these regions, and they leave the main map (a move, not a zoom)."""


INSETS = {
    "north-america": (
        Inset("Hawaii (moved)", (-5860, 130, -5340, 800), 1.0, (-3150, -40), only=("US-HI",)),
        Inset("Eastern Caribbean, 3.2 times larger", (3620, 1720, 4440, 2530), 3.2,
              (-4800, 820)),
    ),
}
"""Where each shipped map puts its insets: the empty Pacific holds them all."""


@dataclass(frozen=True, slots=True)
class RegionView:
    """What the map shows of one region: who holds it and whether it just changed hands."""

    code: str
    name: str
    owner: str
    owner_name: str
    changed: bool = False


@dataclass(frozen=True, slots=True)
class LegendEntry:
    """One owner in the legend: its colour and how many regions it holds."""

    owner: str
    owner_name: str
    colour: str
    regions: int


@dataclass(frozen=True, slots=True)
class MapPicture:
    """The SVG markup and the legend that goes with it."""

    svg: str
    legend: tuple[LegendEntry, ...]


def _shapes_document(name: str) -> dict[str, Any]:
    text = resources.files("fairfight.conquest").joinpath("maps", f"{name}.shapes.json")
    document: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    return document


@cache
def has_shapes(name: str) -> bool:
    """True when the map ships drawn outlines (synthetic maps have none)."""
    return resources.files("fairfight.conquest").joinpath("maps", f"{name}.shapes.json").is_file()


@cache
def load_shapes(name: str = "north-america") -> dict[str, RegionShape]:
    """The drawn outlines of a shipped map, by region code."""
    regions = _shapes_document(name)["regions"]
    return {
        code: RegionShape(code, entry["path"], (entry["label"][0], entry["label"][1]),
                          entry["area_km2"], tuple(entry["bounds"]))
        for code, entry in regions.items()
    }


def shapes_digest(name: str = "north-america") -> tuple[str, str]:
    """The digest the tool recorded, and the SHA-256 of the regions as shipped now."""
    document = _shapes_document(name)
    body = json.dumps(document["regions"], ensure_ascii=False, sort_keys=True,
                      separators=(",", ":")).encode()
    return document["digest"], hashlib.sha256(body).hexdigest()


@cache
def shapes_document(name: str = "north-america") -> str:
    """Every outline as a standalone SVG file, one `<path id="CODE">` per region.

    `draw_map(..., shapes_href=URL)` points at it with `<use href="URL#CODE">`; the paths
    carry no colour of their own, so each use gives its region its holder's colour.
    """
    paths = "".join(
        f'<path id="{shape.code}" d="{shape.path}" {_THIN}/>'
        for shape in load_shapes(name).values()
    )
    return f'<svg xmlns="http://www.w3.org/2000/svg"><defs>{paths}</defs></svg>'


@cache
def _graph(name: str) -> dict[str, Any]:
    text = resources.files("fairfight.conquest").joinpath("maps", f"{name}.json")
    graph: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    return graph


def sea_links(name: str = "north-america") -> int:
    """How many of the map's borders cross water (remote links included)."""
    return sum(1 for border in _graph(name)["borders"] if border["kind"] == "sea")


@cache
def faction_colours(name: str = "north-america") -> dict[str, str]:
    """A fixed colour per faction (named by its home region) from the map's border graph.

    Regions are coloured in code order with the least-used colour that no region within two
    borders already has, so neighbours, and the neighbours they are likely to conquer, differ.
    """
    graph = _graph(name)
    near: dict[str, set[str]] = {region["code"]: set() for region in graph["regions"]}
    for border in graph["borders"]:
        near[border["a"]].add(border["b"])
        near[border["b"]].add(border["a"])
    colours: dict[str, int] = {}
    used = [0] * len(PALETTE)
    for code in sorted(near):
        reach = near[code] | {far for mid in near[code] for far in near[mid]}
        taken = {colours[other] for other in reach if other in colours}
        free = [i for i in range(len(PALETTE)) if i not in taken] or list(range(len(PALETTE)))
        choice = min(free, key=lambda i: (used[i], i))
        colours[code] = choice
        used[choice] += 1
    return {code: PALETTE[index] for code, index in colours.items()}


def _colour(owner: str, colours: Mapping[str, str]) -> str:
    if owner in colours:
        return colours[owner]
    return PALETTE[int(hashlib.sha256(owner.encode()).hexdigest(), 16) % len(PALETTE)]


def _title(view: RegionView) -> str:
    text = f"{view.name} ({view.code}): held by {view.owner_name}"
    return text + (", changed hands in this battle" if view.changed else "")


def _region(view: RegionView, shape: RegionShape, colour: str, href: str, outlined: bool,
            scale: float, repeated: bool, shapes_href: str | None) -> str:
    """One region's link; a `repeated` one (a magnified copy) is skipped by keyboard and reader."""
    classes = "map-region changed" if view.changed else "map-region"
    hidden = ' tabindex="-1" aria-hidden="true"' if repeated else ""
    stroke = (f' stroke="{CHANGED}" stroke-width="{CHANGED_WIDTH}"' if outlined and view.changed
              else "")
    parts = [
        f"<a href={quoteattr(href)} class=\"{classes}\" data-region={quoteattr(view.code)} "
        f"data-owner={quoteattr(view.owner)}{hidden}>",
        f"<title>{escape(_title(view))}</title>",
        (f'<use href="{escape(shapes_href)}#{shape.code}" fill="{colour}"{stroke}/>'
         if shapes_href else f'<path d="{shape.path}" fill="{colour}"{stroke} {_THIN}/>'),
    ]
    if shape.needs_marker(scale):
        x, y = shape.label
        parts.append(f'<circle class="marker" cx="{x}" cy="{y}" r="{MARKER_RADIUS_KM / scale:g}" '
                     f'fill="{colour}"{stroke} {_THIN}/>')
    parts.append("</a>")
    return "".join(parts)


def _inset(index: int, inset: Inset, drawn: str) -> str:
    """A frame at `inset.at` showing `drawn` (regions in map units) cut to `inset.source`."""
    west, north, east, south = inset.source
    width, height = round((east - west) * inset.scale), round((south - north) * inset.scale)
    x, y = inset.at
    clip = f"inset-{index}"
    return (
        f'<g class="inset"><clipPath id="{clip}"><rect x="{west}" y="{north}" '
        f'width="{east - west}" height="{south - north}"/></clipPath>'
        f'<rect x="{x}" y="{y}" width="{width}" height="{height}" fill="{SEA}" '
        f'stroke="{BORDER}" {_THIN}/>'
        f'<g transform="translate({x} {y}) scale({inset.scale:g}) translate({-west} {-north})">'
        f'<g clip-path="url(#{clip})">{drawn}</g></g>'
        f'<text x="{x}" y="{y - 25}" font-size="{_LABEL_SIZE}" font-family="sans-serif" '
        f'fill="{BORDER}">{escape(inset.title)}</text></g>'
    )


def _meets(bounds: tuple[int, int, int, int], box: tuple[int, int, int, int]) -> bool:
    return not (bounds[2] < box[0] or bounds[0] > box[2] or bounds[3] < box[1]
                or bounds[1] > box[3])


def draw_map(
    regions: Iterable[RegionView],
    faction_href: Callable[[str], str],
    *,
    map_name: str = "north-america",
    outline_changed: bool = True,
    label: str = "Map of the regions, coloured by the faction holding each",
    shapes_href: str | None = None,
) -> MapPicture:
    """The map as an inline SVG element, with one link per region to its owner's card.

    Regions that changed hands are drawn last with a heavy outline when `outline_changed`.
    With `shapes_href` (where `shapes_document` is served) the outlines are referenced, not
    copied, so a page carries only the colours and the browser caches the shapes once.
    """
    shapes = load_shapes(map_name)
    colours = faction_colours(map_name)
    views = list(regions)
    unknown = sorted(view.code for view in views if view.code not in shapes)
    if unknown:
        raise KeyError(f"no drawn outline for regions {', '.join(unknown)}")
    ordered = sorted(views, key=lambda view: outline_changed and view.changed)
    insets = INSETS.get(map_name, ())
    moved = {code for inset in insets for code in inset.only}

    def drawn(chosen: Iterable[RegionView], scale: float, repeated: bool = False) -> str:
        return "".join(
            _region(view, shapes[view.code], _colour(view.owner, colours),
                    faction_href(view.owner), outline_changed, scale, repeated, shapes_href)
            for view in chosen
        )

    body = drawn((view for view in ordered if view.code not in moved), 1.0)
    boxes = [shapes[code].bounds for code in shapes if code not in moved]
    for index, inset in enumerate(insets):
        chosen = [view for view in ordered
                  if (view.code in inset.only if inset.only
                      else view.code not in moved
                      and _meets(shapes[view.code].bounds, inset.source))]
        body += _inset(index, inset, drawn(chosen, inset.scale, not inset.only))
        west, north, east, south = inset.source
        x, y = inset.at
        boxes.append((x, y - _LABEL_SIZE, x + round((east - west) * inset.scale),
                      y + round((south - north) * inset.scale)))
    west, north, width, height = _view_box(boxes)
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="conquest-map'
        f'{" outline-changed" if outline_changed else ""}" '
        f'viewBox="{west} {north} {width} {height}" role="group" aria-label={quoteattr(label)}>'
        f'<rect class="sea" x="{west}" y="{north}" width="{width}" height="{height}" '
        f'fill="{SEA}"/>'
        f'<g class="regions" stroke="{BORDER}" stroke-width="0.6" stroke-linejoin="round">'
        f"{body}</g></svg>"
    )
    return MapPicture(svg, _legend(views, colours))


def _view_box(boxes: list[tuple[int, int, int, int]]) -> tuple[int, int, int, int]:
    """West, north, width and height of the picture: every drawn box and a frame around."""
    west, north = min(b[0] for b in boxes) - _FRAME, min(b[1] for b in boxes) - _FRAME
    width = max(b[2] for b in boxes) + _FRAME - west
    height = max(b[3] for b in boxes) + _FRAME - north
    return west, north, width, height


def _legend(views: list[RegionView], colours: dict[str, str]) -> tuple[LegendEntry, ...]:
    """One entry a holder with its colour and region count, most regions first."""
    counts: dict[str, int] = {}
    names: dict[str, str] = {}
    for view in views:
        counts[view.owner] = counts.get(view.owner, 0) + 1
        names[view.owner] = view.owner_name
    return tuple(
        LegendEntry(owner, names[owner], _colour(owner, colours), counts[owner])
        for owner in sorted(counts, key=lambda owner: (-counts[owner], names[owner]))
    )
