"""The clash part of the site: its pages, sandbox, seats and live streams join the app here."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.templating import Jinja2Templates

from fairfight.web.clash import routes
from fairfight.web.wing import mount_routes

__all__ = ["register"]


def register(app: FastAPI, templates: Jinja2Templates) -> None:
    """Mount the exchange pages and API with the sandbox, seat and live routers `routes`
    includes; the pages use only the site-wide template globals."""
    mount_routes(app, routes)
