"""A finished game told in words: why it ended, who won, and each step's answers as sentences.

The replay and the final screen show these instead of codes (`year-cap`) or stored decisions
(`{'type': 'Discards', ...}`). Every wording lives here, one per end reason and one per
decision type, so the web pages and any other reader say the same thing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from fairfight.ballot.deck import build_cards
from fairfight.ballot.geo import PRESIDENCY_ID
from fairfight.ballot.state import (
    NO_CARD,
    AmendmentDraft,
    AmendmentVote,
    BillDraft,
    Decision,
    Declarations,
    Discards,
    DraftPick,
    Phase,
    Withdrawals,
    YesNo,
    decision_from_data,
)

__all__ = [
    "END_REASONS",
    "EndingView",
    "STATE_NAMES",
    "decision_sentence",
    "end_sentence",
    "ending",
    "race_words",
    "step_sentences",
]

END_REASONS: dict[str, str] = {
    "year-cap": "The last year of the game was played: the game ended on the calendar, and "
    "the highest score wins.",
    "ratification": "An amendment was ratified, which ends the game at the end of that year; "
    "the highest score wins.",
    "bills": "A player authored the target number of enacted omnibills.",
    "two-terms": "A player won two presidential elections in a row.",
    "three-terms": "A player won a third presidential election.",
    "bills-and-terms": "In the same year one player reached the bill target and another won "
    "the terms that end the game; the higher score among them wins.",
}
"""Each end reason the engine records (`GameState.end_reason`), as a sentence."""

_STATES = (
    "AL Alabama; AK Alaska; AZ Arizona; AR Arkansas; CA California; CO Colorado; "
    "CT Connecticut; DE Delaware; FL Florida; GA Georgia; HI Hawaii; ID Idaho; IL Illinois; "
    "IN Indiana; IA Iowa; KS Kansas; KY Kentucky; LA Louisiana; ME Maine; MD Maryland; "
    "MA Massachusetts; MI Michigan; MN Minnesota; MS Mississippi; MO Missouri; MT Montana; "
    "NE Nebraska; NV Nevada; NH New Hampshire; NJ New Jersey; NM New Mexico; NY New York; "
    "NC North Carolina; ND North Dakota; OH Ohio; OK Oklahoma; OR Oregon; PA Pennsylvania; "
    "RI Rhode Island; SC South Carolina; SD South Dakota; TN Tennessee; TX Texas; UT Utah; "
    "VT Vermont; VA Virginia; WA Washington; WV West Virginia; WI Wisconsin; WY Wyoming"
)
STATE_NAMES: dict[str, str] = dict(item.split(" ", 1) for item in _STATES.split("; "))
"""Each state code's name (the map data holds codes only)."""

_YES_NO: dict[Phase, tuple[str, str]] = {
    Phase.BILL_VOTE: ("voted yes on the omnibill", "voted no on the omnibill"),
    Phase.VETO: ("signed the omnibill", "vetoed the omnibill"),
    Phase.OVERRIDE_VOTE: ("voted to override the veto", "voted to sustain the veto"),
    Phase.IMPEACH_MOTION: ("moved to impeach the president", "did not move impeachment"),
    Phase.IMPEACH_VOTE: ("voted to remove the president", "voted to keep the president"),
}
"""How a yes or a no reads in each phase that asks one."""


class EndingView(BaseModel):
    """The final screen: who won (or who tied), every seat's score and why the game ended."""

    headline: str
    """`Seat 2 wins with 31 points.` or `Seats 0 and 2 share the win with 28 points each.`"""
    reason: str
    """The end reason as a sentence (`END_REASONS`)."""
    winners: list[int]
    scores: list[int]


def end_sentence(reason: str) -> str:
    """The end reason in words; an unknown code is named rather than hidden."""
    return END_REASONS.get(reason, f"The game ended ({reason}).")


