"""Contributions with receipts: acknowledged per second from 50 clients on SQLite, and p99.

The same real server and load generator as `bench_web`. Each contribution is acknowledged
with its receipt (the entry appended to the season log, a signed head, the inclusion proof),
and every answer is checked: 201, its entry, and an inclusion proof that verifies under its
head (`core.merkle`). After the run, every head's signature is checked (`core.ed25519`).
Baseline in the same run: the same load on a season made without a log (no key, so no leaf,
head or receipt: the path as it was before the log), and GET /api/health, the HTTP floor.
Targets (issue 21): at least 600 acknowledged/s, p99 at most 200 ms.
"""

from __future__ import annotations

import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path

from bench.bench_web import CLIENTS, _check_health, _p99, _plan, contribution_load
from bench.loadgen import Answer, Request, run_load
from bench.served import served
from bench.timing import report
from fairfight.conquest.record import archive
from fairfight.conquest.rules import scenario, tables
from fairfight.conquest.store import log, season
from fairfight.conquest.store.season_store import SeasonStore
from fairfight.core import ed25519, merkle
from fairfight.core.records import canonical_json

TARGET_PER_SECOND = 600
TARGET_P99_MS = 200


def _check_receipt(request: Request, answer: Answer) -> None:
    assert answer.status == 201, answer
    body = answer.body
    assert (body["faction"], body["amount"]) == (request.body["faction"], 5)
    receipt = body["receipt"]
    leaf = canonical_json({"kind": "contribution", "entry": receipt["entry"]})
    assert merkle.verify_inclusion(
        merkle.leaf_hash(leaf), receipt["leaf_index"], receipt["head"]["size"],
        merkle.hashes_from_hex(receipt["inclusion"]), bytes.fromhex(receipt["head"]["root"]))


def _check_plain(request: Request, answer: Answer) -> None:
    assert answer.status == 201, answer
    assert answer.body.get("receipt") is None


Check = Callable[[Request, Answer], None]
Measured = tuple[int, float, list[float], float, list[float]]
"""(contributions, their seconds, their latencies, the health load's seconds and latencies)."""


def _load(address: Path, check: Check) -> Measured:
    plan = _plan(address)
    health, contributions = contribution_load(plan)
    with served(address, 1, rate_limits_enabled="false") as (base, _):
        health_seconds, health_latencies = run_load(base, health, CLIENTS, _check_health)
        seconds, latencies = run_load(base, contributions, CLIENTS, check)
    return len(plan), seconds, latencies, health_seconds, health_latencies


def _unlogged(path: Path, like: Path) -> None:
    """A season as an older release made it: the same header without `log_key`, no key."""
    made = season.summary(like)
    header = {k: v for k, v in made.header.items() if k != tables.LOG_KEY}
    SeasonStore.create(path, header, made.commitment, made.map_data, made.board, "42" * 32,
                       engine_files=archive.engine_sources()).close()


def _heads_verify(path: Path) -> int:
    store = season.open_store(path)
    try:
        with store.transaction() as session:
            heads = log.heads(session, 0, log.HEADS_PAGE_LIMIT)
            after = heads[-1]["size"] if heads else 0
            while True:
                more = log.heads(session, after, log.HEADS_PAGE_LIMIT)
                if not more:
                    break
                heads += more
                after = more[-1]["size"]
    finally:
        store.close()
    key = bytes.fromhex(season.summary(path).header[tables.LOG_KEY])
    for head in heads:
        assert ed25519.verify(key, log.head_message(head), bytes.fromhex(head["signature"]))
    return len(heads)


def main() -> None:
    north_america = scenario.load_map("north-america")
    with tempfile.TemporaryDirectory(prefix="bench-receipts-") as scratch:
        logged, plain = Path(scratch) / "logged.db", Path(scratch) / "plain.db"
        season.create_season(logged, north_america, "north-america", seed="42" * 32)
        _unlogged(plain, logged)
        count, base_seconds, base_latencies, _, _ = _load(plain, _check_plain)
        count, seconds, latencies, health_seconds, health_latencies = _load(
            logged, _check_receipt)
        assert len(season.summary(logged).ledger) >= count
        heads = _heads_verify(logged)
    rate, base_rate = count / seconds, count / base_seconds
    report(f"sqlite: acknowledged with receipts/s ({CLIENTS} clients)", rate, "/s", base_rate)
    print(f"{'':<48} p50 {statistics.median(latencies) * 1000:.1f} ms, p99 "
          f"{_p99(latencies):.1f} ms (target >= {TARGET_PER_SECOND}/s, p99 <= "
          f"{TARGET_P99_MS} ms); {heads} signed heads over {count} receipts, all verified",
          flush=True)
    print(f"{'':<48} baseline without a log {base_rate:,.0f}/s, p99 "
          f"{_p99(base_latencies):.1f} ms; GET /api/health {count / health_seconds:,.0f}/s, "
          f"p99 {_p99(health_latencies):.1f} ms", flush=True)


if __name__ == "__main__":
    main()
