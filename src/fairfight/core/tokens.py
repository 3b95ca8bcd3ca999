"""Secret tokens (seat links, sign-in cookies, admin tokens): what the server keeps of them.

The service stores only a token's SHA-256, so a copy of the database lets nobody act as a seat
or an operator; every check compares digests in constant time. Standard library only.
"""

from __future__ import annotations

import hashlib
import hmac

__all__ = ["token_digest", "token_matches"]


def token_digest(token: str) -> str:
    """SHA-256 of the token's UTF-8 bytes, as lowercase hex: the only form that is stored."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, stored_digest: str) -> bool:
    """Whether `token` is the one whose digest was stored (constant-time comparison)."""
    return hmac.compare_digest(token_digest(token), stored_digest.strip().lower())
