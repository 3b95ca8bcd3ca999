"""Hypothesis strategies for valid clash specifications."""

from __future__ import annotations

from hypothesis import strategies as st

from fairfight.clash import tables as t
from fairfight.clash.spec import ClashSpec, Combatant


@st.composite
def combatants(draw: st.DrawFn, *, initiator: bool = False) -> Combatant:
    """A unit of a calibration class with any condition."""
    cls = draw(st.sampled_from(t.CALIBRATION_CAST))
    stances = [s for s in t.Stance if not (initiator and s is t.Stance.MARCH)]
    return Combatant(
        atk=cls.atk, defence=cls.defence, tough=cls.tough, role=cls.role,
        strength=draw(st.integers(1, 100)), disorder=draw(st.integers(0, 100)),
        grade=draw(st.sampled_from(list(t.Grade))),
        supply_tier=draw(st.sampled_from(list(t.SupplyTier))),
        stance=draw(st.sampled_from(stances)), dig_in=draw(st.integers(0, 4)),
        works=draw(st.integers(0, 4)), shaken=draw(st.integers(0, 2)),
    )


@st.composite
def clash_specs(draw: st.DrawFn) -> ClashSpec:
    """Any valid assault, bombardment or reaction."""
    kind = draw(st.sampled_from([t.Kind.ASSAULT, t.Kind.BOMBARDMENT, t.Kind.REACTION]))
    supporters = draw(st.lists(combatants(), max_size=2)) if kind is t.Kind.ASSAULT else []
    return ClashSpec(
        kind=kind, terrain=draw(st.sampled_from(list(t.Terrain))),
        lead=draw(combatants(initiator=True)), supporters=tuple(supporters),
        defender=draw(combatants()), flankers=draw(st.integers(0, 8)),
        stack_extra=draw(st.integers(0, 8)),
        attacker_edge_mods=draw(st.sampled_from([0, t.UPHILL, t.RIVER_CROSSING, t.AMPHIBIOUS])),
        defender_extra_mods=draw(st.sampled_from([0, t.CAUGHT])),
        in_own_city=draw(st.booleans()), encircled=draw(st.booleans()),
        volatility_floor=draw(st.sampled_from(t.VOLATILITY_FLOORS)),
    )
