"""Movers since the last battle: the largest moves first, with reasons read from the record."""

from __future__ import annotations

from typing import Any

from fairfight.conquest.rules.movers import BOARD_CHANGED, movers, reason_for


def _battle(number: int, attacker: str, defender: str, winner: str, **extra: Any) -> dict:
    loser = defender if winner == attacker else attacker
    return {"number": number, "kind": "regular", "attacker": attacker, "defender": defender,
            "winner": winner, "loser": loser, "changed_hands": extra.pop("moved", [loser]),
            "upset": False, "reason": "NATURAL", "secured": False, **extra}


def _rebellion(number: int, rebel: str, occupier: str, winner: str) -> dict:
    return {"number": number, "kind": "bonus", "attacker": rebel, "defender": occupier,
            "winner": winner, "loser": occupier if winner == rebel else rebel,
            "changed_hands": [rebel] if winner == rebel else [], "upset": False,
            "reason": "NATURAL", "secured": False}


def test_the_winner_the_loser_and_a_bystander_each_get_their_reason() -> None:
    entry = _battle(57, "US-NM", "US-TX", "US-NM", moved=["US-TX", "US-OK"])
    assert reason_for("US-NM", [entry]) == "beat US-TX in battle 57, taking 2 regions"
    assert reason_for("US-TX", [entry]) == "lost to US-NM in battle 57 and was absorbed"
    assert reason_for("US-CA", [entry]) == BOARD_CHANGED


def test_upsets_and_fan_power_are_named() -> None:
    upset = _battle(3, "AB", "AA", "AB", upset=True)
    assert reason_for("AB", [upset]) == "beat AA in battle 3, taking 1 region (an upset)"
    secured = _battle(4, "AA", "AC", "AC", reason="FAN POWER", secured=True)
    assert reason_for("AC", [secured]) == "beat AA in battle 4, taking 1 region (fan power " \
        "secured it)"
    clash = _battle(5, "AA", "AD", "AA", reason="FAN CLASH")
    assert reason_for("AD", [clash]).endswith("(a fan clash)")


def test_rebellions_read_from_both_sides() -> None:
    won, lost = _rebellion(9, "KY", "US-TN", "KY"), _rebellion(9, "KY", "US-TN", "US-TN")
    assert reason_for("KY", [won]) == "restored by a rebellion against US-TN in battle 9"
    assert reason_for("US-TN", [won]) == "lost KY to a rebellion in battle 9"
    assert reason_for("KY", [lost]) == "a rebellion against US-TN failed in battle 9"
    assert reason_for("US-TN", [lost]) == "put down a rebellion in KY in battle 9"


def test_movers_are_the_largest_moves_first_and_skip_the_still() -> None:
    before = {"A": 0.40, "B": 0.30, "C": 0.20, "D": 0.10, "E": 0.0}
    after = {"A": 0.359, "B": 0.36, "C": 0.2003, "D": 0.0, "E": 0.0807}
    entry = _battle(12, "B", "D", "B")
    found = movers(before, after, [entry], count=3)
    assert [m.faction for m in found] == ["D", "E", "B"]
    assert round(found[0].change_points, 6) == -10.0
    assert found[0].reason == "lost to B in battle 12 and was absorbed"
    assert found[1].reason == BOARD_CHANGED
    everyone = movers(before, after, [entry], count=10)
    assert "C" not in [m.faction for m in everyone]  # 0.03 points is below the smallest move
    assert [m.faction for m in everyone] == ["D", "E", "B", "A"]


def test_several_battles_between_forecasts_are_all_named() -> None:
    entries = [_battle(7, "A", "B", "A"), _battle(8, "A", "C", "A", moved=["C"])]
    assert reason_for("A", entries) == ("beat B in battle 7, taking 1 region; "
                                        "beat C in battle 8, taking 1 region")
