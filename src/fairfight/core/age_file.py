"""The age file format (https://age-encryption.org/v1), as much of it as timelock needs.

drand's timelock tools (`tle`, `tlock-js`) wrap a random 16-byte file key in a `tlock` stanza
and seal the payload with age's STREAM; reading and writing that format ourselves is what lets a
ciphertext we make open with their tools and theirs with ours. The pieces:
- header: `age-encryption.org/v1`, one `-> type args…` line per stanza with its body in
  unpadded base64 (64 columns, the last line shorter), then `--- ` and the header MAC:
  HMAC-SHA-256 keyed with HKDF-SHA-256(file key, salt empty, info `header`) over the header up
  to and including `---`;
- payload: a 16-byte nonce, then STREAM: ChaCha20-Poly1305 in 64 KiB chunks under
  HKDF-SHA-256(file key, salt nonce, info `payload`), the 12-byte nonce an 11-byte big-endian
  chunk counter and a last-chunk flag;
- armor: the whole file in padded base64, 64 columns, between BEGIN/END AGE ENCRYPTED FILE.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from fairfight.core.errors import InputError

__all__ = ["AGE_VERSION", "ARMOR_BEGIN", "ARMOR_END", "CHUNK", "COLUMNS", "FILE_KEY_BYTES",
           "NONCE_BYTES", "TAG", "Stanza", "armor", "open_age", "read_header", "seal_age",
           "unarmor"]

AGE_VERSION = b"age-encryption.org/v1"
ARMOR_BEGIN = "-----BEGIN AGE ENCRYPTED FILE-----"
ARMOR_END = "-----END AGE ENCRYPTED FILE-----"
COLUMNS = 64
CHUNK = 64 * 1024
TAG = 16
FILE_KEY_BYTES = 16
NONCE_BYTES = 16


@dataclass(frozen=True, slots=True)
class Stanza:
    """One recipient stanza of an age header: its type, arguments and binary body."""

    type: str
    args: tuple[str, ...]
    body: bytes

    def encoded(self) -> bytes:
        """The stanza as the header writes it: the arrow line, then the body's base64 lines
        (a body whose base64 fills its last line ends with an empty line, as age requires)."""
        text = base64.b64encode(self.body).rstrip(b"=")
        lines = [text[i:i + COLUMNS] for i in range(0, len(text), COLUMNS)]
        if not lines or len(lines[-1]) == COLUMNS:
            lines.append(b"")
        arrow = " ".join(("->", self.type, *self.args)).encode("ascii")
        return b"\n".join([arrow, *lines]) + b"\n"


def _hkdf(key: bytes, salt: bytes, info: bytes) -> bytes:
    """HKDF-SHA-256 to 32 bytes, age's one key derivation."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(key)


def _stream(key: bytes, data: bytes, seal: bool) -> bytes:
    """age's STREAM over `data`: sealed or opened chunk by chunk (an empty payload is one empty
    final chunk)."""
    aead = ChaCha20Poly1305(key)
    size = CHUNK if seal else CHUNK + TAG
    chunks = [data[i:i + size] for i in range(0, len(data), size)] or [b""]
    out = []
    for counter, chunk in enumerate(chunks):
        nonce = counter.to_bytes(11, "big") + (b"\x01" if counter == len(chunks) - 1 else b"\x00")
        out.append(aead.encrypt(nonce, chunk, None) if seal else aead.decrypt(nonce, chunk, None))
    return b"".join(out)


def seal_age(plaintext: bytes, wrap: Callable[[bytes], Sequence[Stanza]]) -> bytes:
    """The binary age file of `plaintext`, its fresh file key wrapped by `wrap` into stanzas."""
    file_key = os.urandom(FILE_KEY_BYTES)
    header = AGE_VERSION + b"\n" + b"".join(s.encoded() for s in wrap(file_key)) + b"---"
    mac = hmac.new(_hkdf(file_key, b"", b"header"), header, hashlib.sha256).digest()
    nonce = os.urandom(NONCE_BYTES)
    payload = _stream(_hkdf(file_key, nonce, b"payload"), plaintext, seal=True)
    return header + b" " + base64.b64encode(mac).rstrip(b"=") + b"\n" + nonce + payload


