"""Verify a season archive (a folder or a .zip) and what fans saved of it, with nothing but the
record modules: the service's verifier child process imports this alone, so a fan's upload is
checked without loading the database layer first (about a second of imports here).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fairfight.conquest.record import beacons, quorum_check, verifier
from fairfight.conquest.record.beacons import BEACON_DEFAULTS
from fairfight.core import timelock
from fairfight.core.errors import InputError, VerificationError
from fairfight.inputs import check_input_file

__all__ = ["beacon_signature_note", "verify_folder"]


def verify_folder(
    source: Path, receipts: Sequence[Path] = (), heads: Sequence[Path] = (),
    checkpoints: Sequence[Path] = (), witnesses: Sequence[str] = (), quorum: int = 0,
    beacon: str | None = None,
) -> list[str]:
    """Replay a season archive (folder or .zip) and check its season log against the receipts,
    heads and checkpoints fans saved, the checkpoints held to the witness quorum given;
    VerificationError names the first difference (a saved file by name), InputError a
    checkpoint without the quorum. With the unlock round's `beacon` signature, the seed is
    opened from the header's timelock (the season verifies without the operator's reveal)."""
    if not source.is_dir() and not source.is_file():
        raise InputError(str(source), "no such folder or archive")
    quorum_check.witness_keys(witnesses, quorum)  # refused before any replay
    for path in (*receipts, *heads, *checkpoints):
        check_input_file(path)  # a saved file: a regular file, named when it is not
    saved_receipts = [verifier.load_saved(path) for path in receipts]
    saved_heads = [verifier.load_saved(path) for path in heads]
    saved_notes = [quorum_check.read_checkpoint(path) for path in checkpoints]
    record = verifier.load_record(source)  # a ReplayMismatch is a VerificationError
    if beacon is not None:
        timelock.pairing_library()  # one line saying what to install, before the import
        record = beacons.unlock_record(record, beacon)
    notes = verifier.verify_record(record, saved_receipts, saved_heads, quorum_check.Quorum(
        saved_notes, witnesses, quorum))
    if record["beacon"] is not None:
        notes.append(beacon_signature_note(record["header"]["beacon"], record["beacon"]))
    return notes


def beacon_signature_note(spec: dict[str, Any], beacon: dict[str, Any]) -> str:
    """Check a quicknet round's signature with the optional `drand-verify` package [§8].

    Says plainly when the check could not be made; raises VerificationError when it fails.
    """
    if spec.get("name") != BEACON_DEFAULTS["name"] or not beacon.get("signature"):
        return "beacon signature not checked: no quicknet signature is recorded"
    try:
        import drand_verify
    except ImportError:
        return "beacon signature not checked: the optional drand-verify package is not installed"
    try:
        randomness = str(drand_verify.verify_quicknet(beacon["round"], beacon["signature"]))
    except ValueError as error:
        raise VerificationError("beacon.signature", f"does not verify ({error})") from None
    if randomness.lower() != beacon["randomness"]:
        raise VerificationError("beacon.randomness", "is not the one the signature gives")
    return f"beacon round {beacon['round']} signature verified with drand-verify"
