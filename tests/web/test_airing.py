"""The service airs on a schedule: the loop on a controlled clock, several processes on one
database, the operator's API and console, the countdown on the pages, and one real clock."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.rules.schedule import parse_schedule
from fairfight.conquest.store import schedule_store, season
from fairfight.web.conquest.airing import AiringLoop, ScheduleRequest
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.database import SeasonDatabase
from tests.conquest.helpers import SEED, star_map
from tests.conquest.test_schedule import set_schedule_on
from tests.web.conquest_support import ADMIN_TOKEN, make_app

NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
BEARER = {"Authorization": f"Bearer {ADMIN_TOKEN}"}
SOURCE = Path(__file__).resolve().parents[2]


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def at(self, minutes: float) -> None:
        self.now = NOON + timedelta(minutes=minutes)


@pytest.fixture
def star_season(tmp_path: Path) -> Path:
    """A new season on the star map (4 battles to its end), nothing fought yet."""
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    return path


@pytest.fixture
def catalog(star_season: Path) -> Iterator[SeasonCatalog]:
    opened = SeasonCatalog(SeasonDatabase(f"sqlite:///{star_season}"))
    yield opened
    opened.close()


def _loop(catalog: SeasonCatalog, clock: Clock, pokes: list[int], holder: str = "one",
          ) -> AiringLoop:
    return AiringLoop(catalog, lambda: pokes.append(1), clock=clock, holder=holder)


def _aired(path: Path | str) -> int:
    return season.summary(path).battles


def test_the_loop_airs_a_due_slot_once_and_pokes_the_live_stream(
        catalog: SeasonCatalog, star_season: Path) -> None:
    clock, pokes = Clock(NOON), []
    loop = _loop(catalog, clock, pokes)
    loop.set(1, ScheduleRequest(kind="every", minutes=5))
    assert [o.status for o in loop.tick()] == ["aired"]  # slot 1 falls at the moment it is set
    assert loop.tick() == []  # nothing new is due: no write is even attempted
    clock.at(4.9)
    assert loop.tick() == []
    assert _aired(star_season) == 1 and pokes == [1]
    clock.at(5)
    assert [o.decision.slot for o in loop.tick() if o.decision] == [2]
    assert _aired(star_season) == 2 and pokes == [1, 1]


def test_downtime_over_several_slots_gives_one_airing_and_a_note(
        catalog: SeasonCatalog, star_season: Path) -> None:
    clock, pokes = Clock(NOON), []
    loop = _loop(catalog, clock, pokes)
    loop.set(1, ScheduleRequest(kind="every", minutes=5))
    loop.tick()
    clock.at(31)  # down from 12:00:01 to 12:31: slots 2 (12:05) to 7 (12:30) are due
    (outcome,) = loop.tick()
    assert outcome.status == "aired" and outcome.decision is not None
    assert (outcome.decision.slot, outcome.decision.missed) == (7, 5)
    assert loop.tick() == []
    assert _aired(star_season) == 2
    shown = loop.show(1)
    assert shown.recent[0].slot == 7 and shown.recent[0].missed == 5
    assert shown.recent[0].note is not None and "slots 2-6" in shown.recent[0].note


def test_pause_resume_and_skip_from_the_service(catalog: SeasonCatalog, star_season: Path,
                                                ) -> None:
    clock, pokes = Clock(NOON), []
    loop = _loop(catalog, clock, pokes)
    loop.set(1, ScheduleRequest(kind="every", minutes=5))
    loop.tick()
    paused = loop.pause(1, True)
    assert paused.paused and paused.countdown is not None and paused.countdown.status == "paused"
    clock.at(17)
    assert loop.tick() == []  # slots 2-4 fall while paused
    resumed = loop.pause(1, False)
    assert resumed.last_slot == 4 and resumed.countdown and resumed.countdown.slot == 5
    slot, skipping = loop.skip(1)
    assert slot == 5 and skipping.skipped == [5]
    assert skipping.countdown and skipping.countdown.slot == 6
    clock.at(20)
    assert [o.status for o in loop.tick()] == ["passed"]
    clock.at(25)
    assert [o.status for o in loop.tick()] == ["aired"]
    assert _aired(star_season) == 2
    assert [(r.slot, r.outcome) for r in loop.show(1).recent] == [
        (6, "aired"), (5, "skipped"), (1, "aired")]


def test_two_loops_on_separate_connections_never_both_air_a_slot(star_season: Path) -> None:
    """Two services' loops (own catalogs, own connections) tick at the same moments."""
    clock, pokes = Clock(NOON), []
    catalogs = [SeasonCatalog(SeasonDatabase(f"sqlite:///{star_season}")) for _ in range(2)]
    loops = [_loop(c, clock, pokes, holder=name) for c, name in zip(catalogs, "AB", strict=True)]
    try:
        loops[0].set(1, ScheduleRequest(kind="every", minutes=5))
        results: list[str] = []
        for minutes in (0, 0, 5, 5.1, 10, 15, 15.2):
            clock.at(minutes)
            gate = threading.Barrier(2)

            def tick(loop: AiringLoop, gate: threading.Barrier = gate) -> None:
                gate.wait()
                results.extend(o.status for o in loop.tick())

            threads = [threading.Thread(target=tick, args=(loop,)) for loop in loops]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
        assert results.count("aired") == 4  # slots 1-4, once each
        assert _aired(star_season) == 4
    finally:
        for opened in catalogs:
            opened.close()


