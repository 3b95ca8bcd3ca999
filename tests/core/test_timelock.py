"""Timelock encryption against drand's published vector, tlock-js both ways, and a network of
our own whose rounds a test can sign."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from fairfight.core import timelock
from fairfight.core.age_file import armor, unarmor
from fairfight.core.errors import InputError, VerificationError
from fairfight.core.timelock import QUICKNET, Network
from tests.core.timelock_network import QUICKNET_VECTOR, FakeDrand
from tests.system import node_path, require

pytest.importorskip("py_arkworks_bls12381")

TLOCK_JS = Path(__file__).resolve().parents[2] / "node_modules" / "tlock-js" / "index.js"
SIGNATURE = bytes.fromhex(QUICKNET_VECTOR["signature"])
ROUND = QUICKNET_VECTOR["round"]


def test_drands_published_quicknet_vector_opens() -> None:
    assert timelock.decrypt(QUICKNET_VECTOR["ciphertext"], SIGNATURE) == b"hello world"
    locked = timelock.locked_round(QUICKNET_VECTOR["ciphertext"])
    assert (locked.round, locked.chain_hash) == (ROUND, QUICKNET_VECTOR["chain_hash"])


def test_quicknet_rounds_and_times_by_hand() -> None:
    # round 1 at genesis 1692803367; round 12040883 is 12040882 periods of 3 s later
    assert QUICKNET.time_of(1) == 1692803367
    assert QUICKNET.time_of(ROUND) == 1692803367 + 36122646 == 1728926013
    assert QUICKNET.round_at(1728926013) == ROUND
    assert QUICKNET.round_at(1728926015) == ROUND
    assert QUICKNET.round_at(1728926016) == ROUND + 1
    assert QUICKNET.round_at(1692803366) == 0


def test_a_wrong_beacon_is_refused_in_one_line() -> None:
    other = FakeDrand.create()
    with pytest.raises(VerificationError, match="not quicknet's signature on round 12040883"):
        timelock.decrypt(QUICKNET_VECTOR["ciphertext"], other.sign(ROUND))
    with pytest.raises(VerificationError, match="round 12040884"):
        timelock.verify_beacon(QUICKNET, ROUND + 1, SIGNATURE)
    with pytest.raises(InputError, match="beacon: must be 48 bytes"):
        timelock.decrypt(QUICKNET_VECTOR["ciphertext"], SIGNATURE[:47])


def test_another_networks_ciphertext_is_refused_by_chain_hash() -> None:
    drand = FakeDrand.create()
    locked = timelock.encrypt(b"seed", 5, drand.network)
    with pytest.raises(InputError, match="is not quicknet's chain hash"):
        timelock.decrypt(locked, drand.sign(5))


def test_own_network_round_trip_and_tampering() -> None:
    drand = FakeDrand.create()
    locked = timelock.encrypt(b"a season's secret seed", 7, drand.network)
    assert timelock.decrypt(locked, drand.sign(7), drand.network) == b"a season's secret seed"
    binary = bytearray(unarmor(locked))
    binary[-1] ^= 1
    with pytest.raises(InputError, match="ciphertext.payload"):
        timelock.decrypt(armor(bytes(binary)), drand.sign(7), drand.network)


def test_without_the_pairing_library_one_line_says_what_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "py_arkworks_bls12381", None)
    with pytest.raises(InputError, match="needs the pairing library py-arkworks-bls12381"):
        timelock.decrypt(QUICKNET_VECTOR["ciphertext"], SIGNATURE)


def _tlock_js(mode: str, network: Network, signature: bytes, data: bytes) -> bytes:
    """Run tlock-js (pinned in package.json) with a client that returns the one recorded beacon."""
    node = node_path()
    require(str(TLOCK_JS) if TLOCK_JS.is_file() else None,
            "tlock-js (npm package; tools/node-tools.sh)")
    info = {"name": network.name, "chain_hash": network.chain_hash, "genesis_time":
            network.genesis_time, "period": network.period, "public_key": network.public_key.hex()}
    script = Path(__file__).parent / "tlock_js.cjs"
    done = subprocess.run([node, str(script), mode, json.dumps(info), str(ROUND), signature.hex()],
                          input=data, capture_output=True, check=False, timeout=120)
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout


def test_tlock_js_opens_ours_and_we_open_tlock_js() -> None:
    ours = timelock.encrypt(b"sealed by fairfight", ROUND)
    assert bytes.fromhex(_tlock_js("decrypt", QUICKNET, SIGNATURE, ours.encode()).decode()) \
        == b"sealed by fairfight"
    theirs = _tlock_js("encrypt", QUICKNET, SIGNATURE, b"sealed by tlock-js").decode()
    assert timelock.locked_round(theirs).round == ROUND
    assert timelock.decrypt(theirs, SIGNATURE) == b"sealed by tlock-js"


def test_open_seed_checks_round_network_and_commitment(monkeypatch: pytest.MonkeyPatch) -> None:
    drand = FakeDrand.create()
    seed = "5eed" * 16
    spec = {"network": drand.network.name, "chain_hash": drand.network.chain_hash, "round": 9,
            "ciphertext": timelock.encrypt(seed.encode(), 9, drand.network)}
    commitment = hashlib.sha256(seed.encode()).hexdigest()  # the seed's published commitment
    with pytest.raises(InputError, match="is not a drand network known here"):
        timelock.open_seed(spec, commitment, drand.sign(9).hex())
    monkeypatch.setitem(timelock.KNOWN_NETWORKS, drand.network.chain_hash, drand.network)
    assert timelock.open_seed(spec, commitment, drand.sign(9).hex()) == seed
    with pytest.raises(VerificationError, match="locked to another round than the 10"):
        timelock.open_seed({**spec, "round": 10}, commitment, drand.sign(10).hex())
    with pytest.raises(VerificationError, match="does not match the commitment"):
        timelock.open_seed(spec, "0" * 64, drand.sign(9).hex())
    with pytest.raises(InputError, match="--beacon: must be the round's signature in hex"):
        timelock.open_seed(spec, commitment, "zz")


def _reframed(locked: str, old: bytes, new: bytes) -> str:
    """The armored file with one byte string of its binary form replaced."""
    binary = unarmor(locked)
    assert old in binary
    return armor(binary.replace(old, new, 1))


def test_malformed_ciphertexts_are_refused_in_one_line() -> None:
    drand = FakeDrand.create()
    locked = timelock.encrypt(b"seed", 3, drand.network)
    signature = drand.sign(3)
    cases = [
        ("hello", "ciphertext: is not an armored age file"),
        (locked.replace("\nYWdl", "\néWdl", 1), "ciphertext: the armor is not base64"),
        (_reframed(locked, b"age-encryption.org/v1", b"age-encryption.org/v2"),
         "ciphertext.version: is not an age-encryption.org/v1 file"),
        (_reframed(locked, b"-> tlock 3 ", b"-> tlock x "), "ciphertext.stanza: needs exactly one"),
        (_reframed(locked, b"\n--- ", b"\n=== "), "ciphertext.header: has no `--- MAC` line"),
        (_reframed(locked, b"-> tlock 3 ", b"-> tlock 4 "), "beacon: not test-drand's signature"),
    ]
    for text, words in cases:
        with pytest.raises((InputError, VerificationError)) as refused:
            timelock.decrypt(text, signature, drand.network)
        assert str(refused.value).startswith(words), (words, str(refused.value))
    mac_line = unarmor(locked).split(b"\n--- ")[1].split(b"\n")[0]
    other_mac = _reframed(locked, b"--- " + mac_line, b"--- " + b"A" * len(mac_line))
    with pytest.raises(InputError, match="ciphertext.mac: the header MAC does not match"):
        timelock.decrypt(other_mac, signature, drand.network)
