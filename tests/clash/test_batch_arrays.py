"""Without numba the batch preview runs the kernel on numpy arrays: the same figures.

`pip install fairfight` leaves the compiler out (`fairfight[fast]` brings it); the AI, the
overlay and the oracle must give the same previews either way."""

from __future__ import annotations

import numpy as np
import pytest

from fairfight.clash import batch, batch_arrays
from fairfight.clash.batch import OUTPUT_ROWS, columns_from_specs, preview_batch
from fairfight.clash.batch_arrays import preview_rows_arrays, threshold_rows
from fairfight.clash.corpus import oracle_specs, random_columns
from fairfight.clash.preview import preview, threshold_draw


def test_threshold_rows_is_threshold_draw_for_every_kind_of_predicate() -> None:
    cuts = np.asarray([0, 1, 2, 500, 998, 999, 1000], dtype=np.int64)
    found = threshold_rows(lambda r: r >= cuts, len(cuts))
    assert found.tolist() == [threshold_draw(lambda r, c=int(c): r >= c) for c in cuts]


def test_the_array_path_gives_the_compiled_figures_on_random_clashes() -> None:
    columns = random_columns(4_000, seed=11)
    compiled = preview_batch(columns).rows
    out = np.zeros((len(OUTPUT_ROWS), 4_000), dtype=np.int32)
    preview_rows_arrays(columns, out)
    assert np.array_equal(out, compiled)


def test_without_numba_preview_batch_matches_the_scalar_preview(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batch, "compiler_available", lambda: False)
    specs = oracle_specs()[::7]
    result = preview_batch(columns_from_specs(specs))
    for index in range(0, len(specs), 13):
        single = preview(specs[index]).to_json()
        item = result.item_json(index)
        assert {key: single[key] for key in item} == item
    assert batch_arrays.compiler_available()  # this environment has the compiler too
