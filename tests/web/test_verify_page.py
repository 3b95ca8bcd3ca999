"""The season verify page: the browser replays an archive with engine.js, offline, in a worker."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import uvicorn
from fastapi import APIRouter, Response
from fastapi.testclient import TestClient

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.record import archive, verifier
from fairfight.conquest.rules import engine
from fairfight.conquest.store import publication, season
from fairfight.web import WebSettings, create_app
from fairfight.web.conquest.witnessing import WitnessSummary
from tests.conquest.helpers import SEED, reseal
from tests.conquest.log_cases import build_cases
from tests.conquest.quorum_cases import build_quorum_cases, witness_vkey
from tests.system import CHROMIUM_ARGS, chromium_path, playwright_api
from tests.web.conquest_support import store_unchecked_beacon


@pytest.fixture(scope="module")
def archives(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A good season archive and one with a flipped draw (manifest rewritten, as a forger would)."""
    root = tmp_path_factory.mktemp("verify-page")
    path = root / "season.db"
    season.create_season(path, synthetic_map(24, 30, 12), "page", seed=SEED)
    season.contribute(path, "ZZ-003", 50)
    season.contribute(path, "ZZ-007", 25)
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, root / "good.zip")
    publication.export_record(path, root / "tampered")
    history = root / "tampered" / "history.jsonl"
    lines = history.read_text(encoding="utf-8").splitlines()
    entry = json.loads(lines[6])
    entry["draws"][5]["value"] ^= 1 << 50
    lines[6] = json.dumps(entry, sort_keys=True, separators=(",", ":"))
    history.write_text("\n".join(lines) + "\n", encoding="utf-8")
    reseal(root / "tampered")
    folder = root / "tampered"
    archive.write_zip({p.name: p.read_bytes() for p in folder.iterdir()}, root / "tampered.zip")
    return {"good": root / "good.zip", "tampered": root / "tampered.zip", **_beacon_archives(root)}


# Quicknet round 7255012 comes out at 1692803367 + 7255011 × 3 = 1714568400 unix seconds,
# 2024-05-01T13:00:00Z: an hour after the header below is published.
BEACON_ROUND = 7255012
TIMING_NOTE = (
    "beacon timing: quicknet round 7255012 came out at 2024-05-01T13:00:00Z, "
    "3600 s after header.published 2024-05-01T12:00:00Z"
)


def _beacon_archives(root: Path) -> dict[str, Path]:
    """A season drawing on a beacon round, and the same record claiming a later publication."""
    path = root / "beacon.db"
    published = datetime(2024, 5, 1, 12, 0, 0, tzinfo=UTC)
    season.create_season(
        path, synthetic_map(8, 10, 3), "beacon", seed=SEED, beacon_round=BEACON_ROUND,
        published=published,
    )
    store_unchecked_beacon(path, "cd" * 32)
    list(season.fight(path, None))
    season.reveal(path)
    publication.export_record(path, root / "beacon.zip")
    folder = root / "late"
    publication.export_record(path, folder)
    header = json.loads((folder / "header.json").read_text(encoding="utf-8"))
    header["published"] = "2024-05-01T13:00:00Z"  # the round's own second: not before it
    (folder / "header.json").write_text(
        json.dumps(header, sort_keys=True, separators=(",", ":")) + "\n", encoding="utf-8"
    )
    reseal(folder)
    archive.write_zip({p.name: p.read_bytes() for p in folder.iterdir()}, root / "late.zip")
    return {"beacon": root / "beacon.zip", "late": root / "late.zip"}


def _python_message(path: Path) -> str:
    with pytest.raises(engine.ReplayMismatch) as caught:
        verifier.verify_record(verifier.load_record(path))
    return str(caught.value)


@pytest.fixture
def client() -> Iterator[TestClient]:
    with TestClient(create_app(WebSettings(database_url="sqlite://"))) as test_client:
        yield test_client


def test_the_page_and_its_engine_are_served_from_this_site(client: TestClient) -> None:
    page = client.get("/verify")
    assert page.status_code == 200
    assert 'src="/static/verify.js"' in page.text and "<script>" not in page.text
    script = client.get("/verify/engine.js")
    assert script.status_code == 200 and "javascript" in script.headers["content-type"]
    assert script.content == (files("fairfight.conquest.record") / "engine.js").read_bytes()
    assert client.get("/static/verify-worker.js").status_code == 200
    library = client.get("/verify/seasonlog.js")
    assert library.content == (files("fairfight.core") / "seasonlog.js").read_bytes()
    assert "Verify a season" in client.get("/").text


