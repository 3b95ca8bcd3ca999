"""Whole steps checked against the spec's formulas worked out independently in the test.

Every expected number here comes from the formulas of §1-§7 written out again below (an
integer 20th root by bisection, Fractions, the draws recomputed with hashlib), never from
the engine's own helpers. The engine is only asked to play the step.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from itertools import product
from typing import Any

from fairfight.conquest.rules import engine
from tests.conquest.helpers import border, hand_map, region, seed_number

TWO_32 = 2**32
CLAMP_LOW = 189 * TWO_32 // 1000
CLAMP_HIGH = TWO_32 - CLAMP_LOW


def _draw(key: str, index: int) -> int:
    return int.from_bytes(hashlib.sha256(f"{key}:{index}".encode()).digest()[:8], "big")


def _root20(value: int) -> int:
    """floor(value ** (1/20)) by bisection: an oracle independent of the engine's Newton steps."""
    low, high = 0, 1
    while high**20 <= value:
        high *= 2
    while high - low > 1:
        middle = (low + high) // 2
        if middle**20 <= value:
            low = middle
        else:
            high = middle
    return low


def _power(people: int) -> int:
    """N ** 0.35 in millionths [§1.2]."""
    return _root20(people**7 * 10**120)


def _q(attacker: Fraction, defender: Fraction) -> int:
    raw = attacker * TWO_32 / (attacker + defender)
    return min(CLAMP_HIGH, max(CLAMP_LOW, raw.numerator // raw.denominator))


def _at_least_three(qs: list[int]) -> Fraction:
    total = Fraction(0)
    for outcome in product((True, False), repeat=5):
        if sum(outcome) >= 3:
            weight = Fraction(1)
            for won, q in zip(outcome, qs, strict=True):
                p = Fraction(q, TWO_32)
                weight *= p if won else 1 - p
            total += weight
    return total


def _text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


# AA (2**20 people) has held AC since battle 3; battle 6 counts AC at (8 + 3*2)/32 = 14/32.
# floor(7,967,396,172 * 14/32) = 3,485,735,825 = 3**20 - 2**20, so AA's N is exactly 3**20.
BIG_CAPTURE = 7_967_396_172
BATTLE = 6


def _world_map() -> dict[str, Any]:
    return hand_map(
        [
            region("AA", 2**20, "P", (6, 5, 4, 3, 2)),  # Forge, W = 450
            region("AB", 3**20, "S", (5, 5, 5, 5, 5)),  # Supply, W = 500
            region("AC", BIG_CAPTURE, "U", (3, 3, 3, 3, 3)),  # Alliance, W = 300
        ],
        [border("AA", "AB", "sea", remote=True), border("AA", "AC")],
    )


def _state(key: str, ab_pool: int, aa_pool: int = 0, ac_pool: int = 0) -> dict[str, Any]:
    """Battle 6 about to start: AC absorbed by AA at battle 3, AA at 3.50% morale."""
    state = engine.new_state(_world_map(), key)
    board = state["board"]
    board["next_battle"] = BATTLE
    board["regions"]["AC"] = {"owner": "AA", "captured_at": 3}
    board["factions"]["AC"].update(standing=False, pool=ac_pool)
    board["factions"]["AA"].update(morale=350, pool=aa_pool)
    board["factions"]["AB"]["pool"] = ab_pool
    return state


def _key_where(condition: Any) -> str:
    for i in range(200):
        key = seed_number(i)
        if condition(key):
            return key
    raise AssertionError("no key found")


def test_regular_battle_every_factor_by_hand() -> None:
    first = 8 * (BATTLE - 1)
    # attackers [AA, AB]; AA must be picked: index (x * 2) >> 64 == 0
    key = _key_where(lambda k: (_draw(k, first) * 2) >> 64 == 0)
    state, entry = engine.play_step(_state(key, ab_pool=15), [])
    assert (entry["attacker"], entry["defender"]) == ("AA", "AB")
    assert entry["candidates"] == {"attackers": 2, "defenders": 1, "borders": 1}
    assert entry["border"] == {"a": "AA", "b": "AB", "kind": "sea", "remote": True}

    people_a = 2**20 + BIG_CAPTURE * 14 // 32
    assert people_a == 3**20
    attacker, defender = entry["sides"]["attacker"], entry["sides"]["defender"]
    assert (attacker["people"], defender["people"]) == (people_a, 3**20)
    assert attacker["power"] == defender["power"] == _power(3**20) == 2187 * 10**6
    assert (attacker["weighted_rating"], defender["weighted_rating"]) == (450, 500)
    assert attacker["sea"] == "4/5" and defender["sea"] == "1/1"
    assert attacker["home"] == "1/1" and defender["home"] == "28/25"
    assert (attacker["counter"], defender["counter"]) == ("27/25", "1/1")  # Forge > Supply
    assert attacker["morale"] == "207/200" and defender["morale"] == "1/1"
    assert attacker["fan"] == "1/1" and defender["fan"] == "103/100"  # $15: (500 + 15)/500

    base_a = Fraction(2187 * 10**6 * 450) * Fraction(8, 10) * Fraction(108, 100)
    base_a *= Fraction(10_000 + 350, 10_000)
    base_d = Fraction(2187 * 10**6 * 500) * Fraction(112, 100)
    before, after = [], []
    for c in "PSMRU":
        a = base_a * (Fraction(11, 10) if c == "P" else 1)
        d = base_d * (Fraction(11, 10) if c == "S" else 1)
        before.append(_q(a, d))
        after.append(_q(a, d * Fraction(515, 500)))
    assert [Fraction(r["before"]) * TWO_32 for r in entry["rounds"]] == before
    assert [Fraction(r["after"]) * TWO_32 for r in entry["rounds"]] == after
    assert entry["battle_chance"] == {
        "before": _text(_at_least_three(before)),
        "after": _text(_at_least_three(after)),
    }

    wins = [(_draw(key, first + 3 + i) >> 32) < after[i] for i in range(5)]
    assert [r["winner"] == "attacker" for r in entry["rounds"]] == wins
    winner = "AA" if sum(wins) >= 3 else "AB"
    assert entry["winner"] == entry["natural_winner"] == winner
    assert entry["reason"] == "NATURAL" and entry["secured"] is False
    chance = _at_least_three(after)
    upset = (chance if winner == "AA" else 1 - chance) < Fraction(35, 100)
    assert entry["upset"] is upset
    assert entry["pools_spent"] == {"AB": 15}

    board = state["board"]
    bonus = 600 if upset else 200
    if winner == "AA":
        assert entry["morale_after"] == {"attacker": 350 * 82 // 100 + bonus, "defender": 0}
        assert board["regions"]["AB"] == {"owner": "AA", "captured_at": BATTLE}
        assert board["regions"]["AC"] == {"owner": "AA", "captured_at": 3}
    else:
        assert entry["morale_after"] == {"attacker": 0, "defender": bonus}
        assert board["regions"]["AA"] == {"owner": "AB", "captured_at": BATTLE}
        assert board["regions"]["AC"] == {"owner": "AB", "captured_at": BATTLE}
    assert board["factions"]["AB"]["pool_state"] == "spent"


def test_rebellion_every_factor_by_hand() -> None:
    """AC's fund reaches $50 at battle 6 and it rises against AA; AA's own $20 stays put."""
    first = 8 * (BATTLE - 1)
    key = seed_number(3)
    state = _state(key, ab_pool=0, aa_pool=20, ac_pool=45)
    ledger = [{"seq": 1, "before_battle": BATTLE, "faction": "AC", "amount": 5}]
    state, entry = engine.play_step(state, ledger)
    assert entry["kind"] == "bonus" and (entry["attacker"], entry["defender"]) == ("AC", "AA")
    assert [d["index"] for d in entry["draws"]] == list(range(first, first + 8))
    rebel, occupier = entry["sides"]["attacker"], entry["sides"]["defender"]
    occupier_people = 2**20 + BIG_CAPTURE * 14 // 32
    assert (rebel["people"], occupier["people"]) == (BIG_CAPTURE, occupier_people)
    assert (rebel["power"], occupier["power"]) == (_power(BIG_CAPTURE), _power(occupier_people))
    assert (rebel["counter"], occupier["counter"]) == ("27/25", "1/1")  # Alliance > Forge
    assert occupier["fan"] == "1/1" and occupier["pool"] == 0

    rebel_base = Fraction(_power(BIG_CAPTURE) * 300) * Fraction(108, 100)
    occupier_base = Fraction(_power(occupier_people) * 450) * Fraction(112, 100)
    occupier_base *= Fraction(10_350, 10_000)
    chances = [
        _q(
            rebel_base * (Fraction(11, 10) if c == "U" else 1),
            occupier_base * (Fraction(11, 10) if c == "P" else 1),
        )
        for c in "PSMRU"
    ]
    assert [Fraction(r["after"]) * TWO_32 for r in entry["rounds"]] == chances
    assert [Fraction(r["before"]) * TWO_32 for r in entry["rounds"]] == chances
    chance = _at_least_three(chances)
    assert entry["battle_chance"] == {"before": _text(chance), "after": _text(chance)}

    wins = [(_draw(key, first + 3 + i) >> 32) < chances[i] for i in range(5)]
    rebels_won = sum(wins) >= 3
    assert entry["winner"] == ("AC" if rebels_won else "AA")
    upset = (chance if rebels_won else 1 - chance) < Fraction(35, 100)
    assert entry["upset"] is upset
    board = state["board"]
    assert entry["pools_spent"] == {"AC": 50}
    assert board["factions"]["AC"]["pool_state"] == "spent"
    assert board["factions"]["AA"]["pool"] == 20 and board["factions"]["AA"]["pool_state"] == "open"
    bonus = 600 if upset else 200
    if rebels_won:
        assert board["regions"]["AC"] == {"owner": "AC", "captured_at": None}
        assert board["factions"]["AC"]["standing"] is True
        assert entry["morale_after"] == {"attacker": bonus, "defender": 350 * 82 // 100}
    else:
        assert board["regions"]["AC"] == {"owner": "AA", "captured_at": 3}
        assert entry["morale_after"] == {"attacker": 0, "defender": 350 * 82 // 100 + bonus}


def test_both_outcomes_of_the_rebellion_are_reached() -> None:
    """The rebellion test above is only as good as the seeds it sees: check both branches."""
    outcomes = set()
    for i in range(12):
        state = _state(seed_number(i), ab_pool=0, ac_pool=45)
        ledger = [{"seq": 1, "before_battle": BATTLE, "faction": "AC", "amount": 5}]
        _, entry = engine.play_step(state, ledger)
        outcomes.add(entry["winner"])
    assert outcomes == {"AA", "AC"}


def test_secured_side_has_no_multiplier_but_the_other_partial_pool_counts() -> None:
    first = 8 * (BATTLE - 1)
    key = _key_where(lambda k: (_draw(k, first) * 2) >> 64 == 0)  # AA attacks
    state, entry = engine.play_step(_state(key, ab_pool=30, aa_pool=50), [])
    attacker, defender = entry["sides"]["attacker"], entry["sides"]["defender"]
    assert attacker["fan"] == "1/1" and defender["fan"] == "53/50"  # (500 + 30)/500
    assert entry["secured"] is True and entry["winner"] == "AA"
    assert entry["battle_chance"]["after"] == "1/1" and entry["upset"] is False
    assert entry["pools_spent"] == {"AA": 50, "AB": 30}
    base_a = Fraction(2187 * 10**6 * 450) * Fraction(8, 10) * Fraction(108, 100)
    base_a *= Fraction(10_350, 10_000)
    base_d = Fraction(2187 * 10**6 * 500) * Fraction(112, 100) * Fraction(530, 500)
    after = [
        _q(
            base_a * (Fraction(11, 10) if c == "P" else 1),
            base_d * (Fraction(11, 10) if c == "S" else 1),
        )
        for c in "PSMRU"
    ]
    assert [Fraction(r["after"]) * TWO_32 for r in entry["rounds"]] == after
    wins = sum((_draw(key, first + 3 + i) >> 32) < after[i] for i in range(5))
    assert entry["natural_winner"] == ("AA" if wins >= 3 else "AB")
    assert entry["reason"] == ("NATURAL" if wins >= 3 else "FAN POWER")


def _front_map() -> dict[str, Any]:
    """AA-AB-AC-AD in a line, AA-AD land as well, AE joined to AD by sea only."""
    return hand_map(
        [region(code, 1000 * (i + 1)) for i, code in enumerate(["AA", "AB", "AC", "AD", "AE"])],
        [
            border("AA", "AB"),
            border("AB", "AC"),
            border("AC", "AD"),
            border("AA", "AD"),
            border("AD", "AE", "sea"),
        ],
    )


def test_candidate_lists_by_hand() -> None:
    """AB holds AA, AB, AC; AD and AE hold themselves [§3]."""
    state = engine.new_state(_front_map(), seed_number(0))
    world, board = state["world"], state["board"]
    for code in ("AA", "AC"):
        board["regions"][code] = {"owner": "AB", "captured_at": 1}
        board["factions"][code]["standing"] = False
    assert engine.eligible_attackers(world, board) == ["AB", "AD", "AE"]
    assert engine.defenders_of(world, board, "AB") == ["AD"]
    assert engine.defenders_of(world, board, "AD") == ["AB", "AE"]
    assert engine.defenders_of(world, board, "AE") == ["AD"]
    assert [b[:2] for b in engine.shared_borders(world, board, "AB", "AD")] == [
        ["AA", "AD"],
        ["AC", "AD"],
    ]
    assert [b[:2] for b in engine.shared_borders(world, board, "AD", "AB")] == [
        ["AA", "AD"],
        ["AC", "AD"],
    ]
    board["next_battle"] = 2
    state, entry = engine.play_step(state, [])
    draws = [_draw(seed_number(0), 8 + i) for i in range(3)]
    attacker = ["AB", "AD", "AE"][(draws[0] * 3) >> 64]
    defenders = {"AB": ["AD"], "AD": ["AB", "AE"], "AE": ["AD"]}[attacker]
    defender = defenders[(draws[1] * len(defenders)) >> 64]
    pair = {attacker, defender}
    borders = [("AA", "AD"), ("AC", "AD")] if pair == {"AB", "AD"} else [("AD", "AE")]
    chosen = borders[(draws[2] * len(borders)) >> 64]
    assert (entry["attacker"], entry["defender"]) == (attacker, defender)
    assert (entry["border"]["a"], entry["border"]["b"]) == chosen


def test_beacon_season_key_is_the_hmac_of_the_seed() -> None:
    """K = HMAC-SHA256(key = seed text, message = beacon randomness text), lowercase hex [§2]."""
    import hmac

    seed, randomness = seed_number(7), "ab" * 32
    expected = hmac.new(seed.encode(), randomness.encode(), hashlib.sha256).hexdigest()
    assert engine.season_key(seed, randomness) == expected
    assert engine.season_key(seed, None) == seed
    state = engine.new_state(_front_map(), expected)
    _, entry = engine.play_step(state, [])
    assert [d["value"] for d in entry["draws"]] == [_draw(expected, k) for k in range(8)]


def _refusal(map_data: dict[str, Any]) -> str:
    try:
        engine.compile_world(map_data)
    except engine.MapError as error:
        return str(error)
    raise AssertionError("the map was accepted")


def test_engine_refuses_a_map_it_cannot_play() -> None:
    """§0: no population below 1, ratings 1..10, ends in byte order, one border per pair,
    no isolated region, connected; §8: max_battles null or at least 1."""
    low = _front_map()
    low["regions"][0]["population"] = 0
    assert "population" in _refusal(low)
    rated = _front_map()
    rated["regions"][1]["ratings"]["M"] = 11
    assert "ratings.M" in _refusal(rated)
    rated["regions"][1]["ratings"]["M"] = 0
    assert "ratings.M" in _refusal(rated)
    backwards = _front_map()
    backwards["borders"][0].update(a="AB", b="AA")
    assert "byte order" in _refusal(backwards)
    twice = _front_map()
    twice["borders"].append(border("AA", "AB", "sea"))
    assert "listed twice" in _refusal(twice)
    split = hand_map(
        [region(code, 1000) for code in ("AA", "AB", "AC", "AD")],
        [border("AA", "AB"), border("AC", "AD")],
    )
    assert "not connected" in _refusal(split)
    remote_land = _front_map()
    remote_land["borders"][0]["remote"] = True
    assert "remote" in _refusal(remote_land)
    for cap in (0, -1):
        try:
            engine.new_state(_front_map(), seed_number(0), cap)
        except engine.MapError as error:
            assert "max_battles" in str(error)
        else:
            raise AssertionError("max_battles below 1 was accepted")
