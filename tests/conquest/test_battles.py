"""Regular battles, conquest, morale, fan power and season end, on small hand-made maps."""

from __future__ import annotations

import hashlib
from fractions import Fraction

import pytest

from fairfight.conquest.rules import engine
from tests.conquest.helpers import SEED, pair_map, play, seed_number, star_map


def _draw(key: str, index: int) -> int:
    """A draw recomputed from its definition with hashlib alone [§2]."""
    return int.from_bytes(hashlib.sha256(f"{key}:{index}".encode()).digest()[:8], "big")


def test_each_battle_uses_its_eight_draws_in_order() -> None:
    _, history, _ = play(star_map(), stop_after=3)
    for entry in history:
        first = 8 * (entry["number"] - 1)
        assert [d["index"] for d in entry["draws"]] == list(range(first, first + 8))
        assert [d["value"] for d in entry["draws"]] == [
            _draw(SEED, k) for k in range(first, first + 8)
        ]
        assert [r["draw_index"] for r in entry["rounds"]] == list(range(first + 3, first + 8))


def test_first_battle_picks_follow_the_canonical_lists() -> None:
    _, history, _ = play(star_map(), stop_after=1)
    entry = history[0]
    attackers = ["AA", "AB", "AC", "AD", "AE"]  # all have an enemy next door
    attacker = attackers[(_draw(SEED, 0) * 5) >> 64]
    defenders = ["AB", "AC", "AD", "AE"] if attacker == "AA" else ["AA"]
    defender = defenders[(_draw(SEED, 1) * len(defenders)) >> 64]
    assert (entry["attacker"], entry["defender"]) == (attacker, defender)
    assert entry["candidates"] == {"attackers": 5, "defenders": len(defenders), "borders": 1}
    sea = "AE" in (attacker, defender)
    assert entry["border"]["kind"] == ("sea" if sea else "land")
    assert entry["sides"]["attacker"]["sea"] == ("4/5" if sea else "1/1")
    assert entry["sides"]["defender"]["home"] == "28/25"


def test_round_winner_is_the_high_32_bits_below_the_chance() -> None:
    _, history, _ = play(star_map(), stop_after=4)
    for entry in history:
        values = {d["index"]: d["value"] for d in entry["draws"]}
        wins = 0
        for r in entry["rounds"]:
            chance = Fraction(r["after"])
            attacker_won = Fraction(values[r["draw_index"]] >> 32, 2**32) < chance
            assert r["winner"] == ("attacker" if attacker_won else "defender")
            wins += attacker_won
        assert entry["natural_winner"] == entry["attacker" if wins >= 3 else "defender"]


def test_conquest_moves_every_region_and_resets_the_loser() -> None:
    state, history, _ = play(star_map(), stop_after=2)
    second = history[1]
    loser, winner = second["loser"], second["winner"]
    regions = state["board"]["regions"]
    assert second["changed_hands"] and all(
        regions[code] == {"owner": winner, "captured_at": 2} for code in second["changed_hands"]
    )
    assert not any(r["owner"] == loser for r in regions.values())
    assert state["board"]["factions"][loser]["standing"] is False
    assert state["board"]["factions"][loser]["morale"] == 0


def test_morale_decays_then_adds_then_caps() -> None:
    board = {
        "factions": {
            "AA": {"standing": True, "morale": 1200},
            "AB": {"standing": True, "morale": 500},
        }
    }
    engine._update_morale(board, "AA", upset=True)
    assert board["factions"]["AA"]["morale"] == 1200  # 984 + 600 capped
    assert board["factions"]["AB"]["morale"] == 410
    streak = 0
    for _ in range(60):
        streak = streak * 82 // 100 + 200
    board = {"factions": {"AA": {"standing": True, "morale": 0}}}
    for _ in range(60):
        engine._update_morale(board, "AA", upset=False)
    assert board["factions"]["AA"]["morale"] == streak
    assert 1105 <= streak <= 1111  # about 11.1%


def test_upset_flag_means_the_winner_had_under_35_percent() -> None:
    upsets = 0
    for i in range(6):
        _, history, _ = play(star_map(), seed=seed_number(i))
        for entry in history:
            after = Fraction(entry["battle_chance"]["after"])
            chance = after if entry["winner"] == entry["attacker"] else 1 - after
            assert entry["upset"] == (chance < Fraction(35, 100))
            upsets += entry["upset"]
    assert upsets > 0


def _first_battle_with(map_data: dict, pools: list[tuple[str, int]], natural: str) -> dict:
    """Search seeds for a first battle whose draws favour `natural`."""
    for i in range(400):
        _, history, _ = play(map_data, seed_number(i), {1: pools}, stop_after=1)
        if history[0]["natural_winner"] == natural:
            return history[0]
    raise AssertionError("no seed found")


