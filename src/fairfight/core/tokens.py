"""Secret tokens (seat links, sign-in cookies, admin tokens): what the server keeps of them.

The service stores only a token's SHA-256, so a copy of the database lets nobody act as a seat
or an operator; every check compares digests in constant time. Standard library only.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

__all__ = ["derived_token", "token_digest", "token_matches"]


def token_digest(token: str) -> str:
    """SHA-256 of the token's UTF-8 bytes, as lowercase hex: the only form that is stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_digest: str) -> bool:
    """Whether `token` is the one whose digest was stored (constant-time comparison)."""
    return hmac.compare_digest(token_digest(token), stored_digest.strip().lower())


def derived_token(secret: str, purpose: str) -> str:
    """A token only the holder of `secret` can compute again: HMAC-SHA256 of `purpose`.

    A ballot table's invite links are derived from its host's token, so the host can see them
    again on a reload while the server still keeps nothing but digests.
    """
    mac = hmac.new(secret.encode("utf-8"), purpose.encode("utf-8"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).rstrip(b"=").decode("ascii")
