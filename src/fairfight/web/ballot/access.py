"""Who is asking: a seat's token (from its invite link, then a cookie) or the host's token.

A token travels in the invite link once; the join page stores it in an HttpOnly, SameSite=Lax
cookie scoped to the table and redirects to a URL without it. Programs send it in the
`X-Seat-Token` (or `X-Host-Token`) header instead. Only SHA-256 digests are stored; every check
goes through `BallotStore.is_seat` / `is_host`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.responses import Response

from fairfight.ballot.store import BallotStore, TableRow
from fairfight.core.errors import InputError
from fairfight.core.validation import is_plain_digits
from fairfight.web.ballot.seat_views import SeatViews

__all__ = [
    "COOKIE_DAYS",
    "COOKIE_PREFIX",
    "HOST_HEADER",
    "SEAT_HEADER",
    "Store",
    "client_address",
    "host_cookie",
    "is_host",
    "keep_token",
    "must_table",
    "require_seat",
    "seat_cookie",
    "seats_in_cookies",
    "store_of",
    "views_of",
]

COOKIE_PREFIX = "ballot_"
SEAT_HEADER = "x-seat-token"
HOST_HEADER = "x-host-token"
COOKIE_DAYS = 60


def store_of(request: Request) -> BallotStore:
    """The tables store of the app serving this request (a dependency)."""
    store: BallotStore = request.app.state.ballot_store
    return store


Store = Annotated[BallotStore, Depends(store_of)]


def views_of(request: Request) -> SeatViews:
    """The seat pages kept by the app serving this request (`seat_views`)."""
    views: SeatViews = request.app.state.ballot_views
    return views


def seat_cookie(table_id: str, seat: int) -> str:
    """The cookie that keeps a seat's token."""
    return f"{COOKIE_PREFIX}{table_id}_{seat}"


def host_cookie(table_id: str) -> str:
    """The cookie that keeps a table's host token."""
    return f"{COOKIE_PREFIX}{table_id}_host"


def keep_token(request: Request, response: Response, name: str, token: str) -> None:
    """Set a token cookie: HttpOnly, SameSite=Lax, Secure when served over https."""
    response.set_cookie(
        name,
        token,
        max_age=COOKIE_DAYS * 86400,
        path="/",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )


def client_address(request: Request) -> str:
    """The address the request came from (what the open-tables cap counts)."""
    return request.client.host if request.client else "unknown"


def must_table(store: BallotStore, table_id: str) -> TableRow:
    """The table, or a 422 naming `table`."""
    table = store.load(table_id)
    if table is None:
        raise InputError("table", "no such table")
    return table


def require_seat(request: Request, store: BallotStore, table_id: str, seat: int) -> None:
    """Refuse (403) unless the request carries this seat's token."""
    token = request.headers.get(SEAT_HEADER) or request.cookies.get(seat_cookie(table_id, seat))
    if not store.is_seat(table_id, seat, token):
        from fastapi import HTTPException

        raise HTTPException(403, "this seat's link (or its cookie) is needed")


def is_host(request: Request, store: BallotStore, table_id: str) -> bool:
    """True when the request carries the table's host token."""
    token = request.headers.get(HOST_HEADER) or request.cookies.get(host_cookie(table_id))
    return store.is_host(table_id, token)


def seats_in_cookies(request: Request, store: BallotStore) -> list[tuple[str, int]]:
    """(table, seat) of every seat cookie this browser holds whose token still checks out."""
    found = []
    for name, token in request.cookies.items():
        if not name.startswith(COOKIE_PREFIX):
            continue
        table_id, _, seat = name.removeprefix(COOKIE_PREFIX).rpartition("_")
        if (is_plain_digits(seat) and table_id.isalnum()
                and store.is_seat(table_id, int(seat), token)):
            found.append((table_id, int(seat)))
    return sorted(found)[:50]
