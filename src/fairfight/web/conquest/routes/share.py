"""Sharing the show: card pictures under content-hashed addresses, each season's Atom feed,
and the embeddable view for other sites' pages.

A card's address carries the digest of what it is drawn from (`share_cards.card_digest`), so
it is served as immutable; an address with a stale or unknown digest is redirected (302, not
cached) to the card as it is now: a link shared before a later battle still shows a picture.
"""

from __future__ import annotations

import re
from collections.abc import Hashable

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

import fairfight.web.strict_input  # noqa: F401  (registers the {name:id} path convertor)
from fairfight.web.conquest.card_drawing import RenderedCards
from fairfight.web.conquest.feed import BattleTimes, season_feed
from fairfight.web.conquest.page_cache import season_mark
from fairfight.web.conquest.service import Service
from fairfight.web.conquest.share_cards import (
    DIGEST_CHARS,
    Card,
    card_digest,
    card_path,
    episode_card,
    season_card,
)
from fairfight.web.conquest.share_meta import public_base, site_card
from fairfight.web.conquest.views import battle_line, names, season_url, season_view
from fairfight.web.templating import templates

__all__ = [
    "EMBED_ROWS",
    "ShareState",
    "embed_season",
    "episode_card_png",
    "install",
    "router",
    "season_card_png",
    "season_feed_atom",
    "site_card_png",
]

router = APIRouter(include_in_schema=False)
EMBED_ROWS = 10
"""Standings rows the embedded view shows (the season home has them all)."""
_DIGEST = re.compile(f"[0-9a-f]{{{DIGEST_CHARS}}}")
_IMMUTABLE = "public, max-age=31536000, immutable"


class ShareState:
    """What the sharing routes keep per app: drawn cards and battles' head times."""

    def __init__(self) -> None:
        self.cards = RenderedCards()
        self.times = BattleTimes()


def install(app: FastAPI) -> None:
    """Give the app its card cache and feed times."""
    app.state.share = ShareState()


def _state(request: Request) -> ShareState:
    found: ShareState = request.app.state.share
    return found


def _card_response(request: Request, card: Card, digest: str) -> Response:
    if not _DIGEST.fullmatch(digest) or digest != card_digest(card):
        return RedirectResponse(card_path(card), status_code=302,
                                headers={"Cache-Control": "no-cache"})
    return Response(_state(request).cards.png(card), media_type="image/png",
                    headers={"Cache-Control": _IMMUTABLE})


@router.get("/conquest/{season_id:id}/cards/episode-{number:id}-{digest}.png")
def episode_card_png(request: Request, season_id: int, number: int, digest: str,
                     conquest: Service) -> Response:
    """An episode's share card (1200×630 PNG)."""
    snap = conquest.catalog.snapshot(season_id)
    if not 1 <= number <= len(snap.history):
        raise LookupError(f"battle {number} has not been fought")
    return _card_response(request, episode_card(snap, number), digest)


@router.get("/conquest/{season_id:id}/cards/season-{digest}.png")
def season_card_png(request: Request, season_id: int, digest: str,
                    conquest: Service) -> Response:
    """A season's share card as of now."""
    return _card_response(request, season_card(conquest.catalog.snapshot(season_id)), digest)


@router.get("/cards/site-{digest}.png")
def site_card_png(request: Request, digest: str) -> Response:
    """The card of pages outside a season."""
    return _card_response(request, site_card(request), digest)


@router.get("/conquest/{season_id:id}/feed.atom")
def season_feed_atom(request: Request, season_id: int, conquest: Service) -> Response:
    """The season's Atom feed: an entry per aired battle."""
    snap = conquest.catalog.snapshot(season_id)
    times = _state(request).times.times(conquest.catalog, snap)
    return Response(season_feed(snap, times, public_base(request)),
                    media_type="application/atom+xml; charset=utf-8",
                    headers={"Cache-Control": "public, max-age=60"})


@router.get("/embed/seasons/{season_id:id}", response_class=HTMLResponse)
def embed_season(request: Request, season_id: int, conquest: Service) -> Response:
    """The season in a frame for another site: standings, the next battle, the latest result.
    The only page that may be framed (`fairfight.web.security.FRAMEABLE_PREFIXES`)."""
    def render() -> Response:
        snap = conquest.catalog.snapshot(season_id)
        season = season_view(snap, conquest.payments_only)
        latest = (battle_line(season_id, snap.history[-1], names(snap)) if snap.history
                  else None)
        return templates.TemplateResponse(
            request, "embed/season.html",
            {"season": season, "rows": season.standings[:EMBED_ROWS], "latest": latest,
             "home": season_url(season_id)},
        )
    prefix = (request.url.path,)

    def newest() -> tuple[Hashable, ...]:
        return (*prefix, *season_mark(request, conquest, season_id))

    answer = conquest.pages.serve(request, newest(), render, newest)
    conquest.pages.remember(request, season_id, prefix)
    return answer
