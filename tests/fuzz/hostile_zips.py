"""Hostile zip archives, written byte by byte, one for each rule of `records.read_zip_members`.

The zips are assembled here with `struct` and `zlib` (not with `zipfile`, which would refuse to
write most of them), so each can lie in exactly one way: a size, a flag, a method, a name. Each
case names the member and the words of the rule the three verifiers must all give.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

from fairfight.core import records

__all__ = ["CASES", "Case", "Entry", "deflated", "lying_bomb", "raw_zip", "the_lying_archive"]


@dataclass(frozen=True)
class Entry:
    """One member as it is written: its bytes and every field a liar might change."""

    name: str
    content: bytes
    method: int = 8
    flags: int = 0
    declared: int | None = None
    """The uncompressed size the headers state (default: the true size)."""
    packed: bytes | None = None
    """The member's data as stored (default: `content` deflated, or as is when stored)."""
    packed_size: int | None = None
    """The compressed size the headers state (default: the true one)."""
    crc: int | None = None


def deflated(content: bytes) -> bytes:
    """Raw deflate (no zlib header), as a zip stores it."""
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return packer.compress(content) + packer.flush()


def raw_zip(entries: list[Entry]) -> bytes:
    """A zip of the entries in order: local headers and data, central directory, end record."""
    body, directory = b"", b""
    for entry in entries:
        packed = entry.packed if entry.packed is not None else (
            deflated(entry.content) if entry.method == 8 else entry.content)
        crc = zlib.crc32(entry.content) if entry.crc is None else entry.crc
        size = len(entry.content) if entry.declared is None else entry.declared
        packed_size = len(packed) if entry.packed_size is None else entry.packed_size
        name = entry.name.encode("utf-8")
        flags = entry.flags | 0x800
        local = struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, flags, entry.method, 0, 33,
                            crc, packed_size, size, len(name), 0)
        directory += struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, flags, entry.method,
                                 0, 33, crc, packed_size, size, len(name), 0, 0, 0, 0,
                                 0o644 << 16, len(body)) + name
        body += local + name + packed
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(entries), len(entries),
                      len(directory), len(body), 0)
    return body + directory + end


def lying_bomb(inflated: int, declared: int = 1000) -> Entry:
    """`history.jsonl` holding `inflated` zero bytes, deflated, its headers stating `declared`."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk, parts = bytes(1 << 20), []
    for _ in range(inflated >> 20):
        parts.append(packer.compress(chunk))
    parts.append(packer.flush())
    return Entry("history.jsonl", b"", declared=declared, packed=b"".join(parts),
                 crc=0)


@dataclass(frozen=True)
class Case:
    """A hostile archive built from a good archive's files, and the refusal it must get."""

    build: Callable[[Mapping[str, bytes]], bytes]
    member: str
    words: str


def _good(files: Mapping[str, bytes]) -> list[Entry]:
    return [Entry(name, files[name]) for name in sorted(files)]


def _changed(name: str, **fields: object) -> Callable[[Mapping[str, bytes]], bytes]:
    """The good archive with the member `name` written with other fields."""
    def build(files: Mapping[str, bytes]) -> bytes:
        return raw_zip([replace(e, **fields) if e.name == name else e  # type: ignore[arg-type]
                        for e in _good(files)])
    return build


def _added(*extra: Entry) -> Callable[[Mapping[str, bytes]], bytes]:
    def build(files: Mapping[str, bytes]) -> bytes:
        return raw_zip([*_good(files), *extra])
    return build


def _renamed(name: str) -> Callable[[Mapping[str, bytes]], bytes]:
    """The good archive with `header.json` stored under another name."""
    def build(files: Mapping[str, bytes]) -> bytes:
        return raw_zip([replace(e, name=name) if e.name == "header.json" else e
                        for e in _good(files)])
    return build


def the_lying_archive(files: Mapping[str, bytes], inflated: int) -> bytes:
    """The good archive with `history.jsonl` replaced by `inflated` zero bytes whose headers
    state 1,000 (the lying zip: small on disk, enormous once inflated)."""
    return raw_zip([lying_bomb(inflated) if e.name == "history.jsonl" else e
                    for e in _good(files)])


def _many(files: Mapping[str, bytes]) -> bytes:
    return raw_zip([Entry("header.json", files["header.json"])] * (records.MAX_MEMBERS + 1))


def _over_total(files: Mapping[str, bytes]) -> bytes:
    """Three members each under the member cap, together over the total; ratio kept low."""
    size = records.MAX_MEMBER_BYTES
    big = {"history.jsonl", "ledger.jsonl", "map.json"}
    return raw_zip([replace(e, declared=size, packed_size=size // 10) if e.name in big else e
                    for e in _good(files)])


_NESTED = raw_zip([Entry("inner.txt", b"x" * 100)])
CASES: dict[str, Case] = {
    "declared size over the cap": Case(
        _changed("history.jsonl", declared=records.MAX_MEMBER_BYTES + 1), "history.jsonl",
        f"declares {records.MAX_MEMBER_BYTES + 1} bytes"),
    "inflates past its declared size": Case(
        lambda files: the_lying_archive(files, 4 << 20), "history.jsonl",
        "inflates past its declared size"),
    "total over the cap": Case(_over_total, "ledger.jsonl", "in all; refused"),
    "compression ratio over the cap": Case(
        _changed("history.jsonl", declared=4 * records.RATIO_FLOOR, packed_size=100),
        "history.jsonl", f"more than {records.MAX_RATIO} times"),
    "encrypted member": Case(_changed("map.json", flags=1), "map.json", "encrypted"),
    "unknown method": Case(_changed("map.json", method=12), "map.json",
                           "compression method 12"),
    "nested archive": Case(_changed("map.json", content=_NESTED), "map.json",
                           "nested archive"),
    "duplicate name": Case(_added(Entry("seed.txt", b"x\n")), "seed.txt", "listed twice"),
    "name with ..": Case(_renamed("../header.json"), "../header.json", "climbs out"),
    "absolute name": Case(_renamed("/header.json"), "/header.json", "absolute path"),
    "backslash in name": Case(_renamed("sub\\header.json"), "sub\\header.json", "backslash"),
    "drive letter": Case(_renamed("C:header.json"), "C:header.json", "drive letter"),
    "too many members": Case(_many, "archive", f"at most {records.MAX_MEMBERS}"),
    "unexpected member": Case(_added(Entry("evil.sh", b"rm -rf /\n")), "evil.sh",
                              "not a file of a season record"),
    "corrupt deflate stream": Case(
        _changed("map.json", packed=b"\xff" * 64), "map.json", "deflate stream"),
    "data after the deflate stream": Case(
        lambda files: raw_zip([replace(e, packed=deflated(e.content) + b"junk")
                               if e.name == "map.json" else e for e in _good(files)]),
        "map.json", "deflate stream"),
    "wrong CRC-32": Case(_changed("map.json", crc=1), "map.json", "CRC-32"),
    "shorter than declared": Case(
        _changed("ledger.jsonl", declared=10**6, packed_size=None), "ledger.jsonl",
        "shorter than its declared size"),
    "stored with unequal sizes": Case(
        _changed("seed.txt", method=0, packed_size=3), "seed.txt", "sizes differ"),
    "not a zip": Case(lambda files: files["map.json"], "archive", "not a readable zip"),
}
"""Every refusal kind: how to build it from a good archive's files, the member, the rule."""

