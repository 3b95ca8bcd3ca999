"""A side's strength after the clash as the panel shows it: the whole distribution over the
1000 draws, the chance of falling below each quarter mark, and a small chart laid out here,
so a page draws bars it is given and computes nothing [CB-2160].
"""

from __future__ import annotations

from fairfight.clash.distribution import StrengthAfter
from fairfight.clash.panel_model import (
    BelowChance,
    ChartBar,
    ChartMark,
    StrengthAfterView,
    StrengthChart,
    StrengthCount,
)
from fairfight.clash.verdict import chance_words

__all__ = [
    "CHART_HEIGHT",
    "CHART_WIDTH",
    "FALL_BELOW_MARKS",
    "LABEL_ROOM",
    "strength_after_view",
    "strength_chart",
]

FALL_BELOW_MARKS = (75, 50, 25)
"""The strengths the panel gives a falling-below chance for (with "below 1": destroyed)."""

CHART_WIDTH = 240
"""Width of the strength-after chart's box, in the drawing's units."""
CHART_HEIGHT = 48
"""Height of the tallest bar."""
LABEL_ROOM = 24
"""Room a figure under the axis needs: a mark closer to either end goes unlabelled."""


def _nearest(value: int, scale: int, whole: int) -> int:
    """value * scale / whole to the nearest integer, halves up, in integers only."""
    return (2 * value * scale + whole) // (2 * whole)


def strength_chart(unit: str, before: int, counts: tuple[tuple[int, int], ...],
                   marks: tuple[int, ...]) -> StrengthChart:
    """Bars for every strength reached (0 at the left, `before` at the right), the tallest
    full height and none under a pixel, with the falling-below marks on the axis."""
    span = max(before, 1)
    bar = max(2, CHART_WIDTH // (span + 1))
    tallest = max((draws for _, draws in counts), default=1)

    def x_of(strength: int) -> int:
        return _nearest(strength, CHART_WIDTH - bar, span)

    bars = []
    for strength, draws in counts:
        height = max(1, _nearest(draws, CHART_HEIGHT, tallest))
        bars.append(ChartBar(strength=strength, draws=draws, x=x_of(strength),
                             y=CHART_HEIGHT - height, width=bar, height=height))
    likeliest, most = max(counts, key=lambda count: (count[1], -count[0]))
    low, high = counts[0][0], counts[-1][0]
    spread = f"from {low} to {high}" if low != high else f"always {low}"
    return StrengthChart(
        width=CHART_WIDTH, height=CHART_HEIGHT, bars=bars,
        marks=[ChartMark(below=mark, x=x_of(mark),
                         label=str(mark) if LABEL_ROOM <= x_of(mark) <= CHART_WIDTH - LABEL_ROOM
                         else "") for mark in marks if mark > 1],
        label=f"{unit}: strength {before} before, after the clash {spread}; most likely "
              f"{likeliest} ({most} of 1000 draws)")


def strength_after_view(side: str, unit: str, before: int,
                        counts: tuple[tuple[int, int], ...]) -> StrengthAfterView:
    """One side's distribution, falling-below chances and chart, as the panel shows them."""
    marks = (*(mark for mark in FALL_BELOW_MARKS if mark < before), 1)
    below = []
    for mark in marks:
        permille = StrengthAfter.below(counts, mark)
        what = "destroyed" if mark == 1 else f"below {mark}"
        below.append(BelowChance(below=mark, permille=permille, words=chance_words(permille),
                                 text=f"{what}: {chance_words(permille)} ({permille}‰)"))
    return StrengthAfterView(
        side=side, unit=unit, before=before,
        after=[StrengthCount(strength=value, draws=draws) for value, draws in counts],
        falls_below=below, chart=strength_chart(unit, before, counts, marks))
