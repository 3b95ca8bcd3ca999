"""Exact probability helpers checked against enumeration."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairfight.core import exact

chances = st.fractions(min_value=0, max_value=1, max_denominator=50)


def enumerate_at_least(k: int, probabilities: list[Fraction]) -> Fraction:
    total = Fraction(0)
    for outcome in product([False, True], repeat=len(probabilities)):
        if sum(outcome) >= k:
            weight = Fraction(1)
            for happened, p in zip(outcome, probabilities, strict=True):
                weight *= p if happened else 1 - p
            total += weight
    return total


@given(st.lists(chances, max_size=7), st.integers(-1, 8))
def test_at_least_matches_enumeration(probabilities: list[Fraction], k: int) -> None:
    assert exact.at_least(k, probabilities) == enumerate_at_least(k, probabilities)


def test_at_least_three_of_five_clue() -> None:
    # Five rounds at 189/1000 each: P(>= 3) summed by hand from the binomial terms.
    p, q = Fraction(189, 1000), Fraction(811, 1000)
    by_hand = 10 * p**3 * q**2 + 5 * p**4 * q + p**5
    assert exact.at_least(3, [p] * 5) == by_hand
    assert round(float(by_hand), 4) == 0.0498


def test_at_least_refuses_a_non_probability() -> None:
    with pytest.raises(ValueError):
        exact.at_least(1, [Fraction(3, 2)])


@pytest.mark.parametrize(("n", "sides"), [(0, 6), (1, 6), (2, 6), (3, 6), (4, 4), (2, 20)])
def test_dice_sum_matches_brute_force(n: int, sides: int) -> None:
    distribution = exact.dice_sum(n, sides)
    assert distribution == exact.brute_force_dice_sum(n, sides)
    assert sum(distribution.values()) == 1


def test_two_d6_shape() -> None:
    distribution = exact.dice_sum(2, 6)
    assert distribution[7] == Fraction(6, 36)
    assert distribution[2] == distribution[12] == Fraction(1, 36)


def test_compare_3d6_plus_one() -> None:
    three_d6 = exact.dice_sum(3, 6)
    result = exact.compare(three_d6, three_d6, 1)
    assert result.win + result.tie + result.lose == 1
    assert result.ties_as_half() == Fraction(18403, 31104)
    even = exact.compare(three_d6, three_d6, 0)
    assert even.ties_as_half() == Fraction(1, 2)
    assert even.win == even.lose


@given(st.integers(-20, 20), st.integers(0, 60), st.integers(0, 60))
def test_least_true_finds_the_threshold_within_the_probe_limit(
    lo: int, width: int, offset: int
) -> None:
    hi = lo + width
    threshold = lo + offset  # may lie beyond hi: then nothing is true
    calls: list[int] = []

    def predicate(x: int) -> bool:
        calls.append(x)
        return x >= threshold

    found = exact.least_true(lo, hi, predicate)
    assert all(lo <= x <= hi for x in calls)
    assert found == (threshold if threshold <= hi else hi + 1)
    assert len(calls) <= exact.probe_limit(lo, hi)


def test_probe_limit_for_a_thousand_draws() -> None:
    assert exact.probe_limit(0, 999) == 10  # 1001 possible answers: ceil(log2(1001))
    assert exact.probe_limit(0, 999) <= 11  # the bound the rulesets promise: ceil(log2(999)) + 1
    assert exact.probe_limit(5, 5) == 1
