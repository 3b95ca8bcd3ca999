"""Group commit: many contributions in one transaction, each judged alone, answered after it."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from fairfight.conquest.rules import tables
from fairfight.conquest.store import season
from fairfight.conquest.store.ledger import KeyAlreadyUsed, LedgerRequest, Recorded
from fairfight.core.errors import RuleError
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.contributions import InFlight, Requested, record_contribution
from fairfight.web.conquest.database import SeasonDatabase
from fairfight.web.conquest.models import ContributionRequest
from fairfight.web.conquest.writer import ContributionWriter, record_batch

PATH = "/api/seasons/1/contributions"


def _pending(key: str, faction: str, amount: int) -> LedgerRequest:
    body = {"faction": faction, "amount": amount}
    return LedgerRequest(faction, amount,
                         Requested(key, "POST", PATH, json.dumps(body).encode()).claim())


def _open_pools(path: Path) -> list[str]:
    """Factions whose pool is open, empty, and has nothing dated to the next battle yet."""
    summary = season.summary(path)
    due = summary.board["next_battle"]
    pending = {e["faction"] for e in summary.ledger if e["before_battle"] == due}
    return [code for code, f in sorted(summary.board["factions"].items())
            if f["standing"] and f["pool_state"] == "open" and f["pool"] == 0
            and code not in pending]


@pytest.fixture
def catalog(season_file: Path) -> Iterator[SeasonCatalog]:
    opened = SeasonCatalog(SeasonDatabase(f"sqlite:///{season_file}"))
    yield opened
    opened.close()


def test_a_refusal_in_a_batch_leaves_the_others_recorded(
    catalog: SeasonCatalog, season_file: Path
) -> None:
    first, second = _open_pools(season_file)[:2]
    before = season.summary(season_file).ledger
    steps_to_cap = tables.POOL_CAP // tables.POOL_STEP
    batch = [
        _pending("a", first, tables.POOL_CAP - tables.POOL_STEP),
        _pending("unknown", "NO-SUCH-FACTION", 5),
        _pending("over-cap", first, 2 * tables.POOL_STEP),  # would pass the cap after "a"
        _pending("b", second, tables.POOL_STEP),
        _pending("a", first, tables.POOL_CAP - tables.POOL_STEP),  # the same request again
        _pending("b", second, 2 * tables.POOL_STEP),  # the same key, another body
        _pending("fills", first, tables.POOL_STEP),  # exactly to the cap: still accepted
    ]
    assert steps_to_cap > 2
    outcomes = record_batch(catalog, 1, batch)
    accepted = [o for o in outcomes if isinstance(o, Recorded)]
    refused = [o for o in outcomes if not isinstance(o, Recorded)]
    assert all(isinstance(o, RuleError) for o in refused)
    assert [isinstance(o, KeyAlreadyUsed) for o in refused] == [False, False, True]
    assert isinstance(outcomes[1], RuleError) and outcomes[1].field == "faction"
    assert isinstance(outcomes[2], RuleError) and outcomes[2].field == "amount"
    assert isinstance(outcomes[5], KeyAlreadyUsed)
    original, repeat = outcomes[0], outcomes[4]
    assert isinstance(original, Recorded) and isinstance(repeat, Recorded)
    assert repeat.repeated and not original.repeated
    assert repeat.answer() == original.answer()  # the repeat gets the first answer, recorded once
    seqs = [recorded.entry["seq"] for recorded in accepted]
    last = max(e["seq"] for e in before)
    assert seqs == [last + 1, last + 2, last + 1, last + 3]
    assert [recorded.pool for recorded in accepted] == [
        tables.POOL_CAP - tables.POOL_STEP, tables.POOL_STEP, tables.POOL_CAP - tables.POOL_STEP,
        tables.POOL_CAP]
    ledger = season.summary(season_file).ledger
    assert ledger[:len(before)] == before
    assert [(e["seq"], e["faction"], e["amount"]) for e in ledger[len(before):]] == [
        (last + 1, first, tables.POOL_CAP - tables.POOL_STEP),
        (last + 2, second, tables.POOL_STEP),
        (last + 3, first, tables.POOL_STEP),
    ]
    with sqlite3.connect(season_file) as connection:
        keys = dict(connection.execute("SELECT key, ledger_seq FROM contribution_key"))
    assert keys == {"a": last + 1, "b": last + 2, "fills": last + 3}


def test_the_answer_waits_for_the_commit_that_holds_the_row(
    catalog: SeasonCatalog, season_file: Path
) -> None:
    code = _open_pools(season_file)[0]
    writer = ContributionWriter(catalog)
    seen_at_answer: list[tuple[str, int] | None] = []

    def committed_when_answered(_: object) -> None:
        with sqlite3.connect(season_file, timeout=30) as reader:
            seen_at_answer.append(reader.execute(
                "SELECT faction, amount FROM ledger l JOIN contribution_key k "
                "ON k.ledger_seq = l.seq WHERE k.key = 'held'").fetchone())

    other_program = sqlite3.connect(season_file, isolation_level=None)
    other_program.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        future = writer.submit(1, _pending("held", code, 15))
        future.add_done_callback(committed_when_answered)
        waited = threading.Event()
        assert not waited.wait(0.3)
        assert not future.done()  # nothing answered while the commit cannot happen
    finally:
        other_program.execute("ROLLBACK")
        other_program.close()
    recorded = future.result()
    writer.close()
    assert (recorded.entry["faction"], recorded.entry["amount"]) == (code, 15)
    assert seen_at_answer == [(code, 15)]


def test_concurrent_callers_share_commits_and_each_gets_its_own_answer(
    catalog: SeasonCatalog, season_file: Path
) -> None:
    codes = _open_pools(season_file)[:4]
    writer = ContributionWriter(catalog)
    in_flight = InFlight()
    answers: dict[str, tuple[int, dict[str, object]]] = {}
    jobs = [(f"c-{code}-{i}", code) for code in codes for i in range(6)]

    def post(key: str, code: str) -> None:
        body = {"faction": code, "amount": 5}
        answers[key] = record_contribution(
            writer, in_flight, 1, ContributionRequest(faction=code, amount=5),
            Requested(key, "POST", PATH, json.dumps(body).encode()))

    threads = [threading.Thread(target=post, args=job) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    writer.close()
    assert all(status == 201 for status, _ in answers.values())
    assert len({payload["seq"] for _, payload in answers.values()}) == len(jobs)
    for code in codes:
        pools = sorted(int(str(p["pool"])) for _, p in answers.values() if p["faction"] == code)
        assert pools == [5 * n for n in range(1, 7)]  # each saw the rows committed before it
    ledger = season.summary(season_file).ledger
    for key, (_, payload) in answers.items():
        entry = next(e for e in ledger if e["seq"] == payload["seq"])
        assert (entry["faction"], entry["amount"]) == (payload["faction"], 5), key


def test_a_closed_writer_takes_no_more(catalog: SeasonCatalog, season_file: Path) -> None:
    writer = ContributionWriter(catalog)
    writer.close()
    with pytest.raises(RuntimeError):
        writer.submit(1, _pending("late", _open_pools(season_file)[0], 5))


def test_what_arrives_while_the_lock_is_awaited_joins_that_transaction(
    catalog: SeasonCatalog, season_file: Path
) -> None:
    """Another process holds the write lock while one contribution waits for it and four more
    arrive: when the lock comes free all five go in the one transaction that waited (one
    signed head, one ledger event), in arrival order, instead of one now and four later."""
    codes = _open_pools(season_file)[:5]
    writer = ContributionWriter(catalog)
    with sqlite3.connect(season_file) as reader:
        heads_before = reader.execute("SELECT count(*) FROM log_head").fetchone()[0]
        events_before = reader.execute(
            "SELECT count(*) FROM season_event WHERE kind = 'ledger'").fetchone()[0]
    other_program = sqlite3.connect(season_file, isolation_level=None)
    other_program.execute("BEGIN IMMEDIATE")
    try:
        futures = [writer.submit(1, _pending("waits", codes[0], 5))]
        assert not threading.Event().wait(0.3)  # the writer is in BEGIN IMMEDIATE by now
        futures += [writer.submit(1, _pending(f"late-{code}", code, 5)) for code in codes[1:]]
        assert not any(future.done() for future in futures)
    finally:
        other_program.execute("ROLLBACK")
        other_program.close()
    recorded = [future.result() for future in futures]
    writer.close()
    assert [r.entry["faction"] for r in recorded] == codes
    seqs = [r.entry["seq"] for r in recorded]
    assert seqs == list(range(seqs[0], seqs[0] + 5))
    with sqlite3.connect(season_file) as reader:
        assert reader.execute("SELECT count(*) FROM log_head").fetchone()[0] == heads_before + 1
        assert reader.execute("SELECT count(*) FROM season_event WHERE kind = 'ledger'"
                              ).fetchone()[0] == events_before + 1
