"""The outermost layer of every request: who asks, its id, its limit, its log line, its metrics.

For each HTTP request, in this order: the client address is settled (a trusted proxy's
`X-Forwarded-For`, else the peer) and written back into the scope, so every later part sees
the same client; the request id is the client's `X-Request-ID` when it is short and plain,
else a new one, and is echoed on the response; the client's bucket of the route group is
charged (429 with `Retry-After` when empty); the app's pools become the request's pools; and
when the response ends one JSON line is logged and the metrics are counted.

The log line carries the time, request id, method, path (never the query string: join links
and seat links carry their tokens there), route template, status, duration, bytes sent and
client, and nothing else: no header, no body, no cookie.
"""

from __future__ import annotations

import json
import logging
import re
import time
import uuid
from collections.abc import Mapping
from datetime import UTC, datetime

from fairfight.web.errors import error_body
from fairfight.web.ops.clients import TrustedProxies, forwarded_client, is_ip_address
from fairfight.web.ops.metrics import ServiceMetrics, route_label
from fairfight.web.ops.pools import WorkPool, using_pools
from fairfight.web.ops.rate_limit import RateLimiter, route_group
from fairfight.web.security import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "ACCESS_LOGGER",
    "OperationsMiddleware",
    "REQUEST_ID_PATTERN",
    "request_id_for",
]

ACCESS_LOGGER = "fairfight.access"
"""The logger the JSON request lines go to (`fairfight serve` prints it on standard output)."""

REQUEST_ID_PATTERN = re.compile(r"^[A-Za-z0-9._:-]{8,64}$")
"""An `X-Request-ID` accepted from a client: 8 to 64 plain characters (a UUID, a proxy's
hex id); anything else (long, spaces, quotes, newlines) is replaced by a new id."""

_PATH_SHOWN = 300


def request_id_for(offered: str | None) -> str:
    """The client's request id when well formed, else a new random one."""
    if offered is not None and REQUEST_ID_PATTERN.match(offered):
        return offered
    return uuid.uuid4().hex


def _header(scope: Scope, wanted: bytes) -> str | None:
    for name, value in scope.get("headers", []):
        if name.lower() == wanted:
            return str(value.decode("latin-1"))
    return None


class OperationsMiddleware:
    """Client address, request id, rate limit, request log line and metrics (see above)."""

    def __init__(self, app: ASGIApp, *, metrics: ServiceMetrics, limiter: RateLimiter | None,
                 proxies: TrustedProxies, pools: Mapping[str, WorkPool],
                 log_requests: bool) -> None:
        self.app = app
        self.metrics = metrics
        self.limiter = limiter
        self.proxies = proxies
        self.pools = pools
        self.log_requests = log_requests
        self.log = logging.getLogger(ACCESS_LOGGER)

    def _settle_client(self, scope: Scope) -> str:
        peer_host, peer_port = scope.get("client") or ("", 0)
        client = forwarded_client(peer_host, _header(scope, b"x-forwarded-for"), self.proxies)
        if client != peer_host:
            scope["client"] = (client, 0)
            proto = _header(scope, b"x-forwarded-proto")
            if proto in ("http", "https"):
                scope["scheme"] = proto
        else:
            scope["client"] = (peer_host, peer_port)
        return client

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        client = self._settle_client(scope)
        request_id = request_id_for(_header(scope, b"x-request-id"))
        scope.setdefault("state", {})["request_id"] = request_id
        outcome = {"status": 500, "bytes": 0}
        id_header = (b"x-request-id", request_id.encode())

        async def send_counted(message: Message) -> None:
            if message["type"] == "http.response.start":
                outcome["status"] = int(message["status"])
                message["headers"] = [*message.get("headers", []), id_header]
            elif message["type"] == "http.response.body":
                outcome["bytes"] += len(message.get("body", b""))
            await send(message)

        self.metrics.in_flight.inc()
        try:
            group = route_group(scope["method"], scope["path"])
            wait = 0.0
            if self.limiter is not None and group is not None and is_ip_address(client):
                wait = self.limiter.take(client, group)
            if wait > 0 and group is not None:
                self.metrics.rate_limited.labels(group).inc()
                await _too_many(send_counted, group, RateLimiter.retry_after(wait))
            else:
                with using_pools(self.pools):
                    await self.app(scope, receive, send_counted)
        finally:
            self.metrics.in_flight.dec()
            seconds = time.perf_counter() - started
            route = route_label(scope)
            self.metrics.observe_request(scope["method"], route, outcome["status"], seconds)
            if self.log_requests:
                self.log.info(json.dumps({
                    "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
                    "request_id": request_id,
                    "method": scope["method"],
                    "path": scope["path"][:_PATH_SHOWN],
                    "route": route,
                    "status": outcome["status"],
                    "duration_ms": round(seconds * 1000, 2),
                    "bytes": outcome["bytes"],
                    "client": client,
                }, ensure_ascii=True))


async def _too_many(send: Send, group: str, retry_after: int) -> None:
    body = json.dumps(error_body("rate", f"too many {group.replace('_', '-')} requests from "
                                 f"this address; try again in {retry_after} s")).encode()
    await send({"type": "http.response.start", "status": 429, "headers": [
        (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(retry_after).encode())]})
    await send({"type": "http.response.body", "body": body})
