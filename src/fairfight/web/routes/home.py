"""The front page and the service's own endpoints (health, the list of rulesets)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from importlib.resources import files

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel

from fairfight import __version__
from fairfight.web.navigation import navigation
from fairfight.web.templating import templates

__all__ = ["FrontPage", "Health", "NAV", "favicon", "health", "home", "router"]

router = APIRouter()
NAV = (0, "Home", "/")
_ICON = (files("fairfight.web") / "static" / "favicon.ico").read_bytes()
"""Drawn by `tools/favicon.py`; browsers ask for /favicon.ico on every site, whatever the page
links, so it is answered here rather than left a 404 in every log."""

FrontPage = Callable[[Request], Awaitable[Response | None]]
"""What a ruleset's web package may offer as the front page (`app.state.front_page`): the
page, or None when it has nothing to show yet."""


class Health(BaseModel):
    """What a monitor asks: is the service up, and which version answers."""

    status: str
    version: str


@router.get("/api/health", tags=["service"])
async def health() -> Health:
    """A cheap check for monitors and start-up scripts. Answered on the event loop: a plain
    `def` would wait twice for the shared thread pool, which busy sync routes can fill."""
    return Health(status="ok", version=__version__)


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> Response:
    """The site's icon, cached for a day."""
    return Response(_ICON, media_type="image/x-icon",
                    headers={"Cache-Control": "public, max-age=86400"})


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
async def home(request: Request) -> Response:
    """The front page: the page a ruleset offers as the front (`app.state.front_page`: the
    conquest show's newest season, what most visitors come for), otherwise one link per
    ruleset."""
    offered: FrontPage | None = getattr(request.app.state, "front_page", None)
    page = await offered(request) if offered is not None else None
    if page is not None:
        return page
    return templates.TemplateResponse(
        request, "home.html", {"sections": navigation(request.app)[1:], "version": __version__}
    )
