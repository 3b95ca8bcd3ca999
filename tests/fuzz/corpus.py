"""The generated corpus of hostile files the fuzz suite feeds to every file-reading command.

Each kind writes one bad file (or puts something that is not a file) at a given path. The
kinds are generic (they break any reader) or built from a valid file of the command, so a
reader is also fed a real document broken in one place.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

Maker = Callable[[Path, bytes], None]
"""make(path, valid_bytes): put one kind of bad input at `path`."""


def _write(data: bytes) -> Maker:
    return lambda path, _valid: path.write_bytes(data)


def _from_valid(change: Callable[[bytes], bytes]) -> Maker:
    return lambda path, valid: path.write_bytes(change(valid))


def _folder(path: Path, _valid: bytes) -> None:
    path.mkdir()


def _fifo(path: Path, _valid: bytes) -> None:
    os.mkfifo(path)


def _loop(path: Path, _valid: bytes) -> None:
    path.symlink_to(path)


def _dangling(path: Path, _valid: bytes) -> None:
    path.symlink_to(path.parent / "nowhere")


def _sparse_huge(path: Path, _valid: bytes) -> None:
    with path.open("wb") as handle:  # 2 GB that takes no disk: over every cap
        handle.truncate(2 * 1024 * 1024 * 1024)


def _truncate(valid: bytes) -> bytes:
    return valid[: max(1, len(valid) // 2)]


def _first_int_to(replacement: bytes) -> Maker:
    """Replace the first integer value of a JSON or YAML document."""

    def change(valid: bytes) -> bytes:
        match = re.search(rb"(?m)^(?!\s*#)[^\n#]*?[:\[,] ?(\d+)\b", valid)
        if match is None:
            return valid + b"\n" + replacement
        return valid[: match.start(1)] + replacement + valid[match.end(1):]

    return _from_valid(change)


LAUGHS = b"\n".join(
    [b'a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    + [f"a{i}: &a{i} [".encode() + b",".join([f"*a{i - 1}".encode()] * 9) + b"]"
       for i in range(1, 10)]
) + b"\n"

KINDS: dict[str, Maker] = {
    "empty": _write(b""),
    "whitespace": _write(b" \n\t\n"),
    "not-utf8": _write(b'{"a": "\xff\xfe\xfa"}\n'),
    "nul-bytes": _write(b"\x00" * 64),
    "deep-json": _write(b"[" * 100_000 + b"]" * 100_000),
    "deep-yaml": _write(b"a: " + b"[" * 500 + b"]" * 500 + b"\n"),
    "deep-object": _write(b'{"a":' * 2000 + b"1" + b"}" * 2000),
    "huge-integer": _first_int_to(b"9" * 5000),
    "fraction-for-integer": _first_int_to(b"8e6"),
    "nan": _first_int_to(b"NaN"),
    "boolean-for-integer": _first_int_to(b"true"),
    "duplicate-key": _from_valid(lambda v: b'{"a": 1, "a": 2}' if v.lstrip()[:1] == b"{"
                                 else b"a: 1\na: 2\n"),
    "billion-laughs": _write(LAUGHS),
    "truncated": _from_valid(_truncate),
    "wrong-top-type": _write(b"[1, 2, 3]\n"),
    "string-top": _write(b'"just a string"\n'),
    "binary-garbage": _write(bytes(range(256)) * 8),
    "folder": _folder,
    "named-pipe": _fifo,
    "symlink-loop": _loop,
    "dangling-symlink": _dangling,
    "over-size-cap": _sparse_huge,
}
"""Twenty-two kinds of bad input."""
