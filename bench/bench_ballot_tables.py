"""Ballot tables: 200 open tables of 4 people each, driven through the HTTP API on loopback.

A real server (`fairfight serve`, one uvicorn process on 127.0.0.1) on a throwaway SQLite file.
The tables are made before the clock starts, straight in the tables' database with
`BallotStore.create` (each under its own client address, so the per-client cap of open tables
does not apply) and every seat joined, so all 200 games are under way. Then, with live streams
open for every seat of a sample of tables:

- moves: each table plays draft steps, every person reading their seat (`GET`) and answering
  (`POST .../move` with the version it answers), a few tables at once; the figure is the p99 of
  the moves (target <= 150 ms);
- live updates: from the moment the move that completes a step is sent to the moment each other
  seat's stream of that table delivers the new version (p99, target <= 1 s; streams poll the
  row every `POLL_SECONDS`);
- the seat page: every person's page (HTML, with the hand as cards and the map of states) read
  once, two at a time, with the 200 tables open (p95, target <= 100 ms); then the same for
  tables at the declare step of a presidential year (2028: ~480 races up, the advice and each
  declaration's chance on the page) and at the withdraw step, each page read once and then
  once more, two tables at a time (the second read finds the seat's view kept for that state
  version);
- the seat page when its step opens, prepared: as many tables again, each brought to one
  answer short of the declare step of 2028 (or its withdraw step), with a live stream open for
  every seat; the bench sends that last answer through the API, and each person reads their
  page as soon as their stream announces the new version, as a person's browser would. The
  move that opens the step prepares the asked seats' pages in the background
  (`web.ballot.prepared`), so this is the first read people meet in play; the figure above
  ("at declare 2028", tables that start at the step, every page built by its own read) is
  the same read with nothing prepared (a page whose preparation was skipped, or a process
  that did not see the move);
- health while bots play: tables of one person and three bots, the person answering (each answer
  makes the server play the bots on) and some leaving (the stand-in then plays the whole game in
  that request), while `GET /api/health` is measured (p99, target <= 50 ms).

Baseline, measured in the same run against the same server: `GET /api/health` on an idle
server, the HTTP floor of this machine; every figure is also given as a ratio to it.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from bench.loadgen import Answer, Request, run_load
from bench.served import served
from fairfight.ballot.bots import make_bots
from fairfight.ballot.players import Player
from fairfight.ballot.state import Phase, to_data
from fairfight.ballot.store import BallotStore
from fairfight.ballot.tables import named_config
from fairfight.web.ballot.live import POLL_SECONDS
from fairfight.web.ballot.routes import ballot_database_url
from fairfight.web.ballot.service import CONFIG_NAME

__all__ = ["main"]

TABLES = 200
PEOPLE = 4
STEPS = 2
"""Draft steps each of the 200 tables plays: 200 x 2 x 4 reads and moves."""
TABLES_AT_ONCE = 4
"""Tables whose people are reading and answering at the same moment."""
WATCHED_TABLES = 25
"""Tables with a live stream open for every seat (100 streams)."""
BOT_TABLES = 24
BOT_TABLE_MOVES = 6
LEAVERS = 4
"""Bot tables whose person leaves, so the stand-in plays the rest of the game in one request."""
STEP_TABLES = 40
"""Tables brought to the declare step of 2028, and as many to its withdraw step, before the
server starts (each seat answered as the Pollster would, so every seat declares)."""
PREPARED_TABLES = 20
"""Tables brought to one answer short of the declare step of 2028, and as many of its withdraw
step, for the prepared pages' figure (each beside a twin with the same key, played to the step
to count the answers)."""
TWICE_AT_ONCE = 2
"""Tables whose seat pages are read once and then again together: 8 declare pages of a
presidential year, well inside the kept pages' budget (`seat_views.SEAT_VIEWS_BYTES`)."""
HEALTH_CHECKS = 600
HEALTH_CLIENTS = 2


def _p99(latencies: list[float]) -> float:
    return statistics.quantiles(latencies, n=100, method="inclusive")[98]


