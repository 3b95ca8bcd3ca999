"""The season verify page shows the beacon timing as its own step: ✓, ✗ or not checked.

Quicknet round r comes out at 1692803367 + (r − 1) × 3 unix seconds; the header below is
published at 2024-05-01T12:00:00Z = 1714564800, and round 7255012 comes out at 1714568400,
an hour later (2024-05-01T13:00:00Z).
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.store import season
from tests.conquest.helpers import SEED, star_map
from tests.web.conquest_support import make_app, store_unchecked_beacon

HTML = {"accept": "text/html"}
PUBLISHED = datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC)
AN_HOUR_LATER = 7255012
TITLE = "the beacon round came out after the commitment was published"


def _set_header(path: Path, **changes: object) -> None:
    """Change the stored header as a careless or dishonest operator might."""
    connection = sqlite3.connect(path)
    try:
        header = json.loads(connection.execute("SELECT header FROM season").fetchone()[0])
        for key, value in changes.items():
            if value is None:
                header.pop(key, None)
            else:
                header[key] = value
        text = json.dumps(header, sort_keys=True, separators=(",", ":"))
        connection.execute("UPDATE season SET header = ?", (text,))
        connection.commit()
    finally:
        connection.close()


@pytest.fixture
def beacon_season(tmp_path: Path) -> Path:
    path = tmp_path / "beacon.db"
    season.create_season(
        path, star_map(), "star", seed=SEED, beacon_round=AN_HOUR_LATER, published=PUBLISHED
    )
    store_unchecked_beacon(path, "ab" * 32)  # no real round of that time is at hand
    list(season.fight(path, None))
    season.reveal(path)
    return path


def _timing_step(path: Path) -> tuple[str, str]:
    """(verdict mark, text) of the timing step on the season's verify page."""
    with TestClient(make_app(path), raise_server_exceptions=False) as client:
        html = client.get("/conquest/1/verify", headers=HTML).text
    steps = re.findall(r'<li class="[^"]*"><span class="verdict"[^>]*>(.)</span>(.*?)</li>',
                       html, re.S)
    found = [(mark, re.sub(r"<[^>]+>", " ", text)) for mark, text in steps if TITLE in text]
    assert len(found) == 1, html
    return found[0]


def test_the_timing_step_passes_showing_both_times(beacon_season: Path) -> None:
    mark, text = _timing_step(beacon_season)
    assert mark == "✓"
    assert "quicknet round 7255012 came out at 2024-05-01T13:00:00Z" in text
    assert "3600 s after header.published 2024-05-01T12:00:00Z" in text


def test_the_timing_step_fails_when_the_round_came_first(beacon_season: Path) -> None:
    _set_header(beacon_season, published="2024-05-01T13:00:00Z")  # the round's own second
    mark, text = _timing_step(beacon_season)
    assert mark == "✗"
    assert "field beacon.round" in text
    assert "not after header.published 2024-05-01T13:00:00Z" in text


def test_an_older_header_without_a_time_is_not_checked(beacon_season: Path) -> None:
    _set_header(beacon_season, published=None)
    mark, text = _timing_step(beacon_season)
    assert mark == "–"
    assert "publication time not recorded: the beacon timing cannot be checked" in text


@pytest.fixture
def plain_client(season_file: Path) -> Iterator[TestClient]:
    list(season.fight(season_file, None))
    season.reveal(season_file)
    with TestClient(make_app(season_file), raise_server_exceptions=False) as client:
        yield client


def test_a_season_without_a_beacon_has_no_timing_step(plain_client: TestClient) -> None:
    html = plain_client.get("/conquest/1/verify", headers=HTML).text
    assert 'id="verify-steps"' in html and TITLE not in html


def test_the_season_home_shows_when_the_header_was_published(beacon_season: Path) -> None:
    with TestClient(make_app(beacon_season), raise_server_exceptions=False) as client:
        html = client.get("/conquest/1", headers=HTML).text
        body = client.get("/api/seasons/1").json()
    assert '<span class="mono" id="published">2024-05-01T12:00:00Z</span>' in html
    assert "quicknet round 7255012" in html
    assert body["published"] == "2024-05-01T12:00:00Z"
