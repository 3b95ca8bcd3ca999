"""Signing in to the operator console: sessions kept in the database, and a brake on guessing.

A sign-in trades the admin token for a random session cookie. The database keeps only the
cookie's SHA-256 and its expiry (`rows.OperatorSessionRow`), so every service process knows
every session and a copy of the database signs nobody in. The cookie is HttpOnly,
SameSite=Strict, limited to the console's path and expires with the session.

Wrong tokens are counted per client address (`SignInBrake`): after `FREE_TRIES` misses each
further try must wait twice as long as the one before (up to `MAX_WAIT_SECONDS`); a try made
while waiting is refused (429) before the token is even compared. The table of addresses is
bounded (the least recently seen is forgotten first), and the clock is injected, so tests
never wait on the wall clock.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import delete

from fairfight.conquest.store.rows import OperatorSessionRow, ensure_key_table, has_table
from fairfight.core.tokens import token_digest
from fairfight.web.conquest.database import SeasonDatabase

__all__ = [
    "ADDRESSES_KEPT",
    "Clock",
    "FREE_TRIES",
    "MAX_WAIT_SECONDS",
    "OperatorSessions",
    "SESSION_COOKIE",
    "SESSION_SECONDS",
    "SignInBrake",
]

SESSION_COOKIE = "fairfight_operator"
SESSION_SECONDS = 8 * 3600
"""A console session lasts a working day; then the operator signs in again."""
FREE_TRIES = 3
"""Wrong tokens an address may send before it is slowed down (typing mistakes)."""
MAX_WAIT_SECONDS = 300.0
"""The longest an address is made to wait between tries."""
ADDRESSES_KEPT = 4096
"""Addresses whose misses are remembered; beyond that the least recently seen is dropped."""

Clock = Callable[[], float]


class OperatorSessions:
    """Console sessions in the service's database, shared by every process serving it."""

    def __init__(self, database: SeasonDatabase, clock: Clock = time.time) -> None:
        self.database = database
        self.clock = clock

    def _season(self) -> int:
        """Sessions live in the database of the seasons; any season's handle reaches them."""
        ids = self.database.season_ids()
        if not ids:
            raise LookupError("the database holds no season to operate")
        return ids[0]

    def open(self) -> str:
        """A new session's cookie value (expired sessions are cleared on the way)."""
        cookie = secrets.token_urlsafe(32)
        now = int(self.clock())
        with self.database.transaction(self._season(), write=True) as session:
            ensure_key_table(session.connection())
            session.execute(delete(OperatorSessionRow).where(OperatorSessionRow.expires <= now))
            session.add(OperatorSessionRow(session_sha256=token_digest(cookie),
                                           expires=now + SESSION_SECONDS))
        return cookie

    def valid(self, cookie: str | None) -> bool:
        """Whether a cookie names a session that has not expired."""
        if not cookie or len(cookie) > 200 or not self.database.season_ids():
            return False
        with self.database.transaction(self._season(), write=False) as session:
            if not has_table(session.connection(), OperatorSessionRow.__tablename__):
                return False
            row = session.get(OperatorSessionRow, token_digest(cookie))
            return row is not None and row.expires > self.clock()

    def close(self, cookie: str | None) -> None:
        """End a session (signing out)."""
        if not cookie or not self.database.season_ids():
            return
        with self.database.transaction(self._season(), write=True) as session:
            ensure_key_table(session.connection())
            session.execute(delete(OperatorSessionRow).where(
                OperatorSessionRow.session_sha256 == token_digest(cookie)))


@dataclass(slots=True)
class _Misses:
    count: int
    next_try: float


class SignInBrake:
    """Per-address count of wrong tokens, and how long each address must wait."""

    def __init__(self, clock: Clock = time.monotonic, capacity: int = ADDRESSES_KEPT) -> None:
        self.clock = clock
        self.capacity = capacity
        self._misses: OrderedDict[str, _Misses] = OrderedDict()
        self._lock = threading.Lock()

    def wait(self, address: str) -> float:
        """Seconds the address must still wait before its next try is looked at (0: go)."""
        with self._lock:
            misses = self._misses.get(address)
            return 0.0 if misses is None else max(0.0, misses.next_try - self.clock())

    def missed(self, address: str) -> None:
        """Count a wrong token from the address."""
        with self._lock:
            misses = self._misses.pop(address, None) or _Misses(0, 0.0)
            misses.count += 1
            over = misses.count - FREE_TRIES
            delay = 0.0 if over < 0 else min(MAX_WAIT_SECONDS, 2.0**over)
            misses.next_try = self.clock() + delay
            self._misses[address] = misses
            while len(self._misses) > self.capacity:
                self._misses.popitem(last=False)

    def passed(self, address: str) -> None:
        """A right token: the address starts afresh."""
        with self._lock:
            self._misses.pop(address, None)

    def __len__(self) -> int:
        return len(self._misses)
