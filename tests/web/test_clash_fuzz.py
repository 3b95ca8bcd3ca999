"""API fuzz from the OpenAPI schema for the clash and war score endpoints: never a 500.

Schemathesis generates requests from the published schema (bounded examples, derandomized
by the test profile); every answer must be a success or a refusal with the error shape.
The sandbox endpoints are called inside a started game (its session cookie is sent).
"""

from __future__ import annotations

from typing import Any

import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings

from fairfight.web import WebSettings, create_app
from fairfight.web.clash.games import COOKIE

APP = create_app(WebSettings(database_url="sqlite://"))
with TestClient(APP) as _client:
    _client.post("/api/clash/games", json={"scenario": "belvoir-wood"})
    SESSION = _client.cookies.get(COOKIE) or ""

SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP)
OURS = SCHEMA.include(path_regex=r"^/api/(clash|warscore)/")


def check(response: Any) -> None:
    assert response.status_code < 500, response.text
    if response.status_code == 422:
        body = response.json()
        assert {"detail", "field", "message"} <= set(body)


@OURS.parametrize()
@settings(max_examples=12, suppress_health_check=list(HealthCheck), deadline=None)
def test_no_server_error(case: Any) -> None:
    response = case.call(headers={"cookie": f"{COOKIE}={SESSION}"},
                         timeout=120)  # a safety net for a loaded machine, not a speed check
    check(response)
