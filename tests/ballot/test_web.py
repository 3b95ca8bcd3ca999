"""Ballot in the web service, through the HTTP interface: start, play by forms (with the
confirmation step), JSON twins, a reload that resumes, the record and its replay."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from fairfight.ballot.record import load_record, verify_record
from fairfight.web import WebSettings, create_app


@pytest.fixture()
def client(tmp_path: Path) -> TestClient:
    settings = WebSettings(database_url=f"sqlite:///{tmp_path / 'ff.db'}")
    return TestClient(create_app(settings), base_url="http://testserver")


def start(client: TestClient, years: int = 1, seat: int = 0) -> str:
    form = {"victory": "points", "seat": str(seat), "years": str(years)}
    form |= {f"bot_{n}": "machine" if n % 2 else "pollster" for n in range(4)}
    response = client.post("/ballot/games", data=form, follow_redirects=False)
    assert response.status_code == 303
    return response.headers["location"].rsplit("/", 1)[-1]


def simple_answer(page: dict[str, object]) -> dict[str, object]:
    """A legal move for whatever is asked: first pack card, no declarations, 'no', discards."""
    phase = page["phase"]
    hand = page["hand"]
    assert isinstance(hand, list)
    if phase == "draft":
        pack = page["pack"]
        assert isinstance(pack, list)
        return {"type": "DraftPick", "card": pack[0]["id"]}
    if phase == "declare":
        return {"type": "Declarations", "entries": []}
    if phase == "withdraw":
        return {"type": "Withdrawals", "races": []}
    if phase == "discard":
        surplus = len(hand) - 16
        return {"type": "Discards", "cards": sorted(card["id"] for card in hand)[:surplus]}
    if phase == "author":
        return {"type": "BillDraft", "tags": [], "rider": -1}
    if phase == "amend-propose":
        return {"type": "AmendmentDraft", "tags": []}
    if phase == "amend-vote":
        return {"type": "AmendmentVote", "choice": "abstain"}
    return {"type": "YesNo", "yes": False}


def test_start_page_and_its_json_twin(client: TestClient) -> None:
    page = client.get("/ballot")
    assert page.status_code == 200 and "Start a game" in page.text
    data = client.get("/api/ballot").json()
    assert data["modes"] == ["points", "bills", "two-terms", "three-terms", "parallel", "amendment"]
    assert data["bots"] == ["pollster", "machine"]


def test_bad_start_form_is_422_naming_the_field(client: TestClient) -> None:
    response = client.post("/ballot/games", data={"seat": "9"})
    assert response.status_code == 422 and "seat" in response.text
    response = client.post("/ballot/games", data={"seat": "0", "bot_1": "wizard"})
    assert response.status_code == 422 and "bot_1" in response.text


def test_a_form_move_is_confirmed_before_it_counts(client: TestClient) -> None:
    game = start(client)
    before = client.get(f"/api/ballot/games/{game}").json()
    assert before["phase"] == "draft" and before["asked"]
    card = before["pack"][0]["id"]
    review = client.post(f"/ballot/games/{game}/decide", data={"card": str(card)})
    assert review.status_code == 200 and "Confirm your move" in review.text
    assert client.get(f"/api/ballot/games/{game}").json() == before  # nothing played yet
    wrong = client.post(f"/ballot/games/{game}/decide", data={"card": "999"})
    assert wrong.status_code == 422 and "card 999 is not in the pack" in wrong.text
    done = client.post(
        f"/ballot/games/{game}/decide",
        data={"card": str(card), "confirm": "1"},
        follow_redirects=False,
    )
    assert done.status_code == 303
    after = client.get(f"/api/ballot/games/{game}").json()
    assert any(c["id"] == card for c in after["hand"])


def test_a_whole_short_game_by_json_then_record_and_replay(
    client: TestClient, tmp_path: Path
) -> None:
    game = start(client, years=1, seat=2)
    page = client.get(f"/api/ballot/games/{game}").json()
    moves = 0
    while not page["over"]:
        assert page["asked"]
        response = client.post(f"/api/ballot/games/{game}/decide", json=simple_answer(page))
        assert response.status_code == 200, response.text
        page = response.json()
        moves += 1
    assert moves >= 5 and page["end_reason"] == "year-cap" and page["winners"]
    html = client.get(f"/ballot/games/{game}").text
    assert "Final scores" in html and re.search(r"lean [+-]\d", html)
    record = client.get(f"/ballot/games/{game}/record.jsonl")
    assert record.status_code == 200
    path = tmp_path / "game.jsonl"
    path.write_text(record.text)
    state = verify_record(load_record(path))
    assert list(state.last_scores) == [s["score"] for s in page["seats"]]
    replay = client.get(f"/ballot/games/{game}/replay")
    assert replay.status_code == 200 and "Record verified" in replay.text


def test_a_reload_resumes_from_the_database(tmp_path: Path) -> None:
    settings = WebSettings(database_url=f"sqlite:///{tmp_path / 'ff.db'}")
    first = TestClient(create_app(settings), base_url="http://testserver")
    game = start(first)
    page = first.get(f"/api/ballot/games/{game}").json()
    page = first.post(f"/api/ballot/games/{game}/decide", json=simple_answer(page)).json()
    again = TestClient(create_app(settings), base_url="http://testserver")  # a new process
    assert again.get(f"/api/ballot/games/{game}").json() == page


def test_wrong_types_and_unasked_moves_are_422(client: TestClient) -> None:
    game = start(client)
    response = client.post(
        f"/api/ballot/games/{game}/decide", json={"type": "DraftPick", "card": "3"}
    )
    assert response.status_code == 422
    assert response.json()["field"] == "choice.card"
    assert client.get("/api/ballot/games/nosuchgame").status_code == 422
    assert client.get(f"/ballot/games/{game}/record.jsonl").status_code == 422
