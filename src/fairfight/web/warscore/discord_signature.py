"""Discord's request signature: Ed25519 over the timestamp header followed by the raw body.

Discord signs every interaction it posts with the application's private key; the service
holds only the public key. A request whose signature does not verify, whose headers are
missing or malformed, or whose timestamp is outside the accepted window is refused before
its body is read as JSON, so a forged or replayed request reaches no command.
"""

from __future__ import annotations

import re

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

__all__ = [
    "MAX_AGE_SECONDS",
    "MAX_AHEAD_SECONDS",
    "SIGNATURE_HEADER",
    "SignatureRefused",
    "TIMESTAMP_HEADER",
    "public_key",
    "verify_request",
]

SIGNATURE_HEADER = "X-Signature-Ed25519"
TIMESTAMP_HEADER = "X-Signature-Timestamp"
MAX_AGE_SECONDS = 300
"""A signed request older than five minutes is refused: a recorded request cannot be
replayed later, while a slow network and clock drift still get through."""
MAX_AHEAD_SECONDS = 60
"""A timestamp this far past the service's clock is refused too: Discord stamps the moment it
sends, so only a skewed clock or a forger makes one from the future."""
_SIGNATURE = re.compile(r"[0-9a-fA-F]{128}")
_TIMESTAMP = re.compile(r"[0-9]{1,12}")


class SignatureRefused(ValueError):
    """A request that does not carry a valid, fresh Discord signature."""

    def __init__(self, header: str, rule: str) -> None:
        super().__init__(f"{header}: {rule}")
        self.header = header
        self.rule = rule


def public_key(hex_key: str) -> Ed25519PublicKey:
    """The application's public key from its 64 hexadecimal digits."""
    return Ed25519PublicKey.from_public_bytes(bytes.fromhex(hex_key))


def verify_request(key: Ed25519PublicKey, signature: str | None, timestamp: str | None,
                   body: bytes, now: float) -> None:
    """Refuse (raise `SignatureRefused`) unless `signature` is the key's Ed25519 signature of
    `timestamp + body` and the timestamp (Unix seconds) lies within the accepted window."""
    if not signature:
        raise SignatureRefused(SIGNATURE_HEADER, "is missing")
    if not timestamp:
        raise SignatureRefused(TIMESTAMP_HEADER, "is missing")
    if _SIGNATURE.fullmatch(signature) is None:
        raise SignatureRefused(SIGNATURE_HEADER, "must be 128 hexadecimal digits")
    if _TIMESTAMP.fullmatch(timestamp) is None:
        raise SignatureRefused(TIMESTAMP_HEADER, "must be Unix seconds in digits")
    try:
        key.verify(bytes.fromhex(signature), timestamp.encode("ascii") + body)
    except InvalidSignature:
        raise SignatureRefused(SIGNATURE_HEADER, "does not verify") from None
    age = now - int(timestamp)
    if age > MAX_AGE_SECONDS:
        raise SignatureRefused(TIMESTAMP_HEADER, f"is older than {MAX_AGE_SECONDS} seconds")
    if age < -MAX_AHEAD_SECONDS:
        raise SignatureRefused(TIMESTAMP_HEADER,
                               f"is more than {MAX_AHEAD_SECONDS} seconds in the future")
