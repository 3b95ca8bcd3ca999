"""Whole conquest pages, rendered once per season version and served to every visitor.

A show's pages are read by its whole audience in the minutes after an episode airs, and
between two changes of a season every visitor sees the same bytes. So the public pages (season
home, episode list, episode, faction card, verify, embed, stream overlay) are kept here as
rendered bytes, keyed by the route's path, the season's version and the few other facts a
page shows:

- the season's `Version` (battles, last ledger seq, beacon, reveal), read with the schedule
  and the kept odds' version after every commit (`stored_mark`): so a change written by
  another worker or the command line shows on the next load. Every head is signed in the
  transaction of one of those changes, so it moves the version;
- the countdown as the page prints it (schedule, pause, skip, the words "in 3 min");
- which forecast and kept odds the page shows (`ForecastCache.page_mark`): they are made on a
  worker thread and land between versions;
- the public address the share tags print, and whether payments go through the provider;
- how many witness cosignatures this process has stored for the season
  (`WitnessSender.page_mark`): they arrive in the background, between versions.

Nothing personal is kept: only a 200 without `Set-Cookie` is stored; pages with a visitor's
own part (a receipt after a contribution, an error in a form, a pool-effect answer, the
operator's console) are rendered for that visitor alone. The faction card's form carries a
fresh idempotency key per visitor: the card is kept with a placeholder in its place and each
response gets its own key, never an `ETag`, and `Cache-Control: no-store`.

By default every page answered shows the season's current version, the newest the worker has
seen. An operator may trade that for speed under a crowd (`crowd_stand_in_seconds`, off at
0), when the season changes faster than its pages can be rendered (fifty contributions a
second are fifty versions): a worker with many page requests open at once
(`CROWD_REQUESTS`, `PageCache.crowded`) then answers a page it has not rendered for the
current version with the newest one it rendered for the same address (a stand-in, at most
`stand_in_seconds` old), and renders the current one in the background: one render at a
time, the stalest address first, each at most every `REFRESH_SECONDS` (`page_front`; with
one render per stale address at once, fifty faction cards due every second took every
thread and a visitor's first card waited ten seconds). A worker that is not crowded, or has
stand-ins off, renders every version before answering it: a visitor who contributes and
reloads sees the contribution.

The routes are coroutines and call `serve_async`: a request that waits for another's render
of its page waits on the event loop (`page_flights`), and only the render takes a thread.

Kept pages answer with a strong `ETag` (a digest of the bytes) and `304` to a matching
`If-None-Match`, and with `Cache-Control: public, max-age=5, must-revalidate`, so a proxy
or CDN may serve a page for five seconds and then asks again (docs/operations.md, "Pages
behind a cache").
"""

from __future__ import annotations

import hashlib
import itertools
import secrets
import threading
import time
from collections.abc import Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from fastapi import Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from fairfight.conquest.store.odds_history import history_version
from fairfight.conquest.store.schedule_store import read_schedule
from fairfight.conquest.store.season_store import SeasonStore
from fairfight.web.byte_cache import ByteCappedCache
from fairfight.web.conquest.airing import countdown_of_request, season_countdown
from fairfight.web.conquest.catalog import one_snapshot
from fairfight.web.conquest.mark_reads import MarkReads
from fairfight.web.conquest.page_flights import RenderFlights
from fairfight.web.conquest.page_parts import shown_version
from fairfight.web.conquest.share_meta import public_base

__all__ = [
    "BACKGROUND",
    "CROWD_REQUESTS",
    "FORM_KEY_PLACEHOLDER",
    "MARK_LENGTH",
    "MAX_AGE_SECONDS",
    "PAGES_BYTES",
    "PERSONAL_CACHE_CONTROL",
    "PUBLIC_CACHE_CONTROL",
    "REFRESH_SECONDS",
    "CachedPage",
    "FrontEntry",
    "PageCache",
    "page_address",
    "personal_answer",
    "public_answer",
    "season_mark",
    "stored_mark",
]

