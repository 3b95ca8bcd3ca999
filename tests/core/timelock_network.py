"""A drand network of our own for tests: a BLS key pair on G2 made in the test and a "drand"
that signs any round with it, so timelock's code path runs unchanged against a public key
whose rounds a test can sign now (quicknet's future rounds cannot be waited for)."""

from __future__ import annotations

import hashlib
import json
import secrets
from dataclasses import dataclass
from pathlib import Path

from fairfight.core.timelock import DST_G1, QUICKNET, Network, beacon_message, pairing_library

__all__ = ["FakeDrand", "QUICKNET_VECTOR"]

QUICKNET_VECTOR = json.loads((Path(__file__).parent / "golden" / "tlock_quicknet.json").read_text())
"""drand's published quicknet vector: a round, its recorded beacon signature, a ciphertext
locked to it and its plaintext (the source is named in the file)."""


@dataclass(frozen=True)
class FakeDrand:
    """A one-key drand network: `network` publishes the public key, `sign` makes any beacon."""

    secret: int
    network: Network

    @classmethod
    def create(cls, name: str = "test-drand") -> FakeDrand:
        """A fresh key pair, quicknet's genesis and period (so rounds fall at real times)."""
        lib = pairing_library()
        secret = secrets.randbelow(2**250) + 1
        public = (lib.G2Point() * lib.Scalar(secret)).to_compressed_bytes()
        network = Network(name=name, chain_hash=hashlib.sha256(public).hexdigest(),
                          public_key=public, genesis_time=QUICKNET.genesis_time,
                          period=QUICKNET.period)
        return cls(secret, network)

    def sign(self, round_number: int) -> bytes:
        """The beacon signature on a round: secret · H(SHA-256(round))."""
        lib = pairing_library()
        hashed = lib.G1Point.hash_to_curve(beacon_message(round_number), DST_G1)
        return bytes((hashed * lib.Scalar(self.secret)).to_compressed_bytes())
