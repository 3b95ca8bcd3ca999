"""What a shared link of any page shows: the `og:` and `twitter:` values of its head.

`base.html` calls `page_share(request)` (a template global): an episode page gets its
episode's card (its watch mode, which keeps the result for the end, the site's card), every
other page of a season the season's card, the front page the newest season's, and pages
outside a season the site's card. Addresses are absolute, on the
service's public address (`FAIRFIGHT_PUBLIC_URL`, else the address the request came to).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fastapi import Request

from fairfight.web.conquest import views
from fairfight.web.conquest.catalog import SeasonCatalog, Snapshot
from fairfight.web.conquest.feed import feed_path
from fairfight.web.conquest.share_cards import (
    SiteCard,
    card_path,
    episode_card,
    season_card,
)

__all__ = ["PageShare", "SITE_DESCRIPTION", "page_share", "public_base", "site_card"]

SITE_DESCRIPTION = ("Exact, reproducible and verifiable battles: a season battle show, "
                    "combat odds, card-game tables and forum wars, every result recomputable "
                    "from its seed.")


@dataclass(frozen=True, slots=True)
class PageShare:
    """The values of a page's share tags (absolute addresses)."""

    description: str
    base: str
    url: str
    image: str
    image_alt: str
    feed: str | None = None
    feed_title: str | None = None


def public_base(request: Request) -> str:
    """The service's public root, without a trailing slash."""
    configured = getattr(request.app.state.settings, "public_url", None)
    return str(configured or request.base_url).rstrip("/")


def site_card(request: Request) -> SiteCard:
    """The site's card: its name, what it is, the sections of the navigation bar."""
    entries: list[tuple[int, str, str]] = request.app.state.navigation
    sections = tuple(label for _, label, path in sorted(entries) if path != "/")
    return SiteCard("fairfight", "Exact, reproducible and verifiable battles", sections)


def _season_of(request: Request, catalog: SeasonCatalog) -> int | None:
    season_id = request.path_params.get("season_id")
    if isinstance(season_id, int):
        return season_id
    if request.url.path == "/":
        ids = catalog.season_ids()
        return max(ids) if ids else None
    return None


def _season_share(request: Request, catalog: SeasonCatalog, season_id: int,
                  base: str, url: str) -> PageShare:
    snap = catalog.snapshot(season_id)
    feed = base + feed_path(season_id)
    feed_title = f"Season {season_id}: every battle (Atom)"
    number = request.path_params.get("number")
    fought = isinstance(number, int) and 1 <= number <= len(snap.history)
    if isinstance(number, int) and fought and request.url.path.endswith("/watch"):
        return _watch_share(request, snap, number, base, url)
    if isinstance(number, int) and "/battles/" in request.url.path and fought:
        card = episode_card(snap, number)
        line = views.battle_line(season_id, snap.history[number - 1], views.names(snap))
        banners = f" ({', '.join(line.banners)})" if line.banners else ""
        description = (f"Battle {number} of season {season_id}: {line.winner_name} beat "
                       f"{line.loser_name} at a {line.winner_chance_text} battle chance"
                       f"{banners}.")
        alt = (f"Battle {number}: {card.attacker.name} attacked {card.defender.name}; "
               f"{line.winner_name} won, rounds {card.attacker_rounds}–"
               f"{card.defender_rounds}; battle chance {card.chance_text} for the attacker.")
        return PageShare(description, base, url, base + card_path(card), alt, feed, feed_title)
    season = season_card(snap)
    leaders = ", ".join(f"{line.name} ({line.holdings})" for line in season.leaders[:3])
    state = season.champion_text or (f"{season.battles} battles aired; leading: {leaders}."
                                     if leaders else f"{season.battles} battles aired.")
    description = f"Season {season_id} of the conquest show on {season.map_name}. {state}"
    alt = (f"Season {season_id} on {season.map_name}: {season.battles} battles aired; "
           f"the leaders by regions held and the map by holder.")
    return PageShare(description, base, url, base + card_path(season), alt, feed,
                     feed_title)


def _watch_share(request: Request, snap: Snapshot, number: int, base: str, url: str) -> PageShare:
    """A watch-mode link tells who fights, never who won: its preview would spoil the show
    (the episode's card and words give the result), so it shows the site's card."""
    entry = snap.history[number - 1]
    description = (f"Battle {number} of season {snap.season_id}: "
                   f"{snap.name_of(entry['attacker'])} against "
                   f"{snap.name_of(entry['defender'])}. Watch it play out round by round; "
                   "the result comes at the end.")
    return PageShare(description, base, url, base + card_path(site_card(request)),
                     "fairfight: exact, reproducible and verifiable battles")


def page_share(request: Request) -> PageShare:
    """The share values of the page answering `request` (never fails: an unknown season or
    battle, as on an error page, gets the site's card)."""
    base = public_base(request)
    url = base + request.url.path
    conquest: Any = getattr(request.app.state, "conquest", None)
    if conquest is not None:
        try:
            season_id = _season_of(request, conquest.catalog)
            if season_id is not None:
                return _season_share(request, conquest.catalog, season_id, base, url)
        except LookupError:
            pass
    return PageShare(SITE_DESCRIPTION, base, url, base + card_path(site_card(request)),
                     "fairfight: exact, reproducible and verifiable battles")
