"""Exact race tables: table G (3d6 + e against 3d6) and table P (2d6 + e against 2d6) [12.1-12.4].

A tie counts as half, because the recount gives each of two tied sides exactly 1/2 [5.7]. The
certainty edge is the smallest edge at which the stronger side cannot lose; the engine asserts
that no reachable edge gets there.
"""

from __future__ import annotations

from enum import StrEnum
from fractions import Fraction
from functools import cache

from fairfight.ballot.tables import (
    BOARD_GENERIC_PART,
    CARD_STRENGTH,
    DIE_SIDES,
    GENERAL_CANDIDATE_DICE,
    GROUND_GAME_BONUS,
    HONEYMOON,
    INCUMBENCY_BONUS,
    LEAN_CAP,
    PRIMARY_CANDIDATE_DICE,
    SWITCH_PENALTY,
)
from fairfight.core.exact import Comparison, Distribution, compare, dice_sum, least_true

__all__ = [
    "DICE_PER_SIDE",
    "RaceKind",
    "assert_below_certainty",
    "certainty_edge",
    "clear_cache",
    "comparison",
    "largest_card_part",
    "largest_general_edge",
    "largest_presidential_edge",
    "largest_primary_edge",
    "side_distribution",
    "smallest_card_part",
    "table",
    "tie_chance",
    "win_chance",
]


class RaceKind(StrEnum):
    """Which table a contest reads."""

    GENERAL = "general"
    """One candidate die per side: 3d6 + edge against 3d6 (table G)."""
    PRIMARY = "primary"
    """Shared dice cancel, the candidate die rolls twice: 2d6 + edge against 2d6 (table P)."""


DICE_PER_SIDE: dict[RaceKind, int] = {
    RaceKind.GENERAL: GENERAL_CANDIDATE_DICE,
    RaceKind.PRIMARY: PRIMARY_CANDIDATE_DICE,
}


@cache
def side_distribution(kind: RaceKind) -> Distribution:
    """The dice total of one side in a contest of this kind."""
    return dice_sum(DICE_PER_SIDE[kind], DIE_SIDES)


@cache
def comparison(kind: RaceKind, edge: int) -> Comparison:
    """Win, tie and loss chances of the side `edge` pips ahead."""
    dist = side_distribution(kind)
    return compare(dist, dist, edge)


@cache
def win_chance(kind: RaceKind, edge: int) -> Fraction:
    """P(win) + 1/2 P(tie) at this edge; any integer edge, negative means behind."""
    return comparison(kind, edge).ties_as_half()


def table(kind: RaceKind, max_edge: int) -> list[Fraction]:
    """The table for edges 0..max_edge."""
    return [win_chance(kind, edge) for edge in range(max_edge + 1)]


def tie_chance(kind: RaceKind) -> Fraction:
    """The chance of a tie before the recount at edge 0 (9.3% in G, 11.3% in P)."""
    return comparison(kind, 0).tie


def certainty_edge(kind: RaceKind) -> int:
    """The smallest edge that can no longer lose: +16 in a general, +11 in a primary."""
    reach = DICE_PER_SIDE[kind] * DIE_SIDES
    return least_true(0, reach, lambda edge: comparison(kind, edge).win == 1)


def largest_card_part() -> int:
    """The best card part: m + fit <= 3, plus incumbency and ground game [5.3]."""
    return CARD_STRENGTH + INCUMBENCY_BONUS + GROUND_GAME_BONUS


def smallest_card_part() -> int:
    """The weakest card part: m = 0, no fit, running under the other party [5.3]."""
    return -SWITCH_PENALTY


def largest_primary_edge() -> int:
    """Largest reachable primary edge: 6 (best card part against the weakest)."""
    return largest_card_part() - smallest_card_part()


def largest_general_edge(largest_baseline: int) -> int:
    """Largest reachable general edge: 15, adding the biggest partisan term P(s) [5.3]."""
    partisan = largest_baseline + LEAN_CAP + HONEYMOON
    return largest_card_part() + partisan - min(smallest_card_part(), BOARD_GENERIC_PART)


def largest_presidential_edge(largest_baseline: int) -> int:
    """Largest presidential edge in one state: card part without incumbency or district + base."""
    return CARD_STRENGTH + largest_baseline - smallest_card_part()


def clear_cache() -> None:
    """Forget the computed tables (benchmarks measure the cost of rebuilding them)."""
    for cached in (side_distribution, comparison, win_chance):
        cached.cache_clear()


def assert_below_certainty(largest_baseline: int) -> None:
    """The engine's promise that no modifier gap is a certain thing [12.4]."""
    general = max(
        largest_general_edge(largest_baseline), largest_presidential_edge(largest_baseline)
    )
    if not general < certainty_edge(RaceKind.GENERAL):
        raise AssertionError(f"a general edge of {general} reaches certainty")
    if not largest_primary_edge() < certainty_edge(RaceKind.PRIMARY):
        raise AssertionError("a primary edge reaches certainty")
