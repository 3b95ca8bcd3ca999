"""Executors: in process, local processes and a Dask cluster give the same results.

The Dask tests start a LocalCluster with 2 in-process workers (threads), send the real chunks
of a forecast, a clash sweep and a ballot simulation through it, and compare with the local
path.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest

from fairfight.core.errors import InputError
from fairfight.core.executor import (
    DaskExecutor,
    InProcess,
    LocalProcesses,
    Threads,
    executor_for,
    scheduler_address,
)


def _square_plus(x: int, y: int) -> int:
    return x * x + y


CHUNKS = [(k, 3 * k) for k in range(7)]
EXPECTED = [k * k + 3 * k for k in range(7)]


def test_in_process_and_local_processes_keep_chunk_order() -> None:
    ticks: list[int] = []
    assert InProcess().map(_square_plus, CHUNKS, ticks.append) == EXPECTED
    assert ticks == list(range(1, 8))
    ticks.clear()
    assert LocalProcesses(2).map(_square_plus, CHUNKS, ticks.append) == EXPECTED
    assert ticks[-1] == 7


def test_threads_keep_chunk_order_and_give_the_forecast_of_one_thread() -> None:
    """The service's forecasts run their chunks on two threads (the kernel releases the
    interpreter's lock); the result is the one of a single thread, chunk for chunk."""
    from fairfight.conquest.forecast.title_odds import forecast
    from fairfight.conquest.rules import engine, scenario

    ticks: list[int] = []
    assert Threads(3).map(_square_plus, CHUNKS, ticks.append) == EXPECTED
    assert ticks == list(range(1, 8))
    state = engine.new_state(scenario.load_map("north-america"), "ab" * 32)
    arguments: dict[str, Any] = {"seasons": 3_000, "forecast_seed": "threads"}
    assert forecast(state, [], executor=Threads(2), **arguments) == forecast(
        state, [], executor=InProcess(), **arguments)
    with pytest.raises(ValueError, match="workers"):
        Threads(0)


def test_executor_for_reads_the_command_line() -> None:
    assert isinstance(executor_for(1), InProcess)
    assert isinstance(executor_for(3), LocalProcesses)
    with socket.create_server(("127.0.0.1", 0)) as listening:
        port = listening.getsockname()[1]
        assert isinstance(executor_for(3, f"tcp://127.0.0.1:{port}"), DaskExecutor)
    with pytest.raises(ValueError, match="workers"):
        LocalProcesses(0)


def test_an_unreachable_scheduler_is_one_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The error is what is checked, not the wait: the client's 10 s of connection attempts
    are cut to 1 s here."""
    distributed = pytest.importorskip("distributed")
    connect = distributed.Client
    monkeypatch.setattr(distributed, "Client",
                        lambda address, timeout: connect(address, timeout="1s"))
    executor = DaskExecutor("tcp://127.0.0.1:9")
    with pytest.raises(ValueError, match="scheduler: cannot reach"):
        executor.map(_square_plus, CHUNKS)


@pytest.mark.parametrize(("text", "expected"), [
    ("tcp://127.0.0.1:8786", ("127.0.0.1", 8786)), ("tls://sched.example:1", ("sched.example", 1)),
    ("node-3:65535", ("node-3", 65535)), ("tcp://[::1]:8786", ("::1", 8786)),
])
def test_scheduler_addresses_are_read(text: str, expected: tuple[str, int]) -> None:
    assert scheduler_address(text) == expected


@pytest.mark.parametrize("text", [
    "garbage", "", "tcp://", "tcp://host", "tcp://host:", "tcp://host:0", "tcp://host:65536",
    "tcp://host:8786/path", "http://host:8786", "tcp://ho st:1", "tcp://host:８７", "-host:1",
    "tcp://host:1\n", "tcp://\ud800:1", "tcp://" + "a" * 300 + ":1",
])
def test_a_malformed_scheduler_address_is_refused_before_any_connection(text: str) -> None:
    with pytest.raises(InputError, match="is not a scheduler address") as caught:
        executor_for(1, text)
    assert caught.value.field == "--scheduler"


def test_an_address_nothing_answers_at_is_refused_by_the_connect_probe() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listening:
        port = listening.getsockname()[1]   # closed again below: nothing listens there
    with pytest.raises(InputError, match=f"cannot reach tcp://127.0.0.1:{port}"):
        executor_for(1, f"tcp://127.0.0.1:{port}")


@pytest.fixture(scope="module")
def dask() -> Iterator[DaskExecutor]:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        yield DaskExecutor(client=client)


def test_dask_keeps_chunk_order(dask: DaskExecutor) -> None:
    ticks: list[int] = []
    assert dask.map(_square_plus, CHUNKS, ticks.append) == EXPECTED
    assert sorted(ticks) == list(range(1, 8))


def test_dask_forecast_equals_the_local_one(dask: DaskExecutor) -> None:
    from fairfight.conquest.forecast.title_odds import forecast
    from fairfight.conquest.rules import engine, scenario

    state = engine.new_state(scenario.load_map("north-america"), "ef" * 32)
    for _ in range(50):
        state, _entry = engine.play_step(state, [])
    arguments: dict[str, Any] = {"seasons": 5_000, "forecast_seed": "dask"}
    local = forecast(state, [], executor=LocalProcesses(2), **arguments)
    assert forecast(state, [], executor=dask, **arguments) == local


def test_dask_sweep_equals_the_local_one(dask: DaskExecutor) -> None:
    from fairfight.clash.corpus import SWEEP_SIZE
    from fairfight.clash.invariants import run_sweep

    indices = np.arange(0, SWEEP_SIZE, 17, dtype=np.int64)
    assert run_sweep(indices, executor=dask) == run_sweep(indices, workers=2)


def test_dask_ballot_games_equal_the_local_ones(dask: DaskExecutor) -> None:
    from fairfight.ballot.simulate import GameSpec, run_games
    from fairfight.ballot.tables import named_config

    specs = [GameSpec(named_config("as-written-plus"), str(700 + i),
                      ("pollster", "machine", "pollster", "machine")) for i in range(2)]
    assert run_games(specs, executor=dask) == run_games(specs)


def test_dask_playtest_equals_the_local_one(dask: DaskExecutor) -> None:
    from fairfight.clash.playtest import run_playtest

    assert run_playtest(2, turns=3, executor=dask) == run_playtest(2, turns=3)
