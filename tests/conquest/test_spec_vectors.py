"""Golden vectors worked by hand from the spec's rules (`golden/spec_vectors.json`).

Each value there was computed with pencil-and-paper arithmetic from the rule it names (the
working is written beside it), never by running the engine; the digests of whole seasons stay
the change detectors, these say the rules themselves are the spec's.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from fairfight.conquest.rules import engine
from tests.conquest.helpers import border, hand_map, play, region, seed_number

VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).parent / "golden" / "spec_vectors.json").read_text(encoding="utf-8")
)
LO, HI = VECTORS["clamp"]["round_floor"], VECTORS["clamp"]["round_ceiling"]
TWO_32 = 4_294_967_296


def test_the_clamp_is_the_spec_s_18_9_percent_of_2_to_the_32() -> None:
    """§1.2: a round chance from hugely unequal strengths lands on LO or HI exactly."""
    assert engine.round_chance(Fraction(1), Fraction(10**9)) == LO
    assert engine.round_chance(Fraction(10**9), Fraction(1)) == HI


def test_the_battle_chance_with_every_round_at_the_floor() -> None:
    """§1.2/§1.3: P(at least 3 of 5) by the binomial formula with p = LO / 2^32 for each round:
    C(5,3) p^3 q^2 + C(5,4) p^4 q + p^5 with q = HI / 2^32, all over 2^160 (about 4.98%)."""
    by_hand = Fraction(10 * LO**3 * HI**2 + 5 * LO**4 * HI + LO**5, TWO_32**5)
    assert engine.battle_chance([LO] * 5) == by_hand
    assert abs(float(by_hand) - 0.04982) < 5e-5  # the spec's clue check


@pytest.mark.parametrize("case", VECTORS["weighted_rating"]["cases"])
def test_the_weighted_rating(case: dict[str, Any]) -> None:
    ratings = dict(zip("PSMRU", case["ratings"], strict=True))
    assert engine.weighted_rating(ratings) == case["w"], case["arithmetic"]


@pytest.mark.parametrize("case", VECTORS["fan_factor"]["cases"])
def test_the_fan_factor(case: dict[str, Any]) -> None:
    assert engine.fraction_text(engine.fan_factor(case["amount"])) == case["factor"]


@pytest.mark.parametrize("case", VECTORS["integration"]["cases"])
def test_the_integration_share(case: dict[str, Any]) -> None:
    share = engine.integration_share(case["battle"], case["captured_at"])
    assert engine.fraction_text(share) == case["share"], case["arithmetic"]


@pytest.mark.parametrize("case", VECTORS["morale"]["cases"])
def test_a_morale_step(case: dict[str, Any]) -> None:
    """§5: decay every standing faction, then the winner's bonus, then the cap."""
    board = {
        "factions": {
            "AA": {"standing": True, "morale": case["before"] if case["won"] else 0},
            "AB": {"standing": True, "morale": 0 if case["won"] else case["before"]},
        }
    }
    engine._update_morale(board, "AA", upset=case["upset"])
    assert board["factions"]["AA" if case["won"] else "AB"]["morale"] == case["after"]


def test_a_battle_of_all_tens_against_all_ones_is_clamped_in_every_round() -> None:
    """§1.2, §4: both sides 2^20 people (so the same population power), AA rated 10 everywhere
    (W = 1000, special P: Forge), AB rated 1 (W = 100, special S: Supply), over land.
    Forge counters Supply, so AA has ×1.08; the defender has home ×1.12. Per round, with the
    common power taken out: P 1000·1.08·1.10 = 1188 against 112 (91.4%); S 1080 against
    100·1.12·1.10 = 123.2 (89.8%); M, R, U 1080 against 112 (90.6%): all above 81.1%, so every
    round is HI = 3483218478 / 2^32 = 1741609239 / 2^31, and the battle chance is
    C(5,3) h^3 l^2 + C(5,4) h^4 l + h^5 with h = HI / 2^32, l = LO / 2^32."""
    tens = region("AA", 2**20, "P", (10, 10, 10, 10, 10))
    ones = region("AB", 2**20, "S", (1, 1, 1, 1, 1))
    the_map = hand_map([tens, ones], [border("AA", "AB")])
    for i in range(50):
        _, history, _ = play(the_map, seed_number(i), stop_after=1)
        if history[0]["attacker"] == "AA":
            break
    entry = history[0]
    assert entry["attacker"] == "AA"
    assert [r["before"] for r in entry["rounds"]] == ["1741609239/2147483648"] * 5
    chance = Fraction(10 * HI**3 * LO**2 + 5 * HI**4 * LO + HI**5, TWO_32**5)
    assert entry["battle_chance"]["before"] == engine.fraction_text(chance)
