"""Words a person reads right.

What a user reads carries no requirement numbers: `(CB-230)`, `[§8]` and the like stay in the
docs and the code comments, and are taken out of help texts and error lines here. And a chance
reads as a frequency beside its percentage ("about 3 in 10"), by one rule kept here.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Literal

__all__ = [
    "Frequency",
    "ONE_IN",
    "TENTHS",
    "WORDS_KEPT",
    "frequency",
    "frequency_rule",
    "in_words",
    "times_in",
    "without_references",
]

_REFERENCE = re.compile(
    r"\s*[\(\[](?:(?:CB-\d+|§\s?[\d.]+\w*)(?:\s*(?:,|\.\.|–|-|and)\s*)?)+[\)\]]"
    r"|\s*(?:CB-\d+|§\s?[\d.]+\w*)"
)


def without_references(text: str) -> str:
    """The text without requirement ids and section marks (and the brackets around them)."""
    return _REFERENCE.sub("", text)


# ------------------------------------------------------------------ chances as frequencies

ONE_IN: tuple[int, ...] = (10, 15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 250, 300, 400, 500,
                           750, 1000)
"""The N of "about 1 in N" for chances under 10% (and of "about N-1 in N" over 90%): round
numbers people picture, no neighbour more than 1.5 times the last, so the words are never off
by more than a factor of sqrt(1.5), about 1.22, from the chance itself."""
TENTHS = 10
"""Between 10% and 90% a chance reads as the nearest whole number of tenths ("about 3 in 10"),
a half going to the even tenth, so that p and 1 - p always read as mirrors (15%: 2 in 10,
85%: 8 in 10): never more than 5 points from the chance."""
WORDS_KEPT = 65536
"""Figures whose words `in_words` keeps (a few MB at most; least recently used go first)."""


@dataclass(frozen=True, slots=True)
class Frequency:
    """A chance as a person reads it: `count` in `out_of`, with how exact that is."""

    count: int
    out_of: int
    qualifier: Literal["exactly", "about", "fewer than", "more than"]

    def words(self) -> str:
        """"about 3 in 10", "fewer than 1 in 1,000", "certain", "impossible"."""
        if self.qualifier == "exactly":
            return "certain" if self.count else "impossible"
        return f"{self.qualifier} {self.count:,} in {self.out_of:,}"


def _nearest_one_in(chance: Fraction) -> int:
    """The N of ONE_IN nearest to 1/chance on a ratio scale (the boundary between two
    neighbours is their geometric mean, compared exactly: chance^2 against 1/(N1 N2))."""
    for smaller, larger in zip(ONE_IN, ONE_IN[1:], strict=False):
        if chance * chance * smaller * larger >= 1:
            return smaller
    return ONE_IN[-1]


def frequency(chance: Fraction | int | str | float | Decimal, *,
              estimated: bool = False) -> Frequency:
    """A chance (exact, or "num/den" or decimal text) as a frequency, by the rule of
    docs/conquest.md ("Chances in words"): impossible and certain only for an exact 0 or 1
    (never for an `estimated` share such as 0 simulated titles); under 1 in 1,000 and over 999
    in 1,000 as bounds; under 10% "about 1 in N" (N from ONE_IN); over 90% its mirror; else
    the nearest tenth."""
    if isinstance(chance, bool):
        raise TypeError("a chance is a number, not a truth value")
    value = Fraction(chance)
    if not 0 <= value <= 1:
        raise ValueError(f"chance: must be between 0 and 1, not {chance}")
    smallest = Fraction(1, ONE_IN[-1])
    if value == 0 and not estimated:
        return Frequency(0, 1, "exactly")
    if value == 1 and not estimated:
        return Frequency(1, 1, "exactly")
    if value < smallest:
        return Frequency(1, ONE_IN[-1], "fewer than")
    if value > 1 - smallest:
        return Frequency(ONE_IN[-1] - 1, ONE_IN[-1], "more than")
    if value < Fraction(1, TENTHS):
        return Frequency(1, _nearest_one_in(value), "about")
    if value > 1 - Fraction(1, TENTHS):
        out_of = _nearest_one_in(1 - value)
        return Frequency(out_of - 1, out_of, "about")
    return Frequency(round(value * TENTHS), TENTHS, "about")  # a half to even: p and 1 - p mirror


@functools.lru_cache(maxsize=WORDS_KEPT, typed=True)
def in_words(chance: Fraction | int | str | float | Decimal, estimated: bool = False) -> str:
    """The frequency words of a chance ("about 3 in 10"): the pages' `in_words` filter.

    Kept per figure: a season home says some thousand chances in words and exact fraction
    arithmetic for each was most of its render; the same figure always reads the same (the
    cache is typed, so a float and a Fraction of equal value are told apart)."""
    return frequency(chance, estimated=estimated).words()


def frequency_rule() -> str:
    """The rule of `frequency` in one sentence, with its numbers, for the method note."""
    listed = ", ".join(f"{n:,}" for n in ONE_IN[:-1])
    return (f"the nearest tenth between {100 // TENTHS}% and {100 - 100 // TENTHS}%; "
            f"\"about 1 in N\" below {100 // TENTHS}% and its mirror above "
            f"{100 - 100 // TENTHS}%, with N one of {listed} and {ONE_IN[-1]:,}; "
            f"\"fewer than 1 in {ONE_IN[-1]:,}\" and \"more than {ONE_IN[-1] - 1:,} in "
            f"{ONE_IN[-1]:,}\" beyond those. \"Certain\" and \"impossible\" are said only of "
            f"exact chances, never of a simulated share")


def times_in(chance: Fraction) -> str:
    """How often something with an exact chance happens, for a luck tail: "about 1 time in 21".

    Unlike `frequency`, the N of "1 time in N" is 1/chance itself, rounded to two significant
    digits (21, 140, 1,200), because a tail is read as a rarity and its size is the point; a
    chance over one half reads in tenths ("about 7 times in 10"); "every time" only when exact.
    """
    value = Fraction(chance)
    if not 0 <= value <= 1:
        raise ValueError(f"chance: must be between 0 and 1, not {chance}")
    if value == 1:
        return "every time"
    if value == 0:
        return "never"
    if value > Fraction(1, 2):
        count = min(round(value * TENTHS), TENTHS - 1)
        return f"about {count} times in {TENTHS}"
    out_of = round(1 / value)
    digits = len(str(out_of))
    if digits > 2:
        step = 10 ** (digits - 2)
        out_of = round(Fraction(out_of, step)) * step
    return f"about 1 time in {out_of:,}"
