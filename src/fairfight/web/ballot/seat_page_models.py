"""The ballot game page as pydantic models: the page's template and its JSON twin read one model.

Kept apart from `ballot_pages`, which formats a viewer's `SeatView` into a page: these are the
shapes a client sees (the JSON body, the OpenAPI schema), and they hold no rule. The parts of
a seat's view (cards, chances, the board, the log) are the ruleset's own models from
`fairfight.ballot.seat_view`, re-exported here; the page adds the table's names for the seats.
"""

from __future__ import annotations

from pydantic import BaseModel

from fairfight.ballot.seat_view import (
    CardView,
    ChanceView,
    GlossaryView,
    LogLine,
    LuckView,
    ProjectionView,
    StateView,
)
from fairfight.ballot.story import EndingView
from fairfight.web.ballot.seat_choices import DeclarationOption, RaceChoices
from fairfight.web.ballot.seat_map import TileView

__all__ = [
    "CardView",
    "ChanceView",
    "DeclarationOption",
    "GamePage",
    "GlossaryView",
    "LogLine",
    "LuckView",
    "ProjectionView",
    "RaceChoices",
    "SeatView",
    "StateView",
    "TileView",
]


class SeatView(BaseModel):
    """A seat at the table with its current score."""

    seat: int
    name: str
    score: int
    you: bool


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
    luck: list[LuckView] = []
    """Each seat's luck in the races, once the game is over."""
    ending: EndingView | None = None
    """The winner, the scores and why the game ended, in words, once it is over."""
    tiles: list[TileView] = []
    """The board as the tiles of a map of the states (`seat_map`)."""
    choices: list[RaceChoices] = []
    """At the declare step, the races to choose in with every declaration of the viewer's
    (`seat_choices`), the suggestion picked already."""
    advice: str = ""
    """When the viewer is asked: the advice's answer and its reason, in one sentence."""
    advice_optimises: str = ""
    """With `advice`: what the advice optimises, said once on the page."""
    advised: list[ChanceView] = []
    """At the declare step, the advice's declarations for the year (picked before the seat
    chooses)."""
