"""The conquest pages: every figure shown is the engine's, checked against the stored season."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from fastapi.testclient import TestClient

from fairfight.conquest.rules import episodes, tables
from fairfight.conquest.rules_page import rules_context
from fairfight.conquest.store import season
from fairfight.web.conquest import episode_views, views
from fairfight.web.conquest.catalog import SNAPSHOT_VIEWS_BYTES, SeasonCatalog
from fairfight.web.conquest.database import SeasonDatabase

HTML = {"accept": "text/html"}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_home_shows_commitment_standings_latest_and_map(client: TestClient,
                                                         season_file: Path) -> None:
    summary = season.summary(season_file)
    page = client.get("/conquest/1", headers=HTML)
    assert page.status_code == 200
    html = page.text
    assert summary.commitment in html
    assert summary.header["engine_version"] in html
    assert 'id="standings"' in html and 'id="map"' in html and 'id="latest"' in html
    leader = season.standings(summary)[0]
    row = re.search(rf'<tr data-faction="{leader.faction}".*?</tr>', html, re.S)
    assert row is not None
    assert f"{leader.people:,}" in row.group(0)
    assert episodes.power_text(leader.power) in row.group(0)
    assert "<script src=\"/static/conquest/live.js\"" in html
    assert "<script>" not in html


def test_the_front_page_is_the_newest_season_home(client: TestClient,
                                                 season_file: Path) -> None:
    """`curl http://127.0.0.1:8000/` after `make run` answers with the show itself."""
    page = client.get("/", headers=HTML)
    assert page.status_code == 200
    assert 'id="standings"' in page.text
    assert season.summary(season_file).commitment in page.text


def test_episode_of_the_fan_clash(client: TestClient, season_file: Path,
                                  arranged: dict[str, object]) -> None:
    number = arranged["fan_clash_battle"]
    assert isinstance(number, int)
    entry = season.battle(season_file, number)
    assert entry["reason"] == "FAN CLASH"
    html = client.get(f"/conquest/1/battles/{number}", headers=HTML).text
    assert 'class="banner banner-fan-clash"' in html
    for bar in ("before", "after"):
        chance = Fraction(entry["battle_chance"][bar])
        figure = re.search(rf'<figure class="odds" id="odds-{bar}" data-permille="(\d+)">', html)
        assert figure is not None and int(figure.group(1)) == int(chance * 1000)
        assert f"{float(chance) * 100:.2f}%" in html
    # five rounds, each decided by comparing the draw's high 32 bits with the chance applied
    rows = re.findall(r'<tr class="round round-(attacker|defender)"', html)
    assert len(rows) == 5
    draws = {d["index"]: d["value"] for d in entry["draws"]}
    for shown, winner in zip(entry["rounds"], rows, strict=True):
        applied = Fraction(shown["after"]) * 2**32
        assert applied.denominator == 1
        won = (draws[shown["draw_index"]] >> 32) < applied
        assert winner == ("attacker" if won else "defender")
        assert f"Q = {int(applied):,}" in html
    assert len(re.findall(r'<td class="num mono">\d+</td>', html)) == 8
    for draw in entry["draws"]:
        assert str(draw["value"]) in html
    assert 'id="map"' in html


def test_every_episode_renders_and_banners_follow_the_record(client: TestClient,
                                                             season_file: Path) -> None:
    fought = season.summary(season_file).battles
    for entry in (season.battle(season_file, n) for n in range(1, fought + 1)):
        html = client.get(f"/conquest/1/battles/{entry['number']}", headers=HTML).text
        assert ("banner-upset" in html) == entry["upset"]
        assert ("banner-rebellion" in html) == (entry["kind"] == "bonus")
        assert f"reason <strong id=\"reason\">{entry['reason']}</strong>" in html
        for code in entry["changed_hands"]:
            assert f'<span class="region changed" data-region="{code}"' in html


def test_faction_card_shows_special_source_pool_and_a_fresh_form_key(
    client: TestClient, season_file: Path
) -> None:
    summary = season.summary(season_file)
    code = next(c for c, f in summary.board["factions"].items()
                if f["standing"] and f["pool_state"] == "open")
    region = next(r for r in summary.map_data["regions"] if r["code"] == code)
    first = client.get(f"/conquest/1/factions/{code}", headers=HTML).text
    second = client.get(f"/conquest/1/factions/{code}", headers=HTML).text
    assert region["special"]["name"].replace("'", "&#39;") in first
    assert region["special"]["source_status"] in first
    assert 'id="contribute-form"' in first and 'id="pool-amount"' in first
    key = re.compile(r'name="idempotency_key" value="([^"]+)"')
    assert key.search(first).group(1) != key.search(second).group(1)  # type: ignore[union-attr]


def test_rules_page_is_html_from_the_engine_constants(client: TestClient) -> None:
    html = client.get("/conquest/rules", headers=HTML).text
    context = rules_context()
    assert "<table>" in html and "<h1>" in html
    for key in ("clamp_low", "clamp_high", "upset", "morale_cap", "home", "sea"):
        assert str(context[key]) in _text(html)
    assert context["version"] == tables.ENGINE_VERSION and tables.ENGINE_VERSION in html


def test_verify_page_before_and_after_the_reveal(client: TestClient, season_file: Path) -> None:
    before = client.get("/conquest/1/verify", headers=HTML).text
    assert 'id="not-revealed"' in before and 'id="verify-steps"' not in before
    assert client.get("/conquest/1/record.zip").status_code == 409
    list(season.fight(season_file, None))
    seed = season.reveal(season_file)
    after = client.get("/conquest/1/verify", headers=HTML).text
    assert seed in after
    assert after.count("✓") >= 3 and "✗" not in after
    assert "python3 -S -m fairfight.conquest.record.verifier verify" in after
    download = client.get("/conquest/1/record.zip")
    assert download.status_code == 200 and download.content[:2] == b"PK"


def test_unknown_things_are_404_pages(client: TestClient) -> None:
    for path in ("/conquest/9", "/conquest/1/battles/999", "/conquest/1/factions/NOPE",
                 "/conquest/1/battles/0"):
        page = client.get(path, headers=HTML)
        assert page.status_code == 404 and "<html" in page.text, path


def test_season_list_page_links_the_season(client: TestClient) -> None:
    html = client.get("/conquest", headers=HTML).text
    assert 'href="/conquest/1"' in html
    assert 'href="/conquest"' in client.get("/", headers=HTML).text


def test_the_result_line_counts_each_side_s_rounds(client: TestClient, season_file: Path) -> None:
    """The tally is counted here from the rounds' winners, not read from the view."""
    fought = season.summary(season_file).battles
    for number in range(1, fought + 1):
        entry = season.battle(season_file, number)
        won = [shown["winner"] for shown in entry["rounds"]]
        html = client.get(f"/conquest/1/battles/{number}", headers=HTML).text
        tally = f"({won.count('attacker')}–{won.count('defender')} in rounds for the attacker)"
        assert tally in html, number
        episode = client.get(f"/api/seasons/1/battles/{number}").json()
        assert episode["defender_rounds"] == won.count("defender")


