"""Ballot games live only in the ballot's own database, never inside a conquest season file:
a game played to the end through the web on a service over a season file leaves the season
file's tables exactly the season's, and the game (its key included) in `X-ballot.db`."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from fairfight.ballot.store import METADATA
from fairfight.conquest.store import season
from fairfight.web import WebSettings, create_app
from tests.ballot.test_tables import client_of, create, play_to_end, seated
from tests.conquest.helpers import SEED, star_map


def _tables(path: Path) -> set[str]:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {str(name) for (name,) in rows}
    finally:
        connection.close()


def _text_of_every_cell(path: Path) -> str:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        cells = []
        for table in _tables(path):
            for row in connection.execute(f'SELECT * FROM "{table}"'):
                cells.extend(str(value) for value in row)
        return "\n".join(cells)
    finally:
        connection.close()


def test_a_ballot_game_played_through_the_web_never_touches_the_season_file(
    tmp_path: Path,
) -> None:
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    season_tables = _tables(path)
    app = create_app(WebSettings(database_url=f"sqlite:///{path}"))
    with client_of(app):
        created = create(app, ["human", "pollster", "human"])
        public = play_to_end(seated(app, created), created["id"])
    game_key = public["key"]
    assert game_key
    assert _tables(path) == season_tables
    assert not season_tables & set(METADATA.tables)
    assert game_key not in _text_of_every_cell(path)
    ballot_file = tmp_path / "season-ballot.db"
    assert set(METADATA.tables) <= _tables(ballot_file)
    assert game_key in _text_of_every_cell(ballot_file)


def test_a_stopped_service_leaves_every_file_in_the_rollback_journal(tmp_path: Path) -> None:
    path = tmp_path / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    app = create_app(WebSettings(database_url=f"sqlite:///{path}"))
    with client_of(app):
        created = create(app, ["human", "pollster", "human"])
        people = seated(app, created)
        assert next(iter(people.values())).get("/api/seasons/1").status_code == 200
        served = tmp_path / "season-ballot.db"
        with served.open("rb") as file:
            assert file.read(20)[18:20] == b"\x02\x02"  # served in WAL mode
    names = sorted(entry.name for entry in tmp_path.iterdir())
    assert names == ["season-ballot.db", "season-clash.db", "season-warscore.db", "season.db",
                     "season.db.key", "season.db.seed"]
    for name in ("season.db", "season-ballot.db", "season-clash.db", "season-warscore.db"):
        with (tmp_path / name).open("rb") as file:
            assert file.read(20)[18:20] == b"\x01\x01", name  # the rollback journal
