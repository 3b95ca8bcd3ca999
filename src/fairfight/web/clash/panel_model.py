"""The attack panel's data model: what the JSON under /api/clash/ carries and the page shows.

Each field is filled by `panel.attack_panel` from the engine's preview; nothing here computes.
"""

from __future__ import annotations

from pydantic import BaseModel

__all__ = [
    "Alternative",
    "AttackPanel",
    "BandView",
    "BreakChecks",
    "Chance",
    "FogView",
    "Force",
    "Item",
    "PivotView",
    "Resolve",
    "RetreatView",
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


class Chance(BaseModel):
    """A break or falter check: the plain-words line, the per-mille chance and its inputs."""

    checked: bool
    text: str
    permille: int | None
    words: str
    resolve: int | None
    shock: list[int] | None


class Resolve(BaseModel):
    """A resolve and its terms."""

    total: int
    terms: list[Item]
    held: bool
    """True when the terms' sum was held inside the resolve limits."""


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
    break_range: list[int]
    la_range: list[int]
    ld_range: list[int]
    pivots: list[PivotView]
    estimated: bool
    command_win_permille: int
    cases: int


class AttackPanel(BaseModel):
    """Everything the attack panel shows, in the order it shows it."""

    kind: str
    title: str
    terrain: str
    verdict: Chance
    falter: Chance
    they_lose: BandView
    you_lose: BandView
    odds: list[int]
    reliability: int
    volatility: int
    your_force: Force
    their_force: Force
    break_checks: BreakChecks | None
    consequence: list[str]
    retreat: RetreatView | None
    alternatives: list[Alternative]
    fog: FogView | None
    own_losses_note: str
    evaluations: int
    combat_logic_version: int
    option: str | None
