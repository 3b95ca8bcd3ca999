"""The witness under concurrent logs: group commit against one commit per checkpoint.

Eight logs, each growing a 65,536-leaf tree by 7 leaves per checkpoint, send their checkpoints
to one witness at once (one client per log; each log's checkpoints in order, since each
extends the last). Every body is built before the clock starts. The witness commits each
checkpoint durably (SQLite in WAL with `synchronous=FULL`) before it answers, so on a disk the
rate is bounded by syncs; group commit shares one sync among the checkpoints that arrived
during the previous commit. It helps only under concurrency: a lone client waits for each
answer before sending its next checkpoint, so its groups hold one request each.

The process is pinned to one core (the issue's figure is per core); a sync waits on the
disk, not on the processor. Baselines in the same run, on the same storage: the same bodies
sent one at a time by a single client (what `bench witness` measures), and the concurrent
clients against a store that commits each checkpoint in its own transaction (the store
before group commit).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import sqlite3
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bench.timing import best_seconds, report
from fairfight.core.merkle import MerkleTree
from fairfight.core.signed_note import checkpoint_text, sign_note, verifier_key
from fairfight.witness.config import generate_key, load_config, read_key_file
from fairfight.witness.cosigner import Witness
from fairfight.witness.protocol import Held, add_checkpoint_body
from fairfight.witness.service import create_app
from fairfight.witness.store import WitnessStore

BASE = 65536
STEP = 7
LOGS = 8
PER_LOG = 60
TARGET = 200
KEY_NAME = "battles.example/conquest"
MEMORY_DISK = Path("/dev/shm")

Chains = dict[str, tuple[bytes, list[bytes]]]
"""Per origin: the first body (old 0, not timed) and the timed ones, each extending the last."""


class OneCommitEach(WitnessStore):
    """The store before group commit: each advance its own transaction and sync."""

    def advance(self, origin: str, held: Held, new: Held, checkpoint: str, now: float) -> bool:
        return self._swap_all([{"at": origin, "held_size": held.size, "held_root": held.root,
                                "size": new.size, "root": new.root, "note": checkpoint,
                                "now": now}])[0]


def _chains(key: Ed25519PrivateKey) -> Chains:
    tree = MerkleTree.of_leaves(i.to_bytes(8, "big") for i in range(BASE + STEP * PER_LOG))
    public = key.public_key().public_bytes_raw()
    sizes = [BASE + STEP * n for n in range(PER_LOG + 1)]
    proofs = [tree.consistency_proof(old, new) for old, new in zip(sizes, sizes[1:],
                                                                      strict=False)]
    chains: Chains = {}
    for number in range(LOGS):
        origin = f"{KEY_NAME}/{hashlib.sha256(bytes([number])).hexdigest()}"

        def note(size: int, origin: str = origin) -> str:
            text = checkpoint_text(origin, size, tree.root(size))
            return sign_note(text, KEY_NAME, public, key.sign)

        chains[origin] = (add_checkpoint_body(0, [], note(BASE)), [
            add_checkpoint_body(old, proof, note(new))
            for old, new, proof in zip(sizes, sizes[1:], proofs, strict=False)])
    return chains


def _witness(folder: Path, vkey: str, origins: list[str], store: type[WitnessStore]) -> Witness:
    generate_key("witness.example/bench", folder / "w.key")
    config_file = folder / "witness.toml"
    logs = "".join(f'[[logs]]\norigin = "{origin}"\nvkeys = ["{vkey}"]\n' for origin in origins)
    config_file.write_text(
        f'name = "witness.example/bench"\nkey_file = "w.key"\n'
        f'database = "sqlite:///{folder / "w.db"}"\n{logs}', encoding="utf-8")
    config = load_config(config_file)
    return Witness(config, read_key_file(config.key_file, config.name), store(config.database))


def _sent(witness: Witness, body: bytes) -> None:
    witness.add_checkpoint(body)  # a refusal raises, and ends the bench


def _one_client(witness: Witness, chains: Chains) -> None:
    for step in range(PER_LOG):
        for _, bodies in chains.values():
            _sent(witness, bodies[step])


def _in_order(witness: Witness, bodies: list[bytes]) -> None:
    for body in bodies:
        _sent(witness, body)


def _thread_per_log(witness: Witness, chains: Chains) -> None:
    threads = [threading.Thread(target=_in_order, args=(witness, bodies))
               for _, bodies in chains.values()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def _http_per_log(witness: Witness, chains: Chains) -> None:
    """One asyncio client per log, all through one in-process HTTP app."""
    async def log_client(client: httpx.AsyncClient, bodies: list[bytes]) -> None:
        for body in bodies:
            answer = await client.post("/add-checkpoint", content=body)
            if answer.status_code != 200:
                raise RuntimeError(f"witness refused: {answer.status_code} {answer.text}")

    async def everyone() -> None:
        transport = httpx.ASGITransport(app=create_app(witness))
        async with httpx.AsyncClient(transport=transport, base_url="http://witness") as client:
            await asyncio.gather(*(log_client(client, bodies)
                                   for _, bodies in chains.values()))

    asyncio.run(everyone())


def _rate(chains: Chains, vkey: str, where: Path | None, store: type[WitnessStore],
          send: Callable[[Witness, Chains], Any]) -> tuple[float, float]:
    """Cosignatures a second (best of three fresh witnesses) and the mean group size."""
    best, group = 0.0, 0.0
    for _ in range(3):
        with tempfile.TemporaryDirectory(dir=where) as folder:
            witness = _witness(Path(folder), vkey, list(chains), store)
            for first, _ in chains.values():
                _sent(witness, first)
            before = witness.store.commits.groups, witness.store.commits.requests
            start = time.perf_counter()
            send(witness, chains)
            rate = LOGS * PER_LOG / (time.perf_counter() - start)
            groups = witness.store.commits.groups - before[0]
            requests = witness.store.commits.requests - before[1]
            if rate > best:
                best, group = rate, requests / groups if groups else 1.0
            witness.store.close()
    return best, group


def _bare_commits(where: Path | None, journal: str, synchronous: str) -> float:
    """One-row SQLite commits a second in a journal and sync mode: what each choice costs."""
    count = 200
    with tempfile.TemporaryDirectory(dir=where) as folder:
        connection = sqlite3.connect(Path(folder) / "bare.db", isolation_level=None)
        connection.execute(f"PRAGMA journal_mode={journal}")
        connection.execute(f"PRAGMA synchronous={synchronous}")
        connection.execute("CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER)")
        connection.execute("INSERT INTO t VALUES ('log', 0)")

        def commits() -> None:
            for n in range(count):
                connection.execute("BEGIN")
                connection.execute("UPDATE t SET n = ? WHERE k = 'log'", (n,))
                connection.execute("COMMIT")

        seconds = best_seconds(commits, 3)
        connection.close()
    return count / seconds


def _storage(label: str, where: Path | None, chains: Chains, vkey: str) -> None:
    durable = _bare_commits(where, "WAL", "FULL")
    report(f"bare one-row commits, WAL + synchronous=FULL ({label})", durable, "/s")
    for journal, synchronous in (("DELETE", "FULL"), ("WAL", "NORMAL")):
        rate = _bare_commits(where, journal, synchronous)
        report(f"bare one-row commits, {journal} + {synchronous} ({label})", rate, "/s", durable)
    alone, _ = _rate(chains, vkey, where, WitnessStore, _one_client)
    report(f"one client, one checkpoint at a time ({label})", alone, "/s")
    each, _ = _rate(chains, vkey, where, OneCommitEach, _thread_per_log)
    report(f"{LOGS} clients, one commit per checkpoint ({label})", each, "/s", alone)
    grouped, size = _rate(chains, vkey, where, WitnessStore, _thread_per_log)
    report(f"{LOGS} clients, group commit ({label})", grouped, "/s", alone)
    print(f"  mean group: {size:.1f} checkpoints per commit; {grouped / each:.2f}x one commit "
          f"per checkpoint; {grouped / TARGET:.2f}x the target of {TARGET}/s")
    http, size = _rate(chains, vkey, where, WitnessStore, _http_per_log)
    report(f"{LOGS} clients over in-process HTTP, group commit ({label})", http, "/s", alone)
    print(f"  mean group: {size:.1f}; {http / TARGET:.2f}x the target of {TARGET}/s")


def _one_core() -> str:
    """Pin the process (every thread of it) to one core where the system allows it."""
    if not hasattr(os, "sched_setaffinity"):
        return "not pinned (no sched_setaffinity here)"
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return f"pinned to core {core}"


def main() -> None:
    print(f"  {LOGS} logs, {PER_LOG} checkpoints each; {_one_core()}")
    key = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"bench log key").digest())
    vkey = verifier_key(KEY_NAME, key.public_key().public_bytes_raw()).vkey()
    chains = _chains(key)
    _storage("disk", None, chains, vkey)
    if MEMORY_DISK.is_dir():
        _storage("memory", MEMORY_DISK, chains, vkey)
