"""Single exchanges on the web: the built-in specifications, preview and resolution requests.

The request models are the JSON twins of the exchange page's form; both end in the engine's
`evaluation.evaluate`, the path the command line takes too.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Annotated

from pydantic import BaseModel, Field, StrictBool, StrictInt

from fairfight.clash import tables as t
from fairfight.clash.evaluation import evaluate as clash_evaluate
from fairfight.clash.fog import FogField, FogRequest
from fairfight.clash.panel_model import Evaluation
from fairfight.clash.spec import ClashSpec, parse_spec
from fairfight.core.errors import InputError

__all__ = [
    "EXAMPLES",
    "PreviewRequest",
    "Range",
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

    def fog(self) -> FogRequest:
        """The fog part of the request, as the engine takes it."""
        return FogRequest(tuple(self.unobserved), self.strength_range, self.disorder_range)


class ResolveRequest(PreviewRequest):
    """A preview request and the draw to resolve it at."""

    r: Annotated[StrictInt, Field(ge=0, le=t.HIGH_DRAW)]


def evaluate(request: PreviewRequest, r: int | None = None) -> Evaluation:
    """The attack panel for a request; with a draw, also the resolution and reconciliation."""
    return clash_evaluate(request.spec, request.fog(), capture_possible=request.capture_possible,
                          defender_in_city=request.defender_in_city, r=r).evaluation()
