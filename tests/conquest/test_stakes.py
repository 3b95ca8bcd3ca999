"""The stakes of the next battle: outcomes applied by the engine, conditional forecasts on
common random numbers, and the identity that ties them to the unconditional forecast."""

from __future__ import annotations

import json
import math
import statistics
from fractions import Fraction

import pytest

from fairfight.conquest.forecast import season_odds, stakes
from fairfight.conquest.forecast.title_odds import forecast
from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.rules import engine
from fairfight.core.draws import below, hash64_run
from fairfight.core.records import canonical_json
from tests.conquest.helpers import SEED, play, seed_number, star_map

SEASONS = 4_000
"""A moderate season count: the identity is checked within the simulation's own error."""


def _real_draws(state: dict, key: str) -> list[int]:
    return hash64_run(key, 8 * (state["board"]["next_battle"] - 1), 8)


@pytest.mark.parametrize("number", range(3))
def test_engine_step_on_the_real_draws_is_play_step(number: int) -> None:
    key = seed_number(number)
    state = engine.new_state(synthetic_map(24, 30, 10, label=f"steps-{number}"), key)
    while not state["board"]["ended"]:
        expected = engine.play_step(state, [])
        assert stakes.engine_step(state, [], _real_draws(state, key)) == expected
        state = expected[0]


def test_engine_step_plays_a_waiting_rebellion_as_play_step() -> None:
    state, _history, ledger = play(star_map(), stop_after=2)
    rebel = next(code for code, f in state["board"]["factions"].items() if not f["standing"])
    ledger.append(engine.check_contribution(state, ledger, rebel, 50))
    expected = engine.play_step(state, ledger)
    assert expected[1]["kind"] == "bonus"
    assert stakes.engine_step(state, ledger, _real_draws(state, state["key"])) == expected


def test_the_forced_draws_pick_the_pairing_and_the_winner() -> None:
    state = engine.new_state(star_map(), SEED)
    board = state["board"]
    for pairing in stakes.next_pairings(state, []):
        for winner in ("attacker", "defender"):
            draws = stakes.forced_draws(state, board, pairing, 0, winner)
            attackers = engine.eligible_attackers(state["world"], board)
            assert attackers[below(len(attackers), draws[0])] == pairing.attacker
            _after, entry = stakes.engine_step(state, [], draws)
            assert (entry["attacker"], entry["defender"]) == (pairing.attacker, pairing.defender)
            assert entry["winner"] == getattr(pairing, winner)


def test_pairing_chances_are_uniform_attacker_then_uniform_defender() -> None:
    pairings = stakes.next_pairings(engine.new_state(star_map(), SEED), [])
    # five attackers; the hub AA has four neighbours, each leaf only the hub
    chances = {(p.attacker, p.defender): p.chance for p in pairings}
    assert chances[("AA", "AB")] == Fraction(1, 20)
    assert chances[("AB", "AA")] == Fraction(1, 5)
    assert sum(chances.values()) == 1 and len(chances) == 8


def _weighted(parts: list[tuple[float, float]], seasons: int) -> tuple[float, float]:
    """Sum of weight * chance, and its standard error (each chance from `seasons` seasons)."""
    total = sum(w * p for w, p in parts)
    error = math.sqrt(sum(w * w * p * (1 - p) / seasons for w, p in parts))
    return total, error


def test_the_outcomes_weighted_by_their_chances_give_the_unconditional_odds() -> None:
    """Sum over the pairings and both results of P(pairing) P(result) P(title | result) is
    the title chance from the board as it stands, within the simulations' error."""
    state = engine.new_state(star_map(), SEED)
    unconditional = forecast(state, [], seasons=SEASONS, forecast_seed="before")
    parts: dict[str, list[tuple[float, float]]] = {code: [] for code in state["board"]["factions"]}
    for pairing in stakes.next_pairings(state, []):
        found = stakes.stakes_of(state, [], pairing, seasons=SEASONS, forecast_seed="stakes")
        preview = season_odds.previews(state, [], pairing.attacker, pairing.defender)
        exact = Fraction(preview[0]["battle_chance"]["after"])  # one border per pairing here
        assert found.attacker_wins.chance == exact
        assert found.defender_wins.chance == 1 - exact
        for outcome in (found.attacker_wins, found.defender_wins):
            weight = float(pairing.chance * outcome.chance)
            for code, chance in outcome.distribution().items():
                parts[code].append((weight, chance))
    for code, terms in parts.items():
        combined, error = _weighted(terms, SEASONS)
        odds = unconditional.odds_of(code)
        spread = math.sqrt(error**2 + odds.title_chance * (1 - odds.title_chance) / SEASONS)
        assert abs(combined - odds.title_chance) <= 4 * spread + 1e-9, code


