"""A seed that unlocks itself: the secret seed timelocked to a drand round [docs/season-log.md].

At `conquest new` with a planned end, the seed is encrypted with drand timelock encryption
(`core.timelock`) to the first quicknet round at least `UNLOCK_MARGIN_SECONDS` after that end,
and the ciphertext and round go into the header, which is published with the commitment and is
the season log's leaf 0. Once the round's beacon is out, anyone opens the seed with it (no
operator needed); before it, nobody can. So that the seed never opens while battles remain, no
battle airs from `AIR_STOP_SECONDS` before the round's time on.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from fairfight.conquest.record import beacons
from fairfight.core import timelock
from fairfight.core.errors import InputError, RuleError

__all__ = [
    "AIR_STOP_SECONDS",
    "NETWORK",
    "TIMELOCK",
    "UNLOCK_MARGIN_SECONDS",
    "check_air_time",
    "header_field",
    "header_fields",
    "network_for",
    "unlock_note",
    "unlock_round",
    "unlock_seed",
]

TIMELOCK = "timelock"
"""The header field holding the locked seed: network name, chain hash, round, ciphertext."""
UNLOCK_MARGIN_SECONDS = 24 * 3600
"""How long after the season's latest planned end its seed unlocks: a day, so a season that
runs late still ends before (airing stops `AIR_STOP_SECONDS` earlier still)."""
NETWORK = timelock.QUICKNET
"""The drand network new seasons lock their seeds to (tests put a network of their own here)."""
AIR_STOP_SECONDS = 3600
"""No battle airs within this long before the unlock round's time: clocks may drift and a
battle takes a moment to air, and the seed must never be open while one remains."""


def _seconds(moment: datetime) -> int:
    """Unix seconds of a time (a naive one is taken as UTC)."""
    return int((moment if moment.tzinfo else moment.replace(tzinfo=UTC)).timestamp())


def unlock_round(ends_by: datetime, network: timelock.Network = timelock.QUICKNET) -> int:
    """The first round whose beacon is due at least UNLOCK_MARGIN_SECONDS after `ends_by`."""
    target = _seconds(ends_by) + UNLOCK_MARGIN_SECONDS
    found = max(1, network.round_at(target))
    return found if network.time_of(found) >= target else found + 1


def header_field(seed: str, ends_by: datetime, now: datetime,
                 network: timelock.Network | None = None) -> dict[str, Any]:
    """The header's `timelock` field: the seed encrypted to the round after the planned end
    (on `network`, by default `NETWORK`)."""
    network = network or NETWORK
    if _seconds(ends_by) <= _seconds(now):
        raise RuleError("ends_by", f"the season's planned end must be in the future (now is "
                        f"{beacons.utc_text(_seconds(now))})", beacons.utc_text(_seconds(ends_by)))
    round_number = unlock_round(ends_by, network)
    return {
        "network": network.name,
        "chain_hash": network.chain_hash,
        "round": round_number,
        "ciphertext": timelock.encrypt(seed.encode("ascii"), round_number, network),
    }


def network_for(spec: dict[str, Any]) -> timelock.Network:
    """The known drand network a header's timelock names by chain hash."""
    found = timelock.KNOWN_NETWORKS.get(str(spec.get("chain_hash")))
    if found is None:
        raise InputError("header.timelock.chain_hash", "is not a drand network known here",
                         spec.get("chain_hash"))
    return found


def unlock_note(spec: dict[str, Any]) -> str:
    """The timelock in one sentence for the operator: when the seed opens, when airing stops."""
    opens = network_for(spec).time_of(int(spec["round"]))
    return (f"the seed unlocks with {spec['network']} round {spec['round']} at "
            f"{beacons.utc_text(opens)}; no battle airs from "
            f"{beacons.utc_text(opens - AIR_STOP_SECONDS)} on")


def check_air_time(header: dict[str, Any], now: datetime) -> None:
    """Refuse to air a battle once the seed's unlock round is near [docs/season-log.md]."""
    spec = header.get(TIMELOCK)
    if spec is None:
        return
    opens = network_for(spec).time_of(int(spec["round"]))
    if _seconds(now) >= opens - AIR_STOP_SECONDS:
        raise RuleError(
            "timelock",
            f"no battle airs from {beacons.utc_text(opens - AIR_STOP_SECONDS)} on: the seed "
            f"unlocks with {spec['network']} round {spec['round']} at {beacons.utc_text(opens)}"
            f" and airing stops {AIR_STOP_SECONDS} s before",
        )


def header_fields(seed: str, ends_by: datetime | None, now: datetime) -> dict[str, Any]:
    """The header's `timelock` field for a season with a planned end; none without one."""
    return {} if ends_by is None else {TIMELOCK: header_field(seed, ends_by, now)}


def unlock_seed(header: dict[str, Any], commitment: str, signature: str) -> str:
    """The seed opened from the header's timelock with the round's beacon signature (hex),
    checked against the published commitment."""
    spec = header.get(TIMELOCK)
    if spec is None:
        raise RuleError("season", "its header locks no seed to a drand round (no timelock)")
    return timelock.open_seed(spec, commitment, signature)
