"""The attack panel as a value, its one path (`evaluate`), the fog request and the March rule."""

from __future__ import annotations

import pytest

from fairfight.clash import tables as t
from fairfight.clash.evaluation import evaluate
from fairfight.clash.exchange import resolve_exchange
from fairfight.clash.fog import FogField, FogRequest, parse_fog_fields
from fairfight.clash.readout import format_panel
from fairfight.clash.spec import ClashSpec, stance_may_initiate
from fairfight.clash.verdict import verdict_breaks
from fairfight.core.errors import InputError

from .factories import ARMOUR, BATTERY, RIFLES, spec, unit


def test_evaluate_with_a_draw_reconciles_the_resolution(worked_spec: ClashSpec) -> None:
    """Section 23 at r = 617: they lose 35 (inside 26-41), the lead 18 (inside 14-25)."""
    evaluated = evaluate(worked_spec, r=617)
    line = evaluated.panel.reconciliation
    assert evaluated.outcome == resolve_exchange(worked_spec, 617) and line is not None
    assert (line.they_lose.actual, line.you_lose.actual) == (35, 18)
    assert line.they_lose.inside and line.you_lose.inside and line.broke
    assert evaluated.evaluation().reconciliation == line
    unresolved = evaluate(worked_spec)
    assert unresolved.outcome is None and unresolved.panel.reconciliation is None


def test_the_panel_shows_the_kernels_resolve_terms_and_their_sum(
        worked_spec: ClashSpec) -> None:
    """Section 23, Step 4: the defender's resolve 40 + 15 - 15 - 11 = 29."""
    checks = evaluate(worked_spec).panel.break_checks
    assert checks is not None
    terms = [(item.value, item.source) for item in checks.their_resolve.terms]
    assert terms == [(40, "base"), (15, "entrench"), (-15, "disorder"), (-11, "strength 78")]
    assert checks.their_resolve.total == 29 and not checks.their_resolve.held


def test_a_destroyed_garrison_is_taken_in_the_panels_words() -> None:
    """CB-1040/CB-1060: a lone city garrison that loses all its strength leaves the city;
    the panel's capture line reports the draws where that happens, not 0."""
    garrison = spec(unit(ARMOUR, grade=t.Grade.ELITE),
                    unit(RIFLES, strength=14, stance=t.Stance.HOLD), in_own_city=True)
    panel = evaluate(garrison, capture_possible=True).panel
    taken = sum(resolve_exchange(garrison, r).lead_may_advance for r in range(t.DRAWS))
    assert taken > 0
    assert f"You take the tile: {taken}‰ of draws" in " ".join(panel.consequence)
    assert "cannot retreat" in format_panel(panel)


def test_the_verdict_outcome_is_read_from_the_one_threshold() -> None:
    """"They break" from an even chance up: 500 is a break, 499 a hold."""
    assert verdict_breaks(500) and not verdict_breaks(499)
    bombard = evaluate(spec(unit(BATTERY), unit(RIFLES), kind=t.Kind.BOMBARDMENT)).panel
    assert bombard.verdict.outcome == "none" and bombard.falter.outcome == "none"
    assert bombard.verdict.shouted().startswith("NO BREAK CHECK — ")


def test_a_range_makes_its_field_unobserved() -> None:
    request = FogRequest((FogField.GRADE,), strength_range=(40, 60))
    assert request.fields() == (FogField.GRADE, FogField.STRENGTH)
    assert FogRequest().fields() == ()
    assert parse_fog_fields(["grade", " works", "grade", ""], "fog") == (
        FogField.GRADE, FogField.WORKS)
    with pytest.raises(InputError, match="unknown field 'morale'") as refusal:
        parse_fog_fields(["morale"], "--unobserved")
    assert refusal.value.field == "--unobserved"


def test_the_march_rule_reads_its_one_constant(monkeypatch: pytest.MonkeyPatch) -> None:
    """CB-1530: a marching lead may not start an assault or a bombardment, but may react;
    the rule follows `tables.MARCH_MAY_INITIATE` wherever it is asked."""
    assert not stance_may_initiate(t.Stance.MARCH, t.Kind.ASSAULT)
    assert not stance_may_initiate(t.Stance.MARCH, t.Kind.BOMBARDMENT)
    assert stance_may_initiate(t.Stance.MARCH, t.Kind.REACTION)
    assert stance_may_initiate(t.Stance.HOLD, t.Kind.ASSAULT)
    with pytest.raises(ValueError, match="march may not initiate"):
        spec(unit(ARMOUR, stance=t.Stance.MARCH), unit(RIFLES))
    monkeypatch.setattr(t, "MARCH_MAY_INITIATE", True)
    assert stance_may_initiate(t.Stance.MARCH, t.Kind.ASSAULT)
    assert spec(unit(ARMOUR, stance=t.Stance.MARCH), unit(RIFLES)).lead.stance is (
        t.Stance.MARCH)
