"""clash: the batch preview against the C port, scalar preview time, the monotonicity sweep.

First, the yardstick: bench/c/clash_limit.c (faithful and early-exit builds) previews its own
deterministic corpus; bench/c/dump.c writes that corpus and the C figures, which we load as
columns, preview, and compare figure by figure and by the C checksum, then time per
CPU-second on 1 process and per wall second on 2, as the C program does.

Then the older baseline for the other rates: a plain Python loop calling the scalar `preview`
on each spec of the 5,376-case oracle corpus, measured in the same run.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

import numpy as np

from bench import clash_corpus, yardstick
from bench.timing import best_seconds, report
from fairfight.clash.batch import columns_from_specs, preview_batch
from fairfight.clash.corpus import SWEEP_SIZE, oracle_specs, random_columns
from fairfight.clash.exchange import resolve_exchange
from fairfight.clash.invariants import run_sweep
from fairfight.clash.kernel import Columns
from fairfight.clash.preview import preview
from fairfight.clash.spec import ClashSpec

TILES = 400
"""5,376 x 400 = 2,150,400 clashes per batch."""
RANDOM_CLASHES = 2_000_000


def _tiled(columns: Columns, times: int) -> Columns:
    return Columns(**{name: np.tile(getattr(columns, name), times) for name in Columns.__slots__})


def timed(work: Callable[[], object], repeats: int = 3) -> tuple[float, float]:
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


C_CORPUS = 200_000


def against_c() -> None:
    """The batch preview and the C port on the C corpus: equal figures, rates, ratios."""
    faithful = yardstick.build("clash_limit.c", "clash_limit")
    early = yardstick.build("clash_limit.c", "clash_limit_early", "-DEARLY")
    dump = yardstick.build("dump.c", "clash_dump")
    if faithful is None or early is None or dump is None:
        print("gcc not found: the C yardstick is skipped")
        return
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        specs, previews = Path(folder) / "specs.bin", Path(folder) / "previews.bin"
        yardstick.run(dump, C_CORPUS, specs, previews)
        columns, expected = clash_corpus.load_specs(specs), clash_corpus.load_previews(previews)
    ours = preview_batch(columns)
    pairs = {"ld_low": "ld_low", "ld_median": "ld_median", "ld_high": "ld_high",
             "la_low": "la_low", "la_median": "la_median", "la_high": "la_high",
             "shock_defender_low": "shock_defender_low",
             "shock_defender_median": "shock_defender_median",
             "shock_defender_high": "shock_defender_high", "r_def": "r_def",
             "r_att": "r_att", "r_surv": "r_surv", "a": "a", "d": "d",
             "volatility": "volatility"}
    differing = sum(int(np.count_nonzero(ours.row(mine) != expected[theirs]))
                    for mine, theirs in pairs.items())
    differing += int(np.count_nonzero(ours.break_permille != expected["break"]))
    differing += int(np.count_nonzero(ours.win_permille != expected["win"]))
    checksum = int((ours.break_permille + ours.row("ld_low") + ours.row("ld_median")
                    + ours.row("ld_high")).sum())
    c_output = yardstick.run(early, C_CORPUS, 5, 1)
    c_checksum = int(yardstick.number_after(c_output, "checksum="))
    print(f"C corpus of {C_CORPUS:,}: {differing} differing figures; checksum {checksum} "
          f"(C: {c_checksum})", flush=True)
    for label, program in (("faithful", faithful), ("early-exit", early)):
        c_cpu = yardstick.number_after(yardstick.run(program, C_CORPUS, 5, 1),
                                       "best per CPU-second (1 proc):")
        report(f"C preview, {label}, per CPU-second (yardstick)", c_cpu, "previews/cpu-s")
        _, cpu = timed(lambda: preview_batch(columns), repeats=5)
        report("  batch preview, 1 process, per CPU-second", C_CORPUS / cpu, "previews/cpu-s",
               c_cpu)
    c_wall = yardstick.number_after(yardstick.run(early, C_CORPUS, 5, 2), "median")
    report("C preview, early-exit, 2 processes (yardstick)", c_wall, "previews/s")
    wall, cpu = timed(lambda: preview_batch(columns, workers=2), repeats=5)
    report("  batch preview, 2 workers", C_CORPUS / wall, "previews/s", c_wall)
    c_cpu = _c_two_process_cpu_rate(early)
    report("C preview, early-exit, 2 processes, per CPU-second", c_cpu, "previews/cpu-s")
    report("  batch preview, 2 workers, per CPU-second (target 1.3x)", C_CORPUS / cpu,
           "previews/cpu-s", c_cpu)


def _c_two_process_cpu_rate(program: Path) -> float:
    """The C port's previews per CPU-second on 2 processes, its forks and children counted:
    the CPU of 5 reps less that of 1 rep (which leaves out making its corpus), over 4 reps."""
    def cpu_of(reps: int) -> float:
        before = os.times()
        yardstick.run(program, C_CORPUS, reps, 2)
        after = os.times()
        return (after.children_user + after.children_system
                - before.children_user - before.children_system)

    return 4 * C_CORPUS / max(1e-9, cpu_of(5) - cpu_of(1))


def _each_previewed(specs: list[ClashSpec]) -> None:
    """Preview every spec, one after another, keeping none: as a caller shows a preview and
    moves on. A list of thousands of kept previews made the collector walk them again and
    again, a quarter of the loop's time, which no single preview costs."""
    for spec in specs:
        preview(spec)


def main() -> None:
    against_c()
    specs = oracle_specs()
    hardest = [spec for spec in specs if preview(spec).evaluations >= 19]

    loop_seconds, loop_cpu = timed(lambda: _each_previewed(specs))
    baseline, baseline_cpu = len(specs) / loop_seconds, len(specs) / loop_cpu
    report("scalar preview, plain loop (baseline)", baseline, "previews/s")
    report("  same, per CPU-second", baseline_cpu, "previews/cpu-s")
    print(
        f"{'scalar preview, mean over the corpus':<48} {loop_seconds / len(specs) * 1e6:>14.1f}"
        f" µs  ({loop_cpu / len(specs) * 1e6:.1f} µs of CPU; target <= 50)"
    )
    rounds = 50
    hard_seconds, hard_cpu = timed(
        lambda: _each_previewed(hardest * rounds)
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
            seconds, cpu = timed(partial(preview_batch, columns, workers=workers))
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
