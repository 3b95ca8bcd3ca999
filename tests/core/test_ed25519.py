"""The pure-Python Ed25519 verifier against RFC 8032's vectors and the `cryptography` package."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from fairfight.core import ed25519

GOLDEN = Path(__file__).parent / "golden" / "rfc8032_ed25519.json"
FIELD_PRIME = 2**255 - 19

# The eight points of small order, canonically encoded (the identity, the point of order 2, the
# two of order 4 and the four of order 8), as listed by every analysis of Ed25519 edge cases.
SMALL_ORDER_POINTS = [
    "0100000000000000000000000000000000000000000000000000000000000000",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000080",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
]


def rfc_vectors() -> list[dict[str, Any]]:
    vectors: list[dict[str, Any]] = json.loads(GOLDEN.read_text())["vectors"]
    return vectors


def raw_public_key(private: Ed25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def library_accepts(public_key: bytes, message: bytes, signature: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def encoding(y: int, sign: int = 0) -> bytes:
    """The 32 bytes RFC 8032 section 5.1.2 writes for a y coordinate and an x sign bit."""
    return (y | sign << 255).to_bytes(32, "little")


@pytest.mark.parametrize("vector", rfc_vectors(), ids=lambda vector: vector["name"])
def test_rfc8032_vectors_verify(vector: dict[str, Any]) -> None:
    public_key = bytes.fromhex(vector["public_key"])
    message = bytes.fromhex(vector["message"])
    signature = bytes.fromhex(vector["signature"])
    assert ed25519.verify(public_key, message, signature)
    assert not ed25519.verify(public_key, message + b"\x00", signature)
    # The library derives the same key and (deterministic) signature from the secret key, which
    # catches a mistyped vector: a single wrong byte anywhere changes the signature.
    private = Ed25519PrivateKey.from_private_bytes(bytes.fromhex(vector["secret_key"]))
    assert raw_public_key(private) == public_key
    assert private.sign(message) == signature


def test_vectors_are_the_five_of_section_7_1() -> None:
    names = [vector["name"] for vector in rfc_vectors()]
    assert names == ["TEST 1", "TEST 2", "TEST 3", "TEST 1024", "TEST SHA(abc)"]
    assert len(bytes.fromhex(rfc_vectors()[3]["message"])) == 1023


def signed_corpus(seed: int, count: int) -> list[tuple[bytes, bytes, bytes]]:
    """`count` (public key, message, signature) triples from seeded keys and messages."""
    chooser = random.Random(seed)
    keys = [Ed25519PrivateKey.from_private_bytes(chooser.randbytes(32)) for _ in range(25)]
    corpus = []
    for number in range(count):
        private = keys[number % len(keys)]
        message = chooser.randbytes(chooser.randrange(0, 300))
        corpus.append((raw_public_key(private), message, private.sign(message)))
    return corpus


def test_agrees_with_the_library_on_a_thousand_valid_signatures() -> None:
    for public_key, message, signature in signed_corpus(seed=8032, count=1000):
        assert library_accepts(public_key, message, signature)
        assert ed25519.verify(public_key, message, signature)


def corrupted(chooser: random.Random, triple: tuple[bytes, bytes, bytes]) -> tuple[bytes, ...]:
    """The triple with one thing wrong: a bit of R, of S or of the message flipped, a byte
    appended to or dropped from the message, or another signer's key."""
    public_key, message, signature = triple
    way = chooser.randrange(5)
    if way in (0, 1):
        position = chooser.randrange(32) + 32 * way
        flipped = bytearray(signature)
        flipped[position] ^= 1 << chooser.randrange(8)
        return public_key, message, bytes(flipped)
    if way == 2 and message:
        flipped = bytearray(message)
        flipped[chooser.randrange(len(flipped))] ^= 1 << chooser.randrange(8)
        return public_key, bytes(flipped), signature
    if way == 3:
        return public_key, message[:-1] if message else b"\x00", signature
    other = raw_public_key(Ed25519PrivateKey.from_private_bytes(chooser.randbytes(32)))
    return other, message, signature


def test_agrees_with_the_library_on_a_thousand_corrupted_signatures() -> None:
    chooser = random.Random(19)
    for triple in signed_corpus(seed=9162, count=1000):
        public_key, message, signature = corrupted(chooser, triple)
        assert (public_key, message, signature) != triple
        assert not library_accepts(public_key, message, signature)
        assert not ed25519.verify(public_key, message, signature)


@pytest.fixture(name="good")
def fixture_good() -> tuple[bytes, bytes, bytes]:
    return signed_corpus(seed=1, count=1)[0]


