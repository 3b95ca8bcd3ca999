"""Frequency words beside the percentages, the forecast's method note and its calibration
section, as the pages show them."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from fairfight.conquest.forecast.calibration_file import shipped_calibration
from fairfight.plainwords import in_words
from tests.web.conquest_support import make_app

SEASONS = 400
FORECAST_SEED = "words-test"


@pytest.fixture
def odds_app(season_file: Path) -> FastAPI:
    return make_app(season_file, forecast_seasons=SEASONS, forecast_seed=FORECAST_SEED)


@pytest.fixture
def odds_client(odds_app: FastAPI) -> Iterator[TestClient]:
    with TestClient(odds_app, raise_server_exceptions=False) as test_client:
        test_client.get("/conquest/1")  # queue the forecast
        odds_app.state.conquest.forecasts.settle()
        yield test_client


def _words(text: str) -> list[str]:
    return [html.unescape(w) for w in re.findall(r'<span class="in-words">\(([^)]*)\)</span>',
                                                  text)]


def test_every_title_chance_on_the_home_page_has_its_words(odds_client: TestClient) -> None:
    odds = odds_client.get("/api/seasons/1/forecast").json()
    assert odds["status"] == "ready"
    page = odds_client.get("/conquest/1").text
    listed = [line for line in odds["factions"] if line["listed"]]
    assert listed
    for line in listed:
        words = in_words(line["title_chance"], estimated=True)
        assert f'{line["title_text"]} <span class="in-words">({words})</span>' in page
    # the battle lines' exact chances may be "certain" (a secured win); the odds never are
    shown = _words(re.sub(r'<li class="battle-line".*?</li>', "", page, flags=re.S))
    assert "certain" not in shown and "impossible" not in shown  # simulated shares never are


def test_the_faction_card_says_its_chances_in_words(odds_client: TestClient) -> None:
    odds = odds_client.get("/api/seasons/1/forecast").json()
    line = next(line for line in odds["factions"] if line["titles"])
    card = odds_client.get(f"/conquest/1/factions/{line['faction']}").text
    title = re.search(r'<dd id="title-chance">(.*?)</dd>', card, re.S)
    assert title is not None
    assert f"({in_words(line['title_chance'], estimated=True)})" in html.unescape(title.group(1))


def test_the_odds_bar_reads_the_exact_battle_chance(client: TestClient,
                                                    arranged: dict[str, object]) -> None:
    secured = arranged["secured_battle"]
    assert isinstance(secured, int)
    for number in (1, secured):
        entry = client.get(f"/api/seasons/1/battles/{number}").json()
        page = client.get(f"/conquest/1/battles/{number}").text
        before = Fraction(entry["odds"]["before"])
        after = Fraction(entry["odds"]["after"])
        figures = re.findall(r'<figcaption>.*?</figcaption>', page, re.S)
        assert f"({in_words(before)})" in html.unescape(figures[0])
        assert f"({in_words(after)})" in html.unescape(figures[1])
    after = Fraction(client.get(f"/api/seasons/1/battles/{secured}").json()["odds"]["after"])
    assert after in (0, 1)  # a secured win: the only exact certainty on the show
    secured_page = html.unescape(client.get(f"/conquest/1/battles/{secured}").text)
    assert ("(certain)" if after == 1 else "(impossible)") in secured_page


def test_the_method_note_says_what_a_chance_is_and_how_it_was_made(
        odds_client: TestClient) -> None:
    odds = odds_client.get("/api/seasons/1/forecast").json()
    page = html.unescape(odds_client.get("/conquest/1").text)
    note = page[page.index('id="forecast-method"'):]
    assert "wins this season's title" in note
    assert "as the next battle will see it" in note
    assert f"battle {odds['as_of_battle']}, before it is fought" in note
    assert f"{SEASONS:,} simulated seasons" in note
    assert odds["forecast_seed"] in note and odds["forecast_seed"].startswith(FORECAST_SEED)
    assert "95% interval" in note and "Wilson" in note
    assert 'href="#forecast-calibration"' in note and 'id="forecast-calibration"' in note
    assert "about 1 in N" in note


def test_the_calibration_chart_and_table_come_from_the_shipped_file(
        odds_client: TestClient) -> None:
    data = shipped_calibration("north-america")
    assert data is not None
    page = odds_client.get("/conquest/1").text
    section = page[page.index('id="forecast-calibration"'):]
    chart = re.search(r'<svg xmlns="http://www.w3.org/2000/svg" class="reliability".*?</svg>',
                      section, re.S)
    assert chart is not None
    svg = ET.fromstring(chart.group(0))
    ns = "{http://www.w3.org/2000/svg}"
    filled = [b for b in data.bins if b.count]
    dots = list(svg.iter(f"{ns}circle"))
    assert len(dots) == len(filled)
    assert svg.find(f"{ns}title") is not None and svg.attrib["role"] == "img"
    diagonal = next(line for line in svg.iter(f"{ns}line")
                    if line.attrib.get("class") == "diagonal")
    assert float(diagonal.attrib["x1"]) < float(diagonal.attrib["x2"])
    assert float(diagonal.attrib["y1"]) > float(diagonal.attrib["y2"])  # up to the right
    rows = re.findall(r"<tr><td>\[", section)
    assert len(rows) == len(filled)
    assert f"{data.inputs.seasons:,} simulated seasons" in section
    for tally in filled:  # the table's counts are the file's
        assert f'<td class="num">{tally.count:,}</td>' in section


def test_the_winners_chance_in_the_battle_lines_has_its_words(odds_client: TestClient) -> None:
    """The battle lines ("X beat Y at 32.4%") on the home page and the embed's latest line say
    the exact battle chance in words too; an exact chance of 1 (a secured win) is "certain"."""
    home = odds_client.get("/conquest/1").text
    embed = odds_client.get("/embed/seasons/1").text
    lines = re.findall(r'<li class="battle-line".*?</li>', home, re.S)
    assert lines
    for text in [*lines, embed]:
        found = re.search(r'beat .*? at ([0-9.]+)% <span class="in-words">\(([^)]*)\)</span>',
                          text, re.S)
        assert found is not None
        percent, words = float(found.group(1)), html.unescape(found.group(2))
        if words == "certain":
            assert percent == 100.0
        else:
            assert words.startswith(("about ", "fewer ", "more ")) and percent < 100.0