def test_a_waiting_rebellion_is_the_one_pairing_and_its_outcomes_add_up() -> None:
    state, _history, ledger = play(star_map(), stop_after=2)
    rebel = next(code for code, f in state["board"]["factions"].items() if not f["standing"])
    ledger.append(engine.check_contribution(state, ledger, rebel, 50))
    (pairing,) = stakes.next_pairings(state, ledger)
    assert pairing.rebellion and pairing.chance == 1 and pairing.attacker == rebel
    found = stakes.stakes_of(state, ledger, pairing, seasons=SEASONS, forecast_seed="r")
    _after, entry = engine.play_step(state, ledger)
    assert found.attacker_wins.chance == Fraction(entry["battle_chance"]["after"])
    unconditional = forecast(state, ledger, seasons=SEASONS, forecast_seed="u")
    p = float(found.attacker_wins.chance)
    for odds in unconditional.factions:
        combined, error = _weighted([(p, found.attacker_wins.title_chance(odds.faction)),
                                     (1 - p, found.defender_wins.title_chance(odds.faction))],
                                    SEASONS)
        spread = math.sqrt(error**2 + odds.title_chance * (1 - odds.title_chance) / SEASONS)
        assert abs(combined - odds.title_chance) <= 4 * spread + 1e-9, odds.faction


def test_both_outcomes_play_the_same_random_numbers() -> None:
    """Common random numbers: the difference between the outcomes varies far less from one
    forecast seed to the next than it would with independent seasons for each outcome."""
    state = engine.new_state(synthetic_map(30, 40, 12, label="crn"), SEED)
    pairing = stakes.likely_pairings(stakes.next_pairings(state, []), {}, 1)[0]
    now = forecast(state, [], seasons=1_000, forecast_seed="now")
    bystander = next(odds.faction for odds in now.factions  # the leading non-fighter
                     if odds.faction not in (pairing.attacker, pairing.defender))
    common, independent = [], []
    for i in range(6):
        shared = stakes.stakes_of(state, [], pairing, seasons=1_000, forecast_seed=f"s{i}")
        common.append(shared.attacker_wins.title_chance(bystander)
                      - shared.defender_wins.title_chance(bystander))
        apart = stakes.stakes_of(state, [], pairing, seasons=1_000, forecast_seed=f"t{i}")
        independent.append(shared.attacker_wins.title_chance(bystander)
                           - apart.defender_wins.title_chance(bystander))
    assert statistics.variance(common) < statistics.variance(independent) / 2


def test_the_same_seed_gives_the_same_stakes() -> None:
    state = engine.new_state(star_map(), SEED)
    pairing = stakes.next_pairings(state, [])[0]
    first = stakes.stakes_of(state, [], pairing, seasons=500, forecast_seed="again")
    assert first.to_json() == stakes.stakes_of(state, [], pairing, seasons=500,
                                                forecast_seed="again").to_json()


def test_importance_is_half_the_l1_distance_in_points() -> None:
    assert stakes.importance_points({"A": 0.5, "B": 0.5}, {"A": 0.2, "B": 0.8}) == \
        pytest.approx(30.0)
    assert stakes.importance_points({"A": 1.0}, {"B": 1.0}) == pytest.approx(100.0)
    assert stakes.importance_points({"A": 0.3, "B": 0.7}, {"A": 0.3, "B": 0.7}) == 0.0


