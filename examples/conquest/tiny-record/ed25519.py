"""Ed25519 signature verification after RFC 8032, in pure Python with the standard library only.

The season archive ships this file so that anyone can check the season key's signatures with a
bare `python3 -S`; the service itself signs with the `cryptography` package. Only verification
lives here: nothing in it handles a secret.

Decisions the RFC leaves open:
- The group equation is checked cofactorless, `[S]B = R + [k]A'`, which RFC 8032 section
  5.1.7 allows in place of multiplying both sides by 8. OpenSSL (behind `cryptography` and
  node:crypto) and BoringSSL (behind Chromium's Web Crypto) check it the same way, so the
  verifiers give one answer on signatures crafted with small-order points too (the tests show
  it for the trivial forgery under the identity key).
- Malformed input is refused, never raised: a key or signature of the wrong length, an `S` that
  is not below the group order L, or an `A` or `R` that does not decode as a point by the rules
  of section 5.1.3 (including the non-canonical encodings `y >= p` and `x = 0` with the sign bit
  set) makes `verify` return False. Only an argument that is not bytes raises (TypeError).
"""

from __future__ import annotations

import hashlib
from functools import lru_cache
from typing import TypeAlias

__all__ = ["GROUP_ORDER", "PUBLIC_KEY_BYTES", "SIGNATURE_BYTES", "valid_public_key", "verify"]

PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64

