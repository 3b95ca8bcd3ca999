"""One `fairfight serve --workers 2` on a real PostgreSQL, used as a deployment is: a stream on
one worker hears what the other did, clash and ballot games move between the workers, each
scheduled slot airs once while workers stop and restart, and SIGKILLed workers lose no
acknowledged contribution and record none twice.

One cluster and one server for the whole module (starting worker processes costs seconds);
three seasons in the one database keep the tests apart: 1 takes the kills, 2 the live
updates, 3 the schedule.
"""

from __future__ import annotations

import json
import random
import signal
import threading
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from fairfight.conquest.rules import scenario, tables
from fairfight.conquest.store import publication, season
from fairfight.web.conquest.event_listener import libpq_address
from tests.ballot.test_tables import simple_answer
from tests.web.live_support import BEARER, wait_until
from tests.web.ops.worker_support import PinnedClient, PinnedStream, ServedWorkers, served_workers
from tests.web.postgres_cluster import postgres_cluster
from tests.web.test_clash_seats import CROSSING

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")  # as test_conquest_postgres

KILL_SEASON, LIVE_SEASON, AIRING_SEASON = 1, 2, 3
KILLS = 3
LOAD_CLIENTS = 4
REQUESTS_PER_CONNECTION = 5
"""Each load client opens a new connection this often, so a restarted worker gets load too."""
ACKS_SEEN = 3
"""Acknowledgements a worker must give in a phase before the test moves on."""
AIRING_SECONDS = 2


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres_cluster() as url:
        north_america = scenario.load_map("north-america")
        for number in (KILL_SEASON, LIVE_SEASON, AIRING_SEASON):
            season.create_season(url, north_america, "north-america", seed=f"{number}7" * 32,
                                 max_battles=30 if number == AIRING_SEASON else 3)
        yield url


@pytest.fixture(scope="module")
def server(database: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedWorkers]:
    with served_workers(database, tmp_path_factory.mktemp("workers")) as served:
        yield served


def _contribute(client: PinnedClient, season_id: int, key: str, faction: str) -> httpx.Response:
    return client.post(f"/api/seasons/{season_id}/contributions",
                       json={"faction": faction, "amount": tables.POOL_STEP},
                       headers={"Idempotency-Key": key})


def _rows(database: str, query: str, *values: object) -> list[tuple[Any, ...]]:
    with psycopg.connect(libpq_address(database), autocommit=True) as connection:
        return connection.execute(query, values).fetchall()


# ------------------------------------------------------------------ live updates


def test_a_stream_on_one_worker_hears_what_the_other_did(server: ServedWorkers) -> None:
    writer, listener = server.pinned_pair()
    stream = PinnedStream(listener, f"/api/seasons/{LIVE_SEASON}/events")
    stream.opened()
    assert stream.connection == listener.connection, "the stream is on the listener's worker"
    assert listener.pid != writer.pid
    given = _contribute(writer, LIVE_SEASON, "live-1", "US-TX")
    assert given.status_code == 201, given.text
    ledger = stream.wait_for(1, "ledger")
    assert json.loads(ledger[0]["data"])["last_seq"] == given.json()["seq"]
    aired = writer.post(f"/api/seasons/{LIVE_SEASON}/operator/air", json={"count": 1},
                        headers=BEARER)
    assert aired.status_code == 200, aired.text
    battles = stream.wait_for(1, "battle")
    assert [json.loads(block["data"])["number"] for block in battles] == [
        aired.json()["battles"][0]["number"]]
    stream.close()  # the read stops at the next event: one more contribution ends it
    assert _contribute(writer, LIVE_SEASON, "live-2", "US-CA").status_code == 201
    wait_until(stream.ended.is_set, "the stream ends")
    for client in (writer, listener):
        client.close()


# ------------------------------------------------------------------ games between workers


