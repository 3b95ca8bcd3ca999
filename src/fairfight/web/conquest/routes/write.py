"""Writes over the JSON API: fan contributions, the payment webhook, and operator actions."""

from __future__ import annotations

import json
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, FastAPI, Header, Request, Response
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool

from fairfight.core.validation import parse_model
from fairfight.web.conquest import operator
from fairfight.web.conquest.contributions import (
    IDEMPOTENCY_HEADER,
    REPLAYED_HEADER,
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
from fairfight.web.conquest.service import ConquestService, Service, install_service
from fairfight.web.strict_input import parse_json_body

__all__ = [
    "BEARER",
    "M",
    "air",
    "beacon",
    "client_address",
    "contribute",
    "contribution_body",
    "export",
    "install",
    "payment_webhook",
    "reveal_seed",
    "router",
]

router = APIRouter(prefix="/api", tags=["conquest"])
M = TypeVar("M", bound=BaseModel)


def install(app: FastAPI) -> None:
    """Give the app its conquest service (shared by every conquest route module)."""
    install_service(app)


_JSON_TYPES = ("application/json",)


def _declared_json(content_type: str | None) -> bool:
    """Whether a body is read as JSON: no type given, or `application/json` or `+json` (the
    framework's rule for a body parameter, which this route reads itself)."""
    if not content_type:
        return True
    kind = content_type.partition(";")[0].strip().lower()
    return kind in _JSON_TYPES or (kind.startswith("application/") and kind.endswith("+json"))


def _refused_body(kind: str, message: str) -> RequestValidationError:
    """A refusal of the whole body, quoting no value (its bytes are none)."""
    return RequestValidationError([{"type": kind, "loc": ("body",), "msg": message}])


def contribution_body(content_type: str | None, raw: bytes) -> ContributionRequest:
    """The contribution asked for, validated once, strictly, by the model's compiled
    validator (`parse_json_body`): the route reads its body itself rather than through a
    body parameter, which validated it twice (strictly, then leniently) on every request."""
    if not _declared_json(content_type):
        raise _refused_body("model_type", "Input should be an object")
    if not raw.strip():
        raise _refused_body("missing", "Field required")
    return parse_json_body(ContributionRequest, raw)


_CONTRIBUTION_DOCS: dict[str, Any] = {
    "parameters": [{"name": IDEMPOTENCY_HEADER, "in": "header", "required": False,
                    "description": "any unique text, 1 to 200 printable characters; a retry "
                    "sends the same key", "schema": {"type": "string"}}],
    "requestBody": {"required": True, "content": {
        "application/json": {"schema": ContributionRequest.model_json_schema()}}},
}


@router.post(
    "/seasons/{season_id:id}/contributions",
    status_code=201,
    response_model=Contribution,
    responses={
        201: {"description": "recorded; a replay of the same key and body answers the stored "
              "original bytes again",
              "headers": {REPLAYED_HEADER: {
                  "description": "`true` when this answer is the stored original of an earlier "
                  "request with the same Idempotency-Key (absent on the first answer)",
                  "schema": {"type": "string", "enum": ["true"]}}}},
        409: {"description": "the same key is still being processed"},
    },
    openapi_extra=_CONTRIBUTION_DOCS,
)
async def contribute(season_id: int, request: Request, conquest: Service) -> Response:
    """Add to a faction's pool. `Idempotency-Key` is required: the same key and body return
    the original response; the same key with another body is 422; still running, 409."""
    if conquest.payments_only:
        raise Refusal(403, "payments", "contributions are taken through the payment provider; "
                      "this endpoint is closed while a payment secret is configured")
    headers = request.headers
    raw = await request.body()
    body = contribution_body(headers.get("content-type"), raw)  # the body's refusal first
    key = check_key(headers.get(IDEMPOTENCY_HEADER))
    requested = Requested(key, request.method, request.url.path, raw)
    answer = await record_contribution_async(
        conquest.writer, conquest.in_flight, season_id, body, requested,
    )
    conquest.live.poke()
    return Response(answer.body, status_code=answer.status, media_type="application/json",
                    headers=answer.headers())


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
    answer = await record_contribution_async(
        conquest.writer, conquest.in_flight, data.season, asked, requested, payment=event.id,
    )
    conquest.live.poke()
    return Response(answer.body, status_code=answer.status, media_type="application/json",
                    headers=answer.headers())


def client_address(request: Request) -> str:
    """The address wrong tokens are counted against (the peer; behind a proxy, the proxy)."""
    return request.client.host if request.client else "unknown"


def _authorised(conquest: ConquestService, request: Request) -> None:
    """The token check, from the header alone: it runs before the body is read."""
    operator.authorise(conquest.brake, conquest.settings.admin_token_sha256,
                       client_address(request), operator.bearer_token(
                           request.headers.get("authorization")))


async def _body(request: Request, model: type[M]) -> M:
    """Read and parse the body, only once the token has passed."""
    raw = await request.body()
    try:
        json.loads(raw) if raw.strip() else {}
    except ValueError:
        raise Refusal(400, "body", "is not JSON") from None
    return parse_json_body(model, raw)


def _json_body(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI entry of a body the route reads itself (after checking the token)."""
    return {"requestBody": {"required": False, "content": {
        "application/json": {"schema": model.model_json_schema()}}}}


BEARER: dict[int | str, dict[str, Any]] = {
    401: {"description": "no valid `Authorization: Bearer TOKEN`"},
    429: {"description": "too many wrong tokens from this address; see Retry-After"},
}


@router.post("/seasons/{season_id:id}/operator/air", tags=["operator"], responses=BEARER,
             openapi_extra=_json_body(AirRequest))
async def air(season_id: int, conquest: Service, request: Request) -> AirResult:
    """Air the next battle, or the next `count` (1 to 10; operator token required)."""
    _authorised(conquest, request)
    asked = await _body(request, AirRequest)
    result = await run_in_threadpool(operator.air, conquest.catalog, season_id, asked.count)
    conquest.live.poke()
    return result


@router.post("/seasons/{season_id:id}/operator/beacon", tags=["operator"], responses=BEARER,
             openapi_extra=_json_body(BeaconRequest))
async def beacon(season_id: int, conquest: Service, request: Request) -> dict[str, str]:
    """Record the beacon round once it is out: its randomness and BLS signature, checked with
    drand-verify before anything is stored (operator token required)."""
    _authorised(conquest, request)
    value = await _body(request, BeaconRequest)
    return await run_in_threadpool(operator.record_beacon, conquest.catalog, season_id, value)


@router.post("/seasons/{season_id:id}/operator/reveal", tags=["operator"], responses=BEARER)
async def reveal_seed(season_id: int, conquest: Service, request: Request) -> RevealResult:
    """Publish the seed once the season is over (operator token required)."""
    _authorised(conquest, request)
    return await run_in_threadpool(operator.reveal, conquest.catalog, season_id)


@router.get(
    "/seasons/{season_id:id}/operator/export",
    tags=["operator"],
    response_class=Response,
    responses={200: {"content": {"application/zip": {}}}, **BEARER},
)
async def export(season_id: int, conquest: Service, request: Request) -> Response:
    """The public record as it stands (a zip; the seed only after the reveal)."""
    _authorised(conquest, request)
    data = await run_in_threadpool(operator.record_zip, conquest.catalog, season_id)
    return Response(data, media_type="application/zip", headers={
        "Content-Disposition": f'attachment; filename="season-{season_id}-record.zip"'})
