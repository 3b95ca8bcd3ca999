"""The end of a season and the fan's words: the champion, no title odds once decided,
episodes numbered by battle, names in headings, a confirmation that says what was recorded."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.store import season
from tests.conquest.helpers import SEED, star_map
from tests.web.conquest_support import make_app

HTML = {"accept": "text/html"}
NAMES = {region["code"]: region["name"] for region in star_map()["regions"]}


@pytest.fixture
def finished(tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    """A whole season on the five-region star map, fought to its end."""
    path = tmp_path / "star.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    list(season.fight(path, None))
    with TestClient(make_app(path, forecast_seasons=50), raise_server_exceptions=False) as client:
        yield client, path


def _owners(path: Path) -> Counter[str]:
    return Counter(region["owner"] for region in season.summary(path).board["regions"].values())


def test_the_champion_is_announced_on_the_home_and_the_last_episode(
        finished: tuple[TestClient, Path]) -> None:
    client, path = finished
    (code, held), = _owners(path).most_common(1)  # no battle cap: one faction holds all five
    assert held == 5
    battles = season.summary(path).battles
    words = (f"{NAMES[code]} ({code}) is the champion: 5 regions held when the season ended "
             f"after {battles} battles.")
    home = client.get("/conquest/1", headers=HTML).text
    assert re.search(r'id="champion"[^>]*><strong>(.*?)</strong>', home).group(1) == words
    last = client.get(f"/conquest/1/battles/{battles}", headers=HTML).text
    assert words in last
    if battles > 1:
        assert 'id="champion"' not in client.get("/conquest/1/battles/1", headers=HTML).text
    assert client.get("/api/seasons/1").json()["champion"] == code


def test_title_odds_are_gone_once_the_title_is_decided(
        finished: tuple[TestClient, Path]) -> None:
    client, _ = finished
    home = client.get("/conquest/1", headers=HTML).text
    assert 'id="title-odds"' not in home and "title-chance" not in home
    assert "before it is fought" not in home and 'data-status="decided"' in home
    assert client.get("/api/seasons/1/forecast").json()["status"] == "decided"


def test_episodes_are_numbered_by_battle_and_headed_with_names(
        finished: tuple[TestClient, Path]) -> None:
    client, path = finished
    history = [season.battle(path, n) for n in range(1, season.summary(path).battles + 1)]
    home = client.get("/conquest/1", headers=HTML).text
    latest = re.findall(r'<li class="battle-line" data-number="(\d+)" value="(\d+)">', home)
    assert latest and all(number == value for number, value in latest)
    assert [int(n) for n, _ in latest] == [e["number"] for e in reversed(history)][:len(latest)]
    first = history[0]
    page = client.get("/conquest/1/battles/1", headers=HTML).text
    title = re.search(r'<h1 id="episode-title">(.*?)</h1>', page).group(1)
    attacker, defender = first["attacker"], first["defender"]
    if first["kind"] == "regular":
        assert title == (f"Battle 1: {NAMES[attacker]} ({attacker}) attacks "
                         f"{NAMES[defender]} ({defender})")
    assert f"<strong>{NAMES[first['winner']]}</strong>" in page


def test_the_confirmation_says_amount_faction_and_battle(client: TestClient,
                                                        season_file: Path) -> None:
    summary = season.summary(season_file)
    due = summary.board["next_battle"]
    code = next(c for c, f in sorted(summary.board["factions"].items())
                if f["standing"] and f["pool"] == 0 and f["pool_state"] == "open"
                and all(e["faction"] != c for e in summary.ledger))
    name = next(r["name"] for r in summary.map_data["regions"] if r["code"] == code)
    posted = client.post(f"/conquest/1/factions/{code}/contribute", headers=HTML,
                         data={"amount": "10", "idempotency_key": "confirm-1"})
    seq = season.summary(season_file).ledger[-1]["seq"]
    assert posted.status_code == 200  # after the redirect
    said = re.search(r'id="contribution-recorded"[^>]*>(.*?)<', posted.text, re.S).group(1)
    assert " ".join(said.split()) == (f"Recorded: $10 for {name} ({code}), counted in battle "
                                      f"{due} (ledger entry {seq}). Thank you.")
    assert 'id="receipt-link"' in posted.text
    head_size = client.get(f"/api/seasons/1/receipts/{seq}").json()["head"]["size"]
    assert (f'id="receipt-checkpoint-link" href="/api/seasons/1/checkpoint?size={head_size}"'
            in posted.text)
    listed = re.search(r'id="faction-contributions".*?</section>', posted.text, re.S).group(0)
    assert f'<tr data-seq="{seq}"><td class="num">{seq}</td><td class="num">$10</td>' \
           f'<td class="num">{due}</td></tr>' in listed
    neighbour = next(c for c in sorted(summary.board["factions"]) if c != code)
    other = client.get(f"/conquest/1/factions/{neighbour}?added={seq}", headers=HTML)
    assert other.status_code == 200  # another faction's entry is not confirmed there
    assert 'id="contribution-recorded"' not in other.text


def test_odds_read_as_people_write_them(season_file: Path) -> None:
    app = make_app(season_file, forecast_seasons=200)
    with TestClient(app) as client:
        client.get("/conquest/1")
        app.state.conquest.forecasts.settle()
        home = client.get("/conquest/1", headers=HTML).text
        body = client.get("/api/seasons/1/forecast").json()
        schema = client.get("/openapi.json").json()["components"]["schemas"]["ForecastView"]
    odds = re.search(r'id="title-odds".*?</section>', home, re.S).group(0)
    assert not re.search(r"\d\.\d{4,}", odds), odds  # no "9.180000"
    line = body["factions"][0]
    assert line["expected_regions_text"] == f"{float(line['expected_regions']):.1f}"
    assert isinstance(body["battles_left"], int)
    documented = schema["properties"]["battles_left"]["description"]
    assert "summed over all simulated seasons" in documented
