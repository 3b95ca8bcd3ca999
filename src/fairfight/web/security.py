"""Protections every response and request goes through: headers, body size, cross-site posts."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

__all__ = [
    "ASGIApp",
    "BodySizeLimit",
    "CONTENT_SECURITY_POLICY",
    "CrossSiteGuard",
    "EMBED_CONTENT_SECURITY_POLICY",
    "FRAMEABLE_PREFIXES",
    "Message",
    "Receive",
    "Scope",
    "Send",
    "UNSAFE_METHODS",
    "body_too_large",
    "declared_too_large",
    "replayed_body",
    "security_headers_for",
    "send_plain",
    "sending_security_headers",
]

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

# Scripts and styles only from our own origin: no inline script, no CDN.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; worker-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
]
FRAMEABLE_PREFIXES = ("/embed/",)
"""The only pages another site may put in a frame (the embeddable season view)."""
EMBED_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.replace(
    "frame-ancestors 'none'", "frame-ancestors *")
_EMBED_HEADERS = [
    (b"content-security-policy", EMBED_CONTENT_SECURITY_POLICY.encode()),
    *((name, value) for name, value in _HEADERS
      if name not in (b"content-security-policy", b"x-frame-options")),
]
UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
"""The methods that change something: only their bodies and origins are checked."""


def security_headers_for(path: str) -> list[tuple[bytes, bytes]]:
    """The headers every response to `path` carries (a frameable page's allow framing)."""
    return _EMBED_HEADERS if path.startswith(FRAMEABLE_PREFIXES) else _HEADERS


async def send_plain(send: Send, status: int, text: str | bytes, *,
                     with_headers: bool = True) -> None:
    """A short JSON answer sent straight from a protection, never reaching the app."""
    body = text.encode() if isinstance(text, str) else text
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status,
                "headers": headers + _HEADERS if with_headers else headers})
    await send({"type": "http.response.body", "body": body})




def body_too_large(limit: int) -> str:
    """The 413 answer's body for a limit of `limit` bytes."""
    return ('{"detail":"request body too large","field":"body",'
            f'"message":"at most {limit} bytes","value":null}}')


def declared_too_large(scope: Scope, limit: int) -> bool:
    """Whether the request's `Content-Length` passes `limit` (or cannot be read as a number)."""
    for name, value in scope.get("headers", []):
        if name == b"content-length":
            try:
                declared = int(value)
            except ValueError:
                return True
            if declared > limit:
                return True
    return False


def sending_security_headers(path: str, send: Send) -> Send:
    """`send` with the security headers added to the response's start (error pages included),
    unless the app set one itself; pages under `FRAMEABLE_PREFIXES` may be framed by any site,
    every other response refuses framing."""
    chosen = security_headers_for(path)

    async def send_with_headers(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = list(message.get("headers", []))
            present = {name.lower() for name, _ in headers}
            message["headers"] = headers + [(name, value) for name, value in chosen
                                            if name not in present]
        await send(message)

    return send_with_headers


class BodySizeLimit:
    """Refuse request bodies above a limit with 413, whether declared or streamed."""

    def __init__(self, app: ASGIApp, max_bytes: int, upload_max_bytes: int,
                 upload_prefixes: tuple[str, ...] = ()) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.upload_max_bytes = upload_max_bytes
        self.upload_prefixes = upload_prefixes

    def _limit(self, path: str) -> int:
        if any(path.startswith(prefix) for prefix in self.upload_prefixes):
            return self.upload_max_bytes
        return self.max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in UNSAFE_METHODS:
            await self.app(scope, receive, send)
            return
        limit = self._limit(scope["path"])
        if declared_too_large(scope, limit):
            await send_plain(send, 413, body_too_large(limit))
            return
        if any(scope["path"].startswith(prefix) for prefix in self.upload_prefixes):
            await self._stream_counted(scope, receive, send, limit, body_too_large(limit))
            return
        # Read the whole body first (it is small by construction), so a body that passes the
        # limit is answered with 413 before any handler has started to parse it.
        chunks: list[bytes] = []
        received = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, replayed_body([], message, receive), send)
                return
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > limit:
                await send_plain(send, 413, body_too_large(limit))
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        await self.app(scope, replayed_body(chunks, None, receive), send)


    async def _stream_counted(self, scope: Scope, receive: Receive, send: Send, limit: int,
                              refusal: str) -> None:
        """An upload goes to the app as it arrives (the route copies it to disk), never held
        whole in memory; the bytes are counted on the way. Past the limit the app is told the
        client left, and whatever it answers is replaced by the 413."""
        received = 0
        over = False
        answered = False

        async def counted() -> Message:
            nonlocal received, over
            if over:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    over = True
                    return {"type": "http.disconnect"}
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal answered
            if over:
                if not answered:
                    answered = True
                    await send_plain(send, 413, refusal)
                return
            answered = True
            await send(message)

        try:
            await self.app(scope, counted, guarded_send)
        except Exception:
            if not over:
                raise
        if over and not answered:
            await send_plain(send, 413, refusal)


def replayed_body(chunks: list[bytes], final: Message | None, upstream: Receive) -> Receive:
    """A `receive` that hands the app the buffered body, then waits as the server would."""
    pending: list[Message] = [{"type": "http.request", "body": b"".join(chunks),
                               "more_body": False}] if final is None else [final]

    async def receive() -> Message:
        if pending:
            return pending.pop(0)
        return await upstream()

    return receive


class CrossSiteGuard:
    """Refuse state-changing requests sent from another site (forms posted cross-site).

    Browsers name the requesting page's origin on every POST; a request whose `Origin` (or,
    failing that, `Referer`) names another host, or whose `Sec-Fetch-Site` says cross-site, is
    refused with 403 before it reaches a handler. Programs that send neither are let through:
    they carry no ambient cookies for an attacker to borrow.

    With `public_url` set (the service behind a proxy that may rewrite `Host`), the request's
    origin must be that URL's origin, scheme and port included, whatever `Host` says;
    without it, the origin's host must be the request's `Host`.
    """

    REFUSAL = ('{"detail":"cross-site request refused","field":"origin",'
               '"message":"the request came from another site","value":null}')
    """The 403 answer's body."""

    def __init__(self, app: ASGIApp, public_url: str | None = None) -> None:
        self.app = app
        self.public_origin = _origin_of(public_url) if public_url else None

    def allows(self, scope: Scope) -> bool:
        """Whether a write's origin headers say it came from this site (or from no page)."""
        headers = {name.decode("latin-1").lower(): value.decode("latin-1")
                   for name, value in scope.get("headers", [])}
        return _same_site(headers, self.public_origin)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] == "http" and scope["method"] in UNSAFE_METHODS
                and not self.allows(scope)):
            await send_plain(send, 403, self.REFUSAL)
            return
        await self.app(scope, receive, send)


def _origin_of(url: str) -> str:
    """`scheme://host[:port]` of a URL, lower case, the default port left out."""
    parts = urlsplit(url.strip())
    host = (parts.hostname or "").lower()
    default = {"http": 80, "https": 443}.get(parts.scheme.lower())
    port = "" if parts.port in (None, default) else f":{parts.port}"
    return f"{parts.scheme.lower()}://{host}{port}"


def _same_site(headers: dict[str, str], public_origin: str | None) -> bool:
    if headers.get("sec-fetch-site") == "cross-site":
        return False
    source = headers.get("origin") or headers.get("referer")
    if not source:
        return True
    if source == "null":
        return False
    if public_origin is not None:
        try:
            return _origin_of(source) == public_origin
        except ValueError:  # an unparsable port
            return False
    return urlsplit(source).netloc == headers.get("host", "")
