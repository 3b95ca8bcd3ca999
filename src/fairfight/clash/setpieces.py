"""Hand-made set pieces for the playtest: the siege of CB-2040/2050 and a screening force.

Each is a scenario built here (the siege is also `examples/clash/scenarios/siege.yaml`, and
a test keeps the two equal) and a fixed script of orders, run through the real Cascade with
draws hashed from the given key.
"""

from __future__ import annotations

from typing import Any

from fairfight.clash.engagement import retreat_destination
from fairfight.clash.generate import generate_scenario
from fairfight.clash.orders import parse_orders
from fairfight.clash.scenario import parse_scenario
from fairfight.clash.turn import run_turn
from fairfight.clash.world import World, world_from_scenario

__all__ = [
    "CITY",
    "HANDMADE",
    "MAX_TURNS",
    "SIEGE_ORDERS",
    "handmade_scenario",
    "screening_pair",
    "screening_scenario",
    "screening_turns",
    "siege_scenario",
    "siege_turns",
]

HANDMADE: dict[str, list[str]] = {
    "the-neck": [  # a lake down the middle, crossed at three necks: few ways to step back
        "f . . . . . ~ ~ ~ ~ . f . h . .",
        ". . . h . . ~ ~ ~ ~ . . . . . .",
        ". . . . . . ~ ~ ~ ~ . . . . . .",
        ". . . . . f ~ ~ ~ ~ . . . . . .",
        ". . . f . . . . . . . . h . f .",
        ". f h . . . ~ ~ ~ ~ . . f . . h",
        ". . . . . h ~ ~ ~ ~ f . . . . .",
        ". . . . . . . . f . . . . . . .",
        ". . . . . . f . . . . h . . . .",
        ". h . . f . ~ ~ ~ ~ . . . . h f",
        ". . f . h . ~ ~ ~ ~ . . . f . .",
        "f . . . . . . h . . . f . . . .",
        ". . . . . . ~ ~ ~ ~ h . . . . .",
        "h . . . . . ~ ~ ~ ~ . . . h . .",
        ". . . h . f ~ ~ ~ ~ . . . . . .",
        ". . . f . . ~ ~ ~ ~ . . . . f .",
    ],
    "marsh-country": [  # broken, chaotic ground with one open road across the middle
        "m f . . m h . m f . m f . . m h",
        ". m h . f . m h . f . m h . f .",
        "f . f . f . f . f . f . f . f .",
        "m . f . h m . f . h m . f . h m",
        ". h m . . f m . f m . h m . . f",
        "h f m . . h f m . . h f m . . h",
        "m m m . . . . h f f m m m . . .",
        ". . . . . . . . . . . . . . . .",
        ". . . . m m m f f h . . . . m m",
        "f h . . m f h . . m f h . . m f",
        "m f . . m h . m f . m f . . m h",
        ". m h . f . m h . f . m h . f .",
        "f . f . f . f . f . f . f . f .",
        "m . f . h m . f . h m . f . h m",
        ". h m . . f m . f m . h m . . f",
        "h f m . . h f m . . h f m . . h",
    ],
}
"""Hand-drawn 16x16 boards for the playtest's AI games (cities and units placed as on a
generated board)."""
MAX_TURNS = 12
"""A set piece stops here if it has not ended (the figure is then this cap)."""
CITY = [2, 2]


def _unit(uid: str, name: str, cls: str, at: list[int], player: str = "blue",
          **state: Any) -> dict[str, Any]:
    return {"id": uid, "name": name, "player": player, "class": cls, "at": at, **state}


def handmade_scenario(name: str, key: str, per_side: int = 16) -> dict[str, Any]:
    """A hand-drawn board with the cast mix deployed on each side's edge."""
    data = generate_scenario(key, width=16, height=16, per_side=per_side,
                             rows_given=HANDMADE[name])
    data["name"] = name
    return data


def siege_scenario(key: str, fixed_draw: int | None = None) -> dict[str, Any]:
    """A Trained rifle company entrenched in its works-3 city on urban ground; three
    Trained batteries two tiles off; two Veteran armoured battalions and two companies
    around it [CB-2040, CB-2050]."""
    gun = {"grade": "trained", "supply": "adequate", "stance": "hold"}
    tank = {"grade": "veteran", "supply": "full", "stance": "hold"}
    data: dict[str, Any] = {
        "name": "Siege of Castel", "seed_key": key,
        "board": {"rows": [". . . . .", ". . . . .", ". . u . .", ". . . . .", ". . . . ."],
                  "tiles": [{"at": CITY, "name": "Castel", "city": {"owner": "red",
                                                                    "works": 3}},
                            {"at": [0, 4], "depot": "red"}, {"at": [4, 0], "depot": "blue"}]},
        "players": [{"id": "blue", "name": "Blue"}, {"id": "red", "name": "Red"}],
        "units": [
            _unit("gun-1", "1st Field Bty", "field-battery", [0, 0], **gun),
            _unit("gun-2", "2nd Field Bty", "field-battery", [2, 0], **gun),
            _unit("gun-3", "3rd Field Bty", "field-battery", [4, 0], **gun),
            _unit("garrison", "Castel Rifles", "rifle-company", CITY, "red",
                  grade="trained", supply="adequate", stance="entrench"),
            _unit("tank-1", "1st Armoured", "armoured-battalion", [1, 3], **tank),
            _unit("tank-2", "2nd Armoured", "armoured-battalion", [3, 3], **tank),
            _unit("rifles-a", "A Company", "rifle-company", [1, 1], grade="trained",
                  supply="adequate", stance="hold"),
            _unit("rifles-b", "B Company", "rifle-company", [3, 1], grade="trained",
                  supply="adequate", stance="hold"),
        ],
    }
    if fixed_draw is not None:
        data["rules"] = {"fixed_draw": fixed_draw}
    return data


