"""Ballot at a table in the browser: a lobby, tables of people and bots, a seat's page with the
form for what it is asked, live updates, the record and a replay by step. Pages work without
JavaScript (forms post and redirect); the JSON API lives in `fairfight.web.ballot.api`.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import (
    HTMLResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from pydantic import ValidationError
from starlette.datastructures import FormData

from fairfight.ballot.record import verify_record
from fairfight.ballot.rules_page import render_rules
from fairfight.ballot.store import BallotStore, StaleAnswer, TableStatus
from fairfight.core.errors import InputError
from fairfight.core.records import canonical_json
from fairfight.core.validation import is_plain_digits
from fairfight.web.ballot import api, invites
from fairfight.web.ballot.access import (
    Store,
    client_address,
    is_host,
    keep_token,
    must_table,
    require_seat,
    seat_cookie,
    seats_in_cookies,
    views_of,
)
from fairfight.web.ballot.forms import checked, decision_from_form, describe
from fairfight.web.ballot.invites import keep_created
from fairfight.web.ballot.live import table_stream
from fairfight.web.ballot.notify import check_webhook
from fairfight.web.ballot.prepared import pages_after_step
from fairfight.web.ballot.seat_html import ballot_page, seat_html
from fairfight.web.ballot.seat_views import SeatViews
from fairfight.web.ballot.service import (
    TableSpec,
    create_table,
    lobby_page,
    race_to_open,
    replay_page,
    view_table,
    webhook_sender,
)
from fairfight.web.ballot.tables import game_of
from fairfight.web.ballot.work import game_move, game_work, move_in_game_worker
from fairfight.web.lifecycle import on_shutdown
from fairfight.web.settings import sibling_database_url
from fairfight.web.strict_input import Id, MaybeWholeNumber, plain_rule, whole_number

__all__ = [
    "MAX_SEATS",
    "MAX_STREAMS",
    "NAV",
    "ballot_database_url",
    "create",
    "events",
    "install",
    "join",
    "leave",
    "lobby",
    "move",
    "record",
    "replay",
    "router",
    "rules",
    "seat_events",
    "seat_page",
    "spectator_page",
    "start",
    "webhook",
]

router = APIRouter()
router.include_router(api.router)
router.include_router(invites.router)
NAV = (40, "Ballot", "/ballot")
MAX_SEATS = 5
MAX_STREAMS = 500
"""Live streams one process keeps open at once; more are refused with 503 (the page still
works, without live updates)."""


def ballot_database_url(service_url: str) -> str:
    """The tables' database: beside the service's SQLite file in a file of its own (never
    inside a season file), or the same PostgreSQL database (tables of its own)."""
    return sibling_database_url(service_url, "ballot")


def install(app: FastAPI) -> None:
    """One tables store per app, with the webhook sender on the service's settings."""
    settings = app.state.settings
    store = BallotStore(ballot_database_url(settings.database_url))
    store.notify = webhook_sender(
        settings.ballot_webhooks_to_private, settings.public_url or "http://localhost",
        settings.webhook_ranges(),
    )
    app.state.ballot_store = store
    app.state.ballot_views = SeatViews()
    app.state.ballot_streams = 0
    on_shutdown(app, store.close)


@router.get("/ballot", response_class=HTMLResponse, include_in_schema=False)
def lobby(request: Request, store: Store, page: api.LobbyPageNumber = 0) -> HTMLResponse:
    """Create a table; the listed tables, newest first; the seats this browser holds."""
    model = lobby_page(store, max(0, page), seats_in_cookies(request, store))
    return ballot_page(request, "lobby.html", page=model)


@router.get("/ballot/rules", response_class=HTMLResponse, include_in_schema=False)
def rules(request: Request) -> HTMLResponse:
    """The rules, generated from the ruleset's constants."""
    from markdown_it import MarkdownIt

    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(render_rules())
    return ballot_page(request, "rules.html", body=body)


def _spec_from_form(form: Any) -> TableSpec:
    seats = []
    for n in range(MAX_SEATS):
        kind = str(form.get(f"seat_{n}", "none"))
        if kind != "none":
            seats.append(kind)
    mine = str(form.get("my_seat", "none"))
    fields = {
        "victory": str(form.get("victory", "amendment")),
        "years": whole_number("years", str(form.get("years", "16"))),
        "seats": seats,
        "listed": form.get("listed") == "1",
        "clock_bank": whole_number("clock_bank", str(form.get("clock_bank", "0") or "0")),
        "clock_increment": whole_number("clock_increment",
                                        str(form.get("clock_increment", "0") or "0")),
        "my_seat": None if mine in ("", "none") else whole_number("my_seat", mine),
    }
    try:
        return TableSpec.model_validate(fields)
    except ValidationError as error:
        first = error.errors()[0]
        raise InputError(".".join(map(str, first["loc"])), plain_rule(first),
                         first.get("input")) from None


