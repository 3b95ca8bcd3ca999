"""Title odds on the show's pages: made in the background, never from the secret seed,
refreshed after an aired battle, and the fan form's pool effect on common random numbers."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from fairfight.conquest.forecast.title_odds import forecast, pool_effect
from fairfight.conquest.rules import engine, scenario
from fairfight.conquest.store import season
from fairfight.web.byte_cache import deep_size
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.database import SeasonDatabase
from fairfight.web.conquest.forecasts import ForecastCache
from fairfight.web.conquest.live import Broadcaster
from tests.web.conquest_support import make_app

SEASONS = 600
"""Small enough to keep each forecast well under a second once the kernel is compiled."""


def _public(path: Path) -> tuple[dict[str, object], list[dict[str, object]], str]:
    """What anyone can read of a season file: world, board, cap (no key), the ledger, and
    the commitment."""
    now = season.summary(path)
    state = {"world": engine.compile_world(now.map_data),
             "max_battles": now.header["max_battles"], "board": now.board}
    return state, now.ledger, now.commitment


@pytest.fixture
def odds_app(season_file: Path) -> FastAPI:
    return make_app(season_file, forecast_seasons=SEASONS)


@pytest.fixture
def odds_client(odds_app: FastAPI) -> Iterator[TestClient]:
    with TestClient(odds_app, raise_server_exceptions=False) as test_client:
        yield test_client


def _settle(app: FastAPI) -> None:
    app.state.conquest.forecasts.settle()


def test_pages_answer_while_the_forecast_is_being_computed_then_show_it(
    odds_app: FastAPI, odds_client: TestClient, season_file: Path
) -> None:
    release = threading.Event()
    odds_app.state.conquest.forecasts._worker.submit(release.wait)  # hold the worker
    try:
        home = odds_client.get("/conquest/1")
        assert home.status_code == 200
        assert 'data-status="computing"' in home.text and "being computed" in home.text
        assert odds_client.get("/api/seasons/1/forecast").json()["status"] == "computing"
        card = odds_client.get("/api/seasons/1/standings").json()[0]["faction"]
        assert odds_client.get(f"/conquest/1/factions/{card}").status_code == 200
    finally:
        release.set()
    _settle(odds_app)
    made = odds_client.get("/api/seasons/1/forecast").json()
    state, ledger, commitment = _public(season_file)
    expected = forecast(state, ledger, seasons=SEASONS,
                        forecast_seed=f"{commitment}-before-{state['board']['next_battle']}")
    assert made["status"] == "ready"
    assert made["as_of_battle"] == expected.as_of_battle == 7
    assert made["forecast_seed"] == expected.forecast_seed
    assert [(f["faction"], f["titles"]) for f in made["factions"]] == [
        (odds.faction, odds.titles) for odds in expected.factions]
    assert sum(f["titles"] for f in made["factions"]) == SEASONS  # one champion a season
    home = odds_client.get("/conquest/1").text
    assert "As of battle <span id=\"forecast-as-of\">7</span>" in home
    assert expected.forecast_seed in home and 'id="forecast-method"' in home
    leader = expected.factions[0]
    row = re.search(rf'<tr data-faction="{leader.faction}".*?</tr>', home, re.S)
    assert row is not None and f"{leader.title_chance * 100:.1f}%" in row.group(0)
    page = odds_client.get(f"/conquest/1/factions/{leader.faction}").text
    assert 'id="title-chance"' in page and "/conquest/1#forecast-method" in page


def test_the_forecast_is_the_same_whatever_the_secret_seed(tmp_path: Path) -> None:
    map_data = scenario.load_map("north-america")
    answers, commitments = [], []
    for secret in ("11" * 32, "22" * 32):
        path = tmp_path / f"{secret[:2]}.db"
        season.create_season(path, map_data, "north-america", seed=secret)
        season.contribute(path, "US-TX", 25)
        app = make_app(path, forecast_seasons=SEASONS, forecast_seed="public")
        with TestClient(app) as client:
            client.get("/conquest/1")
            _settle(app)
            answers.append(client.get("/api/seasons/1/forecast").json())
            commitments.append(client.get("/api/seasons/1").json()["commitment"])
    assert commitments[0] != commitments[1]
    assert answers[0]["status"] == "ready" and answers[0]["forecast_seed"] == "public-before-1"
    assert answers[0] == answers[1]


def test_an_aired_battle_moves_the_forecast_on(
    odds_app: FastAPI, odds_client: TestClient, season_file: Path
) -> None:
    odds_client.get("/api/seasons/1/forecast")
    _settle(odds_app)
    assert odds_client.get("/api/seasons/1/forecast").json()["as_of_battle"] == 7
    list(season.fight(season_file, 1))
    meanwhile = odds_client.get("/api/seasons/1/forecast").json()
    assert meanwhile["status"] in ("updating", "ready")
    _settle(odds_app)
    after = odds_client.get("/api/seasons/1/forecast").json()
    assert after["status"] == "ready" and after["as_of_battle"] == 8
    assert after["forecast_seed"].endswith("-before-8")
    assert odds_app.state.conquest.forecasts.computed == 2


def test_the_broadcaster_tells_its_listeners_about_an_aired_battle(season_file: Path) -> None:
    catalog = SeasonCatalog(SeasonDatabase(f"sqlite:///{season_file}"))
    told: list[int] = []
    live = Broadcaster(catalog)
    live.listeners.append(told.append)

    async def scenario_() -> None:
        await live.catch_up()  # first look: nothing new
        await live.catch_up()
        assert told == []
        list(season.fight(season_file, 1))
        await live.catch_up()

    try:
        asyncio.run(scenario_())
    finally:
        catalog.close()
    assert told == [1]


def test_the_pool_effect_uses_common_random_numbers(
    odds_app: FastAPI, odds_client: TestClient, season_file: Path
) -> None:
    odds_client.get("/api/seasons/1/forecast")
    _settle(odds_app)
    standing = odds_client.get("/api/seasons/1/forecast").json()
    state, ledger, commitment = _public(season_file)
    board = engine.pending_board(state, ledger)
    code = next(c for c, f in sorted(board["factions"].items())
                if f["standing"] and f["pool_state"] == "open" and f["pool"] == 0)
    nothing = odds_client.get(f"/api/seasons/1/factions/{code}/pool-effect?amount=0").json()
    assert nothing["titles_with"] == nothing["titles_without"]
    assert nothing["title_change"] == "+0.000000"
    effect = odds_client.get(f"/api/seasons/1/factions/{code}/pool-effect?amount=50").json()
    line = next(f for f in standing["factions"] if f["faction"] == code)
    assert effect["titles_without"] == line["titles"]  # the very seasons of the forecast
    expected = pool_effect(state, ledger, code, 50, seasons=SEASONS,
                           forecast_seed=f"{commitment}-before-7")
    assert effect["titles_with"] == expected.with_pool.odds_of(code).titles
    assert effect["seasons"] == SEASONS and effect["as_of_battle"] == 7
    assert odds_client.get("/api/seasons/1/factions/NOPE/pool-effect?amount=5").status_code == 404
    page = odds_client.get(f"/conquest/1/factions/{code}/pool-effect?amount=50")
    assert page.status_code == 200
    assert (f"would move the title chance from <strong id=\"effect-without\">"
            f"{effect['without_text']}</strong> to <strong id=\"effect-with\">"
            f"{effect['with_text']}</strong>") in page.text


@pytest.mark.parametrize("amount", ["999", "-5", "7", "lots"])
def test_an_absurd_amount_is_refused_naming_the_field(
    odds_client: TestClient, amount: str
) -> None:
    code = odds_client.get("/api/seasons/1/standings").json()[0]["faction"]
    answer = odds_client.get(f"/api/seasons/1/factions/{code}/pool-effect?amount={amount}")
    assert answer.status_code == 422
    assert answer.json()["field"] == "amount"
    page = odds_client.get(f"/conquest/1/factions/{code}/pool-effect?amount={amount}")
    assert page.status_code == 422 and "amount" in page.text


def test_forecasts_switched_off(client: TestClient) -> None:
    assert client.get("/api/seasons/1/forecast").json()["status"] == "off"
    assert "not computed on this service" in client.get("/conquest/1").text
    code = client.get("/api/seasons/1/standings").json()[0]["faction"]
    assert client.get(f"/api/seasons/1/factions/{code}/pool-effect?amount=5").status_code == 409


def test_pool_effect_answers_stay_within_their_byte_budget(season_file: Path) -> None:
    """Answers past the budget drop the least recently asked; a kept one is not recomputed."""
    catalog = SeasonCatalog(SeasonDatabase(f"sqlite:///{season_file}"))
    try:
        snap = catalog.snapshot(1)
        codes = sorted(code for code, f in snap.board["factions"].items() if f["standing"])[:5]
        probe = ForecastCache(catalog, 100, None)
        one = probe.pool_effect(snap, codes[0], 0)
        probe.close()
        budget = deep_size(one) * 5 // 2  # room for two answers, not three
        cache = ForecastCache(catalog, 100, None, effect_cache_bytes=budget)
        answers = []
        for code in codes:
            answers.append(cache.pool_effect(snap, code, 0))
            assert cache.effects.bytes_used <= budget
        assert len(cache.effects) == 2
        assert cache.pool_effect(snap, codes[-1], 0) is answers[-1]  # kept
        again = cache.pool_effect(snap, codes[0], 0)  # dropped: made again, the same answer
        assert again is not answers[0] and again == answers[0]
        cache.close()
    finally:
        catalog.close()


def test_questions_about_different_factions_share_the_forecast_as_things_stand(
    season_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two factions asked about: one forecast as things stand, one with each amount, three in
    all (not four), and each answer equal to the two-forecast `pool_effect` of the rules."""
    from fairfight.web.conquest import forecasts as module

    made: list[int] = []

    def counted(*args: object, **kwargs: object) -> object:
        made.append(1)
        return forecast(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(module, "forecast", counted)
    state, ledger, commitment = _public(season_file)
    board = engine.pending_board(state, ledger)
    codes = [c for c, f in sorted(board["factions"].items())
             if f["standing"] and f["pool_state"] == "open" and f["pool"] == 0][:2]
    catalog = SeasonCatalog(SeasonDatabase(f"sqlite:///{season_file}"))
    try:
        cache = ForecastCache(catalog, SEASONS, None)
        snap = catalog.snapshot(1)
        answers = [cache.pool_effect(snap, code, 20) for code in codes]
        cache.close()
    finally:
        catalog.close()
    assert len(made) == 3
    for code, answer in zip(codes, answers, strict=True):
        expected = pool_effect(state, ledger, code, 20, seasons=SEASONS,
                               forecast_seed=f"{commitment}-before-7")
        assert answer.titles_without == expected.without.odds_of(code).titles
        assert answer.titles_with == expected.with_pool.odds_of(code).titles


def test_the_faction_page_says_the_answer_is_being_worked_out(odds_client: TestClient) -> None:
    code = odds_client.get("/api/seasons/1/standings").json()[0]["faction"]
    page = odds_client.get(f"/conquest/1/factions/{code}").text
    assert '<p id="effect-progress" class="muted" role="status" hidden>' in page
    script = odds_client.get("/static/conquest/form.js").text
    assert 'sendOnce("effect-form", "effect-button"' in script
    assert "progress.hidden = false" in script
