"""Rebellions [§7]: fought before the next regular battle, in region-code order."""

from __future__ import annotations

from fractions import Fraction

from fairfight.conquest.rules import engine
from tests.conquest.helpers import SEED, play, seed_number, star_map


def _absorbed_with_open_pools(board: dict) -> list[str]:
    return sorted(
        code
        for code, f in board["factions"].items()
        if not f["standing"] and f["pool_state"] == "open" and f["pool"] == 0
    )


def _two_absorbed() -> tuple[dict, list[dict], list[str]]:
    """A star-map season after two battles: two factions absorbed with empty open pools."""
    state, history, ledger = play(star_map(), stop_after=2)
    waiting = _absorbed_with_open_pools(state["board"])
    assert len(waiting) == 2 and not state["board"]["ended"]
    return state, ledger, waiting


def test_waiting_rebellions_are_fought_first_in_region_code_order() -> None:
    state, ledger, (low, high) = _two_absorbed()
    for faction, amount in ((high, 25), (high, 25), (low, 20), (low, 20), (low, 10)):
        ledger.append(engine.check_contribution(state, ledger, faction, amount))
    occupiers = {code: engine.owner(state["board"], code) for code in (low, high)}
    state, third = engine.play_step(state, ledger)
    state, fourth = engine.play_step(state, ledger)
    for entry, rebel in ((third, low), (fourth, high)):
        assert entry["kind"] == "bonus"
        assert entry["attacker"] == rebel and entry["defender"] == occupiers[rebel]
        assert entry["border"] is None and entry["candidates"] is None
        assert len(entry["draws"]) == 8
        assert entry["draws"][0]["index"] == 8 * (entry["number"] - 1)
        assert entry["pools_spent"] == {rebel: 50}
        assert state["board"]["factions"][rebel]["pool_state"] == "spent"
        rebel_side, occupier_side = entry["sides"]["attacker"], entry["sides"]["defender"]
        assert (
            rebel_side["people"]
            == star_map()["regions"][["AA", "AB", "AC", "AD", "AE"].index(rebel)]["population"]
        )
        assert rebel_side["morale"] == "1/1" and rebel_side["fan"] == "1/1"
        assert rebel_side["special_active"] is True and rebel_side["sea"] == "1/1"
        assert occupier_side["home"] == "28/25"
    if not state["board"]["ended"]:
        state, fifth = engine.play_step(state, ledger)
        assert fifth["kind"] == "regular"


def test_rebel_victory_restores_the_home_region_only() -> None:
    for i in range(60):
        state, history, ledger = play(star_map(), seed_number(i), stop_after=2)
        waiting = _absorbed_with_open_pools(state["board"])
        rebel = waiting[0]
        ledger.append(engine.check_contribution(state, ledger, rebel, 50))
        after, entry = engine.play_step(state, ledger)
        if entry["winner"] == rebel:
            break
    else:
        raise AssertionError("no seed gave the rebels a win")
    board = after["board"]
    assert board["regions"][rebel] == {"owner": rebel, "captured_at": None}
    assert [c for c, r in board["regions"].items() if r["owner"] == rebel] == [rebel]
    assert board["factions"][rebel]["standing"] is True
    assert entry["changed_hands"] == [rebel] and entry["restored"] == rebel
    bonus = 600 if entry["upset"] else 200
    assert board["factions"][rebel]["morale"] == bonus
    assert entry["upset"] == (Fraction(entry["battle_chance"]["after"]) < Fraction(35, 100))


def test_rebel_defeat_changes_nothing_on_the_map() -> None:
    for i in range(60):
        state, history, ledger = play(star_map(), seed_number(i), stop_after=2)
        rebel = _absorbed_with_open_pools(state["board"])[0]
        ledger.append(engine.check_contribution(state, ledger, rebel, 50))
        after, entry = engine.play_step(state, ledger)
        if entry["winner"] != rebel:
            break
    else:
        raise AssertionError("no seed gave the occupier a win")
    assert after["board"]["regions"] == state["board"]["regions"]
    assert entry["changed_hands"] == [] and entry["restored"] is None
    assert after["board"]["factions"][rebel]["pool_state"] == "spent"


def test_a_faction_beaten_while_boosted_has_no_rebellion_fund() -> None:
    state, history, _ = play(
        star_map(), SEED, {1: [(c, 10) for c in ["AA", "AB", "AC", "AD", "AE"]]}, stop_after=1
    )
    loser = history[0]["loser"]
    assert state["board"]["factions"][loser]["pool_state"] == "spent"
    assert engine.waiting_rebellions(state["board"]) == []


def test_cap_on_battles_overrides_a_waiting_rebellion() -> None:
    state, ledger, (low, _high) = _two_absorbed()
    state["max_battles"] = 3
    ledger.append(engine.check_contribution(state, ledger, low, 50))
    ledger.append(engine.check_contribution(state, ledger, _high, 50))
    state, entry = engine.play_step(state, ledger)
    assert entry["kind"] == "bonus" and entry["season_over"]
    assert engine.waiting_rebellions(state["board"]) == [_high]
