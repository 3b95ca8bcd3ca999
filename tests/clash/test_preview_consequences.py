"""The preview's consequences are the resolution's, counted over all 1000 draws.

The preview applies `exchange.consequences` once per stretch of draws between thresholds;
here the brute force (`consequence_oracle.resolved_consequences`) resolves the clash with
`resolve_exchange` and counts every draw: the consequences read an exchange only through its
two losses and its two break flags, so it resolves one draw per distinct (ld, la, breaks,
falters) of the 1000 (found by the array kernel) and weighs it by the draws that share it.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fairfight.clash import tables as t
from fairfight.clash.consequence_oracle import OracleCase, random_cases, resolved_consequences
from fairfight.clash.exchange import DefenderFate, resolve_exchange
from fairfight.clash.preview import Consequences, preview
from fairfight.clash.spec import ClashSpec

from .factories import ARMOUR, RIFLES, spec, unit
from .strategies import clash_specs


@st.composite
def any_clash(draw: st.DrawFn) -> tuple[ClashSpec, bool | None]:
    """Any clash, with garrisons (cities, works, stacks), reactions led from March and
    Entrench leads made more frequent than a uniform draw would make them, and the board's
    `defender_in_city` (a city of another owner) given or not."""
    chosen = draw(clash_specs())
    lead = chosen.lead
    if chosen.kind is t.Kind.REACTION and draw(st.booleans()):
        lead = lead.model_copy(update={"stance": t.Stance.MARCH})
    elif draw(st.integers(0, 3)) == 0:
        lead = lead.model_copy(update={"stance": t.Stance.ENTRENCH})
    defender = chosen.defender
    if draw(st.booleans()):  # a weak defender, so that its loss can reach its strength
        defender = defender.model_copy(update={"strength": draw(st.integers(1, 20))})
    return (chosen.model_copy(update={"lead": lead, "defender": defender}),
            draw(st.sampled_from([None, False, True])))


def brute_force(chosen: ClashSpec, defender_in_city: bool | None) -> Consequences:
    """The consequences of `resolve_exchange` counted over all 1000 draws (one resolution
    per class of draws with equal losses and break flags, `distribution.draw_classes`)."""
    return resolved_consequences([OracleCase(chosen, defender_in_city)])[0]


def _check(chosen: ClashSpec, defender_in_city: bool | None) -> None:
    view = preview(chosen, capture_possible=True, defender_in_city=defender_in_city)
    assert view.consequences == brute_force(chosen, defender_in_city)
    assert view.capture_permille == view.consequences.advance
    assert sum(count for _, count in view.consequences.fates) == t.DRAWS


@settings(max_examples=2000, deadline=None, derandomize=True)
@given(any_clash())
def test_preview_consequences_equal_the_resolutions_over_every_draw(
        case: tuple[ClashSpec, bool | None]) -> None:
    _check(*case)


@pytest.mark.slow  # a bigger sweep; 40,000 examples also pass (about 3 minutes)
@settings(max_examples=6_000, deadline=None, derandomize=True)
@given(any_clash())
def test_preview_consequences_over_a_bigger_sweep(case: tuple[ClashSpec, bool | None]) -> None:
    """Out of `make test` (the 2,000 examples above are its sample of every kind of clash):
    `FAIRFIGHT_SLOW=1 pytest -m slow tests/clash` runs it, and `fairfight clash oracle
    --consequences N` makes the same comparison on N seeded random clashes."""
    _check(*case)


def test_a_destroyed_garrison_gives_up_its_city() -> None:
    """The clash issue's case: a city garrison at 14 strength that loses 14 is destroyed
    and, alone on its tile, leaves the city to the lead (CB-1040: destroyed at strength 0;
    CB-1060: a cleared tile may be entered), though a broken garrison would hold, shaken."""
    garrison = spec(unit(ARMOUR, strength=100, grade=t.Grade.ELITE),
                    unit(RIFLES, strength=14, stance=t.Stance.HOLD), in_own_city=True)
    resolved = [resolve_exchange(garrison, r) for r in range(t.DRAWS)]
    taken = sum(outcome.lead_may_advance for outcome in resolved)
    assert taken > 0  # the resolution does take the city at some draws
    view = preview(garrison, capture_possible=True)
    assert view.capture_permille == taken
    assert view.consequences.of(DefenderFate.DESTROYED) == sum(
        outcome.fate is DefenderFate.DESTROYED for outcome in resolved)


def test_the_consequence_oracle_command_reports_its_count() -> None:
    """`clash oracle --consequences N` is the large run (100,000 clashes: 0 differences, in
    docs/clash.md); here a few hundred of its clashes, every kind among them."""
    from typer.testing import CliRunner

    from fairfight.cli import app

    result = CliRunner().invoke(app, ["clash", "oracle", "--consequences", "300", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["cases"] == 300 and summary["differences"] == 0 and summary["passed"]
    assert set(summary["by_kind"]) == {"assault", "bombardment", "reaction"}


def test_the_oracles_cases_include_garrisons_march_and_entrench_leads() -> None:
    cases = random_cases(400, seed=1)
    assert any(c.spec.kind is t.Kind.REACTION and c.spec.lead.stance is t.Stance.MARCH
               for c in cases)
    assert any(c.spec.lead.stance is t.Stance.ENTRENCH for c in cases)
    assert any(c.spec.in_own_city and c.spec.defender.works == 0 for c in cases)
    assert any(c.defender_in_city is True and not c.spec.in_own_city for c in cases)
    assert random_cases(5, seed=1) == cases[:5]


def test_the_oracle_finds_a_preview_that_disagrees() -> None:
    """The comparison can fail: a resolution whose fates differ from the preview's is
    reported (here the brute force is given the opposite city flag)."""
    case = next(c for c in random_cases(2000, seed=2)
                if c.spec.kind is t.Kind.ASSAULT and c.defender_in_city is True
                and c.spec.defender.works == 0
                and preview(c.spec, defender_in_city=True).break_permille > 0)
    flipped = OracleCase(case.spec, False)
    shown = preview(case.spec, capture_possible=True, defender_in_city=True).consequences
    assert resolved_consequences([flipped])[0] != shown
