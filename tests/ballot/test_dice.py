"""Tables G and P against a brute-force enumeration of every dice outcome [12.1-12.4]."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from fairfight.ballot.dice import (
    RaceKind,
    assert_below_certainty,
    certainty_edge,
    largest_general_edge,
    largest_primary_edge,
    table,
    tie_chance,
    win_chance,
)
from fairfight.ballot.rules_page import percent

SOURCE_GENERAL = ["50.0", "59.2", "67.9", "75.7", "82.5", "87.9", "92.1", "95.2", "97.2"]
SOURCE_PRIMARY = ["50.0", "61.0", "71.3", "80.1", "87.2", "92.4", "95.9", "98.1", "99.2"]


def brute_force(dice_per_side: int, edge: int) -> Fraction:
    """Enumerate every roll of both sides; a tie counts half."""
    score = 0
    outcomes = 0
    for roll in product(range(1, 7), repeat=2 * dice_per_side):
        mine = sum(roll[:dice_per_side]) + edge
        theirs = sum(roll[dice_per_side:])
        score += 2 if mine > theirs else 1 if mine == theirs else 0
        outcomes += 2
    return Fraction(score, outcomes)


@pytest.mark.parametrize("edge", range(9))
def test_general_table_matches_enumeration(edge: int) -> None:
    assert win_chance(RaceKind.GENERAL, edge) == brute_force(3, edge)


@pytest.mark.parametrize("edge", range(-3, 12))
def test_primary_table_matches_enumeration(edge: int) -> None:
    assert win_chance(RaceKind.PRIMARY, edge) == brute_force(2, edge)


def test_tables_round_to_the_source_percentages() -> None:
    assert [percent(p) for p in table(RaceKind.GENERAL, 8)] == SOURCE_GENERAL
    assert [percent(p) for p in table(RaceKind.PRIMARY, 8)] == SOURCE_PRIMARY


def test_edge_one_general_is_18403_over_31104() -> None:
    assert table(RaceKind.GENERAL, 1)[1] == Fraction(18403, 31104)


def test_negative_edges_mirror() -> None:
    for edge in range(10):
        for kind in RaceKind:
            assert win_chance(kind, -edge) == 1 - win_chance(kind, edge)


def test_tie_shares_before_recount() -> None:
    # ties at +0: sum over totals t of P(t)^2, counted by hand from the dice-sum counts
    counts_3d6 = [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1]
    counts_2d6 = [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    assert tie_chance(RaceKind.GENERAL) == Fraction(sum(c * c for c in counts_3d6), 216**2)
    assert tie_chance(RaceKind.PRIMARY) == Fraction(sum(c * c for c in counts_2d6), 36**2)
    assert percent(tie_chance(RaceKind.GENERAL)) == "9.3"
    assert percent(tie_chance(RaceKind.PRIMARY)) == "11.3"


def test_certainty_edges_and_largest_edges() -> None:
    # certain when the lowest total plus the edge beats the highest: 3 + e > 18, 2 + e > 12
    assert certainty_edge(RaceKind.GENERAL) == 16
    assert certainty_edge(RaceKind.PRIMARY) == 11
    assert brute_force(3, 15) < 1 and brute_force(2, 10) < 1
    assert largest_primary_edge() == 6
    assert largest_general_edge(3) == 15
    assert_below_certainty(3)


def test_engine_refuses_an_edge_at_certainty() -> None:
    with pytest.raises(AssertionError):
        assert_below_certainty(4)


def test_percent_rounds_half_up_exactly() -> None:
    assert percent(Fraction(1, 2)) == "50.0"
    assert percent(Fraction(2, 3)) == "66.7"
    assert percent(Fraction(1, 2000)) == "0.1"
    assert percent(Fraction(3, 5), 0) == "60"
    tiny = Fraction(1, 10**300)  # a presidential chance's fractions run to 300 digits
    assert percent(Fraction(1, 2000) - tiny) == "0.0"  # a hair under 0.05%
    assert percent(Fraction(1, 2000) + tiny) == "0.1"
    assert percent(Fraction(2, 3) + tiny, 3) == "66.667"
