"""`conquest backup`: a consistent copy of a season file with its secrets (seed and key).

The copy is SQLite's online backup (`season_file.copy_online`), so a battle fought while it
runs is wholly in the copy or not at all; the seed and the season key are copied into files
created with mode 0600, like the originals. A season made before the log has no key file, and
its backup has none either.
"""

from __future__ import annotations

import os
from pathlib import Path

from fairfight.conquest.season_file import copy_online
from fairfight.conquest.season_keys import KeyFile, key_file_for
from fairfight.conquest.seeds import SeedFile, seed_file_for
from fairfight.conquest.store import SeasonStore
from fairfight.core.errors import InputError

__all__ = ["backup_season"]


def backup_season(path: Path, folder: Path) -> list[Path]:
    """Copy a season file, its seed file and its key file into `folder`; the written paths."""
    if not folder.is_dir():
        raise InputError(str(folder), "no such folder; create it first")
    target = folder / path.name
    target_seeds = SeedFile(seed_file_for(target))
    source_keys, target_keys = KeyFile(key_file_for(path)), KeyFile(key_file_for(target))
    for existing in (target, target_seeds.path, target_keys.path):
        if existing.exists() or existing.is_symlink():
            raise InputError(str(existing), "already exists; back up into an empty folder")
    if not os.access(folder, os.W_OK):
        raise InputError(str(folder), "the folder is read-only")
    written = [target, target_seeds.path]
    source = SeasonStore.open(path)
    try:
        target_seeds.keep(source.secret_seed())
        if source_keys.exists():
            target_keys.keep(source_keys.read())
            written.append(target_keys.path)
        copy_online(path, target)
    except BaseException:
        target.unlink(missing_ok=True)
        for secret in (target_seeds, target_keys):
            if secret.path.exists():
                secret.discard()
        raise
    finally:
        source.close()
    return written
