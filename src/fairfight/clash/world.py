"""The board and its units: the world a clash specification is built from.

`World` holds a grid of square tiles (row-major index, Chebyshev adjacency), the players and
their alliances, the cities, and the units with their persistent combat state plus the
per-turn flags the Cascade needs. The same class serves as the true world and as a player's
knowledge view (`viewer` set, unseen fields estimated), so building a specification is one
function parameterised only by the view it reads [CB-330].
"""

from __future__ import annotations

import copy
import operator
from collections import deque
from dataclasses import dataclass, field, fields
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.scenario import CAST_CLASSES, TERRAIN_LETTERS, ClassModel, Scenario
from fairfight.core.errors import InputError

__all__ = [
    "Board",
    "INITIATIVE",
    "SUPPLY_REACH",
    "Unit",
    "World",
    "chebyshev",
    "world_from_scenario",
]

SUPPLY_REACH: tuple[tuple[int, t.SupplyTier], ...] = (
    (3, t.SupplyTier.FULL), (6, t.SupplyTier.ADEQUATE), (9, t.SupplyTier.STRAINED),
)
"""Derived supply: steps from the nearest friendly depot along passable tiles free of enemy
units; beyond 9 (or unreachable) the unit is Cut [clash.md, CB-1630]."""
INITIATIVE: dict[t.Stance, int] = {
    t.Stance.MARCH: 3, t.Stance.ADVANCE: 2, t.Stance.HOLD: 1, t.Stance.ENTRENCH: 0,
}
"""Activation order: higher initiative first, then lowest creation sequence."""


