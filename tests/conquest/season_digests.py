"""Whole seasons played with a deterministic fan policy, reduced to one SHA-256 each.

The same policy was run once on the engine as it stood before its hot paths were rewritten
for speed (commit 2e56b2f, `python -m tests.conquest.season_digests > golden/...`), and the
digests were saved; the test replays the policy on today's engine and compares.
"""

from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

from fairfight.conquest.maps.synthetic import synthetic_map
from fairfight.conquest.rules import engine, tables
from fairfight.core.draws import below, hash64

CASES = (
    [("north-america", f"{i:064x}", None, False) for i in range(1, 13)]
    + [("north-america", hashlib.sha256(f"fans {i}".encode()).hexdigest(), None, True)
       for i in range(12)]
    + [("north-america", f"{i:064x}", 40 + i, True) for i in range(20, 24)]
    + [("synthetic-24", f"{i:064x}", None, True) for i in range(30, 42)]
)
"""(map, seed, max_battles, fans): 40 seasons, 28 of them with contributions and rebellions."""


def load(name: str) -> dict[str, Any]:
    if name == "synthetic-24":
        return synthetic_map(24, 30, 12, label="digests")
    from fairfight.conquest.rules import scenario

    return scenario.load_map(name)


def _contributions(state: dict[str, Any], seed: str, seq: int) -> list[dict[str, Any]]:
    """A few contributions before this battle: a partial or full boost to a standing faction
    now and then, and $50 in one go to an absorbed faction whose fund is empty and open."""
    board, battle = state["board"], state["board"]["next_battle"]
    codes = sorted(board["factions"])
    wanted: list[tuple[str, int]] = []
    x = hash64(f"fans-{seed}", battle)
    if x % 5 == 0:
        code = codes[below(len(codes), hash64(f"who-{seed}", battle))]
        wanted.append((code, 5 * (1 + below(10, hash64(f"much-{seed}", battle)))))
    if x % 7 == 1:
        absorbed = [c for c in codes if not board["factions"][c]["standing"]]
        if absorbed:
            wanted.append((absorbed[below(len(absorbed), x)], 50))
    entries: list[dict[str, Any]] = []
    for code, amount in wanted:
        pool = board["factions"][code]
        before = pool["pool"] + sum(e["amount"] for e in entries if e["faction"] == code)
        if pool["pool_state"] != "open" or before + amount > tables.POOL_CAP:
            continue
        seq += 1
        entries.append({"seq": seq, "before_battle": battle, "faction": code, "amount": amount})
    return entries


def season_digest(map_data: dict[str, Any], seed: str, max_battles: int | None,
                  fans: bool) -> str:
    """SHA-256 over the canonical bytes of every history entry, the ledger and the final board."""
    state = engine.new_state(map_data, seed, max_battles)
    ledger: list[dict[str, Any]] = []
    digest = hashlib.sha256()
    while not state["board"]["ended"]:
        if fans:
            ledger += _contributions(state, seed, len(ledger))
        state, entry = engine.play_step(state, ledger)
        digest.update(engine.canonical_bytes(entry) + b"\n")
    digest.update(engine.canonical_bytes(ledger) + b"\n")
    digest.update(engine.canonical_bytes(state["board"]))
    return digest.hexdigest()


def all_digests() -> list[str]:
    maps: dict[str, dict[str, Any]] = {}
    out = []
    for name, seed, cap, fans in CASES:
        if name not in maps:
            maps[name] = load(name)
        out.append(season_digest(maps[name], seed, cap, fans))
    return out


if __name__ == "__main__":
    json.dump(all_digests(), sys.stdout, indent=1)
    sys.stdout.write("\n")
