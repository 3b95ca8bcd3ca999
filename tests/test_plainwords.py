"""Chances in frequency words: hand-worked values, the edges, and the rule's promises as
properties (monotone, mirrored, never further from the chance than the rule allows)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fairfight.plainwords import ONE_IN, frequency, frequency_rule, in_words

# Worked by hand: the nearest tenth between 10% and 90% (a half to the even tenth); below 10%
# the N of the list whose 1/N is nearest on a ratio scale (boundary: the geometric mean).
HAND_WORKED = [
    ("0", "impossible"),
    ("1", "certain"),
    ("3/10", "about 3 in 10"),
    ("0.349", "about 3 in 10"),
    ("0.35", "about 4 in 10"),  # 3.5 tenths: to the even 4
    ("0.25", "about 2 in 10"),  # 2.5 tenths: to the even 2
    ("0.75", "about 8 in 10"),
    ("0.5", "about 5 in 10"),
    ("0.1", "about 1 in 10"),
    ("0.9", "about 9 in 10"),
    ("0.05", "about 1 in 20"),
    ("0.04982", "about 1 in 20"),  # the clamp's battle chance (spec §1.3)
    ("1/136", "about 1 in 150"),  # 1/136: between 1/100 and 1/150, sqrt(100*150) = 122.5
    ("1/122", "about 1 in 100"),
    ("1/123", "about 1 in 150"),
    ("0.0817", "about 1 in 10"),  # sqrt(10*15) = 12.247: the boundary 1/12.247 = 0.08165
    ("0.0816", "about 1 in 15"),
    ("0.001", "about 1 in 1,000"),
    ("0.000999", "fewer than 1 in 1,000"),
    ("0.95", "about 19 in 20"),
    ("0.999", "about 999 in 1,000"),
    ("0.9991", "more than 999 in 1,000"),
    (Fraction(2, 3), "about 7 in 10"),
]


@pytest.mark.parametrize(("chance", "words"), HAND_WORKED)
def test_hand_worked_values(chance: str | Fraction, words: str) -> None:
    assert in_words(chance) == words


def test_simulated_shares_are_never_certain_or_impossible() -> None:
    assert in_words("0.000000", estimated=True) == "fewer than 1 in 1,000"
    assert in_words(Fraction(1), estimated=True) == "more than 999 in 1,000"
    assert in_words("0.5", estimated=True) == "about 5 in 10"


@pytest.mark.parametrize("bad", ["-0.1", "1.0001", "3/2"])
def test_a_chance_outside_zero_to_one_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match="chance: must be between 0 and 1"):
        frequency(bad)


def test_a_truth_value_is_not_a_chance() -> None:
    with pytest.raises(TypeError):
        frequency(True)


def test_the_rule_sentence_names_the_list() -> None:
    assert "N one of 10, 15, 20" in frequency_rule() and "1,000" in frequency_rule()


chances = st.fractions(min_value=0, max_value=1, max_denominator=10**6)


def _read(chance: Fraction) -> Fraction:
    """The chance the words say, as a number (bounds read as the bound itself)."""
    shown = frequency(chance)
    return Fraction(shown.count, shown.out_of)


@given(chances, chances)
def test_words_never_go_down_as_the_chance_goes_up(a: Fraction, b: Fraction) -> None:
    low, high = sorted((a, b))
    assert _read(low) <= _read(high)


@given(chances)
def test_a_chance_and_its_complement_read_as_mirrors(chance: Fraction) -> None:
    here, there = frequency(chance), frequency(1 - chance)
    assert _read(chance) + _read(1 - chance) == 1 or {here.qualifier, there.qualifier} == {
        "fewer than", "more than"}


@given(chances)
def test_the_words_stay_as_close_to_the_chance_as_the_rule_allows(chance: Fraction) -> None:
    shown = frequency(chance)
    said = Fraction(shown.count, shown.out_of)
    ratio = max(b / a for a, b in zip(ONE_IN, ONE_IN[1:], strict=False))
    if shown.qualifier == "exactly":
        assert said == chance
    elif shown.qualifier == "fewer than":
        assert chance < said
    elif shown.qualifier == "more than":
        assert chance > said
    elif Fraction(1, 10) <= chance <= Fraction(9, 10):
        assert abs(said - chance) <= Fraction(1, 20)
    else:  # the rarer side within a factor sqrt(largest neighbour ratio) of the chance
        rare, rare_said = (chance, said) if chance < Fraction(1, 2) else (1 - chance, 1 - said)
        assert 1 / math.sqrt(ratio) <= float(rare_said / rare) <= math.sqrt(ratio)
        assert rare_said.numerator == 1 and rare_said.denominator in ONE_IN
