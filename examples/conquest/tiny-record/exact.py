"""Exact probability helpers: every answer is a Fraction (or an exact count).

These are the building blocks the rulesets use for odds tables and previews, so
that a displayed chance is a ratio of counted outcomes, never an estimate. Standard
library only: a conquest season archive ships this file beside `engine.py`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

__all__ = [
    "Comparison",
    "Distribution",
    "at_least",
    "at_least_scaled",
    "brute_force_dice_sum",
    "compare",
    "dice_sum",
    "least_true",
    "probe_limit",
]

Distribution = dict[int, Fraction]
"""A finite distribution: value -> probability, probabilities summing to 1."""


def at_least(k: int, probabilities: Iterable[Fraction]) -> Fraction:
    """P(at least k of independent events happen), for events with the given chances.

    The chances are put over one common denominator and counted by `at_least_scaled`.
    """
    chances = [Fraction(p) for p in probabilities]
    for p in chances:
        if not 0 <= p <= 1:
            raise ValueError("probabilities: each must lie in [0, 1]")
    scale = math.lcm(*(p.denominator for p in chances)) if chances else 1
    return at_least_scaled(k, [p.numerator * (scale // p.denominator) for p in chances], scale)


def at_least_scaled(k: int, chances: Iterable[int], scale: int) -> Fraction:
    """P(at least k of independent events happen), event i happening with chance chances[i]/scale.

    The Poisson-binomial distribution, built one event at a time in whole numbers: after n
    events, counts[j] is P(exactly j happened) times scale**n, so nothing is reduced until the
    one division at the end. The conquest engine's battle chance is this with k = 3 [§1.2].
    """
    counts = [1]
    events = 0
    for chance in chances:
        if not 0 <= chance <= scale:
            raise ValueError("chances: each must lie in [0, scale]")
        miss = scale - chance
        counts = [
            (counts[j] * miss if j < len(counts) else 0) + (counts[j - 1] * chance if j else 0)
            for j in range(len(counts) + 1)
        ]
        events += 1
    if k <= 0:
        return Fraction(1)
    return Fraction(sum(counts[k:]), scale**events)


def dice_sum(n: int, sides: int) -> Distribution:
    """Distribution of the sum of n fair dice with faces 1..sides."""
    if n < 0 or sides < 1:
        raise ValueError("dice: need n >= 0 dice with at least one side")
    counts: dict[int, int] = {0: 1}
    for _ in range(n):
        rolled: dict[int, int] = {}
        for total, ways in counts.items():
            for face in range(1, sides + 1):
                rolled[total + face] = rolled.get(total + face, 0) + ways
        counts = rolled
    outcomes = sides**n
    return {total: Fraction(ways, outcomes) for total, ways in sorted(counts.items())}


def brute_force_dice_sum(n: int, sides: int) -> Distribution:
    """The same distribution by listing every roll; an oracle for tests and small tables."""
    counts: dict[int, int] = {}
    for roll in product(range(1, sides + 1), repeat=n):
        counts[sum(roll)] = counts.get(sum(roll), 0) + 1
    outcomes = sides**n
    return {total: Fraction(ways, outcomes) for total, ways in sorted(counts.items())}


@dataclass(frozen=True, slots=True)
class Comparison:
    """Chances that side A's total beats, ties or loses to side B's."""

    win: Fraction
    tie: Fraction
    lose: Fraction

    def ties_as_half(self) -> Fraction:
        """A's chance when a tie is settled by an even coin: win + tie / 2."""
        return self.win + self.tie / 2


def compare(
    dist_a: Mapping[int, Fraction], dist_b: Mapping[int, Fraction], edge: int = 0
) -> Comparison:
    """Compare A + edge against B for independent totals A and B."""
    win = tie = lose = Fraction(0)
    for a, pa in dist_a.items():
        for b, pb in dist_b.items():
            weight = pa * pb
            if a + edge > b:
                win += weight
            elif a + edge == b:
                tie += weight
            else:
                lose += weight
    return Comparison(win, tie, lose)


def probe_limit(lo: int, hi: int) -> int:
    """The most predicate calls `least_true` makes on [lo, hi]: ceil(log2(hi - lo + 2)).

    There are hi - lo + 2 possible answers (each x, or none), and each call halves them.
    For hi - lo >= 2 this is within the ceil(log2(hi - lo)) + 1 the rulesets promise.
    """
    return (hi - lo + 1).bit_length()


def least_true(lo: int, hi: int, predicate: Callable[[int], bool]) -> int:
    """Smallest x in [lo, hi] where a monotone predicate (False...False True...True) holds.

    Returns hi + 1 when it holds nowhere. Bisection over the possible answers, so at most
    `probe_limit(lo, hi)` calls, and never a call outside [lo, hi].
    """
    if hi < lo:
        raise ValueError("range: hi must not be below lo")
    low, high = lo, hi + 1  # the answer lies in [low, high]; high = hi + 1 means "nowhere"
    while low < high:
        middle = (low + high) // 2
        if predicate(middle):
            high = middle
        else:
            low = middle + 1
    return high
