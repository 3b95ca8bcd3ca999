"""What a ballot seat (or a spectator) is shown: its page model, the viewer's `SeatView`
formatted with the table's names for the seats (the JSON twin is the same model).

The ruleset builds the view in one call (`fairfight.ballot.seat_view`): chances,
scores, thresholds, the prompt and the log all come from there, built from what the viewer
may know, so a page holds no other seat's hand, pack or undeclared choice. This module only
joins the view to the page's names; the models are in `ballot_page_models`, re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from fairfight import ballot
from fairfight.ballot.seat_view import NOBODY, RATIFY_WARNING, chance_view, log_lines
from fairfight.web.ballot.seat_choices import declaration_choices, with_race_opened
from fairfight.web.ballot.seat_map import map_tiles
from fairfight.web.ballot.seat_page_models import (
    CardView,
    ChanceView,
    GamePage,
    GlossaryView,
    LogLine,
    ProjectionView,
    SeatView,
    StateView,
)

if TYPE_CHECKING:
    from fairfight.ballot.elections import Event
    from fairfight.ballot.session import Session
    from fairfight.ballot.state import GameState

__all__ = [
    "CardView",
    "ChanceView",
    "GamePage",
    "GlossaryView",
    "LogLine",
    "NOBODY",
    "ProjectionView",
    "RATIFY_WARNING",
    "SeatView",
    "StateView",
    "chance_view",
    "game_page",
    "log_lines",
    "race_opened",
    "view_page",
]

_FROM_VIEW = tuple(
    name for name in GamePage.model_fields if name in ballot.SeatView.model_fields
)
"""The page's fields the viewer's `SeatView` fills as they are (all but the id and the seats)."""


def race_opened(state: GameState, page: GamePage, race: str) -> GamePage:
    """`page` with `race` opened at the declare step (every declaration of the viewer's in it),
    or `page` itself when it asks for no declarations or the race is not up this year."""
    if not page.choices or race not in page.races_up:
        return page
    choices = with_race_opened(state, page.you, page.choices, page.declarable,
                               page.advised or page.suggestions, race)
    return page.model_copy(update={"choices": choices})


def game_page(game_id: str, session: Session) -> GamePage:
    """The page model of a one-person game for its person's seat."""
    return view_page(
        game_id, session.state, session.events, session.names, session.human,
        session.waiting_for_human(),
    )


def view_page(
    game_id: str,
    state: GameState,
    events: Sequence[Event],
    names: Sequence[str],
    you: int,
    asked: bool,
) -> GamePage:
    """The page of one viewer: seat `you` (whose answer is wanted when `asked`), or NOBODY for
    a spectator, who sees the public view only."""
    view = ballot.seat_view(state, events, you, asked)
    shown = {name: getattr(view, name) for name in _FROM_VIEW}
    return GamePage(
        id=game_id,
        seats=[
            SeatView(seat=n, name=name, score=view.scores[n], you=n == you)
            for n, name in enumerate(names)
        ],
        tiles=map_tiles(view.board),
        choices=declaration_choices(state, view)
        if view.asked and view.phase == "declare"
        else [],
        **shown,
    )
