"""Checkpoint notes: what the C2SP wrapping costs over the bare Ed25519 operations.

Baselines: the season key's bare `cryptography` signature over a checkpoint's text, and the
pure-Python `core.ed25519.verify` of it. Measured, in the same run: `signed_note.sign_note`
(the text's signature line: key id, base64) and `signed_note.open_note` (parsing the note and
the verifier's key id, then the same check), both on a checkpoint of a 1,000,000-leaf log.
"""

from __future__ import annotations

import hashlib

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from bench.timing import best_seconds, report
from fairfight.core import ed25519, signed_note

SIGNS = 2000
VERIFIES = 200


def main() -> None:
    key = Ed25519PrivateKey.from_private_bytes(hashlib.sha256(b"bench season key").digest())
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    origin = "battles.example/conquest/" + hashlib.sha256(b"bench season").hexdigest()
    text = signed_note.checkpoint_text(origin, 1_000_000, hashlib.sha256(b"root").digest())
    message = text.encode()
    signature = key.sign(message)
    note = signed_note.sign_note(text, origin, public, key.sign)
    verifier = signed_note.verifier_key(origin, public)

    bare_sign = best_seconds(lambda: [key.sign(message) for _ in range(SIGNS)], 3)
    note_sign = best_seconds(
        lambda: [signed_note.sign_note(text, origin, public, key.sign) for _ in range(SIGNS)], 3)
    report("bare Ed25519 signature (cryptography)", SIGNS / bare_sign, "/s")
    report("checkpoint note signed", SIGNS / note_sign, "/s", SIGNS / bare_sign)

    bare_check = best_seconds(
        lambda: [ed25519.verify(public, message, signature) for _ in range(VERIFIES)], 3)
    note_check = best_seconds(
        lambda: [signed_note.open_note(note, [verifier]) for _ in range(VERIFIES)], 3)
    report("bare Ed25519 check (pure Python)", VERIFIES / bare_check, "/s")
    report("checkpoint note opened (pure Python)", VERIFIES / note_check, "/s",
           VERIFIES / bare_check)
