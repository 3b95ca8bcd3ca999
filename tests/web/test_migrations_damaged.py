"""A damaged version table on SQLite: `db current` and `db upgrade` refuse it with one line
saying what is wrong and how to restore it (exit 2), write nothing, and never call it at head.

The release fixture is upgraded first, then one store's version table is damaged by hand the
ways a mistaken edit or a half-restored copy leaves it: no row, two rows, an empty revision,
a revision no release made.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from fairfight.conquest import season
from tests.web.test_migrations import HEADS, _cli, _digest, _release_files

RESTORE = (
    "where there is always one revision; restore the database from the backup taken before "
    "the last upgrade, or, if its tables are this release's, drop {table} and run `fairfight "
    "db upgrade`, which adopts them as they stand"
)
DAMAGES = {
    "no row": ("conquest", ["DELETE FROM {table}"], "holds no row"),
    "two rows": (
        "conquest",
        ["INSERT INTO {table} VALUES ('0001')"],
        f"holds 2 rows ('{HEADS['conquest']}', '0001')",
    ),
    "an empty revision": (
        "conquest",
        ["UPDATE {table} SET version_num = ''"],
        "holds one row whose revision is empty ('')",
    ),
    "two rows of the clash store": (
        "clash",
        ["INSERT INTO {table} VALUES ('0000')"],
        f"holds 2 rows ('{HEADS['clash']}', '0000')",
    ),
}


def _damaged(tmp_path: Path, store: str, statements: list[str]) -> tuple[Path, Path]:
    """The upgraded release files with `store`'s version table changed; (service file, the
    store's own file)."""
    path = _release_files(tmp_path)
    code, shown = _cli("db", "upgrade", "--url", str(path))
    assert code == 0, shown
    target = path if store == "conquest" else path.with_name(f"season-{store}.db")
    connection = sqlite3.connect(target)
    try:
        with connection:
            for statement in statements:
                connection.execute(statement.format(table=f"{store}_schema_version"))
    finally:
        connection.close()  # the last connection's close folds a write-ahead log into the file
    return path, target


@pytest.mark.parametrize("case", DAMAGES, ids=str)
def test_a_damaged_version_table_is_refused_by_both_commands(tmp_path: Path, case: str) -> None:
    store, statements, damage = DAMAGES[case]
    path, target = _damaged(tmp_path, store, statements)
    digest = _digest(target)
    table = f"{store}_schema_version"
    shown_url = f"sqlite:///{target}"
    expected = (
        f"InputError: {shown_url}: the {store} version table {table} is damaged: it {damage}, "
        + RESTORE.format(table=table)
    )
    for command in ("current", "upgrade"):
        code, shown = _cli("db", command, "--url", str(path))
        assert (code, shown.strip().splitlines()[-1]) == (2, expected), command
        assert f"{store}: {shown_url}" not in shown  # never a line saying where it stands
        assert "unexpected" not in shown
    assert _digest(target) == digest


def test_a_revision_no_release_made_is_refused_by_both_commands(tmp_path: Path) -> None:
    path, _ = _damaged(tmp_path, "conquest", ["UPDATE {table} SET version_num = 'garbage'"])
    digest = _digest(path)
    for command in ("current", "upgrade"):
        code, shown = _cli("db", command, "--url", str(path))
        assert code == 2, command
        assert shown.strip() == (
            f"InputError: sqlite:///{path}: the conquest schema is at revision 'garbage', which "
            f"this release does not know (head {HEADS['conquest']}): either a newer release "
            "made it (run that release) or the version table was damaged (restore the "
            "database from the backup taken before the last upgrade)"
        )
    assert _digest(path) == digest


def test_the_repair_the_refusal_names_brings_the_store_to_head(tmp_path: Path) -> None:
    """Dropping the damaged table and upgrading adopts the tables as they stand: the season
    reads the same, and both commands then say "at head"."""
    path, _ = _damaged(tmp_path, "conquest", ["INSERT INTO {table} VALUES ('0002')"])
    before = season.summary(path)
    with sqlite3.connect(path) as connection:
        connection.execute("DROP TABLE conquest_schema_version")
    code, shown = _cli("db", "upgrade", "--url", str(path))
    assert code == 0, shown
    assert f"revision none -> {HEADS['conquest']} (at head)" in shown
    code, shown = _cli("db", "current", "--url", str(path))
    assert code == 0 and shown.count("(at head)") == 3, shown
    assert season.summary(path) == before
