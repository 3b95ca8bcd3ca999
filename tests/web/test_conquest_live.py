"""Server-sent events against a real server: every client sees each battle; resume by id.

Event ids are the season events table's ids (a battle, a ledger change and a signed head
each get one), so the battles are recognised by the number in their data."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import httpx

from fairfight.conquest.store import season
from tests.web.conquest_support import ADMIN_TOKEN, live_server, make_app


def _events(response: httpx.Response, wanted: int,
            kind: str | None = None) -> list[dict[str, str]]:
    """The stream's first `wanted` events (of `kind`, when given)."""
    events, current = [], {}
    for line in response.iter_lines():
        if not line:
            if "event" in current and kind in (None, current["event"]):
                events.append(current)
                if len(events) == wanted:
                    break
            current = {}
            continue
        if line.startswith(":"):
            continue
        name, _, value = line.partition(": ")
        current[name] = value
    return events


def test_two_clients_each_see_every_battle_and_a_third_resumes(season_file: Path) -> None:
    fought = season.summary(season_file).battles
    app = make_app(season_file)
    with live_server(app) as base, httpx.Client(base_url=base, timeout=30) as http:
        seen: dict[str, list[dict[str, str]]] = {}

        def listen(name: str) -> None:
            with http.stream("GET", "/api/seasons/1/events") as response:
                assert response.headers["content-type"].startswith("text/event-stream")
                assert response.headers["cache-control"] == "no-cache"
                assert response.headers["x-accel-buffering"] == "no"
                seen[name] = _events(response, 3, "battle")

        listeners = [threading.Thread(target=listen, args=(n,)) for n in ("a", "b")]
        for thread in listeners:
            thread.start()
        while app.state.conquest.live.clients() < 2:
            threading.Event().wait(0.02)
        aired = http.post("/api/seasons/1/operator/air", json={"count": 2},
                          headers={"authorization": f"Bearer {ADMIN_TOKEN}"})
        assert aired.status_code == 200
        list(season.fight(season_file, 1))  # the command line airs one too: also announced
        for thread in listeners:
            thread.join(30)
        for name in ("a", "b"):
            numbers = [json.loads(e["data"])["number"] for e in seen[name]]
            assert numbers == [fought + 1, fought + 2, fought + 3], name
            ids = [int(e["id"]) for e in seen[name]]
            assert ids == sorted(set(ids)), name
        before_first = str(int(seen["a"][0]["id"]) - 1)
        with http.stream("GET", "/api/seasons/1/events",
                         headers={"Last-Event-ID": before_first}) as response:
            backlog = _events(response, 3, "battle")
        assert backlog == seen["a"]


def test_streams_end_when_the_server_stops(season_file: Path) -> None:
    app = make_app(season_file)
    done = threading.Event()
    with live_server(app) as base:
        def listen() -> None:
            with httpx.stream("GET", f"{base}/api/seasons/1/events", timeout=30) as response:
                for _ in response.iter_lines():
                    pass
            done.set()

        thread = threading.Thread(target=listen, daemon=True)
        thread.start()
        while app.state.conquest.live.clients() < 1:
            threading.Event().wait(0.02)
    thread.join(30)
    assert done.is_set()
