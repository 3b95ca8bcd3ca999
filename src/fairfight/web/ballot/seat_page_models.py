"""The ballot game page as pydantic models: the page's template and its JSON twin read one model.

Kept apart from `ballot_pages`, which builds a page for one viewer from the game state: these
are the shapes a client sees (the JSON body, the OpenAPI schema), and they hold no rule.
"""

from __future__ import annotations

from pydantic import BaseModel

__all__ = [
    "CardView",
    "ChanceView",
    "GamePage",
    "GlossaryView",
    "LogLine",
    "ProjectionView",
    "SeatView",
    "StateView",
]


class CardView(BaseModel):
    """A card as shown: its id and its face."""

    id: int
    label: str
    candidate: bool


class SeatView(BaseModel):
    """A seat at the table with its current score."""

    seat: int
    name: str
    score: int
    you: bool


class StateView(BaseModel):
    """One state on the board: lean (D positive), partisan term, who holds the governorship."""

    code: str
    lean: int
    partisan: int
    governor: str
    governor_party: str
    senators: str
    tone: str
    """`d`, `r` or `even`: the colour of the lean."""
    holder: str
    """`you`, `player` or `board`: the outline of the governor's holder."""
    tags: list[str]
    """The state's two tags (a bill on a tag pushes the lean of the states that carry it)."""


class LogLine(BaseModel):
    """A line of the log; `others` marks a race between other seats (shown folded)."""

    year: int
    text: str
    others: bool


class ChanceView(BaseModel):
    """A declaration's chance: percent, the exact fraction only when it is an exact count, the
    method (an estimate says so), how it is read, and the rivals it was priced against."""

    race: str
    card: int
    party: str
    percent: str
    exact: bool
    fraction: str
    """The exact fraction, or empty for an estimate (never shown as if exact)."""
    method: str
    how: str
    text: str
    """The chance in words: `87.9% = 82063/93312`, or `about 87.9% (estimate: ...)`."""
    rivals: list[str]
    """At the withdraw step, the other declarations of the race (the field it was priced
    against); empty before the reveal."""


class GlossaryView(BaseModel):
    """One part of a card label and what it means."""

    term: str
    meaning: str


class ProjectionView(BaseModel):
    """The projected yes votes of a bill on one tag pair, House and Senate."""

    tags: list[str]
    house_own: int
    senate_own: int
    house_all: int
    senate_all: int
    passes_with_own: bool


class GamePage(BaseModel):
    """Everything the game page shows, and its JSON twin."""

    id: str
    year: int
    phase: str
    over: bool
    victory: str
    you: int
    seats: list[SeatView]
    hand: list[CardView]
    pack: list[CardView]
    declarable: list[CardView]
    """Cards the viewer may declare this year: candidates in hand and cards on seats it
    holds that come up (re-running a seat)."""
    my_seats: list[str]
    board: list[StateView]
    asked: bool
    prompt: list[str]
    suggestions: list[ChanceView]
    my_declarations: list[ChanceView]
    races_up: list[str]
    tags: list[str]
    bills: list[str]
    glossary: list[GlossaryView]
    """How to read a card label (shown with the declare form)."""
    projections: list[ProjectionView]
    """At the author step, every tag pair's projected yes votes."""
    needed: list[int]
    """The yes votes a bill needs: House, Senate (with `projections`)."""
    warning: str
    """At an amendment vote, `RATIFY_WARNING` when ratifying ends the game while you trail."""
    log: list[LogLine]
    """The whole log, newest first."""
    winners: list[int]
    end_reason: str
