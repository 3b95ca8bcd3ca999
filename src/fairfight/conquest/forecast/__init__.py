"""Title odds and what is at stake: forecasts, their compiled kernel, stakes and calibration.

`title_odds` simulates the rest of a season many times (with `kernel`, the season rules compiled
for flat arrays, and `kernel_bits`); `stakes` works out what the next battle can change,
`calibration` (with `calibration_file`) checks the odds against simulated seasons, and
`season_odds` previews a hypothetical battle exactly. The names below are `title_odds`'s, as
the module `fairfight.conquest.forecast` offered them before the package was split.
"""

from typing import TYPE_CHECKING

from fairfight.lazy import lazy_exports

if TYPE_CHECKING:  # the names are imported on first use (see fairfight.lazy)
    from fairfight.conquest.forecast.title_odds import (
        CHUNK_SEASONS,
        Z_95,
        FactionOdds,
        Forecast,
        IntArray,
        PoolEffect,
        SeasonArrays,
        forecast,
        forecast_key,
        pool_effect,
        run_chunk,
        season_arrays,
        wilson_interval,
    )

__all__ = [
    "CHUNK_SEASONS",
    "FactionOdds",
    "Forecast",
    "IntArray",
    "PoolEffect",
    "SeasonArrays",
    "Z_95",
    "forecast",
    "forecast_key",
    "pool_effect",
    "run_chunk",
    "season_arrays",
    "wilson_interval",
]

__getattr__ = lazy_exports(__name__, __all__, ("title_odds",))

del TYPE_CHECKING, lazy_exports  # keep the package namespace to its public names
