"""Canonical JSON and digests: one byte string per value, so records can be hashed and compared.

Floats are refused outright: a record must mean the same number on every machine.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

__all__ = [
    "JsonValue",
    "append_jsonl",
    "canonical_json",
    "digest",
    "read_jsonl",
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


def write_jsonl(path: Path, records: Iterable[JsonValue]) -> None:
    """Write records as canonical JSON Lines, replacing the file."""
    with path.open("wb") as handle:
        for record in records:
            handle.write(canonical_json(record) + b"\n")


def append_jsonl(path: Path, record: JsonValue) -> None:
    """Append one record to an event log; earlier lines are never rewritten."""
    with path.open("ab") as handle:
        handle.write(canonical_json(record) + b"\n")


def read_jsonl(path: Path) -> Iterator[JsonValue]:
    """Read the records of a JSON Lines file, skipping blank lines.

    A broken line raises ValueError naming the line; the caller names the file.
    """
    with path.open("rb") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                yield json.loads(line)
            except json.JSONDecodeError as error:
                raise ValueError(f"line {number} is not valid JSON ({error.msg})") from None
