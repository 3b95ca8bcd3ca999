"""A summary read with an earlier one (`summary_in(session, before)`) takes the earlier
ledger entries from it while the same battles were fought, reads only the later ones, and
reads the whole ledger again once a battle was fought."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from fairfight.conquest.store import season
from fairfight.conquest.store.season_summary import SeasonSummary, summary_in
from tests.conquest.helpers import SEED, star_map


def _read(path: Path, before: SeasonSummary | None = None) -> SeasonSummary:
    store = season.open_store(path)
    try:
        with store.transaction() as session:
            return summary_in(session, before)
    finally:
        store.close()


def _entries(summary: SeasonSummary) -> list[tuple[int, str, int]]:
    return [(entry["seq"], entry["faction"], entry["amount"]) for entry in summary.ledger]


def test_later_entries_are_read_after_the_lent_ones_until_a_battle(tmp_path: Path) -> None:
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    season.contribute(path, "AB", 10)
    list(season.fight(path, 1))
    earlier = _read(path)
    season.contribute(path, "AC", 5)
    season.contribute(path, "AB", 5)

    later = _read(path, earlier)
    assert _entries(later) == [(1, "AB", 10), (2, "AC", 5), (3, "AB", 5)]  # as contributed
    assert later == _read(path)  # the same as a summary read whole

    # The lent entries are taken as they are, not read again: a marked copy shows through.
    marked = {**earlier.ledger[0], "amount": 999}
    lent = _read(path, dataclasses.replace(earlier, ledger=[marked]))
    assert _entries(lent) == [(1, "AB", 999), (2, "AC", 5), (3, "AB", 5)]

    list(season.fight(path, 1))  # a battle: the whole ledger is read again
    after_battle = _read(path, dataclasses.replace(later, ledger=[marked]))
    assert _entries(after_battle) == [(1, "AB", 10), (2, "AC", 5), (3, "AB", 5)]
    assert after_battle == _read(path)


def test_the_header_and_board_are_taken_while_their_stored_texts_stay(tmp_path: Path) -> None:
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    list(season.fight(path, 1))
    earlier = _read(path)
    marked_board = {**earlier.board, "marked": True}
    marked_header = {**earlier.header, "marked": True}
    lending = dataclasses.replace(earlier, board=marked_board, header=marked_header)

    season.contribute(path, "AB", 5)  # a contribution stores neither a header nor a board
    later = _read(path, lending)
    assert later.board is marked_board and later.header is marked_header
    assert _entries(later) == [(1, "AB", 5)]

    list(season.fight(path, 1))  # a battle stores a new board: it is read and checked again
    after_battle = _read(path, lending)
    assert "marked" not in after_battle.board and after_battle.header is marked_header
    assert dataclasses.replace(after_battle, header=earlier.header) == _read(path)
    unlent = dataclasses.replace(lending, stored_texts=("", ""))
    assert "marked" not in _read(path, unlent).header  # other texts: checked again
