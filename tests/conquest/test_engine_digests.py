"""The engine's speed work changes no byte: 40 whole seasons against digests saved beforehand.

`golden/season_digests.json` was written by `python -m tests.conquest.season_digests` on the
engine as it stood before its hot paths were rewritten (commit 2e56b2f). The seasons cover the
default map (with and without fans, with a battle cap) and a small generated map, where the
fan policy produces secured wins and many rebellions.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conquest import season_digests

GOLDEN = json.loads((Path(__file__).parent / "golden" / "season_digests.json").read_text())


def test_the_golden_file_covers_every_case() -> None:
    assert len(GOLDEN) == len(season_digests.CASES) == 40
    assert len(set(GOLDEN)) == len(GOLDEN)


@pytest.mark.parametrize("index", range(len(season_digests.CASES)))
def test_a_season_replays_byte_for_byte(index: int) -> None:
    name, seed, cap, fans = season_digests.CASES[index]
    digest = season_digests.season_digest(season_digests.load(name), seed, cap, fans)
    assert digest == GOLDEN[index]


def test_the_front_after_a_conquest_equals_a_fresh_scan() -> None:
    """The engine updates who borders whom battle by battle; a scan from scratch agrees."""
    from fairfight.conquest.rules import engine

    map_data = season_digests.load("north-america")
    for seed in ("ab" * 32, "cd" * 32):
        state = engine.new_state(map_data, seed)
        while not state["board"]["ended"]:
            state, _entry = engine.play_step(state, [])
            world, board = state["world"], state["board"]
            kept = engine._front(world, board)
            owners = tuple(board["regions"][code]["owner"] for code in world["regions"])
            fresh = engine._Front.scan(world, owners)
            assert kept.owners == fresh.owners
            assert kept.attackers == fresh.attackers
            assert kept.links == fresh.links
            assert {k: sorted(v) for k, v in kept.holdings.items()} == {
                k: sorted(v) for k, v in fresh.holdings.items()
            }