RACER = textwrap.dedent("""
    import json, os, sys, time
    from datetime import UTC, datetime, timedelta
    from fairfight.conquest import schedule_store
    path, holder, go = sys.argv[1], sys.argv[2], sys.argv[3]
    while not os.path.exists(go):
        time.sleep(0.001)
    noon = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    seen = []
    for minutes in range(0, 16):
        # lease_seconds=-1: the lease is always free, so only the slot record stands between
        # the two processes and a double airing
        outcome = schedule_store.air_due(path, holder, noon + timedelta(minutes=minutes), -1)
        seen.append([minutes, outcome.status])
    print(json.dumps(seen))
""")


def test_two_processes_racing_with_no_lease_still_air_each_slot_once(
        star_season: Path, tmp_path: Path) -> None:
    set_schedule_on(star_season, parse_schedule("every", minutes=5, now=NOON), NOON)
    go = tmp_path / "go"
    environment = {**os.environ, "PYTHONPATH": f"{SOURCE / 'src'}{os.pathsep}{SOURCE}"}
    racers = [subprocess.Popen([sys.executable, "-c", RACER, str(star_season), name, str(go)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=environment) for name in ("P", "Q")]
    time.sleep(0.5)
    go.touch()
    outputs = [racer.communicate(timeout=300) for racer in racers]
    assert all(racer.returncode == 0 for racer in racers), [err for _, err in outputs]
    seen = [status for out, _ in outputs for _, status in json.loads(out)]
    # every 5 minutes from 12:00 over 12:00-12:15: slots 1-4; the star map ends after 4
    assert seen.count("aired") == 4 == _aired(star_season)
    store = season.open_store(star_season)
    try:
        with store.transaction() as session:
            aired = [s["slot"] for s in schedule_store.recent_slots(session, 50)
                     if s["outcome"] == "aired"]
    finally:
        store.close()
    assert sorted(aired) == [1, 2, 3, 4]


# ------------------------------------------------------------ the API, the console, the pages


@pytest.fixture
def client(star_season: Path) -> Iterator[TestClient]:
    with TestClient(make_app(star_season), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.mark.parametrize(("body", "field"), [
    ({"kind": "weekly"}, "kind"),
    ({"kind": "daily", "at": "25:00"}, "at"),
    ({"kind": "every", "minutes": 0}, "minutes"),
    ({"kind": "every", "seconds": 0}, "seconds"),
    ({"kind": "every", "minutes": "many"}, "minutes"),
    ({"kind": "every", "minutes": 5, "start": "soon"}, "start"),
    ({"kind": "every", "minutes": 5, "colour": "red"}, "colour"),
])
def test_the_api_refuses_a_bad_schedule_naming_the_field(client: TestClient, body: object,
                                                         field: str) -> None:
    answer = client.put("/api/seasons/1/operator/schedule", json=body, headers=BEARER)
    assert answer.status_code == 422
    assert answer.json()["field"] == field and "\n" not in answer.json()["detail"]


def test_the_schedule_api_is_token_guarded(client: TestClient) -> None:
    for method, path in [("put", "/api/seasons/1/operator/schedule"),
                         ("get", "/api/seasons/1/operator/schedule"),
                         ("post", "/api/seasons/1/operator/schedule/pause"),
                         ("post", "/api/seasons/1/operator/schedule/resume"),
                         ("post", "/api/seasons/1/operator/schedule/skip")]:
        answer = client.request(method, path, json={"kind": "daily", "at": "18:00"})
        assert answer.status_code == 401 and answer.json()["field"] == "authorization"
    assert client.get("/api/seasons/1/schedule").json() == {"season": 1, "countdown": None}
    bad = client.put("/api/seasons/1/operator/schedule", content=b"{", headers=BEARER)
    assert bad.status_code == 400
    assert client.post("/api/seasons/9/operator/schedule/pause", headers=BEARER).status_code == 404
    nothing = client.post("/api/seasons/1/operator/schedule/pause", headers=BEARER)
    assert nothing.status_code == 422 and nothing.json()["field"] == "schedule"


def test_the_countdown_is_on_every_conquest_page_without_javascript(client: TestClient) -> None:
    assert 'id="countdown"' not in client.get("/conquest/1").text  # nothing scheduled yet
    tomorrow = (datetime.now(UTC) + timedelta(days=1)).strftime("%Y-%m-%dT00:00:00Z")
    set_ = client.put("/api/seasons/1/operator/schedule", headers=BEARER,
                      json={"kind": "daily", "at": "18:00", "start": tomorrow})
    assert set_.status_code == 200
    day = tomorrow[:10]
    for page in ("/conquest", "/conquest/1", "/conquest/1/battles", "/conquest/rules",
                 "/embed/seasons/1", "/conquest/1/overlay"):
        html = client.get(page).text
        assert html.count('id="countdown"') == 1
        assert f'<time datetime="{day}T18:00:00Z">' in html
        assert re.search(r"Next episode: .*battle <span class=\"countdown-battle\">1</span>", html)
        assert '<script src="/static/conquest/countdown.js" defer></script>' in html
    # The season home says it first, in what is next.
    next_up = re.search(r'<p id="next-when".*?</p>', client.get("/conquest/1").text, re.S)
    assert next_up is not None and f'<time datetime="{day}T18:00:00Z">' in next_up.group(0)
    client.post("/api/seasons/1/operator/schedule/pause", headers=BEARER)
    assert "Airing is paused; battle 1 airs when the operator resumes" in client.get(
        "/conquest/1").text
    client.post("/api/seasons/1/operator/schedule/resume", headers=BEARER)
    skipped = client.post("/api/seasons/1/operator/schedule/skip", headers=BEARER).json()
    assert skipped["skipped"] == 1 and skipped["schedule"]["countdown"]["slot"] == 2


def test_the_console_sets_pauses_resumes_and_skips(client: TestClient) -> None:
    assert client.post("/conquest/operator/sign-in", data={"token": ADMIN_TOKEN}).status_code == 200
    refused = client.post("/conquest/operator/1/schedule", data={"kind": "every", "minutes": "0"})
    assert refused.status_code == 422 and "minutes: must be a whole number" in refused.text
    done = client.post("/conquest/operator/1/schedule", data={"kind": "daily", "at": "06:30"})
    assert "schedule set: daily at 06:30 UTC" in done.text
    assert "airing paused" in client.post("/conquest/operator/1/pause").text
    assert "airing resumed" in client.post("/conquest/operator/1/resume").text
    assert "will be passed over" in client.post("/conquest/operator/1/skip").text
    client.post("/conquest/operator/sign-out")
    assert client.post("/conquest/operator/1/pause").status_code == 401


def test_the_season_over_says_so(client: TestClient, star_season: Path) -> None:
    client.put("/api/seasons/1/operator/schedule", headers=BEARER,
               json={"kind": "daily", "at": "18:00"})
    list(season.fight(star_season, None))
    view = client.get("/api/seasons/1/schedule").json()["countdown"]
    assert view["status"] == "over"
    assert "The season is over: no more episodes." in client.get("/conquest/1").text


def test_a_real_clock_airs_a_slot_every_two_seconds(client: TestClient, star_season: Path,
                                                    ) -> None:
    answer = client.put("/api/seasons/1/operator/schedule", headers=BEARER,
                        json={"kind": "every", "seconds": 2})
    assert answer.status_code == 200
    deadline = time.monotonic() + 60  # generous: only that it happens is asserted
    aired: list[int] = []
    while time.monotonic() < deadline:
        recent = client.get("/api/seasons/1/operator/schedule", headers=BEARER).json()["recent"]
        aired = [slot["battle"] for slot in recent if slot["outcome"] == "aired"]
        if len(aired) >= 2:
            break
        time.sleep(0.2)
    assert len(aired) >= 2
    assert len(set(aired)) == len(aired)  # one battle per slot
