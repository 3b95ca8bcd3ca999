"""Prometheus metrics: requests and latencies per route template, in flight, pools, limits.

Labels are bounded by construction: the route is the template the router matched
(`/api/seasons/{season_id}/factions/{code}/pool-effect`), never the raw path, `unmatched` when
no route matched; the method is one of a fixed few; the status is its class (`2xx`). A
scanner walking a million paths adds no series.

With `PROMETHEUS_MULTIPROC_DIR` set (as `fairfight serve --workers N` does) every worker
writes its values to files there and `/metrics` sums them, so one scrape of any worker
describes the whole service. Without it the metrics live in a registry of the app's own.
"""

from __future__ import annotations

import hashlib
import hmac
import os
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

from fairfight.web.ops.pools import WorkPool

__all__ = [
    "KNOWN_METHODS",
    "ServiceMetrics",
    "metrics",
    "metrics_router",
    "multiprocess_dir",
    "route_label",
    "status_class",
]

KNOWN_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

metrics_router = APIRouter()


def multiprocess_dir() -> str | None:
    """The folder worker processes share their metric files in, when set."""
    return os.environ.get("PROMETHEUS_MULTIPROC_DIR") or None


def route_label(scope: dict[str, Any] | Any) -> str:
    """The template of the route that answered (bounded), `unmatched` when none did."""
    route = scope.get("route")
    path = getattr(route, "path", None)
    return path if isinstance(path, str) else "unmatched"


def status_class(status: int) -> str:
    """`2xx`, `4xx`, ...: the status as a label of five values."""
    return f"{status // 100}xx" if 100 <= status <= 599 else "other"


class ServiceMetrics:
    """The app's metrics; in multiprocess mode the values go to the shared folder."""

    def __init__(self) -> None:
        self.shared = multiprocess_dir() is not None
        self.registry = None if self.shared else CollectorRegistry()
        registry = self.registry
        self.requests = Counter(
            "fairfight_http_requests", "Requests answered, by route template and status "
            "class.", ["method", "route", "status"], registry=registry)
        self.latency = Histogram(
            "fairfight_http_request_duration_seconds", "Time to the end of the response, by "
            "route template.", ["method", "route"], buckets=_LATENCY_BUCKETS, registry=registry)
        self.in_flight = Gauge(
            "fairfight_http_requests_in_flight", "Requests being answered now.",
            registry=registry, multiprocess_mode="livesum")
        self.pool_waiting = Gauge(
            "fairfight_pool_waiting", "Jobs queued for a slow-work pool.", ["pool"],
            registry=registry, multiprocess_mode="livesum")
        self.pool_running = Gauge(
            "fairfight_pool_running", "Jobs running in a slow-work pool.", ["pool"],
            registry=registry, multiprocess_mode="livesum")
        self.pool_refused = Counter(
            "fairfight_pool_refused", "Jobs refused by a full pool (503).", ["pool"],
            registry=registry)
        self.rate_limited = Counter(
            "fairfight_rate_limited", "Requests refused by a rate limit (429).", ["group"],
            registry=registry)
        self.database_unavailable = Counter(
            "fairfight_database_unavailable", "Requests answered 503 because a database did "
            "not answer.", registry=registry)
        self.witness_waiting = Gauge(
            "fairfight_witness_waiting", "Seasons whose newest checkpoint waits to be sent to "
            "a witness.", ["witness"], registry=registry, multiprocess_mode="livesum")
        self.witness_failures = Counter(
            "fairfight_witness_failures", "Checkpoints a witness did not cosign (down, "
            "refused, or answered without a valid cosignature).", ["witness"], registry=registry)
        self.witness_cosigned = Counter(
            "fairfight_witness_cosigned", "Cosignatures received, checked and stored.",
            ["witness"], registry=registry)
        self._witness_seen: dict[str, tuple[int, int]] = {}
        self._refused_seen: dict[str, int] = {}
        self._children: dict[tuple[str, str, str], tuple[Any, Any]] = {}
        """The labelled counter and histogram per (method, route, status class): bounded, as
        the route label is a route's template or `unmatched`."""

    def observe_request(self, method: str, route: str, status: int, seconds: float) -> None:
        """Count one answered request."""
        method = method if method in KNOWN_METHODS else "other"
        kind = (method, route, status_class(status))
        children = self._children.get(kind)
        if children is None:  # labels() hashes and checks its values each call: once here
            children = self._children[kind] = (self.requests.labels(*kind),
                                               self.latency.labels(method, route))
        children[0].inc()
        children[1].observe(seconds)

    def observe_pool(self, pool: WorkPool) -> None:
        """Mirror a pool's queue, running jobs and refusals (called on every change)."""
        self.pool_waiting.labels(pool.name).set(pool.waiting)
        self.pool_running.labels(pool.name).set(pool.running)
        new_refusals = pool.refused - self._refused_seen.get(pool.name, 0)
        if new_refusals > 0:
            self.pool_refused.labels(pool.name).inc(new_refusals)
            self._refused_seen[pool.name] = pool.refused

    def observe_witness(self, witness: str, waiting: int, failures: int, cosigned: int) -> None:
        """Mirror a witness lane's queue and its running counts (called on every change)."""
        self.witness_waiting.labels(witness).set(waiting)
        failed_before, cosigned_before = self._witness_seen.get(witness, (0, 0))
        if failures > failed_before:
            self.witness_failures.labels(witness).inc(failures - failed_before)
        if cosigned > cosigned_before:
            self.witness_cosigned.labels(witness).inc(cosigned - cosigned_before)
        self._witness_seen[witness] = (max(failures, failed_before),
                                       max(cosigned, cosigned_before))

    def exposition(self) -> bytes:
        """The text a scrape reads: this app's registry, or every worker's files summed."""
        if self.registry is not None:
            return generate_latest(self.registry)
        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry)

    def process_ended(self) -> None:
        """Drop this process's live gauges from the shared folder (counters stay summed)."""
        if self.shared:
            multiprocess.mark_process_dead(os.getpid())  # type: ignore[no-untyped-call]


def _token_matches(request: Request, token_sha256: str) -> bool:
    offered = request.headers.get("authorization", "")
    scheme, _, token = offered.partition(" ")
    if scheme.lower() != "bearer" or not token:
        return False
    digest = hashlib.sha256(token.strip().encode()).hexdigest()
    return hmac.compare_digest(digest, token_sha256.lower())


@metrics_router.get("/metrics", include_in_schema=False)
def metrics(request: Request) -> Response:
    """The Prometheus exposition; behind a bearer token when `metrics_token_sha256` is set."""
    settings = request.app.state.settings
    if settings.metrics_token_sha256 and not _token_matches(request, settings.metrics_token_sha256):
        return Response('{"detail":"a metrics token is required","field":"authorization",'
                        '"message":"a metrics token is required","value":null}', status_code=401,
                        media_type="application/json",
                        headers={"WWW-Authenticate": "Bearer"})
    service_metrics: ServiceMetrics = request.app.state.metrics
    return Response(service_metrics.exposition(), media_type=CONTENT_TYPE_LATEST)
