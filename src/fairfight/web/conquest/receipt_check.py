"""A fan's receipts said in words and checked against the season log's newest signed head.

The browser makes these checks itself (static/conquest/my-contributions.js, with the proofs the
API serves and the season key from the header), so that it trusts nothing this server says;
this module is the same check made by the server, for a page opened without JavaScript, and
the proofs the API serves for the browser's check. Every verdict is one line in words naming
the receipt by its ledger entry; a file that is not a receipt is named as such, never a trace.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, Field

from fairfight.conquest.rules import tables
from fairfight.conquest.store import log
from fairfight.core import ed25519, merkle
from fairfight.core.records import canonical_json
from fairfight.web.conquest.catalog import SeasonCatalog, Snapshot
from fairfight.web.conquest.refusals import Refusal

__all__ = [
    "ConsistencyProof",
    "InclusionProof",
    "Verdict",
    "check_receipt",
    "consistency",
    "entry_words",
    "inclusion",
    "read_receipt",
]

_ENTRY_FIELDS = ("amount", "before_battle", "faction", "seq")
_RECEIPT_FIELDS = ("entry", "format", "head", "inclusion", "leaf_index")
_HEAD_FIELDS = ("root", "season", "signature", "size", "time")


class InclusionProof(BaseModel):
    """Leaf `index` is in the tree of the first `size` leaves: hashes innermost first."""

    index: int
    size: int
    proof: list[str] = Field(description="the RFC 9162 inclusion proof, hex, innermost first")


class ConsistencyProof(BaseModel):
    """The tree of `first` leaves is a prefix of the tree of `second` leaves."""

    first: int
    second: int
    proof: list[str] = Field(description="the RFC 9162 consistency proof, hex")


def inclusion(catalog: SeasonCatalog, season_id: int, index: int,
              size: int | None) -> InclusionProof:
    """The inclusion proof of leaf `index` in the tree of `size` leaves (None: the whole log),
    or a 422 naming why."""
    with catalog.read(season_id) as session:
        stored = log.size(session)
        size = stored if size is None else size
        proof = log.inclusion_proof(session, index, size)
    if proof is None:
        raise Refusal(422, "index", f"leaf {index} is not in a tree of {size} leaves (the log "
                      f"holds {stored}); need 0 <= index < size <= {stored}")
    return InclusionProof(index=index, size=size, proof=proof)


def consistency(catalog: SeasonCatalog, season_id: int, first: int,
                second: int | None) -> ConsistencyProof:
    """The consistency proof from `first` leaves to `second` (None: the whole log), or a 422
    naming why."""
    with catalog.read(season_id) as session:
        stored = log.size(session)
        second = stored if second is None else second
        proof = log.consistency_proof(session, first, second)
    if proof is None:
        raise Refusal(422, "first", f"no proof from {first} leaves to {second} (the log holds "
                      f"{stored}); need 1 <= first <= second <= {stored}")
    return ConsistencyProof(first=first, second=second, proof=proof)


def entry_words(entry: dict[str, Any], names: dict[str, str]) -> str:
    """A ledger entry as a fan says it: "$25 for Texas, counted in battle 7"."""
    faction = str(entry["faction"])
    name = names.get(faction, faction)
    return f"${entry['amount']} for {name}, counted in battle {entry['before_battle']}"


@dataclass(frozen=True, slots=True)
class Verdict:
    """One receipt checked: whether it is in the record, and the line that says so."""

    ok: bool
    words: str


class _Refused(Exception):
    """A receipt that fails a check, with the line in words that names it."""


def read_receipt(data: bytes) -> dict[str, Any]:
    """The receipt a file holds, or _Refused naming what is wrong with it."""
    try:
        value = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise _Refused("this file is not a receipt: it is not JSON") from None
    _fields("this file is not a receipt", value, _RECEIPT_FIELDS)
    if value["format"] != log.RECEIPT_FORMAT:
        raise _Refused(f"this file is not a receipt: its format is {value['format']!r}")
    _fields("this receipt's entry", value["entry"], _ENTRY_FIELDS)
    _fields("this receipt's head", value["head"], _HEAD_FIELDS)
    return dict(value)


def _fields(place: str, value: Any, fields: tuple[str, ...]) -> None:
    if not isinstance(value, dict):
        raise _Refused(f"{place}: expected a JSON object")
    missing = [name for name in fields if name not in value]
    if missing or set(value) - set(fields):
        raise _Refused(f"{place}: expected exactly the fields {', '.join(fields)}")


def _signed(head: dict[str, Any], key: str) -> bool:
    try:
        return ed25519.verify(bytes.fromhex(key), log.head_message(head),
                              bytes.fromhex(str(head["signature"])))
    except (ValueError, TypeError):
        return False


def _included(receipt: dict[str, Any]) -> bool:
    head, index = receipt["head"], receipt["leaf_index"]
    try:
        hashed = merkle.leaf_hash(canonical_json(log.contribution_leaf(receipt["entry"])))
        proof = merkle.hashes_from_hex(receipt["inclusion"])
        return merkle.verify_inclusion(hashed, index, head["size"], proof,
                                       bytes.fromhex(head["root"]))
    except (ValueError, TypeError):
        return False


def check_receipt(data: bytes, snap: Snapshot, catalog: SeasonCatalog) -> Verdict:
    """Check a receipt file against the season log's newest signed head, by this server."""
    try:
        return Verdict(True, _checked(read_receipt(data), snap, catalog))
    except _Refused as refused:
        return Verdict(False, str(refused))


