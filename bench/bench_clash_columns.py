"""clash columns: stacking 100,000 specifications into the batch's int64 columns.

A game that embeds the engine builds `ClashSpec` values and hands them to the batch preview;
the columns must cost less than the preview itself (target: 100,000 specs in 0.1 s). The
baseline, measured in the same run, is the field-by-field path (`spec.to_columns` per spec,
then one `np.fromiter` per column), which the packed rows replaced; the batch preview of the
same columns is printed beside it. Each figure is the CPU seconds of this process in its
fastest run (`bench_clash.timed`), so that other work on the shared machine counts less.
"""

from __future__ import annotations

from dataclasses import fields

import numpy as np

from bench.bench_clash import timed
from fairfight.clash.batch import columns_from_specs, preview_batch
from fairfight.clash.consequence_oracle import random_cases
from fairfight.clash.kernel import Columns
from fairfight.clash.spec import ClashSpec, to_columns

SPECS = 100_000
TARGET_SECONDS = 0.1


def field_by_field(specs: list[ClashSpec]) -> Columns:
    """The old path: every field of every spec read one at a time."""
    flat = [to_columns(spec) for spec in specs]
    return Columns(**{
        column.name: np.fromiter((int(getattr(row, column.name)) for row in flat),
                                 dtype=np.int64, count=len(flat))
        for column in fields(Columns)})


def main() -> None:
    specs = [case.spec for case in random_cases(SPECS, seed=5)]
    packed, old = columns_from_specs(specs), field_by_field(specs)
    assert all(np.array_equal(getattr(packed, f.name), getattr(old, f.name))
               for f in fields(Columns))
    _, baseline = timed(lambda: field_by_field(specs), repeats=2)
    _, columns = timed(lambda: columns_from_specs(specs), repeats=5)
    _, batch = timed(lambda: preview_batch(packed), repeats=3)
    print(f"{SPECS:,} specs to columns, field by field (baseline)   {baseline:8.3f} s", flush=True)
    print(f"{SPECS:,} specs to columns, packed rows                 {columns:8.3f} s  "
          f"({baseline / columns:,.1f}x faster; target <= {TARGET_SECONDS} s: "
          f"{'met' if columns <= TARGET_SECONDS else 'MISSED'})", flush=True)
    print(f"{SPECS:,} batch previews of those columns, one process  {batch:8.3f} s  "
          f"(columns are {columns / batch:,.2f}x the preview)", flush=True)
