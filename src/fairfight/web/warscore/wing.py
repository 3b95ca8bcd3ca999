"""The war score part of the site: its builder, war and rules pages, its stored wars and its
Discord endpoint join the app here."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.templating import Jinja2Templates

from fairfight.web.warscore import discord, routes, war_routes
from fairfight.web.wing import mount_routes

__all__ = ["register"]


def register(app: FastAPI, templates: Jinja2Templates) -> None:
    """Mount the war score routes, the stored wars' (pages and `/api/warscore/wars`) and the
    Discord endpoint (after the stored wars, whose store it reads); the pages use only the
    site-wide template globals."""
    mount_routes(app, routes)
    mount_routes(app, war_routes)
    mount_routes(app, discord)
