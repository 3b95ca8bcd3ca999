"""The rules page: every table and constant of `tables.py`, rendered through a template.

No number is typed into the template; it walks the tables it is given [CB-2740].
"""

from __future__ import annotations

import ast
import inspect
from enum import Enum
from functools import cache
from typing import Any

from fairfight.clash import tables as t
from fairfight.docs import render_page

__all__ = ["ENUMS", "member_docs", "named_constants", "rules_context", "rules_page"]

ENUMS: tuple[type[Enum], ...] = (
    t.Kind, t.Terrain, t.Role, t.Grade, t.SupplyTier, t.Stance, t.RetreatClass,
    t.RecoverySituation,
)


@cache
def _class_docs() -> dict[str, dict[str, str]]:
    """Member docstrings of every enum in tables.py (the string under each member)."""
    tree = ast.parse(inspect.getsource(t))
    docs: dict[str, dict[str, str]] = {}
    for node in tree.body:
        if not isinstance(node, ast.ClassDef):
            continue
        members: dict[str, str] = {}
        for current, following in zip(node.body, node.body[1:], strict=False):
            if (isinstance(current, ast.Assign) and isinstance(current.targets[0], ast.Name)
                    and isinstance(following, ast.Expr)
                    and isinstance(following.value, ast.Constant)
                    and isinstance(following.value.value, str)):
                members[current.targets[0].id] = following.value.value
        docs[node.name] = members
    return docs


def member_docs(enum: type[Enum]) -> list[tuple[str, str]]:
    """(value, one-line description) for each member of an enum, in declaration order."""
    docs = _class_docs()[enum.__name__]
    return [(str(member.value), docs.get(member.name, "")) for member in enum]


def named_constants() -> list[tuple[str, int]]:
    """Every integer constant of tables.py that is not a table, in source order."""
    return [
        (name, value) for name, value in vars(t).items()
        if name.isupper() and isinstance(value, int) and not isinstance(value, bool)
    ]


def rules_context() -> dict[str, Any]:
    """Everything the template renders, straight from the tables."""
    return {
        "t": t,
        "enums": [(enum.__name__, member_docs(enum)) for enum in ENUMS],
        "constants": named_constants(),
        "terrains": list(t.Terrain),
        "roles": list(t.Role),
        "grades": list(t.Grade),
        "tiers": list(t.SupplyTier),
        "stances": list(t.Stance),
        "kinds": list(t.KIND_PROFILES.items()),
    }


def rules_page() -> str:
    """The clash rules as Markdown."""
    return render_page("clash.md.j2", **rules_context())
