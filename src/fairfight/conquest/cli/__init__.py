"""The `fairfight conquest` verbs: one module per group of verbs, registered by `season_cli`.

`season_cli` makes the season (new, contribute, fight, reveal, beacon, rules, demo) and
registers the rest: `battles_cli` (next, show), `archive_cli` (export, backup, restore,
verify), `forecast_cli`, `calibration_cli`, `odds_history_cli`, `map_cli`, `schedule_cli`;
`options` holds the arguments they share and `demo_run` the whole demonstration season. The
names below are `season_cli`'s, as the module `fairfight.conquest.cli` offered them.
"""

from typing import TYPE_CHECKING

from fairfight.lazy import lazy_exports

if TYPE_CHECKING:  # the names are imported on first use (see fairfight.lazy)
    from fairfight.conquest.cli.season_cli import (
        MAX_BATTLES,
        MAX_BEACON_ROUND,
        PROGRESS_FROM,
        AsJson,
        SeasonFile,
        app,
        backup,
        beacon,
        contribute,
        demo,
        export,
        head,
        map_stats,
        new,
        next_battles,
        odds,
        restore,
        reveal,
        rules,
        show,
        verify,
    )

__all__ = [
    "AsJson",
    "MAX_BATTLES",
    "MAX_BEACON_ROUND",
    "PROGRESS_FROM",
    "SeasonFile",
    "app",
    "backup",
    "beacon",
    "contribute",
    "demo",
    "export",
    "head",
    "map_stats",
    "new",
    "next_battles",
    "odds",
    "restore",
    "reveal",
    "rules",
    "show",
    "verify",
]

__getattr__ = lazy_exports(__name__, __all__, ("season_cli",))

del TYPE_CHECKING, lazy_exports  # keep the package namespace to its public names
