"""One JSON line per request, without query strings; request ids echoed or replaced; the
client taken from a proxy's header only when that proxy is trusted."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.web.ops.clients import TrustedProxies, forwarded_client
from fairfight.web.ops.request_log import ACCESS_LOGGER
from tests.web.ops.support import ops_app


def _lines(caplog: pytest.LogCaptureFixture) -> list[dict[str, object]]:
    return [json.loads(record.getMessage()) for record in caplog.records
            if record.name == ACCESS_LOGGER]


def test_each_request_logs_one_json_line_without_its_query(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", logger=ACCESS_LOGGER)
    with TestClient(ops_app(tmp_path), raise_server_exceptions=False) as client:
        caplog.clear()
        answer = client.get("/clash/seat/abc123?token=very-secret-seat-token")
        client.get("/healthz")
    lines = _lines(caplog)
    assert len(lines) == 2
    seat, health = lines
    assert set(seat) == {"time", "request_id", "method", "path", "route", "status",
                         "duration_ms", "bytes", "client"}
    assert seat["path"] == "/clash/seat/abc123"
    assert seat["route"] == "/clash/seat/{game_id}"
    assert seat["method"] == "GET"
    assert seat["status"] == answer.status_code
    assert seat["bytes"] == len(answer.content)
    assert seat["client"] == "testclient"
    assert seat["request_id"] == answer.headers["x-request-id"]
    assert isinstance(seat["duration_ms"], float) and seat["duration_ms"] >= 0
    assert datetime.fromisoformat(str(seat["time"])).tzinfo is not None
    assert "very-secret" not in caplog.text
    assert health["path"] == "/healthz" and health["status"] == 200


def test_the_json_log_can_be_switched_off(tmp_path: Path,
                                          caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", logger=ACCESS_LOGGER)
    with TestClient(ops_app(tmp_path, request_log=False)) as client:
        client.get("/healthz")
    assert _lines(caplog) == []


def test_a_well_formed_request_id_is_echoed(tmp_path: Path,
                                            caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("INFO", logger=ACCESS_LOGGER)
    with TestClient(ops_app(tmp_path)) as client:
        answer = client.get("/healthz", headers={"X-Request-ID": "req-2026.12:abc_01"})
    assert answer.headers["x-request-id"] == "req-2026.12:abc_01"
    assert _lines(caplog)[-1]["request_id"] == "req-2026.12:abc_01"


@pytest.mark.parametrize("hostile", [
    "x" * 65,                      # too long
    "short",                       # too short to be an id
    'abc" , "status": 200 , "x',   # quotes to forge a log field
    "abcdefgh\tinjected",          # control character
    "<script>alert(1)</script>",
])
def test_a_hostile_request_id_is_replaced(tmp_path: Path, hostile: str) -> None:
    with TestClient(ops_app(tmp_path)) as client:
        answer = client.get("/healthz", headers={"X-Request-ID": hostile})
    echoed = answer.headers["x-request-id"]
    assert echoed != hostile
    assert re.fullmatch(r"[0-9a-f]{32}", echoed)


def test_each_request_without_an_id_gets_a_new_one(tmp_path: Path) -> None:
    with TestClient(ops_app(tmp_path)) as client:
        ids = {client.get("/healthz").headers["x-request-id"] for _ in range(5)}
    assert len(ids) == 5


def test_forwarded_for_is_believed_only_from_a_trusted_proxy() -> None:
    proxies = TrustedProxies.parse("10.0.0.0/8, 192.168.1.7")
    # An untrusted peer is the client, whatever header it sends.
    assert forwarded_client("203.0.113.9", "1.2.3.4", proxies) == "203.0.113.9"
    # A trusted proxy: the nearest untrusted hop is the client, not the first (spoofable) one.
    assert forwarded_client("10.1.2.3", "6.6.6.6, 198.51.100.4", proxies) == "198.51.100.4"
    assert forwarded_client("10.1.2.3", "198.51.100.4, 192.168.1.7", proxies) == "198.51.100.4"
    assert forwarded_client("10.1.2.3", None, proxies) == "10.1.2.3"
    assert forwarded_client("1.1.1.1", "2.2.2.2", TrustedProxies.parse(None)) == "1.1.1.1"
    assert forwarded_client("1.1.1.1", "2.2.2.2", TrustedProxies.parse("*")) == "2.2.2.2"


def test_a_bad_proxy_setting_is_refused_naming_the_setting() -> None:
    with pytest.raises(ValueError, match="forwarded_allow_ips"):
        TrustedProxies.parse("10.0.0.1, not-an-address")


@pytest.mark.parametrize(("trusted", "logged"), [(None, "testclient"), ("*", "198.51.100.4")])
def test_the_log_names_the_forwarded_client_only_when_trusted(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, trusted: str | None,
        logged: str) -> None:
    caplog.set_level("INFO", logger=ACCESS_LOGGER)
    with TestClient(ops_app(tmp_path, forwarded_allow_ips=trusted)) as client:
        client.get("/healthz", headers={"X-Forwarded-For": "198.51.100.4"})
    assert _lines(caplog)[-1]["client"] == logged
