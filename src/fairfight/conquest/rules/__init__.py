"""The conquest season rules, standard library only: constants, the engine, maps, episodes.

`tables` holds every constant and enum, `engine` the rules themselves (a battle, the ledger,
rebellions, the board), `scenario` loads and checks a map, `episodes` and `fan_pools` say what a
battle and a pool show, `movers` why title chances moved, `schedule` when a battle airs. Nothing
here loads a database, command-line, web or compiler library (a test walks the package).

The rules page, once the module `fairfight.conquest.rules`, is `fairfight.conquest.rules_page`;
its names are still found here, on first use, for code written before the move.
"""

from __future__ import annotations

import importlib
from typing import Any

__all__: list[str] = []

_PAGE_NAMES = frozenset(
    {"TEMPLATE", "docs_by_value", "multiplier", "rules_context", "rules_page", "share_percent"}
)
"""The rules page's public names, as the old module `fairfight.conquest.rules` offered them."""


def __getattr__(name: str) -> Any:
    if name in _PAGE_NAMES:
        return getattr(importlib.import_module("fairfight.conquest.rules_page"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
