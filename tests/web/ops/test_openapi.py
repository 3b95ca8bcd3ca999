"""The OpenAPI document states the real error shape, each refusal's status and the bearer
scheme; real refusals are compared with it. /api/docs is a page of our own under the CSP."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fairfight.web.ops.rate_limit import RateLimit
from tests.web.ops.support import ops_app


@pytest.fixture
def client(tmp_path: Path) -> Any:
    app = ops_app(tmp_path, rate_writes=RateLimit(per_minute=1, burst=2))
    with TestClient(app, raise_server_exceptions=False,
                    client=("203.0.113.5", 50000)) as test_client:
        yield test_client


def _declared(document: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    responses: dict[str, Any] = document["paths"][path][method]["responses"]
    return responses


def _matches_error_schema(document: dict[str, Any], body: Any) -> None:
    error = document["components"]["schemas"]["Error"]
    assert set(body) == set(error["properties"]) == set(error["required"])
    assert all(isinstance(body[name], str) for name in ("detail", "field", "message"))
    assert body["value"] is None or isinstance(body["value"], str)  # the value given, if any


def test_the_document_declares_one_error_shape_and_the_bearer(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    assert "HTTPValidationError" not in str(document), "FastAPI's shape is never sent"
    assert document["components"]["securitySchemes"]["operatorToken"] == {
        "type": "http", "scheme": "bearer",
        "description": "The operator's token; the service keeps only its SHA-256."}
    operator = [(path, method, operation) for path, item in document["paths"].items()
                for method, operation in item.items() if "operator" in operation["tags"]]
    assert operator, "the operator's routes are in the document"
    for _, _, operation in operator:
        assert operation["security"] == [{"operatorToken": []}]
        assert {"401", "403"} <= set(operation["responses"])
    for path, item in document["paths"].items():
        for method, operation in item.items():
            for code, answer in operation["responses"].items():
                if code.startswith(("4", "5")) and path != "/readyz":
                    schema = answer["content"]["application/json"]["schema"]
                    assert schema == {"$ref": "#/components/schemas/Error"}, (method, path)


@pytest.mark.parametrize(("method", "url", "template", "status"), [
    ("get", "/api/seasons/7", "/api/seasons/{season_id}", 404),
    ("get", "/api/seasons/1/factions/GRN/pool-effect?amount=-1",
     "/api/seasons/{season_id}/factions/{code}/pool-effect", 422),
    ("post", "/api/seasons/1/operator/air", "/api/seasons/{season_id}/operator/air", 401),
    ("post", "/api/clash/resolve", "/api/clash/resolve", 422),
])
def test_real_refusals_are_declared_with_their_shape(client: TestClient, method: str, url: str,
                                                     template: str, status: int) -> None:
    document = client.get("/openapi.json").json()
    answer = client.request(method.upper(), url, json={} if method == "post" else None)
    assert answer.status_code == status, answer.text
    assert str(status) in _declared(document, method, template)
    _matches_error_schema(document, answer.json())


def test_cross_site_too_large_and_rate_limited_answers_are_declared(client: TestClient) -> None:
    document = client.get("/openapi.json").json()
    declared = _declared(document, "post", "/api/clash/resolve")
    cross = client.post("/api/clash/resolve", json={},
                        headers={"origin": "https://evil.example"})
    large = client.post("/api/clash/resolve", content=b"{" + b" " * 70_000 + b"}",
                        headers={"content-type": "application/json"})
    limited = client.post("/api/clash/resolve", json={})
    for answer, status in ((cross, 403), (large, 413), (limited, 429)):
        assert answer.status_code == status
        assert str(status) in declared
        _matches_error_schema(document, answer.json())


def test_api_docs_is_served_locally_without_script(client: TestClient) -> None:
    page = client.get("/api/docs")
    assert page.status_code == 200
    assert "script-src 'self'" in page.headers["content-security-policy"]
    assert "<script" not in page.text, "nothing for the CSP to refuse"
    assert "cdn" not in page.text.lower()
    assert "POST /api/seasons/{season_id}/operator/air</code> · <em>operator</em>" in page.text
    assert "<strong>429</strong>" in page.text
