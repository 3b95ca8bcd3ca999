"""Two humans: hot-seat tables and online seats, pages under /clash/play and JSON under
/api/clash/play.

A seat is opened by its secret token — from the seat link once (`/clash/seat/<game>?token=`),
then from an HttpOnly cookie; API clients may send it as a bearer token. Every answer is
built from the seated side's knowledge view: the server never sends what that side has not
observed. Both sides commit blind; the turn runs when both have (or when the turn clock runs
out). A hot-seat table is one screen: between hand-overs it shows only "hand over to <side>".
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from pydantic import BaseModel, Field, StrictInt
from starlette.exceptions import HTTPException

from fairfight.clash.knowledge import knowledge_view, overlay_data, player_view
from fairfight.clash.orders import UnitId, UnitOrders
from fairfight.clash.panel_model import Reconciliation
from fairfight.clash.scenario import parse_scenario
from fairfight.clash.store import TABLE_SEAT
from fairfight.clash.world import world_from_scenario
from fairfight.web.clash.activation import activation_rows
from fairfight.web.clash.caps import check_scenario_size
from fairfight.web.clash.games import COOKIE, builtin_scenario, sides_of
from fairfight.web.clash.sandbox import clash_service, client_address
from fairfight.web.clash.service import Game
from fairfight.web.ops.pools import pooled
from fairfight.web.strict_input import Id

__all__ = [
    "CancelRequest",
    "CommitRequest",
    "HandOver",
    "NewTable",
    "ResignRequest",
    "SEAT_COOKIE",
    "SeatOrder",
    "SeatState",
    "SeatTurn",
    "TableAnswer",
    "api_cancel",
    "api_commit",
    "api_hand_over",
    "api_new_table",
    "api_resign",
    "api_seat",
    "api_seat_order",
    "api_seat_turn",
    "keep_seat",
    "new_table",
    "open_seat_link",
    "seat_game",
    "seat_link",
    "seat_state",
    "seats_router",
]

seats_router = APIRouter()
SEAT_COOKIE = "fairfight_clash_seat_{game}"
"""The cookie holding a browser's seat token for one game (HttpOnly)."""


class NewTable(BaseModel):
    """A two-human game: a built-in scenario (or scenario data) and how the humans sit."""

    scenario: str = "skirmish"
    scenario_data: dict[str, Any] | None = None
    mode: Literal["online", "hotseat"] = "online"
    clock_seconds: Annotated[StrictInt, Field(ge=10, le=7 * 86400)] | None = None


class TableAnswer(BaseModel):
    """A new table: its id and the seat links (one per side, or the hot-seat table's)."""

    game: str
    mode: str
    seats: dict[str, str]


class SeatOrder(BaseModel):
    """One unit's orders for the turn the game is at."""

    turn: StrictInt
    unit: UnitId
    orders: UnitOrders


class CancelRequest(BaseModel):
    """Withdraw one unit's orders (no unit: every order)."""

    turn: StrictInt
    unit: UnitId | None = None


class CommitRequest(BaseModel):
    """Commit the side's orders for this turn."""

    turn: StrictInt


class ResignRequest(BaseModel):
    """Resign the seated side's game at this turn."""

    turn: StrictInt


class HandOver(BaseModel):
    """Seat a side at a hot-seat table."""

    side: str


class SeatState(BaseModel):
    """The game as the seated side knows it (nothing when a hot-seat screen is handed over)."""

    game: str
    name: str
    mode: str
    side: str
    turn: int
    finished: bool
    committed: dict[str, bool]
    next_side: str | None
    deadline: float | None
    view: dict[str, Any] | None
    overlay: list[dict[str, Any]]
    pending: dict[str, Any]
    activation: list[dict[str, Any]]
    turns_played: list[int]
    result: dict[str, Any] | None
    """When the game is over: winner (None for a draw), reason, words, last turn and the
    summary per side."""


class SeatTurn(BaseModel):
    """A played turn's events as the side saw them, with each clash's reconciliation."""

    turn: int
    events: list[dict[str, Any]]
    """The structured events, as the engine wrote them (those the side saw), a unit the side
    never saw named "unseen"."""
    words: list[str]
    """The same events in words, one sentence each, in the names the side knows."""
    reconciliations: dict[int, Reconciliation]


def _token(request: Request, game_id: str) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    # a game against the AI is a seat too: its sandbox cookie opens the full order page
    return request.cookies.get(SEAT_COOKIE.format(game=game_id)) or request.cookies.get(COOKIE)


def seat_game(request: Request, game_id: str) -> Game:
    """The game as this browser's (or bearer's) seat sees it; 404 without a seat."""
    service = clash_service(request)
    token = _token(request, game_id)
    seat = service.store.seat(token) if token else None
    if seat is None or seat[0] != game_id:
        raise HTTPException(404, "no seat of this game here; open your seat link")
    try:
        return service.open(game_id, seat[1])
    except LookupError:
        raise HTTPException(404, "no such game") from None


