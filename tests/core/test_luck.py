"""The exact luck measure: hand-computed runs, brute-force enumeration, and calibration."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

import pytest

from fairfight.core.luck import Outcomes, luck_of_run, luck_of_wins, tenths
from fairfight.plainwords import times_in


def test_three_bernoulli_events_by_hand() -> None:
    # Chances 1/2, 1/3, 1/4; won the first two, lost the third.
    # P(3 wins) = 1/24; P(2 wins) = 1/2*1/3*3/4 + 1/2*2/3*1/4 + 1/2*1/3*1/4 = 3/24+2/24+1/24 = 6/24.
    # P(0 wins) = 1/2*2/3*3/4 = 6/24, so P(1 win) = 11/24. Expected = 1/2+1/3+1/4 = 13/12.
    luck = luck_of_wins([Fraction(1, 2), Fraction(1, 3), Fraction(1, 4)], [True, True, False])
    assert luck.observed == 2
    assert luck.expected == Fraction(13, 12)
    assert luck.at_least == Fraction(7, 24)
    assert luck.at_most == Fraction(23, 24)
    assert dict(luck.distribution) == {0: Fraction(6, 24), 1: Fraction(11, 24),
                                       2: Fraction(6, 24), 3: Fraction(1, 24)}
    assert luck.lucky
    assert luck.sentence("won 2 of 3") == (
        "won 2 of 3; the chances said 1.1 on average; "
        "a run at least this lucky happens about 1 time in 3")


def test_losses_two_exchanges_by_hand() -> None:
    # Exchange one loses 0, 1 or 2 with ways 1, 2, 1 (of 4);
    # exchange two loses 0 or 3 (1 and 2 of 3).
    # Totals: 0:1, 1:2, 2:1, 3:2, 4:4, 5:2 (of 12). Lost 4: at most 4 is 10/12, at least 4 is 6/12.
    first = Outcomes.from_counts({0: 1, 1: 2, 2: 1})
    second = Outcomes.from_distribution({0: Fraction(1, 3), 3: Fraction(2, 3)})
    luck = luck_of_run([(first, 1), (second, 3)], higher_is_luckier=False)
    assert luck.expected == Fraction(3)
    assert luck.at_least == Fraction(6, 12)
    assert luck.at_most == Fraction(10, 12)
    assert luck.as_lucky_or_luckier == Fraction(10, 12)
    assert luck.as_unlucky_or_unluckier == Fraction(6, 12)
    assert not luck.lucky
    assert luck.tail_words() == "a run at least this unlucky happens about 1 time in 2"


def _brute_force(events: list[dict[int, Fraction]], observed: int) -> tuple[Fraction, Fraction]:
    at_least = at_most = Fraction(0)
    for outcome in product(*(list(event.items()) for event in events)):
        chance = Fraction(1)
        for _, p in outcome:
            chance *= p
        total = sum(value for value, _ in outcome)
        at_least += chance if total >= observed else 0
        at_most += chance if total <= observed else 0
    return at_least, at_most


@pytest.mark.parametrize("seed", range(30))
def test_tails_equal_brute_force_enumeration(seed: int) -> None:
    rng = random.Random(seed)
    events = []
    run = []
    for _ in range(rng.randint(1, 5)):
        counts = {value: rng.randint(1, 4) for value in rng.sample(range(-2, 6), rng.randint(1, 3))}
        total = sum(counts.values())
        events.append({value: Fraction(count, total) for value, count in counts.items()})
        run.append((Outcomes.from_counts(counts), rng.choice(sorted(counts))))
    luck = luck_of_run(run, higher_is_luckier=bool(seed % 2))
    assert (luck.at_least, luck.at_most) == _brute_force(events, luck.observed)
    assert luck.expected == sum(sum(v * p for v, p in e.items()) for e in events)
    assert sum(p for _, p in luck.distribution) == 1


def test_the_stated_tail_is_calibrated() -> None:
    """Runs drawn from the chances are "at least this lucky with probability <= q" about q of the
    time (never more, the tails of a discrete total being conservative)."""
    rng = random.Random(20261204)
    chances = [Fraction(rng.randint(1, 9), 10) for _ in range(15)]
    trials = 4000
    for q in (Fraction(1, 20), Fraction(1, 5), Fraction(1, 2)):
        distribution = luck_of_wins(chances, [True] * 15).distribution
        exact = sum((p for value, p in distribution if _tail_at(chances, value) <= q),
                    Fraction(0))
        assert exact <= q
        hits = 0
        for _ in range(trials):
            won = [rng.random() < c for c in chances]
            hits += luck_of_wins(chances, won).as_lucky_or_luckier <= q
        # within five standard deviations of the exact share
        spread = 5 * (float(exact) * (1 - float(exact)) / trials) ** 0.5
        assert abs(hits / trials - float(exact)) <= spread + 1 / trials
        # and exactly so: the share is the largest tail not over q (the tail of a total is
        # the chance of that total or a luckier one)
        tails = [_tail_at(chances, value) for value, _ in distribution]
        assert exact == max(t for t in tails if t <= q)


def _tail_at(chances: list[Fraction], value: int) -> Fraction:
    return luck_of_wins(chances, [True] * value + [False] * (len(chances) - value)).at_least


def test_refusals() -> None:
    with pytest.raises(ValueError, match="not a possible outcome"):
        luck_of_run([(Outcomes.win(Fraction(1, 2)), 2)], higher_is_luckier=True)
    with pytest.raises(ValueError, match="add up to 1"):
        Outcomes.from_distribution({0: Fraction(1, 2)})
    with pytest.raises(ValueError, match="between 0 and 1"):
        Outcomes.win(Fraction(3, 2))
    with pytest.raises(ValueError, match="one result per chance"):
        luck_of_wins([Fraction(1, 2)], [])


def test_words() -> None:
    assert times_in(Fraction(1, 21)) == "about 1 time in 21"
    assert times_in(Fraction(1, 1234)) == "about 1 time in 1,200"
    assert times_in(Fraction(7, 10)) == "about 7 times in 10"
    assert times_in(Fraction(1)) == "every time"
    assert tenths(Fraction(32, 5)) == "6.4"
    assert tenths(Fraction(-3, 20)) == "-0.2"
