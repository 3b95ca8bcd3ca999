"""The witness's row moves by compare-and-swap: of two requests from the same held size, one
advances the log and the other is told the size now held."""

from __future__ import annotations

import os
import subprocess
import sys
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


KILLED_MID_WRITE = """
import os, sys
from pathlib import Path
from tests.witness.support import Log, make_witness
from fairfight.witness import store as store_module

log = Log().grow(9)
witness = make_witness(Path(sys.argv[1]), log)
witness.add_checkpoint(log.body(0, 5))

def killed(self, origin, held, new, checkpoint, now):
    with self.engine.begin() as connection:
        connection.execute(store_module._SWAP, {
            "at": origin, "held_size": held.size, "held_root": held.root,
            "size": new.size, "root": new.root, "note": checkpoint, "now": now})
        os._exit(9)  # the row is changed in the transaction, never committed

store_module.WitnessStore.advance = killed
witness.add_checkpoint(log.body(5, 9))
"""


def test_a_process_killed_mid_write_leaves_the_last_good_state(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", KILLED_MID_WRITE, str(tmp_path)], cwd=root,
                          env={**os.environ, "PYTHONPATH": str(root / "src")},
                          capture_output=True, text=True, check=False)
    assert done.returncode == 9, done.stderr
    log = Log().grow(9)
    witness = make_witness(tmp_path, log)
    state = witness.store.state(ORIGIN)
    assert state is not None and state.held.size == 5
    assert state.checkpoint is not None and state.checkpoint.startswith(log.note(5))
    assert witness.add_checkpoint(log.body(5, 9))  # the log goes on from the size kept
    witness.store.close()