_P = 2**255 - 19
"""The field prime p of edwards25519 (RFC 8032 section 5.1)."""
GROUP_ORDER = 2**252 + 27742317777372353535851937790883648493
"""L, the order of the base point; a signature's S must be below it (section 5.1.7)."""
_D = -121665 * pow(121666, _P - 2, _P) % _P
_D2 = 2 * _D % _P
_SQRT_MINUS_ONE = pow(2, (_P - 1) // 4, _P)

_BytesLike: TypeAlias = bytes | bytearray | memoryview

_Point: TypeAlias = tuple[int, int, int, int]
"""Extended homogeneous coordinates (X, Y, Z, T): x = X/Z, y = Y/Z, x*y = T/Z (section 5.1.4)."""

_IDENTITY: _Point = (0, 1, 1, 0)
_WINDOW_BITS = 4
_WINDOWS = 64  # 64 windows of 4 bits cover every scalar below 2**256


def _recover_x(y: int, sign: int) -> int | None:
    """The x with sign bit `sign` on the curve at `y`, or None (section 5.1.3, steps 2-4)."""
    if y >= _P:
        return None
    u = (y * y - 1) % _P
    v = (_D * y * y + 1) % _P
    v3 = v * v * v % _P
    x = u * v3 * pow(u * v3 * v3 * v % _P, (_P - 5) // 8, _P) % _P
    check = v * x * x % _P
    if check == (-u) % _P:
        x = x * _SQRT_MINUS_ONE % _P
    elif check != u:
        return None
    if x == 0 and sign:
        return None
    return _P - x if (x & 1) != sign else x


def _decode_point(encoded: bytes) -> tuple[int, int] | None:
    """The affine point a 32-byte encoding names, or None when it names none (section 5.1.3)."""
    number = int.from_bytes(encoded, "little")
    y = number & ((1 << 255) - 1)
    x = _recover_x(y, number >> 255)
    return None if x is None else (x, y)


def _add(first: _Point, second: _Point) -> _Point:
    """The sum of two points (the unified addition formula of section 5.1.4)."""
    x1, y1, z1, t1 = first
    x2, y2, z2, t2 = second
    a = (y1 - x1) * (y2 - x2) % _P
    b = (y1 + x1) * (y2 + x2) % _P
    c = t1 * _D2 * t2 % _P
    d = 2 * z1 * z2 % _P
    e, f, g, h = b - a, d - c, d + c, b + a
    return (e * f % _P, g * h % _P, f * g % _P, e * h % _P)


def _multiples(point: _Point) -> list[_Point]:
    """0, 1, ..., 15 times `point`: the table one 4-bit window of a scalar indexes."""
    table = [_IDENTITY, point]
    for _ in range(2, 1 << _WINDOW_BITS):
        table.append(_add(table[-1], point))
    return table


def _affine_table(points: list[_Point]) -> list[tuple[int, int, int]]:
    """Each point as (y+x, y-x, 2d*x*y) with Z = 1, so that adding it costs two fewer
    multiplications on every verification."""
    table = []
    for x, y, z, _t in points:
        inverse = pow(z, _P - 2, _P)
        ax, ay = x * inverse % _P, y * inverse % _P
        table.append(((ay + ax) % _P, (ay - ax) % _P, _D2 * ax * ay % _P))
    return table


def _base_point() -> _Point:
    """B: y = 4/5 with x even (section 5.1)."""
    y = 4 * pow(5, _P - 2, _P) % _P
    x = _recover_x(y, 0)
    assert x is not None
    return (x, y, 1, x * y % _P)


_BASE_MULTIPLES = _affine_table(_multiples(_base_point()))


@lru_cache(maxsize=32)
def _minus_key_multiples(public_key: bytes) -> tuple[_Point, ...] | None:
    """0, 1, ..., 15 times -A for an encoded key A, or None when A is no point. Kept for the
    last few keys: a season's heads are all signed with one."""
    decoded = _decode_point(public_key)
    if decoded is None:
        return None
    x, y = decoded
    return tuple(_multiples((_P - x, y, 1, (_P - x) * y % _P)))


def _double_scalar_multiply(s: int, k: int, point_table: tuple[_Point, ...]) -> _Point:
    """[s]B + [k]P, both scalars below 2**256, given the multiples 0..15 of P: one chain of
    doublings shared by both scalars (Straus's trick with 4-bit windows), about 250 doublings
    and 130 additions in all."""
    p = _P
    d2 = _D2
    x1, y1, z1, t1 = _IDENTITY
    for window in range(_WINDOWS - 1, -1, -1):
        if window != _WINDOWS - 1:
            for _ in range(_WINDOW_BITS):
                # Doubling as in section 5.1.4, with E = H - (X1 + Y1)^2 written -2*X1*Y1, and
                # T left out but for the last of the four (no doubling reads it).
                a = x1 * x1 % p
                b = y1 * y1 % p
                h = a + b
                e = x1 * y1 * -2 % p
                g = a - b
                f = (z1 * z1 << 1) % p + g
                x1, y1, z1 = e * f % p, g * h % p, f * g % p
            t1 = e * h % p
        shift = window * _WINDOW_BITS
        digit = (k >> shift) & 15
        if digit:
            x2, y2, z2, t2 = point_table[digit]
            a = (y1 - x1) * (y2 - x2) % p
            b = (y1 + x1) * (y2 + x2) % p
            c = t1 * d2 * t2 % p
            d = 2 * z1 * z2 % p
            e, f, g, h = b - a, d - c, d + c, b + a
            x1, y1, z1, t1 = e * f % p, g * h % p, f * g % p, e * h % p
        digit = (s >> shift) & 15
        if digit:
            plus, minus, times = _BASE_MULTIPLES[digit]
            a = (y1 - x1) * minus % p
            b = (y1 + x1) * plus % p
            c = t1 * times % p
            d = 2 * z1
            e, f, g, h = b - a, d - c, d + c, b + a
            x1, y1, z1, t1 = e * f % p, g * h % p, f * g % p, e * h % p
    return (x1, y1, z1, t1)


def valid_public_key(public_key: _BytesLike) -> bool:
    """Whether `public_key` can serve as a season key: 32 bytes that decode as a curve point
    (RFC 8032 section 5.1.3) outside the eight points of small order, under which anyone could
    forge (the identity, for one, takes R = identity and S = 0 for every message)."""
    if not isinstance(public_key, bytes | bytearray | memoryview):
        raise TypeError("an Ed25519 public key is bytes")
    if len(public_key) != PUBLIC_KEY_BYTES:
        return False
    decoded = _decode_point(bytes(public_key))
    if decoded is None:
        return False
    x, y = decoded
    multiple: _Point = (x, y, 1, x * y % _P)
    for _ in range(3):
        multiple = _add(multiple, multiple)
    return multiple[0] % _P != 0  # [8]A is the identity exactly for the small-order points


def verify(public_key: _BytesLike, message: _BytesLike, signature: _BytesLike) -> bool:
    """Whether `signature` is the Ed25519 signature of `message` under `public_key` (RFC 8032
    section 5.1.7, checked cofactorless). Malformed keys and signatures give False."""
    for name, value in (("public key", public_key), ("message", message), ("signature", signature)):
        if not isinstance(value, bytes | bytearray | memoryview):
            raise TypeError(f"the {name} is bytes, not {type(value).__name__}")
    key, signed = bytes(public_key), bytes(signature)
    if len(key) != PUBLIC_KEY_BYTES or len(signed) != SIGNATURE_BYTES:
        return False
    encoded_r, encoded_s = signed[:32], signed[32:]
    s = int.from_bytes(encoded_s, "little")
    if s >= GROUP_ORDER:
        return False
    minus_a_multiples = _minus_key_multiples(key)
    r = _decode_point(encoded_r)
    if minus_a_multiples is None or r is None:
        return False
    digest = hashlib.sha512(encoded_r + key + bytes(message)).digest()
    k = int.from_bytes(digest, "little") % GROUP_ORDER
    x, y, z, _t = _double_scalar_multiply(s, k, minus_a_multiples)  # [S]B - [k]A, against R
    rx, ry = r
    return (x - rx * z) % _P == 0 and (y - ry * z) % _P == 0
