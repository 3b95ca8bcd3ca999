"""The board sandbox (filled in below)."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI

__all__ = ["install_sandbox", "sandbox_router"]

sandbox_router = APIRouter()


def install_sandbox(app: FastAPI) -> None:
    """Attach the game store to the app."""
    app.state.clash_games = {}
