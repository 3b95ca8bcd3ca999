"""C2SP tlog-cosignature, cosignature/v1 with Ed25519, in the standard library only.

A witness that has checked a log's checkpoint against the newest one it holds signs it again
under its own key: a note signature line `— <witness name> base64(key id || timestamp ||
signature)`, where the key id is SHA-256(name || 0x0A || 0x04 || public key)[:4], the
timestamp is 8 bytes big-endian (POSIX seconds), and the Ed25519 signature covers

    cosignature/v1
    time <timestamp>
    <the checkpoint body, its final newline included>

(https://c2sp.org/tlog-cosignature). A client that trusts a set of witnesses counts the valid
cosignatures on a checkpoint (`cosigned_by`) and refuses one that fewer than its quorum signed:
an operator who shows two views of one log would need that many witnesses to sign both.

Signing takes a `cryptography` private key, or a `CallableSigner` wrapping any signing
function, so nothing here imports a signing library; verifying uses `core.ed25519`. Like
`signed_note`, the module also runs as a plain file beside that one and `ed25519.py`.

Decisions the specification leaves open:
- `cosigned_by` ignores a cosignature that does not verify (it is no evidence of anything)
  rather than refusing the note, so one bad line cannot hide the good ones from a quorum count;
  `verify_cosignature`, asked about one line, raises instead.
- A witness key's vkey has the type byte 0x04; a log's 0x01 vkey is refused, since the same
  key must never sign both kinds of message under one name.
- Timestamps are read up to 2**63 - 1 (the spec's bound); a timestamp in the future is not
  refused here, since only the caller knows its clock.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

if __package__:
    from fairfight.core import ed25519
    from fairfight.core.signed_note import NoteError, NoteSignature, split_note
else:  # a plain file beside ed25519.py and signed_note.py: no package
    import ed25519  # type: ignore[import-not-found, no-redef, unused-ignore]
    from signed_note import (  # type: ignore[import-not-found, no-redef, unused-ignore]
        NoteError,
        NoteSignature,
        split_note,
    )

__all__ = [
    "COSIGNATURE_HEADER",
    "COSIGNATURE_TYPE",
    "MAX_TIMESTAMP",
    "CallableSigner",
    "CosignatureError",
    "SigningKey",
    "WitnessKey",
    "cosignature_key_id",
    "cosignature_message",
    "cosigned_by",
    "note_body",
    "sign_cosignature",
    "verify_cosignature",
]

COSIGNATURE_TYPE = 0x04
"""The signature type byte of an Ed25519 cosignature/v1 key (signed-note spec's registry)."""
COSIGNATURE_HEADER = "cosignature/v1"
"""The first line of every signed message: domain separation from plain note signatures."""
MAX_TIMESTAMP = 2**63 - 1
"""The largest timestamp a cosignature may carry (tlog-cosignature spec)."""
_SIGNATURE_BYTES = 8 + ed25519.SIGNATURE_BYTES
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f]")


class CosignatureError(NoteError):
    """A cosignature, witness key or cosigned note that is malformed or does not verify."""


class _PublicKey(Protocol):
    def public_bytes_raw(self) -> bytes: ...


class SigningKey(Protocol):
    """What signing needs: an Ed25519 `sign` and its public key (a `cryptography` key fits)."""

    def sign(self, data: bytes) -> bytes: ...

    def public_key(self) -> _PublicKey: ...


@dataclass(frozen=True, slots=True)
class _RawPublicKey:
    raw: bytes

    def public_bytes_raw(self) -> bytes:
        return self.raw


@dataclass(frozen=True, slots=True)
class CallableSigner:
    """A signing function and its 32-byte public key, for a key held outside this process."""

    public: bytes
    signer: Callable[[bytes], bytes]

    def sign(self, data: bytes) -> bytes:
        return self.signer(data)

    def public_key(self) -> _PublicKey:
        return _RawPublicKey(self.public)


def _check_name(name: str) -> None:
    """A key name is non-empty text without whitespace or '+' (signed-note spec)."""
    if not name or "+" in name or any(c.isspace() for c in name):
        raise CosignatureError(f"witness name {name!r}: must be non-empty, without spaces or '+'")


def cosignature_key_id(name: str, public_key: bytes) -> bytes:
    """SHA-256(name || 0x0A || 0x04 || public key)[:4], the id cosignature lines carry."""
    _check_name(name)
    material = name.encode("utf-8") + b"\n" + bytes([COSIGNATURE_TYPE]) + bytes(public_key)
    return hashlib.sha256(material).digest()[:4]


def _b64decode(text: str, what: str) -> bytes:
    """Strict standard base64 with padding, in its one canonical spelling."""
    try:
        data = base64.b64decode(text, validate=True) if _BASE64.fullmatch(text) else None
    except binascii.Error:
        data = None
    if data is None or base64.b64encode(data).decode("ascii") != text:
        raise CosignatureError(f"{what}: not canonical padded base64")
    return data


