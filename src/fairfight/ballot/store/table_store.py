"""BallotStore: every read and write of a table, each write one transaction checking the revision.

The queries of the ballot store (its tables are in `schema`, what a row reads as in `rows`, how
the database is opened in `connection`): creating and joining a table, playing it step by step,
the seats' clocks and the lobby.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import func, insert, or_, select, update
from sqlalchemy.engine import Connection, Engine

from fairfight import __version__
from fairfight.ballot.bots import make_bots
from fairfight.ballot.record import HUMAN_NAME, RECORD_FORMAT, RECORD_VERSION
from fairfight.ballot.session import STAND_IN, TableGame, new_table_game
from fairfight.ballot.state import Decision, Phase, decision_from_data, to_data
from fairfight.ballot.store.connection import close_engine, open_engine
from fairfight.ballot.store.kept_games import KeptGames
from fairfight.ballot.store.reads import (
    HOST_DIGEST,
    SEAT_DIGEST,
    TABLE_ROW,
    TABLE_SEATS,
    TABLE_STAMP,
)
from fairfight.ballot.store.rows import TableRow, TableStatus, table_row
from fairfight.ballot.store.schema import METADATA, SEATS, TABLES
from fairfight.ballot.tables import BallotConfig
from fairfight.ballot.validation import check_decision
from fairfight.core.draws import new_seed
from fairfight.core.errors import InputError
from fairfight.core.tokens import derived_token, token_digest, token_matches

__all__ = [
    "ALREADY_ANSWERED",
    "BallotStore",
    "Clock",
    "OPEN_TABLES_PER_CLIENT",
    "RULES_VERSION",
    "StaleAnswer",
    "UNSTARTED_TABLE_SECONDS",
    "WRITE_ATTEMPTS",
    "invite_token",
]

OPEN_TABLES_PER_CLIENT = 8
"""Tables not yet over that one client address may have created."""
UNSTARTED_TABLE_SECONDS = 86400
"""A table that has not started after this long no longer counts against its creator's cap."""
ALREADY_ANSWERED = "this question was already answered"
RULES_VERSION = f"{RECORD_FORMAT}/{RECORD_VERSION} fairfight {__version__}"
"""Stored with each game; the check itself is the replay against the stored digests."""
WRITE_ATTEMPTS = 8

Clock = Callable[[], float]


def invite_token(host_token: str, table_id: str, seat: int) -> str:
    """A seat's invite token, derived from the host's: the host's page can show the links
    again, and the store keeps only their digests (a stolen database still opens no seat)."""
    return derived_token(host_token, f"fairfight ballot table {table_id} seat {seat}")


class StaleAnswer(InputError):
    """An answer to a question that is no longer open (or was already answered by this seat)."""

    def __init__(self) -> None:
        super().__init__("version", ALREADY_ANSWERED)


