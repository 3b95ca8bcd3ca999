"""Stored wars in the browser: create a war, follow a link, send and seal sheets, moderate, and
the permanent result page with its re-run.

Pages work without JavaScript (forms post and redirect); `static/warscore/rerun.js` adds the
re-run on the result page. The JSON twins live in `war_api`; both call the same store.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import FormData, UploadFile

from fairfight.core.errors import InputError
from fairfight.core.validation import parse_model
from fairfight.warscore.published import published_result
from fairfight.warscore.sealed import SHEET_MAX_BYTES, RoundSetup, WarSetup
from fairfight.warscore.store import SheetSealed, WarStore, load_standing
from fairfight.web.lifecycle import on_shutdown
from fairfight.web.settings import sibling_database_url
from fairfight.web.strict_input import Id
from fairfight.web.templating import templates
from fairfight.web.warscore import war_api
from fairfight.web.warscore.war_access import (
    Store,
    keep_token,
    moderator_cookie,
    nation_cookie,
    require_moderator,
    require_nation,
    viewer_of,
)
from fairfight.web.warscore.war_api import base_url, client_of, links, must_war, sealed_conflict
from fairfight.web.warscore.war_view import war_view

__all__ = [
    "approve",
    "close",
    "create",
    "install",
    "join",
    "moderate",
    "nation_page",
    "new_war",
    "open_round",
    "result_page",
    "return_sheet",
    "router",
    "seal",
    "setup_from_form",
    "submit",
    "war_page",
]

router = APIRouter()
router.include_router(war_api.router)


def install(app: FastAPI) -> None:
    """One war store per app, beside the service's database."""
    store = WarStore(sibling_database_url(app.state.settings.database_url, "warscore"))
    app.state.war_store = store
    on_shutdown(app, store.close)


def _page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, f"warscore/{name}", context, status_code=status)


def _text(form: FormData, name: str, limit: int = 4000) -> str:
    value = form.get(name, "")
    if not isinstance(value, str):
        raise InputError(name, "must be text")
    if len(value) > limit:
        raise InputError(name, f"at most {limit:,} characters")
    return value.strip()


def setup_from_form(form: FormData) -> WarSetup:
    """The new-war form: one nation a line (`name, side[, wealth]`), years apart by spaces."""
    nations = []
    for number, line in enumerate(_text(form, "nations").splitlines()):
        if line.strip():
            parts = [part.strip() for part in line.split(",")]
            if len(parts) not in (2, 3):
                raise InputError(f"nations line {number + 1}", "write `name, side` or "
                                 "`name, side, wealth`")
            nations.append({"name": parts[0], "side": parts[1],
                            **({"wealth": parts[2]} if len(parts) == 3 else {})})
    years = []
    for word in _text(form, "years", 400).replace(",", " ").split():
        if not word.isdigit() or len(word) > 6:
            raise InputError("years", "write whole years apart by spaces", word)
        years.append(int(word))
    return parse_model(WarSetup, {"war": _text(form, "war", 200),
                                  "moderator": _text(form, "moderator", 200),
                                  "nations": nations, "years": years})


@router.get("/warscore/wars", response_class=HTMLResponse, include_in_schema=False)
def new_war(request: Request) -> HTMLResponse:
    """The form that creates a war."""
    return _page(request, "war_new.html")


@router.post("/warscore/wars", response_class=HTMLResponse, include_in_schema=False)
async def create(request: Request, store: Store) -> Response:
    """Create a war; show its links once and keep the moderator's in a cookie."""
    setup = setup_from_form(await request.form())
    war_id, moderator, tokens = store.create(setup, client=client_of(request))
    created = links(request, war_id, moderator, tokens, setup.config())
    response = _page(request, "war_created.html", created=created)
    keep_token(request, response, moderator_cookie(war_id), moderator)
    return response


@router.get("/warscore/wars/{war_id}/moderate", include_in_schema=False)
def moderate(request: Request, war_id: str, store: Store, token: str = "") -> Response:
    """The moderator's link: keep the token as a cookie, go to the war's page."""
    war = must_war(store, war_id)
    if not store.is_moderator(war["id"], token):
        raise HTTPException(403, "this moderator link is not valid")
    response = RedirectResponse(f"/warscore/wars/{war['id']}", status_code=303)
    keep_token(request, response, moderator_cookie(war["id"]), token)
    return response


@router.get("/warscore/wars/{war_id}/join/{nation}", include_in_schema=False)
def join(request: Request, war_id: str, nation: Id, store: Store, token: str = "") -> Response:
    """A nation's link: keep the token as a cookie, go to the nation's page."""
    war = must_war(store, war_id)
    if not store.is_nation(war["id"], nation, token):
        raise HTTPException(403, "this nation's link is not valid")
    response = RedirectResponse(f"/warscore/wars/{war['id']}/nations/{nation}", status_code=303)
    keep_token(request, response, nation_cookie(war["id"], nation), token)
    return response


def _war_response(request: Request, store: WarStore, war: dict[str, Any],
                  nation: int | None = None) -> HTMLResponse:
    standing = load_standing(store.engine, war["id"])
    assert standing is not None
    viewer = viewer_of(request, store, war["id"], len(war["nations"]))
    if nation is not None:
        viewer = type(viewer)(moderator=False, nation=nation)
    view = war_view(store, war, standing, viewer)
    return _page(request, "war_page.html", war=view, sheet_max=SHEET_MAX_BYTES)


@router.get("/warscore/wars/{war_id}", response_class=HTMLResponse, include_in_schema=False)
def war_page(request: Request, war_id: str, store: Store) -> HTMLResponse:
    """The war: nations, years' scores, battles, rounds; the moderator's controls."""
    return _war_response(request, store, must_war(store, war_id))


