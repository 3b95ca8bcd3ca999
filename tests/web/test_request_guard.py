"""The merged protections layer answers as the four layers it replaced, in their order."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import APIRouter
from fastapi.testclient import TestClient

from fairfight.web import WebSettings, create_app
from fairfight.web.app import UPLOAD_PATH_PREFIXES
from fairfight.web.request_guard import RequestGuard
from fairfight.web.security import CONTENT_SECURITY_POLICY, EMBED_CONTENT_SECURITY_POLICY

LIMIT = 2048


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    app = create_app(WebSettings(max_body_bytes=LIMIT, database_url="sqlite://"))
    probe = APIRouter()

    @probe.post("/api/probe/echo")
    async def echo(body: dict[str, int]) -> dict[str, int]:
        return body

    @probe.get("/embed/probe")
    def embed() -> dict[str, str]:
        return {"page": "embed"}

    app.include_router(probe)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def test_it_is_one_layer_of_the_app() -> None:
    app = create_app(WebSettings(database_url="sqlite://"))
    guards = [m for m in app.user_middleware if m.cls is RequestGuard]
    assert len(guards) == 1
    assert guards[0].kwargs["upload_prefixes"] == UPLOAD_PATH_PREFIXES


def test_a_write_passes_with_its_body_read_once(client: TestClient) -> None:
    answer = client.post("/api/probe/echo", json={"a": 1})
    assert (answer.status_code, answer.json()) == (200, {"a": 1})
    assert answer.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert answer.headers["x-frame-options"] == "DENY"


def test_size_comes_before_origin_and_origin_before_shape(client: TestClient) -> None:
    other_site = {"Origin": "https://elsewhere.example", "Content-Type": "application/json"}
    too_deep = b"[" * 70 + b"]" * 70
    big = b'{"a": ' + b" " * LIMIT + b"1}"
    assert client.post("/api/probe/echo", content=big, headers=other_site).status_code == 413
    assert client.post("/api/probe/echo", content=too_deep,
                       headers=other_site).status_code == 403
    refused = client.post("/api/probe/echo", content=too_deep,
                          headers={"Content-Type": "application/json"})
    assert refused.status_code == 422
    assert refused.json()["field"] == "body"
    assert "nested deeper than 64" in refused.json()["message"]
    # the shape refusal is sent by the guard itself and still carries the headers
    assert refused.headers["content-security-policy"] == CONTENT_SECURITY_POLICY


def test_a_bad_content_length_is_too_large(client: TestClient) -> None:
    answer = client.post("/api/probe/echo", content=b"{}",
                         headers={"Content-Type": "application/json", "Content-Length": "x"})
    assert answer.status_code == 413
    assert answer.json()["message"] == f"at most {LIMIT} bytes"


def test_a_frameable_page_may_be_framed(client: TestClient) -> None:
    answer = client.get("/embed/probe")
    assert answer.headers["content-security-policy"] == EMBED_CONTENT_SECURITY_POLICY
    assert "x-frame-options" not in answer.headers
