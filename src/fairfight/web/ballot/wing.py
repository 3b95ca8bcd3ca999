"""The ballot tables' part of the site: its pages and JSON routes join the app here."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.templating import Jinja2Templates

from fairfight.web.ballot import routes
from fairfight.web.wing import mount_routes

__all__ = ["register"]


def register(app: FastAPI, templates: Jinja2Templates) -> None:
    """Mount the lobby, the seat pages, the live stream and `/api/ballot` (the JSON routes
    are included by `routes`); the pages use only the site-wide template globals."""
    mount_routes(app, routes)
