"""Rules pages rendered from each ruleset's constants, so no number on a page is typed by hand."""

from __future__ import annotations

from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined

__all__ = ["render_page"]

_environment = Environment(
    loader=PackageLoader("fairfight.docs", "templates"),
    undefined=StrictUndefined,
    keep_trailing_newline=True,
    trim_blocks=True,
    lstrip_blocks=True,
    autoescape=False,
)


def render_page(template_name: str, **context: Any) -> str:
    """Render `templates/<template_name>` with the given constants (missing names are errors)."""
    return _environment.get_template(template_name).render(**context)
