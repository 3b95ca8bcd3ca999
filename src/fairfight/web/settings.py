"""Every setting of the web service, read once from `FAIRFIGHT_…` environment variables."""

from __future__ import annotations

from pydantic import Field, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from fairfight.core.errors import InputError
from fairfight.core.validation import input_error_from_validation
from fairfight.web.ops.pools import PoolLimits
from fairfight.web.ops.rate_limit import RateLimit
from fairfight.web.webhook_addresses import IPNetwork, parse_ranges
from fairfight.web.witness_settings import WitnessSetting, check_witnesses

__all__ = ["DEFAULT_DATABASE_URL", "STAND_IN_CAP_SECONDS", "WebSettings",
           "settings_from_environment", "sibling_database_url"]

DEFAULT_DATABASE_URL = "sqlite:///fairfight.db"
STAND_IN_CAP_SECONDS = 30
"""The oldest page `crowd_stand_in_seconds` may allow: the bound of a worker that cannot
render at all, six times what a proxy keeps a page (`max-age=5`)."""


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
        20_000, ge=0, le=1_000_000, description="Seasons simulated for the title odds "
        "on the show's pages, the kept history and the stakes (made in the background after "
        "each aired battle); 0 switches them off.",
    )
    template_reload: bool = Field(
        False, description="Check the page templates' files for changes on every render (for "
        "editing them on a running development server); off, each is compiled once.",
    )
    forecast_seed: str | None = Field(
        None, max_length=200, description="Fixed public text the forecast seed starts with; by "
        "default the season's commitment (the battle number is always appended).",
    )
    ballot_webhooks_to_private: bool = Field(
        False, description="Let ballot seats' webhooks call loopback and private addresses "
        "(for a service on a closed network, and for tests); refused by default.",
    )
    ballot_webhook_allowed_ranges: str = Field(
        "", description="Address ranges ballot webhooks may call although they are special-"
        "purpose (comma-separated, e.g. `10.20.0.0/16, fd00:1::/64`); every other special-"
        "purpose range stays refused.",
    )
    public_url: str | None = Field(
        None, description="The external base URL the service is reached at "
        "(https://battles.example), when behind a proxy: the cross-site guard accepts posts "
        "from this origin whatever Host the proxy sends.",
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
    discord_public_key: str | None = Field(
        None, description="The Discord application's public key (hex, from its General "
        "Information page): interactions at /discord/interactions are verified with it; "
        "without it that path answers 404.",
    )
    crowd_stand_in_seconds: int = Field(
        0, description="Off (0) by default: every season page shows the newest state the "
        "worker has seen. When on, a worker with a crowd of page requests open may answer a "
        "page it has not yet rendered for the season's newest version with the newest one "
        "it rendered, at most this many seconds old (at most "
        f"{STAND_IN_CAP_SECONDS}), while the current one renders; a fan's own receipts and "
        "the operator's console are never stood in for (docs/operations.md).",
    )
    live_max_streams: int = Field(
        500, ge=1, le=100_000, description="Live-update streams one process holds open at "
        "once; one more is answered 503 with Retry-After.",
    )
    witnesses: list[WitnessSetting] = Field(
        default_factory=list, description="Witnesses a season log's newest checkpoint is "
        "sent to (in the background, paced by witness_interval), as JSON: `[{\"name\": ..., "
        "\"vkey\": ..., \"url\": ...}]`; their cosignatures are stored and served with the "
        "checkpoint.",
    )
    witness_queue: int = Field(
        16, ge=1, le=10_000, description="Checkpoints waiting per witness; when full, the "
        "oldest waiting one is dropped (a newer checkpoint covers it).",
    )
    witness_interval: float = Field(
        1.0, ge=0, le=3600, description="Least seconds between two checkpoints of one season "
        "sent to one witness: heads made meanwhile wait, and only the newest is sent. Under a "
        "steady stream of heads the newest cosigned checkpoint trails the newest head by up to "
        "this plus one round trip.",
    )

    # Operating the service (docs/operations.md): the request log, metrics, limits, pools.
    request_log: bool = Field(
        True, description="One JSON line per request on standard output (uvicorn's own "
        "access log is off while this is on).",
    )
    forwarded_allow_ips: str | None = Field(
        None, max_length=2000, description="Proxies whose X-Forwarded-For and "
        "X-Forwarded-Proto are believed: comma-separated addresses or networks, `*` for any "
        "peer; by default none (the peer is the client).",
    )
    metrics_token_sha256: str | None = Field(
        None, description="SHA-256 (hex) of a bearer token /metrics requires; open when unset.",
    )
    rate_limits_enabled: bool = Field(True, description="Apply the per-client rate limits.")
    rate_limit_processes: int = Field(
        1, ge=1, le=1024, description="Processes sharing the clients (each refills at the "
        "rate divided by this); `fairfight serve --workers N` sets N.",
    )
    rate_reads: RateLimit = Field(RateLimit(per_minute=600, burst=120),
                                  description="Pages and API reads, per client.")
    rate_writes: RateLimit = Field(RateLimit(per_minute=120, burst=40),
                                   description="Contributions, moves and other posts.")
    rate_games: RateLimit = Field(RateLimit(per_minute=10, burst=10),
                                  description="Clash and ballot game creation.")
    rate_uploads: RateLimit = Field(RateLimit(per_minute=6, burst=4),
                                    description="Archive, scenario and war-score uploads.")
    rate_sign_in: RateLimit = Field(RateLimit(per_minute=5, burst=5),
                                    description="The operator's sign-in form.")
    rate_questions: RateLimit = Field(RateLimit(per_minute=30, burst=10),
                                      description='"What would $X do" questions.')
    pool_questions: PoolLimits = Field(PoolLimits(workers=1, queue=8, wait_seconds=10),
                                       description='"What would $X do" answers.')
    pool_bots: PoolLimits = Field(PoolLimits(workers=2, queue=32, wait_seconds=15),
                                  description="Ballot tables rebuilt and bots played.")
    pool_turns: PoolLimits = Field(PoolLimits(workers=2, queue=16, wait_seconds=15),
                                   description="Clash turns run.")
    pool_verify: PoolLimits = Field(PoolLimits(workers=1, queue=4, wait_seconds=30),
                                    description="Uploaded season archives verified.")
    keep_alive_seconds: int = Field(
        5, ge=1, le=300, description="An idle keep-alive connection is closed after this.",
    )
    header_read_seconds: float = Field(
        10, gt=0, le=300, description="A connection that has not sent a complete request "
        "head within this is closed (half-open connections cannot hold descriptors).",
    )
    max_connections: int = Field(
        1000, ge=10, le=1_000_000, description="Connections and requests a process serves at "
        "once; beyond it new requests get 503 (keep it below the descriptor limit).",
    )
    graceful_seconds: int = Field(
        10, ge=1, le=600, description="On SIGTERM, how long requests in flight get to finish "
        "before the process stops anyway.",
    )

    @field_validator("crowd_stand_in_seconds")
    @classmethod
    def _stand_in_within_cap(cls, seconds: int) -> int:
        if not 0 <= seconds <= STAND_IN_CAP_SECONDS:
            raise ValueError(f"must be 0 (off) to {STAND_IN_CAP_SECONDS} seconds, "
                             f"given {seconds}")
        return seconds

    @field_validator("discord_public_key")
    @classmethod
    def _discord_key_is_hex(cls, text: str | None) -> str | None:
        if text is None or not text.strip():
            return None
        key = text.strip().lower()
        if len(key) != 64 or any(c not in "0123456789abcdef" for c in key):
            raise ValueError("must be 64 hexadecimal digits (an Ed25519 public key)")
        return key

    @field_validator("witnesses")
    @classmethod
    def _witnesses_distinct(cls, witnesses: list[WitnessSetting]) -> list[WitnessSetting]:
        return check_witnesses(witnesses)

    @field_validator("ballot_webhook_allowed_ranges")
    @classmethod
    def _ranges_parse(cls, text: str) -> str:
        parse_ranges(text)
        return text

    def webhook_ranges(self) -> tuple[IPNetwork, ...]:
        """The special-purpose ranges the operator lets ballot webhooks call."""
        return parse_ranges(self.ballot_webhook_allowed_ranges)

    def rate_limits(self) -> dict[str, RateLimit]:
        """The limit of each route group (see `fairfight.web.ops.rate_limit.route_group`)."""
        return {"reads": self.rate_reads, "writes": self.rate_writes, "games": self.rate_games,
                "uploads": self.rate_uploads, "sign_in": self.rate_sign_in,
                "questions": self.rate_questions}

    def pool_limits(self) -> dict[str, PoolLimits]:
        """The limits of each slow-work pool, by name."""
        return {"questions": self.pool_questions, "bots": self.pool_bots,
                "turns": self.pool_turns, "verify": self.pool_verify}


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


def settings_from_environment() -> WebSettings:
    """The settings from `FAIRFIGHT_…` variables; a bad value is an InputError naming the
    variable (one line and exit 2 on the command line, before any worker starts)."""
    try:
        return WebSettings()
    except ValidationError as error:
        found = input_error_from_validation(error)
        raise InputError(f"FAIRFIGHT_{found.field.upper()}", found.rule) from None
