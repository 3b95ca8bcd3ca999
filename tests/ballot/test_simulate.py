"""Metric definitions of `simulate`, checked on a hand-written event stream."""

from __future__ import annotations

from fairfight.ballot.simulate import metrics, summarise
from fairfight.ballot.tables import VictoryMode

EVENTS = [
    {"event": "setup"},
    {
        "event": "presidency",
        "year": 2028,
        "primaries": [{}],
        "electoral_votes": {"D": 300, "R": 235},
        "winner": "D",
        "previous": {"holder": -1, "party": "D"},
    },
    {"event": "race", "year": 2028, "primaries": [{}, {}]},
    {
        "event": "elections",
        "year": 2028,
        "races": {"president": 1, "senate": 34, "house": 435, "governor": 11},
        "contested": {"president": 1, "senate": 10, "house": 9, "governor": 4},
    },
    {"event": "bill-vote"},
    {"event": "enacted", "holder": 1, "author": 0},
    {"event": "impeach-motion"},
    {"event": "impeach-vote", "passed": False},
    {"event": "scoring", "hands": [16, 12]},
    {
        "event": "elections",
        "year": 2029,
        "races": {"president": 0, "senate": 0, "house": 0, "governor": 2},
        "contested": {"president": 0, "senate": 0, "house": 0, "governor": 1},
    },
    {"event": "bill-vote"},
    {"event": "scoring", "hands": [15, 14]},
    {
        "event": "presidency",
        "year": 2032,
        "primaries": [],
        "electoral_votes": {"D": 260, "R": 275},
        "winner": "R",
        "previous": {"holder": 0, "party": "D"},
    },
    {"event": "end", "reason": "year-cap", "winners": [0, 1], "scores": [40, 40]},
]


def test_summary_and_metrics_by_hand() -> None:
    summary = summarise(EVENTS, ["pollster", "machine"])
    assert summary["primaries"] == 3
    assert summary["house_even"] == [9, 435]
    assert summary["presidencies"] == 1 and summary["kept"] == 0  # 2028 is an open seat
    assert summary["ev_margins"] == [65, 15]
    result = metrics([summary], VictoryMode.POINTS)
    assert result["contested_by_year"] == {"2028": 24 / 481, "2029": 1 / 2}
    assert result["contested_all"] == 25 / 483
    assert result["contested_even"] == 24 / 481
    assert result["bill_pass_rate"] == 1 / 2
    assert result["non_author_bills"] == 1
    assert result["impeachments"] == [0, 1]
    assert result["largest_hand"] == 16
    assert result["mean_length"] == 2
    assert result["win_share_by_bot"] == {"machine": 0.5, "pollster": 0.5}
    assert result["win_share_by_seat"] == [0.5, 0.5]
    assert result["mean_ev_margin"] == 40
