"""clash: scalar preview time, batch previews per second, and the full monotonicity sweep.

Baseline for every rate: a plain Python loop calling the scalar `preview` on each spec of
the 5,376-case oracle corpus, measured in the same run. The batch runs the same kernel on
numpy columns (the corpus tiled to about two million clashes, and two million random
clashes), in one process and split across two. Wall-clock rates depend on what else the
machine is running, so the CPU time of each run is reported too.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable

import numpy as np

from bench.timing import best_seconds, report
from fairfight.clash.batch import columns_from_specs, preview_batch
from fairfight.clash.corpus import SWEEP_SIZE, oracle_specs, random_columns
from fairfight.clash.exchange import resolve_exchange
from fairfight.clash.invariants import run_sweep
from fairfight.clash.kernel import Columns
from fairfight.clash.preview import preview

TILES = 400
"""5,376 x 400 = 2,150,400 clashes per batch."""
RANDOM_CLASHES = 2_000_000


def _tiled(columns: Columns, times: int) -> Columns:
    return Columns(**{name: np.tile(getattr(columns, name), times) for name in Columns.__slots__})


def _timed(work: Callable[[], object], repeats: int = 3) -> tuple[float, float]:
    """Best wall seconds and the CPU seconds (own and waited-for children) of that run."""
    best = (float("inf"), float("inf"))
    for _ in range(repeats):
        before, own_before = os.times(), time.process_time()
        started = time.perf_counter()
        work()
        wall = time.perf_counter() - started
        after, own_after = os.times(), time.process_time()
        children = (
            after.children_user
            + after.children_system
            - (before.children_user + before.children_system)
        )
        cpu = own_after - own_before + children
        best = min(best, (wall, cpu))
    return best


def main() -> None:
    specs = oracle_specs()
    hardest = [spec for spec in specs if preview(spec).evaluations >= 19]

    loop_seconds, loop_cpu = _timed(lambda: [preview(spec) for spec in specs])
    baseline, baseline_cpu = len(specs) / loop_seconds, len(specs) / loop_cpu
    report("scalar preview, plain loop (baseline)", baseline, "previews/s")
    report("  same, per CPU-second", baseline_cpu, "previews/cpu-s")
    print(
        f"{'scalar preview, mean over the corpus':<48} {loop_seconds / len(specs) * 1e6:>14.1f}"
        f" µs  ({loop_cpu / len(specs) * 1e6:.1f} µs of CPU; target <= 50)"
    )
    rounds = 50
    hard_seconds, hard_cpu = _timed(
        lambda: [preview(spec) for _ in range(rounds) for spec in hardest]
    )
    calls = rounds * len(hardest)
    print(
        f"{'scalar preview, hardest cases (>= 19 evals)':<48} "
        f"{hard_seconds / calls * 1e6:>14.1f} µs  ({hard_cpu / calls * 1e6:.1f}"
        f" µs of CPU; {len(hardest)} specs)"
    )
    brute = best_seconds(
        lambda: [resolve_exchange(spec, r) for spec in specs[:20] for r in range(1000)], 1
    )
    report("scalar brute force over 1000 draws", 20 / brute, "previews/s", baseline)

    corpus = _tiled(columns_from_specs(specs), TILES)
    mixed = random_columns(RANDOM_CLASHES, seed=2026)
    for label, columns in (("corpus", corpus), ("random mix", mixed)):
        count = int(columns.kind.shape[0])
        for workers in (1, 2):
            seconds, cpu = _timed(lambda c=columns, w=workers: preview_batch(c, workers=w))
            report(
                f"batch preview, {label}, {workers} process(es)",
                count / seconds,
                "previews/s",
                baseline,
            )
            report(
                "  same, per CPU-second (all processes)",
                count / cpu,
                "previews/cpu-s",
                baseline_cpu,
            )

    if os.environ.get("CLASH_BENCH_SWEEP", "1") != "0":
        started = time.perf_counter()
        sweep = run_sweep(np.arange(SWEEP_SIZE, dtype=np.int64), workers=2)
        elapsed = time.perf_counter() - started
        print(
            f"{'full monotonicity sweep, 2 processes':<48} {elapsed:>14.1f} s   "
            f"({sweep.evaluations:,} evaluations, {sum(sweep.violations.values())} "
            "violations)",
            flush=True,
        )
