"""Fan contributions over HTTP, the request side: keys, keys in flight, and the answer.

A request is parsed once (by its route), bound to its idempotency key as a `ledger.KeyClaim`
(the method, the path and the SHA-256 of the raw body), queued on the writer thread and
answered after the commit that carries it. The ledger claims the key in the same transaction
as the entry, so a crash, a refusal or an error leaves the key free; the same request again
gets the original response, byte for byte from the key's row (so from any process), marked
`Idempotent-Replayed: true`; another request with the same key is refused with 422. While a
request holds a key, another with the same key is answered 409 (this process keeps the keys
in flight; a second server process waits on the season's write lock instead, then finds the
key and answers with the first response).
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
from typing import Any

from fairfight.conquest.store.ledger import KeyAlreadyUsed, KeyClaim, LedgerRequest, RefundOwed
from fairfight.conquest.store.rows import json_text
from fairfight.web.conquest.models import ContributionRequest
from fairfight.web.conquest.refusals import Refusal
from fairfight.web.conquest.writer import Answered, ContributionWriter

__all__ = [
    "CREATED",
    "ContributionAnswer",
    "IDEMPOTENCY_HEADER",
    "InFlight",
    "KEY_PATTERN",
    "REFUND_OWED",
    "REPLAYED_HEADER",
    "Requested",
    "check_key",
    "record_contribution",
    "record_contribution_async",
]

IDEMPOTENCY_HEADER = "Idempotency-Key"
REPLAYED_HEADER = "Idempotent-Replayed"
"""Set to `true` on an answer that is the stored first answer of its key, sent again."""
KEY_PATTERN = r"^[\x21-\x7e]{1,200}$"
"""A key is 1 to 200 printable ASCII characters without spaces."""
CREATED = 201
REFUND_OWED = 200
"""A paid contribution the rules refused is answered 200: the event was handled (recorded as
a refund owed), so the provider need not deliver it again; the body says it was refused."""


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

    def claim(self) -> KeyClaim:
        """The ledger's key claim for this request."""
        return KeyClaim(self.key, self.method, self.path, self.body_sha256())


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


@contextmanager
def _answered() -> Iterator[None]:
    """A key bound to another request is the header's fault: 422 naming the header."""
    try:
        yield
    except KeyAlreadyUsed as reused:
        raise Refusal(422, IDEMPOTENCY_HEADER, reused.rule) from None


def _ledger_request(request: ContributionRequest, requested: Requested,
                    payment: str | None) -> LedgerRequest:
    return LedgerRequest(request.faction, request.amount, requested.claim(), payment)


@dataclass(frozen=True, slots=True)
class ContributionAnswer:
    """A contribution's HTTP answer: the status, the body bytes, and whether it is the replay
    of a key's (or a payment event's) first answer."""

    status: int
    body: bytes
    replayed: bool

    def headers(self) -> dict[str, str]:
        """`Idempotent-Replayed: true` on a replay (the body is the original's, byte for byte)."""
        return {REPLAYED_HEADER: "true"} if self.replayed else {}

    def payload(self) -> dict[str, Any]:
        """The body as data (for a page that shows it)."""
        data: dict[str, Any] = json.loads(self.body)
        return data


def _answer(outcome: Answered) -> ContributionAnswer:
    """A recorded entry is answered with the text stored with its key (a replay: the same
    text, from the database); a refund owed with its row, which never changes."""
    if isinstance(outcome, RefundOwed):
        return ContributionAnswer(REFUND_OWED, json_text(outcome.answer()).encode(),
                                  outcome.repeated)
    return ContributionAnswer(CREATED, outcome.response.encode(), outcome.repeated)


def record_contribution(
    writer: ContributionWriter, in_flight: InFlight, season_id: int,
    request: ContributionRequest, requested: Requested,
) -> tuple[int, dict[str, Any]]:
    """Record one parsed contribution under its key: (201, entry and pool), or the key's
    original answer. Waits (in this thread) for the commit of the batch that carries it."""
    with in_flight.claim(requested.key), _answered():
        future = writer.submit(season_id, _ledger_request(request, requested, None))
        answer = _answer(future.result())
    return answer.status, answer.payload()


async def record_contribution_async(
    writer: ContributionWriter, in_flight: InFlight, season_id: int,
    request: ContributionRequest, requested: Requested, payment: str | None = None,
) -> ContributionAnswer:
    """`record_contribution` for the event loop: no worker thread waits on the commit.

    With `payment` (the event id of money already paid), a refusal of the rules is recorded
    as a refund owed and answered (200, the refund) instead of raising."""
    with in_flight.claim(requested.key), _answered():
        future = writer.submit(season_id, _ledger_request(request, requested, payment))
        return _answer(await asyncio.wrap_future(future))
