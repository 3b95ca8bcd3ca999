"""Group commit: requests that arrive while a commit is in flight share the next transaction,
each keeps its own outcome in order of arrival, and a failed transaction fails every member."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path

import pytest

from fairfight.core.merkle import EMPTY_ROOT
from fairfight.witness.config import LogConfig, WitnessConfig, generate_key, read_key_file
from fairfight.witness.cosigner import Witness
from fairfight.witness.group_commit import GroupCommit
from fairfight.witness.protocol import Held, WitnessRefusal
from fairfight.witness.store import WitnessStore

from .support import WITNESS_NAME, Log

WAIT = 30.0
"""Seconds a thread may wait for another (never a speed check)."""

Swap = tuple[str, int, int]
"""(log, held size, new size): a compare-and-swap on a dictionary of sizes."""


class FakeDatabase:
    """Sizes per log, changed by groups of swaps; the first group waits for `release`."""

    def __init__(self, fail: bool = False) -> None:
        self.sizes = {"a": 0, "b": 0}
        self.groups: list[list[Swap]] = []
        self.release = threading.Event()
        self.fail = fail

    def write(self, swaps: Sequence[Swap]) -> list[bool]:
        self.groups.append(list(swaps))
        if len(self.groups) == 1:
            assert self.release.wait(WAIT)
        if self.fail and len(self.groups) == 2:
            raise OSError("disk full")
        outcomes = []
        for log, held, new in swaps:
            outcomes.append(self.sizes[log] == held)
            if outcomes[-1]:
                self.sizes[log] = new
        return outcomes


def _run(commits: GroupCommit[Swap], swap: Swap, results: dict[Swap, object]) -> None:
    try:
        results[swap] = commits.submit(swap)
    except OSError as error:
        results[swap] = error


def _until(condition: Callable[[], bool]) -> None:
    give_up = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < give_up
        time.sleep(0.005)


def _queued(commits: GroupCommit[Swap], count: int) -> bool:
    return commits.queued() == count


def _first_then_three(database: FakeDatabase) -> dict[Swap, object]:
    """One swap commits (held there) while three more queue, then all run."""
    commits = GroupCommit(database.write)
    results: dict[Swap, object] = {}
    later = [("b", 0, 3), ("a", 2, 5), ("a", 2, 7)]
    first = threading.Thread(target=_run, args=(commits, ("a", 0, 2), results))
    first.start()
    _until(lambda: len(database.groups) == 1)
    threads = []
    for number, swap in enumerate(later, start=1):
        threads.append(threading.Thread(target=_run, args=(commits, swap, results)))
        threads[-1].start()
        _until(partial(_queued, commits, number))  # so the order of arrival is fixed
    database.release.set()
    for thread in [first, *threads]:
        thread.join(WAIT)
    assert (commits.groups, commits.requests) == (2, 4)
    return results


def test_requests_arriving_during_a_commit_share_the_next_one() -> None:
    database = FakeDatabase()
    results = _first_then_three(database)
    assert database.groups == [[("a", 0, 2)], [("b", 0, 3), ("a", 2, 5), ("a", 2, 7)]]
    # a's second swap from held size 2 finds 5, written by the swap before it in its group
    assert results == {("a", 0, 2): True, ("b", 0, 3): True, ("a", 2, 5): True,
                       ("a", 2, 7): False}
    assert database.sizes == {"a": 5, "b": 3}


def test_a_failed_transaction_fails_every_member_of_its_group() -> None:
    database = FakeDatabase(fail=True)
    results = _first_then_three(database)
    assert results[("a", 0, 2)] is True
    for swap in [("b", 0, 3), ("a", 2, 5), ("a", 2, 7)]:
        assert isinstance(results[swap], OSError), swap


def test_a_lone_request_is_a_group_of_one(tmp_path: Path) -> None:
    store = WitnessStore(f"sqlite:///{tmp_path / 'w.db'}")
    store.follow(["log"])
    start = Held(0, EMPTY_ROOT)
    assert store.advance("log", start, Held(3, b"a" * 32), "note 3", 1.0)
    assert not store.advance("log", start, Held(4, b"b" * 32), "note 4", 2.0)
    assert (store.commits.groups, store.commits.requests) == (2, 2)
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    store.close()


@pytest.mark.parametrize("held", [0, 3])
def test_a_group_on_the_store_swaps_in_order(tmp_path: Path, held: int) -> None:
    store = WitnessStore(f"sqlite:///{tmp_path / 'w.db'}")
    store.follow(["x", "y"])
    roots = {0: EMPTY_ROOT, 3: b"c" * 32}
    if held:
        assert store.advance("x", Held(0, EMPTY_ROOT), Held(3, roots[3]), "x3", 1.0)
    swaps = [{"at": "x", "held_size": held, "held_root": roots[held], "size": 9,
              "root": b"n" * 32, "note": "x9", "now": 2.0},
             {"at": "y", "held_size": 0, "held_root": EMPTY_ROOT, "size": 1,
              "root": b"y" * 32, "note": "y1", "now": 2.0},
             {"at": "x", "held_size": held, "held_root": roots[held], "size": 8,
              "root": b"m" * 32, "note": "x8", "now": 2.0}]
    assert store._swap_all(swaps) == [True, True, False]
    x, y = store.state("x"), store.state("y")
    assert x is not None and (x.held.size, x.checkpoint) == (9, "x9")
    assert y is not None and (y.held.size, y.checkpoint) == (1, "y1")
    store.close()


def test_logs_sent_at_once_are_each_cosigned_in_order(tmp_path: Path) -> None:
    """Four logs send ten checkpoints each from four threads to one witness on a SQLite file:
    every one is cosigned and stored (a swap lost from its group would have the log's next
    checkpoint refused), each log ends at its last size, and no group held more requests than
    there were senders (so at least ten groups)."""
    logs = [Log(origin=f"example.com/season/{n}").grow(40) for n in range(4)]
    generate_key(WITNESS_NAME, tmp_path / "w1.key")
    config = WitnessConfig(
        name=WITNESS_NAME, key_file=tmp_path / "w1.key", database=f"sqlite:///{tmp_path}/w.db",
        logs=[LogConfig(origin=log.origin, vkeys=[log.vkey()]) for log in logs])
    witness = Witness(config, read_key_file(config.key_file, config.name),
                      WitnessStore(config.database))
    sizes = [0, *range(4, 41, 4)]
    refused: list[WitnessRefusal] = []

    def send(log: Log) -> None:
        for old, new in zip(sizes, sizes[1:], strict=False):
            try:
                witness.add_checkpoint(log.body(old, new))
            except WitnessRefusal as refusal:
                refused.append(refusal)

    threads = [threading.Thread(target=send, args=(log,)) for log in logs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(WAIT)
    assert refused == []
    for log in logs:
        state = witness.store.state(log.origin)
        assert state is not None and state.held == Held(40, log.tree.root(40))
    assert witness.store.commits.requests == 40
    assert 10 <= witness.store.commits.groups <= 40
    witness.store.close()
