"""The site's own pages, not a ruleset's: the front page, the health check, the verifier.

Each module defines `router` and, if it has a page, `NAV`, a `(order, label, path)` tuple for
the site's navigation bar; `register` mounts every module found here, in name order. A
ruleset's routes live in its own web package (`web/<ruleset>/`).
"""

from __future__ import annotations

import importlib
import pkgutil

from fastapi import FastAPI
from fastapi.templating import Jinja2Templates

from fairfight.web.wing import mount_routes

__all__ = ["register", "route_modules"]


def route_modules() -> list[str]:
    """Every module of this package, in name order."""
    return sorted(f"{__name__}.{info.name}" for info in pkgutil.iter_modules(__path__))


def register(app: FastAPI, templates: Jinja2Templates) -> None:
    """Mount the site's routes (their pages use only the site-wide template globals)."""
    for name in route_modules():
        mount_routes(app, importlib.import_module(name))
