"""The season log on the show: receipts in the API and on the form, heads (paged, by size, on
episodes, in the live stream), the facts published before battle 1, and the key never served."""

from __future__ import annotations

import base64
import json
import re
import threading
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.record import beacons
from fairfight.conquest.rules import tables
from fairfight.conquest.store import season, season_keys
from fairfight.core.records import canonical_json
from fairfight.web.conquest.live import head_event
from tests.conquest.helpers import SEED, star_map
from tests.conquest.test_log import head_is_signed, receipt_is_included
from tests.web.conquest_support import ADMIN_TOKEN, live_server, make_app

HTML = {"accept": "text/html"}
API = "/api/seasons/1"


def _open_faction(path: Path, skip: set[str] | None = None) -> str:
    skip = skip or set()
    summary = season.summary(path)
    pending = {e["faction"] for e in summary.ledger
               if e["before_battle"] == summary.board["next_battle"]}
    return next(code for code, f in sorted(summary.board["factions"].items())
                if f["standing"] and f["pool_state"] == "open" and f["pool"] == 0
                and code not in pending | skip)


def test_a_contribution_answers_with_its_receipt_and_the_receipt_is_public(
        client: TestClient, season_file: Path) -> None:
    code = _open_faction(season_file)
    body = {"faction": code, "amount": 10}
    first = client.post(f"{API}/contributions", json=body, headers={"Idempotency-Key": "r-1"})
    assert first.status_code == 201, first.text
    receipt = first.json()["receipt"]
    assert receipt["entry"] == {k: first.json()[k] for k in
                                ("seq", "before_battle", "faction", "amount")}
    assert receipt_is_included(receipt)
    assert head_is_signed(receipt["head"], season.summary(season_file).header[tables.LOG_KEY])
    again = client.post(f"{API}/contributions", json=body, headers={"Idempotency-Key": "r-1"})
    assert again.json() == first.json()  # the replay: the same receipt
    download = client.get(f"{API}/receipts/{receipt['entry']['seq']}")
    assert download.status_code == 200 and "attachment" in download.headers["content-disposition"]
    assert download.json() == receipt and download.content == canonical_json(receipt) + b"\n"
    assert client.get(f"{API}/receipts/9999").status_code == 404


def test_the_form_confirmation_shows_the_receipt_in_words_and_links_it(
        client: TestClient, season_file: Path) -> None:
    code = _open_faction(season_file)
    page = client.post(f"/conquest/1/factions/{code}/contribute",
                       data={"amount": "15", "idempotency_key": "form-r"}, headers=HTML)
    assert page.status_code == 200
    seq = season.summary(season_file).ledger[-1]["seq"]
    receipt = client.get(f"{API}/receipts/{seq}").json()
    words = re.search(r'id="receipt-words"[^>]*>(.*?)</p>', page.text, re.S)
    assert words is not None
    text = " ".join(words.group(1).split())
    assert f"Ledger entry {seq}: $15 to {code}" in text
    assert f"counting for battle {receipt['entry']['before_battle']}" in text
    assert f"log size {receipt['head']['size']}, root {receipt['head']['root'][:16]}" in text
    assert f'href="/api/seasons/1/receipts/{seq}" download' in page.text


def test_every_head_is_published_paged_and_each_verifies(
        client: TestClient, season_file: Path) -> None:
    key = season.summary(season_file).header[tables.LOG_KEY]
    heads: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = client.get(f"{API}/heads", params={"after": after, "limit": 3}).json()
        heads += page["heads"]
        after = page["next_after"]
    assert [head["size"] for head in heads] == list(range(1, len(heads) + 1))
    assert heads[-1] == season.latest_head(season_file)
    assert all(head_is_signed(head, key) for head in heads)
    first = client.get(f"{API}/heads/1")
    assert first.json() == heads[0] and "attachment" in first.headers["content-disposition"]
    assert client.get(f"{API}/heads/{len(heads) + 1}").status_code == 404


def test_each_episode_carries_the_head_published_with_it(
        client: TestClient, season_file: Path) -> None:
    key = season.summary(season_file).header[tables.LOG_KEY]
    sizes = []
    for number in (1, 2):
        head = client.get(f"{API}/battles/{number}").json()["head"]
        assert head_is_signed(head, key)
        sizes.append(head["size"])
        page = client.get(f"/conquest/1/battles/{number}", headers=HTML).text
        assert head["root"] in page and f'href="/api/seasons/1/heads/{head["size"]}"' in page
    assert sizes[0] < sizes[1]


def test_the_facts_published_before_battle_1_are_on_the_home_and_in_the_api(
        client: TestClient, season_file: Path) -> None:
    header = season.summary(season_file).header
    facts = client.get(API).json()["facts"]
    assert facts["map_sha256"] == header["map_sha256"]
    assert facts["engine_files"] == header["engine_files"]
    assert facts["log_key"] == header[tables.LOG_KEY]
    assert facts["head"] == season.latest_head(season_file)
    home = client.get("/conquest/1", headers=HTML).text
    for value in (header["map_sha256"], header[tables.LOG_KEY], *header["engine_files"].values()):
        assert value in home
    saved = client.get(f"{API}/header")
    assert saved.json() == header and "attachment" in saved.headers["content-disposition"]
    assert 'href="/api/seasons/1/header" download' in home
    assert 'href="/api/seasons/1/heads/1" download' in home