def seat_state(request: Request, game: Game) -> SeatState:
    """The side's state; every figure from its knowledge view."""
    service = clash_service(request)
    side = game.player
    seated = bool(side)
    pending = game.pending if seated else {}
    view = knowledge_view(game.world, side) if seated else None
    return SeatState(
        game=game.id, name=game.name, mode=game.row.mode, side=side, turn=game.world.turn,
        finished=game.finished, committed={s: game.committed(s) for s in game.row.humans},
        next_side=game.next_side(), deadline=service.deadline(game),
        view=player_view(game.world, side) if seated else None,
        overlay=overlay_data(game.world, side) if seated else [],
        pending={uid: o.model_dump(mode="json", exclude_none=True)
                 for uid, o in pending.items()},
        activation=[a.to_json() for a in activation_rows(view, side, pending)]
        if view else [],
        turns_played=game.turn_numbers,
        result=game.end.to_json() if game.end is not None else None)


def new_table(request: Request, body: NewTable) -> tuple[str, dict[str, str]]:
    """Store a two-human game; returns its id and the seat tokens."""
    data = body.scenario_data if body.scenario_data is not None else builtin_scenario(
        body.scenario)
    check_scenario_size(data)
    world = world_from_scenario(parse_scenario(data))
    humans, _ = sides_of(world, next(iter(world.sides)), ai=False)
    service = clash_service(request)
    return service.start(name=world.name, scenario=world.to_scenario(), mode=body.mode,
                         humans=humans, ai_players=(), client=client_address(request),
                         clock_seconds=body.clock_seconds or service.turn_clock_seconds)


def seat_link(game_id: str, token: str) -> str:
    """The secret link that opens a seat."""
    return f"/clash/seat/{game_id}?token={token}"


def keep_seat(response: Response, game_id: str, token: str) -> None:
    """The seat token as an HttpOnly cookie of this game."""
    response.set_cookie(SEAT_COOKIE.format(game=game_id), token, httponly=True,
                        samesite="lax", max_age=30 * 86400, path="/")


@seats_router.get("/clash/seat/{game_id}", include_in_schema=False)
def open_seat_link(request: Request, game_id: str, token: str = "") -> Response:
    """A seat link: keep the token as a cookie and go to the game (the link leaves the
    address bar and the history)."""
    seat = clash_service(request).store.seat(token) if token else None
    if seat is None or seat[0] != game_id:
        raise HTTPException(404, "this seat link is not valid")
    response = RedirectResponse(f"/clash/play/{game_id}", status_code=303)
    keep_seat(response, game_id, token)
    response.headers["referrer-policy"] = "no-referrer"
    return response


@seats_router.post("/api/clash/tables", tags=["clash play"])
def api_new_table(request: Request, response: Response, body: NewTable) -> TableAnswer:
    """A two-human game; the answer holds the seat links (share each with its player). A
    hot-seat table is also kept as this client's cookie."""
    game_id, tokens = new_table(request, body)
    if body.mode == "hotseat":
        keep_seat(response, game_id, tokens[TABLE_SEAT])
    return TableAnswer(game=game_id, mode=body.mode,
                       seats={side: seat_link(game_id, token) for side, token in tokens.items()})


@seats_router.get("/api/clash/play/{game_id}", tags=["clash play"])
def api_seat(request: Request, game_id: str) -> SeatState:
    """The game as your seat knows it."""
    return seat_state(request, seat_game(request, game_id))


@seats_router.post("/api/clash/play/{game_id}/orders", tags=["clash play"])
def api_seat_order(request: Request, game_id: str, body: SeatOrder) -> SeatState:
    """Set one of your units' orders for the turn (refused when stale or committed)."""
    game = seat_game(request, game_id)
    clash_service(request).order(game, body.unit, body.orders, body.turn)
    return seat_state(request, game)


@seats_router.post("/api/clash/play/{game_id}/cancel", tags=["clash play"])
def api_cancel(request: Request, game_id: str, body: CancelRequest) -> SeatState:
    """Withdraw a unit's orders, or all of them."""
    game = seat_game(request, game_id)
    clash_service(request).cancel(game, body.unit, body.turn)
    return seat_state(request, game)


@seats_router.post("/api/clash/play/{game_id}/commit", tags=["clash play"])
@pooled("turns")
def api_commit(request: Request, game_id: str, body: CommitRequest) -> SeatState:
    """Commit your orders; the turn runs once every side has."""
    game = seat_game(request, game_id)
    clash_service(request).commit(game, body.turn)
    return seat_state(request, seat_game(request, game_id))


@seats_router.post("/api/clash/play/{game_id}/resign", tags=["clash play"])
def api_resign(request: Request, game_id: str, body: ResignRequest) -> SeatState:
    """Resign: the game ends and every other side wins (refused once the game is over)."""
    game = seat_game(request, game_id)
    clash_service(request).resign(game, body.turn)
    return seat_state(request, seat_game(request, game_id))


@seats_router.post("/api/clash/play/{game_id}/handover", tags=["clash play"])
def api_hand_over(request: Request, game_id: str, body: HandOver) -> SeatState:
    """Seat the next side at a hot-seat table's screen."""
    game = seat_game(request, game_id)
    clash_service(request).hand_over(game, body.side)
    return seat_state(request, seat_game(request, game_id))


@seats_router.get("/api/clash/play/{game_id}/turns/{number}", tags=["clash play"])
def api_seat_turn(request: Request, game_id: str, number: Id) -> SeatTurn:
    """A played turn's events as your side saw them."""
    game = seat_game(request, game_id)
    service = clash_service(request)
    played = service.played(game, number)
    viewer = game.player or None
    return SeatTurn(turn=number, events=service.seen_events(game, played, viewer),
                    reconciliations=played.reconciliations,
                    words=service.words(game, played, viewer))
