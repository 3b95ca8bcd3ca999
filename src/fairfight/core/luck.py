"""How lucky a run was, exactly: the total of independent events against its exact distribution.

A run is a sequence of independent events, each with an exact outcome distribution that the
engine knew when it drew: a battle won with chance p (outcome 1 or 0), or a loss of strength
with its distribution over the draws. The total of the run has an exact distribution (the
Poisson-binomial for wins, a convolution in general); the observed total sits somewhere in it,
and its two tails say how often a run at least as lucky, or at least as unlucky, would happen.

Everything is counted in whole numbers: an event is `ways` out of `total`, the run's
distribution is the product of the events' polynomials, and the only divisions are the final
ones into `Fraction`s. Standard library only, like `core.exact`, so a season archive's bare
verifier can compute the same figures.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

from fairfight.plainwords import times_in

__all__ = [
    "Luck",
    "Outcomes",
    "luck_of_run",
    "luck_of_wins",
    "tenths",
]


@dataclass(frozen=True, slots=True)
class Outcomes:
    """One event's exact outcome distribution: value -> ways, of `total` equally likely draws."""

    ways: tuple[tuple[int, int], ...]
    total: int

    def __post_init__(self) -> None:
        if self.total < 1:
            raise ValueError(f"outcomes: the draws must number at least 1, not {self.total}")
        if any(count < 0 for _, count in self.ways):
            raise ValueError("outcomes: a number of ways is never negative")
        if sum(count for _, count in self.ways) != self.total:
            raise ValueError("outcomes: the ways must add up to the total")

    @classmethod
    def win(cls, chance: Fraction) -> Outcomes:
        """A win (1) with the given exact chance, else a loss (0)."""
        chance = Fraction(chance)
        if not 0 <= chance <= 1:
            raise ValueError(f"chance: must lie between 0 and 1, not {chance}")
        return cls(((0, chance.denominator - chance.numerator), (1, chance.numerator)),
                   chance.denominator)

    @classmethod
    def from_counts(cls, counts: Mapping[int, int]) -> Outcomes:
        """Whole-number counts of draws per value (e.g. how many draws lose 3 strength)."""
        ways = tuple(sorted((int(value), int(count)) for value, count in counts.items() if count))
        return cls(ways, sum(count for _, count in ways))

    @classmethod
    def from_distribution(cls, distribution: Mapping[int, Fraction]) -> Outcomes:
        """Exact chances per value, put over their common denominator."""
        chances = {value: Fraction(p) for value, p in distribution.items()}
        if sum(chances.values()) != 1:
            raise ValueError("distribution: the chances must add up to 1")
        scale = lcm(*(p.denominator for p in chances.values())) if chances else 1
        return cls.from_counts({value: p.numerator * (scale // p.denominator)
                                for value, p in chances.items()})

    def mean(self) -> Fraction:
        """The expected value of this event."""
        return Fraction(sum(value * count for value, count in self.ways), self.total)


def _convolve(events: Iterable[Outcomes]) -> tuple[dict[int, int], int]:
    """The run's total as whole-number ways over the product of the events' totals."""
    ways: dict[int, int] = {0: 1}
    denominator = 1
    for event in events:
        combined: dict[int, int] = {}
        for total, before in ways.items():
            for value, count in event.ways:
                if count:
                    combined[total + value] = combined.get(total + value, 0) + before * count
        ways = combined
        denominator *= event.total
    return ways, denominator


def tenths(value: Fraction) -> str:
    """An exact value with one decimal place, a half rounded to even ("6.4")."""
    scaled = round(Fraction(value) * 10)
    sign = "-" if scaled < 0 else ""
    whole, tenth = divmod(abs(scaled), 10)
    return f"{sign}{whole}.{tenth}"


@dataclass(frozen=True, slots=True)
class Luck:
    """Where an observed total sits in its exact distribution, with both tails."""

    events: int
    observed: int
    expected: Fraction
    at_least: Fraction
    """P(total >= observed): how often a run reaches at least the observed total."""
    at_most: Fraction
    """P(total <= observed)."""
    higher_is_luckier: bool
    """True for wins (more is luckier), False for losses (less is luckier)."""
    distribution: tuple[tuple[int, Fraction], ...]
    """The exact distribution of the total, by value."""

    @property
    def lucky(self) -> bool:
        """The run did at least as well as the chances said on average."""
        if self.higher_is_luckier:
            return self.observed >= self.expected
        return self.observed <= self.expected

    @property
    def as_lucky_or_luckier(self) -> Fraction:
        """The chance of a run at least this lucky."""
        return self.at_least if self.higher_is_luckier else self.at_most

    @property
    def as_unlucky_or_unluckier(self) -> Fraction:
        """The chance of a run at least this unlucky."""
        return self.at_most if self.higher_is_luckier else self.at_least

    def tail_words(self) -> str:
        """"a run at least this lucky happens about 1 time in 21" (the tail on the run's side)."""
        if self.lucky:
            return f"a run at least this lucky happens {times_in(self.as_lucky_or_luckier)}"
        return f"a run at least this unlucky happens {times_in(self.as_unlucky_or_unluckier)}"

    def sentence(self, what_happened: str) -> str:
        """The plain sentence: what happened, the average the chances said, and the tail."""
        return (f"{what_happened}; the chances said {tenths(self.expected)} on average; "
                f"{self.tail_words()}")

    def to_json(self) -> dict[str, object]:
        """Plain JSON with every chance as exact "numerator/denominator" text."""
        return {
            "events": self.events,
            "observed": self.observed,
            "expected": _ratio(self.expected),
            "at_least": _ratio(self.at_least),
            "at_most": _ratio(self.at_most),
            "higher_is_luckier": self.higher_is_luckier,
        }


def _ratio(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def luck_of_run(run: Sequence[tuple[Outcomes, int]], *, higher_is_luckier: bool) -> Luck:
    """The luck of a run of independent events, each given as (its outcomes, the value drawn)."""
    for position, (event, drawn) in enumerate(run):
        if all(value != drawn for value, count in event.ways if count):
            raise ValueError(f"run[{position}]: the drawn value {drawn} is not a possible outcome")
    ways, denominator = _convolve(event for event, _ in run)
    observed = sum(drawn for _, drawn in run)
    at_least = sum(count for value, count in ways.items() if value >= observed)
    at_most = sum(count for value, count in ways.items() if value <= observed)
    return Luck(
        events=len(run),
        observed=observed,
        expected=sum((event.mean() for event, _ in run), Fraction(0)),
        at_least=Fraction(at_least, denominator),
        at_most=Fraction(at_most, denominator),
        higher_is_luckier=higher_is_luckier,
        distribution=tuple((value, Fraction(count, denominator))
                           for value, count in sorted(ways.items()) if count),
    )


def luck_of_wins(chances: Sequence[Fraction], won: Sequence[bool]) -> Luck:
    """The luck of a run of wins and losses, each event won with its exact chance."""
    if len(chances) != len(won):
        raise ValueError("won: one result per chance")
    return luck_of_run([(Outcomes.win(p), int(w)) for p, w in zip(chances, won, strict=True)],
                       higher_is_luckier=True)