def _b64(text: bytes, field: str) -> bytes:
    """Unpadded base64 as age writes it, refused in one line when it is not."""
    try:
        return base64.b64decode(text + b"=" * (-len(text) % 4), validate=True)
    except binascii.Error:
        raise InputError(field, "is not base64", text.decode("ascii", "replace")) from None


def read_header(data: bytes) -> tuple[list[Stanza], bytes, bytes, bytes]:
    """The stanzas, the MAC'd header text, the MAC and the payload of a binary age file."""
    lines = data.split(b"\n")
    if lines[0] != AGE_VERSION:
        raise InputError("ciphertext.version", "is not an age-encryption.org/v1 file",
                         lines[0][:40].decode("ascii", "replace"))
    stanzas: list[Stanza] = []
    at = 1
    while at < len(lines) and lines[at].startswith(b"-> "):
        kind, *args = lines[at][3:].decode("ascii", "replace").split(" ")
        body = b""
        at += 1
        while at < len(lines):
            body += lines[at]
            at += 1
            if len(lines[at - 1]) < COLUMNS:
                break
        stanzas.append(Stanza(kind, tuple(args), _b64(body, f"ciphertext.stanza.{kind}")))
    if at >= len(lines) or not lines[at].startswith(b"--- "):
        raise InputError("ciphertext.header", "has no `--- MAC` line after its stanzas")
    header = b"\n".join(lines[:at]) + b"\n---"
    mac = _b64(lines[at][4:], "ciphertext.mac")
    payload = b"\n".join(lines[at + 1:])
    return stanzas, header, mac, payload


def open_age(data: bytes, unwrap: Callable[[Sequence[Stanza]], bytes]) -> bytes:
    """The plaintext of a binary age file, its file key from `unwrap(stanzas)`; a wrong MAC or
    a tampered payload is refused in one line."""
    stanzas, header, mac, payload = read_header(data)
    file_key = unwrap(stanzas)
    expected = hmac.new(_hkdf(file_key, b"", b"header"), header, hashlib.sha256).digest()
    if not hmac.compare_digest(mac, expected):
        raise InputError("ciphertext.mac", "the header MAC does not match the unwrapped file key")
    if len(payload) < NONCE_BYTES + TAG:
        raise InputError("ciphertext.payload", "is shorter than a nonce and one sealed chunk")
    key = _hkdf(file_key, payload[:NONCE_BYTES], b"payload")
    try:
        return _stream(key, payload[NONCE_BYTES:], seal=False)
    except InvalidTag:
        raise InputError("ciphertext.payload", "a chunk fails its ChaCha20-Poly1305 tag") from None


def armor(data: bytes) -> str:
    """The ASCII armor of a binary age file (padded base64, 64 columns)."""
    text = base64.b64encode(data).decode("ascii")
    lines = [text[i:i + COLUMNS] for i in range(0, len(text), COLUMNS)]
    if lines and len(lines[-1]) == COLUMNS:
        lines.append("")
    return "\n".join([ARMOR_BEGIN, *lines, ARMOR_END]) + "\n"


def unarmor(text: str) -> bytes:
    """The binary age file inside an armor; anything else is refused in one line."""
    body = text.strip()
    if not body.startswith(ARMOR_BEGIN) or not body.endswith(ARMOR_END):
        raise InputError("ciphertext", f"is not an armored age file ({ARMOR_BEGIN} … {ARMOR_END})")
    lines = body[len(ARMOR_BEGIN):-len(ARMOR_END)].split()
    if any(len(line) > COLUMNS for line in lines):
        raise InputError("ciphertext", f"an armor line is longer than {COLUMNS} columns")
    try:
        return base64.b64decode("".join(lines), validate=True)
    except ValueError:  # binascii.Error, or a character outside ASCII
        raise InputError("ciphertext", "the armor is not base64") from None
