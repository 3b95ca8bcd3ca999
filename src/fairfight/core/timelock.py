"""drand timelock encryption (tlock), as drand's `tle` and `tlock-js` make it [docs/season-log.md].

A drand network's threshold BLS signature on round N is published at round N's time and not
before; tlock encrypts to the signature that does not exist yet. For the unchained G1 scheme
(`bls-unchained-g1-rfc9380`, quicknet): the round's signature is sk·H(SHA-256(round as 8 bytes
big endian)) on G1 (RFC 9380 hash-to-curve), the network's public key is sk·g2 on G2, and the
file key is wrapped with the Boneh–Franklin IBE, CCA variant, that kyber names `EncryptCCAonG2`
(the ciphertext's U on G2):
  sigma random, r = H3(sigma, msg), U = r·g2, V = sigma ⊕ H2(e(H(id), pk)^r), W = msg ⊕ H4(sigma);
decrypting with the signature s: sigma = V ⊕ H2(e(s, U)), msg = W ⊕ H4(sigma), then U = H3·g2
is checked. The wrapped key sits in an age file's `tlock <round> <chain hash>` stanza (`age_file`).

The pairings come from `py-arkworks-bls12381` (the `timelock` extra), imported only when used,
so this module imports without it. A beacon signature is verified against the network's public
key before it is used: a wrong signature is refused, never silently decrypts to garbage.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from fairfight.core.age_file import Stanza, armor, open_age, read_header, seal_age, unarmor
from fairfight.core.draws import verify_reveal
from fairfight.core.errors import InputError, VerificationError

__all__ = ["DST_G1", "KNOWN_NETWORKS", "MISSING_LIBRARY", "POINT_G1", "POINT_G2", "QUICKNET",
           "R_ORDER", "SEAL_BYTES", "Network", "TimelockCiphertext", "beacon_message", "decrypt",
           "encrypt", "locked_round", "open_seed", "pairing_library", "read_stanza",
           "verify_beacon"]

DST_G1 = b"BLS_SIG_BLS12381G1_XMD:SHA-256_SSWU_RO_NUL_"
"""Hash-to-G1 domain separation tag of the RFC 9380 unchained scheme (quicknet)."""
R_ORDER = 0x73EDA753299D7D483339D80809A1D80553BDA402FFFE5BFEFFFFFFFF00000001
"""The order of BLS12-381's prime subgroups: H3 draws scalars below it."""
POINT_G1 = 48
POINT_G2 = 96
SEAL_BYTES = 16
MISSING_LIBRARY = ("needs the pairing library py-arkworks-bls12381 "
                   "(pip install 'fairfight[timelock]')")


@dataclass(frozen=True, slots=True)
class Network:
    """A drand network as tlock sees it: chain hash, G2 public key, genesis time and period."""

    name: str
    chain_hash: str
    public_key: bytes
    genesis_time: int
    period: int

    def round_at(self, unix_time: int) -> int:
        """The round current at a Unix time (round 1 at genesis, 0 before it), as drand counts."""
        if unix_time < self.genesis_time:
            return 0
        return (unix_time - self.genesis_time) // self.period + 1

    def time_of(self, round_number: int) -> int:
        """The Unix time at which a round's beacon is due (genesis for round 1)."""
        if round_number < 1:
            raise InputError("round", "drand rounds start at 1", round_number)
        return self.genesis_time + (round_number - 1) * self.period


QUICKNET = Network(
    name="quicknet",
    chain_hash="52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971",
    public_key=bytes.fromhex(
        "83cf0f2896adee7eb8b5f01fcad3912212c437e0073e911fb90022d3e760183c8c4b450b6a0a6c3a"
        "c6a5776a2d1064510d1fec758c921cc22b0e17e63aaf4bcb5ed66304de9cf809bd274ca73bab4af5"
        "a6e9c76a4bc09e76eae8991ef5ece45a"),
    genesis_time=1692803367,
    period=3,
)
"""drand's quicknet (League of Entropy mainnet, 3-second rounds), as drand's tlock sources
give it."""
KNOWN_NETWORKS: dict[str, Network] = {QUICKNET.chain_hash: QUICKNET}
"""The networks a season's timelock may name, by chain hash: a header naming a network whose
key the operator might hold would prove nothing."""