def _seat(server: ServedWorkers, pid: int, link: str) -> PinnedClient:
    """A person on worker `pid` who opened their seat link there (the seat cookie)."""
    person = server.pinned_to(pid)
    opened = person.get(link, follow_redirects=False)
    assert opened.status_code == 303, opened.text
    return person


def _elsewhere(server: ServedWorkers, pid: int, person: PinnedClient) -> PinnedClient:
    """The same person (their cookies) on worker `pid`."""
    moved = server.pinned_to(pid)
    moved.http.cookies.update(person.http.cookies)
    return moved


def test_a_clash_game_moves_between_workers(server: ServedWorkers) -> None:
    on_a, on_b = server.pinned_pair()
    made = on_a.post("/api/clash/tables", json={"scenario_data": CROSSING})
    assert made.status_code == 200, made.text
    game, seats = made.json()["game"], made.json()["seats"]
    blue = _seat(server, on_b.pid, seats["blue"])  # the link opened on the other worker
    red = _seat(server, on_a.pid, seats["red"])
    moved = blue.post(f"/api/clash/play/{game}/orders", json={
        "turn": 1, "unit": "b-guns", "orders": {"actions": [{"do": "move", "path": [[0, 0]]}]}})
    assert moved.status_code == 200, moved.text
    assert blue.post(f"/api/clash/play/{game}/commit", json={"turn": 1}).status_code == 200
    red_on_b = _elsewhere(server, on_b.pid, red)
    assert red_on_b.post(f"/api/clash/play/{game}/commit", json={"turn": 1}).status_code == 200
    blue_on_a = _elsewhere(server, on_a.pid, blue)
    state = blue_on_a.get(f"/api/clash/play/{game}")
    assert state.status_code == 200, state.text
    assert state.json()["turns_played"] == [1]
    units = {unit["id"]: unit for unit in state.json()["view"]["units"]}
    assert units["b-guns"]["at"] == [0, 0]
    assert red.get(f"/api/clash/play/{game}").json()["turns_played"] == [1]
    for client in (on_a, on_b, blue, red, red_on_b, blue_on_a):
        client.close()


def test_a_ballot_table_is_played_on_both_workers(server: ServedWorkers) -> None:
    on_a, on_b = server.pinned_pair()
    made = on_a.post("/api/ballot/tables", json={"victory": "points", "years": 1,
                                                 "seats": ["human", "machine", "human"]})
    assert made.status_code == 200, made.text
    table = made.json()["id"]
    tokens = {link["seat"]: link["token"] for link in made.json()["seats"]}
    workers = (on_a, on_b)
    for turn, seat in enumerate(sorted(tokens)):  # each seat joins on another worker
        joined = workers[turn % 2].post(f"/api/ballot/tables/{table}/seats/{seat}/join",
                                        headers={"X-Seat-Token": tokens[seat]})
        assert joined.status_code == 200, joined.text
    moves = 0
    for _ in range(400):
        public = workers[moves % 2].get(f"/api/ballot/tables/{table}").json()
        if public["status"] == "over":
            break
        for seat in public["waiting_for"]:
            asking, answering = workers[moves % 2], workers[(moves + 1) % 2]
            headers = {"X-Seat-Token": tokens[seat]}
            view = asking.get(f"/api/ballot/tables/{table}/seats/{seat}", headers=headers)
            assert view.status_code == 200, view.text
            move = {"version": view.json()["version"],
                    "decision": simple_answer(view.json()["game"])}
            played = answering.post(f"/api/ballot/tables/{table}/seats/{seat}/move",
                                    json=move, headers=headers)
            assert played.status_code == 200, played.text
            moves += 1
    assert public["status"] == "over" and moves >= 2
    records = [client.get(f"/ballot/tables/{table}/record.jsonl") for client in workers]
    assert [record.status_code for record in records] == [200, 200]
    assert records[0].content == records[1].content
    assert on_b.get(f"/api/ballot/tables/{table}").json()["key"] == public["key"]
    on_a.close()
    on_b.close()


# ------------------------------------------------------------------ the schedule


