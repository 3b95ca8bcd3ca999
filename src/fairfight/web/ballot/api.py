"""The JSON API of ballot tables: the same models as the pages, tokens in headers.

A seat's requests carry `X-Seat-Token` (or the seat's cookie); the host's carry
`X-Host-Token`. A move is `{"version": N, "decision": {...}}` with the decision written as in
a record; a stale or repeated one is 409 "this question was already answered".
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel

from fairfight.ballot.state import decision_from_data
from fairfight.ballot.store import StaleAnswer, TableStatus
from fairfight.core.errors import InputError
from fairfight.web.ballot.access import (
    Store,
    client_address,
    is_host,
    must_table,
    require_seat,
    views_of,
)
from fairfight.web.ballot.notify import check_webhook
from fairfight.web.ballot.prepared import pages_after_step
from fairfight.web.ballot.service import (
    LobbyPage,
    ReplayPage,
    TableCreated,
    TableSpec,
    create_table,
    lobby_page,
    race_to_open,
    replay_page,
    view_table,
)
from fairfight.web.ballot.tables import TablePage
from fairfight.web.ballot.work import game_move, game_work
from fairfight.web.errors import error_body
from fairfight.web.strict_input import MAX_PAGE, Digits, Id, MaybeWholeNumber

__all__ = [
    "LobbyPageNumber",
    "Move",
    "Webhook",
    "api_create",
    "api_join",
    "api_leave",
    "api_lobby",
    "api_move",
    "api_replay",
    "api_seat",
    "api_start",
    "api_table",
    "api_webhook",
    "router",
    "stale_response",
]

router = APIRouter(prefix="/api/ballot", tags=["ballot"])


class Move(BaseModel):
    """A move: the state version it answers and the decision, written as in a record."""

    version: int
    decision: dict[str, Any]


class Webhook(BaseModel):
    """A seat's webhook URL (empty to remove it)."""

    url: str = ""


def stale_response() -> JSONResponse:
    """The refusal of a stale or repeated move."""
    error = StaleAnswer()
    return JSONResponse(error_body(error.field, error.rule), status_code=409)


LobbyPageNumber = Annotated[int, Query(le=MAX_PAGE, description="0 for the newest tables"),
                            Digits]
"""The lobby's page number (a negative one reads as 0)."""


@router.get("")
def api_lobby(store: Store, page: LobbyPageNumber = 0) -> LobbyPage:
    """Listed tables, newest first, `page` by page."""
    return lobby_page(store, max(0, page), [])


@router.post("/tables")
def api_create(request: Request, spec: TableSpec, store: Store) -> TableCreated:
    """Create a table; the answer holds the host token and every seat's invite link."""
    return create_table(store, spec, client_address(request), str(request.base_url))


@router.get("/tables/{table_id}")
@game_work
def api_table(request: Request, table_id: str, store: Store) -> TablePage:
    """The public view of a table (what a spectator sees)."""
    return view_table(
        store, table_id, None, is_host(request, store, table_id), views_of(request))


@router.post("/tables/{table_id}/start")
@game_move
def api_start(request: Request, table_id: str, store: Store) -> TablePage:
    """The host starts the game, giving seats nobody took to bots."""
    if not is_host(request, store, table_id):
        raise InputError("host", "only the table's host may start it")
    store.start(table_id, fill_with_bots=True)
    return view_table(store, table_id, None, True, views_of(request))


@router.post("/tables/{table_id}/seats/{seat}/join")
@game_move
def api_join(request: Request, table_id: str, seat: Id, store: Store) -> TablePage:
    """Take a seat with its token (the game starts once every seat is taken)."""
    require_seat(request, store, table_id, seat)
    store.join(table_id, seat)
    return view_table(store, table_id, seat, False, views_of(request))


@router.get("/tables/{table_id}/seats/{seat}")
@game_work
def api_seat(
    request: Request, table_id: str, seat: Id, store: Store,
    opened: Annotated[str, Query(alias="open", max_length=40,
                                 description="a race to list every declaration in")] = "",
) -> TablePage:
    """The table as this seat sees it: its own hand, pack and choices, no one else's (at the
    declare step, the race `open` with every declaration in it)."""
    require_seat(request, store, table_id, seat)
    return view_table(
        store, table_id, seat, is_host(request, store, table_id), views_of(request),
        race_to_open(opened))


@router.post("/tables/{table_id}/seats/{seat}/move", response_model=TablePage)
@game_move
def api_move(request: Request, table_id: str, seat: Id, move: Move, store: Store) -> Response:
    """Answer the open question; 409 when it was already answered."""
    require_seat(request, store, table_id, seat)  # refuses a table that does not exist
    try:
        decision = decision_from_data(move.decision)
    except ValueError as error:
        field, _, rule = str(error).partition(": ")
        raise InputError(field, rule or "not a decision", move.decision) from None
    try:
        table = store.answer(table_id, seat, move.version, decision)
    except StaleAnswer:
        return stale_response()
    page = view_table(store, table_id, seat, False, views_of(request), read=table)
    return JSONResponse(page.model_dump(mode="json"), background=pages_after_step(
        request, store, table_id, move.version, table.version))


@router.post("/tables/{table_id}/seats/{seat}/leave")
@game_move
def api_leave(request: Request, table_id: str, seat: Id, store: Store) -> TablePage:
    """Leave the table: the stand-in bot plays the seat to the end."""
    require_seat(request, store, table_id, seat)
    if must_table(store, table_id).status != TableStatus.PLAYING:
        raise InputError("table", "the game is not being played now")
    store.leave(table_id, seat)
    return view_table(store, table_id, seat, False, views_of(request))


@router.get("/tables/{table_id}/replay")
@game_work
def api_replay(table_id: str, store: Store, step: MaybeWholeNumber = None) -> ReplayPage:
    """The finished game after step `step` (the replay page's JSON twin)."""
    return replay_page(must_table(store, table_id), step)


@router.post("/tables/{table_id}/seats/{seat}/webhook")
def api_webhook(
    request: Request, table_id: str, seat: Id, hook: Webhook, store: Store
) -> dict[str, str]:
    """Set the seat's "your turn" webhook (http or https only; see the SSRF stance)."""
    require_seat(request, store, table_id, seat)
    settings = request.app.state.settings
    allow = bool(settings.ballot_webhooks_to_private)
    url = check_webhook(hook.url, allow, settings.webhook_ranges()) if hook.url.strip() else None
    store.set_webhook(table_id, seat, url)
    return {"webhook": url or ""}
