"""The show's pages under a crowd: season home, episode and faction card from 20 concurrent
clients against one `fairfight serve` worker, and season homes per second.

Baseline in the same run: the same 20 clients on a bare FastAPI route (`async def` answering
a short text) served by uvicorn alone, one process, so each ratio says what the page costs
beyond the HTTP floor of this machine (the service runs with its rate limits off). The
season has 40 battles aired and title odds of 2,000 simulated seasons (ready before the clock
starts), so the home carries its forecast tables. The load generator shares the two cores
with the server. A profile of the kept home served in-process closes the report: what a page
costs once it is rendered.
"""

from __future__ import annotations

import asyncio
import cProfile
import io
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from bench.loadgen import Answer, Request, run_load
from bench.served import free_port, served
from fairfight.conquest.rules import scenario
from fairfight.conquest.store import season

CLIENTS = 20
REQUESTS = 3000
BATTLES = 40
FORECAST_SEASONS = "2000"
PROFILED = 400
BARE_APP = """
import sys
import uvicorn
from fastapi import FastAPI
from fastapi.responses import PlainTextResponse
app = FastAPI()
@app.get("/")
async def hello() -> PlainTextResponse:
    return PlainTextResponse("hello")
uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_level="warning", access_log=False)
"""


@contextmanager
def _bare() -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen([sys.executable, "-c", BARE_APP, str(port)])
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(400):
            try:
                httpx.get(base, timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        yield base
    finally:
        process.terminate()
        process.wait()


def _check(request: Request, answer: Answer) -> None:
    if answer.status != 200:
        raise RuntimeError(f"{request.path}: {answer.status}")


def _p(latencies: list[float], share: float) -> float:
    ordered = sorted(latencies)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))] * 1000


def _measure(base: str, path: str) -> tuple[float, float, float]:
    """(p50 ms, p95 ms, requests a second) of REQUESTS loads by CLIENTS clients."""
    run_load(base, [Request("GET", path)] * (CLIENTS * 5), CLIENTS, _check)  # warm up
    seconds, latencies = run_load(base, [Request("GET", path)] * REQUESTS, CLIENTS, _check)
    return _p(latencies, 0.5), _p(latencies, 0.95), REQUESTS / seconds


def _forecast_ready(base: str) -> None:
    for _ in range(1200):
        if httpx.get(f"{base}/api/seasons/1/forecast").json().get("status") == "ready":
            return
        time.sleep(0.25)
    raise RuntimeError("the forecast never became ready")


def _profile(path: Path) -> None:
    """The kept home's route called on one event loop (no HTTP, no middleware; the key's
    read goes to a thread, as in the route): its cost per request and the top of its
    profile by own time."""
    from fastapi.testclient import TestClient
    from starlette.requests import Request as Asked

    from fairfight.web import WebSettings, create_app
    from fairfight.web.conquest.page_cache import season_mark
    from fairfight.web.conquest.routes import pages

    app = create_app(WebSettings(database_url=f"sqlite:///{path}", forecast_seasons=0))
    with TestClient(app) as client:
        client.get("/conquest/1")
        conquest = app.state.conquest
        asked = Asked({"type": "http", "method": "GET", "path": "/conquest/1", "app": app,
                       "headers": [(b"host", b"bench")], "query_string": b"",
                       "path_params": {"season_id": 1}, "scheme": "http",
                       "server": ("bench", 80)})
        async def homes() -> None:  # the route is a coroutine: one loop for all the calls
            for _ in range(PROFILED):
                await pages.season_home(asked, 1, conquest)

        started = time.perf_counter()
        asyncio.run(homes())
        whole = (time.perf_counter() - started) / PROFILED * 1000
        started = time.perf_counter()
        for _ in range(PROFILED):
            season_mark(asked, conquest, 1)
        marked = (time.perf_counter() - started) / PROFILED * 1000
        print(f"the kept home's route in-process: {whole:.2f} ms a request, of which "
              f"{marked:.2f} ms the version read (one read transaction: battles, ledger seq, "
              "beacon, reveal, schedule, kept odds)", flush=True)
        profile = cProfile.Profile()
        started = time.perf_counter()
        profile.enable()
        asyncio.run(homes())
        profile.disable()
        seconds = time.perf_counter() - started
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("tottime").print_stats(8)
    print(f"profile ({seconds / PROFILED * 1000:.2f} ms a request under the profiler), "
          "top own time:", flush=True)
    for line in out.getvalue().splitlines():
        if line.strip()[:1].isdigit() and "function calls" not in line:
            print("  " + line.strip(), flush=True)


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench-pages-") as scratch:
        path = Path(scratch) / "season.db"
        season.create_season(path, scenario.load_map("north-america"), "north-america",
                             seed="44" * 32)
        list(season.fight(path, BATTLES))
        faction = next(code for code, held in sorted(season.summary(path).board[
            "factions"].items()) if held["standing"])
        pages = (("season home", "/conquest/1"), ("episode", f"/conquest/1/battles/{BATTLES}"),
                 ("faction card", f"/conquest/1/factions/{faction}"))
        with _bare() as bare:
            floor = _measure(bare, "/")
        print(f"bare FastAPI route, {CLIENTS} clients: p50 {floor[0]:.1f} ms, "
              f"p95 {floor[1]:.1f} ms, {floor[2]:,.0f}/s", flush=True)
        with served(path, 1, forecast_seasons=FORECAST_SEASONS,
                    rate_limits_enabled="false") as (base, _):
            _forecast_ready(base)
            for label, page in pages:
                p50, p95, rate = _measure(base, page)
                print(f"{label:<13} {CLIENTS} clients: p50 {p50:6.1f} ms, p95 {p95:6.1f} ms "
                      f"({p95 / floor[1]:.1f}x the bare route's p95; target <= 5x), "
                      f"{rate:,.0f}/s on one worker", flush=True)
        _profile(path)


if __name__ == "__main__":
    main()
