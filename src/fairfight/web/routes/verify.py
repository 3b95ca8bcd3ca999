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

from fastapi import APIRouter, File, Form, Request, UploadFile
from fastapi.responses import HTMLResponse, JSONResponse, Response
from pydantic import BaseModel

from fairfight.core.errors import InputError
from fairfight.web.errors import error_body
from fairfight.web.ops.pools import run_in_pool
from fairfight.web.templating import templates
from fairfight.web.verify_runner import Outcome, Witnessed, run_verifier

__all__ = [
    "FORM_ALLOWANCE",
    "MAX_SAVED_FILES",
    "MAX_WITNESSES",
    "NAV",
    "RETRY_AFTER_SECONDS",
    "SAVED_FILE_BYTES",
    "VerifyResult",
    "WITNESS_KEY_CHARACTERS",
    "archive_limit",
    "engine_script",
    "router",
    "season_log_script",
    "verify_page",
    "verify_upload",
]

router = APIRouter()
NAV = (80, "Verify a season", "/verify")
FORM_ALLOWANCE = 64 * 1024
"""Bytes of a verify form beyond its files (multipart boundaries and headers)."""
SAVED_FILE_BYTES = 64 * 1024
"""Largest receipt or head accepted with an archive (a real one is under 2 KB)."""
MAX_SAVED_FILES = 16
"""Most receipts, heads and checkpoints sent with one archive."""
MAX_WITNESSES = 16
"""Most witness keys one check takes (a real quorum names a handful)."""
WITNESS_KEY_CHARACTERS = 300
"""The longest witness key taken (a real one is its name and about 60 characters)."""
RETRY_AFTER_SECONDS = 30
"""What a 503 (the verifier ran out of wall time) asks the client to wait."""
_CHUNK = 64 * 1024
_STATUS = {Outcome.REFUSED: 422, Outcome.BROKEN: 422, Outcome.TOO_COSTLY: 413,
           Outcome.TIMED_OUT: 503}
"""The status of each outcome that is not a verdict."""


class VerifyResult(BaseModel):
    """The verdict on one season archive: the checks passed, or the first difference."""

    ok: bool
    battles: int | None = None
    notes: list[str] = []
    place: str | None = None
    detail: str | None = None
    message: str
    refused: bool = False
    """True when the check was refused rather than failed (a checkpoint without its quorum,
    a file too large): no difference was found, the input was not taken."""


def _is_receipt(path: Path) -> bool:
    """A saved file is a receipt when it is a JSON object with a `format` field, else a head
    (the page's worker sorts dropped files the same way)."""
    try:
        value = json.loads(path.read_bytes())
    except (ValueError, RecursionError):
        return False
    return isinstance(value, dict) and "format" in value


def _is_checkpoint(path: Path) -> bool:
    """A saved file is a checkpoint when it is a signed note: text that is not JSON, with the
    blank line before its signatures (the page's worker sorts dropped files the same way)."""
    text = path.read_bytes().decode("utf-8", errors="replace").lstrip()
    return bool(text) and text[0] not in "{[" and "\n\n" in text


def _witness_keys(text: str) -> list[str]:
    """The witness keys of the form's field, one a line; InputError past the caps."""
    keys = [line.strip() for line in text.splitlines() if line.strip()]
    if len(keys) > MAX_WITNESSES:
        raise InputError("witnesses", f"at most {MAX_WITNESSES} witness keys at once")
    if any(len(key) > WITNESS_KEY_CHARACTERS for key in keys):
        raise InputError("witnesses", f"a witness key is at most {WITNESS_KEY_CHARACTERS} "
                         "characters")
    return keys


