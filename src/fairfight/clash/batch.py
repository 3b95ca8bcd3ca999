"""Previews of many clashes at once, from int64 columns [CB-2290].

An AI or an overlay asks for thousands of previews. Each one runs the kernel's own formulas,
compiled (`clash.compiled`, with `fairfight[fast]`; without numba the same formulas on
numpy arrays, `clash.batch_arrays`): Steps 1-4 once, the three band draws, then a bisection
for each threshold the band draws do not settle. Large batches can be split across
processes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from fairfight.clash import tables as t
from fairfight.clash.batch_arrays import compiler_available, preview_rows_arrays
from fairfight.clash.kernel import Columns
from fairfight.clash.parallel import Int32Array, Int64Array, run_split, run_threads
from fairfight.clash.spec import COLUMN_NAMES, ClashSpec, check_resolvable

__all__ = [
    "BLOCK",
    "BatchPreview",
    "OUTPUT_ROWS",
    "columns_from_specs",
    "preview_batch",
    "slice_columns",
]

BLOCK = 8_192
"""Clashes per block: the unit of progress reports and of the split across processes."""
OUTPUT_ROWS = (
    "a", "d", "volatility", "resolve_attacker", "resolve_defender",
    "ld_low", "ld_median", "ld_high", "la_low", "la_median", "la_high",
    "shock_defender_low", "shock_defender_median", "shock_defender_high",
    "r_def", "r_att", "r_surv",
)


@dataclass(frozen=True, slots=True)
class BatchPreview:
    """Preview figures for N clashes, one int32 row per figure (see `OUTPUT_ROWS`).

    Every figure is far below 2**31 (powers of a few thousand, per-mille, draws), so the
    rows are stored in 32 bits: half the memory to write for a large batch.
    """

    rows: Int32Array

    def __len__(self) -> int:
        return int(self.rows.shape[1])

    def row(self, name: str) -> Int64Array:
        """One figure for every clash, as int64."""
        row: Int64Array = self.rows[OUTPUT_ROWS.index(name)].astype(np.int64)
        return row

    @property
    def break_permille(self) -> Int64Array:
        """Draws out of 1000 where the defender breaks [CB-2170]."""
        result: Int64Array = t.DRAWS - self.row("r_def")
        return result

    @property
    def falter_permille(self) -> Int64Array:
        """Draws where the lead falters [CB-2180]."""
        return np.minimum(self.row("r_att"), self.row("r_def"))

    @property
    def destroyed_permille(self) -> Int64Array:
        """Draws where the lead is destroyed [CB-2190]."""
        return self.row("r_surv")

    @property
    def win_permille(self) -> Int64Array:
        """Draws where the defender breaks and the lead survives [CB-2200]."""
        result: Int64Array = np.maximum(
            0, t.DRAWS - np.maximum(self.row("r_def"), self.row("r_surv")))
        return result

    def item_json(self, index: int) -> dict[str, Any]:
        """One clash's figures in the JSON shape of a single preview."""
        value = {name: int(self.rows[row, index]) for row, name in enumerate(OUTPUT_ROWS)}
        result: dict[str, Any] = {key: value[key] for key in OUTPUT_ROWS[:5]}
        for band in ("ld", "la", "shock_defender"):
            result[f"{band}_band"] = [value[f"{band}_{part}"] for part in
                                      ("low", "median", "high")]
        result["break_permille"] = int(self.break_permille[index])
        result["falter_permille"] = int(self.falter_permille[index])
        result["destroyed_permille"] = int(self.destroyed_permille[index])
        result["win_permille"] = int(self.win_permille[index])
        return result


def columns_from_specs(specs: Sequence[ClashSpec]) -> Columns:
    """Stack many specifications into int64 columns (each is checked against CB-340).

    Each spec packed its kernel integers when it was made (`ClashSpec.column_row`), so this
    joins the rows and reads them as one table; the columns are views into it.
    """
    n = len(specs)
    table = np.frombuffer(b"".join(map(ClashSpec.column_row, specs)),
                          dtype="<i4").reshape(n, len(COLUMN_NAMES)).astype(np.int64)
    for name in ("lead_strength", "defender_strength"):
        empty = np.flatnonzero(table[:, COLUMN_NAMES.index(name)] == 0)
        if empty.size:
            check_resolvable(specs[int(empty[0])])
    return Columns(**{name: table[:, index] for index, name in enumerate(COLUMN_NAMES)})


def slice_columns(columns: Columns, selection: Any) -> Columns:
    """The same columns for a slice or an index array of the clashes."""
    return Columns(**{
        column.name: np.asarray(getattr(columns, column.name))[selection]
        for column in fields(Columns)
    })


def _length(columns: Columns) -> int:
    return int(np.asarray(columns.kind).shape[0])


def preview_batch(columns: Columns, *, workers: int = 1) -> BatchPreview:
    """Exact previews of every clash in the columns, optionally on several processes.

    Every clash must already satisfy CB-340 (`columns_from_specs` checks it). With
    `workers` > 1 the batch is split into contiguous ranges, each filled by a thread (the
    compiled preview lets go of the interpreter lock) or, without the compiler, by a forked
    process; the figures are identical whichever way it runs.
    """
    if compiler_available():
        from fairfight.clash.compiled import preview_rows  # numba loads only when previews run

        split = run_threads
    else:
        preview_rows, split = preview_rows_arrays, run_split

    n = _length(columns)

    def work(start: int, stop: int, out: Int32Array, tick: Callable[[int], None]) -> None:
        for begin in range(start, stop, BLOCK):
            end = min(stop, begin + BLOCK)
            preview_rows(slice_columns(columns, slice(begin, end)), out[:, begin:end])
            tick(end - begin)

    if n < 2 * BLOCK:
        workers = 1
    elif workers > 1:  # compile (or load the compiled code) once, before the processes fork
        preview_rows(slice_columns(columns, slice(0, 1)), np.zeros((len(OUTPUT_ROWS), 1),
                                                                   dtype=np.int32))
    return BatchPreview(split(n, workers, (len(OUTPUT_ROWS), n), work, dtype=np.int32))
