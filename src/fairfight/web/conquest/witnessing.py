"""Each season's new checkpoints sent to the configured witnesses, in the background.

One lane per witness: a thread and a bounded queue of seasons whose newest head waits to be
sent. A season already waiting is not queued twice, and when the queue is full the season
waiting longest is dropped: the checkpoint sent is always the season's newest when its turn
comes, and a newer checkpoint covers every older one. Nothing here runs in a request or a
writing transaction of a contribution or a battle, so a witness that is slow, down or
hostile delays nothing but its own cosignatures.

The request is C2SP tlog-witness `add-checkpoint`: `old <size>`, the consistency proof from
that size (the largest this witness cosigned, 0 at first) to the new one, a blank line, the
checkpoint note. On 409 the witness names the size it holds, and the next attempt starts
there; other failures are retried with a doubling pause. A cosignature is stored only when it
verifies under the witness's configured key (`core.cosignature`).
"""

from __future__ import annotations

import base64
import logging
import threading
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field

import httpx
from pydantic import BaseModel, Field

from fairfight.conquest.store import checkpoints, cosignatures, log
from fairfight.core.cosignature import CosignatureError, verify_cosignature
from fairfight.web.conquest.catalog import SeasonCatalog
from fairfight.web.conquest.checkpoints import CheckpointNotes
from fairfight.web.conquest.proof_trees import ProofTrees
from fairfight.web.witness_settings import WitnessSetting

__all__ = ["BACKOFF_FIRST_SECONDS", "BACKOFF_MAX_SECONDS", "CONFLICT_RETRIES", "ClientFactory",
           "INTERVAL_SECONDS", "REQUEST_SECONDS", "WitnessLane", "WitnessSender", "WitnessSummary",
           "add_checkpoint_body", "cosigned_words"]

BACKOFF_FIRST_SECONDS = 0.5
"""The pause after a first failed attempt; doubled after each further one."""
BACKOFF_MAX_SECONDS = 60.0
"""The longest pause between attempts."""
INTERVAL_SECONDS = 1.0
"""The least time between two sends of one season to one witness (`witness_interval`): under
a steady stream of heads each send costs the service a proof, a signature and two short
write transactions, so sends are paced, not one per head."""
REQUEST_SECONDS = 10.0
"""How long one add-checkpoint request may take."""
CONFLICT_RETRIES = 2
"""Attempts from the size a 409 names before the checkpoint counts as failed."""
_LOG = logging.getLogger(__name__)

ClientFactory = Callable[[WitnessSetting], httpx.Client]
"""Makes the HTTP client of one witness (tests hand in one bound to an in-process app)."""


class WitnessSummary(BaseModel):
    """Who cosigned the season's newest cosigned checkpoint, of the witnesses configured."""

    witnesses: list[str] = Field(description="the configured witnesses' names")
    vkeys: list[str] = Field(description="their verifier keys, to pass to --witness")
    size: int | None = Field(description="the tree size of the newest checkpoint any of them "
                             "cosigned; null when none has yet")
    cosigned_by: list[str] = Field(description="the witnesses whose cosignature of it is stored")
    checkpoint_url: str | None = Field(description="that checkpoint, with its cosignatures")
    text: str = Field(description="the same in words, as the pages say it")


def cosigned_words(cosigned_by: list[str], witnesses: list[str]) -> str:
    """`cosigned by 2 of 3 witnesses: alpha, beta`, or that none has cosigned yet."""
    if not cosigned_by:
        return f"not cosigned yet by any of the {len(witnesses)} witnesses ({', '.join(witnesses)})"
    noun = "witness" if len(witnesses) == 1 else "witnesses"
    return f"cosigned by {len(cosigned_by)} of {len(witnesses)} {noun}: {', '.join(cosigned_by)}"


class _Failed(Exception):
    """One attempt failed; `retry` says whether a later attempt may do better."""

    def __init__(self, reason: str, *, retry: bool) -> None:
        super().__init__(reason)
        self.retry = retry


def add_checkpoint_body(old_size: int, proof: list[bytes], note: str) -> bytes:
    """The tlog-witness request body: `old N`, one base64 proof hash a line, blank, note."""
    lines = [f"old {old_size}\n"] + [base64.b64encode(item).decode() + "\n" for item in proof]
    return ("".join(lines) + "\n" + note).encode("utf-8")


