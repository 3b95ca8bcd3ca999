"""The exact preview: loss bands and per-mille chances, from at most 33 evaluations [CB-2230].

The preview runs the resolution's own kernel: Steps 1-4 once, then the exchange at the
draws it needs. Every quantity is monotone in r [CB-2150], so each chance is the distance
to a threshold draw found by bisection, an exact count of draws out of 1000.

The consequences (retreat, rout, a cleared tile, the lead's advance) are the resolution's
own (`exchange.clearing`, the part of `consequences` they come from), applied once per
stretch of draws between the thresholds of what they read (break, lead survives, defender's
loss reaching its strength). When that last threshold is inside the draws, finding it costs
up to ten more evaluations, bracketed by the draws already evaluated.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from fairfight.clash import tables as t
from fairfight.clash.exchange import (
    Clearing,
    DefenderFate,
    clearing,
    may_retreat,
    prepare_spec,
)
from fairfight.clash.kernel import Exchange, Prepared, exchange
from fairfight.clash.ops import INT_OPS, Ops, Value
from fairfight.clash.spec import ClashSpec
from fairfight.core.exact import least_true

__all__ = [
    "BAND_DRAWS",
    "Band",
    "Consequences",
    "Preview",
    "band_of",
    "band_values",
    "count_consequences",
    "preview",
    "threshold_draw",
]

BAND_DRAWS = (0, t.MEDIAN_DRAW, t.HIGH_DRAW)
"""The draws whose results make up every band [CB-2160]."""


@dataclass(frozen=True, slots=True)
class Band:
    """min / median / max of a quantity over the band draws, by value [CB-2160]."""

    low: int
    median: int
    high: int

    def to_list(self) -> list[int]:
        """[min, median, max]."""
        return [self.low, self.median, self.high]

    def contains(self, value: int) -> bool:
        """Whether a resolved value lies inside the band [CB-2270]."""
        return self.low <= value <= self.high


def band_values(ops: Ops, first: Value, second: Value, third: Value) -> tuple[Value, Value,
                                                                              Value]:
    """min, median and max of three results by value, not by draw [CB-2160]."""
    low = ops.minimum(ops.minimum(first, second), third)
    high = ops.maximum(ops.maximum(first, second), third)
    return low, first + second + third - low - high, high


def band_of(values: tuple[int, int, int]) -> Band:
    """The band of three results at the band draws."""
    return Band(*band_values(INT_OPS, *values))


def threshold_draw(holds: Callable[[int], bool], known: Iterable[int] = ()) -> int:
    """The least r in 0..999 where a monotone predicate holds, or 1000 when it never does.

    The ends are checked first (the preview has evaluated them for the bands already), then
    bisection over 1..999 needs at most 10 more evaluations [CB-2170, CB-2220]; draws in
    `known`, already evaluated, narrow the bisection first.
    """
    if holds(0):
        return 0
    if not holds(t.HIGH_DRAW):
        return t.DRAWS
    low, high = 1, t.HIGH_DRAW
    for r in known:
        if holds(r):
            high = min(high, r)
        else:
            low = max(low, r + 1)
    return high if low >= high else least_true(low, high - 1, holds)


@dataclass(frozen=True, slots=True)
class Consequences:
    """Draws out of 1000 ending in each consequence of the resolution [CB-1040]."""

    fates: tuple[tuple[DefenderFate, int], ...]
    """Each defender fate and its draws (fates no draw reaches are left out)."""
    cleared: int
    """Draws where the tile is left empty [CB-1060]."""
    advance: int
    """Draws where the lead may advance into the cleared tile [CB-1060, CB-1080]."""

    def of(self, fate: DefenderFate) -> int:
        """The draws ending in one fate."""
        return dict(self.fates).get(fate, 0)

    def to_json(self) -> dict[str, Any]:
        """The counts as plain JSON."""
        return {"fates": {fate.value: count for fate, count in self.fates},
                "cleared": self.cleared, "advance": self.advance}


_FATE_ORDER = {fate: place for place, fate in enumerate(DefenderFate)}
"""Fates are listed in their declaration order."""


def count_consequences(stretches: Iterable[tuple[int, Clearing]]) -> Consequences:
    """The consequences of each stretch (its draw count, what one resolution in it leaves on
    the tile) added up."""
    fates: dict[DefenderFate, int] = {}
    cleared = advance = 0
    for draws, left in stretches:
        fates[left.fate] = fates.get(left.fate, 0) + draws
        cleared += draws * left.tile_cleared
        advance += draws * left.lead_may_advance
    return Consequences(tuple(sorted(fates.items(), key=lambda item: _FATE_ORDER[item[0]])),
                        cleared, advance)


@dataclass(frozen=True, slots=True)
class Preview:
    """What the player sees before committing: bands, thresholds and exact chances."""

    spec: ClashSpec
    prepared: Prepared
    ld_band: Band
    la_band: Band
    shock_defender_band: Band
    shock_attacker_band: Band
    r_def: int
    r_att: int
    r_surv: int
    consequences: Consequences
    capture_possible: bool
    evaluations: int
    defender_in_city: bool | None = None
    """Whether the defender's tile holds a city of any owner (None: the spec's in_own_city)."""

    @property
    def defender_may_retreat(self) -> bool:
        """A broken defender steps back only outside a city or works [CB-1340]."""
        return may_retreat(self.spec, self.defender_in_city)

    @property
    def break_permille(self) -> int:
        """Draws out of 1000 where the defender breaks [CB-2170]."""
        return t.DRAWS - self.r_def

    @property
    def falter_permille(self) -> int:
        """Draws where the lead falters: below both thresholds [CB-2180]."""
        return min(self.r_att, self.r_def)

    @property
    def destroyed_permille(self) -> int:
        """Draws where the lead attacker is destroyed [CB-2190]."""
        return self.r_surv

    @property
    def win_permille(self) -> int:
        """Draws where the defender breaks and the lead survives [CB-2200]."""
        return max(0, t.DRAWS - max(self.r_def, self.r_surv))

    @property
    def capture_permille(self) -> int:
        """Draws where the lead takes the tile [CB-2210]: the resolution lets it advance, and
        the caller vouches for its movement point and room (`capture_possible`)."""
        return self.consequences.advance if self.capture_possible else 0

    def to_json(self) -> dict[str, Any]:
        """The preview as plain JSON."""
        p = self.prepared
        return {
            "a": p.a, "d": p.d, "volatility": p.volatility, "reliability": p.reliability,
            "resolve_attacker": p.resolve_attacker, "resolve_defender": p.resolve_defender,
            "ld_band": self.ld_band.to_list(), "la_band": self.la_band.to_list(),
            "shock_defender_band": self.shock_defender_band.to_list(),
            "shock_attacker_band": self.shock_attacker_band.to_list(),
            "r_def": self.r_def, "r_att": self.r_att, "r_surv": self.r_surv,
            "break_permille": self.break_permille, "falter_permille": self.falter_permille,
            "destroyed_permille": self.destroyed_permille, "win_permille": self.win_permille,
            "capture_permille": self.capture_permille,
            "consequences": self.consequences.to_json(), "evaluations": self.evaluations,
            "combat_logic_version": t.COMBAT_LOGIC_VERSION,
        }


def preview(spec: ClashSpec, *, capture_possible: bool = False,
            defender_in_city: bool | None = None) -> Preview:
    """The exact preview of a clash, a pure function of its specification [CB-2280].

    `capture_possible` says whether the lead has a movement point and room to advance into
    the tile if it were cleared (CB-1060); it only gates `capture_permille`.
    `defender_in_city` is as for `resolve_exchange`: a city of any owner keeps a broken
    garrison in place.
    """
    prepared = prepare_spec(spec)
    evaluated: dict[int, Exchange] = {}

    def at(r: int) -> Exchange:
        result = evaluated.get(r)
        if result is None:
            result = evaluated[r] = exchange(INT_OPS, prepared, r)
        return result

    low, median, high = (at(r) for r in BAND_DRAWS)
    lead_strength = spec.lead.strength
    r_def = threshold_draw(lambda r: bool(at(r).defender_breaks))
    r_att = threshold_draw(lambda r: not at(r).attacker_shock_reaches_resolve)
    r_surv = threshold_draw(lambda r: at(r).la < lead_strength)
    defender_strength = spec.defender.strength
    r_kill = threshold_draw(lambda r: at(r).ld >= defender_strength, sorted(evaluated))
    edges = sorted({0, r_def, r_surv, r_kill, t.DRAWS} - {t.DRAWS}) + [t.DRAWS]
    counted = count_consequences(
        (end - start, clearing(spec, at(start), defender_in_city))
        for start, end in itertools.pairwise(edges))
    return Preview(
        spec=spec, prepared=prepared,
        ld_band=band_of((low.ld, median.ld, high.ld)),
        la_band=band_of((low.la, median.la, high.la)),
        shock_defender_band=band_of(
            (low.shock_defender, median.shock_defender, high.shock_defender)),
        shock_attacker_band=band_of(
            (low.shock_attacker, median.shock_attacker, high.shock_attacker)),
        r_def=r_def, r_att=r_att, r_surv=r_surv, consequences=counted,
        capture_possible=capture_possible,
        evaluations=len(evaluated), defender_in_city=defender_in_city,
    )
