"""Helpers of the operations tests: apps with chosen settings, a clock the tests move."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI

from fairfight.web import WebSettings, create_app


def ops_app(folder: Path, **settings: Any) -> FastAPI:
    """An app over fresh databases in `folder`, forecasts off, with `settings` on top."""
    base: dict[str, Any] = {"database_url": f"sqlite:///{folder / 'service.db'}",
                            "forecast_seasons": 0}
    return create_app(WebSettings(**(base | settings)))


class ManualClock:
    """A monotonic clock that moves only when the test says so."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
