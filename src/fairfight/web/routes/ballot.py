"""Ballot in the browser: start a game against bots, play your seat by forms, download the
record and watch it replayed. Games live in the service's database; a reload resumes."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from pydantic import BaseModel

from fairfight.ballot.bots import BOT_NAMES
from fairfight.ballot.record import verify_record
from fairfight.ballot.rules import VictoryMode, named_config
from fairfight.ballot.session import Session
from fairfight.ballot.state import decision_from_data
from fairfight.ballot.store import BallotStore
from fairfight.core.draws import new_seed
from fairfight.core.errors import InputError
from fairfight.core.records import canonical_json
from fairfight.web.ballot_pages import (
    DECLARATION_ROWS,
    GamePage,
    checked,
    decision_from_form,
    describe,
    game_page,
)
from fairfight.web.lifecycle import on_shutdown
from fairfight.web.templating import templates

__all__ = [
    "MAX_YEARS",
    "NAV",
    "SEATS",
    "StartPage",
    "Store",
    "decide",
    "decide_api",
    "game",
    "game_api",
    "install",
    "record",
    "replay",
    "router",
    "start_api",
    "start_game",
    "start_page",
    "store_of",
]

router = APIRouter()
NAV = (40, "Ballot", "/ballot")
SEATS = 4
MAX_YEARS = 16


def install(app: FastAPI) -> None:
    """One games store per app, on the service's database."""
    app.state.ballot_store = store = BallotStore(app.state.settings.database_url)
    on_shutdown(app, store.engine.dispose)


def store_of(request: Request) -> BallotStore:
    """The games store of the app serving this request (a dependency)."""
    store: BallotStore = request.app.state.ballot_store
    return store


Store = Annotated[BallotStore, Depends(store_of)]


class StartPage(BaseModel):
    """The start form's choices and the stored games."""

    modes: list[str]
    bots: list[str]
    seats: int
    max_years: int
    games: list[dict[str, Any]]


def _load(store: BallotStore, game_id: str) -> Session:
    session = store.load(game_id) if game_id.isalnum() and len(game_id) <= 32 else None
    if session is None:
        raise InputError("game", "no such game")
    return session


@router.get("/ballot", response_class=HTMLResponse, include_in_schema=False)
def start_page(request: Request, store: Store) -> HTMLResponse:
    """Start a game: the mode, your seat, the bots at the other seats."""
    page = _start_model(store)
    return templates.TemplateResponse(request, "ballot/start.html", {"page": page})


@router.get("/api/ballot", tags=["ballot"])
def start_api(store: Store) -> StartPage:
    """The start page's choices and the stored games."""
    return _start_model(store)


def _start_model(store: BallotStore) -> StartPage:
    return StartPage(
        modes=[mode.value for mode in VictoryMode],
        bots=list(BOT_NAMES),
        seats=SEATS,
        max_years=MAX_YEARS,
        games=[
            {"id": g.id, "seats": list(g.seats), "year": g.year, "over": g.over, "mode": g.victory}
            for g in store.games()
        ],
    )


@router.post("/ballot/games", include_in_schema=False)
async def start_game(request: Request, store: Store) -> Response:
    """Create the game and go to it (the bots play until you are asked)."""
    form = await request.form()
    victory = str(form.get("victory", VictoryMode.AMENDMENT.value))
    if victory not in {mode.value for mode in VictoryMode}:
        raise InputError("victory", "choose one of the victory modes")
    seat_text = str(form.get("seat", "0"))
    if not seat_text.isdigit() or not 0 <= int(seat_text) < SEATS:
        raise InputError("seat", f"choose a seat from 0 to {SEATS - 1}")
    seat = int(seat_text)
    names = []
    for other in range(SEATS):
        bot = str(form.get(f"bot_{other}", "pollster"))
        if other != seat and bot not in BOT_NAMES:
            raise InputError(f"bot_{other}", f"choose one of {', '.join(BOT_NAMES)}")
        names.append("human" if other == seat else bot)
    years_text = str(form.get("years", str(MAX_YEARS)))
    if not years_text.isdigit() or not 1 <= int(years_text) <= MAX_YEARS:
        raise InputError("years", f"a whole number of years from 1 to {MAX_YEARS}")
    config = named_config("as-written-plus", victory).model_copy(
        update={"year_cap": int(years_text)}
    )
    game_id = store.create(config, new_seed(), names, seat)
    return RedirectResponse(f"/ballot/games/{game_id}", status_code=303)


