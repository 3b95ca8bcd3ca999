"""Every route that takes a body, posted as a form whose number fields hold what a coercing
reader would take (`1.0`, `true`, non-ASCII digits, 40 and 5,000 digits, a lone surrogate):
never a 5xx or a traceback. The forms are not in the OpenAPI document, so the routes come
from the app itself, as in `test_json_bodies`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest import season
from tests.conquest.helpers import SEED, star_map
from tests.fuzz.test_json_bodies import ROUTES
from tests.web.conquest_support import make_app

NUMBER_FIELDS = ("years", "clock_bank", "clock_increment", "my_seat", "version", "count",
                 "minutes", "amount", "priority", "r", "turn", "card", "discard", "seat_0")
TEXTS = ["1.0", "true", "٣", "9" * 40, "7" * 5000, "\ud800", "-1", " 1", "1e3"]


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    folder: Path = tmp_path_factory.mktemp("form-numbers")
    path = folder / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    with TestClient(make_app(path), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.mark.parametrize(("method", "path"), ROUTES)
def test_number_fields_of_a_form_never_reach_a_fault(
    client: TestClient, method: str, path: str,
) -> None:
    for text in TEXTS:
        form = dict.fromkeys(NUMBER_FIELDS, text) | {"kind": "every", "confirm": "1"}
        body = "&".join(f"{name}={_quoted(value)}" for name, value in form.items())
        answer = client.request(method, path, content=body.encode(), headers={
            "content-type": "application/x-www-form-urlencoded"})
        assert answer.status_code < 500, (method, path, text[:10], answer.text[:300])
        assert "Traceback" not in answer.text


def _quoted(value: str) -> str:
    """Percent-encoding of a text that may hold a lone surrogate (sent as its UTF-8 bytes
    would be if it could be encoded: the bytes of the escape, which no reader may choke on)."""
    from urllib.parse import quote

    return quote(value.encode("utf-8", "surrogatepass"))
