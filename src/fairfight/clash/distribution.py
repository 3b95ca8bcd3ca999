"""The whole distribution of a clash's results over its 1000 draws, exactly.

The bands give the least, median and greatest loss; a player weighing an attack also wants
the rest: how often the defender is left at each strength, how often the lead is, and the
chance either falls below a given strength. The resolution's consequences read an exchange
only through its two losses and its two break flags, so the 1000 draws fall into a few
classes of equal (Ld, La, break, falter); the array kernel finds the classes in one pass over
all the draws, and `resolve_exchange` is run once per class, weighted by the draws in it.
Every figure is an integer count of draws out of 1000; nothing is sampled.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from fairfight.clash import tables as t
from fairfight.clash.batch import columns_from_specs
from fairfight.clash.exchange import Outcome, resolve_exchange
from fairfight.clash.invariants import every_draw
from fairfight.clash.spec import ClashSpec

__all__ = [
    "StrengthAfter",
    "draw_classes",
    "outcome_classes",
    "strength_after",
]


def draw_classes(specs: Sequence[ClashSpec]) -> list[list[tuple[int, int]]]:
    """For each spec, (first draw, draws) of each distinct (Ld, La, break, falter) of its
    1000 draws, in order of first draw; the draw counts add up to 1000."""
    x = every_draw(columns_from_specs(specs))
    result = []
    for row in range(len(specs)):
        keys = np.stack([x.ld[row], x.la[row], x.defender_breaks[row],
                         x.attacker_falters[row]], axis=1)
        _, first, draws = np.unique(keys, axis=0, return_index=True, return_counts=True)
        order = np.argsort(first)
        result.append([(int(first[i]), int(draws[i])) for i in order])
    return result


def outcome_classes(spec: ClashSpec, defender_in_city: bool | None = None
                    ) -> list[tuple[int, Outcome]]:
    """(draws, the resolution at one of them) for each class of the spec's draws."""
    (classes,) = draw_classes([spec])
    return [(draws, resolve_exchange(spec, r, defender_in_city=defender_in_city))
            for r, draws in classes]


@dataclass(frozen=True, slots=True)
class StrengthAfter:
    """Draws out of 1000 leaving the defender and the lead at each strength."""

    defender_before: int
    lead_before: int
    defender: tuple[tuple[int, int], ...]
    """(strength after the clash, draws), lowest strength first; a routed or destroyed
    defender is at 0."""
    lead: tuple[tuple[int, int], ...]
    """(strength after the clash, draws) of the lead, lowest first."""

    @staticmethod
    def below(counts: tuple[tuple[int, int], ...], strength: int) -> int:
        """Draws out of 1000 leaving a side below `strength`."""
        return sum(draws for value, draws in counts if value < strength)

    def defender_below(self, strength: int) -> int:
        """Draws where the defender is left below `strength`."""
        return self.below(self.defender, strength)

    def lead_below(self, strength: int) -> int:
        """Draws where the lead is left below `strength`."""
        return self.below(self.lead, strength)


def strength_after(spec: ClashSpec, defender_in_city: bool | None = None) -> StrengthAfter:
    """The exact distribution of both sides' strength after the clash [CB-2160, CB-2280]."""
    defender: Counter[int] = Counter()
    lead: Counter[int] = Counter()
    for draws, outcome in outcome_classes(spec, defender_in_city):
        defender[outcome.defender.strength] += draws
        lead[outcome.lead.strength] += draws
    if sum(defender.values()) != t.DRAWS:
        raise AssertionError("the draw classes must cover all 1000 draws")
    return StrengthAfter(spec.defender.strength, spec.lead.strength,
                         tuple(sorted(defender.items())), tuple(sorted(lead.items())))
