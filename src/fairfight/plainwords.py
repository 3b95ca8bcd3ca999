"""What a user reads carries no requirement numbers: `(CB-230)`, `[§8]` and the like stay in
the docs and the code comments, and are taken out of help texts and error lines here."""

from __future__ import annotations

import re

__all__ = ["without_references"]

_REFERENCE = re.compile(
    r"\s*[\(\[](?:(?:CB-\d+|§\s?[\d.]+\w*)(?:\s*(?:,|\.\.|–|-|and)\s*)?)+[\)\]]"
    r"|\s*(?:CB-\d+|§\s?[\d.]+\w*)"
)


def without_references(text: str) -> str:
    """The text without requirement ids and section marks (and the brackets around them)."""
    return _REFERENCE.sub("", text)
