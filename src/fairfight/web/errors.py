"""Errors as the web shows them: one line naming the field, JSON under /api/, a page elsewhere.

Every refusal of the rules is 422 with the field and the rule; an unexpected failure is a 500
that never shows a traceback.
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from fairfight.core.errors import InputError, VerificationError
from fairfight.web.strict_input import given_value, plain_rule
from fairfight.web.templating import templates

__all__ = ["ErrorBody", "error_body", "error_response", "install_error_handlers", "wants_json"]

_log = logging.getLogger("fairfight.web")


class ErrorBody(BaseModel):
    """The body of every 4xx and 5xx answer under /api/ (the OpenAPI document's `Error`)."""

    detail: str = Field(description="The field and the rule as one line: `field: rule`.")
    field: str = Field(description="The input that was refused (`amount`, `body`, "
                       "`authorization`, ...); empty when the refusal names none.")
    message: str = Field(description="The rule that was broken, or what went wrong.")
    value: str | None = Field(description="The value given, as JSON, shortened past "
                              "40 characters; null when the refusal quotes none.")


def wants_json(request: Request) -> bool:
    """API paths, and any caller that asks for JSON, get JSON errors; browsers get a page."""
    if request.url.path.startswith("/api/") or request.url.path.endswith(".json"):
        return True
    accept = request.headers.get("accept", "")
    return "application/json" in accept and "text/html" not in accept


def error_body(field: str, message: str, value: str | None = None) -> dict[str, str | None]:
    """The one JSON shape of every error: the field, the rule, the value given (when known,
    already shortened by `shown_value`), and all three as one line."""
    one_line = " ".join(message.split())
    detail = f"{field}: {one_line}" if field else one_line
    if value is not None:
        detail += f" (given {value})"
    return {"detail": detail, "field": field, "message": one_line, "value": value}


def error_response(request: Request, status: int, field: str, message: str,
                   headers: dict[str, str] | None = None, value: str | None = None) -> Response:
    """An error in the shape the caller reads: the JSON body for the API, the page otherwise."""
    response: Response
    if wants_json(request):
        response = JSONResponse(error_body(field, message, value), status_code=status)
    else:
        shown = message if value is None else f"{message} (given {value})"
        response = templates.TemplateResponse(
            request, "error.html", {"status": status, "field": field, "message": shown},
            status_code=status,
        )
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response



def _field_of(location: tuple[int | str, ...]) -> str:
    parts = [part for part in location if part not in ("body", "query", "path", "header", "form")]
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    if not text and location:
        text = str(location[0])
    return text or "request"


def install_error_handlers(app: FastAPI) -> None:
    """Register the handlers that turn every failure into the shapes above."""

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, error: RequestValidationError) -> Response:
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
        return error_response(request, 422, _field_of(tuple(first.get("loc", ()))),
                              plain_rule(first), value=given_value(first))

    @app.exception_handler(InputError)
    async def _input(request: Request, error: InputError) -> Response:
        return error_response(request, 422, error.field, error.rule, value=error.given)

    @app.exception_handler(VerificationError)
    async def _verification(request: Request, error: VerificationError) -> Response:
        return error_response(request, 409, error.place, error.detail)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, error: StarletteHTTPException) -> Response:
        detail = error.detail if isinstance(error.detail, str) else "request refused"
        return error_response(request, error.status_code, "", detail,
                              headers=dict(error.headers or {}))

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, error: Exception) -> Response:
        _log.exception("unexpected error on %s %s", request.method, request.url.path)
        if wants_json(request):
            return JSONResponse(error_body("", "internal error"), status_code=500)
        return HTMLResponse("<!doctype html><title>Error</title><p>Internal error.</p>",
                            status_code=500)
