"""Schema migrations of the service's stores (Alembic), each run once, under a lock.

Four stores, each with its own revisions (`<store>/versions/`) and its own version table, so
they can share one PostgreSQL database or live in separate SQLite files: `conquest` (the
seasons: a season file, or the server database with its secret schema), `clash` (games),
`ballot` (tables) and `warscore` (stored wars). Revision 0001 of each is the schema as the
release before migrations made it (for `warscore`, as it was first made), creating only what
is missing, so a database made by that release (or by `conquest new`, or by a store's own
first use) is adopted as it is.

`upgrade` holds a lock for the whole upgrade: on PostgreSQL a session advisory lock
(`MIGRATION_LOCK_KEY`, shared by every store and every process, so N workers starting
together migrate once and the others find the schema at head); on SQLite the migration is
one `BEGIN EXCLUSIVE` transaction. A database whose revision this release does not know
(made by a newer release, or damaged) is refused, never touched, and so is a damaged version
table (no row, several rows, an empty revision): by both commands, with how to restore it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal
from urllib.parse import quote

from alembic.migration import MigrationContext
from alembic.operations import Operations
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError
from sqlalchemy import Connection, Engine, create_engine, event, inspect, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import DBAPIError
from sqlalchemy.pool import NullPool

from fairfight.core.errors import InputError
from fairfight.web.settings import sibling_database_url

__all__ = [
    "MIGRATION_LOCK_KEY",
    "STORES",
    "Status",
    "Store",
    "StoreState",
    "current",
    "store_urls",
    "upgrade",
]

MIGRATION_LOCK_KEY = 0x6661_6972_6669_6768
"""The PostgreSQL advisory lock every migration holds (b"fairfigh" as a number)."""

Status = Literal["current", "behind", "absent"]


@dataclass(frozen=True, slots=True)
class Store:
    """One store's revisions and the table that records which of them a database has."""

    name: str
    version_table: str
    marker_table: str
    """A table every database of this store holds (a SQLite file without it is foreign)."""

    def scripts(self) -> ScriptDirectory:
        """The store's revision scripts."""
        return ScriptDirectory(str(Path(__file__).parent / self.name))

    def head(self) -> str:
        """The newest revision this release knows."""
        head = self.scripts().get_current_head()
        assert head is not None
        return head


STORES = (
    Store("conquest", "conquest_schema_version", "season"),
    Store("clash", "clash_schema_version", "clash_games"),
    Store("ballot", "ballot_schema_version", "ballot_tables"),
    Store("warscore", "warscore_schema_version", "warscore_wars"),
)


@dataclass(frozen=True, slots=True)
class StoreState:
    """Where one store's database stands: its revision (None before migrations) and head."""

    store: str
    url: str
    """The database, as shown (password hidden)."""
    revision: str | None
    head: str
    status: Status
    upgraded_from: tuple[str | None] | None = None
    """After an upgrade that changed something: (the revision it started from,)."""

    def line(self) -> str:
        """One line for people: store, database, revision and what it means."""
        if self.status == "absent":
            return f"{self.store}: {self.url}: not created yet (made on first use)"
        now = self.revision or "none (made before migrations)"
        if self.upgraded_from is not None:
            now = f"{self.upgraded_from[0] or 'none'} -> {self.revision}"
        words = {"current": "at head", "behind": f"behind head {self.head}"}[self.status]
        return f"{self.store}: {self.url}: revision {now} ({words})"


def store_urls(database_url: str, clash_url: str | None = None) -> dict[str, str]:
    """Each store's database for a service over `database_url` (as the service finds them)."""
    return {"conquest": database_url,
            "clash": clash_url or sibling_database_url(database_url, "clash"),
            "ballot": sibling_database_url(database_url, "ballot"),
            "warscore": sibling_database_url(database_url, "warscore")}


