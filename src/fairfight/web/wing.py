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

from fastapi import FastAPI
from fastapi.templating import Jinja2Templates

__all__ = ["Register", "mount_routes"]


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