def test_the_json_twin_checks_an_archive_with_the_python_verifier(
    client: TestClient, archives: dict[str, Path]
) -> None:
    good = client.post("/api/upload/verify", files={"archive": archives["good"].read_bytes()})
    assert good.status_code == 200
    body = good.json()
    assert body["ok"] and body["battles"] >= 23
    assert (
        body["message"]
        == f"verified: {body['battles']} battles, the final map and the ledger match"
    )
    bad = client.post("/api/upload/verify", files={"archive": archives["tampered"].read_bytes()})
    assert bad.json()["ok"] is False
    assert bad.json()["message"] == _python_message(archives["tampered"])
    assert bad.json()["place"] == "battle 7"
    page = client.post(
        "/api/upload/verify",
        files={"archive": archives["tampered"].read_bytes()},
        headers={"accept": "text/html"},
    )
    assert "first difference" in page.text and "battle 7: field draws[5].value" in page.text
    empty = client.post("/api/upload/verify", files={"archive": b""})
    assert empty.status_code == 422 and empty.json()["field"] == "archive"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.fixture(scope="module")
def served(archives: dict[str, Path]) -> Iterator[str]:
    """The service on a loopback port, for a real browser, publishing the two test archives."""
    port = _free_port()
    app = create_app(WebSettings(database_url="sqlite://"))
    published = APIRouter()

    @published.get("/published/{name}.zip")
    def archive_file(name: str) -> Response:
        if name not in archives:
            return Response(status_code=404)
        return Response(archives[name].read_bytes(), media_type="application/zip")

    app.include_router(published)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def test_the_browser_verifies_offline_and_names_the_first_difference(
    served: str, archives: dict[str, Path], tmp_path: Path
) -> None:
    playwright = playwright_api()
    executable = chromium_path()
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context()
            page = context.new_page()
            page.goto(f"{served}/verify")
            page.wait_for_selector("body[data-verifier=ready]")
            context.set_offline(True)  # everything the check needs is already loaded
            page.set_input_files("#archive", str(archives["good"]))
            page.wait_for_selector("body[data-verdict]", timeout=60_000)
            verdict = page.inner_text("#result")
            page.screenshot(path=str(tmp_path / "verified.png"))
            (Path("/tmp") / "verified.png").write_bytes((tmp_path / "verified.png").read_bytes())
            assert page.get_attribute("body", "data-verdict") == "verified", verdict
            assert (
                "verified:" in verdict and "battles, the final map and the ledger match" in verdict
            )
            assert "every file matches manifest.sha256" in verdict
            page.set_input_files("#archive", str(archives["tampered"]))
            page.wait_for_selector("body[data-verdict=failed]", timeout=60_000)
            failed = page.inner_text("#result")
            page.screenshot(path=str(tmp_path / "tampered.png"))
            assert "first difference" in failed
            assert _python_message(archives["tampered"]) in failed
            assert page.get_attribute("#progress", "value") is not None
        finally:
            browser.close()


def test_the_page_fetches_a_published_archive_from_this_site(
    served: str, archives: dict[str, Path]
) -> None:
    playwright = playwright_api()
    executable = chromium_path()
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(f"{served}/verify?archive=/published/tampered.zip")
            page.wait_for_selector("body[data-verdict=failed]", timeout=60_000)
            assert _python_message(archives["tampered"]) in page.inner_text("#result")
            page.goto(f"{served}/verify?archive=/published/beacon.zip")
            page.wait_for_selector("body[data-verdict=verified]", timeout=60_000)
            assert f"✓ {TIMING_NOTE}" in page.inner_text("#result")
            # The signature is not checked in the browser: that note is no pass.
            unchecked = page.locator("#result li.unchecked").all_inner_texts()
            assert len(unchecked) == 1 and unchecked[0].startswith("– beacon round 7255012 mixed")
            assert "its signature is not checked here" in unchecked[0]
            page.goto(f"{served}/verify?archive=/published/late.zip")
            page.wait_for_selector("body[data-verdict=failed]", timeout=60_000)
            failed = page.inner_text("#result")
            assert _python_message(archives["late"]) in failed
            assert "header: field beacon.round: " in failed
            page.goto(f"{served}/verify?archive=/published/absent.zip")
            page.wait_for_selector("#result .error", timeout=60_000)
            assert "could not fetch /published/absent.zip: 404" in page.inner_text("#result")
            asked: list[str] = []
            page.on("request", lambda request: asked.append(request.url))
            for hostile in ("/\\evil.example/x", "//evil.example/x", "https://evil.example/x"):
                page.goto(f"{served}/verify?archive={hostile}")
                page.wait_for_selector("#result .error", timeout=60_000)
                assert "must come from this site" in page.inner_text("#result")
            assert not [url for url in asked if "evil" in urlsplit(url).netloc]
        finally:
            browser.close()