def _shown(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def _sqlite_file(url: str) -> Path | None:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return None
    if not parsed.database or parsed.database == ":memory:":
        raise InputError("database", "an in-memory SQLite database lives and dies with one "
                         "process; there is nothing to migrate")
    return Path(parsed.database)


def _engine(url: str, *, write: bool) -> Engine | None:
    """An engine for one migration or look (no pool); None for a SQLite file not made yet."""
    path = _sqlite_file(url)
    if path is None:
        try:
            return create_engine(make_url(url), poolclass=NullPool)
        except (ValueError, ImportError) as error:
            raise InputError("database", f"not a usable database URL ({error})") from None
    if not path.exists():
        return None
    if not path.is_file():
        raise InputError(str(path), "is not a file, so not a database")
    mode = "rw" if write else "ro"
    uri = f"file:{quote(str(path.absolute()))}?mode={mode}"

    def connect() -> sqlite3.Connection:
        return sqlite3.connect(uri, uri=True, timeout=30, isolation_level=None)

    engine = create_engine("sqlite://", creator=connect, poolclass=NullPool)

    @event.listens_for(engine, "begin")
    def _exclusive(connection: Connection) -> None:  # the whole upgrade holds the file
        connection.exec_driver_sql("BEGIN EXCLUSIVE" if write else "BEGIN")

    return engine


@contextmanager
def _advisory_lock(connection: Connection, write: bool) -> Iterator[None]:
    """PostgreSQL: hold the migration lock for the block (waits for another migrator); a
    look that writes nothing takes no lock."""
    if not write or connection.dialect.name != "postgresql":
        yield
        return
    connection.exec_driver_sql(f"SELECT pg_advisory_lock({MIGRATION_LOCK_KEY})")
    connection.commit()
    try:
        yield
    finally:
        connection.rollback()
        connection.exec_driver_sql(f"SELECT pg_advisory_unlock({MIGRATION_LOCK_KEY})")
        connection.commit()


def _context(store: Store, connection: Connection,
             fn: Callable[..., Any] | None = None) -> MigrationContext:
    options: dict[str, Any] = {"version_table": store.version_table, "transactional_ddl": True}
    if fn is not None:
        options["fn"] = fn
    return MigrationContext.configure(connection, opts=options)


def _state(store: Store, connection: Connection, url: str) -> StoreState:
    """Read the store's revision; refuse a foreign SQLite file."""
    scripts, head = store.scripts(), store.head()
    if connection.dialect.name == "sqlite" and not inspect(connection).has_table(
            store.marker_table):
        has_any = bool(inspect(connection).get_table_names())
        if has_any or store.name == "conquest":
            raise InputError(_shown(url), f"is not a {store.name} database (no "
                             f"{store.marker_table} table)"
                             + ("; create a season with `conquest new`"
                                if store.name == "conquest" else ""))
    revision = _recorded_revision(store, connection, url)
    if revision is not None and not _known(scripts, revision):
        raise InputError(_shown(url), f"the {store.name} schema is at revision "
                         f"{_said(revision)}, which this release does not know (head {head}): "
                         "either a newer release made it (run that release) or the version "
                         "table was damaged (restore the database from the backup taken "
                         "before the last upgrade)")
    status: Status = "current" if revision == head else "behind"
    return StoreState(store.name, _shown(url), revision, head, status)


def _said(value: object) -> str:
    """A value read from the version table, quoted and cut short for a one-line refusal."""
    shown = str(value)
    return repr(shown if len(shown) <= 40 else shown[:37] + "...")


def _known(scripts: ScriptDirectory, revision: str) -> bool:
    try:
        return scripts.get_revision(revision) is not None
    except CommandError:
        return False


def _recorded_revision(store: Store, connection: Connection, url: str) -> str | None:
    """The one revision the store's version table holds; None when there is no such table
    (a database made before migrations). An empty table, several rows or an empty revision
    is a damaged table: refused, saying how to restore it, rather than guessed at."""
    table = store.version_table
    if not inspect(connection).has_table(table):
        return None
    rows = [row[0] for row in connection.execute(text(f"SELECT version_num FROM {table}"))]
    if len(rows) == 1 and isinstance(rows[0], str) and rows[0].strip():
        return rows[0]
    if not rows:
        damage = "no row"
    elif len(rows) > 1:
        listed = ", ".join(_said(row) for row in rows[:5])
        damage = f"{len(rows)} rows ({listed}{', ...' if len(rows) > 5 else ''})"
    else:
        damage = f"one row whose revision is empty ({_said(rows[0])})"
    raise InputError(_shown(url), f"the {store.name} version table {table} is damaged: it "
                     f"holds {damage}, where there is always one revision; restore the "
                     "database from the backup taken before the last upgrade, or, if its "
                     f"tables are this release's, drop {table} and run `fairfight db upgrade`, "
                     "which adopts them as they stand")


def _look(store: Store, url: str, *, write: bool,
          then: Callable[[Connection, StoreState], StoreState] | None = None) -> StoreState:
    engine = _engine(url, write=write)
    if engine is None:
        return StoreState(store.name, _shown(url), None, store.head(), "absent")
    try:
        with (engine.connect() as connection, _advisory_lock(connection, write),
              connection.begin()):
            state = _state(store, connection, url)
            return state if then is None else then(connection, state)
    except DBAPIError as error:
        first = str(error.orig).strip().splitlines()[0] if error.orig else str(error)
        raise InputError(_shown(url), f"the database cannot be reached or read ({first})"
                         ) from None
    finally:
        engine.dispose()


def current(database_url: str, clash_url: str | None = None) -> list[StoreState]:
    """Where each store of the service stands (read only; nothing is written)."""
    urls = store_urls(database_url, clash_url)
    return [_look(store, urls[store.name], write=False) for store in STORES]


def upgrade(database_url: str, clash_url: str | None = None) -> list[StoreState]:
    """Bring each store of the service to head, under the lock; refuse a newer database."""
    urls = store_urls(database_url, clash_url)
    return [_look(store, urls[store.name], write=True, then=_upgraded(store))
            for store in STORES]


def _upgraded(store: Store) -> Callable[[Connection, StoreState], StoreState]:
    def run(connection: Connection, state: StoreState) -> StoreState:
        scripts = store.scripts()
        context = _context(store, connection,
                           lambda rev, _context: scripts._upgrade_revs("head", rev))
        with Operations.context(context):
            context.run_migrations()
        after = _context(store, connection).get_current_heads()
        revision = after[0] if after else None
        moved = None if revision == state.revision else (state.revision,)
        return StoreState(store.name, state.url, revision, state.head, "current",
                          upgraded_from=moved)

    return run