def test_a_full_pool_leaves_one_possible_outcome() -> None:
    state = engine.new_state(star_map(), SEED)
    ledger = [engine.check_contribution(state, [], "AB", 50)]
    pairing = next(p for p in stakes.next_pairings(state, ledger)
                   if (p.attacker, p.defender) == ("AA", "AB"))
    found = stakes.stakes_of(state, ledger, pairing, seasons=200, forecast_seed="full")
    assert found.attacker_wins.chance == 0 and found.attacker_wins.forecasts == ()
    assert found.defender_wins.chance == 1
    assert found.importance == 0.0


def test_likely_pairings_put_the_contenders_first() -> None:
    pairings = stakes.next_pairings(engine.new_state(star_map(), SEED), [])
    chosen = stakes.likely_pairings(pairings, {"AA": 0.9, "AC": 0.1}, 2)
    # AC against AA: 1/5 * (0.9 + 0.1) beats every other pairing's exposed title chance
    assert (chosen[0].attacker, chosen[0].defender) == ("AC", "AA")
    assert all(p.attacker == "AA" or p.defender == "AA" for p in chosen)


def test_the_noise_bound_follows_the_binomial_spread() -> None:
    # one faction at 50% in both: 50 * sqrt(2/pi) * sqrt(0.5 / 10_000) = 0.2821 points
    assert stakes.importance_noise_points({"A": 0.5}, {"A": 0.5}, 10_000) == \
        pytest.approx(50 * math.sqrt(2 / math.pi) * math.sqrt(0.5 / 10_000))
    assert stakes.importance_noise_points({"A": 1.0}, {"A": 0.0}, 100) == 0.0


def test_the_stakes_never_read_the_season_key() -> None:
    """Handed the public state only (no key at all), the stakes come out the same."""
    state = engine.new_state(star_map(), SEED)
    public = {name: state[name] for name in ("world", "max_battles", "board")}
    pairing = stakes.next_pairings(public, [])[0]
    found = stakes.stakes_of(public, [], pairing, seasons=300, forecast_seed="public")
    keyed = stakes.stakes_of({**state, "key": seed_number(7)}, [], pairing, seasons=300,
                             forecast_seed="public")
    assert found.to_json() == keyed.to_json()


def test_stakes_come_back_from_their_stored_json_as_the_same_value() -> None:
    """`Stakes.from_json` is the inverse of `to_json` (through canonical JSON, as stored): every
    figure a page shows derives from the value that comes back, equal to the one made."""
    state = engine.new_state(star_map(), SEED)
    ledger = [engine.check_contribution(state, [], "AB", 50)]
    for pairing in stakes.next_pairings(state, ledger)[:3]:
        made = stakes.stakes_of(state, ledger, pairing, seasons=300, forecast_seed="kept")
        stored = json.loads(canonical_json(made.to_json()))
        back = stakes.Stakes.from_json(stored)
        assert back == made and back.to_json() == stored
        assert back.importance == made.importance


def test_an_impossible_outcome_has_no_chance_to_show_and_an_absent_faction_has_none() -> None:
    state = engine.new_state(star_map(), SEED)
    ledger = [engine.check_contribution(state, [], "AB", 50)]
    pairing = next(p for p in stakes.next_pairings(state, ledger)
                   if (p.attacker, p.defender) == ("AA", "AB"))
    found = stakes.stakes_of(state, ledger, pairing, seasons=200, forecast_seed="full")
    assert not found.attacker_wins.possible and found.defender_wins.possible
    assert found.defender_wins.title_chance("no such faction") == 0.0


def test_the_pairing_chance_is_one_over_attackers_times_defenders() -> None:
    assert stakes.pairing_chance(5, 4) == Fraction(1, 20)
    assert stakes.pairing_chance(1, 1) == 1
    assert stakes.fought_pairing_chance({"candidates": {"attackers": 7, "defenders": 3}}) == \
        Fraction(1, 21)
    assert stakes.fought_pairing_chance({"candidates": None}) == 1  # a rebellion's fighters


def test_a_fought_battle_records_the_chance_its_pairing_had() -> None:
    """The chance read back from a history entry is the one `next_pairings` gave before it."""
    state = engine.new_state(star_map(), SEED)
    before = {(p.attacker, p.defender): p.chance for p in stakes.next_pairings(state, [])}
    _after, entry = engine.play_step(state, [])
    assert stakes.fought_pairing_chance(entry) == before[(entry["attacker"], entry["defender"])]
