"""The conquest rules page as HTML: the command line's Markdown page, rendered once."""

from __future__ import annotations

from functools import cache

from markdown_it import MarkdownIt

from fairfight.conquest.rules_page import rules_page

__all__ = ["rules_html"]


@cache
def rules_html() -> str:
    """The rules page (generated from the engine's constants) as HTML; raw HTML is escaped."""
    html: str = MarkdownIt("commonmark", {"html": False}).enable("table").render(rules_page())
    return html
