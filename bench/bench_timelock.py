"""Timelock unlock: what opening a season's locked seed costs, against one bare pairing.

Baseline: one BLS12-381 pairing with `py-arkworks-bls12381` (an unlock does three: two to
check the beacon, one to unwrap the file key). Measured, in the same run: `timelock.decrypt`
of drand's published quicknet vector given its recorded beacon (the issue's target is at most
one second per unlock) and `timelock.encrypt` of a 32-byte seed to a quicknet round.
"""

from __future__ import annotations

import json
from pathlib import Path

from bench.timing import best_seconds, report
from fairfight.core import timelock

ROUNDS = 20
VECTOR = Path(__file__).resolve().parents[1] / "tests" / "core" / "golden" / "tlock_quicknet.json"


def main() -> None:
    lib = timelock.pairing_library()
    vector = json.loads(VECTOR.read_text(encoding="utf-8"))
    signature = bytes.fromhex(vector["signature"])
    g1, g2 = lib.G1Point(), lib.G2Point()

    pairing = best_seconds(lambda: [lib.GT.pairing(g1, g2) for _ in range(ROUNDS)], 3) / ROUNDS
    unlock = best_seconds(
        lambda: [timelock.decrypt(vector["ciphertext"], signature) for _ in range(ROUNDS)],
        3) / ROUNDS
    lock = best_seconds(
        lambda: [timelock.encrypt(bytes(32), vector["round"]) for _ in range(ROUNDS)], 3) / ROUNDS
    report("bare pairing (py-arkworks-bls12381)", 1 / pairing, "/s")
    report("unlock: beacon checked, seed decrypted", 1 / unlock, "/s", 1 / pairing)
    report("lock: seed encrypted to a round", 1 / lock, "/s", 1 / pairing)
    print(f"unlock takes {unlock * 1000:.1f} ms (target: at most 1000 ms)", flush=True)
