"""The witness's row moves by compare-and-swap: of two requests from the same held size, one
advances the log and the other is told the size now held."""

from __future__ import annotations

import threading
from pathlib import Path

from fairfight.core.merkle import EMPTY_ROOT
from fairfight.witness.protocol import Held, WitnessRefusal
from fairfight.witness.store import WitnessStore

from .support import ORIGIN, Log, make_witness


def test_advance_compares_then_swaps(tmp_path: Path) -> None:
    store = WitnessStore(f"sqlite:///{tmp_path / 'w.db'}")
    store.follow([ORIGIN])
    store.follow([ORIGIN])  # following again keeps the row
    start = Held(0, EMPTY_ROOT)
    state = store.state(ORIGIN)
    assert state is not None and state.held == start and state.checkpoint is None
    assert store.advance(ORIGIN, start, Held(3, b"a" * 32), "note 3", 1.0)
    assert not store.advance(ORIGIN, start, Held(5, b"b" * 32), "note 5", 2.0)
    assert not store.advance(ORIGIN, Held(3, b"x" * 32), Held(5, b"b" * 32), "note 5", 2.0)
    state = store.state(ORIGIN)
    assert state is not None and state.held == Held(3, b"a" * 32) and state.checkpoint == "note 3"
    assert store.state("never/followed") is None
    assert store.cosigned_count([ORIGIN, "another/log"]) == 1
    assert store.cosigned_count(["another/log"]) == 0
    store.close()


def test_two_racing_requests_cannot_both_advance(tmp_path: Path) -> None:
    """Both requests read the held size 5 before either writes (a barrier holds them there):
    exactly one is cosigned, the other is refused with the size the winner stored."""
    log = Log().grow(9)
    witness = make_witness(tmp_path, log)
    witness.add_checkpoint(log.body(0, 5))
    barrier = threading.Barrier(2)
    advance = witness.store.advance

    def held_together(*args: object, **kwargs: object) -> bool:
        barrier.wait(timeout=30)
        return advance(*args, **kwargs)  # type: ignore[arg-type]

    witness.store.advance = held_together  # type: ignore[method-assign]
    outcomes: dict[int, object] = {}

    def send(size: int) -> None:
        try:
            outcomes[size] = witness.add_checkpoint(log.body(5, size))
        except WitnessRefusal as refusal:
            outcomes[size] = refusal

    threads = [threading.Thread(target=send, args=(size,)) for size in (7, 9)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    refused = [size for size, outcome in outcomes.items() if isinstance(outcome, WitnessRefusal)]
    assert len(refused) == 1
    winner = 16 - refused[0]
    refusal = outcomes[refused[0]]
    assert isinstance(refusal, WitnessRefusal)
    assert (refusal.status, refusal.held_size) == (409, winner)
    state = witness.store.state(ORIGIN)
    assert state is not None and state.held.size == winner
    witness.store.close()
