"""Telling the app it is asked to stop, in every worker process.

uvicorn waits for open connections to finish before it runs the app's shutdown, and a live
stream (server-sent events) never finishes by itself. The parts that hold such streams register
an exit hook (`app.state.exit_hooks`); while the app runs, SIGTERM and SIGINT first call those
hooks (the streams end, telling their browsers to reconnect elsewhere) and then the server's
own handler, so the stop is prompt whether one process serves or many, and under plain
`uvicorn --factory --workers N` too.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import AsyncIterator, Callable
from types import FrameType
from typing import Any

from fastapi import FastAPI

__all__ = ["EXIT_SIGNALS", "install_exit_signals", "run_exit_hooks"]

EXIT_SIGNALS = (signal.SIGTERM, signal.SIGINT)

_Handler = Callable[[int, FrameType | None], Any] | int | None


def run_exit_hooks(app: Any) -> None:
    """Call every exit hook of the app (each is cheap and may be called twice)."""
    for hook in list(getattr(getattr(app, "state", None), "exit_hooks", [])):
        hook()


def _chained(app: FastAPI, previous: _Handler) -> Callable[[int, FrameType | None], None]:
    def handle(sig: int, frame: FrameType | None) -> None:
        run_exit_hooks(app)
        if callable(previous):
            previous(sig, frame)
        elif previous != signal.SIG_IGN:  # no server handler: the signal's usual effect
            signal.signal(sig, signal.SIG_DFL)
            signal.raise_signal(sig)
    return handle


def install_exit_signals(app: FastAPI) -> None:
    """While the app runs in the main thread, run its exit hooks on SIGTERM and SIGINT."""
    previous_lifespan = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(application: Any) -> AsyncIterator[Any]:
        saved: dict[signal.Signals, _Handler] = {}
        if threading.current_thread() is threading.main_thread():
            for sig in EXIT_SIGNALS:
                saved[sig] = signal.getsignal(sig)
                signal.signal(sig, _chained(app, saved[sig]))
        try:
            async with previous_lifespan(application) as state:
                yield state
        finally:
            for sig, handler in saved.items():
                signal.signal(sig, handler if handler is not None else signal.SIG_DFL)

    app.router.lifespan_context = lifespan
