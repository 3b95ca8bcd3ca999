"""Rules pages rendered from each ruleset's constants, so no number on a page is typed by hand."""

from __future__ import annotations

from functools import cache
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

__all__ = ["render_page"]


@cache
def _environment() -> Environment:
    """One Jinja2 environment over `templates/`; undefined names are errors, not blanks."""
    return Environment(
        loader=PackageLoader("fairfight.docs", "templates"),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,
    )


def render_page(template_name: str, **context: Any) -> str:
    """Render `templates/<template_name>` with the given constants (missing names are errors)."""
    return _environment().get_template(template_name).render(**context)
