"""The season log, service side: its leaves, the signed heads and the receipts [docs/season-log.md].

Everything the show makes public is appended as a leaf, in the transaction that makes it
public: the header when the season is made, each accepted contribution (a batch of them in
one append), each aired battle, the beacon record and the reveal. After each append the
season key signs a head `{season, size, root, time}`; leaves and heads are rows of the season's
database (`rows.LogLeafRow`, `rows.LogHeadRow`), so any process may append: the append runs
under the season's write lock, so two writers never sign two trees of the same size.

The tree's hashes are kept in memory per season between appends (`_Trees`), checked against
the latest stored head before each use and rebuilt from the stored leaf hashes when another
writer or a rolled-back transaction changed the log. A season without `log_key` (made by an
older release) has no log: every call here then does nothing and returns nothing.
"""

from __future__ import annotations

import enum
import functools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from sqlalchemy import func, insert, select
from sqlalchemy.orm import Session

from fairfight.conquest.rules import tables
from fairfight.conquest.store import season_events
from fairfight.conquest.store.rows import (
    DAMAGED,
    LogHeadRow,
    LogLeafRow,
    SeasonRow,
    has_table,
    load_column,
    season_of,
    table_of,
)
from fairfight.core import merkle
from fairfight.core.errors import InputError
from fairfight.core.records import canonical_json

__all__ = [
    "Appended",
    "HEADS_PAGE_LIMIT",
    "HEAD_MESSAGE_PREFIX",
    "LeafKind",
    "RECEIPT_FORMAT",
    "SIGNER_INFO_KEY",
    "Signer",
    "append",
    "battle_head",
    "battle_leaf",
    "beacon_leaf",
    "consistency_proof",
    "contribution_leaf",
    "head_covering",
    "head_message",
    "header_leaf",
    "heads",
    "inclusion_proof",
    "kept",
    "latest_head",
    "leaf_count_by_kind",
    "leaf_hashes",
    "leaves",
    "log_key",
    "log_record",
    "receipt",
    "reveal_leaf",
    "size",
]

HEAD_MESSAGE_PREFIX = b"fairfight season head v1\n"
"""What a head's signature covers comes behind these bytes, so it can mean nothing else."""
RECEIPT_FORMAT = "fairfight-conquest-receipt-1"
SIGNER_INFO_KEY = "fairfight.season_signer"
"""Where a writing transaction of the store holds the season key's loader (never a reader's)."""
HEADS_PAGE_LIMIT = 500
"""The most heads one page of `heads` returns."""

Signer = Callable[[], Ed25519PrivateKey]
"""Loads the season's private key (kept apart like the seed; see `season_keys`)."""


class LeafKind(enum.StrEnum):
    """What a leaf of the season log records."""

    HEADER = "header"
    """The season header, leaf 0, appended when the season is made."""
    CONTRIBUTION = "contribution"
    """An accepted contribution's ledger entry, appended in the transaction that accepts it."""
    BEACON = "beacon"
    """The recorded beacon value, appended when it is recorded (before battle 1)."""
    BATTLE = "battle"
    """A history entry, appended in the transaction that airs the battle."""
    REVEAL = "reveal"
    """The revealed seed (hex): the last leaf."""


def header_leaf(header: dict[str, Any]) -> dict[str, Any]:
    """Leaf 0: the header exactly as `header.json` holds it."""
    return {"kind": LeafKind.HEADER.value, "header": header}


def contribution_leaf(entry: dict[str, Any]) -> dict[str, Any]:
    """An accepted contribution: its ledger entry exactly as `ledger.json` holds it."""
    return {"kind": LeafKind.CONTRIBUTION.value, "entry": entry}


def beacon_leaf(beacon: dict[str, Any]) -> dict[str, Any]:
    """The beacon record exactly as the archive holds it."""
    return {"kind": LeafKind.BEACON.value, "beacon": beacon}


