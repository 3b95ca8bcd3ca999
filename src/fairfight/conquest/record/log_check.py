"""The season log's checks: the archive's log against its record, and what fans saved against both.

Standard library only; a season archive ships this file beside `verifier.py`, which calls
`check_log` once the replay has passed. The formats are docs/season-log.md's last section: the
log's leaves must be exactly the header, the ledger, the beacon, the history and the reveal in
an order the rules allow; every signed head (the final one, each saved head, each receipt's)
must verify under the header's `log_key` and be the root of the first `size` leaves of the
final log; each receipt's inclusion proof must lead to its head's root, and the final log's
leaf at its index must be its entry. A failure names the saved file it concerns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

if __package__:
    from fairfight.conquest.rules import tables
    from fairfight.conquest.rules.engine import Plain, ReplayMismatch, shown
    from fairfight.core import ed25519, merkle
    from fairfight.core.records import canonical_json, first_difference
else:  # a plain file in a season archive: the files lying beside it stand in for the package
    import ed25519  # type: ignore[import-not-found, no-redef, unused-ignore]
    import merkle  # type: ignore[import-not-found, no-redef, unused-ignore]
    import tables  # type: ignore[import-not-found, no-redef, unused-ignore]
    from engine import (  # type: ignore[import-not-found, no-redef, unused-ignore]
        Plain,
        ReplayMismatch,
        shown,
    )
    from records import (  # type: ignore[import-not-found, no-redef, unused-ignore]
        canonical_json,
        first_difference,
    )

__all__ = [
    "HEAD_FIELDS",
    "HEAD_SIGNING_PREFIX",
    "RECEIPT_FIELDS",
    "RECEIPT_FORMAT",
    "REFUND_FIELDS",
    "Saved",
    "check_log",
    "check_refunds",
    "head_message",
    "receipt_note",
    "saved_heads_note",
]

Saved: TypeAlias = tuple[str, Any]
"""A file a fan saved, as (its file name, its parsed JSON value)."""

_Path: TypeAlias = tuple[int, Sequence[bytes]]
"""A receipt's leaf index and inclusion proof."""

HEAD_SIGNING_PREFIX = "fairfight season head v1\n"
"""A signed head's signature covers this text (UTF-8), then the canonical JSON of the head
without its signature, so the signature can mean nothing else."""
RECEIPT_FORMAT = "fairfight-conquest-receipt-1"
"""A contribution receipt's `format` field."""
HEAD_FIELDS = ("root", "season", "signature", "size", "time")
RECEIPT_FIELDS = ("entry", "format", "head", "inclusion", "leaf_index")
REFUND_FIELDS = ("amount", "before_battle", "event_id", "faction", "field", "reason")
"""The public part of a refund owed, as `refunds.json` lists it (no payer data)."""
_ENTRY_FIELDS = ("amount", "before_battle", "faction", "seq")
_HEX = frozenset("0123456789abcdef")


def _is_hex(value: Any, digits: int) -> bool:
    return isinstance(value, str) and len(value) == digits and set(value) <= _HEX