def _answer(game: dict[str, Any]) -> dict[str, Any]:
    """The simplest legal answer to what a seat is asked (the first card of a pack, no
    declarations, no bill, abstain, 'no', the lowest cards over the hand limit)."""
    phase = game["phase"]
    simple: dict[str, dict[str, Any]] = {
        "declare": {"type": "Declarations", "entries": []},
        "withdraw": {"type": "Withdrawals", "races": []},
        "author": {"type": "BillDraft", "tags": [], "rider": -1},
        "amend-propose": {"type": "AmendmentDraft", "tags": []},
        "amend-vote": {"type": "AmendmentVote", "choice": "abstain"},
    }
    if phase == "draft":
        return {"type": "DraftPick", "card": game["pack"][0]["id"]}
    if phase == "discard":
        need = int(game["prompt"][0].split("discard ")[1].split(" ")[0])
        return {"type": "Discards", "cards": sorted(c["id"] for c in game["hand"])[:need]}
    return simple.get(phase, {"type": "YesNo", "yes": False})


def _make_tables(database: Path, kinds: list[str], count: int, tag: str) -> list[dict[int, str]]:
    """`count` started tables of `kinds`; each as {seat: token} with its id under -1."""
    store = BallotStore(ballot_database_url(f"sqlite:///{database}"))
    config = named_config(CONFIG_NAME, "points").model_copy(update={"year_cap": 2})
    made = []
    for number in range(count):
        table_id, _, tokens = store.create(config, kinds, client=f"bench-{tag}-{number}")
        for seat in tokens:
            store.join(table_id, seat)
        made.append({-1: table_id} | tokens)
    store.engine.dispose()
    return made


def _answers_to(store: BallotStore, table_id: str, phase: Phase, limit: int | None = None,
                pollsters: list[Player] | None = None) -> int:
    """Play the table, each person answering as a Pollster of their own (`pollsters`, fresh
    ones by default), until it asks for `phase` or `limit` answers are given; how many answers
    that took."""
    pollsters = pollsters or make_bots(["pollster"] * PEOPLE)
    given = 0
    for _ in range(40):
        row = store.load(table_id)
        game = row.game() if row is not None else None
        assert row is not None and game is not None
        if game.state.phase is phase:
            return given
        for seat in game.people_asked():
            if given == limit:
                return given
            store.answer(row.id, seat, row.version, pollsters[seat].decide(game.state, seat))
            given += 1
    raise AssertionError(f"table {table_id} never reached {phase.value}")


def _bring_to(database: Path, tables: list[dict[int, str]], phase: Phase) -> None:
    """Play every table (each person answering as the Pollster) until it asks for `phase`."""
    store = BallotStore(ballot_database_url(f"sqlite:///{database}"))
    for table in tables:
        _answers_to(store, table[-1], phase)
    store.engine.dispose()


_LastAnswer = tuple[int, int, dict[str, Any]]
"""The answer that opens a step: (seat, the version it answers, the decision as in a record)."""


def _bring_short_of(database: Path, tables: list[dict[int, str]], phase: Phase,
                    ) -> list[_LastAnswer]:
    """Play every table to one answer short of `phase`: a twin with the same key is played to
    the step first to count the answers (fresh Pollsters play the same game on the same key);
    the last answer, the one that opens the step, is returned for the bench to send."""
    store = BallotStore(ballot_database_url(f"sqlite:///{database}"))
    config = named_config(CONFIG_NAME, "points").model_copy(update={"year_cap": 2})
    last = []
    for number, table in enumerate(tables):
        row = store.load(table[-1])
        assert row is not None
        twin, _, tokens = store.create(config, ["human"] * PEOPLE,
                                       client=f"bench-twin-{number}", key=row.key)
        for seat in tokens:
            store.join(twin, seat)
        short = _answers_to(store, twin, phase) - 1
        pollsters = make_bots(["pollster"] * PEOPLE)
        assert _answers_to(store, table[-1], phase, short, pollsters) == short
        row = store.load(table[-1])
        game = row.game() if row is not None else None
        assert row is not None and game is not None
        seat = next(s for s in game.people_asked() if s not in row.answered())
        decision = pollsters[seat].decide(game.state, seat)
        last.append((seat, row.version, to_data(decision)))
    store.engine.dispose()
    return last


