"""Ballot games kept in the service's database (SQLite by default, any SQLAlchemy URL).

A game is stored as what rebuilds it: config, key, seats and every step's answers. The key
stays in the database until the game is over; pages never show it before then.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Column,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.pool import StaticPool

from fairfight.ballot.rules import BallotConfig
from fairfight.ballot.session import Session, restore_session, start_session
from fairfight.ballot.state import Phase

__all__ = [
    "BallotStore",
    "GAMES",
    "METADATA",
    "StoredGame",
]


METADATA = MetaData()
GAMES = Table(
    "ballot_games",
    METADATA,
    Column("id", String(32), primary_key=True),
    Column("config", Text, nullable=False),
    Column("game_key", String(64), nullable=False),
    Column("seats", Text, nullable=False),
    Column("human", Integer, nullable=False),
    Column("steps", Text, nullable=False),
    Column("year", Integer, nullable=False),
    Column("over", Integer, nullable=False),
)
"""One row a game; `steps` is the JSON list of every step's answers."""


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A row of the games list."""

    id: str
    seats: tuple[str, ...]
    human: int
    year: int
    over: bool
    victory: str


class BallotStore:
    """Games by id in one database; every write is one transaction."""

    def __init__(self, url: str) -> None:
        options: dict[str, Any] = {}
        if url in ("sqlite://", "sqlite:///:memory:"):
            options = {"poolclass": StaticPool, "connect_args": {"check_same_thread": False}}
        elif url.startswith("sqlite"):
            options = {"connect_args": {"check_same_thread": False}}
        self.engine: Engine = create_engine(url, **options)
        METADATA.create_all(self.engine)

    def create(self, config: BallotConfig, key: str, seats: list[str], human: int) -> str:
        """Start a game (the bots play until the person is asked) and store it."""
        session = start_session(config, key, seats, human)
        game_id = secrets.token_hex(8)
        with self.engine.begin() as connection:
            connection.execute(
                insert(GAMES).values(
                    id=game_id,
                    config=config.model_dump_json(),
                    game_key=key,
                    seats=json.dumps(list(seats)),
                    human=human,
                    steps=json.dumps(session.steps),
                    year=session.state.year,
                    over=int(session.state.phase is Phase.OVER),
                )
            )
        return game_id

    def load(self, game_id: str) -> Session | None:
        """The game rebuilt from its stored steps, or None when there is no such game."""
        with self.engine.connect() as connection:
            row = connection.execute(select(GAMES).where(GAMES.c.id == game_id)).first()
        if row is None:
            return None
        config = BallotConfig.model_validate_json(row.config)
        seats = json.loads(row.seats)
        return restore_session(config, row.game_key, seats, row.human, json.loads(row.steps))

    def save(self, game_id: str, session: Session) -> None:
        """Store the steps played so far."""
        with self.engine.begin() as connection:
            connection.execute(
                update(GAMES)
                .where(GAMES.c.id == game_id)
                .values(
                    steps=json.dumps(session.steps),
                    year=session.state.year,
                    over=int(session.state.phase is Phase.OVER),
                )
            )

    def games(self, limit: int = 20) -> list[StoredGame]:
        """Up to `limit` stored games, for the start page's list."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(GAMES).limit(limit)).all()
        return [
            StoredGame(
                row.id,
                tuple(json.loads(row.seats)),
                row.human,
                row.year,
                bool(row.over),
                BallotConfig.model_validate_json(row.config).victory.value,
            )
            for row in rows
        ]
