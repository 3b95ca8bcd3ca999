"""The operator console: sign in once with the admin token, then act on each season.

Every action is checked against the session cookie before its form is read. Airing more than
one battle asks the operator to type the confirmation (`air N`), and one action airs at most
`AIR_LIMIT` battles. A wrong token, or a session that has expired, shows the sign-in page
with the reason.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from fairfight.core.errors import InputError
from fairfight.core.validation import parse_model
from fairfight.web.conquest import operator
from fairfight.web.conquest.airing import ScheduleRequest
from fairfight.web.conquest.console import console_season
from fairfight.web.conquest.models import AIR_LIMIT, BeaconRequest
from fairfight.web.conquest.refusals import Refusal
from fairfight.web.conquest.routes.write import client_address
from fairfight.web.conquest.service import ConquestService, Service, install_service
from fairfight.web.conquest.sign_in import SESSION_COOKIE, SESSION_SECONDS
from fairfight.web.strict_input import whole_number
from fairfight.web.templating import templates

__all__ = [
    "ACTIONS",
    "CONSOLE",
    "console",
    "console_action",
    "install",
    "router",
    "sign_in",
    "sign_out",
]

router = APIRouter(prefix="/conquest/operator", include_in_schema=False)
ACTIONS = ("air", "beacon", "reveal", "export", "schedule", "pause", "resume", "skip")
CONSOLE = "/conquest/operator"


def install(app: FastAPI) -> None:
    """Give the app its conquest service (shared by every conquest route module)."""
    install_service(app)


def _sign_in_page(request: Request, conquest: ConquestService, status: int = 200,
                  message: str | None = None, headers: dict[str, str] | None = None,
                  ) -> HTMLResponse:
    return templates.TemplateResponse(
        request, "conquest/sign_in.html",
        {"enabled": bool(conquest.settings.admin_token_sha256), "message": message},
        status_code=status, headers=headers,
    )


def _console(request: Request, conquest: ConquestService, status: int = 200,
             **context: Any) -> HTMLResponse:
    catalog = conquest.catalog
    seasons = [console_season(catalog, sid) for sid in catalog.season_ids()]
    schedules = {sid: conquest.airing.show(sid) for sid in catalog.season_ids()}
    return templates.TemplateResponse(
        request, "conquest/operator.html",
        {"seasons": seasons, "schedules": schedules, "air_limit": AIR_LIMIT,
         "message": context.get("message"),
         "error": context.get("error"), "confirm": context.get("confirm")},
        status_code=status,
    )


def _signed_in(request: Request, conquest: ConquestService) -> bool:
    return conquest.sessions.valid(request.cookies.get(SESSION_COOKIE))


@router.get("", response_class=HTMLResponse)
def console(request: Request, conquest: Service) -> HTMLResponse:
    """The console when signed in; otherwise the sign-in page."""
    if not _signed_in(request, conquest):
        return _sign_in_page(request, conquest)
    return _console(request, conquest)


@router.post("/sign-in", response_class=HTMLResponse)
async def sign_in(request: Request, conquest: Service) -> Response:
    """Trade the admin token for a session cookie (the brake is asked before the form is read)."""
    address = client_address(request)
    try:
        operator.refuse_while_braked(conquest.brake, address)
        token = str((await request.form()).get("token") or "") or None
        operator.authorise(conquest.brake, conquest.settings.admin_token_sha256, address, token)
        cookie = await run_in_threadpool(conquest.sessions.open)
    except Refusal as refused:
        return _sign_in_page(request, conquest, refused.status, refused.rule, refused.headers)
    except LookupError as missing:
        return _sign_in_page(request, conquest, 409, str(missing))
    response = RedirectResponse(CONSOLE, status_code=303)
    response.set_cookie(SESSION_COOKIE, cookie, max_age=SESSION_SECONDS, path=CONSOLE,
                        httponly=True, samesite="strict", secure=request.url.scheme == "https")
    return response


@router.post("/sign-out")
async def sign_out(request: Request, conquest: Service) -> Response:
    """End the session and forget the cookie."""
    await run_in_threadpool(conquest.sessions.close, request.cookies.get(SESSION_COOKIE))
    response = RedirectResponse(CONSOLE, status_code=303)
    response.delete_cookie(SESSION_COOKIE, path=CONSOLE, httponly=True, samesite="strict")
    return response


def _air(conquest: ConquestService, season_id: int, form: dict[str, str]) -> Any:
    battles = whole_number("count", form.get("count") or "1", 1, AIR_LIMIT)
    phrase = f"air {battles}"
    if battles > 1 and " ".join(form.get("confirm", "").split()).lower() != phrase:
        return {"season": season_id, "count": battles, "phrase": phrase,
                "typed": form.get("confirm", "")}
    result = operator.air(conquest.catalog, season_id, battles)
    aired = ", ".join(str(line.number) for line in result.battles)
    return f"aired battle {aired}" + ("; the season is over" if result.ended else "")


def _schedule(conquest: ConquestService, season_id: int, action: str,
              form: dict[str, str]) -> str:
    """The console's schedule actions: set, pause, resume, skip (the API's functions)."""
    airing = conquest.airing
    if action == "schedule":
        kind = form.get("kind", "")
        every = form.get("minutes", "").strip()
        asked = parse_model(ScheduleRequest, {
            "kind": kind, "at": form.get("at", "").strip() if kind == "daily" else None,
            "minutes": whole_number("minutes", every) if every and kind == "every" else None,
            "start": form.get("start", "").strip() or None})
        view = airing.set(season_id, asked)
        return f"schedule set: {view.countdown.schedule_text if view.countdown else kind}"
    if action == "skip":
        slot, _ = airing.skip(season_id)
        return f"slot {slot} will be passed over"
    airing.pause(season_id, action == "pause")
    return "airing paused" if action == "pause" else "airing resumed"


def _act(conquest: ConquestService, season_id: int, action: str, form: dict[str, str]) -> Any:
    catalog = conquest.catalog
    if action == "air":
        return _air(conquest, season_id, form)
    if action in ("schedule", "pause", "resume", "skip"):
        return _schedule(conquest, season_id, action, form)
    if action == "beacon":
        value = parse_model(BeaconRequest, {
            "randomness": form.get("randomness", "").strip(),
            "signature": form.get("signature", "").strip() or None})
        recorded = operator.record_beacon(catalog, season_id, value)
        return f"beacon round {recorded['round']} recorded and verified"
    if action == "reveal":
        return f"seed revealed: {operator.reveal(catalog, season_id).seed}"
    return operator.record_zip(catalog, season_id)


@router.post("/{season_id:id}/{action}", response_class=HTMLResponse)
async def console_action(request: Request, season_id: int, action: str,
                         conquest: Service) -> Response:
    """Run one console action: the session is checked first, then the form is read."""
    if action not in ACTIONS:
        raise LookupError(f"no operator action {action!r}")
    if not await run_in_threadpool(_signed_in, request, conquest):
        return _sign_in_page(request, conquest, 401,
                             "sign in first: there is no session, or it has expired")
    conquest.catalog.require(season_id)
    form = {key: str(value) for key, value in (await request.form()).items()}
    try:
        outcome = await run_in_threadpool(_act, conquest, season_id, action, form)
    except InputError as error:
        given = "" if error.given is None else f" (given {error.given})"
        return _console(request, conquest, 422, error=f"season {season_id}: {error.field}: "
                        f"{error.rule}{given}")
    if isinstance(outcome, dict):
        return _console(request, conquest, confirm=outcome)
    conquest.live.poke()
    if isinstance(outcome, bytes):
        return Response(outcome, media_type="application/zip", headers={
            "Content-Disposition": f'attachment; filename="season-{season_id}-record.zip"'})
    return _console(request, conquest, message=f"season {season_id}: {outcome}")
