"""No traps at a ballot table: creating redirects to a page a reload does not repeat, the
invite links are the host's alone to see again, leaving asks first, and a rematch opens a new
table like the ended one."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select

from fairfight.ballot.store.schema import TABLES
from fairfight.core.tokens import token_digest
from tests.ballot.test_tables import (
    client_of,
    create,
    make_app,
    play_to_end,
    seat_view,
    seated,
)

FORM = {"victory": "points", "years": "1", "seat_0": "human", "seat_1": "human",
        "seat_2": "machine", "seat_3": "none", "seat_4": "none", "my_seat": "0", "listed": "1"}


@pytest.fixture()
def app(tmp_path: Path) -> Any:
    return make_app(tmp_path)


def tables_made(app: Any) -> int:
    with app.state.ballot_store.engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(TABLES)).scalar_one())


def invite_links(html: str) -> dict[str, str]:
    return dict(re.findall(r'data-seat="(\d)">([^<]+)</code>', html))


def test_creating_redirects_and_reloading_the_invite_page_makes_no_table(app: Any) -> None:
    host = client_of(app)
    made = host.post("/ballot/tables", data=FORM, follow_redirects=False)
    assert made.status_code == 303
    table = made.headers["location"].removeprefix("/ballot/tables/").removesuffix("/invites")
    assert made.headers["location"] == f"/ballot/tables/{table}/invites"
    first = host.get(made.headers["location"])
    again = host.get(made.headers["location"])
    assert tables_made(app) == 1
    assert first.status_code == again.status_code == 200
    links = invite_links(first.text)
    assert sorted(links) == ["0", "1"] and invite_links(again.text) == links
    assert 'data-copy="invite-1"' in first.text and "/static/ballot-invites.js" in first.text
    joined = client_of(app).get(links["1"].removeprefix("http://testserver"))
    assert joined.status_code == 200 and f"/ballot/tables/{table}/seats/1" in str(joined.url)


def test_only_the_host_sees_the_invite_links_again(app: Any) -> None:
    host = client_of(app)
    location = host.post("/ballot/tables", data=FORM, follow_redirects=False).headers["location"]
    stranger = client_of(app).get(location)
    assert stranger.status_code == 403 and "/join/" not in stranger.text
    table = location.split("/")[3]
    seat = client_of(app)
    seat.cookies.update({k: v for k, v in host.cookies.items() if k.endswith(f"{table}_0")})
    assert len(seat.cookies) == 1
    assert seat.get(location).status_code == 403  # a seat's cookie is not the host's


def test_the_store_keeps_only_digests_of_the_derived_links(app: Any) -> None:
    created = create(app, ["human", "human", "machine"])
    with app.state.ballot_store.engine.connect() as connection:
        rows = connection.exec_driver_sql("SELECT * FROM ballot_seats")
        stored = " ".join(str(row) for row in rows)
    for link in created["seats"]:
        assert link["token"] not in stored and token_digest(link["token"]) in stored
    assert created["host_token"] not in stored


def test_leaving_without_confirming_changes_nothing(app: Any) -> None:
    created = create(app, ["human", "machine", "human"])
    table = created["id"]
    people = seated(app, created)
    before = seat_view(people[2], table, 2)
    asked = people[2].post(f"/ballot/tables/{table}/seats/2/leave")
    assert asked.status_code == 200 and "Leaving is final" in asked.text
    assert 'name="confirm" value="1"' in asked.text and 'id="stay"' in asked.text
    after = seat_view(people[2], table, 2)
    assert after == before
    public = client_of(app).get(f"/api/ballot/tables/{table}").json()
    assert public["seats"][2]["played_by"] != "stand-in"
    left = people[2].post(f"/ballot/tables/{table}/seats/2/leave", data={"confirm": "1"},
                          follow_redirects=False)
    assert left.status_code == 303
    public = client_of(app).get(f"/api/ballot/tables/{table}").json()
    assert public["seats"][2]["played_by"] == "stand-in"


def test_a_rematch_opens_a_new_table_with_the_same_seats_and_settings(app: Any) -> None:
    created = create(app, ["human", "pollster", "human"], years=1, listed=False,
                     clock_bank=600, clock_increment=30)
    table = created["id"]
    host = client_of(app, host=created["host_token"])
    early = host.post(f"/ballot/tables/{table}/rematch")
    assert early.status_code == 422 and "once the game is over" in early.text
    play_to_end(seated(app, created), table)
    assert client_of(app).post(f"/ballot/tables/{table}/rematch").status_code == 422
    assert 'id="rematch"' in host.get(f"/ballot/tables/{table}").text
    rematch = host.post(f"/ballot/tables/{table}/rematch", follow_redirects=False)
    assert rematch.status_code == 303
    new_table = rematch.headers["location"].split("/")[3]
    assert new_table != table and tables_made(app) == 2
    old = app.state.ballot_store.load(table)
    new = app.state.ballot_store.load(new_table)
    assert new.kinds == old.kinds and new.listed is old.listed is False
    assert (new.clock_bank, new.clock_increment) == (600, 30)
    assert new.config.victory == old.config.victory and new.config.year_cap == 1
    assert new.commitment != old.commitment
    page = host.get(rematch.headers["location"])
    assert sorted(invite_links(page.text)) == ["0", "2"]
