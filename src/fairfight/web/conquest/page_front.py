"""Kept season pages answered before routing: the cheapest path a crowd's requests can take.

Once a route has kept a page (`page_cache`), a plain `GET` of the same path (no query string)
needs neither the router (matching a path against every route of the site costs about a
millisecond), nor the dependencies, nor a trip through the thread pool: only the season's
mark, which on a season file is a read of shared memory (`SeasonDatabase.changes`) while
nothing was committed. So this pure ASGI layer, just outside the router and inside every
other layer (the request log, the metrics, the rate limits and the security headers see
its answers as any other), looks the path up in the routes' notes (`PageCache.front`),
builds the key as the route does, and answers from the cache; anything else falls through
to the app unchanged: a page not kept for the season's current mark, a season gone, a
server database (its mark is a query, which must not run on the event loop: the route reads
it on a worker thread), and any surprise while looking.

With stand-ins on (the operator's `crowd_stand_in_seconds`; off by default), a crowded
worker (`PageCache.crowded`) answers a page not yet rendered for the season's current
version with its stand-in, the newest page rendered for the address, and has the current
one rendered in the background: one refresher per worker sends the stalest address
asked for through the app again, its answer thrown away, so the route renders and keeps the
page exactly as for a visitor; then the next, until none is due.

The answers are the routes' own (`public_answer`, `personal_answer`): the same bytes, tag,
`304` and `Cache-Control`, and the faction card's form key drawn per response.
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable
from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from fairfight.web.conquest.page_cache import (
    BACKGROUND,
    CachedPage,
    FrontEntry,
    PageCache,
    page_address,
    personal_answer,
    public_answer,
    season_mark,
    stored_mark,
)
from fairfight.web.conquest.share_meta import public_base
from fairfight.web.security import ASGIApp, Message, Receive, Scope, Send

__all__ = ["MARK_TRIES", "PageFront"]

_UNKNOWN: tuple[Hashable, ...] = ("the season's mark is not known",)
"""What the lookup says in place of a stale address when the mark or snapshot of the file's
last commit is not known yet (`mark_reads`)."""
MARK_TRIES = 3
"""Reads of the mark and snapshot on the mark thread before the requests waiting for them
are let go to the router (a commit between the two reads makes them disagree)."""


class PageFront:
    """Answer a plain GET of a kept season page from the page cache, before routing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._due: dict[tuple[Hashable, ...], Scope] = {}
        """Addresses whose stand-in was answered and is due for a render, with a request
        for each."""
        self._refresher: asyncio.Task[None] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        pages = _pages_of(scope)
        if pages is None:
            await self.app(scope, receive, send)
            return
        pages.open_requests += 1  # a kept page's address: counted while it is answered
        try:
            refresh = dict(scope)  # as it arrived, before the lookup notes its route
            answer, stale = _kept_answer(scope)
            if stale is _UNKNOWN:  # the mark of the last commit: read it, then look again
                since = await pages.mark_reads.fresh(pages.front[scope["path"]].season_id,
                                                     lambda: _read_mark(scope))
                answer, stale = _kept_answer(scope, since)
            if stale is _UNKNOWN:
                stale = None
            if stale is not None:
                self._refresh(refresh, stale, pages)
            if answer is not None:
                await answer(scope, receive, send)
                return
            await self.app(scope, receive, send)
        finally:
            pages.open_requests -= 1

    def _refresh(self, scope: Scope, address: tuple[Hashable, ...], pages: PageCache) -> None:
        """Have the current version of a stood-in page rendered in the background."""
        self._due.setdefault(address, scope)
        if self._refresher is None or self._refresher.done():
            self._refresher = asyncio.get_running_loop().create_task(self._refresh_due(pages))

    async def _refresh_due(self, pages: PageCache) -> None:
        """Render the due addresses one at a time, the stalest first, each through the app
        as any request (its answer goes nowhere)."""

        async def nothing_more() -> Message:
            return {"type": "http.request", "body": b"", "more_body": False}

        async def thrown_away(message: Message) -> None:
            return None

        def age(address: tuple[Hashable, ...]) -> float:
            standing = pages.stand_in(address)
            return pages.refresh_seconds if standing is None else standing[1]

        BACKGROUND.set(True)  # this task's own context, passed on to the route's thread
        while self._due:
            address = max(self._due, key=age)
            scope = self._due.pop(address)
            if age(address) < pages.refresh_seconds:
                continue  # rendered since it was asked for
            try:
                await self.app(scope, nothing_more, thrown_away)
            except Exception:  # noqa: S112 (a visitor asking next gets the route's answer)
                continue


