"""The JavaScript season-log checks (seasonlog.js, run by Node) give Python's answer on every
proof of trees up to 20 leaves and on signatures valid, corrupted and malformed."""

from __future__ import annotations

import json
import random
import subprocess
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from fairfight.core import ed25519, merkle
from tests.core.test_ed25519 import FIELD_PRIME, GOLDEN, SMALL_ORDER_POINTS, encoding
from tests.system import CHROMIUM_ARGS, chromium_path, node_path

SEASONLOG_JS = Path(__file__).parents[2] / "src" / "fairfight" / "core" / "seasonlog.js"
LARGEST = 20

# Answers every case with seasonlog.js's functions; Node and the browser run the same text.
ANSWER_ALL = r"""
async (log, cases) => {
  const hex = (value) => (typeof value === "string" ? log.bytesFromHex(value) : value);
  const answers = { inclusion: [], consistency: [], roots: [], signatures: [], keys: [] };
  for (const c of cases.inclusion) {
    const proof = c.proof.map(hex);
    answers.inclusion.push(
      await log.verifyInclusion(hex(c.leaf_hash), c.index, c.size, proof, hex(c.root)),
    );
  }
  for (const c of cases.consistency) {
    const proof = c.proof.map(hex);
    answers.consistency.push(
      await log.verifyConsistency(c.old_size, c.size, hex(c.old_root), hex(c.root), proof),
    );
  }
  for (const c of cases.roots) {
    answers.roots.push(log.hexOf(await log.treeHash(log.hashesFromHex(c.leaf_hashes))));
  }
  for (const c of cases.signatures) {
    answers.signatures.push(
      await log.verifyEd25519(hex(c.public_key), hex(c.message), hex(c.signature)),
    );
  }
  for (const key of cases.keys) answers.keys.push(log.validPublicKey(hex(key)));
  return answers;
}
"""

NODE_DRIVER = f"""
const cases = JSON.parse(require("node:fs").readFileSync(0, "utf8"));
({ANSWER_ALL})(require(process.argv[1]), cases).then(
  (answers) => process.stdout.write(JSON.stringify(answers)),
);
"""

# Where no Ed25519 check is possible, a genuine signature must be an error, never false.
UNCHECKABLE = r"""
async (c) => {
  const log = self.FairfightSeasonLog;
  const hex = log.bytesFromHex;
  try {
    return String(await log.verifyEd25519(hex(c.public_key), hex(c.message), hex(c.signature)));
  } catch (error) {
    return error.message;
  }
}
"""

Case = dict[str, Any]


def flip(hashed: bytes) -> bytes:
    """The hash with the top bit of its last byte turned over."""
    return hashed[:-1] + bytes([hashed[-1] ^ 0x80])


def variants(proof: list[bytes]) -> list[list[bytes]]:
    """The proof itself, each hash of it altered, one dropped, one added, and one too short."""
    altered = [[*proof[:at], flip(proof[at]), *proof[at + 1 :]] for at in range(len(proof))]
    shorter = [proof[:-1]] if proof else []
    broken = [[*proof[:-1], proof[-1][:31]]] if proof else []
    return [proof, *altered, *shorter, [*proof, bytes(32)], *broken]


def inclusion_cases(tree: merkle.MerkleTree) -> list[Case]:
    cases = []
    for size in range(1, LARGEST + 1):
        root = tree.root(size)
        for index in range(size):
            hashed = tree.leaf_hash(index)
            proof = tree.inclusion_proof(index, size)
            for candidate in variants(proof):
                cases.append(case_of(hashed, index, size, candidate, root))
            for other_index in {index - 1, index + 1, size, -1}:
                cases.append(case_of(hashed, other_index, size, proof, root))
            cases.append(case_of(flip(hashed), index, size, proof, root))
            cases.append(case_of(hashed, index, size, proof, flip(root)))
            cases.append(case_of(hashed, index, size + 1, proof, root))
    return cases


