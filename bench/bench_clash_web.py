"""Clash web benchmarks: the attack panel API and the overlay, measured through HTTP.

Targets (issue 12): the attack-panel API answers in <= 20 ms at the 95th percentile on the
§23 board (Belvoir Wood); the hostile-tile overlay of a 24x24 board with 30 units a side in
contact answers in <= 200 ms. Each is reported with its ratio to a baseline measured in the
same run: the engine call alone (the preview of the same specification; `overlay()`), so
the ratio is the cost of the web layer (routing, view, panel model, JSON).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from typing import Any

import yaml
from fastapi.testclient import TestClient

from fairfight.clash.knowledge import overlay
from fairfight.clash.preview import preview
from fairfight.clash.scenario import parse_scenario
from fairfight.clash.world import world_from_scenario
from fairfight.web import WebSettings, create_app
from fairfight.web.clash.games import COOKIE
from fairfight.web.clash.play import board_panel

PANEL_CALLS = 200
OVERLAY_CALLS = 20
SIDE = 24


def _timed_ms(work: Callable[[], object], calls: int) -> tuple[float, float]:
    """Median and 95th percentile of `calls` timed runs, in milliseconds (after two
    warm-ups)."""
    work()
    work()
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    times.sort()
    return (1000 * times[len(times) // 2],
            1000 * times[min(len(times) - 1, (95 * len(times)) // 100)])


def _asgi_get_ms(app: Any, path: str, query: str, cookie: str, calls: int,
                 clock: Callable[[], float] = time.perf_counter) -> tuple[float, float]:
    """Median and p95 of GET requests handed straight to the ASGI app (the server's own
    time: routing, middleware, handler, JSON; no client or network in the way). With
    `clock=time.process_time` it is the CPU the request used, which a busy machine's
    scheduling does not inflate."""

    async def one() -> float:
        scope = {"type": "http", "method": "GET", "path": path, "raw_path": path.encode(),
                 "query_string": query.encode(), "root_path": "", "scheme": "http",
                 "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1), "http_version": "1.1",
                 "headers": [(b"host", b"127.0.0.1"), (b"cookie", cookie.encode())]}
        status: list[int] = []

        async def receive() -> dict[str, Any]:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def send(message: dict[str, Any]) -> None:
            if message["type"] == "http.response.start":
                status.append(message["status"])

        start = clock()
        await app(scope, receive, send)
        elapsed = clock() - start
        assert status == [200], status
        return elapsed

    async def run() -> list[float]:
        for _ in range(2):
            await one()
        return sorted([await one() for _ in range(calls)])

    times = asyncio.run(run())
    return (1000 * times[len(times) // 2],
            1000 * times[min(len(times) - 1, (95 * len(times)) // 100)])


def contact_scenario() -> dict[str, Any]:
    """24x24, 30 units a side facing each other across the middle rows."""
    units: list[dict[str, Any]] = []
    for i in range(30):
        row = 11 if i < SIDE else 10
        units.append({"id": f"b{i}", "player": "blue", "at": [i % SIDE, row],
                      "class": "armoured-battalion" if i % 3 == 0 else "rifle-company",
                      "stance": "advance"})
        row = 12 if i < SIDE else 13
        units.append({"id": f"r{i}", "player": "red", "at": [i % SIDE, row],
                      "class": "rifle-company", "stance": "entrench"})
    return {"name": "contact", "seed_key": "bench-web",
            "board": {"rows": [" ".join("." * SIDE) for _ in range(SIDE)]},
            "players": [{"id": "blue"}, {"id": "red"}], "units": units}


def _line(label: str, measured: tuple[float, float], target: float,
          baseline: tuple[float, float]) -> None:
    median, p95 = measured
    verdict = "meets" if p95 <= target else "MISSES"
    print(f"{label:<44} median {median:7.2f} ms, p95 {p95:7.2f} ms (target p95 {target:g} ms: "
          f"{verdict}); {median / baseline[0]:,.1f}x the engine alone "
          f"(median {baseline[0]:.2f} ms)", flush=True)


def main() -> None:
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0
    print(f"(load average {load:.1f} on {os.cpu_count()} cores: wall-clock tails grow with "
          "it)", flush=True)
    app = create_app(WebSettings(database_url="sqlite://", rate_limits_enabled=False))
    with TestClient(app) as client:
        client.post("/api/clash/games", json={"scenario": "belvoir-wood"})
        params = {"lead": "armour-2", "target": "1,1"}
        cookie = f"{COOKIE}={client.cookies.get(COOKIE)}"
        api = _asgi_get_ms(app, "/api/clash/game/panel", "lead=armour-2&target=1,1", cookie,
                           PANEL_CALLS)
        through_client = _timed_ms(lambda: client.get("/api/clash/game/panel", params=params),
                                   PANEL_CALLS)
        game = app.state.clash.open_seat(client.cookies.get(COOKIE))  # the stored game
        assert game is not None
        spec = board_panel(game, "armour-2", (1, 1)).plan.spec
        engine = _timed_ms(lambda: preview(spec), PANEL_CALLS)
        _line("attack panel API, §23 board", api, 20, engine)
        cpu = _asgi_get_ms(app, "/api/clash/game/panel", "lead=armour-2&target=1,1", cookie,
                           PANEL_CALLS, time.process_time)
        _line("  its CPU time alone", cpu, 20, engine)
        _line("  the same through the test client", through_client, 20, engine)
        page = _timed_ms(lambda: client.get("/clash/game", params={"select": "armour-2",
                                                                 "target": "1,1"}), 50)
        _line("attack panel page (board + panel HTML)", page, 100, engine)

        data = contact_scenario()
        upload = client.post("/clash/games/upload", data={"side": "blue", "ai": "on"},
                             files={"file": ("contact.yaml", yaml.safe_dump(data).encode())})
        assert upload.status_code == 200, upload.text
        tiles = client.get("/api/clash/game/overlay").json()
        assert len(tiles) >= 24, len(tiles)
        cookie = f"{COOKIE}={client.cookies.get(COOKIE)}"
        api = _asgi_get_ms(app, "/api/clash/game/overlay", "", cookie, OVERLAY_CALLS)
        world = world_from_scenario(parse_scenario(data))
        engine = _timed_ms(lambda: overlay(world, "blue"), OVERLAY_CALLS)
        _line(f"overlay API, 24x24, 30 a side ({len(tiles)} tiles)", api, 200, engine)


if __name__ == "__main__":
    main()
