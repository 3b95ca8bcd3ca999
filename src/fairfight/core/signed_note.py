"""C2SP signed notes and tlog-checkpoints, in the standard library only [docs/season-log.md].

A signed note (https://c2sp.org/signed-note) is a text that ends in a newline, a blank line,
and one line per signature: `— <key name> <base64(key id || signature)>`. The key id is the
first four bytes of SHA-256(key name || 0x0A || 0x01 || public key) for an Ed25519 key, and
the signature is Ed25519 over the text (its final newline included, the blank line not). A
checkpoint (https://c2sp.org/tlog-checkpoint) is such a note whose text is the log's origin,
its size in decimal and its root hash in base64, one per line, then any extension lines.
These are the formats transparency-log witnesses and clients already speak, so a season's
signed heads can be checked by tools that know nothing of fairfight.

Signing takes a callable (the service passes its `cryptography` key's `sign`), so nothing here
holds a secret; verifying uses `core.ed25519`. Like that module, this one also runs as a plain
file beside it under a bare `python3 -S`, so a verifier that ships both needs nothing else.

Decisions the specifications leave open:
- A note whose signatures include none by a known key is refused (as the reference
  implementation does); signatures by unknown keys are otherwise ignored, and a known key
  whose signature fails refuses the whole note.
- At most `MAX_SIGNATURES` signature lines are read, like the reference implementation.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

if __package__:
    from fairfight.core import ed25519
else:  # a plain file beside ed25519.py (as a season archive ships its checks): no package
    import ed25519  # type: ignore[import-not-found, no-redef, unused-ignore]

__all__ = [
    "ED25519_TYPE",
    "MAX_SIGNATURES",
    "Checkpoint",
    "NoteError",
    "NoteSignature",
    "NoteVerifier",
    "checkpoint_text",
    "key_id",
    "open_note",
    "parse_checkpoint",
    "parse_signer_key",
    "parse_verifier_key",
    "sign_note",
    "split_note",
    "verifier_key",
]

ED25519_TYPE = 0x01
"""The signature type byte of Ed25519 in key ids and verifier keys (signed-note spec)."""
MAX_SIGNATURES = 100
"""The most signature lines a note may carry before it is refused as malformed."""
_DASH = "\u2014 "
_SIGNER_PREFIX = "PRIVATE+KEY+"
_HASH_BYTES = 32
_BASE64 = re.compile(r"[A-Za-z0-9+/]*={0,2}")
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f]")


class NoteError(ValueError):
    """A signed note, checkpoint or key that is malformed or does not verify."""


def _b64decode(text: str, what: str) -> bytes:
    """Strict standard base64 (padding required), so one value has one spelling."""
    if not _BASE64.fullmatch(text) or len(text) % 4:
        raise NoteError(f"{what}: not standard padded base64")
    try:
        data = base64.b64decode(text, validate=True)
    except binascii.Error:
        raise NoteError(f"{what}: not standard padded base64") from None
    if base64.b64encode(data).decode("ascii") != text:
        raise NoteError(f"{what}: not the canonical base64 spelling")
    return data


def _check_name(name: str) -> None:
    """A key name is non-empty UTF-8 text without whitespace or '+' (signed-note spec)."""
    if not name or "+" in name or any(c.isspace() for c in name):
        raise NoteError(f"key name {name!r}: must be non-empty, without spaces or '+'")


def key_id(name: str, public_key: bytes) -> bytes:
    """The 4-byte id of an Ed25519 key: SHA-256(name || 0x0A || 0x01 || key)[:4]."""
    _check_name(name)
    material = name.encode("utf-8") + b"\n" + bytes([ED25519_TYPE]) + public_key
    return hashlib.sha256(material).digest()[:4]


@dataclass(frozen=True, slots=True)
class NoteVerifier:
    """A named Ed25519 public key that checks note signatures."""

    name: str
    key_id: bytes
    public_key: bytes

    def vkey(self) -> str:
        """The verifier key text: `<name>+<hex key id>+<base64(0x01 || key)>`."""
        encoded = base64.b64encode(bytes([ED25519_TYPE]) + self.public_key).decode("ascii")
        return f"{self.name}+{self.key_id.hex()}+{encoded}"


def verifier_key(name: str, public_key: bytes) -> NoteVerifier:
    """The verifier of an Ed25519 public key under a key name."""
    if len(public_key) != ed25519.PUBLIC_KEY_BYTES:
        raise NoteError(f"public key: {len(public_key)} bytes, Ed25519 needs 32")
    return NoteVerifier(name, key_id(name, public_key), bytes(public_key))


def _split_key(text: str, what: str) -> tuple[str, bytes, bytes]:
    """(name, key id, typed key) of `<name>+<8 hex>+<base64>`, with its id checked."""
    name, _, rest = text.partition("+")
    hex_id, _, encoded = rest.partition("+")
    _check_name(name)
    if not re.fullmatch(r"[0-9a-f]{8}", hex_id):
        raise NoteError(f"{what}: the key id must be 8 lowercase hex digits")
    typed = _b64decode(encoded, what)
    if len(typed) != 1 + ed25519.PUBLIC_KEY_BYTES or typed[0] != ED25519_TYPE:
        raise NoteError(f"{what}: not an Ed25519 key (type 0x01 and 32 bytes)")
    return name, bytes.fromhex(hex_id), typed


def parse_verifier_key(vkey: str) -> NoteVerifier:
    """Read a verifier key; its id must be the one its name and key give."""
    name, given_id, typed = _split_key(vkey, "verifier key")
    verifier = verifier_key(name, typed[1:])
    if verifier.key_id != given_id:
        raise NoteError("verifier key: the key id does not match the name and key")
    return verifier


def parse_signer_key(skey: str) -> tuple[str, bytes, bytes]:
    """(name, key id, 32-byte Ed25519 seed) of `PRIVATE+KEY+<name>+<hex id>+<base64(0x01 ||
    seed)>`, the reference implementation's signer key text; the id is not checked here since
    it names the public key, which only a signing library can derive from the seed."""
    if not skey.startswith(_SIGNER_PREFIX):
        raise NoteError("signer key: must start with PRIVATE+KEY+")
    name, given_id, typed = _split_key(skey[len(_SIGNER_PREFIX):], "signer key")
    return name, given_id, typed[1:]


@dataclass(frozen=True, slots=True)
class NoteSignature:
    """One signature line of a note: its key name, key id and the signature bytes."""

    name: str
    key_id: bytes
    signature: bytes

    def line(self) -> str:
        """The line as the note spells it, newline included."""
        encoded = base64.b64encode(self.key_id + self.signature).decode("ascii")
        return f"{_DASH}{self.name} {encoded}\n"


def _check_text(text: str) -> None:
    """A note's text is non-empty, ends in a newline and has no other control character."""
    if not text.endswith("\n") or _CONTROL.search(text):
        raise NoteError("note text: must end in a newline and hold no control characters")


