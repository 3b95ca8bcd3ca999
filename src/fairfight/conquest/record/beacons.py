"""The public randomness beacon a season may name, and when its round comes out [§2, §8].

The beacon's round must come out after the season's header and commitment are published, so
the operator cannot try seeds against a value already known. `conquest new` records the
publication time in the header and refuses a round that comes too soon; both verifiers then
check the timing against the chain's own clock. Standard library only: a season archive ships
this file for the verifier, which reads the clock from here.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Any

if __package__:
    from fairfight.conquest.rules import tables
    from fairfight.conquest.rules.engine import Plain, ReplayMismatch, shown
    from fairfight.core.errors import RuleError
else:  # a plain file in a season archive, beside the files it imports
    import tables  # type: ignore[import-not-found, no-redef, unused-ignore]
    from engine import (  # type: ignore[import-not-found, no-redef, unused-ignore]
        Plain,
        ReplayMismatch,
        shown,
    )
    from errors import RuleError  # type: ignore[import-not-found, no-redef, unused-ignore]

__all__ = [
    "BEACON_DEFAULTS",
    "PUBLISHED",
    "PUBLISHED_FORM",
    "beacon_round_time",
    "beacon_timing",
    "checked_published",
    "header_fields",
    "published_seconds",
    "unlock_record",
    "utc_now",
    "utc_text",
]

BEACON_DEFAULTS = {key: tables.QUICKNET[key] for key in ("name", "chain_hash", "period_seconds")}
"""The header's beacon fields for the default beacon, drand quicknet [§8]."""
PUBLISHED = "published"
"""The one optional header field: when the header (naming a beacon) was published, in UTC."""
PUBLISHED_FORM = "YYYY-MM-DDTHH:MM:SSZ"
_PUBLISHED_PATTERN = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})Z", re.ASCII
)


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
    quicknet = tables.QUICKNET
    came_out = beacon_round_time(quicknet["chain_hash"], beacon_round)
    if came_out is None:
        raise AssertionError("the verifier must know the chain of its default beacon")
    earliest = seconds + tables.BEACON_LEAD_SECONDS
    if came_out < earliest:
        genesis, period = quicknet["genesis"], quicknet["period_seconds"]
        first = max(1, -(-(earliest - genesis) // period) + 1)
        raise RuleError(
            "beacon_round",
            f"{quicknet['name']} round {beacon_round} comes out at "
            f"{utc_text(came_out)}, but a round must come out at least "
            f"{tables.BEACON_LEAD_SECONDS} s after the header is published "
            f"({utc_text(seconds)}), so the commitment is out first: "
            f"choose round {first} or later",
        )
    return {
        "beacon": {**BEACON_DEFAULTS, "round": beacon_round},
        PUBLISHED: utc_text(seconds),
    }


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (integer arithmetic, any year)."""
    year -= month <= 2
    era = year // 400
    year_of_era = year - era * 400
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    day_of_era = year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year
    return era * 146097 + day_of_era - 719468


def utc_text(seconds: int) -> str:
    """Unix seconds as `YYYY-MM-DDTHH:MM:SSZ` (integer arithmetic, so no year is out of range)."""
    days, rest = divmod(seconds, 86400)
    shifted = days + 719468
    era = shifted // 146097
    day_of_era = shifted - era * 146097
    year_of_era = (
        day_of_era - day_of_era // 1460 + day_of_era // 36524 - day_of_era // 146096
    ) // 365
    day_of_year = day_of_era - (365 * year_of_era + year_of_era // 4 - year_of_era // 100)
    shifted_month = (5 * day_of_year + 2) // 153
    day = day_of_year - (153 * shifted_month + 2) // 5 + 1
    month = shifted_month + 3 if shifted_month < 10 else shifted_month - 9
    year = year_of_era + era * 400 + (month <= 2)
    hour, minute, second = rest // 3600, rest // 60 % 60, rest % 60
    return f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}Z"


def published_seconds(text: Any) -> int | None:
    """Unix seconds of a strict `YYYY-MM-DDTHH:MM:SSZ` UTC time; None if it is anything else."""
    found = _PUBLISHED_PATTERN.fullmatch(text) if isinstance(text, str) else None
    if found is None:
        return None
    year, month, day, hour, minute, second = (int(part) for part in found.groups())
    leap = year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
    month_days = (31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
    if not 1 <= month <= 12 or not 1 <= day <= month_days[month - 1]:
        return None
    if hour > 23 or minute > 59 or second > 59:
        return None
    return _days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60 + second


def checked_published(value: Any) -> int:
    seconds = published_seconds(value)
    if seconds is None:
        raise ReplayMismatch(
            "header",
            f"field {PUBLISHED}: must be a UTC time written {PUBLISHED_FORM}, found {shown(value)}",
        )
    return seconds


def beacon_round_time(chain_hash: str, beacon_round: int) -> int | None:
    """Unix seconds at which a round comes out, for a chain this verifier knows; else None."""
    if chain_hash != tables.QUICKNET["chain_hash"]:
        return None
    return int(tables.QUICKNET["genesis"] + (beacon_round - 1) * tables.QUICKNET["period_seconds"])


def beacon_timing(header: Plain) -> tuple[bool, str]:
    """Check that the beacon round came out after the header was published [§8].

    Returns (checked, note): the note shows both times, or says plainly why the timing could
    not be checked (no publication time recorded, or a chain not known here). Raises
    ReplayMismatch naming header field beacon.round when the round did not come out after.
    """
    spec = header["beacon"]
    known = spec["chain_hash"] == tables.QUICKNET["chain_hash"]
    if known and spec["period_seconds"] != tables.QUICKNET["period_seconds"]:
        raise ReplayMismatch.of_field(
            "header",
            "beacon.period_seconds",
            tables.QUICKNET["period_seconds"],
            spec["period_seconds"],
        )
    if PUBLISHED not in header:
        return False, "publication time not recorded: the beacon timing cannot be checked"
    published = header[PUBLISHED]
    came_out = beacon_round_time(spec["chain_hash"], spec["round"])
    if came_out is None:
        return False, (
            f"beacon timing not checked: chain {spec['chain_hash']} is not one this verifier "
            f"knows (header.published {published})"
        )
    gap = came_out - checked_published(published)
    said = f"{tables.QUICKNET['name']} round {spec['round']} came out at {utc_text(came_out)}"
    if gap <= 0:
        raise ReplayMismatch(
            "header",
            f"field beacon.round: {said}, not after header.published {published}; "
            "the round must come after the commitment is published",
        )
    return True, f"beacon timing: {said}, {gap} s after header.published {published}"


def unlock_record(record: Plain, signature: str) -> Plain:
    """The record with its seed opened from the header's timelock by the round's signature (a
    seed unlocked, not revealed, has no reveal leaf); needs fairfight and py-arkworks-bls12381."""
    import py_arkworks_bls12381  # noqa: F401  (ImportError: main says what to install)

    from fairfight.core import timelock  # not a file of the archive: the installed package
    if "timelock" not in record["header"]:
        raise ReplayMismatch("header", "field timelock: missing; no seed is locked to a round")
    seed = timelock.open_seed(record["header"]["timelock"], record["commitment"], signature)
    if record.get("seed") not in (None, seed):
        raise ReplayMismatch("seed", "the revealed seed is not the one the timelock holds")
    return {**record, "seed": seed, "unlocked": record.get("seed") is None}