@router.post("/ballot/tables", include_in_schema=False)
async def create(request: Request, store: Store) -> Response:
    """Create the table, then go to its invite page (a reload of that page makes no table)."""
    spec = _spec_from_form(await request.form())
    created = create_table(store, spec, client_address(request), str(request.base_url))
    response = RedirectResponse(f"/ballot/tables/{created.id}/invites", status_code=303)
    keep_created(request, response, created)
    return response


@router.get("/ballot/tables/{table_id}", response_class=HTMLResponse, include_in_schema=False)
@game_work
def spectator_page(request: Request, table_id: str, store: Store) -> HTMLResponse:
    """The public view of the table (and the host's start button while it fills)."""
    page = view_table(
        store, table_id, None, is_host(request, store, table_id), views_of(request))
    return ballot_page(request, "table.html", page=page, form={}, errors={}, notice="")


@router.get("/ballot/tables/{table_id}/join/{seat}", include_in_schema=False)
@game_move
def join(request: Request, table_id: str, seat: Id, store: Store, token: str = "") -> Response:
    """An invite link: keep the token as a cookie, take the seat, go to the seat's page."""
    if not store.is_seat(table_id, seat, token):
        raise InputError("token", "this invite link is not valid")
    store.join(table_id, seat)
    response = RedirectResponse(f"/ballot/tables/{table_id}/seats/{seat}", status_code=303)
    keep_token(request, response, seat_cookie(table_id, seat), token)
    return response


def _seat_response(
    request: Request,
    store: BallotStore,
    table_id: str,
    seat: int,
    form: dict[str, Any] | None = None,
    errors: dict[str, str] | None = None,
    notice: str = "",
    status: int = 200,
    opened: str = "",
) -> HTMLResponse:
    views = views_of(request)
    page = view_table(store, table_id, seat, is_host(request, store, table_id), views, opened)
    if form or errors or notice or status != 200:
        return ballot_page(
            request, "table.html", status, page=page, form=form or {}, errors=errors or {},
            notice=notice,
        )
    return HTMLResponse(seat_html(request, page, views))


@router.get(
    "/ballot/tables/{table_id}/seats/{seat}", response_class=HTMLResponse, include_in_schema=False
)
@game_work
def seat_page(request: Request, table_id: str, seat: Id, store: Store) -> HTMLResponse:
    """The table as this seat sees it, with the form for what it is asked. At the declare
    step the move form can come here as a GET (a race's "every card" button, or the list of
    other races) to open one race with every declaration in it: what was picked so far comes
    along and stays picked."""
    require_seat(request, store, table_id, seat)
    query = request.query_params
    opened = race_to_open(query.get("open") or query.get("another") or "")
    form = {key: value for key, value in query.items() if key not in ("open", "another")}
    return _seat_response(request, store, table_id, seat, form=form if opened else None,
                          opened=opened)


@router.post("/ballot/tables/{table_id}/seats/{seat}/move", include_in_schema=False)
async def move(request: Request, table_id: str, seat: Id, store: Store) -> Response:
    """Check the form; show it back for confirmation; on confirm, answer with its version.
    A refused form comes back filled in, the error beside its field."""
    require_seat(request, store, table_id, seat)
    form = await request.form()
    return await move_in_game_worker(_answer_form, request, table_id, seat, store, form)


def _answer_form(
    request: Request, table_id: str, seat: Id, store: BallotStore, form: FormData
) -> Response:
    """The move form's work (the game rebuilt, the answer played), off the event loop."""
    data: dict[str, Any] = {key: form.get(key) for key in form}
    for many in ("withdraw", "discard"):
        data[many] = form.getlist(many)
    version_text = str(form.get("version", ""))
    table = must_table(store, table_id)
    game = game_of(store, table)
    if not is_plain_digits(version_text):
        return _seat_response(request, store, table_id, seat, form=data, status=422,
                              errors={"version": "must be a whole number written in digits"})
    if game is None or int(version_text) != table.version:
        return _seat_response(request, store, table_id, seat, notice=StaleAnswer().rule,
                              status=409)
    if seat not in game.people_asked() or str(seat) in table.pending:
        return _seat_response(request, store, table_id, seat, notice=StaleAnswer().rule,
                              status=409)
    try:
        decision = decision_from_form(game.state, seat, data)
        checked(game.state, seat, decision, data)
    except InputError as error:
        return _seat_response(request, store, table_id, seat, form=data,
                              errors={error.field: error.rule}, status=422)
    if form.get("confirm") != "1":
        hidden = [(key, str(value)) for key, value in form.multi_items() if key != "confirm"]
        return ballot_page(request, "confirm.html", table=table_id, seat=seat,
                     lines=describe(game.state, decision), hidden=hidden)
    try:
        played = store.answer(table_id, seat, int(version_text), decision)
    except StaleAnswer as error:
        return _seat_response(request, store, table_id, seat, notice=error.rule, status=409)
    return RedirectResponse(f"/ballot/tables/{table_id}/seats/{seat}", status_code=303,
                            background=pages_after_step(request, store, table_id,
                                                        int(version_text), played.version))


