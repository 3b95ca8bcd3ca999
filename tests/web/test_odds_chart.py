"""The title-odds chart: one labelled line per leading faction, drawn from the kept figures,
with a table that says the same thing in words."""

from __future__ import annotations

import re
from xml.etree import ElementTree

from fairfight.web.conquest.odds_chart import (
    CHART_FACTIONS,
    CHART_FONT_SIZE,
    LINE_STYLES,
    odds_chart,
)
from fairfight.web.templating import templates

SVG = "{http://www.w3.org/2000/svg}"


def _points(battles: int) -> list[tuple[int, dict[str, float]]]:
    """Seven factions; F0 rises to the lead, F6 is absorbed at battle 3."""
    points = []
    for b in range(battles + 1):
        chances = {f"F{i}": (0.10 + 0.01 * i) for i in range(7)}
        chances["F0"] = 0.05 + 0.05 * b
        chances["F6"] = 0.0 if b >= 3 else 0.2
        points.append((b, chances))
    return points


def _render(chart: object) -> str:
    macro = templates.env.get_template("conquest/_odds_chart.html").module.odds_chart
    return str(macro(chart, "chart"))


def test_the_leading_factions_get_one_line_each_with_their_latest_chance() -> None:
    points = _points(6)
    chart = odds_chart(points, {"F0": "Zero"}, title="Leaders")
    assert chart is not None
    latest = points[-1][1]
    expected = sorted(latest, key=lambda c: (-latest[c], c))[:CHART_FACTIONS]
    assert [line.faction for line in chart.lines] == expected
    assert chart.lines[0].label == "F0 35.0%"
    assert len({(line.colour, line.dash) for line in chart.lines}) == len(chart.lines)
    assert (chart.lines[0].colour, chart.lines[0].dash) == LINE_STYLES[0]


def test_the_svg_has_a_polyline_per_faction_at_the_right_heights() -> None:
    chart = odds_chart(_points(6), {}, title="Leaders")
    assert chart is not None
    html = _render(chart)
    svg = re.search(r"<svg.*?</svg>", html, re.S)
    assert svg is not None
    root = ElementTree.fromstring(svg.group(0).replace("<svg ", f'<svg xmlns="{SVG[1:-1]}" ', 1))
    groups = root.findall(f"{SVG}g")
    assert [g.get("data-faction") for g in groups] == [line.faction for line in chart.lines]
    for group in groups:
        line = group.find(f"{SVG}polyline")
        assert line is not None
        coords = [tuple(map(float, p.split(","))) for p in (line.get("points") or "").split()]
        assert len(coords) == 7  # battles 0..6
        assert group.find(f"{SVG}text") is not None
    # F0 goes from 5% to 35% on an axis topped at 50%: y falls by 30/50 of the plot height
    f0 = [tuple(map(float, p.split(","))) for p in chart.lines[0].points.split()]
    height = chart.plot_bottom - chart.plot_top
    assert abs((f0[0][1] - f0[-1][1]) - height * 0.30 / 0.50) < 0.2
    assert [t.text for t in chart.y_ticks] == ["0%", "12.5%", "25%", "37.5%", "50%"]
    assert root.find(f"{SVG}title") is not None and root.find(f"{SVG}desc") is not None
    assert 'role="img"' in svg.group(0)


def test_the_table_alternative_lists_every_kept_forecast() -> None:
    chart = odds_chart(_points(4), {}, title="Leaders")
    assert chart is not None
    html = _render(chart)
    table = re.search(r"<details.*?</details>", html, re.S)
    assert table is not None and "<table>" in table.group(0)
    rows = re.findall(r"<tr><th scope=\"row\" class=\"num\">(\d+)</th>(.*?)</tr>", table.group(0))
    assert [int(battle) for battle, _ in rows] == [0, 1, 2, 3, 4]
    cells = re.findall(r"<td class=\"num\">([^<]*)</td>", rows[-1][1])
    assert cells[0] == "25.0%" and len(cells) == len(chart.lines)


def test_one_factions_line_and_an_absorbed_faction_fall_to_zero() -> None:
    chart = odds_chart(_points(5), {"F6": "Six"}, ["F6"], title="Six")
    assert chart is not None and [line.faction for line in chart.lines] == ["F6"]
    ys = [float(p.split(",")[1]) for p in chart.lines[0].points.split()]
    assert ys[3:] == [chart.plot_bottom] * 3 and ys[0] < chart.plot_bottom
    assert odds_chart([], {}, title="none") is None


def test_labels_never_overlap() -> None:
    flat = [(b, {f"F{i}": 0.2 for i in range(5)}) for b in range(3)]
    chart = odds_chart(flat, {}, title="Tie")
    assert chart is not None
    heights = sorted(line.label_y for line in chart.lines)
    assert all(b - a >= CHART_FONT_SIZE for a, b in zip(heights, heights[1:], strict=False))
