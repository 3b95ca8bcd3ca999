"""Prediction under fog: ranges over unobserved defender fields and the pivots that matter.

The viewer's spec carries its best estimate of every field; the fields it has not observed
are named here. The preview then reports each figure's range over the whole domain of the
unknowns [CB-2330] and, for each enumerable unknown, how the break chance moves across its
values with everything else as estimated [CB-2340]. A pivot's threshold is the first value
at which the verdict line's wording changes (the owner's ruling on CB-2340); a break chance
that moves without changing the verdict is part of the pivot's detail. Two pivots are shown
[CB-2350]: those that change the verdict first, the places left filled by the widest others,
marked as not changing it (as the CB-2360 table does).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any

import numpy as np

from fairfight.clash import tables as t
from fairfight.clash.batch import preview_batch
from fairfight.clash.kernel import Columns
from fairfight.clash.preview import Preview, preview
from fairfight.clash.spec import ClashSpec, check_resolvable, to_columns
from fairfight.clash.verdict import verdict_text
from fairfight.core.errors import InputError

__all__ = [
    "DISORDER_RANGE",
    "ENUMERABLE",
    "ESTIMATED_WIN_PERMILLE",
    "FogField",
    "FogPreview",
    "FogRequest",
    "NO_VERDICT_CHANGE",
    "PIVOTS_SHOWN",
    "Pivot",
    "STRENGTH_RANGE",
    "parse_fog_fields",
    "preview_under_fog",
    "shown_pivots",
]

ESTIMATED_WIN_PERMILLE = 400
"""The command layer's single number when the target's strength is unobserved [CB-2260]."""
STRENGTH_RANGE = (1, t.MAX_STRENGTH)
"""What an unobserved strength may be when no narrower range is known."""
DISORDER_RANGE = (0, t.MAX_DISORDER)
"""What an unobserved disorder may be when no narrower range is known."""
PIVOTS_SHOWN = 2
NO_VERDICT_CHANGE = "does not change the verdict"
"""The marking of a shown pivot that fills a place without changing the verdict."""


class FogField(StrEnum):
    """A defender field the viewer may not have observed [CB-2310]."""

    STRENGTH = "strength"
    """Strength: a range, every value in it evaluated."""
    DISORDER = "disorder"
    """Disorder: a range, its two ends evaluated (break only grows with disorder)."""
    STANCE = "stance"
    """Stance: four values."""
    DIG_IN = "dig_in"
    """Dig-in: 0 to 4."""
    WORKS = "works"
    """Works: 0 to 4."""
    GRADE = "grade"
    """Grade: four values."""
    SUPPLY_TIER = "supply_tier"
    """Supply tier: four values."""


ENUMERABLE: dict[FogField, tuple[Any, ...]] = {
    FogField.GRADE: tuple(t.Grade),
    FogField.STANCE: tuple(t.Stance),
    FogField.SUPPLY_TIER: tuple(t.SupplyTier),
    FogField.DIG_IN: tuple(range(t.MAX_POSITION + 1)),
    FogField.WORKS: tuple(range(t.MAX_POSITION + 1)),
}
"""The domains the pivot analysis walks, in display order [CB-2340]."""
_COLUMN = {
    FogField.GRADE: "defender_grade", FogField.STANCE: "defender_stance",
    FogField.SUPPLY_TIER: "defender_supply", FogField.DIG_IN: "defender_dig_in",
    FogField.WORKS: "defender_works", FogField.STRENGTH: "defender_strength",
    FogField.DISORDER: "defender_disorder",
}


def _first_change(labels: tuple[str, ...], keys: list[Any]) -> str | None:
    """The first label whose key differs from the first label's, or None."""
    return next((label for label, key in zip(labels, keys, strict=True) if key != keys[0]),
                None)


@dataclass(frozen=True, slots=True)
class Pivot:
    """The break chance at each value of one unknown, the others as estimated."""

    field: FogField
    values: tuple[tuple[str, int], ...]
    evaluations: int
    checked: bool = True
    """Whether the clash has break checks (a bombardment has none, so no verdict to turn)."""

    @property
    def span(self) -> int:
        """How far the break chance moves across the domain."""
        chances = [chance for _, chance in self.values]
        return max(chances) - min(chances)

    @property
    def labels(self) -> tuple[str, ...]:
        """The domain's values, in domain order."""
        return tuple(label for label, _ in self.values)

    @property
    def verdicts(self) -> tuple[str, ...]:
        """The verdict line's wording at each value."""
        return tuple(verdict_text(chance, checked=self.checked) for _, chance in self.values)

    @property
    def threshold(self) -> str | None:
        """The first value at which the verdict's wording changes, or None when it never
        does [CB-2340]."""
        return _first_change(self.labels, list(self.verdicts))

    @property
    def changes_verdict(self) -> bool:
        """Whether the verdict differs somewhere in the domain."""
        return self.threshold is not None

    @property
    def break_moves_at(self) -> str | None:
        """Detail: the first value at which the break chance itself changes (the verdict may
        stay), or None when it is the same everywhere."""
        return _first_change(self.labels, [chance for _, chance in self.values])

    @property
    def outcome(self) -> str:
        """How the pivot turns the verdict, in words, with where the break chance first
        moves as detail when that is not the threshold."""
        moves = self.break_moves_at
        if self.threshold is None:
            detail = "" if moves is None else f"; the break chance moves at {moves}"
            return NO_VERDICT_CHANGE + detail
        verdict = self.verdicts[self.labels.index(self.threshold)]
        detail = "" if moves == self.threshold else f"; the break chance already moves at {moves}"
        return f"the verdict changes at {self.threshold} ({verdict.lower()}){detail}"

    def describe(self) -> str:
        """One line for a panel: the break chance at every value, then the outcome."""
        listed = ", ".join(f"{label} {chance}‰" for label, chance in self.values)
        return f"Pivot {self.field.value}: {listed} — {self.outcome}."

    def to_json(self) -> dict[str, Any]:
        """The pivot as plain JSON."""
        return {"field": f"defender.{self.field.value}", "span": self.span,
                "threshold": self.threshold, "changes_verdict": self.changes_verdict,
                "marking": None if self.changes_verdict else NO_VERDICT_CHANGE,
                "break_moves_at": self.break_moves_at,
                "break_permille": {label: chance for label, chance in self.values},
                "verdict": dict(zip(self.labels, self.verdicts, strict=True))}


