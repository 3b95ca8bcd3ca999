"""Table status and seat roles are enums whose values are the words stored and shown before
they were enums: a database written earlier reads unchanged, and the JSON says the same."""

from __future__ import annotations

from sqlalchemy import select, update

from fairfight.ballot.store import TABLES, BallotStore, SeatRole, SeatRow, TableStatus
from fairfight.ballot.tables import named_config
from fairfight.web.ballot.tables import TableSeat


def test_the_stored_status_is_the_plain_word_and_reads_back_as_the_enum() -> None:
    store = BallotStore("sqlite://")
    config = named_config("as-written-plus").model_copy(update={"year_cap": 1})
    table_id, _, _ = store.create(config, ["human", "machine", "pollster"], client="c")
    with store.engine.connect() as connection:
        stored = connection.execute(select(TABLES.c.status)).scalar_one()
    assert type(stored) is str and stored == "open"
    table = store.load(table_id)
    assert table is not None and table.status is TableStatus.OPEN
    with store.engine.begin() as connection:  # as an earlier version left it
        connection.execute(update(TABLES).values(status="over"))
    table = store.load(table_id)
    assert table is not None and table.status is TableStatus.OVER
    store.close()


def test_the_words_are_the_ones_pages_and_json_used() -> None:
    assert [s.value for s in TableStatus] == ["open", "playing", "over"]
    assert [r.value for r in SeatRole] == ["person", "bot", "stand-in"]


def test_a_seats_role_follows_its_kind_and_whether_its_person_left() -> None:
    def role(kind: str, stand_in_from: int | None) -> SeatRole:
        return SeatRow(0, kind, True, stand_in_from, None, 0.0).role

    assert role("human", None) is SeatRole.PERSON
    assert role("machine", None) is SeatRole.BOT
    assert role("human", 3) is SeatRole.STAND_IN
    seat = TableSeat(seat=0, kind="human", played_by=SeatRole.STAND_IN, taken=True,
                     answered=False, asked=False, clock_left=None, you=False)
    assert '"played_by":"stand-in"' in seat.model_dump_json()
