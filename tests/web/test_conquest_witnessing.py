"""The season service sends each new checkpoint to its witnesses in the background and serves
the cosignatures it got back: checked here against witnesses written as functions
(`witness_fake`), with every cosignature checked by hand from the cosignature/v1 spec."""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from fastapi.testclient import TestClient
from pydantic import ValidationError

from fairfight.web import WebSettings, create_app
from fairfight.web.witness_settings import WitnessSetting
from tests.web.conquest_support import ADMIN_TOKEN, token_digest
from tests.web.test_conquest_my_contributions import _contribute, _mth, _stored_hashes
from tests.web.witness_fake import FakeWitness, witness_vkey

API = "/api/seasons/1"
WAIT = 60.0
"""Seconds a test waits for the background threads (never a speed check)."""


def _app(path: Path, fakes: list[FakeWitness], settings: list[WitnessSetting] | None = None,
         interval: float = 0.0) -> TestClient:
    app = create_app(WebSettings(
        database_url=f"sqlite:///{path}", forecast_seasons=0,
        admin_token_sha256=token_digest(ADMIN_TOKEN), witness_interval=interval,
        witnesses=settings if settings is not None else [fake.setting() for fake in fakes]))
    by_name = {fake.name: fake for fake in fakes}
    app.state.conquest.witnessing.client_factory = lambda s: by_name[s.name].client(s)
    return TestClient(app, raise_server_exceptions=False)


def _checked_by_hand(line: str, body: str, fake: FakeWitness) -> int:
    """The timestamp of a cosignature line, checked by the spec's bytes alone."""
    dash, name, encoded = line.split(" ")
    assert (dash, name) == ("\u2014", fake.name)
    blob = base64.b64decode(encoded)
    public = fake.key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
    assert blob[:4] == hashlib.sha256(fake.name.encode() + b"\n\x04" + public).digest()[:4]
    timestamp = int.from_bytes(blob[4:12], "big")
    fake.key.public_key().verify(blob[12:], f"cosignature/v1\ntime {timestamp}\n{body}".encode())
    return timestamp


def _lines(note: str) -> tuple[str, dict[str, str]]:
    body, signatures = note.split("\n\n")
    lines = signatures.rstrip("\n").split("\n")
    return body + "\n", {line.split(" ")[1]: line for line in lines[1:]}


def _held(fake: FakeWitness) -> int:
    return max((size for size, _ in fake.held.values()), default=0)


@pytest.fixture
def fakes() -> list[FakeWitness]:
    wrong = FakeWitness("gamma", sign_as=Ed25519PrivateKey.generate())
    return [FakeWitness("alpha"), FakeWitness("beta", down=True), wrong]


@pytest.fixture
def served(season_file: Path, fakes: list[FakeWitness]) -> Iterator[TestClient]:
    with _app(season_file, fakes) as client:
        yield client


def test_new_checkpoints_are_cosigned_in_the_background_and_served(
        served: TestClient, season_file: Path, fakes: list[FakeWitness]) -> None:
    alpha, beta, gamma = fakes
    sender = served.app.state.conquest.witnessing  # type: ignore[attr-defined]
    _contribute(served, season_file)  # the live watcher hands the new head to the sender
    hashes = _stored_hashes(season_file)
    assert sender.wait_until(lambda: _held(alpha) == len(hashes), WAIT)
    assert sender.idle(WAIT, ["alpha", "gamma"])
    body, lines = _lines(served.get(f"{API}/checkpoint").text)
    assert body.split("\n")[1:3] == [str(len(hashes)), base64.b64encode(_mth(hashes)).decode()]
    assert sorted(lines) == ["alpha"]  # beta is down; gamma's line is by another key
    _checked_by_hand(lines["alpha"], body, alpha)
    assert alpha.bodies[0].startswith("old 0\n\n")  # the head the service started with
    assert gamma.bodies and not beta.bodies
    assert sender.wait_until(lambda: sender.lanes[1].failures >= 1, WAIT)

    first_size = len(hashes)
    _contribute(served, season_file, amount=20)  # beta still down: the contribution is taken
    sender.submit(1)
    assert sender.idle(WAIT, ["alpha"])
    newer = _stored_hashes(season_file)
    body, lines = _lines(served.get(f"{API}/checkpoint").text)
    assert body.split("\n")[1] == str(len(newer)) and sorted(lines) == ["alpha"]
    _checked_by_hand(lines["alpha"], body, alpha)
    sent = alpha.bodies[-1]
    assert sent.startswith(f"old {first_size}\n")  # from the size it cosigned last
    assert len(sent.split("\n\n")[0].split("\n")) > 1  # with a consistency proof
    # the pages and the JSON say who cosigned the newest cosigned checkpoint
    said = served.get(f"{API}/witnesses").json()
    assert said["text"] == "cosigned by 1 of 3 witnesses: alpha"
    assert (said["size"], said["cosigned_by"]) == (len(newer), ["alpha"])
    assert said["witnesses"] == ["alpha", "beta", "gamma"]
    for page in ("/conquest/1", "/conquest/1/verify"):
        shown = served.get(page, headers={"accept": "text/html"}).text
        assert (f"the season log of {len(newer)} entries is cosigned by 1 of 3 witnesses: alpha"
                in shown), page
    scraped = served.get("/metrics").text
    assert 'fairfight_witness_failures_total{witness="beta"}' in scraped
    assert 'fairfight_witness_cosigned_total{witness="alpha"}' in scraped
    # the older checkpoint keeps its own cosignature
    old_body, old_lines = _lines(served.get(f"{API}/checkpoint",
                                            params={"size": first_size}).text)
    _checked_by_hand(old_lines["alpha"], old_body, alpha)


