"""The luck on the pages: the season home's last section and each faction card, with their JSON
twins; the counts are checked against the stored battles themselves."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from fairfight.conquest.store import season

HTML = {"accept": "text/html"}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def _history(season_file: Path) -> list[dict[str, object]]:
    battles = season.summary(season_file).battles
    return [season.battle(season_file, n) for n in range(1, battles + 1)]


def test_the_season_home_ends_with_the_luck_of_the_season(client: TestClient,
                                                          season_file: Path) -> None:
    history = _history(season_file)
    html = client.get("/conquest/1", headers=HTML).text
    assert 'id="season-luck"' in html and "Luck of the season" in html
    section = html[html.index('id="season-luck"'):]
    assert html.index('id="season-luck"') > html.index('id="standings"')
    upsets = sum(1 for entry in history if entry["upset"])
    said = f"{upsets} upset{'s' if upsets != 1 else ''} in {len(history)} battles"
    assert said in _text(section) and "the chances said" in _text(section)
    assert len(re.findall(r'<li class="luck-rare"', section)) == 3
    view = client.get("/api/seasons/1").json()["luck"]
    assert view["sentence"].startswith(said)
    assert len(view["rarest"]) == 3


def test_the_faction_card_shows_its_wins_against_the_chances(client: TestClient,
                                                             season_file: Path) -> None:
    history = _history(season_file)
    code = str(history[0]["attacker"])
    fought = [e for e in history if code in (e["attacker"], e["defender"])]
    won = sum(1 for e in fought if e["winner"] == code)
    html = client.get(f"/conquest/1/factions/{code}", headers=HTML).text
    section = html[html.index('id="faction-luck"'):]
    assert f"Won {won} of {len(fought)}; the chances said " in _text(section)
    assert "fan power" in _text(section)
    card = client.get(f"/api/seasons/1/factions/{code}").json()
    assert card["luck"]["won"] == won and card["luck"]["battles"] == len(fought)
    assert card["luck"]["at_least"].startswith("0x")


def test_a_faction_with_no_battle_says_so(client: TestClient, season_file: Path) -> None:
    history = _history(season_file)
    fought = {str(e[role]) for e in history for role in ("attacker", "defender")}
    idle = sorted(set(season.summary(season_file).board["factions"]) - fought)
    assert idle  # the demo season is still running: most factions have not fought
    html = client.get(f"/conquest/1/factions/{idle[0]}", headers=HTML).text
    section = html[html.index('id="faction-luck"'):]
    assert "No battle fought yet." in _text(section)
    assert client.get(f"/api/seasons/1/factions/{idle[0]}").json()["luck"] is None
