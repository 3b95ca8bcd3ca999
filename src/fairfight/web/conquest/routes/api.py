"""The conquest show's JSON API: seasons, standings, battles, factions, map, ledger, record,
and the live event stream. Every response is a view model the pages render too."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, FastAPI, Header, Query, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from fairfight.conquest.rules import tables
from fairfight.conquest.store import log
from fairfight.web.conquest import episode_views, log_views, views
from fairfight.web.conquest.forecasts import ForecastView, PoolEffectView
from fairfight.web.conquest.live import parse_last_event_id
from fairfight.web.conquest.log_views import HeadPage, Receipt, SignedHead, attachment
from fairfight.web.conquest.models import (
    BattlePage,
    EpisodeView,
    FactionCard,
    LedgerPage,
    MapState,
    SeasonList,
    SeasonView,
    StandingRow,
)
from fairfight.web.conquest.operator import record_zip
from fairfight.web.conquest.refusals import Refusal
from fairfight.web.conquest.service import Service, install_service
from fairfight.web.ops.pools import run_in_pool
from fairfight.web.strict_input import Digits

__all__ = [
    "Amount",
    "Page",
    "PerPage",
    "battle",
    "battles",
    "events",
    "faction",
    "forecast",
    "head",
    "header",
    "heads",
    "install",
    "ledger",
    "map_state",
    "pool_effect",
    "receipt",
    "record",
    "router",
    "season",
    "seasons",
    "standings",
]

router = APIRouter(prefix="/api/seasons", tags=["conquest"])
Page = Annotated[int, Query(ge=1, le=1_000_000), Digits]
PerPage = Annotated[int, Query(ge=1, le=200), Digits]
Amount = Annotated[int, Query(ge=0, le=tables.POOL_CAP, description="dollars proposed"), Digits]


def install(app: FastAPI) -> None:
    """Give the app its conquest service (shared by every conquest route module)."""
    install_service(app)


@router.get("")
def seasons(conquest: Service) -> SeasonList:
    """Every season in the database, with its stable id."""
    catalog = conquest.catalog
    return SeasonList(
        seasons=[views.season_ref(catalog.snapshot(sid)) for sid in catalog.season_ids()]
    )


@router.get("/{season_id:id}")
def season(season_id: int, conquest: Service) -> SeasonView:
    """The season home: commitment, beacon, engine version, standings, latest battles."""
    return views.season_view(conquest.catalog.snapshot(season_id), conquest.payments_only)


@router.get("/{season_id:id}/standings")
def standings(season_id: int, conquest: Service) -> list[StandingRow]:
    """The standings, pools as the next battle will see them."""
    return views.season_view(conquest.catalog.snapshot(season_id), conquest.payments_only).standings


@router.get("/{season_id:id}/battles")
def battles(
    season_id: int, conquest: Service, page: Page = 1, per_page: PerPage = 50
) -> BattlePage:
    """The battles fought, newest first, a page at a time."""
    return views.battle_page(conquest.catalog.snapshot(season_id), page, per_page)


@router.get("/{season_id:id}/battles/{number:id}")
def battle(season_id: int, number: int, conquest: Service) -> EpisodeView:
    """One battle's episode: sides, odds before and after, rounds, draws, result."""
    snap = conquest.catalog.snapshot(season_id)
    if not 1 <= number <= len(snap.history):
        raise LookupError(f"battle {number} has not been fought")
    return episode_views.episode(snap, number).model_copy(
        update={"head": log_views.battle_head(conquest.catalog, season_id, number)})


@router.get("/{season_id:id}/header")
def header(season_id: int, conquest: Service) -> Response:
    """The season header (a download, `header.json` as the archive will hold it): the facts
    published before battle 1. Save it and compare it with the archive's."""
    snap = conquest.catalog.snapshot(season_id)
    return attachment(snap.summary.header, f"season-{season_id}-header.json")


@router.get("/{season_id:id}/heads")
def heads(
    season_id: int, conquest: Service,
    after: Annotated[int, Query(ge=0, le=2**62), Digits] = 0,
    limit: Annotated[int, Query(ge=1, le=log.HEADS_PAGE_LIMIT), Digits] = log.HEADS_PAGE_LIMIT,
) -> HeadPage:
    """Every signed head of the season log, oldest first, `limit` at a time (continue from
    `next_after`), so anyone can keep them all."""
    conquest.catalog.require(season_id)
    return log_views.heads_page(conquest.catalog, season_id, after, limit)


