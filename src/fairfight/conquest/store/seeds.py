"""Where a season's secret seed is kept: apart from everything public.

The public season data may be copied, served and exported freely; the seed may not, until the
reveal. On SQLite it lives in its own file next to the season file, created with mode 0600
(`season.db` -> `season.db.seed`); a server database keeps it in a table of a schema of its own
(`SeedTable`), which only the role that fights battles may read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Protocol

from sqlalchemy import Column, Engine, Integer, MetaData, String, Table, select

from fairfight.core.errors import InputError

__all__ = [
    "SEED_FILE_MODE",
    "SEED_FILE_SUFFIX",
    "SeedFile",
    "SeedKeeper",
    "SeedTable",
    "seed_file_for",
]

SEED_FILE_SUFFIX = ".seed"
SEED_FILE_MODE = 0o600
"""Owner read/write only: the seed file is never readable by other users."""


class SeedKeeper(Protocol):
    """Where a season's secret seed lives, apart from everything public.

    A server deployment implements this over a table in a schema of its own (readable only
    by the role that fights battles); the SQLite deployment uses `SeedFile`.
    """

    def keep(self, seed: str) -> None:
        """Store the seed once; refuse to overwrite one."""

    def read(self) -> str:
        """The stored seed (only fighting and the reveal call this)."""

    def discard(self) -> None:
        """Remove a seed whose season could not be created."""


def seed_file_for(season_file: Path) -> Path:
    """The secret seed's file for a season file: `season.db` -> `season.db.seed`."""
    return season_file.with_name(season_file.name + SEED_FILE_SUFFIX)


class SeedFile:
    """The seed as one line of text in a file only its owner may read (mode 0600)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def keep(self, seed: str) -> None:
        """Create the file with mode 0600 from the start (never world-readable, even briefly)."""
        try:
            handle = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, SEED_FILE_MODE)
        except FileExistsError:
            raise InputError(
                str(self.path), "already exists; a seed is never overwritten"
            ) from None
        except OSError as error:
            raise InputError(str(self.path), f"cannot be written ({error.strerror})") from None
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(seed + "\n")

    def read(self) -> str:
        """The seed; refuses a missing file or one that other users may read."""
        try:
            info = self.path.stat()
            if not stat.S_ISREG(info.st_mode):
                raise InputError(str(self.path), "the secret seed file is not a regular file")
            if info.st_mode & 0o077:
                raise InputError(
                    str(self.path),
                    f"the secret seed file is readable by other users; "
                    f"run `chmod 600 {self.path}` (mode {stat.S_IMODE(info.st_mode):o})",
                )
            text = self.path.read_text(encoding="ascii")
        except FileNotFoundError:
            raise InputError(
                str(self.path),
                "the secret seed file is missing; restore it from your backup "
                "(see docs/conquest.md, 'If the seed is lost')",
            ) from None
        except (OSError, UnicodeDecodeError) as error:
            raise InputError(
                str(self.path), f"the secret seed file cannot be read ({error})"
            ) from None
        return text.strip()

    def discard(self) -> None:
        """Remove the file (only when creating its season failed)."""
        self.path.unlink(missing_ok=True)


class SeedTable:
    """The seed in a table of its own schema, for a server database (e.g. PostgreSQL).

    The table is in its own `MetaData`, so creating the public tables never creates it, and a
    deployment can grant the web role access to the public schema only.
    """

    def __init__(
        self, engine: Engine, season_id: int = 1, schema: str | None = "fairfight_secret"
    ) -> None:
        self._engine = engine
        self._season_id = season_id
        self._table = Table(
            "secret_seed",
            MetaData(schema=schema),
            Column("season_id", Integer, primary_key=True),
            Column("seed", String(64), nullable=False),
        )

    def keep(self, seed: str) -> None:
        """Insert the seed; a second seed for the same season is refused by the primary key."""
        self._table.metadata.create_all(self._engine)
        with self._engine.begin() as connection:
            found = connection.execute(
                select(self._table.c.seed).where(self._table.c.season_id == self._season_id)
            ).first()
            if found is not None:
                raise InputError(
                    "secret_seed", "this season already has a seed; it is never replaced"
                )
            connection.execute(self._table.insert().values(season_id=self._season_id, seed=seed))

    def read(self) -> str:
        """The seed for this season."""
        with self._engine.connect() as connection:
            found = connection.execute(
                select(self._table.c.seed).where(self._table.c.season_id == self._season_id)
            ).first()
        if found is None:
            raise InputError("secret_seed", "no seed is stored for this season; restore the backup")
        return str(found[0])

    def discard(self) -> None:
        """Remove the seed of a season that could not be created."""
        with self._engine.begin() as connection:
            connection.execute(
                self._table.delete().where(self._table.c.season_id == self._season_id)
            )
