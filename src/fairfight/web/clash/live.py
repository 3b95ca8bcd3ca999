"""The live stream of a seat: server-sent events that say when the game moved on.

Each event carries only the seat's public progress — the turn, which sides have committed,
how many turns were played — never a unit: a page that hears of a change reloads through
the seat's own pages, which are built from its knowledge view. The stream reads the
database (every process sees every commit), plays a turn whose clock has run out, sends a
heartbeat comment every 15 s, numbers its events by progress so `Last-Event-ID` resumes
without a repeat, and is never compressed or buffered by a proxy.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from fairfight.web.clash.sandbox import clash_service
from fairfight.web.clash.seats import seat_game
from fairfight.web.strict_input import MaybeWholeNumber

__all__ = ["HEARTBEAT_SECONDS", "live_router", "progress_id", "progress_of", "seat_stream"]

live_router = APIRouter()
HEARTBEAT_SECONDS = 15.0
"""A comment line this often keeps proxies from closing a quiet stream."""


def progress_id(game: Any) -> str:
    """The event id of a seat's progress (turns played, commits, side, ended): a page carries
    the one it was built at, so a change that came before its stream connected still
    reloads it."""
    committed = sum(game.committed(side) for side in game.row.humans)
    ended = "end" if game.finished else "on"
    return f"{len(game.turns)}.{committed}.{game.player or '-'}.{ended}"


def progress_of(request: Request, game_id: str) -> tuple[str, str]:
    """(event id, JSON data) of the seat's progress: turn, commits, turns played."""
    game = seat_game(request, game_id)
    committed = {side: game.committed(side) for side in game.row.humans}
    data = {"turn": game.world.turn, "committed": committed,
            "turns_played": len(game.turns), "side": game.player,
            "finished": game.finished,
            "result": game.end.to_json() if game.end is not None else None}
    return progress_id(game), json.dumps(data, sort_keys=True)


@live_router.get("/api/clash/play/{game_id}/stream", tags=["clash play"])
async def seat_stream(request: Request, game_id: str, limit: MaybeWholeNumber = None,
                      ) -> StreamingResponse:
    """Server-sent `progress` events whenever the game moves on (`limit`: close after that
    many events, for scripts and tests)."""
    first = await run_in_threadpool(progress_of, request, game_id)   # 404 without a seat
    resumed = request.headers.get("last-event-id")
    service = clash_service(request)
    poll = service.stream_poll_seconds

    async def events() -> AsyncIterator[str]:
        last, sent, quiet = resumed, 0, 0.0
        current = first
        while limit is None or sent < limit:
            if current[0] != last:
                yield f"id: {current[0]}\nevent: progress\ndata: {current[1]}\n\n"
                last, sent, quiet = current[0], sent + 1, 0.0
            elif quiet >= HEARTBEAT_SECONDS:
                yield ": heartbeat\n\n"
                quiet = 0.0
            if (limit is not None and sent >= limit or service.stopping.is_set()
                    or await request.is_disconnected()):
                return
            await asyncio.sleep(poll)
            quiet += poll
            current = await run_in_threadpool(progress_of, request, game_id)

    return StreamingResponse(events(), media_type="text/event-stream", headers={
        "cache-control": "no-cache", "x-accel-buffering": "no"})
