"""The stream overlay after an episode airs: from the live event reaching an open overlay to
its fresh panels, with 50 overlays open on one `fairfight serve` worker.

Each of `OVERLAYS` clients listens to the season's event stream, as the overlay's script does;
when the `battle` event arrives it fetches the overlay again (what `static/conquest/live.js`
swaps its panels from) and notes how long that took after the event. The operator airs
`AIRINGS` battles of the demo season, one at a time. Baseline in the same run: the same clients
fetch `/api/health` instead, so the ratio says what the overlay costs beyond answering at all
while 50 streams are open. A third round fetches the aired battle's watch page, which is what
the overlay's watch panel shows its first step from (`static/conquest/overlay.js`). The bound
is 500 ms from the event to the first frame.
"""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import time
from pathlib import Path

import httpx

from bench.served import served
from bench.timing import p95
from fairfight.web.conquest.demo_season import build_demo_season
from fairfight.web.conquest.operator import token_digest

OVERLAYS = 50
AIRINGS = 4
TOKEN = "bench-operator-token"
BOUND_MS = 500.0
FORECAST = os.environ.get("BENCH_OVERLAY_FORECAST_SEASONS", "0")
"""Title odds simulated after each airing: none unless `BENCH_OVERLAY_FORECAST_SEASONS` says
(the service's default, 20,000, makes the forecast compete with the pages for the cores)."""


async def _listen(client: httpx.AsyncClient, base: str, path: str, ready: asyncio.Event,
                  opened: list[int], samples: list[float], airings: int) -> None:
    """One open overlay: on each battle event, fetch `path` and keep the seconds it took."""
    events = httpx.AsyncClient(timeout=None)  # a connection of its own, as a browser's stream
    try:
        async with events.stream("GET", f"{base}/api/seasons/1/events",
                                 headers={"Accept": "text/event-stream"}) as stream:
            opened.append(1)
            if len(opened) == OVERLAYS:
                ready.set()
            seen = 0
            arrived = None
            async for line in stream.aiter_lines():
                if line == "event: battle":
                    arrived = time.perf_counter()
                    continue
                if arrived is None or not line.startswith("data:"):
                    continue
                number = json.loads(line.removeprefix("data:"))["number"]
                page = await client.get(f"{base}{path.format(number=number)}")
                assert page.status_code == 200, page.status_code
                samples.append(time.perf_counter() - arrived)
                arrived = None
                seen += 1
                if seen == airings:
                    return
    finally:
        await events.aclose()


async def _round(base: str, path: str) -> list[float]:
    """`OVERLAYS` listeners, `AIRINGS` battles aired: the seconds from event to fresh page."""
    samples: list[float] = []
    opened: list[int] = []
    ready = asyncio.Event()
    limits = httpx.Limits(max_connections=2 * OVERLAYS + 4)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        listeners = [asyncio.create_task(_listen(client, base, path, ready, opened, samples,
                                                 AIRINGS)) for _ in range(OVERLAYS)]
        await asyncio.wait_for(ready.wait(), 60)
        await asyncio.sleep(0.5)  # every stream subscribed on the server's side
        for _ in range(AIRINGS):
            aired = await client.post(f"{base}/api/seasons/1/operator/air", json={"count": 1},
                                      headers={"Authorization": f"Bearer {TOKEN}"})
            assert aired.status_code == 200, aired.text
            await asyncio.sleep(1.0)
        await asyncio.wait_for(asyncio.gather(*listeners), 120)
    return samples


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for label, path in (("GET /api/health after the event (baseline)", "/api/health"),
                            ("overlay page after the event", "/conquest/1/overlay"),
                            ("watch page of the aired battle (first frame)",
                             "/conquest/1/battles/{number}/watch")):
            database = Path(folder) / f"{label.split()[0]}-{len(path)}.db"
            build_demo_season(database)
            with served(database, 1, admin_token_sha256=token_digest(TOKEN),
                        rate_limits_enabled="false", forecast_seasons=FORECAST) as (base, _):
                samples = asyncio.run(_round(base, path))
            figure = p95(samples) * 1000
            if path == "/api/health":
                baseline = figure
                print(f"{label:<48} p95 {figure:8.1f} ms ({len(samples)} fetches)", flush=True)
            else:
                print(f"{label:<48} p95 {figure:8.1f} ms ({len(samples)} fetches; "
                      f"{figure / baseline:.2f}x baseline; bound {BOUND_MS:.0f} ms)", flush=True)
