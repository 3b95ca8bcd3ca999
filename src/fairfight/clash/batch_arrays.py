"""The batch preview and the sweep counts on numpy arrays, for installs without numba.

`pip install fairfight` does not bring the compiler (`fairfight[fast]` does). Without it the
batch paths run the kernel's own `prepare` and `exchange` on int64 arrays (`ops.ARRAY_OPS`),
every clash of a block at once: the three band draws, then each threshold bisected in ten
rounds over the whole block, with the same early exits as `preview.threshold_draw` (a
threshold the draws 0 or 999 settle needs no search). The figures are the compiled path's,
figure for figure (`tests/clash/test_batch_arrays.py`); only the speed differs.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np

from fairfight.clash import tables as t
from fairfight.clash.kernel import Columns, Exchange, Prepared, exchange, prepare
from fairfight.clash.ops import ARRAY_OPS
from fairfight.clash.parallel import Int32Array, Int64Array
from fairfight.clash.preview import band_values

__all__ = ["compiler_available", "preview_rows_arrays", "threshold_rows"]


@functools.cache
def compiler_available() -> bool:
    """Whether numba can be imported (`fairfight[fast]`), so the compiled paths can run;
    asked only when a batch runs, which then loads it anyway."""
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def threshold_rows(holds: Callable[[Int64Array], Int64Array], n: int) -> Int64Array:
    """For each of n clashes the least draw where a monotone predicate holds (1000: never),
    found as `preview.threshold_draw` finds it, for all clashes at once."""
    at_low = holds(np.zeros(n, dtype=np.int64))
    at_high = holds(np.full(n, t.HIGH_DRAW, dtype=np.int64))
    low = np.ones(n, dtype=np.int64)
    high = np.full(n, t.HIGH_DRAW, dtype=np.int64)
    searching = ~at_low & at_high
    while True:
        open_ = searching & (low < high)
        if not open_.any():
            break
        middle = (low + high) // 2
        found = holds(middle) & open_
        high = np.where(found, middle, high)
        low = np.where(open_ & ~found, middle + 1, low)
    result: Int64Array = np.where(at_low, 0, np.where(at_high, low, t.DRAWS))
    return result


def preview_rows_arrays(columns: Columns, out: Int32Array) -> None:
    """Fill `out` (the rows of `batch.OUTPUT_ROWS` x n) as `compiled.preview_rows` does."""
    p: Prepared = prepare(ARRAY_OPS, columns)
    n = int(np.asarray(columns.kind).shape[0])

    def at(r: Int64Array | int) -> Exchange:
        return exchange(ARRAY_OPS, p, np.broadcast_to(np.asarray(r, dtype=np.int64), (n,)))

    low, median, high = at(0), at(t.MEDIAN_DRAW), at(t.HIGH_DRAW)
    rows = [p.a, p.d, p.volatility, p.resolve_attacker, p.resolve_defender]
    for name in ("ld", "la", "shock_defender"):
        rows.extend(band_values(ARRAY_OPS, getattr(low, name), getattr(median, name),
                                getattr(high, name)))
    lead_strength = np.asarray(columns.lead_strength, dtype=np.int64)
    rows.append(threshold_rows(lambda r: np.asarray(at(r).defender_breaks, dtype=bool), n))
    rows.append(threshold_rows(
        lambda r: ~np.asarray(at(r).attacker_shock_reaches_resolve, dtype=bool), n))
    rows.append(threshold_rows(lambda r: np.asarray(at(r).la < lead_strength), n))
    for index, row in enumerate(rows):
        out[index, :] = np.broadcast_to(np.asarray(row, dtype=np.int64), (n,))
