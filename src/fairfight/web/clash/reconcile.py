"""The reconciliation line: what the panel predicted, and where the resolved draw fell.

Shown after every resolution [CB-2440] ("predicted 26–41, actual 35"); the resolved losses
always lie inside the predicted bands [CB-2270], and the line says so for each of them.
"""

from __future__ import annotations

from pydantic import BaseModel

from fairfight.clash.exchange import Outcome
from fairfight.clash.preview import Band, Preview

__all__ = [
    "BandCheck",
    "Reconciliation",
    "reconcile",
]


class BandCheck(BaseModel):
    """One band: the prediction (min, median, max), the actual value, and whether it is in."""

    predicted: list[int]
    actual: int
    inside: bool
    text: str


class Reconciliation(BaseModel):
    """The whole reconciliation of one clash."""

    r: int
    they_lose: BandCheck
    you_lose: BandCheck
    break_permille: int
    broke: bool
    faltered: bool
    fate: str
    text: str


def _check(band: Band, actual: int) -> BandCheck:
    inside = band.contains(actual)
    where = ("below the median" if actual < band.median else
             "at the median" if actual == band.median else "above the median")
    verdict = f"inside the band, {where}" if inside else "OUTSIDE the predicted band"
    return BandCheck(predicted=band.to_list(), actual=actual, inside=inside,
                     text=f"predicted {band.low}–{band.high}, actual {actual} ({verdict})")


def reconcile(view: Preview, outcome: Outcome) -> Reconciliation:
    """Compare a preview with the resolution of the same specification."""
    x = outcome.exchange
    they, you = _check(view.ld_band, int(x.ld)), _check(view.la_band, int(x.la))
    broke = bool(x.defender_breaks)
    chance = f"break {view.break_permille}‰, {'they broke' if broke else 'they held'}"
    return Reconciliation(
        r=int(x.r), they_lose=they, you_lose=you, break_permille=view.break_permille,
        broke=broke, faltered=bool(x.attacker_falters), fate=outcome.fate.value,
        text=f"r = {int(x.r)}: they lose {they.text}; you lose {you.text}; {chance}.")