class _Streams:
    """Live streams of every seat of some tables, noting when each version first arrives."""

    def __init__(self) -> None:
        self.arrived: dict[tuple[str, int, int], float] = {}
        self.tasks: list[asyncio.Task[None]] = []

    async def watch(self, client: httpx.AsyncClient, table: str, seat: int, token: str) -> None:
        url = f"/ballot/tables/{table}/seats/{seat}/events"
        async with client.stream("GET", url, headers={"X-Seat-Token": token}) as answer:
            async for line in answer.aiter_lines():
                if line.startswith("id: "):
                    self.arrived.setdefault((table, seat, int(line[4:])), time.perf_counter())


async def _play_step(
    client: httpx.AsyncClient,
    table: dict[int, str],
    moves: list[float],
    sent: dict[tuple[str, int], tuple[float, int]],
) -> None:
    """Every person of the table reads their seat and answers; notes when the move that
    played the step was sent, and by whom."""
    table_id = table[-1]
    views = await asyncio.gather(*(
        client.get(f"/api/ballot/tables/{table_id}/seats/{seat}",
                   headers={"X-Seat-Token": table[seat]})
        for seat in range(PEOPLE)
    ))
    for seat, view in enumerate(views):
        body = view.json()
        move = {"version": body["version"], "decision": _answer(body["game"])}
        started = time.perf_counter()
        answer = await client.post(f"/api/ballot/tables/{table_id}/seats/{seat}/move",
                                   json=move, headers={"X-Seat-Token": table[seat]})
        moves.append(time.perf_counter() - started)
        assert answer.status_code == 200, answer.text
        if answer.json()["version"] > body["version"]:
            sent[(table_id, answer.json()["version"])] = (started, seat)


async def _drive_people(base: str, tables: list[dict[int, str]]) -> tuple[list[float], list[float]]:
    """Moves at every table (a few at once) with the watched tables' streams open; returns
    the move latencies and the stream delays."""
    streams = _Streams()
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    timeout = httpx.Timeout(60.0)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as watcher, \
            httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as client:
        for table in tables[:WATCHED_TABLES]:
            for seat in range(PEOPLE):
                streams.tasks.append(asyncio.create_task(
                    streams.watch(watcher, table[-1], seat, table[seat])))
        await asyncio.sleep(2 * POLL_SECONDS + 1)  # every stream open and read once
        moves: list[float] = []
        sent: dict[tuple[str, int], tuple[float, int]] = {}
        gate = asyncio.Semaphore(TABLES_AT_ONCE)

        async def play(table: dict[int, str]) -> None:
            async with gate:
                await _play_step(client, table, moves, sent)

        for _ in range(STEPS):
            await asyncio.gather(*(play(table) for table in tables))
        await asyncio.sleep(2 * POLL_SECONDS + 1)  # the last updates reach their streams
        for task in streams.tasks:
            task.cancel()
        await asyncio.gather(*streams.tasks, return_exceptions=True)
    watched = {table[-1] for table in tables[:WATCHED_TABLES]}
    delays = []
    for (table_id, version), (started, mover) in sent.items():
        if table_id not in watched:
            continue
        for seat in range(PEOPLE):
            if seat != mover:
                arrived = streams.arrived.get((table_id, seat, version))
                delays.append(arrived - started if arrived is not None else float("inf"))
    return moves, delays


async def _drive_bots(base: str, tables: list[dict[int, str]]) -> int:
    """The person of each bot table answers; some leave. Returns the requests made."""
    made = 0
    async with httpx.AsyncClient(base_url=base, timeout=httpx.Timeout(300.0)) as client:
        async def person(number: int, table: dict[int, str]) -> None:
            nonlocal made
            table_id, headers = table[-1], {"X-Seat-Token": table[0]}
            if number < LEAVERS:
                await client.post(f"/api/ballot/tables/{table_id}/seats/0/leave", headers=headers)
                made += 1
                return
            for _ in range(BOT_TABLE_MOVES):
                read = await client.get(f"/api/ballot/tables/{table_id}/seats/0", headers=headers)
                while read.status_code == 503:  # the tables' pool is full: ask again shortly
                    await asyncio.sleep(0.2)
                    read = await client.get(f"/api/ballot/tables/{table_id}/seats/0",
                                            headers=headers)
                view = read.json()
                if view["status"] != "playing" or not view["game"]["asked"]:
                    return
                move = {"version": view["version"], "decision": _answer(view["game"])}
                await client.post(f"/api/ballot/tables/{table_id}/seats/0/move", json=move,
                                  headers=headers)
                made += 2

        await asyncio.gather(*(person(n, table) for n, table in enumerate(tables)))
    return made


