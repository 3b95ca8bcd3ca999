"""Old module names of the conquest package, kept working after it was split into wings.

The package was one flat folder until the rules, the record, the forecasts, the maps, the store
and the command line became sub-packages. Code written against the flat names
(`fairfight.conquest.engine`, `python -m fairfight.conquest.verifier`) still runs: an import
finder maps each old name to its new home and hands back *the same module object*, so there is
never a second copy of a module (one `ReplayMismatch` class, one store, one set of tables).
Standard library only: the hook is installed by `fairfight.conquest` on import.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Sequence

__all__ = ["MOVED", "PACKAGE", "MovedFinder", "MovedLoader", "install", "new_name"]

PACKAGE = "fairfight.conquest"
MOVED: dict[str, str] = {
    # rules/: the season rules, standard library only
    "engine": "rules.engine",
    "episodes": "rules.episodes",
    "fan_pools": "rules.fan_pools",
    "movers": "rules.movers",
    "scenario": "rules.scenario",
    "schedule": "rules.schedule",
    "tables": "rules.tables",
    # record/: what ships in a season archive, and reading or writing one
    "archive": "record.archive",
    "beacon_check": "record.beacon_check",
    "beacons": "record.beacons",
    "log_check": "record.log_check",
    "verifier": "record.verifier",
    # forecast/: title odds, stakes, calibration, previews
    "calibration": "forecast.calibration",
    "calibration_file": "forecast.calibration_file",
    "forecast_kernel": "forecast.kernel",
    "kernel_bits": "forecast.kernel_bits",
    "season_odds": "forecast.season_odds",
    "stakes": "forecast.stakes",
    # maps/: the map data, the builder, its geometry and the drawings
    "mapbuild": "maps.build",
    "mapgeo": "maps.geo",
    "mapshapes": "maps.shapes",
    "mapsvg": "maps.svg",
    "synthetic": "maps.synthetic",
    # store/: the season in its database, in layers
    "backup": "store.backup",
    "integrity": "store.integrity",
    "ledger": "store.ledger",
    "log": "store.log",
    "odds_history": "store.odds_history",
    "publication": "store.publication",
    "rows": "store.rows",
    "schedule_store": "store.schedule_store",
    "season": "store.season",
    "season_events": "store.season_events",
    "season_file": "store.season_file",
    "season_keys": "store.season_keys",
    "season_queries": "store.season_queries",
    "season_summary": "store.season_summary",
    "seeds": "store.seeds",
    "server_store": "store.server_store",
    # cli/: the `fairfight conquest` verbs
    "archive_cli": "cli.archive_cli",
    "battles_cli": "cli.battles_cli",
    "calibration_cli": "cli.calibration_cli",
    "cli_options": "cli.options",
    "demo": "cli.demo_run",
    "forecast_cli": "cli.forecast_cli",
    "map_cli": "cli.map_cli",
    "odds_history_cli": "cli.odds_history_cli",
    "schedule_cli": "cli.schedule_cli",
}
"""Old module name -> new one, both relative to `fairfight.conquest`. Four old names are now
packages and need no entry: `cli`, `forecast` and `store` re-export what the old module of that
name exported, and `rules` (the rules page, now `rules_page`) forwards the page's names."""


def new_name(old: str) -> str | None:
    """The full new name of an old full module name, or None when `old` did not move."""
    prefix = PACKAGE + "."
    if not old.startswith(prefix):
        return None
    moved = MOVED.get(old[len(prefix):])
    return None if moved is None else f"{prefix}{moved}"


class MovedLoader:
    """Loads an old name as the module at its new name: the very same object. (A plain class:
    `importlib.abc` would load `importlib.resources` and more on every start.)"""

    def __init__(self, target: str) -> None:
        self.target = target
        self._spec: importlib.machinery.ModuleSpec | None = None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = importlib.import_module(self.target)
        self._spec = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        # The import system has just set `__spec__` to the alias's spec; the module keeps its own.
        module.__spec__ = self._spec

    def load_module(self, fullname: str) -> types.ModuleType:
        """The old loader protocol, for callers that still use it: the same module object."""
        module = importlib.import_module(self.target)
        sys.modules[fullname] = module
        return module

    def is_package(self, fullname: str) -> bool:
        return False

    def get_code(self, fullname: str) -> types.CodeType | None:
        """The new module's code, so `python -m <old name>` runs it as it did before."""
        spec = importlib.util.find_spec(self.target)
        get_code = getattr(None if spec is None else spec.loader, "get_code", None)
        code: types.CodeType | None = None if get_code is None else get_code(self.target)
        return code


class MovedFinder:
    """Finds the old names of moved modules (and nothing else)."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: types.ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        moved = new_name(fullname)
        if moved is None:
            return None
        return importlib.util.spec_from_loader(fullname, MovedLoader(moved))


def install() -> None:
    """Put the finder first on `sys.meta_path`, once per interpreter."""
    if not any(isinstance(finder, MovedFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, MovedFinder())
