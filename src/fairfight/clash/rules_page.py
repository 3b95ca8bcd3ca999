"""The rules page: every table and constant of `tables.py`, rendered through a template.

No number is typed into the template; it walks the tables it is given [CB-2740].
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from fairfight.clash import plan_limits, victory
from fairfight.clash import tables as t
from fairfight.clash.vocabulary import EndReason
from fairfight.core.enumdocs import member_docs
from fairfight.docs import render_page

__all__ = ["ENUMS", "enum_rows", "named_constants", "rules_context", "rules_page",
           "victory_rows"]

ENUMS: tuple[type[Enum], ...] = (
    t.Kind, t.Terrain, t.Role, t.Grade, t.SupplyTier, t.Stance, t.RetreatClass,
    t.RecoverySituation, EndReason,
)


def enum_rows(kind: type[Enum]) -> list[tuple[str, str]]:
    """(value, one-line description) for each member of an enum, in declaration order."""
    return [(str(member.value), " ".join(doc.split()))
            for member, doc in member_docs(kind).items()]


def named_constants() -> list[tuple[str, int]]:
    """Every integer constant of tables.py that is not a table, in source order."""
    return [
        (name, value) for name, value in vars(t).items()
        if name.isupper() and isinstance(value, int) and not isinstance(value, bool)
    ]


def victory_rows() -> list[tuple[str, str, str]]:
    """(field, default, meaning) of each victory condition a scenario may state."""
    shown = {True: "yes", False: "no", None: "none"}
    return [(name, shown.get(field.default, str(field.default)),
             " ".join((field.description or "").split()))
            for name, field in victory.VictoryModel.model_fields.items()]


def rules_context() -> dict[str, Any]:
    """Everything the template renders, straight from the tables."""
    return {
        "t": t,
        "enums": [(enum.__name__, enum_rows(enum)) for enum in ENUMS],
        "constants": named_constants(),
        "terrains": list(t.Terrain),
        "roles": list(t.Role),
        "grades": list(t.Grade),
        "tiers": list(t.SupplyTier),
        "stances": list(t.Stance),
        "kinds": list(t.KIND_PROFILES.items()),
        "plan": plan_limits,
        "victory": victory,
        "victory_fields": victory_rows(),
    }


def rules_page() -> str:
    """The clash rules as Markdown."""
    return render_page("clash.md.j2", **rules_context())
