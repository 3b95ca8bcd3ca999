"""A season's luck from its public record: a hand-computed season, brute-force enumeration on
small runs, a seeded calibration check, and the champion the verifiers name."""

from __future__ import annotations

import random
from collections.abc import Sequence
from fractions import Fraction
from itertools import product
from typing import Any

import pytest

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.record import season_luck
from fairfight.conquest.rules import tables
from fairfight.conquest.store import season
from fairfight.core.luck import luck_of_wins
from tests.conquest.helpers import SEED, champion_code, play


def _battle(attacker: str, defender: str, before: str, after: str, winner: str,
            *, secured: bool = False) -> dict[str, Any]:
    """The fields of a history entry the luck reads; the upset flag by the rule's own words
    (the winner's chance after fan power under 35%)."""
    chance = Fraction(after) if winner == attacker else 1 - Fraction(after)
    return {"attacker": attacker, "defender": defender, "winner": winner, "secured": secured,
            "battle_chance": {"before": before, "after": after},
            "upset": chance < Fraction(35, 100)}


SMALL_SEASON = [
    _battle("AA", "BB", "1/4", "1/4", "AA"),  # an upset: AA won at 25%
    _battle("AA", "CC", "1/2", "1/2", "CC"),
    _battle("BB", "CC", "1/2", "1/1", "BB", secured=True),  # BB's full pool secured it
]


def test_a_small_season_by_hand() -> None:
    # AA: chances 1/4 and 1/2, won 1. P(>=1) = 1 - 3/4*1/2 = 5/8; P(<=1) = 1 - 1/4*1/2 = 7/8.
    # BB: chances 3/4 (lost, as defender) and 1 (secured), won 1. Total = X + 1, X won with 3/4:
    #     P(>=1) = 1; P(<=1) = P(X = 0) = 1/4. Before fan power: 3/4 + 1/2 = 5/4.
    # CC: chances 1/2 (won) and 0 (lost to the secured pool): P(>=1) = 1/2, P(<=1) = 1;
    #     before fan power 1/2 + 1/2 = 1.
    # Season: only battle 1 could be an upset (AA at 1/4); the secured battle's loser had 0.
    #     One upset, expected 1/4: P(>=1) = 1/4, P(<=1) = 1.
    luck = season_luck.season_luck(SMALL_SEASON, "BB")
    assert luck["format"] == tables.LUCK_FORMAT and luck["battles"] == 3
    assert luck["factions"] == {
        "AA": {"battles": 2, "observed": 1, "expected": "3/4", "at_least": "0x5/0x8",
               "at_most": "0x7/0x8", "expected_before_fan": "3/4", "secured": 0},
        "BB": {"battles": 2, "observed": 1, "expected": "7/4", "at_least": "0x1/0x1",
               "at_most": "0x1/0x4", "expected_before_fan": "5/4", "secured": 1},
        "CC": {"battles": 2, "observed": 1, "expected": "1/2", "at_least": "0x1/0x2",
               "at_most": "0x1/0x1", "expected_before_fan": "1/1", "secured": 0},
    }
    assert luck["champion"] == {"faction": "BB", **luck["factions"]["BB"]}
    assert luck["season"] == {"battles": 3, "observed": 1, "expected": "1/4",
                              "at_least": "0x1/0x4", "at_most": "0x1/0x1"}


def test_no_champion_before_the_end_and_nothing_aired() -> None:
    assert season_luck.season_luck(SMALL_SEASON, None)["champion"] is None
    empty = season_luck.season_luck([], None)
    assert empty["factions"] == {} and empty["season"]["at_least"] == "0x1/0x1"


def test_upset_chance_follows_the_upset_line() -> None:
    below, line = Fraction(34, 100), Fraction(35, 100)
    assert season_luck.upset_chance(below) == below
    assert season_luck.upset_chance(1 - below) == below
    assert season_luck.upset_chance(line) == 0  # exactly 35% is not under it
    assert season_luck.upset_chance(Fraction(1, 2)) == 0
    assert season_luck.upset_chance(Fraction(1)) == 0


def test_tails_written_in_hex_read_back_exactly() -> None:
    value = Fraction(3**4000, 2**9000)
    assert season_luck.tail_value(season_luck.tail_text(value)) == value


