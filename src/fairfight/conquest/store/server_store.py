"""Seasons in a server database (PostgreSQL): many seasons in one database, each by its id.

A season there is addressed as `URL#ID` (`postgresql+psycopg://user@host/db#3`); `conquest new
URL` adds a season and prints that address. Public rows carry their season's id; the seeds
and the season keys live in the `fairfight_secret` schema (`seeds.SeedTable`,
`season_keys.KeyTable`), which no public code path selects
from, so a deployment can grant the web role the public schema only. Writers of one season
serialise on its row (`SELECT … FOR UPDATE`), as `BEGIN IMMEDIATE` serialises them on SQLite.

A connection part: it hands `store.SeasonStore` a connected `ServerSeason` and knows no store.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, delete, func, insert, select, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, InterfaceError, OperationalError

from fairfight.conquest.store.rows import SEASON_TABLES, EngineFileRow, SeasonRow, ensure_key_table
from fairfight.conquest.store.season_keys import KeyTable
from fairfight.conquest.store.seeds import SeedTable
from fairfight.core.errors import InputError
from fairfight.core.validation import is_plain_digits

__all__ = [
    "SECRET_SCHEMA",
    "ServerSeason",
    "create_server_season",
    "next_season_id",
    "open_server_season",
    "prepare_database",
    "server_engine",
    "server_season_ids",
    "split_address",
]

SECRET_SCHEMA = "fairfight_secret"


@dataclass(frozen=True, slots=True)
class ServerSeason:
    """One season of a server database, connected: its engine, its id, its seed and key
    keepers."""

    url: str
    """The URL to reach the database again (password included; never shown)."""
    shown: str
    """The URL as printed and named in errors (password hidden)."""
    engine: Engine
    season_id: int
    seeds: SeedTable
    keys: KeyTable


def split_address(address: str) -> tuple[str, int | None]:
    """`URL#ID` -> (URL, ID); a bare URL has no season id."""
    url, _, fragment = address.partition("#")
    if not fragment:
        return url, None
    if not is_plain_digits(fragment) or int(fragment) < 1:
        raise InputError("season",
                         f"{fragment[:24]!r} is not a season id (write URL#ID, ID from 1)")
    return url, int(fragment)


def server_engine(url: str) -> Engine:
    """A pooled engine for a server database URL (refusing what is not one)."""
    try:
        parsed = make_url(url)
        return create_engine(parsed, pool_pre_ping=True, pool_size=10, max_overflow=40)
    except (ArgumentError, ValueError, ImportError) as error:
        raise InputError("database", f"not a usable database URL ({error})") from None


def _shown(url: str) -> str:
    return make_url(url).render_as_string(hide_password=True)


def prepare_database(engine: Engine) -> None:
    """Create the public tables, the key table and the secret schema (each only if missing)."""
    with engine.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA IF NOT EXISTS {SECRET_SCHEMA}"))
    SEASON_TABLES.create_all(engine)
    with engine.begin() as connection:
        ensure_key_table(connection)


def server_season_ids(engine: Engine) -> list[int]:
    """Every season's id in the database, oldest first (none before the tables exist)."""
    try:
        with engine.connect() as connection:
            return [int(i) for i in connection.scalars(select(SeasonRow.id).order_by(SeasonRow.id))]
    except DBAPIError as error:
        if error.connection_invalidated or isinstance(error, (OperationalError, InterfaceError)):
            raise  # the server is down: an outage (503), not a database without seasons
        return []


def _connected(url: str, engine: Engine, season_id: int) -> ServerSeason:
    seeds = SeedTable(engine, season_id, SECRET_SCHEMA)
    keys = KeyTable(engine, season_id, SECRET_SCHEMA)
    return ServerSeason(url, _shown(url), engine, season_id, seeds, keys)


def open_server_season(address: str, *, engine: Engine | None = None) -> ServerSeason:
    """Connect to one season of a server database; a database with one season needs no id.

    `engine` is a pooled engine already open on that database (the web service shares one).
    """
    url, season_id = split_address(address)
    engine = engine or server_engine(url)
    ids = server_season_ids(engine)
    if season_id is None:
        if len(ids) != 1:
            engine.dispose()
            raise InputError("season", f"{_shown(url)} holds {len(ids)} seasons; name one as "
                             "URL#ID")
        season_id = ids[0]
    if season_id not in ids:
        engine.dispose()
        raise InputError("season", f"{_shown(url)} holds no season {season_id}")
    return _connected(url, engine, season_id)


def next_season_id(connection: Connection) -> int:
    """The id a new season takes, with the season table locked against another creator until
    the caller's transaction ends."""
    connection.execute(text("LOCK TABLE season IN EXCLUSIVE MODE"))
    return int(connection.scalar(select(func.max(SeasonRow.id))) or 0) + 1


def create_server_season(address: str, rows: dict[str, Any], seed: str,
                         engine_files: Mapping[str, bytes],
                         private_key: str | None = None) -> ServerSeason:
    """Add a season (the next id) with its public rows, and its seed and key kept apart."""
    url, wanted = split_address(address)
    if wanted is not None:
        raise InputError("season", "a new season gets the next id; give the URL without #ID")
    engine = server_engine(url)
    try:
        prepare_database(engine)
        with engine.begin() as connection:
            season_id = next_season_id(connection)
            connection.execute(insert(SeasonRow).values(id=season_id, **rows))
            for name, content in sorted(engine_files.items()):
                connection.execute(insert(EngineFileRow).values(
                    season_id=season_id, name=name, content=content))
        connected = _connected(url, engine, season_id)
        try:
            connected.seeds.keep(seed)
            if private_key is not None:
                connected.keys.keep(private_key)
        except BaseException:
            connected.seeds.discard()
            with engine.begin() as connection:
                connection.execute(
                    delete(EngineFileRow).where(EngineFileRow.season_id == season_id))
                connection.execute(delete(SeasonRow).where(SeasonRow.id == season_id))
            raise
    except DBAPIError as error:
        engine.dispose()
        raise InputError("database", f"{_shown(url)}: {str(error.orig).splitlines()[0]}") from None
    return connected
