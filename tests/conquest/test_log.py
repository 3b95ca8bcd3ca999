"""The season log as the service keeps it: the key, the leaves, the signed heads, the receipts.

Every check here uses the standard-library verifiers (`core.merkle`, `core.ed25519`), never the
code that wrote the log, so a head or a proof the service got wrong fails.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from fairfight.conquest.cli.season_cli import app
from fairfight.conquest.record import archive
from fairfight.conquest.rules import tables
from fairfight.conquest.store import log, publication, season, season_keys
from fairfight.conquest.store.rows import LogHeadRow
from fairfight.conquest.store.season_store import SeasonStore
from fairfight.core import ed25519, merkle
from fairfight.core.records import canonical_json
from tests.conquest.helpers import SEED, star_map
from tests.web.conquest_support import store_unchecked_beacon

RANDOMNESS = "ab" * 32


def _leaves_and_heads(path: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    store = season.open_store(path)
    try:
        with store.transaction() as session:
            return log.leaves(session), log.heads(session)
    finally:
        store.close()


def head_is_signed(head: dict[str, Any], key: str) -> bool:
    """The head's signature checks under `key` (hex), over the bytes the contract names."""
    message = b"fairfight season head v1\n" + canonical_json(
        {name: head[name] for name in ("season", "size", "root", "time")})
    return ed25519.verify(bytes.fromhex(key), message, bytes.fromhex(head["signature"]))


def receipt_is_included(receipt: dict[str, Any]) -> bool:
    """The receipt's inclusion proof leads from its entry's leaf to its head's root."""
    leaf = canonical_json({"kind": "contribution", "entry": receipt["entry"]})
    return merkle.verify_inclusion(
        merkle.leaf_hash(leaf), receipt["leaf_index"], receipt["head"]["size"],
        merkle.hashes_from_hex(receipt["inclusion"]), bytes.fromhex(receipt["head"]["root"]))


@pytest.fixture
def beacon_season(tmp_path: Path) -> Path:
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED, beacon_round=10**9)
    return path


def test_the_key_file_is_the_owners_alone_and_the_header_carries_its_public_key(
        tmp_path: Path) -> None:
    path = tmp_path / "season.db"
    created = season.create_season(path, star_map(), "star", seed=SEED)
    key_file = season_keys.key_file_for(path)
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    private = key_file.read_text(encoding="ascii").strip()
    assert created.header[tables.LOG_KEY] == season_keys.public_key_hex(private)
    assert ed25519.valid_public_key(bytes.fromhex(created.header[tables.LOG_KEY]))
    other = tmp_path / "other.db"
    assert season.create_season(other, star_map(), "star", seed=SEED).header[tables.LOG_KEY] \
        != created.header[tables.LOG_KEY]  # a key of its own, even from the same seed


def test_a_key_readable_by_others_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    os.chmod(season_keys.key_file_for(path), 0o644)
    with pytest.raises(Exception, match="readable by other users"):
        season.contribute(path, "AB", 5)


def test_leaves_are_appended_in_order_with_a_signed_head_after_each_append(
        beacon_season: Path) -> None:
    path = beacon_season
    season.contribute(path, "AB", 10)
    store_unchecked_beacon(path, RANDOMNESS)
    season.contribute(path, "AC", 5)
    list(season.fight(path, 2))
    season.contribute(path, "AD", 5)
    list(season.fight(path, None))
    season.reveal(path)
    season.reveal(path)  # revealed once: no second reveal leaf
    leaves, heads = _leaves_and_heads(path)
    summary = season.summary(path)
    battles = summary.battles
    kinds = [leaf["kind"] for leaf in leaves]
    assert kinds == (["header", "contribution", "beacon", "contribution", "battle", "battle",
                      "contribution"] + ["battle"] * (battles - 2) + ["reveal"])
    assert leaves[0]["header"] == summary.header
    assert [leaf["entry"] for leaf in leaves if leaf["kind"] == "contribution"] == summary.ledger
    assert [leaf["battle"] for leaf in leaves if leaf["kind"] == "battle"] == \
        season_history(path)
    assert leaves[2]["beacon"] == summary.beacon and leaves[-1]["seed"] == SEED
    assert [head["size"] for head in heads] == list(range(1, len(leaves) + 1))
    key = summary.header[tables.LOG_KEY]
    tree = merkle.MerkleTree.of_leaves(canonical_json(leaf) for leaf in leaves)
    for head in heads:
        assert head["season"] == summary.commitment
        assert head_is_signed(head, key)
        assert head["root"] == tree.root(head["size"]).hex()
    assert not head_is_signed({**heads[-1], "size": heads[-1]["size"] + 1}, key)


def season_history(path: Path) -> list[dict[str, Any]]:
    store = season.open_store(path)
    try:
        with store.transaction() as session:
            return SeasonStore.history(session)
    finally:
        store.close()


def test_every_receipt_proves_its_entry_and_a_replayed_key_gets_the_same_one(
        tmp_path: Path) -> None:
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    receipts = [season.contribute(path, code, 5, key=f"k{code}").receipt
                for code in ("AB", "AC", "AD", "AE", "AB")]
    list(season.fight(path, 1))
    receipts.append(season.contribute(path, "AC", 10, key="late").receipt)
    assert all(receipt is not None for receipt in receipts)
    for receipt in receipts:
        assert receipt is not None and receipt["format"] == "fairfight-conquest-receipt-1"
        assert receipt_is_included(receipt)
        assert receipt["head"]["size"] == receipt["leaf_index"] + 1  # its append's head
    again = season.contribute(path, "AB", 5, key="kAB")
    assert again.repeated and again.receipt == receipts[0]
    forged = {**receipts[1], "entry": {**receipts[1]["entry"], "amount": 50}}
    assert not receipt_is_included(forged)


