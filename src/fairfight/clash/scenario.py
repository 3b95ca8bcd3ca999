"""Scenario files: a board, players, unit classes and units, validated into plain models.

A scenario is YAML (or JSON) in the shape of `Scenario`; the JSON Schema published beside
this module is generated from the same model. Pydantic checks each field's type and range;
`check_scenario` then checks what needs the whole file (a unit off the map, in water, over
stacking capacity, an unknown class or player) and names the offending field. A saved game
between turns is itself a scenario, so one format serves designers, the record and the web.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt

from fairfight.clash import tables as t
from fairfight.clash.victory import VictoryModel, check_victory
from fairfight.core.errors import InputError
from fairfight.core.validation import parse_model
from fairfight.inputs import load_yaml

__all__ = [
    "BoardModel",
    "CAST_CLASSES",
    "CAST_MOVEMENT",
    "CityModel",
    "ClassModel",
    "DEFAULT_STACKING",
    "MAX_CLASSES",
    "MAX_ELEVATION",
    "MAX_RIVERS",
    "MAX_SCENARIO_UNITS",
    "MAX_SIDE",
    "MAX_STACKING",
    "MAX_TILES",
    "NAME_PATTERN",
    "Name",
    "Percent",
    "PlayerModel",
    "Point",
    "RulesModel",
    "SCHEMA_PATH",
    "Scenario",
    "TERRAIN_LETTERS",
    "TileModel",
    "UnitModel",
    "check_scenario",
    "class_cost",
    "load_scenario",
    "parse_scenario",
    "scenario_schema",
]

SCHEMA_PATH = Path(__file__).with_name("scenario.schema.json")
"""The published JSON Schema of a scenario file (a test keeps it equal to the model)."""

TERRAIN_LETTERS: dict[str, t.Terrain] = {
    ".": t.Terrain.OPEN, "h": t.Terrain.HILLS, "f": t.Terrain.FOREST, "m": t.Terrain.MARSH,
    "M": t.Terrain.MOUNTAIN, "u": t.Terrain.URBAN, "~": t.Terrain.WATER,
}
"""One letter per terrain family in a board row."""
MAX_SIDE = 64
"""A board is at most 64 x 64 tiles."""
MAX_SCENARIO_UNITS = 1024
"""Units in any scenario, all sides together: every turn's work grows with them (the web
allows fewer, `web.clash.caps.MAX_UNITS`); 1,024 is sixteen times the largest built-in."""
MAX_CLASSES = 64
"""A designer's own unit classes in one scenario (the built-in cast has four)."""
MAX_TILES = MAX_SIDE * MAX_SIDE
"""Tile descriptions: at most one per tile of the largest board."""
MAX_RIVERS = 4 * MAX_TILES
"""River edges: each tile has at most four edges that are not counted from its neighbour."""
MAX_ELEVATION = 9
MAX_STACKING = 8
DEFAULT_STACKING = 3
"""Units a tile holds [clash.md: stacking capacity 3]."""
NAME_PATTERN = r"^[A-Za-z0-9_-]{1,40}$"

Name = Annotated[str, Field(pattern=NAME_PATTERN)]
Point = tuple[Annotated[StrictInt, Field(ge=0)], Annotated[StrictInt, Field(ge=0)]]
Percent = Annotated[StrictInt, Field(ge=0, le=t.MAX_STRENGTH)]


def class_cost(atk: int, defence: int, tough: int, movement: int, bombard_range: int,
               bombard_shots: int) -> int:
    """Build points of a class: a linear price on its stats, so a designer's class is priced
    by the same rule as the cast (documented in docs/clash.md)."""
    return (atk + defence + tough // 2 + 10 * max(0, movement - 2)
            + 20 * bombard_range * bombard_shots)


class ClassModel(BaseModel):
    """A unit class: the combat stats of CB-150 plus movement and build cost."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True,
                              use_attribute_docstrings=True)

    name: Annotated[str, Field(min_length=1, max_length=60)]
    """The class's name as players read it."""
    atk: Annotated[StrictInt, Field(ge=0, le=255)]
    """Attack stat: the power it brings as lead or supporter; 0 may neither attack nor
    support [CB-230]."""
    defence: Annotated[StrictInt, Field(ge=0, le=255, alias="def")]
    """Defence stat: the power it holds a tile with."""
    tough: Annotated[StrictInt, Field(ge=1, le=255)]
    """Toughness: higher loses strength more slowly [CB-110]."""
    role: t.Role
    """Foot, armor, gun, recon, naval or air: terrain and combined-arms terms read it."""
    retreat_class: t.RetreatClass = t.RetreatClass.STANDARD
    """How it steps back when broken [CB-1330]."""
    bombard_range: Annotated[StrictInt, Field(ge=0, le=8)] = 0
    """Tiles (Chebyshev) it can bombard across; 0 cannot bombard [CB-1680]."""
    bombard_shots: Annotated[StrictInt, Field(ge=0, le=8)] = 0
    """Bombardments it may fire a turn [CB-1680]."""
    movement: Annotated[StrictInt, Field(ge=1, le=12)] = 2
    """Movement points a turn: one a step, one an assault [CB-240]."""
    cost: Annotated[StrictInt, Field(ge=1, le=10_000)] | None = None
    """Build points; absent, the price rule of docs/clash.md gives it."""

    def price(self) -> int:
        """The class's build cost: given, or by `class_cost`."""
        if self.cost is not None:
            return self.cost
        return class_cost(self.atk, self.defence, self.tough, self.movement,
                          self.bombard_range, self.bombard_shots)


