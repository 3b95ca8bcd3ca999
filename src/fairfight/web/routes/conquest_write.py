"""Writes over the JSON API: fan contributions, the payment webhook, and operator actions."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Depends, FastAPI, Header, Request, Response
from fastapi.responses import JSONResponse
from starlette.concurrency import run_in_threadpool

from fairfight.core.validation import parse_model
from fairfight.web.conquest import operator
from fairfight.web.conquest.contributions import (
    IDEMPOTENCY_HEADER,
    Requested,
    check_key,
    record_contribution_async,
)
from fairfight.web.conquest.models import (
    AirRequest,
    AirResult,
    BeaconRequest,
    Contribution,
    ContributionRequest,
    RefundOwedView,
    RevealResult,
)
from fairfight.web.conquest.payments import SIGNATURE_HEADER, verified_event
from fairfight.web.conquest.refusals import Refusal
from fairfight.web.conquest.service import ConquestService, install_service, service

__all__ = [
    "air",
    "beacon",
    "contribute",
    "export",
    "install",
    "payment_webhook",
    "reveal_seed",
    "router",
]

router = APIRouter(prefix="/api", tags=["conquest"])
Service = Annotated[ConquestService, Depends(service)]


def install(app: FastAPI) -> None:
    """Give the app its conquest service (shared by every conquest route module)."""
    install_service(app)


@router.post(
    "/seasons/{season_id:int}/contributions",
    status_code=201,
    response_model=Contribution,
    responses={409: {"description": "the same key is still being processed"}},
)
async def contribute(
    season_id: int,
    request: Request,
    conquest: Service,
    body: Annotated[ContributionRequest, Body()],
    idempotency_key: Annotated[str | None, Header(alias=IDEMPOTENCY_HEADER)] = None,
) -> Response:
    """Add to a faction's pool. `Idempotency-Key` is required: the same key and body return
    the original response; the same key with another body is 422; still running, 409."""
    if conquest.payments_only:
        raise Refusal(403, "payments", "contributions are taken through the payment provider; "
                      "this endpoint is closed while a payment secret is configured")
    key = check_key(idempotency_key)
    # `body` is the one parse; the raw bytes (kept by the framework) are only hashed, for
    # the key's binding.
    requested = Requested(key, request.method, request.url.path, await request.body())
    status, payload = await record_contribution_async(
        conquest.writer, conquest.in_flight, season_id, body, requested,
    )
    conquest.live.poke()
    return JSONResponse(payload, status_code=status)


@router.post("/payments/webhook", status_code=201, response_model=Contribution, responses={
    200: {"model": RefundOwedView, "description": "paid, but refused by the pool rules: "
          "recorded once as a refund owed, with the reason (the same answer on redelivery)"}})
async def payment_webhook(
    request: Request,
    conquest: Service,
    signature: Annotated[str | None, Header(alias=SIGNATURE_HEADER, max_length=600)] = None,
) -> Response:
    """A settled payment from the provider, signed with HMAC-SHA256 over timestamp and body;
    the event id makes a redelivered event count once. A payment the pool rules refuse is
    recorded as a refund owed (200, with the reason), also once."""
    secret = conquest.settings.payment_secret
    if not secret:
        raise Refusal(404, "payments", "no payment provider is configured")
    raw = await request.body()
    event = verified_event(secret, signature, raw)
    data = event.data
    asked = parse_model(ContributionRequest, {"faction": data.faction, "amount": data.amount})
    requested = Requested(f"payment:{event.id}", request.method, request.url.path, raw)
    status, payload = await record_contribution_async(
        conquest.writer, conquest.in_flight, data.season, asked, requested, payment=event.id,
    )
    conquest.live.poke()
    return JSONResponse(payload, status_code=status)


def _authorised(conquest: ConquestService, authorization: str | None) -> None:
    operator.check_token(conquest.settings.admin_token_sha256, operator.bearer_token(authorization))


Authorization = Annotated[str | None, Header(max_length=600)]


@router.post("/seasons/{season_id:int}/operator/air", tags=["operator"])
async def air(
    season_id: int, conquest: Service, request: AirRequest, authorization: Authorization = None
) -> AirResult:
    """Air the next battle, or the next `count` (operator token required)."""
    _authorised(conquest, authorization)
    result = await run_in_threadpool(operator.air, conquest.catalog, season_id, request.count)
    conquest.live.poke()
    return result


@router.post("/seasons/{season_id:int}/operator/beacon", tags=["operator"])
async def beacon(
    season_id: int, conquest: Service, value: BeaconRequest, authorization: Authorization = None
) -> dict[str, str]:
    """Record the beacon round's randomness before battle 1 (operator token required)."""
    _authorised(conquest, authorization)
    return await run_in_threadpool(operator.record_beacon, conquest.catalog, season_id, value)


@router.post("/seasons/{season_id:int}/operator/reveal", tags=["operator"])
async def reveal_seed(
    season_id: int, conquest: Service, authorization: Authorization = None
) -> RevealResult:
    """Publish the seed once the season is over (operator token required)."""
    _authorised(conquest, authorization)
    return await run_in_threadpool(operator.reveal, conquest.catalog, season_id)


@router.get(
    "/seasons/{season_id:int}/operator/export",
    tags=["operator"],
    response_class=Response,
    responses={200: {"content": {"application/zip": {}}}},
)
async def export(
    season_id: int, conquest: Service, authorization: Authorization = None
) -> Response:
    """The public record as it stands (a zip; the seed only after the reveal)."""
    _authorised(conquest, authorization)
    data = await run_in_threadpool(operator.record_zip, conquest.catalog, season_id)
    return Response(data, media_type="application/zip", headers={
        "Content-Disposition": f'attachment; filename="season-{season_id}-record.zip"'})
