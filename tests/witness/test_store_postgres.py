"""The witness's store on PostgreSQL by URL (the issue names SQLite or PostgreSQL): a witness
cosigns there, a second store on the same database (another process's) moves the row first
and the witness is told the size it now holds, and a group of swaps runs in order in one
transaction."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from fairfight.core.cosignature import verify_cosignature
from fairfight.core.merkle import EMPTY_ROOT
from fairfight.witness.config import LogConfig, WitnessConfig, generate_key, read_key_file
from fairfight.witness.cosigner import Witness
from fairfight.witness.protocol import Held, WitnessRefusal
from fairfight.witness.store import WitnessStore
from tests.web.postgres_cluster import postgres_cluster

from .support import ORIGIN, WITNESS_NAME, Log

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    with postgres_cluster() as url:
        yield url


def test_a_witness_on_postgres_against_a_second_store(database: str, tmp_path: Path) -> None:
    log = Log().grow(9)
    generate_key(WITNESS_NAME, tmp_path / "w1.key")
    config = WitnessConfig(name=WITNESS_NAME, key_file=tmp_path / "w1.key", database=database,
                           logs=[LogConfig(origin=ORIGIN, vkeys=[log.vkey()])])
    identity = read_key_file(config.key_file, config.name)
    witness = Witness(config, identity, WitnessStore(database))
    other = WitnessStore(database)
    other.follow([ORIGIN])  # the row is there already: following again keeps it
    try:
        line = witness.add_checkpoint(log.body(0, 5))
        assert verify_cosignature(log.note(5), line, identity.key) > 0
        five = Held(5, log.tree.root(5))
        assert other.advance(ORIGIN, five, Held(7, log.tree.root(7)), log.note(7), 1.0)
        with pytest.raises(WitnessRefusal) as refused:
            witness.add_checkpoint(log.body(5, 9))
        assert (refused.value.status, refused.value.held_size) == (409, 7)
        witness.add_checkpoint(log.body(7, 9))
        state = other.state(ORIGIN)
        assert state is not None and state.held == Held(9, log.tree.root(9))
        assert state.checkpoint is not None and state.checkpoint.startswith(log.note(9))
    finally:
        witness.store.close()
        other.close()


def test_a_group_of_swaps_on_postgres_runs_in_order(database: str) -> None:
    store = WitnessStore(database)
    try:
        store.follow(["group/x"])
        start = {"at": "group/x", "held_size": 0, "held_root": EMPTY_ROOT, "now": 2.0}
        swaps = [{**start, "size": 4, "root": b"d" * 32, "note": "x4"},
                 {**start, "size": 6, "root": b"f" * 32, "note": "x6"},
                 {**start, "held_size": 4, "held_root": b"d" * 32, "size": 8,
                  "root": b"h" * 32, "note": "x8"}]
        assert store._swap_all(swaps) == [True, False, True]
        state = store.state("group/x")
        assert state is not None and (state.held.size, state.checkpoint) == (8, "x8")
    finally:
        store.close()
