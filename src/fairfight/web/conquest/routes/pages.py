"""The conquest show's pages: seasons, season home, episodes, faction cards, rules, verify.

Each page renders the view model its `/api/` twin returns; the contribution form posts here
and redirects, so everything works without JavaScript.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Hashable
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, Form, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from fairfight.conquest.rules import tables
from fairfight.core.errors import InputError
from fairfight.core.validation import parse_model
from fairfight.web.conquest import episode_views, log_views, views
from fairfight.web.conquest.contributions import Requested, record_contribution
from fairfight.web.conquest.forecasts import PoolEffectView
from fairfight.web.conquest.models import ContributionRequest
from fairfight.web.conquest.operator import record_zip
from fairfight.web.conquest.page_cache import FORM_KEY_PLACEHOLDER, season_mark
from fairfight.web.conquest.refusals import Refusal
from fairfight.web.conquest.rules_page import rules_html
from fairfight.web.conquest.service import ConquestService, Service, install_service
from fairfight.web.conquest.verification import verification
from fairfight.web.ops.pools import run_in_pool
from fairfight.web.strict_input import Digits
from fairfight.web.templating import templates

__all__ = [
    "FORM_WAIT_SECONDS",
    "NAV",
    "WATCH_LAST_STEP",
    "WATCH_PACE_MS",
    "battles_page",
    "contribute_form",
    "episode_page",
    "faction_page",
    "install",
    "pool_effect_page",
    "record_download",
    "router",
    "rules",
    "season_home",
    "seasons_page",
    "verify_page",
    "watch_page",
]

router = APIRouter(prefix="/conquest", include_in_schema=False)
NAV = (10, "Conquest", "/conquest")
FORM_WAIT_SECONDS = 10.0
"""How long a form post waits for an earlier post with the same key (a double click)."""


def install(app: FastAPI) -> None:
    """Give the app its conquest service (shared by every conquest route module)."""
    install_service(app)


def _page(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    return templates.TemplateResponse(request, f"conquest/{name}", context, status_code=status)


async def _kept(request: Request, conquest: ConquestService, season_id: int,
                render: Callable[[], Response], *extra: Hashable,
                ledger: bool = True) -> Response:
    """A public season page from the worker's page cache (rendered once per version; for a
    page that shows nothing of the ledger, once per version but for the ledger). The route
    is a coroutine: a request waiting for another's render of its page waits on the event
    loop, holding none of the worker's few threads (`page_flights`)."""
    prefix = (request.url.path, *extra)

    def newest() -> tuple[Hashable, ...]:
        return (*prefix, *season_mark(request, conquest, season_id, ledger))

    answer = await conquest.pages.serve_async(request, prefix, newest, render)
    conquest.pages.remember(request, season_id, prefix, ledger=ledger)
    return answer


@router.get("", response_class=HTMLResponse)
def seasons_page(request: Request, conquest: Service) -> HTMLResponse:
    """Every season in the database."""
    catalog = conquest.catalog
    refs = [views.season_ref(catalog.snapshot(sid)) for sid in catalog.season_ids()]
    return _page(request, "seasons.html", seasons=refs)


@router.get("/rules", response_class=HTMLResponse)
def rules(request: Request) -> HTMLResponse:
    """The rules page, rendered from the engine's constants."""
    return _page(request, "rules.html", body=rules_html())


@router.get("/{season_id:id}", response_class=HTMLResponse)
async def season_home(request: Request, season_id: int, conquest: Service) -> Response:
    """The season home: commitment, beacon, standings, latest episodes, the map."""
    def render() -> Response:
        snap = conquest.catalog.snapshot(season_id)
        season = views.season_view(snap, conquest.payments_only)
        forecast, odds_mark = conquest.forecasts.view_marked(snap)
        return _page(
            request, "home.html", season=season, forecast=forecast, map=views.map_state(snap),
            parts=conquest.parts.home(snap, season, forecast, odds_mark),
            story=conquest.forecasts.story.home(snap) if conquest.forecasts.enabled else None,
            witnesses=conquest.witnessing.summary(season_id, snap.summary.commitment),
        )
    return await _kept(request, conquest, season_id, render)


@router.get("/{season_id:id}/battles", response_class=HTMLResponse)
async def battles_page(
    request: Request, season_id: int, conquest: Service,
    page: Annotated[int, Query(ge=1, le=1_000_000), Digits] = 1,
) -> Response:
    """Every battle, newest first."""
    def render() -> Response:
        snap = conquest.catalog.snapshot(season_id)
        return _page(request, "battles.html", season=views.season_ref(snap),
                     listing=views.battle_page(snap, page, 50))
    return await _kept(request, conquest, season_id, render, page)


