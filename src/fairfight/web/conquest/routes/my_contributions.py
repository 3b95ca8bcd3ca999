"""A fan's own contributions, checked in words: the page, its no-script check by this server,
and the season log's proofs the page's script checks for itself; the newest head also as a
C2SP checkpoint note with its verifier key, for clients and witnesses that speak that format.

The page's script (static/conquest/my-contributions.js) checks each receipt against the newest
signed head with `proofs/inclusion` and `proofs/consistency` and the season key from the
header, so it trusts no verdict of this server; a page posted without script gets this
server's check instead, labelled as such.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, File, Query, Request, UploadFile
from fastapi.responses import HTMLResponse, PlainTextResponse

import fairfight.web.strict_input  # noqa: F401  (registers the {name:id} path convertor)
from fairfight.conquest.rules import tables
from fairfight.web.conquest import receipt_check, views
from fairfight.web.conquest.checkpoints import public_host
from fairfight.web.conquest.receipt_check import ConsistencyProof, InclusionProof, Verdict
from fairfight.web.conquest.refusals import Refusal
from fairfight.web.conquest.service import Service
from fairfight.web.conquest.witnessing import WitnessSummary
from fairfight.web.strict_input import Digits
from fairfight.web.templating import templates

__all__ = [
    "MAX_RECEIPTS",
    "RECEIPT_BYTES",
    "check_page",
    "checkpoint",
    "checkpoint_key",
    "consistency_proof",
    "inclusion_proof",
    "my_contributions",
    "router",
    "witnesses",
]

router = APIRouter()
MAX_RECEIPTS = 50
"""The most receipts one no-script check takes."""
RECEIPT_BYTES = 64 * 1024
"""The largest receipt file taken (a receipt is well under 4 KiB)."""
_Size = Annotated[int, Query(ge=0, le=2**62), Digits]
_NewestSize = Annotated[int | None, Query(ge=0, le=2**62, description="a tree size; left out, "
                                         "the whole log"), Digits]


# `size` and `second` come first and may be left out (the whole log), so a refusal names the
# parameter that is wrong rather than one that is missing.
@router.get("/api/seasons/{season_id:id}/proofs/inclusion", tags=["conquest"])
def inclusion_proof(season_id: int, size: _NewestSize = None, *, index: _Size,
                    conquest: Service) -> InclusionProof:
    """The proof that leaf `index` of the season log is in the tree of its first `size`
    leaves (left out: every leaf): with it a receipt is checked against a newer signed head
    than its own."""
    conquest.catalog.require(season_id)
    return receipt_check.inclusion(conquest.catalog, season_id, index, size)


@router.get("/api/seasons/{season_id:id}/proofs/consistency", tags=["conquest"])
def consistency_proof(season_id: int, second: _NewestSize = None, *, first: _Size,
                      conquest: Service) -> ConsistencyProof:
    """The proof that the tree of the log's first `first` leaves is a prefix of the tree of
    its first `second` (left out: every leaf): a saved head (or a receipt's) is carried to a
    newer one."""
    conquest.catalog.require(season_id)
    return receipt_check.consistency(conquest.catalog, season_id, first, second)


@router.get("/api/seasons/{season_id:id}/checkpoint", tags=["conquest"],
            response_class=PlainTextResponse)
def checkpoint(request: Request, season_id: int, conquest: Service,
               size: _NewestSize = None) -> PlainTextResponse:
    """The signed head of `size` leaves (left out: the newest) as a C2SP tlog-checkpoint signed
    note: origin `<host>/conquest/<commitment>`, size, base64 root, the season key's note
    signature, then every witness cosignature stored for it."""
    conquest.catalog.require(season_id)
    return PlainTextResponse(
        conquest.checkpoints.cosigned_note(season_id, public_host(request), size))


@router.get("/api/seasons/{season_id:id}/witnesses", tags=["conquest"])
def witnesses(season_id: int, conquest: Service,
              quorum: Literal["any", "majority"] = "any") -> WitnessSummary:
    """The witnesses the service sends its checkpoints to (names and verifier keys) and who
    cosigned the newest checkpoint any (or a majority) of them cosigned; 404 when none is
    configured."""
    snap = conquest.catalog.snapshot(season_id)
    found = conquest.witnessing.summary(season_id, snap.summary.commitment,
                                        majority=quorum == "majority")
    if found is None:
        raise Refusal(404, "witnesses", "this service sends its checkpoints to no witness")
    return found


@router.get("/api/seasons/{season_id:id}/checkpoint/key", tags=["conquest"],
            response_class=PlainTextResponse)
def checkpoint_key(request: Request, season_id: int, conquest: Service) -> PlainTextResponse:
    """The verifier key (`<origin>+<key id>+<base64 key>`) that checks the checkpoints."""
    conquest.catalog.require(season_id)
    return PlainTextResponse(conquest.checkpoints.vkey(season_id, public_host(request)) + "\n")


def _page(request: Request, season_id: int, conquest: Any,
          verdicts: list[tuple[str, Verdict]] | None, status: int = 200) -> HTMLResponse:
    snap = conquest.catalog.snapshot(season_id)
    names = views.names(snap)
    context = {
        "season": views.season_ref(snap), "verdicts": verdicts,
        "names_json": json.dumps(names, sort_keys=True),
        "log_key": snap.summary.header.get(tables.LOG_KEY),
        "head": snap.head,
    }
    return templates.TemplateResponse(request, "conquest/my_contributions.html", context,
                                      status_code=status)


@router.get("/conquest/{season_id:id}/my-contributions", response_class=HTMLResponse,
            include_in_schema=False)
def my_contributions(request: Request, season_id: int, conquest: Service) -> HTMLResponse:
    """Drop receipts (or use the ones this browser kept) and read each one in words."""
    return _page(request, season_id, conquest, None)


@router.post("/conquest/{season_id:id}/my-contributions", response_class=HTMLResponse,
             include_in_schema=False)
async def check_page(
    request: Request, season_id: int, conquest: Service,
    receipt: Annotated[list[UploadFile] | None, File(description="Saved receipts (.json).")] = None,
) -> HTMLResponse:
    """Without script: this server checks the uploaded receipts against the newest head."""
    uploads = receipt or []
    if not uploads:
        raise Refusal(400, "receipt", "choose at least one saved receipt (.json)")
    if len(uploads) > MAX_RECEIPTS:
        raise Refusal(413, "receipt", f"at most {MAX_RECEIPTS} receipts at once")
    snap = conquest.catalog.snapshot(season_id)
    verdicts = []
    for upload in uploads:
        data = await upload.read(RECEIPT_BYTES + 1)
        if len(data) > RECEIPT_BYTES:
            raise Refusal(413, "receipt", f"{upload.filename}: larger than {RECEIPT_BYTES} bytes")
        verdicts.append((upload.filename or "receipt",
                         receipt_check.check_receipt(data, snap, conquest.catalog)))
    return _page(request, season_id, conquest, verdicts)