def _found(request: Request, conquest: Any, entry: FrontEntry,
           since: int | None) -> tuple[CachedPage | None, tuple[Hashable, ...] | None]:
    """The kept page for the request's key, or a crowded worker's stand-in (and then its
    address, when it is due for a render). A stand-in younger than `refresh_seconds` is
    answered without reading the season's mark at all: under a stream of contributions that
    read is a query on the event loop every few milliseconds."""
    pages = conquest.pages
    crowded = pages.crowded()
    if crowded:
        standing = pages.stand_in((*entry.prefix, public_base(request), conquest.payments_only))
        if standing is not None and standing[1] < pages.refresh_seconds:
            return standing[0], None
    try:
        if pages.stand_in_seconds:  # their crowd reads the mark here, on the loop, as before
            stored_mark(conquest, entry.season_id, own=True)
        key = (*entry.prefix, *season_mark(request, conquest, entry.season_id, entry.ledger,
                                           build=False, since=since))
    except LookupError:  # the mark or snapshot of the last commit is not known yet
        return None, None if crowded or pages.stand_in_seconds else _UNKNOWN
    except Exception:  # the route answers whatever went wrong, as it always has
        return None, None
    found = pages.kept.get(key)
    if found is None and crowded:
        standing = pages.stand_in(page_address(key))
        if standing is not None:
            due = standing[1] >= pages.refresh_seconds
            return standing[0], page_address(key) if due else None
    return found, None


def _read_mark(scope: Scope) -> int | None:
    """On the mark thread: the season's mark and the snapshot of its version, read for the
    file's last commit (read again should a commit land between the two); the file's commit
    number before the read, or None when the two never agreed."""
    conquest: Any = scope["app"].state.conquest
    season_id = conquest.pages.front[scope["path"]].season_id
    for _ in range(MARK_TRIES):
        since = conquest.catalog.database.changes()
        version = stored_mark(conquest, season_id, own=True)[0]
        if conquest.catalog.snapshot_at(season_id, version).version == version:
            return int(since) if since is not None else None
    return None


def _pages_of(scope: Scope) -> PageCache | None:
    """The page cache, for a plain GET of an address a route has kept a page for."""
    if scope["type"] != "http" or scope["method"] != "GET" or scope["query_string"]:
        return None
    conquest = getattr(getattr(scope.get("app"), "state", None), "conquest", None)
    pages = getattr(conquest, "pages", None)
    return pages if isinstance(pages, PageCache) and scope["path"] in pages.front else None


def _kept_answer(scope: Scope, since: int | None = None) -> \
        tuple[Response | None, tuple[Hashable, ...] | None]:
    """The kept page for this request as the route would send it, or None to route it; and
    the page's address when it is a crowd's stand-in that this request must have rendered
    again in the background (`_UNKNOWN` when the mark of the last commit, or of one after
    commit number `since`, is not known)."""
    app: Any = scope.get("app")
    conquest = getattr(getattr(app, "state", None), "conquest", None)
    if conquest is None:
        return None, None
    entry = conquest.pages.front.get(scope["path"])
    if entry is None or conquest.catalog.database.server:
        return None, None
    request = Request({**scope, "path_params": entry.path_params})
    found, stale = _found(request, conquest, entry, since)
    if found is None:
        return None, stale  # None, or `_UNKNOWN`: a stand-in is always found
    scope["route"] = entry.route  # the metrics and the log name the route that kept it
    scope["path_params"] = entry.path_params
    return (public_answer(request, found) if entry.fill is None else personal_answer(
        found, entry.fill)), stale
