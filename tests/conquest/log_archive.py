"""Season archives with a season log, built the way docs/season-log.md says the service does.

The engine plays the season; every public fact is appended as a leaf (`core.merkle`), a head
is signed after each append with the `cryptography` package, and each contribution gets its
receipt. The archive is the exported one plus `log.json`, with the manifest recomputed. Kept
apart from the tests so that the real service can take its place once it writes logs.
"""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from fairfight.conquest import archive, engine, log_check, tables
from fairfight.core import merkle
from fairfight.core.records import canonical_json

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
    """Play the season with the plan's contributions, logging everything in order; `header`
    (a forger's copy of the original) replaces the one this season would have."""
    commitment = hashlib.sha256(seed.encode()).hexdigest()
    header = (
        dict(header)
        if header is not None
        else {
            "ruleset": "conquest",
            "engine_version": tables.ENGINE_VERSION,
            "engine_files": archive.engine_digests(archive.engine_sources()),
            "map_name": map_data["name"],
            "map_sha256": engine.map_sha256(map_data),
            "max_battles": None,
            "beacon": None,
            tables.LOG_KEY: public_key_hex(key),
        }
    )
    state = engine.new_state(map_data, seed, None)
    record: dict[str, Any] = {
        "header": header,
        "commitment": commitment,
        "seed": seed,
        "beacon": None,
        "map": copy.deepcopy(dict(map_data)),
        "ledger": [],
        "history": [],
    }
    season = LoggedSeason(record)
    writer = _Writer(season, key, commitment)
    writer.append({"kind": "header", "header": header})
    while not state["board"]["ended"]:
        for faction, amount in plan.get(state["board"]["next_battle"], ()):
            entry = engine.check_contribution(state, record["ledger"], faction, amount)
            record["ledger"].append(entry)
            index = writer.append({"kind": "contribution", "entry": entry})
            season.receipts.append(writer.receipt(entry, index))
        state, battle = engine.play_step(state, record["ledger"])
        record["history"].append(battle)
        writer.append({"kind": "battle", "battle": battle})
    writer.append({"kind": "reveal", "seed": seed})
    record["final_map"] = state["board"]
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
