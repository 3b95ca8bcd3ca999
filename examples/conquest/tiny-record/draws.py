"""Seeds, commitments and positional draws shared by every ruleset.

Standard library only, so that anyone can recompute a draw with a bare Python
(or with `printf '%s' 'KEY:0' | sha256sum`). A draw is addressed by a key and a
tuple of fields, never by the state of a generator: the same address always
gives the same 64-bit number.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
from fractions import Fraction
from functools import lru_cache

__all__ = [
    "Addresses",
    "DRAW_BITS",
    "DRAW_RANGE",
    "SEED_HEX_LENGTH",
    "address",
    "address_tail",
    "beacon_key",
    "below",
    "chance",
    "commitment",
    "hash64",
    "hash64_run",
    "new_seed",
    "validate_seed",
    "verify_reveal",
]

DRAW_BITS = 64
DRAW_RANGE = 1 << DRAW_BITS
SEED_HEX_LENGTH = 64

_FIELD_TEXT = re.compile(r"[A-Za-z0-9_-]+")
_SEED_HEX = re.compile(r"[0-9a-f]{64}")


def new_seed() -> str:
    """A fresh secret seed: 32 bytes from the operating system, as 64 lowercase hex digits."""
    return secrets.token_hex(SEED_HEX_LENGTH // 2)


def validate_seed(seed_hex: str) -> str:
    """Return the seed unchanged, or raise ValueError when it is not 64 lowercase hex digits."""
    if not isinstance(seed_hex, str) or not _SEED_HEX.fullmatch(seed_hex):
        raise ValueError("seed: must be exactly 64 lowercase hexadecimal digits")
    return seed_hex


def commitment(seed_hex: str) -> str:
    """SHA-256 of the seed's ASCII text, lowercase hex: what `printf %s SEED | sha256sum` prints."""
    return hashlib.sha256(validate_seed(seed_hex).encode("ascii")).hexdigest()


def verify_reveal(seed_hex: str, published_commitment: str) -> bool:
    """True when a revealed seed matches the commitment published before play."""
    try:
        expected = commitment(seed_hex)
    except ValueError:
        return False
    return hmac.compare_digest(expected, published_commitment.strip().lower())


def beacon_key(seed_hex: str, beacon_randomness_hex: str) -> str:
    """Mix a public beacon value into the seed: HMAC-SHA256(key=seed, msg=beacon), lowercase hex.

    The beacon is published after the commitment, so the operator cannot choose a
    seed that favours anyone.
    """
    validate_seed(seed_hex)
    if not re.fullmatch(r"[0-9a-f]+", beacon_randomness_hex or ""):
        raise ValueError("beacon randomness: must be lowercase hexadecimal digits")
    return hmac.new(
        seed_hex.encode("ascii"), beacon_randomness_hex.encode("ascii"), hashlib.sha256
    ).hexdigest()


def _encode_field(position: str, field: int | str) -> str:
    """Render one address field; refuse anything that could make two addresses collide."""
    if isinstance(field, bool):
        raise ValueError(f"{position}: booleans are not draw fields; pass 0 or 1")
    if isinstance(field, int):
        if field < 0:
            raise ValueError(f"{position}: integer fields must be zero or positive")
        return str(field)
    if isinstance(field, str):
        if not _FIELD_TEXT.fullmatch(field):
            raise ValueError(f"{position}: text fields use only A-Z a-z 0-9 _ - and are not empty")
        return field
    raise ValueError(f"{position}: a draw field is an int or a str, not {type(field).__name__}")


def address(key: str, *fields: int | str) -> str:
    """The ASCII text that is hashed for a draw: `key:field:field...`."""
    if not isinstance(key, str):
        raise ValueError("key: must be text")
    return ":".join([key if _valid_text(key) else _encode_field("key", key), *_encode(fields)])


def _encode(fields: tuple[int | str, ...], first: int = 0) -> list[str]:
    """The address text of each field (numbered from `first` in error messages)."""
    parts = []
    for i, field in enumerate(fields, first):
        # Plain whole numbers and text already seen valid skip the full check (and the
        # building of its error position); anything else takes it.
        if type(field) is int and field >= 0:
            parts.append(str(field))
        elif type(field) is str and _valid_text(field):
            parts.append(field)
        else:
            parts.append(_encode_field(f"field {i}", field))
    return parts


