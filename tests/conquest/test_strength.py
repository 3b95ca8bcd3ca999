"""Strength, round chances and the battle chance [§1], including the clue checks of §1.3."""

from __future__ import annotations

from fractions import Fraction
from itertools import product
from math import comb

from hypothesis import given
from hypothesis import strategies as st

from fairfight.conquest.rules import engine, tables
from fairfight.core.exact import at_least

TWO_32 = 2**32


def _even_side(fan: Fraction = Fraction(1), special: str = "P", active: bool = False) -> dict:
    """A side record with every factor 1 except the fan, for even-odds matchups."""
    return {
        "base": 1_000_000,
        "home": "1/1",
        "sea": "1/1",
        "counter": "1/1",
        "morale": "1/1",
        "fan": f"{fan.numerator}/{fan.denominator}",
        "special": special,
        "special_active": active,
    }


def test_2150_times_the_people_is_about_15_times_the_power() -> None:
    ratio = engine.population_power(2150) / 10**6
    assert abs(ratio - 2150**0.35) < 1e-6  # float only as an outside oracle
    assert round(ratio) == 15
    texas, anguilla = engine.population_power(29_145_505), engine.population_power(13_572)
    assert abs(texas / anguilla - (29_145_505 / 13_572) ** 0.35) < 1e-6
    assert round(ratio, 2) == 14.67 and round(texas / anguilla) == 15


@given(st.integers(min_value=1, max_value=10**9))
def test_population_power_is_the_floor_of_the_exact_root(people: int) -> None:
    power = engine.population_power(people)
    target = people**7 * 10**120
    assert power**20 <= target < (power + 1) ** 20


def test_weighted_rating_uses_30_25_20_15_10() -> None:
    assert engine.weighted_rating({"P": 1, "S": 0, "M": 0, "R": 0, "U": 0}) == 30
    assert engine.weighted_rating({"P": 2, "S": 3, "M": 4, "R": 5, "U": 6}) == (
        60 + 75 + 80 + 75 + 60
    )


def test_clamp_floor_gives_a_five_percent_battle_chance() -> None:
    by_hand = sum(
        comb(5, k) * Fraction(189, 1000) ** k * Fraction(811, 1000) ** (5 - k) for k in (3, 4, 5)
    )
    assert round(float(by_hand), 4) == 0.0498
    assert at_least(3, [Fraction(189, 1000)] * 5) == by_hand
    floor = engine.battle_chance([tables.ROUND_FLOOR] * 5)
    assert round(float(floor), 4) == 0.0498
    assert tables.ROUND_FLOOR == 189 * TWO_32 // 1000
    assert tables.ROUND_CEILING == TWO_32 - tables.ROUND_FLOOR


def _fan_shift(amount: int) -> float:
    sides = (_even_side(engine.fan_factor(amount)), _even_side())
    odds = engine.assess(*sides)
    return float(odds["chance_after"] - odds["chance_before"]) * 100


def test_five_dollars_moves_even_odds_about_half_a_point() -> None:
    assert round(_fan_shift(5), 2) == 0.47
    # by hand: round chance 101/201, then at least 3 of 5
    p = Fraction(101 * TWO_32 // 201, TWO_32)
    assert round(float(at_least(3, [p] * 5) - Fraction(1, 2)) * 100, 2) == 0.47


def test_forty_five_dollars_moves_even_odds_about_four_points() -> None:
    assert round(_fan_shift(45), 2) == 4.03
    p = Fraction(109 * TWO_32 // 209, TWO_32)
    assert round(float(at_least(3, [p] * 5) - Fraction(1, 2)) * 100, 2) == 4.03


def test_fan_factor_is_one_plus_a_tenth_of_the_pool_share() -> None:
    assert engine.fan_factor(5) == Fraction(101, 100)
    assert engine.fan_factor(25) == Fraction(105, 100)
    assert engine.fan_factor(45) == Fraction(109, 100)
    assert engine.fan_factor(0) == engine.fan_factor(50) == 1


def test_special_lands_in_its_own_round_only() -> None:
    odds = engine.assess(_even_side(special="M", active=True), _even_side(special="R", active=True))
    before = odds["before"]
    assert before[2] > before[0] > before[3]  # M for the attacker, R for the defender
    assert before[0] == before[1] == before[4] == TWO_32 // 2
    inactive = engine.assess(_even_side(special="M"), _even_side(special="R"))
    assert set(inactive["before"]) == {TWO_32 // 2}


@given(
    st.integers(min_value=1, max_value=10**30),
    st.integers(min_value=1, max_value=10**30),
)
def test_round_chance_is_the_clamped_floor_of_the_ratio(a: int, d: int) -> None:
    q = engine.round_chance(Fraction(a), Fraction(d))
    raw = a * TWO_32 // (a + d)
    assert q == min(max(raw, 189 * TWO_32 // 1000), TWO_32 - 189 * TWO_32 // 1000)


@given(st.lists(st.integers(min_value=0, max_value=TWO_32), min_size=5, max_size=5))
def test_battle_chance_matches_enumerating_all_32_round_outcomes(qs: list[int]) -> None:
    chances = [Fraction(q, TWO_32) for q in qs]
    total = Fraction(0)
    for outcome in product((True, False), repeat=5):
        if sum(outcome) >= 3:
            weight = Fraction(1)
            for won, p in zip(outcome, chances, strict=True):
                weight *= p if won else 1 - p
            total += weight
    assert engine.battle_chance(qs) == total == at_least(3, chances)


def test_integration_ramps_from_a_quarter_to_full_over_eight_battles() -> None:
    shares = [engine.integration_share(10 + k, 10) for k in range(1, 11)]
    assert shares[0] == Fraction(1, 4)
    assert shares[1] == Fraction(11, 32)
    assert shares[7] == Fraction(29, 32)
    assert shares[8:] == [1, 1]  # from captured_at + 9 on
    assert engine.integration_share(3, None) == 1


def test_counter_circle_each_type_beats_one_and_loses_to_one() -> None:
    kinds = list(tables.FactionType)
    for kind in kinds:
        beaten_by = [other for other in kinds if tables.COUNTERS[other] == kind]
        assert len(beaten_by) == 1 and tables.COUNTERS[kind] != kind
    forge, supply, route = (
        tables.FactionType.FORGE,
        tables.FactionType.SUPPLY,
        tables.FactionType.ROUTE,
    )
    assert engine.counter_bonuses(forge, supply) == (Fraction(108, 100), 1)
    assert engine.counter_bonuses(supply, forge) == (1, Fraction(108, 100))
    assert engine.counter_bonuses(forge, route) == (1, 1)
    assert engine.counter_bonuses(forge, forge) == (1, 1)