@dataclass
class WitnessLane:
    """One witness's queue and counters (read by metrics and tests)."""

    witness: WitnessSetting
    capacity: int
    waiting: list[int] = field(default_factory=list)
    known: dict[int, int] = field(default_factory=dict)
    """Per season, the size the witness said it holds (a 409), until it cosigns again."""
    due: dict[int, float] = field(default_factory=dict)
    """Per season, the monotonic time before which it is not sent again (the interval)."""
    sent: int = 0
    cosigned: int = 0
    failures: int = 0
    dropped: int = 0
    busy: bool = False


class WitnessSender:
    """Sends every season's newest checkpoint to each witness and stores the cosignatures."""

    def __init__(self, catalog: SeasonCatalog, notes: CheckpointNotes,
                 witnesses: list[WitnessSetting], host: str, *, queue_size: int = 16,
                 client_factory: ClientFactory | None = None,
                 backoff_first: float = BACKOFF_FIRST_SECONDS,
                 interval: float = INTERVAL_SECONDS) -> None:
        self.catalog, self.notes, self.host = catalog, notes, host
        self.interval = interval
        self.trees = ProofTrees()
        """Each season's tree, grown by new leaves, for the consistency proofs."""
        self.lanes = [WitnessLane(witness, queue_size) for witness in witnesses]
        self.client_factory: ClientFactory = client_factory or (
            lambda _: httpx.Client(timeout=REQUEST_SECONDS, follow_redirects=False))
        """Makes each witness's HTTP client (set before the app starts to reach a fake)."""
        self._backoff_first = backoff_first
        self._changed = threading.Condition()
        self._closed = False
        self._threads: list[threading.Thread] = []
        self.stored: dict[int, int] = {}
        """Cosignatures stored by this process, by season (`page_mark`)."""
        self.observers: list[Callable[[WitnessLane], None]] = []
        """Called after each change of a lane's queue or counters (metrics)."""

    def submit(self, season_id: int) -> None:
        """Queue the season's newest checkpoint for every witness (any thread; at once)."""
        with self._changed:
            for lane in self.lanes:
                if season_id in lane.waiting:
                    continue
                if len(lane.waiting) >= lane.capacity:
                    lane.waiting.pop(0)
                    lane.dropped += 1
                lane.waiting.append(season_id)
            self._changed.notify_all()
        self._observe_all()

    def summary(self, season_id: int, commitment: str,
                majority: bool = False) -> WitnessSummary | None:
        """The newest checkpoint of the season any configured witness cosigned (a majority of
        them, when asked), and who did; None without witnesses."""
        names = [lane.witness.name for lane in self.lanes]
        if not names:
            return None
        origin = checkpoints.origin(self.host, commitment)
        quorum = len(names) // 2 + 1 if majority else 1
        with self.catalog.read(season_id) as session:
            found = cosignatures.newest_cosigned(session, origin, set(names), quorum)
        by = [] if found is None else sorted(found.witnesses)
        return WitnessSummary(
            witnesses=names, vkeys=[lane.witness.vkey for lane in self.lanes],
            size=None if found is None else found.size, cosigned_by=by,
            checkpoint_url=None if found is None else
            f"/api/seasons/{season_id}/checkpoint?size={found.size}",
            text=cosigned_words(by, names))

    def page_mark(self, season_id: int) -> int:
        """Changes with every cosignature this process stored for the season, so a kept page
        that shows the witnesses is rendered again."""
        return self.stored.get(season_id, 0)

    def start(self) -> None:
        """Start one thread per witness, and queue every season once (heads made while the
        service was down are sent too); idempotent."""
        if self._closed:  # the app served again (a test client opened twice)
            self._closed, self._threads = False, []
        if self._threads or not self.lanes:
            return
        for lane in self.lanes:
            thread = threading.Thread(target=self._run, args=(lane,), daemon=True,
                                      name=f"witness-{lane.witness.name}")
            self._threads.append(thread)
            thread.start()
        for season_id in self.catalog.season_ids():
            self.submit(season_id)

    def close(self) -> None:
        """Stop the threads (an attempt in flight ends at its request's timeout)."""
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        for thread in self._threads:
            thread.join(timeout=REQUEST_SECONDS + 1)

    def wait_until(self, done: Callable[[], bool], timeout: float) -> bool:
        """Wait until `done()` holds, re-asked after every change of a lane (tests and the
        bench); whether it came within `timeout` seconds."""
        with self._changed:
            return self._changed.wait_for(done, timeout)

    def idle(self, timeout: float, witnesses: Collection[str] | None = None) -> bool:
        """Wait until the named lanes (all by default) hold and work on nothing."""
        lanes = [lane for lane in self.lanes if witnesses is None or lane.witness.name in witnesses]
        return self.wait_until(lambda: all(not lane.waiting and not lane.busy for lane in lanes),
                               timeout)

    def _observe_all(self) -> None:
        for lane in self.lanes:
            for observer in self.observers:
                observer(lane)

    def _take(self, lane: WitnessLane) -> int | None:
        """The first waiting season whose interval has passed (None once closed); marks the
        lane busy and the season not due again for `interval` seconds."""
        with self._changed:
            while not self._closed:
                now = time.monotonic()
                ready = [s for s in lane.waiting if lane.due.get(s, 0.0) <= now]
                if ready:
                    lane.waiting.remove(ready[0])
                    lane.busy = True
                    lane.due[ready[0]] = now + self.interval
                    return ready[0]
                soonest = min((lane.due[s] for s in lane.waiting), default=None)
                self._changed.wait(None if soonest is None else soonest - now)
            return None

    def _run(self, lane: WitnessLane) -> None:
        client = self.client_factory(lane.witness)
        pause = self._backoff_first
        try:
            while (season_id := self._take(lane)) is not None:
                retry = self._attempt(lane, client, season_id)
                with self._changed:
                    lane.busy = False
                    if retry and season_id not in lane.waiting:
                        lane.waiting.insert(0, season_id)
                    self._changed.notify_all()
                self._observe_all()
                if retry:
                    with self._changed:
                        self._changed.wait_for(lambda: self._closed, pause)
                    pause = min(pause * 2, BACKOFF_MAX_SECONDS)
                else:
                    pause = self._backoff_first
        finally:
            client.close()

    def _attempt(self, lane: WitnessLane, client: httpx.Client, season_id: int) -> bool:
        """One send of the season's newest checkpoint; whether to try again later."""
        try:
            for _ in range(1 + CONFLICT_RETRIES):
                if self._send(lane, client, season_id):
                    return False
        except _Failed as failure:
            lane.failures += 1
            _LOG.warning("witness %s, season %d: %s", lane.witness.name, season_id, failure)
            return failure.retry
        except Exception as error:  # a database or network fault: try again later
            lane.failures += 1
            _LOG.warning("witness %s, season %d: %s", lane.witness.name, season_id, error)
            return True
        lane.failures += 1
        return True

    def _send(self, lane: WitnessLane, client: httpx.Client, season_id: int) -> bool:
        """Post the newest checkpoint once; True when done (cosigned, or nothing to send),
        False after a 409 (the next try starts at the size the witness named)."""
        name = lane.witness.name
        with self.catalog.read(season_id) as session:
            head = log.latest_head(session)
            size = 0 if head is None else int(head["size"])
            if head is None or size == 0:
                return True
            origin = checkpoints.origin(self.host, head["season"])
            cosigned = cosignatures.last_cosigned(session, origin, name)
            if cosigned >= size:
                return True
            old = lane.known.get(season_id, cosigned)
            if old > size:
                raise _Failed(f"the witness holds size {old}, more than the log's {size}",
                              retry=False)
            proof = self.trees.consistency_proof(session, season_id, old, head)
        note = self.notes.note(season_id, self.host, size)
        lane.sent += 1
        answer = client.post(f"{lane.witness.url}/add-checkpoint",
                             content=add_checkpoint_body(old, proof, note))
        if answer.status_code == 409:
            lane.known[season_id] = _reported_size(answer)
            return False
        if answer.status_code != 200:
            reason = answer.text.strip().splitlines()[0][:200] if answer.text.strip() else ""
            raise _Failed(f"answered {answer.status_code} {reason} (the checkpoint of size "
                          f"{size}, the proof from {old})",
                          retry=answer.status_code >= 500 or answer.status_code == 429)
        self._store(lane, season_id, origin, size, note, answer.text)
        return True

    def _store(self, lane: WitnessLane, season_id: int, origin: str, size: int, note: str,
               answer: str) -> None:
        key = lane.witness.key()
        for line in answer.splitlines():
            try:
                timestamp = verify_cosignature(note, line, key)
            except CosignatureError:
                continue  # another key's line, or no cosignature at all
            with self.catalog.database.transaction(season_id, write=True) as session:
                cosignatures.record(session, origin, size, key.name, timestamp, line + "\n")
            lane.known.pop(season_id, None)
            lane.cosigned += 1
            self.stored[season_id] = self.stored.get(season_id, 0) + 1
            return
        raise _Failed("answered 200 without a cosignature that verifies under its key",
                      retry=False)


def _reported_size(answer: httpx.Response) -> int:
    text = answer.text.strip()
    if not text.isdigit() or len(text) > 19:
        raise _Failed(f"answered 409 without a size ({text[:40]!r})", retry=False)
    return int(text)
