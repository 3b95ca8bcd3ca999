"""The board as the sandbox draws it: tiles, rivers, cities, units with their badges, the
overlay, the retreat tile and event highlights, all as positions for an SVG template.

Geometry and labels only: every game figure (strength, disorder, break chances, retreat
tiles, cut-off marks) is read from the world, `overlay` and `retreat_candidates`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from fairfight.clash.board_text import CLASS_LETTER, STANCE_MARK
from fairfight.clash.engagement import retreat_candidates
from fairfight.clash.knowledge import OverlayTile
from fairfight.clash.scenario import TERRAIN_LETTERS
from fairfight.clash.spec import stance_may_initiate
from fairfight.clash.world import World, chebyshev

__all__ = [
    "Drawing",
    "OVERLAY_BANDS",
    "TILE",
    "TileMark",
    "UnitMark",
    "adjacent_enemy_tiles",
    "draw_board",
    "event_tiles",
    "overlay_band",
    "unit_rows",
]

TILE = 64
"""Side of a tile in SVG units."""
OVERLAY_BANDS = ((800, "high", "▲"), (400, "mid", "◆"), (0, "low", "▼"))
"""Overlay classes by break chance: the first whose floor the chance reaches. Each carries a
symbol as well as a colour."""
_LETTER = {terrain: letter for letter, terrain in TERRAIN_LETTERS.items()}


def overlay_band(permille: int) -> tuple[str, str]:
    """The overlay class and symbol of a break chance."""
    return next((name, mark) for floor, name, mark in OVERLAY_BANDS if permille >= floor)


@dataclass(slots=True)
class TileMark:
    """One tile as drawn."""

    x: int
    y: int
    px: int
    py: int
    terrain: str
    letter: str
    name: str = ""
    elevation: int = 0
    works: int = 0
    depot: str | None = None
    city_owner: str | None = None
    city: bool = False
    href: str | None = None
    target: bool = False
    overlay: int | None = None
    overlay_class: str = ""
    overlay_mark: str = ""
    provisional: bool = False
    retreat: str = ""
    highlight: bool = False
    warning: bool = False
    """A step of the drawn move path where an enemy could react."""


@dataclass(slots=True)
class UnitMark:
    """The top unit of a tile as drawn, with its condition badge [CB-190]."""

    id: str
    name: str
    player: str
    own: bool
    colour: int
    role: str
    strength: int
    disorder: int
    stance: str
    stance_mark: str
    dig_in: int
    shaken: int
    stack: int
    cut_off: bool
    estimated: bool
    px: int
    py: int
    href: str | None
    selected: bool


@dataclass(slots=True)
class Drawing:
    """Everything the SVG template draws."""

    width: int
    height: int
    tiles: list[TileMark] = field(default_factory=list)
    rivers: list[tuple[int, int, int, int]] = field(default_factory=list)
    units: list[UnitMark] = field(default_factory=list)
    arrows: list[tuple[int, int, int, int, str]] = field(default_factory=list)
    action: str = "attack"
    """What a click on a linked tile does, for its label ("move to", "bombard", "attack")."""

    @property
    def pixel_width(self) -> int:
        """Width of the SVG view box."""
        return self.width * TILE

    @property
    def pixel_height(self) -> int:
        """Height of the SVG view box."""
        return self.height * TILE


def _river(world: World, a: int, b: int) -> tuple[int, int, int, int]:
    """The drawn segment of a river edge: the shared side, or a short cut across a corner."""
    (ax, ay), (bx, by) = world.board.xy(a), world.board.xy(b)
    if ax == bx:
        y = max(ay, by) * TILE
        return ax * TILE, y, (ax + 1) * TILE, y
    if ay == by:
        x = max(ax, bx) * TILE
        return x, ay * TILE, x, (ay + 1) * TILE
    cx, cy = max(ax, bx) * TILE, max(ay, by) * TILE
    quarter = TILE // 4
    return cx - quarter, cy - quarter, cx + quarter, cy + quarter


def _centre(world: World, tile: int) -> tuple[int, int]:
    x, y = world.board.xy(tile)
    return x * TILE + TILE // 2, y * TILE + TILE // 2


def _unit_marks(world: World, viewer: str, link: Any, targets: set[int] | None,
                selected: str | None) -> list[UnitMark]:
    """The top unit of each occupied tile: its figures, and its link (select an own unit,
    attack a targeted enemy)."""
    board = world.board
    players = list(world.sides)
    marks: list[UnitMark] = []
    for tile, units in sorted(world.occupants.items()):
        if not units:
            continue
        top = units[0]
        own = world.allied(top.player, viewer)
        x, y = board.xy(tile)
        href = None
        if link is not None and own:
            href = link("unit", top.id)
        elif link is not None and targets and tile in targets:
            href = link("target", (x, y))
        marks.append(UnitMark(
            id=top.id, name=top.name, player=top.player, own=own,
            colour=players.index(top.player) % 4 if top.player in players else 0,
            role=CLASS_LETTER[top.cls.role], strength=top.strength, disorder=top.disorder,
            stance=top.stance.value, stance_mark=STANCE_MARK[top.stance], dig_in=top.dig_in,
            shaken=top.shaken, stack=len(units),
            cut_off=not retreat_candidates(world, units, tile, -1),
            estimated=top.id in world.unobserved, px=x * TILE, py=y * TILE, href=href,
            selected=any(u.id == selected for u in units)))
    return marks


def draw_board(world: World, viewer: str, *, link: Any = None, selected: str | None = None,
               targets: set[int] | None = None, overlay: list[OverlayTile] | None = None,
               retreat: tuple[int | None, tuple[int, ...]] | None = None,
               target: int | None = None, highlights: tuple[int, ...] = (),
               arrows: tuple[tuple[int, int, str], ...] = (),
               warnings: frozenset[int] = frozenset(), action: str = "attack") -> Drawing:
    """The board of `world` (the truth or a knowledge view) as seen by `viewer`.

    `link(kind, value)` builds the href of a unit or tile; `targets` are the tiles the
    selected unit may act on, each labelled `action` and its coordinates; `retreat` is
    (destination, candidates) of the previewed attack.
    """
    board = world.board
    drawing = Drawing(board.width, board.height, action=action)
    marks = {world.board.index(*item.tile): item for item in overlay or []}
    destination, candidates = retreat if retreat is not None else (None, ())
    for tile in range(board.width * board.height):
        x, y = board.xy(tile)
        terrain = board.terrain[tile]
        mark = TileMark(x=x, y=y, px=x * TILE, py=y * TILE, terrain=terrain.value,
                        letter=_LETTER[terrain], name=board.names.get(tile, ""),
                        elevation=board.elevation[tile],
                        works=world.city_works.get(tile, board.works[tile]),
                        depot=board.depots.get(tile), city=tile in world.city_owner,
                        city_owner=world.city_owner.get(tile), highlight=tile in highlights,
                        warning=tile in warnings)
        if targets and tile in targets and link is not None:
            mark.href, mark.target = link("target", (x, y)), True
        if tile in marks:
            item = marks[tile]
            mark.overlay = item.break_permille
            mark.overlay_class, mark.overlay_mark = overlay_band(item.break_permille)
            mark.provisional = item.provisional
        if tile == destination:
            mark.retreat = "destination"
        elif tile in candidates:
            mark.retreat = "candidate"
        drawing.tiles.append(mark)
    drawing.rivers = [_river(world, a, b) for a, b in sorted(board.rivers)]
    drawing.units = _unit_marks(world, viewer, link, targets, selected)
    if target is not None and destination is not None:
        drawing.arrows.append((*_centre(world, target), *_centre(world, destination),
                               "retreat"))
    for start, end, kind in arrows:
        drawing.arrows.append((*_centre(world, start), *_centre(world, end), kind))
    return drawing


def adjacent_enemy_tiles(world: World, unit_id: str) -> set[int]:
    """The tiles next to a unit holding units hostile to it (where it could assault)."""
    unit = world.units[unit_id]
    return {tile for tile in world.board.neighbours[unit.tile]
            if world.hostile_at(unit.player, tile)
            and chebyshev(world.board.width, unit.tile, tile) == 1}


def event_tiles(world: World, event: dict[str, Any]) -> tuple[tuple[int, ...],
                                                              tuple[tuple[int, int, str], ...]]:
    """The tiles an event concerns and the arrows it draws (moves, retreats, advances)."""
    board = world.board

    def tile(point: Any) -> int:
        return board.index(int(point[0]), int(point[1]))

    tiles: list[int] = []
    arrows: list[tuple[int, int, str]] = []
    for key in ("tile", "frm", "to"):
        if key in event and isinstance(event[key], list):
            tiles.append(tile(event[key]))
    if "frm" in event and "to" in event:
        arrows.append((tile(event["frm"]), tile(event["to"]), str(event.get("event"))))
    if event.get("event") == "clash":
        plan = event["plan"]
        tiles.append(tile(plan["target"]))
        if plan.get("retreat_to"):
            arrows.append((tile(plan["target"]), tile(plan["retreat_to"]), "retreat"))
    return tuple(tiles), tuple(arrows)


def unit_rows(world: World, viewer: str) -> list[dict[str, Any]]:
    """Every unit the board shows, for the list beside it (own side first)."""
    rows = []
    for unit in world.units.values():
        x, y = world.board.xy(unit.tile)
        rows.append({"id": unit.id, "name": unit.name, "player": unit.player,
                     "own": world.allied(unit.player, viewer), "class": unit.cls.name,
                     "at": (x, y), "strength": unit.strength, "disorder": unit.disorder,
                     "stance": unit.stance.value, "grade": unit.grade.value,
                     "estimated": list(world.unobserved.get(unit.id, ())),
                     "may_initiate": stance_may_initiate(unit.stance)})
    return sorted(rows, key=lambda row: (not row["own"], row["player"], row["id"]))
