"""Hostile add-checkpoint bodies: whatever the bytes, the witness answers with one of the
statuses the spec names (or 413), never a 500, and a refusal is one line."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from fairfight.witness.service import create_app

from .support import Log, make_witness

ANSWERS = {200, 400, 403, 404, 409, 413, 422}
LOG = Log().grow(12)
VALID = [LOG.body(0, 5), LOG.body(5, 12)]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    witness = make_witness(tmp_path_factory.mktemp("witness"), LOG)
    with TestClient(create_app(witness), raise_server_exceptions=False) as test_client:
        yield test_client
    witness.store.close()


def _check(client: TestClient, body: bytes) -> None:
    answer = client.post("/add-checkpoint", content=body)
    assert answer.status_code in ANSWERS, (answer.status_code, answer.text)
    if answer.status_code not in (200, 409):
        assert answer.text.count("\n") == 1 and ": " in answer.text


@settings(max_examples=40)
@given(which=st.sampled_from(VALID), at=st.integers(0, 400), cut=st.integers(0, 8),
       insert=st.binary(max_size=8))
def test_a_mangled_valid_body_is_never_a_server_error(
    client: TestClient, which: bytes, at: int, cut: int, insert: bytes
) -> None:
    position = at % (len(which) + 1)
    _check(client, which[:position] + insert + which[position + cut:])


@settings(max_examples=15)
@given(body=st.binary(max_size=300) | st.text(max_size=300).map(str.encode))
def test_arbitrary_bytes_are_never_a_server_error(client: TestClient, body: bytes) -> None:
    _check(client, body)