@pytest.fixture(scope="module")
def logged(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """An honest season with its log, the same season re-played with a contribution dropped
    (tests/conquest/log_cases.py), both zipped, and a receipt and a head the honest one gave."""
    root = tmp_path_factory.mktemp("verify-log")
    cases = {case.name: case for case in build_cases(root)}
    attack = cases["dropped: the receipt of the change"]
    zips = {}
    for name, folder in (("honest", cases["honest"].archive), ("forged", attack.archive)):
        files = {p.name: p.read_bytes() for p in folder.iterdir()}
        zips[name] = archive.write_zip(files, root / f"{name}.zip")[0]
    head = cases["dropped: the head saved at the change"].heads[0]
    return {**zips, "receipt": attack.receipts[0], "head": head,
            "honest_folder": cases["honest"].archive}


def test_the_json_twin_checks_receipts_and_heads_sent_with_the_archive(
    client: TestClient, logged: dict[str, Path]
) -> None:
    saved = [("saved", (p.name, p.read_bytes())) for p in (logged["receipt"], logged["head"])]
    good = client.post(
        "/api/upload/verify", files=[("archive", logged["honest"].read_bytes()), *saved]
    )
    assert good.json()["ok"], good.json()
    notes = good.json()["notes"]
    assert "1 saved head: signed by the season key and a prefix of the final log" in notes
    entry = json.loads(logged["receipt"].read_text(encoding="utf-8"))["entry"]
    named = next(region["name"] for region in json.loads(
        (logged["honest_folder"] / "map.json").read_text(encoding="utf-8"))["regions"]
        if region["code"] == entry["faction"])
    said = (f"{logged['receipt'].name}: your ${entry['amount']} for {named} ({entry['faction']}, "
            f"entry {entry['seq']}, counted in battle {entry['before_battle']}) is in the record")
    assert any(note.startswith(said) for note in notes), notes
    forged = client.post(
        "/api/upload/verify", files=[("archive", logged["forged"].read_bytes()), *saved[:1]]
    )
    assert forged.json()["ok"] is False
    assert forged.json()["place"] == f"receipt {logged['receipt'].name}"


def test_the_browser_checks_a_dropped_receipt_and_refuses_the_replayed_season(
    served: str, logged: dict[str, Path], tmp_path: Path
) -> None:
    """Issue 21's browser case: the honest archive with the fan's receipt and a head: ✓; the
    season re-played without one contribution, with the same receipt: ✗ naming it."""
    playwright = playwright_api()
    executable = chromium_path()
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.goto(f"{served}/verify")
            page.wait_for_selector("body[data-verifier=ready]")
            page.set_input_files("#saved", [str(logged["receipt"]), str(logged["head"])])
            page.set_input_files("#archive", str(logged["honest"]))
            page.wait_for_selector("body[data-verdict]", timeout=60_000)
            verdict = page.inner_text("#result")
            page.screenshot(path=str(tmp_path / "receipt-verified.png"))
            assert page.get_attribute("body", "data-verdict") == "verified", verdict
            assert "in the record" in verdict and "1 saved head: signed" in verdict
            assert "receipts and" not in verdict  # no "1 receipts and 1 saved heads"
            assert "cannot check here" not in verdict  # Chromium's Web Crypto has Ed25519
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            page.set_input_files("#saved", [str(logged["receipt"])])
            page.set_input_files("#archive", str(logged["forged"]))
            page.wait_for_selector("body[data-verdict=failed]", timeout=60_000)
            failed = page.inner_text("#result")
            page.screenshot(path=str(tmp_path / "receipt-refused.png"))
            assert f"receipt {logged['receipt'].name}: leaf 4 of the final log" in failed
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        finally:
            browser.close()


@pytest.fixture(scope="module")
def quorum(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The witness-quorum table (tests/conquest/quorum_cases.py) and its honest archive zipped."""
    root = tmp_path_factory.mktemp("verify-quorum")
    cases = {case.name: case for case in build_quorum_cases(root)}
    honest = cases["cosigned by both witnesses required"].archive
    files = {p.name: p.read_bytes() for p in honest.iterdir()}
    return {"cases": cases, "zip": archive.write_zip(files, root / "honest.zip")[0]}


def _stub_witnesses(route: Any) -> None:
    """The season service's answer for a season sent to three witnesses (its own model)."""
    vkeys = [witness_vkey(name) for name in ("alpha", "beta", "gamma")]
    found = WitnessSummary(witnesses=["alpha", "beta", "gamma"], vkeys=vkeys, size=None,
                           cosigned_by=[], checkpoint_url=None, text="not cosigned yet")
    route.fulfill(status=200, content_type="application/json", body=found.model_dump_json())


def test_the_browser_holds_checkpoints_to_the_witnesses_asked_for(
    served: str, quorum: dict[str, Any], tmp_path: Path
) -> None:
    """Issue 35: the page's fields start with the season's witnesses and a majority; a
    checkpoint with the quorum passes, one without is refused in the verifiers' words, and
    two receipts from two views are named as a split."""
    playwright = playwright_api()
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})
            page.route("**/api/seasons/7/witnesses", _stub_witnesses)
            page.goto(f"{served}/verify?season=7")
            page.wait_for_selector("body[data-witnesses=filled]")
            assert page.input_value("#witnesses").split("\n") == [
                witness_vkey(name) for name in ("alpha", "beta", "gamma")]
            assert page.input_value("#quorum") == "2"  # a majority of three
            assert "alpha, beta, gamma" in page.inner_text("#quorum-source")
            page.wait_for_selector("body[data-verifier=ready]")
            wanted = {"cosigned by both witnesses required": "verified",
                      "one of two (a witness not required does not count)": "failed",
                      "two receipts of one leaf from two views": "failed"}
            for name, verdict in wanted.items():
                case = quorum["cases"][name]
                page.fill("#witnesses", "\n".join(case.witnesses))
                page.fill("#quorum", str(case.quorum))
                page.set_input_files("#saved", [str(p) for p in case.checkpoints + case.receipts])
                page.set_input_files("#archive", str(quorum["zip"]))
                page.wait_for_selector(f"body[data-verdict={verdict}]", timeout=60_000)
                shown = page.inner_text("#result")
                page.screenshot(path=str(tmp_path / f"quorum-{case.exit_code}.png"))
                mark = {0: "✓", 1: "✗ first difference:", 2: "✗ refused:"}[case.exit_code]
                assert mark in shown and case.said in shown, (name, shown)
                if case.exit_code == 2:  # asking for one cosignature checks the same files again
                    page.fill("#quorum", "1")
                    page.locator("#witnesses").focus()  # leaving the field is its change
                    page.wait_for_selector("body[data-verdict=verified]", timeout=60_000)
                    assert ("cosigned by 1 of 2 witnesses: alpha; a prefix of the final log"
                            in page.inner_text("#result"))
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
        finally:
            browser.close()