def shown_pivots(pivots: Iterable[Pivot]) -> tuple[Pivot, ...]:
    """The two pivots shown [CB-2350]: those that change the verdict (widest first), then,
    while a place is free, the widest that do not; shown widest first, and of equal spans,
    one that changes the verdict first."""
    ordered = sorted(pivots, key=lambda pivot: -pivot.span)
    changing = [pivot for pivot in ordered if pivot.changes_verdict][:PIVOTS_SHOWN]
    filling = [pivot for pivot in ordered if not pivot.changes_verdict]
    chosen = changing + filling[:PIVOTS_SHOWN - len(changing)]
    return tuple(sorted(chosen, key=lambda pivot: (-pivot.span, not pivot.changes_verdict)))


@dataclass(frozen=True, slots=True)
class FogPreview:
    """The estimate's exact preview, the ranges over every unknown, and the pivots."""

    nominal: Preview
    unobserved: tuple[FogField, ...]
    ranges: dict[str, tuple[int, int]]
    pivots: tuple[Pivot, ...]
    cases: int
    evaluations: int = 0
    """Kernel evaluations of the scalar previews (nominal and pivots, each spec once); a
    range over several unknowns comes from the batch kernel on top of these."""

    @property
    def shown_pivots(self) -> tuple[Pivot, ...]:
        """At most two pivots, the verdict-changing ones first (see `shown_pivots`)."""
        return shown_pivots(self.pivots)

    @property
    def estimated(self) -> bool:
        """The target's strength is not observed [CB-2260]."""
        return FogField.STRENGTH in self.unobserved

    @property
    def command_win_permille(self) -> int:
        """The single number the command layer uses [CB-2250, CB-2260]."""
        return ESTIMATED_WIN_PERMILLE if self.estimated else self.nominal.win_permille

    def to_json(self) -> dict[str, Any]:
        """Nominal figures plus `provisional`, `ranges` and `pivots`."""
        result = self.nominal.to_json()
        result["provisional"] = [f"defender.{name.value}" for name in self.unobserved]
        result["ranges"] = {name: list(bounds) for name, bounds in self.ranges.items()}
        result["pivots"] = [pivot.to_json() for pivot in self.shown_pivots]
        result["estimated"] = self.estimated
        result["command_win_permille"] = self.command_win_permille
        result["cases"] = self.cases
        return result


def _label(value: Any) -> str:
    return value.value if isinstance(value, StrEnum) else str(value)


def _variant(spec: ClashSpec, name: FogField, value: Any) -> ClashSpec:
    return spec.model_copy(update={
        "defender": spec.defender.model_copy(update={name.value: value})})


def _pivot(spec: ClashSpec, name: FogField,
           scalar: Callable[[ClashSpec], Preview]) -> tuple[Pivot, list[Preview]]:
    """The break chance at each value of one unknown, and the previews behind it."""
    results = [scalar(_variant(spec, name, value)) for value in ENUMERABLE[name]]
    values = tuple((_label(value), result.break_permille)
                   for value, result in zip(ENUMERABLE[name], results, strict=True))
    return Pivot(name, values, sum(result.evaluations for result in results),
                 checked=spec.kind is not t.Kind.BOMBARDMENT), results


def _ranges_of(previews: list[Preview]) -> dict[str, tuple[int, int]]:
    """Each figure's range over the previews of a single unknown's whole domain."""
    ranges: dict[str, tuple[int, int]] = {}
    for figure in ("break_permille", "falter_permille", "destroyed_permille", "win_permille"):
        values = [getattr(view, figure) for view in previews]
        ranges[figure] = (min(values), max(values))
    for band in ("ld", "la", "shock_defender"):
        bands = [getattr(view, f"{band}_band") for view in previews]
        ranges[f"{band}_band"] = (min(b.low for b in bands), max(b.high for b in bands))
    return ranges


