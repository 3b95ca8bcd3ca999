"""The public randomness beacon a season may name, and when its round may come out [§2, §8].

The beacon's round must come out after the season's header and commitment are published, so
the operator cannot try seeds against a value already known. `conquest new` records the
publication time in the header and refuses a round that comes too soon; both verifiers then
check the timing against the chain's own clock.

Recording the round's value (`checked_beacon`) is refused unless the value is the chain's own:
the round must have come out by the service's clock, the randomness must be SHA-256 of the
signature (drand's rule) and the signature must verify under quicknet's public key with
`drand-verify`. Nothing unverified is ever stored, so a recorded beacon never needs correcting.
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime
from typing import Any

from fairfight.conquest import engine
from fairfight.core.errors import RuleError

__all__ = [
    "BEACON_DEFAULTS",
    "QUICKNET_PUBLIC_PATH",
    "QUICKNET_SIGNATURE_HEX_DIGITS",
    "checked_beacon",
    "header_fields",
    "round_came_out",
    "round_url_path",
    "utc_now",
]

BEACON_DEFAULTS = {key: engine.QUICKNET[key] for key in ("name", "chain_hash", "period_seconds")}
"""The header's beacon fields for the default beacon, drand quicknet [§8]."""
QUICKNET_PUBLIC_PATH = f"/{engine.QUICKNET['chain_hash']}/public/"
"""Where any drand relay serves a quicknet round (append the round number): the operator
fetches it; the service never does."""
QUICKNET_SIGNATURE_HEX_DIGITS = 96
"""A quicknet signature is one compressed BLS12-381 G1 point: 48 bytes, 96 hex digits."""
_HEX = re.compile(r"^[0-9a-f]*$")


def utc_now() -> datetime:
    """The clock a new season's publication time, and a beacon's arrival, are read from
    (tests replace it or pass their own time)."""
    return datetime.now(UTC)


def _seconds(moment: datetime) -> int:
    """Whole unix seconds of a time (a naive time is taken as UTC)."""
    return int((moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp())


def round_came_out(beacon_round: int) -> int:
    """Unix seconds at which a quicknet round comes out (the engine's clock of the chain)."""
    came_out = engine.beacon_round_time(engine.QUICKNET["chain_hash"], beacon_round)
    if came_out is None:
        raise AssertionError("the engine must know the chain of its default beacon")
    return came_out


def round_url_path(beacon_round: int) -> str:
    """The path a drand relay answers a quicknet round at, e.g. `/52db…/public/657413`."""
    return f"{QUICKNET_PUBLIC_PATH}{beacon_round}"


def header_fields(beacon_round: int, published: datetime) -> dict[str, Any]:
    """The header's `beacon` and `published` fields for a season drawing on `beacon_round`.

    Refused (field `beacon_round`) unless the round comes out at least BEACON_LEAD_SECONDS
    after `published` (a naive time is taken as UTC; fractions of a second are dropped).
    """
    seconds = _seconds(published)
    came_out = round_came_out(beacon_round)
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


def _bls_randomness(beacon_round: int, signature: str) -> str:
    """The randomness quicknet's public key vouches for, or RuleError naming the signature."""
    import drand_verify  # a dependency; imported here so the engine side never needs it

    try:
        return str(drand_verify.verify_quicknet(beacon_round, signature)).lower()
    except ValueError as error:
        raise RuleError(
            "beacon.signature",
            f"does not verify as quicknet round {beacon_round} under the chain's public key "
            f"({error}); paste the signature of that very round",
        ) from None


def checked_beacon(
    spec: dict[str, Any], randomness: str, signature: str | None, now: datetime
) -> dict[str, Any]:
    """The beacon record for the header's round, once the value is proven the chain's own.

    Refused, naming the field, in this order: a chain other than quicknet (`beacon`), a round
    that has not come out by `now` (`beacon.round`), a missing or malformed signature
    (`beacon.signature`), randomness that is not SHA-256 of the signature
    (`beacon.randomness`), a signature that does not verify (`beacon.signature`).
    """
    beacon_round = spec["round"]
    if spec.get("chain_hash") != engine.QUICKNET["chain_hash"]:
        raise RuleError("beacon", f"chain {spec.get('chain_hash')} is not quicknet; only "
                        "quicknet rounds can be checked here")
    came_out, clock = round_came_out(beacon_round), _seconds(now)
    if clock < came_out:
        raise RuleError(
            "beacon.round",
            f"quicknet round {beacon_round} comes out at {engine.utc_text(came_out)}, "
            f"{came_out - clock} s from now ({engine.utc_text(clock)}); no value exists "
            "before then, record it afterwards",
        )
    signature = (signature or "").strip().lower()
    if not signature:
        raise RuleError("beacon.signature", "is required: the round's BLS signature proves "
                        "the randomness is the chain's own")
    if len(signature) != QUICKNET_SIGNATURE_HEX_DIGITS or not _HEX.match(signature):
        raise RuleError("beacon.signature", f"must be {QUICKNET_SIGNATURE_HEX_DIGITS} hex "
                        f"digits (a quicknet signature), found {len(signature)} characters")
    randomness = randomness.strip().lower()
    derived = hashlib.sha256(bytes.fromhex(signature)).hexdigest()
    if randomness != derived:
        raise RuleError("beacon.randomness", "is not SHA-256 of the signature (drand's rule); "
                        "paste the randomness and the signature of the same round")
    if _bls_randomness(beacon_round, signature) != randomness:
        raise RuleError("beacon.randomness", "is not the randomness drand-verify derives from "
                        "the signature")
    return {"round": beacon_round, "randomness": randomness, "signature": signature}
