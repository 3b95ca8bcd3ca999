"""Where a season's signing key is kept: apart from everything public, like the secret seed.

The season key signs every head of the season log (`log`); its public half is the header's
`log_key`, published before battle 1. On SQLite the private key lives in its own file next to
the season file, created with mode 0600 (`season.db` -> `season.db.key`); a server database
keeps it in a table of the secret schema the seed lives in (`KeyTable`). Neither is ever read
by a path that only reads: the store's writing transactions alone hand it to the log (and to
`checkpoints`, which restates the newest head as a signed note).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Protocol

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from sqlalchemy import Column, Connection, Engine, Integer, MetaData, String, Table, select

from fairfight.conquest.store.seeds import SEED_FILE_MODE
from fairfight.core.errors import InputError

__all__ = [
    "KEY_FILE_SUFFIX",
    "KeyFile",
    "KeyTable",
    "SeasonKeyKeeper",
    "key_file_for",
    "new_private_key",
    "public_key_hex",
    "signing_key",
]

KEY_FILE_SUFFIX = ".key"
_PRIVATE_HEX = 64
"""An Ed25519 private key is 32 bytes (RFC 8032 section 5.1.5), kept as 64 lowercase hex."""


class SeasonKeyKeeper(Protocol):
    """Where a season's private signing key lives (`KeyFile`, `KeyTable`)."""

    def keep(self, private_hex: str) -> None:
        """Store the key once; refuse to overwrite one."""

    def read(self) -> str:
        """The stored private key as hex (only the log's writer calls this)."""

    def discard(self) -> None:
        """Remove a key whose season could not be created."""


def new_private_key() -> str:
    """A fresh Ed25519 private key, as 64 lowercase hex digits."""
    from cryptography.hazmat.primitives.serialization import NoEncryption, PrivateFormat

    raw = Ed25519PrivateKey.generate().private_bytes(
        Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    return raw.hex()


def signing_key(private_hex: str) -> Ed25519PrivateKey:
    """The key object that signs heads; a damaged key names its keeper."""
    if len(private_hex) != _PRIVATE_HEX:
        raise InputError("season key", "the stored key is not 64 hex digits")
    try:
        return Ed25519PrivateKey.from_private_bytes(bytes.fromhex(private_hex))
    except ValueError:
        raise InputError("season key", "the stored key is not 64 hex digits") from None


def public_key_hex(private_hex: str) -> str:
    """The public key of a private key: what the header publishes as `log_key`."""
    public = signing_key(private_hex).public_key()
    return public.public_bytes(Encoding.Raw, PublicFormat.Raw).hex()


def key_file_for(season_file: Path) -> Path:
    """The season key's file for a season file: `season.db` -> `season.db.key`."""
    return season_file.with_name(season_file.name + KEY_FILE_SUFFIX)


class KeyFile:
    """The private key as one line of hex in a file only its owner may read (mode 0600)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def exists(self) -> bool:
        """Whether the season has a key file (seasons made before the log have none)."""
        return self.path.exists() or self.path.is_symlink()

    def keep(self, private_hex: str) -> None:
        """Create the file with mode 0600 from the start (never readable by others)."""
        try:
            handle = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, SEED_FILE_MODE)
        except FileExistsError:
            raise InputError(str(self.path), "already exists; a key is never overwritten") from None
        except OSError as error:
            raise InputError(str(self.path), f"cannot be written ({error.strerror})") from None
        with os.fdopen(handle, "w", encoding="ascii") as file:
            file.write(private_hex + "\n")

    def read(self) -> str:
        """The key; refuses a missing file or one that other users may read."""
        try:
            info = self.path.stat()
            if not stat.S_ISREG(info.st_mode):
                raise InputError(str(self.path), "the season key file is not a regular file")
            if info.st_mode & 0o077:
                raise InputError(
                    str(self.path),
                    f"the season key file is readable by other users; run `chmod 600 "
                    f"{self.path}` (mode {stat.S_IMODE(info.st_mode):o})")
            return self.path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            raise InputError(str(self.path), "the season key file is missing; restore it from "
                             "your backup (heads cannot be signed without it)") from None
        except (OSError, UnicodeDecodeError) as error:
            raise InputError(str(self.path), f"the season key file cannot be read ({error})") \
                from None

    def discard(self) -> None:
        """Remove the file (only when creating its season failed)."""
        self.path.unlink(missing_ok=True)


class KeyTable:
    """The private key in a table of the secret schema, for a server database."""

    def __init__(self, engine: Engine, season_id: int, schema: str | None) -> None:
        self._engine = engine
        self._season_id = season_id
        self._table = Table(
            "season_key", MetaData(schema=schema),
            Column("season_id", Integer, primary_key=True),
            Column("private_key", String(64), nullable=False),
        )

    def keep(self, private_hex: str) -> None:
        """Insert the key; a second key for the same season is refused."""
        self._table.metadata.create_all(self._engine)
        with self._engine.begin() as connection:
            if self._find(connection) is not None:
                raise InputError("season_key", "this season already has a key; it is never "
                                 "replaced")
            connection.execute(self._table.insert().values(
                season_id=self._season_id, private_key=private_hex))

    def _find(self, connection: Connection) -> str | None:
        query = select(self._table.c.private_key).where(
            self._table.c.season_id == self._season_id)
        found = connection.execute(query).first()
        return None if found is None else str(found[0])

    def read(self) -> str:
        """The key for this season."""
        with self._engine.connect() as connection:
            found = self._find(connection)
        if found is None:
            raise InputError("season_key", "no key is stored for this season; restore the backup")
        return found

    def discard(self) -> None:
        """Remove the key of a season that could not be created."""
        with self._engine.begin() as connection:
            connection.execute(
                self._table.delete().where(self._table.c.season_id == self._season_id))