def case_of(hashed: bytes, index: int, size: int, proof: list[bytes], root: bytes) -> Case:
    return {
        "leaf_hash": hashed.hex(),
        "index": index,
        "size": size,
        "proof": [step.hex() for step in proof],
        "root": root.hex(),
        "expected": merkle.verify_inclusion(hashed, index, size, proof, root),
    }


def consistency_cases(tree: merkle.MerkleTree) -> list[Case]:
    cases = []

    def add(old: int, size: int, old_root: bytes, root: bytes, proof: list[bytes]) -> None:
        expected = merkle.verify_consistency(old, size, old_root, root, proof)
        cases.append(
            {
                "old_size": old,
                "size": size,
                "old_root": old_root.hex(),
                "root": root.hex(),
                "proof": [step.hex() for step in proof],
                "expected": expected,
            }
        )

    for size in range(1, LARGEST + 1):
        root = tree.root(size)
        for old in range(1, size + 1):
            old_root, proof = tree.root(old), tree.consistency_proof(old, size)
            for candidate in variants(proof):
                add(old, size, old_root, root, candidate)
            for other_old in {old - 1, old + 1, 0}:
                add(other_old, size, old_root, root, proof)
            add(old, size + 1, old_root, root, proof)
            add(old, size, flip(old_root), root, proof)
            add(old, size, old_root, flip(root), proof)
    return cases


def raw_key(private: Ed25519PrivateKey) -> bytes:
    return private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


def signature_cases() -> list[Case]:
    chooser = random.Random(21)
    triples: list[tuple[bytes, bytes, bytes]] = []
    for vector in json.loads(GOLDEN.read_text())["vectors"]:
        public_key, message, signature = (
            bytes.fromhex(vector[name]) for name in ("public_key", "message", "signature")
        )
        triples.append((public_key, message, signature))
    keys = [Ed25519PrivateKey.from_private_bytes(chooser.randbytes(32)) for _ in range(10)]
    for number in range(300):
        private = keys[number % len(keys)]
        message = chooser.randbytes(chooser.randrange(0, 200))
        triples.append((raw_key(private), message, private.sign(message)))
    for public_key, message, signature in triples[5:305]:
        flipped = bytearray(signature)
        flipped[chooser.randrange(64)] ^= 1 << chooser.randrange(8)
        triples.append((public_key, message, bytes(flipped)))
        triples.append((public_key, message + b"!", signature))
    public_key, message, signature = triples[5]
    s = int.from_bytes(signature[32:], "little")
    identity_forgery = encoding(1) + bytes(32)
    triples += [
        (public_key, message, signature[:32] + (s + ed25519.GROUP_ORDER).to_bytes(32, "little")),
        (public_key, message, signature[:63]),
        (public_key[:31], message, signature),
        (encoding(2), message, signature),
        (public_key, message, encoding(2) + signature[32:]),
        (encoding(FIELD_PRIME + 1), message, identity_forgery),
        (encoding(1, sign=1), message, identity_forgery),
        (encoding(1), message, identity_forgery),  # the RFC's verify accepts this: both do
    ]
    return [
        {
            "public_key": key.hex(),
            "message": text.hex(),
            "signature": signed.hex(),
            "expected": ed25519.verify(key, text, signed),
        }
        for key, text, signed in triples
    ]


def key_cases() -> list[Case]:
    chooser = random.Random(2)
    keys = [bytes.fromhex(point) for point in SMALL_ORDER_POINTS]
    keys += [encoding(2), encoding(FIELD_PRIME + 1), encoding(1, sign=1), b"\x01" * 31]
    keys += [
        raw_key(Ed25519PrivateKey.from_private_bytes(chooser.randbytes(32))) for _ in range(20)
    ]
    keys += [chooser.randbytes(32) for _ in range(20)]  # about half of them are points
    return [{"key": key.hex(), "expected": ed25519.valid_public_key(key)} for key in keys]


