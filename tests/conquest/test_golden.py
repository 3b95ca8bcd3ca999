"""A battle worked by hand [§1.2, §3, §4]: perfect 20th powers make N**0.35 exact.

Both factions have 2**20 people, so population power is exactly 2**7 = 128 (in millionths,
128,000,000). AA (ratings all 6, special P: Forge) attacks AB (ratings all 5, special S:
Supply) across a land border; Forge counters Supply, so the attacker gets ×1.08 everywhere.
"""

from __future__ import annotations

from fractions import Fraction

from fairfight.conquest.rules import engine
from tests.conquest.helpers import border, hand_map, play, region, seed_number

PEOPLE = 2**20
TWO_32 = 2**32


def _map() -> dict:
    return hand_map(
        [region("AA", PEOPLE, "P", (6, 6, 6, 6, 6)), region("AB", PEOPLE, "S", (5, 5, 5, 5, 5))],
        [border("AA", "AB")],
    )


def _hand_round_chances() -> list[int]:
    """Per-round strengths with the common factor 128e6 taken out, then floor(A/(A+D)·2**32)."""
    attacker = [Fraction(600) * Fraction(108, 100)] * 5
    attacker[0] *= Fraction(110, 100)  # special in P
    defender = [Fraction(500) * Fraction(112, 100)] * 5
    defender[1] *= Fraction(110, 100)  # special in S
    chances = []
    for a, d in zip(attacker, defender, strict=True):
        q = a * TWO_32 / (a + d)
        chances.append(q.numerator // q.denominator)
    return chances


def test_population_power_of_a_perfect_power_is_exact() -> None:
    assert engine.population_power(PEOPLE) == 128 * 10**6
    assert engine.population_power(3**20) == 3**7 * 10**6


def test_worked_battle_matches_hand_arithmetic() -> None:
    for i in range(50):
        _, history, _ = play(_map(), seed_number(i), stop_after=1)
        if history[0]["attacker"] == "AA":
            break
    entry = history[0]
    attacker, defender = entry["sides"]["attacker"], entry["sides"]["defender"]
    assert attacker["power"] == defender["power"] == 128_000_000
    assert (attacker["weighted_rating"], defender["weighted_rating"]) == (600, 500)
    assert (attacker["type"], defender["type"]) == ("Forge", "Supply")
    assert (attacker["counter"], defender["counter"]) == ("27/25", "1/1")
    expected = _hand_round_chances()
    assert [Fraction(r["before"]) * TWO_32 for r in entry["rounds"]] == expected
    # P: 712.8 vs 560, S: 648 vs 616, M R U: 648 vs 560
    assert expected[0] > expected[2] == expected[3] == expected[4] > expected[1]
    chances = [Fraction(q, TWO_32) for q in expected]
    p_win = Fraction(0)
    for mask in range(32):
        wins = [bool(mask >> i & 1) for i in range(5)]
        if sum(wins) >= 3:
            weight = Fraction(1)
            for won, p in zip(wins, chances, strict=True):
                weight *= p if won else 1 - p
            p_win += weight
    assert Fraction(entry["battle_chance"]["before"]) == p_win


def test_integration_counts_a_floored_share_of_captured_people() -> None:
    state, history, _ = play(_map(), seed_number(0), stop_after=1)
    winner = history[0]["winner"]
    board = state["board"]
    world = state["world"]
    assert engine.people(world, board, winner, 2) == PEOPLE + PEOPLE * 8 // 32
    assert engine.people(world, board, winner, 3) == PEOPLE + PEOPLE * 11 // 32
    assert engine.people(world, board, winner, 10) == 2 * PEOPLE
