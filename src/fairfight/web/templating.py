"""The one Jinja2 environment of the web pages: package templates, autoescaped, strict."""

from __future__ import annotations

from importlib.resources import files

from fastapi import Request
from fastapi.templating import Jinja2Templates
from jinja2 import StrictUndefined

from fairfight.web.navigation import navigation

__all__ = ["TEMPLATE_DIR", "templates"]

TEMPLATE_DIR = str(files("fairfight.web") / "templates")

templates = Jinja2Templates(directory=TEMPLATE_DIR)
templates.env.undefined = StrictUndefined


def _navigation_of(request: Request) -> list[tuple[str, str]]:
    """The navigation bar of the app serving this request (templates call it)."""
    return navigation(request.app)


templates.env.globals["navigation_of"] = _navigation_of
