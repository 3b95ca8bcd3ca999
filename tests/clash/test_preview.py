"""The exact preview: golden figures, the evaluation budget, and agreement with resolution."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings

from fairfight.clash import tables as t
from fairfight.clash.batch import columns_from_specs, preview_batch
from fairfight.clash.corpus import oracle_specs
from fairfight.clash.exchange import resolve_exchange
from fairfight.clash.kernel import Exchange, Prepared
from fairfight.clash.ops import Ops
from fairfight.clash.parallel import run_threads
from fairfight.clash.preview import preview
from fairfight.clash.spec import ClashSpec

from .strategies import clash_specs

preview_module = sys.modules["fairfight.clash.preview"]
BUDGET = 3 + 3 * 10  # CB-2230: three band draws and ten probes per threshold


def test_worked_example_preview(worked: dict[str, Any], worked_spec: ClashSpec) -> None:
    """Section 23: Ld 26/34/41, La 14/19/25, shock 40-55, break 1000, falter 0."""
    view = preview(worked_spec).to_json()
    for key, value in worked["preview"].items():
        if key != "panel_lines":
            assert view[key] == value, key
    assert view["a"] == 97 and view["d"] == 74


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = preview_module.exchange

    def counted(ops: Ops, prepared: Prepared, r: int) -> Exchange:
        calls.append(r)
        return real(ops, prepared, r)

    monkeypatch.setattr(preview_module, "exchange", counted)
    return calls


def test_at_most_33_evaluations_over_the_corpus(monkeypatch: pytest.MonkeyPatch) -> None:
    """CB-2230, counted by wrapping the kernel call, never from the preview's own tally."""
    calls = _counting(monkeypatch)
    worst = 0
    interior = 0
    for spec in oracle_specs()[::3]:
        calls.clear()
        view = preview(spec)
        worst = max(worst, len(calls))
        assert len(calls) == view.evaluations
        assert all(0 <= r < t.DRAWS for r in calls)
        interior += 0 < view.break_permille < t.DRAWS
    assert worst <= BUDGET
    assert interior > 40  # the corpus really exercises the bisection


def test_every_resolution_lies_in_the_displayed_bands(worked_spec: ClashSpec) -> None:
    """CB-2270/CB-2660 for all 1000 draws of the worked example, through resolve_exchange."""
    view = preview(worked_spec)
    breaks = 0
    for r in range(t.DRAWS):
        outcome = resolve_exchange(worked_spec, r)
        assert view.ld_band.contains(outcome.exchange.ld)
        assert view.la_band.contains(outcome.exchange.la)
        assert view.shock_defender_band.contains(outcome.exchange.shock_defender)
        breaks += bool(outcome.exchange.defender_breaks)
    assert breaks == view.break_permille


@settings(max_examples=60, deadline=None, derandomize=True)
@given(clash_specs())
def test_preview_counts_equal_enumeration(spec: ClashSpec) -> None:
    """Every chance is the exact count of draws; every draw's losses lie in the bands."""
    view = preview(spec)
    outcomes = [resolve_exchange(spec, r).exchange for r in range(0, t.DRAWS, 1)]
    breaks = [bool(x.defender_breaks) for x in outcomes]
    falters = [bool(x.attacker_falters) for x in outcomes]
    dead = [x.la >= spec.lead.strength for x in outcomes]
    assert view.break_permille == sum(breaks)
    assert view.falter_permille == sum(falters)
    assert view.destroyed_permille == sum(dead)
    assert view.win_permille == sum(b and not d for b, d in zip(breaks, dead, strict=True))
    assert all(view.ld_band.contains(x.ld) and view.la_band.contains(x.la) for x in outcomes)


def test_capture_needs_the_positional_precondition(worked_spec: ClashSpec) -> None:
    assert preview(worked_spec).capture_permille == 0
    assert preview(worked_spec, capture_possible=True).capture_permille == 1000


def test_batch_equals_scalar_on_the_corpus() -> None:
    specs = oracle_specs()[::7]
    batch = preview_batch(columns_from_specs(specs))
    for index, spec in enumerate(specs):
        single = preview(spec).to_json()
        for key, value in batch.item_json(index).items():
            assert single[key] == value, (index, key)


def test_two_workers_give_the_same_figures() -> None:
    specs = oracle_specs()
    columns = columns_from_specs(specs)
    tiled = type(columns)(**{name: np.tile(getattr(columns, name), 13)
                             for name in columns.__slots__})
    one = preview_batch(tiled, workers=1)
    two = preview_batch(tiled, workers=2)
    assert len(one) == 13 * len(specs) and np.array_equal(one.rows, two.rows)


