"""Canonical JSON, digests and the first difference between two records.

One byte string per value, so records can be hashed and compared. Floats are refused outright:
a record must mean the same number on every machine. Standard library only: season archives
ship this file beside their verifier.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Final

__all__ = [
    "ABSENT",
    "JsonValue",
    "as_read_back",
    "canonical_json",
    "digest",
    "first_difference",
    "write_jsonl",
]

JsonValue = Any
"""A value made of dict (str keys), list/tuple, str, int, bool and None only."""


def _check(value: JsonValue, where: str) -> None:
    """Refuse anything that has no single canonical JSON spelling."""
    if value is None or isinstance(value, bool | str):
        return
    if isinstance(value, int):
        return
    if isinstance(value, float):
        raise TypeError(f"{where}: floats are not allowed in canonical records")
    if isinstance(value, Mapping):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"{where}: object keys must be strings, got {key!r}")
            _check(item, f"{where}.{key}")
        return
    if isinstance(value, list | tuple):
        for index, item in enumerate(value):
            _check(item, f"{where}[{index}]")
        return
    raise TypeError(f"{where}: {type(value).__name__} is not a JSON value")


def canonical_json(value: JsonValue) -> bytes:
    """UTF-8 JSON with sorted keys and no spaces; floats and non-JSON types are refused."""
    _check(value, "$")
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def digest(value: JsonValue) -> str:
    """SHA-256 of the canonical JSON bytes, lowercase hex."""
    return hashlib.sha256(canonical_json(value)).hexdigest()


def as_read_back(value: JsonValue) -> JsonValue:
    """The value as its canonical JSON reads back (tuples become lists): what a record holds."""
    return json.loads(canonical_json(value))


def write_jsonl(path: Path, records: Iterable[JsonValue]) -> None:
    """Write records as canonical JSON Lines, replacing the file."""
    with path.open("wb") as handle:
        for record in records:
            handle.write(canonical_json(record) + b"\n")


class _Absent:
    """The type of `ABSENT`: one instance, shown by name."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = _Absent()
"""Stands, in a difference, for the value of a key that one side lacks."""

_PLAIN_LEAVES = frozenset({str, int, bool, type(None)})


def _surely_equal(recorded: Any, replayed: Any) -> bool:
    """True only when `first_difference` would find nothing: same exact types, equal values.

    A quick pass for the common case (a replay that matches); False sends the caller to the
    full walk, which names the place.
    """
    kind = type(recorded)
    if kind is not type(replayed):
        return False
    if kind in _PLAIN_LEAVES:
        return bool(recorded == replayed)
    if kind is dict:
        if len(recorded) != len(replayed):
            return False
        for key, value in recorded.items():
            other = replayed.get(key, ABSENT)
            if type(value) in _PLAIN_LEAVES and type(value) is type(other):
                if value != other:
                    return False
            elif not _surely_equal(value, other):
                return False
        return True
    if kind is list:
        return len(recorded) == len(replayed) and all(
            _surely_equal(a, b) for a, b in zip(recorded, replayed, strict=True)
        )
    return False


def first_difference(recorded: Any, replayed: Any, path: str = "") -> tuple[str, Any, Any] | None:
    """The first place where two JSON values differ, as (path, recorded part, replayed part).

    The path is dotted with list indices in brackets (`events[3].winner`), keys walked in
    sorted order; `value` names the top when the two differ there. A key one side lacks gives
    `ABSENT` on that side; lists of different lengths give (`PATH length`, the two lengths)
    once their common items agree. A bool and an int never match, nor a list and a tuple:
    callers compare JSON as it reads back. None when the two are equal.
    """
    if _surely_equal(recorded, replayed):
        return None
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in sorted(set(recorded) | set(replayed)):
            where = f"{path}.{key}" if path else str(key)
            if key not in recorded or key not in replayed:
                return where, recorded.get(key, ABSENT), replayed.get(key, ABSENT)
            found = first_difference(recorded[key], replayed[key], where)
            if found:
                return found
        return None
    if isinstance(recorded, list) and isinstance(replayed, list):
        for index, (a, b) in enumerate(zip(recorded, replayed, strict=False)):
            found = first_difference(a, b, f"{path}[{index}]")
            if found:
                return found
        if len(recorded) != len(replayed):
            return f"{path} length", len(recorded), len(replayed)
        return None
    if type(recorded) is not type(replayed) or recorded != replayed:
        return path or "value", recorded, replayed
    return None