def _domain_codes(name: FogField, strength: tuple[int, int],
                  disorder: tuple[int, int]) -> list[int]:
    if name is FogField.STRENGTH:
        return list(range(strength[0], strength[1] + 1))
    if name is FogField.DISORDER:
        return sorted({disorder[0], disorder[1]})
    return list(range(len(ENUMERABLE[name])))


def _check_range(name: str, bounds: tuple[int, int], low: int) -> tuple[int, int]:
    if not low <= bounds[0] <= bounds[1] <= t.MAX_STRENGTH:
        raise InputError(name, f"a range [low, high] with {low} <= low <= high <= 100")
    return bounds


def preview_under_fog(
    spec: ClashSpec, unobserved: Iterable[FogField], *,
    strength_range: tuple[int, int] = STRENGTH_RANGE,
    disorder_range: tuple[int, int] = DISORDER_RANGE,
    capture_possible: bool = False, defender_in_city: bool | None = None,
) -> FogPreview:
    """The preview over the viewer's knowledge: exact for the estimate, ranged for unknowns."""
    check_resolvable(spec)
    unknown = tuple(name for name in FogField if name in set(unobserved))
    strength_range = _check_range("strength_range", strength_range, 1)
    disorder_range = _check_range("disorder_range", disorder_range, 0)
    previews: dict[bytes, Preview] = {}

    def scalar(variant: ClashSpec) -> Preview:
        """Each distinct specification is previewed once (the estimate is a pivot value)."""
        key = variant.canonical_bytes()
        if key not in previews:
            previews[key] = preview(variant, capture_possible=capture_possible,
                                    defender_in_city=defender_in_city)
        return previews[key]

    nominal = scalar(spec)
    analysed = [_pivot(spec, name, scalar) for name in unknown if name in ENUMERABLE]
    pivots = tuple(sorted((pivot for pivot, _ in analysed), key=lambda pivot: -pivot.span))
    if len(unknown) == 1 and analysed:
        # one enumerable unknown: its pivot previews are the whole domain, so they give the
        # ranges too, and the analysis stays within 33 x 5 evaluations [CB-2580]
        domain = analysed[0][1]
        return FogPreview(nominal, unknown, _ranges_of(domain), pivots, len(domain),
                          _evaluations(previews))
    grids = [_domain_codes(name, strength_range, disorder_range) for name in unknown]
    combos = np.asarray(list(itertools.product(*grids)) or [()], dtype=np.int64)
    cases = combos.shape[0]
    base = to_columns(spec)
    columns = Columns(**{
        item.name: np.full(cases, int(getattr(base, item.name)), dtype=np.int64)
        for item in fields(Columns)
    })
    for position, name in enumerate(unknown):
        setattr(columns, _COLUMN[name], combos[:, position])
    batch = preview_batch(columns)
    ranges: dict[str, tuple[int, int]] = {}
    for figure in ("break_permille", "falter_permille", "destroyed_permille", "win_permille"):
        values = getattr(batch, figure)
        ranges[figure] = (int(values.min()), int(values.max()))
    for band in ("ld", "la", "shock_defender"):
        ranges[f"{band}_band"] = (int(batch.row(f"{band}_low").min()),
                                  int(batch.row(f"{band}_high").max()))
    return FogPreview(nominal, unknown, ranges, pivots, cases, _evaluations(previews))


def _evaluations(previews: dict[bytes, Preview]) -> int:
    return sum(view.evaluations for view in previews.values())


def parse_fog_fields(names: Iterable[str], field: str) -> tuple[FogField, ...]:
    """Field names as given on the command line or in a form, each once, in order."""
    known = {name.value: name for name in FogField}
    chosen = [name.strip() for name in names if name.strip()]
    for name in chosen:
        if name not in known:
            raise InputError(field, f"unknown field {name!r}; use {', '.join(known)}")
    return tuple(dict.fromkeys(known[name] for name in chosen))


@dataclass(frozen=True, slots=True)
class FogRequest:
    """What the viewer has not observed of the defender: fields, and the range a strength or
    disorder may take (a range given makes its field unobserved)."""

    unobserved: tuple[FogField, ...] = ()
    strength_range: tuple[int, int] | None = None
    disorder_range: tuple[int, int] | None = None

    def fields(self) -> tuple[FogField, ...]:
        """The unobserved fields, those implied by a range included."""
        implied = [name for name, given in ((FogField.STRENGTH, self.strength_range),
                                            (FogField.DISORDER, self.disorder_range)) if given]
        return tuple(dict.fromkeys((*self.unobserved, *implied)))

    def preview(self, spec: ClashSpec, *, capture_possible: bool = False,
                defender_in_city: bool | None = None) -> FogPreview | None:
        """The preview under this fog, or None when everything is observed."""
        unknown = self.fields()
        if not unknown:
            return None
        return preview_under_fog(
            spec, unknown, capture_possible=capture_possible, defender_in_city=defender_in_city,
            strength_range=self.strength_range or STRENGTH_RANGE,
            disorder_range=self.disorder_range or DISORDER_RANGE)
