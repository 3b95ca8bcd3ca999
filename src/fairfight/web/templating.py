"""The one Jinja2 environment of the web pages: package templates, autoescaped, strict.

Only the site-wide helpers are set here; each ruleset's web package adds the globals its own
templates call through its `register` hook (`fairfight.web.wing`), so this module names no
ruleset.
"""

from __future__ import annotations

from importlib.resources import files

from fastapi import Request
from fastapi.templating import Jinja2Templates
from jinja2 import StrictUndefined

from fairfight.plainwords import frequency_rule, in_words
from fairfight.web.navigation import navigation

__all__ = ["TEMPLATE_DIR", "templates"]

TEMPLATE_DIR = str(files("fairfight.web") / "templates")

templates = Jinja2Templates(directory=TEMPLATE_DIR)
templates.env.undefined = StrictUndefined
templates.env.auto_reload = False
"""Compiled once: Jinja's default asks the file system on every render whether a template
changed. `FAIRFIGHT_TEMPLATE_RELOAD=true` (`WebSettings.template_reload`) turns the check on
for editing templates on a development server."""


def _navigation_of(request: Request) -> list[tuple[str, str]]:
    """The navigation bar of the app serving this request (templates call it)."""
    return navigation(request.app)


templates.env.globals["navigation_of"] = _navigation_of
templates.env.globals["frequency_rule"] = frequency_rule
templates.env.filters["in_words"] = in_words
"""`{{ chance | in_words }}`: a chance (Fraction, "num/den" or decimal text) as "about 3 in 10";
`in_words(true)` for a simulated share, which never reads "certain" or "impossible"."""