def test_full_pool_secures_the_win_against_the_draws() -> None:
    entry = _first_battle_with(pair_map(), [("AA", 25), ("AA", 25)], natural="AB")
    assert entry["winner"] == "AA" and entry["reason"] == "FAN POWER" and entry["secured"]
    side = "attacker" if entry["attacker"] == "AA" else "defender"
    assert entry["battle_chance"]["after"] == ("1/1" if side == "attacker" else "0/1")
    assert entry["sides"][side]["fan"] == "1/1"  # no multiplier on a secured win
    assert entry["upset"] is False
    assert entry["pools_spent"] == {"AA": 50}
    assert [r["before"] for r in entry["rounds"]] == [r["after"] for r in entry["rounds"]]


def test_full_pool_with_the_draws_is_a_natural_secured_win() -> None:
    entry = _first_battle_with(pair_map(10_000_000, 10_000_000), [("AA", 50)], natural="AA")
    assert entry["winner"] == "AA" and entry["reason"] == "NATURAL" and entry["secured"]


def test_fan_clash_spends_both_pools_and_lets_the_draws_decide() -> None:
    _, history, _ = play(pair_map(), SEED, {1: [("AA", 50), ("AB", 50)]}, stop_after=1)
    entry = history[0]
    assert entry["reason"] == "FAN CLASH" and not entry["secured"]
    assert entry["winner"] == entry["natural_winner"]
    assert entry["battle_chance"]["after"] == entry["battle_chance"]["before"]
    assert entry["pools_spent"] == {"AA": 50, "AB": 50}


def test_partial_pool_multiplies_and_is_spent_win_or_lose() -> None:
    state, history, _ = play(pair_map(), SEED, {1: [("AB", 15)]}, stop_after=1)
    entry = history[0]
    side = "attacker" if entry["attacker"] == "AB" else "defender"
    assert entry["sides"][side]["fan"] == "103/100" and entry["sides"][side]["pool"] == 15
    assert state["board"]["factions"]["AB"]["pool_state"] == "spent"
    assert state["board"]["factions"]["AB"]["pool"] == 15
    assert entry["pools_spent"] == {"AB": 15}


def test_contributions_apply_only_at_their_battle() -> None:
    state = engine.new_state(star_map(), SEED)
    entry = engine.check_contribution(state, [], "AB", 10)
    assert entry == {"seq": 1, "before_battle": 1, "faction": "AB", "amount": 10}
    assert state["board"]["factions"]["AB"]["pool"] == 0  # nothing changed by the check
    second = engine.check_contribution(state, [entry], "AB", 40)
    assert second["seq"] == 2
    with pytest.raises(engine.LedgerRefusal, match="cap"):
        engine.check_contribution(state, [entry, second], "AB", 5)


@pytest.mark.parametrize(
    ("faction", "amount", "field", "words"),
    [
        ("AB", 7, "amount", "$5 steps"),
        ("AB", 0, "amount", "$5 steps"),
        ("AB", 55, "amount", "$5 steps"),
        ("ZZ", 5, "faction", "no faction"),
    ],
)
def test_malformed_contributions_are_refused(
    faction: str, amount: int, field: str, words: str
) -> None:
    state = engine.new_state(star_map(), SEED)
    with pytest.raises(engine.LedgerRefusal) as refused:
        engine.check_contribution(state, [], faction, amount)
    assert refused.value.field == field and words in refused.value.rule


def test_spent_pool_wrong_battle_and_ended_season_are_refused() -> None:
    state, history, ledger = play(pair_map(), SEED, {1: [("AB", 10)]}, stop_after=1)
    assert state["board"]["ended"]  # two regions: one battle ends it
    with pytest.raises(engine.LedgerRefusal, match="season is over"):
        engine.check_contribution(state, ledger, "AB", 5)
    state = engine.new_state(star_map(), SEED)
    board = state["board"]
    board["factions"]["AB"]["pool_state"] = "spent"
    with pytest.raises(engine.LedgerRefusal, match="already spent"):
        engine.check_contribution(state, [], "AB", 5)
    with pytest.raises(engine.LedgerRefusal) as refused:
        engine.apply_contribution(
            board, {"seq": 1, "before_battle": 2, "faction": "AC", "amount": 5}
        )
    assert refused.value.field == "before_battle"


def test_season_ends_when_one_faction_holds_everything() -> None:
    state, history, _ = play(star_map())
    owners = {r["owner"] for r in state["board"]["regions"].values()}
    assert len(owners) == 1 and history[-1]["season_over"]
    assert len(history) == 4 and not any(e["season_over"] for e in history[:-1])
    with pytest.raises(ValueError, match="season is over"):
        engine.play_step(state, [])


def test_max_battles_ends_the_season_early() -> None:
    state, history, _ = play(star_map(), max_battles=2)
    assert len(history) == 2 and state["board"]["ended"]


def test_map_errors_name_the_field() -> None:
    bad = star_map()
    bad["borders"].append(dict(bad["borders"][0]))
    with pytest.raises(engine.MapError, match="listed twice"):
        engine.compile_world(bad)
    island = star_map()
    island["borders"] = island["borders"][:3]
    with pytest.raises(engine.MapError, match="AE: has no border"):
        engine.compile_world(island)