def _is_count(value: Any, low: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def _exact_fields(place: str, value: Any, fields: Sequence[str]) -> None:
    """An object with exactly `fields`: the first unknown key, then the first missing, is named."""
    if not isinstance(value, dict):
        raise ReplayMismatch(place, f"must be a JSON object, found {shown(value)}")
    for key in sorted(value):
        if key not in fields:
            raise ReplayMismatch(place, f"field {key}: not a field it may hold")
    for key in sorted(fields):
        if key not in value:
            raise ReplayMismatch(place, f"field {key}: missing")


def head_message(head: Mapping[str, Any]) -> bytes:
    """The bytes a head's signature covers: the prefix, then the head without its signature."""
    unsigned = {key: head[key] for key in HEAD_FIELDS if key != "signature"}
    return HEAD_SIGNING_PREFIX.encode("utf-8") + canonical_json(unsigned)


class _Log:
    """The final log's tree, the season it belongs to and its key: what every head is held to."""

    def __init__(self, leaves: list[Any], key: bytes, season: str) -> None:
        self.leaves = leaves
        self.key = key
        self.season = season
        self.tree = merkle.MerkleTree.of_leaf_hashes(
            merkle.leaf_hash(canonical_json(leaf)) for leaf in leaves
        )
        self._verified: set[bytes] = set()

    def check_signed(self, place: str, head: Any) -> None:
        """A well-formed head of this season whose signature verifies under the season key."""
        _exact_fields(place, head, HEAD_FIELDS)
        if head["season"] != self.season:
            raise ReplayMismatch(
                place, "is a head of another season (its season is not the commitment of this one)"
            )
        if not _is_count(head["size"], 1) or not _is_hex(head["root"], 64):
            raise ReplayMismatch(place, "needs a size >= 1 and a root of 64 lowercase hex digits")
        if not isinstance(head["time"], str) or not _is_hex(head["signature"], 128):
            raise ReplayMismatch(place, "needs a time and a signature of 128 lowercase hex digits")
        message = head_message(head)
        signature = bytes.fromhex(head["signature"])
        if message + signature in self._verified:
            return
        if not ed25519.verify(self.key, message, signature):
            raise ReplayMismatch(place, "its signature does not verify under header.log_key")
        self._verified.add(message + signature)

    def check_prefix(self, place: str, head: Plain, path: _Path | None = None) -> None:
        """The head's root is the root of the final log's first `size` leaves; a receipt's
        inclusion `path` (its leaf index and proof) narrows down where the two logs part."""
        size = head["size"]
        if size > len(self.tree):
            raise ReplayMismatch(
                place,
                f"it signs a log of {size} leaves; the final log has only {len(self.tree)}: "
                "leaves it covers were dropped",
            )
        if self.tree.root(size).hex() != head["root"]:
            raise ReplayMismatch(
                place,
                f"its root is not the root of the final log's first {size} leaves: a leaf it "
                f"covers (leaves 0 to {size - 1}) was changed, dropped or moved afterwards"
                + (self._parting(path, size) if path else ""),
            )

    def _parting(self, path: _Path, size: int) -> str:
        """Where the first leaf that differs lies, from a receipt's inclusion path (its own leaf
        matched): the first range whose hash in the proof is not the final log's."""
        index, proof = path
        ranges = merkle.inclusion_ranges(index, size)
        parted = sorted(
            (start, end)
            for (start, end), hashed in zip(ranges, proof, strict=True)
            if self.tree.subtree_root(start, end) != hashed
        )
        if not parted:
            return ""
        start, end = parted[0]
        if end - start == 1:
            return f"; the first leaf that differs is leaf {start}"
        return f"; the first leaf that differs is one of leaves {start} to {end - 1}"

    def check_receipt(self, place: str, receipt: Any) -> None:
        """A receipt's head, its inclusion proof, and its entry at its index in the final log."""
        _exact_fields(place, receipt, RECEIPT_FIELDS)
        if receipt["format"] != RECEIPT_FORMAT:
            raise ReplayMismatch(
                place,
                f"field format: expected {shown(RECEIPT_FORMAT)}, "
                f"found {shown(receipt['format'])}",
            )
        _exact_fields(f"{place} entry", receipt["entry"], _ENTRY_FIELDS)
        index = receipt["leaf_index"]
        if not _is_count(index, 0):
            raise ReplayMismatch(
                place, f"field leaf_index: must be a whole number >= 0, found {shown(index)}"
            )
        head = receipt["head"]
        self.check_signed(f"{place} head", head)
        try:
            proof = merkle.hashes_from_hex(receipt["inclusion"])
        except ValueError:
            raise ReplayMismatch(
                place, "field inclusion: must be a list of 64-hex-digit hashes"
            ) from None
        leaf = {"kind": "contribution", "entry": receipt["entry"]}
        hashed = merkle.leaf_hash(canonical_json(leaf))
        if not merkle.verify_inclusion(
            hashed, index, head["size"], proof, bytes.fromhex(head["root"])
        ):
            raise ReplayMismatch(
                place, f"its inclusion proof does not lead from leaf {index} to its head's root"
            )
        if index >= len(self.leaves):
            raise ReplayMismatch(
                place, f"its entry is leaf {index}; the final log has only {len(self.leaves)}"
            )
        found = first_difference(leaf, self.leaves[index])
        if found:
            where, expected, logged = found
            raise ReplayMismatch(
                place,
                f"leaf {index} of the final log is not its entry: field {where}: expected "
                f"{shown(expected)}, found {shown(logged)}",
            )
        self.check_prefix(place, head, (index, proof))


def _expected_leaves(record: Mapping[str, Any]) -> dict[str, list[Plain]]:
    """The leaves the archive's record files call for, by kind, each kind in its file's order."""
    return {
        "contribution": [{"kind": "contribution", "entry": e} for e in record["ledger"]],
        "battle": [{"kind": "battle", "battle": b} for b in record["history"]],
        "beacon": [{"kind": "beacon", "beacon": record["beacon"]}] if record["beacon"] else [],
        # a seed opened from the header's timelock was never revealed: no reveal leaf
        "reveal": [] if record.get("unlocked") else [{"kind": "reveal", "seed": record["seed"]}],
    }


def _order_rule(kind: str, leaf: Plain, battles: int) -> str | None:
    """Why a leaf cannot stand after `battles` battles, or None when the rules allow it."""
    if kind == "contribution":
        due = leaf["entry"]["before_battle"]
        if due != battles + 1:
            return f"a contribution dated before battle {due} logged after {battles} battles"
    if kind == "beacon" and battles:
        return f"the beacon logged after battle {battles}; it must come before battle 1"
    return None


def _check_leaves(record: Mapping[str, Any], leaves: list[Any]) -> None:
    """The leaves are exactly the record's header, ledger, beacon, history and reveal, in an
    order the rules allow; the first leaf that is not is named."""
    if not leaves:
        raise ReplayMismatch("log.json", "holds no leaves; leaf 0 must be the header")
    header_leaf = {"kind": "header", "header": record["header"]}
    wanted = _expected_leaves(record)
    taken = dict.fromkeys(wanted, 0)
    battles = 0
    for index, leaf in enumerate(leaves):
        place = f"log.json leaf {index}"
        kind = leaf.get("kind") if isinstance(leaf, dict) else None
        if index == 0 or kind == "header":
            expected = header_leaf if index == 0 else None
        elif taken["reveal"]:
            raise ReplayMismatch(place, "comes after the reveal, which must be the last leaf")
        elif isinstance(kind, str) and kind in wanted and taken[kind] < len(wanted[kind]):
            expected = wanted[kind][taken[kind]]
            taken[kind] += 1
        else:
            raise ReplayMismatch(
                place, f"a leaf of kind {shown(kind)} that the archive's record files do not hold"
            )
        if expected is None:
            raise ReplayMismatch(place, "a second header; only leaf 0 is the header")
        found = first_difference(expected, leaf)
        if found:
            where, was, logged = found
            raise ReplayMismatch.of_field(place, where, was, logged)
        rule = _order_rule(str(kind), leaf, battles)
        if rule:
            raise ReplayMismatch(place, rule)
        battles += kind == "battle"
    for kind, items in wanted.items():
        if taken[kind] < len(items):
            raise ReplayMismatch(
                "log.json", f"leaf {shown(items[taken[kind]])} of the record is not in the log"
            )


def check_refunds(refunds: Any) -> list[str]:
    """`refunds.json`: a list of refunds owed, each exactly the public fields, well typed."""
    if not isinstance(refunds, list):
        raise ReplayMismatch("refunds.json", "must be a JSON list of refunds owed")
    for number, refund in enumerate(refunds):
        place = f"refunds.json[{number}]"
        _exact_fields(place, refund, REFUND_FIELDS)
        texts = ("event_id", "faction", "field", "reason")
        if not all(isinstance(refund[key], str) for key in texts):
            raise ReplayMismatch(place, "event_id, faction, field and reason must be text")
        if not _is_count(refund["amount"], 1) or not _is_count(refund["before_battle"], 1):
            raise ReplayMismatch(place, "amount and before_battle must be whole numbers >= 1")
    return [f"{len(refunds)} refunds owed listed (public part); not leaves of the log"]


def check_log(
    record: Mapping[str, Any], receipts: Sequence[Saved] = (), heads: Sequence[Saved] = ()
) -> list[str]:
    """Check the season log and every saved receipt and head; ReplayMismatch names the first
    failure (a saved file by its name). Returns notes for the viewer."""
    header, log = record["header"], record.get("log")
    notes = check_refunds(record["refunds"]) if record.get("refunds") is not None else []
    if tables.LOG_KEY not in header:
        if log is not None:
            raise ReplayMismatch("log.json", "present, but the header names no log_key")
        for kind, saved in (("receipt", receipts), ("head", heads)):
            for name, _ in saved:
                raise ReplayMismatch(
                    f"{kind} {name}",
                    "refused: this season has no log (its header names no log_key), so no "
                    "receipt or head can be checked against it",
                )
        return notes
    key = bytes.fromhex(header[tables.LOG_KEY])
    if not ed25519.valid_public_key(key):
        raise ReplayMismatch(
            "header",
            f"field {tables.LOG_KEY}: not a usable Ed25519 public key (not a curve "
            "point, or one of small order)",
        )
    if log is None:
        raise ReplayMismatch("log.json", "missing from the record: the header names a log_key")
    _exact_fields("log.json", log, ("head", "leaves"))
    if not isinstance(log["leaves"], list):
        raise ReplayMismatch("log.json", "field leaves: must be a list")
    _check_leaves(record, log["leaves"])
    checked = _Log(log["leaves"], key, record["commitment"])
    final = log["head"]
    checked.check_signed("log.json head", final)
    if final["size"] != len(log["leaves"]):
        raise ReplayMismatch.of_field("log.json head", "size", len(log["leaves"]), final["size"])
    checked.check_prefix("log.json head", final)
    for name, head in heads:
        checked.check_signed(f"head {name}", head)
        checked.check_prefix(f"head {name}", head)
    for name, receipt in receipts:
        checked.check_receipt(f"receipt {name}", receipt)
    size = len(log["leaves"])
    notes.append(
        f"season log: {size} leaves, exactly the header, ledger, beacon, history and reveal in "
        "an allowed order; the final head is signed under header.log_key and covers them all"
    )
    names = {str(r.get("code")): str(r.get("name")) for r in record["map"]["regions"]}
    notes += [receipt_note(name, receipt["entry"], names) for name, receipt in receipts]
    if heads:
        notes.append(saved_heads_note(len(heads)))
    return notes


def receipt_note(name: str, entry: Mapping[str, Any], names: Mapping[str, str]) -> str:
    """A checked receipt in the words a fan thinks in: what they gave, to whom, in which
    ledger entry (engine.js says the same)."""
    faction = str(entry["faction"])
    return (f"{name}: your ${entry['amount']} for {names.get(faction, faction)} "
            f"({faction}, entry {entry['seq']}, counted in battle {entry['before_battle']}) "
            "is in the record: its head is signed by the season key and its entry sits at its "
            "place in the final log")


def saved_heads_note(count: int) -> str:
    """What was checked of the saved heads, with the right plural (engine.js says the same)."""
    if count == 1:
        return "1 saved head: signed by the season key and a prefix of the final log"
    return (f"{count} saved heads: each signed by the season key and each a prefix of the "
            "final log")
