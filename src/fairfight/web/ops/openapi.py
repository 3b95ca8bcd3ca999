"""The OpenAPI document as the API really answers: one error shape, every status, the bearer.

FastAPI documents only the 200 and its own 422 (with a body shape the service never sends).
Every refusal here has one body, `ErrorBody` (`{"detail", "field", "message", "value"}`);
this module declares it as `Error` and lists, on each operation, the statuses it can answer with it:
422 for any input, 404 where the path names something, 403, 409 and 413 for writes (the
cross-site guard, conflicts, the body limit), 401 and the `operatorToken` bearer scheme on the
operator's routes, and 429, 500 and 503 (rate limit, internal error, outage or full pool)
everywhere that is limited. `tests/web/ops/test_openapi.py` compares the document with
real answers.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from fairfight.web.errors import ErrorBody
from fairfight.web.ops.rate_limit import EXEMPT_PREFIXES
from fairfight.web.wing import documented_routes

__all__ = ["ERROR_DESCRIPTIONS", "install_openapi", "statuses_for"]

ERROR_DESCRIPTIONS = {
    400: "The body is not JSON.",
    401: "No valid `Authorization: Bearer TOKEN`.",
    403: "Refused: a cross-site request, or not allowed in this state.",
    404: "Nothing of that name or number.",
    409: "A conflict: the state moved on, or the same key is in flight.",
    413: "The request body is larger than the service accepts.",
    422: "An input broke a rule; `field` names it.",
    429: "Too many requests from this address; wait `Retry-After` seconds.",
    500: "An internal error (never a traceback).",
    503: "A database is not answering or the service is busy; wait `Retry-After` seconds.",
}
_WRITES = {"post", "put", "patch", "delete"}
_SECURITY_SCHEME = {"operatorToken": {
    "type": "http", "scheme": "bearer",
    "description": "The operator's token; the service keeps only its SHA-256."}}


def statuses_for(method: str, path: str, operation: dict[str, Any]) -> list[int]:
    """The error statuses one operation can answer with."""
    codes = {500}
    if not path.startswith(EXEMPT_PREFIXES):
        codes |= {429, 503}
    if operation.get("parameters") or operation.get("requestBody"):
        codes.add(422)
    if "{" in path:
        codes.add(404)
    if method in _WRITES:
        codes |= {403, 409, 413}
    if "operator" in operation.get("tags", []):
        codes |= {400, 401, 403}
    return sorted(codes)


def _declare_errors(schema: dict[str, Any]) -> None:
    components = schema.setdefault("components", {})
    schemas = components.setdefault("schemas", {})
    schemas["Error"] = ErrorBody.model_json_schema()
    components["securitySchemes"] = _SECURITY_SCHEME
    error_content = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
    for path, item in schema.get("paths", {}).items():
        for method, operation in item.items():
            responses = operation.setdefault("responses", {})
            for code in statuses_for(method, path, operation):
                entry = responses.setdefault(str(code), {})
                entry.setdefault("description", ERROR_DESCRIPTIONS[code])
                uses_fastapi_shape = "HTTPValidationError" in json.dumps(entry)
                if "content" not in entry or uses_fastapi_shape:
                    entry["content"] = error_content
            if "operator" in operation.get("tags", []):
                operation["security"] = [{"operatorToken": []}]
    text = json.dumps(schema.get("paths", {}))
    for unused in ("HTTPValidationError", "ValidationError"):
        if f"/{unused}\"" not in text:
            schemas.pop(unused, None)


def install_openapi(app: FastAPI) -> None:
    """Make `/openapi.json` the document described above (built once, on first request)."""

    def document() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version,
                                 description=app.description,
                                 routes=documented_routes(app))
            _declare_errors(schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = document  # type: ignore[method-assign]
