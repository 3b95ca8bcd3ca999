"""Every JSON operation of the OpenAPI document, fed the hostile requests `openapi_cases`
generates: never a 5xx or a traceback, every refusal in the one error shape, and no coercion
(a field given a value of the wrong type, or an integer parameter given anything but plain
digits, is refused). A sample runs by default; the whole set under the `slow` marker."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest import season
from fairfight.web import WebSettings, create_app
from tests.conquest.helpers import SEED, star_map
from tests.fuzz.openapi_cases import Case, cases_of, encoded, json_body_operations
from tests.web.conquest_support import ADMIN_TOKEN, make_app

SAMPLE = 300
"""Cases in the default run (seeded, so every run sends the same ones)."""

DOCUMENT = create_app(WebSettings(database_url="sqlite://")).openapi()
CASES = cases_of(DOCUMENT)
_CHOSEN = set(random.Random(29).sample(range(len(CASES)), min(SAMPLE, len(CASES))))
PARAMETERS = [
    pytest.param(case, id=case.label[:90],
                 marks=() if number in _CHOSEN else (pytest.mark.slow,))
    for number, case in enumerate(CASES)
]


def test_the_generator_covers_every_json_operation() -> None:
    operations = json_body_operations(DOCUMENT)
    assert len(operations) >= 15  # ballot, clash, conquest, warscore bodies
    covered = {case.template for case in CASES if case.changes is not None}
    assert {path for _, path, _ in operations} <= covered
    assert sum(1 for case in CASES if case.wrong_type) >= 60
    assert sum(1 for case in CASES if case.parameter) >= 100
    assert any(case.parameter == "seat" for case in CASES)
    assert any(case.wrong_type == "count" for case in CASES)  # the operator's air action


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("openapi-hostile")
    path = folder / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    with TestClient(make_app(path), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def baselines(client: TestClient) -> dict[str, dict[str, Any]]:
    """Known-good bodies where the schema alone cannot make one (a clash specification, a
    beacon's randomness), so a refusal can only be the changed field's."""
    spec = client.get("/api/clash/examples/worked-example").json()
    return {
        "/api/clash/preview": {"spec": spec},
        "/api/clash/resolve": {"spec": spec, "r": 0},
        "/api/seasons/{season_id}/operator/beacon": {"randomness": "ab" * 32},
    }


def _sent(client: TestClient, case: Case, baselines: dict[str, dict[str, Any]]) -> Any:
    headers = {"Authorization": f"Bearer {ADMIN_TOKEN}", "Idempotency-Key": "hostile-key"}
    body = case.body
    if case.changes is not None:
        body = encoded(baselines.get(case.template, case.baseline) | case.changes)
    if body is not None:
        headers["content-type"] = "application/json"
    return client.request(case.method, case.path, params=case.query, content=body,
                          headers=headers)


@pytest.mark.parametrize("case", PARAMETERS)
def test_a_hostile_request_is_answered_without_a_fault(
    client: TestClient, baselines: dict[str, dict[str, Any]], case: Case,
) -> None:
    answer = _sent(client, case, baselines)
    status, text = answer.status_code, answer.text
    assert status < 500, (case.label, status, text[:300])
    assert "Traceback" not in text and "RecursionError" not in text, case.label
    if status >= 400 and "json" in answer.headers.get("content-type", ""):
        refusal = answer.json()
        assert set(refusal) == {"detail", "field", "message", "value"}, refusal
        assert "\n" not in refusal["detail"]
    if case.wrong_type or case.parameter:
        assert 400 <= status < 500, f"{case.label}: taken as {status} {text[:200]}"
    if case.wrong_type:  # refused for its type, not for something else about the request
        assert status == 422 and answer.json()["field"].split(".")[0].split("[")[0] == (
            case.wrong_type), f"{case.label}: {text[:200]}"
    if case.parameter and status == 422:
        assert answer.json()["field"] == case.parameter, answer.json()
