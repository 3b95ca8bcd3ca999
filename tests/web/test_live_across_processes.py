"""Live updates across service instances on one SQLite season file: two apps, each with its
own broadcaster, its own connections and its own server thread, as two worker processes have.

A battle aired through A reaches a stream opened on B; a client resumes on the other
instance with exactly what it missed; a cursor the events table no longer covers gets a
`stale` event; B's title odds follow A's battles; the stream cap holds and answers 503.
"""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest

from fairfight.conquest.store import season, season_events
from fairfight.conquest.store.season_store import SeasonStore
from tests.web.conquest_support import live_server
from tests.web.live_support import BEARER, StreamReader, service_app, wait_until

EVENTS = "/api/seasons/1/events"


def _url(path: Path) -> str:
    return f"sqlite:///{path}"


def _air(base: str, count: int) -> list[int]:
    answer = httpx.post(f"{base}/api/seasons/1/operator/air", json={"count": count},
                        headers=BEARER, timeout=60)
    assert answer.status_code == 200, answer.text
    return [line["number"] for line in answer.json()["battles"]]


def _stored_events(path: Path) -> list[tuple[int, str]]:
    """(id, kind) of every kept event, read straight from the file (an independent reader)."""
    store = SeasonStore.open(path)
    try:
        with store.transaction() as session:
            return [(e.id, e.kind.value) for e in season_events.events_after(session, 0)]
    finally:
        store.close()


def test_a_battle_aired_through_one_instance_reaches_a_stream_on_the_other(
        season_file: Path) -> None:
    first = season.summary(season_file).battles
    app_a, app_b = service_app(_url(season_file)), service_app(_url(season_file))
    with live_server(app_a) as base_a, live_server(app_b) as base_b:
        on_b = StreamReader(base_b, EVENTS)
        opened = on_b.opened()
        wait_until(lambda: app_b.state.conquest.live.clients() == 1, "B counts its stream")
        assert _air(base_a, 2) == [first + 1, first + 2]
        battles = on_b.wait_for(2, "battle")
        on_b.close()
    assert [json.loads(b["data"])["number"] for b in battles] == [first + 1, first + 2]
    assert app_a.state.conquest.live.clients() == 0  # nobody listened on A
    # Ids are the table's, after the id the opening block gave (what B had then).
    stored = dict(_stored_events(season_file))
    for block in battles:
        assert stored[int(block["id"])] == "battle"
        assert int(block["id"]) > int(opened["id"])


def test_a_client_resumes_on_the_other_instance_with_exactly_what_it_missed(
        season_file: Path) -> None:
    app_a, app_b = service_app(_url(season_file)), service_app(_url(season_file))
    with live_server(app_a) as base_a, live_server(app_b) as base_b:
        on_a = StreamReader(base_a, EVENTS)
        on_a.opened()
        wait_until(lambda: app_a.state.conquest.live.clients() == 1, "A counts its stream")
        _air(base_a, 1)
        seen = on_a.wait_for(1, "battle")
        on_a.close()
        _air(base_a, 1)  # aired while the client is away (it "reconnects" to B)
        season.contribute(season_file, "US-TX", 5)  # the command line writes too
        last_seen = seen[-1]["id"]
        on_b = StreamReader(base_b, EVENTS, last_event_id=last_seen)
        wait_until(lambda: [i for i, _ in _stored_events(season_file)
                            if i > int(last_seen)] == [int(e["id"]) for e in on_b.events()],
                   "B replays every stored event after the client's cursor")
        on_b.close()
    missed = [(i, kind) for i, kind in _stored_events(season_file) if i > int(last_seen)]
    assert [(int(e["id"]), e["event"]) for e in on_b.events()] == missed
    kinds = [kind for _, kind in missed]
    assert kinds.count("battle") == 1 and kinds.count("ledger") == 1  # and their heads
    assert [i for i, _ in missed] == list(range(int(last_seen) + 1, int(last_seen) + 1
                                                + len(missed)))


def test_a_cursor_the_table_does_not_cover_gets_a_stale_event(
        season_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(season_events, "EVENTS_KEPT", 4)
    monkeypatch.setattr(season_events, "PRUNE_EVERY", 2)
    for _ in range(6):
        season.contribute(season_file, "US-TX", 5)  # a ledger event and a head event each
    stored = [i for i, _ in _stored_events(season_file)]
    oldest, latest = stored[0], stored[-1]
    assert oldest > 2 and latest - oldest + 1 >= 4  # pruned, but at least EVENTS_KEPT kept
    app = service_app(_url(season_file))
    with live_server(app) as base:
        too_old = StreamReader(base, EVENTS, last_event_id=str(oldest - 2))
        from_the_future = StreamReader(base, EVENTS, last_event_id=str(latest + 50))
        just_covered = StreamReader(base, EVENTS, last_event_id=str(oldest - 1))
        stale = [too_old.wait_for(1)[0], from_the_future.wait_for(1)[0]]
        covered = just_covered.wait_for(len(stored))
        for reader in (too_old, from_the_future, just_covered):
            reader.close()
    for event in stale:
        assert event["event"] == "stale" and int(event["id"]) == latest
        assert json.loads(event["data"]) == {"season": 1, "latest": latest, "oldest": oldest,
                                             "reload": True}
    assert [int(e["id"]) for e in covered] == stored


def test_the_title_odds_on_b_follow_a_battle_aired_through_a(season_file: Path) -> None:
    app_a = service_app(_url(season_file))
    app_b = service_app(_url(season_file), forecast_seasons=600)
    forecasts_b = app_b.state.conquest.forecasts
    with live_server(app_a) as base_a, live_server(app_b) as base_b:
        wait_until(lambda: app_b.state.conquest.live._primed is not None
                   and app_b.state.conquest.live._primed.is_set(), "B's watcher has looked")
        assert forecasts_b.computed == 0  # nobody has asked B for odds
        (aired,) = _air(base_a, 1)
        wait_until(lambda: forecasts_b.computed >= 1, "B's forecast after A's battle")
        forecasts_b.settle()
        odds = httpx.get(f"{base_b}/api/seasons/1/forecast", timeout=60).json()
    assert odds["status"] == "ready" and odds["as_of_battle"] == aired + 1


def test_the_stream_cap_answers_503_with_retry_after(season_file: Path) -> None:
    app = service_app(_url(season_file), live_max_streams=2)
    with live_server(app) as base:
        readers = [StreamReader(base, EVENTS) for _ in range(2)]
        for reader in readers:
            reader.opened()
        refused = httpx.get(f"{base}{EVENTS}", timeout=30)
        for reader in readers:
            reader.close()
    assert refused.status_code == 503
    assert refused.headers["retry-after"] == "10"
    assert refused.json()["field"] == "events"
