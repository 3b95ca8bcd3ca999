"""A seat page as HTML, kept per exactly what it shows (`SeatViews.html_of`), the request a
page prepared after a move is rendered for, and the one renderer of the ballot templates
(`ballot_page`), which the routes and the prepared pages share.

A seat's HTML is a function of its table page (the viewer's own view, as JSON) and the address
it is read at: the navigation, the share tags and the links come from the address and the app,
never from the reader's cookies. So the page rendered in the background after the move that
opened a step, for the address the person will read (the seat's page on the same host the move
came to), is byte for byte the page that person's read would render, and it is found only by a
read whose own view is the same.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse

from fairfight.web.ballot.seat_views import SeatViews
from fairfight.web.ballot.tables import TablePage
from fairfight.web.templating import templates

__all__ = ["ballot_page", "seat_html", "seat_page_request"]

_ADDRESS_HEADERS = (b"host",)
"""The only headers the page request keeps from the move's: the host is part of the address a
page is rendered for; everything else (cookies, tokens) stays with the mover."""


def ballot_page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    """A ballot template rendered for `request`."""
    return templates.TemplateResponse(request, f"ballot/{name}", context, status_code=status)


def seat_html(request: Request, page: TablePage, views: SeatViews) -> bytes:
    """The seat page for `request`'s address, rendered once per distinct view and address."""
    shown = page.model_dump_json().encode() + b"\0" + str(request.url).encode()
    return views.html_of(shown, lambda: bytes(ballot_page(
        request, "table.html", page=page, form={}, errors={}, notice="").body))


def seat_page_request(move: Request, table_id: str, seat: int) -> Request:
    """A plain read of `seat`'s page at the address the move came to (same scheme, host and
    root path, which an ASGI path includes), carrying none of the mover's headers but the
    host."""
    path = f"{move.scope.get('root_path', '')}/ballot/tables/{table_id}/seats/{seat}"
    headers = [(name, value) for name, value in move.scope["headers"]
               if name in _ADDRESS_HEADERS]
    scope = {
        key: move.scope[key]
        for key in ("type", "http_version", "scheme", "server", "client", "root_path",
                    "app_root_path", "app", "router")
        if key in move.scope
    }
    scope.update(method="GET", path=path, raw_path=path.encode(), query_string=b"",
                 headers=headers, path_params={"table_id": table_id, "seat": seat})
    return Request(scope)
