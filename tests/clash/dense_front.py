"""A scenario of a dense front, made on demand: two armies of stacked units face each other
along a long line, so every front unit can attack and each assault has many would-be supporters.
The 1,000-unit front is the size a hostile-input corpus sent to `clash play`."""

from __future__ import annotations

from typing import Any

__all__ = ["dense_front"]

CLASSES = ("rifle-company", "armoured-battalion", "field-battery", "scout-troop")


def dense_front(units: int = 1000, rows: int = 50, stacking: int = 5) -> dict[str, Any]:
    """A valid scenario: `units` split between blue (west) and red (east), `stacking` to a tile,
    filling columns of `rows` tiles that meet in the middle of the board."""
    per_side = units // 2
    columns = -(-per_side // (rows * stacking))
    width = 2 * columns + 4
    placed = []
    for player, first in (("blue", 2), ("red", 2 + columns)):
        for number in range(per_side):
            slot = number // stacking
            placed.append({"id": f"{player}-{number}", "player": player,
                           "class": CLASSES[number % len(CLASSES)],
                           "at": [first + slot // rows, slot % rows],
                           "stance": "advance" if player == "blue" else "hold"})
    return {"name": "Dense front", "seed_key": "dense-front", "turn": 1,
            "board": {"rows": [" ".join("." * width) for _ in range(rows)]},
            "rules": {"stacking": stacking},
            "players": [{"id": "blue"}, {"id": "red"}], "units": placed}
