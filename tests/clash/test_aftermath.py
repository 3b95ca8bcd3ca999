"""Disengagement [CB-1860] and recovery [CB-2070..CB-2110]."""

from __future__ import annotations

import pytest

from fairfight.clash import tables as t
from fairfight.clash.aftermath import caught, disengage, recover, recovery_rates
from fairfight.clash.exchange import resolve_exchange
from fairfight.clash.spec import ClashSpec
from fairfight.core.errors import RuleError

from .factories import ARMOUR, BATTERY, RIFLES, SCOUTS, unit

SITUATION = t.RecoverySituation


@pytest.mark.parametrize(("cls", "loss"), [(SCOUTS, 16), (BATTERY, 14), (RIFLES, 10),
                                           (ARMOUR, 7)])
def test_parting_losses_cb1870(cls: t.UnitClass, loss: int) -> None:
    result = disengage(unit(cls, disorder=90, dig_in=3), destination_exists=True)
    assert result.withdrew and result.loss == loss
    assert (result.strength, result.disorder, result.dig_in) == (100 - loss, 100, 0)


def test_caught_when_there_is_nowhere_to_go(worked_spec: ClashSpec) -> None:
    result = disengage(worked_spec.defender, destination_exists=False)
    assert not result.withdrew and result.loss == 0
    caught_spec = caught(worked_spec)
    assert caught_spec.defender_extra_mods == -200
    outcome = resolve_exchange(caught_spec, 500)
    assert outcome.prepared.defender_mods == 400 + 300 + 200 - 200
    with pytest.raises(RuleError):
        caught(caught_spec.model_copy(update={"kind": t.Kind.BOMBARDMENT, "supporters": ()}))


def test_recovery_order_cb2080() -> None:
    assert recovery_rates(SITUATION.CITY, t.SupplyTier.FULL, fought=False) == (12, 90)
    assert recovery_rates(SITUATION.CITY, t.SupplyTier.STRAINED, fought=False) == (0, 45)
    # halving twice is floor(floor(x/2)/2) [CB-2090]
    assert recovery_rates(SITUATION.CITY, t.SupplyTier.STRAINED, fought=True) == (0, 22)
    assert recovery_rates(SITUATION.FIELD, t.SupplyTier.CUT, fought=False) == (0, 0)
    assert recovery_rates(SITUATION.FIELD, t.SupplyTier.ADEQUATE, fought=True) == (0, 10)


@pytest.mark.parametrize(("situation", "turns"), [(SITUATION.CITY, 5),
                                                  (SITUATION.CITY_DEPOT, 3),
                                                  (SITUATION.FIELD, 15)])
def test_recovery_asymmetry_cb2110(situation: t.RecoverySituation, turns: int) -> None:
    strength, elapsed = 40, 0
    while strength < 100:
        strength = recover(strength, 0, situation=situation,
                           supply_tier=t.SupplyTier.ADEQUATE, fought=False).strength
        elapsed += 1
    assert elapsed == turns


def test_recovery_caps_counts_down_shaken_and_refuses_the_dead() -> None:
    result = recover(95, 10, situation=SITUATION.CITY_DEPOT, supply_tier=t.SupplyTier.FULL,
                     fought=False, shaken=2)
    assert (result.strength, result.disorder, result.shaken) == (100, 0, 1)
    assert (result.strength_recovered, result.disorder_recovered) == (5, 10)
    with pytest.raises(RuleError):
        recover(0, 0, situation=SITUATION.CITY, supply_tier=t.SupplyTier.FULL, fought=False)
