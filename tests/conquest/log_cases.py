"""The shared table of season-log cases: archives, saved receipts and heads, and the verdict.

Every verifier (the bare Python file, the command line, Node, the page's engine) is run on the
same cases by tests/conquest/test_log_verify.py and tests/web/test_verify_page.py, so they
accept and refuse the same things with the same words. The re-play attacks are built as a
dishonest operator would: the same seed, the same key, the original header copied, the season
re-run with one contribution dropped, changed or moved, the log and the manifest rebuilt.
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.record import archive
from fairfight.conquest.rules import tables
from fairfight.core.records import canonical_json
from tests.conquest.helpers import SEED, reseal
from tests.conquest.log_archive import LoggedSeason, build_logged_season, write_archive

__all__ = ["HONEST_PLAN", "Case", "build_cases", "honest_season", "season_key"]

HONEST_PLAN = {
    1: [("ZZ-003", 25)],
    3: [("ZZ-001", 10), ("ZZ-005", 20)],
    5: [("ZZ-002", 30), ("ZZ-004", 15)],
}
"""Five contributions before three battles; the attacks change the ones before battle 3."""


def season_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"season key").digest())


def honest_season() -> LoggedSeason:
    return build_logged_season(synthetic_map(8, 9, 3), SEED, HONEST_PLAN, season_key())


@dataclass
class Case:
    """One archive with the files saved beside it, and what every verifier must answer."""

    name: str
    archive: Path
    receipts: list[Path] = field(default_factory=list)
    heads: list[Path] = field(default_factory=list)
    refused: str | None = None
    """None when every verifier must accept; else how the message (`place: detail`) that
    every verifier gives begins."""


def _save(folder: Path, name: str, value: Any) -> Path:
    path = folder / name
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def _forged(honest: LoggedSeason, plan: dict[int, list[tuple[str, int]]]) -> LoggedSeason:
    """The season re-run with another plan, the original header copied."""
    header = honest.record["header"]
    return build_logged_season(synthetic_map(8, 9, 3), SEED, plan, season_key(), header)


def _write_changed(folder: Path, season: LoggedSeason, change: Any) -> Path:
    """The archive written, then `change(folder)` applied and the manifest resealed."""
    write_archive(season, folder)
    change(folder)
    reseal(folder)
    return folder


def build_cases(root: Path) -> list[Case]:
    """Every case under `root`: the honest archive, attacks, and malformed files."""
    saved = root / "saved"
    saved.mkdir(parents=True)
    honest = honest_season()
    good = write_archive(honest, root / "honest")
    receipts = [_save(saved, f"receipt-{r['leaf_index']}.json", r) for r in honest.receipts]
    heads = [_save(saved, f"head-{h['size']}.json", h) for h in honest.heads]
    second = honest.receipts[1]  # the first contribution before battle 3
    index = second["leaf_index"]
    at_change = saved / f"head-{index + 1}.json"
    cases = [
        Case("honest", good),
        Case("honest with every receipt and head", good, receipts, heads),
    ]
    plans = {
        "dropped": {**HONEST_PLAN, 3: [("ZZ-005", 20)]},
        "amount changed": {**HONEST_PLAN, 3: [("ZZ-001", 15), ("ZZ-005", 20)]},
        "reordered": {**HONEST_PLAN, 3: [("ZZ-005", 20), ("ZZ-001", 10)]},
    }
    for attack, plan in plans.items():
        forged = write_archive(_forged(honest, plan), root / attack.replace(" ", "-"))
        receipt_place = f"receipt receipt-{index}.json: leaf {index} of the final log"
        cases += [
            Case(f"{attack}: the forged archive alone passes", forged),
            Case(f"{attack}: a receipt saved before the change passes", forged, receipts[:1]),
            Case(f"{attack}: the receipt of the change", forged, [receipts[1]], [], receipt_place),
            Case(
                f"{attack}: the head saved at the change",
                forged,
                [],
                [at_change],
                f"head head-{index + 1}.json: its root is not the root of the final log's first "
                f"{index + 1} leaves: a leaf it covers (leaves 0 to {index}) was changed, "
                "dropped or moved afterwards",
            ),
            Case(
                f"{attack}: the last head",
                forged,
                [],
                [heads[-1]],
                f"head head-{len(heads)}.json:",
            ),
        ]
    cases.append(
        Case(
            "amount changed: a later receipt whose own entry is unchanged",
            root / "amount-changed",
            [receipts[2]],
            [],
            "receipt receipt-5.json: its root is not the root of the final log's first 6 "
            "leaves: a leaf it covers (leaves 0 to 5) was changed, dropped or moved "
            "afterwards; the first leaf that differs is leaf 4",
        )
    )
    cases += _malformed(root, honest, saved, receipts, heads)
    from tests.conquest.text_cases import text_cases  # it builds on this module's Case

    return [*cases, *text_cases(root, honest, saved, good)]


def _malformed(
    root: Path, honest: LoggedSeason, saved: Path, receipts: list[Path], heads: list[Path]
) -> list[Case]:
    """Saved files and archives that are wrong in one way each."""
    bad_signature = copy.deepcopy(honest.heads[3])
    bad_signature["signature"] = bad_signature["signature"][:-2] + (
        "00" if not bad_signature["signature"].endswith("00") else "01"
    )
    other_season = {**honest.heads[3], "season": "ab" * 32}
    wrong_entry = copy.deepcopy(honest.receipts[0])
    wrong_entry["entry"]["amount"] = 50
    wrong_proof = copy.deepcopy(honest.receipts[2])
    wrong_proof["inclusion"] = wrong_proof["inclusion"][:-1]

    old = root / "no-log"
    unlogged = copy.deepcopy(honest.record)
    del unlogged["header"][tables.LOG_KEY]
    archive.write_folder(archive.archive_files(unlogged, archive.engine_sources()), old)

    def drop_log(folder: Path) -> None:
        (folder / "log.json").unlink()

    def change_leaf(folder: Path) -> None:
        log = json.loads((folder / "log.json").read_text(encoding="utf-8"))
        log["leaves"][3]["battle"]["number"] = 99
        (folder / "log.json").write_bytes(canonical_json(log) + b"\n")

    def add_refunds(folder: Path) -> None:
        refund = {"event_id": "evt_1", "faction": "ZZ-001", "amount": "50"}
        (folder / "refunds.json").write_bytes(canonical_json([refund]) + b"\n")

    def good_refunds(folder: Path) -> None:
        refund = {
            "event_id": "evt_1",
            "faction": "ZZ-001",
            "amount": 60,
            "before_battle": 2,
            "field": "amount",
            "reason": "above the pool cap",
        }
        (folder / "refunds.json").write_bytes(canonical_json([refund]) + b"\n")

    no_log = _write_changed(root / "log-missing", honest, drop_log)
    leaf = _write_changed(root / "leaf-changed", honest, change_leaf)
    refunds = _write_changed(root / "refunds-malformed", honest, add_refunds)
    refunds_ok = _write_changed(root / "refunds", honest, good_refunds)
    good = root / "honest"
    return [
        Case(
            "a head whose signature was altered",
            good,
            [],
            [_save(saved, "altered.json", bad_signature)],
            "head altered.json: its signature does not verify under header.log_key",
        ),
        Case(
            "a head of another season",
            good,
            [],
            [_save(saved, "other.json", other_season)],
            "head other.json: is a head of another season (its season is not the commitment "
            "of this one)",
        ),
        Case(
            "a receipt whose amount was changed",
            good,
            [_save(saved, "changed.json", wrong_entry)],
            [],
            "receipt changed.json: its inclusion proof does not lead from leaf 1 to its "
            "head's root",
        ),
        Case(
            "a receipt with a cut proof",
            good,
            [_save(saved, "cut.json", wrong_proof)],
            [],
            f"receipt cut.json: its inclusion proof does not lead from leaf "
            f"{wrong_proof['leaf_index']} to its head's root",
        ),
        Case(
            "a receipt that names a key twice",
            good,
            [_write(saved, "twice.json", b'{"format": 1, "format": 2}')],
            [],
            'twice.json: line 1: the key "format" appears twice',
        ),
        Case(
            "an archive without a log, given a receipt",
            old,
            receipts[:1],
            [],
            "receipt receipt-1.json: refused: this season has no log (its header names no "
            "log_key), so no receipt or head can be checked against it",
        ),
        Case("an archive without a log, alone", old),
        Case(
            "a log_key without log.json",
            no_log,
            [],
            [],
            "log.json: missing from the record: the header names a log_key",
        ),
        Case(
            "a battle leaf changed",
            leaf,
            [],
            [],
            "log.json leaf 3: field battle.number: expected 2, found 99",
        ),
        Case(
            "refunds.json malformed",
            refunds,
            [],
            [],
            "refunds.json[0]: field before_battle: missing",
        ),
        Case("refunds.json well formed", refunds_ok, receipts[:1], heads[-1:]),
    ]