def _health(base: str) -> list[float]:
    def check(request: Request, answer: Answer) -> None:
        assert answer.status == 200, answer

    requests = [Request("GET", "/api/health")] * HEALTH_CHECKS
    return run_load(base, requests, HEALTH_CLIENTS, check)[1]


def _seat_pages(base: str, tables: list[dict[int, str]]) -> list[float]:
    """The seat page (HTML: the hand as cards, the map, the question) of every person of
    `tables`, each read once, two readers at once."""
    def check(request: Request, answer: Answer) -> None:
        assert answer.status == 200, answer

    requests = [
        Request("GET", f"/ballot/tables/{table[-1]}/seats/{seat}",
                headers=(("X-Seat-Token", table[seat]),))
        for table in tables for seat in range(PEOPLE)
    ]
    return run_load(base, requests, HEALTH_CLIENTS, check)[1]


def _read_twice(base: str, tables: list[dict[int, str]]) -> tuple[list[float], list[float]]:
    """Every seat page of `tables` read once, then again, a few tables at a time (a reload, or
    the page after its JSON twin): the first reads and the second reads' latencies."""
    first: list[float] = []
    again: list[float] = []
    for start in range(0, len(tables), TWICE_AT_ONCE):
        batch = tables[start:start + TWICE_AT_ONCE]
        first += _seat_pages(base, batch)
        again += _seat_pages(base, batch)
    return first, again


async def _read_when_told(watcher: httpx.AsyncClient, reader: httpx.AsyncClient,
                          table: dict[int, str], seat: int, version: int, opened: asyncio.Event,
                          ) -> float:
    """Watch the seat's live stream; once it announces a version after `version`, read the
    seat's page (HTML) as the person's browser would: that read's latency. `opened` is set
    when the stream has told the version it starts at."""
    headers = {"X-Seat-Token": table[seat]}
    base = f"/ballot/tables/{table[-1]}/seats/{seat}"
    async with watcher.stream("GET", f"{base}/events", headers=headers) as stream:
        async for line in stream.aiter_lines():
            if line.startswith("id: "):
                opened.set()
                if int(line[4:]) > version:
                    break
    started = time.perf_counter()
    page = await reader.get(base, headers=headers)
    assert page.status_code == 200, page.text
    return time.perf_counter() - started


async def _prepared_batch(watcher: httpx.AsyncClient, reader: httpx.AsyncClient,
                          tables: list[dict[int, str]], last: list[_LastAnswer]) -> list[float]:
    """The streams of every seat of `tables` opened, then each table's last answer sent: the
    pages' first reads, each when its stream announced the step."""
    opened = [asyncio.Event() for _ in range(len(tables) * PEOPLE)]
    reads = [asyncio.create_task(_read_when_told(
        watcher, reader, table, seat, last_answer[1], opened[number * PEOPLE + seat]))
        for number, (table, last_answer) in enumerate(zip(tables, last, strict=True))
        for seat in range(PEOPLE)]
    await asyncio.gather(*(event.wait() for event in opened))
    for table, (seat, version, decision) in zip(tables, last, strict=True):
        moved = await reader.post(f"/api/ballot/tables/{table[-1]}/seats/{seat}/move",
                                  json={"version": version, "decision": decision},
                                  headers={"X-Seat-Token": table[seat]})
        assert moved.status_code == 200 and moved.json()["version"] > version, moved.text
    return list(await asyncio.gather(*reads))


