"""What the server keeps of a secret token is its SHA-256, compared in constant time."""

from __future__ import annotations

import hashlib

from fairfight.core.tokens import token_digest, token_matches


def test_the_digest_is_sha256_of_the_utf8_text() -> None:
    assert token_digest("abc") == hashlib.sha256(b"abc").hexdigest()
    assert token_digest("é") == hashlib.sha256("é".encode()).hexdigest()


def test_a_token_matches_only_its_own_digest_whatever_the_case_or_spaces() -> None:
    stored = " " + token_digest("seat-secret").upper() + "\n"
    assert token_matches("seat-secret", stored)
    assert not token_matches("seat-secreT", stored)
    assert not token_matches("", token_digest("seat-secret"))
