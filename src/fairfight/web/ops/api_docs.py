"""`/api/docs`: the API reference as a page of our own, rendered from the OpenAPI document.

FastAPI's Swagger page loads its script from a CDN and runs an inline script, both refused by
the pages' content security policy (scripts from our own origin only). This page needs no
script at all: the server lists each operation, its parameters and every status it answers,
from the same document `/openapi.json` serves, so the two cannot disagree.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel

from fairfight.web.templating import templates

__all__ = ["ApiOperation", "api_docs", "api_docs_router", "operations_of"]

api_docs_router = APIRouter()


class ApiOperation(BaseModel):
    """One operation as the reference lists it."""

    method: str
    path: str
    summary: str
    description: str
    tag: str
    parameters: list[str]
    statuses: list[tuple[str, str]]
    bearer: bool


def operations_of(schema: dict[str, Any]) -> list[ApiOperation]:
    """Every operation of an OpenAPI document, grouped by tag, then path and method."""
    found = []
    for path, item in schema.get("paths", {}).items():
        for method, operation in item.items():
            found.append(ApiOperation(
                method=method.upper(), path=path,
                summary=operation.get("summary", ""),
                description=operation.get("description", ""),
                tag=(operation.get("tags") or ["other"])[0],
                parameters=[f"{p['name']} ({p['in']})" for p in operation.get("parameters", [])],
                statuses=[(code, str(answer.get("description", "")))
                          for code, answer in sorted(operation.get("responses", {}).items())],
                bearer=bool(operation.get("security")),
            ))
    return sorted(found, key=lambda op: (op.tag, op.path, op.method))


@api_docs_router.get("/api/docs", response_class=HTMLResponse, include_in_schema=False)
def api_docs(request: Request) -> HTMLResponse:
    """The reference page (no script; the JSON document is at /openapi.json)."""
    operations = operations_of(request.app.openapi())
    return templates.TemplateResponse(request, "api_docs.html", {"operations": operations})
