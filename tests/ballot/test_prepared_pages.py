"""Seat pages prepared after the move that opens a declare or withdraw step: each person's first
read finds its own page built and rendered, the same page a cold process builds, with no other
seat's cards;
a read that comes while its page is being built waits for that build instead of building it
again."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from fairfight.web.ballot.seat_page import GamePage, view_page
from fairfight.web.ballot.seat_views import SeatViews
from tests.ballot.test_seat_choices import declaring
from tests.ballot.test_tables import (
    client_of,
    create,
    make_app,
    play_round,
    seat_view,
    seated,
    simple_answer,
)
from tests.ballot.test_tables_privacy import secrets_of


def _phase(app: Any, table: str) -> str:
    game = client_of(app).get(f"/api/ballot/tables/{table}").json()["game"]
    return str(game["phase"])


def _at_declare(tmp_path: Path, **settings: Any) -> tuple[Any, str, dict[int, Any], SeatViews]:
    """A table of three people played through the API to its declare step: the app, the
    table, each seat's person and the app's kept pages."""
    app = make_app(tmp_path)
    created = create(app, ["human", "human", "human"], **settings)
    table = created["id"]
    people = seated(app, created)
    for _ in range(40):
        if _phase(app, table) == "declare":
            break
        play_round(people, table)
    assert _phase(app, table) == "declare"
    return app, table, people, app.state.ballot_views


def test_the_move_opening_the_declare_step_prepares_every_asked_page(tmp_path: Path) -> None:
    app, table, people, views = _at_declare(tmp_path)
    built = views.built
    pages = {seat: seat_view(person, table, seat) for seat, person in people.items()}
    assert views.built == built  # every person asked found its page ready
    assert all(page["game"]["asked"] and page["game"]["phase"] == "declare"
               for page in pages.values())
    rendered = views.rendered
    shown = {seat: people[seat].get(f"/ballot/tables/{table}/seats/{seat}").text
             for seat in people}
    assert views.rendered == rendered  # and its HTML, rendered for the seat's own address
    cold = make_app(tmp_path)  # another process: nothing kept
    for seat, page in pages.items():
        person = client_of(cold, people[seat].headers["X-Seat-Token"])
        assert seat_view(person, table, seat) == page
        assert person.get(f"/ballot/tables/{table}/seats/{seat}").text == shown[seat]
        assert not [s for s in secrets_of(app.state.ballot_store, table, seat)
                    if s in shown[seat]]


def test_a_read_while_its_page_is_built_waits_for_that_build() -> None:
    state, events = declaring()
    page = view_page("t", state, events, ["a", "b", "c", "d"], 0, True)
    started, release = threading.Event(), threading.Event()
    builds: list[int] = []

    def slow_build() -> GamePage:
        builds.append(1)
        started.set()
        release.wait(10)
        return page

    views = SeatViews()
    got: list[GamePage] = []
    first = threading.Thread(target=lambda: got.append(
        views.page("t", 3, 0, True, ["a"], slow_build)))
    first.start()
    assert started.wait(10)
    second = threading.Thread(target=lambda: got.append(
        views.page("t", 3, 0, True, ["a"], slow_build)))
    second.start()
    second.join(0.2)
    assert second.is_alive()  # waiting for the build in flight, not building its own
    release.set()
    first.join(10)
    second.join(10)
    assert builds == [1] and views.built == 1
    assert got == [page, page]
    assert not views.building


def test_a_failed_build_wakes_its_waiters_who_build_their_own() -> None:
    state, events = declaring()
    page = view_page("t", state, events, ["a", "b", "c", "d"], 0, True)
    views = SeatViews()

    def broken() -> GamePage:
        raise RuntimeError("the table changed under the build")

    with pytest.raises(RuntimeError, match="changed under the build"):
        views.page("t", 3, 0, True, ["a"], broken)
    assert not views.building
    assert views.page("t", 3, 0, True, ["a"], lambda: page) == page


def test_the_page_request_keeps_the_address_and_drops_the_movers_headers() -> None:
    from starlette.requests import Request

    from fairfight.web.ballot.seat_html import seat_page_request

    move = Request({
        "type": "http", "http_version": "1.1", "method": "POST", "scheme": "https",
        "server": ("10.0.0.5", 8443), "client": ("10.0.0.9", 5000), "root_path": "/games",
        "path": "/api/ballot/tables/abc/seats/1/move", "query_string": b"x=1",
        "headers": [(b"host", b"play.example"), (b"cookie", b"seat_abc_1=secret"),
                    (b"x-seat-token", b"secret"), (b"x-host-token", b"hostsecret")],
    })
    page = seat_page_request(move, "abc", 2)
    assert str(page.url) == "https://play.example/games/ballot/tables/abc/seats/2"
    assert page.method == "GET"
    assert dict(page.headers) == {"host": "play.example"}
    assert not page.cookies
    assert page.path_params == {"table_id": "abc", "seat": 2}


def test_under_a_turn_clock_only_the_page_is_prepared_not_its_html(tmp_path: Path) -> None:
    """A clocked table's page shows the time left, so HTML rendered when the step opens would
    never be read as it is: the page model is prepared, the HTML is left to the read."""
    _, table, people, views = _at_declare(tmp_path, clock_bank=600, clock_increment=30)
    assert views.rendered == 0  # the moves went through the API: no HTML, prepared or read
    built = views.built
    for seat, person in people.items():
        assert seat_view(person, table, seat)["game"]["phase"] == "declare"
    assert views.built == built  # the pages themselves were prepared
    for seat, person in people.items():
        assert person.get(f"/ballot/tables/{table}/seats/{seat}").status_code == 200
    assert views.rendered == len(people)


def test_a_move_sent_with_another_host_prepares_nothing_a_reader_at_this_host_finds(
        tmp_path: Path) -> None:
    """A seat that sends the opening move with a forged Host header gets the pages rendered
    for that host, where only a reader asking that host finds them: every reader here
    renders its own page, and none carries the forged host."""
    app = make_app(tmp_path)
    created = create(app, ["human", "human", "human"])
    table = created["id"]
    people = seated(app, created)
    views: SeatViews = app.state.ballot_views
    for _ in range(40):
        public = client_of(app).get(f"/api/ballot/tables/{table}").json()
        if public["game"]["phase"] == "declare":
            break
        waiting = public["waiting_for"]
        for seat in waiting:
            view = seat_view(people[seat], table, seat)
            if view["game"]["phase"] == "declare":
                break
            forged = {"host": "evil.example"} if seat == waiting[-1] else {}
            move = {"version": view["version"], "decision": simple_answer(view["game"])}
            answer = people[seat].post(f"/api/ballot/tables/{table}/seats/{seat}/move",
                                       json=move, headers=forged)
            assert answer.status_code == 200, answer.text
    assert _phase(app, table) == "declare"
    rendered = views.rendered
    assert rendered == len(people)  # the forged move opened the step: its pages, for its host
    pages = [person.get(f"/ballot/tables/{table}/seats/{seat}").text
             for seat, person in people.items()]
    assert views.rendered == rendered + len(people)
    assert not [page for page in pages if "evil.example" in page]
