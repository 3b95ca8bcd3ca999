"""Single exchanges on the web: the built-in specifications, preview and resolution requests.

The request models are the JSON twins of the exchange page's form; both end in `evaluate`,
which calls the engine's preview (and, under fog, `preview_under_fog`) and the resolution.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Annotated, Any

from pydantic import BaseModel, Field, StrictBool, StrictInt

from fairfight.clash import tables as t
from fairfight.clash.exchange import resolve_exchange
from fairfight.clash.fog import FogField, preview_under_fog
from fairfight.clash.preview import preview
from fairfight.clash.spec import ClashSpec, check_resolvable, parse_spec
from fairfight.core.errors import InputError
from fairfight.web.clash.panel import AttackPanel, attack_panel
from fairfight.web.clash.reconcile import Reconciliation, reconcile

__all__ = [
    "EXAMPLES",
    "Evaluation",
    "PreviewRequest",
    "ResolveRequest",
    "evaluate",
    "example_spec",
]

EXAMPLES: dict[str, str] = {
    "worked-example": "§23 worked example: armour and a battery assault Belvoir Wood",
    "reaction-ambush": "A reaction: prepared fire on a unit that moved next to it",
    "siege-bombardment": "A bombardment of a city's works",
}
"""Built-in specifications (package copies of examples/clash/*.json) and their titles."""

Range = tuple[Annotated[StrictInt, Field(ge=0, le=t.MAX_STRENGTH)],
              Annotated[StrictInt, Field(ge=0, le=t.MAX_STRENGTH)]]


@cache
def _example_text(name: str) -> str:
    return (files("fairfight.web.clash") / "specs" / f"{name}.json").read_text(encoding="utf-8")


def example_spec(name: str) -> ClashSpec:
    """A built-in specification by name; an unknown name is an input error."""
    if name not in EXAMPLES:
        raise InputError("example", f"unknown example {name!r}; use {', '.join(EXAMPLES)}")
    return parse_spec(json.loads(_example_text(name)))


class PreviewRequest(BaseModel):
    """A specification, the defender fields not observed, and the board's two facts."""

    spec: ClashSpec
    unobserved: list[FogField] = Field(default_factory=list, max_length=len(FogField))
    strength_range: Range | None = None
    disorder_range: Range | None = None
    capture_possible: StrictBool = False
    defender_in_city: StrictBool | None = None


class ResolveRequest(PreviewRequest):
    """A preview request and the draw to resolve it at."""

    r: Annotated[StrictInt, Field(ge=0, le=t.HIGH_DRAW)]


class Evaluation(BaseModel):
    """The panel, and after a resolution the combat event and the reconciliation line."""

    panel: AttackPanel
    outcome: dict[str, Any] | None = None
    reconciliation: Reconciliation | None = None


def evaluate(request: PreviewRequest, r: int | None = None) -> Evaluation:
    """The attack panel for a request; with a draw, also the resolution and reconciliation."""
    spec = request.spec
    check_resolvable(spec)
    view = preview(spec, capture_possible=request.capture_possible,
                   defender_in_city=request.defender_in_city)
    fog = None
    if request.unobserved or request.strength_range or request.disorder_range:
        unknown = set(request.unobserved)
        if request.strength_range:
            unknown.add(FogField.STRENGTH)
        if request.disorder_range:
            unknown.add(FogField.DISORDER)
        fog = preview_under_fog(
            spec, unknown, capture_possible=request.capture_possible,
            defender_in_city=request.defender_in_city,
            strength_range=request.strength_range or (1, t.MAX_STRENGTH),
            disorder_range=request.disorder_range or (0, t.MAX_DISORDER))
    panel = attack_panel(view, fog)
    if r is None:
        return Evaluation(panel=panel)
    outcome = resolve_exchange(spec, r, defender_in_city=request.defender_in_city)
    return Evaluation(panel=panel, outcome=outcome.to_json(),
                      reconciliation=reconcile(view, outcome))
