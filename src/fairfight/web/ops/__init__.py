"""Operating the service: health and readiness, the request log, metrics, rate limits, pools.

`install_operations` wires them into an app; `docs/operations.md` is the operator's side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fastapi import FastAPI, Request
from fastapi.responses import Response

from fairfight.web.errors import error_response
from fairfight.web.lifecycle import on_shutdown, on_startup
from fairfight.web.ops.api_docs import api_docs_router
from fairfight.web.ops.clients import TrustedProxies
from fairfight.web.ops.health import (
    ReadinessCheck,
    add_readiness_check,
    health_router,
    install_outage_handler,
)
from fairfight.web.ops.metrics import ServiceMetrics, metrics_router
from fairfight.web.ops.openapi import install_openapi
from fairfight.web.ops.pools import (
    PoolFull,
    WorkPool,
    narrow_shared_threads,
    pooled,
    run_in_pool,
)
from fairfight.web.ops.rate_limit import RateLimiter
from fairfight.web.ops.request_log import OperationsMiddleware
from fairfight.web.ops.shutdown import install_exit_signals

if TYPE_CHECKING:
    from fairfight.web.settings import WebSettings

__all__ = [
    "PoolFull",
    "WorkPool",
    "add_readiness_check",
    "install_operations",
    "install_operations_middleware",
    "pooled",
    "run_in_pool",
    "schema_check",
]


def install_operations(app: FastAPI, settings: WebSettings) -> None:
    """Health routes, /metrics, the pools and the handlers of a full pool and of an outage.

    The middleware is added separately (`install_operations_middleware`), last, so that it
    wraps every other layer and logs their refusals too.
    """
    metrics = ServiceMetrics()
    app.state.metrics = metrics
    app.state.pools = {name: WorkPool(name, limits, metrics.observe_pool)
                       for name, limits in settings.pool_limits().items()}
    app.include_router(health_router)
    app.include_router(metrics_router)
    app.include_router(api_docs_router)
    install_openapi(app)
    install_outage_handler(app, metrics.database_unavailable.inc)

    @app.exception_handler(PoolFull)
    async def _pool_full(request: Request, error: PoolFull) -> Response:
        return error_response(request, 503, error.pool, str(error).partition(": ")[2],
                              headers={"Retry-After": str(error.retry_after)})

    on_startup(app, narrow_shared_threads)
    on_shutdown(app, metrics.process_ended)
    install_exit_signals(app)
    add_readiness_check(app, "schema", schema_check(settings))


def schema_check(settings: WebSettings) -> ReadinessCheck:
    """`/readyz`'s schema question: no store migrated to an older revision than this
    release's head, none at one it does not know, no version table damaged (`current` raises).
    A store the service made itself before any `fairfight db upgrade` (no revision yet) holds
    every table the code needs, so it counts as ready; the next start stamps it."""

    def check() -> None:
        from fairfight.web.migrations import current

        wrong = [state.line() for state in current(settings.database_url,
                                                   settings.clash_database_url)
                 if state.status == "behind" and state.revision is not None]
        if wrong:
            raise RuntimeError("; ".join(wrong))

    return check


def install_operations_middleware(app: FastAPI, settings: WebSettings) -> None:
    """The outermost middleware: client, request id, rate limit, log line, metrics."""
    limiter = (RateLimiter(settings.rate_limits(), settings.rate_limit_processes)
               if settings.rate_limits_enabled else None)
    app.state.rate_limiter = limiter
    app.add_middleware(
        OperationsMiddleware, metrics=app.state.metrics, limiter=limiter,
        proxies=TrustedProxies.parse(settings.forwarded_allow_ips), pools=app.state.pools,
        log_requests=settings.request_log,
    )
