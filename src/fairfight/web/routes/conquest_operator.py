"""The operator console: forms for the operator's actions, each carrying the admin token."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Form, Request
from fastapi.responses import HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from fairfight.core.errors import InputError
from fairfight.web.conquest import operator, views
from fairfight.web.conquest.models import BeaconRequest
from fairfight.web.conquest.refusals import Refusal
from fairfight.web.conquest.service import ConquestService, install_service, service
from fairfight.web.templating import templates

__all__ = ["console", "console_action", "install", "router"]

router = APIRouter(prefix="/conquest/operator", include_in_schema=False)
Service = Annotated[ConquestService, Depends(service)]
ACTIONS = ("air", "beacon", "reveal", "export")


def install(app: FastAPI) -> None:
    """Give the app its conquest service (shared by every conquest route module)."""
    install_service(app)


def _console(request: Request, conquest: ConquestService, status: int = 200,
             **context: Any) -> HTMLResponse:
    catalog = conquest.catalog
    seasons = [views.season_ref(catalog.snapshot(sid)) for sid in catalog.season_ids()]
    return templates.TemplateResponse(
        request, "conquest/operator.html",
        {"seasons": seasons, "enabled": bool(conquest.settings.admin_token_sha256),
         "message": context.get("message"), "error": context.get("error")},
        status_code=status,
    )


@router.get("", response_class=HTMLResponse)
def console(request: Request, conquest: Service) -> HTMLResponse:
    """The console page (it shows nothing secret; every action asks for the token)."""
    return _console(request, conquest)


def _act(conquest: ConquestService, season_id: int, action: str, form: dict[str, str]) -> Any:
    catalog = conquest.catalog
    if action == "air":
        count = form.get("count") or "1"
        if not count.isdigit() or not 1 <= int(count) <= 1000:
            raise InputError("count", "must be a whole number from 1 to 1000")
        result = operator.air(catalog, season_id, int(count))
        aired = ", ".join(str(line.number) for line in result.battles)
        return f"aired battle {aired}" + ("; the season is over" if result.ended else "")
    if action == "beacon":
        from fairfight.core.validation import parse_model

        value = parse_model(BeaconRequest, {"randomness": form.get("randomness", ""),
                                            "signature": form.get("signature") or None})
        operator.record_beacon(catalog, season_id, value)
        return "beacon recorded"
    if action == "reveal":
        return f"seed revealed: {operator.reveal(catalog, season_id).seed}"
    return operator.record_zip(catalog, season_id)


@router.post("/{season_id:int}/{action}", response_class=HTMLResponse)
async def console_action(
    request: Request, season_id: int, action: str, conquest: Service,
    token: Annotated[str, Form(max_length=500)],
) -> Response:
    """Run one console action after checking the token."""
    if action not in ACTIONS:
        raise LookupError(f"no operator action {action!r}")
    operator.check_token(conquest.settings.admin_token_sha256, token)
    conquest.catalog.require(season_id)
    form = {key: str(value) for key, value in (await request.form()).items() if key != "token"}
    try:
        outcome = await run_in_threadpool(_act, conquest, season_id, action, form)
    except InputError as error:
        return _console(request, conquest, 422, error=f"{error.field}: {error.rule}")
    except Refusal:
        raise
    conquest.live.poke()
    if isinstance(outcome, bytes):
        return Response(outcome, media_type="application/zip", headers={
            "Content-Disposition": f'attachment; filename="season-{season_id}-record.zip"'})
    return _console(request, conquest, message=f"season {season_id}: {outcome}")