CAST_MOVEMENT = {"Rifle Company": 2, "Armoured Battalion": 3, "Field Battery": 2,
                 "Scout Troop": 4}
"""Movement points per turn of the calibration cast (a world value: the combat tables have
none)."""
CAST_CLASSES: dict[str, ClassModel] = {
    cls.name.lower().replace(" ", "-"): ClassModel(
        name=cls.name, atk=cls.atk, defence=cls.defence, tough=cls.tough, role=cls.role,
        retreat_class=cls.retreat_class, bombard_range=cls.bombard_range,
        bombard_shots=cls.bombard_shots, movement=CAST_MOVEMENT[cls.name])
    for cls in t.CALIBRATION_CAST
}
"""The built-in classes by id: rifle-company, armoured-battalion, field-battery, scout-troop."""


class CityModel(BaseModel):
    """A city on a tile: its owner and its works level [CB-1570]."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    owner: Name | None = None
    """The player holding it; absent, nobody does (and it gives nobody city recovery)."""
    works: Annotated[StrictInt, Field(ge=0, le=t.MAX_POSITION)] = 0
    """Fortification level 0-4: defence, resolve and shock for its garrison [CB-1570]."""


class TileModel(BaseModel):
    """What a tile carries besides its terrain letter."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    at: Point
    """The tile, as [x, y] with x the column, from 0."""
    name: Annotated[str, Field(min_length=1, max_length=60)] | None = None
    """A name the panels and events use instead of the coordinates."""
    elevation: Annotated[StrictInt, Field(ge=0, le=MAX_ELEVATION)] = 0
    """Height 0-9: assaulting uphill costs the uphill term [CB-590]."""
    city: CityModel | None = None
    """A city on the tile."""
    works: Annotated[StrictInt, Field(ge=0, le=t.MAX_POSITION)] = 0
    """Works outside a city, 0-4 (a city gives its works in `city.works`)."""
    depot: Name | None = None
    """The player whose supply depot stands here [CB-1630, CB-2070]."""


class BoardModel(BaseModel):
    """A rectangular grid: one row string per line of tiles, letters from TERRAIN_LETTERS."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    rows: Annotated[list[str], Field(min_length=1, max_length=MAX_SIDE)]
    """One string per row of tiles, top first; one letter a tile (. h f m M u ~ for open,
    hills, forest, marsh, mountain, urban, water), spaces ignored."""
    tiles: Annotated[list[TileModel], Field(max_length=MAX_TILES)] = []
    """What tiles carry besides their terrain: names, elevation, cities, works, depots."""
    rivers: Annotated[list[tuple[Point, Point]], Field(max_length=MAX_RIVERS)] = []
    """River edges, each between two adjacent tiles: crossing one costs the river term."""


class PlayerModel(BaseModel):
    """A player; players with the same alliance are allied."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    id: Name
    """The id units, cities and depots name the player by."""
    name: Annotated[str, Field(min_length=1, max_length=60)] | None = None
    """The name shown to people."""
    alliance: Name | None = None
    """Players sharing an alliance are one side."""


