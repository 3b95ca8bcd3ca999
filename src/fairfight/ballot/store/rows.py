"""What a stored table reads as: plain frozen values, built from its row and its seats' rows.

Kept apart from `table_store`, which reads and writes the rows: the web side (pages, access
checks, the live stream) works with these values and needs nothing of the queries.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy.engine import Row

from fairfight.ballot.record import HUMAN_NAME
from fairfight.ballot.session import TableGame, restore_table_game
from fairfight.ballot.tables import BallotConfig

__all__ = ["SeatRole", "SeatRow", "TableRow", "TableStatus", "table_row"]


class TableStatus(StrEnum):
    """The life of a table; the value is what the `status` column stores."""

    OPEN = "open"
    """Seats are filling: the game has not started."""
    PLAYING = "playing"
    """The game is on: people are asked in turn."""
    OVER = "over"
    """The game has ended: archived, read-only, the key revealed."""


class SeatRole(StrEnum):
    """Who answers for a seat now; the value is what pages and the JSON show."""

    PERSON = "person"
    """A person, through the seat's link."""
    BOT = "bot"
    """A bot the table was created with."""
    STAND_IN = "stand-in"
    """The stand-in bot, playing on for a person who left."""


@dataclass(frozen=True, slots=True)
class SeatRow:
    """A seat as stored (never its token)."""

    seat: int
    kind: str
    joined: bool
    stand_in_from: int | None
    webhook: str | None
    bank: float

    @property
    def role(self) -> SeatRole:
        """Who answers for this seat now."""
        if self.stand_in_from is not None:
            return SeatRole.STAND_IN
        return SeatRole.PERSON if self.kind == HUMAN_NAME else SeatRole.BOT


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table as stored; `key` is the secret dice key (read it only once the game is over)."""

    id: str
    created: float
    listed: bool
    status: TableStatus
    config: BallotConfig
    kinds: tuple[str, ...]
    key: str
    commitment: str
    rules_version: str
    clock_bank: int
    clock_increment: int
    version: int
    revision: int
    steps: list[dict[str, Any]]
    digests: list[str]
    pending: dict[str, Any]
    asked_at: float
    seats: tuple[SeatRow, ...]

    def game(self) -> TableGame | None:
        """The game rebuilt from its steps (RulesChanged when this engine differs); a store's
        `BallotStore.game` plays on from the game its process kept instead."""
        if self.status == TableStatus.OPEN:
            return None
        return restore_table_game(
            self.config, self.key, self.kinds, self.stand_ins(), self.steps, self.digests
        )

    def stand_ins(self) -> dict[int, int]:
        """Each seat whose person left, and the step from which the stand-in plays it."""
        return {s.seat: s.stand_in_from for s in self.seats if s.stand_in_from is not None}

    def answered(self) -> tuple[int, ...]:
        """Seats whose person has answered the open question."""
        return tuple(sorted(int(seat) for seat in self.pending))


def table_row(row: Row[Any], seats: list[Row[Any]]) -> TableRow:
    """A table row and its seat rows as one value (seats in seat order)."""
    return TableRow(
        id=row.id,
        created=row.created,
        listed=bool(row.listed),
        status=TableStatus(row.status),
        config=BallotConfig.model_validate_json(row.config),
        kinds=tuple(json.loads(row.kinds)),
        key=row.game_key,
        commitment=row.commitment,
        rules_version=row.rules_version,
        clock_bank=row.clock_bank,
        clock_increment=row.clock_increment,
        version=row.version,
        revision=row.revision,
        steps=json.loads(row.steps),
        digests=json.loads(row.digests),
        pending=json.loads(row.pending),
        asked_at=row.asked_at,
        seats=tuple(
            SeatRow(s.seat, s.kind, bool(s.joined), s.stand_in_from, s.webhook, s.bank)
            for s in sorted(seats, key=lambda s: int(s.seat))
        ),
    )
