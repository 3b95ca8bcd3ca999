"""Fan contributions over HTTP, recorded exactly once per idempotency key.

The key is claimed by inserting its row in the same transaction as the ledger entry, so a
contribution and its key are written together or not at all: a crash, a refusal or an error
leaves the key free. While a request holds a key, another request with the same key is
answered 409 (this process keeps the keys in flight; a second server process waits on the
season's write lock instead, then finds the key and answers with the first response). A key
is bound to the method, the path and the SHA-256 of the body: the same request again gets the
original response, a different request with the same key is refused with 422.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from fairfight.conquest import engine
from fairfight.conquest.store import LedgerRow, SeasonRow, SeasonStore, season_of
from fairfight.core.errors import InputError, RuleError
from fairfight.core.validation import parse_model
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.models import Contribution, ContributionRequest
from fairfight.web.conquest.refusals import Refusal
from fairfight.web.conquest.request_keys import RequestKeyRow

if TYPE_CHECKING:
    from fairfight.web.conquest.writer import ContributionWriter

__all__ = [
    "IDEMPOTENCY_HEADER",
    "InFlight",
    "KEY_PATTERN",
    "Outcome",
    "Pending",
    "Requested",
    "check_key",
    "record_batch",
    "record_contribution",
    "record_contribution_async",
]

IDEMPOTENCY_HEADER = "Idempotency-Key"
KEY_PATTERN = r"^[\x21-\x7e]{1,200}$"
"""A key is 1 to 200 printable ASCII characters without spaces."""


@dataclass(frozen=True, slots=True)
class Requested:
    """What a key is bound to: the request as it arrived."""

    key: str
    method: str
    path: str
    body: bytes

    def body_sha256(self) -> str:
        """The SHA-256 of the raw body, lowercase hex."""
        return hashlib.sha256(self.body).hexdigest()


class InFlight:
    """The keys whose request is running in this process right now."""

    def __init__(self) -> None:
        self._keys: set[str] = set()
        self._lock = threading.Lock()

    @contextmanager
    def claim(self, key: str) -> Iterator[None]:
        """Hold the key for the duration of the block, or refuse with 409."""
        with self._lock:
            if key in self._keys:
                raise Refusal(
                    409, IDEMPOTENCY_HEADER, "a request with this key is still being processed; "
                    "retry when it has answered", {"Retry-After": "1"},
                )
            self._keys.add(key)
        try:
            yield
        finally:
            with self._lock:
                self._keys.discard(key)


def check_key(key: str | None) -> str:
    """The idempotency key, or 400 naming the header."""
    if key is None or not key:
        raise Refusal(400, IDEMPOTENCY_HEADER, "this header is required (any unique text, "
                      "1 to 200 printable characters); a retry must send the same key")
    if not re.match(KEY_PATTERN, key):
        raise Refusal(400, IDEMPOTENCY_HEADER, "must be 1 to 200 printable ASCII characters, "
                      "no spaces")
    return key


def _replay(row: RequestKeyRow, requested: Requested) -> tuple[int, dict[str, Any]]:
    if (row.method, row.path, row.body_sha256) != (
        requested.method, requested.path, requested.body_sha256(),
    ):
        raise Refusal(422, IDEMPOTENCY_HEADER, f"already used for another request (ledger seq "
                      f"{row.ledger_seq}); a key names one request, send a new key")
    response: dict[str, Any] = json.loads(row.response)
    return row.status, response


@dataclass(slots=True)
class _Batch:
    """What one transaction has read and written so far: the board, the last seq, and each
    faction's entries already dated to the next battle (the rows this batch added included)."""

    season_id: int
    board: dict[str, Any]
    last: int
    due: dict[str, list[dict[str, Any]]]


def _open_batch(session: Session) -> _Batch:
    season_id = season_of(session)
    board = json.loads(
        session.scalars(select(SeasonRow.board).where(SeasonRow.id == season_id)).one()
    )
    last = session.scalar(
        select(func.max(LedgerRow.seq)).where(LedgerRow.season_id == season_id)
    ) or 0
    return _Batch(season_id, board, last, {})


