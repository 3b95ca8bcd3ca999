"""The CI invariants that need every draw: the monotonicity sweep and the brute-force oracle.

Both evaluate the kernel at all 1000 draws at once (a clashes x draws array), so they check
the preview's bisection against a count that assumes nothing about monotonicity.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields

import numpy as np

from fairfight.clash import tables as t
from fairfight.clash.batch import columns_from_specs, preview_batch, slice_columns
from fairfight.clash.batch_arrays import compiler_available
from fairfight.clash.corpus import sweep_columns
from fairfight.clash.kernel import Columns, Exchange, exchange, prepare
from fairfight.clash.ops import ARRAY_OPS
from fairfight.clash.parallel import Int64Array, run_split
from fairfight.clash.preview import preview
from fairfight.clash.spec import ClashSpec
from fairfight.core.executor import Executor

__all__ = [
    "BANDS",
    "CHANCES",
    "MAX_EVALUATIONS",
    "MONOTONE",
    "MONOTONE_FALLING",
    "MONOTONE_RISING",
    "OracleReport",
    "SWEEP_BLOCK",
    "SweepReport",
    "brute_force",
    "every_draw",
    "monotone_violations",
    "run_oracle",
    "run_sweep",
    "sweep_counts",
]

MONOTONE_RISING = ("s", "a_eff", "share_a", "ld", "shock_defender")
"""Quantities that must never fall as r rises [CB-2150]."""
MONOTONE_FALLING = ("d_eff", "share_d", "la", "shock_attacker")
"""Quantities that must never rise as r rises [CB-2150]."""
MONOTONE = MONOTONE_RISING + MONOTONE_FALLING
SWEEP_BLOCK = 512
"""Clashes per block of the sweep (512 x 1000 compiled evaluations between progress ticks)."""


def every_draw(columns: Columns) -> Exchange:
    """The exchange of every clash at every draw: arrays of shape (clashes, 1000)."""
    as_column = Columns(**{
        item.name: np.asarray(getattr(columns, item.name))[:, np.newaxis]
        for item in fields(Columns)
    })
    draws = np.arange(t.DRAWS, dtype=np.int64)[np.newaxis, :]
    return exchange(ARRAY_OPS, prepare(ARRAY_OPS, as_column), draws)


def monotone_violations(columns: Columns) -> Int64Array:
    """Per clash, the count of draw steps where each CB-2150 quantity moves the wrong way.

    Shape (len(MONOTONE), clashes), in the order of `MONOTONE`.
    """
    result = every_draw(columns)
    counts = [np.count_nonzero(np.diff(getattr(result, name), axis=1) < 0, axis=1)
              for name in MONOTONE_RISING]
    counts += [np.count_nonzero(np.diff(getattr(result, name), axis=1) > 0, axis=1)
               for name in MONOTONE_FALLING]
    stacked: Int64Array = np.asarray(counts, dtype=np.int64)
    return stacked


@dataclass(frozen=True, slots=True)
class SweepReport:
    """Outcome of a monotonicity sweep."""

    clashes: int
    evaluations: int
    violations: dict[str, int]

    @property
    def passed(self) -> bool:
        """No quantity ever moved the wrong way."""
        return not any(self.violations.values())


def sweep_counts(indices: Int64Array) -> Int64Array:
    """Wrong-way steps of the sweep clashes at `indices`: shape (len(MONOTONE), clashes)."""
    if not compiler_available():   # numpy over all 1000 draws: the same counts, slower
        return monotone_violations(sweep_columns(indices))
    from fairfight.clash.compiled import monotone_steps  # numba loads only when a sweep runs

    return monotone_steps(sweep_columns(indices), MONOTONE_RISING, MONOTONE_FALLING)


def run_sweep(
    indices: Int64Array, *, workers: int = 1, progress: Callable[[int], None] | None = None,
    executor: Executor | None = None,
) -> SweepReport:
    """Check CB-2150 over the sweep clashes at `indices`, all 1000 draws each [CB-2670].

    With an `executor` (e.g. a Dask scheduler's) the indices go out in chunks of 8 blocks.
    """
    n = int(indices.shape[0])
    if executor is not None:
        step = 8 * SWEEP_BLOCK
        starts = list(range(0, n, step))
        parts = executor.map(sweep_counts, [(indices[s:s + step],) for s in starts],
                             None if progress is None else (
                                 lambda done: progress(min(n, done * step))))
        counts = np.concatenate(parts, axis=1) if parts else np.zeros((len(MONOTONE), 0))
        return SweepReport(
            clashes=n, evaluations=n * t.DRAWS,
            violations={name: int(total) for name, total in zip(
                MONOTONE, counts.sum(axis=1), strict=True)},
        )

    def work(start: int, stop: int, out: Int64Array, tick: Callable[[int], None]) -> None:
        for begin in range(start, stop, SWEEP_BLOCK):
            end = min(stop, begin + SWEEP_BLOCK)
            out[:, begin:end] = sweep_counts(indices[begin:end])
            tick(end - begin)

    counts = run_split(n, workers, (len(MONOTONE), n), work, progress)
    return SweepReport(
        clashes=n, evaluations=n * t.DRAWS,
        violations={name: int(total) for name, total in zip(MONOTONE, counts.sum(axis=1),
                                                              strict=True)},
    )


def brute_force(columns: Columns) -> dict[str, Int64Array]:
    """Counts and extremes over all 1000 draws, by enumeration: the oracle's answers."""
    result = every_draw(columns)
    lead_strength = np.asarray(columns.lead_strength)[:, np.newaxis]
    survives = result.la < lead_strength
    return {
        "break_permille": np.count_nonzero(result.defender_breaks, axis=1),
        "falter_permille": np.count_nonzero(result.attacker_falters, axis=1),
        "destroyed_permille": np.count_nonzero(~survives, axis=1),
        "win_permille": np.count_nonzero(result.defender_breaks & survives, axis=1),
        "ld_min": result.ld.min(axis=1), "ld_max": result.ld.max(axis=1),
        "la_min": result.la.min(axis=1), "la_max": result.la.max(axis=1),
        "shock_defender_min": result.shock_defender.min(axis=1),
        "shock_defender_max": result.shock_defender.max(axis=1),
    }


@dataclass(frozen=True, slots=True)
class OracleReport:
    """Outcome of the oracle check: every mismatch as (case, path, figure, expected, got)."""

    cases: int
    most_evaluations: int
    mismatches: list[tuple[int, str, str, int, int]] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """Bisection agreed with enumeration everywhere, within the evaluation budget."""
        return not self.mismatches and self.most_evaluations <= MAX_EVALUATIONS


MAX_EVALUATIONS = 3 + 3 * (t.HIGH_DRAW - 1).bit_length()
"""3 band draws and 10 per threshold [CB-2230]."""
CHANCES = ("break_permille", "falter_permille", "destroyed_permille", "win_permille")
BANDS = ("ld", "la", "shock_defender")


def run_oracle(
    specs: Sequence[ClashSpec], *, progress: Callable[[int], None] | None = None,
) -> OracleReport:
    """Scalar and batch previews against brute force over all 1000 draws [CB-2690, CB-2660]."""
    columns = columns_from_specs(specs)
    mismatches: list[tuple[int, str, str, int, int]] = []
    most = 0
    batch = preview_batch(columns)
    block = 256
    for begin in range(0, len(specs), block):
        end = min(len(specs), begin + block)
        truth = brute_force(slice_columns(columns, slice(begin, end)))
        for offset in range(end - begin):
            index = begin + offset
            single = preview(specs[index])
            most = max(most, single.evaluations)
            figures = {"scalar": single.to_json(), "batch": batch.item_json(index)}
            for path, figure in figures.items():
                for name in CHANCES:
                    if figure[name] != int(truth[name][offset]):
                        mismatches.append((index, path, name, int(truth[name][offset]),
                                           figure[name]))
                for band in BANDS:
                    low, high = figure[f"{band}_band"][0], figure[f"{band}_band"][2]
                    for edge, got in (("min", low), ("max", high)):
                        expected = int(truth[f"{band}_{edge}"][offset])
                        if got != expected:
                            mismatches.append((index, path, f"{band}_{edge}", expected, got))
        if progress is not None:
            progress(end)
    return OracleReport(cases=len(specs), most_evaluations=most, mismatches=mismatches)