class UnitModel(BaseModel):
    """A unit and its persistent combat state [CB-100]."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True,
                              use_attribute_docstrings=True)

    id: Name
    """The id orders and events name the unit by."""
    name: Annotated[str, Field(min_length=1, max_length=60)] | None = None
    """The name shown to people (the id when absent)."""
    player: Name
    """The player it belongs to."""
    unit_class: Name = Field(alias="class")
    """A built-in class (rifle-company, armoured-battalion, field-battery, scout-troop) or
    one of `classes`."""
    at: Point
    """Its tile, as [x, y]."""
    seq: Annotated[StrictInt, Field(ge=1)] | None = None
    """Creation sequence: activation and stack-order ties go to the lowest; absent, the
    unit's place in the list, from 1."""
    strength: Annotated[StrictInt, Field(ge=1, le=t.MAX_STRENGTH)] = t.MAX_STRENGTH
    """Strength 1-100 [CB-100]."""
    disorder: Percent = 0
    """Disorder 0-100: it lowers resolve [CB-140]."""
    xp: Annotated[StrictInt, Field(ge=0, le=t.XP_MAX)] | None = None
    """Experience 0-999; the grade follows from it (give xp or grade, not both)."""
    grade: t.Grade | None = None
    """Green, trained, veteran or elite: the unit starts at that grade's xp."""
    shaken: Annotated[StrictInt, Field(ge=0, le=t.SHAKEN_ON_HOLD)] = 0
    """Turns of shaken left, 0-2: -20 resolve while above 0 [CB-1130]."""
    dig_in: Annotated[StrictInt, Field(ge=0, le=t.MAX_POSITION)] = 0
    """Dig-in 0-4, grown by staying entrenched [CB-1250]."""
    stance: t.Stance = t.Stance.HOLD
    """March, advance, hold or entrench: initiative, combat terms, reactions [CB-1520]."""
    supply: t.SupplyTier | Literal["derived"] = "derived"
    """A fixed supply tier, or derived from the distance to a friendly depot."""
    withdraw_reflex: StrictBool = False
    """Disengage instead of fighting when assaulted outside a city or works [CB-1850]."""

    def experience(self) -> int:
        """xp as given, or the threshold of the given grade, or 0."""
        if self.xp is not None:
            return self.xp
        return t.GRADE_XP_THRESHOLD[self.grade] if self.grade is not None else 0


class RulesModel(BaseModel):
    """Rules options, fixed at setup and part of the record [CB-2620]."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    volatility_floor: Literal[250, 600] = 250
    """250 (measured) or 600 (chaotic) [CB-2630]."""
    stacking: Annotated[StrictInt, Field(ge=1, le=MAX_STACKING)] = DEFAULT_STACKING
    """Units a tile holds."""
    fixed_draw: Annotated[StrictInt, Field(ge=0, le=t.HIGH_DRAW)] | None = None
    """Calibration only: every clash uses this draw instead of the hashed one."""


class Scenario(BaseModel):
    """A whole scenario (or a saved game between turns)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True,
                              use_attribute_docstrings=True)

    name: Annotated[str, Field(min_length=1, max_length=80)] = "scenario"
    """The scenario's title."""
    seed_key: Name
    """The game's key K: every draw is hash64(K, turn, initiator, ordinal) [CB-800]."""
    turn: Annotated[StrictInt, Field(ge=1, le=100_000)] = 1
    """The turn about to be played (a saved game carries its own)."""
    rules: RulesModel = RulesModel()
    """Rules options, fixed for the game."""
    board: BoardModel
    """The map."""
    players: Annotated[list[PlayerModel], Field(min_length=2, max_length=16)]
    """Two to sixteen players."""
    classes: Annotated[dict[Name, ClassModel], Field(max_length=MAX_CLASSES)] = {}
    """A designer's own unit classes, by id, beside the built-in cast."""
    units: Annotated[list[UnitModel], Field(max_length=MAX_SCENARIO_UNITS)] = []
    """The units on the board."""
    victory: VictoryModel = VictoryModel()
    """How the game ends: last side standing, cities held at a turn, the turn limit."""


def _letters(row: str) -> str:
    return row.replace(" ", "")


def _check_board(board: BoardModel, players: set[str]) -> tuple[int, int, list[t.Terrain]]:
    width = len(_letters(board.rows[0]))
    if not 1 <= width <= MAX_SIDE:
        raise InputError("board.rows[0]", f"a row holds 1 to {MAX_SIDE} tiles")
    terrain: list[t.Terrain] = []
    for y, row in enumerate(board.rows):
        letters = _letters(row)
        if len(letters) != width:
            raise InputError(f"board.rows[{y}]", f"has {len(letters)} tiles; row 0 has {width}")
        for x, letter in enumerate(letters):
            if letter not in TERRAIN_LETTERS:
                known = " ".join(TERRAIN_LETTERS)
                raise InputError(f"board.rows[{y}]",
                                 f"unknown terrain letter {letter!r} at column {x}; use {known}")
            terrain.append(TERRAIN_LETTERS[letter])
    height = len(board.rows)
    seen: set[tuple[int, int]] = set()
    for i, tile in enumerate(board.tiles):
        where = f"board.tiles[{i}]"
        _on_map(tile.at, width, height, f"{where}.at")
        if tile.at in seen:
            raise InputError(f"{where}.at", f"tile {list(tile.at)} is described twice")
        seen.add(tile.at)
        if tile.city and tile.city.owner and tile.city.owner not in players:
            raise InputError(f"{where}.city.owner", f"unknown player {tile.city.owner!r}")
        if tile.depot and tile.depot not in players:
            raise InputError(f"{where}.depot", f"unknown player {tile.depot!r}")
        if tile.city and tile.works:
            raise InputError(f"{where}.works", "a city carries its own works: set city.works")
        if terrain[tile.at[1] * width + tile.at[0]] is t.Terrain.WATER and (
                tile.city or tile.works or tile.depot):
            raise InputError(where, "a water tile holds no city, works or depot")
    for i, (a, b) in enumerate(board.rivers):
        _on_map(a, width, height, f"board.rivers[{i}][0]")
        _on_map(b, width, height, f"board.rivers[{i}][1]")
        if max(abs(a[0] - b[0]), abs(a[1] - b[1])) != 1:
            raise InputError(f"board.rivers[{i}]", "a river edge joins two adjacent tiles")
    return width, height, terrain