@router.get("/{season_id:id}/battles/{number:id}", response_class=HTMLResponse)
async def episode_page(request: Request, season_id: int, number: int,
                       conquest: Service) -> Response:
    """One battle's episode, with the map just after it. Nothing on it reads the ledger
    (the battle, the map after it, its stakes and signed head, its share card), so a
    contribution is not a new episode page."""
    return await _kept(request, conquest, season_id,
                 lambda: _episode(request, conquest, season_id, number), ledger=False)


def _episode(request: Request, conquest: ConquestService, season_id: int,
             number: int) -> Response:
    snap = conquest.catalog.snapshot(season_id)
    if not 1 <= number <= len(snap.history):
        raise LookupError(f"battle {number} has not been fought")
    episode = episode_views.episode(snap, number).model_copy(
        update={"head": log_views.battle_head(conquest.catalog, season_id, number)})
    resolved = (conquest.forecasts.story.resolved(snap, number)
                if conquest.forecasts.enabled else None)
    return _page(request, "episode.html", season=views.season_ref(snap), episode=episode,
                 parts=conquest.parts.episode(snap, number), resolved=resolved)


WATCH_LAST_STEP = len(tables.CATEGORIES) + 1
"""Watch mode's steps: 0 the sides and the battle chance, one per round, then the result."""
WATCH_PACE_MS = 1600
"""How long watch mode's play button shows each step: time to read a round's line."""


@router.get("/{season_id:id}/battles/{number:id}/watch", response_class=HTMLResponse)
async def watch_page(
    request: Request, season_id: int, number: int, conquest: Service,
    step: Annotated[int, Query(ge=0, le=WATCH_LAST_STEP), Digits] = 0,
) -> Response:
    """One battle played out a step at a time: the script steps over the whole episode the
    page holds; without it each step is its own address (`?step=N`), kept like the others."""
    return await _kept(request, conquest, season_id,
                 lambda: _watch(request, conquest, season_id, number, step), step)


def _watch(request: Request, conquest: ConquestService, season_id: int, number: int,
           step: int) -> Response:
    snap = conquest.catalog.snapshot(season_id)
    if not 1 <= number <= len(snap.history):
        raise LookupError(f"battle {number} has not been fought")
    return _page(request, "watch.html", season=views.season_ref(snap),
                 episode=episode_views.episode(snap, number), step=step,
                 last=WATCH_LAST_STEP, pace=WATCH_PACE_MS)


def _card(
    request: Request, conquest: ConquestService, season_id: int, code: str, *,
    status: int = 200, error: InputError | None = None, added: int | None = None,
    effect: PoolEffectView | None = None, form_key: str | None = None,
) -> HTMLResponse:
    """A faction's card from kept parts (`PageParts.card`): the pool is kept only as every
    visitor sees it, with the form key's placeholder and nothing of one visitor's own."""
    snap = conquest.catalog.snapshot(season_id)
    if code not in snap.regions:
        raise LookupError(f"no faction has the code {code!r}")
    forecast, odds_mark = conquest.forecasts.view_marked(snap)
    confirmation = views.confirmation(snap, code, added, _receipt(conquest, season_id, added))
    own = {"form_key": form_key or secrets.token_urlsafe(18), "error": error,
           "confirmation": confirmation, "effect": effect}
    keep_pool = form_key == FORM_KEY_PLACEHOLDER and not (error or confirmation or effect)
    return _page(
        request, "faction.html", status, season=views.season_ref(snap), code=code,
        faction_name=snap.name_of(code),
        parts=conquest.parts.card(snap, code, forecast, odds_mark, conquest.payments_only,
                                  own, keep_pool),
        odds_chart=(conquest.forecasts.story.chart(snap, code)
                    if conquest.forecasts.enabled else None),
    )


def _receipt(conquest: ConquestService, season_id: int, seq: int | None) -> dict[str, Any] | None:
    """The receipt of a just-added entry, for the confirmation (None without a log)."""
    if seq is None:
        return None
    try:
        return log_views.receipt_of(conquest.catalog, season_id, seq)
    except LookupError:
        return None


