"""The conquest show's part of the site: its routes, its template globals and the front page.

Besides its own pages, the show supplies two things every page of the site uses: the share
tags of a page's head (`share_meta`, which gives a season's or an episode's card where there is
one and the site's card elsewhere) and the front page, which is the newest season's home when
the database holds a season.
"""

from __future__ import annotations

from fastapi import FastAPI, Request
from fastapi.responses import Response
from fastapi.templating import Jinja2Templates
from starlette.concurrency import run_in_threadpool

from fairfight.web.conquest.calibration import calibration_view
from fairfight.web.conquest.map_drawing import map_picture
from fairfight.web.conquest.page_front import PageFront
from fairfight.web.conquest.routes import (
    api,
    map_shapes,
    my_contributions,
    operator,
    overlay,
    pages,
    schedule,
    share,
    write,
)
from fairfight.web.conquest.share_meta import page_share
from fairfight.web.wing import match_first, mount_routes

__all__ = ["ROUTE_MODULES", "front_page", "register"]

ROUTE_MODULES = (api, map_shapes, my_contributions, operator, overlay, pages, schedule, share,
                 write)
"""Mounted in this order (their names' order, as the site mounted them before)."""


async def front_page(request: Request) -> Response | None:
    """The newest season's home, or None when the app has no season to show (the season
    home is a coroutine: it waits for a render on the event loop)."""
    conquest = getattr(request.app.state, "conquest", None)
    if conquest is None:
        return None
    season_ids = await run_in_threadpool(conquest.catalog.season_ids)
    return await pages.season_home(request, max(season_ids), conquest) if season_ids else None


def register(app: FastAPI, templates: Jinja2Templates) -> None:
    """Mount the show's routes; set the globals its templates call (the drawn map, the
    forecast's calibration chart) and the share tags of every page; offer the front page."""
    for module in ROUTE_MODULES:
        mount_routes(app, module)
    match_first(app, write.router)  # a fan's contribution: the write a crowd sends
    templates.env.globals["map_picture"] = map_picture
    templates.env.globals["calibration_view"] = calibration_view
    templates.env.globals["share_meta"] = page_share
    app.state.front_page = front_page
    app.add_middleware(PageFront)  # the first added: just outside the router
