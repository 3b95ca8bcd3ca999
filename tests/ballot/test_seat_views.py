"""Seat pages kept per state version: a seat read again is not built again, a page kept for one
seat is never served to another, and a move builds the next version's page afresh."""

from __future__ import annotations

from pathlib import Path

from fairfight.web.ballot.seat_page import GamePage, view_page
from fairfight.web.ballot.seat_views import SeatViews
from tests.ballot.test_seat_choices import declaring
from tests.ballot.test_tables import create, make_app, play_round, seat_view, seated
from tests.ballot.test_tables_privacy import secrets_of


def test_a_seat_read_again_is_built_once_and_never_shown_to_another(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    created = create(app, ["human", "human", "machine"])
    table = created["id"]
    people = seated(app, created)
    views: SeatViews = app.state.ballot_views
    store = app.state.ballot_store
    before = views.built
    first = seat_view(people[0], table, 0)
    page = people[0].get(f"/ballot/tables/{table}/seats/0").text
    assert seat_view(people[0], table, 0) == first
    assert views.built == before + 1  # the API twice and the page: one build
    other = people[1].get(f"/ballot/tables/{table}/seats/1").text
    assert views.built == before + 1  # seat 1's own page, kept when its join started the game
    assert views.kept.get((table, 0, 1, True, ("person", "person", "machine"))) is not None
    assert not [s for s in secrets_of(store, table, 1) if s in other]
    assert not [s for s in secrets_of(store, table, 0) if s in page]
    assert seat_view(people[1], table, 1)["game"]["hand"] != first["game"]["hand"]
    assert first["game"]["phase"] == "draft"
    play_round(people, table)
    after = seat_view(people[0], table, 0)  # the next version: the drafted card is in hand
    assert after["version"] > first["version"]
    assert len(after["game"]["hand"]) == len(first["game"]["hand"]) + 1


def test_a_page_is_kept_as_its_json_and_read_back_as_a_fresh_equal_page() -> None:
    state, events = declaring()  # a declare step: the heaviest page
    page = view_page("t", state, events, ["a", "b", "c", "d"], 0, True)
    made: list[GamePage] = []

    def build() -> GamePage:
        made.append(page)
        return page

    tiny = SeatViews(max_bytes=1000)  # lighter than any page: nothing kept, built each time
    assert [tiny.page("t", 3, 0, True, ["a"], build) for _ in range(2)] == [page, page]
    assert len(made) == 2 and len(tiny.kept) == 0
    roomy = SeatViews()
    roomy.page("t", 3, 0, True, ["a"], build)
    again = roomy.page("t", 3, 0, True, ["a"], build)
    roomy.page("t", 3, 1, True, ["a"], build)  # another seat: built, never the kept one
    assert len(made) == 4
    assert again == page and again is not page
    assert roomy.kept.bytes_used == 2 * len(page.model_dump_json().encode())


def test_a_seat_page_read_again_is_rendered_once_and_a_changed_view_afresh(
        tmp_path: Path) -> None:
    """The HTML is kept under what the page shows: the same seat reading again gets the same
    bytes without a render; another seat, another address or the next state renders anew."""
    app = make_app(tmp_path)
    created = create(app, ["human", "human", "machine"])
    table = created["id"]
    people = seated(app, created)
    views: SeatViews = app.state.ballot_views
    address = f"/ballot/tables/{table}/seats/0"
    first = people[0].get(address)
    before = views.rendered
    again = people[0].get(address)
    assert again.status_code == first.status_code == 200
    assert again.text == first.text and views.rendered == before
    assert again.headers["content-type"] == first.headers["content-type"]
    other = people[1].get(f"/ballot/tables/{table}/seats/1").text
    assert views.rendered == before + 1
    assert not [s for s in secrets_of(app.state.ballot_store, table, 1) if s in other]
    people[0].get(address + "?open=")  # another address: its own page
    assert views.rendered == before + 2
    play_round(people, table)
    after = people[0].get(address).text
    assert after != first.text and views.rendered > before + 2
