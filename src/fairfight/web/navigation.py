"""The site's navigation bar, gathered from the route modules' `NAV` entries."""

from __future__ import annotations

from fastapi import FastAPI

__all__ = ["navigation"]


def navigation(app: FastAPI) -> list[tuple[str, str]]:
    """(label, path) pairs in the order the route modules ask for."""
    entries: list[tuple[int, str, str]] = app.state.navigation
    return [(label, path) for _, label, path in sorted(entries)]
