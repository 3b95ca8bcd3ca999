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
from fairfight.ballot.state import Phase
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


def _bring_to(database: Path, tables: list[dict[int, str]], phase: Phase) -> None:
    """Play every table (each person answering as the Pollster) until it asks for `phase`."""
    store = BallotStore(ballot_database_url(f"sqlite:///{database}"))
    pollster = make_bots(["pollster"])[0]
    for table in tables:
        for _ in range(40):
            row = store.load(table[-1])
            game = row.game() if row is not None else None
            assert row is not None and game is not None
            if game.state.phase is phase:
                break
            for seat in game.people_asked():
                store.answer(row.id, seat, row.version, pollster.decide(game.state, seat))
        else:
            raise AssertionError(f"table {table[-1]} never reached {phase.value}")
    store.engine.dispose()


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
        with served(database, 1, rate_limits_enabled="false") as (base, _):
            _health(base)  # warm up
            floor = _p99(_health(base))
            moves, delays = asyncio.run(_drive_people(base, people_tables))
            pages = _seat_pages(base, people_tables)
            step_pages = {name: _read_twice(base, tables) for name, tables in step_tables.items()}
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
        _line(f"GET /api/health p99 while bots play ({bot_seconds:.1f} s)",
              _p99(health_under_bots), floor, 0.050)


if __name__ == "__main__":
    main()
