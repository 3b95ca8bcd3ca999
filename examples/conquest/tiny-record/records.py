"""Canonical JSON, digests, the first difference between two records, and reading them back.

One byte string per value, so records can be hashed and compared. Floats are refused outright:
a record must mean the same number on every machine. Standard library only: season archives
ship this file beside their verifier.
"""

from __future__ import annotations

import hashlib
import json
import re
import stat
import struct
import zlib
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

__all__ = [
    "ABSENT",
    "ARCHIVE_MAGIC",
    "BYTE_ORDER_MARK",
    "BYTE_ORDER_MARK_RULE",
    "INFLATE_CHUNK",
    "JsonValue",
    "MAX_ARCHIVE_BYTES",
    "MAX_LINES",
    "MAX_LINE_BYTES",
    "MAX_MEMBERS",
    "MAX_MEMBER_BYTES",
    "MAX_NESTING",
    "MAX_RATIO",
    "QUOTED_LENGTH",
    "RATIO_FLOOR",
    "ReadRefusal",
    "as_read_back",
    "canonical_json",
    "digest",
    "first_difference",
    "json_lines",
    "lone_surrogate",
    "nested_too_deep",
    "quoted",
    "read_zip_members",
    "write_jsonl",
]

JsonValue = Any
"""A value made of dict (str keys), list/tuple, str, int, bool and None only."""