@router.post("/ballot/tables/{table_id}/seats/{seat}/leave", include_in_schema=False)
async def leave(request: Request, table_id: str, seat: Id, store: Store) -> Response:
    """Leave, once confirmed: the stand-in bot plays this seat to the end (it is final)."""
    require_seat(request, store, table_id, seat)
    if (await request.form()).get("confirm") != "1":
        return ballot_page(request, "leave.html", table=table_id, seat=seat)
    await move_in_game_worker(store.leave, table_id, seat)
    return RedirectResponse(f"/ballot/tables/{table_id}", status_code=303)


@router.post("/ballot/tables/{table_id}/seats/{seat}/webhook", include_in_schema=False)
async def webhook(request: Request, table_id: str, seat: Id, store: Store) -> Response:
    """Set (or clear) this seat's "your turn" webhook."""
    require_seat(request, store, table_id, seat)
    url = str((await request.form()).get("webhook", "")).strip()
    settings = request.app.state.settings
    allow = bool(settings.ballot_webhooks_to_private)
    try:
        store.set_webhook(table_id, seat, check_webhook(url, allow, settings.webhook_ranges())
                          if url else None)
    except InputError as error:
        return _seat_response(request, store, table_id, seat, form={"webhook": url},
                              errors={error.field: error.rule}, status=422)
    return RedirectResponse(f"/ballot/tables/{table_id}/seats/{seat}", status_code=303)


@router.post("/ballot/tables/{table_id}/start", include_in_schema=False)
@game_move
def start(request: Request, table_id: str, store: Store) -> Response:
    """The host starts the game now; seats nobody took get bots."""
    if not is_host(request, store, table_id):
        raise InputError("host", "only the table's host may start it")
    store.start(table_id, fill_with_bots=True)
    return RedirectResponse(f"/ballot/tables/{table_id}", status_code=303)


def _stream(request: Request, store: BallotStore, table_id: str, seat: int | None) -> Response:
    must_table(store, table_id)
    state = request.app.state
    if state.ballot_streams >= MAX_STREAMS:
        raise HTTPException(503, "too many live streams; reload later", {"Retry-After": "10"})
    last = request.headers.get("last-event-id", "")
    stream = table_stream(store, table_id, seat, int(last) if is_plain_digits(last) else None)

    async def counted() -> AsyncIterator[bytes]:
        state.ballot_streams += 1
        try:
            async for chunk in stream:
                yield chunk
        finally:
            state.ballot_streams -= 1

    return StreamingResponse(
        counted(),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


@router.get("/ballot/tables/{table_id}/events", include_in_schema=False)
def events(request: Request, table_id: str, store: Store) -> Response:
    """Live updates of the public view (server-sent events)."""
    return _stream(request, store, table_id, None)


@router.get("/ballot/tables/{table_id}/seats/{seat}/events", include_in_schema=False)
def seat_events(request: Request, table_id: str, seat: Id, store: Store) -> Response:
    """Live updates for a seat, saying when it is its turn."""
    require_seat(request, store, table_id, seat)
    return _stream(request, store, table_id, seat)


@router.get("/ballot/tables/{table_id}/record.jsonl", tags=["ballot"])
def record(table_id: str, store: Store) -> PlainTextResponse:
    """The finished game's record (JSON Lines, key revealed on the last line)."""
    table = must_table(store, table_id)
    game = game_of(store, table)
    if table.status != TableStatus.OVER or game is None:
        raise InputError("table", "the record is available once the game is over")
    body = b"".join(canonical_json(line) + b"\n" for line in game.record())
    return PlainTextResponse(
        body.decode("utf-8"),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="ballot-{table_id}.jsonl"'},
    )


@router.get("/ballot/tables/{table_id}/replay", response_class=HTMLResponse,
            include_in_schema=False)
@game_work
def replay(
    request: Request, table_id: str, store: Store, step: MaybeWholeNumber = None
) -> Response:
    """The finished game at any step, with the record's verdict and the key's check."""
    table = must_table(store, table_id)
    model = replay_page(table, step)
    game = game_of(store, table)
    assert game is not None
    verify_record(game.record())
    return ballot_page(request, "replay.html", page=model)
