"""A batch of contributions reads its factions' entries for the next battle in one query."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event

from fairfight.conquest.store import ledger, season
from fairfight.conquest.store.season_store import SeasonStore
from fairfight.core.errors import RuleError
from tests.conquest.helpers import SEED, star_map


@pytest.fixture
def started(tmp_path: Path) -> Path:
    """A star-map season with $45 already in AB's pool for the first battle."""
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    season.contribute(path, "AB", 45)
    return path


def test_a_batch_over_three_factions_reads_the_ledger_once_and_keeps_each_pool_rule(
    started: Path,
) -> None:
    store = SeasonStore.open(started, write=True)
    ledger_reads: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT") and "FROM ledger" in statement:
            ledger_reads.append(statement)

    event.listen(store._engine, "before_cursor_execute", seen)
    try:
        with store.transaction() as session:
            outcomes = ledger.record_contributions(session, [
                ledger.LedgerRequest("AB", 5), ledger.LedgerRequest("AB", 5),
                ledger.LedgerRequest("AC", 10), ledger.LedgerRequest("AD", 5),
                ledger.LedgerRequest("AC", 5)])
    finally:
        store.close()
    # The entries due and the last seq: two reads of the ledger, whatever the factions.
    assert len([s for s in ledger_reads if "before_battle" in s]) == 1, ledger_reads
    # By hand: AB holds $45 of its $50 cap, so its first $5 fills it and its second is refused;
    # AC gets $10 then $5 more (pool 15), AD $5; seqs follow the one entry before (seq 1).
    first, second, *rest = outcomes
    assert isinstance(first, ledger.Recorded) and (first.pool, first.entry["seq"]) == (50, 2)
    assert isinstance(second, RuleError)
    assert [(o.entry["faction"], o.pool, o.entry["seq"]) for o in rest
            if isinstance(o, ledger.Recorded)] == [("AC", 10, 3), ("AD", 5, 4), ("AC", 15, 5)]


def test_batches_write_their_rows_in_one_insert_each_and_leave_the_kept_board_alone(
    started: Path,
) -> None:
    """Entries and keys go in one multi-row INSERT per batch (two batches: two of each), a
    key's row is written once with its whole answer (never inserted, then updated), and the
    board a batch reads, parsed once and shared between batches, is never changed."""
    store = SeasonStore.open(started, write=True)
    writes: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        words = statement.split()
        if words[0].upper() == "INSERT":
            writes.append(words[2])
        elif words[0].upper() == "UPDATE":
            writes.append(f"UPDATE {words[1]}")

    event.listen(store._engine, "before_cursor_execute", seen)
    try:
        for batch in range(2):
            with store.transaction() as session:
                text = SeasonStore.board_text(session)
                outcomes = ledger.record_contributions(session, [
                    ledger.LedgerRequest(code, 5, ledger.command_line_claim(
                        f"k{batch}-{n}", 1, code, 5))
                    for n, code in enumerate(["AC", "AD", "AC"])])
                assert all(isinstance(o, ledger.Recorded) for o in outcomes)
                assert ledger._board_of(text) == json.loads(text)
    finally:
        store.close()
    assert writes.count("ledger") == 2 and writes.count("contribution_key") == 2, writes
    assert not [w for w in writes if w.startswith("UPDATE")], writes
