"""Refusals the web answers with a status other than 422, each still naming field and rule."""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response

from fairfight.web.errors import error_body, wants_json
from fairfight.web.templating import templates

__all__ = ["Refusal", "install_refusals"]


class Refusal(Exception):
    """A request refused with `status` (400, 401, 403, 404, 409, 413), naming the field."""

    def __init__(self, status: int, field: str, rule: str, headers: dict[str, str] | None = None):
        super().__init__(f"{field}: {rule}")
        self.status = status
        self.field = field
        self.rule = rule
        self.headers = headers or {}


def install_refusals(app: FastAPI) -> None:
    """Answer a Refusal in the project's error shape: JSON for the API, a page for browsers."""

    @app.exception_handler(Refusal)
    async def _refused(request: Request, error: Refusal) -> Response:
        response: Response
        if wants_json(request):
            response = JSONResponse(error_body(error.field, error.rule), status_code=error.status)
        else:
            response = templates.TemplateResponse(
                request,
                "error.html",
                {"status": error.status, "field": error.field, "message": error.rule},
                status_code=error.status,
            )
        for name, value in error.headers.items():
            response.headers[name] = value
        return response

    @app.exception_handler(LookupError)
    async def _missing(request: Request, error: LookupError) -> Response:
        message = str(error.args[0]) if error.args else "not found"
        if wants_json(request):
            return JSONResponse(error_body("", message), status_code=404)
        return templates.TemplateResponse(
            request, "error.html", {"status": 404, "field": "", "message": message},
            status_code=404,
        )
