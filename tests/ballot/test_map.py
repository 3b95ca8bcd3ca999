"""Engine-derived figures of section 12, each recomputed here from the Appendix A table."""

from __future__ import annotations

import math

from fairfight.ballot.geo import game_map, opening_party
from fairfight.ballot.legislature import thresholds
from fairfight.ballot.tables import Office, Party
from tests.ballot.appendix_a import rows

STATES = rows()


def test_shipped_map_data_matches_the_appendix() -> None:
    gmap = game_map()
    assert [s.code for s in gmap.states] == [r["code"] for r in STATES]
    for state, row in zip(gmap.states, STATES, strict=True):
        assert state.house == row["house"]
        assert state.electoral_votes == row["ev"]
        assert state.baseline == row["base"]
        assert list(state.senate_classes) == row["senate"]
        assert state.governor_cycle == row["gov"]
        assert state.tags == row["tags"]


def test_baseline_formula_reproduces_the_appendix_column() -> None:
    for row in STATES:
        margin = abs(row["margin"])  # type: ignore[arg-type]
        base = 0 if margin < 5 else min(3, math.floor((margin + 5) / 10))
        assert (base if row["margin"] > 0 else -base) == row["base"], row["code"]  # type: ignore[operator]


def test_electoral_votes_535_and_268_to_win() -> None:
    total = sum(r["house"] + 2 for r in STATES)  # type: ignore[operator]
    assert sum(r["house"] for r in STATES) == 435  # type: ignore[misc]
    assert total == 535
    assert game_map().total_electoral_votes() == total
    assert game_map().electoral_majority() == 268 == total // 2 + 1


def test_senate_classes_33_33_34() -> None:
    counts = {"I": 0, "II": 0, "III": 0}
    for row in STATES:
        for name in row["senate"]:  # type: ignore[attr-defined]
            counts[name] += 1
    assert counts == {"I": 33, "II": 33, "III": 34}


def races_by_hand(year: int) -> int:
    """Races in a year from the calendar of 2.2, counted from the appendix."""
    offsets = {"I": 0, "II": 2, "III": 4}
    count = 1 if year % 4 == 0 else 0
    for row in STATES:
        count += sum(1 for c in row["senate"] if (year - 2024) % 6 == offsets[c])  # type: ignore[attr-defined]
        count += row["house"] if year % 2 == 0 else 0  # type: ignore[operator]
        cycle = {"P": {0}, "M": {2}, "PM": {0, 2}, "O1": {1}, "O3": {3}}[row["gov"]]  # type: ignore[index]
        count += 1 if year % 4 in cycle else 0
    return count


def test_races_per_year_481_2_504_3() -> None:
    expected = [races_by_hand(y) for y in range(2028, 2032)]
    assert expected == [481, 2, 504, 3]
    assert [len(game_map().races_in(y)) for y in range(2028, 2032)] == expected
    for year in range(2028, 2044):
        assert len(game_map().races_in(year)) == races_by_hand(year)


def test_opening_board_228_207_46_54_25_25() -> None:
    counts = {office: {Party.D: 0, Party.R: 0} for office in Office}
    for info in game_map().seats[1:]:
        counts[info.office][opening_party(info)] += 1
    house_d = sum(r["house_d"] for r in STATES)  # type: ignore[misc]
    senate_d = sum(r["senate_d"] for r in STATES)  # type: ignore[misc]
    governors_d = sum(1 for r in STATES if r["gov_party"] == "D")
    assert (house_d, 435 - house_d, senate_d, 100 - senate_d) == (228, 207, 46, 54)
    assert governors_d == 25
    assert counts[Office.HOUSE] == {Party.D: house_d, Party.R: 435 - house_d}
    assert counts[Office.SENATE] == {Party.D: senate_d, Party.R: 100 - senate_d}
    assert counts[Office.GOVERNOR] == {Party.D: 25, Party.R: 25}


def test_opening_board_per_state_matches_the_appendix() -> None:
    gmap = game_map()
    for state, row in zip(gmap.states, STATES, strict=True):
        seats = [gmap.seats[i] for i in gmap.state_seats[state.index]]
        house_d = sum(1 for s in seats if s.office is Office.HOUSE and opening_party(s) is Party.D)
        senate_d = sum(
            1 for s in seats if s.office is Office.SENATE and opening_party(s) is Party.D
        )
        governor = next(opening_party(s) for s in seats if s.office is Office.GOVERNOR)
        assert (house_d, senate_d, governor.value) == (
            row["house_d"],
            row["senate_d"],
            row["gov_party"],
        ), row["code"]


def test_vote_thresholds_by_hand() -> None:
    limits = thresholds()
    assert limits.house_pass == 435 // 2 + 1 == 218
    assert limits.senate_pass == 60  # 60% of 100
    assert limits.house_override == 290  # 2/3 of 435 = 290 exactly
    assert 3 * 290 == 2 * 435
    assert limits.senate_override == limits.impeach == 67  # 66.67 rounds up
    assert (limits.amend_call, limits.amend_ratify, limits.amend_block) == (34, 38, 13)
    assert 50 - 38 + 1 == 13 and math.ceil(2 * 50 / 3) == 34 and math.ceil(3 * 50 / 4) == 38
