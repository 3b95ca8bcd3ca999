"""Parts of a season page rendered once per version of what they show, then stitched in.

A page is kept per season version (`page_cache`), and every contribution is a new version:
under a stream of contributions every page load rendered the whole page again, though most
of it never reads the ledger. The map, the latest episodes and the luck of the season read
only the battles fought (with the map, the beacon and the reveal); the title odds table and
the note on how the odds are made read only the forecast the page shows. So those parts are
rendered once per version of what they show, kept here as HTML, and the page around them
(standings and pools, the season's header, the signed head: what a contribution moves) is
rendered per season version as before, with the kept parts put in.

Each part's key holds everything its bytes depend on, read from the same snapshot or
forecast view the rest of the page is rendered from, so a page still shows one version
throughout: a battle, a reveal or a new beacon is a new key for the battle parts, a
forecast landing or going stale ("updating") is a new key for the odds parts. Nothing
personal is ever rendered here: a part sees the season's public views and nothing of the
request.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any

from markupsafe import Markup

from fairfight.web.byte_cache import ByteCappedCache
from fairfight.web.conquest import episode_views, views
from fairfight.web.conquest.catalog import Snapshot
from fairfight.web.conquest.forecasts import ForecastView
from fairfight.web.conquest.models import SeasonView
from fairfight.web.templating import templates

__all__ = ["PARTS_BYTES", "PageParts", "fought_mark"]

PARTS_BYTES = 16 * 1024 * 1024
"""Bytes of rendered parts one worker keeps: a season home's map weighs some 100 KB, its
other parts a few KB, so the parts of many seasons and versions fit; the least recently
used go first."""
_PART_OVERHEAD = 128
"""Bytes charged per kept part on top of its text (the key, the record)."""


def fought_mark(snap: Snapshot) -> tuple[Hashable, ...]:
    """What a battle part shows besides the season: the battles fought, the beacon and the
    reveal (the season's version without its ledger seq)."""
    return (snap.season_id, snap.version[0], *snap.version[2:])


class PageParts:
    """Rendered parts of season pages, by what each shows; one per worker, shared by its
    requests."""

    def __init__(self, max_bytes: int = PARTS_BYTES) -> None:
        self.kept: ByteCappedCache[tuple[Hashable, ...], Markup] = ByteCappedCache(
            max_bytes, lambda part: len(part) + _PART_OVERHEAD)
        self.rendered = 0
        """Parts rendered so far (for tests and the curious)."""

    def part(self, key: tuple[Hashable, ...], template: str,
             context: Callable[[], dict[str, Any]]) -> Markup:
        """The part kept under `key`, or `template` rendered with `context()` and kept (two
        threads may render the same part at once; both render the same bytes)."""
        found = self.kept.get(key)
        if found is None:
            found = Markup(templates.get_template(template).render(context()))
            self.rendered += 1
            self.kept.put(key, found)
        return found

    def home(self, snap: Snapshot, season: SeasonView, forecast: ForecastView,
             odds_mark: tuple[Any, ...]) -> dict[str, Markup]:
        """The season home's parts that no contribution moves: `odds_mark` is the forecast
        view's own (`ForecastCache.view_marked`)."""
        fought = fought_mark(snap)
        odds = (snap.season_id, *odds_mark)
        shown = {"season": season, "forecast": forecast}
        return {
            "latest": self.part(("latest", *fought), "conquest/_home_latest.html",
                                lambda: shown),
            "luck": self.part(("luck", *fought), "conquest/_home_luck.html", lambda: shown),
            "map": self.part(("map", *fought), "conquest/map.html",
                             lambda: {**shown, "map": views.map_state(snap)}),
            "odds": self.part(("odds", *odds), "conquest/_home_odds.html", lambda: shown),
            "method": self.part(("method", *odds), "conquest/_home_method.html",
                                lambda: shown),
            "standings": self.standing_rows(season, forecast, odds),
        }

    def episode(self, snap: Snapshot, number: int) -> dict[str, Markup]:
        """An episode page's parts that read the battles fought alone: the battle and the
        map just after it."""
        fought = fought_mark(snap)
        shown = _context(season=views.season_ref(snap),
                         e=episode_views.episode(snap, number))
        return {
            "body": self.part(("episode", number, *fought), "conquest/_episode_body.html",
                              shown),
            "map": self.part(("episode map", number, *fought), "conquest/map.html",
                             _context(season=views.season_ref(snap),
                                      map=views.map_state(snap, number))),
        }

    def standing_rows(self, season: SeasonView, forecast: ForecastView,
                      odds: tuple[Any, ...]) -> Markup:
        """The standings table's rows, each kept under everything it prints (the row's own
        figures, pool included, and the forecast's mark): a contribution renders again the
        row whose pool it moved, not the table."""
        return Markup("").join(
            self.part(("row", *odds, *row.__dict__.values()), "conquest/_standing_row.html",
                      _context(season=season, row=row, forecast=forecast))
            for row in season.standings)


def _context(**shown: Any) -> Callable[[], dict[str, Any]]:
    """A part's context, made only when the part is rendered."""
    return lambda: shown
