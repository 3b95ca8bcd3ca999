"""Clash games in a database: each game's record (scenario, orders, events), its seats and
the orders being written, shared by every process that serves the same URL.

A game is stored as its record — the scenario, then one row per played turn with the orders
and the events (draws included) — never as a world per turn; a world is rebuilt by replaying
(`fairfight.web.clash.games` keeps a small cache). Seats are reached by a secret token whose
SHA-256 alone is stored. A turn is played by whoever inserts its row first: the row's primary
key (game, turn number) makes a second insertion fail, so two processes that see both sides
committed at once cannot play the same turn twice. SQLite by default (a file of its own,
never a conquest season file), PostgreSQL by URL.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Connection,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

from fairfight.core.journal import return_to_rollback_journal
from fairfight.core.store_engine import store_engine
from fairfight.core.tokens import token_digest

__all__ = ["ClashStore", "Draft", "GameRow", "TABLE_SEAT", "TurnTaken", "token_digest"]

TABLE_SEAT = "*"
"""The side of a hot-seat table's token: the one screen that seats every human side."""


_metadata = MetaData()
_games = Table(
    "clash_games", _metadata,
    Column("id", String(40), primary_key=True),
    Column("name", String(120), nullable=False),
    Column("mode", String(16), nullable=False),
    Column("scenario", Text, nullable=False),
    Column("combat_logic_version", Integer, nullable=False),
    Column("humans", Text, nullable=False),
    Column("ai_players", Text, nullable=False),
    Column("autopilot", Boolean, nullable=False),
    Column("client", String(64), nullable=False, index=True),
    Column("clock_seconds", Integer),
    Column("turn_started", Float, nullable=False),
    Column("turns_played", Integer, nullable=False),
    Column("at_screen", String(40)),
    Column("created", Float, nullable=False),
)
_seats = Table(
    "clash_seats", _metadata,
    Column("token_sha256", String(64), primary_key=True),
    Column("game_id", String(40), nullable=False, index=True),
    Column("side", String(40), nullable=False),
)
_turns = Table(
    "clash_turns", _metadata,
    Column("game_id", String(40), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("orders", Text, nullable=False),
    Column("events", Text, nullable=False),
)
_drafts = Table(
    "clash_drafts", _metadata,
    Column("game_id", String(40), primary_key=True),
    Column("side", String(40), primary_key=True),
    Column("turn", Integer, nullable=False),
    Column("orders", Text, nullable=False),
    Column("committed", Boolean, nullable=False),
)
_resignations = Table(
    "clash_resignations", _metadata,
    Column("game_id", String(40), primary_key=True),
    Column("side", String(40), primary_key=True),
    Column("turn", Integer, nullable=False),
)


@dataclass(frozen=True, slots=True)
class GameRow:
    """A stored game's header: what it was set up with and how far it has got."""

    id: str
    name: str
    mode: str
    scenario: dict[str, Any]
    combat_logic_version: int
    humans: tuple[str, ...]
    ai_players: tuple[str, ...]
    autopilot: bool
    clock_seconds: int | None
    turn_started: float
    turns_played: int
    at_screen: str | None


@dataclass(frozen=True, slots=True)
class Draft:
    """One side's orders for the coming turn, and whether they are committed."""

    side: str
    turn: int
    orders: dict[str, Any]
    committed: bool


class TurnTaken(Exception):
    """Another request played this turn first."""


def _dumps(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _game_row(row: Any) -> GameRow:
    return GameRow(id=row.id, name=row.name, mode=row.mode, scenario=json.loads(row.scenario),
                   combat_logic_version=row.combat_logic_version,
                   humans=tuple(json.loads(row.humans)),
                   ai_players=tuple(json.loads(row.ai_players)), autopilot=row.autopilot,
                   clock_seconds=row.clock_seconds, turn_started=row.turn_started,
                   turns_played=row.turns_played, at_screen=row.at_screen)


class ClashStore:
    """The clash tables behind one URL; every method is one short transaction."""

    def __init__(self, url: str, clock: Callable[[], float] = time.time) -> None:
        self.url = url
        self.clock = clock
        self.engine = store_engine(url)
        self._lock = threading.Lock()   # SQLite writers of this process take turns
        _metadata.create_all(self.engine)

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        with self._lock, self.engine.begin() as connection:
            yield connection

    def close(self) -> None:
        """Release the pooled connections and, on a SQLite file no one else has open, leave it
        in the rollback journal (an in-memory database keeps its one connection: closing it
        would forget every game while the app may still be serving)."""
        if not isinstance(self.engine.pool, StaticPool):
            self.engine.dispose()
            database = make_url(self.url).database
            if make_url(self.url).get_backend_name() == "sqlite" and database:
                return_to_rollback_journal(Path(database))  # the last to close ends WAL

    # --- games and seats ------------------------------------------------------------------
    def create(self, *, name: str, mode: str, scenario: dict[str, Any], version: int,
               humans: tuple[str, ...], ai_players: tuple[str, ...], autopilot: bool,
               client: str, clock_seconds: int | None,
               seats: tuple[str, ...]) -> tuple[str, dict[str, str]]:
        """Store a new game; returns its id and a fresh token for each seat side."""
        game_id = secrets.token_urlsafe(9)
        tokens = {side: secrets.token_urlsafe(24) for side in seats}
        now = self.clock()
        with self._writing() as connection:
            connection.execute(insert(_games).values(
                id=game_id, name=name[:120], mode=mode, scenario=_dumps(scenario),
                combat_logic_version=version, humans=_dumps(list(humans)),
                ai_players=_dumps(list(ai_players)), autopilot=autopilot,
                client=token_digest(client), clock_seconds=clock_seconds, turn_started=now,
                turns_played=0, at_screen=None, created=now))
            for side, token in tokens.items():
                connection.execute(insert(_seats).values(
                    token_sha256=token_digest(token), game_id=game_id, side=side))
        return game_id, tokens

    def games_started_by(self, client: str, since: float) -> int:
        """How many games a client address started since a time."""
        with self.engine.connect() as connection:
            return int(connection.execute(
                select(func.count()).select_from(_games).where(
                    _games.c.client == token_digest(client), _games.c.created >= since)
            ).scalar_one())

    def seat(self, token: str) -> tuple[str, str] | None:
        """(game id, side) of a seat token, or None."""
        with self.engine.connect() as connection:
            row = connection.execute(select(_seats.c.game_id, _seats.c.side).where(
                _seats.c.token_sha256 == token_digest(token))).first()
        return None if row is None else (row.game_id, row.side)

    def game(self, game_id: str) -> GameRow | None:
        """A game's header, or None."""
        with self.engine.connect() as connection:
            row = connection.execute(select(_games).where(_games.c.id == game_id)).first()
        return None if row is None else _game_row(row)

    def turns(self, game_id: str) -> list[dict[str, Any]]:
        """The played turns in order, as record lines (turn, orders, events)."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(_turns).where(_turns.c.game_id == game_id)
                                      .order_by(_turns.c.number)).all()
        return [{"turn": row.number, "orders": json.loads(row.orders),
                 "events": json.loads(row.events)} for row in rows]

    def set_screen(self, game_id: str, side: str | None) -> None:
        """Who sits at a hot-seat table's screen (None: the hand-over screen)."""
        with self._writing() as connection:
            connection.execute(update(_games).where(_games.c.id == game_id)
                               .values(at_screen=side))

    # --- orders being written ---------------------------------------------------------------
    def drafts(self, game_id: str, turn: int) -> dict[str, Draft]:
        """Each side's orders for `turn` (older drafts are ignored)."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(_drafts).where(
                _drafts.c.game_id == game_id, _drafts.c.turn == turn)).all()
        return {row.side: Draft(row.side, row.turn, json.loads(row.orders), row.committed)
                for row in rows}

    def save_draft(self, game_id: str, draft: Draft) -> None:
        """Replace one side's orders for a turn."""
        with self._writing() as connection:
            values = {"turn": draft.turn, "orders": _dumps(draft.orders),
                      "committed": draft.committed}
            done = connection.execute(update(_drafts).where(
                _drafts.c.game_id == game_id, _drafts.c.side == draft.side).values(**values))
            if done.rowcount == 0:
                connection.execute(insert(_drafts).values(game_id=game_id, side=draft.side,
                                                          **values))

    def record_turn(self, game_id: str, number: int, orders: dict[str, Any],
                    events: list[dict[str, Any]], played_before: int) -> None:
        """Store a played turn and advance the game; TurnTaken if another request did."""
        try:
            with self._writing() as connection:
                moved = connection.execute(update(_games).where(
                    _games.c.id == game_id, _games.c.turns_played == played_before).values(
                    turns_played=played_before + 1, turn_started=self.clock(),
                    at_screen=None))
                if moved.rowcount != 1:
                    raise TurnTaken(game_id)
                connection.execute(insert(_turns).values(
                    game_id=game_id, number=number, orders=_dumps(orders),
                    events=_dumps(events)))
        except IntegrityError:
            raise TurnTaken(game_id) from None

    # --- resignations -------------------------------------------------------------------------
    def resign(self, game_id: str, side: str, turn: int) -> None:
        """Record that a side resigned at a turn (a second resignation changes nothing)."""
        try:
            with self._writing() as connection:
                connection.execute(insert(_resignations).values(
                    game_id=game_id, side=side, turn=turn))
        except IntegrityError:
            return

    def resignations(self, game_id: str) -> tuple[str, ...]:
        """The sides that resigned this game, in order of side."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(_resignations.c.side).where(
                _resignations.c.game_id == game_id).order_by(_resignations.c.side)).all()
        return tuple(row.side for row in rows)
