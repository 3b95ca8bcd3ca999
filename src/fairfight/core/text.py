"""Two rules every text a user hands us meets before it is used: valid Unicode, bounded nesting.

Valid Unicode: JSON and YAML can spell a lone surrogate (`"\\ud800"`), which decodes to a
Python string that no UTF-8 writer, database or page can hold; such a value is refused where
it is read, naming the field, rather than failing later where it is written.

Bounded nesting: the depth of a JSON or YAML text is measured on the text itself, before any
parser sees it, so a file nested 10,000 deep is refused by a rule with a number in it and never
reaches a parser's recursion (or Python's recursion limit). The measure is a cheap scan of
brackets (flow collections) and of indentation and `- ` markers (block YAML); the parsers'
own walks stay as the exact check behind it. Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import accumulate
from typing import Any

from fairfight.core.errors import InputError

__all__ = [
    "LONE_SURROGATE_RULE",
    "MAX_DEPTH",
    "NESTING_RULE",
    "check_json_nesting",
    "check_yaml_nesting",
    "json_depth_exceeds",
    "lone_surrogate_path",
    "may_spell_a_surrogate",
    "require_valid_unicode",
    "yaml_depth_exceeds",
]

MAX_DEPTH = 64
"""Deepest nesting of lists and mappings accepted in a file; real files stay under ten levels."""
NESTING_RULE = f"nested more than {MAX_DEPTH} levels deep"
LONE_SURROGATE_RULE = ("holds a lone surrogate (an escape such as \\ud800 with no partner), "
                       "which is not valid Unicode text")

_SURROGATE = re.compile("[\ud800-\udfff]")
_SURROGATE_ESCAPE = re.compile(r"\\(?:u|U0000)[dD][89a-fA-F]")
_JSON_STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_FLOW_TOKEN = re.compile(r'''"(?:[^"\\]|\\.)*"?|'(?:[^']|'')*'?|(?:^|(?<=\s))#.*|[\[\]{}]''')
_FLOW_VALUE = re.compile(r'''(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^'"\[{:#]|:(?!\s))*'''
                         r"[:]\s+(?=[\[{])")
_MARKERS = re.compile(r"(?:[-?](?: +|$))*")
_BLOCK_SCALAR = re.compile(r"(?:^|[:\-?]\s)\s*[|>][0-9+\-]*\s*(?:#.*)?$")


# ------------------------------------------------------------------------------- Unicode


def may_spell_a_surrogate(text: str) -> bool:
    """Whether a JSON or YAML text holds an escape that could decode to a surrogate.

    Strictly decoded UTF-8 holds no surrogate itself, so a text without such an escape needs
    no walk of its parsed value; this is the quick test every reader runs first."""
    return _SURROGATE_ESCAPE.search(text) is not None


def lone_surrogate_path(value: Any) -> str | None:
    """The dotted path (`units[2].name`, or `value`) of the first string or key holding a
    lone surrogate, walking without recursion; None when every text is valid Unicode."""
    stack: list[tuple[Any, str]] = [(value, "")]
    while stack:
        item, where = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return where or "value"
        elif isinstance(item, dict):
            for key, child in reversed(list(item.items())):
                inner = f"{where}.{key}" if where else str(key)
                if isinstance(key, str) and _SURROGATE.search(key):
                    return (f"{where}." if where else "") + ascii(key)[1:-1]
                stack.append((child, inner))
        elif isinstance(item, list | tuple):
            stack.extend((child, f"{where}[{index}]")
                         for index, child in reversed(list(enumerate(item))))
    return None


def require_valid_unicode(value: Any, where: str, text: str | None = None) -> None:
    """Refuse, as an InputError naming `where` and the field, a value holding a lone surrogate.

    Give `text` (the source the value was parsed from) to skip the walk when the text spells
    no surrogate escape at all: the common case costs one regular-expression search."""
    if text is not None and not may_spell_a_surrogate(text):
        return
    path = lone_surrogate_path(value)
    if path is not None:
        shown = ascii(path)[1:-1] if _SURROGATE.search(path) else path
        raise InputError(f"{where}: {shown}" if shown != "value" else where,
                         LONE_SURROGATE_RULE)


# ------------------------------------------------------------------------------- nesting


def json_depth_exceeds(text: str, limit: int = MAX_DEPTH) -> bool:
    """Whether the brackets of a JSON text, strings left out, nest deeper than `limit`.

    A text with no more than `limit` opening brackets cannot (counted at C speed); the rest
    have their strings removed and the running depth of what remains measured."""
    if text.count("[") + text.count("{") <= limit:
        return False
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, brackets)), default=0) > limit


def check_json_nesting(text: str, where: str, limit: int = MAX_DEPTH) -> None:
    """Refuse a JSON text nested deeper than `limit`, before it is parsed."""
    if json_depth_exceeds(text, limit):
        raise InputError(where, f"nested more than {limit} levels deep")


def _flow_brackets(segment: str) -> Iterator[int]:
    """+1 and -1 for each flow bracket of a YAML line segment, quoted text and comments
    left out."""
    for match in _FLOW_TOKEN.finditer(segment):
        token = match.group()
        if token in _STEP:
            yield _STEP[token]
        elif token.startswith("#"):
            return


def yaml_depth_exceeds(text: str, limit: int = MAX_DEPTH) -> int | None:
    """The line at which a YAML text nests deeper than `limit`, or None.

    Block nesting is counted as the open indentation levels plus the `- ` and `? ` markers
    that open a collection on the same line; flow nesting as open brackets (which may span
    lines). Block scalars (`|`, `>`) are text and skipped. The count may fall short of the
    parser's on unusual layouts (the parser's own bounded walk catches those), never far over
    it on real files."""
    indents: list[int] = []
    flow = base = 0
    scalar_indent: int | None = None
    for number, line in enumerate(text.split("\n"), start=1):
        content = line.lstrip(" ")
        indent = len(line) - len(content)
        if scalar_indent is not None:
            if not content.strip() or indent > scalar_indent:
                continue
            scalar_indent = None
        if not content.strip() or content.startswith("#"):
            continue
        segment = content
        if flow == 0:
            while indents and indents[-1] >= indent:
                indents.pop()
            indents.append(indent)
            opened = _MARKERS.match(content)
            markers = opened.group() if opened else ""
            segment = content[len(markers):]
            base = len(indents) + markers.count("-") + markers.count("?")
            if base > limit:
                return number
            if segment[:1] not in ("[", "{"):
                value = _FLOW_VALUE.match(segment)
                segment = segment[value.end():] if value else ""
                if _BLOCK_SCALAR.search(content):
                    scalar_indent = indent
        for step in _flow_brackets(segment):
            flow = max(0, flow + step)
            if base + flow > limit:
                return number
    return None


def check_yaml_nesting(text: str, where: str, limit: int = MAX_DEPTH) -> None:
    """Refuse a YAML text nested deeper than `limit`, before it is parsed."""
    line = yaml_depth_exceeds(text, limit)
    if line is not None:
        raise InputError(where, f"line {line}: nested more than {limit} levels deep")
