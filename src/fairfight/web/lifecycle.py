"""Work an app does when it stops: each part registers its own closing step."""

from __future__ import annotations

import contextlib
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from fastapi import FastAPI

__all__ = ["on_shutdown", "on_startup"]


def on_shutdown(app: FastAPI, close: Callable[[], Awaitable[None] | None]) -> None:
    """Run `close` when the app stops, after every step registered later (the last one
    registered runs first, like nested `with` blocks)."""
    previous = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(application: Any) -> AsyncIterator[Any]:
        async with previous(application) as state:
            try:
                yield state
            finally:
                result = close()
                if inspect.isawaitable(result):
                    await result

    app.router.lifespan_context = lifespan


def on_startup(app: FastAPI, start: Callable[[], Awaitable[None] | None]) -> None:
    """Run `start` when the app starts, after every step registered earlier."""
    previous = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(application: Any) -> AsyncIterator[Any]:
        async with previous(application) as state:
            result = start()
            if inspect.isawaitable(result):
                await result
            yield state

    app.router.lifespan_context = lifespan
