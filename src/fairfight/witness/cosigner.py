"""A witness at work: take an add-checkpoint body, check it, remember it, cosign it.

The checks are `protocol`'s, in the order the tlog-witness spec lists them (malformed 400, an
unknown origin 404, no good log signature 403, a stale old size 409, an inconsistent tree 422);
the memory is the store's compare-and-swap row. Log signatures are checked with the
`cryptography` package here (the same cofactorless Ed25519 check as `core.ed25519`, about
twenty times faster), since a witness may see many logs' checkpoints a second.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from fairfight.core.cosignature import sign_cosignature
from fairfight.core.signed_note import NoteVerifier
from fairfight.witness.config import WitnessConfig, WitnessIdentity
from fairfight.witness.protocol import (
    Held,
    Verify,
    WitnessRefusal,
    check_log_signature,
    judge,
    read_request,
)
from fairfight.witness.store import LogState, WitnessStore

__all__ = ["Witness", "fast_verify"]


def fast_verify() -> Verify:
    """An Ed25519 check by `cryptography`, its loaded public keys kept for reuse."""
    loaded: dict[bytes, Ed25519PublicKey] = {}

    def verify(public_key: bytes, message: bytes, signature: bytes) -> bool:
        key = loaded.get(public_key)
        if key is None:
            try:
                key = loaded[public_key] = Ed25519PublicKey.from_public_bytes(public_key)
            except ValueError:
                return False
        if len(signature) != 64:
            return False
        try:
            key.verify(signature, message)
        except InvalidSignature:
            return False
        return True

    return verify


class Witness:
    """One witness: its identity, the logs it follows and its store."""

    def __init__(self, config: WitnessConfig, identity: WitnessIdentity, store: WitnessStore,
                 clock: Callable[[], float] = time.time) -> None:
        self.config = config
        self.identity = identity
        self.store = store
        self.clock = clock
        self.logs: dict[str, list[NoteVerifier]] = {
            log.origin: log.verifiers() for log in config.logs}
        self.by_hash = {hashlib.sha256(origin.encode()).hexdigest(): origin
                        for origin in self.logs}
        self._verify = fast_verify()
        store.follow(self.logs)

    def add_checkpoint(self, body: bytes) -> str:
        """The cosignature line for a valid add-checkpoint body; WitnessRefusal otherwise."""
        request = read_request(body)
        origin = request.checkpoint.origin
        keys = self.logs.get(origin)
        if keys is None:
            raise WitnessRefusal(404, "checkpoint", "the witness follows no log of this origin")
        check_log_signature(request, keys, self._verify)
        state = self.store.state(origin)
        held = state.held if state is not None else Held(0, b"")
        judge(request, held)
        now = self.clock()
        line = sign_cosignature(request.text, self.config.name, self.identity.private_key,
                                int(now))
        new = Held(request.checkpoint.size, request.checkpoint.root)
        if not self.store.advance(origin, held, new, request.note + line, now):
            moved = self.store.state(origin)
            size = moved.held.size if moved is not None else 0
            raise WitnessRefusal(409, "old", f"the witness holds size {size}", size)
        return line

    def cosigned(self, origin_hash: str) -> str | None:
        """The newest cosigned checkpoint of the log whose origin hashes to `origin_hash`."""
        origin = self.by_hash.get(origin_hash)
        state: LogState | None = None if origin is None else self.store.state(origin)
        return None if state is None else state.checkpoint

    def status(self) -> str:
        """One line: who the witness is and how many of its logs it has cosigned."""
        seen = self.store.cosigned_count(self.logs)
        return (f"{self.config.name} witnesses {len(self.logs)} logs, {seen} cosigned; "
                f"key {self.identity.key.vkey()}")
