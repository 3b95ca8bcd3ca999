"""Generators of hostile JSON Lines records, made from a valid record by breaking it in one place.

Each case replaces one value of one line (at any depth down to MAX_PATH_DEPTH) with a value of
another type, a lone surrogate, or a list nested 10,000 deep; or turns the file into a million
and one tiny lines. `sample` picks a fixed, spread-out subset for the default run; the slow
run takes every case.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterator
from functools import partial
from typing import Any

__all__ = [
    "DEEP_TEXT",
    "HOSTILE_VALUES",
    "HostileRecord",
    "MAX_PATH_DEPTH",
    "hostile_records",
    "many_lines",
    "paths",
    "sample",
    "with_value",
]

MAX_PATH_DEPTH = 4
"""How deep inside a line values are replaced (a scenario's unit fields are at depth 4)."""
_DEEP = "__deep__"
DEEP_TEXT = "[" * 10_000 + "]" * 10_000
"""A list nested 10,000 deep, past Python's recursion limit."""
HOSTILE_VALUES: dict[str, Any] = {
    "string": "garbage", "null": None, "int": 7, "negative": -1, "huge": 10**38,
    "bool": True, "ints": [1, 2, 3], "object": {}, "words": ["clash"],
    "surrogate": "\ud800", "surrogate-key": {"\udc00": 1}, "deep": _DEEP,
}
"""Values of the wrong type or the wrong text, each put in place of a real value."""


class HostileRecord:
    """One broken record: its name (line, path, kind, and "same-type" when the new value has
    the old one's JSON type) and its bytes, written out only when a test reads them (a record
    of a thousand lines has tens of thousands of breaks, and a sample reads a dozen)."""

    __slots__ = ("_data", "_make", "name")

    def __init__(self, name: str, data: bytes | Callable[[], bytes]) -> None:
        self.name = name
        self._make = data if callable(data) else None
        self._data = data if isinstance(data, bytes) else None

    @property
    def data(self) -> bytes:
        if self._data is None:
            assert self._make is not None
            self._data = self._make()
        return self._data


def paths(value: Any, depth: int = MAX_PATH_DEPTH) -> Iterator[tuple[str | int, ...]]:
    """Every path to a value inside `value`, down to `depth` steps, parents first."""
    if depth == 0:
        return
    items = (value.items() if isinstance(value, dict)
             else enumerate(value) if isinstance(value, list) else ())
    for key, child in items:
        yield (key,)
        for rest in paths(child, depth - 1):
            yield (key, *rest)


def with_value(value: Any, path: tuple[str | int, ...], replacement: Any) -> Any:
    """A copy of `value` with the value at `path` replaced."""
    copy = json.loads(json.dumps(value))
    target = copy
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = replacement
    return copy


def _line_text(value: Any) -> str:
    """One JSON line, the deep placeholder written out as its 10,000 brackets."""
    return json.dumps(value).replace(f'"{_DEEP}"', DEEP_TEXT)


def hostile_records(lines: list[Any],
                    only: Collection[int] | None = None) -> Iterator[HostileRecord]:
    """Every one-place break of a record given as its parsed lines (of the lines numbered in
    `only`, from 1, when given; the rest stay as they are)."""
    for number, line in enumerate(lines, start=1):
        if only is not None and number not in only:
            continue
        for kind, bad in HOSTILE_VALUES.items():
            changed = [*lines[: number - 1], bad, *lines[number:]]
            yield HostileRecord(f"line {number} whole {kind}{_same(line, bad)}",
                                partial(_encode, changed))
        for path in paths(line):
            where = ".".join(str(step) for step in path)
            old = line
            for step in path:
                old = old[step]
            for kind, bad in HOSTILE_VALUES.items():
                yield HostileRecord(f"line {number} {where} {kind}{_same(old, bad)}",
                                    partial(_encode_with, lines, number, path, bad))


def _same(old: Any, new: Any) -> str:
    """" same-type" when the new value has the JSON type of the one it replaces (it may then
    be a valid value: another word in a free-text field), else nothing."""
    kinds = (bool, int, str, list, dict, type(None))
    kind = next((k for k in kinds if isinstance(old, k)), None)
    return " same-type" if kind is not None and type(new) is kind else ""


def _encode_with(lines: list[Any], number: int, path: tuple[str | int, ...], bad: Any) -> bytes:
    """The record with the value at `path` of line `number` replaced by `bad`."""
    changed = [*lines[: number - 1], with_value(lines[number - 1], path, bad), *lines[number:]]
    return _encode(changed)


def _encode(lines: list[Any]) -> bytes:
    return "".join(_line_text(line) + "\n" for line in lines).encode("utf-8")


def many_lines(first: bytes, count: int = 1_000_001) -> bytes:
    """A record's first line followed by `count` tiny lines: past the cap on lines."""
    return first.rstrip(b"\n") + b"\n" + b"{}\n" * count


def sample(cases: list[HostileRecord], size: int) -> list[HostileRecord]:
    """`size` cases spread evenly over the list (the same ones every run)."""
    if len(cases) <= size:
        return cases
    step = len(cases) / size
    return [cases[int(index * step)] for index in range(size)]
