"""The witness: checkpoints cosigned per second on one core, against baselines in the same run.

A log of 65,536 leaves grows by 7 leaves per checkpoint; every body (old size, consistency
proof, the log-signed note) is built before the clock starts, so only the witness's work is
timed: parsing the body, checking the log's signature and the consistency proof, the
compare-and-swap row and the cosignature. Measured by calling `Witness.add_checkpoint`
directly and through the HTTP app (FastAPI, in process), each with its SQLite file

- in memory-backed storage (`/dev/shm`, where a commit's fsync costs nothing): the witness's
  own work on one core, the figure the issue's target of 200 cosignatures a second is about;
- on the disk beside the system's temporary files: what a durable commit per request costs
  on this machine, against the bare rate of one-row SQLite commits on the same disk.

Baselines: the bare `cryptography` Ed25519 signature the witness makes once per request, the
bare SQLite commit rate of each storage (for the direct calls) and a bare FastAPI route that
reads the body through the same in-process client (for the HTTP figure).
"""

from __future__ import annotations

import hashlib
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi import FastAPI, Request
from fastapi.responses import PlainTextResponse
from fastapi.testclient import TestClient

from bench.timing import best_seconds, report
from fairfight.core.merkle import MerkleTree
from fairfight.core.signed_note import checkpoint_text, sign_note, verifier_key
from fairfight.witness.config import generate_key, load_config, read_key_file
from fairfight.witness.cosigner import Witness
from fairfight.witness.protocol import add_checkpoint_body
from fairfight.witness.service import create_app
from fairfight.witness.store import WitnessStore

BASE = 65536
STEP = 7
CHECKPOINTS = 300
TARGET = 200
ORIGIN = "battles.example/conquest/" + hashlib.sha256(b"bench season").hexdigest()
MEMORY_DISK = Path("/dev/shm")

Send = Callable[[Witness, bytes], None]


def _bodies(key: Ed25519PrivateKey) -> tuple[bytes, list[bytes]]:
    """The first body (old 0, not timed) and the timed ones, each extending the last."""
    tree = MerkleTree.of_leaves(i.to_bytes(8, "big") for i in range(BASE + STEP * CHECKPOINTS))
    public = key.public_key().public_bytes_raw()

    def note(size: int) -> str:
        return sign_note(checkpoint_text(ORIGIN, size, tree.root(size)), ORIGIN, public, key.sign)

    first = add_checkpoint_body(0, [], note(BASE))
    sizes = [BASE + STEP * n for n in range(CHECKPOINTS + 1)]
    return first, [add_checkpoint_body(old, tree.consistency_proof(old, new), note(new))
                   for old, new in zip(sizes, sizes[1:], strict=False)]


def _fresh_witness(folder: Path, vkey: str) -> Witness:
    """A witness with a new key and an empty SQLite file in `folder`."""
    generate_key("witness.example/bench", folder / "w.key")
    config_file = folder / "witness.toml"
    config_file.write_text(
        f'name = "witness.example/bench"\nkey_file = "w.key"\n'
        f'database = "sqlite:///{folder / "w.db"}"\n'
        f'[[logs]]\norigin = "{ORIGIN}"\nvkeys = ["{vkey}"]\n', encoding="utf-8")
    config = load_config(config_file)
    return Witness(config, read_key_file(config.key_file, config.name),
                   WitnessStore(config.database))


def _timed(first: bytes, bodies: list[bytes], vkey: str, send: Send, where: Path | None) -> float:
    """Seconds to send every timed body to a fresh witness (best of three)."""
    spent = []
    for _ in range(3):
        with tempfile.TemporaryDirectory(dir=where) as folder:
            witness = _fresh_witness(Path(folder), vkey)
            send(witness, first)
            start = time.perf_counter()
            for body in bodies:
                send(witness, body)
            spent.append(time.perf_counter() - start)
            witness.store.close()
    return min(spent)


def _bare_commits(where: Path | None) -> float:
    """Seconds for CHECKPOINTS one-row updates, each its own commit, in a WAL SQLite file."""
    with tempfile.TemporaryDirectory(dir=where) as folder:
        connection = sqlite3.connect(Path(folder) / "bare.db", isolation_level=None)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER)")
        connection.execute("INSERT INTO t VALUES ('log', 0)")

        def commits() -> None:
            for n in range(CHECKPOINTS):
                connection.execute("BEGIN")
                connection.execute("UPDATE t SET n = ? WHERE k = 'log'", (n,))
                connection.execute("COMMIT")

        seconds = best_seconds(commits, 3)
        connection.close()
    return seconds


def _direct(witness: Witness, body: bytes) -> None:
    witness.add_checkpoint(body)


def _over_http() -> Send:
    clients: dict[int, TestClient] = {}

    def send(witness: Witness, body: bytes) -> None:
        client = clients.get(id(witness))
        if client is None:
            client = clients[id(witness)] = TestClient(create_app(witness))
        answer = client.post("/add-checkpoint", content=body)
        if answer.status_code != 200:
            raise RuntimeError(f"witness refused: {answer.status_code} {answer.text}")
    return send


def _bare_route(bodies: list[bytes]) -> float:
    """Requests a second to a FastAPI route that reads the body and answers one line, through
    the same in-process client: the HTTP layer's own cost."""
    app = FastAPI()

    @app.post("/add-checkpoint")
    async def echo(request: Request) -> PlainTextResponse:
        return PlainTextResponse(f"{len(await request.body())}\n")

    with TestClient(app) as client:
        seconds = best_seconds(lambda: [client.post("/add-checkpoint", content=body)
                                        for body in bodies], 3)
    return CHECKPOINTS / seconds


def _storage(label: str, where: Path | None, first: bytes, bodies: list[bytes],
             vkey: str) -> float:
    """Report one storage's bare commit rate and the witness's rates on it; the HTTP rate."""
    commit_rate = CHECKPOINTS / _bare_commits(where)
    report(f"bare SQLite commits ({label})", commit_rate, "/s")
    direct = CHECKPOINTS / _timed(first, bodies, vkey, _direct, where)
    report(f"cosigned, Witness.add_checkpoint ({label})", direct, "/s", commit_rate)
    route = _bare_route(bodies)
    report("bare FastAPI route, in-process client", route, "/s")
    http = CHECKPOINTS / _timed(first, bodies, vkey, _over_http(), where)
    report(f"cosigned, POST /add-checkpoint ({label})", http, "/s", route)
    return http


def main() -> None:
    key = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"bench log key").digest())
    vkey = verifier_key(ORIGIN, key.public_key().public_bytes_raw()).vkey()
    first, bodies = _bodies(key)
    message = bodies[-1]
    bare_sign = best_seconds(lambda: [key.sign(message) for _ in range(CHECKPOINTS)], 3)
    report("bare Ed25519 signature (cryptography)", CHECKPOINTS / bare_sign, "/s")
    if MEMORY_DISK.is_dir():
        http = _storage("memory", MEMORY_DISK, first, bodies, vkey)
        print(f"target {TARGET}/s: over HTTP on one core, {http / TARGET:.2f}x the target")
    _storage("disk", None, first, bodies, vkey)
