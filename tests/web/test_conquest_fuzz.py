"""API fuzz from the OpenAPI schema: no 500 anywhere, and every refused body names the field.

Schemathesis generates requests (valid and invalid) for every operation the API publishes,
against a live demo season; examples per operation are bounded so the run stays quick.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.generation import GenerationMode

from tests.web.conquest_support import make_app

EXAMPLES = 20
SAFETY_SECONDS = 120
"""How long one generated request may take before the call gives up: a safety net for a
loaded machine (two test processes on two cores), not a speed check."""


def _check(case: Any, seen: set[int]) -> None:
    response = case.call(headers={"Idempotency-Key": "fuzz-key", **(case.headers or {})},
                         timeout=SAFETY_SECONDS)
    seen.add(response.status_code)
    assert response.status_code < 500, (case.method, case.formatted_path, response.text)
    if 400 <= response.status_code < 500 and "json" in response.headers.get("content-type", ""):
        body = response.json()
        assert {"detail", "field", "message"} <= set(body), body
        if response.status_code == 422:
            assert body["field"], (case.method, case.formatted_path, body)


def test_every_operation_survives_generated_requests(season_file: Path) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", make_app(season_file))
    schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 15
    seen: set[int] = set()
    for operation in operations:
        if operation.path.endswith("/events"):
            continue  # an endless stream: covered by test_conquest_live and the crawl

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, suppress_health_check=list(HealthCheck),
                  deadline=None, database=None)
        def fuzz(case: Any) -> None:
            _check(case, seen)

        fuzz()
    assert {200, 404, 422} <= seen  # the generator reached both answered and refused requests
