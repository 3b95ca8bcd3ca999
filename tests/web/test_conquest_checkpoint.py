"""The season log's newest head as a C2SP checkpoint note: the bytes the specifications
define (origin, size, root, signature line, key id), recomputed here with hashlib, sqlite3 and
the `cryptography` package rather than the service's code; the served verifier key checks it,
and a changed byte fails."""

from __future__ import annotations

import base64
import hashlib
import sqlite3
from pathlib import Path

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from fastapi.testclient import TestClient

from fairfight.conquest.rules import tables
from fairfight.conquest.store import season
from fairfight.core import signed_note
from fairfight.core.signed_note import NoteError
from fairfight.web import WebSettings, create_app
from tests.web.test_conquest_my_contributions import _contribute, _mth, _stored_hashes

API = "/api/seasons/1"


def _commitment(path: Path) -> str:
    with sqlite3.connect(path) as db:
        return str(db.execute("SELECT commitment FROM season").fetchone()[0])


def _check_by_hand(note: str, origin: str, key: bytes, hashes: list[bytes]) -> None:
    """The note's bytes as the specifications spell them, checked without `signed_note`."""
    text, signature_line = note.split("\n\n")
    lines = text.split("\n")
    size = len(hashes)
    assert lines == [origin, str(size), base64.b64encode(_mth(hashes)).decode()]
    dash, name, encoded = signature_line.rstrip("\n").split(" ")
    assert (dash, name) == ("\u2014", origin) and note.endswith("\n")
    blob = base64.b64decode(encoded)
    assert blob[:4] == hashlib.sha256(origin.encode() + b"\n\x01" + key).digest()[:4]
    Ed25519PublicKey.from_public_bytes(key).verify(blob[4:], (text + "\n").encode())


def test_the_checkpoint_is_the_newest_head_signed_as_a_note(client: TestClient,
                                                            season_file: Path) -> None:
    _contribute(client, season_file)
    answer = client.get(f"{API}/checkpoint")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "text/plain; charset=utf-8"
    origin = f"localhost/conquest/{_commitment(season_file)}"  # no public_url set
    key = bytes.fromhex(season.summary(season_file).header[tables.LOG_KEY])
    hashes = _stored_hashes(season_file)
    assert client.get(f"{API}/heads").json()["heads"][-1]["size"] == len(hashes)
    _check_by_hand(answer.text, origin, key, hashes)
    vkey = client.get(f"{API}/checkpoint/key").text
    key_id = hashlib.sha256(origin.encode() + b"\n\x01" + key).hexdigest()[:8]
    typed = base64.b64encode(b"\x01" + key).decode()
    assert vkey == f"{origin}+{key_id}+{typed}\n"
    verifier = signed_note.parse_verifier_key(vkey.strip())
    text, names = signed_note.open_note(answer.text, [verifier])
    assert names == [origin]
    assert signed_note.parse_checkpoint(text).size == len(hashes)
    _contribute(client, season_file, amount=20)  # a newer head: a newer checkpoint
    newer = client.get(f"{API}/checkpoint").text
    _check_by_hand(newer, origin, key, _stored_hashes(season_file))
    assert newer != answer.text


def test_a_changed_byte_of_a_served_checkpoint_fails(client: TestClient) -> None:
    note = client.get(f"{API}/checkpoint").text
    verifier = signed_note.parse_verifier_key(client.get(f"{API}/checkpoint/key").text.strip())
    text = note.split("\n\n")[0]
    blob = base64.b64decode(note.split(" ")[-1])
    for index in (0, len(text) - 5, text.index("\n") + 1):  # origin, root, size
        changed = note[:index] + chr(ord(note[index]) ^ 1) + note[index + 1:]
        with pytest.raises(NoteError):
            signed_note.open_note(changed, [verifier])
        key = Ed25519PublicKey.from_public_bytes(verifier.public_key)
        with pytest.raises(InvalidSignature):
            key.verify(blob[4:], changed.split("\n\n")[0].encode() + b"\n")


