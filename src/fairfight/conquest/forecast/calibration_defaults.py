"""A calibration run's defaults, apart from the file model so that the command line can show
them in its help without loading pydantic."""

from __future__ import annotations

__all__ = ["BINS", "CALIBRATION_SEED", "FORECAST_SEASONS"]

CALIBRATION_SEED = "fairfight-calibration-1"
"""The default calibration seed (any text): every season seed and forecast seed derives from it."""
FORECAST_SEASONS = 100
"""Simulated seasons per forecast in a calibration run: a modest count, so that 2,000 seasons
(about 270,000 forecasts on the north-america map) run in about a quarter of an hour on two
cores. The show's own
forecasts use many more; a forecast this small is noisier, which if anything makes the chart
look a little overconfident (a high forecast is partly high by chance)."""
BINS = 20
"""Forecast bins of equal width: [0, 5%), [5%, 10%), ... [95%, 100%]."""