def test_the_live_stream_sends_each_new_head(season_file: Path) -> None:
    app = make_app(season_file)
    code = _open_faction(season_file)
    with live_server(app) as base, httpx.Client(base_url=base, timeout=30) as http:
        received: list[dict[str, str]] = []

        def listen() -> None:
            with http.stream("GET", f"{API}/events") as response:
                received.extend(_first_event(response, "head"))

        listener = threading.Thread(target=listen)
        listener.start()
        while app.state.conquest.live.clients() < 1:
            threading.Event().wait(0.02)
        season.contribute(season_file, code, 5)  # the command line appends: also announced
        listener.join(30)
    assert len(received) == 1
    sent = json.loads(received[0]["data"])
    assert sent == {"season": 1, "head": season.latest_head(season_file)}
    assert head_is_signed(sent["head"], season.summary(season_file).header[tables.LOG_KEY])


def _first_event(response: httpx.Response, wanted: str) -> list[dict[str, str]]:
    """The stream's first event named `wanted` (as a list of one; empty if the stream ends)."""
    current: dict[str, str] = {}
    for line in response.iter_lines():
        if line.startswith(":"):
            continue
        if line:
            name, _, value = line.partition(": ")
            current[name] = value
            continue
        if current.get("event") == wanted:
            return [current]
        current = {}
    return []


def test_a_head_event_is_one_server_sent_event() -> None:
    head = {"season": "ab" * 32, "size": 7, "root": "cd" * 32, "time": "2026-12-01T20:00:00Z",
            "signature": "ef" * 64}
    event = head_event(3, head).decode()
    assert event.startswith("event: head\ndata: ") and event.endswith("\n\n")
    assert json.loads(event.split("data: ", 1)[1]) == {"season": 3, "head": head}


def test_the_private_key_is_in_no_page_or_api_answer(client: TestClient,
                                                    season_file: Path) -> None:
    private = season_keys.key_file_for(season_file).read_text(encoding="ascii").strip()
    raw = bytes.fromhex(private)
    forbidden = {private, private.upper(), base64.b64encode(raw).decode(),
                 base64.urlsafe_b64encode(raw).decode().rstrip("="),
                 base64.b64encode(raw).decode().rstrip("=")}
    code = _open_faction(season_file)
    posted = client.post(f"{API}/contributions", json={"faction": code, "amount": 5},
                         headers={"Idempotency-Key": "crawl"})
    seq = posted.json()["seq"]
    client.post("/conquest/operator/sign-in", data={"token": ADMIN_TOKEN}, headers=HTML)
    paths = ["/conquest", "/conquest/1", "/conquest/1/battles", "/conquest/1/battles/1",
             f"/conquest/1/factions/{code}?added={seq}", "/conquest/1/verify", "/conquest/rules",
             "/conquest/operator", API, f"{API}/heads", f"{API}/heads/1", f"{API}/header",
             f"{API}/receipts/{seq}", f"{API}/ledger", f"{API}/battles", f"{API}/battles/1",
             f"{API}/map", f"{API}/standings", "/api/seasons", "/openapi.json"]
    for path in paths:
        answer = client.get(path, headers=HTML if path.startswith("/conquest") else {})
        assert answer.status_code == 200, path
        text = answer.content.decode("utf-8", errors="replace")
        assert not any(secret in text for secret in forbidden), path
    exported = client.get(f"{API}/operator/export",
                          headers={"authorization": f"Bearer {ADMIN_TOKEN}"})
    assert exported.status_code == 200 and raw not in exported.content
    assert private.encode() not in exported.content


def test_exactly_once_across_two_apps_with_one_log(season_file: Path) -> None:
    """Two service processes on one file: each key records once, and the log never forks."""
    taken: set[str] = set()
    codes = []
    for _ in range(3):
        codes.append(_open_faction(season_file, taken))
        taken.add(codes[-1])
    with (TestClient(make_app(season_file)) as one, TestClient(make_app(season_file)) as two):
        answers = []
        for number, code in enumerate(codes):
            for client in (one, two, one):
                answers.append((number, client.post(
                    f"{API}/contributions", json={"faction": code, "amount": 5},
                    headers={"Idempotency-Key": f"twice-{number}"})))
        heads = one.get(f"{API}/heads").json()["heads"]
    for number in range(len(codes)):
        mine = [a for n, a in answers if n == number]
        assert all(a.status_code == 201 for a in mine)
        assert mine[0].json() == mine[1].json() == mine[2].json()
    ledger = season.summary(season_file).ledger
    assert [e["faction"] for e in ledger[-3:]] == codes
    assert [head["size"] for head in heads] == list(range(1, len(heads) + 1))
    receipts = [a.json()["receipt"] for _, a in answers[::3]]
    assert all(receipt_is_included(r) for r in receipts)
    assert heads[-1]["size"] == receipts[-1]["leaf_index"] + 1


def test_a_timelocked_seed_is_among_the_facts(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("py_arkworks_bls12381")
    now = datetime.fromtimestamp(1_800_000_000, UTC)  # 2027-01-15T08:00:00Z
    monkeypatch.setattr(beacons, "utc_now", lambda: now)
    path = tmp_path / "locked.db"
    season.create_season(path, star_map(), "star", seed=SEED,
                         ends_by=datetime.fromtimestamp(1_800_086_400, UTC))
    with TestClient(make_app(path), raise_server_exceptions=False) as locked:
        facts = locked.get(API).json()["facts"]
        # a day after the planned end: 1_800_172_800 s, quicknet round 35_789_812 (by hand in
        # tests/conquest/test_season_timelock.py)
        assert (facts["timelock_network"], facts["timelock_round"], facts["timelock_opens"]) \
            == ("quicknet", 35_789_812, "2027-01-17T08:00:00Z")
        home = locked.get("/conquest/1", headers=HTML).text
        assert "locked to quicknet round 35789812" in home
        assert locked.get(f"{API}/header").json()["timelock"]["round"] == 35_789_812
