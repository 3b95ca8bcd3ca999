"""The season archive: the public record plus everything needed to check it, in one place.

An archive holds the record files, the verifier files (`verifier.py` and every file it imports,
and `engine.js`; see `tables.ENGINE_FILES`), `VERIFY.md` and `manifest.sha256` (the SHA-256 of
every other file, in the format `sha256sum -c` reads). The season header, published before
battle 1, names the SHA-256 of each verifier file, so an engine swapped afterwards no longer
matches. Written as a folder or as a `.zip` with fixed timestamps, so the same season always
gives the same bytes.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from fairfight.conquest.record import beacons, log_check, quorum_check, season_luck, verifier
from fairfight.conquest.rules import engine, tables
from fairfight.core import (
    cosignature,
    draws,
    ed25519,
    errors,
    exact,
    merkle,
    records,
    signed_note,
)
from fairfight.core.records import canonical_json

__all__ = [
    "ENGINE_FILES",
    "GUIDE",
    "MANIFEST",
    "archive_files",
    "engine_digests",
    "engine_sources",
    "record_files",
    "write_folder",
    "write_zip",
    "zip_bytes",
]

ENGINE_FILES = tables.ENGINE_FILES
"""The verifier files every new archive carries, by the names they have in it."""
GUIDE = tables.GUIDE
MANIFEST = tables.MANIFEST
_SHIPPED = (
    beacons,
    cosignature,
    draws,
    ed25519,
    engine,
    errors,
    exact,
    log_check,
    merkle,
    quorum_check,
    records,
    season_luck,
    signed_note,
    tables,
    verifier,
)
"""The modules whose files are shipped under their own names (the two JavaScript files besides)."""
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)
"""Every zip entry carries this date, so an archive's bytes depend on its contents only."""


def engine_sources() -> dict[str, bytes]:
    """The verifier files of this installation, as an archive names them."""
    sources = {
        Path(str(module.__file__)).name: Path(str(module.__file__)).read_bytes()
        for module in _SHIPPED
    }
    sources["engine.js"] = Path(verifier.__file__).with_name("engine.js").read_bytes()
    sources["seasonlog.js"] = Path(merkle.__file__).with_name("seasonlog.js").read_bytes()
    return {name: sources[name] for name in ENGINE_FILES}


def engine_digests(sources: Mapping[str, bytes]) -> dict[str, str]:
    """SHA-256 (lowercase hex) of each verifier file: what the season header publishes."""
    return {name: hashlib.sha256(sources[name]).hexdigest() for name in sorted(sources)}


def record_files(record: Mapping[str, Any]) -> dict[str, bytes]:
    """The record files by name, each canonical; a role with no value (no seed yet, no season
    log) is left out."""
    files = {}
    for role, name in {**tables.RECORD_FILES, **tables.LOG_RECORD_FILES}.items():
        value = record.get(role)
        if value is None:
            continue
        if name.endswith(".txt"):
            files[name] = f"{value}\n".encode("ascii")
        elif name.endswith(".jsonl"):
            files[name] = b"".join(canonical_json(item) + b"\n" for item in value)
        else:
            files[name] = canonical_json(value) + b"\n"
    return files


def archive_files(record: Mapping[str, Any], sources: Mapping[str, bytes]) -> dict[str, bytes]:
    """Every file of the archive by name, the manifest included."""
    guide = (Path(verifier.__file__).parent / GUIDE).read_bytes()
    files = {**record_files(record), **sources}
    files[GUIDE] = guide
    lines = [f"{hashlib.sha256(files[name]).hexdigest()}  {name}\n" for name in sorted(files)]
    files[MANIFEST] = "".join(lines).encode("ascii")
    return files


def write_folder(files: Mapping[str, bytes], folder: Path) -> list[Path]:
    """Write the archive as a folder; archive files no longer in it (a stale seed, the verifier
    files of another release) are removed."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in (*tables.RECORD_FILES.values(), *tables.LOG_RECORD_FILES.values(), *ENGINE_FILES):
        if name not in files:
            (folder / name).unlink(missing_ok=True)
    written = []
    for name in sorted(files):
        (folder / name).write_bytes(files[name])
        written.append(folder / name)
    return written


def zip_bytes(files: Mapping[str, bytes]) -> bytes:
    """The archive as the bytes of one .zip (flat, deflated, fixed timestamps, name order)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, files[name])
    return buffer.getvalue()


def write_zip(files: Mapping[str, bytes], path: Path) -> list[Path]:
    """Write the archive as one .zip file (via a temporary name, so a reader never sees half)."""
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(zip_bytes(files))
    partial.replace(path)
    return [path]
