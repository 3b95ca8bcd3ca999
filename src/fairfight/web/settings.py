"""Every setting of the web service, read once from `FAIRFIGHT_…` environment variables."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["DEFAULT_DATABASE_URL", "WebSettings", "sibling_database_url"]

DEFAULT_DATABASE_URL = "sqlite:///fairfight.db"


class WebSettings(BaseSettings):
    """Settings of one running service; tests build their own instance instead of globals."""

    model_config = SettingsConfigDict(env_prefix="FAIRFIGHT_", frozen=True, extra="ignore")

    database_url: str = Field(
        DEFAULT_DATABASE_URL,
        description="SQLAlchemy URL: sqlite:///file.db, or postgresql+psycopg://user@host/db.",
    )
    admin_token_sha256: str | None = Field(
        None, description="SHA-256 (hex) of the operator's bearer token; the token itself is "
        "never stored.",
    )
    payment_secret: str | None = Field(
        None, description="Shared secret of the payment provider's signed webhook; when set, "
        "contributions are recorded only from the webhook.",
    )
    max_body_bytes: int = Field(
        64 * 1024, ge=1024, description="Largest request body accepted, in bytes."
    )
    max_upload_bytes: int = Field(
        16 * 1024 * 1024, ge=1024, description="Largest uploaded file (a record archive), bytes."
    )
    forecast_seasons: int = Field(
        10_000, ge=0, le=1_000_000, description="Seasons simulated for the title odds on the "
        "show's pages (made in the background after each aired battle); 0 switches them off.",
    )
    forecast_seed: str | None = Field(
        None, max_length=200, description="Fixed public text the forecast seed starts with; by "
        "default the season's commitment (the battle number is always appended).",
    )
    ballot_webhooks_to_private: bool = Field(
        False, description="Let ballot seats' webhooks call loopback and private addresses "
        "(for a service on a closed network, and for tests); refused by default.",
    )
    public_url: str | None = Field(
        None, description="The address the service is reached at, when behind a proxy."
    )
    clash_database_url: str | None = Field(
        None, description="SQLAlchemy URL of the clash games; by default beside the "
        "service's database (a SQLite file X.db gets X-clash.db, a server database holds "
        "the clash tables too).",
    )
    clash_games_per_client: int = Field(
        20, ge=1, le=10_000, description="Clash games one client address may have started "
        "in the last day.",
    )
    clash_turn_clock_seconds: int | None = Field(
        None, ge=10, le=7 * 86400, description="Default turn clock of a two-player clash "
        "game: when it runs out, the turn runs with what was committed.",
    )
    live_poll_seconds: float = Field(
        0.5, ge=0.05, le=60, description="How often each process reads the season events "
        "table for news on SQLite (on PostgreSQL a notification wakes it at once).",
    )
    live_max_streams: int = Field(
        500, ge=1, le=100_000, description="Live-update streams one process holds open at "
        "once; one more is answered 503 with Retry-After.",
    )


def sibling_database_url(service_url: str, ruleset: str) -> str:
    """The database a ruleset's games live in, beside the service's: a SQLite file `X.db` gets
    `X-<ruleset>.db` (never the season file itself), memory stays memory, and a server
    database holds the ruleset's tables too."""
    if not service_url.startswith("sqlite"):
        return service_url
    head, _, file = service_url.rpartition("/")
    if file in ("", ":memory:"):
        return "sqlite://"
    return f"{head}/{file.removesuffix('.db')}-{ruleset}.db"
