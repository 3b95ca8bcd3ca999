"""The calibration file as data: a pydantic model that reads one and refuses a malformed one.

`fairfight conquest calibration` writes the file (`calibration.Calibration.to_json`); the
package ships the one made for the north-america map beside the map
(`maps/<map>.calibration.json`), and the show's methodology section draws its chart from it.
A file that does not hold together (a bin's counts not summing, a season missing, an unknown
format) is refused with one line naming the field.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StringConstraints, model_validator

from fairfight.conquest.forecast.calibration_defaults import (
    BINS,
    CALIBRATION_SEED,
    FORECAST_SEASONS,
)
from fairfight.core.validation import parse_model
from fairfight.inputs import load_json

__all__ = [
    "BINS",
    "CALIBRATION_SEED",
    "CalibrationBin",
    "CalibrationFile",
    "CalibrationInputs",
    "CalibrationSeason",
    "Decimal6",
    "FORECAST_SEASONS",
    "FORMAT",
    "load_calibration",
    "shipped_calibration",
]

FORMAT = "fairfight-conquest-calibration-1"
"""The file format's name, written into every calibration file."""
Decimal6 = Annotated[str, StringConstraints(pattern=r"^[01]\.\d{6}$")]
"""A share in [0, 1] written with six decimal places."""
_Count = Annotated[StrictInt, Field(ge=0)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class CalibrationInputs(_Strict):
    """Everything a re-run needs: the map, the seeds, the sizes, the code that ran."""

    map_name: str
    map_sha256: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
    calibration_seed: str
    seasons: Annotated[StrictInt, Field(ge=1)]
    forecast_seasons: Annotated[StrictInt, Field(ge=1)]
    bins: Annotated[StrictInt, Field(ge=1, le=100)]
    engine_version: str
    code_version: str


class CalibrationBin(_Strict):
    """One bin of forecast chances: the forecasts in it and how often they came true."""

    bin: _Count
    low: str
    high: str
    count: _Count
    wins: _Count
    titles: _Count
    mean_forecast: Decimal6 | None
    observed: Decimal6 | None
    interval: tuple[Decimal6, Decimal6] | None

    @model_validator(mode="after")
    def _consistent(self) -> CalibrationBin:
        if self.wins > self.count:
            raise ValueError("wins: more than the forecasts in the bin")
        if (self.count == 0) != (self.observed is None):
            raise ValueError("observed: given exactly when the bin holds forecasts")
        return self


class CalibrationSeason(_Strict):
    """One calibration season: its length, champion, forecasts made and their digest."""

    season: _Count
    battles: Annotated[StrictInt, Field(ge=1)]
    champion: str
    forecasts: Annotated[StrictInt, Field(ge=1)]
    digest: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{16}$")]


class CalibrationFile(_Strict):
    """A whole calibration file."""

    format: str
    inputs: CalibrationInputs
    bins: list[CalibrationBin]
    seasons: list[CalibrationSeason]

    @model_validator(mode="after")
    def _whole(self) -> CalibrationFile:
        if self.format != FORMAT:
            raise ValueError(f"format: must be {FORMAT}")
        if [b.bin for b in self.bins] != list(range(self.inputs.bins)):
            raise ValueError("bins: one per bin, in order")
        if [s.season for s in self.seasons] != list(range(self.inputs.seasons)):
            raise ValueError("seasons: one record per season, numbered from 0")
        if sum(b.count for b in self.bins) != sum(s.forecasts for s in self.seasons):
            raise ValueError("bins: the counts do not add up to the seasons' forecasts")
        return self

    @property
    def forecasts(self) -> int:
        """Forecasts made over every season (one per standing faction per battle)."""
        return sum(b.count for b in self.bins)


def load_calibration(path: Path) -> CalibrationFile:
    """Read a calibration file; InputError (one line naming the field) when it is malformed.

    Its summary is not trusted to be the file's own: it must agree with its season records."""
    data: Any = load_json(path)
    return parse_model(CalibrationFile, data, prefix=str(path))


def shipped_calibration(map_name: str) -> CalibrationFile | None:
    """The calibration shipped for a map, or None when none was made for it."""
    source = resources.files("fairfight.conquest").joinpath(
        "maps", f"{map_name}.calibration.json")
    if not source.is_file():
        return None
    with resources.as_file(source) as path:
        return load_calibration(path)
