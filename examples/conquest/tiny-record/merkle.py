"""The Merkle tree of Certificate Transparency (RFC 9162 section 2.1), standard library only.

The season log appends every public fact as a leaf; a head names the root of the first `size`
leaves. An inclusion proof shows that one leaf is in the tree under a root; a consistency proof
shows that an older root covers a prefix of the leaves under a newer one, so nothing seen before
was changed or removed. The archive ships this file next to its verifier, so nothing here
imports the rest of the package.

Sizes and indices count leaves from 0. A proof is a list of 32-byte hashes, innermost first, in
the order RFC 9162 builds them; `hashes_to_hex` and `hashes_from_hex` give their JSON form, a
list of lowercase hex strings.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence

__all__ = [
    "EMPTY_ROOT",
    "HASH_BYTES",
    "LEAF_PREFIX",
    "MerkleTree",
    "NODE_PREFIX",
    "hashes_from_hex",
    "hashes_to_hex",
    "inclusion_ranges",
    "leaf_hash",
    "node_hash",
    "tree_hash",
    "verify_consistency",
    "verify_inclusion",
]

HASH_BYTES = 32
LEAF_PREFIX = b"\x00"
"""Prefixed to a leaf's bytes before hashing, so no leaf can pass for an inner node."""
NODE_PREFIX = b"\x01"
"""Prefixed to the two child hashes of an inner node (RFC 9162 section 2.1.1)."""
EMPTY_ROOT = hashlib.sha256(b"").digest()
"""The root of a tree with no leaves: SHA-256 of the empty string."""

_HEX_DIGITS = frozenset("0123456789abcdef")


