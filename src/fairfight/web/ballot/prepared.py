"""Seat pages built off the request path: after a move that played a step has been answered,
the pages of the people the new step asks are built in the tables' pool, so a person's first
read of a presidential year's declare or withdraw page finds it ready (`prepare_seat_page`).
Each is rendered as HTML too, for the seat's own address on the host the move came to
(`seat_html`): the read then only looks its bytes up.

The work is a response's background task: it starts once the move has committed and its
answer has been sent, and it never makes the move wait. Each page is a job of its own in the
pool, so a person whose page is ready reads it between two builds instead of waiting for every
page of the table. A full pool skips the rest (each read then builds its own page, as before);
a read that comes while its page is being built waits for that build (`SeatViews.page`), so no
page is built twice at once.
"""

from __future__ import annotations

from contextlib import suppress

from fastapi import Request
from starlette.background import BackgroundTask

from fairfight.ballot.store import BallotStore
from fairfight.core.errors import VerificationError
from fairfight.web.ballot.access import views_of
from fairfight.web.ballot.seat_html import seat_html, seat_page_request
from fairfight.web.ballot.seat_views import SeatViews
from fairfight.web.ballot.service import pages_to_prepare, prepare_seat_page
from fairfight.web.ballot.work import in_game_worker
from fairfight.web.ops.pools import PoolFull

__all__ = ["pages_after_step"]


def pages_after_step(
    request: Request, store: BallotStore, table_id: str, answered: int, version: int
) -> BackgroundTask | None:
    """The background task preparing the asked seats' pages when the move answering state
    `answered` played a step (the table is now at `version`); None when it did not."""
    if version <= answered:
        return None
    return BackgroundTask(_prepare, store, table_id, views_of(request), request)


async def _prepare(store: BallotStore, table_id: str, views: SeatViews, move: Request) -> None:
    """Build the pages in the tables' pool; a full pool, or a table this engine would play
    otherwise (its reads answer 409 themselves), is left to the reads."""
    with suppress(PoolFull, VerificationError):
        for seat in await in_game_worker(pages_to_prepare, store, table_id):
            await in_game_worker(_prepare_one, store, table_id, seat, views,
                                 seat_page_request(move, table_id, seat))


def _prepare_one(store: BallotStore, table_id: str, seat: int, views: SeatViews,
                 page_request: Request) -> None:
    """One seat's page built and kept, then its HTML for the seat's plain read (not under a
    turn clock: the page shows the time left, so no read would find the HTML rendered now)."""
    page = prepare_seat_page(store, table_id, seat, views)
    if page is not None and all(shown.clock_left is None for shown in page.seats):
        seat_html(page_request, page, views)
