"""My contributions: the season log's proofs the API serves (held to a brute-force RFC 9162
computation over the stored leaf hashes, read straight from the season file), their refusals,
and the page's no-script check of uploaded receipts, said in words."""

from __future__ import annotations

import hashlib
import html
import json
import re
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fairfight.conquest.store import season

API = "/api/seasons/1"
HTML = {"accept": "text/html"}


def _stored_hashes(path: Path) -> list[bytes]:
    """The season log's leaf hashes, read from the file with sqlite3 alone."""
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT leaf_hash FROM log_leaf ORDER BY position").fetchall()
    return [bytes.fromhex(row[0]) for row in rows]


def _node(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    k = 1
    while 2 * k < n:
        k *= 2
    return k


def _mth(hashes: list[bytes]) -> bytes:
    """RFC 9162 2.1.1, by its recursive definition."""
    if len(hashes) == 1:
        return hashes[0]
    k = _split(len(hashes))
    return _node(_mth(hashes[:k]), _mth(hashes[k:]))


def _path(m: int, hashes: list[bytes]) -> list[bytes]:
    """RFC 9162 2.1.3.1 PATH(m, D[n])."""
    if len(hashes) == 1:
        return []
    k = _split(len(hashes))
    if m < k:
        return [*_path(m, hashes[:k]), _mth(hashes[k:])]
    return [*_path(m - k, hashes[k:]), _mth(hashes[:k])]


def _subproof(m: int, hashes: list[bytes], complete: bool) -> list[bytes]:
    """RFC 9162 2.1.4.1 SUBPROOF(m, D[n], b)."""
    n = len(hashes)
    if m == n:
        return [] if complete else [_mth(hashes)]
    k = _split(n)
    if m <= k:
        return [*_subproof(m, hashes[:k], complete), _mth(hashes[k:])]
    return [*_subproof(m - k, hashes[k:], False), _mth(hashes[:k])]


def _contribute(client: TestClient, path: Path, amount: int = 10) -> dict[str, Any]:
    summary = season.summary(path)
    pending = {e["faction"] for e in summary.ledger
               if e["before_battle"] == summary.board["next_battle"]}
    code = next(code for code, f in sorted(summary.board["factions"].items())
                if f["standing"] and f["pool_state"] == "open" and f["pool"] == 0
                and code not in pending)
    answer = client.post(f"{API}/contributions", json={"faction": code, "amount": amount},
                         headers={"Idempotency-Key": f"mine-{amount}"})
    assert answer.status_code == 201, answer.text
    receipt: dict[str, Any] = answer.json()["receipt"]
    return receipt


def test_each_inclusion_proof_is_the_rfc_path_and_leads_to_the_signed_root(
        client: TestClient, season_file: Path) -> None:
    _contribute(client, season_file)
    hashes = _stored_hashes(season_file)
    heads = client.get(f"{API}/heads").json()["heads"]
    sizes = sorted({heads[0]["size"], heads[len(heads) // 2]["size"], heads[-1]["size"]})
    for size in sizes:
        root = next(h["root"] for h in heads if h["size"] == size)
        assert _mth(hashes[:size]).hex() == root
        for index in range(size):
            got = client.get(f"{API}/proofs/inclusion", params={"index": index, "size": size})
            assert got.status_code == 200, got.text
            assert got.json() == {"index": index, "size": size,
                                  "proof": [h.hex() for h in _path(index, hashes[:size])]}


def test_each_consistency_proof_is_the_rfc_subproof(client: TestClient,
                                                    season_file: Path) -> None:
    _contribute(client, season_file)
    hashes = _stored_hashes(season_file)
    newest = len(hashes)
    for first in range(1, newest + 1):
        got = client.get(f"{API}/proofs/consistency", params={"first": first, "second": newest})
        assert got.status_code == 200, got.text
        expected = [h.hex() for h in _subproof(first, hashes[:newest], True)]
        assert got.json() == {"first": first, "second": newest, "proof": expected}
    assert client.get(f"{API}/proofs/consistency",
                      params={"first": 3, "second": 3}).json()["proof"] == []
    whole = client.get(f"{API}/proofs/consistency", params={"first": 2}).json()
    assert whole == {"first": 2, "second": newest,
                     "proof": [h.hex() for h in _subproof(2, hashes, True)]}
    last = client.get(f"{API}/proofs/inclusion", params={"index": newest - 1}).json()
    assert last == {"index": newest - 1, "size": newest,
                    "proof": [h.hex() for h in _path(newest - 1, hashes)]}


@pytest.mark.parametrize(("route", "params", "field"), [
    ("inclusion", {"index": 5, "size": 5}, "index"),
    ("inclusion", {"size": 5}, "index"),
    ("inclusion", {"index": 0, "size": "5.0"}, "size"),
    ("inclusion", {"index": 0, "size": 10**6}, "index"),
    ("inclusion", {"index": "x", "size": 3}, "index"),
    ("inclusion", {"index": -1, "size": 3}, "index"),
    ("consistency", {"first": 0, "second": 3}, "first"),
    ("consistency", {"first": 4, "second": 3}, "first"),
    ("consistency", {"first": 1, "second": 10**6}, "first"),
    ("consistency", {"first": "1e2", "second": 3}, "first"),
    ("consistency", {"second": 3}, "first"),
])
def test_a_proof_outside_the_log_is_refused_naming_the_field(
        client: TestClient, route: str, params: dict[str, Any], field: str) -> None:
    got = client.get(f"{API}/proofs/{route}", params=params)
    assert got.status_code == 422, got.text
    assert field in got.text and "Traceback" not in got.text


def test_a_proof_of_an_unknown_season_is_404(client: TestClient) -> None:
    got = client.get("/api/seasons/99/proofs/inclusion", params={"index": 0, "size": 1})
    assert got.status_code == 404


def _verdicts(client: TestClient, *files: tuple[str, bytes]) -> list[str]:
    sent = [("receipt", (name, data, "application/json")) for name, data in files]
    page = client.post("/conquest/1/my-contributions", headers=HTML, files=sent)
    assert page.status_code == 200, page.text
    assert "Checked by this server" in page.text
    found = re.findall(r'<li class="(ok|error)">(.*?)</li>', page.text, re.S)
    return [f"{mark} " + " ".join(html.unescape(re.sub(r"<[^>]+>", "", text)).split())
            for mark, text in found]


def test_the_server_says_an_honest_receipt_in_words_and_names_each_changed_one(
        client: TestClient, season_file: Path) -> None:
    receipt = _contribute(client, season_file, amount=25)
    entry = receipt["entry"]
    seq, battle = entry["seq"], entry["before_battle"]
    name = client.get(f"{API}/factions/{entry['faction']}").json()["name"]
    size = len(_stored_hashes(season_file))
    more = json.loads(json.dumps(receipt))
    more["entry"]["amount"] = 30
    forged = json.loads(json.dumps(receipt))
    last = forged["head"]["signature"][-1]
    forged["head"]["signature"] = forged["head"]["signature"][:-1] + ("0" if last != "0" else "1")
    said = _verdicts(client, ("mine.json", json.dumps(receipt).encode()),
                     ("more.json", json.dumps(more).encode()),
                     ("forged.json", json.dumps(forged).encode()),
                     ("notes.txt", b"not json"))
    assert said == [
        f"ok ✓ mine.json: ${25} for {name}, counted in battle {battle}: in the record, as leaf "
        f"{receipt['leaf_index']} of the season log (checked by this server against the newest "
        f"head, {size} leaves, signed by the season key)",
        f"error ✗ more.json: your receipt for entry {seq} says $30 for {name}, counted in "
        f"battle {battle}, but the season log's entry {seq} is $25 for {name}, counted in "
        f"battle {battle}",
        f"error ✗ forged.json: your receipt for entry {seq}: the signature does not match the "
        "season key",
        "error ✗ notes.txt: this file is not a receipt: it is not JSON",
    ]


def test_a_receipt_for_an_entry_the_log_lacks_is_named(client: TestClient,
                                                       season_file: Path) -> None:
    receipt = _contribute(client, season_file)
    receipt["entry"]["seq"] = 9999
    said = _verdicts(client, ("far.json", json.dumps(receipt).encode()))
    assert len(said) == 1 and said[0].endswith("but the season log has no entry 9999"), said


def test_the_page_without_a_file_is_refused_and_the_page_offers_the_form(
        client: TestClient) -> None:
    assert client.post("/conquest/1/my-contributions", headers=HTML).status_code == 400
    page = client.get("/conquest/1/my-contributions", headers=HTML)
    assert page.status_code == 200
    assert 'action="/conquest/1/my-contributions"' in page.text
    assert 'name="receipt"' in page.text and "my-contributions.js" in page.text


def test_a_receipt_with_a_changed_proof_or_from_another_season_is_named(
        client: TestClient, season_file: Path) -> None:
    receipt = _contribute(client, season_file)
    seq = receipt["entry"]["seq"]
    assert receipt["inclusion"], "the demo log holds more than one leaf"
    bent = json.loads(json.dumps(receipt))
    bent["inclusion"][0] = "0" * 64
    other = json.loads(json.dumps(receipt))
    other["head"]["season"] = "f" * 64
    said = _verdicts(client, ("bent.json", json.dumps(bent).encode()),
                     ("other.json", json.dumps(other).encode()),
                     ("list.json", b"[]"))
    assert said[0].startswith(f"error ✗ bent.json: your receipt for entry {seq} says $10 for ")
    assert said[0].endswith("but its proof does not lead to its head's root"), said
    assert said[1] == f"error ✗ other.json: your receipt for entry {seq} is from another season"
    assert said[2] == ("error ✗ list.json: this file is not a receipt: expected a JSON object")


def test_the_season_home_leads_to_my_contributions(client: TestClient) -> None:
    home = client.get("/conquest/1", headers={"accept": "text/html"}).text
    assert ('<a id="home-my-contributions" href="/conquest/1/my-contributions">'
            'My contributions</a>') in home
    assert client.get("/conquest/1/my-contributions").status_code == 200