def _checked(receipt: dict[str, Any], snap: Snapshot, catalog: SeasonCatalog) -> str:
    header, names = snap.summary.header, {code: snap.name_of(code) for code in snap.regions}
    key, entry = header.get(tables.LOG_KEY), receipt["entry"]
    said = entry_words(entry, names)
    seq = entry["seq"]
    if key is None:
        raise _Refused(f"your receipt for entry {seq}: this season keeps no signed log")
    if receipt["head"]["season"] != snap.summary.commitment:
        raise _Refused(f"your receipt for entry {seq} is from another season")
    if not _signed(receipt["head"], key):
        raise _Refused(f"your receipt for entry {seq}: the signature does not match the "
                       "season key")
    if not _included(receipt):
        raise _Refused(_differs(receipt, snap, catalog, names))
    newest = snap.head
    if newest is None or not _signed(newest, key):
        raise _Refused(f"your receipt for entry {seq}: the newest head is not signed by the "
                       "season key")
    first, second = receipt["head"]["size"], newest["size"]
    with catalog.read(snap.season_id) as session:
        proof = log.consistency_proof(session, first, second)
    if proof is None or not merkle.verify_consistency(
            first, second, bytes.fromhex(receipt["head"]["root"]), bytes.fromhex(newest["root"]),
            merkle.hashes_from_hex(proof)):
        raise _Refused(f"your receipt for entry {seq}: the newest head does not extend its head")
    return (f"{said}: in the record, as leaf {receipt['leaf_index']} of the season log "
            f"(checked by this server against the newest head, {second} leaves, signed by the "
            "season key)")


def _differs(receipt: dict[str, Any], snap: Snapshot, catalog: SeasonCatalog,
             names: dict[str, str]) -> str:
    """The line naming a receipt whose entry is not the log's: what the log holds instead."""
    entry = receipt["entry"]
    seq = entry["seq"]
    said = f"your receipt for entry {seq} says {entry_words(entry, names)}"
    with catalog.read(snap.season_id) as session:
        found = log.receipt(session, seq) if isinstance(seq, int) else None
    if found is None:
        return f"{said}, but the season log has no entry {seq}"
    if found["entry"] == entry:
        return f"{said}, but its proof does not lead to its head's root"
    return f"{said}, but the season log's entry {seq} is {entry_words(found['entry'], names)}"
