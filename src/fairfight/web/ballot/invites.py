"""The host's invite page and the rematch: pages a reload never repeats.

Creating a table answers with a redirect to `/ballot/tables/{id}/invites` (POST, redirect,
GET), which shows the links again to whoever holds the host's cookie; a rematch makes a new
table like an ended one and lands on its invite page the same way.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from fairfight.ballot.store import TableStatus
from fairfight.core.errors import InputError
from fairfight.web.ballot.access import (
    HOST_HEADER,
    Store,
    client_address,
    host_cookie,
    is_host,
    keep_token,
    must_table,
    seat_cookie,
    seats_in_cookies,
)
from fairfight.web.ballot.service import (
    TableCreated,
    create_table,
    invite_links,
    rematch_spec,
)
from fairfight.web.templating import templates

__all__ = ["invites", "keep_created", "rematch", "router"]

router = APIRouter()


def keep_created(request: Request, response: Response, created: TableCreated) -> None:
    """The host's cookie, and the creator's own seat's, on the response that follows creation."""
    keep_token(request, response, host_cookie(created.id), created.host_token)
    for link in created.seats:
        if link.seat == created.my_seat:
            keep_token(request, response, seat_cookie(created.id, link.seat), link.token)


def _host_token(request: Request, table_id: str) -> str:
    """This table's host token: its cookie first (an API client's header may be another
    table's, such as the one a rematch came from)."""
    return request.cookies.get(host_cookie(table_id)) or request.headers.get(HOST_HEADER) or ""


def _my_seat(request: Request, store: Any, table_id: str) -> int | None:
    mine = [seat for table, seat in seats_in_cookies(request, store) if table == table_id]
    return mine[0] if mine else None


@router.get("/ballot/tables/{table_id}/invites", response_class=HTMLResponse,
            include_in_schema=False)
def invites(request: Request, table_id: str, store: Store) -> HTMLResponse:
    """The invite links, for the host's browser only (a reload shows them again)."""
    must_table(store, table_id)
    created = invite_links(store, table_id, _host_token(request, table_id),
                           str(request.base_url), _my_seat(request, store, table_id))
    if created is None:
        raise HTTPException(403, "only the table's host (its cookie) sees the invite links")
    return templates.TemplateResponse(request, "ballot/created.html", {"created": created})


@router.post("/ballot/tables/{table_id}/rematch", include_in_schema=False)
def rematch(request: Request, table_id: str, store: Store) -> Response:
    """A new table with the same seats and settings, new invite links, for the host."""
    table = must_table(store, table_id)
    if not is_host(request, store, table_id):
        raise InputError("host", "only the table's host may start a rematch")
    if table.status != TableStatus.OVER:
        raise InputError("table", "a rematch can start once the game is over", table.status)
    spec = rematch_spec(table, _my_seat(request, store, table_id))
    created = create_table(store, spec, client_address(request), str(request.base_url))
    response = RedirectResponse(f"/ballot/tables/{created.id}/invites", status_code=303)
    keep_created(request, response, created)
    return response