def _on_map(at: tuple[int, int], width: int, height: int, where: str) -> None:
    if not (at[0] < width and at[1] < height):
        raise InputError(where, f"{list(at)} is off the {width}x{height} map")


def check_scenario(scenario: Scenario) -> None:
    """The checks that need the whole file; each refusal names the field [issue 11]."""
    players = [player.id for player in scenario.players]
    if len(set(players)) != len(players):
        raise InputError("players", "player ids must be unique")
    if len({p.alliance or p.id for p in scenario.players}) < 2:
        raise InputError("players", "a game needs at least two sides")
    width, height, terrain = _check_board(scenario.board, set(players))
    check_victory(scenario.victory, {(tile.at[0], tile.at[1]) for tile in scenario.board.tiles
                                     if tile.city is not None})
    for key in scenario.classes:
        if key in CAST_CLASSES:
            raise InputError(f"classes.{key}", "is a built-in class id; choose another")
    for key, cls in scenario.classes.items():
        if cls.retreat_class is t.RetreatClass.DETACHED:
            raise InputError(f"classes.{key}.retreat_class",
                             "detached (air) units are not part of the world")
    classes = {**CAST_CLASSES, **scenario.classes}
    ids: set[str] = set()
    seqs: set[int] = set()
    occupants: dict[tuple[int, int], list[tuple[str, str]]] = {}
    for i, unit in enumerate(scenario.units):
        where = f"units[{i}]"
        if unit.id in ids:
            raise InputError(f"{where}.id", f"unit id {unit.id!r} is used twice")
        ids.add(unit.id)
        seq = unit.seq if unit.seq is not None else i + 1
        if seq in seqs:
            raise InputError(f"{where}.seq", f"creation sequence {seq} is used twice")
        seqs.add(seq)
        if unit.player not in players:
            raise InputError(f"{where}.player", f"unknown player {unit.player!r}")
        if unit.unit_class not in classes:
            raise InputError(f"{where}.class", f"unknown class {unit.unit_class!r}; known: "
                             + ", ".join(sorted(classes)))
        if unit.xp is not None and unit.grade is not None:
            raise InputError(f"{where}.grade", "give xp or grade, not both (the grade "
                             "comes from xp)")
        _on_map(unit.at, width, height, f"{where}.at")
        tile_terrain = terrain[unit.at[1] * width + unit.at[0]]
        naval = classes[unit.unit_class].retreat_class is t.RetreatClass.WATERBORNE
        if (tile_terrain is t.Terrain.WATER) != naval:
            rule = "is on water; land units may not enter water" if not naval else \
                "is on land; a waterborne unit stays on water"
            raise InputError(f"{where}.at", f"{list(unit.at)} {rule}")
        here = occupants.setdefault(unit.at, [])
        if any(_sides(scenario, other) != _sides(scenario, unit.player) for _, other in here):
            raise InputError(f"{where}.at", f"{list(unit.at)} holds a hostile unit")
        here.append((unit.id, unit.player))
        if len(here) > scenario.rules.stacking:
            raise InputError(f"{where}.at", f"{list(unit.at)} would hold {len(here)} units; "
                             f"the stacking capacity is {scenario.rules.stacking}")


def _sides(scenario: Scenario, player: str) -> str:
    for candidate in scenario.players:
        if candidate.id == player:
            return candidate.alliance or candidate.id
    return player


def parse_scenario(data: Any) -> Scenario:
    """Validate plain data into a checked Scenario; the first problem is an InputError."""
    if not isinstance(data, dict):
        raise InputError("scenario", "must be a mapping of fields")
    scenario = parse_model(Scenario, data)
    check_scenario(scenario)
    return scenario


def load_scenario(path: Path) -> Scenario:
    """Read a scenario from a YAML (or JSON, which is YAML) file."""
    return parse_scenario(load_yaml(path))


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of a scenario file, generated from the model."""
    schema: dict[str, Any] = Scenario.model_json_schema(by_alias=True)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "fairfight clash scenario"
    return schema