def test_a_witness_that_holds_a_size_is_sent_the_proof_from_there(
        season_file: Path) -> None:
    delta = FakeWitness("delta")
    with _app(season_file, []) as client:  # no witness yet: a head delta will have seen
        seen = client.get(f"{API}/checkpoint").text.split("\n")
        assert client.get(f"{API}/witnesses").status_code == 404
        assert 'id="witnessed"' not in client.get("/conquest/1").text
    delta.held[seen[0]] = (int(seen[1]), base64.b64decode(seen[2]))
    with _app(season_file, [delta]) as client:
        _contribute(client, season_file)
        sender = client.app.state.conquest.witnessing  # type: ignore[attr-defined]
        sender.submit(1)
        assert sender.idle(WAIT)
        body, lines = _lines(client.get(f"{API}/checkpoint").text)
    # refused from 0 with the size it holds (409), then sent from there: the head the
    # service started with, if it came first, and the new one
    firsts = [sent.split("\n")[0] for sent in delta.bodies]
    assert firsts[:2] == ["old 0", f"old {seen[1]}"] and set(firsts[1:]) == {f"old {seen[1]}"}
    assert body.split("\n")[1] == str(int(seen[1]) + 1)
    _checked_by_hand(lines["delta"], body, delta)


def test_heads_within_the_interval_wait_and_only_the_newest_is_sent(season_file: Path) -> None:
    alpha = FakeWitness("alpha")
    with _app(season_file, [alpha], interval=3600) as client:
        sender = client.app.state.conquest.witnessing  # type: ignore[attr-defined]
        assert sender.idle(WAIT)  # the head the service started with: sent at once
        started = _held(alpha)
        assert len(alpha.bodies) == 1 and started == len(_stored_hashes(season_file))
        for amount in (20, 30):  # two heads within the hour
            _contribute(client, season_file, amount=amount)
            sender.submit(1)
        assert not sender.idle(0.5)  # waits for its turn: nothing more was sent
        assert sender.lanes[0].waiting == [1] and len(alpha.bodies) == 1
        sender.lanes[0].due.clear()  # the hour is up
        sender.submit(1)
        assert sender.idle(WAIT)
    newest = len(_stored_hashes(season_file))
    assert newest >= started + 2 and _held(alpha) == newest
    assert len(alpha.bodies) == 2 and alpha.bodies[1].startswith(f"old {started}\n")


def test_a_full_queue_drops_the_season_waiting_longest(season_file: Path) -> None:
    beta = FakeWitness("beta", down=True)
    with _app(season_file, [beta]) as client:
        sender = client.app.state.conquest.witnessing  # type: ignore[attr-defined]
        lane = sender.lanes[0]
        capacity = lane.capacity
        for season_id in range(100, 100 + capacity + 3):
            sender.submit(season_id)
            sender.submit(season_id)  # a season already waiting is queued once
        waiting = list(lane.waiting)
    assert len(waiting) <= capacity and waiting[-1] == 100 + capacity + 2
    assert lane.dropped >= 3


@pytest.mark.parametrize(("field", "value", "words"), [
    ("vkey", "alpha+00000000+AAAA", "vkey"),
    ("url", "ftp://witness.example", r"not an http\(s\) URL"),
    ("name", "beta", "not the witness 'beta'"),
])
def test_a_witness_setting_is_refused_naming_what_is_wrong(field: str, value: str,
                                                           words: str) -> None:
    good = {"name": "alpha", "vkey": witness_vkey("alpha", Ed25519PrivateKey.generate()),
            "url": "https://witness.example"}
    with pytest.raises(ValidationError, match=words):
        WitnessSetting(**{**good, field: value})
    WitnessSetting(**good)
    with pytest.raises(ValidationError, match="named twice"):
        WebSettings(witnesses=[WitnessSetting(**good), WitnessSetting(**good)])
