"""The one-line docstring written under each enum member, read from the source.

Rules pages list a vocabulary (terrains, reasons, pool states, ...) with the sentence its code
carries, so the page cannot say something the code does not. Standard library only.
"""

from __future__ import annotations

import ast
import enum
import inspect
from functools import cache

__all__ = ["member_docs"]


@cache
def _docs_by_name(kind: type[enum.Enum]) -> dict[str, str]:
    """Member name -> the string literal that follows its assignment in the class body."""
    tree = ast.parse(inspect.getsource(kind).lstrip())
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs: dict[str, str] = {}
    for statement, following in zip(body, body[1:], strict=False):
        if (
            isinstance(statement, ast.Assign)
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[statement.targets[0].id] = following.value.value
    return docs


def member_docs(kind: type[enum.Enum]) -> dict[enum.Enum, str]:
    """Each member of `kind`, in declaration order, with its docstring ('' where it has none)."""
    docs = _docs_by_name(kind)
    return {member: docs.get(member.name, "") for member in kind}