def sign_note(text: str, name: str, public_key: bytes,
              sign: Callable[[bytes], bytes]) -> str:
    """The note of `text` signed by one Ed25519 key: `sign` maps the text's bytes to the
    64-byte signature (e.g. a `cryptography` private key's `sign`)."""
    _check_text(text)
    verifier = verifier_key(name, public_key)
    signature = NoteSignature(name, verifier.key_id, sign(text.encode("utf-8")))
    return text + "\n" + signature.line()


def split_note(note: str) -> tuple[str, list[NoteSignature]]:
    """(text, signatures) of a note, parsed but not verified; NoteError when malformed."""
    _check_text(note)  # signature lines too: no control character anywhere
    text, marker, block = note.rpartition("\n\n")
    if not marker or not block.endswith("\n"):
        raise NoteError("note: must end with a blank line and signature lines")
    text += "\n"
    _check_text(text)
    lines = block[:-1].split("\n")
    if len(lines) > MAX_SIGNATURES:
        raise NoteError(f"note: more than {MAX_SIGNATURES} signatures")
    signatures = []
    for number, line in enumerate(lines, start=1):
        if not line.startswith(_DASH):
            raise NoteError(f"signature line {number}: must start with an em dash and a space")
        name, _, encoded = line[len(_DASH):].partition(" ")
        _check_name(name)
        data = _b64decode(encoded, f"signature line {number}")
        if len(data) < 5:
            raise NoteError(f"signature line {number}: too short for a key id and a signature")
        signatures.append(NoteSignature(name, data[:4], data[4:]))
    return text, signatures


def open_note(note: str, verifiers: Iterable[NoteVerifier]) -> tuple[str, list[str]]:
    """(text, names of the keys that verified it): every signature by a known key must verify,
    and at least one must be present; others are ignored."""
    text, signatures = split_note(note)
    known = {(v.name, v.key_id): v for v in verifiers}
    message = text.encode("utf-8")
    verified: list[str] = []
    seen: set[tuple[str, bytes]] = set()
    for signature in signatures:
        verifier = known.get((signature.name, signature.key_id))
        if verifier is None or (signature.name, signature.key_id) in seen:
            continue
        if not ed25519.verify(verifier.public_key, message, signature.signature):
            raise NoteError(f"signature by {signature.name}: does not verify")
        seen.add((signature.name, signature.key_id))
        verified.append(signature.name)
    if not verified:
        raise NoteError("note: no signature by a known key")
    return text, verified


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A tlog-checkpoint's body: the log's origin, its size, its root hash, extension lines."""

    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()


def checkpoint_text(origin: str, size: int, root: bytes, extensions: Sequence[str] = ()) -> str:
    """The checkpoint body: origin, decimal size, base64 root, extensions, each one line."""
    if not origin or "\n" in origin or size < 0 or len(root) != _HASH_BYTES:
        raise NoteError("checkpoint: needs a one-line origin, a size >= 0 and a 32-byte root")
    if any(not line or "\n" in line for line in extensions):
        raise NoteError("checkpoint: an extension is one non-empty line")
    lines = [origin, str(size), base64.b64encode(root).decode("ascii"), *extensions]
    return "\n".join(lines) + "\n"


def parse_checkpoint(text: str) -> Checkpoint:
    """Read a checkpoint body (a verified note's text); NoteError names what is wrong."""
    _check_text(text)
    lines = text[:-1].split("\n")
    if len(lines) < 3 or not lines[0] or any(not line for line in lines[3:]):
        raise NoteError("checkpoint: needs origin, size and root lines, and no empty line")
    if not re.fullmatch(r"0|[1-9][0-9]*", lines[1]):
        raise NoteError("checkpoint: the size must be a decimal number without leading zeros")
    root = _b64decode(lines[2], "checkpoint root")
    if len(root) != _HASH_BYTES:
        raise NoteError("checkpoint: the root hash must be 32 bytes")
    return Checkpoint(lines[0], int(lines[1]), root, tuple(lines[3:]))