@router.get("/warscore/wars/{war_id}/nations/{nation}", response_class=HTMLResponse,
            include_in_schema=False)
def nation_page(request: Request, war_id: str, nation: Id, store: Store) -> HTMLResponse:
    """A nation's page: its own sheets and their forms; the others' only as SHA-256."""
    war = must_war(store, war_id)
    require_nation(request, store, war["id"], nation)
    return _war_response(request, store, war, nation)


@router.post("/warscore/wars/{war_id}/rounds", include_in_schema=False)
async def open_round(request: Request, war_id: str, store: Store) -> Response:
    """The moderator opens a battle or a year."""
    war = must_war(store, war_id)
    require_moderator(request, store, war["id"])
    form = await request.form()
    data: dict[str, Any] = {key: _text(form, key, 200) for key in
                            ("kind", "battle", "battle_kind", "attacker", "defender")
                            if _text(form, key, 200)}
    year = _text(form, "year", 12)
    if not (year.isdigit() or (year.startswith("-") and year[1:].isdigit())):
        raise InputError("year", "must be a whole year", year)
    setup = parse_model(RoundSetup, {**data, "year": int(year)})
    store.open_round(war["id"], setup, client=client_of(request))
    return RedirectResponse(f"/warscore/wars/{war['id']}", status_code=303)


async def _sheet_text(form: FormData) -> str:
    """The uploaded file when one was chosen, else the text typed into the form."""
    upload = form.get("file")
    if isinstance(upload, UploadFile) and upload.filename:
        raw = await upload.read(SHEET_MAX_BYTES + 1)
        if len(raw) > SHEET_MAX_BYTES:
            raise InputError("file", f"a sheet is at most {SHEET_MAX_BYTES:,} bytes")
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError("file", "is not UTF-8 text") from None
    text = form.get("sheet", "")
    if not isinstance(text, str) or len(text.encode("utf-8")) > SHEET_MAX_BYTES:
        raise InputError("sheet", f"a sheet is at most {SHEET_MAX_BYTES:,} bytes")
    return text.replace("\r\n", "\n")


@router.post("/warscore/wars/{war_id}/rounds/{number}/sheets/{nation}", include_in_schema=False)
async def submit(request: Request, war_id: str, number: Id, nation: Id, store: Store) -> Response:
    """A nation sends its sheet from the form (typed or uploaded); 409 once it is sealed."""
    war = must_war(store, war_id)
    require_nation(request, store, war["id"], nation)
    async with request.form() as form:  # an uploaded file is closed when the form is
        text = await _sheet_text(form)
    try:
        store.submit(war["id"], number, nation, text, client=client_of(request))
    except SheetSealed as error:
        raise sealed_conflict(error) from None
    return RedirectResponse(f"/warscore/wars/{war['id']}/nations/{nation}", status_code=303)


@router.post("/warscore/wars/{war_id}/rounds/{number}/sheets/{nation}/seal",
             include_in_schema=False)
def seal(request: Request, war_id: str, number: Id, nation: Id, store: Store) -> Response:
    """A nation seals its sheet; the last seal publishes the result."""
    war = must_war(store, war_id)
    require_nation(request, store, war["id"], nation)
    try:
        store.seal(war["id"], number, nation, client=client_of(request))
    except SheetSealed as error:
        raise sealed_conflict(error) from None
    return RedirectResponse(f"/warscore/wars/{war['id']}/nations/{nation}", status_code=303)


@router.post("/warscore/wars/{war_id}/rounds/{number}/sheets/{nation}/return",
             include_in_schema=False)
async def return_sheet(request: Request, war_id: str, number: Id, nation: Id,
                       store: Store) -> Response:
    """The moderator sends a sheet back for correction."""
    war = must_war(store, war_id)
    require_moderator(request, store, war["id"])
    reason = _text(await request.form(), "reason", 500)
    try:
        store.return_sheet(war["id"], number, nation, reason, client=client_of(request))
    except SheetSealed as error:
        raise sealed_conflict(error) from None
    return RedirectResponse(f"/warscore/wars/{war['id']}", status_code=303)


@router.post("/warscore/wars/{war_id}/rounds/{number}/sheets/{nation}/approve",
             include_in_schema=False)
async def approve(request: Request, war_id: str, number: Id, nation: Id,
                  store: Store) -> Response:
    """The moderator approves a nation's army for a battle (recorded with who and when)."""
    war = must_war(store, war_id)
    require_moderator(request, store, war["id"])
    form = await request.form()
    by = _text(form, "by", 120) or war["moderator"]
    try:
        store.approve(war["id"], number, nation, by, _text(form, "note", 500),
                      client=client_of(request))
    except SheetSealed as error:
        raise sealed_conflict(error) from None
    return RedirectResponse(f"/warscore/wars/{war['id']}", status_code=303)


@router.post("/warscore/wars/{war_id}/rounds/{number}/close", include_in_schema=False)
def close(request: Request, war_id: str, number: Id, store: Store) -> Response:
    """The moderator ends a round without a result, showing its sheets to everyone."""
    war = must_war(store, war_id)
    require_moderator(request, store, war["id"])
    try:
        store.close_round(war["id"], number, client=client_of(request))
    except SheetSealed as error:
        raise sealed_conflict(error) from None
    return RedirectResponse(f"/warscore/wars/{war['id']}", status_code=303)


@router.get("/warscore/r/{digest}", response_class=HTMLResponse, include_in_schema=False)
def result_page(request: Request, digest: str, store: Store) -> HTMLResponse:
    """A published result: both sheets, the figures line by line, the posts, the re-run."""
    result = published_result(store.engine, digest.lower(), base_url(request)) \
        if len(digest) == 64 else None
    if result is None:
        raise HTTPException(404, "no such result")
    return _page(request, "war_result.html", result=result)
