"""The strength-after chart is laid out in the panel value, so a page only draws it: one bar
per strength reached, placed by strength, as tall as its share of the 1000 draws [CB-2160]."""

from __future__ import annotations

from fairfight.clash.evaluation import evaluate
from fairfight.clash.fog import FogRequest
from fairfight.clash.panel_strength import CHART_HEIGHT, CHART_WIDTH, strength_chart

from .test_distribution import CASES, brute


def test_the_chart_has_a_bar_for_every_strength_reached_scaled_to_its_draws() -> None:
    worked = CASES[0]
    panel = evaluate(worked, FogRequest(())).panel
    defender, _ = brute(worked)
    chart = panel.their_strength_after.chart
    assert [(b.strength, b.draws) for b in chart.bars] == sorted(defender.items())
    tallest = max(defender.values())
    for bar in chart.bars:
        assert bar.y + bar.height == CHART_HEIGHT          # every bar stands on the axis
        assert bar.height == max(1, int(bar.draws * CHART_HEIGHT / tallest + 0.5))
        assert bar.x >= 0 and bar.x + bar.width <= CHART_WIDTH
    xs = [bar.x for bar in chart.bars]
    assert xs == sorted(xs) and len(set(xs)) == len(xs)   # strength runs left to right
    assert [(m.below, m.label) for m in chart.marks] == [(75, ""), (50, "50"), (25, "25")]
    assert chart.label.startswith(f"{panel.their_strength_after.unit}: strength 78 before")


def test_the_chart_places_strength_on_a_fixed_axis_from_zero_to_the_strength_before() -> None:
    chart = strength_chart("scouts", 10, ((0, 300), (5, 100), (10, 600)), (1,))
    width = chart.bars[0].width
    assert [b.x for b in chart.bars] == [0, int(5 * (CHART_WIDTH - width) / 10 + 0.5),
                                         CHART_WIDTH - width]
    assert [b.height for b in chart.bars] == [24, 8, 48]
    assert chart.marks == []   # "destroyed" has no mark on the axis
    assert chart.label == ("scouts: strength 10 before, after the clash from 0 to 10; "
                           "most likely 10 (600 of 1000 draws)")
    assert strength_chart("x", 4, ((4, 1000),), (1,)).label.endswith("always 4; most "
                                                                     "likely 4 (1000 of "
                                                                     "1000 draws)")


def test_a_mark_next_to_either_end_of_the_axis_goes_unlabelled() -> None:
    chart = strength_chart("rifles", 78, ((40, 500), (52, 500)), (75, 50, 25, 1))
    assert [(m.below, m.label) for m in chart.marks] == [(75, ""), (50, "50"), (25, "25")]
