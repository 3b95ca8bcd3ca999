"""The verify page's checks, step by step, each with its own verdict [§9].

The replay is the engine's own verifier run on the public record; it is run once per season
version and kept with the snapshot.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel

from fairfight.conquest.record import beacons, log_check, verifier
from fairfight.conquest.rules import engine, tables
from fairfight.conquest.store import publication
from fairfight.web.conquest.catalog import Snapshot

__all__ = ["Step", "Verification", "verification"]


class Step(BaseModel):
    """One numbered check and its verdict."""

    title: str
    ok: bool | None
    detail: str


class Verification(BaseModel):
    """What the verify page shows."""

    revealed: bool
    seed: str | None
    commitment: str
    engine_version: str
    battles: int
    ended: bool
    steps: list[Step]


def _steps(snap: Snapshot, log_files: dict[str, Any]) -> list[Step]:
    summary = snap.summary
    seed = summary.revealed_seed or ""
    digest = hashlib.sha256(seed.encode("ascii")).hexdigest()
    steps = [
        Step(
            title="the commitment is SHA-256 of the revealed seed",
            ok=digest == summary.commitment,
            detail=f"sha256({seed}) = {digest}",
        ),
        Step(
            title="the map is the one the header names",
            ok=engine.map_sha256(summary.map_data) == summary.header["map_sha256"],
            detail=f"map SHA-256 {summary.header['map_sha256']}",
        ),
    ]
    if summary.header["beacon"] is not None:
        beacon = summary.beacon
        steps.append(Step(
            title="the beacon round's randomness is recorded",
            ok=beacon is not None,
            detail=f"{summary.header['beacon']['name']} round {summary.header['beacon']['round']}"
            + (f": {beacon['randomness']}" if beacon else ": missing"),
        ))
    if summary.header["beacon"] is not None:
        steps.append(_timing_step(summary.header))
    record = {**publication.public_record(summary, snap.history), **log_files}
    try:
        notes = verifier.verify_record(record)
        steps.append(Step(
            title="every battle replays from the seed, and the final map matches",
            ok=True, detail="; ".join(notes),
        ))
    except engine.ReplayMismatch as mismatch:
        steps.append(Step(
            title="every battle replays from the seed, and the final map matches",
            ok=False, detail=f"{mismatch.place}: {mismatch.detail}",
        ))
    if tables.LOG_KEY in summary.header:
        steps.append(_log_step(record))
    return steps


def _log_step(record: dict[str, Any]) -> Step:
    """The season log holds exactly the record under a head signed with the season key."""
    title = "the season log holds exactly this record, under a head signed with the season key"
    if record.get("log") is None:
        return Step(title=title, ok=None, detail="the log is not part of this record")
    try:
        notes = log_check.check_log(record)
    except engine.ReplayMismatch as mismatch:
        return Step(title=title, ok=False, detail=f"{mismatch.place}: {mismatch.detail}")
    return Step(title=title, ok=True, detail="; ".join(notes))


def _timing_step(header: dict[str, Any]) -> Step:
    """The beacon round came out after the header was published: ✓, ✗, or not checkable."""
    title = "the beacon round came out after the commitment was published"
    try:
        checked, note = beacons.beacon_timing(header)
    except engine.ReplayMismatch as mismatch:
        return Step(title=title, ok=False, detail=f"{mismatch.place}: {mismatch.detail}")
    return Step(title=title, ok=True if checked else None, detail=note)


def verification(
    snap: Snapshot, log_files: Callable[[], dict[str, Any]] = dict
) -> Verification:
    """The verify page's content (checks only once the seed is revealed). `log_files` reads the
    season log and refunds owed as the archive holds them (`SeasonCatalog.log_files`); it is
    called only when the checks are first built for this version of the season."""
    def build() -> Verification:
        summary = snap.summary
        revealed = summary.revealed_seed is not None
        return Verification(
            revealed=revealed,
            seed=summary.revealed_seed,
            commitment=summary.commitment,
            engine_version=summary.header["engine_version"],
            battles=summary.battles,
            ended=summary.board["ended"],
            steps=_steps(snap, log_files()) if revealed else [],
        )

    result: Verification = snap.views.get_or_make("verification", build)
    return result
