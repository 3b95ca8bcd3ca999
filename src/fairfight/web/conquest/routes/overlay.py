"""The stream overlay: a season for a broadcast tool's browser source (OBS and the like).

A page with a transparent background, large type and nothing to click: each new episode
played out step by step as it airs (watch mode's steps, at `?pace=` milliseconds a step,
`static/conquest/overlay.js`), the next battle (or the waiting rebellions) with its countdown,
the latest result and the leaders with their title chance. It follows the show by the
season's event stream (`static/conquest/live.js`, the same script as the season home) and,
without JavaScript, reloads itself every `NO_SCRIPT_REFRESH_SECONDS`. Served from the page
cache like every public season page, one copy per set of options.
"""

from __future__ import annotations

from typing import Annotated, Literal

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

import fairfight.web.strict_input  # noqa: F401  (registers the {name:id} path convertor)
from fairfight.web.conquest import views
from fairfight.web.conquest.page_cache import season_mark
from fairfight.web.conquest.routes.pages import WATCH_PACE_MS
from fairfight.web.conquest.service import Service
from fairfight.web.strict_input import Digits
from fairfight.web.templating import templates

__all__ = ["LEADERS_SHOWN", "NO_SCRIPT_REFRESH_SECONDS", "PACE_MS", "PANELS", "overlay_page",
           "router"]

router = APIRouter(prefix="/conquest", include_in_schema=False)
PANELS = ("watch", "next", "latest", "leaders")
"""The overlay's panels, in the order they are drawn; `?panels=` picks some of them."""
LEADERS_SHOWN = 5
"""Leaders listed unless `?leaders=` asks for another number (1 to 10)."""
PACE_MS = (200, 10_000)
"""The range `?pace=` may ask for: milliseconds each step of an airing episode is shown."""
NO_SCRIPT_REFRESH_SECONDS = 30
"""How often the overlay reloads itself in a browser source that runs no script."""
_PANEL_LIST = rf"^({'|'.join(PANELS)})(,({'|'.join(PANELS)}))*$"


@router.get("/{season_id:id}/overlay", response_class=HTMLResponse)
def overlay_page(
    request: Request, season_id: int, conquest: Service,
    layout: Annotated[Literal["1080", "720"], Query()] = "1080",
    panels: Annotated[str, Query(pattern=_PANEL_LIST, max_length=40)] = ",".join(PANELS),
    leaders: Annotated[int, Query(ge=1, le=10), Digits] = LEADERS_SHOWN,
    pace: Annotated[int, Query(ge=PACE_MS[0], le=PACE_MS[1]), Digits] = WATCH_PACE_MS,
) -> Response:
    """The overlay at 1920×1080 (`layout=1080`) or 1280×720 (`layout=720`), showing the
    panels named in `panels`, the first `leaders` factions of the standings, and each airing
    episode's steps `pace` milliseconds apart."""
    shown = [panel for panel in PANELS if panel in panels.split(",")]

    def render() -> Response:
        snap = conquest.catalog.snapshot(season_id)
        season = views.season_view(snap, conquest.payments_only)
        return templates.TemplateResponse(request, "conquest/overlay.html", {
            "season": season, "map": views.map_state(snap),
            "forecast": conquest.forecasts.view(snap), "layout": layout, "panels": shown,
            "leaders": [row for row in season.standings if row.standing][:leaders],
            "refresh": NO_SCRIPT_REFRESH_SECONDS, "pace": pace,
        })
    key = (request.url.path, layout, tuple(shown), leaders, pace,
           *season_mark(request, conquest, season_id))
    return conquest.pages.serve(request, key, render)
