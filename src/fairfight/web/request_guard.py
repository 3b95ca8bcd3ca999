"""The protections of every request as one ASGI layer: headers, body size, cross-site posts
and the shape of JSON bodies.

They were four layers, each a call and a wrapped `send` or `receive` on every request, though
three of them look only at writes and each did little: a contribution crossed all four and
its body was read twice, once to count it and once to scan it. `RequestGuard` does the same
checks, in the same order and with the same answers, in one pass:

1. every response gets the security headers (`security.sending_security_headers`), the
   guard's own refusals included;
2. a read (GET, HEAD, OPTIONS) goes straight to the app;
3. a write: a declared or streamed body over the limit is refused with 413
   (`security.BodySizeLimit`), then a request from another site with 403
   (`security.CrossSiteGuard`), then a JSON body or form field too deep or holding too long
   a number with 422 (`json_bodies.JsonBodyLimits`); the body, read once, is handed to the app.

Uploads (archives, streamed to disk as they arrive) keep the three layers as they were: the
guard hands them to `BodySizeLimit`, which never holds them whole.
"""

from __future__ import annotations

from fairfight.web.json_bodies import JsonBodyLimits, refusal_of_body, scanned_content_type
from fairfight.web.security import (
    UNSAFE_METHODS,
    ASGIApp,
    BodySizeLimit,
    CrossSiteGuard,
    Receive,
    Scope,
    Send,
    body_too_large,
    declared_too_large,
    replayed_body,
    send_plain,
    sending_security_headers,
)

__all__ = ["RequestGuard"]


class RequestGuard:
    """Security headers, body size, cross-site and JSON shape checks in one layer."""

    def __init__(self, app: ASGIApp, *, max_bytes: int, upload_max_bytes: int,
                 upload_prefixes: tuple[str, ...] = (), public_url: str | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.upload_prefixes = upload_prefixes
        self.cross_site = CrossSiteGuard(app, public_url)
        self.uploads = BodySizeLimit(CrossSiteGuard(JsonBodyLimits(app), public_url),
                                     max_bytes, upload_max_bytes, upload_prefixes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        send_with_headers = sending_security_headers(str(scope.get("path", "")), send)
        if scope["method"] not in UNSAFE_METHODS:
            await self.app(scope, receive, send_with_headers)
        elif str(scope["path"]).startswith(self.upload_prefixes):
            await self.uploads(scope, receive, send_with_headers)
        else:
            await self._write(scope, receive, send_with_headers)

    async def _write(self, scope: Scope, receive: Receive, send: Send) -> None:
        """A write's body, bounded and read once, then its origin, then its shape."""
        if declared_too_large(scope, self.max_bytes):
            await send_plain(send, 413, body_too_large(self.max_bytes))
            return
        chunks: list[bytes] = []
        received = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left: the app hears it
                await self.cross_site(scope, replayed_body([], message, receive), send)
                return
            chunk = message.get("body", b"")
            received += len(chunk)
            if received > self.max_bytes:
                await send_plain(send, 413, body_too_large(self.max_bytes))
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        if not self.cross_site.allows(scope):
            await send_plain(send, 403, self.cross_site.REFUSAL)
            return
        content_type = scanned_content_type(scope)
        if content_type is not None:
            refusal = refusal_of_body(content_type, b"".join(chunks))
            if refusal is not None:
                await send_plain(send, 422, refusal, with_headers=False)
                return
        await self.app(scope, replayed_body(chunks, None, receive), send)
