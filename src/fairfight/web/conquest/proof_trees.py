"""Each season's Merkle tree kept in memory, grown by new leaves only, for the proofs sent to
witnesses.

A consistency proof built from the store reads every leaf hash of the log and hashes the whole
tree again: a cost that grows with the season and was paid once per checkpoint and witness.
The log is append-only, so the tree kept here is grown by the leaves stored since it was last
asked for; a proof then costs O(log^2 n) hashes. Before it is used the kept tree's root is
compared with the signed head's: a log replaced under the service (a restored copy) is read
again from its first leaf, never answered from a tree of another log.
"""

from __future__ import annotations

import threading

from sqlalchemy.orm import Session

from fairfight.conquest.store import log
from fairfight.core import merkle

__all__ = ["ProofTrees"]


class ProofTrees:
    """Merkle trees by season, shared by every witness lane of one process."""

    def __init__(self) -> None:
        self._trees: dict[int, merkle.MerkleTree] = {}
        self._lock = threading.Lock()

    def consistency_proof(self, session: Session, season_id: int, old_size: int,
                          head: dict[str, object]) -> list[bytes]:
        """The proof that the first `old_size` leaves are a prefix of the log of the signed
        `head` (read in `session`, the season's own transaction); empty from size 0."""
        size = int(str(head["size"]))
        with self._lock:
            tree = self._grown(session, season_id, size)
            if tree.root(size).hex() != head["root"]:  # another log than the kept tree's
                tree = merkle.MerkleTree.of_leaf_hashes(log.leaf_hashes(session, 0, size))
                self._trees[season_id] = tree
            return [] if old_size == 0 else tree.consistency_proof(old_size, size)

    def _grown(self, session: Session, season_id: int, size: int) -> merkle.MerkleTree:
        """The kept tree with every stored leaf up to `size` (a new tree when it holds more
        leaves than the log: the log was replaced by a shorter one)."""
        tree = self._trees.get(season_id)
        if tree is None or len(tree) > size:
            tree = self._trees[season_id] = merkle.MerkleTree()
        for hashed in log.leaf_hashes(session, len(tree), size):
            tree.append_leaf_hash(hashed)
        return tree