@lru_cache(maxsize=4096)
def _valid_text(field: str) -> bool:
    """True for a text field of the address alphabet (fields repeat: stage names, ids)."""
    return _FIELD_TEXT.fullmatch(field) is not None


def hash64(key: str, *fields: int | str) -> int:
    """The draw at an address: first 8 bytes, big-endian, of SHA-256 of the address text."""
    digest = hashlib.sha256(address(key, *fields).encode("ascii")).digest()
    return int.from_bytes(digest[:8], "big")


class Addresses:
    """Draws whose addresses share a start, `key:field...`: the start is checked and hashed
    once, each draw only its own fields (`Addresses(key, a).hash64(b) == hash64(key, a, b)`)."""

    __slots__ = ("_count", "_start")

    def __init__(self, key: str, *fields: int | str) -> None:
        self._start = hashlib.sha256((address(key, *fields) + ":").encode("ascii"))
        self._count = len(fields)

    def extended(self, *fields: int | str) -> Addresses:
        """The addresses that continue this start with `fields`."""
        longer = Addresses.__new__(Addresses)
        longer._start = self._start.copy()
        longer._start.update((":".join(_encode(fields, self._count)) + ":").encode("ascii"))
        longer._count = self._count + len(fields)
        return longer

    def hash64(self, *fields: int | str) -> int:
        """The draw at the shared start followed by `fields` (at least one)."""
        if not fields:
            raise ValueError("fields: an address continues the shared start")
        digest = self._start.copy()
        digest.update(_tail(self._count, *fields))
        return int.from_bytes(digest.digest()[:8], "big")

    def hash64_tail(self, tail: bytes) -> int:
        """The draw at the shared start followed by a tail made once by `address_tail` (for an
        address asked under many starts, such as a race's die in every game and year)."""
        if not tail:
            raise ValueError("fields: an address continues the shared start")
        digest = self._start.copy()
        digest.update(tail)
        return int.from_bytes(digest.digest()[:8], "big")


@lru_cache(maxsize=8192, typed=True)
def _tail(first: int, *fields: int | str) -> bytes:
    """The address text of fields that continue a start of `first` fields (tails repeat from
    game to game: a race's candidate die, a state's die; `typed` keeps True apart from 1)."""
    return ":".join(_encode(fields, first)).encode("ascii")


def address_tail(*fields: int | str) -> bytes:
    """The address text of `fields` continuing any shared start, for `Addresses.hash64_tail`."""
    if not fields:
        raise ValueError("fields: an address continues the shared start")
    return _tail(0, *fields)


def hash64_run(key: str, first: int, count: int) -> list[int]:
    """`hash64(key, i)` for i = first .. first + count - 1, checking the key once."""
    address(key, first)
    return [
        int.from_bytes(hashlib.sha256(f"{key}:{i}".encode("ascii")).digest()[:8], "big")
        for i in range(first, first + count)
    ]


def _check_draw(x: int) -> None:
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < DRAW_RANGE:
        raise ValueError("draw: must be an integer in [0, 2**64)")


def below(n: int, x: int) -> int:
    """Map a 64-bit draw to 0..n-1 by multiply-shift (no modulo bias beyond 2**-64 per value)."""
    # Plain ints in range (every draw a caller takes straight from `hash64`) skip the checks
    # below, which only decide which error to raise.
    if type(n) is int and type(x) is int and n >= 1 and 0 <= x < DRAW_RANGE:
        return (x * n) >> DRAW_BITS
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise ValueError("n: must be a positive integer")
    _check_draw(x)
    return (x * n) >> DRAW_BITS


def chance(x: int, p: Fraction) -> bool:
    """True with probability exactly p over a uniform 64-bit draw, up to 2**-64 granularity.

    The draw succeeds when x / 2**64 < p, decided in integers.
    """
    _check_draw(x)
    if not 0 <= p <= 1:
        raise ValueError("p: a probability lies in [0, 1]")
    return x * p.denominator < p.numerator * DRAW_RANGE