def test_the_command_line_writes_the_receipt_and_the_latest_head(tmp_path: Path) -> None:
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    runner = CliRunner()
    result = runner.invoke(app, ["contribute", str(path), "AB", "10", "--receipt",
                                 str(tmp_path / "receipt.json")])
    assert result.exit_code == 0, result.output
    receipt = json.loads((tmp_path / "receipt.json").read_text())
    assert receipt["entry"] == {"seq": 1, "before_battle": 1, "faction": "AB", "amount": 10}
    assert receipt_is_included(receipt)
    shown = runner.invoke(app, ["head", str(path), "--out", str(tmp_path / "head.json")])
    assert shown.exit_code == 0, shown.output
    saved = json.loads((tmp_path / "head.json").read_text())
    assert json.loads(shown.output) == saved == receipt["head"]


def test_a_season_made_before_the_log_keeps_working_without_one(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    made = season.create_season(path, star_map(), "star", seed=SEED)
    header = {k: v for k, v in made.header.items() if k != tables.LOG_KEY}
    old = tmp_path / "older.db"
    SeasonStore.create(old, header, made.commitment, made.map_data, made.board, SEED,
                       engine_files=archive.engine_sources()).close()
    assert not season_keys.key_file_for(old).exists()
    recorded = season.contribute(old, "AB", 10)
    assert recorded.receipt is None
    list(season.fight(old, None))
    season.reveal(old)
    assert _leaves_and_heads(old) == ([], []) and season.latest_head(old) is None
    result = CliRunner().invoke(app, ["head", str(old)])
    assert result.exit_code == 2 and "no log" in result.output


def test_writers_in_two_processes_never_fork_the_log(tmp_path: Path) -> None:
    """This process keeps the tree between appends; another process's appends (and a rolled
    back one of ours) must be noticed, so every size is signed once, over the stored leaves."""
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    env = {**os.environ, "PYTHONPATH": "src"}
    for code in ("AB", "AC", "AD"):
        season.contribute(path, code, 5)
        done = subprocess.run([sys.executable, "-m", "fairfight", "conquest", "contribute",
                               str(path), code, "5"], env=env, capture_output=True, text=True,
                              check=False)
        assert done.returncode == 0, done.stderr
    store = season.open_store(path, write=True)
    try:
        with pytest.raises(RuntimeError), store.transaction() as session:
            log.append(session, [log.reveal_leaf("00" * 32)])
            raise RuntimeError("rolled back after the append")
    finally:
        store.close()
    receipt = season.contribute(path, "AE", 5).receipt
    assert receipt is not None and receipt_is_included(receipt)
    leaves, heads = _leaves_and_heads(path)
    assert [leaf["kind"] for leaf in leaves] == ["header"] + ["contribution"] * 7
    assert [head["size"] for head in heads] == list(range(1, 9))
    tree = merkle.MerkleTree.of_leaves(canonical_json(leaf) for leaf in leaves)
    key = season.summary(path).header[tables.LOG_KEY]
    assert all(head_is_signed(h, key) and h["root"] == tree.root(h["size"]).hex() for h in heads)


def test_a_head_not_over_the_stored_leaves_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    store = season.open_store(path, write=True)
    try:
        with store.transaction() as session:
            head = session.get(LogHeadRow, (1, 1))
            assert head is not None
            head.root = "00" * 32
    finally:
        store.close()
    with pytest.raises(Exception, match="not the stored leaves' tree"):
        season.contribute(path, "AB", 5)


def test_the_archive_log_holds_the_record_and_the_refunds(
        beacon_season: Path, tmp_path: Path) -> None:
    """log.json's leaves are exactly the archive's header, ledger, beacon, history and reveal.

    The two files are written under the record roles `log` and `refunds` that
    `tables.LOG_RECORD_FILES` names (the verifiers read the same table)."""
    path = beacon_season
    season.contribute(path, "AB", 10)
    store_unchecked_beacon(path, RANDOMNESS)
    list(season.fight(path, 1))
    season.contribute(path, "AC", 5)
    list(season.fight(path, None))
    season.reveal(path)
    files = publication.archive_files_of(path)
    record = json.loads(files["log.json"])
    leaves, final = record["leaves"], record["head"]

    def lines(name: str) -> list[Any]:
        return [json.loads(line) for line in files[name].splitlines()]

    assert leaves[0] == {"kind": "header", "header": json.loads(files["header.json"])}
    assert [x["entry"] for x in leaves if x["kind"] == "contribution"] == lines("ledger.jsonl")
    assert [x["battle"] for x in leaves if x["kind"] == "battle"] == lines("history.jsonl")
    assert [x["beacon"] for x in leaves if x["kind"] == "beacon"] == [
        json.loads(files["beacon.json"])]
    assert leaves[-1] == {"kind": "reveal", "seed": files["seed.txt"].decode().strip()}
    assert final["size"] == len(leaves) and final == season.latest_head(path)
    assert final["root"] == merkle.tree_hash(canonical_json(x) for x in leaves).hex()
    assert json.loads(files["refunds.json"]) == []
    assert files["log.json"] == canonical_json(record) + b"\n"
