"""Every route that takes a body, sent JSON nested 32,000 deep, numbers of 5,000 digits and the
same inside a form field: a 4xx with one line, never a 500 or a traceback. Routes are taken
from the app itself, so a new route is fuzzed without anyone listing it."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from fairfight.web import WebSettings, create_app
from fairfight.web.json_bodies import (
    MAX_JSON_DEPTH,
    MAX_NUMBER_CHARACTERS,
    JsonBodyLimits,
    json_shape_problem,
)

DEEP = 32_000
HOSTILE_BODIES = {
    "deep array": b"[" * DEEP + b"]" * DEEP,
    "deep object": b'{"a":' * DEEP + b"1" + b"}" * DEEP,
    "deep inside a field": b'{"decision": ' + b"[" * DEEP + b"]" * DEEP + b"}",
    "long number": b'{"version": ' + b"7" * 5000 + b"}",
    "bare long number": b"9" * 5000,
}


def _walk(routes: list[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    """Every route with its full path prefix, into included routers too."""
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            context = getattr(route, "include_context", None)
            yield from _walk(included.routes, prefix + getattr(context, "prefix", ""))
        else:
            yield prefix, route


def _body_routes() -> list[tuple[str, str]]:
    """(method, path) of every route that reads a body, path parameters filled in."""
    app = create_app(WebSettings(database_url="sqlite://"))
    found = []
    for prefix, route in _walk(list(app.routes)):
        if not isinstance(route, APIRoute):
            continue
        for method in sorted(route.methods & {"POST", "PUT", "PATCH", "DELETE"}):
            found.append((method, re.sub(r"\{[^}]+\}", "1", prefix + route.path)))
    return sorted(set(found))


ROUTES = _body_routes()


def test_the_routes_were_found() -> None:
    paths = {path for _, path in ROUTES}
    assert len(ROUTES) >= 10
    assert any(path.startswith("/api/ballot") for path in paths)
    assert any(path.startswith("/api/seasons") for path in paths)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> TestClient:
    folder: Path = tmp_path_factory.mktemp("json-bodies")
    app = create_app(WebSettings(database_url=f"sqlite:///{folder / 'ff.db'}"))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client  # type: ignore[misc]


def _assert_refused_in_one_line(answer: object, where: str) -> None:
    status, text = answer.status_code, answer.text  # type: ignore[attr-defined]
    assert 400 <= status < 500, (where, status, text[:300])
    assert "Traceback" not in text and "RecursionError" not in text, where


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_hostile_json_bodies_are_refused_in_one_line(
    client: TestClient, method: str, path: str,
) -> None:
    for name, body in HOSTILE_BODIES.items():
        answer = client.request(method, path, content=body,
                                headers={"content-type": "application/json"})
        _assert_refused_in_one_line(answer, f"{method} {path}: {name}")
        assert answer.status_code in (413, 422), (method, path, name)  # 413: over the size cap
        refusal = answer.json()
        assert refusal["field"] == "body" and "\n" not in answer.text


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_hostile_form_fields_are_refused_in_one_line(
    client: TestClient, method: str, path: str,
) -> None:
    for field in ("spec", "decision", "version"):
        for name in ("deep array", "long number"):
            answer = client.request(method, path, data={field: HOSTILE_BODIES[name].decode()})
            _assert_refused_in_one_line(answer, f"{method} {path}: {field} {name}")
            assert answer.status_code in (413, 422)


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_large_but_allowed_numbers_reach_the_app_and_get_a_4xx(
    client: TestClient, method: str, path: str,
) -> None:
    number = "9" * MAX_NUMBER_CHARACTERS
    for body in (f'{{"version": {number}, "amount": {number}, "seats": [{number}]}}',
                 f"[{number}]", '{"amount": 1e400}'):
        answer = client.request(method, path, content=body.encode(),
                                headers={"content-type": "application/json"})
        assert answer.status_code != 500, (method, path, body[:60], answer.text[:300])


def test_the_shape_check_counts_what_a_json_reader_would() -> None:
    at_limit = "[" * MAX_JSON_DEPTH + "]" * MAX_JSON_DEPTH
    assert json_shape_problem(at_limit.encode()) is None
    json.loads(at_limit)  # the limit is well inside what the reader itself survives
    assert json_shape_problem(b"[" + at_limit.encode() + b"]") is not None
    # brackets and digits inside strings are text, not nesting or numbers
    quoted = json.dumps({"note": "[" * 5000 + "9" * 5000, "escaped": '\\"[[['})
    assert json_shape_problem(quoted.encode()) is None
    # a string that never closes hides nothing after it from a reader: it stops there
    assert json_shape_problem(b'{"a": "' + b"[" * 5000) is None
    assert json_shape_problem(b"{" * 10 + b"}" * 10 + b"[" * 70) is not None


def test_the_shortest_refused_texts_are_still_refused() -> None:
    """Short texts are not scanned: the shortest that break a rule are one bracket past the
    depth (65 bytes) and one digit past the length (101 bytes), counted by hand."""
    assert json_shape_problem(b"[" * 65) is not None
    assert json_shape_problem(b"[" * 64) is None
    assert json_shape_problem(b"1" * 101) is not None
    assert json_shape_problem(b"[" + b"1" * 100 + b"]") is None


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_digit_strings_in_json_fields_never_reach_a_500(
    client: TestClient, method: str, path: str,
) -> None:
    names = ("amount", "version", "years", "seat", "turn", "r", "count", "round", "priority",
             "clock_bank")
    for text in ("5" * 5000, "²", "٣"):
        body = {name: text for name in names} | {"faction": "AB", "seats": [text]}
        answer = client.request(method, path, json=body)
        assert answer.status_code < 500, (method, path, text[:8], answer.text[:300])
        assert "Traceback" not in answer.text


def test_a_multipart_upload_streams_past_the_shape_check() -> None:
    """An upload reaches the app chunk by chunk as it arrives, never gathered here first."""
    arriving = [{"type": "http.request", "body": b"part %d" % n, "more_body": n < 2}
                for n in range(3)]
    seen: list[dict[str, Any]] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        for _ in arriving:
            seen.append(await receive())

    sent = iter(arriving)

    async def receive() -> dict[str, Any]:
        return next(sent, {"type": "http.disconnect"})

    async def send(message: Any) -> None:
        raise AssertionError(f"nothing is answered here: {message}")

    scope = {"type": "http", "method": "POST", "path": "/api/upload/verify",
             "headers": [(b"content-type", b"multipart/form-data; boundary=x")]}
    asyncio.run(JsonBodyLimits(app)(scope, receive, send))
    assert seen == arriving
