"""The conquest ruleset: a season of exact, verifiable battles between regional factions.

`tables` holds every rule constant and enum, `engine` the rules and `verifier` the record
verifier (all three standard library only); the names below are that library. The stored
season (`fairfight.conquest.season`, which needs the database) and the demo
(`fairfight.conquest.demo`) are edges, imported by their own names; `episodes` formats what a
battle shows.
"""

from typing import TYPE_CHECKING

from fairfight.lazy import lazy_exports

if TYPE_CHECKING:  # the names are imported on first use (see fairfight.lazy)
    from fairfight.conquest.engine import (
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
    from fairfight.conquest.rules import rules_page
    from fairfight.conquest.synthetic import synthetic_map
    from fairfight.conquest.tables import (
        ENGINE_VERSION,
        BattleKind,
        Category,
        FactionType,
        PoolState,
        Reason,
    )
    from fairfight.conquest.verifier import verify_record

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
    "tables",
    "engine",
    "verifier",
    "synthetic",
    "rules",
))

del TYPE_CHECKING, lazy_exports  # keep the package namespace to its public names