def _plain(value: JsonValue) -> bool:
    """Whether a value is built of exactly dict, list, tuple, str, int, bool and None: the
    common case, answered without spelling out where each item sits (what `_check` does to
    name a refusal, and what made it cost more than the encoding)."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return True
    if kind is dict:
        return all(type(key) is str and _plain(item) for key, item in value.items())
    if kind is list or kind is tuple:
        return all(_plain(item) for item in value)
    return False


def _check(value: JsonValue, where: str) -> None:
    """Refuse anything that has no single canonical JSON spelling."""
    if _plain(value):
        return
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


# ---------------------------------------------------------------- reading archives and lines
#
# One table of rules for every reader of a season archive: the service's upload check, the
# command line's `verify` and the bare `python3 -S verifier.py verify` shipped in the archive
# all call `read_zip_members`, so the three accept and refuse the same files. The zip is read
# here with `struct` and `zlib` rather than `zipfile`: `zipfile` trusts the directory (it
# inflates a whole member in one call before cutting it to the declared size, and it builds
# every directory entry before anyone can count them).

MAX_MEMBER_BYTES = 64 * 1024 * 1024
"""Largest size one member may declare: a real season's largest file is ~2 MB, and a
million-contribution ledger ~80 MB would take longer to replay than any verifier allows."""
MAX_ARCHIVE_BYTES = 128 * 1024 * 1024
"""Largest total of the declared sizes of all members (and of the .zip file itself)."""
MAX_MEMBERS = 48
"""Most members a season archive may list: it has about two dozen files by name."""
MAX_RATIO = 200
"""Largest declared-size : compressed-size ratio of a member above RATIO_FLOOR bytes; canonical
JSON deflates about 10:1, a zip bomb 1000:1."""
RATIO_FLOOR = 1024 * 1024
"""Members declaring less than this are not held to MAX_RATIO (a small file of one repeated
line may compress very well, and its size is harmless)."""
INFLATE_CHUNK = 64 * 1024
"""Bytes inflated per step: a member is never inflated further than this past its declared size."""
ARCHIVE_MAGIC = (b"PK\x03\x04", b"PK\x05\x06", b"\x1f\x8b", b"BZh", b"\xfd7zXZ", b"7z\xbc\xaf")
"""The openings of zip, gzip, bzip2, xz and 7z data: a member that starts so is a nested archive."""
MAX_LINE_BYTES = 1024 * 1024
"""Longest line of a JSON Lines record file (a real ledger line is ~80 bytes, a battle ~3 KB)."""
MAX_LINES = 1_000_000
"""Most lines of one JSON Lines record file (a million contributions; more cannot be replayed
within a verifier's CPU budget)."""
MAX_NESTING = 32
"""Deepest nesting of lists and objects in a record file (a real one nests at most 6 deep);
deeper values would make the recursive checks run out of stack."""
QUOTED_LENGTH = 200
"""At most this many characters of an input are quoted back in a refusal."""
BYTE_ORDER_MARK = b"\xef\xbb\xbf"
"""UTF-8's byte-order mark. Every verifier refuses a record or saved file that starts with it
(JSON forbids it, and a verifier that skipped it would accept what another refuses)."""
BYTE_ORDER_MARK_RULE = "starts with a byte-order mark (U+FEFF); save it as UTF-8 without one"
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
"""A JSON escape of a UTF-16 surrogate: the only way a strictly decoded text yields one."""

_END = struct.Struct("<4s4H2LH")
_ENTRY = struct.Struct("<4s6H3L5H2L")
_LOCAL = struct.Struct("<4s5H3L2H")
_ZIP64_MARK = (0xFFFF, 0xFFFFFFFF)
_STORED, _DEFLATED = 0, 8
_ENCRYPTED_FLAG, _UTF8_FLAG = 0x1, 0x800


class ReadRefusal(ValueError):
    """An archive, one of its members or a record file broke one of the reading rules."""

    def __init__(self, member: str, rule: str) -> None:
        super().__init__(f"{member}: {rule}")
        self.member = member
        self.rule = rule


@dataclass(frozen=True, slots=True)
class _Member:
    """One central-directory entry, as declared (nothing here is trusted yet)."""

    name: str
    flags: int
    method: int
    crc: int
    packed: int
    size: int
    offset: int


def quoted(text: str, limit: int = QUOTED_LENGTH) -> str:
    """`text` cut to `limit` characters (with "..." when cut), for quoting input in a refusal."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _name_rule(name: str) -> str | None:
    """Why a member name is refused as a path, or None: every archive is one flat folder."""
    if "\\" in name:
        return "its name holds a backslash"
    if name.startswith("/"):
        return "its name is an absolute path"
    if len(name) >= 2 and name[1] == ":" and name[0].isalpha():
        return "its name starts with a drive letter"
    if ".." in name.split("/"):
        return "its name climbs out of the folder (..)"
    return None


def _directory(data: bytes) -> list[_Member]:
    """The members the end record and central directory declare, counted before any is built."""
    at = data.rfind(b"PK\x05\x06", max(0, len(data) - _END.size - 0xFFFF))
    if at < 0 or len(data) - at < _END.size:
        raise ReadRefusal("archive", "not a readable zip archive (no end of directory)")
    _, disk, first_disk, _, count, size, start, _ = _END.unpack_from(data, at)
    if count in _ZIP64_MARK or size in _ZIP64_MARK or start in _ZIP64_MARK:
        raise ReadRefusal("archive", "zip64 archives are not season archives")
    if disk or first_disk:
        raise ReadRefusal("archive", "multi-disk archives are not season archives")
    if count > MAX_MEMBERS:
        raise ReadRefusal("archive", f"lists {count} members; at most {MAX_MEMBERS} are allowed")
    if start + size > at:
        raise ReadRefusal("archive", "not a readable zip archive (directory out of place)")
    members, cursor = [], start
    for _ in range(count):
        if cursor + _ENTRY.size > at:
            raise ReadRefusal("archive", "not a readable zip archive (directory cut short)")
        fields = _ENTRY.unpack_from(data, cursor)
        if fields[0] != b"PK\x01\x02":
            raise ReadRefusal("archive", "not a readable zip archive (directory damaged)")
        flags, method, crc, packed, size_, name_length = fields[3], fields[4], *fields[7:11]
        extra, comment, offset = fields[11], fields[12], fields[16]
        raw = data[cursor + _ENTRY.size : cursor + _ENTRY.size + name_length]
        name = raw.decode("utf-8" if flags & _UTF8_FLAG else "cp437", errors="replace")
        members.append(_Member(name, flags, method, crc, packed, size_, offset))
        cursor += _ENTRY.size + name_length + extra + comment
    return members


def _check_declared(members: list[_Member], expected: Collection[str]) -> None:
    """Every rule that the directory alone can break, member by member, in directory order."""
    seen: set[str] = set()
    total = 0
    for member in members:
        rule = _name_rule(member.name)
        if rule is None and member.name in seen:
            rule = "listed twice"
        if rule is None and member.name not in expected:
            rule = "is not a file of a season record"
        if rule is None and (member.flags & _ENCRYPTED_FLAG or member.method == 99):
            rule = "encrypted; season archives are never encrypted"
        if rule is None and member.method not in (_STORED, _DEFLATED):
            rule = f"compression method {member.method}; only stored (0) and deflate (8) are read"
        if rule is None and member.size > MAX_MEMBER_BYTES:
            rule = f"declares {member.size} bytes; at most {MAX_MEMBER_BYTES} are allowed"
        total += member.size
        if rule is None and total > MAX_ARCHIVE_BYTES:
            rule = f"brings the archive past {MAX_ARCHIVE_BYTES} bytes in all; refused"
        if rule is None and member.size > max(RATIO_FLOOR, MAX_RATIO * member.packed):
            rule = f"declares more than {MAX_RATIO} times its compressed size; refused"
        if rule is None and member.method == _STORED and member.size != member.packed:
            rule = "stored, yet its sizes differ"
        if rule is not None:
            raise ReadRefusal(quoted(member.name, 80), rule)
        seen.add(member.name)


def _inflate(member: _Member, packed: bytes) -> bytes:
    """A member's bytes, inflated a chunk at a time and stopped the moment it passes its size."""
    if member.method == _STORED:
        return packed
    inflater = zlib.decompressobj(-15)
    parts, produced, view, left_over = [], 0, memoryview(packed), False
    try:
        for start in range(0, len(packed), INFLATE_CHUNK):
            pending = bytes(view[start : start + INFLATE_CHUNK])
            full = True  # a full step may leave output inside zlib: ask again until it is not
            while (pending or full) and not inflater.eof:
                part = inflater.decompress(pending, INFLATE_CHUNK)
                produced += len(part)
                if produced > member.size:
                    raise ReadRefusal(member.name, "inflates past its declared size; refused")
                parts.append(part)
                pending, full = inflater.unconsumed_tail, len(part) == INFLATE_CHUNK
            if inflater.eof:
                left_over = start + INFLATE_CHUNK < len(packed)  # data after the stream's end
                break
        if not inflater.eof or inflater.unused_data or left_over:
            raise ReadRefusal(member.name, "damaged inside the zip archive (deflate stream)")
    except zlib.error:
        raise ReadRefusal(member.name, "damaged inside the zip archive (deflate stream)") from None
    return b"".join(parts)


def _contents(data: bytes, member: _Member) -> bytes:
    """One member's checked bytes: its local header agrees, its size and CRC-32 hold."""
    if member.offset + _LOCAL.size > len(data):
        raise ReadRefusal(member.name, "damaged inside the zip archive (no local header)")
    fields = _LOCAL.unpack_from(data, member.offset)
    name_at = member.offset + _LOCAL.size
    local_name = data[name_at : name_at + fields[9]].decode("utf-8", errors="replace")
    if fields[0] != b"PK\x03\x04" or local_name != member.name:
        raise ReadRefusal(member.name, "damaged inside the zip archive (local header disagrees)")
    start = name_at + fields[9] + fields[10]
    if start + member.packed > len(data):
        raise ReadRefusal(member.name, "damaged inside the zip archive (cut short)")
    content = _inflate(member, data[start : start + member.packed])
    if len(content) != member.size:
        raise ReadRefusal(member.name, "shorter than its declared size")
    if zlib.crc32(content) != member.crc:
        raise ReadRefusal(member.name, "its CRC-32 does not match its bytes")
    if content.startswith(ARCHIVE_MAGIC):
        raise ReadRefusal(member.name, "holds a nested archive; season archives hold none")
    return content


def read_zip_members(path: Path, expected: Collection[str]) -> dict[str, bytes]:
    """Every member of a flat .zip by name, each one of `expected`, after the archive rules.

    The directory is checked whole first (names, count, methods, encryption, declared sizes and
    ratios), then each member is inflated in bounded steps against its declared size; the first
    rule broken raises ReadRefusal naming the member and the rule.
    """
    try:
        if not stat.S_ISREG(path.stat().st_mode):
            raise ReadRefusal("archive", "not a regular file")
        if path.stat().st_size > MAX_ARCHIVE_BYTES:
            raise ReadRefusal("archive", f"larger than {MAX_ARCHIVE_BYTES} bytes; refused")
        data = path.read_bytes()
    except OSError as error:
        raise ReadRefusal("archive", f"cannot be read ({error.strerror})") from None
    members = _directory(data)
    _check_declared(members, expected)
    return {member.name: _contents(data, member) for member in members}


def json_lines(name: str, text: str) -> Iterator[tuple[int, str]]:
    """(line number, line) of each non-blank line of a JSON Lines record file, refusing a line
    over MAX_LINE_BYTES or a file of more than MAX_LINES lines (ReadRefusal naming the file).

    The lines are counted before the first is given out, and each is cut from the text only
    when its turn comes: a file of millions of tiny lines is refused without holding them."""
    if text.count("\n") >= MAX_LINES and _non_blank_lines(text) > MAX_LINES:
        raise ReadRefusal(name, f"more than {MAX_LINES} lines; refused")
    start, number = 0, 0
    while start <= len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        number += 1
        if end - start > MAX_LINE_BYTES:
            raise ReadRefusal(name, f"line {number}: longer than {MAX_LINE_BYTES} characters")
        line = text[start:end]
        start = end + 1
        if line.strip(" \t\r"):
            yield number, line


def _non_blank_lines(text: str) -> int:
    """How many lines of `text` hold more than spaces, tabs and carriage returns, counted
    without making a list of them."""
    return sum(1 for _ in _NON_BLANK_LINE.finditer(text))


_NON_BLANK_LINE = re.compile(r"^[ \t\r]*[^ \t\r\n]", re.MULTILINE)


def nested_too_deep(text: str, value: Any) -> bool:
    """True when `value` (parsed from `text`) nests lists and objects deeper than MAX_NESTING.

    Only a text with more brackets than MAX_NESTING can be that deep, so most lines (a ledger
    entry has one pair) are passed on a count made at C speed; the rest are walked, without
    recursion."""
    if text.count("[") + text.count("{") <= MAX_NESTING or not isinstance(value, dict | list):
        return False
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_NESTING:
            return True
        children = item.values() if isinstance(item, dict) else item
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def lone_surrogate(text: str, value: Any) -> str | None:
    """The first lone surrogate in the keys and strings of `value` (parsed from the JSON `text`),
    as its escape (`\\ud800`), or None. JSON may escape half of a UTF-16 pair alone; such a
    string is not Unicode text and cannot be written out again, so every verifier refuses it.

    Only a text holding a surrogate's escape can yield one, so most texts are passed on one
    search; the rest are walked in the order they were written, without recursion."""
    if not _SURROGATE_ESCAPE.search(text):
        return None
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as error:
                return f"\\u{ord(item[error.start]):04x}"
        elif isinstance(item, dict):
            for key, child in reversed(item.items()):
                stack += [child, key]
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return None