def _due(session: Session, batch: _Batch, faction: str) -> list[dict[str, Any]]:
    """This faction's entries dated to the next battle, read once per transaction."""
    due = batch.due.get(faction)
    if due is None:
        columns = (LedgerRow.seq, LedgerRow.before_battle, LedgerRow.faction, LedgerRow.amount)
        due = batch.due[faction] = [dict(row) for row in session.execute(
            select(*columns).where(
                LedgerRow.season_id == batch.season_id,
                LedgerRow.before_battle == batch.board["next_battle"],
                LedgerRow.faction == faction,
            ).order_by(LedgerRow.seq)
        ).mappings()]
    return due


def _add(session: Session, batch: _Batch, faction: str, amount: int) -> Contribution:
    """Check with the engine's ledger rule and append, inside the caller's transaction.

    The pool rule reads only this faction's entries (the season's end is on the board), so the
    engine is given the entries already dated to the next battle for this faction alone.
    A refusal raises before anything is added, so it leaves the batch's other rows alone.
    """
    due = _due(session, batch, faction)
    state = {"world": {}, "key": "", "max_battles": None, "board": batch.board}
    try:
        entry = engine.check_contribution(state, due, faction, amount)
    except engine.LedgerRefusal as refusal:
        raise RuleError(refusal.field, refusal.rule) from None
    entry["seq"] = batch.last + 1
    SeasonStore.add_contribution(session, entry, None)
    batch.last = entry["seq"]
    due.append(entry)
    after = engine.pending_board(state, due)["factions"][faction]
    return Contribution(**entry, pool=after["pool"], pool_state=after["pool_state"])


@dataclass(frozen=True, slots=True)
class Pending:
    """One contribution waiting for its turn in a batch."""

    request: ContributionRequest
    requested: Requested


Outcome = tuple[int, dict[str, Any]] | Exception
"""A contribution's answer, or the refusal (or error) it is answered with."""


def _one(
    session: Session, batch: _Batch, known: dict[str, RequestKeyRow], pending: Pending
) -> tuple[int, dict[str, Any]]:
    requested = pending.requested
    earlier = known.get(requested.key)
    if earlier is not None:
        return _replay(earlier, requested)
    result = _add(session, batch, pending.request.faction, pending.request.amount)
    payload = result.model_dump()
    row = known[requested.key] = RequestKeyRow(
        key=requested.key,
        season_id=batch.season_id,
        method=requested.method,
        path=requested.path,
        body_sha256=requested.body_sha256(),
        status=201,
        response=json.dumps(payload, sort_keys=True),
        ledger_seq=result.seq,
    )
    session.add(row)
    return 201, payload


def record_batch(
    catalog: SeasonCatalog, season_id: int, batch: list[Pending]
) -> list[Outcome]:
    """Record contributions of one season in arrival order inside ONE transaction.

    Each is accepted or refused on its own (a refusal writes nothing and leaves the others
    alone), its key claimed in the same transaction; the outcomes are final only once this
    returns, that is after the commit. An error of the transaction itself (the commit, the
    database) raises, and then none of them was recorded.
    """
    catalog.require(season_id)
    outcomes: list[Outcome] = []
    keys = sorted({pending.requested.key for pending in batch})
    with catalog.database.transaction(season_id, write=True) as session:
        opened = _open_batch(session)
        known = {row.key: row for row in session.scalars(
            select(RequestKeyRow).where(RequestKeyRow.key.in_(keys)))}
        # The new rows are flushed together at the commit: no query in the loop needs them
        # (each faction's due entries are read before this batch adds any of its rows).
        with session.no_autoflush:
            for pending in batch:
                try:
                    outcomes.append(_one(session, opened, known, pending))
                except (Refusal, InputError) as refusal:
                    outcomes.append(refusal)
    return outcomes


def record_contribution(
    writer: ContributionWriter, in_flight: InFlight, season_id: int, body: Any,
    requested: Requested,
) -> tuple[int, dict[str, Any]]:
    """Record one contribution under its key: (201, entry), or the key's original response.

    Waits (in this thread) for the commit of the batch that carries it.
    """
    request = parse_model(ContributionRequest, body)
    with in_flight.claim(requested.key):
        return writer.submit(season_id, Pending(request, requested)).result()


async def record_contribution_async(
    writer: ContributionWriter, in_flight: InFlight, season_id: int, body: Any,
    requested: Requested,
) -> tuple[int, dict[str, Any]]:
    """`record_contribution` for the event loop: no worker thread waits on the commit."""
    request = parse_model(ContributionRequest, body)
    with in_flight.claim(requested.key):
        return await asyncio.wrap_future(writer.submit(season_id, Pending(request, requested)))