def _enumerated(chances: Sequence[Fraction], observed: int) -> tuple[Fraction, Fraction]:
    """Every win/loss pattern with its probability: the two tails by brute force."""
    at_least = at_most = Fraction(0)
    for pattern in product((0, 1), repeat=len(chances)):
        chance = Fraction(1)
        for won, p in zip(pattern, chances, strict=True):
            chance *= p if won else 1 - p
        at_least += chance if sum(pattern) >= observed else 0
        at_most += chance if sum(pattern) <= observed else 0
    return at_least, at_most


def _chance(rng: random.Random) -> Fraction:
    """A chance with an odd denominator, a power of two (as the engine's), or a sure one."""
    kind = rng.randrange(4)
    if kind == 0:
        return Fraction(rng.randint(0, 1))
    if kind == 1:
        return Fraction(rng.randint(0, 2**32), 2**32)
    denominator = rng.randint(1, 12)
    return Fraction(rng.randint(0, denominator), denominator)


@pytest.mark.parametrize("seed", range(40))
def test_tails_match_brute_force_enumeration(seed: int) -> None:
    rng = random.Random(seed)
    chances = [_chance(rng) for _ in range(rng.randint(0, 9))]
    observed = rng.randint(0, len(chances))
    assert season_luck.tails(chances, observed) == _enumerated(chances, observed)


@pytest.mark.parametrize("seed", range(20))
def test_a_random_small_season_matches_enumeration_per_faction(seed: int) -> None:
    rng = random.Random(1000 + seed)
    codes = ["AA", "BB", "CC", "DD"]
    history = []
    for _ in range(rng.randint(1, 7)):
        attacker, defender = rng.sample(codes, 2)
        after = _chance(rng)
        history.append(_battle(attacker, defender, str(_chance(rng)), str(after),
                               attacker if rng.random() < after else defender))
    luck = season_luck.season_luck(history, None)
    for code, run in luck["factions"].items():
        mine = [(Fraction(e["battle_chance"]["after"]) if e["attacker"] == code
                 else 1 - Fraction(e["battle_chance"]["after"]), e["winner"] == code)
                for e in history if code in (e["attacker"], e["defender"])]
        won = sum(w for _, w in mine)
        at_least, at_most = _enumerated([p for p, _ in mine], won)
        assert (run["battles"], run["observed"]) == (len(mine), won)
        assert season_luck.tail_value(run["at_least"]) == at_least
        assert season_luck.tail_value(run["at_most"]) == at_most
        assert Fraction(run["expected"]) == sum((p for p, _ in mine), Fraction(0))
        core = luck_of_wins([p for p, _ in mine], [w for _, w in mine])  # the other measure
        assert (core.at_least, core.at_most) == (at_least, at_most)


def test_the_stated_tail_is_calibrated_over_simulated_seasons() -> None:
    """Over many simulated runs of one faction's battles, "at least this lucky" stated with
    probability q happens about a fraction q of the time (seeded, generous tolerance)."""
    rng = random.Random(34)
    chances = [Fraction(rng.randint(1, 2**32 - 1), 2**32) for _ in range(14)]
    runs = 4000
    stated: dict[int, Fraction] = {}
    reached = [0] * (len(chances) + 1)
    for _ in range(runs):
        history = [_battle("AA", "BB", str(p), str(p), "AA" if rng.random() < p else "BB")
                   for p in chances]
        run = season_luck.season_luck(history, None)["factions"]["AA"]
        stated[run["observed"]] = season_luck.tail_value(run["at_least"])
        for k in range(run["observed"] + 1):
            reached[k] += 1
    checked = 0
    for k, q in stated.items():
        seen = reached[k] / runs
        spread = 4 * (float(q) * (1 - float(q)) / runs) ** 0.5 + 0.01
        assert abs(seen - float(q)) <= spread, (k, seen, float(q))
        checked += 0.05 < q < 0.95
    assert checked >= 3  # the check bit on tails that are neither near 0 nor near 1


def test_the_verifiers_champion_is_the_standings_champion(tmp_path: Any) -> None:
    """A capped season ends with several factions standing: the champion the verifiers compute
    from the final board is the first of the service's final standings."""
    map_data = synthetic_map(12, 16, 4)
    path = tmp_path / "capped.db"
    season.create_season(path, map_data, "capped", seed=SEED, max_battles=4)
    list(season.fight(path, None))
    title = season.champion(season.summary(path))
    state, _, _ = play(map_data, SEED, max_battles=4)
    assert title is not None and champion_code(state) == title.faction
    assert sum(1 for f in state["board"]["factions"].values() if f["standing"]) > 1