def test_the_card_offers_the_amounts_the_ledger_accepts(
    client: TestClient, season_file: Path
) -> None:
    """[§6] a pool takes $5 steps up to its $50 cap: after $15, the card offers $5 to $35."""
    summary = season.summary(season_file)
    next_battle = summary.board["next_battle"]
    due = {e["faction"] for e in summary.ledger if e["before_battle"] == next_battle}
    code = next(c for c, f in sorted(summary.board["factions"].items())
                if f["standing"] and f["pool_state"] == "open" and f["pool"] == 0 and c not in due)
    before = client.get(f"/api/seasons/1/factions/{code}").json()
    assert before["amounts"] == [5, 10, 15, 20, 25, 30, 35, 40, 45, 50]
    added = client.post("/api/seasons/1/contributions", json={"faction": code, "amount": 15},
                        headers={"Idempotency-Key": "card-amounts"})
    assert added.status_code == 201
    after = client.get(f"/api/seasons/1/factions/{code}").json()
    assert after["amounts"] == [5, 10, 15, 20, 25, 30, 35]
    assert after["pool_note"].startswith("$15: spent in this faction's next regular battle")


def test_a_snapshots_views_are_kept_within_its_byte_budget(season_file: Path) -> None:
    """The views memoised for the battles fought (episodes, one per battle, however long the
    season) are held by bytes like every other cache, and the season home's view once per
    version: built once, then the kept one is served."""
    catalog = SeasonCatalog(SeasonDatabase(f"sqlite:///{season_file}"))
    try:
        snap = catalog.snapshot(1)
        assert snap.fought.max_bytes == snap.views.max_bytes == SNAPSHOT_VIEWS_BYTES
        first = [episode_views.episode(snap, n) for n in range(1, len(snap.history) + 1)]
        home = views.season_view(snap, payments_only=False)
        assert 0 < snap.fought.bytes_used <= SNAPSHOT_VIEWS_BYTES
        assert [episode_views.episode(snap, n) for n in range(1, len(first) + 1)] == first
        assert all(again is kept for again, kept in zip(
            [episode_views.episode(snap, n) for n in range(1, len(first) + 1)], first,
            strict=True))
        assert views.season_view(snap, payments_only=False) is home
    finally:
        catalog.close()


def test_home_puts_what_is_next_first_and_the_proof_last(
        client: TestClient, season_file: Path, arranged: dict[str, object]) -> None:
    """Issue 30: what is next, the latest episode and the leaders first; the hashes last,
    folded; the waiting rebellion by its name, its code beside it."""
    html = client.get("/conquest/1", headers=HTML).text
    places = [html.index(f'id="{name}"') for name in
              ("season-header", "latest", "leaders", "show-all", "map", "check-season")]
    assert places == sorted(places)
    summary = season.summary(season_file)
    assert html.count(summary.commitment) == 1
    assert html.index(summary.commitment) > html.index('<details class="card check-season"')
    rebel = str(arranged["rebellion_waiting"])
    region = next(r for r in summary.map_data["regions"] if r["code"] == rebel)
    rising = re.search(r'<ul class="notice" id="waiting-rebellions">.*?</ul>', html, re.S)
    assert rising is not None
    assert re.search(rf">{re.escape(region['name'])}</a> <span class=\"muted code\">{rebel}</span>"
                     " rises against ", rising.group(0))
    leaders = re.search(r'<ol class="leaders">.*?</ol>', html, re.S)
    assert leaders is not None and leaders.group(0).count("<li ") == 10


def test_the_overlay_reloads_itself_without_a_script_and_has_no_site_chrome(
        client: TestClient) -> None:
    html = client.get("/conquest/1/overlay", headers=HTML).text
    assert '<noscript><meta http-equiv="refresh" content="30"></noscript>' in html
    assert "<nav" not in html and "<header" not in html and "<footer" not in html
    assert '<script src="/static/conquest/live.js" defer></script>' in html
    assert 'data-page="overlay"' in html and "<script>" not in html
