"""The contribution route reads its own body: the refusals a body parameter gave, kept."""

from __future__ import annotations

import pytest
from fastapi.exceptions import RequestValidationError

from fairfight.web.conquest.models import ContributionRequest
from fairfight.web.conquest.routes.write import contribution_body


@pytest.mark.parametrize("content_type", [None, "application/json",
                                          "application/json; charset=utf-8",
                                          "application/merge-patch+json"])
def test_a_json_body_is_read(content_type: str | None) -> None:
    assert contribution_body(content_type, b'{"faction": "US-TX", "amount": 5}') == (
        ContributionRequest(faction="US-TX", amount=5))


@pytest.mark.parametrize(("content_type", "raw", "kind", "where"), [
    ("text/plain", b'{"faction": "US-TX", "amount": 5}', "model_type", ("body",)),
    ("application/x-www-form-urlencoded", b"faction=US-TX&amount=5", "model_type", ("body",)),
    ("application/json", b"  ", "missing", ("body",)),
    ("application/json", b'{"faction": "US-TX"}', "missing", ("body", "amount")),
    ("application/json", b'{"faction": "US-TX", "amount": "5"}', "int_type", ("body", "amount")),
    ("application/json", b'{"faction": "US-TX", "amount": 5.0}', "int_type", ("body", "amount")),
    ("application/json", b'{"faction": "US-TX", "amount": 5, "x": 1}', "extra_forbidden",
     ("body", "x")),
    ("application/json", b"nope", "json_invalid", ("body",)),
])
def test_a_refused_body_names_where(content_type: str, raw: bytes, kind: str,
                                    where: tuple[str, ...]) -> None:
    with pytest.raises(RequestValidationError) as refused:
        contribution_body(content_type, raw)
    first = refused.value.errors()[0]
    assert (first["type"], tuple(first["loc"])) == (kind, where)
