"""Publishing a season: the archive of its public record, and the archive's verification.

The export opens the season read-only and never reads the secret seed; verification checks the
manifest, replays the record with the standard-library engine and then checks the beacon
signature where it can.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from fairfight.conquest.record import archive, season_luck, verifier
from fairfight.conquest.record.folder_check import beacon_signature_note, verify_folder
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
from fairfight.core.errors import InputError

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


