"""A witness in a function, for the season service's tests: it speaks C2SP tlog-witness
`add-checkpoint` through an `httpx.MockTransport`, checks the old size and the consistency
proof with the RFC's recursive definitions written here (not `core.merkle`), and signs
cosignature/v1 lines built by hand from the spec (not `core.cosignature`)."""

from __future__ import annotations

import base64
import hashlib
import time
from dataclasses import dataclass, field

import httpx
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from fairfight.web.witness_settings import WitnessSetting


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _root_from_proof(old: int, new: int, old_root: bytes, proof: list[bytes]) -> tuple[
        bytes, bytes] | None:
    """RFC 9162 2.1.4.2: the (old root, new root) a consistency proof rebuilds, or None."""
    if old == new:
        return (old_root, old_root) if not proof else None
    if old & (old - 1) == 0:
        proof = [old_root, *proof]
    if not proof:
        return None
    fn, sn = old - 1, new - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = proof[0]
    for c in proof[1:]:
        if sn == 0:
            return None
        if fn & 1 or fn == sn:
            fr, sr = _node(c, fr), _node(c, sr)
            while fn and not fn & 1:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = _node(sr, c)
        fn, sn = fn >> 1, sn >> 1
    return (fr, sr) if sn == 0 else None


def witness_vkey(name: str, key: Ed25519PrivateKey) -> str:
    """`name+<key id>+base64(0x04 || key)`, by the cosignature spec."""
    public = key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    key_id = hashlib.sha256(name.encode() + b"\n\x04" + public).digest()[:4]
    typed = base64.b64encode(b"\x04" + public).decode()
    return f"{name}+{key_id.hex()}+{typed}"


@dataclass
class FakeWitness:
    """One witness: its key, what it holds per origin (size, root), and what it was sent."""

    name: str
    key: Ed25519PrivateKey = field(default_factory=Ed25519PrivateKey.generate)
    held: dict[str, tuple[int, bytes]] = field(default_factory=dict)
    bodies: list[str] = field(default_factory=list)
    down: bool = False
    sign_as: Ed25519PrivateKey | None = None
    """Sign with this key instead (a witness answering with a key it was not trusted by)."""

    def setting(self) -> WitnessSetting:
        return WitnessSetting(name=self.name, vkey=witness_vkey(self.name, self.key),
                              url=f"http://{self.name}.witness.test")

    def client(self, _: WitnessSetting) -> httpx.Client:
        return httpx.Client(transport=httpx.MockTransport(self.handle))

    def cosign(self, body: str, timestamp: int) -> str:
        key = self.sign_as or self.key
        public = self.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        key_id = hashlib.sha256(self.name.encode() + b"\n\x04" + public).digest()[:4]
        signed = key.sign(f"cosignature/v1\ntime {timestamp}\n{body}".encode())
        blob = key_id + timestamp.to_bytes(8, "big") + signed
        return f"\u2014 {self.name} {base64.b64encode(blob).decode()}\n"

    def handle(self, request: httpx.Request) -> httpx.Response:
        if self.down:
            raise httpx.ConnectError("the witness is down", request=request)
        assert request.url.path == "/add-checkpoint"
        text = request.content.decode()
        self.bodies.append(text)
        head, _, note = text.partition("\n\n")
        first, *proof_lines = head.split("\n")
        old = int(first.removeprefix("old "))
        body = note.split("\n\n")[0] + "\n"
        origin, size_line, root_line = body.rstrip("\n").split("\n")
        size, root = int(size_line), base64.b64decode(root_line)
        held_size, held_root = self.held.get(origin, (0, b""))
        if old != held_size:
            return httpx.Response(409, text=f"{held_size}\n",
                                  headers={"content-type": "text/x.tlog.size"})
        proof = [base64.b64decode(line) for line in proof_lines]
        if old and _root_from_proof(old, size, held_root, proof) not in ((held_root, root),):
            return httpx.Response(422, text="consistency proof: does not verify\n")
        self.held[origin] = (size, root)
        return httpx.Response(200, text=self.cosign(body, int(time.time())))
