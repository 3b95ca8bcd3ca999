"""The ruling on reactions: a reaction's target is a mover, and a mover that breaks retreats
(or, cut off, is destroyed) even in a city or works [CB-1820]; the defender of an assault
in a city or works holds, shaken [CB-1340]."""

from __future__ import annotations

import pytest

from fairfight.clash import tables as t
from fairfight.clash.exchange import DefenderFate, resolve_exchange
from fairfight.clash.preview import preview
from fairfight.clash.readout import render_panel
from fairfight.clash.spec import ClashSpec
from tests.clash.factories import ARMOUR, RIFLES, spec, unit


def fortified(kind: t.Kind, **fields: object) -> ClashSpec:
    """Strong armour against weakened rifles in works 2: they break on most draws."""
    lead = unit(ARMOUR, grade=t.Grade.VETERAN, supply_tier=t.SupplyTier.FULL,
                stance=t.Stance.HOLD)
    target = unit(RIFLES, strength=100, disorder=100, works=1, supply_tier=t.SupplyTier.CUT,
                  stance=t.Stance.MARCH
                  if kind is t.Kind.REACTION else t.Stance.HOLD)
    return spec(lead, target, kind=kind, **fields)


def first_breaking_draw(clash: ClashSpec) -> int:
    for r in range(t.DRAWS):
        outcome = resolve_exchange(clash, r)
        if outcome.exchange.defender_breaks and outcome.exchange.ld < clash.defender.strength:
            return r
    pytest.fail("no draw breaks the defender without destroying it")


@pytest.mark.parametrize("in_city", [False, True])
def test_a_broken_mover_retreats_even_from_works_or_a_city(in_city: bool) -> None:
    clash = fortified(t.Kind.REACTION, in_own_city=in_city)
    outcome = resolve_exchange(clash, first_breaking_draw(clash))
    assert outcome.fate is DefenderFate.RETREATS
    assert outcome.tile_cleared


def test_a_broken_mover_with_nowhere_to_go_is_destroyed() -> None:
    clash = fortified(t.Kind.REACTION, encircled=True)
    outcome = resolve_exchange(clash, first_breaking_draw(clash))
    assert outcome.fate is DefenderFate.ROUTED and outcome.defender.strength == 0


def test_the_defender_of_an_assault_in_works_holds_shaken() -> None:
    clash = fortified(t.Kind.ASSAULT)
    outcome = resolve_exchange(clash, first_breaking_draw(clash))
    assert outcome.fate is DefenderFate.HOLDS_SHAKEN
    assert outcome.defender.shaken == t.SHAKEN_ON_HOLD and not outcome.tile_cleared


def test_the_panel_says_a_broken_mover_falls_back() -> None:
    panel = render_panel(preview(fortified(t.Kind.REACTION)))
    assert "they fall back one tile" in panel and "cannot retreat" not in panel
    assault = render_panel(preview(fortified(t.Kind.ASSAULT)))
    assert "cannot retreat" in assault