def test_the_server_fallback_holds_checkpoints_to_the_quorum_in_the_same_words(
    client: TestClient, quorum: dict[str, Any]
) -> None:
    """Without script the form posts the checkpoints, keys and quorum; the Python verifier
    answers each case of the shared table as the command lines do."""
    archive_bytes = quorum["zip"].read_bytes()
    for name in ("cosigned by both witnesses required",
                 "one of two (a witness not required does not count)"):
        case = quorum["cases"][name]
        saved = [("saved", (p.name, p.read_bytes())) for p in case.checkpoints + case.receipts]
        form = {"witnesses": "\n".join(case.witnesses), "quorum": str(case.quorum)}
        answer = client.post("/api/upload/verify", data=form,
                             files=[("archive", archive_bytes), *saved])
        if case.exit_code == 0:
            assert answer.status_code == 200 and case.said in answer.json()["notes"], answer.text
        else:
            assert answer.status_code == 422, answer.text
            body = answer.json()
            assert f"{body['field']}: {body['message']}" == case.said, body
            page = client.post("/api/upload/verify", data=form, headers={"accept": "text/html"},
                               files=[("archive", archive_bytes), *saved])
            assert "refused:" in page.text and "first difference" not in page.text
    many = client.post("/api/upload/verify", data={"witnesses": "w+1+2\n" * 17},
                       files={"archive": archive_bytes})
    assert many.status_code == 422 and many.json()["field"] == "witnesses", many.text
    high = client.post("/api/upload/verify", data={"quorum": "101"},
                       files={"archive": archive_bytes})
    assert high.status_code == 422 and "quorum" in high.text, high.text
