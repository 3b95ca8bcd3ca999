"""Publishing a season: the public record written as canonical files, and its verification.

The export never opens the secret seed table; verification replays the record with the
standard-library engine and then checks the beacon signature where it can.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fairfight.conquest import engine
from fairfight.conquest.season import BEACON_DEFAULTS, SeasonSummary, open_store, summary_in
from fairfight.conquest.store import SeasonStore
from fairfight.core.errors import InputError, VerificationError
from fairfight.core.records import canonical_json

__all__ = ["beacon_signature_note", "export_record", "public_record", "verify_folder"]


def public_record(season: SeasonSummary, history: list[dict[str, Any]]) -> dict[str, Any]:
    """The published record by role (the seed only once revealed), as `engine.load_record` reads."""
    return {
        "header": season.header,
        "commitment": season.commitment,
        "seed": season.revealed_seed,
        "beacon": season.beacon,
        "map": season.map_data,
        "ledger": season.ledger,
        "history": history,
        "final_map": season.board,
    }


def export_record(path: Path, folder: Path) -> list[Path]:
    """Write the public record as canonical files; never reads the secret seed table."""
    store = open_store(path)
    try:
        with store.transaction() as session:
            record = public_record(summary_in(session), SeasonStore.history(session))
    finally:
        store.close()
    if folder.exists() and not folder.is_dir():
        raise InputError(str(folder), "is a file, not a folder")
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for role, name in engine.RECORD_FILES.items():
        target = folder / name
        value = record[role]
        if value is None:
            target.unlink(missing_ok=True)
            continue
        if name.endswith(".txt"):
            data = f"{value}\n".encode("ascii")
        elif name.endswith(".jsonl"):
            data = b"".join(canonical_json(item) + b"\n" for item in value)
        else:
            data = canonical_json(value) + b"\n"
        target.write_bytes(data)
        written.append(target)
    return written


def verify_folder(folder: Path) -> list[str]:
    """Replay a published record; VerificationError names the first battle and field that differ."""
    if not folder.is_dir():
        raise InputError(str(folder), "no such folder")
    try:
        record = engine.load_record(folder)
        notes = engine.verify_record(record)
    except engine.ReplayMismatch as mismatch:
        raise VerificationError(mismatch.place, mismatch.detail) from None
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