def ending(winners: Sequence[int], scores: Sequence[int], reason: str) -> EndingView:
    """The final screen's words for a game that is over. A win decided by the tie-break (a
    loser with the winner's score) or shared by seats of different scores says so."""
    if len(winners) == 1:
        best = scores[winners[0]]
        headline = f"Seat {winners[0]} wins with {_points(best)}."
        level = [s for s, score in enumerate(scores) if score == best and s != winners[0]]
        if level:
            headline += (f" {_seats(level)} had as many points; the tie-break (more Senate "
                         "seats, then more bills held) decided.")
    elif winners:
        shared = {scores[w] for w in winners}
        if len(shared) == 1:
            headline = f"{_seats(winners)} share the win with {_points(shared.pop())} each."
        else:
            each = ", ".join(f"seat {w} {_points(scores[w])}" for w in winners)
            headline = f"{_seats(winners)} share the win ({each})."
    else:
        headline = "Nobody wins."
    return EndingView(headline=headline, reason=end_sentence(reason), winners=list(winners),
                      scores=list(scores))


def _seats(seats: Sequence[int]) -> str:
    if len(seats) == 1:
        return f"Seat {seats[0]}"
    return "Seats " + ", ".join(str(s) for s in seats[:-1]) + f" and {seats[-1]}"


def _points(count: int) -> str:
    return f"{count} point" if count == 1 else f"{count} points"


def race_words(race_id: str) -> str:
    """`the presidential race`, `the Ohio Senate race (class I)`, `the Ohio House race
    (district 3)`, `the Ohio governor's race`."""
    if race_id == PRESIDENCY_ID:
        return "the presidential race"
    office, code, *rest = race_id.split("-")
    name = STATE_NAMES.get(code, code)
    if office == "S":
        return f"the {name} Senate race (class {rest[0]})"
    if office == "H":
        return f"the {name} House race (district {rest[0]})"
    return f"the {name} governor's race"


def decision_sentence(seat: int, decision: Decision, phase: Phase, key: str) -> str:
    """One seat's answer at one step, as a sentence (the game is over: cards may be named)."""
    cards = build_cards(key)
    who = f"Seat {seat}"
    if isinstance(decision, DraftPick):
        return f"{who} drafted {cards[decision.card].label()}."
    if isinstance(decision, Declarations):
        if not decision.entries:
            return f"{who} declared no candidate this year."
        parts = []
        for entry in decision.entries:
            district = ("" if entry.district_card == NO_CARD
                        else f" and district card #{entry.district_card}")
            parts.append(f"{race_words(entry.race)} with card #{entry.card}{district} "
                         f"for {entry.party.value}")
        return f"{who} declared " + "; ".join(parts) + "."
    if isinstance(decision, Withdrawals):
        if not decision.races:
            return f"{who} withdrew from no race."
        return f"{who} withdrew from " + "; ".join(map(race_words, decision.races)) + "."
    if isinstance(decision, BillDraft):
        if not decision.tags:
            return f"{who} declined to write a bill."
        rider = "" if decision.rider == NO_CARD else f", repealing bill #{decision.rider}"
        return f"{who} wrote an omnibill on {' and '.join(decision.tags)}{rider}."
    if isinstance(decision, AmendmentDraft):
        if not decision.tags:
            return f"{who} proposed no amendment."
        return f"{who} proposed an amendment on {', '.join(decision.tags)}."
    if isinstance(decision, AmendmentVote):
        return f"{who}'s governors voted {decision.choice.value} the amendment." \
            if decision.choice.value != "abstain" else f"{who}'s governors abstained."
    if isinstance(decision, Discards):
        if not decision.cards:
            return f"{who} discarded nothing."
        return f"{who} discarded " + ", ".join(f"card #{c}" for c in decision.cards) + "."
    assert isinstance(decision, YesNo)
    yes, no = _YES_NO.get(phase, ("answered yes", "answered no"))
    return f"{who} {yes if decision.yes else no}."


def step_sentences(answers: Mapping[str, Any], phase: Phase, key: str) -> list[str]:
    """A stored step (each seat's decision as data) as one sentence a seat, in seat order."""
    return [
        decision_sentence(int(seat), decision_from_data(data), phase, key)
        for seat, data in sorted(answers.items(), key=lambda item: int(item[0]))
    ]
