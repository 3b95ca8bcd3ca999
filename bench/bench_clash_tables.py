"""Two-player clash games through the HTTP API: 100 concurrent games on a real server.

Target (issue 23): from the second commit of a turn to both sides holding that turn's events,
<= 1 s at the 99th percentile. A real server (`fairfight serve`: uvicorn, one process, SQLite)
on loopback; 100 online tables on a small board, each seat its own secret cookie. Each game
plays TURNS turns: blue orders and commits, then red commits (the turn runs) and both sides
fetch the turn's events; the clock runs from red's commit to the later of the two answers.
Baseline in the same run: the same 100 games' seat state (`GET /api/clash/play/<game>`, a
read through the same store and fog), so the ratio is the cost of running and storing a turn.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from bench.loadgen import Answer, Request, read_answer
from bench.served import served
from fairfight.web.clash.seats import SEAT_COOKIE, seat_link

GAMES = 100
TURNS = 3
TURNS_POOL = '{"workers": 2, "queue": 100, "wait_seconds": 15}'
"""The server's turns pool with room for every game's turn: by default (16 waiting) a burst of
100 commits from one client is what the pool sheds with 503, and here the turns are measured."""
PACE_SECONDS = 10.0
"""In the paced run, each game plays a turn every 10 s, the games' starts spread over the
first 10 s: 10 turns a second arriving at the server, as players who read before they
commit. The burst run sends every game's turn at once, the worst case."""

BOARD: dict[str, Any] = {
    "name": "Bench crossing", "seed_key": "bench-crossing",
    "board": {"rows": [". . . . . . .", ". . . . . . .", ". . . . . . ."],
              "tiles": [{"at": [0, 1], "name": "Millbrook",
                         "city": {"owner": "blue", "works": 1}}]},
    "players": [{"id": "blue"}, {"id": "red"}],
    "units": [
        {"id": "b-rifles", "player": "blue", "class": "rifle-company", "at": [0, 1]},
        {"id": "b-guns", "player": "blue", "class": "field-battery", "at": [1, 0],
         "stance": "hold"},
        {"id": "b-tank", "player": "blue", "class": "armoured-battalion", "at": [1, 2],
         "stance": "advance"},
        {"id": "r-front", "player": "red", "class": "rifle-company", "at": [3, 1],
         "stance": "hold"},
        {"id": "r-reserve", "player": "red", "class": "rifle-company", "at": [6, 1]},
    ],
}


def _p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, (99 * len(ordered)) // 100)]


def _tables(base: str) -> list[tuple[str, dict[str, str]]]:
    """GAMES new online tables: each game's id and a cookie header per side."""
    made = []
    with httpx.Client(base_url=base, timeout=30) as client:
        for _ in range(GAMES):
            answer = client.post("/api/clash/tables", json={"scenario_data": BOARD})
            assert answer.status_code == 200, answer.text
            body = answer.json()
            game = body["game"]
            cookies = {}
            for side, link in body["seats"].items():
                token = link.partition("token=")[2]
                assert link == seat_link(game, token), link
                cookies[side] = f"{SEAT_COOKIE.format(game=game)}={token}"
            made.append((game, cookies))
    return made


class _Seat:
    """One side's keep-alive connection, with its seat cookie (the lean client of
    `bench.loadgen`: a request costs the generator microseconds, not the server's CPU)."""

    def __init__(self, host: str, port: int, cookie: str) -> None:
        self.host, self.port, self.cookie = host, port, cookie
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        self.reader, self.writer = await asyncio.open_connection(self.host, self.port)

    async def ask(self, method: str, path: str, body: Any = None) -> Answer:
        assert self.reader is not None and self.writer is not None
        request = Request(method, path, body, (("Cookie", self.cookie),))
        self.writer.write(request.encode(f"{self.host}:{self.port}"))
        return await read_answer(self.reader)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def _play(game: str, blue: _Seat, red: _Seat, turn_latencies: list[float],
                read_latencies: list[float], start: float, pace: float,
                first_turn: int) -> None:
    for index, turn in enumerate(range(first_turn, first_turn + TURNS)):
        await asyncio.sleep(max(0.0, start + index * pace - time.perf_counter()))
        if pace:   # the server closes a connection idle for 5 s: a fresh one each turn
            for side in (blue, red):
                side.close()
                await side.open()
        started = time.perf_counter()
        state = await blue.ask("GET", f"/api/clash/play/{game}")
        read_latencies.append(time.perf_counter() - started)
        assert state.status == 200, state
        order = {"turn": turn, "unit": "b-guns",
                 "orders": {"actions": [{"do": "bombard", "target": [3, 1]}]}}
        assert (await blue.ask("POST", f"/api/clash/play/{game}/orders", order)).status == 200
        committed = await blue.ask("POST", f"/api/clash/play/{game}/commit", {"turn": turn})
        assert committed.status == 200, committed
        started = time.perf_counter()
        second = await red.ask("POST", f"/api/clash/play/{game}/commit", {"turn": turn})
        assert second.status == 200, second
        seen = await asyncio.gather(*(side.ask("GET", f"/api/clash/play/{game}/turns/{turn}")
                                      for side in (blue, red)))
        turn_latencies.append(time.perf_counter() - started)
        for answer in seen:
            assert answer.status == 200 and answer.body["events"], answer


async def _all(base: str, tables: list[tuple[str, dict[str, str]]], pace: float,
               first_turn: int) -> tuple[list[float], list[float]]:
    host, _, port = base.removeprefix("http://").partition(":")
    seats = [(game, _Seat(host, int(port), cookies["blue"]), _Seat(host, int(port),
                                                                   cookies["red"]))
             for game, cookies in tables]
    for _, blue, red in seats:   # connections open before the clock starts
        if not pace:
            await blue.open()
            await red.open()
    turns: list[float] = []
    reads: list[float] = []
    now = time.perf_counter()
    await asyncio.gather(*(_play(game, blue, red, turns, reads, now + number * pace / GAMES,
                                 pace, first_turn)
                           for number, (game, blue, red) in enumerate(seats)))
    for _, blue, red in seats:
        blue.close()
        red.close()
    return turns, reads


def main() -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    print(f"(load average {load:.1f} on {os.cpu_count()} cores; the server and the clients "
          "share them)", flush=True)
    with tempfile.TemporaryDirectory() as folder, \
            served(Path(folder) / "bench.db", 1, rate_limits_enabled="false",
                   clash_games_per_client=str(GAMES),  # one loopback client
                   pool_turns=TURNS_POOL) as (base, _):
        tables = _tables(base)
        for label, pace, first_turn in (("burst, every turn at once", 0.0, 1),
                                        (f"paced, a turn per game every {PACE_SECONDS:g} s",
                                         PACE_SECONDS, 1 + TURNS)):
            started = time.perf_counter()
            turns, reads = asyncio.run(_all(base, tables, pace, first_turn))
            _report(label, turns, reads, time.perf_counter() - started)


def _report(label: str, turns: list[float], reads: list[float], seconds: float) -> None:
    p99, read = _p99(turns), _p99(reads)
    print(f"{GAMES} two-player games x {TURNS} turns over HTTP, {label} ({seconds:.1f} s): "
          f"second commit to both sides' events p99 {p99 * 1000:.0f} ms, median "
          f"{sorted(turns)[len(turns) // 2] * 1000:.0f} ms (target p99 <= 1000 ms: "
          f"{'meets' if p99 <= 1 else 'MISSES'}); {p99 / read:,.1f}x the seat state read "
          f"(p99 {read * 1000:.0f} ms)", flush=True)

if __name__ == "__main__":
    main()