def _slots(database: str) -> list[tuple[int, str, int | None, int, str | None]]:
    return [(int(slot), str(outcome), battle, int(missed), holder)
            for slot, outcome, battle, missed, holder in _rows(
                database, "SELECT slot, outcome, battle, missed, holder FROM airing_slot "
                "WHERE season_id = %s ORDER BY slot", AIRING_SEASON)]


def _slots_reach(database: str, count: int) -> bool:
    """Whether `count` slots were dealt with (asked a few times a second, not more: each
    question is a new database connection)."""
    if len(_slots(database)) >= count:
        return True
    time.sleep(0.2)
    return False


def _operator(server: ServedWorkers, method: str, path: str, **options: Any) -> Any:
    answer = httpx.request(method, f"{server.base}/api/seasons/{AIRING_SEASON}/{path}",
                           headers=BEARER, timeout=60, verify=False, **options)
    assert answer.status_code == 200, answer.text
    return answer.json()


def _lease_holder(database: str) -> str | None:
    ((holder,),) = _rows(database, "SELECT lease_holder FROM airing_schedule "
                         "WHERE season_id = %s", AIRING_SEASON)
    return None if holder is None else str(holder)


def test_each_slot_airs_once_while_the_workers_take_turns(server: ServedWorkers,
                                                          database: str) -> None:
    known = server.answering_pids()
    _operator(server, "PUT", "operator/schedule",
              json={"kind": "every", "seconds": AIRING_SECONDS})
    wait_until(partial(_slots_reach, database, 2), "two slots aired")
    first_holder = _slots(database)[-1][-1]
    # Stop (SIGTERM) the original workers in turn until the holder of the lease has stopped:
    # it hands the lease back on the way out, so the other worker airs the next slot.
    for pid in sorted(known):
        server.stop(pid, signal.SIGTERM)
        left_behind = _lease_holder(database)
        aired = len(_slots(database))  # the stopped worker is gone: a newer slot is another's
        wait_until(partial(_slots_reach, database, aired + 1), "airing goes on")
        if _slots(database)[-1][-1] != first_holder:
            assert left_behind != first_holder, "the stopped worker kept its lease"
            break
        known.add(server.newcomer(known))
    paused = _operator(server, "POST", "operator/schedule/pause")
    assert paused["paused"]
    slots = _slots(database)
    assert len({holder for *_, holder in slots}) > 1, "another worker took the schedule over"
    assert {outcome for _, outcome, *_ in slots} == {"aired"}
    battles = season.summary(f"{database}#{AIRING_SEASON}").battles
    assert sorted(battle or 0 for _, _, battle, _, _ in slots) == list(range(1, battles + 1))
    # every slot up to the last one dealt with aired once or is counted missed, never both
    assert slots[-1][0] == len(slots) + sum(missed for *_, missed, _ in slots)
    assert paused["last_slot"] == slots[-1][0]


# ------------------------------------------------------------------ SIGKILL durability


