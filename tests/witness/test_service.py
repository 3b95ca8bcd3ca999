"""add-checkpoint over HTTP (in process): what the witness cosigns and every refusal the
tlog-witness spec names, with the status it names."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient

from fairfight.core.cosignature import WitnessKey, cosigned_by, verify_cosignature
from fairfight.core.signed_note import sign_note
from fairfight.witness.cosigner import Witness
from fairfight.witness.protocol import add_checkpoint_body
from fairfight.witness.service import create_app

from .support import NOW, ORIGIN, WITNESS_NAME, Log, make_witness


@pytest.fixture
def log() -> Log:
    return Log().grow(9)


@pytest.fixture
def clock() -> list[int]:
    return [NOW]


@pytest.fixture
def witness(tmp_path: Path, log: Log, clock: list[int]) -> Iterator[Witness]:
    made = make_witness(tmp_path, log, clock)
    yield made
    made.store.close()


@pytest.fixture
def client(witness: Witness) -> Iterator[TestClient]:
    with TestClient(create_app(witness), raise_server_exceptions=False) as test_client:
        yield test_client


def post(client: TestClient, body: bytes) -> tuple[int, str]:
    answer = client.post("/add-checkpoint", content=body)
    return answer.status_code, answer.text


def test_a_valid_checkpoint_is_cosigned_and_the_line_verifies(
    client: TestClient, witness: Witness, log: Log, clock: list[int]
) -> None:
    key = WitnessKey.from_vkey(witness.identity.key.vkey())
    status, line = post(client, log.body(0, 5))
    assert status == 200 and line.startswith(f"\u2014 {WITNESS_NAME} ")
    assert verify_cosignature(log.note(5), line, key) == NOW
    clock[0] = NOW + 60
    status, line = post(client, log.body(5, 9))
    assert status == 200
    assert cosigned_by(log.note(9) + line, [key]) == {WITNESS_NAME: NOW + 60}
    # the monitors' view: the held checkpoint with the log's signature and the cosignature
    held = client.get(f"/{hashlib.sha256(ORIGIN.encode()).hexdigest()}/checkpoint")
    assert held.status_code == 200 and held.text == log.note(9) + line
    assert client.get(f"/{'0' * 64}/checkpoint").status_code == 404
    assert "1 cosigned" in client.get("/").text
    assert 'outcome="cosigned"} 2.0' in client.get("/metrics").text


def test_the_same_checkpoint_again_is_cosigned_again(client: TestClient, log: Log) -> None:
    assert post(client, log.body(0, 6))[0] == 200
    assert post(client, log.body(6, 6))[0] == 200


def test_a_stale_old_size_is_409_with_the_held_size(client: TestClient, log: Log) -> None:
    assert post(client, log.body(0, 7))[0] == 200
    for old, size in ((0, 9), (5, 9), (8, 9)):
        answer = client.post("/add-checkpoint", content=log.body(old, size))
        assert answer.status_code == 409
        assert answer.headers["content-type"] == "text/x.tlog.size"
        assert answer.text == "7\n"
    # an older checkpoint than the one held: its old size cannot be the held one
    assert post(client, log.body(0, 3))[0] == 409
    assert post(client, add_checkpoint_body(7, [], log.note(3)))[0] == 400  # old > size


def test_the_split_view_is_refused(client: TestClient, log: Log) -> None:
    """Two views of one log: the first four leaves shared, then different. Whichever the
    witness sees first, it refuses every checkpoint of the other."""
    other = Log().grow(4)
    other.grow(6, tag=b"other")
    assert post(client, log.body(0, 6))[0] == 200
    status, text = post(client, other.body(6, 6))  # same size, different root
    assert status == 422 and text.startswith("checkpoint:")
    status, text = post(client, other.body(6, 10))  # larger, not an extension of the held
    assert status == 422 and text.startswith("proof:")
    assert post(client, log.body(6, 9))[0] == 200


def test_unknown_origin_is_404(client: TestClient) -> None:
    stranger = Log(origin="example.com/another-log").grow(3)
    assert post(client, stranger.body(0, 3))[0] == 404


def test_no_trusted_signature_is_403(client: TestClient, log: Log) -> None:
    impostor = Log(key=Ed25519PrivateKey.from_private_bytes(bytes([9]) * 32)).grow(9)
    assert post(client, impostor.body(0, 5))[0] == 403  # the log's name, another key
    renamed = Log(name="someone.else").grow(9)
    assert post(client, renamed.body(0, 5))[0] == 403  # the log's key, another name
    note = log.note(5)
    payload = bytearray(base64.b64decode(note.rsplit(" ", 1)[1]))
    payload[10] ^= 1  # a trusted key's line whose signature fails
    bad = note.rsplit(" ", 1)[0] + " " + base64.b64encode(bytes(payload)).decode() + "\n"
    status, text = post(client, add_checkpoint_body(0, [], bad))
    assert status == 403 and "does not verify" in text
    assert post(client, add_checkpoint_body(0, [], bad + note.split("\n\n")[1]))[0] == 403


def test_a_bad_proof_is_422(client: TestClient, log: Log) -> None:
    assert post(client, log.body(0, 4))[0] == 200
    proof = log.tree.consistency_proof(4, 9)
    for index in range(len(proof)):
        bent = [*proof]
        bent[index] = hashlib.sha256(bent[index]).digest()
        assert post(client, add_checkpoint_body(4, bent, log.note(9)))[0] == 422
    assert post(client, add_checkpoint_body(4, proof[:-1], log.note(9)))[0] == 422
    assert post(client, add_checkpoint_body(4, [], log.note(9)))[0] == 422


def test_proofs_from_zero_and_empty_trees_follow_the_spec(
    client: TestClient, log: Log
) -> None:
    proof = log.tree.consistency_proof(4, 9)
    assert post(client, add_checkpoint_body(0, proof, log.note(9)))[0] == 422
    assert post(client, add_checkpoint_body(0, [], log.note(0, root=bytes(32))))[0] == 422
    assert post(client, log.body(0, 0))[0] == 200  # the empty tree's root: fine


@pytest.mark.parametrize(
    ("body", "field"),
    [
        (b"", "body"),
        (b"\xff\xfe\n\n", "body"),
        (b"old 5\n", "body"),
        (b"old 05\n\n", "old"),
        (b"old -1\n\n", "old"),
        (b"old 99999999999999999999\n\n", "old"),
        (b"new 1\n\n", "old"),
        (b"old 1\nnot base64\n\n", "proof line 1"),
        (b"old 1\nAAAA\n\n", "proof line 1"),
        (b"old 0\n" + (b"A" * 43 + b"=\n") * 64 + b"\n", "proof"),
        (b"old 0\n\nexample.com/season/1\n1\n", "checkpoint"),
    ],
)
def test_malformed_bodies_are_400_naming_the_field(
    client: TestClient, body: bytes, field: str
) -> None:
    status, text = post(client, body)
    assert status == 400
    assert text.startswith(f"{field}: ") and text.count("\n") == 1


def test_a_malformed_checkpoint_is_400(client: TestClient, log: Log) -> None:
    unsigned = log.note(5).split("\n\n")[0] + "\n"
    assert post(client, add_checkpoint_body(0, [], unsigned))[0] == 400
    key = log.key
    text = "example.com/season/1\n05\n" + base64.b64encode(log.tree.root(5)).decode() + "\n"
    signed = sign_note(text, log.name, key.public_key().public_bytes_raw(), key.sign)
    assert post(client, add_checkpoint_body(0, [], signed))[0] == 400


def test_an_oversized_body_is_413(client: TestClient) -> None:
    assert post(client, b"old 0\n" + b"x" * 70000)[0] == 413
