"""The season file: read-only verbs write nothing, damage and locks are named, the seed apart."""

from __future__ import annotations

import dataclasses
import json
import os
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from fairfight.conquest.cli.season_cli import app
from fairfight.conquest.store import ledger, publication, season, season_file, season_keys, seeds
from fairfight.conquest.store import season_store as store
from fairfight.core.errors import InputError
from tests.conquest.helpers import SEED, star_map

runner = CliRunner()


def cli(*arguments: str | Path) -> Result:
    return runner.invoke(app, [str(a) for a in arguments])


def _one_line(result: Result) -> str:
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert "Traceback" not in result.output
    return lines[0]


def _snapshot(folder: Path) -> dict[str, tuple[bytes, int]]:
    """Every file in the folder with its bytes and modification time."""
    return {
        path.name: (path.read_bytes(), path.stat().st_mtime_ns)
        for path in sorted(folder.iterdir())
        if path.is_file()
    }


@pytest.fixture
def fought(tmp_path: Path) -> Path:
    """A season on the star map with a contribution and two battles fought."""
    folder = tmp_path / "season"
    folder.mkdir()
    path = folder / "season.db"
    season.create_season(path, star_map(), "star", seed=SEED)
    season.contribute(path, "AB", 10)
    list(season.fight(path, 2))
    return path


# ---------------------------------------------------------------- read-only verbs


def _journal_mode(path: Path) -> str:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return str(connection.execute("PRAGMA journal_mode").fetchone()[0])
    finally:
        connection.close()


def test_read_only_verbs_create_and_write_nothing(fought: Path, tmp_path: Path) -> None:
    connection = sqlite3.connect(fought)
    connection.execute("PRAGMA journal_mode=DELETE")
    connection.close()
    before = _snapshot(fought.parent)
    assert cli("show", fought).exit_code == 0
    assert cli("show", fought, "--battle", "1", "--json").exit_code == 0
    standing = [r.faction for r in season.standings(season.summary(fought)) if r.standing]
    assert cli("odds", fought, standing[0], standing[1]).exit_code in (0, 2)
    assert cli("export", fought, tmp_path / "record").exit_code == 0
    assert cli("verify", tmp_path / "record").exit_code == 1  # not revealed yet
    assert cli("map-stats").exit_code in (0, 2)
    assert _snapshot(fought.parent) == before
    assert _journal_mode(fought) == "delete"


