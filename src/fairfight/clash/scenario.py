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
from fairfight.core.errors import InputError
from fairfight.core.validation import parse_model
from fairfight.inputs import load_yaml

__all__ = [
    "CAST_CLASSES",
    "SCHEMA_PATH",
    "TERRAIN_LETTERS",
    "BoardModel",
    "CityModel",
    "ClassModel",
    "PlayerModel",
    "RulesModel",
    "Scenario",
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

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    name: Annotated[str, Field(min_length=1, max_length=60)]
    atk: Annotated[StrictInt, Field(ge=0, le=255)]
    defence: Annotated[StrictInt, Field(ge=0, le=255, alias="def")]
    tough: Annotated[StrictInt, Field(ge=1, le=255)]
    role: t.Role
    retreat_class: t.RetreatClass = t.RetreatClass.STANDARD
    bombard_range: Annotated[StrictInt, Field(ge=0, le=8)] = 0
    bombard_shots: Annotated[StrictInt, Field(ge=0, le=8)] = 0
    movement: Annotated[StrictInt, Field(ge=1, le=12)] = 2
    cost: Annotated[StrictInt, Field(ge=1, le=10_000)] | None = None

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

    model_config = ConfigDict(extra="forbid", frozen=True)

    owner: Name | None = None
    works: Annotated[StrictInt, Field(ge=0, le=t.MAX_POSITION)] = 0


class TileModel(BaseModel):
    """What a tile carries besides its terrain letter."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    at: Point
    name: Annotated[str, Field(min_length=1, max_length=60)] | None = None
    elevation: Annotated[StrictInt, Field(ge=0, le=MAX_ELEVATION)] = 0
    city: CityModel | None = None
    works: Annotated[StrictInt, Field(ge=0, le=t.MAX_POSITION)] = 0
    depot: Name | None = None


class BoardModel(BaseModel):
    """A rectangular grid: one row string per line of tiles, letters from TERRAIN_LETTERS."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rows: Annotated[list[str], Field(min_length=1, max_length=MAX_SIDE)]
    tiles: list[TileModel] = []
    rivers: list[tuple[Point, Point]] = []


class PlayerModel(BaseModel):
    """A player; players with the same alliance are allied."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: Name
    name: Annotated[str, Field(min_length=1, max_length=60)] | None = None
    alliance: Name | None = None


class UnitModel(BaseModel):
    """A unit and its persistent combat state [CB-100]."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    id: Name
    name: Annotated[str, Field(min_length=1, max_length=60)] | None = None
    player: Name
    unit_class: Name = Field(alias="class")
    at: Point
    seq: Annotated[StrictInt, Field(ge=1)] | None = None
    strength: Annotated[StrictInt, Field(ge=1, le=t.MAX_STRENGTH)] = t.MAX_STRENGTH
    disorder: Percent = 0
    xp: Annotated[StrictInt, Field(ge=0, le=t.XP_MAX)] | None = None
    grade: t.Grade | None = None
    shaken: Annotated[StrictInt, Field(ge=0, le=t.SHAKEN_ON_HOLD)] = 0
    dig_in: Annotated[StrictInt, Field(ge=0, le=t.MAX_POSITION)] = 0
    stance: t.Stance = t.Stance.HOLD
    supply: t.SupplyTier | Literal["derived"] = "derived"
    withdraw_reflex: StrictBool = False

    def experience(self) -> int:
        """xp as given, or the threshold of the given grade, or 0."""
        if self.xp is not None:
            return self.xp
        return t.GRADE_XP_THRESHOLD[self.grade] if self.grade is not None else 0


class RulesModel(BaseModel):
    """Rules options, fixed at setup and part of the record [CB-2620]."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    volatility_floor: Literal[250, 600] = 250
    stacking: Annotated[StrictInt, Field(ge=1, le=MAX_STACKING)] = DEFAULT_STACKING
    fixed_draw: Annotated[StrictInt, Field(ge=0, le=t.HIGH_DRAW)] | None = None
    """Calibration only: every clash uses this draw instead of the hashed one."""


class Scenario(BaseModel):
    """A whole scenario (or a saved game between turns)."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    name: Annotated[str, Field(min_length=1, max_length=80)] = "scenario"
    seed_key: Name
    turn: Annotated[StrictInt, Field(ge=1, le=100_000)] = 1
    rules: RulesModel = RulesModel()
    board: BoardModel
    players: Annotated[list[PlayerModel], Field(min_length=2, max_length=16)]
    classes: dict[Name, ClassModel] = {}
    units: list[UnitModel] = []


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

