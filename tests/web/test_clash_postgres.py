"""Clash games on PostgreSQL by URL: two apps (two processes' worth) on one database play a
game turn by turn, and the turn row's key lets only one of two racing commits play it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from fairfight.clash.store import ClashStore, Draft, TurnTaken
from fairfight.web import WebSettings, create_app
from tests.web.postgres_cluster import postgres_cluster
from tests.web.test_clash_seats import CROSSING, commit, open_seats, order, seat_state


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres_cluster() as url:
        yield url


def test_a_game_on_postgres_across_two_apps(database: str,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAIRFIGHT_CLASH_DATABASE_URL", database)
    first = create_app(WebSettings(database_url="sqlite://"))
    second = create_app(WebSettings(database_url="sqlite://"))
    with TestClient(first) as creator:
        game, blue, red = open_seats(first, creator)
        assert order(blue, game, "b-guns", {"actions": [{"do": "move", "path": [[0, 0]]}]}
                     ).status_code == 200
        commit(blue, game)
    red_elsewhere = TestClient(second)
    red_elsewhere.cookies.update(red.cookies)
    assert commit(red_elsewhere, game).status_code == 200
    state = seat_state(blue, game)
    assert state["turns_played"] == [1]
    assert next(u for u in state["view"]["units"] if u["id"] == "b-guns")["at"] == [0, 0]
    first.state.clash.store.close()
    second.state.clash.store.close()


def test_only_one_of_two_racing_turns_is_recorded(database: str) -> None:
    store = ClashStore(database)
    game, _ = store.create(name="race", mode="online", scenario=CROSSING, version=1,
                           humans=("blue", "red"), ai_players=(), autopilot=False,
                           client="race", clock_seconds=None, seats=("blue", "red"))
    store.save_draft(game, Draft("blue", 1, {}, True))
    store.record_turn(game, 1, {"orders": {}}, [{"event": "turn"}], played_before=0)
    with pytest.raises(TurnTaken):
        store.record_turn(game, 1, {"orders": {}}, [{"event": "turn"}], played_before=0)
    assert [entry["turn"] for entry in store.turns(game)] == [1]
    store.close()
