"""Bounded pools: a full pool answers 503 with Retry-After at once, and health still answers."""

from __future__ import annotations

import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import anyio
import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.store import season
from fairfight.web.ops.pools import (
    LOWER_PRIORITY,
    SHARED_THREADS,
    PoolFull,
    PoolLimits,
    WorkPool,
)
from tests.web.conquest_support import make_app
from tests.web.ops.support import ops_app


def test_a_pool_runs_its_workers_queues_its_queue_and_refuses_the_rest() -> None:
    seen: list[tuple[int, int]] = []
    pool = WorkPool("test", PoolLimits(workers=1, queue=1, wait_seconds=30),
                    observe=lambda p: seen.append((p.running, p.waiting)))
    release = threading.Event()
    outcomes: list[str] = []

    async def job(name: str) -> None:
        try:
            await pool.run(release.wait)
            outcomes.append(f"{name} ran")
        except PoolFull as full:
            outcomes.append(f"{name} refused, retry after {full.retry_after}")

    async def main() -> None:
        async with anyio.create_task_group() as group:
            group.start_soon(job, "first")
            while pool.running == 0:
                await anyio.sleep(0.001)
            group.start_soon(job, "second")  # waits in the queue
            while pool.waiting == 0:
                await anyio.sleep(0.001)
            await job("third")  # no worker, queue full: refused at once
            assert (pool.running, pool.waiting) == (1, 1)
            release.set()

    anyio.run(main)
    assert outcomes == ["third refused, retry after 15", "first ran", "second ran"]
    assert (pool.running, pool.waiting, pool.refused) == (0, 0, 1)
    assert max(running for running, _ in seen) == 1, "never more than one worker at once"


async def _hold_the_worker(pool: WorkPool, group: Any, release: threading.Event) -> None:
    """Give the pool's one worker a job that lasts until `release`, and return once it runs."""
    group.start_soon(pool.run, release.wait)
    while pool.running == 0:
        await anyio.sleep(0.001)


def test_a_wait_longer_than_the_cap_is_refused() -> None:
    pool = WorkPool("test", PoolLimits(workers=1, queue=5, wait_seconds=0.05))
    release = threading.Event()
    refused: list[str] = []

    async def main() -> None:
        async with anyio.create_task_group() as group:
            await _hold_the_worker(pool, group, release)
            try:
                await pool.run(release.wait)
            except PoolFull as full:
                refused.append(full.pool)
            release.set()

    anyio.run(main)
    assert refused == ["test"]
    assert pool.waiting == 0


def test_a_job_asked_first_takes_the_next_worker_before_the_jobs_waiting() -> None:
    """One worker, busy; two reads wait, then a move asked first: when the worker frees, the
    move runs, then the reads in the order they came. A wait that ran out meanwhile is gone
    from its queue and takes no worker."""
    pool = WorkPool("test", PoolLimits(workers=1, queue=10, wait_seconds=30))
    release = threading.Event()
    order: list[str] = []

    async def main() -> None:
        async with anyio.create_task_group() as group:
            await _hold_the_worker(pool, group, release)
            for name in ("read 1", "read 2"):
                group.start_soon(pool.run, order.append, name)
                while pool.waiting < int(name[-1]):
                    await anyio.sleep(0.001)
            with anyio.move_on_after(0.05):  # gives up waiting: it must not hold a worker
                await pool.run(order.append, "gave up")
            group.start_soon(pool.run_first, order.append, "move")
            while pool.waiting < 3:
                await anyio.sleep(0.001)
            release.set()

    anyio.run(main)
    assert order == ["move", "read 1", "read 2"]
    assert (pool.running, pool.waiting) == (0, 0)


@pytest.mark.parametrize("path", ["/api/seasons/1/factions/{code}/pool-effect?amount=5",
                                  "/conquest/1/factions/{code}/pool-effect?amount=5"])
def test_a_full_question_pool_answers_503_while_health_answers(season_file: Path,
                                                               path: str) -> None:
    app = make_app(season_file, forecast_seasons=50)
    app.state.pools["questions"] = WorkPool(
        "questions", PoolLimits(workers=1, queue=0, wait_seconds=30),
        app.state.metrics.observe_pool)
    release = threading.Event()
    started = threading.Event()

    def slow_answer(*args: object) -> object:
        started.set()
        release.wait()
        return answer(*args)

    with TestClient(app, raise_server_exceptions=False) as client, \
            ThreadPoolExecutor(1) as background:
        code = sorted(season.summary(season_file).board["factions"])[0]
        answer = app.state.conquest.forecasts.pool_effect
        app.state.conquest.forecasts.pool_effect = slow_answer
        url = path.format(code=code)
        first = background.submit(client.get, url, headers={"accept": "application/json"})
        try:
            assert started.wait(30)
            second = client.get(url, headers={"accept": "application/json"})
            health = client.get("/healthz")
            metrics = client.get("/metrics").text
        finally:
            release.set()
        assert first.result(30).status_code != 503
    assert second.status_code == 503
    assert second.headers["retry-after"] == "15"
    assert second.json()["field"] == "questions"
    assert health.status_code == 200
    assert 'fairfight_pool_running{pool="questions"} 1.0' in metrics
    assert 'fairfight_pool_refused_total{pool="questions"} 1.0' in metrics


def test_each_slow_work_has_its_pool_with_the_configured_limits(tmp_path: Path) -> None:
    limits = PoolLimits(workers=3, queue=7, wait_seconds=2)
    app = ops_app(tmp_path, pool_turns=limits)
    assert set(app.state.pools) == {"questions", "bots", "turns", "verify"}
    assert app.state.pools["turns"].limits == limits


@pytest.mark.skipif(sys.platform != "linux", reason="per-thread priorities are Linux's")
def test_a_pool_job_runs_at_a_lower_priority_than_the_loop() -> None:
    pool = WorkPool("test", PoolLimits(workers=1, queue=1, wait_seconds=30))

    def own_priority() -> tuple[int, str]:
        return (os.getpriority(os.PRIO_PROCESS, threading.get_native_id()),
                threading.current_thread().name)

    async def main() -> tuple[tuple[int, str], tuple[int, str]]:
        return own_priority(), await pool.run(own_priority)

    (loop_nice, _), (job_nice, job_thread) = anyio.run(main)
    assert job_nice == min(19, loop_nice + LOWER_PRIORITY)
    assert job_thread.startswith("pool-test"), "the pool's own thread, not anyio's shared ones"


def test_the_service_narrows_the_shared_thread_pool(tmp_path: Path) -> None:
    with TestClient(ops_app(tmp_path)) as client:
        portal = client.portal
        assert portal is not None
        tokens = portal.call(lambda: anyio.to_thread.current_default_thread_limiter()
                             .total_tokens)
    assert tokens == SHARED_THREADS < 40  # anyio's own default is 40
