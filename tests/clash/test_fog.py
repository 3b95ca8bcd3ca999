"""Prediction under fog: the CB-2360 pivot golden vector on the section 23 attack."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from fairfight.clash.fog import FogField, preview_under_fog
from fairfight.clash.spec import ClashSpec
from fairfight.core.errors import InputError

from .conftest import load_golden

GOLDEN = load_golden("pivots_cb2360.json")


@pytest.mark.parametrize("level", sorted(GOLDEN["levels"]))
def test_pivot_table_levels(level: str, worked_spec: ClashSpec) -> None:
    expected = GOLDEN["levels"][level]
    fog = preview_under_fog(worked_spec, [FogField(name) for name in expected["unobserved"]])
    assert fog.nominal.prepared.a == GOLDEN["a"]
    assert list(fog.ranges["break_permille"]) == expected["break_permille"]
    for name, values in expected.get("pivots", {}).items():
        pivot = next(p for p in fog.pivots if p.field.value == name)
        assert dict(pivot.values) == values
    assert len(fog.shown_pivots) <= 2


@pytest.mark.parametrize("name", sorted(GOLDEN["other_pivots"]))
def test_other_pivots(name: str, worked_spec: ClashSpec) -> None:
    fog = preview_under_fog(worked_spec, [FogField(name)])
    (pivot,) = fog.pivots
    assert dict(pivot.values) == GOLDEN["other_pivots"][name]
    assert pivot.evaluations <= 33 * 5  # CB-2580


def test_pivots_are_ordered_and_name_their_threshold(worked_spec: ClashSpec) -> None:
    fog = preview_under_fog(worked_spec, [FogField.SUPPLY_TIER, FogField.WORKS,
                                          FogField.GRADE])
    spans = [pivot.span for pivot in fog.pivots]
    assert spans == sorted(spans, reverse=True)
    assert [p.field for p in fog.shown_pivots] == [FogField.WORKS, FogField.GRADE]
    assert fog.shown_pivots[0].threshold == "2"
    assert fog.shown_pivots[1].threshold == "veteran"


def test_unobserved_strength_is_estimated(worked_spec: ClashSpec) -> None:
    """CB-2260: without the target's strength the command layer gets 400."""
    fog = preview_under_fog(worked_spec, [FogField.STRENGTH], strength_range=(40, 90))
    assert fog.estimated and fog.command_win_permille == 400
    assert fog.cases == 51
    low, high = fog.ranges["ld_band"]
    assert low <= fog.nominal.ld_band.low and high >= fog.nominal.ld_band.high
    with pytest.raises(InputError, match="strength_range"):
        preview_under_fog(worked_spec, [FogField.STRENGTH], strength_range=(0, 50))


@pytest.mark.parametrize("name", sorted(GOLDEN["other_pivots"]))
def test_one_unknown_costs_at_most_165_evaluations(
        name: str, worked_spec: ClashSpec, monkeypatch: pytest.MonkeyPatch) -> None:
    """CB-2580: the whole analysis of one enumerable unknown (estimate, ranges and pivot)
    takes at most 33 x 5 kernel evaluations, counted by wrapping the kernel call."""
    fog_module = sys.modules["fairfight.clash.fog"]
    preview_module = sys.modules["fairfight.clash.preview"]  # the package re-exports `preview`

    calls: list[int] = []
    real = preview_module.exchange

    def counted(*args: Any) -> Any:
        calls.append(args[2])
        return real(*args)

    def no_batch(*args: Any) -> Any:
        raise AssertionError("the batch kernel would add evaluations")

    monkeypatch.setattr(preview_module, "exchange", counted)
    monkeypatch.setattr(fog_module, "preview_batch", no_batch)
    fog = preview_under_fog(worked_spec, [FogField(name)])
    assert len(calls) <= 33 * 5 and len(calls) == fog.evaluations
    chances = list(GOLDEN["other_pivots"][name].values())
    assert fog.ranges["break_permille"] == (min(chances), max(chances))