def battle_leaf(entry: dict[str, Any]) -> dict[str, Any]:
    """An aired battle: its history entry exactly as `history.json` holds it."""
    return {"kind": LeafKind.BATTLE.value, "battle": entry}


def reveal_leaf(seed: str) -> dict[str, Any]:
    """The reveal: the seed, hex."""
    return {"kind": LeafKind.REVEAL.value, "seed": seed}


def head_message(head: dict[str, Any]) -> bytes:
    """The bytes a head's signature covers: the prefix and the head without its signature."""
    unsigned = {name: head[name] for name in ("season", "size", "root", "time")}
    return HEAD_MESSAGE_PREFIX + canonical_json(unsigned)


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class _Trees:
    """Each season's tree between appends, by commitment; used only under the season's write
    lock, and trusted only when its root is the latest stored head's. When another process
    has appended since, only the leaves it added are read (the tree grows to the stored size
    and must then have the head's root); anything else rebuilds it from every stored leaf."""

    def __init__(self) -> None:
        self._trees: dict[str, merkle.MerkleTree] = {}
        self._lock = threading.Lock()

    def checked(self, session: Session, season: str) -> merkle.MerkleTree:
        with self._lock:
            tree = self._trees.get(season)
        head = _latest_row(session, table_known=True)
        stored = 0 if head is None else head.size
        if tree is not None and len(tree) < stored:  # another process appended since
            for hashed in leaf_hashes(session, len(tree)):
                tree.append_leaf_hash(hashed)
        if tree is None or len(tree) != stored or (
                head is not None and tree.root().hex() != head.root):
            tree = merkle.MerkleTree.of_leaf_hashes(leaf_hashes(session))
            if len(tree) != stored or (head is not None and tree.root().hex() != head.root):
                raise InputError(DAMAGED, "log_head: the latest head is not the stored leaves' "
                                 "tree")
            with self._lock:
                self._trees[season] = tree
        return tree


_TREES = _Trees()
_SEASON_KEY = "fairfight.log_season"
"""Where a transaction keeps its season's commitment and log key (neither ever changes)."""


def _latest_row(session: Session, *, table_known: bool = False) -> LogHeadRow | None:
    if not table_known and not has_table(session.connection(), LogHeadRow.__tablename__):
        return None
    query = select(LogHeadRow).where(LogHeadRow.season_id == season_of(session))
    return session.scalars(query.order_by(LogHeadRow.size.desc()).limit(1)).first()


def _season(session: Session) -> tuple[str, str | None]:
    """(the commitment, the header's log_key or None), read once per transaction and only
    those two columns: a batch asks twice, and the season row also holds the whole map."""
    known: tuple[str, str | None] | None = session.info.get(_SEASON_KEY)
    if known is not None:
        return known
    query = select(SeasonRow.commitment, SeasonRow.header).where(
        SeasonRow.id == season_of(session))
    row = session.execute(query).first()
    if row is None:
        raise InputError(DAMAGED, "season: the season row is missing")
    known = (row.commitment, _log_key_of(row.header))
    session.info[_SEASON_KEY] = known
    return known


@functools.lru_cache(maxsize=16)
def _log_key_of(header_text: str) -> str | None:
    """The header's `log_key`, parsed once per header text: a header never changes, and every
    batch of contributions asks (the header is kilobytes of JSON)."""
    header = load_column("season.header", header_text)
    key = header.get(tables.LOG_KEY) if isinstance(header, dict) else None
    return key if isinstance(key, str) else None


@dataclass(frozen=True, slots=True)
class Appended:
    """One append: the signed head after it, the index of its first leaf, and the tree."""

    head: dict[str, Any]
    first: int
    tree: merkle.MerkleTree

    def receipt(self, index: int, entry: dict[str, Any]) -> dict[str, Any]:
        """The receipt of the contribution at leaf `index`, under this append's head."""
        proof = self.tree.inclusion_proof(index, self.head["size"])
        return {"format": RECEIPT_FORMAT, "entry": entry, "leaf_index": index,
                "head": self.head, "inclusion": merkle.hashes_to_hex(proof)}