@router.get("/{season_id:id}/factions/{code}", response_class=HTMLResponse)
async def faction_page(
    request: Request, season_id: int, code: str, conquest: Service,
    added: Annotated[int | None, Query(ge=1), Digits] = None,
) -> Response:
    """A faction's card with the form to add to its pool (a fresh key each response: the
    card is kept once per version with a placeholder where the key goes)."""
    if added is not None:  # the visitor's own receipt: rendered for them alone
        return await run_in_threadpool(
            lambda: _card(request, conquest, season_id, code, added=added))
    prefix = (request.url.path,)

    def newest() -> tuple[Hashable, ...]:
        return (*prefix, *season_mark(request, conquest, season_id, code))

    answer = await conquest.pages.serve_personal_async(
        prefix, newest, lambda: _card(request, conquest, season_id, code,
                                      form_key=FORM_KEY_PLACEHOLDER), _fresh_form_key)
    conquest.pages.remember(request, season_id, prefix, _fresh_form_key, code)
    return answer


def _fresh_form_key(body: bytes) -> bytes:
    """A kept card with a form key of its own in place of the placeholder."""
    return body.replace(FORM_KEY_PLACEHOLDER.encode(), secrets.token_urlsafe(18).encode())


@router.get("/{season_id:id}/factions/{code}/pool-effect", response_class=HTMLResponse)
async def pool_effect_page(
    request: Request, season_id: int, code: str, conquest: Service,
    amount: Annotated[int, Query(ge=0, le=tables.POOL_CAP), Digits],
) -> HTMLResponse:
    """The no-JavaScript answer to "what would my $X do": the card with the effect shown."""
    snap = await run_in_threadpool(conquest.catalog.snapshot, season_id)
    if code not in snap.regions:
        raise LookupError(f"no faction has the code {code!r}")
    try:
        effect = await run_in_pool("questions", conquest.forecasts.pool_effect, snap, code,
                                   amount)
    except InputError as error:
        return _card(request, conquest, season_id, code, status=422, error=error)
    return _card(request, conquest, season_id, code, effect=effect)


def _record_waiting(conquest: ConquestService, season_id: int, asked: ContributionRequest,
                    requested: Requested) -> tuple[int, dict[str, Any]]:
    """Record, waiting out an earlier post of the same form (a double click) instead of 409."""
    deadline = time.monotonic() + FORM_WAIT_SECONDS
    while True:
        try:
            return record_contribution(
                conquest.writer, conquest.in_flight, season_id, asked, requested)
        except Refusal as refusal:
            if refusal.status != 409 or time.monotonic() > deadline:
                raise
            time.sleep(0.02)


@router.post("/{season_id:id}/factions/{code}/contribute", response_class=HTMLResponse)
async def contribute_form(
    request: Request, season_id: int, code: str, conquest: Service,
    amount: Annotated[int, Form(ge=0, le=10_000), Digits],
    idempotency_key: Annotated[str, Form(pattern=r"^[\x21-\x7e]{1,200}$")],
) -> Response:
    """The form's post: record once per rendered form, then show the card again."""
    if conquest.payments_only:
        raise Refusal(403, "payments", "contributions are taken through the payment provider")
    requested = Requested(f"form:{idempotency_key}", "POST", request.url.path,
                          f"{code}:{amount}".encode())
    try:
        asked = parse_model(ContributionRequest, {"faction": code, "amount": amount})
        _, payload = await run_in_threadpool(
            _record_waiting, conquest, season_id, asked, requested)
    except InputError as error:
        return _card(request, conquest, season_id, code, status=422, error=error)
    conquest.live.poke()
    return RedirectResponse(
        f"/conquest/{season_id}/factions/{code}?added={payload['seq']}#pool", status_code=303
    )


@router.get("/{season_id:id}/verify", response_class=HTMLResponse)
async def verify_page(request: Request, season_id: int, conquest: Service) -> Response:
    """After the reveal: the seed, the checks step by step, the record and how to replay it."""
    def render() -> Response:
        snap = conquest.catalog.snapshot(season_id)
        return _page(request, "verify.html", season=views.season_ref(snap),
                     check=verification(snap, lambda: conquest.catalog.log_files(season_id)),
                     witnesses=conquest.witnessing.summary(season_id, snap.summary.commitment))
    return await _kept(request, conquest, season_id, render)


@router.get("/{season_id:id}/record.zip")
def record_download(season_id: int, conquest: Service) -> Response:
    """The public record, once revealed."""
    snap = conquest.catalog.snapshot(season_id)
    if snap.summary.revealed_seed is None:
        raise Refusal(409, "season", "the record is published after the reveal")
    return Response(record_zip(conquest.catalog, season_id), media_type="application/zip",
                    headers={"Content-Disposition":
                             f'attachment; filename="season-{season_id}-record.zip"'})
