"""The service's shell: security headers, body limits, cross-site refusals, error shapes."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi import APIRouter, FastAPI
from fastapi.testclient import TestClient
from pydantic import BaseModel

from fairfight.core.errors import InputError
from fairfight.web import WebSettings, create_app
from fairfight.web.security import CONTENT_SECURITY_POLICY


class Echo(BaseModel):
    amount: int


def _app_with_probe_routes() -> FastAPI:
    app = create_app(WebSettings(max_body_bytes=2048, database_url="sqlite://"))
    probe = APIRouter()

    @probe.post("/api/probe/echo")
    def echo(body: Echo) -> Echo:
        return body

    @probe.get("/api/probe/refuse")
    def refuse() -> None:
        raise InputError("faction", "no such faction")

    @probe.get("/api/probe/crash")
    def crash() -> None:
        raise RuntimeError("secret internals /home/operator")

    @probe.get("/probe/crash")
    def crash_page() -> None:
        raise RuntimeError("secret internals /home/operator")

    app.include_router(probe)
    return app


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(_app_with_probe_routes(), raise_server_exceptions=False) as test_client:
        yield test_client


def test_front_page_lists_sections_and_carries_security_headers(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert "fairfight" in response.text
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert "'unsafe-inline'" not in CONTENT_SECURITY_POLICY
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["x-frame-options"] == "DENY"


def test_static_stylesheet_is_served_locally(client: TestClient) -> None:
    response = client.get("/static/site.css")
    assert response.status_code == 200
    assert "text/css" in response.headers["content-type"]
    page = client.get("/").text
    assert "http://" not in page.replace("http://testserver", "")
    assert "https://" not in page


def test_health_and_openapi(client: TestClient) -> None:
    assert client.get("/api/health").json()["status"] == "ok"
    assert "/api/health" in client.get("/openapi.json").json()["paths"]


def test_bad_body_is_422_naming_the_field(client: TestClient) -> None:
    response = client.post("/api/probe/echo", json={"amount": "ten"})
    assert response.status_code == 422
    assert response.json()["field"] == "amount"
    assert response.json()["detail"].startswith("amount: ")


def test_rule_refusal_is_422_with_field_and_rule(client: TestClient) -> None:
    response = client.get("/api/probe/refuse")
    assert response.status_code == 422
    assert response.json() == {"detail": "faction: no such faction", "field": "faction",
                               "message": "no such faction", "value": None}


@pytest.mark.parametrize("path", ["/api/probe/crash", "/probe/crash"])
def test_a_crash_never_shows_a_traceback(client: TestClient, path: str) -> None:
    response = client.get(path, headers={"accept": "text/html"})
    assert response.status_code == 500
    assert "Traceback" not in response.text
    assert "secret internals" not in response.text
    assert "RuntimeError" not in response.text


def test_oversized_body_is_refused_with_413(client: TestClient) -> None:
    response = client.post("/api/probe/echo", content=b"{" + b" " * 5000 + b"}",
                           headers={"content-type": "application/json"})
    assert response.status_code == 413


def test_oversized_streamed_body_is_refused_with_413(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(10):
            yield b" " * 1000

    response = client.post("/api/probe/echo", content=chunks(),
                           headers={"content-type": "application/json"})
    assert response.status_code == 413


@pytest.mark.parametrize("headers", [
    {"origin": "https://evil.example"},
    {"origin": "null"},
    {"referer": "https://evil.example/page"},
    {"sec-fetch-site": "cross-site"},
])
def test_cross_site_posts_are_refused(client: TestClient, headers: dict[str, str]) -> None:
    response = client.post("/api/probe/echo", json={"amount": 1}, headers=headers)
    assert response.status_code == 403


def test_same_site_post_is_accepted(client: TestClient) -> None:
    response = client.post("/api/probe/echo", json={"amount": 1},
                           headers={"origin": "http://testserver"})
    assert response.status_code == 200
    assert response.json() == {"amount": 1}


def test_unknown_page_is_a_page_and_unknown_api_is_json(client: TestClient) -> None:
    page = client.get("/no-such-page", headers={"accept": "text/html"})
    assert page.status_code == 404 and "<html" in page.text
    api = client.get("/api/no-such-thing")
    assert api.status_code == 404 and api.json()["message"] == "Not Found"
