"""Clash games kept in a database (an SQLite file of its own, or PostgreSQL by URL).

The store of the two-player and hot-seat games the web serves: each game's record, its seats
(by the SHA-256 of their tokens) and the orders being written. It lives beside the ruleset, as
`ballot.store` does, and imports only `core` and SQLAlchemy; `import fairfight.clash` never
loads it (only the web and the tests do). The queries are in `game_store`, re-exported here.
"""

from __future__ import annotations

from fairfight.clash.store.game_store import (
    TABLE_SEAT,
    ClashStore,
    Draft,
    GameRow,
    TurnTaken,
    token_digest,
)

__all__ = ["ClashStore", "Draft", "GameRow", "TABLE_SEAT", "TurnTaken", "token_digest"]