@dataclass(frozen=True, slots=True)
class TimelockCiphertext:
    """The round and chain hash an armored tlock file names, read without decrypting it."""

    round: int
    chain_hash: str


def pairing_library() -> ModuleType:
    """The pairing module, or a one-line refusal saying what to install (an input error: the
    command cannot run here, which says nothing about the season)."""
    try:
        import py_arkworks_bls12381
    except ImportError:
        raise InputError("timelock", MISSING_LIBRARY) from None
    return py_arkworks_bls12381


def beacon_message(round_number: int) -> bytes:
    """What an unchained drand round signs: SHA-256 of the round as 8 bytes big endian."""
    if not 1 <= round_number < 2**64:
        raise InputError("round", "drand rounds run from 1 to 2^64 - 1", round_number)
    return hashlib.sha256(round_number.to_bytes(8, "big")).digest()


def _h2(gt: object, length: int) -> bytes:
    """H2: SHA-256("IBE-H2" || the GT element as kyber serialises it)[:length]. arkworks
    writes Fp12 little endian from c0 up; kyber writes it big endian from c1 down, which is
    the same bytes reversed."""
    return hashlib.sha256(b"IBE-H2" + bytes.fromhex(str(gt))[::-1]).digest()[:length]


def _h3(sigma: bytes, msg: bytes) -> int:
    """H3: the scalar r from sigma and the message, by kyber's rejection sampling
    (SHA-256(i as 2 bytes little endian || SHA-256("IBE-H3" || sigma || msg)), top bit
    dropped, until below the group order)."""
    seed = hashlib.sha256(b"IBE-H3" + sigma + msg).digest()
    for i in range(1, 65535):
        data = bytearray(hashlib.sha256(i.to_bytes(2, "little") + seed).digest())
        data[0] >>= 1
        value = int.from_bytes(data, "big")
        if value < R_ORDER:
            return value
    raise VerificationError("timelock", "H3 rejection sampling failed")  # pragma: no cover


def _h4(sigma: bytes, length: int) -> bytes:
    """H4: SHA-256("IBE-H4" || sigma)[:length], the mask over the message."""
    return hashlib.sha256(b"IBE-H4" + sigma).digest()[:length]


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))


def _point(lib: ModuleType, data: bytes, group: str, field: str) -> object:
    """A compressed point checked on the curve and in the subgroup, or a one-line refusal."""
    size = POINT_G1 if group == "G1Point" else POINT_G2
    if len(data) != size:
        raise InputError(field, f"must be {size} bytes (a compressed {group[:2]} point)", len(data))
    try:
        return getattr(lib, group).from_compressed_bytes(data)
    except Exception:  # the library raises its own error types for off-curve bytes
        raise InputError(field, f"is not a compressed {group[:2]} point", data.hex()) from None


def verify_beacon(network: Network, round_number: int, signature: bytes) -> None:
    """Refuse, in one line, a signature that is not the network's on this round:
    e(signature, g2) must equal e(H(message), public key)."""
    lib = pairing_library()
    sig = _point(lib, signature, "G1Point", "beacon")
    public = _point(lib, network.public_key, "G2Point", "network.public_key")
    hashed = lib.G1Point.hash_to_curve(beacon_message(round_number), DST_G1)
    if lib.GT.pairing(sig, lib.G2Point()) != lib.GT.pairing(hashed, public):
        raise VerificationError(
            "beacon", f"not {network.name}'s signature on round {round_number}")


def _wrap(network: Network, round_number: int, file_key: bytes) -> list[Stanza]:
    """The `tlock` stanza wrapping the file key to a round (IBE, kyber's EncryptCCAonG2)."""
    lib = pairing_library()
    public = _point(lib, network.public_key, "G2Point", "network.public_key")
    qid = lib.G1Point.hash_to_curve(beacon_message(round_number), DST_G1)
    sigma = os.urandom(len(file_key))
    r = lib.Scalar(_h3(sigma, file_key))
    u = lib.G2Point() * r
    v = _xor(sigma, _h2(lib.GT.pairing(qid * r, public), len(file_key)))
    w = _xor(file_key, _h4(sigma, len(file_key)))
    body = u.to_compressed_bytes() + v + w
    return [Stanza("tlock", (str(round_number), network.chain_hash), body)]


