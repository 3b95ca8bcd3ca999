"""The CI invariants of section 22 that run in the default test run [CB-2660..CB-2740].

The full monotonicity sweep (86,016,000 evaluations, also `fairfight clash sweep --full`) fits
the default run; a stratified sample checks besides that every dimension's values are covered.
"""

from __future__ import annotations

import numpy as np
import pytest

from fairfight.clash import kernel
from fairfight.clash import tables as t
from fairfight.clash.batch import columns_from_specs
from fairfight.clash.corpus import (
    ORACLE_SIZE,
    SWEEP_RADICES,
    SWEEP_SIZE,
    oracle_specs,
    sweep_columns,
)
from fairfight.clash.invariants import MONOTONE, monotone_violations, run_oracle, run_sweep

STRIDE = 37  # coprime with every radix, so every digit takes every value in the sample


def test_sweep_has_the_reference_size() -> None:
    """CB-2670: 86,016,000 evaluations; CB-2690: 5,376 specifications."""
    assert SWEEP_SIZE * t.DRAWS == 86_016_000
    assert ORACLE_SIZE == 5_376


def test_stratified_sweep_sample_is_monotone() -> None:
    indices = np.arange(0, SWEEP_SIZE, STRIDE, dtype=np.int64)
    report = run_sweep(indices)
    assert report.clashes == len(indices) and report.passed, report.violations
    digits = indices.copy()
    for radix in SWEEP_RADICES:  # the sample covers every value of every dimension
        assert len(np.unique(digits % radix)) == radix
        digits //= radix


def test_the_sweep_detects_a_non_monotone_quantity(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checker is not vacuous: a negative volatility makes s fall as r rises."""
    columns = sweep_columns(np.arange(4, dtype=np.int64))
    columns.volatility_floor = np.full(4, -t.VOLATILITY_MAX, dtype=np.int64)
    monkeypatch.setattr(kernel, "GRADE_VOLATILITY", (-3000,) * len(t.Grade))
    violations = monotone_violations(columns)
    assert violations[MONOTONE.index("s")].sum() > 0


def test_oracle_corpus_bisection_equals_brute_force() -> None:
    """CB-2690 over all 5,376 specifications, scalar and batch previews, with CB-2660 bands."""
    report = run_oracle(oracle_specs())
    assert report.cases == 5_376
    assert report.mismatches == []
    assert report.most_evaluations <= 33 and report.passed


def test_reachable_maxima_cb630() -> None:
    """CB-2680: +1600 for the defender, +510 for the attacker, inside the clamps."""
    defender = (max(t.TERRAIN_COVER.values()) + max(t.STANCE_DEFENCE.values())
                + t.POSITION_STEP * t.MAX_POSITION + t.STACK_STEP * t.STACK_CAP)
    attacker = (max(t.STANCE_ATTACK.values()) + max(t.COMBINED_ARMS.values())
                + max(0, t.RIVER_CROSSING, t.UPHILL, t.AMPHIBIOUS))
    assert defender <= 1600 and defender == t.MAX_DEFENDER_TOTAL
    assert attacker <= 510 and attacker == t.MAX_ATTACKER_TOTAL
    assert defender < t.FORCE_MODS_MAX and attacker < t.FORCE_MODS_MAX


def test_intermediates_fit_in_47_bits_cb2510() -> None:
    best = 1000 + max(t.GRADE_POWER.values()) + max(t.SUPPLY_POWER.values()) + max(
        v for row in t.ROLE_TERRAIN.values() for v in row.values())
    assert best == 1550
    assert 255 * 100 * best * t.LEAD_FACTOR < 2**47


def test_every_kind_is_monotone_on_the_oracle_corpus() -> None:
    """CB-2150 for bombardments, reactions and supported assaults too (the sweep is assaults)."""
    specs = oracle_specs()
    kinds = {spec.kind for spec in specs}
    assert len(kinds) == 3 and any(len(spec.supporters) == 2 for spec in specs)
    violations = monotone_violations(columns_from_specs(specs))
    assert int(violations.sum()) == 0


def test_full_sweep_is_monotone() -> None:
    """CB-2670 in full: every sweep clash at all 1000 draws (about ten seconds on two cores)."""
    report = run_sweep(np.arange(SWEEP_SIZE, dtype=np.int64), workers=2)
    assert report.evaluations == 86_016_000
    assert report.passed, report.violations
