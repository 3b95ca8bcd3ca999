"""The calibration section of the forecast method: a reliability chart drawn on the server.

Built once per map from the shipped calibration file (`conquest.calibration_file`): forecast
chance across, how often it came true up, the diagonal a calibrated forecast would follow, one
dot per bin sized by how many forecasts it holds, with its 95% interval as a line; and the same
numbers as a table for screen readers and for anyone who wants them exactly. No script: the
SVG is plain markup in the page.
"""

from __future__ import annotations

import math
from functools import lru_cache

from markupsafe import Markup, escape
from pydantic import BaseModel, ConfigDict

from fairfight.conquest.forecast.calibration_file import CalibrationFile, shipped_calibration
from fairfight.plainwords import in_words

__all__ = [
    "CHART_HEIGHT",
    "CHART_WIDTH",
    "CalibrationRow",
    "CalibrationView",
    "MARGIN",
    "calibration_view",
    "reliability_svg",
]

CHART_WIDTH = 480
CHART_HEIGHT = 480
MARGIN = 56
"""Room around the plot for the axes' numbers and names (in SVG units)."""
_DOT_LARGEST, _DOT_SMALLEST = 14.0, 3.0


class CalibrationRow(BaseModel):
    """One bin as the table shows it."""

    model_config = ConfigDict(frozen=True)

    bin_text: str
    count: int
    wins: int
    mean_forecast: float
    observed: float
    mean_forecast_text: str
    observed_text: str
    observed_words: str
    interval_text: str
    interval: tuple[float, float]


class CalibrationView(BaseModel):
    """The calibration of one map's forecasts, ready for the page."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    map_name: str
    seasons: int
    forecast_seasons: int
    forecasts: int
    calibration_seed: str
    bins: int
    code_version: str
    rows: list[CalibrationRow]
    svg: Markup


def _percent(value: float) -> str:
    return f"{value * 100:.1f}%"


def _rows(data: CalibrationFile) -> list[CalibrationRow]:
    rows = []
    for tally in data.bins:
        if tally.count == 0 or tally.mean_forecast is None or tally.observed is None \
                or tally.interval is None:
            continue
        low, high = (float(end) for end in tally.interval)
        top = "]" if tally.bin == data.inputs.bins - 1 else ")"
        rows.append(CalibrationRow(
            bin_text=f"[{_percent(float(tally.low))}, {_percent(float(tally.high))}{top}",
            count=tally.count, wins=tally.wins,
            mean_forecast=float(tally.mean_forecast), observed=float(tally.observed),
            mean_forecast_text=_percent(float(tally.mean_forecast)),
            observed_text=_percent(float(tally.observed)),
            observed_words=in_words(tally.observed, estimated=True),
            interval_text=f"{_percent(low)} to {_percent(high)}", interval=(low, high),
        ))
    return rows


def _x(share: float) -> float:
    return MARGIN + share * (CHART_WIDTH - 2 * MARGIN)


def _y(share: float) -> float:
    return CHART_HEIGHT - MARGIN - share * (CHART_HEIGHT - 2 * MARGIN)


def reliability_svg(rows: list[CalibrationRow], title: str) -> Markup:
    """The reliability chart: axes with ticks every 20 points, the diagonal, a dot per bin
    (area by forecasts held) with its interval."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="reliability" '
        f'viewBox="0 0 {CHART_WIDTH} {CHART_HEIGHT}" role="img" '
        f'aria-labelledby="reliability-title"><title id="reliability-title">{escape(title)}'
        f'</title>',
        f'<rect x="{MARGIN}" y="{MARGIN}" width="{CHART_WIDTH - 2 * MARGIN}" '
        f'height="{CHART_HEIGHT - 2 * MARGIN}" fill="#ffffff" stroke="#595959"/>',
    ]
    for tick in range(0, 101, 20):
        share = tick / 100
        parts.append(
            f'<line x1="{_x(share):.1f}" y1="{_y(0):.1f}" x2="{_x(share):.1f}" '
            f'y2="{_y(1):.1f}" stroke="#e0e0e0"/>'
            f'<line x1="{_x(0):.1f}" y1="{_y(share):.1f}" x2="{_x(1):.1f}" '
            f'y2="{_y(share):.1f}" stroke="#e0e0e0"/>'
            f'<text x="{_x(share):.1f}" y="{_y(0) + 20:.1f}" text-anchor="middle" '
            f'font-size="14" fill="#222">{tick}%</text>'
            f'<text x="{_x(0) - 8:.1f}" y="{_y(share) + 5:.1f}" text-anchor="end" '
            f'font-size="14" fill="#222">{tick}%</text>')
    parts.append(
        f'<line class="diagonal" x1="{_x(0):.1f}" y1="{_y(0):.1f}" x2="{_x(1):.1f}" '
        f'y2="{_y(1):.1f}" stroke="#595959" stroke-dasharray="6 4"/>'
        f'<text x="{CHART_WIDTH / 2:.1f}" y="{CHART_HEIGHT - 12}" text-anchor="middle" '
        f'font-size="15" fill="#222">forecast title chance (mean of the bin)</text>'
        f'<text transform="translate(16 {CHART_HEIGHT / 2:.1f}) rotate(-90)" '
        f'text-anchor="middle" font-size="15" fill="#222">went on to win the title</text>')
    largest = max((row.count for row in rows), default=1)
    for row in rows:
        radius = max(_DOT_SMALLEST, _DOT_LARGEST * math.sqrt(row.count / largest))
        low, high = row.interval
        label = (f"forecasts {row.bin_text}: {row.count:,} forecasts, mean "
                 f"{row.mean_forecast_text}; {row.observed_text} came true "
                 f"(95% interval {row.interval_text})")
        parts.append(
            f'<g class="bin"><title>{escape(label)}</title>'
            f'<line x1="{_x(row.mean_forecast):.1f}" y1="{_y(low):.1f}" '
            f'x2="{_x(row.mean_forecast):.1f}" y2="{_y(high):.1f}" stroke="#1f4e79" '
            f'stroke-width="2"/>'
            f'<circle cx="{_x(row.mean_forecast):.1f}" cy="{_y(row.observed):.1f}" '
            f'r="{radius:.1f}" fill="#4e79a7" fill-opacity="0.75" stroke="#1f4e79"/></g>')
    parts.append("</svg>")
    return Markup("".join(parts))


@lru_cache(maxsize=8)  # keyed by a season's map name (a few shipped maps): a count bounds it
def calibration_view(map_name: str) -> CalibrationView | None:
    """The shipped calibration of a map, drawn (None when none was made for that map)."""
    data = shipped_calibration(map_name)
    if data is None:
        return None
    rows = _rows(data)
    title = (f"Reliability of the title odds on the {data.inputs.map_name} map: forecast "
             f"chance against how often it came true, {data.inputs.seasons:,} simulated "
             f"seasons")
    return CalibrationView(
        map_name=data.inputs.map_name, seasons=data.inputs.seasons,
        forecast_seasons=data.inputs.forecast_seasons, forecasts=data.forecasts,
        calibration_seed=data.inputs.calibration_seed, bins=data.inputs.bins,
        code_version=data.inputs.code_version, rows=rows,
        svg=reliability_svg(rows, title),
    )