def encrypt(plaintext: bytes, round_number: int, network: Network = QUICKNET) -> str:
    """An armored age file that opens with `network`'s signature on `round_number`."""
    if round_number < 1:
        raise InputError("round", "drand rounds start at 1", round_number)
    return armor(seal_age(plaintext, lambda key: _wrap(network, round_number, key)))


def read_stanza(stanzas: Sequence[Stanza]) -> tuple[TimelockCiphertext, bytes]:
    """The round, chain hash and IBE body of the one `tlock` stanza of an age header."""
    found = [s for s in stanzas if s.type == "tlock"]
    if len(found) != 1 or len(found[0].args) != 2 or not found[0].args[0].isdigit():
        raise InputError("ciphertext.stanza",
                         "needs exactly one `tlock <round> <chain hash>` stanza")
    stanza = found[0]
    if len(stanza.body) != POINT_G2 + 2 * SEAL_BYTES:
        raise InputError("ciphertext.stanza.tlock", f"the body must be {POINT_G2 + 2 * SEAL_BYTES}"
                         " bytes (U on G2, V, W)", len(stanza.body))
    return TimelockCiphertext(int(stanza.args[0]), stanza.args[1]), stanza.body


def locked_round(ciphertext: str) -> TimelockCiphertext:
    """The round and chain hash an armored tlock file is locked to (no decryption)."""
    return read_stanza(read_header(unarmor(ciphertext))[0])[0]


def _unwrap(network: Network, signature: bytes, stanzas: Sequence[Stanza]) -> bytes:
    """The file key from the `tlock` stanza, after the beacon is verified for its round."""
    locked, body = read_stanza(stanzas)
    if locked.chain_hash != network.chain_hash:
        raise InputError("ciphertext.chain_hash", f"is not {network.name}'s chain hash "
                         f"{network.chain_hash}", locked.chain_hash)
    verify_beacon(network, locked.round, signature)
    lib = pairing_library()
    u = _point(lib, body[:POINT_G2], "G2Point", "ciphertext.U")
    v, w = body[POINT_G2:POINT_G2 + SEAL_BYTES], body[POINT_G2 + SEAL_BYTES:]
    sigma = _xor(v, _h2(lib.GT.pairing(lib.G1Point.from_compressed_bytes(signature), u), len(w)))
    file_key = _xor(w, _h4(sigma, len(w)))
    if lib.G2Point() * lib.Scalar(_h3(sigma, file_key)) != u:
        raise VerificationError("ciphertext", "the IBE check U = H3(sigma, key)·g2 fails")
    return file_key


def decrypt(ciphertext: str, signature: bytes, network: Network = QUICKNET) -> bytes:
    """The plaintext of an armored tlock file, given the network's signature on its round."""
    return open_age(unarmor(ciphertext), lambda stanzas: _unwrap(network, signature, stanzas))


def open_seed(spec: dict[str, Any], commitment: str, signature: str) -> str:
    """A season's seed from its header's `timelock` field (network by chain hash, round,
    ciphertext) and the round's signature in hex, checked against the seed's commitment."""
    network = KNOWN_NETWORKS.get(str(spec.get("chain_hash")))
    if network is None:
        raise InputError("header.timelock.chain_hash", "is not a drand network known here",
                         spec.get("chain_hash"))
    try:
        beacon = bytes.fromhex(signature)
    except ValueError:
        raise InputError("--beacon", "must be the round's signature in hex", signature) from None
    if locked_round(spec["ciphertext"]).round != spec["round"]:
        raise VerificationError("header.timelock", "the ciphertext is locked to another round "
                                f"than the {spec['round']} the header names")
    seed = decrypt(spec["ciphertext"], beacon, network).decode("ascii", "replace")
    if not verify_reveal(seed, commitment):
        raise VerificationError("seed", "the unlocked seed does not match the commitment")
    return seed
