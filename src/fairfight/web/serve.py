"""Run the web service with uvicorn: `fairfight serve`."""

from __future__ import annotations

from types import FrameType

import uvicorn

from fairfight.web.app import create_app
from fairfight.web.settings import WebSettings

__all__ = [
    "GRACEFUL_SECONDS",
    "GracefulServer",
    "database_url_for",
    "run_server",
]

GRACEFUL_SECONDS = 3
"""How long open requests get to finish once the server is asked to stop."""


def database_url_for(db: str | None) -> str | None:
    """A bare file path means a SQLite file; anything with `://` is a SQLAlchemy URL."""
    if db is None or "://" in db:
        return db
    return f"sqlite:///{db}"


class GracefulServer(uvicorn.Server):
    """uvicorn, telling the app when it is asked to stop, so endless streams (server-sent
    events) end at once instead of holding the shutdown open."""

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        app = self.config.app
        for hook in getattr(getattr(app, "state", None), "exit_hooks", []):
            hook()
        super().handle_exit(sig, frame)


def run_server(db: str | None, host: str, port: int) -> None:
    """Serve until interrupted; Ctrl-C stops uvicorn cleanly."""
    url = database_url_for(db)
    settings = WebSettings() if url is None else WebSettings(database_url=url)
    config = uvicorn.Config(create_app(settings), host=host, port=port, log_level="info",
                            timeout_graceful_shutdown=GRACEFUL_SECONDS)
    GracefulServer(config).run()