@dataclass(frozen=True, slots=True)
class WitnessKey:
    """A witness's name, key id and Ed25519 public key: what a client trusts it by."""

    name: str
    key_id: bytes
    public_key: bytes

    @classmethod
    def of(cls, name: str, public_key: bytes) -> WitnessKey:
        """The witness key of a name and a 32-byte public key (its id computed)."""
        if len(public_key) != ed25519.PUBLIC_KEY_BYTES:
            raise CosignatureError(f"public key: {len(public_key)} bytes, Ed25519 needs 32")
        return cls(name, cosignature_key_id(name, public_key), bytes(public_key))

    def vkey(self) -> str:
        """`<name>+<hex key id>+<base64(0x04 || key)>`, the signed-note verifier key form."""
        encoded = base64.b64encode(bytes([COSIGNATURE_TYPE]) + self.public_key).decode("ascii")
        return f"{self.name}+{self.key_id.hex()}+{encoded}"

    @classmethod
    def from_vkey(cls, text: str) -> WitnessKey:
        """Read a witness vkey; its key id must be the one its name and key give."""
        name, _, rest = text.strip().partition("+")
        hex_id, _, encoded = rest.partition("+")
        _check_name(name)
        if not re.fullmatch(r"[0-9a-f]{8}", hex_id):
            raise CosignatureError("witness vkey: the key id must be 8 lowercase hex digits")
        typed = _b64decode(encoded, "witness vkey")
        if len(typed) != 1 + ed25519.PUBLIC_KEY_BYTES or typed[0] != COSIGNATURE_TYPE:
            raise CosignatureError("witness vkey: not a cosignature/v1 key (type 0x04, 32 bytes)")
        key = cls.of(name, typed[1:])
        if key.key_id.hex() != hex_id:
            raise CosignatureError("witness vkey: the key id does not match the name and key")
        return key


def note_body(note_text: str) -> str:
    """The checkpoint body of a note, or the text itself when it carries no signatures (a
    checkpoint body has no blank line, so the two cannot be confused)."""
    if "\n\n" in note_text:
        return split_note(note_text)[0]
    if not note_text.endswith("\n") or _CONTROL.search(note_text):
        raise CosignatureError("checkpoint: must end in a newline and hold no control characters")
    return note_text


def _check_timestamp(timestamp: int) -> None:
    if isinstance(timestamp, bool) or not isinstance(timestamp, int):
        raise CosignatureError("timestamp: must be a whole number of seconds")
    if not 0 <= timestamp <= MAX_TIMESTAMP:
        raise CosignatureError(f"timestamp: {timestamp} is outside 0 to 2**63 - 1")


def cosignature_message(body: str, timestamp: int) -> bytes:
    """The bytes a cosignature/v1 signs: header line, time line, then the checkpoint body."""
    _check_timestamp(timestamp)
    return f"{COSIGNATURE_HEADER}\ntime {timestamp}\n{body}".encode()


def sign_cosignature(note_text: str, name: str, private_key: SigningKey, timestamp: int) -> str:
    """The cosignature line (newline included) of a checkpoint, given as a body or a note,
    by the witness `name` at `timestamp` (POSIX seconds)."""
    body = note_body(note_text)
    public = private_key.public_key().public_bytes_raw()
    signature = private_key.sign(cosignature_message(body, timestamp))
    if len(signature) != ed25519.SIGNATURE_BYTES:
        raise CosignatureError(f"signature: {len(signature)} bytes, Ed25519 gives 64")
    sealed = timestamp.to_bytes(8, "big") + signature
    return NoteSignature(name, cosignature_key_id(name, public), sealed).line()


def _check(body: str, signature: NoteSignature, key: WitnessKey) -> int:
    """The timestamp of one cosignature by `key` on `body`; CosignatureError unless valid."""
    if (signature.name, signature.key_id) != (key.name, key.key_id):
        raise CosignatureError(f"cosignature by {signature.name}: not by the key of {key.name}")
    if len(signature.signature) != _SIGNATURE_BYTES:
        raise CosignatureError(f"cosignature by {key.name}: not 8 + 64 bytes after the key id")
    timestamp = int.from_bytes(signature.signature[:8], "big")
    if timestamp > MAX_TIMESTAMP:
        raise CosignatureError(f"cosignature by {key.name}: timestamp above 2**63 - 1")
    message = cosignature_message(body, timestamp)
    if not ed25519.verify(key.public_key, message, signature.signature[8:]):
        raise CosignatureError(f"cosignature by {key.name}: does not verify")
    return timestamp


def verify_cosignature(note_text: str, line: str, key: WitnessKey) -> int:
    """The timestamp of the cosignature `line` by `key` on a checkpoint (body or note);
    CosignatureError when the line is malformed, by another key, or does not verify."""
    body = note_body(note_text)
    try:
        _, signatures = split_note(body + "\n" + line.rstrip("\n") + "\n")
    except NoteError as error:
        raise CosignatureError(f"cosignature line: {error}") from None
    if len(signatures) != 1:
        raise CosignatureError("cosignature line: must be exactly one signature line")
    return _check(body, signatures[0], key)


def cosigned_by(note_text: str, keys: Iterable[WitnessKey]) -> dict[str, int]:
    """{witness name: timestamp} of every trusted witness with a valid cosignature on the
    note (its newest, when it signed more than once); others' lines are ignored."""
    body, signatures = split_note(note_text)
    trusted = {(key.name, key.key_id): key for key in keys}
    found: dict[str, int] = {}
    for signature in signatures:
        key = trusted.get((signature.name, signature.key_id))
        if key is None:
            continue
        try:
            timestamp = _check(body, signature, key)
        except CosignatureError:
            continue
        found[key.name] = max(timestamp, found.get(key.name, timestamp))
    return found