def test_the_origin_names_the_configured_public_host(season_file: Path) -> None:
    settings = WebSettings(database_url=f"sqlite:///{season_file}",
                           public_url="https://fan:secret@Battles.Example:8443/show/")
    with TestClient(create_app(settings)) as client:
        note = client.get(f"{API}/checkpoint").text
        vkey = client.get(f"{API}/checkpoint/key").text.strip()
    origin = f"battles.example:8443/conquest/{_commitment(season_file)}"
    assert note.startswith(origin + "\n") and vkey.startswith(origin + "+")
    assert signed_note.open_note(note, [signed_note.parse_verifier_key(vkey)])[1] == [origin]


def test_the_season_home_and_its_facts_lead_to_the_checkpoint(client: TestClient) -> None:
    facts = client.get(API).json()["facts"]
    assert facts["checkpoint_url"] == f"{API}/checkpoint"
    assert facts["checkpoint_key_url"] == f"{API}/checkpoint/key"
    home = client.get("/conquest/1", headers={"accept": "text/html"}).text
    assert f'href="{API}/checkpoint"' in home and f'href="{API}/checkpoint/key"' in home


def test_an_unknown_season_has_no_checkpoint(client: TestClient) -> None:
    for path in ("/api/seasons/9/checkpoint", "/api/seasons/9/checkpoint/key"):
        assert client.get(path).status_code == 404


def test_the_request_host_never_names_the_origin(client: TestClient) -> None:
    usual = client.get(f"{API}/checkpoint").text
    for host in ("evil.example", "127.0.0.1:9"):
        assert client.get(f"{API}/checkpoint", headers={"host": host}).text == usual
    assert usual.startswith("localhost/conquest/")


def test_every_head_is_served_as_its_own_checkpoint(client: TestClient,
                                                    season_file: Path) -> None:
    _contribute(client, season_file)
    _contribute(client, season_file, amount=20)
    origin = f"localhost/conquest/{_commitment(season_file)}"
    key = bytes.fromhex(season.summary(season_file).header[tables.LOG_KEY])
    hashes = _stored_hashes(season_file)
    sizes = [head["size"] for head in client.get(f"{API}/heads").json()["heads"]]
    assert len(sizes) >= 3 and sizes[-1] == len(hashes)
    for size in sizes:  # each head's checkpoint is the tree of its first `size` leaves
        answer = client.get(f"{API}/checkpoint", params={"size": size})
        assert answer.status_code == 200, answer.text
        _check_by_hand(answer.text, origin, key, hashes[:size])
        assert client.get(f"{API}/checkpoint", params={"size": size}).text == answer.text
    assert client.get(f"{API}/checkpoint", params={"size": sizes[-1]}).text == client.get(
        f"{API}/checkpoint").text
    for missing in (0, len(hashes) + 1):
        refused = client.get(f"{API}/checkpoint", params={"size": missing})
        assert refused.status_code == 404
        assert f"covers exactly {missing} leaves" in refused.text, refused.text
    assert client.get(f"{API}/checkpoint", params={"size": "x"}).status_code == 422


def test_a_head_committed_while_the_note_is_signed_is_not_the_one_signed(
        client: TestClient, season_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The note asked for by size is that head's, even when a newer head is committed between
    the size read and the signing (a witness sent the proof to that size refuses another)."""
    notes = client.app.state.conquest.checkpoints  # type: ignore[attr-defined]
    hashes = _stored_hashes(season_file)
    sign = notes._sign

    def sign_after_a_newer_head(season_id: int, host: str, size: int | None) -> object:
        _contribute(client, season_file, amount=20)
        return sign(season_id, host, size)

    monkeypatch.setattr(notes, "_sign", sign_after_a_newer_head)
    note = notes.note(1, "localhost", len(hashes))
    assert len(_stored_hashes(season_file)) > len(hashes)  # the newer head was committed
    origin = f"localhost/conquest/{_commitment(season_file)}"
    key = bytes.fromhex(season.summary(season_file).header[tables.LOG_KEY])
    _check_by_hand(note, origin, key, hashes)
