"""Publishing a season: the archive of its public record, and the archive's verification.

The export opens the season read-only and never reads the secret seed; verification checks the
manifest, replays the record with the standard-library engine and then checks the beacon
signature where it can.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fairfight.conquest.record import archive, season_luck, verifier
from fairfight.conquest.record.beacons import BEACON_DEFAULTS
from fairfight.conquest.rules import tables
from fairfight.conquest.store import ledger, log
from fairfight.conquest.store.season import (
    SeasonAddress,
    SeasonSummary,
    champion,
    open_store,
    summary_in,
)
from fairfight.conquest.store.season_file import DAMAGED
from fairfight.conquest.store.season_store import SeasonStore
from fairfight.core import timelock
from fairfight.core.errors import InputError, VerificationError
from fairfight.inputs import check_input_file

__all__ = [
    "archive_files_of",
    "beacon_signature_note",
    "export_record",
    "luck_of",
    "public_record",
    "verify_folder",
]


def public_record(season: SeasonSummary, history: list[dict[str, Any]]) -> dict[str, Any]:
    """The published record by role (the seed only once revealed), as `load_record` reads it;
    with the season's luck when its verifier files compute it (the header names the file)."""
    luck = (luck_of(season, history)
            if tables.LUCK_ENGINE_FILE in season.header["engine_files"] else None)
    return {
        "luck": luck,
        "header": season.header,
        "commitment": season.commitment,
        "seed": season.revealed_seed,
        "beacon": season.beacon,
        "map": season.map_data,
        "ledger": season.ledger,
        "history": history,
        "final_map": season.board,
    }


def luck_of(season: SeasonSummary, history: list[dict[str, Any]]) -> dict[str, Any]:
    """The season's luck from its public record (the aired battles; never the seed), as
    `luck.json` holds it: the champion's run only once the season has ended."""
    title = champion(season)
    return season_luck.season_luck(history, title.faction if title else None)


def _check_target(target: Path) -> None:
    """Refuse an export target that cannot be written, before any work is done."""
    folder = target.parent if target.suffix == ".zip" else target
    if target.suffix == ".zip" and target.is_dir():
        raise InputError(str(target), "is a folder; give a new .zip file name")
    if target.suffix != ".zip" and target.exists() and not target.is_dir():
        raise InputError(str(target), "is a file, not a folder (name it .zip for an archive)")
    existing = folder if folder.exists() else folder.parent
    if not existing.is_dir():
        raise InputError(str(existing), "no such folder")
    if not os.access(existing, os.W_OK):
        raise InputError(str(existing), "the folder is read-only")


def archive_files_of(path: SeasonAddress) -> dict[str, bytes]:
    """Every file of a season's archive by name, read from the season opened read-only.

    Never reads the secret seed; the web service zips these (`archive.zip_bytes`) for download.
    Beside the public record: the season log (`log`: every leaf and the final signed head;
    None for a season without one) and the public part of every refund owed (`refunds`); the
    season's luck is part of the public record.
    """
    store = open_store(path)
    try:
        with store.transaction() as session:
            season = summary_in(session)
            record = {**public_record(season, SeasonStore.history(session)),
                      "log": log.log_record(session), "refunds": ledger.refunds_owed(session)}
            sources = SeasonStore.engine_files(session)
    finally:
        store.close()
    digests = season.header["engine_files"]
    expected = set(verifier.engine_files_named(sources))
    if set(sources) != expected or archive.engine_digests(sources) != digests:
        raise InputError(DAMAGED, "engine_file: the stored files are not those the header names")
    return archive.archive_files(record, sources)


def export_record(path: SeasonAddress, target: Path) -> list[Path]:
    """Write the season archive, as a folder or (target ending .zip) one zip file.

    Opens the season read-only and never reads the secret seed.
    """
    _check_target(target)
    files = archive_files_of(path)
    if target.suffix == ".zip":
        return archive.write_zip(files, target)
    return archive.write_folder(files, target)


def verify_folder(
    source: Path, receipts: Sequence[Path] = (), heads: Sequence[Path] = (),
    beacon: str | None = None,
) -> list[str]:
    """Replay a season archive (folder or .zip) and check its season log against the receipts
    and heads fans saved; VerificationError names the first difference (a saved file by name).
    With the unlock round's `beacon` signature, the seed is opened from the header's timelock
    (the season verifies without the operator's reveal)."""
    if not source.is_dir() and not source.is_file():
        raise InputError(str(source), "no such folder or archive")
    for path in (*receipts, *heads):
        check_input_file(path)  # a receipt or head: a regular file, named when it is not
    saved_receipts = [verifier.load_saved(path) for path in receipts]
    saved_heads = [verifier.load_saved(path) for path in heads]
    record = verifier.load_record(source)  # a ReplayMismatch is a VerificationError
    if beacon is not None:
        timelock.pairing_library()  # one line saying what to install, before the import
        record = verifier.unlock_record(record, beacon)
    notes = verifier.verify_record(record, saved_receipts, saved_heads)
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