def test_threads_fill_their_own_ranges_and_report_a_failure() -> None:
    """Each thread fills only its range (0..n-1 written by position), progress adds up to n,
    and an error in one thread reaches the caller rather than a half-filled output."""
    seen: list[int] = []

    def fill(start: int, stop: int, out: Any, tick: Any) -> None:
        out[0, start:stop] = np.arange(start, stop)
        tick(stop - start)

    out = run_threads(1001, 3, (1, 1001), fill, progress=seen.append)
    assert np.array_equal(out[0], np.arange(1001)) and seen[-1] == 1001

    def fail(start: int, stop: int, out: Any, tick: Any) -> None:
        if start > 0:
            raise ValueError("the second range fails")
        tick(stop - start)

    with pytest.raises(ValueError, match="second range"):
        run_threads(10, 2, (1, 10), fail)


def test_columns_read_in_place_give_the_same_figures() -> None:
    """Views into one row-major table (strided, read-only) preview as contiguous columns do."""
    specs = oracle_specs()[::11]
    columns = columns_from_specs(specs)
    names = list(columns.__slots__)
    table = np.stack([getattr(columns, name) for name in names], axis=1)
    table.flags.writeable = False
    views = type(columns)(**{name: table[:, k] for k, name in enumerate(names)})
    assert not views.kind.flags.c_contiguous and not views.kind.flags.writeable
    assert np.array_equal(preview_batch(views).rows, preview_batch(columns).rows)


def test_no_capture_of_a_city_or_works(worked_spec: ClashSpec) -> None:
    """A garrison that breaks in works holds, shaken: winning there takes no tile."""
    in_works = worked_spec.model_copy(
        update={"defender": worked_spec.defender.model_copy(update={"works": 1})})
    view = preview(in_works, capture_possible=True)
    assert view.win_permille > 0 and view.capture_permille == 0
    city = worked_spec.model_copy(update={"in_own_city": True})
    assert preview(city, capture_possible=True).capture_permille == 0


@settings(max_examples=40, deadline=None, derandomize=True)
@given(clash_specs())
def test_int_and_array_kernels_agree_on_every_draw(spec: ClashSpec) -> None:
    """One source, two number types: the same figures at all 1000 draws."""
    from fairfight.clash.invariants import every_draw

    arrays = every_draw(columns_from_specs([spec]))
    for r in range(0, t.DRAWS, 7):
        single = resolve_exchange(spec, r).exchange
        for name in ("s", "a_eff", "d_eff", "share_a", "share_d", "ld", "la", "shock_defender",
                     "shock_attacker", "defender_breaks", "attacker_falters"):
            assert getattr(single, name) == getattr(arrays, name)[0, r], (r, name)


def test_no_capture_by_a_lead_that_may_not_advance(worked_spec: ClashSpec) -> None:
    """CB-1080/CB-2210: Entrench never advances, so its capture chance is 0 even when it
    wins; Hold and Advance may (the worked example breaks the defender at every draw)."""
    def with_stance(stance: t.Stance) -> ClashSpec:
        return worked_spec.model_copy(
            update={"lead": worked_spec.lead.model_copy(update={"stance": stance})})

    entrenched = preview(with_stance(t.Stance.ENTRENCH), capture_possible=True)
    assert entrenched.win_permille > 0 and entrenched.capture_permille == 0
    held = preview(with_stance(t.Stance.HOLD), capture_possible=True)
    assert held.win_permille > 0 and held.capture_permille == held.win_permille


def test_a_city_of_another_owner_keeps_the_garrison_in_the_preview_too(
        worked_spec: ClashSpec) -> None:
    """CB-1340: a city of any owner forbids retreat; the preview and its panel agree with
    the resolution given the same `defender_in_city`."""
    from fairfight.clash.exchange import DefenderFate
    from fairfight.clash.readout import render_panel

    view = preview(worked_spec, capture_possible=True, defender_in_city=True)
    assert view.win_permille == 1000 and view.capture_permille == 0
    assert "cannot retreat" in render_panel(view)
    assert resolve_exchange(worked_spec, 617, defender_in_city=True).fate is (
        DefenderFate.HOLDS_SHAKEN)
    assert preview(worked_spec, capture_possible=True).capture_permille == 1000