def _ref(leaf: dict[str, Any]) -> int | None:
    """What a leaf is looked up by: a contribution's seq, a battle's number."""
    if leaf["kind"] == LeafKind.CONTRIBUTION:
        return int(leaf["entry"]["seq"])
    if leaf["kind"] == LeafKind.BATTLE:
        return int(leaf["battle"]["number"])
    return None


def _position(session: Session, kind: LeafKind, ref: int) -> LogLeafRow | None:
    if not has_table(session.connection(), LogLeafRow.__tablename__):
        return None
    query = select(LogLeafRow).where(LogLeafRow.season_id == season_of(session),
                                     LogLeafRow.kind == kind.value, LogLeafRow.ref == ref)
    return session.scalars(query).first()


def append(session: Session, new_leaves: Sequence[dict[str, Any]]) -> Appended | None:
    """Append leaves in order and sign one head over them, inside the caller's write
    transaction; None for a season without a log (or nothing to append)."""
    season, log_key = _season(session)
    if log_key is None or not new_leaves:
        return None
    signer: Signer | None = session.info.get(SIGNER_INFO_KEY)
    if signer is None:
        raise InputError("season key", "this transaction cannot sign the season log")
    key = signer()
    if key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex() != log_key:
        raise InputError("season key", "the stored key is not the header's log_key")
    tree = _TREES.checked(session, season)
    first = len(tree)
    season_id = season_of(session)
    rows: list[dict[str, Any]] = []
    for leaf in new_leaves:
        data = canonical_json(leaf)
        position = tree.append(data)
        rows.append({"season_id": season_id, "position": position, "kind": leaf["kind"],
                     "leaf": data.decode("utf-8"), "leaf_hash": tree.leaf_hash(position).hex(),
                     "ref": _ref(leaf)})
    session.execute(insert(table_of(LogLeafRow)), rows)  # one INSERT, no ORM object per leaf
    head = {"season": season, "size": len(tree), "root": tree.root().hex(), "time": _now()}
    head["signature"] = key.sign(head_message(head)).hex()
    session.execute(insert(table_of(LogHeadRow)).values(
        season_id=season_id, size=head["size"], root=head["root"], time=head["time"],
        signature=head["signature"]))
    season_events.announce(session, season_events.EventKind.HEAD, head)
    return Appended(head, first, tree)


def kept(session: Session) -> bool:
    """Whether the transaction's season keeps a log (its header names a `log_key`)."""
    return _season(session)[1] is not None


def log_key(session: Session) -> str | None:
    """The header's `log_key` (64 hex), or None for a season without a log."""
    return _season(session)[1]


def size(session: Session) -> int:
    """How many leaves the log holds (0 without a log)."""
    head = _latest_row(session)
    return 0 if head is None else head.size


def latest_head(session: Session) -> dict[str, Any] | None:
    """The latest signed head, or None without a log."""
    head = _latest_row(session)
    return None if head is None else head.public(_season(session)[0])


def heads(session: Session, after: int = 0, limit: int = HEADS_PAGE_LIMIT) -> list[dict[str, Any]]:
    """Signed heads by size, those covering more than `after` leaves, at most `limit`."""
    if not has_table(session.connection(), LogHeadRow.__tablename__):
        return []
    season = _season(session)[0]
    query = (select(LogHeadRow)
             .where(LogHeadRow.season_id == season_of(session), LogHeadRow.size > after)
             .order_by(LogHeadRow.size).limit(max(0, min(limit, HEADS_PAGE_LIMIT))))
    return [row.public(season) for row in session.scalars(query)]


def head_covering(session: Session, position: int) -> dict[str, Any] | None:
    """The first signed head that covers leaf `position` (the one published with it)."""
    if not has_table(session.connection(), LogHeadRow.__tablename__):
        return None
    query = (select(LogHeadRow)
             .where(LogHeadRow.season_id == season_of(session), LogHeadRow.size > position)
             .order_by(LogHeadRow.size).limit(1))
    row = session.scalars(query).first()
    return None if row is None else row.public(_season(session)[0])


