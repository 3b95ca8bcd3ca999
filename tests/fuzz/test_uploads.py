"""Uploads at and past their limits, and the verifier's child process at the end of its budget.

An archive just under the verify page's stated limit reaches the verifier; one byte over gets
the page's own refusal (the page again for a browser, the one JSON error shape otherwise),
never the service's raw limit on bodies. A verification that runs out of memory or wall time
is 413 or 503, never a hung or grown server. A refused upload loses nothing already stored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.store import publication, season
from fairfight.web import WebSettings, create_app
from fairfight.web.routes import verify
from fairfight.web.verify_runner import Limits, Outcome, Verdict, run_verifier
from tests.conquest.helpers import SEED

UPLOAD_LIMIT = 2 * 1024 * 1024
"""The service's limit on upload bodies in these tests (its default is 16 MB)."""


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    settings = WebSettings(database_url="sqlite://", max_upload_bytes=UPLOAD_LIMIT)
    with TestClient(create_app(settings), raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def good_zip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("uploads")
    path = root / "season.db"
    season.create_season(path, synthetic_map(8, 10, 3), "uploads", seed=SEED)
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, root / "season.zip")
    return root / "season.zip"


def _stated_limit(client: TestClient) -> int:
    """The limit the verify page states, read from the page as a visitor reads it."""
    found = re.search(r"at most ([\d,]+) bytes", client.get("/verify").text)
    assert found, "the verify page states its limit"
    return int(found.group(1).replace(",", ""))


def test_an_upload_just_under_the_stated_limit_reaches_the_verifier(client: TestClient) -> None:
    limit = _stated_limit(client)
    assert limit < UPLOAD_LIMIT
    answer = client.post("/api/upload/verify", files={"archive": b"x" * limit})
    assert answer.status_code == 200, answer.text
    assert answer.json()["message"] == "archive: not a readable zip archive (no end of directory)"


def test_an_upload_just_over_the_stated_limit_gets_the_pages_own_refusal(
    client: TestClient,
) -> None:
    limit = _stated_limit(client)
    over = {"archive": b"x" * (limit + 1)}
    answer = client.post("/api/upload/verify", files=over)
    assert answer.status_code == 413
    assert answer.json() == {"detail": f"archive: larger than {limit} bytes; refused",
                             "field": "archive",
                             "message": f"larger than {limit} bytes; refused", "value": None}
    page = client.post("/api/upload/verify", files=over, headers={"accept": "text/html"})
    assert page.status_code == 413 and "text/html" in page.headers["content-type"]
    assert f"archive: larger than {limit} bytes; refused" in page.text
    assert 'id="verify-form"' in page.text  # the page itself, to try another file


def test_too_many_saved_files_are_refused_before_any_work(client: TestClient) -> None:
    saved = [("saved", (f"r{n}.json", b"{}")) for n in range(verify.MAX_SAVED_FILES + 1)]
    answer = client.post("/api/upload/verify", files=[("archive", ("a.zip", b"PK")), *saved])
    assert answer.status_code == 413 and answer.json()["field"] == "saved"


def test_a_child_out_of_memory_is_too_costly_and_out_of_time_is_timed_out(
    good_zip: Path,
) -> None:
    assert run_verifier(good_zip).outcome == Outcome.VERIFIED
    starved = run_verifier(good_zip, limits=Limits(memory_bytes=1 << 20))
    assert starved.outcome == Outcome.TOO_COSTLY and "1 MB" in starved.detail
    late = run_verifier(good_zip, limits=Limits(wall_seconds=0.001))
    assert late.outcome == Outcome.TIMED_OUT


@pytest.mark.parametrize(
    ("outcome", "status"),
    [(Outcome.TOO_COSTLY, 413), (Outcome.TIMED_OUT, 503), (Outcome.REFUSED, 422),
     (Outcome.BROKEN, 422)],
)
def test_each_outcome_short_of_a_verdict_has_its_status(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, outcome: Outcome, status: int
) -> None:
    monkeypatch.setattr(verify, "run_verifier",
                        lambda *_, **__: Verdict(outcome, "archive", "the reason, in one line"))
    answer = client.post("/api/upload/verify", files={"archive": b"PK"})
    assert answer.status_code == status
    assert answer.json()["detail"] == "archive: the reason, in one line"
    retry = answer.headers.get("retry-after")
    assert (retry == str(verify.RETRY_AFTER_SECONDS)) if status == 503 else retry is None


def _crowded_scenario(client: TestClient, units: int) -> bytes:
    """The built-in Belvoir Wood with `units` rifle companies added, as compact JSON."""
    data: dict[str, Any] = client.get("/api/clash/scenarios/belvoir-wood").json()
    data["units"] = [{"id": f"u{n}", "player": "blue", "class": "rifle-company",
                      "at": [n % 4, 0]} for n in range(units)]
    return json.dumps(data, separators=(",", ":")).encode()


def test_a_refused_scenario_upload_loses_nothing_already_stored(client: TestClient) -> None:
    started = client.post("/api/clash/games", json={"scenario": "belvoir-wood"})
    assert started.status_code == 200, started.text
    before = client.get("/api/clash/game").json()
    crowded = _crowded_scenario(client, 1_000)
    assert len(crowded) < 64 * 1024  # under the upload's byte cap: the unit cap refuses it
    refused = client.post("/clash/games/upload", data={"side": "blue"},
                          files={"file": ("crowded.json", crowded)})
    assert refused.status_code == 422 and "1000 units" in refused.text
    assert client.get("/api/clash/game").json() == before
