"""How one part of the site joins the app: its route modules, and the hook each part exposes.

Each ruleset's web package (`web/<ruleset>/wing.py`) and the site's own routes
(`web/routes`) expose one `register(app, templates)`: it includes the part's routers, adds its
navigation entry and start-up work, and sets the template globals its pages call. The app
factory calls those hooks from one list, so the site-wide modules (templating, errors,
operations) name no ruleset.
"""

from __future__ import annotations

from types import ModuleType
from typing import Protocol

from fastapi import APIRouter, FastAPI
from fastapi.templating import Jinja2Templates
from starlette.routing import BaseRoute

__all__ = ["Register", "documented_routes", "match_first", "mount_routes", "order_for_matching"]


class Register(Protocol):
    """A part's hook: join `app`, adding what its pages need to `templates`."""

    def __call__(self, app: FastAPI, templates: Jinja2Templates) -> None: ...


def mount_routes(app: FastAPI, module: ModuleType) -> None:
    """Include a route module's `router`; add its `NAV` entry, `(order, label, path)`, to the
    navigation bar when it has a page; run its `install(app)` when it has start-up work."""
    app.include_router(module.router)
    if hasattr(module, "NAV"):
        app.state.navigation.append(module.NAV)
    if hasattr(module, "install"):
        module.install(app)


def match_first(app: FastAPI, router: APIRouter) -> None:
    """Ask for a mounted router's routes to be tried before every other route.

    The router tries routes one after another, and each miss costs a few microseconds; a
    contribution, the one write a crowd sends, came after some eighty of them (a quarter of
    its CPU in the event loop). Only a router none of whose requests another route also
    answers may be moved (tests/web/test_route_order.py checks the app's). Applied by
    `order_for_matching` once every part has joined."""
    app.state.matched_first = [*getattr(app.state, "matched_first", []), router]


def order_for_matching(app: FastAPI) -> None:
    """Move the routers `match_first` named to the front of the app's routes; the documented
    order (`documented_routes`, what `/openapi.json` lists) stays the order they joined in."""
    routes = app.router.routes
    app.state.documented_routes = list(routes)
    wanted: list[APIRouter] = getattr(app.state, "matched_first", [])
    first = [route for router in wanted for route in routes
             if getattr(route, "original_router", None) is router]
    routes[:] = first + [route for route in routes if route not in first]


def documented_routes(app: FastAPI) -> list[BaseRoute]:
    """The app's routes in the order they joined it (before `order_for_matching`), those
    included after it last."""
    joined: list[BaseRoute] = getattr(app.state, "documented_routes", [])
    known = {id(route) for route in joined}
    return [*joined, *(route for route in app.routes if id(route) not in known)]
