"""The cross-site guard with `public_url`: the origin must be the public one, whatever Host a
proxy sends; without it, the origin's host must be the Host."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.web.ops.support import ops_app

PUBLIC = "https://battles.example"


@pytest.mark.parametrize(("origin", "host", "allowed"), [
    ("https://battles.example", "127.0.0.1:8000", True),       # the proxy rewrote Host
    ("https://battles.example:443", "internal", True),         # the default port spelt out
    ("https://BATTLES.example", "internal", True),
    ("http://battles.example", "battles.example", False),      # another scheme
    ("https://battles.example:8443", "battles.example", False),
    ("https://evil.example", "evil.example", False),           # a forged Host no longer helps
    ("null", "battles.example", False),
])
def test_with_a_public_url_the_origin_must_be_it(tmp_path: Path, origin: str, host: str,
                                                 allowed: bool) -> None:
    with TestClient(ops_app(tmp_path, public_url=PUBLIC),
                    raise_server_exceptions=False) as client:
        answer = client.post("/api/clash/resolve", json={},
                             headers={"origin": origin, "host": host})
    assert (answer.status_code != 403) is allowed, answer.text
    if not allowed:
        assert answer.json()["field"] == "origin"


def test_without_a_public_url_the_origin_must_match_the_host(tmp_path: Path) -> None:
    with TestClient(ops_app(tmp_path), raise_server_exceptions=False) as client:
        same = client.post("/api/clash/resolve", json={},
                           headers={"origin": "http://testserver"})
        other = client.post("/api/clash/resolve", json={},
                            headers={"origin": "https://battles.example"})
    assert same.status_code == 422
    assert other.status_code == 403
