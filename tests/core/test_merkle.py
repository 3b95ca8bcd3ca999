"""The season log's Merkle tree against RFC 9162's definitions, with every hash composed here."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from fairfight.core import merkle

SIZES = range(1, 21)


def sha256(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


def leaf(data: bytes) -> bytes:
    return sha256(b"\x00" + data)


def node(left: bytes, right: bytes) -> bytes:
    return sha256(b"\x01" + left + right)


def leaves(count: int) -> list[bytes]:
    return [f"entry {number}".encode() for number in range(count)]


def largest_power_below(size: int) -> int:
    power = 1
    while power * 2 < size:
        power *= 2
    return power


def reference_root(data: list[bytes]) -> bytes:
    """MTH as RFC 9162 section 2.1.1 writes it, on the list itself."""
    if not data:
        return sha256(b"")
    if len(data) == 1:
        return leaf(data[0])
    split = largest_power_below(len(data))
    return node(reference_root(data[:split]), reference_root(data[split:]))


def reference_path(index: int, data: list[bytes]) -> list[bytes]:
    """PATH(m, D[n]) of section 2.1.3.1, on the list itself."""
    if len(data) == 1:
        return []
    split = largest_power_below(len(data))
    if index < split:
        return [*reference_path(index, data[:split]), reference_root(data[split:])]
    return [*reference_path(index - split, data[split:]), reference_root(data[:split])]


def reference_subproof(old: int, data: list[bytes], complete: bool) -> list[bytes]:
    """SUBPROOF(m, D[n], b) of section 2.1.4.1, on the list itself."""
    if old == len(data):
        return [] if complete else [reference_root(data)]
    split = largest_power_below(len(data))
    if old <= split:
        return [*reference_subproof(old, data[:split], complete), reference_root(data[split:])]
    return [*reference_subproof(old - split, data[split:], False), reference_root(data[:split])]


def flipped(hashed: bytes) -> bytes:
    return bytes([hashed[0] ^ 1]) + hashed[1:]


def test_an_empty_tree_has_the_hash_of_nothing() -> None:
    empty = bytes.fromhex("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    assert empty == merkle.EMPTY_ROOT
    assert merkle.tree_hash([]) == empty
    assert merkle.MerkleTree().root() == empty


def test_small_trees_by_hand() -> None:
    d = leaves(8)
    a, b, c, e, f, g, h, i = (leaf(entry) for entry in d)
    four = node(node(a, b), node(c, e))
    by_hand = {
        1: a,
        2: node(a, b),
        3: node(node(a, b), c),
        4: four,
        5: node(four, f),
        6: node(four, node(f, g)),
        7: node(four, node(node(f, g), h)),
        8: node(four, node(node(f, g), node(h, i))),
    }
    tree = merkle.MerkleTree.of_leaves(d)
    for size, root in by_hand.items():
        assert merkle.tree_hash(d[:size]) == root, size
        assert tree.root(size) == root, size


def test_leaf_and_node_hashes_carry_their_prefixes() -> None:
    assert merkle.leaf_hash(b"x") == sha256(b"\x00x")
    assert merkle.node_hash(b"L" * 32, b"R" * 32) == sha256(b"\x01" + b"L" * 32 + b"R" * 32)


def test_the_seven_leaf_example_of_rfc_9162_section_2_1_5() -> None:
    """The RFC's worked example: leaves d0..d6; a..f are the leaf hashes of d0..d5, j that of
    d6, g, h, i the nodes above a..f, k and l the two halves of the root."""
    a, b, c, d, e, f, j = (leaf(entry) for entry in leaves(7))
    g, h, i = node(a, b), node(c, d), node(e, f)
    k, l_half = node(g, h), node(i, j)
    tree = merkle.MerkleTree.of_leaves(leaves(7))
    assert tree.root() == node(k, l_half)
    assert tree.inclusion_proof(0) == [b, h, l_half]
    assert tree.inclusion_proof(3) == [c, g, l_half]
    assert tree.inclusion_proof(4) == [f, j, k]
    assert tree.inclusion_proof(6) == [i, k]
    assert tree.consistency_proof(3) == [c, d, g, l_half]
    assert tree.consistency_proof(4) == [l_half]
    assert tree.consistency_proof(6) == [i, j, k]


def test_roots_and_proofs_match_the_rfc_recursions() -> None:
    everything = leaves(20)
    tree = merkle.MerkleTree.of_leaves(everything)
    for size in range(21):
        data = everything[:size]
        assert tree.root(size) == reference_root(data)
        for index in range(size):
            assert tree.inclusion_proof(index, size) == reference_path(index, data)
        for old in range(1, size + 1):
            assert tree.consistency_proof(old, size) == reference_subproof(old, data, True)


@pytest.mark.parametrize("size", SIZES)
def test_every_inclusion_proof_verifies_and_any_change_fails(size: int) -> None:
    data = leaves(size)
    tree = merkle.MerkleTree.of_leaves(data)
    root = tree.root()
    for index in range(size):
        hashed = merkle.leaf_hash(data[index])
        proof = tree.inclusion_proof(index)
        assert merkle.verify_inclusion(hashed, index, size, proof, root)
        for position in range(len(proof)):
            altered = [*proof[:position], flipped(proof[position]), *proof[position + 1 :]]
            assert not merkle.verify_inclusion(hashed, index, size, altered, root)
        for other in range(size + 1):
            if other != index:
                assert not merkle.verify_inclusion(hashed, other, size, proof, root)
        # A tree too small to hold the leaf; other sizes whose path has the same shape pass,
        # which is why a head signs its size together with its root.
        assert not merkle.verify_inclusion(hashed, index, index, proof, root)
        assert not merkle.verify_inclusion(flipped(hashed), index, size, proof, root)
        assert not merkle.verify_inclusion(hashed, index, size, proof, flipped(root))
        assert not merkle.verify_inclusion(hashed, index, size, [*proof, root], root)
        if proof:
            assert not merkle.verify_inclusion(hashed, index, size, proof[:-1], root)


@pytest.mark.parametrize("size", SIZES)
def test_every_consistency_proof_verifies_and_any_change_fails(size: int) -> None:
    tree = merkle.MerkleTree.of_leaves(leaves(size))
    root = tree.root()
    for old in range(1, size + 1):
        old_root = tree.root(old)
        proof = tree.consistency_proof(old)
        assert merkle.verify_consistency(old, size, old_root, root, proof)
        for position in range(len(proof)):
            altered = [*proof[:position], flipped(proof[position]), *proof[position + 1 :]]
            assert not merkle.verify_consistency(old, size, old_root, root, altered)
        assert not merkle.verify_consistency(old, size, flipped(old_root), root, proof)
        assert not merkle.verify_consistency(old, size, old_root, flipped(root), proof)
        for other_old in range(size + 2):
            if other_old != old:
                assert not merkle.verify_consistency(other_old, size, old_root, root, proof)
        assert not merkle.verify_consistency(old, size, old_root, root, [*proof, root])
        if proof:
            assert not merkle.verify_consistency(old, size, old_root, root, proof[:-1])


def test_a_changed_leaf_breaks_consistency_with_every_later_head() -> None:
    """What the season log is for: rewrite leaf 5 of 12 and no proof ties the new tree to the
    heads published after leaf 5, while the heads before it still agree."""
    honest = merkle.MerkleTree.of_leaves(leaves(12))
    forged_leaves = leaves(12)
    forged_leaves[5] = b"entry 5, amount changed"
    forged = merkle.MerkleTree.of_leaves(forged_leaves)
    for old in range(1, 13):
        proof = forged.consistency_proof(old)
        agrees = merkle.verify_consistency(old, 12, honest.root(old), forged.root(), proof)
        assert agrees == (old <= 5), old


def test_malformed_arguments_give_false() -> None:
    tree = merkle.MerkleTree.of_leaves(leaves(5))
    proof, root, hashed = tree.inclusion_proof(2), tree.root(), tree.leaf_hash(2)
    assert not merkle.verify_inclusion(hashed, -1, 5, proof, root)
    assert not merkle.verify_inclusion(hashed, True, 5, proof, root)
    assert not merkle.verify_inclusion(hashed[:31], 2, 5, proof, root)
    assert not merkle.verify_inclusion(hashed, 2, 5, [proof[0][:31], *proof[1:]], root)
    assert not merkle.verify_consistency(2, 5, tree.root(2), root, [b"short"])
    assert not merkle.verify_consistency(0, 5, merkle.EMPTY_ROOT, root, [])
    assert not merkle.verify_consistency(3, 5, tree.root(3), root, [])


def test_proof_requests_outside_the_tree_raise() -> None:
    tree = merkle.MerkleTree.of_leaves(leaves(4))
    with pytest.raises(ValueError):
        tree.inclusion_proof(4)
    with pytest.raises(ValueError):
        tree.inclusion_proof(0, size=5)
    with pytest.raises(ValueError):
        tree.consistency_proof(0)
    with pytest.raises(ValueError):
        tree.consistency_proof(3, size=2)
    with pytest.raises(ValueError):
        tree.append_leaf_hash(b"not a hash")


def test_a_tree_rebuilt_from_leaf_hashes_is_the_same_tree() -> None:
    tree = merkle.MerkleTree.of_leaves(leaves(13))
    copy = merkle.MerkleTree.of_leaf_hashes(tree.leaf_hash(index) for index in range(13))
    assert len(copy) == 13
    assert copy.root() == tree.root()
    assert copy.consistency_proof(5) == tree.consistency_proof(5)


def test_hex_form_round_trips_and_refuses_other_spellings() -> None:
    proof = merkle.MerkleTree.of_leaves(leaves(6)).inclusion_proof(1)
    text = merkle.hashes_to_hex(proof)
    assert all(len(value) == 64 and value == value.lower() for value in text)
    assert merkle.hashes_from_hex(text) == proof
    for bad in ("nope", [text[0].upper()], [text[0][:-2]], [text[0] + "00"], [7], ["zz" * 32]):
        with pytest.raises(ValueError):
            merkle.hashes_from_hex(bad)


def test_the_three_leaf_vector_worked_out_with_sha256sum() -> None:
    """Hashes computed with coreutils (tests/core/golden/merkle_three_leaves.json names how)."""
    golden = json.loads((Path(__file__).parent / "golden" / "merkle_three_leaves.json").read_text())
    tree = merkle.MerkleTree.of_leaves(text.encode() for text in golden["leaves"])
    assert [tree.leaf_hash(index).hex() for index in range(3)] == golden["leaf_hashes"]
    assert tree.root(2).hex() == golden["root_of_2"]
    assert tree.root().hex() == golden["root_of_3"]
    assert merkle.hashes_to_hex(tree.inclusion_proof(2)) == golden["inclusion_of_leaf_2_in_3"]
    assert merkle.hashes_to_hex(tree.inclusion_proof(0)) == golden["inclusion_of_leaf_0_in_3"]
    assert merkle.hashes_to_hex(tree.consistency_proof(2)) == golden["consistency_of_2_with_3"]
    root, old_root = bytes.fromhex(golden["root_of_3"]), bytes.fromhex(golden["root_of_2"])
    proof = merkle.hashes_from_hex(golden["consistency_of_2_with_3"])
    assert merkle.verify_consistency(2, 3, old_root, root, proof)


def test_the_module_runs_alone_under_a_bare_python(tmp_path: Path) -> None:
    """Copied out of the package, as an archive ships it, and run with `python -S`."""
    shutil.copy(merkle.__file__, tmp_path / "merkle.py")
    check = "import merkle; print(merkle.tree_hash([b'first', b'second', b'third']).hex())"
    run = subprocess.run(
        [sys.executable, "-S", "-c", check],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    golden = json.loads((Path(__file__).parent / "golden" / "merkle_three_leaves.json").read_text())
    assert run.stdout.strip() == golden["root_of_3"]
