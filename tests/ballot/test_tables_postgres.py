"""Ballot tables on PostgreSQL and across processes: the same store by URL, two services on one
database answering for the same table (and one's live stream carrying the other's move), and
the revision check refusing a racing answer."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fairfight.web import WebSettings, create_app
from fairfight.web.ballot.live import table_stream
from tests.ballot.test_tables import (
    client_of,
    create,
    play_to_end,
    race_first_answer,
    seat_view,
    seated,
    simple_answer,
)
from tests.web.postgres_cluster import postgres_cluster

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres_cluster() as url:
        yield url


def service(url: str) -> Any:
    return create_app(WebSettings(database_url=url, forecast_seasons=0))


def test_two_services_on_one_sqlite_file_answer_for_the_same_table(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ff.db'}"
    first, second = service(url), service(url)
    created = create(first, ["human", "pollster", "human"])
    table = created["id"]
    people = seated(first, created)
    view = seat_view(people[0], table, 0)
    move = {"version": view["version"], "decision": simple_answer(view["game"])}
    elsewhere = client_of(second, created["seats"][1]["token"])
    assert elsewhere.post(f"/api/ballot/tables/{table}/seats/2/join").status_code == 200
    assert client_of(second, created["seats"][0]["token"]).post(
        f"/api/ballot/tables/{table}/seats/0/move", json=move
    ).status_code == 200
    assert seat_view(people[2], table, 2)["seats"][0]["answered"]  # seen by the first service


def test_a_whole_table_on_postgresql(database: str) -> None:
    app = service(database)
    created = create(app, ["human", "machine", "human"])
    table = created["id"]
    people = seated(app, created)
    public = play_to_end(people, table)
    assert public["key"] and public["game"]["end_reason"] == "year-cap"
    other = service(database)  # another process on the same database
    assert client_of(other).get(f"/api/ballot/tables/{table}").json()["key"] == public["key"]
    assert client_of(other).get(f"/ballot/tables/{table}/record.jsonl").status_code == 200


def test_racing_answers_on_postgresql_make_exactly_one(database: str) -> None:
    stores = [service(database).state.ballot_store for _ in range(3)]
    assert race_first_answer(service(database), stores) == ["played", "refused", "refused"]
    for store in stores:
        store.engine.dispose()


def test_a_stream_on_one_service_carries_a_move_made_on_another(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ff.db'}"
    first, second = service(url), service(url)
    created = create(first, ["human", "pollster", "machine"])
    table = created["id"]
    person = seated(first, created)[0]
    view = seat_view(person, table, 0)
    move = {"version": view["version"], "decision": simple_answer(view["game"])}

    async def watch() -> list[str]:
        stream = table_stream(second.state.ballot_store, table, 0, None, poll_seconds=0)
        seen = [await anext(stream), await anext(stream)]
        person.post(f"/api/ballot/tables/{table}/seats/0/move", json=move)
        seen.append(await anext(stream))
        await stream.aclose()
        return [chunk.decode() for chunk in seen]

    before, after = asyncio.run(watch())[1:]
    assert f"id: {view['version']}\n" in before and '"your_turn": true' in before
    assert f"id: {view['version']}\n" not in after and "event: table" in after
