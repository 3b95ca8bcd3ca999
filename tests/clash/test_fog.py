"""Prediction under fog: the CB-2360 pivot golden vector on the section 23 attack."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from fairfight.clash import tables as t
from fairfight.clash.fog import FogField, Pivot, preview_under_fog, shown_pivots
from fairfight.clash.spec import ClashSpec
from fairfight.core.errors import InputError

from .conftest import load_golden
from .factories import BATTERY, RIFLES, unit
from .factories import spec as clash_spec

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


# The verdict's wording for a break chance, written out here from the rules' chance words
# (0 never, 1-99 remote, 100-399 unlikely, 400-599 a coin toss, 600-899 likely, 900-999 very
# likely, 1000 certain) and the verdict's side (they break from 500 up, else they hold).
BOUNDS = ((0, "never"), (99, "remote"), (399, "unlikely"), (599, "a coin toss"),
          (899, "likely"), (999, "very likely"), (1000, "certain"))


def _wording(chance: int) -> tuple[bool, str]:
    return chance >= 500, next(words for bound, words in BOUNDS if chance <= bound)


def _verdict_threshold(values: dict[str, int]) -> str | None:
    labels = list(values)
    first = _wording(values[labels[0]])
    return next((label for label in labels if _wording(values[label]) != first), None)


def test_cb_2360_thresholds_are_where_the_verdict_changes() -> None:
    """On the CB-2360 vector: grade 1000, 1000, 885, 125 reads certain, certain, likely,
    unlikely, so the verdict changes at veteran; works 1000, 1000, 958, 520, 80 reads certain,
    certain, very likely, a coin toss, they hold, so at 2; a flat pivot never changes it."""
    pivots = {**GOLDEN["other_pivots"], **GOLDEN["levels"]["L2"]["pivots"]}
    expected = {"grade": "veteran", "works": "2", "stance": None, "dig_in": None,
                "supply_tier": None}
    for name, values in pivots.items():
        pivot = Pivot(FogField(name), tuple(values.items()), 0)
        assert pivot.threshold == expected[name] == _verdict_threshold(values), name
        assert pivot.changes_verdict is (expected[name] is not None)


def test_l2_fills_the_second_place_with_a_marked_pivot(worked_spec: ClashSpec) -> None:
    """CB-2360 level L2: only grade changes the verdict; supply tier (flat at 1000) takes
    the second place, marked as not changing it."""
    fog = preview_under_fog(worked_spec, [FogField.GRADE, FogField.SUPPLY_TIER])
    grade, supply = fog.shown_pivots
    assert (grade.field, grade.threshold) == (FogField.GRADE, "veteran")
    assert (supply.field, supply.threshold) == (FogField.SUPPLY_TIER, None)
    assert "does not change the verdict" in supply.describe()
    shown = fog.to_json()["pivots"]
    assert [p["threshold"] for p in shown] == ["veteran", None]
    assert [p["marking"] for p in shown] == [None, "does not change the verdict"]
    assert shown[0]["verdict"]["veteran"] == "They break — likely"
    assert shown[0]["verdict"]["elite"] == "They hold — a break is unlikely"


def test_a_moving_chance_is_detail_not_a_threshold() -> None:
    """Hand-made pivots: the chance moves at 1 but the verdict only at 2, or never."""
    later = Pivot(FogField.WORKS, (("0", 950), ("1", 930), ("2", 700), ("3", 300), ("4", 300)),
                  0)
    assert (later.threshold, later.break_moves_at) == ("2", "1")
    assert later.outcome == ("the verdict changes at 2 (they break — likely); the break "
                             "chance already moves at 1")
    steady = Pivot(FogField.DIG_IN, (("0", 150), ("1", 300), ("2", 399)), 0)
    assert (steady.threshold, steady.break_moves_at) == (None, "1")
    assert steady.outcome == "does not change the verdict; the break chance moves at 1"
    assert steady.to_json()["threshold"] is None
    # 499 and 500 share the words "a coin toss" but not the side: the verdict changes
    side = Pivot(FogField.GRADE, (("green", 499), ("trained", 500)), 0)
    assert side.threshold == "trained"


def test_the_verdict_threshold_on_resolved_pivots(worked_spec: ClashSpec) -> None:
    """Two variants of the section 23 defender where the dig-in pivot's break chance moves
    before (or without) its verdict; the threshold follows the wording, the detail the chance."""
    for strength, disorder, threshold in ((78, 0, None), (95, 0, "2")):
        variant = worked_spec.model_copy(update={"defender": worked_spec.defender.model_copy(
            update={"strength": strength, "disorder": disorder})})
        (pivot,) = preview_under_fog(variant, [FogField.DIG_IN]).pivots
        values = dict(pivot.values)
        assert pivot.threshold == threshold == _verdict_threshold(values)
        assert pivot.break_moves_at == "1" != pivot.threshold
        assert values["1"] != values["0"]


def test_a_bombardment_pivot_has_no_verdict_to_turn() -> None:
    spec = clash_spec(unit(BATTERY), unit(RIFLES), kind=t.Kind.BOMBARDMENT)
    (pivot,) = preview_under_fog(spec, [FogField.WORKS]).pivots
    assert pivot.threshold is None and set(pivot.verdicts) == {"No break check"}


def test_verdict_changing_pivots_take_the_places_first() -> None:
    wide_flat = Pivot(FogField.STANCE, (("march", 100), ("advance", 390)), 0)
    narrow = Pivot(FogField.GRADE, (("green", 499), ("trained", 500)), 0)
    middle_flat = Pivot(FogField.WORKS, (("0", 900), ("1", 999)), 0)
    other = Pivot(FogField.DIG_IN, (("0", 1000), ("1", 0)), 0)
    assert shown_pivots([wide_flat, narrow, middle_flat]) == (wide_flat, narrow)
    assert shown_pivots([wide_flat, narrow, middle_flat, other]) == (other, narrow)
    assert shown_pivots([middle_flat]) == (middle_flat,)


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
