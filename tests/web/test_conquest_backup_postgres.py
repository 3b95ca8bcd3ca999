"""`conquest backup` of a PostgreSQL season and `conquest restore`, on a real PostgreSQL: the
backup is a season file with its seed and key; restored to SQLite (as it is) and to
PostgreSQL (as the next season), the season exports the same record and verifies."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from fairfight.conquest.cli.season_cli import app as conquest_app
from fairfight.conquest.rules import scenario
from fairfight.conquest.store import publication, season
from fairfight.conquest.store.ledger import KeyAlreadyUsed
from tests.web.postgres_cluster import postgres_cluster

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")

runner = CliRunner()
SEEDS = ("33" * 32, "44" * 32)


@pytest.fixture(scope="module")
def database() -> Iterator[str]:
    """Two seasons; the second has fans (one with a key), battles, its end and its reveal."""
    with postgres_cluster() as url:
        north_america = scenario.load_map("north-america")
        for seed in SEEDS:
            season.create_season(url, north_america, "north-america", seed=seed)
        played = f"{url}#2"
        season.contribute(played, "US-TX", 25, key="backup-key")
        season.contribute(played, "US-CA", 10)
        list(season.fight(played, None))
        season.reveal(played)
        yield url


def _files(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def _export(address: str | Path, folder: Path) -> dict[str, bytes]:
    publication.export_record(address, folder)
    assert any("replayed" in note for note in publication.verify_folder(folder))
    return _files(folder)


def test_a_postgres_season_backs_up_and_restores_to_sqlite_and_postgres(
    database: str, tmp_path: Path,
) -> None:
    original = f"{database}#2"
    copies = tmp_path / "backup"
    copies.mkdir()
    done = runner.invoke(conquest_app, ["backup", original, str(copies)])
    assert done.exit_code == 0, done.output
    backup = copies / "season-2.db"
    assert sorted(path.name for path in copies.iterdir()) == [
        "season-2.db", "season-2.db.key", "season-2.db.seed"]
    assert (backup.with_name("season-2.db.seed").stat().st_mode & 0o777) == 0o600
    assert backup.with_name("season-2.db.seed").read_text().strip() == SEEDS[1]

    # the backup is a season file: it restores to SQLite as it is
    was, now = season.summary(original), season.summary(backup)
    assert now.ledger == was.ledger and len(was.ledger) == 2
    assert replace(now, season_id=was.season_id) == was and was.battles > 0
    assert season.latest_head(backup) == season.latest_head(original)
    record = _export(original, tmp_path / "original")
    assert _export(backup, tmp_path / "from-sqlite") == record

    # and to PostgreSQL as the database's next season
    restored = runner.invoke(conquest_app, ["restore", str(backup), database])
    assert restored.exit_code == 0, restored.output
    address = restored.output.strip()
    assert address.endswith("#3")
    assert _export(address, tmp_path / "from-postgres") == record
    assert season.latest_head(address) == season.latest_head(original)
    # the restored season keeps its idempotency keys: a key bound to season 2's request is
    # never recorded a second time under the new id (it names another request now)
    with pytest.raises(KeyAlreadyUsed):
        season.contribute(address, "US-TX", 25, key="backup-key")
    assert season.summary(address).ledger == was.ledger


def test_a_fresh_postgres_season_backs_up_without_battles(database: str, tmp_path: Path) -> None:
    written = runner.invoke(conquest_app, ["backup", f"{database}#1", str(tmp_path), "--json"])
    assert written.exit_code == 0, written.output
    summary = season.summary(tmp_path / "season-1.db")
    assert summary.ledger == [] and summary.battles == 0
    refused = runner.invoke(conquest_app, ["backup", f"{database}#1", str(tmp_path)])
    assert refused.exit_code == 2 and "already exists" in refused.output
