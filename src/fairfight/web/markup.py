"""Rules pages on the web: the Markdown the command line prints, rendered as HTML.

The web shows the very text `fairfight <ruleset> rules` prints, so the page and the command
line can never disagree; raw HTML inside the Markdown is not passed through.
"""

from __future__ import annotations

from functools import cache

from markdown_it import MarkdownIt

__all__ = [
    "markdown_html",
]


@cache
def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark", {"html": False}).enable("table")


def markdown_html(text: str) -> str:
    """Markdown to HTML (CommonMark plus tables; embedded HTML escaped)."""
    html: str = _parser().render(text)
    return html
