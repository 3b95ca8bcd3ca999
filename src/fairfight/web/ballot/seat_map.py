"""The board as a map: a tile cartogram of the 50 states, one square tile each, laid out on a
fixed 11 × 8 grid, built from the board of a viewer's page (what that viewer may see, no more).

The layout is NPR Visuals' square "tile grid map" of 2015 (the common 11-column, 8-row grid of
two-letter tiles), with its tile for the District of Columbia left out: the game has 50
states and no DC. A tile keeps the board's facts in words (the lean as a signed number, the
holders and tags in its title), so colour is never the only way to read it.
"""

from __future__ import annotations

from pydantic import BaseModel

from fairfight.ballot.seat_view import StateView

__all__ = [
    "MAP_COLUMNS",
    "MAP_ROWS",
    "STRONG_LEAN",
    "TILE_GRID",
    "TileView",
    "map_tiles",
]

MAP_COLUMNS = 11
MAP_ROWS = 8
TILE_GRID: dict[str, tuple[int, int]] = {
    "AK": (0, 0), "ME": (10, 0),
    "VT": (9, 1), "NH": (10, 1),
    "WA": (0, 2), "ID": (1, 2), "MT": (2, 2), "ND": (3, 2), "MN": (4, 2), "IL": (5, 2),
    "WI": (6, 2), "MI": (7, 2), "NY": (8, 2), "RI": (9, 2), "MA": (10, 2),
    "OR": (0, 3), "NV": (1, 3), "WY": (2, 3), "SD": (3, 3), "IA": (4, 3), "IN": (5, 3),
    "OH": (6, 3), "PA": (7, 3), "NJ": (8, 3), "CT": (9, 3),
    "CA": (0, 4), "UT": (1, 4), "CO": (2, 4), "NE": (3, 4), "MO": (4, 4), "KY": (5, 4),
    "WV": (6, 4), "VA": (7, 4), "MD": (8, 4), "DE": (9, 4),
    "AZ": (1, 5), "NM": (2, 5), "KS": (3, 5), "AR": (4, 5), "TN": (5, 5), "NC": (6, 5),
    "SC": (7, 5),
    "OK": (3, 6), "LA": (4, 6), "MS": (5, 6), "AL": (6, 6), "GA": (7, 6),
    "HI": (0, 7), "TX": (3, 7), "FL": (8, 7),
}
"""Each state's tile as (column, row) from the top left: NPR Visuals' square tile grid map
(2015), without its DC tile."""

STRONG_LEAN = 3
"""A lean this far from even (either way) gets the deeper shade of its party's colour."""


class TileView(BaseModel):
    """One state's tile: where it sits, how it is coloured, and what it says."""

    code: str
    x: int
    y: int
    lean: str
    """The lean written out, signed (`+2`, `-1`, `0`): the colour is never the only sign."""
    tone: str
    """`d`, `r` or `even`, and `strong` beside it for a lean of `STRONG_LEAN` or more."""
    mine: bool
    """The viewer holds at least one seat in the state (the tile is outlined and starred)."""
    title: str
    """Everything the board says about the state, in one sentence (the tile's SVG title)."""


def _title(state: StateView) -> str:
    seats = f"; your seats: {', '.join(state.mine)}" if state.mine else ""
    return (
        f"{state.code}: lean {state.lean:+d}, partisan term {state.partisan:+d}; governor "
        f"{state.governor_party} ({state.governor}); senators {state.senators}; "
        f"tags {', '.join(state.tags)}{seats}"
    )


def map_tiles(board: list[StateView]) -> list[TileView]:
    """The board's states as tiles of the grid, in the board's order."""
    tiles = []
    for state in board:
        column, row = TILE_GRID[state.code]
        strong = " strong" if abs(state.lean) >= STRONG_LEAN else ""
        tiles.append(
            TileView(code=state.code, x=column, y=row, lean=f"{state.lean:+d}".replace("+0", "0"),
                     tone=state.tone + strong, mine=bool(state.mine), title=_title(state))
        )
    return tiles
