"""Prometheus metrics: parseable, by route template, with labels bounded under a path scan."""

from __future__ import annotations

import hashlib
from pathlib import Path

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from tests.web.ops.support import ops_app


def _samples(text: str, name: str) -> list[tuple[dict[str, str], float]]:
    found = []
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name:
                found.append((dict(sample.labels), sample.value))
    return found


def test_requests_are_counted_by_route_template_and_status_class(tmp_path: Path) -> None:
    app = ops_app(tmp_path, rate_limits_enabled=False)  # a scan this fast is limited otherwise
    with TestClient(app, raise_server_exceptions=False) as client:
        for game in range(300):  # a scanner: every path different
            client.get(f"/clash/seat/game-{game}?token=t{game}")
            client.get(f"/no/such/page/{game}")
        client.get("/healthz")
        text = client.get("/metrics").text
    requests = _samples(text, "fairfight_http_requests_total")
    routes = {labels["route"] for labels, _ in requests}
    assert routes == {"/clash/seat/{game_id}", "unmatched", "/healthz"}
    by_route = {labels["route"]: value for labels, value in requests}
    assert by_route["unmatched"] == 300
    assert by_route["/clash/seat/{game_id}"] == 300
    statuses = {labels["status"] for labels, _ in requests}
    assert statuses <= {"2xx", "3xx", "4xx"}
    latency = _samples(text, "fairfight_http_request_duration_seconds_count")
    assert {labels["route"] for labels, _ in latency} == routes
    series = sum(1 for family in text_string_to_metric_families(text)
                 for _ in family.samples)
    assert series < 200, "600 distinct paths must not make 600 series"
    assert _samples(text, "fairfight_http_requests_in_flight") == [({}, 1.0)]  # the scrape


def test_a_metrics_token_when_configured(tmp_path: Path) -> None:
    digest = hashlib.sha256(b"scraper-token").hexdigest()
    with TestClient(ops_app(tmp_path, metrics_token_sha256=digest)) as client:
        assert client.get("/metrics").status_code == 401
        wrong = client.get("/metrics", headers={"Authorization": "Bearer nope"})
        assert wrong.status_code == 401
        right = client.get("/metrics", headers={"Authorization": "Bearer scraper-token"})
    assert right.status_code == 200
    assert "fairfight_http_requests_total" in right.text