PAGES_BYTES = 48 * 1024 * 1024
"""Bytes of rendered pages one worker keeps: a season home weighs some 250 KB, an episode
or a card less, so the pages of a few seasons' latest versions fit; the least recently
served go first."""
MAX_AGE_SECONDS = 5
"""How long a proxy or browser may show a kept page without asking again: short, since the
pages follow a live show; asking again costs a `304` when nothing changed."""
PUBLIC_CACHE_CONTROL = f"public, max-age={MAX_AGE_SECONDS}, must-revalidate"
PERSONAL_CACHE_CONTROL = "no-store"
FORM_KEY_PLACEHOLDER = f"form-key-{secrets.token_hex(16)}"
"""Stands in a kept faction card for the form's idempotency key; each response gets its own
key in its place (drawn at start-up, so no text a page shows can spell it)."""
REFRESH_SECONDS = 1.0
"""How often a crowded worker renders a changing address's page again (stand-ins on)."""
CROWD_REQUESTS = 16
"""Season page requests open at once in a worker (counted before routing) from which it is
crowded and answers stand-ins, when they are on. A visitor, a test or a few readers stay far
below it and always get the current version; a crowd waiting on renders is far above it."""
BACKGROUND: ContextVar[bool] = ContextVar("fairfight_page_refresh", default=False)
"""Set for the background renders of a crowded worker: they render the current version even
where a visitor would be answered with the stand-in."""
MARK_LENGTH = 6
"""The parts of `season_mark`: version, countdown, odds, public base, payments, witnesses."""
_PAGE_OVERHEAD = 256
"""Bytes charged per kept page on top of its body (the key, the tag, the record)."""


@dataclass(frozen=True, slots=True)
class CachedPage:
    """One rendered page: its bytes, content type and strong entity tag."""

    body: bytes
    media_type: str
    etag: str


def _weight(page: CachedPage) -> int:
    return len(page.body) + _PAGE_OVERHEAD


def season_mark(request: Request, conquest: Any, season_id: int, ledger: bool | str = True,
                build: bool = True, since: int | None = None) -> tuple[Hashable, ...]:
    """Everything besides the route that decides a season page's bytes, read now (a
    LookupError for a season the database does not hold, as the page itself would raise).
    Without `ledger`, for a page that shows nothing of the ledger (an episode), the
    version leaves out the last ledger seq: a contribution is then not a new page; with a
    faction's code (its card), the version holds that faction's ledger figures in its place
    (`page_parts.shown_version`). Without `build` nothing is read or built (the event
    loop's way): a LookupError unless the mark and snapshot of the last commit are kept."""
    catalog = conquest.catalog
    own = request.path_params.get("season_id") == season_id
    version, stored, kept = stored_mark(conquest, season_id, own, build, since)
    if own:  # the season's own countdown, as `countdown_of_request` reads it
        snap = catalog.snapshot_for_countdown(season_id, version, build)
        countdown = season_countdown(season_id, lambda: (
            None if stored is None else conquest.airing.countdown_of(snap, stored)))
    else:  # the front page: the soonest season's
        countdown = countdown_of_request(request)
    shown = None if countdown is None else tuple(
        sorted(countdown.model_dump(exclude={"seconds"}).items()))
    return (shown_version(conquest, season_id, version, ledger, build), shown,
            conquest.forecasts.page_mark(season_id, kept),
            public_base(request), conquest.payments_only,
            conquest.witnessing.page_mark(season_id))


def page_address(key: tuple[Hashable, ...]) -> tuple[Hashable, ...]:
    """A kept page's key without what changes with the season (version, countdown, odds,
    cosignatures):
    the route's part and the public base and payments mode, which a stand-in must share
    with the page it stands in for."""
    prefix, mark = key[:-MARK_LENGTH], key[-MARK_LENGTH:]
    return (*prefix, mark[3], mark[4])


