"""No seat's secrets leave the server: a crawl from each seat and a spectator, at every step of
a game, through every page, API route, live stream, refusal and the record download, finds no
card of another seat's hand or pack and never the dice key before the end."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fairfight.ballot.deck import build_cards
from fairfight.ballot.store import BallotStore
from fairfight.web.ballot.live import table_stream
from tests.ballot.test_tables import (
    client_of,
    create,
    make_app,
    play_round,
    seat_view,
    seated,
)

SEATS = ["human", "human", "machine", "human"]


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return make_app(tmp_path)


def first_event(store: BallotStore, table: str, seat: int | None) -> str:
    async def read() -> str:
        stream = table_stream(store, table, seat, None, poll_seconds=0)
        chunks = [await anext(stream), await anext(stream)]
        await stream.aclose()
        return b"".join(chunks).decode()

    return asyncio.run(read())


def secrets_of(store: BallotStore, table: str, viewer: int | None) -> list[str]:
    """What `viewer` must not see now: every other seat's hand and pack, as labels and as the
    card blocks of the seat page (`data-card`, the hand, the pack, the declaration options),
    and the key."""
    row = store.load(table)
    assert row is not None
    game = row.game()
    assert game is not None
    cards = build_cards(row.key)
    hidden = [row.key]
    state = game.state
    for seat in range(state.players):
        if seat == viewer:
            continue
        ids = list(state.hands[seat]) + (list(state.packs[seat]) if state.packs else [])
        hidden.extend(cards[card].label() for card in ids)
        hidden.extend(f'data-card="{card}"' for card in ids)
    return hidden


def crawl(app: Any, people: dict[int, TestClient], table: str, viewer: int | None) -> list[str]:
    """Every response `viewer` can get from the service about this table."""
    me = people[viewer] if viewer is not None else client_of(app)
    urls = [
        "/ballot",
        "/api/ballot",
        f"/ballot/tables/{table}",
        f"/api/ballot/tables/{table}",
        f"/ballot/tables/{table}/record.jsonl",
        f"/ballot/tables/{table}/replay",
        f"/ballot/tables/{table}/replay?step=1",
        f"/api/ballot/tables/{table}/replay?step=1",
        f"/api/ballot/tables/{table}/seats/{(viewer or 0) + 1}",  # someone else's seat: 403
        f"/ballot/tables/{table}/seats/{(viewer or 0) + 1}",
        f"/ballot/tables/{table}/seats/{(viewer or 0) + 1}?open=P",
    ]
    if viewer is not None:
        # the seat's page with a race opened: every card of its own, nobody else's
        urls += [f"/ballot/tables/{table}/seats/{viewer}?open={race}" for race in ("P", "S-CA-III")]
        urls += [f"{root}/ballot/tables/{table}/seats/{viewer}" for root in ("", "/api")]
    answers = [me.get(url) for url in urls]
    texts = [answer.text for answer in answers]
    if viewer is not None:
        own = answers[-1]  # the seat's own view, read once for the crawl and the moves below
        assert own.status_code == 200, own.text
        view = own.json()
        bad = {"version": view["version"], "decision": {"type": "DraftPick", "card": 9999}}
        texts.append(me.post(f"/api/ballot/tables/{table}/seats/{viewer}/move", json=bad).text)
        form = {"version": str(view["version"]), "card": "9999", "race_0": "ZZ"}
        texts.append(me.post(f"/ballot/tables/{table}/seats/{viewer}/move", data=form).text)
        stale = {"version": view["version"] - 1, "decision": {"type": "YesNo", "yes": True}}
        texts.append(me.post(f"/api/ballot/tables/{table}/seats/{viewer}/move", json=stale).text)
    texts.append(first_event(app.state.ballot_store, table, viewer))
    return texts


def test_a_crawl_from_every_seat_and_a_spectator_finds_no_secret_of_another(app: Any) -> None:
    created = create(app, SEATS, years=2)
    table = created["id"]
    people = seated(app, created)
    store: BallotStore = app.state.ballot_store
    crawled = 0
    for _ in range(400):
        public = client_of(app).get(f"/api/ballot/tables/{table}").json()
        if public["status"] == "over":
            break
        for viewer in (0, 1, 3, None):
            hidden = secrets_of(store, table, viewer)
            for text in crawl(app, people, table, viewer):
                leaked = [secret for secret in hidden if secret in text]
                assert not leaked, (viewer, leaked[:3])
            crawled += 1
        play_round(people, table)
    assert public["status"] == "over" and crawled > 20
    own = seat_view(people[0], table, 0)
    assert own["key"] == store.load(table).key  # type: ignore[union-attr]  # revealed at the end


def test_each_seat_sees_its_own_hand_and_the_spectator_none(app: Any) -> None:
    created = create(app, SEATS)
    table = created["id"]
    people = seated(app, created)
    store: BallotStore = app.state.ballot_store
    row = store.load(table)
    assert row is not None and (game := row.game()) is not None
    for seat, person in people.items():
        hand = [card["id"] for card in seat_view(person, table, seat)["game"]["hand"]]
        assert hand == list(game.state.hands[seat])
        page = person.get(f"/ballot/tables/{table}/seats/{seat}").text
        assert all(f'data-card="{card}"' in page for card in hand)  # what the crawl looks for
    public = client_of(app).get(f"/api/ballot/tables/{table}").json()
    assert public["game"]["hand"] == [] and public["you"] is None


def test_the_live_stream_says_whose_turn_it_is_and_ends_with_the_game(app: Any) -> None:
    created = create(app, ["human", "pollster", "machine"])
    table = created["id"]
    people = seated(app, created)
    store: BallotStore = app.state.ballot_store
    mine = first_event(store, table, 0)
    assert "event: table" in mine and '"your_turn": true' in mine
    assert '"your_turn": false' in first_event(store, table, None)
    for _ in range(400):
        if play_round(people, table)["status"] == "over":
            break
    finished = people[0].get(f"/ballot/tables/{table}/seats/0/events")
    assert finished.status_code == 200
    assert finished.headers["content-type"].startswith("text/event-stream")
    assert '"status": "over"' in finished.text and finished.headers["cache-control"] == "no-cache"
    assert client_of(app).get(f"/ballot/tables/{table}/seats/0/events").status_code == 403