SIEGE_ORDERS: dict[str, Any] = {
    **{gun: {"actions": [{"do": "bombard", "target": CITY}]}
       for gun in ("gun-1", "gun-2", "gun-3")},
    **{tank: {"stance": "advance",
              "actions": [{"do": "assault", "target": CITY, "supporters": []}]}
       for tank in ("tank-1", "tank-2")},
}
"""Every turn: the gun line fires and both battalions assault [CB-2050]."""


def siege_turns(key: str) -> int:
    """Turns until the city changes hands under the CB-2050 shape (MAX_TURNS if never)."""
    world = world_from_scenario(parse_scenario(siege_scenario(key)))
    city = world.board.index(*CITY)
    for turn in range(1, MAX_TURNS + 1):
        orders = {uid: o for uid, o in SIEGE_ORDERS.items() if uid in world.units}
        world = run_turn(world, parse_orders(world, orders)).world
        if world.city_owner[city] == "blue":
            return turn
    return MAX_TURNS


def screening_scenario(key: str) -> dict[str, Any]:
    """A scout troop with its withdraw reflex set, in a one-tile-wide corridor, with an
    armoured battalion behind it (in supply, no depot: recovery by the field row)."""
    return {
        "name": "Screen", "seed_key": key,
        "board": {"rows": [". " * 24]},
        "players": [{"id": "blue"}, {"id": "red"}],
        "units": [
            _unit("tank", "Armour", "armoured-battalion", [0, 0], stance="advance",
                  supply="adequate"),
            _unit("screen", "Screen", "scout-troop", [1, 0], "red", supply="adequate",
                  withdraw_reflex=True),
        ],
    }


def screening_turns(key: str) -> int:
    """Whole turns a screen survives when attacked once every turn and disengaging each
    time [CB-1890]: the turn it is destroyed, minus one."""
    world = world_from_scenario(parse_scenario(screening_scenario(key)))
    for turn in range(1, MAX_TURNS + 1):
        x, y = world.board.xy(world.units["screen"].tile)
        orders = {"tank": {"actions": [{"do": "assault", "target": [x, y]}]}}
        world = run_turn(world, parse_orders(world, orders)).world
        if "screen" not in world.units:
            return turn - 1
    return MAX_TURNS


def _approach(world: World, unit_id: str, target: int, avoid: int | None) -> list[list[int]]:
    """A one-step path to a tile next to `target` when the unit is not already next to it
    (free of enemies, lowest index first), or no step."""
    unit = world.units[unit_id]
    board = world.board
    if unit.tile in board.neighbours[target]:
        return []
    steps = [tile for tile in board.neighbours[unit.tile]
             if tile in board.neighbours[target] and tile != avoid
             and not world.hostile_at(unit.player, tile)]
    return [list(board.xy(min(steps)))] if steps else []


def screening_pair(key: str, stance: str = "hold") -> dict[str, int]:
    """Open question 7: one screen against two attackers a turn. The first assault makes it
    disengage (its once-a-turn step back); the second closes in and assaults where it went
    (a normal clash, CB-1890). Returns the turns it survived and how the second clashes
    went."""
    data = screening_scenario(key)
    data["board"]["rows"] = [". " * 24] * 3
    data["units"] = [
        _unit("tank-a", "Armour A", "armoured-battalion", [0, 1], stance="advance",
              supply="adequate"),
        _unit("tank-b", "Armour B", "armoured-battalion", [0, 0], stance="advance",
              supply="adequate"),
        _unit("screen", "Screen", "scout-troop", [1, 1], "red", supply="adequate",
              stance=stance, withdraw_reflex=True),
    ]
    world = world_from_scenario(parse_scenario(data))
    tally = {"turns": MAX_TURNS, "second_clashes": 0, "second_breaks": 0, "reactions": 0}
    for turn in range(1, MAX_TURNS + 1):
        screen = world.units["screen"]
        first = world.units["tank-a"]
        _, after = retreat_destination(world, [screen], screen.tile, first.tile)
        where = after if after is not None else screen.tile
        orders: dict[str, Any] = {}
        for uid, goal in (("tank-a", screen.tile), ("tank-b", where)):
            path = _approach(world, uid, goal, None)
            actions: list[dict[str, Any]] = [{"do": "move", "path": path}] if path else []
            actions.append({"do": "assault", "target": list(world.board.xy(goal))})
            orders[uid] = {"actions": actions}
        result = run_turn(world, parse_orders(world, orders))
        for event in result.events:
            if event["event"] == "clash" and event["initiator"] == "tank-b":
                tally["second_clashes"] += 1
                tally["second_breaks"] += int(event["outcome"]["defender_breaks"])
            if event["event"] == "clash" and event["initiator"] == "screen":
                tally["reactions"] += 1
        world = result.world
        if "screen" not in world.units:
            tally["turns"] = turn - 1
            break
    return tally
