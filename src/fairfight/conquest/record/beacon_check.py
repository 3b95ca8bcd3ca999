"""Recording a beacon round's value: refused unless the value is the chain's own [§2, §8].

The round must have come out by the service's clock, the randomness must be SHA-256 of the
signature (drand's rule) and the signature must verify under quicknet's public key with
`drand-verify`. Nothing unverified is ever stored, so a recorded beacon never needs correcting.
This is the service's side; `beacons.py`, shipped in every archive, keeps the chain's clock.
"""

from __future__ import annotations

import hashlib
import re
from datetime import UTC, datetime
from typing import Any

from fairfight.conquest.record import beacons
from fairfight.conquest.rules import tables
from fairfight.core.errors import RuleError

__all__ = [
    "QUICKNET_PUBLIC_PATH",
    "QUICKNET_SIGNATURE_HEX_DIGITS",
    "checked_beacon",
    "round_came_out",
    "round_url_path",
]

QUICKNET_PUBLIC_PATH = f"/{tables.QUICKNET['chain_hash']}/public/"
"""Where any drand relay serves a quicknet round (append the round number): the operator
fetches it; the service never does."""
QUICKNET_SIGNATURE_HEX_DIGITS = 96
"""A quicknet signature is one compressed BLS12-381 G1 point: 48 bytes, 96 hex digits."""
_HEX = re.compile(r"^[0-9a-f]*$")


def _seconds(moment: datetime) -> int:
    """Whole unix seconds of a time (a naive time is taken as UTC)."""
    return int((moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp())


def round_came_out(beacon_round: int) -> int:
    """Unix seconds at which a quicknet round comes out, by the clock the verifiers read."""
    came_out = beacons.beacon_round_time(tables.QUICKNET["chain_hash"], beacon_round)
    if came_out is None:
        raise AssertionError("the verifier must know the chain of its default beacon")
    return came_out


def round_url_path(beacon_round: int) -> str:
    """The path a drand relay answers a quicknet round at, e.g. `/52db…/public/657413`."""
    return f"{QUICKNET_PUBLIC_PATH}{beacon_round}"


def _bls_randomness(beacon_round: int, signature: str) -> str:
    """The randomness quicknet's public key vouches for, or RuleError naming the signature."""
    import drand_verify  # the service's dependency; the shipped verifier files never need it

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
    if spec.get("chain_hash") != tables.QUICKNET["chain_hash"]:
        raise RuleError("beacon", f"chain {spec.get('chain_hash')} is not quicknet; only "
                        "quicknet rounds can be checked here")
    came_out, clock = round_came_out(beacon_round), _seconds(now)
    if clock < came_out:
        raise RuleError(
            "beacon.round",
            f"quicknet round {beacon_round} comes out at {beacons.utc_text(came_out)}, "
            f"{came_out - clock} s from now ({beacons.utc_text(clock)}); no value exists "
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