async def _prepared_reads(base: str, tables: list[dict[int, str]], last: list[_LastAnswer],
                          ) -> list[float]:
    """Every seat page of `tables` read when its step opens by a real move (`_prepared_batch`),
    a few tables at a time."""
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    timeout = httpx.Timeout(60.0)
    latencies: list[float] = []
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as watcher, \
            httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as reader:
        for start in range(0, len(tables), TWICE_AT_ONCE):
            end = start + TWICE_AT_ONCE
            latencies += await _prepared_batch(watcher, reader, tables[start:end],
                                               last[start:end])
    return latencies


def _p95(latencies: list[float]) -> float:
    return statistics.quantiles(latencies, n=100, method="inclusive")[94]


def _line(label: str, seconds: float, floor: float, target: float) -> None:
    verdict = "ok" if seconds <= target else "OVER TARGET"
    print(f"{label:<52} {seconds * 1000:>9.1f} ms  ({seconds / floor:,.1f}x baseline; "
          f"target {target * 1000:.0f} ms: {verdict})", flush=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "bench.db"
        people_tables = _make_tables(database, ["human"] * PEOPLE, TABLES, "people")
        bot_tables = _make_tables(
            database, ["human", "pollster", "machine", "pollster"], BOT_TABLES, "bots")
        step_tables = {}
        for phase in (Phase.DECLARE, Phase.WITHDRAW):
            step_tables[phase.value] = _make_tables(
                database, ["human"] * PEOPLE, STEP_TABLES, phase.value)
            _bring_to(database, step_tables[phase.value], phase)
        prepared_tables = {}
        last_answers = {}
        for phase in (Phase.DECLARE, Phase.WITHDRAW):
            prepared_tables[phase.value] = _make_tables(
                database, ["human"] * PEOPLE, PREPARED_TABLES, f"{phase.value}-prepared")
            last_answers[phase.value] = _bring_short_of(
                database, prepared_tables[phase.value], phase)
        with served(database, 1, rate_limits_enabled="false") as (base, _):
            _health(base)  # warm up
            floor = _p99(_health(base))
            moves, delays = asyncio.run(_drive_people(base, people_tables))
            pages = _seat_pages(base, people_tables)
            step_pages = {name: _read_twice(base, tables) for name, tables in step_tables.items()}
            prepared_pages = {name: asyncio.run(_prepared_reads(base, tables, last_answers[name]))
                              for name, tables in prepared_tables.items()}
            health_under_bots: list[float] = []
            loaded = threading.Thread(target=lambda: health_under_bots.extend(_health(base)))
            started = time.perf_counter()
            bots = threading.Thread(target=lambda: asyncio.run(_drive_bots(base, bot_tables)))
            bots.start()
            time.sleep(0.5)  # the bots are playing before health is measured
            loaded.start()
            loaded.join()
            bots.join()
            bot_seconds = time.perf_counter() - started
        print(f"{TABLES} tables x {PEOPLE} people, {len(moves)} moves, {len(delays)} stream "
              f"deliveries ({WATCHED_TABLES * PEOPLE} streams), {TABLES_AT_ONCE} tables at once",
              flush=True)
        print(f"{'baseline: GET /api/health p99, idle server':<52} {floor * 1000:>9.1f} ms",
              flush=True)
        _line("move p99", _p99(moves), floor, 0.150)
        print(f"{'move median':<52} {statistics.median(moves) * 1000:>9.1f} ms", flush=True)
        _line("move to the other seats' live streams p99", _p99(delays), floor, 1.0)
        _line(f"seat page (HTML, {len(pages)} reads) p95", _p95(pages), floor, 0.100)
        for name, (first, again) in step_pages.items():
            _line(f"seat page at {name} 2028 ({len(first)} reads) p95", _p95(first), floor, 0.100)
            _line(f"seat page at {name} 2028, read again p95", _p95(again), floor, 0.100)
        for name, reads in prepared_pages.items():
            _line(f"seat page at {name} 2028 opened by a move ({len(reads)}) p95", _p95(reads),
                  floor, 0.100)
        _line(f"GET /api/health p99 while bots play ({bot_seconds:.1f} s)",
              _p99(health_under_bots), floor, 0.050)


if __name__ == "__main__":
    main()
