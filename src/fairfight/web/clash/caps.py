"""The size caps of a clash game on the web, checked on plain data before any work.

A scenario is refused before it is parsed into a world when it has too many units or too
big a board; a turn's orders are refused before the Cascade when they ask for too much work;
a game stops taking turns at a turn limit, which bounds the replay that rebuilds its world.
The measure of a turn's work is the ruleset's (`clash.workload`), shared with the command line.
Each refusal is one line naming the field (docs/clash.md, "On the web").
"""

from __future__ import annotations

from typing import Any

from fairfight.clash.workload import MAX_ACTIONS_PER_TURN, check_orders_work
from fairfight.core.errors import InputError

__all__ = [
    "MAX_ACTIONS_PER_TURN",
    "MAX_BOARD_SIDE",
    "MAX_TURNS",
    "MAX_UNITS",
    "check_orders_work",
    "check_scenario_size",
]

MAX_UNITS = 200
"""Units in a scenario, all sides together."""
MAX_BOARD_SIDE = 48
"""Tiles along each side of the board."""
MAX_TURNS = 300
"""Turns a game plays; a world is rebuilt by replaying at most this many."""


def check_scenario_size(data: Any) -> None:
    """Refuse a scenario over the caps, looking only at its raw lists."""
    if not isinstance(data, dict):
        return   # the scenario reader names the problem
    units = data.get("units")
    if isinstance(units, list) and len(units) > MAX_UNITS:
        raise InputError("units", f"{len(units)} units; a game on the web has at most "
                         f"{MAX_UNITS}")
    board = data.get("board")
    rows = board.get("rows") if isinstance(board, dict) else None
    if isinstance(rows, list):
        if len(rows) > MAX_BOARD_SIDE:
            raise InputError("board.rows", f"{len(rows)} rows; a board on the web has at "
                             f"most {MAX_BOARD_SIDE}")
        for index, row in enumerate(rows):
            width = len("".join(row.split())) if isinstance(row, str) else 0
            if width > MAX_BOARD_SIDE:
                raise InputError(f"board.rows[{index}]", f"{width} tiles; a board on the "
                                 f"web has at most {MAX_BOARD_SIDE} a row")