@router.get("/{season_id:id}/heads/{size:id}", response_model=SignedHead)
def head(season_id: int, size: int, conquest: Service) -> Response:
    """The signed head of exactly `size` leaves (a download; size 1 covers the header)."""
    conquest.catalog.require(season_id)
    found = log_views.head_of_size(conquest.catalog, season_id, size)
    return attachment(found.model_dump(), f"season-{season_id}-head-{size}.json")


@router.get("/{season_id:id}/receipts/{seq:id}", response_model=Receipt)
def receipt(season_id: int, seq: int, conquest: Service) -> Response:
    """The receipt of ledger entry `seq` (public: a download anyone may fetch): the entry,
    its leaf, the signed head published with it and the inclusion proof."""
    conquest.catalog.require(season_id)
    found = log_views.receipt_of(conquest.catalog, season_id, seq)
    return attachment(found, f"season-{season_id}-receipt-{seq}.json")


@router.get("/{season_id:id}/factions/{code}")
def faction(season_id: int, code: str, conquest: Service) -> FactionCard:
    """A faction's card: special and its source, holdings, battles, pool."""
    snap = conquest.catalog.snapshot(season_id)
    if code not in snap.regions:
        raise LookupError(f"no faction has the code {code!r}")
    return views.faction_card(snap, code, conquest.payments_only)


@router.get("/{season_id:id}/forecast")
def forecast(season_id: int, conquest: Service) -> ForecastView:
    """Title odds (made in the background; `status` says whether they are ready). Never
    waits: the first request after a battle may answer `computing` or `updating`."""
    return conquest.forecasts.view(conquest.catalog.snapshot(season_id))


@router.get("/{season_id:id}/factions/{code}/pool-effect")
async def pool_effect(season_id: int, code: str, amount: Amount,
                      conquest: Service) -> PoolEffectView:
    """What `amount` more in the faction's pool now would do to its title chance: two
    forecasts over the same simulated seasons (common random numbers)."""
    snap = await run_in_threadpool(conquest.catalog.snapshot, season_id)
    return await run_in_pool("questions", conquest.forecasts.pool_effect, snap, code, amount)


@router.get("/{season_id:id}/map")
def map_state(
    season_id: int,
    conquest: Service,
    after: Annotated[int | None, Query(ge=0, le=1_000_000), Digits] = None,
) -> MapState:
    """Who holds each region now, or just after battle `after`."""
    snap = conquest.catalog.snapshot(season_id)
    if after is not None and after > len(snap.history):
        raise LookupError(f"battle {after} has not been fought")
    return views.map_state(snap, after)


@router.get("/{season_id:id}/ledger")
def ledger(
    season_id: int, conquest: Service, page: Page = 1, per_page: PerPage = 100
) -> LedgerPage:
    """The public ledger of contributions, oldest first."""
    return views.ledger_page(conquest.catalog.snapshot(season_id), page, per_page)


@router.get(
    "/{season_id:id}/record",
    response_class=Response,
    responses={200: {"content": {"application/zip": {}}}},
)
def record(season_id: int, conquest: Service) -> Response:
    """The season's public record (a zip), once the seed has been revealed."""
    snap = conquest.catalog.snapshot(season_id)
    if snap.summary.revealed_seed is None:
        raise Refusal(409, "season", "the record is published after the reveal")
    return Response(
        record_zip(conquest.catalog, season_id),
        media_type="application/zip",
        headers={"Content-Disposition": f'attachment; filename="season-{season_id}-record.zip"'},
    )


@router.get(
    "/{season_id:id}/events",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}}},
)
async def events(
    season_id: int,
    conquest: Service,
    last_event_id: Annotated[str | None, Header(max_length=40)] = None,
) -> StreamingResponse:
    """Server-sent events: `battle` for each aired battle, `ledger` when pools change, `head`
    for each signed head, ids from the season's events table; heartbeat comments keep the
    stream open. Resume with `Last-Event-ID` (on any process); `stale` means reload."""
    conquest.catalog.require(season_id)
    stream = await conquest.live.stream(season_id, parse_last_event_id(last_event_id))
    return StreamingResponse(
        stream,
        media_type="text/event-stream",
        headers={
            "Cache-Control": "no-cache",
            "X-Accel-Buffering": "no",
            "Connection": "keep-alive",
        },
    )
