"""The consequences oracle: the preview's fates against the resolution at all 1000 draws.

The preview counts its consequences (each defender fate, the cleared tile, the lead's
advance) by applying `exchange.consequences` once per stretch of draws between thresholds.
This oracle resolves every clash with `resolve_exchange` instead and counts what happens at
each draw, over random clashes of every kind: garrisons of cities and works, stacks,
reactions led from March, Entrench leads, weak defenders whose loss can reach their strength,
and the board's `defender_in_city` given or not. Any difference is a bug of the preview.

The consequences read an exchange only through its two losses and its two break flags, so
the brute force resolves one draw per distinct (Ld, La, break, falter) of the 1000 (found by
the array kernel) and weighs it by the draws that share it: every draw is counted.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

import numpy as np

from fairfight.clash import tables as t
from fairfight.clash.distribution import draw_classes
from fairfight.clash.exchange import DefenderFate, resolve_exchange
from fairfight.clash.preview import Consequences, preview
from fairfight.clash.spec import ClashSpec, Combatant, stance_may_initiate

__all__ = [
    "BLOCK",
    "ConsequenceReport",
    "EDGE_TERMS",
    "OracleCase",
    "random_cases",
    "resolved_consequences",
    "run_consequence_oracle",
]

EDGE_TERMS = (0, t.UPHILL, t.RIVER_CROSSING, t.AMPHIBIOUS)
_Item = TypeVar("_Item")
BLOCK = 500
"""Clashes whose 1000 draws the array kernel evaluates at once."""


class _Draws:
    """Integer draws from a seeded generator: a number in a range, a choice, a chance."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)

    def randint(self, low: int, high: int) -> int:
        return int(self.rng.integers(low, high + 1))

    def choice(self, items: Sequence[_Item]) -> _Item:
        return items[self.randint(0, len(items) - 1)]

    def one_in(self, n: int) -> bool:
        return self.randint(1, n) == 1


@dataclass(frozen=True, slots=True)
class OracleCase:
    """One clash and the board's word on a city at the defender's tile (None: the spec's)."""

    spec: ClashSpec
    defender_in_city: bool | None


def _combatant(rng: _Draws, *, initiator: bool, kind: t.Kind) -> Combatant:
    cls = rng.choice(t.CALIBRATION_CAST)
    stances = [s for s in t.Stance if not initiator or stance_may_initiate(s, kind)]
    return Combatant(
        atk=cls.atk, defence=cls.defence, tough=cls.tough, role=cls.role,
        strength=rng.randint(1, t.MAX_STRENGTH), disorder=rng.randint(0, t.MAX_DISORDER),
        grade=rng.choice(list(t.Grade)), supply_tier=rng.choice(list(t.SupplyTier)),
        stance=rng.choice(stances), dig_in=rng.randint(0, t.MAX_POSITION),
        works=rng.randint(0, t.MAX_POSITION), shaken=rng.randint(0, t.SHAKEN_ON_HOLD),
        creation_sequence=rng.randint(0, 99))


def _case(rng: _Draws) -> OracleCase:
    kind = rng.choice((t.Kind.ASSAULT, t.Kind.BOMBARDMENT, t.Kind.REACTION))
    lead = _combatant(rng, initiator=True, kind=kind)
    if kind is t.Kind.REACTION and rng.one_in(2):
        lead = lead.model_copy(update={"stance": t.Stance.MARCH})
    elif rng.randint(0, 3) == 0:
        lead = lead.model_copy(update={"stance": t.Stance.ENTRENCH})
    defender = _combatant(rng, initiator=False, kind=kind)
    if rng.one_in(2):  # a weak defender, whose loss can reach its strength
        defender = defender.model_copy(update={"strength": rng.randint(1, 20)})
    if rng.one_in(4):  # a garrison outside any works, so only the city can hold it
        defender = defender.model_copy(update={"works": 0})
    supporters: tuple[Combatant, ...] = ()
    if kind is t.Kind.ASSAULT:
        supporters = tuple(_combatant(rng, initiator=False, kind=kind)
                           for _ in range(rng.randint(0, t.MAX_SUPPORTERS)))
    spec = ClashSpec(
        kind=kind, terrain=rng.choice(list(t.Terrain)), lead=lead, supporters=supporters,
        defender=defender, flankers=rng.randint(0, 8), stack_extra=rng.randint(0, 8),
        attacker_edge_mods=rng.choice(EDGE_TERMS),
        defender_extra_mods=rng.choice((0, 0, 0, t.CAUGHT)),
        in_own_city=rng.one_in(2), encircled=rng.one_in(3),
        volatility_floor=rng.choice(t.VOLATILITY_FLOORS))
    return OracleCase(spec, rng.choice((None, False, True)))


def random_cases(n: int, seed: int = 0) -> list[OracleCase]:
    """n random clashes of every kind, the same for the same seed."""
    rng = _Draws(seed)
    return [_case(rng) for _ in range(n)]


def resolved_consequences(cases: Sequence[OracleCase]) -> list[Consequences]:
    """For each case, the consequences of `resolve_exchange` counted over all 1000 draws."""
    order = list(DefenderFate)
    result = []
    for case, classes in zip(cases, draw_classes([case.spec for case in cases]), strict=True):
        fates: Counter[DefenderFate] = Counter()
        cleared = advance = 0
        for r, count in classes:
            outcome = resolve_exchange(case.spec, r, defender_in_city=case.defender_in_city)
            fates[outcome.fate] += count
            cleared += count * outcome.tile_cleared
            advance += count * outcome.lead_may_advance
        result.append(Consequences(
            tuple(sorted(fates.items(), key=lambda item: order.index(item[0]))),
            cleared, advance))
    return result


@dataclass(frozen=True, slots=True)
class ConsequenceReport:
    """How many clashes were compared, by kind, and every one whose counts differ."""

    cases: int
    by_kind: dict[str, int]
    differences: list[tuple[int, Consequences, Consequences]] = field(default_factory=list)
    """(case number, the resolution's counts, the preview's counts)."""

    @property
    def passed(self) -> bool:
        """The preview's consequences equal the resolution's for every clash."""
        return not self.differences


def run_consequence_oracle(n: int, seed: int = 0, *,
                           progress: Callable[[int], None] | None = None) -> ConsequenceReport:
    """Compare the preview's consequences with the resolution's on n random clashes."""
    cases = random_cases(n, seed)
    differences = []
    for begin in range(0, n, BLOCK):
        block = cases[begin:begin + BLOCK]
        for offset, truth in enumerate(resolved_consequences(block)):
            case = block[offset]
            shown = preview(case.spec, capture_possible=True,
                            defender_in_city=case.defender_in_city).consequences
            if shown != truth:
                differences.append((begin + offset, truth, shown))
        if progress is not None:
            progress(min(n, begin + BLOCK))
    kinds = Counter(case.spec.kind.value for case in cases)
    return ConsequenceReport(n, dict(sorted(kinds.items())), differences)
