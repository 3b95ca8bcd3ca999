"""The C yardstick's clash corpus (written by bench/c/dump.c) as the kernel's columns.

Each spec is 57 little-endian int32: 9 spec fields, then lead, defender and two supporters of
12 fields each (the field and enum orders of bench/c/clash_limit.c, which match the kernel's
enums). All are Assaults; an absent volatility floor (-1) is the measured floor, 250.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fairfight.clash import tables as t
from fairfight.clash.kernel import Columns

UNIT_FIELDS = ("role", "atk", "def", "tough", "strength", "disorder", "grade", "supply",
               "stance", "dig_in", "works", "shaken")
PREVIEW_FIELDS = ("ld_low", "ld_median", "ld_high", "la_low", "la_median", "la_high",
                  "shock_defender_low", "shock_defender_median", "shock_defender_high",
                  "sa_low", "sa_median", "sa_high", "r_def", "r_att", "r_surv", "break",
                  "falter", "destroyed", "win", "a", "d", "volatility")
"""The 22 int64 figures dump.c writes per preview."""


def load_specs(path: Path) -> Columns:
    raw = np.fromfile(path, dtype="<i4").reshape(-1, 57).astype(np.int64)
    spec, units = raw[:, :9], raw[:, 9:].reshape(-1, 4, 12)

    def unit(k: int, name: str) -> np.ndarray:
        column: np.ndarray = units[:, k, UNIT_FIELDS.index(name)]
        return column

    supporters = spec[:, 8]
    assault = np.full(len(raw), list(t.Kind).index(t.Kind.ASSAULT), dtype=np.int64)
    lead = {f"lead_{name}": unit(0, key) for name, key in (
        ("atk", "atk"), ("tough", "tough"), ("role", "role"), ("strength", "strength"),
        ("disorder", "disorder"), ("grade", "grade"), ("supply", "supply"),
        ("stance", "stance"), ("works", "works"), ("shaken", "shaken"))}
    defender = {f"defender_{name}": unit(1, key) for name, key in (
        ("def", "def"), ("tough", "tough"), ("role", "role"), ("strength", "strength"),
        ("disorder", "disorder"), ("grade", "grade"), ("supply", "supply"),
        ("stance", "stance"), ("dig_in", "dig_in"), ("works", "works"), ("shaken", "shaken"))}
    support = {}
    for number, k in ((1, 2), (2, 3)):
        for name in ("atk", "role", "grade", "supply"):
            support[f"support{number}_{name}"] = unit(k, name)
        support[f"support{number}_strength"] = np.where(supporters >= number,
                                                        unit(k, "strength"), 0)
    return Columns(
        kind=assault, terrain=spec[:, 0], flankers=spec[:, 1], stack_extra=spec[:, 2],
        attacker_edge_mods=spec[:, 3], defender_extra_mods=spec[:, 4],
        in_own_city=spec[:, 5], encircled=spec[:, 6],
        volatility_floor=np.where(spec[:, 7] >= 0, spec[:, 7], t.VOLATILITY_FLOOR_MEASURED),
        **lead, **defender, **support,
    )


def load_previews(path: Path) -> dict[str, np.ndarray]:
    table = np.fromfile(path, dtype="<i8").reshape(-1, len(PREVIEW_FIELDS))
    return {name: table[:, k] for k, name in enumerate(PREVIEW_FIELDS)}
