"""The upload verifier and the text rule: an archive whose header holds an escaped lone
surrogate, and a receipt that starts with a byte-order mark, get the verifiers' one-line
refusal from `/api/upload/verify` (the cases of tests/conquest/text_cases.py), never a 500."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest import archive
from fairfight.web import WebSettings, create_app
from tests.conquest.log_cases import Case, build_cases


@pytest.fixture(scope="module")
def cases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Case]:
    return {case.name: case for case in build_cases(tmp_path_factory.mktemp("text-cases"))}


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(WebSettings(database_url="sqlite://"))) as test_client:
        yield test_client


def _zipped(folder: Path) -> bytes:
    return archive.zip_bytes({p.name: p.read_bytes() for p in sorted(folder.iterdir())})


@pytest.mark.parametrize("name", [
    "a header holding an escaped lone surrogate",
    "a receipt holding an escaped lone surrogate",
    "a receipt that starts with a byte-order mark",
])
def test_an_upload_breaking_the_text_rule_gets_the_verifiers_refusal(
        client: TestClient, cases: dict[str, Case], name: str) -> None:
    case = cases[name]
    assert case.refused is not None
    saved = [("saved", (p.name, p.read_bytes())) for p in (*case.receipts, *case.heads)]
    answer = client.post("/api/upload/verify",
                         files=[("archive", _zipped(case.archive)), *saved])
    assert answer.status_code < 500, answer.text
    body = answer.json()
    assert body["ok"] is False, body
    assert f"{body['place']}: {body['detail']}".startswith(case.refused), body
