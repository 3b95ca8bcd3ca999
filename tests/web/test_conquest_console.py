"""The operator console: one sign-in (a session cookie kept in the database), the season's
state, typed confirmation for more than one battle, and a brake on guessed tokens."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.store import season
from fairfight.web.conquest.payments import SIGNATURE_HEADER, sign
from fairfight.web.conquest.sign_in import FREE_TRIES, SESSION_COOKIE, SESSION_SECONDS, SignInBrake
from tests.conquest.helpers import SEED, star_map
from tests.web.conquest_support import (
    ADMIN_TOKEN,
    PAYMENT_SECRET,
    QUICKNET_RANDOMNESS,
    QUICKNET_ROUND,
    QUICKNET_SIGNATURE,
    make_app,
)

HTML = {"accept": "text/html"}
CONSOLE = "/conquest/operator"


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _sign_in(client: TestClient, token: str = ADMIN_TOKEN) -> object:
    return client.post(f"{CONSOLE}/sign-in", data={"token": token}, headers=HTML,
                       follow_redirects=False)


def _battles(path: Path) -> int:
    return season.summary(path).battles


def test_signing_in_sets_a_strict_http_only_expiring_cookie(client: TestClient,
                                                            season_file: Path) -> None:
    response = _sign_in(client)
    assert response.status_code == 303 and response.headers["location"] == CONSOLE
    cookie = response.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    for part in ("HttpOnly", "SameSite=strict", f"Max-Age={SESSION_SECONDS}",
                 f"Path={CONSOLE}"):
        assert part.lower() in cookie.lower(), cookie
    value = cookie.split(";")[0].split("=", 1)[1]
    connection = sqlite3.connect(season_file)
    stored = [row[0] for row in connection.execute("SELECT session_sha256 FROM operator_session")]
    connection.close()
    assert stored == [hashlib.sha256(value.encode()).hexdigest()]  # never the cookie itself
    page = client.get(CONSOLE, headers=HTML)
    assert 'id="operator-season-1"' in page.text and ADMIN_TOKEN not in page.text


def test_a_session_is_known_to_every_process_of_the_database(season_file: Path) -> None:
    with (TestClient(make_app(season_file)) as one, TestClient(make_app(season_file)) as two):
        _sign_in(one)
        two.cookies.set(SESSION_COOKIE, one.cookies[SESSION_COOKIE], path=CONSOLE)
        assert 'id="operator-season-1"' in two.get(CONSOLE, headers=HTML).text


def test_a_session_expires_and_signing_out_ends_it(client: TestClient) -> None:
    sessions = client.app.state.conquest.sessions  # type: ignore[attr-defined]
    start = time.time()
    sessions.clock = FakeClock(start)
    _sign_in(client)
    cookie = client.cookies[SESSION_COOKIE]
    sessions.clock.now = start + SESSION_SECONDS - 1
    assert 'id="operator-season-1"' in client.get(CONSOLE, headers=HTML).text
    sessions.clock.now = start + SESSION_SECONDS
    expired = client.post(f"{CONSOLE}/1/air", data={"count": "1"}, headers=HTML)
    assert expired.status_code == 401 and "expired" in expired.text
    sessions.clock.now = start
    client.post(f"{CONSOLE}/sign-out", headers=HTML)
    client.cookies.set(SESSION_COOKIE, cookie, path=CONSOLE)  # the old cookie, replayed
    assert 'id="sign-in-form"' in client.get(CONSOLE, headers=HTML).text


def test_a_wrong_token_gives_the_sign_in_page_with_a_message(client: TestClient) -> None:
    response = _sign_in(client, "wrong")
    assert response.status_code == 401
    assert 'id="sign-in-form"' in response.text
    assert "the operator token is not valid" in response.text
    assert SESSION_COOKIE not in response.headers.get("set-cookie", "")


def test_wrong_tokens_are_slowed_down_per_address(client: TestClient) -> None:
    clock = FakeClock(1000.0)
    client.app.state.conquest.brake.clock = clock  # type: ignore[attr-defined]
    for _ in range(FREE_TRIES):
        assert _sign_in(client, "guess").status_code == 401
    braked = _sign_in(client)  # even the right token waits now
    assert braked.status_code == 429 and braked.headers["retry-after"] == "1"
    assert "too many wrong tokens" in braked.text
    api = client.post("/api/seasons/1/operator/air", json={"count": 1},
                      headers={"authorization": f"Bearer {ADMIN_TOKEN}"})
    assert api.status_code == 429
    clock.now += 1
    assert _sign_in(client, "guess again").status_code == 401
    assert _sign_in(client).status_code == 429 and \
        _sign_in(client).headers["retry-after"] == "2"  # twice as long after each miss
    clock.now += 2
    assert _sign_in(client).status_code == 303
    assert _sign_in(client, "typo").status_code == 401  # a success started it afresh


def test_the_brake_forgets_the_least_recent_address_first() -> None:
    clock = FakeClock(0.0)
    brake = SignInBrake(clock, capacity=3)
    for address in ("a", "b", "c", "d"):
        for _ in range(FREE_TRIES):
            brake.missed(address)
    assert len(brake) == 3
    assert brake.wait("a") == 0 and brake.wait("d") == 1.0


def test_the_token_is_checked_before_the_body_is_read(client: TestClient,
                                                      season_file: Path) -> None:
    before = _battles(season_file)
    garbage = {"content-type": "application/json"}
    wrong = client.post("/api/seasons/1/operator/air", content=b"{not json",
                        headers={**garbage, "authorization": "Bearer wrong"})
    assert wrong.status_code == 401
    right = client.post("/api/seasons/1/operator/air", content=b"{not json",
                        headers={**garbage, "authorization": f"Bearer {ADMIN_TOKEN}"})
    assert right.status_code == 400 and right.json()["field"] == "body"
    console = client.post(f"{CONSOLE}/1/air", content=b"\xff" * 100, headers=HTML)
    assert console.status_code == 401 and 'id="sign-in-form"' in console.text
    assert _battles(season_file) == before


def test_more_than_one_battle_needs_the_typed_confirmation(client: TestClient,
                                                           season_file: Path) -> None:
    _sign_in(client)
    before = _battles(season_file)
    asked = client.post(f"{CONSOLE}/1/air", data={"count": "3"}, headers=HTML)
    assert 'id="air-confirm"' in asked.text and "air 3" in asked.text
    assert _battles(season_file) == before
    typo = client.post(f"{CONSOLE}/1/air", data={"count": "3", "confirm": "air 30"}, headers=HTML)
    assert 'id="air-confirm-error"' in typo.text and _battles(season_file) == before
    done = client.post(f"{CONSOLE}/1/air", data={"count": "3", "confirm": " Air  3 "},
                       headers=HTML)
    assert 'id="operator-message"' in done.text and _battles(season_file) == before + 3
    too_many = client.post(f"{CONSOLE}/1/air", data={"count": "11", "confirm": "air 11"},
                           headers=HTML)
    assert too_many.status_code == 422 and "from 1 to 10" in too_many.text
    assert _battles(season_file) == before + 3
    one = client.post(f"{CONSOLE}/1/air", data={"count": "1"}, headers=HTML)
    assert 'id="air-confirm"' not in one.text and _battles(season_file) == before + 4


def _text(html: str, element_id: str) -> str:
    found = re.search(rf'id="{element_id}"[^>]*>(.*?)</dd>', html, re.S)
    assert found, element_id
    return " ".join(re.sub(r"<[^>]+>", " ", found.group(1)).split())


def test_the_console_shows_the_seasons_state(season_file: Path,
                                            arranged: dict[str, object]) -> None:
    with TestClient(make_app(season_file, payments=True)) as client:
        code = next(c for c, f in sorted(season.summary(season_file).board["factions"].items())
                    if f["standing"] and f["pool"] == 0 and f["pool_state"] == "open")
        body = json.dumps({"id": "evt_over", "type": "payment.succeeded",
                           "data": {"season": 1, "faction": code, "amount": 55}}).encode()
        client.post("/api/payments/webhook", content=body, headers={
            SIGNATURE_HEADER: sign(PAYMENT_SECRET, int(time.time()), body)})
        _sign_in(client)
        html = client.get(CONSOLE, headers=HTML).text
    summary = season.summary(season_file)
    battles = _text(html, "state-battles-1")
    assert f"{summary.battles} aired; next is battle {summary.board['next_battle']}" in battles
    assert str(arranged["rebellion_waiting"]) in _text(html, "state-rebellions-1")
    assert _text(html, "state-beacon-1") == "this season names no beacon round"
    head = season.latest_head(season_file)
    assert head is not None
    assert _text(html, "state-log-1").startswith(f"{head['size']} entries; latest signed head: "
                                                 f"root {head['root'][:16]}…")
    assert _text(html, "state-refunds-1") == "1 payment, $55 in all (listed below)"
    assert "evt_over" in html and "$55" in html


@pytest.fixture
def beacon_client(tmp_path: Path) -> Iterator[tuple[TestClient, Path]]:
    path = tmp_path / "beacon.db"
    season.create_season(path, star_map(), "star", seed=SEED, beacon_round=QUICKNET_ROUND,
                         published=datetime(2023, 9, 15, 10, 0, 0, tzinfo=UTC))
    with TestClient(make_app(path), raise_server_exceptions=False) as client:
        yield client, path


def test_the_console_says_what_to_paste_and_checks_it(
        beacon_client: tuple[TestClient, Path]) -> None:
    client, path = beacon_client
    _sign_in(client)
    html = client.get(CONSOLE, headers=HTML).text
    assert "came out at 2023-09-15T11:00:03Z; record it now" in _text(html, "state-beacon-1")
    assert f"/52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971/public/" \
           f"{QUICKNET_ROUND}" in html
    fake = client.post(f"{CONSOLE}/1/beacon", headers=HTML,
                       data={"randomness": "c0" * 32, "signature": QUICKNET_SIGNATURE})
    assert fake.status_code == 422 and "beacon.randomness" in fake.text
    assert season.summary(path).beacon is None
    done = client.post(f"{CONSOLE}/1/beacon", headers=HTML,
                       data={"randomness": QUICKNET_RANDOMNESS, "signature": QUICKNET_SIGNATURE})
    assert done.status_code == 200 and "recorded and verified" in done.text
    assert QUICKNET_RANDOMNESS in _text(done.text, "state-beacon-1")


def test_the_api_refuses_an_unsigned_beacon_naming_the_field(
        beacon_client: tuple[TestClient, Path]) -> None:
    client, path = beacon_client
    bearer = {"authorization": f"Bearer {ADMIN_TOKEN}"}
    unsigned = client.post("/api/seasons/1/operator/beacon", headers=bearer,
                           json={"randomness": QUICKNET_RANDOMNESS})
    assert unsigned.status_code == 422 and unsigned.json()["field"] == "beacon.signature"
    signed = client.post("/api/seasons/1/operator/beacon", headers=bearer,
                         json={"randomness": QUICKNET_RANDOMNESS,
                               "signature": QUICKNET_SIGNATURE})
    assert signed.status_code == 200 and signed.json()["randomness"] == QUICKNET_RANDOMNESS
    assert season.summary(path).beacon is not None
