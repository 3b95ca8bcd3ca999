"""The one Jinja2 environment of the web pages: package templates, autoescaped, strict."""

from __future__ import annotations

from importlib.resources import files
from typing import Any

from fastapi import Request
from fastapi.templating import Jinja2Templates
from jinja2 import StrictUndefined

from fairfight.plainwords import frequency_rule, in_words
from fairfight.web.conquest_calibration import calibration_view
from fairfight.web.conquest_map import map_picture
from fairfight.web.navigation import navigation

__all__ = ["TEMPLATE_DIR", "templates"]

TEMPLATE_DIR = str(files("fairfight.web") / "templates")

templates = Jinja2Templates(directory=TEMPLATE_DIR)
templates.env.undefined = StrictUndefined


def _navigation_of(request: Request) -> list[tuple[str, str]]:
    """The navigation bar of the app serving this request (templates call it)."""
    return navigation(request.app)


def _share_of(request: Request) -> Any:
    """The page's share tags (`og:`, `twitter:`); imported on first use, since the conquest
    package it lives in loads the error pages, which load this module."""
    from fairfight.web.conquest.share_meta import page_share

    return page_share(request)


templates.env.globals["navigation_of"] = _navigation_of
templates.env.globals["map_picture"] = map_picture
templates.env.globals["share_meta"] = _share_of
templates.env.globals["calibration_view"] = calibration_view
templates.env.globals["frequency_rule"] = frequency_rule
templates.env.filters["in_words"] = in_words
"""`{{ chance | in_words }}`: a chance (Fraction, "num/den" or decimal text) as "about 3 in 10";
`in_words(true)` for a simulated share, which never reads "certain" or "impossible"."""
