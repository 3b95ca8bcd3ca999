"""The attack panel as a value: what the command line prints, the page shows and the JSON
under /api/clash/ carries.

Each field is filled by `panel.attack_panel` from the engine's preview, resolution and
tables; `readout` and the template `clash/_panel.html` only format it.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, computed_field

__all__ = [
    "Alternative",
    "AttackPanel",
    "BandCheck",
    "BandView",
    "BelowChance",
    "BreakChecks",
    "Chance",
    "ChartBar",
    "ChartMark",
    "Evaluation",
    "FogView",
    "Force",
    "Item",
    "PivotView",
    "Reconciliation",
    "Resolve",
    "RetreatView",
    "StrengthAfterView",
    "StrengthChart",
    "StrengthCount",
    "SupporterLoss",
    "UnitLine",
]


class Item(BaseModel):
    """One line item: the value it adds and where it comes from."""

    value: int
    source: str


class UnitLine(BaseModel):
    """A counted unit: its state, its contribution and the modifiers behind it."""

    label: str
    name: str
    role: str
    stance: str
    strength: int
    disorder: int
    grade: str
    supply: str
    contribution: int
    base: str
    terms: list[Item]


class Force(BaseModel):
    """One side's power: the units, the side's own modifiers and their clamped sum."""

    power: int
    units: list[UnitLine]
    terms: list[Item]
    total: int


class BandView(BaseModel):
    """A loss band (min, median, max by value) and the strengths it leaves [CB-2160]."""

    band: list[int]
    strength: int
    left: list[int]
    """[lowest, highest] strength after the loss (the bombardment floor applied)."""


class StrengthCount(BaseModel):
    """One strength a side may be left at, and the draws out of 1000 that leave it there."""

    strength: int
    draws: int


class BelowChance(BaseModel):
    """The chance a side falls below a strength: draws out of 1000, and in words."""

    below: int
    permille: int
    words: str
    text: str


class ChartBar(BaseModel):
    """One bar of the strength-after chart: a strength, its draws, and where it is drawn."""

    strength: int
    draws: int
    x: int
    y: int
    width: int
    height: int


class ChartMark(BaseModel):
    """A falling-below mark on the chart's strength axis."""

    below: int
    x: int
    label: str
    """The mark's figure under the axis; empty where it would cover the 0 or the end."""


class StrengthChart(BaseModel):
    """A small bar chart of a side's strength after the clash, laid out in a `width` x
    `height` box: strength along the axis (0 at the left, the strength before at the right),
    draws out of 1000 upwards, tallest bar full height. A page draws it as it is."""

    width: int
    height: int
    bars: list[ChartBar]
    marks: list[ChartMark]
    label: str
    """The chart in words, for a reader who cannot see it."""


class StrengthAfterView(BaseModel):
    """A side's whole distribution of strength after the clash, exact over 1000 draws: the
    bars of a small chart, and the chance of falling below each quarter mark [CB-2160]."""

    side: str
    """"they" (the top defender) or "you" (the lead)."""
    unit: str
    before: int
    after: list[StrengthCount]
    """Every strength reached, lowest first; the draws add up to 1000."""
    falls_below: list[BelowChance]
    """Below 75, 50 and 25 (those under the strength before) and below 1 (destroyed)."""
    chart: StrengthChart


class SupporterLoss(BaseModel):
    """What a supporter loses with the lead's band, and the strengths it leaves [CB-900]."""

    label: str
    low: int
    high: int
    strength: int
    left: list[int]
    """[lowest, highest] strength after the loss."""


class Chance(BaseModel):
    """A break or falter check: the plain-words line, the per-mille chance and its inputs."""

    checked: bool
    outcome: Literal["break", "hold", "falters", "steady", "none"]
    """What the line announces: the verdict's side, whether the attack may falter, or no
    check at all (a bombardment)."""
    head: str
    """The words the line opens with ("They break", "Your attack falters")."""
    text: str
    permille: int | None
    words: str
    resolve: int | None
    shock: list[int] | None

    def shouted(self) -> str:
        """The line with its opening words in capitals, as the text panel prints a verdict."""
        return self.head.upper() + self.text[len(self.head):]


