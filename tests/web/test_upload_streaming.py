"""Uploads stream through the body-size limit: the app sees each chunk as it arrives (so the
route can copy it to disk) and a body past the upload limit is answered 413, whatever the app
was about to say; other bodies are still read whole and refused before the app starts."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from fairfight.web.security import BodySizeLimit

CHUNK = b"x" * 1000


def _run(path: str, chunks: int, limit: int) -> tuple[list[dict[str, Any]], list[int]]:
    """Send `chunks` chunks of CHUNK to `path` through the limit; return what the client got
    and, for each chunk the app read, how many chunks the client had sent by then."""
    sent = 0
    seen_at: list[int] = []

    async def receive() -> dict[str, Any]:
        nonlocal sent
        sent += 1
        return {"type": "http.request", "body": CHUNK, "more_body": sent < chunks}

    async def app(scope: Any, receive: Any, send: Any) -> None:
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                break
            seen_at.append(sent)
            more = message.get("more_body", False)
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    answers: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        answers.append(message)

    limited = BodySizeLimit(app, max_bytes=limit, upload_max_bytes=limit,
                            upload_prefixes=("/api/upload/",))
    scope = {"type": "http", "method": "POST", "path": path, "headers": []}
    asyncio.run(limited(scope, receive, send))
    return answers, seen_at


def test_an_upload_reaches_the_app_chunk_by_chunk() -> None:
    answers, seen_at = _run("/api/upload/verify", chunks=20, limit=100_000)
    assert answers[0]["status"] == 200
    assert seen_at == list(range(1, 21)), "each chunk handed on before the next was read"


def test_an_upload_past_the_limit_is_413_even_when_streamed() -> None:
    answers, seen_at = _run("/api/upload/verify", chunks=50, limit=10_500)
    assert answers[0]["status"] == 413
    body = json.loads(b"".join(m.get("body", b"") for m in answers[1:]))
    assert body["field"] == "body" and body["message"] == "at most 10500 bytes"
    assert len(seen_at) == 10, "the app saw the chunks within the limit, then the end"


def test_other_bodies_are_read_whole_first() -> None:
    answers, seen_at = _run("/api/seasons/1/contributions", chunks=5, limit=100_000)
    assert answers[0]["status"] == 200
    assert seen_at == [5], "one buffered body, handed on after the last chunk"
    refused, none_seen = _run("/api/seasons/1/contributions", chunks=50, limit=10_500)
    assert refused[0]["status"] == 413 and none_seen == []
