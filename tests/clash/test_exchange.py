"""The resolution of one clash: the section 23 golden vector and the CB-950 reference values."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from fairfight.clash import tables as t
from fairfight.clash.exchange import DefenderFate, resolve_exchange
from fairfight.clash.kernel import exchange, prepare
from fairfight.clash.ops import INT_OPS
from fairfight.clash.spec import ClashSpec, to_columns
from fairfight.core.errors import InputError, RuleError

from .conftest import load_golden


def test_worked_example_by_hand_arithmetic(worked_spec: ClashSpec) -> None:
    """Every step of section 23 recomputed here from the printed inputs [CB-2730]."""
    outcome = resolve_exchange(worked_spec, 617)
    p, x = outcome.prepared, outcome.exchange
    lead = 62 * 92 * (1000 + 180 + 50 - 300) * 1000 // 100_000_000
    battery = 48 * 100 * (1000 + 80 + 50 - 150) * 400 // 100_000_000
    rifles = 44 * 78 * (1000 + 0 + 0 + 150) * 1000 // 100_000_000
    a = (lead + battery) * (1000 + 250 + 120) // 1000
    d = rifles * (1000 + 400 + 300 + 200) // 1000
    volatility = (700 - 100 + 1000 + 0) // 2 + 200
    s = (617 - 500) * volatility // 2000
    a_eff, d_eff = a * (1000 + s) // 1000, d * (1000 - s) // 1000
    share_a = a_eff * 1000 // (a_eff + d_eff)
    ld = 60 * share_a * 100 // (1000 * 100)
    la = 60 * (1000 - share_a) * 100 // (1000 * 130)
    assert (p.contribution_lead, p.contribution_support1, p.contribution_defender) == (
        lead, battery, rifles)
    assert (p.a, p.d, p.volatility, p.reliability) == (a, d, volatility, volatility // 4)
    assert p.resolve_defender == 40 + 0 + 15 - 15 - (100 - 78) // 2
    assert p.resolve_attacker == 40 + 12 - 10 - (100 - 92) // 2
    assert (x.s, x.a_eff, x.d_eff, x.share_a, x.ld, x.la) == (s, a_eff, d_eff, share_a, ld, la)
    assert x.shock_defender == ld + 8 * 1 + 6
    assert x.shock_attacker == la + 10 + 0


def test_worked_example_matches_golden_figures(worked: dict[str, Any],
                                               worked_spec: ClashSpec) -> None:
    """The printed figures of section 23 and the reconstructed golden vector."""
    result = resolve_exchange(worked_spec, worked["r"]).to_json()
    expected = worked["resolution"]
    for key, value in expected.items():
        if key == "after":
            continue
        assert result[key] == value, key
    for side in ("lead", "defender"):
        for figure in ("strength", "disorder"):
            assert result["after"][side][figure] == expected["after"][side][figure]
    for got, want in zip(result["after"]["supporters"], expected["after"]["supporters"],
                         strict=True):
        assert (got["strength"], got["disorder"]) == (want["strength"], want["disorder"])


def test_worked_example_consequences(worked_spec: ClashSpec) -> None:
    outcome = resolve_exchange(worked_spec, 617)
    assert outcome.fate is DefenderFate.RETREATS
    assert outcome.tile_cleared and outcome.lead_may_advance and not outcome.lead_barred
    # xp: 2 + floor(35/4) + 10 for the lead, half that for the battery, 2 + floor(18/4)
    assert (outcome.lead.xp_gain, outcome.supporters[0].xp_gain, outcome.defender.xp_gain) == (
        20, 10, 6)
    assert outcome.carried_over == 0


@pytest.mark.parametrize("row", load_golden("reference_cb950.json")["rows"])
def test_reference_values(row: list[int], worked_spec: ClashSpec) -> None:
    """CB-950: losses at each odds ratio, tough 100 on both sides, median draw."""
    a, d, share_a, assault_ld, assault_la, bombard_ld, reaction_ld, reaction_la = row
    base = prepare(INT_OPS, to_columns(worked_spec))
    for kind, ld, la in ((t.Kind.ASSAULT, assault_ld, assault_la),
                         (t.Kind.BOMBARDMENT, bombard_ld, 0),
                         (t.Kind.REACTION, reaction_ld, reaction_la)):
        profile = t.KIND_PROFILES[kind]
        p = replace(base, a=100 * a, d=100 * d, intensity_out=profile.intensity_out,
                    intensity_back=profile.intensity_back, lead_strength=100,
                    defender_strength=100, defender_loss_divisor=1000 * 100,
                    attacker_loss_divisor=1000 * 100)
        x = exchange(INT_OPS, p, t.MEDIAN_DRAW)
        assert (x.share_a, x.ld, x.la) == (share_a, ld, la), kind


def test_rejected_before_any_draw(worked_spec: ClashSpec) -> None:
    """CB-340: no lead or no defender strength is refused; r outside 0..999 too."""
    dead = worked_spec.model_copy(
        update={"defender": worked_spec.defender.model_copy(update={"strength": 0})})
    with pytest.raises(RuleError, match="defender.strength"):
        resolve_exchange(dead, 10)
    for bad in (-1, 1000, True):
        with pytest.raises(InputError, match="^r:"):
            resolve_exchange(worked_spec, bad)


def test_event_replays_from_itself(worked_spec: ClashSpec) -> None:
    """CB-2460: the event carries the spec and r, enough to recompute it byte for byte."""
    from fairfight.clash.spec import parse_spec
    from fairfight.core.records import canonical_json

    event = resolve_exchange(worked_spec, 617).to_json()
    again = resolve_exchange(parse_spec(event["spec"]), event["r"]).to_json()
    assert canonical_json(again) == canonical_json(event)