class Resolve(BaseModel):
    """A resolve and its terms."""

    total: int
    terms: list[Item]
    held: bool
    """True when the terms' sum was held inside the resolve limits."""
    limits: list[int]
    """[lowest, highest] resolve [CB-780]."""


class BreakChecks(BaseModel):
    """What feeds both break checks: fixed shock terms beside the loss, and each resolve."""

    their_shock: list[Item]
    their_resolve: Resolve
    your_shock: list[Item]
    your_resolve: Resolve


class RetreatView(BaseModel):
    """Where a broken defender goes on the board, or that it has nowhere to go."""

    to: list[int] | None
    label: str | None
    candidates: list[list[int]]
    encircled: bool


class Alternative(BaseModel):
    """The same attack without one supporter [CB-2390 item 6]."""

    without: str
    unit: str | None
    a: int
    d: int
    break_permille: int
    falter_permille: int
    la_band: list[int]


class PivotView(BaseModel):
    """How the break chance and the verdict move over one unobserved field [CB-2340]."""

    field: str
    values: list[tuple[str, int]]
    threshold: str | None
    """The first value at which the verdict's wording changes (None: it never does)."""
    changes_verdict: bool
    break_moves_at: str | None
    """Detail: the first value at which the break chance changes."""
    verdicts: list[str]
    """The verdict's wording at each value."""
    text: str


class FogView(BaseModel):
    """The provisional part: unobserved fields, ranges over them, at most two pivots."""

    provisional: list[str]
    summary: str
    """The ranges in one sentence."""
    break_range: list[int]
    la_range: list[int]
    ld_range: list[int]
    pivots: list[PivotView]
    estimated: bool
    command_win_permille: int
    cases: int


class BandCheck(BaseModel):
    """One band: the prediction (min, median, max), the actual value, and whether it is in."""

    predicted: list[int]
    actual: int
    inside: bool
    text: str


class Reconciliation(BaseModel):
    """What the panel predicted beside what the draw gave [CB-2440]."""

    r: int
    they_lose: BandCheck
    you_lose: BandCheck
    break_permille: int
    broke: bool
    faltered: bool
    fate: str
    summary: str
    """The break chance, what happened and the defender's fate, in one sentence."""
    text: str
    """The whole reconciliation on one line."""


class AttackPanel(BaseModel):
    """Everything the attack panel shows, in the order it shows it."""

    kind: str
    title: str
    terrain: str
    verdict: Chance
    falter: Chance
    provisional: bool
    """Whether fog leaves the verdict and the bands provisional."""
    they_lose: BandView
    you_lose: BandView
    their_strength_after: StrengthAfterView
    your_strength_after: StrengthAfterView
    supporters_lose: list[SupporterLoss]
    odds: list[int]
    reliability: int
    volatility: int
    your_force: Force
    their_force: Force
    break_checks: BreakChecks | None
    consequence: list[str]
    retreat: RetreatView | None
    """The retreat tile on a board; None off the board, for a bombardment, and for a
    defender that may not retreat (the consequence says so) [CB-1340, CB-2420]."""
    alternatives: list[Alternative]
    fog: FogView | None
    own_losses_note: str
    evaluations: int
    combat_logic_version: int
    option: str | None
    reconciliation: Reconciliation | None = None
    """After a resolution: where the draw fell against the prediction."""


class Evaluation(BaseModel):
    """The panel, and after a resolution the combat event (its reconciliation in the panel)."""

    panel: AttackPanel
    outcome: dict[str, Any] | None = None

    @computed_field  # type: ignore[prop-decorator]
    @property
    def reconciliation(self) -> Reconciliation | None:
        """The panel's reconciliation, beside the outcome for JSON readers."""
        return self.panel.reconciliation
