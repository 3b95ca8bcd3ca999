"""What happens outside an exchange: disengagement [CB-1860] and end-of-turn recovery [CB-2080]."""

from __future__ import annotations

from dataclasses import dataclass

from fairfight.clash import tables as t
from fairfight.clash.spec import ClashSpec, Combatant
from fairfight.core.errors import RuleError

__all__ = ["Disengagement", "Recovery", "caught", "disengage", "recover", "recovery_rates"]


@dataclass(frozen=True, slots=True)
class Disengagement:
    """The result of a disengagement: no draw, no break check, no experience [CB-1860, CB-1240]."""

    withdrew: bool
    loss: int
    strength: int
    disorder: int
    dig_in: int


def disengage(unit: Combatant, *, destination_exists: bool) -> Disengagement:
    """A unit under a withdraw reflex leaves before the exchange, or is caught [CB-1860].

    With a retreat destination it pays floor(1000 / tough) strength and +15 disorder and its
    dig-in resets (it changes tile, CB-1260); without one nothing changes here and the assault
    resolves against it as `caught(spec)`.
    """
    if not destination_exists:
        return Disengagement(False, 0, unit.strength, unit.disorder, unit.dig_in)
    loss = min(unit.strength, t.DISENGAGE_LOSS_NUMERATOR // unit.tough)
    disorder = min(t.MAX_DISORDER, unit.disorder + t.DISENGAGE_DISORDER)
    return Disengagement(True, loss, unit.strength - loss, disorder, 0)


def caught(spec: ClashSpec) -> ClashSpec:
    """The assault that follows a failed disengagement: defender force term -200 [CB-1880]."""
    if spec.kind is not t.Kind.ASSAULT:
        raise RuleError("kind", "only an assault can catch a disengaging unit (CB-1850)")
    return spec.model_copy(update={"defender_extra_mods": t.CAUGHT})


@dataclass(frozen=True, slots=True)
class Recovery:
    """A unit's state after end-of-turn recovery."""

    strength: int
    disorder: int
    shaken: int
    strength_recovered: int
    disorder_recovered: int


def recovery_rates(situation: t.RecoverySituation, supply_tier: t.SupplyTier,
                   fought: bool) -> tuple[int, int]:
    """(strength, disorder) recovered this turn: the base row, then CB-2080 in its order."""
    strength, disorder = t.RECOVERY_BASE[situation]
    if supply_tier is t.SupplyTier.STRAINED:
        strength, disorder = 0, disorder // 2
    if supply_tier is t.SupplyTier.CUT:
        strength, disorder = 0, 0
    if fought:
        strength, disorder = 0, disorder // 2
    return strength, disorder


def recover(strength: int, disorder: int, *, situation: t.RecoverySituation,
            supply_tier: t.SupplyTier, fought: bool, shaken: int = 0) -> Recovery:
    """End-of-turn recovery of one surviving unit [CB-2070..CB-2120, CB-1130].

    Strength is capped at 100 and disorder floored at 0; shaken counts down by one. A unit
    destroyed this turn does not recover, so strength 0 is refused.
    """
    if strength <= 0:
        raise RuleError("strength", "a destroyed unit does not recover (CB-2120)")
    gain, calm = recovery_rates(situation, supply_tier, fought)
    new_strength = min(t.MAX_STRENGTH, strength + gain)
    new_disorder = max(0, disorder - calm)
    return Recovery(new_strength, new_disorder, max(0, shaken - 1),
                    new_strength - strength, disorder - new_disorder)
