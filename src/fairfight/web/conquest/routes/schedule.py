"""The airing schedule over the JSON API: the public countdown, and the operator's powers
(show, set, pause, resume, skip) beside the other operator actions, token-guarded the same way.

The token is checked from the header before any body is read; a refused schedule is 422 with
the field named (`kind`, `at`, `minutes`, `seconds`, `start`), like every other refusal.
"""

from __future__ import annotations

import json

from fastapi import APIRouter, FastAPI, Request
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from fairfight.web.conquest import operator
from fairfight.web.conquest.airing import CountdownView, ScheduleRequest, ScheduleView
from fairfight.web.conquest.refusals import Refusal
from fairfight.web.conquest.routes.write import BEARER, client_address
from fairfight.web.conquest.service import ConquestService, Service, install_service
from fairfight.web.strict_input import parse_json_body

__all__ = [
    "PublicSchedule",
    "SkipResult",
    "install",
    "operator_schedule",
    "pause_schedule",
    "public_schedule",
    "resume_schedule",
    "router",
    "set_schedule",
    "skip_slot",
]

router = APIRouter(prefix="/api/seasons", tags=["conquest"])


class PublicSchedule(BaseModel):
    """What anyone may know of the schedule: the next episode (None: nothing scheduled)."""

    season: int
    countdown: CountdownView | None


class SkipResult(BaseModel):
    """The slot just passed over, and the schedule after it."""

    skipped: int
    schedule: ScheduleView


def install(app: FastAPI) -> None:
    """Give the app its conquest service (shared by every conquest route module)."""
    install_service(app)


def _authorised(conquest: ConquestService, request: Request) -> None:
    operator.authorise(conquest.brake, conquest.settings.admin_token_sha256,
                       client_address(request),
                       operator.bearer_token(request.headers.get("authorization")))


@router.get("/{season_id:id}/schedule", response_model=PublicSchedule)
def public_schedule(season_id: int, conquest: Service) -> PublicSchedule:
    """The next episode: battle, time (UTC) and the words the pages show."""
    conquest.catalog.require(season_id)
    return PublicSchedule(season=season_id, countdown=conquest.airing.countdown(season_id))


@router.get("/{season_id:id}/operator/schedule", tags=["operator"], responses=BEARER)
async def operator_schedule(season_id: int, conquest: Service, request: Request) -> ScheduleView:
    """The schedule, its state, its lease and the latest slots with their notes."""
    _authorised(conquest, request)
    return await run_in_threadpool(conquest.airing.show, season_id)


@router.put("/{season_id:id}/operator/schedule", tags=["operator"], responses=BEARER,
            openapi_extra={"requestBody": {"required": True, "content": {
                "application/json": {"schema": ScheduleRequest.model_json_schema()}}}})
async def set_schedule(season_id: int, conquest: Service, request: Request) -> ScheduleView:
    """Set the airing schedule: `{"kind": "daily", "at": "18:00"}` or `{"kind": "every",
    "minutes": 5}` (`seconds` for demos), optionally with `start` (ISO 8601)."""
    _authorised(conquest, request)
    raw = await request.body()
    try:
        json.loads(raw) if raw.strip() else {}
    except ValueError:
        raise Refusal(400, "body", "is not JSON") from None
    asked = parse_json_body(ScheduleRequest, raw)
    return await run_in_threadpool(conquest.airing.set, season_id, asked)


@router.post("/{season_id:id}/operator/schedule/pause", tags=["operator"], responses=BEARER)
async def pause_schedule(season_id: int, conquest: Service, request: Request) -> ScheduleView:
    """Pause airing: nothing airs until resumed."""
    _authorised(conquest, request)
    return await run_in_threadpool(conquest.airing.pause, season_id, True)


@router.post("/{season_id:id}/operator/schedule/resume", tags=["operator"], responses=BEARER)
async def resume_schedule(season_id: int, conquest: Service, request: Request) -> ScheduleView:
    """Resume airing from now: the slots that fell while paused are dropped, not aired."""
    _authorised(conquest, request)
    return await run_in_threadpool(conquest.airing.pause, season_id, False)


@router.post("/{season_id:id}/operator/schedule/skip", tags=["operator"], responses=BEARER)
async def skip_slot(season_id: int, conquest: Service, request: Request) -> SkipResult:
    """Pass over the next slot once (recorded as skipped); the one after airs as usual."""
    _authorised(conquest, request)
    slot, view = await run_in_threadpool(conquest.airing.skip, season_id)
    return SkipResult(skipped=slot, schedule=view)