@pytest.mark.parametrize("key_length", [0, 31, 33, 64])
def test_a_key_of_the_wrong_length_is_refused(
    good: tuple[bytes, bytes, bytes], key_length: int
) -> None:
    public_key, message, signature = good
    resized = (public_key * 2)[:key_length]
    assert not ed25519.verify(resized, message, signature)
    assert not ed25519.valid_public_key(resized)


@pytest.mark.parametrize("signature_length", [0, 32, 63, 65, 128])
def test_a_signature_of_the_wrong_length_is_refused(
    good: tuple[bytes, bytes, bytes], signature_length: int
) -> None:
    public_key, message, signature = good
    assert not ed25519.verify(public_key, message, (signature * 2)[:signature_length])


def test_an_s_at_or_above_the_group_order_is_refused(good: tuple[bytes, bytes, bytes]) -> None:
    """S + L passes the group equation (L times B is the identity) yet must be refused: the
    check that makes signatures non-malleable (RFC 8032 section 5.1.7, step 1)."""
    public_key, message, signature = good
    s = int.from_bytes(signature[32:], "little")
    for too_big in (s + ed25519.GROUP_ORDER, ed25519.GROUP_ORDER, 2**256 - 1):
        malleated = signature[:32] + too_big.to_bytes(32, "little")
        assert not ed25519.verify(public_key, message, malleated)
        assert not library_accepts(public_key, message, malleated)


def test_a_key_that_is_no_point_is_refused(good: tuple[bytes, bytes, bytes]) -> None:
    _, message, signature = good
    not_on_curve = encoding(2)  # (y*y - 1) / (d*y*y + 1) has no square root for y = 2
    assert not ed25519.valid_public_key(not_on_curve)
    assert not ed25519.verify(not_on_curve, message, signature)


def test_an_r_that_is_no_point_is_refused(good: tuple[bytes, bytes, bytes]) -> None:
    public_key, message, signature = good
    assert not ed25519.verify(public_key, message, encoding(2) + signature[32:])


@pytest.mark.parametrize(
    "key",
    [encoding(FIELD_PRIME + 1), encoding(1, sign=1), encoding(FIELD_PRIME - 1, sign=1)],
    ids=["y = p + 1", "identity with the sign bit", "order two with the sign bit"],
)
def test_non_canonical_keys_are_refused_where_the_library_is_lenient(key: bytes) -> None:
    """Section 5.1.3 refuses y >= p and x = 0 with the sign bit set. OpenSSL reduces such keys
    and then accepts, for y = p + 1 (the identity), R = identity with S = 0 on every message."""
    identity_forgery = encoding(1) + bytes(32)
    assert not ed25519.valid_public_key(key)
    assert not ed25519.verify(key, b"any message", identity_forgery)


def test_small_order_keys_are_points_but_not_valid_season_keys() -> None:
    """verify follows the RFC (the identity key accepts the trivial forgery, as the library
    does), so a season header's key must pass valid_public_key as well."""
    identity_forgery = encoding(1) + bytes(32)
    assert ed25519.verify(bytes.fromhex(SMALL_ORDER_POINTS[0]), b"hi", identity_forgery)
    assert library_accepts(bytes.fromhex(SMALL_ORDER_POINTS[0]), b"hi", identity_forgery)
    for point in SMALL_ORDER_POINTS:
        assert ed25519._decode_point(bytes.fromhex(point)) is not None, point  # a point, yet
        assert not ed25519.valid_public_key(bytes.fromhex(point)), point
    for public_key, _, _ in signed_corpus(seed=2, count=25):
        assert ed25519.valid_public_key(public_key)


def test_arguments_that_are_not_bytes_raise_type_error(good: tuple[bytes, bytes, bytes]) -> None:
    public_key, message, signature = good
    with pytest.raises(TypeError):
        ed25519.verify(public_key.hex(), message, signature)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        ed25519.valid_public_key(public_key.hex())  # type: ignore[arg-type]
    assert ed25519.verify(bytearray(public_key), memoryview(message), bytearray(signature))


def test_the_module_runs_alone_under_a_bare_python(tmp_path: Path) -> None:
    """Copied out of the package, as an archive ships it, and run with `python -S`."""
    shutil.copy(ed25519.__file__, tmp_path / "ed25519.py")
    vector = rfc_vectors()[1]
    check = "import ed25519, sys; print(ed25519.verify(*(bytes.fromhex(h) for h in sys.argv[1:])))"
    arguments = [vector["public_key"], vector["message"], vector["signature"]]
    run = subprocess.run(
        [sys.executable, "-S", "-c", check, *arguments],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout.strip() == "True"