def archive_limit(request: Request) -> int:
    """The largest archive this page accepts: the service's upload limit less room for the
    form's own framing and a few saved files, so a file just under it reaches this page's
    own check (and its own refusal) rather than the service's raw limit on request bodies."""
    upload_limit: int = request.app.state.settings.max_upload_bytes
    return max(upload_limit - FORM_ALLOWANCE - MAX_SAVED_FILES * SAVED_FILE_BYTES,
               upload_limit // 2)


class _Refusal(Exception):
    """An upload this page refuses before any verification: status, field and one line."""

    def __init__(self, status: int, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.status, self.field, self.message = status, field, message


async def _stream_to(upload: UploadFile, target: Path, limit: int, field: str) -> int:
    """Copy an uploaded file to `target` a chunk at a time, refusing it past `limit` bytes."""
    written = 0
    with target.open("wb") as sink:
        while chunk := await upload.read(_CHUNK):
            written += len(chunk)
            if written > limit:
                raise _Refusal(413, field, f"larger than {limit} bytes; refused")
            sink.write(chunk)
    return written


def _verdict(archive: Path, receipts: Sequence[Path], heads: Sequence[Path],
             witnessed: Witnessed) -> VerifyResult:
    """Check an uploaded archive, and the receipts, heads and checkpoints sent with it, with
    the Python verifier in a limited child process (`verify_runner`); blocking, so run off the
    loop."""
    verdict = run_verifier(archive, receipts, heads, witnessed=witnessed)
    if verdict.outcome == Outcome.MISMATCH:
        return VerifyResult(ok=False, place=verdict.place, detail=verdict.detail,
                            message=f"{verdict.place}: {verdict.detail}")
    if verdict.outcome != Outcome.VERIFIED:
        raise _Refusal(_STATUS[verdict.outcome], verdict.place, verdict.detail)
    notes = verdict.notes
    battles = next(int(n.split()[0]) for n in notes if n.endswith("the final map matches"))
    return VerifyResult(
        ok=True,
        battles=battles,
        notes=notes,
        message=f"verified: {battles} battles, the final map and the ledger match",
    )


async def _checked(
    request: Request, archive: UploadFile, saved: Sequence[UploadFile],
    witnesses: Sequence[str] = (), quorum: int = 0,
) -> VerifyResult:
    """Stream the uploads to a scratch folder under their caps, then verify off the loop."""
    limit = archive_limit(request)
    declared = request.headers.get("content-length", "")
    body_limit: int = request.app.state.settings.max_upload_bytes
    if declared.isascii() and declared.isdigit() and int(declared) > body_limit:
        raise _Refusal(413, "archive", f"larger than {limit} bytes; refused")
    if len(saved) > MAX_SAVED_FILES:
        raise _Refusal(413, "saved", f"at most {MAX_SAVED_FILES} receipts and heads at once")
    with tempfile.TemporaryDirectory() as scratch:
        path = Path(scratch) / "season.zip"
        if not await _stream_to(archive, path, limit, "archive"):
            raise InputError("archive", "the file is empty; choose a season archive (.zip)")
        receipts: list[Path] = []
        heads: list[Path] = []
        checkpoints: list[Path] = []
        for number, item in enumerate(saved):
            folder = Path(scratch) / f"saved-{number}"
            folder.mkdir()
            target = folder / (_safe_name(item.filename) or "saved.json")
            if not await _stream_to(item, target, SAVED_FILE_BYTES, f"saved[{number}]"):
                continue
            sort = checkpoints if _is_checkpoint(target) else heads
            (receipts if _is_receipt(target) else sort).append(target)
        witnessed = Witnessed(checkpoints, witnesses, quorum)
        return await run_in_pool("verify", _verdict, path, receipts, heads, witnessed)


def _safe_name(name: str | None) -> str:
    """The last part of an uploaded file's name, either slash counted, cut to 100 characters
    (the verifier names a saved file by it)."""
    return (name or "").replace("\\", "/").rsplit("/", 1)[-1].strip(". ")[:100]


@router.get("/verify", response_class=HTMLResponse, include_in_schema=False)
def verify_page(request: Request) -> HTMLResponse:
    """The page: drop an archive, watch the replay, read the verdict."""
    return templates.TemplateResponse(
        request, "verify.html", {"result": None, "limit": archive_limit(request)}
    )


@router.get("/verify/engine.js", include_in_schema=False)
def engine_script() -> Response:
    """The JavaScript engine, the very file every season archive carries."""
    script = (files("fairfight.conquest.record") / "engine.js").read_bytes()
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
        list[UploadFile] | None,
        File(description="Receipts and signed heads (.json) and checkpoint notes saved."),
    ] = None,
    witnesses: Annotated[str, Form(description="Witness keys (NAME+ID+KEY), one a line.",
                                   max_length=MAX_WITNESSES * (WITNESS_KEY_CHARACTERS + 2))] = "",
    quorum: Annotated[int, Form(ge=0, le=100, description="Cosignatures by those witnesses "
                                "each checkpoint needs.")] = 0,
) -> VerifyResult | Response:
    """Check a season archive, and any receipts, heads and checkpoints sent with it (the
    checkpoints held to the witnesses and quorum given), on the server with the Python
    verifier (the page's fallback)."""
    try:
        result = await _checked(request, archive, saved or [], _witness_keys(witnesses), quorum)
    except _Refusal as refusal:
        return _refused(request, refusal)
    if _for_browser(request):  # the form, without script
        return templates.TemplateResponse(
            request, "verify.html", {"result": result, "limit": archive_limit(request)}
        )
    return result


def _refused(request: Request, refusal: _Refusal) -> Response:
    """A refused upload: this page again with the refusal for a browser, else the JSON error."""
    headers = {"Retry-After": str(RETRY_AFTER_SECONDS)} if refusal.status == 503 else None
    if _for_browser(request):
        result = VerifyResult(ok=False, place=refusal.field, detail=refusal.message,
                              message=f"{refusal.field}: {refusal.message}", refused=True)
        return templates.TemplateResponse(
            request, "verify.html", {"result": result, "limit": archive_limit(request)},
            status_code=refusal.status, headers=headers,
        )
    return JSONResponse(error_body(refusal.field, refusal.message), status_code=refusal.status,
                        headers=headers)


def _for_browser(request: Request) -> bool:
    """A form posted by a browser without script is answered with the page itself."""
    browser = "text/html" in request.headers.get("accept", "")
    return browser and request.query_params.get("format") != "json"
