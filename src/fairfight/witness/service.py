"""The witness's HTTP face: C2SP tlog-witness `POST /add-checkpoint`, the monitors' `GET
/<origin hash>/checkpoint`, a one-line status at `/` and Prometheus metrics at `/metrics`.

Every answer is plain text. A refusal is one line naming the field and why, with the status
the specification gives it; a 409 carries the held size as `text/x.tlog.size`, which is how a
log that lost track learns where to start its next proof.
"""

from __future__ import annotations

import time

from fastapi import FastAPI, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import PlainTextResponse, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, generate_latest

from fairfight.witness.cosigner import Witness
from fairfight.witness.protocol import MAX_BODY_BYTES, WitnessRefusal

__all__ = ["SIZE_TYPE", "create_app"]

SIZE_TYPE = "text/x.tlog.size"
"""The content type of a 409 answer's body, the witness's held size (tlog-witness spec)."""
_OUTCOMES = {200: "cosigned", 400: "malformed", 403: "bad_signature", 404: "unknown_log",
             409: "conflict", 413: "too_large", 422: "inconsistent"}


async def _bounded_body(request: Request) -> bytes:
    """The body, read no further than one byte past the limit."""
    chunks: list[bytes] = []
    total = 0
    async for chunk in request.stream():
        chunks.append(chunk)
        total += len(chunk)
        if total > MAX_BODY_BYTES:
            break
    return b"".join(chunks)


def _refusal(refusal: WitnessRefusal) -> Response:
    if refusal.status == 409 and refusal.held_size is not None:
        # the exact type the spec names: a media_type would gain "; charset=utf-8"
        return Response(f"{refusal.held_size}\n", status_code=409,
                        headers={"content-type": SIZE_TYPE})
    return PlainTextResponse(f"{refusal.field}: {refusal.reason}\n", status_code=refusal.status)


def create_app(witness: Witness) -> FastAPI:
    """The witness's app; its state is the `Witness` given (no globals)."""
    app = FastAPI(title="fairfight witness", docs_url=None, redoc_url=None, openapi_url=None)
    registry = CollectorRegistry()
    answered = Counter("fairfight_witness_checkpoints", "add-checkpoint requests answered, by "
                       "outcome.", ["outcome"], registry=registry)
    seconds = Counter("fairfight_witness_checkpoint_seconds", "Time spent answering "
                      "add-checkpoint requests.", registry=registry)
    app.state.witness = witness

    @app.post("/add-checkpoint")
    async def add_checkpoint(request: Request) -> Response:
        started = time.perf_counter()
        try:
            line = await run_in_threadpool(witness.add_checkpoint, await _bounded_body(request))
            answer: Response = PlainTextResponse(line)
            status = 200
        except WitnessRefusal as refusal:
            answer, status = _refusal(refusal), refusal.status
        answered.labels(_OUTCOMES.get(status, "other")).inc()
        seconds.inc(time.perf_counter() - started)
        return answer

    @app.get("/")
    async def status() -> PlainTextResponse:
        return PlainTextResponse(await run_in_threadpool(witness.status) + "\n")

    @app.get("/metrics")
    async def metrics() -> Response:
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)

    @app.get("/{origin_hash}/checkpoint")
    async def checkpoint(origin_hash: str) -> PlainTextResponse:
        note = await run_in_threadpool(witness.cosigned, origin_hash)
        if note is None:
            return PlainTextResponse("origin: no checkpoint cosigned for this log\n", 404)
        return PlainTextResponse(note)

    return app
