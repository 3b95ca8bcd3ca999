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

The answers are the routes' own (`public_answer`, `personal_answer`): the same bytes, tag,
`304` and `Cache-Control`, and the faction card's form key drawn per response.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import Response

from fairfight.web.conquest.page_cache import personal_answer, public_answer, season_mark
from fairfight.web.security import ASGIApp, Receive, Scope, Send

__all__ = ["PageFront"]


class PageFront:
    """Answer a plain GET of a kept season page from the page cache, before routing."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET" and not scope["query_string"]:
            answer = _kept_answer(scope)
            if answer is not None:
                await answer(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _kept_answer(scope: Scope) -> Response | None:
    """The kept page for this request as the route would send it, or None to route it."""
    app: Any = scope.get("app")
    conquest = getattr(getattr(app, "state", None), "conquest", None)
    if conquest is None:
        return None
    entry = conquest.pages.front.get(scope["path"])
    if entry is None or conquest.catalog.database.server:
        return None
    request = Request({**scope, "path_params": entry.path_params})
    try:
        found = conquest.pages.kept.get(
            (*entry.prefix, *season_mark(request, conquest, entry.season_id)))
    except Exception:  # the route answers whatever went wrong, as it always has
        return None
    if found is None:
        return None
    scope["route"] = entry.route  # the metrics and the log name the route that kept it
    scope["path_params"] = entry.path_params
    return public_answer(request, found) if entry.fill is None else personal_answer(
        found, entry.fill)