class _Load:
    """Contributions sent from threads, each on a connection of its own renewed every few
    requests; a request whose answer never came is sent again with the same key."""

    def __init__(self, base: str, pending: list[tuple[str, str]]) -> None:
        self.base = base
        self.pending = pending
        self.acknowledged: dict[str, dict[str, Any]] = {}
        self.answered_by: list[int] = []
        """The worker pid of each acknowledgement, in order."""
        self.unanswered = 0
        self.problems: list[BaseException] = []
        self.lock = threading.Lock()
        self._stop = threading.Event()
        self._threads: list[threading.Thread] = []

    def start(self) -> None:
        self._stop.clear()
        self._threads = [threading.Thread(target=self._work) for _ in range(LOAD_CLIENTS)]
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(120)
        assert not self.problems, self.problems

    def acks_of(self, pid: int, since: int) -> int:
        with self.lock:
            return self.answered_by[since:].count(pid)

    def _work(self) -> None:
        try:
            while not self._stop.is_set():
                try:
                    client = PinnedClient(self.base)
                except httpx.TransportError:
                    continue  # the worker died before its health answer
                try:
                    self._send_some(client)
                finally:
                    client.close()
        except BaseException as problem:  # noqa: BLE001 - handed to the test thread
            self.problems.append(problem)

    def _send_some(self, client: PinnedClient) -> None:
        for _ in range(REQUESTS_PER_CONNECTION):
            with self.lock:
                if self._stop.is_set() or not self.pending:
                    return
                key, code = self.pending.pop()
            try:
                answer = _contribute(client, KILL_SEASON, key, code)
            except httpx.TransportError as error:
                with self.lock:
                    self.pending.append((key, code))  # no answer: again, same key
                    if not isinstance(error, httpx.ConnectError):
                        self.unanswered += 1  # sent, then the worker died
                return
            if answer.status_code == 409:  # the same key still running in that worker
                with self.lock:
                    self.pending.append((key, code))
                continue
            assert answer.status_code == 201, answer.text
            with self.lock:
                assert self.acknowledged.setdefault(key, answer.json()) == answer.json()
                self.answered_by.append(client.pid)


def _wait_for_acks(load: _Load, pids: set[int], since: int, what: str) -> None:
    wait_until(lambda: bool(load.problems) or all(load.acks_of(pid, since) >= ACKS_SEEN
                                                  for pid in pids), what)
    assert not load.problems, load.problems


def test_killed_workers_lose_no_acknowledged_contribution(server: ServedWorkers,
                                                          database: str,
                                                          tmp_path: Path) -> None:
    address = f"{database}#{KILL_SEASON}"
    factions = sorted(season.summary(address).board["factions"])
    slots = [code for code in factions for _ in range(tables.POOL_CAP // tables.POOL_STEP)]
    random.Random(7).shuffle(slots)
    load = _Load(server.base, [(f"kill-{i}", code) for i, code in enumerate(slots)])
    workers = sorted(server.answering_pids())  # oldest first: the next to be killed
    known = set(workers)
    try:
        for _ in range(KILLS):
            round_start = len(load.answered_by)
            load.start()
            _wait_for_acks(load, set(workers), round_start, "both workers take contributions")
            victim, survivor = workers
            server.stop(victim, signal.SIGKILL)  # mid-load
            _wait_for_acks(load, {survivor}, len(load.answered_by),
                           "the other worker goes on answering, the retries included")
            load.stop()
            workers = [survivor, server.newcomer(known)]
            known.add(workers[1])
        load.start()
        _wait_for_acks(load, {workers[1]}, len(load.answered_by), "the restarted worker answers")
    finally:
        load.stop()
    assert len(known) == 2 + KILLS
    assert load.unanswered >= 1, "a kill should cut a request off"
    _assert_ledger_once(database, address, load.acknowledged)
    list(season.fight(address, None))
    season.reveal(address)
    publication.export_record(address, tmp_path / "record")
    assert any("replayed" in note for note in publication.verify_folder(tmp_path / "record"))


def _assert_ledger_once(database: str, address: str,
                        acknowledged: dict[str, dict[str, Any]]) -> None:
    """Every acknowledged contribution is in the ledger once, as acknowledged, and every
    ledger entry came from exactly one key."""
    ledger = season.summary(address).ledger
    by_seq = {entry["seq"]: entry for entry in ledger}
    keyed = dict(_rows(database, "SELECT key, ledger_seq FROM contribution_key "
                       "WHERE season_id = %s", KILL_SEASON))
    assert len(keyed) == len(ledger) == len(set(keyed.values())) == len(by_seq)
    assert set(keyed.values()) == set(by_seq)
    for key, answer in acknowledged.items():
        assert keyed[key] == answer["seq"], key
        entry = by_seq[answer["seq"]]
        assert (entry["faction"], entry["amount"]) == (answer["faction"], tables.POOL_STEP)

