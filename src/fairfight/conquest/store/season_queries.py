"""The reads and writes of a season's tables, each inside a transaction its caller opened.

Kept apart from `store`, which opens, creates and closes a season (the file or the server
database, the seed and season keys): these know only a session, whose `season_of` names the
season. `SeasonStore` inherits them, so callers write `SeasonStore.ledger(session)` as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from fairfight.conquest.store import log, season_events
from fairfight.conquest.store.rows import (
    DAMAGED,
    ContributionKeyRow,
    EngineFileRow,
    HistoryRow,
    LedgerRow,
    RefundRow,
    SeasonRow,
    check_stored_integer,
    ensure_key_table,
    has_table,
    json_text,
    load_column,
    season_of,
    table_of,
)
from fairfight.core.errors import InputError

__all__ = ["SeasonQueries", "Version"]


Version = tuple[int, int, bool, bool]
"""(battles fought, last ledger seq, beacon recorded, seed revealed): changes on every write."""


def _entry_of(row: HistoryRow) -> dict[str, Any]:
    entry = load_column(f"history.entry (battle {row.number})", row.entry)
    if not isinstance(entry, dict) or entry.get("number") != row.number:
        raise InputError(DAMAGED, f"history.entry (battle {row.number}): not that battle's entry")
    return entry


class SeasonQueries:
    """Every read and write of a season's tables, as static methods taking the session of a
    transaction (`SeasonStore.transaction`)."""

    # ------------------------------------------------------------ reads

    @staticmethod
    def season(session: Session) -> SeasonRow:
        """The season row (there is exactly one)."""
        row = session.get(SeasonRow, season_of(session))
        if row is None:
            raise InputError(DAMAGED, "season: the season row is missing")
        return row

    @staticmethod
    def ledger(session: Session, after: int = 0) -> list[LedgerRow]:
        """Every accepted contribution, in seq order; with `after`, those after that seq."""
        query = select(LedgerRow).where(LedgerRow.season_id == season_of(session),
                                        LedgerRow.seq > after)
        return list(session.scalars(query.order_by(LedgerRow.seq)))

    @staticmethod
    def ledger_for(session: Session, battle: int) -> list[LedgerRow]:
        """The contributions dated to one battle, in seq order."""
        query = select(LedgerRow).where(
            LedgerRow.season_id == season_of(session), LedgerRow.before_battle == battle
        )
        return list(session.scalars(query.order_by(LedgerRow.seq)))

    @staticmethod
    def ledger_due(session: Session, battle: int, faction: str) -> list[dict[str, Any]]:
        """One faction's contributions dated to one battle, as public entries in seq order."""
        query = select(LedgerRow).where(
            LedgerRow.season_id == season_of(session),
            LedgerRow.before_battle == battle,
            LedgerRow.faction == faction,
        )
        return [row.public() for row in session.scalars(query.order_by(LedgerRow.seq))]

    @staticmethod
    def ledger_due_by_faction(session: Session, battle: int,
                              factions: Iterable[str]) -> dict[str, list[dict[str, Any]]]:
        """`ledger_due` of several factions in one query (a batch of contributions reads its
        factions' entries at once, while it holds the season's write lock): every faction
        asked is a key, with no entries when it has none."""
        asked = sorted(set(factions))
        due: dict[str, list[dict[str, Any]]] = {faction: [] for faction in asked}
        if not asked:
            return due
        # Plain columns, not rows as objects: the batch only reads them (`LedgerRow.public`).
        query = select(LedgerRow.seq, LedgerRow.before_battle, LedgerRow.faction,
                       LedgerRow.amount).where(
            LedgerRow.season_id == season_of(session),
            LedgerRow.before_battle == battle,
            LedgerRow.faction.in_(asked),
        )
        for seq, before_battle, faction, amount in session.execute(query.order_by(LedgerRow.seq)):
            due[faction].append({"seq": seq, "before_battle": before_battle, "faction": faction,
                                 "amount": amount})
        return due

    @staticmethod
    def last_seq(session: Session) -> int:
        """The last ledger seq (0 before the first contribution)."""
        query = select(func.max(LedgerRow.seq)).where(LedgerRow.season_id == season_of(session))
        return int(session.scalar(query) or 0)

    @staticmethod
    def board(session: Session) -> dict[str, Any]:
        """The current board as stored (callers that need it checked use `integrity`)."""
        board: dict[str, Any] = load_column("season.board", SeasonQueries.board_text(session))
        return board

    @staticmethod
    def board_text(session: Session) -> str:
        """The current board's stored JSON text."""
        query = select(SeasonRow.board).where(SeasonRow.id == season_of(session))
        text = session.scalars(query).first()
        if text is None:
            raise InputError(DAMAGED, "season: the season row is missing")
        return text

    @staticmethod
    def claimed_keys(session: Session, keys: list[str]) -> dict[str, ContributionKeyRow]:
        """The season's claimed idempotency keys among `keys` (the key table made if missing)."""
        ensure_key_table(session.connection())  # files made before the key table
        query = select(ContributionKeyRow).where(
            ContributionKeyRow.season_id == season_of(session), ContributionKeyRow.key.in_(keys)
        )
        return {row.key: row for row in session.scalars(query)}

    @staticmethod
    def refunds_for(session: Session, event_ids: list[str]) -> dict[str, RefundRow]:
        """The season's refunds owed among these payment events (the table made if missing)."""
        ensure_key_table(session.connection())
        query = select(RefundRow).where(
            RefundRow.season_id == season_of(session), RefundRow.event_id.in_(event_ids))
        return {row.event_id: row for row in session.scalars(query)}

    @staticmethod
    def refunds_owed(session: Session) -> list[RefundRow]:
        """Every refund owed in the season, by battle then event id (none before the table)."""
        if not has_table(session.connection(), RefundRow.__tablename__):
            return []
        query = select(RefundRow).where(RefundRow.season_id == season_of(session))
        return list(session.scalars(query.order_by(RefundRow.before_battle, RefundRow.event_id)))

    @staticmethod
    def version(session: Session) -> Version:
        """A cheap probe of the season's state: one row count, one max, two null checks, in
        one statement (every season page asks it after each change, and three statements
        cost about three times one on the service's path)."""
        season_id = season_of(session)
        battles = select(func.count()).select_from(HistoryRow).where(
            HistoryRow.season_id == season_id).scalar_subquery()
        last_seq = select(func.max(LedgerRow.seq)).where(
            LedgerRow.season_id == season_id).scalar_subquery()
        row = session.execute(
            select(battles, last_seq, SeasonRow.beacon.is_not(None),
                   SeasonRow.revealed_seed.is_not(None)).where(SeasonRow.id == season_id)
        ).first()
        if row is None:  # no season row: what the separate reads answered
            return int(session.scalar(select(battles)) or 0), \
                int(session.scalar(select(last_seq)) or 0), False, False
        return int(row[0] or 0), int(row[1] or 0), bool(row[2]), bool(row[3])

    @staticmethod
    def history_count(session: Session) -> int:
        """How many history entries are stored."""
        query = select(func.count()).select_from(HistoryRow)
        return int(session.scalar(query.where(HistoryRow.season_id == season_of(session))) or 0)

    @staticmethod
    def history(session: Session) -> list[dict[str, Any]]:
        """Every history entry, in battle order."""
        query = select(HistoryRow).where(HistoryRow.season_id == season_of(session))
        rows = session.scalars(query.order_by(HistoryRow.number))
        return [_entry_of(row) for row in rows]

    @staticmethod
    def history_entry(session: Session, number: int) -> dict[str, Any] | None:
        """One history entry, or None when that battle has not been fought."""
        row = session.get(
            HistoryRow, (season_of(session), check_stored_integer("battle", number))
        )
        return None if row is None else _entry_of(row)

    @staticmethod
    def engine_files(session: Session) -> dict[str, bytes]:
        """The verifier files stored when the season was created, by name."""
        query = select(EngineFileRow).where(EngineFileRow.season_id == season_of(session))
        rows = session.scalars(query.order_by(EngineFileRow.name))
        return {row.name: row.content for row in rows}

    # ------------------------------------------------------------ writes

    @staticmethod
    def add_contributions(session: Session, entries: Sequence[dict[str, Any]]) -> None:
        """Record accepted contributions (entries as `check_contribution` made them) in one
        multi-row INSERT: a batch's rows are plain values, so no ORM object is built for each
        and nothing is tracked for a flush."""
        if entries:
            season_id = season_of(session)
            session.execute(insert(table_of(LedgerRow)), [{"season_id": season_id, **entry}
                                                for entry in entries])

    @staticmethod
    def claim_keys(session: Session, claimed: Sequence[dict[str, Any]]) -> None:
        """Record claimed idempotency keys with their whole answers (`ContributionKeyRow`'s
        columns), in the ledger entries' transaction, in one multi-row INSERT."""
        if claimed:
            session.execute(insert(table_of(ContributionKeyRow)), list(claimed))

    @staticmethod
    def add_refund(session: Session, refund: RefundRow) -> None:
        """Record a paid contribution the rules refused, in the transaction that refused it."""
        session.add(refund)

    @staticmethod
    def add_battle(session: Session, entry: dict[str, Any], board: dict[str, Any]) -> None:
        """Record a fought entry and the board after it, in the same transaction."""
        session.add(
            HistoryRow(season_id=season_of(session), number=entry["number"], entry=json_text(entry))
        )
        SeasonQueries.season(session).board = json_text(board)
        season_events.announce(session, season_events.EventKind.BATTLE,
                               {"number": entry["number"], "ended": bool(board["ended"])})
        log.append(session, [log.battle_leaf(entry)])

    @staticmethod
    def set_beacon(session: Session, beacon: dict[str, Any]) -> None:
        """Record the beacon round's public value (and append it to the log)."""
        SeasonQueries.season(session).beacon = json_text(beacon)
        log.append(session, [log.beacon_leaf(beacon)])

    @staticmethod
    def set_revealed(session: Session, seed: str) -> None:
        """Publish the seed (only after the season has ended); the log's last leaf."""
        SeasonQueries.season(session).revealed_seed = seed
        log.append(session, [log.reveal_leaf(seed)])
