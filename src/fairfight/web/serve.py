"""Run the web service with uvicorn: `fairfight serve`."""

from __future__ import annotations

from fairfight.web.app import create_app
from fairfight.web.settings import WebSettings

__all__ = ["database_url_for", "run_server"]


def database_url_for(db: str | None) -> str | None:
    """A bare file path means a SQLite file; anything with `://` is a SQLAlchemy URL."""
    if db is None or "://" in db:
        return db
    return f"sqlite:///{db}"


def run_server(db: str | None, host: str, port: int) -> None:
    """Serve until interrupted; Ctrl-C stops uvicorn cleanly."""
    import uvicorn

    url = database_url_for(db)
    settings = WebSettings() if url is None else WebSettings(database_url=url)
    uvicorn.run(create_app(settings), host=host, port=port, log_level="info")
