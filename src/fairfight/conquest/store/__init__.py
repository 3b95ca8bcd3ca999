"""A conquest season kept in a database, in layers.

`rows` holds the tables; `season_file` (a SQLite file) and `server_store` (a server database)
are connection parts; `seeds` and `season_keys` keep the secret seed and the signing key apart;
`season_store.SeasonStore` composes them with the reads and writes of `season_queries`.
On top: `ledger` (the one path a contribution takes), `log` (the season log, service side),
`season_events` (what live pages hear of), `odds_history`, `schedule_store`, `backup`,
`publication` (the archive of a season), `integrity` (checks before acting), and `season` /
`season_summary`, the operations behind each command. The names below are `season_store`'s, as
the module `fairfight.conquest.store` offered them before the package was split.
"""

from typing import TYPE_CHECKING

from fairfight.lazy import lazy_exports

if TYPE_CHECKING:  # the names are imported on first use (see fairfight.lazy)
    from fairfight.conquest.store.season_store import (
        SQLITE_INTEGER_MAX,
        SeasonStore,
        Version,
        check_stored_integer,
        is_server_address,
        load_column,
        season_of,
    )

__all__ = [
    "SQLITE_INTEGER_MAX",
    "SeasonStore",
    "Version",
    "check_stored_integer",
    "is_server_address",
    "load_column",
    "season_of",
]

__getattr__ = lazy_exports(__name__, __all__, ("season_store",))

del TYPE_CHECKING, lazy_exports  # keep the package namespace to its public names
