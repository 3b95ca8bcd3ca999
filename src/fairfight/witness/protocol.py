"""The checks of C2SP tlog-witness `add-checkpoint`, with no web, database or clock.

A request body is `old <size>`, up to 63 base64 consistency-proof hashes one per line, a blank
line and the signed checkpoint note (https://c2sp.org/tlog-witness). `read_request` parses it
and `judge` decides, against the checkpoint the witness holds for that log, whether to cosign:
each refusal is a `WitnessRefusal` carrying the status the specification names, so the web
layer only renders it. The one rule that needs the database, that checking the old size and
storing the new checkpoint happen as one step, is kept by the store's compare-and-swap.

Decisions the specification leaves open:
- A body over `MAX_BODY_BYTES` is refused (413) before it is read: a checkpoint, 63 hashes
  and a hundred signature lines fit in far less.
- A checkpoint whose old size is zero is accepted only while the witness holds nothing for
  the log (held size 0); the first checkpoint a witness sees is trusted on first use, as in
  every witness, which is why a log should be added to witnesses before it is published.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from fairfight.core import ed25519
from fairfight.core.merkle import EMPTY_ROOT, HASH_BYTES, verify_consistency
from fairfight.core.signed_note import (
    Checkpoint,
    NoteError,
    NoteSignature,
    NoteVerifier,
    parse_checkpoint,
    split_note,
)

__all__ = [
    "MAX_BODY_BYTES",
    "MAX_PROOF_LINES",
    "AddCheckpoint",
    "Held",
    "Verify",
    "WitnessRefusal",
    "add_checkpoint_body",
    "check_log_signature",
    "judge",
    "read_request",
]

MAX_BODY_BYTES = 65536
"""The largest add-checkpoint body read; anything longer is refused unread (413)."""
MAX_PROOF_LINES = 63
"""The most consistency-proof lines a client may send (tlog-witness spec)."""
_MAX_SIZE = 2**63 - 1
_OLD_LINE = re.compile(r"old (0|[1-9][0-9]{0,18})")
_BASE64_HASH = re.compile(r"[A-Za-z0-9+/]{43}=")

Verify = Callable[[bytes, bytes, bytes], bool]
"""An Ed25519 check: (public key, message, signature) -> valid."""


class WitnessRefusal(ValueError):
    """A request the witness refuses: the HTTP status, the field at fault and why."""

    def __init__(self, status: int, field: str, reason: str, held_size: int | None = None):
        super().__init__(f"{field}: {reason}")
        self.status = status
        self.field = field
        self.reason = reason
        self.held_size = held_size


@dataclass(frozen=True, slots=True)
class AddCheckpoint:
    """A parsed add-checkpoint request: old size, proof, the note and its checkpoint."""

    old_size: int
    proof: tuple[bytes, ...]
    note: str
    text: str
    signatures: tuple[NoteSignature, ...]
    checkpoint: Checkpoint


@dataclass(frozen=True, slots=True)
class Held:
    """The newest checkpoint the witness cosigned for one log (size 0: none yet)."""

    size: int
    root: bytes


def _proof_line(line: str, number: int) -> bytes:
    if not _BASE64_HASH.fullmatch(line):
        raise WitnessRefusal(400, f"proof line {number}", "not a base64 32-byte hash")
    try:
        hashed = base64.b64decode(line, validate=True)
    except binascii.Error:
        raise WitnessRefusal(400, f"proof line {number}", "not a base64 32-byte hash") from None
    if len(hashed) != HASH_BYTES or base64.b64encode(hashed).decode("ascii") != line:
        raise WitnessRefusal(400, f"proof line {number}", "not a canonical base64 32-byte hash")
    return hashed


def read_request(body: bytes) -> AddCheckpoint:
    """Parse an add-checkpoint body; a WitnessRefusal (400 or 413) names the field at fault."""
    if len(body) > MAX_BODY_BYTES:
        raise WitnessRefusal(413, "body", f"longer than {MAX_BODY_BYTES} bytes")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise WitnessRefusal(400, "body", "not UTF-8 text") from None
    head, blank, note = text.partition("\n\n")
    if not blank:
        raise WitnessRefusal(400, "body", "needs an old size line, proof lines and a blank line")
    lines = head.split("\n")
    matched = _OLD_LINE.fullmatch(lines[0])
    if matched is None or int(matched[1]) > _MAX_SIZE:
        raise WitnessRefusal(400, "old", "the first line must be 'old <size>' in decimal")
    if len(lines) - 1 > MAX_PROOF_LINES:
        raise WitnessRefusal(400, "proof", f"more than {MAX_PROOF_LINES} lines")
    proof = tuple(_proof_line(line, n) for n, line in enumerate(lines[1:], start=1))
    try:
        checkpoint_text, signatures = split_note(note)
        checkpoint = parse_checkpoint(checkpoint_text)
    except NoteError as error:
        raise WitnessRefusal(400, "checkpoint", str(error)) from None
    if checkpoint.size > _MAX_SIZE:
        raise WitnessRefusal(400, "checkpoint", "the size is above 2**63 - 1")
    old_size = int(matched[1])
    if old_size > checkpoint.size:
        raise WitnessRefusal(400, "old", f"{old_size} is larger than the checkpoint's size")
    return AddCheckpoint(old_size, proof, note, checkpoint_text, tuple(signatures), checkpoint)


def check_log_signature(
    request: AddCheckpoint, keys: Iterable[NoteVerifier], verify: Verify = ed25519.verify
) -> None:
    """403 unless a trusted key of the log signed the checkpoint and every signature line
    naming a trusted key verifies (a failing one makes the note malformed)."""
    trusted = {(key.name, key.key_id): key for key in keys}
    message = request.text.encode("utf-8")
    verified = False
    for signature in request.signatures:
        key = trusted.get((signature.name, signature.key_id))
        if key is None:
            continue
        if not verify(key.public_key, message, signature.signature):
            raise WitnessRefusal(403, "checkpoint", f"the signature by {key.name} does not verify")
        verified = True
    if not verified:
        raise WitnessRefusal(403, "checkpoint", "no signature by a key the witness trusts")


def judge(request: AddCheckpoint, held: Held) -> None:
    """Refuse, with the status the spec names, a checkpoint not consistent with the held one
    (the caller has checked the origin and the log's signature first)."""
    if request.old_size != held.size:
        raise WitnessRefusal(409, "old", f"the witness holds size {held.size}", held.size)
    checkpoint = request.checkpoint
    if checkpoint.size == 0 and checkpoint.root != EMPTY_ROOT:
        raise WitnessRefusal(422, "checkpoint", "a tree of size 0 has the empty tree's root")
    if request.old_size == 0:
        if request.proof:
            raise WitnessRefusal(422, "proof", "must be empty from old size 0")
        return
    if checkpoint.size == held.size:
        if request.proof or checkpoint.root != held.root:
            raise WitnessRefusal(422, "checkpoint", "a different root at the size held")
        return
    if not verify_consistency(held.size, checkpoint.size, held.root, checkpoint.root,
                              request.proof):
        raise WitnessRefusal(422, "proof", "does not show the held tree is a prefix of this one")


def add_checkpoint_body(old_size: int, proof: Sequence[bytes], note: str) -> bytes:
    """The body a log sends: what a client (and the tests and the bench) builds."""
    lines = [f"old {old_size}", *(base64.b64encode(step).decode("ascii") for step in proof)]
    return ("\n".join(lines) + "\n\n" + note).encode("utf-8")
