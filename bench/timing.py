"""Small timing helpers shared by the benchmarks (wall clock, best of several repeats)."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence


def best_seconds(work: Callable[[], object], repeats: int = 5) -> float:
    """The fastest of `repeats` runs of `work`, in seconds."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def report(label: str, rate: float, unit: str, baseline: float | None = None) -> None:
    """Print one line: the rate and, when a baseline rate is given, the ratio against it."""
    ratio = f"  ({rate / baseline:,.2f}x baseline)" if baseline else ""
    print(f"{label:<48} {rate:>14,.0f} {unit}{ratio}", flush=True)


def p95(samples: Sequence[float]) -> float:
    """The 95th percentile of `samples` (inclusive method: within the samples' range), the one
    figure the latency benchmarks compare."""
    return statistics.quantiles(samples, n=20, method="inclusive")[-1]