def chebyshev(width: int, a: int, b: int) -> int:
    """Chebyshev distance between two tile indices of a board `width` wide."""
    return max(abs(a % width - b % width), abs(a // width - b // width))


@dataclass(frozen=True, slots=True)
class Board:
    """The static map: terrain, elevation, works outside cities, names, depots and rivers."""

    width: int
    height: int
    terrain: tuple[t.Terrain, ...]
    elevation: tuple[int, ...]
    works: tuple[int, ...]
    names: dict[int, str]
    depots: dict[int, str]
    rivers: frozenset[tuple[int, int]]
    neighbours: tuple[tuple[int, ...], ...]

    def index(self, x: int, y: int) -> int:
        """Row-major tile index of (x, y)."""
        return y * self.width + x

    def xy(self, tile: int) -> tuple[int, int]:
        """(x, y) of a tile index."""
        return tile % self.width, tile // self.width

    def label(self, tile: int) -> str:
        """A tile's name, or its coordinates."""
        x, y = self.xy(tile)
        return self.names.get(tile, f"({x},{y})")

    def crosses_river(self, a: int, b: int) -> bool:
        """Whether the step a -> b crosses a river edge [CB-580]."""
        return (min(a, b), max(a, b)) in self.rivers


@dataclass(slots=True, eq=False)
class Unit:
    """A unit: persistent combat state [CB-100] and this turn's flags [CB-1270].

    Units compare by identity: two units with equal state are still two units."""

    id: str
    name: str
    player: str
    class_id: str
    cls: ClassModel
    seq: int
    tile: int
    strength: int
    disorder: int
    xp: int
    shaken: int
    dig_in: int
    stance: t.Stance
    supply: t.SupplyTier | None
    withdraw_reflex: bool
    mp: int = 0
    activated: bool = False
    supported: bool = False
    shots: int = 0
    moved: bool = False
    fought: bool = False
    initiated: bool = False
    barred: bool = False
    disengaged: bool = False
    retreated: bool = False
    """Stepped back after a break: it acts no more this turn [CB-1100]."""
    halted: bool = False
    """Stopped on its move by a reaction: the rest of its orders are dropped [CB-1780]."""
    reaction_used: bool = False
    ordinal: int = 0
    turn_xp: int = 0
    start_tile: int = -1
    fought_with: set[str] = field(default_factory=set)

    @property
    def grade(self) -> t.Grade:
        """Grade derived from xp [CB-170]."""
        return t.grade_for_xp(self.xp)

    @property
    def initiative(self) -> int:
        """Activation priority from the Stance."""
        return INITIATIVE[self.stance]

    def clone(self) -> Unit:
        """An independent copy (its own `fought_with`): the world's copy, by the constructor
        rather than `copy.copy`, which costs ten times as much on a slotted class."""
        twin = Unit(*_UNIT_STATE(self))
        twin.fought_with = set(self.fought_with)
        return twin

    def start_turn(self) -> None:
        """Clear the per-turn flags and restore movement."""
        self.mp = self.cls.movement
        self.activated = self.supported = self.moved = self.fought = False
        self.initiated = self.barred = self.disengaged = self.reaction_used = False
        self.retreated = self.halted = False
        self.shots = self.ordinal = self.turn_xp = 0
        self.start_tile = self.tile

    def to_json(self, board: Board) -> dict[str, Any]:
        """The persistent state in the scenario file's unit shape."""
        x, y = board.xy(self.tile)
        return {"id": self.id, "name": self.name, "player": self.player,
                "class": self.class_id, "at": [x, y], "seq": self.seq,
                "strength": self.strength, "disorder": self.disorder, "xp": self.xp,
                "shaken": self.shaken, "dig_in": self.dig_in, "stance": self.stance.value,
                "supply": self.supply.value if self.supply else "derived",
                "withdraw_reflex": self.withdraw_reflex}


_UNIT_STATE = operator.attrgetter(*(f.name for f in fields(Unit)))
"""Every field of a unit, in the constructor's order."""


class World:
    """A board with units; the truth, or a player's knowledge view of it."""

    def __init__(self, scenario: Scenario, board: Board, units: list[Unit]) -> None:
        self.scenario = scenario
        self.name = scenario.name
        self.seed_key = scenario.seed_key
        self.turn = scenario.turn
        self.rules = scenario.rules
        self.board = board
        self.sides = {p.id: p.alliance or p.id for p in scenario.players}
        self.classes = {**CAST_CLASSES, **scenario.classes}
        self.city_owner: dict[int, str | None] = {}
        self.city_works: dict[int, int] = {}
        for tile in scenario.board.tiles:
            if tile.city is not None:
                index = board.index(*tile.at)
                self.city_owner[index] = tile.city.owner
                self.city_works[index] = tile.city.works
        self.units: dict[str, Unit] = {u.id: u for u in sorted(units, key=lambda u: u.seq)}
        self.occupants: dict[int, list[Unit]] = {}
        for unit in self.units.values():
            self.occupants.setdefault(unit.tile, []).append(unit)
        self.viewer: str | None = None
        self.unobserved: dict[str, tuple[str, ...]] = {}
        self.version = 0
        self._supply_cache: dict[tuple[str, bool, frozenset[int]], list[int]] = {}

    # --- reading -------------------------------------------------------------------
    def allied(self, a: str, b: str) -> bool:
        """Same player or same alliance."""
        return self.sides[a] == self.sides[b]

    def units_at(self, tile: int) -> list[Unit]:
        """The units on a tile, lowest creation sequence first [CB-2520]."""
        return self.occupants.get(tile, [])

    def unit(self, unit_id: str) -> Unit:
        """A unit by id; an unknown id is an input error."""
        try:
            return self.units[unit_id]
        except KeyError:
            raise InputError("unit", f"no unit {unit_id!r} on the board") from None

    def hostile_at(self, player: str, tile: int) -> list[Unit]:
        """Units on `tile` hostile to `player`."""
        return [u for u in self.units_at(tile) if not self.allied(u.player, player)]

    def works_at(self, tile: int) -> int:
        """Works level of a tile: its city's, or the tile's own [CB-1570]."""
        return self.city_works.get(tile, self.board.works[tile])

    def passable(self, cls: ClassModel, tile: int) -> bool:
        """Land units stay on land, waterborne units on water [CB-1310 item 5]."""
        water = self.board.terrain[tile] is t.Terrain.WATER
        return water == (cls.retreat_class is t.RetreatClass.WATERBORNE)

    def room(self, tile: int, arriving: int) -> bool:
        """Whether `arriving` more units fit on the tile."""
        return len(self.units_at(tile)) + arriving <= self.rules.stacking

    def supply_tier(self, unit: Unit) -> t.SupplyTier:
        """The unit's tier: set by the scenario, or derived from the depot distance."""
        if unit.supply is not None:
            return unit.supply
        distance = self._depot_distance(unit)[unit.tile]
        for reach, tier in SUPPLY_REACH:
            if 0 <= distance <= reach:
                return tier
        return t.SupplyTier.CUT

    def _depot_distance(self, unit: Unit) -> list[int]:
        """Steps from the side's depots over tiles the unit may enter that hold no enemy,
        memoised on what decides it (side, land or water, the tiles enemies stand on): a
        pure function of those and of the board, so copies of the world share the memo."""
        side = self.sides[unit.player]
        water = unit.cls.retreat_class is t.RetreatClass.WATERBORNE
        blocked = frozenset(tile for tile, here in self.occupants.items()
                            if any(self.sides[u.player] != side for u in here))
        key = (side, water, blocked)
        cached = self._supply_cache.get(key)
        if cached is not None:
            return cached
        if len(self._supply_cache) > 256:
            self._supply_cache.clear()
        board = self.board
        open_tiles = [(terrain is t.Terrain.WATER) == water and tile not in blocked
                      for tile, terrain in enumerate(board.terrain)]
        distance = [-1] * (board.width * board.height)
        queue: deque[int] = deque()
        for tile, owner in sorted(board.depots.items()):
            if self.sides.get(owner) == side:
                distance[tile] = 0
                queue.append(tile)
        neighbours = board.neighbours
        while queue:
            tile = queue.popleft()
            step = distance[tile] + 1
            for nxt in neighbours[tile]:
                if distance[nxt] < 0 and open_tiles[nxt]:
                    distance[nxt] = step
                    queue.append(nxt)
        self._supply_cache[key] = distance
        return distance

    def nearest_city_distance(self, player: str, tile: int) -> int | None:
        """Chebyshev distance to the nearest city held by the player's side [CB-1320]."""
        side = self.sides[player]
        width = self.board.width
        distances = [chebyshev(width, tile, city) for city, owner in self.city_owner.items()
                     if owner is not None and self.sides.get(owner) == side]
        return min(distances) if distances else None

    def activation_order(self) -> list[Unit]:
        """Initiative (March 3 .. Entrench 0) first, then lowest creation sequence."""
        return sorted(self.units.values(), key=lambda u: (-u.initiative, u.seq))

    # --- changing ------------------------------------------------------------------
    def move(self, unit: Unit, tile: int) -> None:
        """Put a unit on another tile; its dig-in resets [CB-1260]."""
        self.occupants[unit.tile].remove(unit)
        if not self.occupants[unit.tile]:
            del self.occupants[unit.tile]
        unit.tile = tile
        unit.dig_in = 0
        here = self.occupants.setdefault(tile, [])
        here.append(unit)
        here.sort(key=lambda u: u.seq)
        self.version += 1

    def remove(self, unit: Unit) -> None:
        """Take a destroyed unit off the board at once [CB-130]."""
        self.occupants[unit.tile].remove(unit)
        if not self.occupants[unit.tile]:
            del self.occupants[unit.tile]
        del self.units[unit.id]
        unit.strength = 0
        self.version += 1

    def copy(self) -> World:
        """An independent copy (the engine never mutates its input world)."""
        twin = copy.copy(self)
        twin.units = {uid: u.clone() for uid, u in self.units.items()}
        twin.occupants = {}
        for unit in twin.units.values():
            twin.occupants.setdefault(unit.tile, []).append(unit)
        twin.city_owner = dict(self.city_owner)
        twin.city_works = dict(self.city_works)
        twin.unobserved = dict(self.unobserved)
        twin._supply_cache = self._supply_cache   # a memo of a pure function: shared
        return twin

    def to_scenario(self) -> dict[str, Any]:
        """The world between turns, as scenario data (a saved game is a scenario)."""
        data: dict[str, Any] = self.scenario.model_dump(mode="json", by_alias=True,
                                                        exclude_none=True)
        data["turn"] = self.turn
        tiles = []
        for tile in data["board"]["tiles"]:
            index = self.board.index(*tile["at"])
            if "city" in tile:
                tile["city"]["owner"] = self.city_owner.get(index)
                if tile["city"]["owner"] is None:
                    del tile["city"]["owner"]
            tiles.append(tile)
        data["board"]["tiles"] = tiles
        data["units"] = [u.to_json(self.board) for u in self.units.values()]
        return data


def _neighbours(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    result = []
    for y in range(height):
        for x in range(width):
            result.append(tuple(
                (y + dy) * width + (x + dx)
                for dy in (-1, 0, 1) for dx in (-1, 0, 1)
                if (dx or dy) and 0 <= x + dx < width and 0 <= y + dy < height))
    return tuple(result)


def world_from_scenario(scenario: Scenario) -> World:
    """Build the true world of a checked scenario."""
    rows = [row.replace(" ", "") for row in scenario.board.rows]
    width, height = len(rows[0]), len(rows)
    size = width * height
    elevation, works = [0] * size, [0] * size
    names: dict[int, str] = {}
    depots: dict[int, str] = {}
    for tile in scenario.board.tiles:
        index = tile.at[1] * width + tile.at[0]
        elevation[index] = tile.elevation
        works[index] = tile.works
        if tile.name:
            names[index] = tile.name
        if tile.depot:
            depots[index] = tile.depot
    rivers = frozenset(
        (min(a, b), max(a, b))
        for a, b in ((p[1] * width + p[0], q[1] * width + q[0])
                     for p, q in scenario.board.rivers))
    board = Board(width, height, tuple(TERRAIN_LETTERS[c] for row in rows for c in row),
                  tuple(elevation), tuple(works), names, depots, rivers,
                  _neighbours(width, height))
    classes = {**CAST_CLASSES, **scenario.classes}
    units = []
    for position, model in enumerate(scenario.units):
        units.append(Unit(
            id=model.id, name=model.name or model.id, player=model.player,
            class_id=model.unit_class, cls=classes[model.unit_class],
            seq=model.seq if model.seq is not None else position + 1,
            tile=model.at[1] * width + model.at[0], strength=model.strength,
            disorder=model.disorder, xp=model.experience(), shaken=model.shaken,
            dig_in=model.dig_in, stance=model.stance,
            supply=None if model.supply == "derived" else t.SupplyTier(model.supply),
            withdraw_reflex=model.withdraw_reflex))
    world = World(scenario, board, units)
    for unit in world.units.values():
        unit.start_turn()
    return world
