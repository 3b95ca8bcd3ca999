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
personal is ever kept here: a part sees the season's public views and nothing of the
request, but for a faction card's pool with a visitor's own receipt, error or effect, which
is rendered for that visitor and never kept.

A faction card was rendered whole per season version, and every contribution to any of the
season's factions is a new version: under a crowd nearly every card asked was a new render.
Its parts are kept apart by what each reads: the facts (status, morale, holder), the
holdings, the battles fought and the luck read the battles alone; the title odds the
forecast; the pool and its forms the faction's own figures on the board the next battle
will see (a contribution only adds to its own faction's pool, `engine.apply_contribution`,
and a battle that spends a pool marks it spent) and whether the season is over; the list of
its contributions its own ledger entries (the ledger only grows, so their count and newest
seq say which). A contribution to another faction renders none of a card's parts; one to
this faction its pool and its list.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from functools import cache
from typing import Any

from markupsafe import Markup

from fairfight.conquest.store.season_store import Version
from fairfight.web.byte_cache import ByteCappedCache
from fairfight.web.conquest import episode_views, views
from fairfight.web.conquest.catalog import Snapshot
from fairfight.web.conquest.forecasts import ForecastView
from fairfight.web.conquest.models import SeasonView
from fairfight.web.templating import templates

__all__ = [
    "PARTS_BYTES", "PageParts", "card_ledger_mark", "fought_mark", "ledger_marks",
    "shown_version",
]

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

    def card(self, snap: Snapshot, code: str, forecast: ForecastView,
             odds_mark: tuple[Any, ...], payments_only: bool, own: dict[str, Any],
             keep_pool: bool) -> dict[str, Markup]:
        """A faction card's parts. `own` is the pool's context besides the card (the form
        key, and a visitor's receipt, error or effect); without `keep_pool` (anything of
        the visitor's own in it) the pool is rendered for this answer alone."""
        fought = fought_mark(snap)
        card = cache(lambda: views.faction_card(snap, code, payments_only))

        def shown() -> dict[str, Any]:
            return {"season": views.season_ref(snap), "card": card(), "code": code,
                    "forecast": forecast}

        board = views.pending_board(snap)
        pool = ("card pool", code, snap.season_id, board["ended"], payments_only,
                forecast.status == "off", own["form_key"], *board["factions"][code].values())
        pool_part = (self.part(pool, "conquest/_card_pool.html", lambda: {**shown(), **own})
                     if keep_pool else self.once("conquest/_card_pool.html",
                                                 {**shown(), **own}))
        return {
            "facts": self.part(("card facts", code, *fought), "conquest/_card_facts.html",
                               shown),
            "odds": self.part(("card odds", code, snap.season_id, *odds_mark),
                              "conquest/_card_odds.html", shown),
            "pool": pool_part,
            "holdings": self.part(("card holdings", code, *fought),
                                  "conquest/_card_holdings.html", shown),
            "contributions": self.part(
                ("card contributions", code, snap.season_id, *ledger_marks(snap).get(code, ())),
                "conquest/_card_contributions.html", shown),
            "history": self.part(("card history", code, *fought),
                                 "conquest/_card_history.html", shown),
        }

    @staticmethod
    def once(template: str, context: dict[str, Any]) -> Markup:
        """A part rendered for one answer alone, never kept."""
        return Markup(templates.get_template(template).render(context))

    def standing_rows(self, season: SeasonView, forecast: ForecastView,
                      odds: tuple[Any, ...]) -> Markup:
        """The standings table's rows, each kept under everything it prints (the row's own
        figures, pool included, and the forecast's mark): a contribution renders again the
        row whose pool it moved, not the table."""
        return Markup("").join(
            self.part(("row", *odds, *row.__dict__.values()), "conquest/_standing_row.html",
                      _context(season=season, row=row, forecast=forecast))
            for row in season.standings)


def ledger_marks(snap: Snapshot) -> dict[str, tuple[int, int]]:
    """Per faction, how many ledger entries it has and its newest seq: which of its
    entries a card lists, since the ledger only grows. Made once per snapshot."""
    marks: dict[str, tuple[int, int]] | None = snap.own.get("ledger marks")
    if marks is None:
        marks = {}
        for entry in snap.summary.ledger:
            count, newest = marks.get(entry["faction"], (0, 0))
            marks[entry["faction"]] = (count + 1, max(newest, int(entry["seq"])))
        snap.own["ledger marks"] = marks
    return marks


def card_ledger_mark(snap: Snapshot, code: str) -> tuple[Hashable, ...]:
    """What of the ledger a faction's card shows: its own figures on the board the next
    battle will see, and which of the ledger's entries are its own."""
    faction = views.pending_board(snap)["factions"].get(code)
    return () if faction is None else (tuple(faction.values()),
                                       ledger_marks(snap).get(code, ()))


def shown_version(conquest: Any, season_id: int, version: Version, ledger: bool | str,
                  build: bool) -> tuple[Hashable, ...]:
    """The season's version as a kept page's key holds it: whole for a page that shows the
    ledger; without the ledger's seq for one that shows none of it (an episode); for a
    faction's card (`ledger` its code) with that faction's ledger figures in its place,
    when the title odds are off (on, the odds' status moves with every contribution), so
    a contribution to another faction is not a new card. Those figures are read from the
    version's snapshot: without `build`, only a kept one (else a LookupError)."""
    if ledger is True or (isinstance(ledger, str) and conquest.forecasts.enabled):
        return version
    if ledger is False:
        return (version[0], None, *version[2:])
    catalog = conquest.catalog
    snap = catalog.snapshot_at(season_id, version) if build else \
        catalog.kept_at(season_id, version)
    if snap is None:
        raise LookupError("the version's snapshot is not made yet")
    return (version[0], card_ledger_mark(snap, ledger), *version[2:])


def _context(**shown: Any) -> Callable[[], dict[str, Any]]:
    """A part's context, made only when the part is rendered."""
    return lambda: shown