@router.get("/ballot/games/{game_id}", response_class=HTMLResponse, include_in_schema=False)
def game(request: Request, game_id: str, store: Store) -> HTMLResponse:
    """The board, your hand, the races with exact odds, the form for what you are asked."""
    page = game_page(game_id, _load(store, game_id))
    return templates.TemplateResponse(
        request, "ballot/game.html", {"page": page, "rows": range(DECLARATION_ROWS)}
    )


@router.get("/api/ballot/games/{game_id}", tags=["ballot"])
def game_api(game_id: str, store: Store) -> GamePage:
    """The game page's content as JSON."""
    return game_page(game_id, _load(store, game_id))


@router.post("/ballot/games/{game_id}/decide", include_in_schema=False)
async def decide(request: Request, game_id: str, store: Store) -> Response:
    """Check the form on the server; show it back for confirmation; on confirm, play it."""
    session = _load(store, game_id)
    if not session.waiting_for_human():
        raise InputError("game", "nothing is asked of you now")
    form = await request.form()
    data: dict[str, Any] = {key: form.get(key) for key in form}
    for many in ("withdraw", "discard"):
        data[many] = form.getlist(many)
    decision = decision_from_form(session.state, session.human, data)
    checked(session.state, session.human, decision)
    if form.get("confirm") != "1":
        hidden = [(key, str(value)) for key, value in form.multi_items() if key != "confirm"]
        return templates.TemplateResponse(
            request,
            "ballot/confirm.html",
            {"id": game_id, "lines": describe(session.state, decision), "hidden": hidden},
        )
    session.answer(decision)
    store.save(game_id, session)
    return RedirectResponse(f"/ballot/games/{game_id}", status_code=303)


@router.post("/api/ballot/games/{game_id}/decide", tags=["ballot"])
async def decide_api(request: Request, game_id: str, store: Store) -> GamePage:
    """Play your decision, written as in a record (`{"type": "DraftPick", "card": 12}`)."""
    session = _load(store, game_id)
    if not session.waiting_for_human():
        raise InputError("game", "nothing is asked of you now")
    try:
        decision = decision_from_data(await request.json())
    except ValueError as error:
        field, _, rule = str(error).partition(": ")
        raise InputError(field, rule or "not a decision") from None
    checked(session.state, session.human, decision)
    session.answer(decision)
    store.save(game_id, session)
    return game_page(game_id, session)


@router.get("/ballot/games/{game_id}/record.jsonl", tags=["ballot"])
def record(game_id: str, store: Store) -> PlainTextResponse:
    """The finished game's record (JSON Lines, key revealed on the last line)."""
    session = _load(store, game_id)
    if not session.state.ended:
        raise InputError("game", "the record is available once the game is over")
    body = b"".join(canonical_json(line) + b"\n" for line in session.record())
    return PlainTextResponse(
        body.decode("utf-8"),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": f'attachment; filename="ballot-{game_id}.jsonl"'},
    )


@router.get("/ballot/games/{game_id}/replay", response_class=HTMLResponse, include_in_schema=False)
def replay(request: Request, game_id: str, store: Store) -> HTMLResponse:
    """The finished game re-run from its record, event by event, with the verdict."""
    session = _load(store, game_id)
    if not session.state.ended:
        raise InputError("game", "the replay is available once the game is over")
    from fairfight.ballot.narration import narrate

    lines = session.record()
    state = verify_record(lines)
    years: dict[int, list[str]] = {}
    for event in lines[1:-1]:
        for text in narrate(event, session.human):
            years.setdefault(int(event.get("year", state.config.start_year)), []).append(text)
    return templates.TemplateResponse(
        request,
        "ballot/replay.html",
        {"id": game_id, "state": state, "years": years, "lines": len(lines), "key": session.key},
    )
