"""The compiled kernel paths give the numpy kernel's own counts."""

from __future__ import annotations

import numpy as np

from fairfight.clash.compiled import monotone_steps
from fairfight.clash.corpus import SWEEP_SIZE, random_columns, sweep_columns
from fairfight.clash.invariants import MONOTONE_FALLING, MONOTONE_RISING, monotone_violations


def test_the_compiled_sweep_counts_what_the_array_sweep_counts() -> None:
    for columns in (sweep_columns(np.arange(0, SWEEP_SIZE, 401, dtype=np.int64)),
                    random_columns(200, seed=14)):
        compiled = monotone_steps(columns, MONOTONE_RISING, MONOTONE_FALLING)
        assert compiled.shape == (9, len(columns.kind))
        assert (compiled == monotone_violations(columns)).all()
