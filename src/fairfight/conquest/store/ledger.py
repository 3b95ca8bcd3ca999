"""The one path a fan contribution takes into the ledger, for the command line and the web.

`record_contributions` records a batch of requests of one season inside the caller's
transaction, in arrival order; `conquest contribute` is a batch of one, the web's writer
thread sends everything that arrived while the previous batch was committing. Each request
is accepted or refused on its own under the engine's ledger rule [§6]: a refusal writes
nothing and leaves the batch's other requests alone.

One idempotency scheme: a key names one request of one season. It is claimed by writing
its row (`rows.ContributionKeyRow`) in the same transaction as the ledger entry, so both are
written or neither; the row keeps the whole answer as sent (canonical JSON, receipt
included). A key is bound to a `KeyClaim` (where the request came from and the SHA-256 of its
body): the same claim again is answered with those stored bytes and records nothing; another
claim with the same key is refused with `KeyAlreadyUsed`.

Each accepted contribution is a leaf of the season log (`log`): a batch's entries are appended
together, in arrival order, under one signed head, and each is answered with its receipt (the
entry, its leaf, that head and the inclusion proof). A replayed key gets the same receipt.

Money already paid is never refused without a trace: a request naming its payment event
that the pool rules refuse becomes `RefundOwed`, written (`rows.RefundRow`, keyed by the
event) in the same transaction; the same event again gets the same refusal and writes nothing.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy.orm import Session

from fairfight.conquest.rules import engine
from fairfight.conquest.store import log, season_events
from fairfight.conquest.store.rows import (
    ContributionKeyRow,
    RefundRow,
    json_text,
    load_column,
    season_of,
)
from fairfight.conquest.store.season_store import SeasonStore
from fairfight.core.errors import InputError, RuleError

__all__ = [
    "COMMAND_LINE",
    "KeyAlreadyUsed",
    "KeyClaim",
    "LedgerOutcome",
    "LedgerRequest",
    "Recorded",
    "RefundOwed",
    "command_line_claim",
    "record_contributions",
    "refunds_owed",
]

COMMAND_LINE = "CLI"
"""The method a key claimed by `conquest contribute` is bound to (the web's are HTTP verbs)."""


class KeyAlreadyUsed(RuleError):
    """An idempotency key already names another request; the web answers it with 422."""


@dataclass(frozen=True, slots=True)
class KeyClaim:
    """What an idempotency key is bound to: the request's method, path and body SHA-256."""

    key: str
    method: str
    path: str
    body_sha256: str


def command_line_claim(key: str, season_id: int, faction: str, amount: int) -> KeyClaim:
    """The claim of `conquest contribute --key`: bound to the season, the faction and amount."""
    body = json_text({"amount": amount, "faction": faction}).encode("utf-8")
    return KeyClaim(key, COMMAND_LINE, f"conquest contribute #{season_id}",
                    hashlib.sha256(body).hexdigest())


@dataclass(frozen=True, slots=True)
class LedgerRequest:
    """One contribution asked for: a faction, whole dollars, and the key claim if any."""

    faction: str
    amount: int
    claim: KeyClaim | None = None
    payment: str | None = None
    """The payment event the money came with; a refusal is then recorded as a refund owed."""


@dataclass(frozen=True, slots=True)
class Recorded:
    """An accepted contribution's ledger entry and its faction's pool after it; `repeated`
    when it is the replay of a key's first answer."""

    entry: dict[str, Any]
    """The ledger entry as published and replayed: seq, before_battle, faction, amount."""
    pool: int
    pool_state: str
    repeated: bool = False
    receipt: dict[str, Any] | None = None
    """The season log's receipt for the entry (None for a season without a log)."""
    response: str = ""
    """The answer as first sent, canonical JSON (`response_text`): stored with the request's
    key in the same transaction, so a replay, in any process, gets exactly these bytes."""

    def answer(self) -> dict[str, Any]:
        """The entry and the pool after it (the receipt goes beside it, in `response_text`)."""
        return {**self.entry, "pool": self.pool, "pool_state": self.pool_state}

    def response_text(self) -> str:
        """The whole answer, receipt included, as canonical JSON: what is sent and stored."""
        return json_text({**self.answer(), "receipt": self.receipt})


@dataclass(frozen=True, slots=True)
class RefundOwed:
    """A paid contribution the pool rules refused: recorded as money owed back, with the
    reason; `repeated` when it is a redelivered event's first answer."""

    refund: dict[str, Any]
    """The public part (`rows.RefundRow.public`): event id, faction, amount, the battle it
    would have counted for, the refused field and the reason. No payer data exists here."""
    repeated: bool = False

    def answer(self) -> dict[str, Any]:
        """What the payment's sender is answered with."""
        return {"status": "refund_owed", **self.refund}


LedgerOutcome = Recorded | RefundOwed | RuleError | InputError
"""A request's outcome: recorded (or replayed), a refund owed, or the refusal that wrote
nothing."""


@dataclass(slots=True)
class _Claimed:
    """A key this batch claims: `ContributionKeyRow`'s columns as plain values, written in
    one INSERT with the batch's other claims once every answer holds its receipt."""

    key: str
    season_id: int
    method: str
    path: str
    body_sha256: str
    ledger_seq: int
    answer: str

    def columns(self) -> dict[str, Any]:
        """The row to insert."""
        return {"key": self.key, "season_id": self.season_id, "method": self.method,
                "path": self.path, "body_sha256": self.body_sha256,
                "ledger_seq": self.ledger_seq, "answer": self.answer}


@dataclass(slots=True)
class _Batch:
    """What one transaction has read and written so far: the board, the last seq, each
    faction's entries dated to the next battle (this batch's included), the claimed keys."""

    board: dict[str, Any]
    last: int
    keys: dict[str, ContributionKeyRow | _Claimed]
    refunds: dict[str, RefundRow] = field(default_factory=dict)
    due: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    entries: list[dict[str, Any]] = field(default_factory=list)
    """The entries this batch accepted, in order, inserted together after the loop."""
    new_claims: dict[int, _Claimed] = field(default_factory=dict)
    """The keys this batch claimed, by the seq of their new entry: each stored answer is
    completed with the receipt once the batch's log head is signed, then all are inserted."""


def _replay(earlier: ContributionKeyRow | _Claimed, claim: KeyClaim) -> Recorded:
    if (earlier.method, earlier.path, earlier.body_sha256) != (
        claim.method, claim.path, claim.body_sha256,
    ):
        raise KeyAlreadyUsed("key", f"already used for another request (ledger seq "
                             f"{earlier.ledger_seq}); a key names one request, send a new key")
    answer = json.loads(earlier.answer)
    pool, pool_state = answer.pop("pool"), answer.pop("pool_state")
    if "receipt" not in answer:  # a key claimed before whole answers were stored
        return Recorded(answer, pool, pool_state, repeated=True)
    receipt = answer.pop("receipt")
    return Recorded(answer, pool, pool_state, repeated=True, receipt=receipt,
                    response=earlier.answer)


def _add(session: Session, batch: _Batch, faction: str, amount: int) -> Recorded:
    """Check with the engine's ledger rule and append, inside the caller's transaction.

    The pool rule reads only this faction's entries and pool (the season's end and the next
    battle are on the board), so the engine is given the entries already dated to the next
    battle for this faction alone, and a board holding that faction alone: the engine copies
    the board it is given twice per contribution, and the whole board is some hundred factions
    and regions.
    """
    due = batch.due.get(faction)
    if due is None:
        due = batch.due[faction] = SeasonStore.ledger_due(
            session, batch.board["next_battle"], faction)
    factions = batch.board["factions"]
    board = {"next_battle": batch.board["next_battle"], "ended": batch.board["ended"],
             "regions": {}, "factions": {faction: factions[faction]} if faction in factions
             else {}}
    state = {"world": {}, "key": "", "max_battles": None, "board": board}
    entry = engine.check_contribution(state, due, faction, amount)  # LedgerRefusal: a RuleError
    entry["seq"] = batch.last + 1
    batch.entries.append(entry)
    batch.last = entry["seq"]
    due.append(entry)
    after = engine.pending_board(state, due)["factions"][faction]
    return Recorded(entry, after["pool"], after["pool_state"])


def _refund(session: Session, batch: _Batch, request: LedgerRequest, payment: str,
            refusal: RuleError) -> RefundOwed:
    """Record the refused payment as a refund owed (keyed by its event, bound to its body)."""
    row = batch.refunds[payment] = RefundRow(
        season_id=season_of(session), event_id=payment, faction=request.faction,
        amount=request.amount, before_battle=batch.board["next_battle"], field=refusal.field,
        reason=refusal.rule, body_sha256="" if request.claim is None else request.claim.body_sha256,
    )
    SeasonStore.add_refund(session, row)
    return RefundOwed(row.public())


def _refund_replay(earlier: RefundRow, claim: KeyClaim | None) -> RefundOwed:
    if claim is not None and earlier.body_sha256 != claim.body_sha256:
        raise KeyAlreadyUsed("key", f"payment event {earlier.event_id} was already answered "
                             "for another body (refund owed); an event id names one payment")
    return RefundOwed(earlier.public(), repeated=True)


def _one(session: Session, batch: _Batch, request: LedgerRequest) -> Recorded | RefundOwed:
    claim, payment = request.claim, request.payment
    if claim is not None and claim.key in batch.keys:
        return _replay(batch.keys[claim.key], claim)
    if payment is not None and payment in batch.refunds:
        return _refund_replay(batch.refunds[payment], claim)
    try:
        recorded = _add(session, batch, request.faction, request.amount)
    except RuleError as refusal:
        if payment is None:
            raise
        return _refund(session, batch, request, payment, refusal)
    if claim is not None:
        claimed = batch.keys[claim.key] = _Claimed(
            claim.key, season_of(session), claim.method, claim.path, claim.body_sha256,
            recorded.entry["seq"], json.dumps(recorded.answer(), sort_keys=True))
        batch.new_claims[claimed.ledger_seq] = claimed
    return recorded


@functools.lru_cache(maxsize=8)
def _board_of(text: str) -> dict[str, Any]:
    """A stored board, parsed once per text: the board changes only when a battle airs, and
    every batch reads it (some 17 KB of JSON for a hundred factions). Shared between batches,
    so only read: `_add` hands the engine a board of its own, which the engine copies."""
    board: dict[str, Any] = load_column("season.board", text)
    return board


def record_contributions(
    session: Session, requests: Sequence[LedgerRequest]
) -> list[LedgerOutcome]:
    """Record contributions of the transaction's season in arrival order, one outcome each.

    The outcomes are final once the caller's transaction commits; if the commit fails, none
    of them was recorded.
    """
    keys = sorted({r.claim.key for r in requests if r.claim is not None})
    payments = sorted({r.payment for r in requests if r.payment is not None})
    batch = _Batch(
        board=_board_of(SeasonStore.board_text(session)),
        last=SeasonStore.last_seq(session),
        keys={**SeasonStore.claimed_keys(session, keys)} if keys else {},
        refunds=SeasonStore.refunds_for(session, payments) if payments else {},
    )
    # Every faction's entries dated to the next battle in one query, not one per faction.
    batch.due = SeasonStore.ledger_due_by_faction(
        session, batch.board["next_battle"], (r.faction for r in requests))
    outcomes: list[LedgerOutcome] = []
    # The new entries are inserted together after the loop, and a refund's row at the
    # commit: no query in the loop needs them (each faction's due entries are read first).
    with session.no_autoflush:
        for request in requests:
            try:
                outcomes.append(_one(session, batch, request))
            except (RuleError, InputError) as refusal:
                outcomes.append(refusal)
    SeasonStore.add_contributions(session, batch.entries)
    new_seqs = [o.entry["seq"] for o in outcomes if isinstance(o, Recorded) and not o.repeated]
    if new_seqs:  # the live pages hear of it once the transaction commits
        season_events.announce(session, season_events.EventKind.LEDGER,
                               {"last_seq": max(new_seqs)})
    answered = _with_receipts(session, outcomes, batch.new_claims)
    SeasonStore.claim_keys(session, [claimed.columns() for claimed in batch.new_claims.values()])
    return answered


def _with_receipts(session: Session, outcomes: list[LedgerOutcome],
                   new_claims: dict[int, _Claimed]) -> list[LedgerOutcome]:
    """Append the batch's new entries to the season log under one head, give every recorded
    outcome its receipt (a replay's is read back from the log) and its whole answer, which a
    new entry's key row (`new_claims`, by seq) stores."""
    if not any(isinstance(o, Recorded) for o in outcomes):
        return outcomes
    kept = log.kept(session)
    new = [o for o in outcomes if isinstance(o, Recorded) and not o.repeated]
    appended = log.append(session, [log.contribution_leaf(o.entry) for o in new]) if kept else None
    receipts: dict[int, dict[str, Any] | None] = {}
    if appended is not None:
        for index, recorded in enumerate(new, start=appended.first):
            receipts[recorded.entry["seq"]] = appended.receipt(index, recorded.entry)
    answered: list[LedgerOutcome] = []
    for outcome in outcomes:
        if isinstance(outcome, Recorded) and not outcome.response:
            seq = outcome.entry["seq"]
            if seq not in receipts:
                receipts[seq] = log.receipt(session, seq) if kept else None
            outcome = replace(outcome, receipt=receipts[seq])
            outcome = replace(outcome, response=outcome.response_text())
            if not outcome.repeated and seq in new_claims:
                new_claims[seq].answer = outcome.response
        answered.append(outcome)
    return answered


def refunds_owed(session: Session) -> list[dict[str, Any]]:
    """The public part of every refund owed in the transaction's season, by battle then
    event id: what the console lists and what the archive may publish (no payer data)."""
    return [row.public() for row in SeasonStore.refunds_owed(session)]
