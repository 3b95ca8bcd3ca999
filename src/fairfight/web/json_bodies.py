"""The shape of request bodies, checked before any handler parses them: JSON nested deeper
than `MAX_JSON_DEPTH` or holding a number longer than `MAX_NUMBER_CHARACTERS` is refused with
one 422 line.

Python's `json` module recurses once per nesting level (32,000 levels raise RecursionError, a
500) and `int()` refuses more than 4,300 digits with a ValueError; some handlers read
`request.json()` themselves, and form fields carry JSON too (a pasted clash specification).
So one ASGI middleware looks at every JSON body and every form field before the app does, with
a scan that never recurses and costs a few regular-expression passes over a body that
`BodySizeLimit` has already bounded. Multipart uploads and other binary bodies (archives) are
left to their own readers.
"""

from __future__ import annotations

import re
from itertools import accumulate
from urllib.parse import parse_qsl

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "JsonBodyLimits",
    "MAX_JSON_DEPTH",
    "MAX_NUMBER_CHARACTERS",
    "json_shape_problem",
    "refusal_of_body",
    "scanned_content_type",
]

MAX_JSON_DEPTH = 64
"""Deepest nesting of arrays and objects a body may have; the deepest real body (a clash
scenario) nests under ten levels."""

MAX_NUMBER_CHARACTERS = 100
"""Longest run of digits outside strings; no field takes a number anywhere near it."""

_SHORT_ENOUGH = min(MAX_JSON_DEPTH, MAX_NUMBER_CHARACTERS)
"""A text this short cannot break either rule (nesting past the limit takes one more opening
bracket than the limit, a number one more digit), so it is not scanned: most bodies, a fan's
contribution among them."""
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_STRING_OR_OPEN_QUOTE = re.compile(rb'"(?:[^"\\]|\\.)*+"|"', re.DOTALL)
_NOT_A_BRACKET = re.compile(rb"[^\[\]{}]+")
_LONG_NUMBER = re.compile(rb"[0-9]{%d,}" % (MAX_NUMBER_CHARACTERS + 1))
_STEPS = [0] * 256
for _opening in b"[{":
    _STEPS[_opening] = 1
for _closing in b"]}":
    _STEPS[_closing] = -1


def _outside_strings(body: bytes) -> bytes:
    """The body with every JSON string emptied; a string that never closes ends the text
    (a JSON reader stops there too). Linear: each quote is tried as a string start once."""
    parts: list[bytes] = []
    start = 0
    for found in _STRING_OR_OPEN_QUOTE.finditer(body):
        parts.append(body[start:found.start()])
        if found.end() - found.start() == 1:
            return b"".join(parts)
        parts.append(b'""')
        start = found.end()
    parts.append(body[start:])
    return b"".join(parts)


def json_shape_problem(body: bytes) -> str | None:
    """What is wrong with a JSON text's shape (too deep, too long a number), or None."""
    if len(body) <= _SHORT_ENOUGH:
        return None
    if b"[" not in body and b"{" not in body and not _LONG_NUMBER.search(body):
        return None
    bare = _outside_strings(body)
    if _LONG_NUMBER.search(bare):
        return f"holds a number longer than {MAX_NUMBER_CHARACTERS} digits"
    brackets = _NOT_A_BRACKET.sub(b"", bare)
    if max(accumulate(map(_STEPS.__getitem__, brackets)), default=0) > MAX_JSON_DEPTH:
        return f"nested deeper than {MAX_JSON_DEPTH} levels of arrays and objects"
    return None


def _content_type(scope: Scope) -> str:
    for name, value in scope.get("headers", []):
        if name == b"content-type":
            return str(value.decode("latin-1").split(";")[0].strip().lower())
    return ""


def _declared_json(content_type: str) -> bool:
    return content_type in ("application/json", "text/plain") or content_type.endswith("+json")


def _may_be_scanned(content_type: str) -> bool:
    """Whether `_problem` could look at a body of this type: only then is the body read
    here. A multipart upload (an archive of up to the upload cap) streams past untouched, to
    the route that copies it to disk, instead of being held whole in memory, twice."""
    return (not content_type or content_type == "application/x-www-form-urlencoded"
            or _declared_json(content_type))


def _read_as_json(content_type: str, body: bytes) -> bool:
    """Whether a handler could read this body as JSON: declared JSON or plain text, or
    undeclared and starting like JSON (an archive or an image is never scanned)."""
    if _declared_json(content_type):
        return True
    return not content_type and body.lstrip()[:1] in (b"[", b"{")


def _problem(content_type: str, body: bytes) -> tuple[str, str] | None:
    """(field, rule) of the first body or form field whose shape is refused."""
    if content_type == "application/x-www-form-urlencoded":
        text = body.decode("utf-8", errors="replace")
        for name, value in parse_qsl(text, keep_blank_values=True):
            problem = json_shape_problem(value.encode())
            if problem is not None:
                return name[:40] or "form", problem
        return None
    if not _read_as_json(content_type, body):
        return None
    problem = json_shape_problem(body)
    return None if problem is None else ("body", problem)


def _one_line(field: str, message: str) -> bytes:
    import json

    return json.dumps({"detail": f"{field}: {message}", "field": field,
                       "message": message, "value": None}).encode()


def scanned_content_type(scope: Scope) -> str | None:
    """The request's content type when its body is to be scanned, else None (a read, or a
    body no handler reads as JSON or a form: an upload streams past untouched)."""
    if scope["method"] not in _BODY_METHODS:
        return None
    content_type = _content_type(scope)
    return content_type if _may_be_scanned(content_type) else None


def refusal_of_body(content_type: str, body: bytes) -> bytes | None:
    """The 422 answer's body for a body of this type whose shape is refused, or None."""
    found = _problem(content_type, body)
    return None if found is None else _one_line(*found)


class JsonBodyLimits:
    """Refuse, with 422, a request whose JSON body or form field is too deep or holds too long
    a number, before the app parses it; every other request passes through untouched."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        content_type = None if scope["type"] != "http" else scanned_content_type(scope)
        if content_type is None:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replaying(chunks, message, receive), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = refusal_of_body(content_type, b"".join(chunks))
        if body is not None:
            await send({"type": "http.response.start", "status": 422,
                        "headers": [(b"content-type", b"application/json"),
                                    (b"content-length", str(len(body)).encode())]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, _replaying(chunks, None, receive), send)


def _replaying(chunks: list[bytes], final: Message | None, upstream: Receive) -> Receive:
    """A `receive` that hands the app the body read here, then waits as the server would."""
    pending: list[Message] = [final] if final is not None else [
        {"type": "http.request", "body": b"".join(chunks), "more_body": False}]

    async def receive() -> Message:
        if pending:
            return pending.pop(0)
        return await upstream()

    return receive