def test_read_only_file_and_folder_can_be_read_and_say_so_when_written(
    fought: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fought.chmod(0o444)
    fought.parent.chmod(0o555)
    try:
        if os.geteuid() == 0:  # root writes anyway; let the store see what a user would see
            real_access = os.access

            def access(path: object, mode: int, **kwargs: object) -> bool:
                if mode == os.W_OK and Path(str(path)) in (fought, fought.parent):
                    return False
                return real_access(path, mode)  # type: ignore[arg-type]

            monkeypatch.setattr(store.os, "access", access)
        before = _snapshot(fought.parent)
        shown = cli("show", fought)
        assert shown.exit_code == 0, shown.output
        refused = cli("contribute", fought, "AC", "5")
        assert refused.exit_code == 2
        line = _one_line(refused)
        assert "read-only" in line and "not a conquest season" not in line
        assert _snapshot(fought.parent) == before
    finally:
        fought.parent.chmod(0o755)
        fought.chmod(0o644)


def test_an_empty_or_foreign_file_is_refused_and_left_alone(tmp_path: Path) -> None:
    empty = tmp_path / "empty.db"
    empty.touch()
    foreign = tmp_path / "foreign.db"
    connection = sqlite3.connect(foreign)
    connection.execute("CREATE TABLE notes (text TEXT)")
    connection.commit()
    connection.close()
    before = _snapshot(tmp_path)
    for verb in ("show", "contribute"):
        extra = ("AB", "5") if verb == "contribute" else ()
        assert "is empty" in _one_line(cli(verb, empty, *extra))
        assert "not a conquest season file" in _one_line(cli(verb, foreign, *extra))
    assert _snapshot(tmp_path) == before


# ---------------------------------------------------------------- damaged contents


def _damage(path: Path, statement: str, *parameters: object) -> None:
    connection = sqlite3.connect(path)
    connection.execute(statement, parameters)
    connection.commit()
    connection.close()


EVERY_VERB = (("show",), ("show", "--battle", "1"), ("contribute", "AC", "5"), ("export",))


@pytest.mark.parametrize(
    ("statement", "parameters", "named"),
    [
        ("UPDATE season SET board = ?", ("{not json",), "season.board: not valid JSON"),
        ("UPDATE season SET board = ?", ("[" * 100_000,), "season.board: nested too deeply"),
        ("UPDATE season SET board = ?", ('{"ended":1}',), "season.board: factions: missing"),
        ("UPDATE season SET header = ?", ('{"ruleset":"conquest"}',), "season.header: "),
        ("UPDATE season SET map_data = ?", ('{"name":"x"}',), "season.map_data: "),
        ("DROP TABLE ledger", (), "ledger: the table is missing"),
        ("UPDATE ledger SET amount = ?", ("ten",), "ledger.seq 1.amount"),
        ("UPDATE ledger SET amount = ?", (7,), "ledger.seq 1.amount"),
        ("DELETE FROM history WHERE number = 2", (), "history: 1 entries stored"),
        ("UPDATE season SET commitment = ?", ("00",), "season.commitment"),
    ],
)
def test_damaged_contents_name_the_table_and_column(
    fought: Path, tmp_path: Path, statement: str, parameters: tuple[object, ...], named: str
) -> None:
    _damage(fought, statement, *parameters)
    before = _snapshot(fought.parent)
    for arguments in EVERY_VERB:
        extra = (tmp_path / "record",) if arguments == ("export",) else arguments[1:]
        result = cli(arguments[0], fought, *extra)
        assert result.exit_code == 2, result.output
        line = _one_line(result)
        assert line.startswith("InputError: damaged season file: ") and named in line, line
    assert _snapshot(fought.parent) == before
    assert not (tmp_path / "record").exists()


def test_a_damaged_history_entry_is_named_where_it_is_read(fought: Path, tmp_path: Path) -> None:
    _damage(fought, "UPDATE history SET entry = ? WHERE number = 1", "{}")
    for extra in (("show", fought, "--battle", "1"), ("export", fought, tmp_path / "r")):
        result = cli(*extra)
        assert result.exit_code == 2
        assert "damaged season file: history.entry (battle 1)" in _one_line(result)


def test_a_wrong_seed_is_damage_not_a_different_season(fought: Path) -> None:
    seed_file = seeds.seed_file_for(fought)
    seed_file.write_text("0" * 64 + "\n", encoding="ascii")
    result = cli("next", fought)
    assert result.exit_code == 2
    assert "damaged season file: seed file: " in _one_line(result)
    assert season.summary(fought).battles == 2


# ---------------------------------------------------------------- locks and ranges


@pytest.fixture
def locked(fought: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """The season file held by another program's exclusive lock."""
    monkeypatch.setattr(season_file, "BUSY_TIMEOUT_SECONDS", 0.05)
    holder = sqlite3.connect(fought, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        yield fought
    finally:
        holder.execute("ROLLBACK")
        holder.close()


def test_a_busy_file_says_busy(locked: Path) -> None:
    for arguments in (("show",), ("contribute", "AC", "5"), ("next",)):
        result = cli(arguments[0], locked, *arguments[1:])
        assert result.exit_code == 2
        line = _one_line(result)
        assert "season file is busy" in line and "not a" not in line


@pytest.mark.parametrize(
    "arguments",
    [
        ("show", "--battle", str(2**63)),
        ("show", "--battle", str(2**64 + 3)),
        ("next", "--count", str(2**63)),
    ],
)
def test_numbers_beyond_the_database_range_are_refused(
    fought: Path, arguments: tuple[str, ...]
) -> None:
    result = cli(arguments[0], fought, *arguments[1:])
    assert result.exit_code == 2
    assert str(store.SQLITE_INTEGER_MAX) in _one_line(result)


def test_a_cap_or_beacon_round_beyond_the_range_is_refused(tmp_path: Path) -> None:
    for option in ("max_battles", "beacon_round"):
        with pytest.raises(InputError) as refused:
            season.create_season(tmp_path / f"{option}.db", star_map(), "star", **{option: 2**63})
        assert refused.value.field == option
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------- the secret seed


def test_the_seed_lives_apart_in_a_file_only_its_owner_reads(fought: Path) -> None:
    assert SEED.encode() not in fought.read_bytes()
    seed_file = seeds.seed_file_for(fought)
    assert seed_file.read_text(encoding="ascii") == SEED + "\n"
    assert stat.S_IMODE(seed_file.stat().st_mode) == 0o600


def test_public_paths_never_read_the_seed(
    fought: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def forbidden(self: seeds.SeedFile) -> str:
        raise AssertionError("a public path read the secret seed")

    monkeypatch.setattr(seeds.SeedFile, "read", forbidden)
    summary = season.summary(fought)
    season.standings(summary)
    season.battle(fought, 1)
    publication.export_record(fought, tmp_path / "record")
    exported = b"".join(p.read_bytes() for p in (tmp_path / "record").iterdir())
    assert SEED.encode() not in exported
    assert cli("show", fought).exit_code == 0
    with pytest.raises(AssertionError, match="public path"):
        list(season.fight(fought, 1))  # fighting is the one path that needs it


def test_a_seed_file_others_can_read_is_refused(fought: Path) -> None:
    seed_file = seeds.seed_file_for(fought)
    seed_file.chmod(0o644)
    result = cli("next", fought)
    assert result.exit_code == 2 and "chmod 600" in _one_line(result)
    seed_file.unlink()
    result = cli("next", fought)
    assert result.exit_code == 2 and "restore it from your backup" in _one_line(result)


def test_a_new_season_never_overwrites_a_seed_file(tmp_path: Path) -> None:
    path = tmp_path / "s.db"
    seeds.seed_file_for(path).write_text("keep me\n", encoding="ascii")
    with pytest.raises(InputError, match="already exists"):
        season.create_season(path, star_map(), "star", seed=SEED)
    assert not path.exists()
    assert seeds.seed_file_for(path).read_text(encoding="ascii") == "keep me\n"


def test_a_server_database_keeps_the_seed_in_a_table_of_its_own(tmp_path: Path) -> None:
    """The server-side keeper, exercised on SQLite (PostgreSQL puts it in its own schema)."""
    from sqlalchemy import create_engine, inspect

    engine = create_engine(f"sqlite:///{tmp_path / 'secret.db'}")
    keeper = seeds.SeedTable(engine, season_id=7, schema=None)
    keeper.keep(SEED)
    assert keeper.read() == SEED
    with pytest.raises(InputError, match="never replaced"):
        keeper.keep("0" * 64)
    keeper.discard()
    with pytest.raises(InputError, match="no seed is stored"):
        keeper.read()
    assert inspect(engine).get_table_names() == ["secret_seed"]
    engine.dispose()


def test_backup_copies_the_season_its_seed_and_its_key(fought: Path, tmp_path: Path) -> None:
    copies = tmp_path / "backup"
    copies.mkdir()
    result = cli("backup", fought, copies)
    assert result.exit_code == 0, result.output
    copy = copies / fought.name
    assert season.summary(copy) == season.summary(fought)
    copied_seed = seeds.seed_file_for(copy)
    assert copied_seed.read_text(encoding="ascii") == SEED + "\n"
    assert stat.S_IMODE(copied_seed.stat().st_mode) == 0o600
    copied_key = season_keys.key_file_for(copy)
    assert copied_key.read_bytes() == season_keys.key_file_for(fought).read_bytes()
    assert stat.S_IMODE(copied_key.stat().st_mode) == 0o600
    assert [entry["number"] for entry in season.fight(copy, 1)] == [3]  # the copy signs too
    assert season.latest_head(copy) is not None
    again = cli("backup", fought, copies)
    assert again.exit_code == 2 and "already exists" in _one_line(again)


def test_a_season_file_left_in_wal_mode_returns_to_the_rollback_journal(fought: Path) -> None:
    connection = sqlite3.connect(fought)
    assert connection.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
    connection.close()
    assert cli("contribute", fought, "AC", "5").exit_code == 0
    assert _journal_mode(fought) == "delete"
    before = _snapshot(fought.parent)
    assert cli("show", fought).exit_code == 0
    assert _snapshot(fought.parent) == before


# ---------------------------------------------------------------- idempotency keys


def _drop_key_table(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TABLE contribution_key")


def test_a_file_made_before_the_key_table_gets_it_on_its_first_keyed_contribution(
    fought: Path,
) -> None:
    _drop_key_table(fought)
    assert season.summary(fought).battles == 2  # it still opens, for reading and writing
    season.contribute(fought, "AC", 5)  # a contribution without a key needs no key table
    first = season.contribute(fought, "AD", 5, key="order-9")
    again = season.contribute(fought, "AD", 5, key="order-9")
    assert (first.repeated, again.repeated) == (False, True)
    assert again.answer() == first.answer()
    with pytest.raises(InputError, match="already used for another request"):
        season.contribute(fought, "AD", 10, key="order-9")


def test_the_web_keys_of_an_older_file_stay_claimed(fought: Path) -> None:
    """An older file kept the web's keys in `web_request_keys`: a retry of one of those
    requests must still be answered with its first answer, not recorded again."""
    _drop_key_table(fought)
    answer = '{"amount": 10, "before_battle": 1, "faction": "AB", "pool": 10, "pool_state": "open", "seq": 1}'  # noqa: E501
    with sqlite3.connect(fought) as connection:
        connection.execute(
            "CREATE TABLE web_request_keys (key VARCHAR(200) PRIMARY KEY, season_id INTEGER, "
            "method VARCHAR(10), path VARCHAR(300), body_sha256 VARCHAR(64), status INTEGER, "
            "response TEXT, ledger_seq INTEGER)")
        connection.execute(
            "INSERT INTO web_request_keys VALUES ('web-1', 1, 'CLI', 'conquest contribute #1', "
            "?, 201, ?, 1)",
            (ledger.command_line_claim("web-1", 1, "AB", 10).body_sha256, answer))
    before = season.summary(fought).ledger
    replayed = season.contribute(fought, "AB", 10, key="web-1")
    assert replayed.repeated and replayed.entry == before[0]
    assert season.summary(fought).ledger == before
    with sqlite3.connect(fought) as connection:
        assert connection.execute("SELECT key, ledger_seq FROM contribution_key").fetchall() == [
            ("web-1", 1)]


def test_the_persistence_layers_import_downwards_only() -> None:
    """rows <- season_file, server_store <- season_store <- ledger: no part imports one above it."""
    layers = ["rows", "season_file", "server_store", "season_store", "ledger"]
    above = {name: set(layers[layers.index(name) + 1:]) for name in layers}
    above["season_file"].discard("server_store")
    above["server_store"].discard("season_file")
    source = Path(store.__file__).parent
    for name in layers:
        text = (source / f"{name}.py").read_text()
        imported = {
            line.split()[1].rsplit(".", 1)[-1]
            for line in text.splitlines()
            if line.startswith("from fairfight.conquest.")
        }
        assert not imported & above[name], name


def test_a_recorded_contribution_holds_values_only(fought: Path) -> None:
    """A keyed contribution's outcome is plain data (no database row that is changed later):
    it turns into JSON whole, and its stored answer is the one it carries."""
    first = season.contribute(fought, "AD", 5, key="order-7")
    assert not first.repeated
    assert json.loads(json.dumps(dataclasses.asdict(first)))["entry"] == first.entry
    again = season.contribute(fought, "AD", 5, key="order-7")
    assert again.repeated and again.response == first.response
    assert json.loads(first.response) == {**first.answer(), "receipt": first.receipt}