def leaves(session: Session) -> list[dict[str, Any]]:
    """Every leaf in order (empty without a log)."""
    if not has_table(session.connection(), LogLeafRow.__tablename__):
        return []
    query = select(LogLeafRow.leaf).where(LogLeafRow.season_id == season_of(session))
    return [load_column(f"log_leaf ({number})", text) for number, text in
            enumerate(session.scalars(query.order_by(LogLeafRow.position)))]


def log_record(session: Session) -> dict[str, Any] | None:
    """What the archive's `log.json` holds: every leaf and the final signed head."""
    head = latest_head(session)
    return None if head is None else {"leaves": leaves(session), "head": head}


def receipt(session: Session, seq: int) -> dict[str, Any] | None:
    """The receipt of ledger entry `seq`, under the head published with it: the same receipt
    its contribution was answered with. None when the entry has no leaf (no log, or no entry)."""
    row = _position(session, LeafKind.CONTRIBUTION, seq)
    if row is None:
        return None
    head = head_covering(session, row.position)
    if head is None:
        raise InputError(DAMAGED, f"log_head: no head covers leaf {row.position}")
    tree = merkle.MerkleTree.of_leaf_hashes(leaf_hashes(session, 0, head["size"]))
    entry = load_column(f"log_leaf ({row.position})", row.leaf)["entry"]
    return Appended(head, row.position, tree).receipt(row.position, entry)


def battle_head(session: Session, number: int) -> dict[str, Any] | None:
    """The signed head published with battle `number` (None without a log)."""
    row = _position(session, LeafKind.BATTLE, number)
    return None if row is None else head_covering(session, row.position)


def leaf_count_by_kind(session: Session) -> dict[str, int]:
    """How many leaves of each kind (for the console and tests)."""
    if not has_table(session.connection(), LogLeafRow.__tablename__):
        return {}
    query = (select(LogLeafRow.kind, func.count()).where(LogLeafRow.season_id == season_of(session))
             .group_by(LogLeafRow.kind))
    return {str(kind): int(count) for kind, count in session.execute(query)}


def leaf_hashes(session: Session, start: int = 0, end: int | None = None) -> list[bytes]:
    """The stored leaf hashes at positions `start .. end-1` (to the last leaf when `end` is
    None), in order, so a caller that keeps a tree grows it by the new leaves instead of
    reading the whole log again."""
    query = select(LogLeafRow.leaf_hash).where(
        LogLeafRow.season_id == season_of(session), LogLeafRow.position >= start)
    if end is not None:
        query = query.where(LogLeafRow.position < end)
    return [bytes.fromhex(value)
            for value in session.scalars(query.order_by(LogLeafRow.position))]


def _tree_of(session: Session, tree_size: int) -> merkle.MerkleTree | None:
    """The tree of the first `tree_size` stored leaves, or None when the log holds fewer."""
    if tree_size > size(session):
        return None
    return merkle.MerkleTree.of_leaf_hashes(leaf_hashes(session, 0, tree_size))


def inclusion_proof(session: Session, index: int, tree_size: int) -> list[str] | None:
    """The proof that leaf `index` is in the tree of the first `tree_size` leaves, so a fan can
    carry a receipt forward to a newer head; None unless 0 <= index < tree_size <= size."""
    tree = _tree_of(session, tree_size) if 0 <= index < tree_size else None
    return None if tree is None else merkle.hashes_to_hex(tree.inclusion_proof(index, tree_size))


def consistency_proof(session: Session, old_size: int, tree_size: int) -> list[str] | None:
    """The proof that the tree of `old_size` leaves is a prefix of the tree of `tree_size`
    (a receipt's head and a newer one); None unless 1 <= old_size <= tree_size <= size."""
    tree = _tree_of(session, tree_size) if 1 <= old_size <= tree_size else None
    return None if tree is None else merkle.hashes_to_hex(
        tree.consistency_proof(old_size, tree_size))
