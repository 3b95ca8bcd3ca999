"""Every signed head of the season log as a C2SP checkpoint note [docs/season-log.md].

A checkpoint restates a head (its size and root) in the format transparency-log witnesses and
clients share (`core.signed_note`), signed by the same season key under the key name of its
origin, `<host>/conquest/<commitment>`. Ed25519 is deterministic, so one head and one origin
always give the same note bytes: it is signed when asked for, never stored. Only a writing
transaction holds the season key (`log.SIGNER_INFO_KEY`), so signing needs one.
"""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from sqlalchemy.orm import Session

from fairfight.conquest.store import log
from fairfight.core import signed_note
from fairfight.core.errors import InputError

__all__ = ["ORIGIN_PATH", "Signed", "head_of_size", "origin", "sign_checkpoint", "verifier"]

ORIGIN_PATH = "conquest"
"""The path between the host and the commitment in a season log's origin."""

Signed = tuple[int, str]
"""(the tree size a checkpoint states, the signed note)."""


def origin(host: str, commitment: str) -> str:
    """The origin line (and key name) of a season's checkpoints: host, path, commitment."""
    return f"{host.lower()}/{ORIGIN_PATH}/{commitment}"


def verifier(host: str, commitment: str, log_key_hex: str) -> signed_note.NoteVerifier:
    """The note verifier of a season's checkpoints: its vkey is what clients and witnesses
    are configured with."""
    return signed_note.verifier_key(origin(host, commitment), bytes.fromhex(log_key_hex))


def head_of_size(session: Session, size: int) -> dict[str, Any] | None:
    """The signed head that covers exactly `size` leaves, or None when no head has that size
    (a batch of leaves appended together has one head, after its last leaf)."""
    found = log.heads(session, after=size - 1, limit=1) if size >= 1 else []
    return found[0] if found and found[0]["size"] == size else None


def sign_checkpoint(session: Session, host: str, size: int | None = None) -> Signed | None:
    """The signed head of `size` leaves (the newest when None) as a signed checkpoint note, in
    a writing transaction; None for a season without a log or without a head of that size."""
    head = log.latest_head(session) if size is None else head_of_size(session, size)
    key_hex = log.log_key(session)
    if head is None or key_hex is None:
        return None
    signer: log.Signer | None = session.info.get(log.SIGNER_INFO_KEY)
    if signer is None:
        raise InputError("season key", "this transaction cannot sign the season log")
    key = signer()
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    if public.hex() != key_hex:
        raise InputError("season key", "the stored key is not the header's log_key")
    name = origin(host, head["season"])
    text = signed_note.checkpoint_text(name, head["size"], bytes.fromhex(head["root"]))
    return head["size"], signed_note.sign_note(text, name, public, key.sign)
