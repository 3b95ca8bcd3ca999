"""Rate limits: a token bucket per client and route group, 429 with Retry-After, then relief."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.web.ops.rate_limit import RateLimit, RateLimiter, route_group
from tests.web.ops.support import ManualClock, ops_app

PEER = ("203.0.113.5", 50000)
"""A client with an IP address (the test client's own name, `testclient`, is not one)."""


@pytest.mark.parametrize(("method", "path", "group"), [
    ("GET", "/healthz", None),
    ("GET", "/readyz", None),
    ("GET", "/metrics", None),
    ("GET", "/api/health", None),
    ("GET", "/static/site.css", None),
    ("GET", "/conquest/1", "reads"),
    ("GET", "/api/seasons/1/factions/GRN/pool-effect", "questions"),
    ("POST", "/api/seasons/1/contributions", "writes"),
    ("POST", "/conquest/operator/sign-in", "sign_in"),
    ("POST", "/api/upload/verify", "uploads"),
    ("POST", "/clash/games/upload", "uploads"),
    ("POST", "/warscore/upload", "uploads"),
    ("POST", "/api/clash/games", "games"),
    ("POST", "/clash/tables", "games"),
    ("POST", "/ballot/tables", "games"),
])
def test_each_request_falls_in_its_route_group(method: str, path: str,
                                               group: str | None) -> None:
    assert route_group(method, path) == group


def test_a_bucket_allows_its_burst_then_refills_at_its_rate() -> None:
    clock = ManualClock()
    limiter = RateLimiter({"writes": RateLimit(per_minute=60, burst=3)}, clock=clock)
    assert [limiter.take("10.0.0.1", "writes") for _ in range(3)] == [0, 0, 0]
    # Empty: one token a second comes back, so the fourth waits one second.
    assert limiter.take("10.0.0.1", "writes") == pytest.approx(1.0)
    assert limiter.take("10.0.0.2", "writes") == 0, "another client has a bucket of its own"
    assert limiter.take("10.0.0.1", "reads") == 0, "a group without a limit is not limited"
    clock.advance(0.5)
    assert limiter.take("10.0.0.1", "writes") == pytest.approx(0.5)
    clock.advance(0.5)
    assert limiter.take("10.0.0.1", "writes") == 0


def test_across_n_processes_each_refills_at_the_rate_divided_by_n() -> None:
    clock = ManualClock()
    limiter = RateLimiter({"writes": RateLimit(per_minute=60, burst=1)}, processes=4,
                          clock=clock)
    assert limiter.take("a", "writes") == 0
    # 60 a minute over 4 processes: one token every 4 seconds in this one.
    assert limiter.take("a", "writes") == pytest.approx(4.0)
    clock.advance(4.0)
    assert limiter.take("a", "writes") == 0
    assert RateLimiter.retry_after(0.2) == 1
    assert RateLimiter.retry_after(3.01) == 4


def test_a_flood_from_one_address_gets_429_then_recovers(tmp_path: Path) -> None:
    app = ops_app(tmp_path, rate_writes=RateLimit(per_minute=30, burst=2))
    clock = ManualClock()
    app.state.rate_limiter.clock = clock
    with TestClient(app, raise_server_exceptions=False, client=PEER) as client:
        body = {"attacker": {}, "defender": {}}
        answers = [client.post("/api/clash/resolve", json=body) for _ in range(3)]
        assert [a.status_code != 429 for a in answers] == [True, True, False]
        refused = answers[2]
        assert refused.headers["retry-after"] == "2"  # 30 a minute: a token every 2 s
        assert refused.json()["field"] == "rate"
        assert client.get("/healthz").status_code == 200, "health is never limited"
        clock.advance(2.0)
        assert client.post("/api/clash/resolve", json=body).status_code != 429


def test_limits_can_be_switched_off(tmp_path: Path) -> None:
    app = ops_app(tmp_path, rate_limits_enabled=False,
                  rate_writes=RateLimit(per_minute=1, burst=1))
    with TestClient(app, raise_server_exceptions=False, client=PEER) as client:
        statuses = {client.post("/api/clash/resolve", json={}).status_code for _ in range(5)}
    assert 429 not in statuses


def test_a_client_without_an_ip_address_is_not_limited(tmp_path: Path) -> None:
    """A unix-socket peer (or an in-process client) has no address to key a bucket on."""
    app = ops_app(tmp_path, rate_writes=RateLimit(per_minute=1, burst=1))
    with TestClient(app, raise_server_exceptions=False) as client:
        statuses = {client.post("/api/clash/resolve", json={}).status_code for _ in range(5)}
    assert 429 not in statuses


@pytest.mark.parametrize(("trusted", "separate"), [("203.0.113.0/24", True), (None, False)])
def test_buckets_follow_the_forwarded_client_only_from_a_trusted_proxy(
        tmp_path: Path, trusted: str | None, separate: bool) -> None:
    app = ops_app(tmp_path, forwarded_allow_ips=trusted,
                  rate_writes=RateLimit(per_minute=1, burst=1))
    with TestClient(app, raise_server_exceptions=False, client=PEER) as client:
        statuses = [client.post("/api/clash/resolve", json={},
                                headers={"X-Forwarded-For": f"198.51.100.{n}"}).status_code
                    for n in range(3)]
    # Behind a trusted proxy, three visitors have three buckets; otherwise a spoofed header
    # changes nothing and the one peer's bucket is empty after the first request.
    assert (429 not in statuses) is separate
