"""Clash games in the database: across restarts and processes, stored as their record,
pinned to their combat logic version, replayed by URL once finished."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect, text

from fairfight.clash import tables as t
from fairfight.clash.luck import scenario_luck
from fairfight.clash.scenario import parse_scenario
from fairfight.clash.store import TABLE_SEAT, ClashStore
from fairfight.clash.world import world_from_scenario
from fairfight.web import WebSettings, create_app
from fairfight.web.clash import service
from fairfight.web.clash.sandbox import clash_database_url
from tests.web.test_clash_seats import CROSSING, commit, open_seats, order, seat_state


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    url = f"sqlite:///{tmp_path / 'clash.db'}"
    monkeypatch.setenv("FAIRFIGHT_CLASH_DATABASE_URL", url)
    return url


def test_the_clash_file_is_never_the_season_file() -> None:
    assert clash_database_url("sqlite:///data/season.db") == "sqlite:///data/season-clash.db"
    assert clash_database_url("sqlite://") == "sqlite://"
    server = "postgresql+psycopg://fairfight@db/fairfight"
    assert clash_database_url(server) == server


def test_a_game_survives_a_restart_and_a_second_process(database: str) -> None:
    first = create_app(WebSettings(database_url="sqlite://"))
    with TestClient(first) as creator:
        game, blue, red = open_seats(first, creator)
        assert order(blue, game, "b-guns", {"actions": [{"do": "move", "path": [[0, 0]]}]}
                     ).status_code == 200
        assert commit(blue, game).status_code == 200
    # a restart: a new app on the same database; the browsers keep their seat cookies
    second = create_app(WebSettings(database_url="sqlite://"))
    other = create_app(WebSettings(database_url="sqlite://"))   # another process
    blue2, red2 = TestClient(second), TestClient(other)
    blue2.cookies.update(blue.cookies)
    red2.cookies.update(red.cookies)
    assert seat_state(blue2, game)["committed"] == {"blue": True, "red": False}
    assert seat_state(blue2, game)["pending"]["b-guns"]["actions"][0]["path"] == [[0, 0]]
    assert commit(red2, game).status_code == 200
    state = seat_state(blue2, game)
    assert state["turn"] == 2 and state["turns_played"] == [1]
    guns = next(u for u in state["view"]["units"] if u["id"] == "b-guns")
    assert guns["at"] == [0, 0]


def test_a_game_is_stored_as_its_record(database: str) -> None:
    app = create_app(WebSettings(database_url="sqlite://"))
    with TestClient(app) as creator:
        game, blue, red = open_seats(app, creator)
        commit(blue, game)
        commit(red, game)
    engine = create_engine(database)
    columns = {table: {c["name"] for c in inspect(engine).get_columns(table)}
               for table in inspect(engine).get_table_names()}
    assert columns["clash_turns"] == {"game_id", "number", "orders", "events"}
    assert not any("world" in name for names in columns.values() for name in names)
    with engine.connect() as connection:
        row = connection.execute(text("select scenario, combat_logic_version from clash_games")
                                 ).one()
        tokens = connection.execute(text("select token_sha256 from clash_seats")).scalars()
        assert all(len(token) == 64 for token in tokens)   # only digests are kept
    assert '"seed_key":"crossing"' in row.scenario
    assert row.combat_logic_version == t.COMBAT_LOGIC_VERSION
    engine.dispose()


def test_another_combat_logic_version_refuses_to_continue(
        database: str, monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(WebSettings(database_url="sqlite://"))
    with TestClient(app) as creator:
        game, blue, _ = open_seats(app, creator)
        monkeypatch.setattr(t, "COMBAT_LOGIC_VERSION", t.COMBAT_LOGIC_VERSION + 1)
        answer = blue.get(f"/api/clash/play/{game}")
    assert answer.status_code == 409
    assert answer.json()["field"] == "game.combat_logic_version"
    assert "cannot continue here" in answer.json()["message"]


def test_a_finished_game_replays_by_url(database: str,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(WebSettings(database_url="sqlite://"))
    with TestClient(app) as creator:
        game, blue, red = open_seats(app, creator)
        assert creator.get(f"/clash/replay/{game}").status_code == 403   # still played
        order(blue, game, "b-guns", {"actions": [{"do": "bombard", "target": [3, 1]}]})
        commit(blue, game)
        commit(red, game)
        monkeypatch.setattr(service, "MAX_TURNS", 1)
        assert seat_state(blue, game)["finished"]
        page = creator.get(f"/clash/replay/{game}?turn=1")
        assert page.status_code == 200
        assert "Red Reserve" in page.text   # the whole truth, once the game is over
        assert "Blue Guns bombarded Red Front" in page.text
        assert commit(blue, game, turn=2).status_code == 409


def test_the_sandbox_game_survives_a_restart(database: str) -> None:
    with TestClient(create_app(WebSettings(database_url="sqlite://"))) as first:
        assert first.post("/api/clash/games", json={"scenario": "belvoir-wood"}
                          ).status_code == 200
        cookies = first.cookies
    with TestClient(create_app(WebSettings(database_url="sqlite://"))) as second:
        second.cookies.update(cookies)
        assert second.get("/api/clash/game").json()["name"] == "belvoir-wood"
        assert second.post("/api/clash/game/turn").status_code == 200
        assert second.get("/api/clash/game").json()["turns_played"] == 1


def test_the_clash_settings_are_read_from_the_services_settings(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"sqlite:///{tmp_path / 'chosen.db'}"
    monkeypatch.setenv("FAIRFIGHT_CLASH_DATABASE_URL", url)
    monkeypatch.setenv("FAIRFIGHT_CLASH_GAMES_PER_CLIENT", "3")
    monkeypatch.setenv("FAIRFIGHT_CLASH_TURN_CLOCK_SECONDS", "60")
    settings = WebSettings(database_url="sqlite://")
    assert (settings.clash_database_url, settings.clash_games_per_client,
            settings.clash_turn_clock_seconds) == (url, 3, 60)
    service = create_app(settings).state.clash
    assert (service.games_per_client, service.turn_clock_seconds) == (3, 60)
    assert service.store.url == url
    assert clash_database_url("sqlite:///season.db", url) == url


def test_the_world_cache_stays_within_its_byte_budget(tmp_path: Path) -> None:
    """Worlds past the budget are dropped (least recently used first) and replayed again
    when asked: the same worlds as a service that kept none."""
    store = ClashStore(f"sqlite:///{tmp_path / 'clash.db'}")
    first = service.world_bytes(world_from_scenario(parse_scenario(CROSSING)))
    budget = 2 * first
    kept = service.ClashService(store, worlds_bytes=budget)
    game_id, _ = kept.start(name="Crossing", scenario=CROSSING, mode="solo", humans=("blue",),
                            ai_players=("red",), client="127.0.0.1")
    for _ in range(5):
        game = kept.open(game_id, "blue")
        kept.commit(game, game.world.turn)
        assert kept.worlds.bytes_used <= budget
    turns = store.turns(game_id)
    assert len(turns) == 5 and len(kept.worlds) < 6   # six worlds made, some dropped
    row = store.game(game_id)
    assert row is not None
    fresh = service.ClashService(store, worlds_bytes=0)   # keeps nothing: replays each time
    for played in range(len(turns) + 1):
        assert (kept.world_after(row, turns, played).to_scenario()
                == fresh.world_after(row, turns, played).to_scenario())
        assert kept.worlds.bytes_used <= budget and len(fresh.worlds) == 0
    store.engine.dispose()


def test_a_finished_games_replay_shows_each_sides_luck(database: str,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    app = create_app(WebSettings(database_url="sqlite://"))
    with TestClient(app) as creator:
        game, blue, red = open_seats(app, creator)
        order(blue, game, "b-guns", {"actions": [{"do": "bombard", "target": [3, 1]}]})
        commit(blue, game)
        commit(red, game)
        monkeypatch.setattr(service, "MAX_TURNS", 1)
        page = creator.get(f"/clash/replay/{game}?turn=1")
        stored = app.state.clash.open(game, TABLE_SEAT)
    sides = scenario_luck(stored.row.scenario, stored.turns)
    assert [len(side.exchanges) for side in sides] == [1, 1]   # the one bombardment
    assert 'id="luck"' in page.text
    for side in sides:
        assert f"<strong>{side.player}</strong>: {side.sentence()}" in page.text
