"""Routers tried first (`wing.match_first`) answer exactly what they answered in their place.

Moving a router to the front of the matching order is only safe when no route before it, in
the order the parts joined, also fully matches one of its requests; otherwise the move would
change which handler answers. Each moved route is asked with its own method and a path made
from its template, and the routes that came before it must all say no.
"""

from __future__ import annotations

import re

import pytest
from fastapi import APIRouter, FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.routing import Match

from fairfight.web import WebSettings, create_app
from fairfight.web.conquest.routes import write
from fairfight.web.wing import documented_routes


@pytest.fixture(scope="module")
def app() -> FastAPI:
    return create_app(WebSettings(database_url="sqlite://"))


def _sample_path(template: str) -> str:
    """The template with every parameter replaced by `1` (ids, season numbers)."""
    return re.sub(r"\{[^}]+\}", "1", template)


def _scope(method: str, path: str) -> dict[str, object]:
    return {"type": "http", "method": method, "path": path, "root_path": "", "headers": [],
            "query_string": b""}


def test_the_contributions_router_is_tried_first(app: FastAPI) -> None:
    first = app.router.routes[0]
    assert getattr(first, "original_router", None) is write.router


def test_no_earlier_route_answers_a_moved_request(app: FastAPI) -> None:
    moved: list[APIRouter] = app.state.matched_first
    assert moved == [write.router]
    documented = documented_routes(app)
    asked = 0
    for router in moved:
        place = next(index for index, route in enumerate(documented)
                     if getattr(route, "original_router", None) is router)
        for route in router.routes:
            assert isinstance(route, APIRoute)
            for method in route.methods:
                scope = _scope(method, _sample_path(route.path))
                assert documented[place].matches(dict(scope))[0] == Match.FULL, route.path
                earlier = [other for other in documented[:place]
                           if other.matches(dict(scope))[0] == Match.FULL]
                assert earlier == [], (method, route.path)
                asked += 1
    assert asked == len(write.router.routes)  # one method each: every route was asked


def test_openapi_lists_paths_in_the_order_the_parts_joined(app: FastAPI) -> None:
    """The contributions path is not listed first although it is matched first."""
    paths = list(TestClient(app).get("/openapi.json").json()["paths"])
    contributions = paths.index("/api/seasons/{season_id}/contributions")
    assert contributions > 0
    assert paths.index("/api/payments/webhook") > contributions
