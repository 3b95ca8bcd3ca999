"""Season archives with a season log, built the way docs/season-log.md says the service does.

The engine plays the season (`helpers.record_of`); every public fact is appended as a leaf
(`core.merkle`), a head is signed after each append with the `cryptography` package, and each
contribution gets its receipt. The archive is the exported one plus `log.json`, with the
manifest recomputed. Kept apart from the tests so that the real service can take its place
once it writes logs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from fairfight.conquest.record import archive, log_check
from fairfight.conquest.rules import tables
from fairfight.core import merkle
from fairfight.core.records import canonical_json
from tests.conquest.helpers import record_of

__all__ = ["LoggedSeason", "build_logged_season", "public_key_hex", "write_archive"]

Plan = Mapping[int, Sequence[tuple[str, int]]]
"""Contributions by the battle they are made before: (faction, amount) in arrival order."""


def public_key_hex(key: Ed25519PrivateKey) -> str:
    return key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


@dataclass
class LoggedSeason:
    """A finished season with its log: the record, the leaves, a head after every append and a
    receipt for every contribution (in ledger order)."""

    record: dict[str, Any]
    leaves: list[dict[str, Any]] = field(default_factory=list)
    heads: list[dict[str, Any]] = field(default_factory=list)
    receipts: list[dict[str, Any]] = field(default_factory=list)

    def log(self) -> dict[str, Any]:
        return {"leaves": self.leaves, "head": self.heads[-1]}


class _Writer:
    """Appends leaves and signs a head after each, as the service does."""

    def __init__(self, season: LoggedSeason, key: Ed25519PrivateKey, commitment: str) -> None:
        self.season, self.key, self.commitment = season, key, commitment
        self.tree = merkle.MerkleTree()

    def append(self, leaf: dict[str, Any]) -> int:
        index = self.tree.append(canonical_json(leaf))
        self.season.leaves.append(leaf)
        head: dict[str, Any] = {
            "season": self.commitment,
            "size": len(self.tree),
            "root": self.tree.root().hex(),
            "time": f"2026-12-01T20:{len(self.tree) // 60 % 60:02d}:{len(self.tree) % 60:02d}Z",
        }
        head["signature"] = self.key.sign(log_check.head_message(head)).hex()
        self.season.heads.append(head)
        return index

    def receipt(self, entry: dict[str, Any], index: int) -> dict[str, Any]:
        return {
            "format": log_check.RECEIPT_FORMAT,
            "entry": entry,
            "leaf_index": index,
            "head": self.season.heads[index],
            "inclusion": merkle.hashes_to_hex(self.tree.inclusion_proof(index, index + 1)),
        }


def build_logged_season(
    map_data: Mapping[str, Any],
    seed: str,
    plan: Plan,
    key: Ed25519PrivateKey,
    header: Mapping[str, Any] | None = None,
) -> LoggedSeason:
    """Play the season with the plan's contributions (`helpers.record_of`) and log everything
    in the order it happened; `header` (a forger's copy of the original) replaces the one this
    season would have."""
    record = record_of(map_data, seed, plan)
    record["header"] = (
        dict(header)
        if header is not None
        else {**record["header"], tables.LOG_KEY: public_key_hex(key)}
    )
    season = LoggedSeason(record)
    writer = _Writer(season, key, record["commitment"])
    writer.append({"kind": "header", "header": record["header"]})
    for battle in record["history"]:
        for entry in record["ledger"]:
            if entry["before_battle"] == battle["number"]:
                index = writer.append({"kind": "contribution", "entry": entry})
                season.receipts.append(writer.receipt(entry, index))
        writer.append({"kind": "battle", "battle": battle})
    writer.append({"kind": "reveal", "seed": seed})
    return season


def write_archive(season: LoggedSeason, folder: Path, log: Mapping[str, Any] | None = None) -> Path:
    """The season's archive as a folder: the exported files, `log.json`, a fresh manifest."""
    files = dict(archive.archive_files(season.record, archive.engine_sources()))
    files[tables.LOG_RECORD_FILES["log"]] = canonical_json(log or season.log()) + b"\n"
    del files[archive.MANIFEST]
    lines = [f"{hashlib.sha256(files[name]).hexdigest()}  {name}\n" for name in sorted(files)]
    files[archive.MANIFEST] = "".join(lines).encode("ascii")
    archive.write_folder(files, folder)
    return folder
