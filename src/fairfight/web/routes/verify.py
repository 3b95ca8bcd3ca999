"""The season verify page: a fan drops a season archive and the browser replays it.

The replay runs in the fan's browser, in a Web Worker, with `engine.js` (the independent
JavaScript engine every archive also carries), so nothing is uploaded and the page keeps
working offline once loaded. Without JavaScript, the same form posts the archive and the
server checks it with the Python verifier; `POST /api/upload/verify` is the JSON twin.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Sequence
from importlib.resources import files
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, File, Request, UploadFile
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel

from fairfight.core.errors import InputError, VerificationError
from fairfight.web.templating import templates

__all__ = [
    "NAV",
    "VerifyResult",
    "engine_script",
    "router",
    "season_log_script",
    "verify_page",
    "verify_upload",
]

router = APIRouter()
NAV = (80, "Verify a season", "/verify")


class VerifyResult(BaseModel):
    """The verdict on one season archive: the checks passed, or the first difference."""

    ok: bool
    battles: int | None = None
    notes: list[str] = []
    place: str | None = None
    detail: str | None = None
    message: str


def _is_receipt(data: bytes) -> bool:
    """A saved file is a receipt when it is a JSON object with a `format` field, else a head
    (the page's worker sorts dropped files the same way)."""
    try:
        value = json.loads(data)
    except ValueError:
        return False
    return isinstance(value, dict) and "format" in value


def _verdict(archive: bytes, saved: Sequence[tuple[str, bytes]] = ()) -> VerifyResult:
    """Check an uploaded archive, and the receipts and heads sent with it, with the Python
    verifier."""
    from fairfight.conquest import publication  # the conquest package loads only when used

    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "season.zip"
        path.write_bytes(archive)
        receipts: list[Path] = []
        heads: list[Path] = []
        for number, (name, data) in enumerate(saved):
            folder = Path(scratch) / f"saved-{number}"
            folder.mkdir()
            target = folder / (Path(name).name or "saved.json")
            target.write_bytes(data)
            (receipts if _is_receipt(data) else heads).append(target)
        try:
            notes = publication.verify_folder(path, receipts, heads)
        except VerificationError as failure:
            return VerifyResult(
                ok=False, place=failure.place, detail=failure.detail, message=str(failure)
            )
    battles = next(int(n.split()[0]) for n in notes if n.endswith("the final map matches"))
    return VerifyResult(
        ok=True,
        battles=battles,
        notes=notes,
        message=f"verified: {battles} battles, the final map and the ledger match",
    )


@router.get("/verify", response_class=HTMLResponse, include_in_schema=False)
def verify_page(request: Request) -> HTMLResponse:
    """The page: drop an archive, watch the replay, read the verdict."""
    return templates.TemplateResponse(request, "verify.html", {"result": None})


@router.get("/verify/engine.js", include_in_schema=False)
def engine_script() -> Response:
    """The JavaScript engine, the very file every season archive carries."""
    script = (files("fairfight.conquest") / "engine.js").read_bytes()
    return Response(script, media_type="text/javascript")


@router.get("/verify/seasonlog.js", include_in_schema=False)
def season_log_script() -> Response:
    """The season log's checks in JavaScript (seasonlog.js), as every season archive carries."""
    script = (files("fairfight.core") / "seasonlog.js").read_bytes()
    return Response(script, media_type="text/javascript")


@router.post("/api/upload/verify", tags=["verify"], response_model=None)
async def verify_upload(
    request: Request,
    archive: Annotated[UploadFile, File(description="A season archive (.zip).")],
    saved: Annotated[
        list[UploadFile] | None, File(description="Receipts and signed heads saved (.json).")
    ] = None,
) -> VerifyResult | HTMLResponse:
    """Check a season archive, and any receipts and heads sent with it, on the server with the
    Python verifier (the page's fallback)."""
    data = await archive.read()
    if not data:
        raise InputError("archive", "the file is empty; choose a season archive (.zip)")
    kept = [(item.filename or "saved.json", await item.read()) for item in saved or ()]
    result = _verdict(data, [(name, body) for name, body in kept if body])
    browser = "text/html" in request.headers.get("accept", "")
    if browser and request.query_params.get("format") != "json":  # the form, without script
        return templates.TemplateResponse(request, "verify.html", {"result": result})
    return result