def stored_mark(conquest: Any, season_id: int, own: bool, read: bool = True,
                since: int | None = None) -> tuple[Any, Any, Any]:
    """The season's version, its stored schedule (own pages) and the kept odds' version,
    read in one transaction; on a season file, read again only after a commit
    (`SeasonDatabase.changes`), so a kept page costs no query. Without `read`, a LookupError
    instead of a read, unless the kept one was read after commit number `since`."""
    catalog = conquest.catalog
    changes = catalog.database.changes()
    marks: dict[tuple[int, bool], tuple[int, tuple[Any, Any, Any]]] = conquest.pages.marks
    if changes is not None:
        known = marks.get((season_id, own))
        if known is not None and known[0] >= (changes if since is None else since):
            return known[1]
    if not read:
        raise LookupError("the season's mark is not read since its last commit")
    with catalog.read(season_id) as session:  # one transaction
        mark = (SeasonStore.version(session), read_schedule(session) if own else None,
                history_version(session) if conquest.forecasts.enabled else None)
    if changes is not None:  # read after `changes`: never older than what that number saw
        marks[(season_id, own)] = (changes, mark)
    return mark


def _matches(request: Request, etag: str) -> bool:
    """Whether `If-None-Match` names the tag (weak comparison, as RFC 9110 says for it)."""
    asked = request.headers.get("if-none-match")
    if not asked:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in asked.split(",")]
    return "*" in tags or etag in tags


@dataclass(slots=True)
class _Turn:
    """The render of one page, one request at a time; `last` the page the latest render
    made, with the stamp taken before it read the page's key. Waiters are woken together
    when a render ends, so none waits behind renders that started after it asked (a lock
    handed from thread to thread is not fair, and a crowd could starve one request)."""

    changed: threading.Condition = field(default_factory=threading.Condition)
    """Held to look at the turn; notified when a render ends."""
    rendering: bool = False
    users: int = 0
    last: tuple[int, CachedPage] | None = None


