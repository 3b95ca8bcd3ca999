"""The public randomness beacon a season may name, and when its round may come out [§2, §8].

The beacon's round must come out after the season's header and commitment are published, so
the operator cannot try seeds against a value already known. `conquest new` records the
publication time in the header and refuses a round that comes too soon; both verifiers then
check the timing against the chain's own clock.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fairfight.conquest import engine
from fairfight.core.errors import RuleError

__all__ = ["BEACON_DEFAULTS", "header_fields", "utc_now"]

BEACON_DEFAULTS = {key: engine.QUICKNET[key] for key in ("name", "chain_hash", "period_seconds")}
"""The header's beacon fields for the default beacon, drand quicknet [§8]."""


def utc_now() -> datetime:
    """The clock a new season's publication time is read from (tests replace it)."""
    return datetime.now(UTC)


def header_fields(beacon_round: int, published: datetime) -> dict[str, Any]:
    """The header's `beacon` and `published` fields for a season drawing on `beacon_round`.

    Refused (field `beacon_round`) unless the round comes out at least BEACON_LEAD_SECONDS
    after `published` (a naive time is taken as UTC; fractions of a second are dropped).
    """
    moment = published if published.tzinfo else published.replace(tzinfo=UTC)
    seconds = int(moment.timestamp())
    came_out = engine.beacon_round_time(engine.QUICKNET["chain_hash"], beacon_round)
    if came_out is None:
        raise AssertionError("the engine must know the chain of its default beacon")
    earliest = seconds + engine.BEACON_LEAD_SECONDS
    if came_out < earliest:
        genesis, period = engine.QUICKNET["genesis"], engine.QUICKNET["period_seconds"]
        first = max(1, -(-(earliest - genesis) // period) + 1)
        raise RuleError(
            "beacon_round",
            f"{engine.QUICKNET['name']} round {beacon_round} comes out at "
            f"{engine.utc_text(came_out)}, but a round must come out at least "
            f"{engine.BEACON_LEAD_SECONDS} s after the header is published "
            f"({engine.utc_text(seconds)}), so the commitment is out first: "
            f"choose round {first} or later",
        )
    return {
        "beacon": {**BEACON_DEFAULTS, "round": beacon_round},
        "published": engine.utc_text(seconds),
    }
