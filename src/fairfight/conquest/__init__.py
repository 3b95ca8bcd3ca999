"""The conquest ruleset: a season of exact, verifiable battles between regional factions.

In wings: `rules` (the constants, the engine, maps and episodes; standard library only),
`record` (what a season archive ships: the verifier, `engine.js`, the log's checks), `forecast`
(title odds, stakes, calibration), `maps` (map data, builder, drawings), `store` (the season in
its database, and the operations on it) and `cli` (the verbs). The names below are the light
library (rules and verifier); the store and the command line are imported by their own names.
Code written against the flat module names of before (`fairfight.conquest.engine`) still runs:
`_moved` maps each old name to the same module at its new home.
"""

from typing import TYPE_CHECKING

from fairfight.conquest import _moved
from fairfight.lazy import lazy_exports

_moved.install()

if TYPE_CHECKING:  # the names are imported on first use (see fairfight.lazy)
    from fairfight.conquest.maps.synthetic import synthetic_map
    from fairfight.conquest.record.verifier import verify_record
    from fairfight.conquest.rules.engine import (
        LedgerRefusal,
        MapError,
        ReplayMismatch,
        battle_chance,
        check_contribution,
        compile_world,
        map_sha256,
        new_state,
        play_step,
        population_power,
        round_chance,
    )
    from fairfight.conquest.rules.tables import (
        ENGINE_VERSION,
        BattleKind,
        Category,
        FactionType,
        PoolState,
        Reason,
    )
    from fairfight.conquest.rules_page import rules_page

__all__ = [
    "BattleKind",
    "Category",
    "ENGINE_VERSION",
    "FactionType",
    "LedgerRefusal",
    "MapError",
    "PoolState",
    "Reason",
    "ReplayMismatch",
    "battle_chance",
    "check_contribution",
    "compile_world",
    "map_sha256",
    "new_state",
    "play_step",
    "population_power",
    "round_chance",
    "rules_page",
    "synthetic_map",
    "verify_record",
]

__getattr__ = lazy_exports(__name__, __all__, (  # the light, standard-library modules first
    "rules.tables",
    "rules.engine",
    "record.verifier",
    "maps.synthetic",
    "rules_page",
))

del TYPE_CHECKING, lazy_exports, _moved  # keep the package namespace to its public names