class PageCache:
    """Rendered pages of one worker, capped by bytes, shared by all its requests."""

    def __init__(self, max_bytes: int = PAGES_BYTES, stand_in_seconds: float = 0) -> None:
        self.kept: ByteCappedCache[tuple[Hashable, ...], CachedPage] = ByteCappedCache(
            max_bytes, _weight)
        self._guard = threading.Lock()
        self._stamps = itertools.count()
        self._turns: dict[tuple[Hashable, ...], _Turn] = {}
        """A lock per page being rendered: requests that miss the same page together wait
        for one render instead of each rendering it (after a change, the whole audience asks
        for the new page at once)."""
        self.rendered = 0
        """Pages rendered for the cache so far (for tests and the curious)."""
        self.marks: dict[tuple[int, bool], tuple[int, tuple[Any, Any, Any]]] = {}
        """The last stored mark read per (season, own page), with the season file's change
        number it was read after (`stored_mark`)."""
        self.stand_in_seconds = stand_in_seconds
        """The oldest stand-in a crowded worker may answer; 0, the default, never answers
        one (the operator's `crowd_stand_in_seconds`)."""
        self.refresh_seconds = min(REFRESH_SECONDS, stand_in_seconds)
        """How often a stood-in address is rendered again: never less often than its
        stand-in may age."""
        self.stand_ins: ByteCappedCache[tuple[Hashable, ...], tuple[CachedPage, float]] = \
            ByteCappedCache(max_bytes // 4, lambda kept: _weight(kept[0]))
        """The newest page rendered per address (`page_address`), with when it was kept."""
        self.open_requests = 0
        """Season page requests being answered now (counted by `page_front`)."""
        self.mark_reads: MarkReads[int | None] = MarkReads()  # once per commit (`page_front`)
        self.flights: RenderFlights[CachedPage] = RenderFlights()
        # renders under way per path, waited for on the event loop (`serve_async`)
        self.front: dict[str, FrontEntry] = {}
        """Paths whose page a route has kept, by path: what `page_front` needs to find the
        kept page again without routing (one entry per path, so bounded by the routes)."""

    def page(self, key: tuple[Hashable, ...], render: Callable[[], Response],
             newest: Callable[[], tuple[Hashable, ...]] | None = None) -> \
            CachedPage | Response:
        """The kept page for `key`, rendering and keeping it when missing; a response that
        must not be shared (not a 200, or one setting a cookie) is returned as it is.

        One render per page at a time: requests that miss it together wait for that render,
        and are answered with it when it read its key after they read theirs (so it is as
        new as theirs or newer). With `newest` (the page's key read again), the turn is the
        page's path, `key[0]`, whatever the version: the request whose turn comes reads the
        key again and renders the page as it is now. However often the season changes, a
        page is then rendered at most once at a time, and a crowd waits for one render.
        """
        found = self.kept.get(key)
        if found is not None:
            return found
        if not BACKGROUND.get():  # requests queued for a thread while the crowd grew
            standing = self._standing(key, newest, self.refresh_seconds)
            if standing is not None:
                return standing
        asked = next(self._stamps)  # taken after `key` was read
        name = key if newest is None else key[:1]
        with self._guard:
            turn = self._turns.setdefault(name, _Turn())
            turn.users += 1
        try:
            with turn.changed:
                while turn.rendering:  # a waiter is answered by the first render after it
                    standing = self._standing(key, newest, self.stand_in_seconds)
                    if standing is not None:
                        return standing
                    turn.changed.wait()
                    if turn.last is not None and turn.last[0] > asked:
                        return turn.last[1]  # read after this request's key: as new or newer
                turn.rendering = True
            made: CachedPage | Response | None = None
            started = next(self._stamps)
            try:
                if newest is not None:
                    key = newest()
                made = self.kept.get(key) or self._render(key, render)
                if newest is not None and self.stand_in_seconds and \
                        isinstance(made, CachedPage):
                    self.stand_ins.put(page_address(key), (made, time.monotonic()))
            finally:
                with turn.changed:
                    turn.rendering = False
                    if isinstance(made, CachedPage):
                        turn.last = (started, made)
                    turn.changed.notify_all()
            return made
        finally:
            with self._guard:
                turn.users -= 1
                if turn.users == 0:
                    del self._turns[name]

    def crowded(self) -> bool:
        """Whether stand-ins are on and a crowd's worth of page requests is open in this
        worker (off, no request is ever answered with a stand-in)."""
        return bool(self.stand_in_seconds) and self.open_requests >= CROWD_REQUESTS

    def stand_in(self, address: tuple[Hashable, ...]) -> tuple[CachedPage, float] | None:
        """The newest page kept for an address and its age in seconds, if young enough
        to stand in for the current version's."""
        kept = self.stand_ins.get(address)
        if kept is None:
            return None
        age = time.monotonic() - kept[1]
        return None if age > self.stand_in_seconds else (kept[0], age)

    def _standing(self, key: tuple[Hashable, ...],
                  newest: Callable[[], tuple[Hashable, ...]] | None,
                  younger_than: float) -> CachedPage | None:
        """For a request that would render, or wait for another's render: a crowded worker's
        stand-in. One that would render gets it only while it is younger than
        `refresh_seconds`: past that this request renders (on a server database no
        background render follows a stand-in, the route is the only way there)."""
        if newest is None or not self.crowded():
            return None
        kept = self.stand_ins.get(page_address(key))
        if kept is None or time.monotonic() - kept[1] > younger_than:
            return None
        return kept[0]

    def _render(self, key: tuple[Hashable, ...], render: Callable[[], Response]) -> \
            CachedPage | Response:
        with one_snapshot():  # the page shows one version, however often it moves meanwhile
            response = render()
        self.rendered += 1
        if response.status_code != 200 or "set-cookie" in response.headers:
            return response
        body = bytes(response.body)
        digest = hashlib.blake2b(body, digest_size=16).hexdigest()
        made = CachedPage(body, response.headers.get("content-type", "text/html"),
                          f'"{digest}"')
        self.kept.put(key, made)
        return made

    def serve(self, request: Request, key: tuple[Hashable, ...],
              render: Callable[[], Response],
              newest: Callable[[], tuple[Hashable, ...]] | None = None) -> Response:
        """A public page: from the cache, with its tag, or `304` when the client has it."""
        found = self.page(key, render, newest)
        if isinstance(found, Response):
            return found
        return public_answer(request, found)

    def newest_page(self, newest: Callable[[], tuple[Hashable, ...]],
                    render: Callable[[], Response]) -> CachedPage | Response:
        """The page for the key read now: kept, or rendered from the key's snapshot and
        countdown (`one_snapshot`, a thread's) and kept."""
        with one_snapshot():
            key = newest()
            return self.kept.get(key) or self._render(key, render)

    async def _page_async(self, name: tuple[Hashable, ...],
                          newest: Callable[[], tuple[Hashable, ...]],
                          render: Callable[[], Response]) -> CachedPage | Response:
        """`page` with the wait for another request's render on the event loop: only the
        key's read and the render take a thread (`page_flights`). With stand-ins on, the
        crowd's rules of `page` apply, in a thread as before."""
        if self.stand_in_seconds:
            return await run_in_threadpool(lambda: self.page(newest(), render, newest))
        return await self.flights.page(name, lambda: self.newest_page(newest, render))

    async def serve_async(self, request: Request, name: tuple[Hashable, ...],
                          newest: Callable[[], tuple[Hashable, ...]],
                          render: Callable[[], Response]) -> Response:
        """`serve` for an `async` route: no thread is held while waiting for a render of
        the page `name` (the key's part before the season's mark)."""
        found = await self._page_async(name, newest, render)
        return found if isinstance(found, Response) else public_answer(request, found)

    async def serve_personal_async(self, name: tuple[Hashable, ...],
                                   newest: Callable[[], tuple[Hashable, ...]],
                                   render: Callable[[], Response],
                                   fill: Callable[[bytes], bytes]) -> Response:
        """`serve_personal` for an `async` route."""
        found = await self._page_async(name, newest, render)
        if isinstance(found, Response):
            found.body = fill(bytes(found.body))
            found.headers["content-length"] = str(len(found.body))
            return found
        return personal_answer(found, fill)

    def serve_personal(self, key: tuple[Hashable, ...], render: Callable[[], Response],
                       fill: Callable[[bytes], bytes],
                       newest: Callable[[], tuple[Hashable, ...]] | None = None) -> Response:
        """A kept page with a visitor's own part filled in per response: never tagged, never
        kept by a proxy or browser."""
        found = self.page(key, render, newest)
        if isinstance(found, Response):
            found.body = fill(bytes(found.body))
            found.headers["content-length"] = str(len(found.body))
            return found
        return personal_answer(found, fill)

    def remember(self, request: Request, season_id: int, prefix: tuple[Hashable, ...],
                 fill: Callable[[bytes], bytes] | None = None,
                 ledger: bool | str = True) -> None:
        """Note that the page at this request's path is kept under `prefix` and the season's
        mark, so `page_front` can answer the next plain GET of it before routing. Only a GET
        without a query string of a season's own page is noted: its path alone says which
        route, season and key answer it."""
        if (request.method == "GET" and not request.scope.get("query_string")
                and request.path_params.get("season_id") == season_id):
            self.front[request.scope["path"]] = FrontEntry(
                season_id, prefix, dict(request.path_params), request.scope.get("route"), fill,
                ledger)


@dataclass(frozen=True, slots=True)
class FrontEntry:
    """How to find a path's kept page without routing: its season, the key's first part,
    the route's path parameters and the route itself (for the metrics' route label), and
    for the faction card the filling of the visitor's own form key."""

    season_id: int
    prefix: tuple[Hashable, ...]
    path_params: dict[str, Any]
    route: Any
    fill: Callable[[bytes], bytes] | None
    ledger: bool | str = True
    """What the page shows of the ledger (`season_mark`)."""


def public_answer(request: Request, found: CachedPage) -> Response:
    """A kept public page as sent: its tag and `Cache-Control`, or `304` when the client
    already has these bytes."""
    headers = {"ETag": found.etag, "Cache-Control": PUBLIC_CACHE_CONTROL}
    if _matches(request, found.etag):
        return Response(status_code=304, headers=headers)
    return Response(found.body, headers=headers, media_type=found.media_type)


def personal_answer(found: CachedPage, fill: Callable[[bytes], bytes]) -> Response:
    """A kept page with the visitor's own part filled in, kept by no one."""
    return Response(fill(found.body), media_type=found.media_type,
                    headers={"Cache-Control": PERSONAL_CACHE_CONTROL})
