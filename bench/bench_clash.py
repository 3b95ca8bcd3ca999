"""clash: scalar preview time, batch previews per second, and the full monotonicity sweep.

Baseline for every rate: a plain Python loop calling the scalar `preview` on each spec of
the 5,376-case oracle corpus, measured in the same run. The batch runs the same kernel on
numpy columns (the corpus tiled to about two million clashes), in one process and split
across two. The figures depend on what else the machine is running.
"""

from __future__ import annotations

import os
import time

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
    return Columns(**{name: np.tile(getattr(columns, name), times)
                      for name in Columns.__slots__})


def main() -> None:
    specs = oracle_specs()
    hardest = [spec for spec in specs if preview(spec).evaluations >= 19]

    loop_seconds = best_seconds(lambda: [preview(spec) for spec in specs], repeats=3)
    baseline = len(specs) / loop_seconds
    report("scalar preview, plain loop (baseline)", baseline, "previews/s")
    print(f"{'scalar preview, mean over the corpus':<48} {loop_seconds / len(specs) * 1e6:>14.1f}"
          " µs  (target <= 50)")
    hard_seconds = best_seconds(lambda: [preview(spec) for spec in hardest], repeats=3)
    print(f"{'scalar preview, hardest cases (>= 19 evals)':<48} "
          f"{hard_seconds / len(hardest) * 1e6:>14.1f} µs  ({len(hardest)} specs)")
    brute = best_seconds(
        lambda: [resolve_exchange(spec, r) for spec in specs[:20] for r in range(1000)], 1)
    report("scalar brute force over 1000 draws", 20 / brute, "previews/s", baseline)

    corpus = _tiled(columns_from_specs(specs), TILES)
    count = len(specs) * TILES
    for workers in (1, 2):
        seconds = best_seconds(lambda w=workers: preview_batch(corpus, workers=w), repeats=3)
        report(f"batch preview, corpus, {workers} process(es)", count / seconds,
               "previews/s", baseline)
    mixed = random_columns(RANDOM_CLASHES, seed=2026)
    for workers in (1, 2):
        seconds = best_seconds(lambda w=workers: preview_batch(mixed, workers=w), repeats=3)
        report(f"batch preview, random mix, {workers} process(es)", RANDOM_CLASHES / seconds,
               "previews/s", baseline)

    if os.environ.get("CLASH_BENCH_SWEEP", "1") != "0":
        started = time.perf_counter()
        sweep = run_sweep(np.arange(SWEEP_SIZE, dtype=np.int64), workers=2)
        elapsed = time.perf_counter() - started
        print(f"{'full monotonicity sweep, 2 processes':<48} {elapsed:>14.1f} s   "
              f"({sweep.evaluations:,} evaluations, {sum(sweep.violations.values())} "
              "violations)", flush=True)
