"""The attack panel on the play page draws both sides' strength after the clash as a small
chart, bars given by the panel value, and the chances of falling below each mark."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from fairfight.web import WebSettings, create_app
from tests.web.test_clash_retreat_marks import GARRISON
from tests.web.test_clash_seats import open_seats


@pytest.fixture
def app() -> FastAPI:
    return create_app(WebSettings(database_url="sqlite://"))


@pytest.fixture
def creator(app: FastAPI) -> Any:
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_the_panel_draws_both_distributions_and_the_falling_below_chances(
        app: FastAPI, creator: TestClient) -> None:
    game, _, red = open_seats(app, creator, scenario_data=GARRISON)
    page = red.get(f"/clash/play/{game}", params={"select": "r-tank", "mode": "assault",
                                                  "target": "1,0"}).text
    charts = re.findall(r'<figure class="cp-chart" data-side="(\w+)">(.*?)</figure>', page,
                        re.S)
    assert [side for side, _ in charts] == ["they", "you"]
    for side, chart in charts:
        draws = [int(n) for n in re.findall(r"<title>strength \d+: (\d+) of 1000 draws", chart)]
        assert len(draws) == chart.count('class="cp-bar') and sum(draws) == 1000
        assert re.search(r'role="img" aria-label="[^"]+: strength \d+ before, after the clash',
                         chart)
        who = "they" if side == "they" else "you"
        assert f"Chance {who} are destroyed: <strong>" in chart
    assert re.search(r"Chance they fall below 50: <strong>[a-z ]+</strong> "
                     r'<span class="num">\(\d+‰\)', page)
