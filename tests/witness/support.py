"""A witness in a temporary folder, and a log that signs checkpoints of a growing tree."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from fairfight.core.merkle import MerkleTree
from fairfight.core.signed_note import checkpoint_text, sign_note, verifier_key
from fairfight.witness.config import generate_key, load_config, read_key_file
from fairfight.witness.cosigner import Witness
from fairfight.witness.protocol import add_checkpoint_body
from fairfight.witness.store import WitnessStore

ORIGIN = "example.com/season/1"
LOG_NAME = "example.com/season-log"
WITNESS_NAME = "witness.example.org/w1"
NOW = 1_700_000_000


@dataclass
class Log:
    """A log: its key and its tree; it builds the bodies a log sends to a witness."""

    key: Ed25519PrivateKey = field(
        default_factory=lambda: Ed25519PrivateKey.from_private_bytes(bytes([7]) * 32))
    name: str = LOG_NAME
    origin: str = ORIGIN
    tree: MerkleTree = field(default_factory=MerkleTree)

    def grow(self, count: int, tag: bytes = b"leaf") -> Log:
        for _ in range(count):
            self.tree.append(tag + str(len(self.tree)).encode())
        return self

    def vkey(self) -> str:
        return verifier_key(self.name, self.key.public_key().public_bytes_raw()).vkey()

    def note(self, size: int, root: bytes | None = None) -> str:
        text = checkpoint_text(self.origin, size, self.tree.root(size) if root is None else root)
        return sign_note(text, self.name, self.key.public_key().public_bytes_raw(), self.key.sign)

    def body(self, old: int, size: int) -> bytes:
        proof = self.tree.consistency_proof(old, size) if old else []
        return add_checkpoint_body(old, proof, self.note(size))


def write_config(folder: Path, log: Log, extra: str = "") -> Path:
    """A witness key and a TOML configuration following `log`, in `folder`."""
    key_file = folder / "w1.key"
    if not key_file.exists():
        generate_key(WITNESS_NAME, key_file)
    config = folder / "witness.toml"
    config.write_text(
        f'name = "{WITNESS_NAME}"\nkey_file = "w1.key"\n'
        f'database = "sqlite:///{folder / "witness.db"}"\n{extra}'
        f'[[logs]]\norigin = "{log.origin}"\nvkeys = ["{log.vkey()}"]\n', encoding="utf-8")
    return config


def make_witness(folder: Path, log: Log, clock: list[int] | None = None) -> Witness:
    """The witness of `write_config`, its clock read from `clock[0]`."""
    config = load_config(write_config(folder, log))
    ticks = clock if clock is not None else [NOW]
    return Witness(config, read_key_file(config.key_file, config.name),
                   WitnessStore(config.database), clock=lambda: ticks[0])