def leaf_hash(leaf: bytes) -> bytes:
    """SHA-256(0x00 || leaf): the hash a leaf enters the tree as."""
    return hashlib.sha256(LEAF_PREFIX + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """SHA-256(0x01 || left || right): the hash of an inner node."""
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def _split(size: int) -> int:
    """The largest power of two smaller than `size` (at least 2): where MTH splits the leaves."""
    return 1 << ((size - 1).bit_length() - 1)


class MerkleTree:
    """An append-only tree that keeps the hash of every complete subtree, so that appending a
    leaf costs O(1) hashes on average and any root or proof, for the current size or any
    earlier one, O(log^2 n) hashes."""

    def __init__(self) -> None:
        self._levels: list[list[bytes]] = [[]]

    @classmethod
    def of_leaves(cls, leaves: Iterable[bytes]) -> MerkleTree:
        """The tree of these leaves (raw bytes), in order."""
        return cls.of_leaf_hashes(leaf_hash(leaf) for leaf in leaves)

    @classmethod
    def of_leaf_hashes(cls, hashes: Iterable[bytes]) -> MerkleTree:
        """The tree of leaves already hashed with `leaf_hash` (as a store may keep them)."""
        tree = cls()
        for hashed in hashes:
            tree.append_leaf_hash(hashed)
        return tree

    def __len__(self) -> int:
        return len(self._levels[0])

    def append(self, leaf: bytes) -> int:
        """Add a leaf at the end; returns its index."""
        return self.append_leaf_hash(leaf_hash(leaf))

    def append_leaf_hash(self, hashed: bytes) -> int:
        """Add a leaf given its `leaf_hash`; returns its index."""
        if len(hashed) != HASH_BYTES:
            raise ValueError(f"a leaf hash is {HASH_BYTES} bytes, not {len(hashed)}")
        levels = self._levels
        levels[0].append(bytes(hashed))
        level = 0
        while len(levels[level]) % 2 == 0:
            if level + 1 == len(levels):
                levels.append([])
            levels[level + 1].append(node_hash(levels[level][-2], levels[level][-1]))
            level += 1
        return len(levels[0]) - 1

    def leaf_hash(self, index: int) -> bytes:
        """The hash of leaf `index`."""
        return self._levels[0][index]

    def _size(self, size: int | None) -> int:
        if size is None:
            return len(self)
        if not 0 <= size <= len(self):
            raise ValueError(f"size {size} is outside 0..{len(self)}")
        return size

    def _subtree(self, start: int, end: int) -> bytes:
        """MTH of leaves start..end-1, where `start` is a multiple of a power of two at least
        `end - start` (true of every range the RFC's recursions visit)."""
        size = end - start
        if size & (size - 1) == 0:
            height = size.bit_length() - 1
            return self._levels[height][start >> height]
        half = _split(size)
        return node_hash(self._subtree(start, start + half), self._subtree(start + half, end))

    def subtree_root(self, start: int, end: int) -> bytes:
        """MTH of leaves `start .. end-1`: the hash an inclusion proof names for that range
        (see `inclusion_ranges`); ValueError unless `0 <= start < end <= len(self)`."""
        if not 0 <= start < end <= len(self):
            raise ValueError(f"no leaves {start} to {end - 1} in a tree of {len(self)}")
        return self._subtree(start, end)

    def root(self, size: int | None = None) -> bytes:
        """MTH of the first `size` leaves (all of them by default) [RFC 9162 2.1.1]."""
        size = self._size(size)
        return EMPTY_ROOT if size == 0 else self._subtree(0, size)

    def inclusion_proof(self, index: int, size: int | None = None) -> list[bytes]:
        """PATH(index, D[0:size]): the hashes that lead from leaf `index` to the root of the
        first `size` leaves [RFC 9162 2.1.3.1]."""
        size = self._size(size)
        if not 0 <= index < size:
            raise ValueError(f"leaf {index} is not in a tree of {size} leaves")
        return self._path(index, 0, size)

    def _path(self, index: int, start: int, end: int) -> list[bytes]:
        if end - start == 1:
            return []
        middle = start + _split(end - start)
        if index < middle:
            return [*self._path(index, start, middle), self._subtree(middle, end)]
        return [*self._path(index, middle, end), self._subtree(start, middle)]

    def consistency_proof(self, old_size: int, size: int | None = None) -> list[bytes]:
        """PROOF(old_size, D[0:size]): the hashes that show the first `old_size` leaves are a
        prefix of the first `size` [RFC 9162 2.1.4.1]; empty when the sizes are equal."""
        size = self._size(size)
        if not 0 < old_size <= size:
            raise ValueError(f"old size {old_size} is outside 1..{size}")
        return self._subproof(old_size, 0, size, complete=True)

    def _subproof(self, old_size: int, start: int, end: int, complete: bool) -> list[bytes]:
        if old_size == end - start:
            return [] if complete else [self._subtree(start, end)]
        middle = start + _split(end - start)
        if old_size <= middle - start:
            return [*self._subproof(old_size, start, middle, complete), self._subtree(middle, end)]
        older = self._subproof(old_size - (middle - start), middle, end, complete=False)
        return [*older, self._subtree(start, middle)]


def inclusion_ranges(index: int, size: int) -> list[tuple[int, int]]:
    """The leaf ranges `(start, end)` whose roots make up the inclusion proof of leaf `index` in
    a tree of `size` leaves, innermost first, as the proof lists them: comparing each hash of a
    proof with the same range of another tree tells where the two trees part."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size}")
    ranges: list[tuple[int, int]] = []
    start, end = 0, size
    while end - start > 1:
        middle = start + _split(end - start)
        if index < middle:
            ranges.append((middle, end))
            end = middle
        else:
            ranges.append((start, middle))
            start = middle
    return ranges[::-1]


def tree_hash(leaves: Iterable[bytes]) -> bytes:
    """MTH of these leaves (raw bytes): the root a head names."""
    return MerkleTree.of_leaves(leaves).root()


def _is_hash(value: object) -> bool:
    return isinstance(value, bytes) and len(value) == HASH_BYTES


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _climb(node: int, last: int, start: bytes, path: Sequence[bytes]) -> tuple[bytes, bytes] | None:
    """The walk both checks of RFC 9162 share (2.1.3.2 step 4, 2.1.4.2 step 6): from `node`,
    in a tree whose last leaf is `last`, fold the path's hashes into `start`. Returns the hash
    built from the hashes that join on the left only (the older tree's root, in a consistency
    proof) and the hash built from all of them; None unless the path ends exactly at the root."""
    left_only = everything = start
    for step in path:
        if last == 0:
            return None
        if node & 1 or node == last:
            left_only = node_hash(step, left_only)
            everything = node_hash(step, everything)
            while not node & 1 and node != 0:
                node >>= 1
                last >>= 1
        else:
            everything = node_hash(everything, step)
        node >>= 1
        last >>= 1
    return (left_only, everything) if last == 0 else None


def verify_inclusion(
    hashed_leaf: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes
) -> bool:
    """Whether `proof` shows the leaf with hash `hashed_leaf` at `index` in the tree of `size`
    leaves whose root is `root` [RFC 9162 2.1.3.2]. Malformed arguments give False."""
    if not (_is_count(index) and _is_count(size) and _is_hash(hashed_leaf) and _is_hash(root)):
        return False
    if index >= size or not all(_is_hash(step) for step in proof):
        return False
    climbed = _climb(index, size - 1, hashed_leaf, proof)
    return climbed is not None and climbed[1] == root


def verify_consistency(
    old_size: int, size: int, old_root: bytes, root: bytes, proof: Sequence[bytes]
) -> bool:
    """Whether `proof` shows the tree of `old_size` leaves with root `old_root` is a prefix of
    the tree of `size` leaves with root `root` [RFC 9162 2.1.4.2]. Equal sizes take an empty
    proof and equal roots; an old size of 0 is refused, as the RFC defines proofs from 1 on."""
    if not (_is_count(old_size) and _is_count(size) and _is_hash(old_root) and _is_hash(root)):
        return False
    if not 0 < old_size <= size or not all(_is_hash(step) for step in proof):
        return False
    if old_size == size:
        return not proof and old_root == root
    if not proof:
        return False
    path = list(proof)
    if old_size & (old_size - 1) == 0:
        path.insert(0, old_root)  # the old tree is one complete subtree: its root starts
    node, last = old_size - 1, size - 1
    while node & 1:
        node >>= 1
        last >>= 1
    climbed = _climb(node, last, path[0], path[1:])
    return climbed is not None and climbed == (old_root, root)


def hashes_to_hex(hashes: Iterable[bytes]) -> list[str]:
    """A proof (or any list of hashes) in its JSON form: lowercase hex strings."""
    return [hashed.hex() for hashed in hashes]


def hashes_from_hex(values: object) -> list[bytes]:
    """A proof read back from JSON; ValueError unless `values` is a list of 64-digit lowercase
    hex strings (one spelling per hash, so two files can be compared byte for byte)."""
    if not isinstance(values, list):
        raise ValueError("a proof is a list of hex strings")
    hashes = []
    for position, value in enumerate(values):
        if not (
            isinstance(value, str) and len(value) == 2 * HASH_BYTES and set(value) <= _HEX_DIGITS
        ):
            raise ValueError(f"proof[{position}] is not 64 lowercase hex digits")
        hashes.append(bytes.fromhex(value))
    return hashes
