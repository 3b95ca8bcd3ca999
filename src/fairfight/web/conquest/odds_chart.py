"""The title-odds chart: the leading factions' chances over the season, drawn on the server.

Every coordinate and label is worked out here from the kept forecasts, so the template
`_odds_chart.html` only writes them into an SVG and a table (the chart's text alternative).
The chart reads without JavaScript and without colour: each line has its own dash pattern and
its label at its end, on a white ground, in dark colours that keep a 7:1 contrast.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel, Field

__all__ = [
    "CHART_FACTIONS",
    "CHART_FONT_SIZE",
    "CHART_HEIGHT",
    "CHART_WIDTH",
    "ChartLine",
    "ChartRow",
    "ChartTick",
    "LINE_STYLES",
    "OddsChart",
    "odds_chart",
]

CHART_FACTIONS = 5
"""Lines on the season's chart: the factions with the highest title chance now."""
CHART_WIDTH, CHART_HEIGHT = 400, 260
"""The drawing's own units (it scales to the width it is given: about 0.8 of a pixel per
unit on a 390-pixel phone, so its 16-unit text reads at 13 pixels)."""
CHART_FONT_SIZE = 16
"""Text size in drawing units."""
_LEFT, _RIGHT, _TOP, _BOTTOM = 44, 134, 14, 44
_LABEL_GAP = 18
"""Least vertical distance between two line labels, in drawing units (one text line)."""
LINE_STYLES = (("#0b3d91", ""), ("#a3140f", "8 4"), ("#1b5e20", "2 4"),
               ("#5b1a8a", "10 4 2 4"), ("#6b3e00", "4 4"))
"""(stroke colour, dash pattern) of each line in turn: dark on white, told apart without colour."""
_STEPS = (0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1.0)


class ChartTick(BaseModel):
    """One axis tick: where it is and what it says."""

    at: float
    text: str


class ChartLine(BaseModel):
    """One faction's line: its points, and its label at the end of the line."""

    faction: str
    name: str
    colour: str
    dash: str
    points: str = Field(description="SVG polyline points, `x,y x,y …`")
    end_x: float
    end_y: float
    label_y: float
    label: str = Field(description="code and latest chance, e.g. `US-TX 23.4%`")


class ChartRow(BaseModel):
    """One kept forecast in the table alternative: the battle and each line's chance."""

    battle: int
    chances: list[str]


class OddsChart(BaseModel):
    """Everything the chart template writes: drawing, axes, lines and the table."""

    title: str
    description: str
    width: int = CHART_WIDTH
    height: int = CHART_HEIGHT
    font_size: int = CHART_FONT_SIZE
    plot_left: int = _LEFT
    plot_right: int = CHART_WIDTH - _RIGHT
    plot_top: int = _TOP
    plot_bottom: int = CHART_HEIGHT - _BOTTOM
    x_ticks: list[ChartTick]
    y_ticks: list[ChartTick]
    lines: list[ChartLine]
    rows: list[ChartRow]
    points: int = Field(description="forecasts kept (one per aired battle, 0 = before battle 1)")


def _percent(chance: float) -> str:
    return f"{chance * 100:.1f}%"


def _top_value(highest: float) -> float:
    """The smallest round chance at or above every plotted value (2% at least)."""
    return next(step for step in _STEPS if highest <= step + 1e-12)


def _battle_ticks(first: int, last: int) -> list[int]:
    span = max(1, last - first)
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000) if span / s <= 6)
    start = -(-first // step) * step
    return list(range(start, last + 1, step)) or [first]


def _spread(wanted: list[float], low: float, high: float) -> list[float]:
    """Label heights near `wanted`, each at least `_LABEL_GAP` from the next, in the box."""
    order = sorted(range(len(wanted)), key=lambda i: wanted[i])
    placed = [0.0] * len(wanted)
    floor = low
    for i in order:
        placed[i] = max(wanted[i], floor)
        floor = placed[i] + _LABEL_GAP
    overflow = (placed[order[-1]] - high) if order else 0.0
    if overflow > 0:
        for i in order:
            placed[i] = max(low, placed[i] - overflow)
    return placed


def odds_chart(points: Sequence[tuple[int, Mapping[str, float]]], names: Mapping[str, str],
               factions: Sequence[str] | None = None, *, title: str) -> OddsChart | None:
    """The chart of `factions` (default: the `CHART_FACTIONS` highest in the latest point)
    over `points` (battles fought, each faction's title chance); None with no points."""
    if not points:
        return None
    latest = points[-1][1]
    if factions is None:
        ranked = sorted(latest, key=lambda code: (-latest[code], code))
        factions = [code for code in ranked if latest[code] > 0][:CHART_FACTIONS]
    first, last = points[0][0], points[-1][0]
    highest = max((chances.get(code, 0.0) for _, chances in points for code in factions),
                  default=0.0)
    top = _top_value(highest)
    right, bottom = CHART_WIDTH - _RIGHT, CHART_HEIGHT - _BOTTOM

    def x(battle: int) -> float:
        return round(_LEFT + (right - _LEFT) * ((battle - first) / max(1, last - first)), 1)

    def y(chance: float) -> float:
        return round(bottom - (bottom - _TOP) * (chance / top), 1)

    lines = []
    for i, code in enumerate(factions):
        colour, dash = LINE_STYLES[i % len(LINE_STYLES)]
        coords = [(x(battle), y(chances.get(code, 0.0))) for battle, chances in points]
        lines.append(ChartLine(
            faction=code, name=names.get(code, code), colour=colour, dash=dash,
            points=" ".join(f"{px},{py}" for px, py in coords),
            end_x=coords[-1][0], end_y=coords[-1][1], label_y=coords[-1][1],
            label=f"{code} {_percent(latest.get(code, 0.0))}"))
    for line, placed in zip(lines, _spread([line.end_y + 5 for line in lines], _TOP + 5,
                                           bottom), strict=True):
        line.label_y = round(placed, 1)
    quarters = [top * k / 4 for k in range(5)]
    shown = ", ".join(line.label for line in lines)
    return OddsChart(
        title=title,
        description=(f"Title chance after each battle from {first} to {last}; "
                     f"latest: {shown}." if lines else "No faction has a title chance."),
        x_ticks=[ChartTick(at=x(b), text=str(b)) for b in _battle_ticks(first, last)],
        y_ticks=[ChartTick(at=y(q), text=f"{q * 100:g}%") for q in quarters],
        lines=lines,
        rows=[ChartRow(battle=battle, chances=[_percent(chances.get(code, 0.0))
                                               for code in factions])
              for battle, chances in points],
        points=len(points),
    )
