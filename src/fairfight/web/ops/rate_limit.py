"""Rate limits per client address and route group: a token bucket each, 429 when empty.

One anonymous script must not fill every pool or every table. Each request falls in one route
group (`route_group`): contributions and other writes, game creation, uploads, the operator's
sign-in, "what would $X do" questions, and plain reads; health, metrics and static files are
never limited (monitors and page assets). A client's bucket of a group holds `burst` tokens and
refills at `per_minute`; a request takes one token or is refused with 429 and `Retry-After`, the
seconds until a token is back.

Across worker processes the buckets are per process and each refills at the configured rate
divided by the number of processes (`processes`, set by `fairfight serve --workers N`): the
kernel spreads connections over the workers, so a client's total stays near the configured
rate without a database write per request. The burst is not divided (a short burst may land on
one worker). Several instances behind one proxy multiply the rate by their number: set
`FAIRFIGHT_RATE_LIMIT_PROCESSES` to the total number of processes then.
"""

from __future__ import annotations

import math
import re
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "EXEMPT_PREFIXES",
    "MAX_TRACKED_CLIENTS",
    "RateLimit",
    "RateLimiter",
    "TokenBucket",
    "route_group",
]

EXEMPT_PREFIXES = ("/healthz", "/readyz", "/metrics", "/api/health", "/static/")
"""Paths never limited: monitors must always get through, and page assets come with pages."""

MAX_TRACKED_CLIENTS = 50_000
"""Buckets kept per process (about 100 bytes each); the least recently seen go first, and a
forgotten client simply starts again with a full bucket."""

_UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}
_SIGN_IN = re.compile(r"^/conquest/operator/sign-in$")
_UPLOAD = re.compile(r"^/api/upload/|^/(clash/games|warscore)/upload$")
_GAME_CREATION = re.compile(r"/(games|tables|wars)$")
_QUESTION = re.compile(r"/pool-effect$")


class RateLimit(BaseModel):
    """One route group's limit for one client: a sustained rate and a burst."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    per_minute: float = Field(gt=0, le=1_000_000, description="Requests a minute, sustained.")
    burst: int = Field(ge=1, le=100_000, description="Requests accepted at once after a pause.")


def route_group(method: str, path: str) -> str | None:
    """The group a request is limited in, or None when it is never limited."""
    if path.startswith(EXEMPT_PREFIXES):
        return None
    if method in _UNSAFE:
        if _SIGN_IN.search(path):
            return "sign_in"
        if _UPLOAD.search(path):
            return "uploads"
        if _GAME_CREATION.search(path):
            return "games"
        return "writes"
    if _QUESTION.search(path):
        return "questions"
    return "reads"


@dataclass(slots=True)
class TokenBucket:
    """Tokens a client has left in one group, as of `updated` (monotonic seconds)."""

    tokens: float
    updated: float


class RateLimiter:
    """Every client's buckets in every group, for one process."""

    def __init__(self, limits: dict[str, RateLimit], processes: int = 1,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.limits = limits
        self.processes = max(1, processes)
        self.clock = clock
        self._buckets: OrderedDict[tuple[str, str], TokenBucket] = OrderedDict()

    def _rate_per_second(self, limit: RateLimit) -> float:
        return limit.per_minute / 60 / self.processes

    def take(self, client: str, group: str) -> float:
        """Take a token for `client` in `group`: 0 when allowed, else the seconds to wait."""
        limit = self.limits.get(group)
        if limit is None:
            return 0.0
        now = self.clock()
        key = (group, client)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(float(limit.burst), now)
            while len(self._buckets) > MAX_TRACKED_CLIENTS:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(key)
        rate = self._rate_per_second(limit)
        bucket.tokens = min(float(limit.burst), bucket.tokens + (now - bucket.updated) * rate)
        bucket.updated = now
        if bucket.tokens >= 1:
            bucket.tokens -= 1
            return 0.0
        return (1 - bucket.tokens) / rate

    @staticmethod
    def retry_after(wait: float) -> int:
        """The whole seconds a refused client is told to wait (at least one)."""
        return max(1, math.ceil(wait))