@cache
def all_cases() -> dict[str, list[Case]]:
    """Every case with Python's answer."""
    tree = merkle.MerkleTree.of_leaves(f"leaf {number}".encode() for number in range(LARGEST))
    cases = {
        "inclusion": inclusion_cases(tree),
        "consistency": consistency_cases(tree),
        "roots": [
            {
                "leaf_hashes": [tree.leaf_hash(index).hex() for index in range(size)],
                "expected": tree.root(size).hex(),
            }
            for size in range(LARGEST + 1)
        ],
        "signatures": signature_cases(),
        "keys": key_cases(),
    }
    return cases


def payload() -> dict[str, list[Any]]:
    """The cases as the JavaScript reads them (keys as bare hex strings)."""
    cases = all_cases()
    sent: dict[str, list[Any]] = {name: cases[name] for name in cases if name != "keys"}
    sent["keys"] = [case["key"] for case in cases["keys"]]
    return sent


@cache
def node_answers() -> dict[str, list[Any]]:
    run = subprocess.run(
        [node_path(), "-e", NODE_DRIVER, str(SEASONLOG_JS)],
        input=json.dumps(payload()),
        capture_output=True,
        text=True,
        check=True,
    )
    answers: dict[str, list[Any]] = json.loads(run.stdout)
    return answers


def disagreements(answers: dict[str, list[Any]], name: str) -> list[Case]:
    """The cases (at most three) where the JavaScript's answer is not Python's."""
    cases = all_cases()[name]
    assert len(answers[name]) == len(cases)
    paired = zip(cases, answers[name], strict=True)
    return [case for case, answer in paired if case["expected"] != answer][:3]


def count_expected(name: str, predicate: Callable[[Any], bool]) -> int:
    return sum(1 for case in all_cases()[name] if predicate(case["expected"]))


@pytest.mark.parametrize("name", ["inclusion", "consistency", "roots", "signatures", "keys"])
def test_javascript_in_node_gives_pythons_answer(name: str) -> None:
    assert disagreements(node_answers(), name) == []


def test_javascript_in_a_browser_gives_pythons_answer() -> None:
    """The same cases in Chromium, through Web Crypto (which needs a secure context: the page
    is served as http://localhost by Playwright itself, with no server)."""
    playwright = pytest.importorskip("playwright.sync_api")
    executable = chromium_path()
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.route(
                "http://localhost/**",
                lambda route: route.fulfill(
                    status=200, content_type="text/html", body="<!doctype html><title>log</title>"
                ),
            )
            page.goto("http://localhost/")
            page.add_script_tag(content=SEASONLOG_JS.read_text())
            answers = page.evaluate(
                f"(cases) => ({ANSWER_ALL})(self.FairfightSeasonLog, cases)", payload()
            )
            insecure = browser.new_page()  # about:blank: no secure context, no Web Crypto
            insecure.add_script_tag(content=SEASONLOG_JS.read_text())
            refusal = insecure.evaluate(UNCHECKABLE, signature_cases()[0])
        finally:
            browser.close()
    for name in ("inclusion", "consistency", "roots", "signatures", "keys"):
        assert disagreements(answers, name) == [], name
    assert "Web Crypto is missing here" in refusal


def test_the_cases_hold_passes_and_refusals_alike() -> None:
    """Agreement means something only if both answers occur in numbers."""
    for name in ("inclusion", "consistency", "signatures", "keys"):
        assert count_expected(name, lambda expected: expected is True) >= 20, name
        assert count_expected(name, lambda expected: expected is False) >= 20, name
    proofs = sum(range(1, LARGEST + 1))
    assert count_expected("inclusion", lambda expected: expected is True) >= proofs
    assert count_expected("consistency", lambda expected: expected is True) >= proofs
    assert count_expected("signatures", lambda expected: expected is True) == 5 + 300 + 1