class BallotStore:
    """Tables by id in one database; every write is one transaction checking the revision."""

    def __init__(
        self,
        url: str,
        clock: Clock = time.time,
        notify: Callable[[str, int, int, str], None] | None = None,
    ) -> None:
        self.url = url
        self.engine: Engine = open_engine(url)
        self.clock = clock
        self.notify = notify
        """Called with (table id, seat, version, webhook URL) when a person with a webhook
        is asked a new question."""
        METADATA.create_all(self.engine)
        self.games = KeptGames()
        """The games this process rebuilt or played, each request's own copy taken from it."""

    def close(self) -> None:
        """Release the connections; a SQLite file no one else has open is left in the
        rollback journal (see `fairfight.core.journal`)."""
        close_engine(self.engine, self.url)

    # ---- creating and joining -------------------------------------------------------

    def create(
        self,
        config: BallotConfig,
        kinds: list[str],
        *,
        client: str,
        listed: bool = True,
        clock_bank: int = 0,
        clock_increment: int = 0,
        key: str | None = None,
    ) -> tuple[str, str, dict[int, str]]:
        """A new open table: (its id, the host's token, each human seat's token)."""
        self._refuse_too_many_open(client)
        key = key or new_seed()
        table_id = secrets.token_hex(8)
        host = secrets.token_urlsafe(24)
        people = [seat for seat, kind in enumerate(kinds) if kind == HUMAN_NAME]
        tokens = {seat: invite_token(host, table_id, seat) for seat in people}
        with self.engine.begin() as connection:
            connection.execute(
                insert(TABLES).values(
                    id=table_id,
                    created=self.clock(),
                    client=client[:64],
                    listed=int(listed),
                    status=TableStatus.OPEN,
                    config=config.model_dump_json(),
                    kinds=json.dumps(kinds),
                    game_key=key,
                    commitment=hashlib.sha256(key.encode("ascii")).hexdigest(),
                    rules_version=RULES_VERSION,
                    host_sha256=token_digest(host),
                    clock_bank=clock_bank,
                    clock_increment=clock_increment,
                    version=0,
                    revision=0,
                    steps="[]",
                    digests="[]",
                    pending="{}",
                    asked_at=self.clock(),
                )
            )
            for seat, kind in enumerate(kinds):
                connection.execute(
                    insert(SEATS).values(
                        table_id=table_id,
                        seat=seat,
                        kind=kind,
                        token_sha256=token_digest(tokens[seat]) if seat in tokens else None,
                        joined=int(seat not in tokens),
                        stand_in_from=None,
                        webhook=None,
                        bank=float(clock_bank),
                    )
                )
        return table_id, host, tokens

    def _refuse_too_many_open(self, client: str) -> None:
        """Refuse a new table to a client with the most unfinished tables already (an open
        table stops counting once it has waited too long to start)."""
        with self.engine.connect() as connection:
            open_now = connection.execute(
                select(func.count())
                .select_from(TABLES)
                .where(
                    TABLES.c.client == client,
                    TABLES.c.status != TableStatus.OVER,
                    or_(
                        TABLES.c.status != TableStatus.OPEN,
                        TABLES.c.created > self.clock() - UNSTARTED_TABLE_SECONDS,
                    ),
                )
            ).scalar_one()
        if open_now >= OPEN_TABLES_PER_CLIENT:
            raise InputError(
                "table", f"{OPEN_TABLES_PER_CLIENT} tables of yours are still open: finish one"
            )

    def load(self, table_id: str) -> TableRow | None:
        """The table as stored, or None when there is no such table."""
        with self.engine.connect() as connection:
            return self._read(connection, table_id)

    def _read(self, connection: Connection, table_id: str) -> TableRow | None:
        if not (table_id.isalnum() and len(table_id) <= 32):
            return None
        row = connection.execute(TABLE_ROW, {"table_id": table_id}).first()
        if row is None:
            return None
        seats = connection.execute(TABLE_SEATS, {"table_id": table_id}).all()
        return table_row(row, list(seats))

    def game(self, table: TableRow) -> TableGame | None:
        """The table's game as `table` stands, the caller's own (see `kept_games`)."""
        return self.games.game(table)

    def stamp(self, table_id: str) -> tuple[int, int, bool] | None:
        """(version, revision, whether a turn clock runs) of the table, in one small read: what
        a live stream polls, reading the whole table only when it changed (None: no table)."""
        if not (table_id.isalnum() and len(table_id) <= 32):
            return None
        with self.engine.connect() as connection:
            row = connection.execute(TABLE_STAMP, {"table_id": table_id}).first()
        if row is None:
            return None
        return row.version, row.revision, row.status == TableStatus.PLAYING and row.clock_bank > 0

    def is_seat(self, table_id: str, seat: int, token: str | None) -> bool:
        """True when `token` is the token of that human seat."""
        return self._matches(SEAT_DIGEST, {"table_id": table_id, "seat": seat}, token)

    def is_host(self, table_id: str, token: str | None) -> bool:
        """True when `token` is the table's host token."""
        return self._matches(HOST_DIGEST, {"table_id": table_id}, token)

    def _matches(self, query: Any, parameters: dict[str, Any], token: str | None) -> bool:
        if not token:
            return False
        with self.engine.connect() as connection:
            stored = connection.execute(query, parameters).scalar_one_or_none()
        return stored is not None and token_matches(token, stored)

    def join(self, table_id: str, seat: int) -> TableRow:
        """Mark a seat taken (its link was used); the game starts once every seat is."""
        with self.engine.begin() as connection:
            connection.execute(
                update(SEATS)
                .where(SEATS.c.table_id == table_id, SEATS.c.seat == seat)
                .values(joined=1)
            )
        table = self._must(table_id)
        if table.status == TableStatus.OPEN and all(s.joined for s in table.seats):
            return self.start(table_id, fill_with_bots=False)
        return table

    def start(self, table_id: str, fill_with_bots: bool) -> TableRow:
        """Start the game; with `fill_with_bots`, seats nobody took get the stand-in bot."""
        for _ in range(WRITE_ATTEMPTS):
            table = self._must(table_id)
            if table.status != TableStatus.OPEN:
                return table
            empty = [s.seat for s in table.seats if not s.joined]
            if empty and not fill_with_bots:
                raise InputError("seats", f"seats {empty} are not taken yet")
            kinds = [STAND_IN if s in empty else kind for s, kind in enumerate(table.kinds)]
            game = new_table_game(table.config, table.key, kinds)
            with self.engine.begin() as connection:
                done = connection.execute(
                    update(TABLES)
                    .where(TABLES.c.id == table_id, TABLES.c.revision == table.revision)
                    .values(
                        kinds=json.dumps(kinds),
                        status=_status(game),
                        **self._progress(table, game),
                    )
                ).rowcount
                for seat in empty:
                    connection.execute(
                        update(SEATS)
                        .where(SEATS.c.table_id == table_id, SEATS.c.seat == seat)
                        .values(kind=STAND_IN, token_sha256=None, joined=1)
                    )
            if done:
                self.games.keep(table_id, game)
                self._announce(table_id, game)
                return self._must(table_id)
        raise InputError("table", "the table is busy; try again")

    def _must(self, table_id: str) -> TableRow:
        table = self.load(table_id)
        if table is None:
            raise InputError("table", "no such table")
        return table

    # ---- playing --------------------------------------------------------------------

    def answer(self, table_id: str, seat: int, version: int, decision: Decision) -> TableRow:
        """A person's answer to the question of `version`; the step is played once every
        person asked has answered. A stale or repeated answer is refused."""

        def change(table: TableRow, game: TableGame, pending: dict[str, Any]) -> None:
            if version != table.version or str(seat) in pending:
                raise StaleAnswer()
            if seat not in game.people_asked():
                raise InputError("seat", "nothing is asked of this seat now")
            check_decision(game.state, seat, decision)
            pending[str(seat)] = to_data(decision)

        return self._write(table_id, change, spend={seat})

    def leave(self, table_id: str, seat: int) -> TableRow:
        """The person at `seat` leaves; the stand-in plays the seat to the end."""

        def change(table: TableRow, game: TableGame, pending: dict[str, Any]) -> None:
            if not game.played_by_person(seat):
                raise InputError("seat", "this seat is already played by a bot")
            pending.pop(str(seat), None)
            game.hand_to_stand_in(seat)

        return self._write(table_id, change, leaver=seat)

    def tick(self, table_id: str, table: TableRow | None = None) -> TableRow:
        """Let the stand-in answer for every person whose turn clock has run out (`table`:
        the row just read, if the caller has it)."""
        table = table or self._must(table_id)
        if table.status != TableStatus.PLAYING or table.clock_bank <= 0:
            return table
        waited = self.clock() - table.asked_at
        if not any(
            s.bank < waited and str(s.seat) not in table.pending
            for s in table.seats
            if s.kind == HUMAN_NAME and s.stand_in_from is None
        ):
            return table

        late: set[int] = set()

        def change(current: TableRow, game: TableGame, pending: dict[str, Any]) -> None:
            late.clear()
            waited = self.clock() - current.asked_at
            for row in current.seats:
                asked = row.seat in game.people_asked() and str(row.seat) not in pending
                if asked and row.bank < waited:
                    stand_in = make_bots([STAND_IN])[0]
                    pending[str(row.seat)] = to_data(stand_in.decide(game.state, row.seat))
                    late.add(row.seat)

        return self._write(table_id, change, spend=late)

    def set_webhook(self, table_id: str, seat: int, url: str | None) -> None:
        """Keep (or clear) the seat's webhook URL, already checked by the caller."""
        with self.engine.begin() as connection:
            connection.execute(
                update(SEATS)
                .where(SEATS.c.table_id == table_id, SEATS.c.seat == seat)
                .values(webhook=url)
            )

    def _write(
        self,
        table_id: str,
        change: Callable[[TableRow, TableGame, dict[str, Any]], None],
        spend: set[int] | None = None,
        leaver: int | None = None,
    ) -> TableRow:
        """Apply `change` to a fresh read of the table and store the result, only if nobody
        wrote the row in between (else read again); `spend` names the seats whose turn clock
        the answer charges."""
        for _ in range(WRITE_ATTEMPTS):
            table = self._must(table_id)
            if table.status != TableStatus.PLAYING:
                raise InputError("table", "the game is not being played now")
            game = self.game(table)
            assert game is not None
            pending = dict(table.pending)
            before = game.version()
            change(table, game, pending)
            if all(str(seat) in pending for seat in game.people_asked()):
                game.play({int(s): decision_from_data(d) for s, d in pending.items()})
                pending = {}
            values: dict[str, Any] = {"pending": json.dumps(pending), "status": _status(game)}
            if game.version() != before:
                values |= self._progress(table, game)
            else:
                values["revision"] = table.revision + 1
            with self.engine.begin() as connection:
                done = connection.execute(
                    update(TABLES)
                    .where(TABLES.c.id == table_id, TABLES.c.revision == table.revision)
                    .values(**values)
                ).rowcount
                if not done:
                    continue
                self._spend_clock(connection, table, spend or set())
                if leaver is not None:
                    connection.execute(
                        update(SEATS)
                        .where(SEATS.c.table_id == table_id, SEATS.c.seat == leaver)
                        .values(stand_in_from=game.stand_ins[leaver])
                    )
            if game.version() != before or leaver is not None:
                self.games.keep(table_id, game)
            if game.version() != before:
                self._announce(table_id, game)
            return self._must(table_id)
        raise InputError("table", "the table is busy; try again")

    def _progress(self, table: TableRow, game: TableGame) -> dict[str, Any]:
        return {
            "version": game.version(),
            "revision": table.revision + 1,
            "steps": json.dumps(game.steps),
            "digests": json.dumps(game.digests),
            "pending": "{}",
            "asked_at": self.clock(),
        }

    def _spend_clock(self, connection: Connection, table: TableRow, spenders: set[int]) -> None:
        """Charge the time a person took against their bank, then add the increment."""
        if table.clock_bank <= 0:
            return
        used = self.clock() - table.asked_at
        for row in table.seats:
            if row.seat in spenders:
                left = 0.0 if row.bank < used else row.bank - used
                connection.execute(
                    update(SEATS)
                    .where(SEATS.c.table_id == table.id, SEATS.c.seat == row.seat)
                    .values(bank=left + table.clock_increment)
                )

    def _announce(self, table_id: str, game: TableGame) -> None:
        if self.notify is None or not game.people_asked():
            return
        table = self._must(table_id)
        for seat in game.people_asked():
            webhook = table.seats[seat].webhook
            if webhook:
                self.notify(table_id, seat, game.version(), webhook)

    # ---- the lobby ------------------------------------------------------------------

    def lobby(self, page: int, per_page: int) -> tuple[list[TableRow], bool]:
        """Listed tables, newest first, one page of them, and whether more follow."""
        with self.engine.connect() as connection:
            ids = connection.execute(
                select(TABLES.c.id)
                .where(TABLES.c.listed == 1)
                .order_by(TABLES.c.created.desc(), TABLES.c.id)
                .offset(page * per_page)
                .limit(per_page + 1)
            ).scalars().all()
            rows = [self._read(connection, table_id) for table_id in ids[:per_page]]
        return [row for row in rows if row is not None], len(ids) > per_page


def _status(game: TableGame) -> TableStatus:
    return TableStatus.OVER if game.state.phase is Phase.OVER else TableStatus.PLAYING
